//! How Python hands a grid over: the reading options of `box`, `latin` and `format`, and a
//! `Puzzle` or puzzle text (one puzzle, in any form) as a library grid: [`grid_of`] for a
//! puzzle, [`candidate_of`] for a candidate solution.

use pyo3::prelude::*;
use sudokit::Grid;
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout, read_one};

use crate::errors::{option_value_error, text_error, value_error};
use crate::puzzle::Puzzle;

/// The shape a `box`/`latin` pair asks for.
pub fn shape_spec(r#box: Option<(usize, usize)>, latin: bool) -> PyResult<Option<ShapeSpec>> {
    match (r#box, latin) {
        (Some(_), true) => Err(option_value_error("give box or latin, not both")),
        (Some((p, q)), false) => Ok(Some(ShapeSpec::Box(p, q))),
        (None, true) => Ok(Some(ShapeSpec::Latin)),
        (None, false) => Ok(None),
    }
}

/// The reading options of `box`, `latin` and a form name.
pub fn read_options(
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
) -> PyResult<ReadOptions> {
    let format = match format {
        None => TextLayout::Auto,
        Some(name) => name.parse::<TextLayout>().map_err(option_value_error)?,
    };
    Ok(ReadOptions {
        format,
        shape: shape_spec(r#box, latin)?,
        ..ReadOptions::default()
    })
}

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
        return Ok(parse(&text, options)?.grid);
    }
    Err(value_error(format!(
        "expected a Puzzle or puzzle text, not {}",
        value.get_type().name()?
    )))
}

/// The one puzzle of `text`, in any form (n unspaced rows of n symbols are one puzzle).
pub fn parse(text: &str, options: ReadOptions) -> PyResult<Puzzle> {
    let read = read_one(text, options).map_err(|e| text_error(None, &e))?;
    Ok(Puzzle::new(read.grid))
}
