//! Why the reduction Latin square completion → Sudoku cannot be made, or cannot map back: its
//! own file, so that [`super::reduction`]'s error can wrap it while [`super::latin`] implements
//! the [`super::reduction::Reduction`] trait (no circle between the two files).
//!
//! # Complexity
//! Constant.

use thiserror::Error;

use crate::shape::{MAX_ORDER, Shape};
use crate::verify::Violation;

/// Why a reduction step cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LatinReductionError {
    /// `m²` would exceed the largest order.
    #[error("a Latin square of order {m} becomes a Sudoku of order {}, above the maximum {MAX_ORDER}", m * m)]
    TooLarge {
        /// The Latin square's order.
        m: usize,
    },
    /// The Sudoku has the wrong shape for the Latin square.
    #[error("expected a Sudoku of order {expected} with {m}×{m} boxes, found {found}")]
    WrongShape {
        /// The Latin square's order.
        m: usize,
        /// The expected Sudoku order `m²`.
        expected: usize,
        /// The shape found.
        found: Shape,
    },
    /// A cell of the embedded square holds a value that is not a multiple of `m`.
    #[error("cell ({row},{col}) carries the Latin square but holds {value}, not a multiple of {m}")]
    NotEmbedded {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// 1-based value.
        value: usize,
        /// The Latin square's order.
        m: usize,
    },
    /// The input is not a solution at its level.
    #[error("not a solution: {0}")]
    NotASolution(Violation),
}
