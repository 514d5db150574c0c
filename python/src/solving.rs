//! `solve`, `count`, `unique`, `verify` and `solve_many`, with their result objects. Every
//! backend of the registry is reached by its spec; every grid a backend returns has passed the
//! library's certificate verifier.

use std::time::Duration;

use pyo3::prelude::*;
use sudokit::batch::{Batch, Finished};
use sudokit::render::svg::{SvgOptions, render};
use sudokit::search::{Answer, CountReport, Limits, Outcome, Refutation, Stats as LibStats};
use sudokit::solve::{SolveError, Solver, registry};
use sudokit::{Grid, Violation};

use crate::errors::{failure, value_error};
use crate::interrupt::cancellable;
use crate::puzzle::{Puzzle, candidate_of, grid_of};

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

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, guesses={}, backtracks={}, propagations={}, elapsed={:.6})",
            self.nodes, self.guesses, self.backtracks, self.propagations, self.elapsed
        )
    }
}

/// The answer of `solve` or `unique` (or `decode`): `status` is `solved`, `unique`,
/// `multiple`, `unsat`, `unknown` (`reason` says why), `invalid` or `error`. `solution` is
/// the (verified) solution, `second` another one when there are several. True when it has a
/// solution (for `unique`: exactly one).
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

    fn of_answer(
        puzzle: &Grid,
        backend: &str,
        answer: Answer,
        refutation: Refutation,
        stats: LibStats,
    ) -> SolveResult {
        let mut result = SolveResult::new(puzzle, backend, "solved");
        result.stats = stats;
        match answer {
            Answer::Solved(grid) => result.solution = Some(grid),
            Answer::Unsat => {
                result.status = "unsat";
                result.refutation = Some(refutation);
            }
            Answer::Unknown(reason) => {
                result.status = "unknown";
                result.reason = Some(reason.to_string());
            }
        }
        result
    }

    fn of_outcome(
        puzzle: &Grid,
        backend: &str,
        outcome: Outcome,
        refutation: Refutation,
        stats: LibStats,
    ) -> SolveResult {
        let mut result = SolveResult::new(puzzle, backend, "unique");
        result.stats = stats;
        match outcome {
            Outcome::Unique(grid) => {
                result.solution = Some(grid);
                result.refutation = Some(refutation);
            }
            Outcome::Multiple(a, b) => {
                result.status = "multiple";
                result.solution = Some(a);
                result.second = Some(b);
            }
            Outcome::Unsat => {
                result.status = "unsat";
                result.refutation = Some(refutation);
            }
            Outcome::Unknown(reason) => {
                result.status = "unknown";
                result.reason = Some(reason.to_string());
            }
        }
        result
    }

    fn error(puzzle: &Grid, backend: &str, message: String) -> SolveResult {
        let mut result = SolveResult::new(puzzle, backend, "error");
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
}

/// A count of solutions up to a limit: `count` (exact when `exact`, else a lower bound),
/// `solutions` (the first two found), `stopped` (why the count stopped early, or None).
#[pyclass(module = "sudokit", frozen)]
pub struct CountResult {
    report: CountReport,
    backend: String,
}

#[pymethods]
impl CountResult {
    /// Solutions found.
    #[getter]
    fn count(&self) -> u64 {
        self.report.count
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

    fn __int__(&self) -> u64 {
        self.report.count
    }

    fn __repr__(&self) -> String {
        let bound = if self.report.complete() { "" } else { "≥" };
        format!(
            "CountResult(count={bound}{}, backend={:?})",
            self.report.count, self.backend
        )
    }
}

/// The certificate check of a candidate: true when it solves the puzzle, else `violation`
/// says why, `kind` names the problem and `unit` the row, column or box that repeats a value.
#[pyclass(module = "sudokit", frozen)]
pub struct Verification {
    violation: Option<Violation>,
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

    fn __repr__(&self) -> String {
        match &self.violation {
            None => "Verification(valid=True)".to_string(),
            Some(v) => format!("Verification(valid=False, violation={:?})", v.to_string()),
        }
    }
}

/// The per-call limits: seconds and search nodes.
pub fn limits(time_limit: Option<f64>, node_limit: Option<u64>) -> PyResult<Limits> {
    let time = match time_limit {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => {
            Some(Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX))
        }
        Some(s) => {
            return Err(value_error(format!(
                "time_limit must be a positive number of seconds, not {s}"
            )));
        }
    };
    if node_limit == Some(0) {
        return Err(value_error("node_limit must be at least 1"));
    }
    Ok(Limits {
        time,
        nodes: node_limit,
        cancel: None,
    })
}

/// The backend a spec names.
pub fn solver(spec: &str) -> PyResult<Box<dyn Solver>> {
    sudokit::solve::backend(spec).map_err(value_error)
}

