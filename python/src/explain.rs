//! `explain`: one propagation scheme's story on one puzzle, told easiest rule first, every step
//! replayed by the library's checker before it is returned (`sudokit::propagate::explain`). The
//! story reaches Python as its JSON lines and text, made an `Explanation` value in
//! `sudokit._results`; its page of frames (`sudokit explain --html`) is drawn on demand.

use pyo3::prelude::*;
use pythonize::pythonize;
use serde_json::Value;
use sudokit::Grid;
use sudokit::grade::scheme_to_explain;
use sudokit::propagate::Scheme;
use sudokit::propagate::explain::{Explanation as Story, explain as tell};
use sudokit::render::explain::explain_page;

use crate::errors::{failure, value_error};
use crate::grid_input::grid_of;
use crate::interrupt::detached;
use crate::puzzle::Puzzle;
use crate::values::result;

/// The story of `scheme` (by default the first scheme that solves the puzzle without search,
/// else the first that refutes it) on `grid`, told without the GIL, and why that scheme.
fn story(py: Python<'_>, grid: Grid, scheme: Option<&str>) -> PyResult<(Story, String)> {
    let asked = scheme
        .map(|name| name.parse::<Scheme>().map_err(value_error))
        .transpose()?;
    let (story, why) = detached(py, move || {
        let (scheme, why) = match asked {
            Some(scheme) => (scheme, "as asked"),
            None => scheme_to_explain(&grid),
        };
        (tell(&grid, scheme), why.to_string())
    })?;
    Ok((story.map_err(failure)?, why))
}

/// Tells `scheme` (a name such as `"FCI"`; by default the first scheme that solves the puzzle
/// without search, else the first that refutes it) on `puzzle`, easiest rule first: step 1
/// places every given, then singles, locked candidates, pairs and triples, then the scheme's
/// stronger reasoning. Every step is replayed from its rule before it is returned.
#[pyfunction]
#[pyo3(signature = (puzzle, scheme = None))]
pub fn explain<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    scheme: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let (story, why) = story(py, grid_of(puzzle)?, scheme)?;
    let mut lines = story.json_lines();
    let ending = lines.pop().unwrap_or(Value::Null);
    let fields = (
        Puzzle::new(story.puzzle.clone()),
        story.scheme.name(),
        why,
        pythonize(py, &Value::Array(lines))?,
        pythonize(py, &ending)?,
        story.solution().cloned().map(Puzzle::new),
        story.text_lines().join("\n"),
    );
    result(py, "Explanation", fields)
}

/// The page of frames of `scheme`'s story on `puzzle` (`sudokit explain --html`), told again.
#[pyfunction]
pub fn explanation_page(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    scheme: &str,
) -> PyResult<String> {
    let (story, _) = story(py, grid_of(puzzle)?, Some(scheme))?;
    Ok(explain_page(&story, &format!("{} explained", story.scheme)))
}
