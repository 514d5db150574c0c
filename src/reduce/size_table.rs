//! The sizes of every level of the chain across orders, on one slide: `reduce latin --sizes
//! 2..8`. For the empty square of each order m (no givens: g = 0), each size of each level is
//! given by its formula ([`crate::reduce::formulas`]) and its value at every order, so the
//! polynomial growth is read along a row: the Sudoku has m⁴ cells, the CNF about m⁶ variables.
//! The formulas are the ones the course prints beside each measured size, where a test checks
//! them against the built instances; the table evaluates them only (a 64×64 CNF is not built to
//! print a number).
//!
//! # Complexity
//! O(m³) per order (the exact cover's option count), O(levels × orders) lines.

use std::ops::RangeInclusive;

use serde_json::json;
use thiserror::Error;

use crate::encode::cnf::{CnfOptions, Encoding};
use crate::grid::Grid;
use crate::reduce::course_data::Level;
use crate::reduce::formulas::{amo_formulas, size_formulas};
use crate::shape::Shape;

/// The largest order a size table goes to (m = 16: a Sudoku of order 256).
pub const MAX_TABLE_ORDER: usize = 16;

/// One size of one level across the orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeRow {
    /// The level.
    pub level: Level,
    /// What is counted ("clauses").
    pub measure: &'static str,
    /// The formula, in the letters of [`crate::reduce::formulas`].
    pub formula: String,
    /// Its value at each order of the table.
    pub values: Vec<usize>,
}

/// The table: the orders and a row per (level, size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeTable {
    /// The orders m of the columns.
    pub orders: Vec<usize>,
    /// The CNF encoding the CNF rows count.
    pub cnf: CnfOptions,
    /// The rows, level by level in chain order.
    pub rows: Vec<SizeRow>,
}

/// Why no table is made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeTableError {
    /// Orders outside 2..=16, or a range that runs backwards.
    #[error(
        "--sizes takes orders from 2 to {MAX_TABLE_ORDER}, low to high (such as 2..8), not {0}"
    )]
    Orders(String),
    /// The optimized CNF encoding, whose size depends on the givens.
    #[error("the optimized encoding's size depends on where the givens are: it has no formula")]
    NoFormula,
}

/// Reads `A..B` (or a single order `A`).
///
/// # Errors
/// [`SizeTableError::Orders`] for anything else, or orders out of 2..=16.
pub fn parse_orders(text: &str) -> Result<RangeInclusive<usize>, SizeTableError> {
    let bad = || SizeTableError::Orders(text.to_string());
    let (low, high) = match text.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim().trim_start_matches('=')),
        None => (text.trim(), text.trim()),
    };
    let low: usize = low.parse().map_err(|_| bad())?;
    let high: usize = high.parse().map_err(|_| bad())?;
    if low < 2 || high > MAX_TABLE_ORDER || low > high {
        return Err(bad());
    }
    Ok(low..=high)
}

/// The size table of `orders` with the CNF encoding `cnf`; see the module docs.
///
/// # Errors
/// [`SizeTableError::NoFormula`] for the optimized encoding.
///
/// # Examples
/// ```
/// use sudokit::encode::cnf::CnfOptions;
/// use sudokit::reduce::size_table::size_table;
/// let table = size_table(2..=3, CnfOptions::default()).unwrap();
/// let cells = &table.rows[4]; // the Sudoku's cells: m⁴
/// assert_eq!(cells.measure, "cells");
/// assert_eq!(cells.values, [16, 81]);
/// ```
pub fn size_table(
    orders: RangeInclusive<usize>,
    cnf: CnfOptions,
) -> Result<SizeTable, SizeTableError> {
    if cnf.encoding == Encoding::Optimized {
        return Err(SizeTableError::NoFormula);
    }
    let orders: Vec<usize> = orders.collect();
    let empties: Vec<Grid> = orders
        .iter()
        .map(|&m| Grid::empty(Shape::latin(m).expect("orders are checked")))
        .collect();
    let mut rows = Vec::new();
    for level in Level::ALL {
        let per_order: Vec<_> = empties
            .iter()
            .map(|square| size_formulas(level, square, cnf).ok_or(SizeTableError::NoFormula))
            .collect::<Result<_, _>>()?;
        for (k, measure) in level.size_names().into_iter().enumerate() {
            // A formula that names a count of the encoder's (product, bimander) differs from
            // order to order: the table then says whose count it is.
            let formula = &per_order[0].formulas[k].text;
            let same = per_order.iter().all(|f| &f.formulas[k].text == formula);
            rows.push(SizeRow {
                level,
                measure,
                formula: if same {
                    formula.clone()
                } else {
                    format!("the {} encoder's count", cnf.amo)
                },
                values: per_order.iter().map(|f| f.formulas[k].value).collect(),
            });
        }
    }
    Ok(SizeTable { orders, cnf, rows })
}

