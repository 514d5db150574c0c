//! `solve`, `count`, `unique`, `verify` and `solve_many`, with their result objects. Every
//! backend of the registry is reached by its spec; every grid a backend returns has passed the
//! library's certificate verifier.

use pyo3::prelude::*;
use std::hash::Hash;

use pyo3::types::{PyDict, PyTuple};
use serde_json::json;
use sudokit::jobs::count::{CountJob, CountOptions};
use sudokit::jobs::solve::{Found, SolveJob, SolveOptions, SolveRecord};
use sudokit::jobs::{ItemResult, PuzzleItem, Runner};
use sudokit::render::svg::{SvgOptions, render};
use sudokit::search::{CountReport, Refutation, Stats as LibStats};
use sudokit::solve::registry;
use sudokit::text::ReadPuzzle;
use sudokit::{Grid, Violation};

use crate::errors::{ParseError, failure, value_error};
use crate::interrupt::cancellable;
use crate::jobs::{control_of, option_error, options_json, options_of_json};
use crate::puzzle::{Puzzle, candidate_of, grid_of};
use crate::values::{
    StatsState, grid_of_state, grid_state, hash_grid, hash_with, reduce, refutation_of_state,
    refutation_state, stats_of_state, stats_state, stop_of_state,
};

/// The work counters of a call.
#[pyclass(module = "sudokit", frozen, get_all)]
#[derive(Clone)]
pub struct Stats {
    /// Search nodes: the root plus every branch tried.
    nodes: u64,
    /// Branches tried at choice points.
    guesses: u64,
    /// Branches refuted by propagation (the searches on a propagation scheme).
    backtracks: u64,
    /// Candidate eliminations (or the backend's unit of propagation).
    propagations: u64,
    /// Wall-clock seconds.
    elapsed: f64,
}

impl From<&LibStats> for Stats {
    fn from(s: &LibStats) -> Stats {
        Stats {
            nodes: s.nodes,
            guesses: s.guesses,
            backtracks: s.backtracks,
            propagations: s.propagations,
            elapsed: s.elapsed.as_secs_f64(),
        }
    }
}

impl Stats {
    fn state(&self) -> (u64, u64, u64, u64, f64) {
        (
            self.nodes,
            self.guesses,
            self.backtracks,
            self.propagations,
            self.elapsed,
        )
    }
}

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, guesses={}, backtracks={}, propagations={}, elapsed={:.6})",
            self.nodes, self.guesses, self.backtracks, self.propagations, self.elapsed
        )
    }

    /// Equal when every counter and the time are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Stats>()
            .is_ok_and(|o| o.get().state() == self.state())
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        let (a, b, c, d, elapsed) = self.state();
        hash_with(|h| (a, b, c, d, elapsed.to_bits()).hash(h))
    }

    /// Pickling: the counters and the time.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce(py, "_stats_from_state", self.state())
    }
}

/// The inverse of `Stats.__reduce__`.
#[pyfunction]
pub fn _stats_from_state(
    nodes: u64,
    guesses: u64,
    backtracks: u64,
    propagations: u64,
    elapsed: f64,
) -> Stats {
    Stats {
        nodes,
        guesses,
        backtracks,
        propagations,
        elapsed,
    }
}

/// The statuses of a `SolveResult`.
const STATUSES: [&str; 7] = [
    "solved", "unique", "multiple", "unsat", "unknown", "invalid", "error",
];

/// The answer of `solve` or `unique` (or `decode`): `status` is `solved`, `unique`,
/// `multiple`, `unsat`, `unknown` (`reason` says why), `invalid` or `error`. `solution` is
/// the (verified) solution, `second` another one when there are several. True when it has a
/// solution (for `unique`: exactly one).
///
/// A value: two results are equal when they say the same (puzzle, status, solutions, reason,
/// refutation and backend); the work counters (`stats`, whose time differs from run to run)
/// are not compared, but a pickled result keeps them.
#[pyclass(module = "sudokit", frozen)]
pub struct SolveResult {
    pub puzzle: Grid,
    pub status: &'static str,
    pub solution: Option<Grid>,
    pub second: Option<Grid>,
    pub reason: Option<String>,
    /// How an `unsat` or a `unique` is known.
    pub refutation: Option<Refutation>,
    pub stats: LibStats,
    pub backend: String,
}

