//! The textbook backtracking solvers, kept faithful so the benchmark reproduces the literature's
//! comparison: `backtrack` (plain), `fc-mrv` (forward checking + minimum remaining values) and
//! `bitwise` (bitmask unit state). None of them uses hidden singles; that is what `native` adds.
//!
//! - [`Backtrack`]: fills the empty cells in row-major order, trying values `1..=n` and testing
//!   each against the cell's peers (O(degree) per test). No pruning: a dead end is found only when
//!   a cell has no consistent value.
//! - [`FcMrv`]: keeps a domain (candidate bitset) per cell; assigning a value removes it from the
//!   domains of unassigned peers (forward checking) and fails as soon as one empties; the next
//!   cell is an unassigned one with the smallest domain (minimum remaining values, found by a
//!   linear scan as in Skiena). Domains are restored from a trail.
//! - [`Bitwise`]: row-major order like [`Backtrack`], but with one used-values word per row,
//!   column and box, so the candidates of a cell are `¬(row | col | box)`: an O(1) test.
//!
//! All three are iterative (an explicit stack), so depth n² needs no call stack, and handle any
//! shape up to order 128.
//!
//! # Complexity
//! Exponential in the number of empty cells in the worst case. Per node: [`Backtrack`] O(n · degree)
//! for the value tests; [`FcMrv`] O(degree) for forward checking plus O(n²) for the MRV scan;
//! [`Bitwise`] O(1) per candidate.
//!
//! # References
//! - S. S. Skiena, *The Algorithm Design Manual*, 2nd ed., Springer 2008, §7.3 "Sudoku": plain
//!   backtracking, then most-constrained-square selection with look-ahead (forward checking).
//! - R. M. Haralick, G. L. Elliott, "Increasing tree search efficiency for constraint satisfaction
//!   problems", *Artificial Intelligence* 14 (1980) 263–313 (forward checking, fail-first).
//! - The bitmask formulation is folklore of fast Sudoku programs (e.g. the row/column/box masks
//!   in Knuth's `sudoku` examples and most competition solvers).

use super::geometry::{Geometry, geometry};
use super::mask::{MAX_MASK_ORDER, Mask, dispatch_mask};
use super::{Budget, CountReport, Limits, SolveError, Solver, Stats};
use crate::grid::{EMPTY, Grid};

/// Plain backtracking in row-major cell order; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Backtrack;

/// Forward checking with minimum-remaining-values cell choice (Skiena); see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct FcMrv;

/// Backtracking with bitmask row/column/box state; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bitwise;

/// Collects solutions for a count: the first two grids, the count, the limit.
struct Collector {
    report: CountReport,
    limit: u64,
}

impl Collector {
    fn new(limit: u64) -> Collector {
        Collector {
            report: CountReport::default(),
            limit,
        }
    }

    /// Records a solution; true when the limit is reached.
    fn found(&mut self, grid: impl FnOnce() -> Grid) -> bool {
        self.report.count += 1;
        if self.report.solutions.len() < 2 {
            self.report.solutions.push(grid());
        }
        if self.report.count >= self.limit {
            self.report.hit_limit = true;
        }
        self.report.hit_limit
    }

    fn finish(mut self, stats: Stats, budget: &Budget) -> CountReport {
        self.report.stats = Stats {
            elapsed: budget.elapsed(),
            ..stats
        };
        self.report
    }
}

fn empty_cells(puzzle: &Grid) -> Vec<usize> {
    (0..puzzle.shape().cells())
        .filter(|&c| puzzle.get(c).is_none())
        .collect()
}

