//! The 0-1 integer program of a puzzle: binary `x(r,c,v)`, one equality `= 1` per cell, per
//! row and value, per column and value and per box and value, the givens fixed, objective 0.
//!
//! The model is described, not built: [`Ilp::rows`] yields the constraints one at a time, so the
//! LP and MPS writers ([`crate::format::lp`], [`crate::format::mps`]) stream any order. Names are
//! those of DESIGN.md §5, 1-based: variables `x_r_c_v`, constraints `cell_r_c`, `row_r_v`,
//! `col_c_v`, `box_b_v` and `given_r_c` (`x_r_c_v = 1` for the given `v`).
//!
//! # Sizes
//! `n³` variables; `U·n² + g` constraints (U = 4 for Sudoku, 3 for a Latin square, g givens);
//! `U·n³ + g` non-zeros.
//!
//! # Complexity
//! Each row is produced in O(n); all of them in O(n³).
//!
//! # References
//! - A. Bartlett, T. Chartier, A. Langville, T. Rankin, "An integer programming model for the
//!   Sudoku problem", Journal of Online Mathematics and its Applications 8, 2008.
//!
//! # Examples
//! ```
//! use sudokit::encode::ilp::Ilp;
//! use sudokit::{Grid, Shape};
//! let ilp = Ilp::new(&Grid::empty(Shape::sudoku(3, 3).unwrap()));
//! assert_eq!((ilp.var_count(), ilp.row_count(), ilp.nonzeros()), (729, 324, 2916));
//! assert_eq!(ilp.rows().next().unwrap().name(), "cell_1_1");
//! ```

use std::fmt::Write as _;

use thiserror::Error;

use crate::grid::{CellRef, Grid};
use crate::shape::{Shape, UnitKind};

/// The 0-1 program of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ilp {
    shape: Shape,
    givens: usize,
    puzzle: Grid,
    /// No-good cuts, one per excluded solution: the `x` of its open cells, at most all but one
    /// of which may be 1.
    cuts: Vec<Vec<(usize, usize, usize)>>,
}

/// What a constraint says (0-based fields; names are 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// Cell (r, c) holds exactly one value.
    Cell {
        /// Row.
        r: usize,
        /// Column.
        c: usize,
    },
    /// Region b of a region map holds v exactly once.
    Region {
        /// Region.
        b: usize,
        /// Value.
        v: usize,
    },
    /// Extra unit k (a diagonal, a window, a user's unit) holds v exactly once.
    Extra {
        /// The extra unit's number among the extras.
        k: usize,
        /// Value.
        v: usize,
    },
    /// Row r holds v exactly once.
    Row {
        /// Row.
        r: usize,
        /// Value.
        v: usize,
    },
    /// Column c holds v exactly once.
    Col {
        /// Column.
        c: usize,
        /// Value.
        v: usize,
    },
    /// Box b holds v exactly once.
    Box {
        /// Box.
        b: usize,
        /// Value.
        v: usize,
    },
    /// Cell (r, c) is given v.
    Given {
        /// Row.
        r: usize,
        /// Column.
        c: usize,
    },
    /// The k-th no-good cut (0-based): not every open cell of an excluded solution keeps its
    /// value.
    Cut {
        /// Which cut.
        k: usize,
    },
}

/// One constraint: the sum of `vars` (0-based `(r, c, v)`) equals 1, or for a no-good cut is at
/// most `vars.len() - 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// What it says.
    pub kind: RowKind,
    /// The variables with coefficient 1.
    pub vars: Vec<(usize, usize, usize)>,
}

impl Row {
    /// The constraint name (`cell_1_1`, `row_3_9`, `given_2_5`, ...).
    pub fn name(&self) -> String {
        match self.kind {
            RowKind::Cell { r, c } => format!("cell_{}_{}", r + 1, c + 1),
            RowKind::Row { r, v } => format!("row_{}_{}", r + 1, v + 1),
            RowKind::Col { c, v } => format!("col_{}_{}", c + 1, v + 1),
            RowKind::Box { b, v } => format!("box_{}_{}", b + 1, v + 1),
            RowKind::Region { b, v } => format!("region_{}_{}", b + 1, v + 1),
            RowKind::Extra { k, v } => format!("extra_{}_{}", k + 1, v + 1),
            RowKind::Given { r, c } => format!("given_{}_{}", r + 1, c + 1),
            RowKind::Cut { k } => format!("nogood_{}", k + 1),
        }
    }

    /// Whether the row is an equality `= 1` (every row but a no-good cut, which is `<=`).
    pub fn is_equality(&self) -> bool {
        !matches!(self.kind, RowKind::Cut { .. })
    }

    /// The right-hand side: 1, or `vars.len() - 1` for a no-good cut.
    pub fn rhs(&self) -> usize {
        if self.is_equality() {
            1
        } else {
            self.vars.len().saturating_sub(1)
        }
    }
}

