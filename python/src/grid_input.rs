//! How Python hands a grid over: a `Puzzle` or puzzle text (one puzzle, in any form) as a
//! library grid: [`grid_of`] for a puzzle, [`candidate_of`] for a candidate solution.

use pyo3::prelude::*;
use sudokit::Grid;
use sudokit::text::{ReadOptions, read_one};

use crate::errors::{text_error, value_error};
use crate::puzzle::Puzzle;

/// A puzzle from Python: a `Puzzle`, or text in any form (givens that clash are an error).
pub fn grid_of(value: &Bound<'_, PyAny>) -> PyResult<Grid> {
    grid_with(value, ReadOptions::default())
}

/// A candidate solution from Python: as [`grid_of`], but text may repeat a value in a unit
/// (that is for the verifier to report).
pub fn candidate_of(value: &Bound<'_, PyAny>) -> PyResult<Grid> {
    let options = ReadOptions {
        reject_clashes: false,
        ..ReadOptions::default()
    };
    grid_with(value, options)
}

/// A puzzle from Python (a `Puzzle`, or text read with `options`).
pub fn grid_with(value: &Bound<'_, PyAny>, options: ReadOptions) -> PyResult<Grid> {
    if let Ok(puzzle) = value.cast::<Puzzle>() {
        return Ok(puzzle.get().grid.clone());
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(read_one(&text, options)
            .map_err(|e| text_error(None, &e))?
            .grid);
    }
    Err(value_error(format!(
        "expected a Puzzle or puzzle text, not {}",
        value.get_type().name()?
    )))
}
