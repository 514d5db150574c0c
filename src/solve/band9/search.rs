//! The search of the 9×9 engine: depth-first with binary branches ([`super::branch`]) from the
//! propagated puzzle ([`super::propagate`]).
//!
//! The state before the branch is pushed with the negation; when the guess fails, the negation
//! is applied to the restored state and needs no frame of its own. [`Stats::guesses`] counts
//! the guesses only: a negation is forced by the refuted guess, as tdoku's `num_guesses` and a
//! SAT solver's decisions count them. [`Stats::nodes`] counts both sides. Counting goes on
//! after a solution from the same stack, so "count to 2" costs one search.
//!
//! # Complexity
//! Per node the state copy is 42 words. Memory: one state per open choice point (at most 81).
//! Exponential in the worst case, like every exact method.

use std::cell::RefCell;

use super::board::{Board, Words};
use super::lanes::Lanes;
use super::tables::BAND_PEERS;
use crate::grid::Grid;
use crate::search::{Budget, CountReport, Stats, StopReason};
use crate::shape::Shape;

/// A choice point: the state before the guess, and the negation to apply to it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    cand: Words,
    unsolved: [u32; 4],
    value: u8,
    negation: [u32; 3],
}

thread_local! {
    /// The choice-point stack, kept between calls on this thread.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// [`count`](super::simd::count) on the lane implementation `L`, which `cpu` proves this CPU
/// runs (everything inlined, see [`super::simd`]).
#[inline(always)]
pub(super) fn count_with<L: Lanes>(
    cpu: L::Token,
    puzzle: &Grid,
    limit: u64,
    budget: &Budget,
) -> CountReport {
    let mut frames = FRAMES.with_borrow_mut(std::mem::take);
    frames.clear();
    frames.reserve(81);
    // The counters stay in a local of their own (not in `report`, which is returned): then
    // they live in registers.
    let mut stats = Stats {
        nodes: 1,
        ..Stats::default()
    };
    let mut report = CountReport::default();
    let mut board = Board::full();
    // Each given takes its value from its peers in the band, and its cell from every other
    // value: the latter once per value and band at the end, from the givens' cells.
    let (mut given, mut filled) = ([0u32; 4 * 9], [0u32; 3]);
    for (cell, v) in puzzle.givens() {
        let (b, p) = (cell / 27, cell % 27);
        given[4 * v + b] |= 1 << p;
        filled[b] |= 1 << p;
        board.cand.0[4 * v + b] &= !BAND_PEERS[p];
    }
    for v in 0..9 {
        for b in 0..3 {
            board.cand.0[4 * v + b] &= !(filled[b] & !given[4 * v + b]);
        }
    }
    if board.propagate::<L>(cpu, &mut stats.propagations) {
        report.stopped = search::<L>(
            cpu,
            board,
            puzzle.shape(),
            limit,
            budget,
            &mut frames,
            &mut stats,
            &mut report,
        );
    }
    stats.elapsed = budget.elapsed();
    report.stats = stats;
    FRAMES.with_borrow_mut(|slot| *slot = frames);
    report
}

/// Depth-first search from a propagated root; fills `report` (but its statistics: `stats`) and
/// returns why it stopped early, if a budget ran out.
#[expect(
    clippy::too_many_arguments,
    reason = "the token, the root, the question, the stack and the two outputs (see count_with)"
)]
#[inline(always)]
fn search<L: Lanes>(
    cpu: L::Token,
    mut board: Board,
    shape: Shape,
    limit: u64,
    budget: &Budget,
    frames: &mut Vec<Frame>,
    stats: &mut Stats,
    report: &mut CountReport,
) -> Option<StopReason> {
    'node: loop {
        if board.solved() {
            report.count += 1;
            if report.solutions.len() < 2 {
                report.solutions.push(board.grid(shape));
            }
            if report.count >= limit {
                report.hit_limit = true;
                return None;
            }
        } else {
            let branch = board.choose::<L>(cpu);
            frames.push(Frame {
                cand: board.cand,
                unsolved: board.unsolved,
                value: branch.value as u8,
                negation: branch.negation,
            });
            stats.nodes += 1;
            stats.guesses += 1;
            if let Some(reason) = budget.exceeded(stats.nodes) {
                return Some(reason);
            }
            board.apply(branch.value, branch.guess);
            if board.propagate::<L>(cpu, &mut stats.propagations) {
                continue 'node;
            }
        }
        // Backtrack: the negation of the last guess, on the state before it.
        loop {
            let frame = frames.pop()?;
            board.cand = frame.cand;
            board.seen = frame.cand;
            board.unsolved = frame.unsolved;
            stats.nodes += 1;
            if let Some(reason) = budget.exceeded(stats.nodes) {
                return Some(reason);
            }
            board.apply(usize::from(frame.value), frame.negation);
            if board.propagate::<L>(cpu, &mut stats.propagations) {
                continue 'node;
            }
        }
    }
}
