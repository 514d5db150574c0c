//! `reduce_latin`: a partial Latin square reduced to Sudoku (the first step of the
//! NP-completeness chain), a `LatinReduction` value of `sudokit._results`, and what it does with
//! the library (`sudokit::render::latin`): the completion a solution gives, both grids side by
//! side as SVG, and the chain as an HTML report. Each reduces the square again (a function of
//! it, quick beside a solve of its Sudoku).

use pyo3::prelude::*;
use sudokit::LatinReduction;
use sudokit::render::latin::{chain_report, completion, side_by_side_svg};

use crate::errors::failure;
use crate::grid_input::{candidate_of, grid_of};
use crate::puzzle::Puzzle;
use crate::values::result;

/// The reduction of a square (a `Puzzle` or text).
fn reduction(square: &Bound<'_, PyAny>) -> PyResult<LatinReduction> {
    sudokit::reduce_latin(&grid_of(square)?).map_err(failure)
}

/// Reduces a partial Latin square (a `Puzzle` or text; its givens are read as a Latin square of
/// its order) to Sudoku: a `LatinReduction` (the square, the Sudoku and the sizes of both).
#[pyfunction]
pub fn reduce_latin<'py>(square: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let reduction = reduction(square)?;
    let sizes = reduction.sizes().map(|row| {
        let [a, b, c, d] = row.size.numbers();
        (row.level, a, b, c, d)
    });
    let fields = (
        Puzzle::new(reduction.square().clone()),
        Puzzle::new(reduction.sudoku().clone()),
        sizes.to_vec(),
    );
    result(square.py(), "LatinReduction", fields)
}

/// The completion of `square` that `solution` (a solution of its Sudoku) gives, verified.
#[pyfunction]
pub fn latin_back(square: &Bound<'_, PyAny>, solution: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    let completion = completion(&reduction(square)?, &candidate_of(solution)?);
    Ok(Puzzle::new(completion.map_err(failure)?))
}

/// The chain of `square`'s reduction as a self-contained HTML page; with `solution` (of the
/// Sudoku), both verified solutions drawn too.
#[pyfunction]
#[pyo3(signature = (square, solution = None))]
pub fn latin_report(
    square: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let solution = solution.map(grid_of).transpose()?;
    let report = chain_report(&reduction(square)?, solution.as_ref()).map_err(failure)?;
    Ok(report.to_html())
}

/// Both grids of `square`'s reduction side by side, the cells of the Sudoku that carry the
/// square shaded; with `solution` (of the Sudoku), the solutions drawn in.
#[pyfunction]
#[pyo3(signature = (square, solution = None))]
pub fn latin_svg(
    square: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let solution = solution.map(grid_of).transpose()?;
    side_by_side_svg(&reduction(square)?, solution.as_ref()).map_err(failure)
}
