//! `--max-n N`: a user's cap on the order a job accepts, below the backend's own
//! [`Solver::max_order`]. A puzzle above it is answered in place with the backend's
//! [`SolveError::TooLarge`] line (`error: FILE:LINE:1: backend native (--max-n 36) handles orders
//! up to 36, the puzzle has order 49`), exit 2, and the batch goes on: a run over a mixed file
//! skips the instances it would spend hours on.

use super::options::{OptionError, at_least_one};
use crate::grid::Grid;
use crate::solve::{
    CountReport, Limits, SolveError, SolveReport, Solver, UniqueReport, check_order,
};

/// A backend that refuses orders above `max` as well as its own limit.
pub struct Capped {
    inner: Box<dyn Solver>,
    max: usize,
    /// `"NAME (--max-n N)"`, the name the error line shows.
    label: String,
}

impl Capped {
    /// `inner` capped at order `max`.
    pub fn new(inner: Box<dyn Solver>, max: usize) -> Capped {
        let label = format!("{} (--max-n {max})", inner.name());
        Capped { inner, max, label }
    }

    fn check(&self, puzzle: &Grid) -> Result<(), SolveError> {
        check_order(&*self.inner, puzzle)?;
        let order = puzzle.shape().order();
        if order > self.max {
            return Err(SolveError::TooLarge {
                backend: self.label.clone(),
                order,
                max: self.max,
            });
        }
        Ok(())
    }
}

/// `solver`, capped at `max_order` when one is given.
///
/// # Errors
/// [`OptionError::AtLeastOne`] for a cap of 0.
pub fn capped(
    solver: Box<dyn Solver>,
    max_order: Option<usize>,
) -> Result<Box<dyn Solver>, OptionError> {
    Ok(match at_least_one("max_order", max_order)? {
        Some(max) => Box::new(Capped::new(solver, max)),
        None => solver,
    })
}

impl Solver for Capped {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn max_order(&self) -> usize {
        self.inner.max_order().min(self.max)
    }

    fn splittable(&self) -> bool {
        self.inner.splittable()
    }

    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        self.inner.handles_shape(shape)
    }

    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        self.check(puzzle)?;
        self.inner.solve(puzzle, limits)
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        self.check(puzzle)?;
        self.inner.search(puzzle, limit, limits)
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        self.check(puzzle)?;
        self.inner.count(puzzle, limit, limits)
    }

    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        self.check(puzzle)?;
        self.inner.unique(puzzle, limits)
    }
}