/// Runs one search of `backend` on `puzzle` under the limits, interruptible by Ctrl-C.
fn search_one<T: Send>(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    backend: &str,
    limits: Limits,
    call: impl Fn(&dyn Solver, &Grid, &Limits) -> Result<T, SolveError> + Send + Sync,
) -> PyResult<(Grid, String, T)> {
    let grid = grid_of(puzzle)?;
    let solver = solver(backend)?;
    let report = cancellable(py, |cancel| {
        call(solver.as_ref(), &grid, &limits.clone().with_cancel(cancel))
    })?
    .map_err(failure)?;
    Ok((grid, solver.name().to_string(), report))
}

/// The first solution of `puzzle` with `backend` (any spec of the registry: `native`, `dlx`,
/// `sat:minimal:pairwise`, `cp:HACS`, ...). Ctrl-C stops the search (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (puzzle, backend = "native", time_limit = None, node_limit = None))]
pub fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<SolveResult> {
    let limits = limits(time_limit, node_limit)?;
    let (grid, name, report) = search_one(py, puzzle, backend, limits, |s, g, l| s.solve(g, l))?;
    Ok(SolveResult::of_answer(
        &grid,
        &name,
        report.answer,
        report.refutation,
        report.stats,
    ))
}

/// Whether `puzzle` has no, one or several solutions (`unique`, `multiple`, `unsat`,
/// `unknown`), with both solutions when there are several.
#[pyfunction]
#[pyo3(signature = (puzzle, backend = "native", time_limit = None, node_limit = None))]
pub fn unique(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<SolveResult> {
    let limits = limits(time_limit, node_limit)?;
    let (grid, name, report) = search_one(py, puzzle, backend, limits, |s, g, l| s.unique(g, l))?;
    Ok(SolveResult::of_outcome(
        &grid,
        &name,
        report.outcome,
        report.refutation,
        report.stats,
    ))
}

/// The number of solutions of `puzzle`, counted up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2, backend = "native", time_limit = None, node_limit = None))]
pub fn count(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: u64,
    backend: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<CountResult> {
    if limit == 0 {
        return Err(value_error("limit must be at least 1"));
    }
    let limits = limits(time_limit, node_limit)?;
    let (_, backend, report) =
        search_one(py, puzzle, backend, limits, |s, g, l| s.count(g, limit, l))?;
    Ok(CountResult { report, backend })
}

/// The certificate check: whether `candidate` is a solution of `puzzle` (O(n²)).
#[pyfunction]
pub fn verify(puzzle: &Bound<'_, PyAny>, candidate: &Bound<'_, PyAny>) -> PyResult<Verification> {
    Ok(Verification {
        violation: sudokit::verify(&grid_of(puzzle)?, &candidate_of(candidate)?).err(),
    })
}

/// Solves every puzzle on `threads` threads (default: all cores) with the library's batch
/// driver; the results come in the order of the puzzles. With `unique=True` each is a
/// uniqueness test. A puzzle the backend cannot take gets a result of status `error`. Ctrl-C
/// stops the batch (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (puzzles, backend = "native", threads = None, unique = false, time_limit = None, node_limit = None))]
pub fn solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    backend: &str,
    threads: Option<usize>,
    unique: bool,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<Vec<SolveResult>> {
    let grids: Vec<Grid> = puzzles
        .try_iter()?
        .map(|p| grid_of(&p?))
        .collect::<PyResult<_>>()?;
    let solver = solver(backend)?;
    let limits = limits(time_limit, node_limit)?;
    let threads = match threads {
        Some(0) => return Err(value_error("threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let name = solver.name().to_string();
    let (results, finished) = cancellable(py, |cancel| {
        let limits = limits.clone().with_cancel(cancel.clone());
        let mut results = Vec::with_capacity(grids.len());
        let work = |grid: &Grid| -> SolveResult {
            let answered = if unique {
                solver
                    .unique(grid, &limits)
                    .map(|r| SolveResult::of_outcome(grid, &name, r.outcome, r.refutation, r.stats))
            } else {
                solver
                    .solve(grid, &limits)
                    .map(|r| SolveResult::of_answer(grid, &name, r.answer, r.refutation, r.stats))
            };
            answered.unwrap_or_else(|e| SolveResult::error(grid, &name, e.to_string()))
        };
        let finished = Batch::new(threads)
            .with_cancel(cancel)
            .run(grids.iter(), work, |result| {
                results.push(result);
                Ok::<(), ()>(())
            });
        (results, finished)
    })?;
    match finished {
        Ok(Finished::Complete { .. }) => Ok(results),
        _ => Err(failure("the batch stopped before every puzzle was solved")),
    }
}

/// Every backend spec of the registry this build has (`native`, `sat:minimal:pairwise`, ...).
#[pyfunction]
pub fn backends() -> Vec<String> {
    registry::names()
}
