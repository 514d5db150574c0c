//! What makes the result objects values: their pickled state (plain Python data: numbers,
//! strings, tuples, lists, and grids in their JSON form), the hash of a grid, and the indexing
//! of the sequences (`Explanation`, `Clauses`).
//!
//! Every `__reduce__` returns a function of this module (`sudokit._native._..._from_state`)
//! with its arguments; the function rebuilds the object.

use std::hash::{Hash, Hasher};
use std::time::Duration;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PySlice, PyTuple};
use sudokit::Grid;
use sudokit::search::{Refutation, Stats as LibStats, StopReason};
use sudokit::text;

use crate::errors::{text_error, value_error};

/// `(sudokit._native.<rebuild>, args)`: what `__reduce__` returns.
pub fn reduce<'py>(
    py: Python<'py>,
    rebuild: &str,
    args: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let function = py.import("sudokit._native")?.getattr(rebuild)?;
    let args = args.into_bound_py_any(py)?;
    PyTuple::new(py, [function, args])
}

/// A grid's pickled state: its JSON form (which keeps the shape).
pub fn grid_state(grid: &Grid) -> String {
    text::to_json(grid).to_string()
}

/// The grid of a [`grid_state`].
pub fn grid_of_state(state: &str) -> PyResult<Grid> {
    text::parse_json(state, None).map_err(|e| text_error(None, &e))
}

/// A hash of a grid (its shape and cells).
pub fn hash_grid(grid: &Grid, hasher: &mut impl Hasher) {
    grid.shape().hash(hasher);
    grid.raw().hash(hasher);
}

/// A hash of anything hashable, as `__hash__` returns it.
pub fn hash_with(feed: impl FnOnce(&mut std::collections::hash_map::DefaultHasher)) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    feed(&mut hasher);
    hasher.finish()
}

/// The work counters as plain data: the four counts and the time in nanoseconds (exact).
pub type StatsState = (u64, u64, u64, u64, u64);

pub fn stats_state(stats: &LibStats) -> StatsState {
    (
        stats.nodes,
        stats.guesses,
        stats.backtracks,
        stats.propagations,
        u64::try_from(stats.elapsed.as_nanos()).unwrap_or(u64::MAX),
    )
}

pub fn stats_of_state(state: StatsState) -> LibStats {
    let (nodes, guesses, backtracks, propagations, nanos) = state;
    LibStats {
        nodes,
        guesses,
        backtracks,
        propagations,
        elapsed: Duration::from_nanos(nanos),
    }
}

/// A refutation as plain data: `["propagation"]`, `["search"]`, `["proof", by, format,
/// checker]` or `["claim", by, reason]`.
pub fn refutation_state(refutation: &Refutation) -> Vec<String> {
    match refutation {
        Refutation::Propagation => vec!["propagation".into()],
        Refutation::Search => vec!["search".into()],
        Refutation::Proof {
            by,
            format,
            checker,
        } => vec!["proof".into(), by.clone(), format.clone(), checker.clone()],
        Refutation::Claim { by, reason } => vec!["claim".into(), by.clone(), reason.clone()],
    }
}

pub fn refutation_of_state(state: &[String]) -> PyResult<Refutation> {
    match state {
        [kind] if kind == "propagation" => Ok(Refutation::Propagation),
        [kind] if kind == "search" => Ok(Refutation::Search),
        [kind, by, format, checker] if kind == "proof" => Ok(Refutation::Proof {
            by: by.clone(),
            format: format.clone(),
            checker: checker.clone(),
        }),
        [kind, by, reason] if kind == "claim" => Ok(Refutation::Claim {
            by: by.clone(),
            reason: reason.clone(),
        }),
        _ => Err(value_error(format!("not a refutation: {state:?}"))),
    }
}

/// The stop reason its words name (`time limit`, `node limit`, `cancelled`).
pub fn stop_of_state(words: &str) -> PyResult<StopReason> {
    [
        StopReason::TimeLimit,
        StopReason::NodeLimit,
        StopReason::Cancelled,
    ]
    .into_iter()
    .find(|s| s.to_string() == words)
    .ok_or_else(|| value_error(format!("not a reason to stop: {words:?}")))
}

/// What an index of a sequence picks: one item, or the items of a slice, in order.
pub enum Pick {
    One(usize),
    Many(Vec<usize>),
}

/// The items `index` (an int, negative from the end, or a slice) picks from a sequence of
/// `len` items: IndexError out of range, TypeError for anything else.
pub fn pick(index: &Bound<'_, PyAny>, len: usize, what: &str) -> PyResult<Pick> {
    if let Ok(slice) = index.cast::<PySlice>() {
        let range = slice.indices(len as isize)?;
        let items = (0..range.slicelength)
            .map(|k| (range.start + k as isize * range.step) as usize)
            .collect();
        return Ok(Pick::Many(items));
    }
    if !index.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} indices must be integers or slices, not {}",
            index.get_type().name()?
        )));
    }
    let out_of_range =
        || PyIndexError::new_err(format!("{what} index {index} out of range (0..{len})"));
    let i: isize = index.extract().map_err(|_| out_of_range())?;
    let at = if i < 0 { i + len as isize } else { i };
    if at < 0 || at >= len as isize {
        return Err(out_of_range());
    }
    Ok(Pick::One(at as usize))
}
