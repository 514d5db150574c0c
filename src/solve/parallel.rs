//! Counting one puzzle on all cores: split the search tree near the root, count the parts in
//! parallel (rayon), add the counts.
//!
//! The split branches on a most-constrained empty cell (candidates from the givens only) until
//! there are at least `parts` subproblems, dropping branches that leave a cell with no candidate.
//! The subproblems partition the solutions (each fixes a different value in some cell), so the
//! counts add up. Works with any [`Solver`].
//!
//! # Complexity
//! The split costs O(parts · n² · degree); the counting itself is the backend's. With `t` threads
//! and well-balanced parts the wall time is about 1/t of one thread's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::mask::{MAX_MASK_ORDER, Mask};
use super::{CountReport, Limits, SolveError, Solver, StopReason};
use crate::grid::Grid;

/// [`Solver::count`] of `puzzle`, split into about `parts` subproblems counted in parallel on the
/// current rayon pool. The count, `hit_limit` and `stopped` mean what they mean for
/// [`Solver::count`]; the two solutions kept are those of the earliest subproblems (which ones
/// may vary between runs only when the limit stops the count).
///
/// # Errors
/// As [`Solver::count`].
pub fn count_parallel(
    solver: &dyn Solver,
    puzzle: &Grid,
    limit: u64,
    limits: &Limits,
    parts: usize,
) -> Result<CountReport, SolveError> {
    let start = Instant::now();
    if puzzle.shape().order() > solver.max_order()
        || puzzle.shape().order() > MAX_MASK_ORDER
        || puzzle.first_clash().is_some()
        || parts <= 1
    {
        return solver.count(puzzle, limit, limits);
    }
    let frontier = split(puzzle, parts);
    let deadline = limits.time.and_then(|t| start.checked_add(t));
    let found = AtomicU64::new(0);
    let nodes_used = AtomicU64::new(0);
    let results: Vec<Option<Result<CountReport, SolveError>>> = frontier
        .par_iter()
        .map(|part| {
            let already = found.load(Ordering::Relaxed);
            if already >= limit {
                return None;
            }
            let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let nodes = limits
                .nodes
                .map(|max| max.saturating_sub(nodes_used.load(Ordering::Relaxed)));
            let report = solver.count(
                part,
                limit - already,
                &Limits {
                    time,
                    nodes,
                    cancel: limits.cancel.clone(),
                },
            );
            if let Ok(r) = &report {
                found.fetch_add(r.count, Ordering::Relaxed);
                nodes_used.fetch_add(r.stats.nodes, Ordering::Relaxed);
            }
            Some(report)
        })
        .collect();
    let mut total = CountReport::default();
    let mut stopped: Option<StopReason> = None;
    for report in results.into_iter().flatten() {
        let report = report?;
        total.count += report.count;
        total.stats.add(&report.stats);
        stopped = stopped.or(report.stopped);
        for grid in report.solutions {
            if total.solutions.len() < 2 {
                total.solutions.push(grid);
            }
        }
    }
    if total.count >= limit {
        total.count = limit;
        total.hit_limit = true;
    } else {
        total.stopped = stopped;
    }
    total.stats.elapsed = start.elapsed();
    Ok(total)
}

/// Subproblems partitioning the solutions of `puzzle`, at least `parts` of them unless the tree
/// is smaller, in search order.
fn split(puzzle: &Grid, parts: usize) -> Vec<Grid> {
    let mut frontier = vec![puzzle.clone()];
    while frontier.len() < parts {
        let mut next = Vec::with_capacity(frontier.len() * 2);
        let mut grew = false;
        for grid in frontier {
            match branch_cell(&grid) {
                Branch::Complete => next.push(grid),
                Branch::DeadEnd => grew = true,
                Branch::Cell(cell, values) => {
                    grew = true;
                    for v in super::mask::values(values) {
                        let mut child = grid.clone();
                        child.set(cell, Some(v));
                        next.push(child);
                    }
                }
            }
        }
        frontier = next;
        if !grew {
            break;
        }
    }
    frontier
}

enum Branch {
    Complete,
    DeadEnd,
    Cell(usize, u128),
}

/// The empty cell with the fewest candidates (first in row-major order on ties).
fn branch_cell(grid: &Grid) -> Branch {
    let shape = grid.shape();
    let full = u128::below(shape.order());
    let mut best: Option<(u32, usize, u128)> = None;
    for cell in 0..shape.cells() {
        if grid.get(cell).is_some() {
            continue;
        }
        let used = shape
            .peers(cell)
            .filter_map(|p| grid.get(p))
            .fold(0u128, |m, v| m | u128::bit(v));
        let cand = full & !used;
        let k = cand.count();
        if k == 0 {
            return Branch::DeadEnd;
        }
        if best.is_none_or(|(bk, _, _)| k < bk) {
            best = Some((k, cell, cand));
        }
    }
    match best {
        None => Branch::Complete,
        Some((_, cell, cand)) => Branch::Cell(cell, cand),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::solve::Native;

    #[test]
    fn parallel_counts_equal_serial_counts() {
        let empty = Grid::empty(Shape::latin(5).unwrap());
        let all = count_parallel(&Native, &empty, u64::MAX, &Limits::none(), 16).unwrap();
        assert_eq!(all.count, 161_280);
        assert!(all.complete());
        let some = count_parallel(&Native, &empty, 1000, &Limits::none(), 16).unwrap();
        assert_eq!(some.count, 1000);
        assert!(some.hit_limit);
    }
}
