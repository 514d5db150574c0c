//! A command of the library's registry on puzzles in memory ([`call`]): what `sudokit.solve`,
//! `unique`, `count`, `verify`, `grade`, `minimize`, `generate` and `solve_many` run (in
//! `sudokit._calls`), each the command line's job with its options checked by the job, its
//! records handed back as plain data with the grids they carry; and the names of the backend
//! and scheme registries.

use std::sync::Arc;

use pyo3::prelude::*;
use sudokit::jobs::command::RecordOut;
use sudokit::jobs::solver_options::BackendSpec;
use sudokit::jobs::source::Source;
use sudokit::jobs::{PuzzleItem, Runner};
use sudokit::propagate::Scheme;
use sudokit::solve::registry;
use sudokit::text::{ReadOptions, ReadPuzzle};

use crate::errors::failure;
use crate::grid_input::grid_with;
use crate::interrupt::cancellable;
use crate::jobs::{checked, control_of, run_error};
use crate::puzzle::Puzzle;
use pythonize::pythonize;

/// One record of [`call`]: its status, its JSON object as a dict, the grids it carries.
type Answer<'py> = (&'static str, Bound<'py, PyAny>, Vec<Puzzle>);

/// The records of `command` (a name of the registry) with the options of the JSON object
/// `options`, over `inputs`: one list per input of `Puzzle`s or texts, each read as the
/// command reads that input (a candidate of verify may repeat a value), or none for a command
/// without input, which makes its item `first` (generate's puzzle index). One record per item,
/// in order, as `(status, JSON object, grids)`; Ctrl-C stops the call (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (command, inputs, options = "{}", first = 0))]
pub fn call<'py>(
    py: Python<'py>,
    command: &str,
    inputs: Vec<Vec<Bound<'py, PyAny>>>,
    options: &str,
    first: u64,
) -> PyResult<Vec<Answer<'py>>> {
    let (_, command) = checked(command, inputs.len(), options)?;
    let mut sources = Vec::with_capacity(inputs.len().max(1));
    for (input, puzzles) in inputs.iter().enumerate() {
        let read = command.read_options(ReadOptions::default(), input);
        let name: Arc<str> = "-".into();
        let items = puzzles.iter().enumerate().map(|(index, puzzle)| {
            let grid = grid_with(puzzle, read)?;
            let read = ReadPuzzle::new(index + 1, grid);
            Ok(PuzzleItem::new(name.clone(), index, Ok(read)))
        });
        let items = items.collect::<PyResult<Vec<_>>>()?;
        let items = Box::new(items.into_iter());
        sources.push(Source::Puzzles { name, items });
    }
    if inputs.is_empty() {
        sources.push(Source::Range(first..first.saturating_add(1)));
    }
    let (records, ran) = cancellable(py, |cancel| {
        let mut records: Vec<RecordOut> = Vec::new();
        let runner = Runner::new(control_of(&cancel));
        let ran = command.records_of(sources, &runner, &mut |r| records.push(r));
        ran.map(|ran| (records, ran))
    })?
    .map_err(run_error)?;
    if !ran.complete {
        return Err(failure("the call stopped before every item was done"));
    }
    let answer = |r: RecordOut| -> PyResult<Answer<'py>> {
        let json: serde_json::Value = serde_json::from_str(&r.json).map_err(failure)?;
        let grids = r.grids.into_iter().map(Puzzle::new).collect();
        Ok((r.status.word(), pythonize(py, &json)?, grids))
    };
    records.into_iter().map(answer).collect()
}

/// Every backend spec of the registry this build has (`native`, `sat:minimal:pairwise`, ...).
#[pyfunction]
pub fn backends() -> Vec<String> {
    registry::names()
}

/// The registry name of a backend spec with the parts given apart, as results name it (`sat`
/// with `encoding="minimal"` is `sat:minimal:pairwise`); the spec itself when the parts name
/// no backend (the job says why).
#[pyfunction]
#[pyo3(signature = (backend, scheme = None, encoding = None, amo = None))]
pub fn backend_name(
    backend: &str,
    scheme: Option<&str>,
    encoding: Option<&str>,
    amo: Option<&str>,
) -> String {
    let spec = || -> Option<String> {
        let spec = BackendSpec {
            backend: backend.to_string(),
            scheme: scheme.map(str::parse).transpose().ok()?,
            encoding: encoding.map(str::parse).transpose().ok()?,
            amo: amo.map(str::parse).transpose().ok()?,
        };
        Some(spec.solver().ok()?.name().to_string())
    };
    spec().unwrap_or_else(|| backend.to_string())
}

/// Every scheme name, weakest first (the eighteen of `"all"`).
#[pyfunction]
pub fn schemes() -> Vec<&'static str> {
    Scheme::EVERY.iter().map(|s| s.name()).collect()
}
