//! `SolveResult`: the answer of `solve`, `unique`, `solve_many` and `decode` (a status, the
//! verified solutions, why it is unknown, how an unsat or unique is known); a value that
//! compares, hashes and pickles.

use pyo3::prelude::*;
use std::hash::Hash;

use pyo3::types::PyTuple;
use sudokit::Grid;
use sudokit::jobs::solve::{Found, SolveRecord};
use sudokit::render::svg::{SvgOptions, render};
use sudokit::search::{Refutation, Stats as LibStats};

use crate::errors::value_error;
use crate::puzzle::Puzzle;
use crate::stats::Stats;
use crate::values::{
    StatsState, grid_of_state, grid_state, hash_grid, hash_with, reduce, refutation_of_state,
    refutation_state, stats_of_state, stats_state,
};

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
    pub fn error(puzzle: Option<&Grid>, backend: &str, message: String) -> SolveResult {
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
