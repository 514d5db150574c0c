//! `solve`, `count`, `unique`, `solve_many` and `verify`, through the library's solve, count
//! and verify jobs, and `backends`. Every backend of the registry is reached by its spec; every
//! grid a backend returns has passed the library's certificate verifier. A job's record is
//! handed to Python as plain data, where its result type (`sudokit._results`: `SolveResult`,
//! `CountResult`, `Verification`) makes it a value.

use pyo3::prelude::*;

use pyo3::types::PyDict;
use serde_json::{Value, json};
use sudokit::Grid;
use sudokit::jobs::JobRecord;
use sudokit::jobs::count::{CountJob, CountOptions};
use sudokit::jobs::solve::{Found, SolveJob, SolveOptions, SolveRecord};
use sudokit::jobs::verify::VerifyRecord;
use sudokit::jobs::{ItemResult, PuzzleItem, Runner};
use sudokit::solve::registry;
use sudokit::text::ReadPuzzle;

use crate::errors::{ParseError, failure, value_error};
use crate::grid_input::{candidate_of, grid_of};
use crate::interrupt::cancellable;
use crate::jobs::{control_of, option_error, options_json, options_of_json};
use crate::puzzle::Puzzle;
use crate::values::{record_dict, result};

/// A `SolveResult`: the record (plain data) with its grids as `Puzzle`s, the puzzle and the
/// backend that answered.
pub fn solve_result<'py>(
    py: Python<'py>,
    puzzle: &Grid,
    backend: &str,
    record: &Value,
    grids: [Option<&Grid>; 2],
) -> PyResult<Bound<'py, PyAny>> {
    let dict = record_dict(py, record)?;
    for (key, grid) in ["solution", "second"].into_iter().zip(grids) {
        dict.set_item(key, grid.cloned().map(Puzzle::new))?;
    }
    result(
        py,
        "SolveResult",
        (dict, Puzzle::new(puzzle.clone()), backend),
    )
}

/// The `SolveResult` of a solve job's record.
fn of_record<'py>(
    py: Python<'py>,
    puzzle: &Grid,
    backend: &str,
    record: &SolveRecord,
) -> PyResult<Bound<'py, PyAny>> {
    let grids = match &record.found {
        Found::Solution(a) | Found::Unique(a) => [Some(a), None],
        Found::Multiple(a, b) => [Some(a), Some(b)],
        Found::Unsat | Found::Unknown(_) => [None, None],
    };
    solve_result(py, puzzle, backend, &record.json(), grids)
}

/// A `SolveResult` of status `error` (on an empty 1×1 grid when there is no puzzle).
fn error_result<'py>(
    py: Python<'py>,
    puzzle: Option<&Grid>,
    backend: &str,
    message: String,
) -> PyResult<Bound<'py, PyAny>> {
    let empty = Grid::empty(sudokit::Shape::sudoku(1, 1).expect("the 1×1 shape"));
    let record = json!({"status": "error", "reason": message});
    solve_result(py, puzzle.unwrap_or(&empty), backend, &record, [None, None])
}

/// The options of a job: the explicit keyword arguments of a function, then the others it was
/// given (`**options`: every option of the job, `encoding=`, `amo=`, `scheme=`, ...).
pub fn job_options<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    explicit: serde_json::Value,
    extra: Option<&Bound<'_, PyDict>>,
) -> PyResult<T> {
    let mut map = match explicit {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    let more: serde_json::Value =
        serde_json::from_str(&options_json(py, extra)?).map_err(value_error)?;
    if let serde_json::Value::Object(more) = more {
        map.extend(more);
    }
    options_of_json(&serde_json::Value::Object(map).to_string())
}

/// The solve job of the keyword arguments, one puzzle at a time unless `threads` says.
fn solve_job(
    py: Python<'_>,
    backend: &str,
    unique: bool,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    extra: Option<&Bound<'_, PyDict>>,
) -> PyResult<SolveJob> {
    let options: SolveOptions = job_options(
        py,
        json!({
            "backend": backend,
            "unique": unique,
            "time_limit": time_limit,
            "node_limit": node_limit,
            "threads": threads,
        }),
        extra,
    )?;
    SolveJob::new(options).map_err(option_error)
}

/// Runs the solve job on one puzzle, interruptible by Ctrl-C.
fn solve_one<'py>(
    py: Python<'py>,
    job: &SolveJob,
    puzzle: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let record =
        cancellable(py, |cancel| job.solve(&grid, 1, &control_of(&cancel)))?.map_err(failure)?;
    of_record(py, &grid, job.backend(), &record)
}