impl Solver for Backtrack {
    fn name(&self) -> &str {
        "backtrack"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let geo = geometry(puzzle.shape());
        let n = geo.n as u16;
        let empties = empty_cells(puzzle);
        let mut grid: Vec<u16> = puzzle.raw().to_vec();
        let mut next = vec![0u16; empties.len() + 1];
        let mut stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        let mut out = Collector::new(limit);
        let mut i = 0;
        loop {
            if i == empties.len() {
                if out.found(|| to_grid(puzzle, &grid)) || i == 0 {
                    break;
                }
                i -= 1;
                continue;
            }
            let cell = empties[i];
            grid[cell] = EMPTY;
            let mut v = next[i];
            while v < n {
                stats.propagations += 1;
                if geo.peers(cell).iter().all(|&p| grid[p as usize] != v) {
                    break;
                }
                v += 1;
            }
            if v < n {
                grid[cell] = v;
                next[i] = v + 1;
                i += 1;
                next[i] = 0;
                stats.nodes += 1;
                stats.guesses += 1;
                if let Some(reason) = budget.exceeded(stats.nodes) {
                    out.report.stopped = Some(reason);
                    break;
                }
            } else {
                if i == 0 {
                    break;
                }
                i -= 1;
            }
        }
        Ok(out.finish(stats, &budget))
    }
}

fn to_grid(puzzle: &Grid, raw: &[u16]) -> Grid {
    let mut grid = Grid::empty(puzzle.shape());
    for (cell, &v) in raw.iter().enumerate() {
        grid.set(cell, Some(v as usize));
    }
    grid
}

impl Solver for Bitwise {
    fn name(&self) -> &str {
        "bitwise"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let geo = geometry(puzzle.shape());
        Ok(dispatch_mask!(geo.n, M => bitwise::<M>(&geo, puzzle, limit, &budget)))
    }
}

fn bitwise<M: Mask>(geo: &Geometry, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let full = M::below(geo.n);
    // used[u]: the values placed in unit u.
    let mut used = vec![M::ZERO; geo.unit_count];
    for (cell, v) in puzzle.givens() {
        for &u in geo.units_of(cell) {
            used[u as usize] |= M::bit(v);
        }
    }
    let candidates = |used: &[M], cell: usize| {
        geo.units_of(cell)
            .iter()
            .fold(full, |m, &u| m & !used[u as usize])
    };
    let empties = empty_cells(puzzle);
    let mut grid: Vec<u16> = puzzle.raw().to_vec();
    let mut rest = vec![M::ZERO; empties.len() + 1];
    let mut stats = Stats {
        nodes: 1,
        ..Stats::default()
    };
    let mut out = Collector::new(limit);
    if let Some(&first) = empties.first() {
        rest[0] = candidates(&used, first);
    }
    let mut i = 0;
    loop {
        if i == empties.len() {
            if out.found(|| to_grid(puzzle, &grid)) || i == 0 {
                break;
            }
            i -= 1;
            unplace(geo, &mut used, &mut grid, empties[i]);
            continue;
        }
        if rest[i] == M::ZERO {
            if i == 0 {
                break;
            }
            i -= 1;
            unplace(geo, &mut used, &mut grid, empties[i]);
            continue;
        }
        let cell = empties[i];
        let v = rest[i].lowest();
        rest[i] = rest[i].without_lowest();
        grid[cell] = v as u16;
        for &u in geo.units_of(cell) {
            used[u as usize] |= M::bit(v);
        }
        stats.nodes += 1;
        stats.guesses += 1;
        stats.propagations += 1;
        if let Some(reason) = budget.exceeded(stats.nodes) {
            out.report.stopped = Some(reason);
            break;
        }
        i += 1;
        if i < empties.len() {
            rest[i] = candidates(&used, empties[i]);
        }
    }
    out.finish(stats, budget)
}

fn unplace<M: Mask>(geo: &Geometry, used: &mut [M], grid: &mut [u16], cell: usize) {
    let v = grid[cell] as usize;
    for &u in geo.units_of(cell) {
        used[u as usize] &= !M::bit(v);
    }
    grid[cell] = EMPTY;
}

