//! The CDCL stage of [`super::Native`] on orders 16 to 36: when the propagation search has met
//! its dead-end budget, the puzzle goes to the `sat` backend (varisat, or CaDiCaL in a build with
//! the feature `cadical`); see the module docs of `native` for why and when.

use super::super::sat::{self, Sat};
use super::super::{Budget, CountReport, Limits, SolveError, Solver, Stats, StopReason};
use crate::grid::Grid;

/// Dead ends of the propagation search (guesses refuted by propagation) after which the CDCL
/// stage takes over (see the module docs).
pub(super) const HANDOVER_DEAD_ENDS: u64 = 500;

/// The smallest order with a CDCL stage (smaller grids rarely reach the budget).
const HANDOVER_MIN_ORDER: usize = 16;

/// The dead-end budget of the propagation stage for a call, or `None` when it runs alone:
/// orders from [`HANDOVER_MIN_ORDER`] to [`sat::MAX_ORDER_PAIRWISE`], first solution or
/// uniqueness.
pub(super) fn handover_budget(order: usize, limit: u64) -> Option<u64> {
    ((HANDOVER_MIN_ORDER..=sat::MAX_ORDER_PAIRWISE).contains(&order) && limit <= 2)
        .then_some(HANDOVER_DEAD_ENDS)
}

/// The CDCL stage: the puzzle, from scratch, by the fastest CNF encoding measured within
/// what is left of the budget. The statistics add the propagation stage's (`native`) to the SAT
/// calls (each SAT call is a node); the elapsed time is the whole call's.
pub(super) fn cdcl_finish(
    puzzle: &Grid,
    limit: u64,
    budget: &Budget,
    native: Stats,
) -> Result<CountReport, SolveError> {
    let stop = |reason| {
        Ok(CountReport {
            stopped: Some(reason),
            stats: Stats {
                elapsed: budget.elapsed(),
                ..native
            },
            ..CountReport::default()
        })
    };
    if let Some(reason) = budget.interrupted() {
        return stop(reason);
    }
    let time = budget.remaining();
    let nodes = match budget.node_limit() {
        Some(max) if max <= native.nodes => return stop(StopReason::NodeLimit),
        Some(max) => Some(max - native.nodes),
        None => None,
    };
    let limits = Limits {
        time,
        nodes,
        cancel: budget.cancel().cloned(),
    };
    let sat = Sat::with_solver(sat::FASTEST_OPTIONS, sat::SatSolver::FASTEST);
    let mut report = sat.count(puzzle, limit, &limits)?;
    report.stats.nodes += native.nodes;
    report.stats.guesses += native.guesses;
    report.stats.propagations += native.propagations;
    report.stats.elapsed = budget.elapsed();
    Ok(report)
}
