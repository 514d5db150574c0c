//! `cp`: search on top of any of Simonis' propagation schemes, as a backend.
//!
//! The search itself lives in [`propagate::search`](mod@crate::propagate::search) (most-constrained cell, values in
//! increasing order, the chosen scheme run to its fixpoint at every node); this file adapts it to
//! the [`Solver`] trait, so `--backend cp --scheme HACS` (or `--backend cp:HACS`, the form
//! `bench --backends` takes) works wherever a backend does, and the conformance suite runs on it.
//!
//! Counting keeps every solution it counts (the search returns them), so the `cp` backend counts
//! at most [`CP_COUNT_CAP`] solutions per call; a larger request stops there, reported as a node
//! limit (the count is then a lower bound, never a claim of completeness).
//!
//! # Complexity
//! Exponential in the worst case, as any complete search; each node costs one fixpoint of the
//! scheme (see the scheme's module for its cost).
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", CP Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems, 2005.

use crate::grid::Grid;
use crate::propagate::{Budget, Scheme, SearchError, Stop, search};
use crate::solve::{
    CountReport, Limits, SolveError, Solver, Stats, StopReason, check_order, verified,
};

/// The most solutions one `cp` count keeps (and so counts).
pub const CP_COUNT_CAP: u64 = 1_000_000;

/// The names `cp:FC`, ..., `cp:HACV`, one per scheme, as the registry and tables show them.
const NAMES: [&str; 15] = [
    "cp:FC",
    "cp:FCI",
    "cp:BC",
    "cp:BCI",
    "cp:HAC",
    "cp:HACS",
    "cp:HACC",
    "cp:HAC3",
    "cp:HACSC",
    "cp:HACS3",
    "cp:HACC3",
    "cp:HACSC3",
    "cp:FCV",
    "cp:BCV",
    "cp:HACV",
];

/// The `cp` backend: search with `scheme` propagation at every node.
#[derive(Debug, Clone, Copy)]
pub struct Cp {
    /// The propagation scheme.
    pub scheme: Scheme,
}

impl Default for Cp {
    /// HAC, the strongest plain alldifferent consistency.
    fn default() -> Cp {
        Cp {
            scheme: Scheme::HAC,
        }
    }
}

impl Solver for Cp {
    /// `cp:SCHEME`, so tables tell the schemes apart.
    fn name(&self) -> &str {
        NAMES
            .iter()
            .find(|n| n[3..] == *self.scheme.name())
            .copied()
            .unwrap_or("cp")
    }

    fn max_order(&self) -> usize {
        crate::shape::MAX_ORDER
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        check_order(self, puzzle)?;
        let capped = limit.clamp(1, CP_COUNT_CAP);
        let budget = Budget {
            time: limits.time,
            nodes: limits.nodes,
        };
        let outcome = match search(puzzle, self.scheme, capped as usize, budget) {
            Ok(outcome) => outcome,
            Err(SearchError::Unverified(violation)) => {
                return Err(SolveError::Unverified {
                    backend: "cp".into(),
                    violation,
                });
            }
            Err(SearchError::ZeroLimit) => unreachable!("the limit is clamped to at least 1"),
        };
        let count = outcome.solutions.len() as u64;
        let mut stopped = outcome.stopped.map(|stop| match stop {
            Stop::Time => StopReason::TimeLimit,
            Stop::Nodes => StopReason::NodeLimit,
        });
        if stopped.is_none() && count == capped && capped < limit {
            stopped = Some(StopReason::NodeLimit);
        }
        let solutions = outcome
            .solutions
            .into_iter()
            .take(2)
            .map(|grid| verified("cp", puzzle, grid))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CountReport {
            count,
            hit_limit: stopped.is_none() && count >= limit,
            stopped,
            solutions,
            stats: Stats {
                nodes: outcome.stats.nodes,
                // Every node but the root is a branch tried at a choice point.
                guesses: outcome.stats.nodes.saturating_sub(1),
                propagations: outcome.stats.propagations,
                elapsed: outcome.stats.elapsed,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_has_its_name() {
        for scheme in Scheme::ALL {
            let cp = Cp { scheme };
            assert_eq!(cp.name(), format!("cp:{}", scheme.name()));
        }
    }
}
