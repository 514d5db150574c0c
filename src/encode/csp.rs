//! The constraint model of a puzzle: one variable per cell with domain `1..=n`, the givens as
//! equalities, and one `alldifferent` per unit. It is the model of `models/sudoku.mzn`, which
//! [`crate::format::minizinc`] feeds with the instance data.
//!
//! # Complexity
//! `n²` variables and `U·n` constraints of `n` variables each (U = 3, or 2 for a Latin square).
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", CP 2005 workshop on modelling and
//!   reformulating constraint satisfaction problems.
//! - N. Nethercote et al., "MiniZinc: towards a standard CP modelling language", CP 2007.
//!
//! # Examples
//! ```
//! use sudokit::encode::csp::Csp;
//! use sudokit::text::parse_line;
//! let csp = Csp::new(&parse_line("1...............", None).unwrap());
//! assert_eq!(csp.scopes().count(), 12);
//! assert_eq!(csp.domain(0), vec![1]);
//! assert_eq!(csp.domain(1), vec![1, 2, 3, 4]);
//! ```

use crate::grid::Grid;
use crate::shape::Shape;

/// The alldifferent model of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csp {
    puzzle: Grid,
}

impl Csp {
    /// The model of `puzzle`.
    pub fn new(puzzle: &Grid) -> Csp {
        Csp {
            puzzle: puzzle.clone(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// The 1-based given of each cell, 0 when empty (the `given` array of the model), row-major.
    pub fn given_array(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.shape().cells()).map(|cell| self.puzzle.get(cell).map_or(0, |v| v + 1))
    }

    /// The domain of a cell, 1-based: its given, or `1..=n`.
    pub fn domain(&self, cell: usize) -> Vec<usize> {
        match self.puzzle.get(cell) {
            Some(v) => vec![v + 1],
            None => (1..=self.shape().order()).collect(),
        }
    }

    /// The scope (cells) of each alldifferent constraint, one per unit.
    pub fn scopes(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let shape = self.shape();
        (0..shape.unit_count()).map(move |i| shape.unit_cells(shape.unit(i)).collect())
    }

    /// Whether a complete assignment (1-based values per cell) satisfies every constraint.
    pub fn is_satisfied_by(&self, values: &[usize]) -> bool {
        let n = self.shape().order();
        let domains_ok = (0..self.shape().cells()).all(|cell| {
            let value = values[cell];
            (1..=n).contains(&value) && self.puzzle.get(cell).is_none_or(|g| g + 1 == value)
        });
        domains_ok
            && self.scopes().all(|scope| {
                let mut seen = vec![false; n + 1];
                scope
                    .iter()
                    .all(|&cell| !std::mem::replace(&mut seen[values[cell]], true))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn solutions_satisfy_the_model() {
        let puzzle = parse_line("1.3.....4....2..", None).unwrap();
        let csp = Csp::new(&puzzle);
        let mut values: Vec<usize> = "1432234141233214"
            .bytes()
            .map(|b| (b - b'0') as usize)
            .collect();
        assert!(csp.is_satisfied_by(&values));
        values.swap(1, 3);
        assert!(!csp.is_satisfied_by(&values));
        assert_eq!(csp.given_array().filter(|&g| g > 0).count(), 4);
    }
}