impl Solver for FcMrv {
    fn name(&self) -> &str {
        "fc-mrv"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let geo = geometry(puzzle.shape());
        Ok(dispatch_mask!(geo.n, M => fc_mrv::<M>(&geo, puzzle, limit, &budget)))
    }
}

/// The forward-checking state: domains, which cells are assigned, and the undo trail.
struct Fc<M> {
    domain: Vec<M>,
    assigned: Vec<bool>,
    trail: Vec<(u32, M)>,
}

impl<M: Mask> Fc<M> {
    /// Assigns `v` to `cell` and removes it from the unassigned peers; false if a domain empties.
    fn assign(&mut self, geo: &Geometry, cell: usize, v: usize, stats: &mut Stats) -> bool {
        self.assigned[cell] = true;
        self.trail.push((cell as u32, self.domain[cell]));
        self.domain[cell] = M::bit(v);
        let bit = M::bit(v);
        for &p in geo.peers(cell) {
            let p = p as usize;
            if !self.assigned[p] && self.domain[p] & bit != M::ZERO {
                self.trail.push((p as u32, self.domain[p]));
                self.domain[p] &= !bit;
                stats.propagations += 1;
                if self.domain[p] == M::ZERO {
                    return false;
                }
            }
        }
        true
    }

    /// Undoes to trail length `mark` and unassigns `cell`.
    fn undo(&mut self, mark: usize, cell: usize) {
        while self.trail.len() > mark {
            let (c, old) = self.trail.pop().expect("longer than mark");
            self.domain[c as usize] = old;
        }
        self.assigned[cell] = false;
    }

    /// The unassigned cell with the smallest domain (first in row-major order on ties).
    fn most_constrained(&self) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (cell, d) in self.domain.iter().enumerate() {
            if !self.assigned[cell] {
                let k = d.count();
                if best.is_none_or(|(bk, _)| k < bk) {
                    best = Some((k, cell));
                }
            }
        }
        best.map(|(_, c)| c)
    }
}

fn fc_mrv<M: Mask>(geo: &Geometry, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let mut fc = Fc {
        domain: vec![M::below(geo.n); geo.cells],
        assigned: vec![false; geo.cells],
        trail: Vec::new(),
    };
    let mut stats = Stats {
        nodes: 1,
        ..Stats::default()
    };
    let mut out = Collector::new(limit);
    for (cell, v) in puzzle.givens() {
        if !fc.assign(geo, cell, v, &mut stats) {
            return out.finish(stats, budget);
        }
    }
    // Choice points: (cell, values left to try, trail mark).
    let mut stack: Vec<(usize, M, usize)> = Vec::new();
    'node: loop {
        match fc.most_constrained() {
            None => {
                let grid = || {
                    let mut g = Grid::empty(puzzle.shape());
                    for (c, d) in fc.domain.iter().enumerate() {
                        g.set(c, Some(d.lowest()));
                    }
                    g
                };
                if out.found(grid) {
                    break;
                }
            }
            Some(cell) => stack.push((cell, fc.domain[cell], fc.trail.len())),
        }
        while let Some(top) = stack.last_mut() {
            let (cell, rest, mark) = *top;
            fc.undo(mark, cell);
            if rest == M::ZERO {
                stack.pop();
                continue;
            }
            top.1 = rest.without_lowest();
            stats.nodes += 1;
            stats.guesses += 1;
            if let Some(reason) = budget.exceeded(stats.nodes) {
                out.report.stopped = Some(reason);
                break 'node;
            }
            if fc.assign(geo, cell, rest.lowest(), &mut stats) {
                continue 'node;
            }
        }
        break;
    }
    out.finish(stats, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    #[test]
    fn all_three_count_the_four_by_four_grids() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        for solver in [&Backtrack as &dyn Solver, &FcMrv, &Bitwise] {
            let report = solver.count(&empty, u64::MAX, &Limits::none()).unwrap();
            assert_eq!(report.count, 288, "{}", solver.name());
            assert!(report.complete());
        }
    }
}