/// The name of `x(r,c,v)` (0-based arguments): `x_r_c_v`, 1-based.
pub fn var_name(r: usize, c: usize, v: usize) -> String {
    let mut s = String::with_capacity(12);
    let _ = write!(s, "x_{}_{}_{}", r + 1, c + 1, v + 1);
    s
}

/// `(r, c, v)` 0-based from a name `x_r_c_v` of an order-`n` program.
pub fn parse_var_name(name: &str, n: usize) -> Option<(usize, usize, usize)> {
    let mut parts = name.strip_prefix("x_")?.split('_');
    let mut next = || -> Option<usize> {
        let k: usize = parts.next()?.parse().ok()?;
        (1..=n).contains(&k).then(|| k - 1)
    };
    let (r, c, v) = (next()?, next()?, next()?);
    parts.next().is_none().then_some((r, c, v))
}

impl Ilp {
    /// The program of `puzzle`.
    pub fn new(puzzle: &Grid) -> Ilp {
        Ilp::excluding(puzzle, &[])
    }

    /// The program of `puzzle` with one no-good cut per grid of `excluded` (solutions already
    /// found): `sum x <= k - 1` over the `x` its `k` open cells set. A grid with no open cell
    /// gives no cut.
    pub fn excluding(puzzle: &Grid, excluded: &[Grid]) -> Ilp {
        Ilp {
            shape: puzzle.shape(),
            givens: puzzle.filled(),
            puzzle: puzzle.clone(),
            cuts: excluded
                .iter()
                .map(|s| crate::encode::nogood(puzzle, s))
                .filter(|cut| !cut.is_empty())
                .collect(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of givens.
    pub fn givens(&self) -> usize {
        self.givens
    }

    /// `n³`.
    pub fn var_count(&self) -> usize {
        self.shape.order().pow(3)
    }

    /// `n² + U·n + g` for `U` units (and one row per no-good cut).
    pub fn row_count(&self) -> usize {
        self.shape.cells()
            + self.shape.unit_count() * self.shape.order()
            + self.givens
            + self.cuts.len()
    }

    /// `n³ + U·n² + g` (and the cuts' terms).
    pub fn nonzeros(&self) -> usize {
        self.var_count()
            + self.shape.unit_count() * self.shape.cells()
            + self.givens
            + self.cuts.iter().map(Vec::len).sum::<usize>()
    }

    /// The constraints: cells, then unit-values (rows, columns, boxes), then givens.
    pub fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        let shape = self.shape;
        let n = shape.order();
        let cells = (0..shape.cells()).map(move |cell| {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            Row {
                kind: RowKind::Cell { r, c },
                vars: (0..n).map(|v| (r, c, v)).collect(),
            }
        });
        let units = self.shape.units().flat_map(move |unit| {
            (0..n).map(move |v| Row {
                kind: match unit.kind {
                    UnitKind::Row => RowKind::Row { r: unit.number, v },
                    UnitKind::Column => RowKind::Col { c: unit.number, v },
                    UnitKind::Box => RowKind::Box { b: unit.number, v },
                    UnitKind::Region => RowKind::Region { b: unit.number, v },
                    UnitKind::Extra(_) => RowKind::Extra { k: unit.number, v },
                },
                vars: shape
                    .unit_cells(unit)
                    .map(|cell| (shape.row_of(cell), shape.col_of(cell), v))
                    .collect(),
            })
        });
        let givens = self.puzzle.givens().map(move |(cell, v)| {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            Row {
                kind: RowKind::Given { r, c },
                vars: vec![(r, c, v)],
            }
        });
        let cuts = self.cuts.iter().enumerate().map(|(k, vars)| Row {
            kind: RowKind::Cut { k },
            vars: vars.clone(),
        });
        cells.chain(units).chain(givens).chain(cuts)
    }

    /// The names of the constraints a variable appears in, in [`Ilp::rows`] order
    /// (for column-wise formats such as MPS).
    pub fn rows_of(&self, r: usize, c: usize, v: usize) -> Vec<String> {
        let shape = self.shape;
        let mut names = vec![format!("cell_{}_{}", r + 1, c + 1)];
        names.extend(shape.units_of(shape.cell(r, c)).map(|unit| {
            let (prefix, number) = match unit.kind {
                UnitKind::Row => ("row", unit.number),
                UnitKind::Column => ("col", unit.number),
                UnitKind::Box => ("box", unit.number),
                UnitKind::Region => ("region", unit.number),
                UnitKind::Extra(_) => ("extra", unit.number),
            };
            format!("{prefix}_{}_{}", number + 1, v + 1)
        }));
        if self.puzzle.at(r, c) == Some(v) {
            names.push(format!("given_{}_{}", r + 1, c + 1));
        }
        for (k, cut) in self.cuts.iter().enumerate() {
            if cut.contains(&(r, c, v)) {
                names.push(format!("nogood_{}", k + 1));
            }
        }
        names
    }
}

/// The status a MIP solver reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IlpStatus {
    /// An optimal (here: any feasible) integer solution.
    Optimal,
    /// No integer solution.
    Infeasible,
    /// The solver stopped without an answer.
    Unknown,
}

/// A MIP solver's answer: status and the values of named columns (missing columns are 0).
#[derive(Debug, Clone, PartialEq)]
pub struct IlpSolution {
    /// The status.
    pub status: IlpStatus,
    /// `(column name, value)` as read.
    pub values: Vec<(String, f64)>,
}

/// Why a MIP solution does not describe a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IlpDecodeError {
    /// A column name that is not `x_r_c_v` of this order.
    #[error("column '{0}' is not a variable x_r_c_v of this puzzle")]
    UnknownColumn(String),
    /// A value that is neither 0 nor 1.
    #[error("column '{name}' has the fractional value {value}")]
    Fractional {
        /// The column.
        name: String,
        /// Its value as written.
        value: String,
    },
    /// No value of a cell is 1.
    #[error("the solution sets no value of cell {0}")]
    NoValue(CellRef),
    /// Two values of a cell are 1.
    #[error("the solution sets two values of cell {cell}: {first} and {second}")]
    TwoValues {
        /// The cell.
        cell: CellRef,
        /// 1-based.
        first: usize,
        /// 1-based.
        second: usize,
    },
}

