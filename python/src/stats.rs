//! `Stats`: the work counters of a call (search nodes, guesses, backtracks, propagations and
//! the time), as `SolveResult.stats` and `CountResult.stats` give them; a value that pickles.

use pyo3::prelude::*;
use std::hash::Hash;

use pyo3::types::PyTuple;
use sudokit::search::Stats as LibStats;

use crate::values::{hash_with, reduce};

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
