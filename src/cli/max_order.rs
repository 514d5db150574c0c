//! `--max-n N`: a user's cap on the order a solving command accepts, below the backend's own
//! [`Solver::max_order`]. A puzzle above it is answered in place with the backend's
//! [`SolveError::TooLarge`] line (`error: FILE:LINE:1: backend native (--max-n 36) handles orders
//! up to 36, the puzzle has order 49`), exit 2, and the batch goes on: a run over a mixed file
//! skips the instances it would spend hours on.

use sudokit::Grid;
use sudokit::solve::{
    CountReport, Limits, SolveError, SolveReport, Solver, UniqueReport, check_order,
};

/// A backend that refuses orders above `max` as well as its own limit.
pub struct Capped {
    /// The backend.
    pub inner: Box<dyn Solver>,
    /// `--max-n`.
    pub max: usize,
    /// `"NAME (--max-n N)"`, the name the error line shows.
    pub label: String,
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

/// `--max-n N`, flattened into each solving command next to its solver options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MaxNArgs {
    /// Refuse puzzles above order N (answered in place as an error, exit 2); default: the
    /// backend's own limit.
    #[arg(long, value_name = "N")]
    pub max_n: Option<usize>,
}

impl MaxNArgs {
    /// `solver`, capped when `--max-n` was given.
    ///
    /// # Errors
    /// `--max-n 0`.
    pub fn guard(&self, solver: Box<dyn Solver>) -> anyhow::Result<Box<dyn Solver>> {
        Ok(match self.max_n {
            Some(0) => anyhow::bail!("--max-n must be at least 1"),
            Some(max) => Box::new(Capped::new(solver, max)),
            None => solver,
        })
    }
}