impl SolveResult {
    pub fn new(puzzle: &Grid, backend: &str, status: &'static str) -> SolveResult {
        SolveResult {
            puzzle: puzzle.clone(),
            status,
            solution: None,
            second: None,
            reason: None,
            refutation: None,
            stats: LibStats::default(),
            backend: backend.to_string(),
        }
    }

    /// The result of a solve job's record.
    pub fn of_record(puzzle: &Grid, backend: &str, record: SolveRecord) -> SolveResult {
        let mut result = SolveResult::new(puzzle, backend, "solved");
        result.stats = record.stats;
        result.status = record.found.word();
        match record.found {
            Found::Solution(grid) => result.solution = Some(grid),
            Found::Unique(grid) => {
                result.solution = Some(grid);
                result.refutation = Some(record.refutation);
            }
            Found::Multiple(a, b) => {
                result.solution = Some(a);
                result.second = Some(b);
            }
            Found::Unsat => result.refutation = Some(record.refutation),
            Found::Unknown(reason) => result.reason = Some(reason.to_string()),
        }
        result
    }

    /// What two results are compared by (everything but the work counters).
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        &Grid,
        &str,
        &Option<Grid>,
        &Option<Grid>,
        &Option<String>,
        &Option<Refutation>,
        &str,
    ) {
        (
            &self.puzzle,
            self.status,
            &self.solution,
            &self.second,
            &self.reason,
            &self.refutation,
            &self.backend,
        )
    }

    /// A result of status `error` (the puzzle, when there is one).
    fn error(puzzle: Option<&Grid>, backend: &str, message: String) -> SolveResult {
        let empty = Grid::empty(sudokit::Shape::sudoku(1, 1).expect("the 1×1 shape"));
        let mut result = SolveResult::new(puzzle.unwrap_or(&empty), backend, "error");
        result.reason = Some(message);
        result
    }
}

#[pymethods]
impl SolveResult {
    /// `solved`, `unique`, `multiple`, `unsat`, `unknown`, `invalid` or `error`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status
    }

    /// The solution (verified), or None.
    #[getter]
    fn solution(&self) -> Option<Puzzle> {
        self.solution.clone().map(Puzzle::new)
    }

    /// A second solution (`multiple`), or None.
    #[getter]
    fn second(&self) -> Option<Puzzle> {
        self.second.clone().map(Puzzle::new)
    }

    /// Why there is no answer (`unknown`: `time limit`, `node limit`, `cancelled`; `invalid`
    /// and `error`: the message), or None.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }

    /// Whether an `unsat` or a `unique` was established by sudokit (its own search, or a
    /// proof it checked) rather than taken on another program's word; None for other statuses.
    #[getter]
    fn certified(&self) -> Option<bool> {
        self.refutation.as_ref().map(Refutation::is_certified)
    }

    /// How an `unsat` or a `unique` is known (`exhausted search`, `cadical's drat proof,
    /// checked by ...`, `claimed by minisat, not checked: ...`), or None.
    #[getter]
    fn refutation(&self) -> Option<String> {
        self.refutation.as_ref().map(ToString::to_string)
    }

    /// The work counters.
    #[getter]
    fn stats(&self) -> Stats {
        Stats::from(&self.stats)
    }

    /// The backend (or answer reader) that answered.
    #[getter]
    fn backend(&self) -> String {
        self.backend.clone()
    }

    /// The puzzle.
    #[getter]
    fn puzzle(&self) -> Puzzle {
        Puzzle::new(self.puzzle.clone())
    }

    fn __bool__(&self) -> bool {
        matches!(self.status, "solved" | "unique")
    }

    fn __repr__(&self) -> String {
        let detail = match (&self.solution, &self.reason) {
            (Some(grid), _) => format!(", solution={:?}", sudokit::text::to_text(grid)),
            (None, Some(reason)) => format!(", reason={reason:?}"),
            (None, None) => String::new(),
        };
        format!(
            "SolveResult(status={:?}, backend={:?}{detail})",
            self.status, self.backend
        )
    }

    /// The puzzle with the solution's values drawn in blue.
    fn _repr_svg_(&self) -> String {
        render(&self.puzzle, self.solution.as_ref(), &SvgOptions::default())
    }

    /// Equal when they say the same: the work counters are not compared.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<SolveResult>()
            .is_ok_and(|o| o.get().key() == self.key())
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        hash_with(|h| {
            hash_grid(&self.puzzle, h);
            self.status.hash(h);
            if let Some(solution) = &self.solution {
                hash_grid(solution, h);
            }
            self.backend.hash(h);
        })
    }

    /// Pickling: grids in their JSON form, the refutation and the counters as plain data.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (
            grid_state(&self.puzzle),
            self.status,
            self.solution.as_ref().map(grid_state),
            self.second.as_ref().map(grid_state),
            self.reason.clone(),
            self.refutation.as_ref().map(refutation_state),
            stats_state(&self.stats),
            self.backend.clone(),
        );
        reduce(py, "_solve_result_from_state", state)
    }
}

