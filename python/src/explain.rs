//! `explain`: one propagation scheme's story on one puzzle, told easiest rule first, every step
//! replayed by the library's checker before it is returned (`sudokit::propagate::explain`),
//! with a notebook view: the library's page of frames, stepped with `←`/`→` (`L` for lecture
//! mode) inside an iframe.

use pyo3::prelude::*;
use sudokit::grade::scheme_to_explain;
use sudokit::propagate::Scheme;
use sudokit::propagate::explain::{Ending, Explanation as Story, explain as tell};
use sudokit::render::explain::explain_page;
use sudokit::render::svg::escape_xml;

use crate::errors::{failure, value_error};
use crate::grid_input::grid_of;
use crate::interrupt::detached;
use crate::puzzle::Puzzle;
use crate::values::{Pick, grid_of_state, grid_state, hash_grid, hash_with, pick, reduce};

/// One scheme's propagation on one puzzle, step by step: `scheme`, `why` (why that scheme),
/// `steps` (one dict per step, as `sudokit explain --json` writes it), `ending` (`solved`,
/// `search` or `contradiction`), `solution`, `text()`, `to_json()`; a notebook shows its frames.
///
/// A sequence of its steps, as `steps` lists them: `len`, iteration, `explanation[i]` (a step's
/// dict; negative from the end) and `explanation[i:j]` (a plain list of those dicts: a run of
/// steps is not a story, it has no ending). A value: equal to the same story (puzzle, scheme,
/// why, every step and the ending), hashable, picklable (the puzzle, the scheme and the why;
/// the story is told again, step by step, as it was).
#[pyclass(module = "sudokit", frozen)]
pub struct Explanation {
    story: Story,
    why: String,
}

/// A JSON value as a Python object.
fn py_json(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

#[pymethods]
impl Explanation {
    /// The scheme told (`"FC"`, `"HACSC3"`, ...).
    #[getter]
    fn scheme(&self) -> &'static str {
        self.story.scheme.name()
    }

    /// Why this scheme: "as asked", or the first scheme that solves (refutes) the puzzle.
    #[getter]
    fn why(&self) -> &str {
        &self.why
    }

    /// The steps, each a dict: `step`, `kind`, `name`, `units`, `cells`, `values`, `removed`,
    /// `placed` (1-based), `text`, and a probe's `chain`.
    #[getter]
    fn steps(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let shape = self.story.puzzle.shape();
        self.story
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| py_json(py, &step.to_json(shape, i + 1)))
            .collect()
    }

    /// How it ended: `solved`, `search` (a search would start; see `ending_json`) or
    /// `contradiction`.
    #[getter]
    fn ending(&self) -> &'static str {
        match self.story.ending {
            Ending::Solved(_) => "solved",
            Ending::Stuck { .. } => "search",
            Ending::Contradiction => "contradiction",
        }
    }

    /// The ending as a dict (with the branch cell and value where a search would start).
    #[getter]
    fn ending_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        py_json(py, &self.story.ending_json())
    }

    /// The solution, when the scheme solves the puzzle without search (verified).
    #[getter]
    fn solution(&self) -> Option<Puzzle> {
        self.story.solution().cloned().map(Puzzle::new)
    }

    /// The story as `sudokit explain` prints it (without its header line).
    fn text(&self) -> String {
        self.story.text_lines().join("\n")
    }

    /// The story as JSON lines: one object per step, then the ending.
    fn to_json(&self) -> String {
        let lines: Vec<String> = self
            .story
            .json_lines()
            .iter()
            .map(|v| v.to_string())
            .collect();
        lines.join("\n")
    }

    /// The page of frames (`sudokit explain --html`).
    fn html(&self) -> String {
        explain_page(&self.story, &format!("{} explained", self.story.scheme))
    }

    /// The page of frames inside an iframe, so that its styles and keys stay out of the
    /// notebook's page.
    fn _repr_html_(&self) -> String {
        format!(
            "<iframe srcdoc=\"{}\" style=\"width:100%;height:640px;border:0\"></iframe>",
            escape_xml(&self.html())
        )
    }

    fn __len__(&self) -> usize {
        self.story.steps.len()
    }

    /// The steps, each a dict (as `steps`).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        pyo3::types::PyList::new(py, self.steps(py)?)?.try_iter()
    }

    /// Step `index` (0-based, negative from the end) as a dict, or the steps of a slice as a
    /// list of dicts.
    fn __getitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = index.py();
        let shape = self.story.puzzle.shape();
        let step = |at: usize| py_json(py, &self.story.steps[at].to_json(shape, at + 1));
        match pick(index, self.story.steps.len(), "step")? {
            Pick::One(at) => step(at),
            Pick::Many(picked) => {
                let steps = picked.into_iter().map(step).collect::<PyResult<Vec<_>>>()?;
                Ok(pyo3::types::PyList::new(py, steps)?.into_any().unbind())
            }
        }
    }

    /// Equal when the puzzle, the scheme, the why, the steps and the ending are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Explanation>().is_ok_and(|o| {
            let o = o.get();
            o.story.puzzle == self.story.puzzle
                && o.story.scheme == self.story.scheme
                && o.why == self.why
                && o.story.json_lines() == self.story.json_lines()
        })
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::Hash;
        hash_with(|h| {
            hash_grid(&self.story.puzzle, h);
            self.story.scheme.hash(h);
            self.why.hash(h);
            self.story.steps.len().hash(h);
        })
    }

    /// Pickling: the puzzle, the scheme and the why.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let state = (
            grid_state(&self.story.puzzle),
            self.scheme(),
            self.why.clone(),
        );
        reduce(py, "_explanation_from_state", state)
    }

    fn __repr__(&self) -> String {
        format!(
            "Explanation(scheme='{}', steps={}, ending='{}')",
            self.scheme(),
            self.story.steps.len(),
            self.ending()
        )
    }
}

/// The inverse of `Explanation.__reduce__`: the story told again.
#[pyfunction]
pub fn _explanation_from_state(
    py: Python<'_>,
    puzzle: &str,
    scheme: &str,
    why: String,
) -> PyResult<Explanation> {
    let grid = grid_of_state(puzzle)?;
    let scheme = scheme.parse::<Scheme>().map_err(value_error)?;
    let story = detached(py, move || tell(&grid, scheme))?;
    Ok(Explanation {
        story: story.map_err(failure)?,
        why,
    })
}

/// Tells `scheme` (a name such as `"FCI"`; by default the first scheme that solves the puzzle
/// without search, else the first that refutes it) on `puzzle`, easiest rule first: step 1
/// places every given, then singles, locked candidates, pairs and triples, then the scheme's
/// stronger reasoning. Every step is replayed from its rule before it is returned.
#[pyfunction]
#[pyo3(signature = (puzzle, scheme = None))]
pub fn explain(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    scheme: Option<&str>,
) -> PyResult<Explanation> {
    let grid = grid_of(puzzle)?;
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
    Ok(Explanation {
        story: story.map_err(failure)?,
        why,
    })
}
