//! A backend whose every `unsat`, `unique` and exact count is certified: an answer that rests on
//! another program's unchecked claim ([`Refutation::Claim`]) becomes
//! [`SolveError::Uncertified`] (the command line's `--require-certificate`).
//!
//! Solutions need no such wrapper: every grid is verified anyway ([`super::Verified`]).

use super::{CountReport, Limits, SolveError, SolveReport, Solver, UniqueReport};
use crate::grid::Grid;
use crate::search::Refutation;

/// `S`, with its answers that rest on an unchecked claim turned into errors.
#[derive(Debug, Clone, Default)]
pub struct RequireCertificate<S>(pub S);

impl<S: Solver> RequireCertificate<S> {
    fn refuse(&self, refutation: &Refutation) -> SolveError {
        SolveError::Uncertified {
            backend: self.0.name().to_string(),
            refutation: refutation.to_string(),
        }
    }
}

impl<S: Solver> Solver for RequireCertificate<S> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn max_order(&self) -> usize {
        self.0.max_order()
    }

    fn handles_clashing_givens(&self) -> bool {
        self.0.handles_clashing_givens()
    }

    fn splittable(&self) -> bool {
        self.0.splittable()
    }

    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        self.0.handles_shape(shape)
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let report = self.0.search(puzzle, limit, limits)?;
        match report.rests_on_claim() {
            true => Err(self.refuse(&report.refutation)),
            false => Ok(report),
        }
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        let report = self.0.count(puzzle, limit, limits)?;
        match report.rests_on_claim() {
            true => Err(self.refuse(&report.refutation)),
            false => Ok(report),
        }
    }

    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        let report = self.0.solve(puzzle, limits)?;
        match report.rests_on_claim() {
            true => Err(self.refuse(&report.refutation)),
            false => Ok(report),
        }
    }

    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        let report = self.0.unique(puzzle, limits)?;
        match report.rests_on_claim() {
            true => Err(self.refuse(&report.refutation)),
            false => Ok(report),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Native, Stats};

    /// A backend that claims unsat without proof, like an external solver without one.
    struct Claimer;
    impl Solver for Claimer {
        fn name(&self) -> &str {
            "claimer"
        }
        fn max_order(&self) -> usize {
            9
        }
        fn search(&self, _: &Grid, _: u64, _: &Limits) -> Result<CountReport, SolveError> {
            Ok(CountReport {
                refutation: Refutation::Claim {
                    by: "claimer".into(),
                    reason: "no proof".into(),
                },
                stats: Stats::default(),
                ..CountReport::default()
            })
        }
    }

    #[test]
    fn a_claim_is_refused_and_a_search_passes() {
        let puzzle: Grid = "1.3.....4....2..".parse().unwrap();
        let error = RequireCertificate(Claimer)
            .solve(&puzzle, &Limits::none())
            .unwrap_err();
        assert!(matches!(error, SolveError::Uncertified { .. }), "{error}");
        assert!(error.to_string().contains("claimed by claimer"), "{error}");
        assert!(
            RequireCertificate(Claimer)
                .count(&puzzle, 5, &Limits::none())
                .is_err()
        );
        let solved = RequireCertificate(Native).unique(&puzzle, &Limits::none());
        assert!(solved.is_ok());
    }
}
