//! Counting one puzzle on all cores: split the search tree near the root, count the parts in
//! parallel (rayon), add the counts.
//!
//! The split branches on a most-constrained empty cell (candidates from the givens only) until
//! there are at least `parts` subproblems, dropping branches that leave a cell with no candidate.
//! The subproblems partition the solutions (each fixes a different value in some cell), so the
//! counts add up. Works with any [`Solver`].
//!
//! **The empty grid** is counted up to value relabelling: permuting the values maps solutions
//! to solutions, and every solution is the relabelling of exactly one solution whose first row
//! reads `1, 2, …, n` (the permutation that sorts its first row). So the count is `n!` times the
//! count with the first row fixed, which is searched (and split) as above. The empty 6×6 grid
//! (2×3 boxes) needs 39,168 completions instead of 28,200,960; the release suite checks the
//! product against a plain `dlx` enumeration.
//!
//! # Complexity
//! The split costs O(parts · n² · degree); the counting itself is the backend's. With `t` threads
//! and well-balanced parts the wall time is about 1/t of one thread's. The empty grid costs 1/n!
//! of its plain enumeration.
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I" (2006): relabelling symmetry in the
//!   count of 9×9 grids (the first band fixed up to relabelling).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::mask::{MAX_MASK_ORDER, Mask};
use super::{Budget, CountReport, Limits, Refutation, SolveError, Solver, StopReason};
use crate::grid::Grid;

/// [`Solver::count`] of `puzzle`, split into about `parts` subproblems counted in parallel on the
/// current rayon pool; the empty grid is counted up to relabelling (see the module docs). The
/// count, `hit_limit` and `stopped` mean what they mean for [`Solver::count`]; the two solutions
/// kept are those of the earliest subproblems (which ones may vary between runs only when the
/// limit stops the count). The count never exceeds `limit`, so it fits in 64 bits; without a
/// limit, [`count_parallel_wide`] counts in 128 bits.
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
    let wide = count_parallel_wide(solver, puzzle, Some(limit), limits, parts)?;
    let mut report = wide.search;
    // At most `limit` (a count that reaches it is the limit), so no bits are lost.
    report.count = wide.count.min(u128::from(limit)) as u64;
    Ok(report)
}

/// A count in 128 bits: the empty grid's is `n!` times the completions searched, which 64 bits
/// do not hold for long from order 16 on (`16! · 881 658` exceeds 2⁶⁴).
#[derive(Debug, Clone, PartialEq)]
pub struct WideCount {
    /// The solutions of the grid: exact when `search` is complete, else a lower bound; the
    /// limit itself when `search.hit_limit`.
    pub count: u128,
    /// The value relabellings factored out: `n!` for an empty grid of order 2 to 20 (see the
    /// module docs), else 1.
    pub relabellings: u64,
    /// The search that made the count: its `hit_limit` (the limit asked for was reached; never
    /// without a limit), `stopped`, solutions, refutation and work. Its `count` is that of the
    /// grid searched: the completions with the first row fixed for an empty grid, `count` being
    /// `relabellings` times it.
    pub search: CountReport,
}

/// [`count_parallel`] with an optional limit and a 128-bit count: `limit` `None` counts every
/// solution (then `hit_limit` is never set).
///
/// # Errors
/// As [`Solver::count`], and [`SolveError::CountOverflow`] when, without a limit, the grid
/// searched has 2⁶⁴ − 1 solutions or more (the most one search counts): no count is clamped.
///
/// # Examples
/// ```
/// use sudokit::solve::{Native, count_parallel_wide};
/// use sudokit::{Grid, Limits, Shape};
/// let empty = Grid::empty(Shape::sudoku(2, 2)?);
/// let all = count_parallel_wide(&Native, &empty, None, &Limits::none(), 4)?;
/// assert_eq!((all.count, all.relabellings, all.search.count), (288, 24, 12));
/// assert!(all.search.complete());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count_parallel_wide(
    solver: &dyn Solver,
    puzzle: &Grid,
    limit: Option<u64>,
    limits: &Limits,
    parts: usize,
) -> Result<WideCount, SolveError> {
    let relabellings = relabellings(puzzle);
    let searched = match relabellings {
        Some(_) => first_row_fixed(puzzle),
        None => puzzle.clone(),
    };
    let factor = relabellings.unwrap_or(1);
    // A limit `L` becomes `⌈L / n!⌉` completions of the first row; none is the most a search
    // counts, and reaching it is an overflow, not a limit.
    let search_limit = limit.map_or(u64::MAX, |limit| limit.div_ceil(factor));
    let mut search = count_split(solver, &searched, search_limit, limits, parts)?;
    let total = u128::from(search.count) * u128::from(factor);
    match limit {
        Some(limit) if total >= u128::from(limit) => {
            search.hit_limit = true;
            search.stopped = None;
            Ok(WideCount {
                count: u128::from(limit),
                relabellings: factor,
                search,
            })
        }
        Some(_) => Ok(WideCount {
            count: total,
            relabellings: factor,
            search,
        }),
        None if search.hit_limit => Err(SolveError::CountOverflow {
            backend: solver.name().to_string(),
        }),
        None => Ok(WideCount {
            count: total,
            relabellings: factor,
            search,
        }),
    }
}