/// The first solution of `puzzle` with `backend`.
///
/// Args:
///     puzzle: a `Puzzle`, or its text in any form.
///     backend: any spec of the registry (`native`, `dlx`, `sat:minimal:pairwise`, `cp:HACS`,
///         ...; `backends()` lists them).
///     time_limit: seconds (a positive number), or None for no limit.
///     node_limit: search nodes (at least 1), or None.
///     options: the other options of the solve job (`encoding=`, `amo=`, `scheme=`,
///         `max_order=`, `proof_dir=`), as `sudokit solve` takes them.
///
/// Returns:
///     A `SolveResult`: `status` `solved`, `unsat` or `unknown` (`reason`: `time limit`,
///     `node limit`, `cancelled`), the verified `solution`, the work counters.
///
/// Raises:
///     ValueError: an unknown backend or option, a bad limit. ParseError: text that is not a
///     puzzle. SudokitError: a backend that cannot take the puzzle. KeyboardInterrupt: Ctrl-C
///     (the search stops).
#[pyfunction]
#[pyo3(signature = (puzzle, backend = "native", time_limit = None, node_limit = None, **options))]
pub fn solve<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = solve_job(py, backend, false, time_limit, node_limit, Some(1), options)?;
    solve_one(py, &job, puzzle)
}

/// Whether `puzzle` has no, one or several solutions.
///
/// Args, Raises: as `solve`.
///
/// Returns:
///     A `SolveResult`: `status` `unique`, `multiple` (with `solution` and `second`), `unsat`
///     or `unknown`.
#[pyfunction]
#[pyo3(signature = (puzzle, backend = "native", time_limit = None, node_limit = None, **options))]
pub fn unique<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = solve_job(py, backend, true, time_limit, node_limit, Some(1), options)?;
    solve_one(py, &job, puzzle)
}

/// The number of solutions of `puzzle`, counted up to `limit` (the count job of
/// `sudokit count --limit`, split over `threads`).
///
/// Args:
///     puzzle: a `Puzzle`, or its text.
///     limit: count at most this many (at least 1).
///     backend, time_limit, node_limit: as `solve`.
///     threads: threads the count is split over (default: all cores).
///
/// Returns:
///     A `CountResult` (`count`, `exact`, `hit_limit`, `stopped`, the first solutions).
///
/// Raises:
///     ValueError: a bad option (`limit=0`, `threads=0`). ParseError, SudokitError,
///     KeyboardInterrupt: as `solve`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2, backend = "native", time_limit = None, node_limit = None, threads = None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn count<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    limit: u64,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let options: CountOptions = job_options(
        py,
        json!({
            "backend": backend,
            "limit": limit,
            "time_limit": time_limit,
            "node_limit": node_limit,
            "threads": threads,
        }),
        options,
    )?;
    let job = CountJob::new(options).map_err(option_error)?;
    let grid = grid_of(puzzle)?;
    let record = cancellable(py, |cancel| job.count(&grid, Some(1), &control_of(&cancel)))?
        .map_err(failure)?;
    let solutions = record.report.solutions.iter().cloned().map(Puzzle::new);
    let dict = record_dict(py, &record.json())?;
    dict.set_item("solutions", solutions.collect::<Vec<_>>())?;
    result(py, "CountResult", (dict, backend_name(backend)))
}

