//! Reducing a given puzzle ([`minimize`]: hint reduction by committed choice) and checking that
//! a puzzle is locally minimal ([`is_locally_minimal`]); the pass is the one of
//! [`super::puzzle`], on the puzzle's givens instead of a random grid's cells.

use rand::seq::SliceRandom;

use super::checker::Checker;
use super::progress::{OnProgress, Tracker};
use super::removal::{MAX_PUZZLE_ORDER, reduce};
use crate::grid::Grid;
use crate::search::Cancel;
use crate::solve::{Answer, Limits, Native, Solver, Verified};

/// Why a puzzle cannot be reduced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinimizeError {
    /// The order is above [`MAX_PUZZLE_ORDER`].
    #[error("puzzles are reduced up to order {MAX_PUZZLE_ORDER}, not {0}")]
    TooLarge(usize),
    /// The puzzle has no solution.
    #[error("no solution: nothing to reduce")]
    Unsat,
    /// The puzzle has several solutions.
    #[error("several solutions: not well posed, nothing to reduce")]
    Multiple,
    /// The cancel token was set before the reduction ended.
    #[error("cancelled")]
    Cancelled,
}

/// A reduced puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimized {
    /// The locally minimal puzzle (a subset of the original givens).
    pub puzzle: Grid,
    /// The solution, the same as the original puzzle's.
    pub solution: Grid,
    /// Givens before.
    pub before: usize,
    /// Givens after.
    pub after: usize,
}

impl Minimized {
    /// Whether no given could be removed: the puzzle was locally minimal already.
    pub fn already_minimal(&self) -> bool {
        self.before == self.after
    }
}

/// The unique solution of `puzzle`, or why it has none.
pub(super) fn unique_solution(puzzle: &Grid) -> Result<Grid, MinimizeError> {
    if puzzle.shape().order() > MAX_PUZZLE_ORDER {
        return Err(MinimizeError::TooLarge(puzzle.shape().order()));
    }
    let solved = Verified(Native)
        .solve(puzzle, &Limits::none())
        .expect("order checked above");
    let Answer::Solved(solution) = solved.answer else {
        return Err(MinimizeError::Unsat);
    };
    if Checker::new(puzzle.shape(), None, 1, true, None).unique(puzzle) {
        Ok(solution)
    } else {
        Err(MinimizeError::Multiple)
    }
}

/// Removes redundant givens of a well-posed puzzle by committed choice until it is locally
/// minimal: givens in cell order, or in a random order drawn from `rng` when one is given.
///
/// # Errors
/// [`MinimizeError::Unsat`] or [`MinimizeError::Multiple`] when the puzzle is not well posed,
/// [`MinimizeError::TooLarge`] above order [`MAX_PUZZLE_ORDER`].
pub fn minimize(
    puzzle: &Grid,
    rng: Option<&mut dyn rand::Rng>,
) -> Result<Minimized, MinimizeError> {
    minimize_with_progress(puzzle, rng, None)
}

/// [`minimize`], reporting how far the reduction has come to `progress` (see [`OnProgress`]).
///
/// # Errors
/// As [`minimize`].
pub fn minimize_with_progress(
    puzzle: &Grid,
    rng: Option<&mut dyn rand::Rng>,
    progress: Option<&OnProgress>,
) -> Result<Minimized, MinimizeError> {
    minimize_cancellable(puzzle, rng, progress, None)
}

/// [`minimize_with_progress`] that stops between two removal tests once `cancel` is set (a
/// signal, a deadline).
///
/// # Errors
/// As [`minimize`], and [`MinimizeError::Cancelled`].
pub fn minimize_cancellable(
    puzzle: &Grid,
    rng: Option<&mut dyn rand::Rng>,
    progress: Option<&OnProgress>,
    cancel: Option<&Cancel>,
) -> Result<Minimized, MinimizeError> {
    let solution = unique_solution(puzzle)?;
    let cells: Vec<[usize; 1]> = puzzle.givens().map(|(c, _)| [c]).collect();
    let mut order: Vec<&[usize]> = cells.iter().map(|c| c.as_slice()).collect();
    if let Some(rng) = rng {
        order.shuffle(rng);
    }
    let mut reduced = puzzle.clone();
    let mut checker = Checker::new(puzzle.shape(), None, 1, true, None);
    let tracker = Tracker::new(progress.cloned()).with_cancel(cancel.cloned());
    reduce(&mut reduced, &solution, &order, 0, &mut checker, &tracker);
    if tracker.cancelled() {
        return Err(MinimizeError::Cancelled);
    }
    tracker.finished(reduced.filled());
    Ok(Minimized {
        before: puzzle.filled(),
        after: reduced.filled(),
        puzzle: reduced,
        solution,
    })
}

/// Whether `puzzle` is well posed and every given is needed: removing any one of them leaves
/// several solutions.
///
/// # Errors
/// [`MinimizeError::TooLarge`] above order [`MAX_PUZZLE_ORDER`].
pub fn is_locally_minimal(puzzle: &Grid) -> Result<bool, MinimizeError> {
    let solution = match unique_solution(puzzle) {
        Ok(solution) => solution,
        Err(MinimizeError::TooLarge(n)) => return Err(MinimizeError::TooLarge(n)),
        Err(_) => return Ok(false),
    };
    let mut checker = Checker::new(puzzle.shape(), None, 1, true, None);
    let mut probe = puzzle.clone();
    for (cell, v) in puzzle.givens() {
        probe.set(cell, None);
        let unique = checker.keeps(&probe, &solution, &[cell]);
        probe.set(cell, Some(v));
        if unique {
            return Ok(false);
        }
    }
    Ok(true)
}