impl SizeTable {
    /// The table as aligned text: a heading line, then `level  size  formula  value…`.
    pub fn text(&self) -> String {
        let mut lines = vec![{
            let mut head = vec!["level".to_string(), "size".into(), "formula".into()];
            head.extend(self.orders.iter().map(|m| format!("m = {m}")));
            head
        }];
        for row in &self.rows {
            let mut line = vec![
                row.level.title().to_string(),
                row.measure.to_string(),
                row.formula.clone(),
            ];
            line.extend(row.values.iter().map(usize::to_string));
            lines.push(line);
        }
        let columns = lines[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                lines
                    .iter()
                    .map(|l| l[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = format!(
            "sizes of every level for the empty square of order m (g = 0; n = m², p = q = m, \
             G = n² − m²; CNF {}, {} AMO)\n",
            self.cnf.encoding, self.cnf.amo
        );
        for line in &lines {
            let cells: Vec<String> = line
                .iter()
                .enumerate()
                .map(|(c, text)| {
                    let pad = widths[c] - text.chars().count();
                    if c < 3 {
                        format!("{text}{}", " ".repeat(pad))
                    } else {
                        format!("{}{text}", " ".repeat(pad))
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        let (a, x) = amo_formulas(self.cnf.amo, 3);
        let (a, x) = if a.contains('n') {
            (a, x)
        } else {
            ("its encoder's count".to_string(), "its own".to_string())
        };
        out.push_str(&format!(
            "A = {a} clauses and X = {x} auxiliary variables per at-most-one of n literals ({} \
             AMO); a = the exact cover's options of the square's cells, m³ when it is empty; \
             s = its cells with one option, none when it is empty\n",
            self.cnf.amo
        ));
        out
    }

    /// One JSON object per row: `level`, `size`, `formula`, `values` (an object from each order
    /// m to its value).
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.rows
            .iter()
            .map(|row| {
                let values: serde_json::Map<String, serde_json::Value> = self
                    .orders
                    .iter()
                    .zip(&row.values)
                    .map(|(m, v)| (m.to_string(), json!(v)))
                    .collect();
                json!({
                    "level": row.level.name(),
                    "size": row.measure,
                    "formula": row.formula,
                    "values": values,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_read_and_checked() {
        assert_eq!(parse_orders("2..8").unwrap(), 2..=8);
        assert_eq!(parse_orders("3..=5").unwrap(), 3..=5);
        assert_eq!(parse_orders("4").unwrap(), 4..=4);
        for bad in ["1..8", "8..2", "2..17", "two", "2.."] {
            assert!(parse_orders(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_level_has_its_four_sizes_and_they_grow() {
        let table = size_table(2..=8, CnfOptions::default()).unwrap();
        assert_eq!(table.rows.len(), 4 * Level::ALL.len());
        for row in &table.rows {
            assert_eq!(row.values.len(), 7, "{row:?}");
        }
        // The Sudoku's givens G = n² − m² grow as m⁴; its cells are m⁴.
        let cells = &table.rows[4];
        assert_eq!(cells.values, [16, 81, 256, 625, 1296, 2401, 4096]);
        assert!(table.text().lines().count() == 3 + table.rows.len());
    }
}