/// The grid of a MIP solution (status not checked here; the caller decides).
///
/// # Errors
/// [`IlpDecodeError`] for unknown names, fractional values and cells with no or two values.
pub fn decode(puzzle: &Grid, solution: &IlpSolution) -> Result<Grid, IlpDecodeError> {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut grid = Grid::empty(shape);
    for (name, value) in &solution.values {
        let Some((r, c, v)) = parse_var_name(name, n) else {
            return Err(IlpDecodeError::UnknownColumn(name.clone()));
        };
        if !value.is_finite() {
            return Err(IlpDecodeError::Fractional {
                name: name.clone(),
                value: value.to_string(),
            });
        }
        if value.abs() < 1e-6 {
            continue;
        }
        if (value - 1.0).abs() > 1e-6 {
            return Err(IlpDecodeError::Fractional {
                name: name.clone(),
                value: value.to_string(),
            });
        }
        let cell = shape.cell(r, c);
        if let Some(first) = grid.get(cell).filter(|&f| f != v) {
            return Err(IlpDecodeError::TwoValues {
                cell: grid.cell_ref(cell),
                first: first.min(v) + 1,
                second: first.max(v) + 1,
            });
        }
        grid.set(cell, Some(v));
    }
    if let Some(cell) = (0..shape.cells()).find(|&cell| grid.get(cell).is_none()) {
        return Err(IlpDecodeError::NoValue(grid.cell_ref(cell)));
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_rows_agree() {
        for shape in [
            Shape::sudoku(2, 3).unwrap(),
            Shape::sudoku(3, 3).unwrap(),
            Shape::latin(5).unwrap(),
        ] {
            let mut puzzle = Grid::empty(shape);
            puzzle.set(0, Some(1));
            puzzle.set(shape.cells() - 1, Some(0));
            let ilp = Ilp::new(&puzzle);
            let rows: Vec<Row> = ilp.rows().collect();
            assert_eq!(rows.len(), ilp.row_count(), "{shape}");
            assert_eq!(
                rows.iter().map(|r| r.vars.len()).sum::<usize>(),
                ilp.nonzeros()
            );
            // rows_of lists exactly the rows containing the variable.
            let n = shape.order();
            for (r, c, v) in [(0, 0, 1), (n - 1, n - 1, 0), (1, 2, 3 % n)] {
                let mut names: Vec<String> = rows
                    .iter()
                    .filter(|row| row.vars.contains(&(r, c, v)))
                    .map(Row::name)
                    .collect();
                let mut listed = ilp.rows_of(r, c, v);
                names.sort();
                listed.sort();
                assert_eq!(names, listed);
            }
        }
    }

    #[test]
    fn names_parse_back_and_decoding_checks_cells() {
        assert_eq!(parse_var_name("x_1_12_3", 16), Some((0, 11, 2)));
        assert_eq!(parse_var_name("x_1_17_3", 16), None);
        assert_eq!(parse_var_name("x_1_1", 16), None);
        assert_eq!(parse_var_name("x_1_1_1_1", 16), None);
        let puzzle = Grid::empty(Shape::sudoku(1, 1).unwrap());
        let ok = IlpSolution {
            status: IlpStatus::Optimal,
            values: vec![("x_1_1_1".into(), 1.0)],
        };
        assert_eq!(decode(&puzzle, &ok).unwrap().get(0), Some(0));
        let half = IlpSolution {
            status: IlpStatus::Optimal,
            values: vec![("x_1_1_1".into(), 0.5)],
        };
        assert!(matches!(
            decode(&puzzle, &half),
            Err(IlpDecodeError::Fractional { .. })
        ));
        let none = IlpSolution {
            status: IlpStatus::Optimal,
            values: vec![],
        };
        assert_eq!(
            decode(&puzzle, &none).unwrap_err().to_string(),
            "the solution sets no value of cell (1,1)"
        );
    }
}
