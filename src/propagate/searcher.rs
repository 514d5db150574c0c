//! Depth-first search on top of a propagation scheme: the engine of the `cp` backend.
//!
//! The root is the puzzle's fixpoint under the scheme; a node picks the **most constrained** cell
//! (fewest candidates above one, first in row-major order on ties), tries its candidates in
//! increasing order, and propagates each choice with the scheme. It stops when it has counted
//! `limit` solutions, when the search space is exhausted, or when [`Limits`] stop it — then the
//! report says so ([`CountReport::stopped`]) and is not complete: a search never guesses. It keeps
//! the first two solutions ([`CountReport::record`]), each checked by [`crate::verify()`] first.
//!
//! [`Searcher::run_from`] starts from a root store narrower than the givens (constraints at the
//! root: a value removed from a cell, a cell fixed) and can try one given value of each cell last
//! (searching for a solution other than a known one); the generator's removal test uses both.
//!
//! Statistics ([`Stats`]): `nodes` counts the root and every propagated choice; `guesses` every
//! choice (nodes but the root); `backtracks` the choices refuted by propagation (dead ends);
//! `propagations` the propagator revisions (see [`Propagator::propagations`]).
//!
//! # Complexity
//! Exponential in the worst case (Sudoku completion is NP-complete); memory is one candidate store
//! per level of the current branch, allocated once per depth reached and reused.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", 2005 (search with each scheme, the runtime
//!   table).
//! - R. M. Haralick, G. L. Elliott, "Increasing tree search efficiency for constraint satisfaction
//!   problems", Artificial Intelligence 14, 1980 (most-constrained variable first).
//!
//! # Examples
//! ```
//! use sudokit::propagate::{count_with_scheme, Scheme};
//! use sudokit::search::Limits;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let report = count_with_scheme(&puzzle, Scheme::HAC, 5, &Limits::none()).unwrap();
//! assert!(report.hit_limit);
//! assert_eq!((report.count, report.solutions.len()), (5, 2));
//! ```

use thiserror::Error;

use super::{Domains, Propagator, Scheme};
use crate::grid::Grid;
use crate::search::{Budget, CountReport, Limits, Stats};
use crate::verify::{Violation, verify};

/// A search that went wrong: a found grid failed the certificate check (a propagator bug).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The grid the search reached is not a solution of the puzzle.
    #[error("the search produced an invalid solution ({0}): a propagator removed a value wrongly")]
    Unverified(Violation),
    /// A limit of zero solutions.
    #[error("the solution limit must be at least 1")]
    ZeroLimit,
}

/// Searches `puzzle` with `scheme`, counting up to `limit` solutions within `limits`.
///
/// `limit = 1` finds a first solution, `limit = 2` decides uniqueness.
///
/// # Errors
/// [`SearchError::ZeroLimit`]; [`SearchError::Unverified`] if a solution fails verification.
pub fn count_with_scheme(
    puzzle: &Grid,
    scheme: Scheme,
    limit: u64,
    limits: &Limits,
) -> Result<CountReport, SearchError> {
    Searcher::new(puzzle.shape()).run(puzzle, scheme, limit, limits)
}

/// A reusable search engine for one shape: keeps the propagator and the per-level stores between
/// puzzles.
pub struct Searcher {
    engine: Propagator,
    levels: Vec<Domains>,
}

struct Frame {
    cell: usize,
    /// The next value to try is the first candidate at a position `≥ next` of the cell's value
    /// order (see [`value_at`]).
    next: usize,
    /// The cell's value order starts at this value (see [`value_at`]).
    first: usize,
}

/// The value at `position` of a cell's value order, which starts at `first` and wraps around:
/// `first, first + 1, …, n − 1, 0, …, first − 1`. With `first = 0` this is increasing order; with
/// `first = a + 1` the value `a` comes last.
#[inline]
fn value_at(first: usize, position: usize, n: usize) -> usize {
    let v = first + position;
    if v >= n { v - n } else { v }
}

impl Searcher {
    /// A searcher for puzzles of `shape`.
    pub fn new(shape: crate::Shape) -> Searcher {
        Searcher {
            engine: Propagator::new(shape),
            levels: Vec::new(),
        }
    }