/// `n!` for an empty grid of order `n ≤ 20` (the orders whose `n!` fits in a `u64`), the number
/// of value relabellings; `None` for any other grid.
fn relabellings(puzzle: &Grid) -> Option<u64> {
    let n = puzzle.shape().order();
    if !(2..=20).contains(&n) || puzzle.raw().iter().any(|&v| v != crate::grid::EMPTY) {
        return None;
    }
    Some((1..=n as u64).product())
}

/// The empty `puzzle` with its first row `1, …, n`.
fn first_row_fixed(puzzle: &Grid) -> Grid {
    let shape = puzzle.shape();
    let mut first_row = puzzle.clone();
    for c in 0..shape.order() {
        first_row.set(shape.cell(0, c), Some(c));
    }
    first_row
}

/// [`count_parallel`] without the relabelling.
fn count_split(
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
        || !solver.splittable()
    {
        return solver.count(puzzle, limit, limits);
    }
    let frontier = split(puzzle, parts);
    let budget = Budget::start(limits);
    let found = AtomicU64::new(0);
    let nodes_used = AtomicU64::new(0);
    let results: Vec<Option<Result<CountReport, SolveError>>> = frontier
        .par_iter()
        .map(|part| {
            let already = found.load(Ordering::Relaxed);
            if already >= limit {
                return None;
            }
            // Parts whose turn comes after the deadline or a cancellation are not started.
            if let Some(reason) = budget.interrupted() {
                return Some(Ok(CountReport {
                    stopped: Some(reason),
                    ..CountReport::default()
                }));
            }
            let time = budget.remaining();
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
    let mut refutation: Option<Refutation> = None;
    for report in results.into_iter().flatten() {
        let report = report?;
        refutation = Some(match refutation {
            None => report.refutation,
            Some(r) => r.weaker(report.refutation),
        });
        // A sum past u64::MAX is past `limit` too: the limit below is what is reported.
        total.count = total.count.saturating_add(report.count);
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
    // Branches the split dropped were refuted by propagation; the parts say how they know.
    total.refutation = refutation.unwrap_or(Refutation::Propagation);
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
    fn relabelled_counts_equal_plain_enumerations() {
        use crate::solve::Dlx;
        let shapes = [
            Shape::sudoku(2, 2).unwrap(),
            Shape::sudoku(1, 3).unwrap(),
            Shape::latin(4).unwrap(),
            Shape::latin(2).unwrap(),
        ];
        for shape in shapes {
            let empty = Grid::empty(shape);
            let plain = Dlx.count(&empty, u64::MAX, &Limits::none()).unwrap();
            for parts in [1, 16] {
                let fast = count_parallel(&Native, &empty, u64::MAX, &Limits::none(), parts);
                let fast = fast.unwrap();
                assert_eq!(fast.count, plain.count, "{shape}");
                assert!(fast.complete());
                for s in &fast.solutions {
                    assert_eq!(crate::verify(&empty, s), Ok(()));
                }
                // Limits below the count (below and above n!).
                for limit in [1, plain.count / 2, plain.count - 1] {
                    let r = count_parallel(&Native, &empty, limit, &Limits::none(), parts);
                    let r = r.unwrap();
                    assert_eq!((r.count, r.hit_limit), (limit, true), "{shape} {limit}");
                }
            }
        }
        // A grid with a given is counted plainly.
        let mut one = Grid::empty(Shape::sudoku(2, 2).unwrap());
        one.set(0, Some(0));
        let r = count_parallel(&Native, &one, u64::MAX, &Limits::none(), 4).unwrap();
        assert_eq!(r.count, 288 / 4);
    }

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
