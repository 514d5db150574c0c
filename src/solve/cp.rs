//! `cp`: search on top of any of Simonis' propagation schemes, as a backend.
//!
//! The search itself lives in [`propagate::searcher`](mod@crate::propagate::searcher) (most-constrained cell, values in
//! increasing order, the chosen scheme run to its fixpoint at every node); this file adapts it to
//! the [`Solver`] trait, so `--backend cp --scheme HACS` (or `--backend cp:HACS`, the form
//! `bench --backends` takes) works wherever a backend does, and the conformance suite runs on it.
//!
//! # Complexity
//! Exponential in the worst case, as any complete search; each node costs one fixpoint of the
//! scheme (see the scheme's module for its cost).
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", CP Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems, 2005.

use crate::grid::Grid;
use crate::propagate::{Scheme, SearchError, count_with_scheme};
use crate::solve::{CountReport, Limits, SolveError, Solver};

/// The names `cp:FC`, ..., `cp:HACV+`, one per scheme of [`Scheme::EVERY`] in its order, as
/// the registry and tables show them.
const NAMES: [&str; 18] = [
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
    "cp:FCV+",
    "cp:BCV+",
    "cp:HACV+",
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

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        count_with_scheme(puzzle, self.scheme, limit.max(1), limits).map_err(|e| match e {
            SearchError::Unverified(violation) => SolveError::Unverified {
                backend: self.name().to_string(),
                violation,
            },
            SearchError::ZeroLimit => unreachable!("the limit is at least 1"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_has_its_name() {
        for scheme in Scheme::EVERY {
            let cp = Cp { scheme };
            assert_eq!(cp.name(), format!("cp:{}", scheme.name()));
        }
    }
}