/// The inverse of `SolveResult.__reduce__`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _solve_result_from_state(
    puzzle: &str,
    status: &str,
    solution: Option<&str>,
    second: Option<&str>,
    reason: Option<String>,
    refutation: Option<Vec<String>>,
    stats: StatsState,
    backend: String,
) -> PyResult<SolveResult> {
    let status = STATUSES
        .into_iter()
        .find(|s| *s == status)
        .ok_or_else(|| value_error(format!("not a status: {status:?}")))?;
    Ok(SolveResult {
        puzzle: grid_of_state(puzzle)?,
        status,
        solution: solution.map(grid_of_state).transpose()?,
        second: second.map(grid_of_state).transpose()?,
        reason,
        refutation: refutation.as_deref().map(refutation_of_state).transpose()?,
        stats: stats_of_state(stats),
        backend,
    })
}

/// A count of solutions up to a limit: `count` (exact when `exact`, else a lower bound),
/// `solutions` (the first two found), `stopped` (why the count stopped early, or None).
///
/// A value: equal to its count as an int (`p.count() == 1`), and to another result that says
/// the same (count, exactness, solutions, refutation, backend; not the work counters).
#[pyclass(module = "sudokit", frozen)]
pub struct CountResult {
    /// The solutions (128 bits: the empty grid's count is n! times its first row's).
    count: u128,
    report: CountReport,
    backend: String,
}

#[pymethods]
impl CountResult {
    /// Solutions found.
    #[getter]
    fn count(&self) -> u128 {
        self.count
    }

    /// Whether `count` is the exact number of solutions.
    #[getter]
    fn exact(&self) -> bool {
        self.report.complete()
    }

    /// Whether the count reached the limit asked for.
    #[getter]
    fn hit_limit(&self) -> bool {
        self.report.hit_limit
    }

    /// Why the search stopped early (`time limit`, `node limit`, `cancelled`), or None.
    #[getter]
    fn stopped(&self) -> Option<String> {
        self.report.stopped.map(|s| s.to_string())
    }

    /// Whether an exact count was established by sudokit (its own search, or a proof it
    /// checked) rather than resting on another program's claim that there is no other
    /// solution; None when the count is not exact.
    #[getter]
    fn certified(&self) -> Option<bool> {
        self.report
            .complete()
            .then(|| self.report.refutation.is_certified())
    }

    /// The first (at most two) solutions found, verified.
    #[getter]
    fn solutions(&self) -> Vec<Puzzle> {
        self.report
            .solutions
            .iter()
            .cloned()
            .map(Puzzle::new)
            .collect()
    }