/// The registry name of a backend spec (as the job names it).
fn backend_name(spec: &str) -> String {
    sudokit::solve::backend(spec).map_or_else(|_| spec.to_string(), |s| s.name().to_string())
}

/// Solves every puzzle with the library's solve job on its ordered parallel map; the results come in
/// the order of the puzzles.
///
/// Args:
///     puzzles: an iterable of `Puzzle`s or texts; a `ParseError` item (from
///         `read(path, errors="yield")`) is passed through as a result of status `error` in its
///         place, as the command line reports a bad line.
///     backend, time_limit, node_limit, options: as `solve`.
///     threads: puzzles solved at a time (default: all cores; at most 4 per core).
///     unique: test uniqueness (as `unique`) instead.
///
/// Returns:
///     A list of `SolveResult`s, one per item; a puzzle the backend cannot take is a result of
///     status `error`.
///
/// Raises:
///     ValueError: a bad option (`threads=0`). ParseError: an item that is text but not a
///     puzzle. KeyboardInterrupt: Ctrl-C (the batch stops).
#[pyfunction]
#[pyo3(signature = (puzzles, backend = "native", threads = None, unique = false, time_limit = None, node_limit = None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    backend: &str,
    threads: Option<usize>,
    unique: bool,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let job = solve_job(
        py, backend, unique, time_limit, node_limit, threads, options,
    )?;
    let parse_error = py.get_type::<ParseError>();
    let mut items: Vec<Result<Grid, String>> = Vec::new();
    for item in puzzles.try_iter()? {
        let item = item?;
        if item.is_instance(&parse_error)? {
            items.push(Err(item.str()?.to_string()));
        } else {
            items.push(Ok(grid_of(&item)?));
        }
    }
    let good: Vec<PuzzleItem> = items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let grid = item.as_ref().ok()?.clone();
            Some(PuzzleItem::new(
                "-",
                index,
                Ok(ReadPuzzle {
                    line: index + 1,
                    grid,
                }),
            ))
        })
        .collect();
    let (solved, ran) = cancellable(py, |cancel| {
        let mut solved = Vec::with_capacity(good.len());
        let ran = Runner::new(control_of(&cancel))
            .collect(&job, good.into_iter(), |placed| solved.push(placed.result));
        (solved, ran)
    })?;
    if !ran.map_err(failure)?.complete {
        return Err(failure("the batch stopped before every puzzle was solved"));
    }
    let mut solved = solved.into_iter();
    let name = job.backend().to_string();
    items
        .into_iter()
        .map(|item| match item {
            Err(message) => error_result(py, None, &name, message),
            Ok(grid) => match solved.next() {
                Some(ItemResult::Done(record)) => of_record(py, &grid, &name, &record),
                Some(ItemResult::Failed(e)) => error_result(py, Some(&grid), &name, e.message),
                _ => Err(failure("the batch stopped before every puzzle was solved")),
            },
        })
        .collect()
}

/// The certificate check: whether `candidate` is a solution of `puzzle` (O(n²)), the verify
/// job's record of them.
///
/// Returns:
///     A `Verification`, true when valid; else `violation` says why, `kind` names the problem
///     and `unit` the row, column or box that repeats a value.
///
/// Raises:
///     ParseError: text that is not a grid.
#[pyfunction]
pub fn verify<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    candidate: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = VerifyRecord {
        puzzle_line: 1,
        solution_line: 1,
        verdict: sudokit::verify(&grid_of(puzzle)?, &candidate_of(candidate)?),
    };
    result(py, "Verification", (record_dict(py, &record.json())?,))
}

/// Every backend spec of the registry this build has (`native`, `sat:minimal:pairwise`, ...).
#[pyfunction]
pub fn backends() -> Vec<String> {
    registry::names()
}
