//! The property check of the puzzle reduction ([`super::puzzle`]): well posed (a count up to
//! 2 by `native` or HAC search below order [`SEARCH_FROM_ORDER`], the removal test of
//! [`super::well_posed`] from it on), or search-free for a required scheme; with the engines it
//! keeps between tests.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::sweep::SWEEP_FROM_ORDER;
use super::symmetry::Transform;
use super::well_posed::{RemovalTest, SEARCH_FROM_ORDER, UniquenessEngine};
use crate::grade::Grader;
use crate::grid::Grid;
use crate::propagate::{Scheme, Searcher};
use crate::shape::Shape;
use crate::solve::luby::luby;
use crate::solve::{Limits, Native, Solver, Verified};

/// Checks the property a reduction keeps; owns the engines, one per thread.
pub(super) struct Checker {
    pub(super) solver: Verified<Native>,
    pub(super) scheme: Option<Scheme>,
    pub(super) grader: Grader,
    /// Draws the isomorphic copies of the restarts (see [`Checker::unique`]); the answers do
    /// not depend on it, only the time they take.
    pub(super) rng: ChaCha8Rng,
    /// Nodes per unit of the restart schedule.
    pub(super) unit: u64,
    /// The HAC search that replaces `native` from order [`HAC_FROM_ORDER`] on.
    pub(super) searcher: Option<Searcher>,
    /// The removal test of the reduction from order [`SEARCH_FROM_ORDER`] on (unique only).
    pub(super) removal: Option<RemovalTest>,
    /// More removal tests, for the lanes after the first (see [`super::puzzle::Options::lanes`]).
    pub(super) spare: Vec<RemovalTest>,
    /// Whether the reduction sweeps (see [`super::puzzle::Options::sweeps`]).
    pub(super) sweeps: bool,
    /// The order from which it sweeps ([`SWEEP_FROM_ORDER`]; lowered by tests).
    pub(super) sweep_from: usize,
    /// Sweeps run so far (for the tests).
    pub(super) swept: usize,
}

/// From this order on, a count up to 2 of a puzzle whose solution is not known (the check that a
/// puzzle given to [`super::minimize::minimize`] is well posed) is a search on the HAC scheme (all-different
/// propagated to hyper-arc consistency by matching) instead of `native`'s singles: each node
/// costs more, but near sparse puzzles the trees are orders of magnitude smaller. The reduction
/// itself uses the removal test from [`SEARCH_FROM_ORDER`] on.
pub const HAC_FROM_ORDER: usize = 20;

impl Checker {
    pub(super) fn new(
        shape: Shape,
        scheme: Option<Scheme>,
        lanes: usize,
        sweeps: bool,
        engine: Option<UniquenessEngine>,
    ) -> Checker {
        let engine = engine.unwrap_or_default();
        let removal = shape.order() >= SEARCH_FROM_ORDER;
        Checker {
            solver: Verified(Native),
            scheme,
            grader: Grader::new(shape),
            rng: ChaCha8Rng::seed_from_u64(0x5eed),
            unit: 32 * shape.order() as u64,
            searcher: (shape.order() >= HAC_FROM_ORDER).then(|| Searcher::new(shape)),
            removal: removal.then(|| RemovalTest::new(shape, engine)),
            spare: if removal && scheme.is_none() {
                (1..lanes)
                    .map(|_| RemovalTest::new(shape, engine))
                    .collect()
            } else {
                Vec::new()
            },
            sweeps,
            sweep_from: SWEEP_FROM_ORDER,
            swept: 0,
        }
    }

    /// Exactly one solution (`native`, count up to 2).
    ///
    /// The time of a count varies wildly with the order of the search, and a fixed order meets
    /// heavy tails on large sparse grids. So the count runs under a node budget that follows the
    /// Luby sequence, each run on a random isomorphic copy of the puzzle ([`Transform`]: values
    /// relabelled, rows and columns permuted within bands and stacks), which has the same number
    /// of solutions but is searched in another order. The budget grows without bound, so the
    /// answer is exact.
    pub(super) fn unique(&mut self, puzzle: &Grid) -> bool {
        for run in 1.. {
            let limits = Limits::nodes(self.unit.saturating_mul(luby(run)));
            let copy;
            let target = if run == 1 {
                puzzle
            } else {
                copy = Transform::random(puzzle.shape(), &mut self.rng).apply(puzzle);
                &copy
            };
            let (count, stopped) = match self.searcher.as_mut() {
                Some(searcher) => {
                    let report = searcher
                        .run(target, Scheme::HAC, 2, &limits)
                        .expect("HAC is sound and the limit is 2");
                    (report.count, report.stopped.is_some())
                }
                None => {
                    let report = self
                        .solver
                        .count(target, 2, &limits)
                        .expect("orders are checked against the native limit first");
                    (report.count, report.stopped.is_some())
                }
            };
            if count >= 2 {
                return false;
            }
            if !stopped {
                return count == 1;
            }
        }
        unreachable!("the restart loop only ends by returning")
    }

    /// The property of the reduction: search-free for the scheme if one is required, else
    /// unique. `puzzle` is a puzzle with the property and solution `solution`, with the givens of
    /// `removed` taken out.
    pub(super) fn keeps(&mut self, puzzle: &Grid, solution: &Grid, removed: &[usize]) -> bool {
        match (self.scheme, self.removal.as_mut()) {
            (Some(s), _) => self.grader.grade(puzzle, &[s]).is_search_free(s),
            (None, Some(test)) => test.still_unique(puzzle, solution, removed),
            (None, None) => self.unique(puzzle),
        }
    }

    /// Whether the reduction of a puzzle of order `order` sweeps: asked for, from
    /// [`SWEEP_FROM_ORDER`] on, and the property is well-posedness checked by the removal test.
    pub(super) fn sweeps(&self, order: usize) -> bool {
        self.sweeps && order >= self.sweep_from && self.scheme.is_none() && self.removal.is_some()
    }

    /// How many removal tests run side by side (see [`super::puzzle::Options::lanes`]).
    pub(super) fn lanes(&self) -> usize {
        1 + self.spare.len()
    }

    /// The removal tests of the lanes (see [`super::puzzle::Options::lanes`]).
    pub(super) fn lane_tests(&mut self) -> Vec<&mut RemovalTest> {
        let first = self.removal.as_mut().expect("lanes need the removal test");
        std::iter::once(first)
            .chain(self.spare.iter_mut())
            .collect()
    }

    /// Whether the last [`Checker::keeps`] was an expensive one: a removal test that needed a
    /// search. The reduction then stops growing its blocks (see the module docs).
    pub(super) fn searched(&self) -> bool {
        self.scheme.is_none() && self.removal.as_ref().is_some_and(RemovalTest::searched)
    }
}