    /// The work counters.
    #[getter]
    fn stats(&self) -> Stats {
        Stats::from(&self.report.stats)
    }

    /// The backend that counted.
    #[getter]
    fn backend(&self) -> String {
        self.backend.clone()
    }

    fn __int__(&self) -> u128 {
        self.count
    }

    /// Equal to the int `count`, and to a result that says the same (the work counters are not
    /// compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.cast::<CountResult>() {
            return Ok(o.get().key() == self.key());
        }
        if other.is_instance_of::<pyo3::types::PyInt>() {
            return self.count.into_pyobject(other.py())?.as_any().eq(other);
        }
        Ok(false)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!self.__eq__(other)?)
    }

    /// The hash of the int `count` (a result equals its count).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.count.into_pyobject(py)?.hash()
    }

    /// Pickling: the count, the report as plain data (grids in their JSON form).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let report = &self.report;
        let state = (
            self.count,
            report.count,
            report.hit_limit,
            report.stopped.map(|s| s.to_string()),
            report.solutions.iter().map(grid_state).collect::<Vec<_>>(),
            refutation_state(&report.refutation),
            stats_state(&report.stats),
            self.backend.clone(),
        );
        reduce(py, "_count_result_from_state", state)
    }

    fn __repr__(&self) -> String {
        let bound = if self.report.complete() { "" } else { "≥" };
        format!(
            "CountResult(count={bound}{}, backend={:?})",
            self.count, self.backend
        )
    }
}

impl CountResult {
    /// What two results are compared by (everything but the work counters).
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        u128,
        u64,
        bool,
        Option<sudokit::search::StopReason>,
        &[Grid],
        &Refutation,
        &str,
    ) {
        let report = &self.report;
        (
            self.count,
            report.count,
            report.hit_limit,
            report.stopped,
            &report.solutions,
            &report.refutation,
            &self.backend,
        )
    }
}

/// The inverse of `CountResult.__reduce__`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _count_result_from_state(
    count: u128,
    report_count: u64,
    hit_limit: bool,
    stopped: Option<&str>,
    solutions: Vec<String>,
    refutation: Vec<String>,
    stats: StatsState,
    backend: String,
) -> PyResult<CountResult> {
    let report = CountReport {
        count: report_count,
        hit_limit,
        stopped: stopped.map(stop_of_state).transpose()?,
        solutions: solutions
            .iter()
            .map(|s| grid_of_state(s))
            .collect::<PyResult<_>>()?,
        refutation: refutation_of_state(&refutation)?,
        stats: stats_of_state(stats),
    };
    Ok(CountResult {
        count,
        report,
        backend,
    })
}

/// The certificate check of a candidate: true when it solves the puzzle, else `violation`
/// says why, `kind` names the problem and `unit` the row, column or box that repeats a value.
///
/// A value: equal to its bool (`verify(p, s) == True`) and to a check that found the same
/// violation (or none).
#[pyclass(module = "sudokit", frozen)]
pub struct Verification {
    violation: Option<Violation>,
    /// The puzzle and the candidate checked (pickling checks them again).
    puzzle: Grid,
    candidate: Grid,
}

#[pymethods]
impl Verification {
    /// Whether the candidate solves the puzzle.
    #[getter]
    fn valid(&self) -> bool {
        self.violation.is_none()
    }

    /// The first problem found, in words (`column 3 has 4 twice: at (2,3) and (4,3)`), or None.
    #[getter]
    fn violation(&self) -> Option<String> {
        self.violation.as_ref().map(|v| v.to_string())
    }