    /// As [`count_with_scheme`], reusing this searcher's memory.
    ///
    /// # Errors
    /// As [`count_with_scheme`].
    ///
    /// # Panics
    /// If the puzzle's shape is not the searcher's.
    pub fn run(
        &mut self,
        puzzle: &Grid,
        scheme: Scheme,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SearchError> {
        self.run_from(
            puzzle,
            &Domains::from_puzzle(puzzle),
            scheme,
            limit,
            limits,
            None,
        )
    }

    /// As [`Searcher::run`], from a root store `root` that may be narrower than the puzzle's
    /// givens (a value removed from a cell, a cell fixed: constraints at the root), and, when
    /// `last` is given, with each cell's value in `last` tried after its other candidates
    /// (searching for a solution other than a known one, `last`, reaches one sooner).
    ///
    /// The solutions are the complete grids within `root` that solve `puzzle`; each is verified
    /// against `puzzle`. `root` must be a subset of the givens' store (`Domains::from_puzzle`).
    ///
    /// # Errors
    /// As [`count_with_scheme`].
    ///
    /// # Panics
    /// If the shapes of the puzzle, `root`, `last` and the searcher differ.
    pub fn run_from(
        &mut self,
        puzzle: &Grid,
        root: &Domains,
        scheme: Scheme,
        limit: u64,
        limits: &Limits,
        last: Option<&Grid>,
    ) -> Result<CountReport, SearchError> {
        assert_eq!(puzzle.shape(), self.engine.shape(), "shape of the searcher");
        assert_eq!(root.shape(), self.engine.shape(), "shape of the root store");
        assert!(
            last.is_none_or(|g| g.shape() == puzzle.shape()),
            "shape of the grid tried last"
        );
        debug_assert!(root.is_subset_of(&Domains::from_puzzle(puzzle)));
        if limit == 0 {
            return Err(SearchError::ZeroLimit);
        }
        let budget = Budget::start(limits);
        self.engine.set_stop(Some(budget.clone()));
        let result = self.explore(puzzle, root, scheme, limit, &budget, last);
        self.engine.set_stop(None);
        result
    }

    /// The depth-first search of [`Searcher::run_from`], within `budget`.
    fn explore(
        &mut self,
        puzzle: &Grid,
        root: &Domains,
        scheme: Scheme,
        limit: u64,
        budget: &Budget,
        last: Option<&Grid>,
    ) -> Result<CountReport, SearchError> {
        let props_before = self.engine.propagations();
        let mut report = CountReport {
            stats: Stats {
                nodes: 1,
                ..Stats::default()
            },
            ..CountReport::default()
        };

        if self.levels.is_empty() {
            self.levels.push(root.clone());
        } else {
            self.levels[0].copy_from(root);
        }
        let n = puzzle.shape().order();
        let first = |cell: usize| match last.and_then(|g| g.get(cell)) {
            Some(v) => value_at(v, 1, n),
            None => 0,
        };
        let root_ok = puzzle.first_clash().is_none()
            && self.engine.propagate(&mut self.levels[0], scheme).is_ok();
        let mut stack: Vec<Frame> = Vec::new();
        if !root_ok {
            report.stats.backtracks += 1;
        } else if let Some(cell) = choose(&self.levels[0]) {
            stack.push(Frame {
                cell,
                next: 0,
                first: first(cell),
            });
        } else {
            self.record(puzzle, 0, limit, &mut report)?;
        }

        while !report.hit_limit {
            let depth = stack.len();
            let Some(frame) = stack.last_mut() else { break };
            // The node about to be made is number `nodes + 1`.
            if let Some(reason) = budget.exceeded(report.stats.nodes + 1) {
                report.stopped = Some(reason);
                break;
            }
            let parent = &self.levels[depth - 1];
            let Some(position) =
                (frame.next..n).find(|&i| parent.contains(frame.cell, value_at(frame.first, i, n)))
            else {
                stack.pop();
                continue;
            };
            frame.next = position + 1;
            let v = value_at(frame.first, position, n);
            let cell = frame.cell;
            if self.levels.len() <= depth {
                let copy = self.levels[depth - 1].clone();
                self.levels.push(copy);
            } else {
                let (before, after) = self.levels.split_at_mut(depth);
                after[0].copy_from(&before[depth - 1]);
            }
            report.stats.nodes += 1;
            report.stats.guesses += 1;
            if self
                .engine
                .assign(&mut self.levels[depth], scheme, cell, v)
                .is_err()
            {
                report.stats.backtracks += 1;
                continue;
            }
            match choose(&self.levels[depth]) {
                Some(next_cell) => stack.push(Frame {
                    cell: next_cell,
                    next: 0,
                    first: first(next_cell),
                }),
                None => self.record(puzzle, depth, limit, &mut report)?,
            }
        }
        report.stats.propagations = self.engine.propagations() - props_before;
        report.stats.elapsed = budget.elapsed();
        Ok(report)
    }

    /// Counts the solved store at `depth`, keeping its grid (through the certificate verifier)
    /// while fewer than two are kept.
    fn record(
        &self,
        puzzle: &Grid,
        depth: usize,
        limit: u64,
        report: &mut CountReport,
    ) -> Result<(), SearchError> {
        let grid = self.levels[depth]
            .to_grid()
            .expect("choose found no open cell, so every cell has one candidate");
        verify(puzzle, &grid).map_err(SearchError::Unverified)?;
        report.record(|| grid, limit);
        Ok(())
    }
}

/// The open cell with the fewest candidates (first on ties), or `None` if every cell is fixed.
fn choose(d: &Domains) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for cell in 0..d.shape().cells() {
        let count = d.count(cell);
        if count > 1 && best.is_none_or(|(_, c)| count < c) {
            best = Some((cell, count));
            if count == 2 {
                break;
            }
        }
    }
    best.map(|(cell, _)| cell)
}
