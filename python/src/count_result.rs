//! `CountResult`: a count of solutions up to a limit (exact or a lower bound, the first
//! solutions, why it stopped); a value equal to its count as an int, that pickles.

use pyo3::prelude::*;

use pyo3::types::PyTuple;
use sudokit::Grid;
use sudokit::search::{CountReport, Refutation};

use crate::puzzle::Puzzle;
use crate::stats::Stats;
use crate::values::{
    StatsState, grid_of_state, grid_state, reduce, refutation_of_state, refutation_state,
    stats_of_state, stats_state, stop_of_state,
};

/// A count of solutions up to a limit: `count` (exact when `exact`, else a lower bound),
/// `solutions` (the first two found), `stopped` (why the count stopped early, or None).
///
/// A value: equal to its count as an int (`p.count() == 1`), and to another result that says
/// the same (count, exactness, solutions, refutation, backend; not the work counters).
#[pyclass(module = "sudokit", frozen)]
pub struct CountResult {
    /// The solutions (128 bits: the empty grid's count is n! times its first row's).
    pub count: u128,
    pub report: CountReport,
    pub backend: String,
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
