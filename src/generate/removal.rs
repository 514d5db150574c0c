//! The removal pass that both the generator ([`super::puzzle`]) and the reduction of a given
//! puzzle ([`super::minimize`]) run: orbits of givens taken away one by one (in blocks, doubling
//! while the removals succeed), each removal kept when the checker says the puzzle keeps its
//! property, with sweeps ahead and the tail of the pass in lanes from the larger orders on (see
//! the module docs of [`super::puzzle`]).
//!
//! # Complexity
//! One checker test per block tried; a pass over k orbits tests O(k) blocks when most removals
//! fail and O(log k) when most succeed.

use super::checker::Checker;
use super::parallel_tail::reduce_in_lanes;
use super::progress::Tracker;
use super::random_grid::MAX_RANDOM_GRID_ORDER;
use super::sweep::{sweep, sweep_interval};
use crate::grid::Grid;

/// The largest order puzzles are made or reduced for (the `native` backend's limit).
pub const MAX_PUZZLE_ORDER: usize = MAX_RANDOM_GRID_ORDER;

/// Removes the orbits of `order` from `puzzle` one by one (in blocks; see the module docs) while
/// `checker` keeps its property, never going below `floor` givens; every test answered is
/// counted by `tracker`.
pub(super) fn reduce(
    puzzle: &mut Grid,
    solution: &Grid,
    order: &[&[usize]],
    floor: usize,
    checker: &mut Checker,
    tracker: &Tracker,
) {
    let mut givens = puzzle.filled();
    let mut removed = Vec::new();
    let (mut i, mut k) = (0, 1usize);
    // Sweeps (see the module docs): the orbits known needed, and the givens at the last sweep.
    let sweeping = floor == 0 && checker.sweeps(puzzle.shape().order());
    let interval = sweep_interval(puzzle.shape().order());
    let mut needed = vec![false; order.len()];
    let mut swept_at = givens;
    while i < order.len() && givens > floor {
        if tracker.cancelled() {
            return;
        }
        if needed[i] {
            i += 1;
            continue;
        }
        if sweeping && k == 1 && givens + interval <= swept_at {
            swept_at = givens;
            checker.swept += 1;
            sweep(
                puzzle,
                solution,
                &order[i + 1..],
                &mut needed[i + 1..],
                &mut checker.lane_tests(),
                tracker,
            );
        }
        // The longest block of at most k orbits that keeps the floor (and no orbit known needed).
        let mut size = 0;
        let mut take = 0;
        while take < k && i + take < order.len() && !needed[i + take] {
            let s = order[i + take]
                .iter()
                .filter(|&&c| puzzle.get(c).is_some())
                .count();
            if givens < floor + size + s {
                break;
            }
            size += s;
            take += 1;
        }
        if take == 0 {
            // This orbit alone would go below the floor: skip it.
            i += 1;
            k = 1;
            continue;
        }
        if k == 1 && floor == 0 && checker.lanes() > 1 {
            // The rest of the pass in lanes (see the module docs), up to the next sweep.
            let stop_at = if sweeping {
                swept_at.saturating_sub(interval)
            } else {
                0
            };
            i += reduce_in_lanes(
                puzzle,
                solution,
                &order[i..],
                &mut needed[i..],
                stop_at,
                &mut checker.lane_tests(),
                tracker,
            );
            givens = puzzle.filled();
            continue;
        }
        removed.clear();
        for orbit in &order[i..i + take] {
            for &c in *orbit {
                if puzzle.get(c).is_some() {
                    removed.push(c);
                }
                puzzle.set(c, None);
            }
        }
        let keeps = checker.keeps(puzzle, solution, &removed);
        tracker.tested(if keeps { givens - size } else { givens });
        if keeps {
            givens -= size;
            i += take;
            k = if checker.searched() {
                1
            } else {
                k.saturating_mul(2)
            };
        } else {
            for orbit in &order[i..i + take] {
                for &c in *orbit {
                    puzzle.set(c, solution.get(c));
                }
            }
            if take == 1 {
                i += 1;
            }
            k = (take / 2).max(1);
        }
    }
}