    /// `shape`, `empty`, `out-of-range`, `given-changed` or `repeated`; None when valid.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        self.violation.as_ref().map(|v| match v {
            Violation::ShapeMismatch { .. } => "shape",
            Violation::Empty { .. } => "empty",
            Violation::OutOfRange { .. } => "out-of-range",
            Violation::GivenChanged { .. } => "given-changed",
            Violation::Repeated(_) => "repeated",
        })
    }

    /// The unit that repeats a value, as `("row" | "column" | "box", number)`, 1-based.
    #[getter]
    fn unit(&self) -> Option<(&'static str, usize)> {
        let unit = self.violation.as_ref()?.unit()?;
        let kind = match unit.kind {
            sudokit::UnitKind::Row => "row",
            sudokit::UnitKind::Column => "column",
            sudokit::UnitKind::Box => "box",
        };
        Some((kind, unit.number + 1))
    }

    fn __bool__(&self) -> bool {
        self.violation.is_none()
    }

    /// Equal to its bool, and to a check that found the same violation (or none).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.cast::<Verification>() {
            return Ok(o.get().violation == self.violation);
        }
        if other.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(other.extract::<bool>()? == self.violation.is_none());
        }
        Ok(false)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!self.__eq__(other)?)
    }

    /// The hash of its bool (a check equals its bool).
    fn __hash__(&self) -> u64 {
        u64::from(self.violation.is_none())
    }

    /// Pickling: the puzzle and the candidate, checked again (the check is O(n²)).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (grid_state(&self.puzzle), grid_state(&self.candidate));
        reduce(py, "_verification_from_state", state)
    }

    fn __repr__(&self) -> String {
        match &self.violation {
            None => "Verification(valid=True)".to_string(),
            Some(v) => format!("Verification(valid=False, violation={:?})", v.to_string()),
        }
    }
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
fn solve_one(py: Python<'_>, job: &SolveJob, puzzle: &Bound<'_, PyAny>) -> PyResult<SolveResult> {
    let grid = grid_of(puzzle)?;
    let record =
        cancellable(py, |cancel| job.solve(&grid, 1, &control_of(&cancel)))?.map_err(failure)?;
    Ok(SolveResult::of_record(&grid, job.backend(), record))
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
pub fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<SolveResult> {
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
pub fn unique(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<SolveResult> {
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
pub fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: u64,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<CountResult> {
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
    Ok(CountResult {
        count: record.count,
        report: record.report,
        backend: backend_name(backend),
    })
}

/// The registry name of a backend spec (as the job names it).
fn backend_name(spec: &str) -> String {
    sudokit::solve::backend(spec).map_or_else(|_| spec.to_string(), |s| s.name().to_string())
}

/// The certificate check: whether `candidate` is a solution of `puzzle` (O(n²)).
///
/// Returns:
///     A `Verification`, true when valid; else `violation` says why.
///
/// Raises:
///     ParseError: text that is not a grid.
#[pyfunction]
pub fn verify(puzzle: &Bound<'_, PyAny>, candidate: &Bound<'_, PyAny>) -> PyResult<Verification> {
    Ok(verification(grid_of(puzzle)?, candidate_of(candidate)?))
}

fn verification(puzzle: Grid, candidate: Grid) -> Verification {
    Verification {
        violation: sudokit::verify(&puzzle, &candidate).err(),
        puzzle,
        candidate,
    }
}

/// The inverse of `Verification.__reduce__`.
#[pyfunction]
pub fn _verification_from_state(puzzle: &str, candidate: &str) -> PyResult<Verification> {
    Ok(verification(
        grid_of_state(puzzle)?,
        grid_of_state(candidate)?,
    ))
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
pub fn solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    backend: &str,
    threads: Option<usize>,
    unique: bool,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<SolveResult>> {
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
            Err(message) => Ok(SolveResult::error(None, &name, message)),
            Ok(grid) => match solved.next() {
                Some(ItemResult::Done(record)) => Ok(SolveResult::of_record(&grid, &name, record)),
                Some(ItemResult::Failed(e)) => {
                    Ok(SolveResult::error(Some(&grid), &name, e.message))
                }
                _ => Err(failure("the batch stopped before every puzzle was solved")),
            },
        })
        .collect()
}

/// Every backend spec of the registry this build has (`native`, `sat:minimal:pairwise`, ...).
#[pyfunction]
pub fn backends() -> Vec<String> {
    registry::names()
}
