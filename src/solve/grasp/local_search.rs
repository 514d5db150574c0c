//! One GRASP search: the grid as values, the construction that fills each block with the
//! missing values (greedy on the cost, randomized among the `alpha` best), and the descent by
//! swaps of two free cells of a block; see the module docs of [`super`]. The blocks are the
//! boxes, a map's regions, or the rows of a Latin square; extra units (diagonals, windows)
//! count their repeats in the cost as rows and columns do.
//!
//! # Complexity
//! A construction is O(n²·alpha); a swap is evaluated in O(1) from the row and column counts
//! (and O(k) for the k extra units of its two cells).

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Grasp;
use crate::grid::Grid;
use crate::propagate::Domains;
use crate::search::{Budget, Stats, StopReason};

/// The state of one search: the grid as values, the counters, the free cells per block.
pub(super) struct Search<'a> {
    n: usize,
    alpha: usize,
    plateau: u64,
    budget: &'a Budget,
    rng: ChaCha8Rng,
    pub(super) stats: Stats,
    shape: crate::shape::Shape,
    /// The givens (with the cells pre-propagation fixed), to restart from.
    puzzle: &'a Grid,
    /// The candidates left by pre-propagation, if any.
    domains: Option<&'a Domains>,
    /// Current value of every cell (complete after a construction).
    value: Vec<u16>,
    /// `row_of[c]`, `col_of[c]`.
    row_of: Vec<u32>,
    col_of: Vec<u32>,
    /// `rows[r·n + v]`, `cols[c·n + v]`: occurrences of `v` in row `r`, column `c`.
    rows: Vec<u16>,
    cols: Vec<u16>,
    /// The counters of the givens alone.
    given_rows: Vec<u16>,
    given_cols: Vec<u16>,
    /// The free cells of block `b`: `free[start[b]..start[b + 1]]`.
    free: Vec<u32>,
    start: Vec<u32>,
    /// The values block `b` misses, in the same layout (refilled at each construction).
    missing: Vec<u16>,
    missing_base: Vec<u16>,
    /// The block of each free cell.
    block_of: Vec<u32>,
    /// Scratch: the free cells in construction order, the candidates of a cell.
    order: Vec<u32>,
    candidates: Vec<(u32, u16)>,
    /// Number of values still unplaced per block during a construction.
    left: Vec<u32>,
    /// Extra units (diagonals, windows): `extras[k·n + v]` occurrences of `v` in extra unit
    /// `k`, those of the givens alone, and the extra units of cell `c` at
    /// `extra_of[extra_start[c]..extra_start[c + 1]]` (empty without extra units).
    extras: Vec<u16>,
    given_extras: Vec<u16>,
    extra_start: Vec<u32>,
    extra_of: Vec<u32>,
    cost: u64,
}

impl<'a> Search<'a> {
    pub(super) fn new(
        puzzle: &'a Grid,
        domains: Option<&'a Domains>,
        grasp: &Grasp,
        budget: &'a Budget,
    ) -> Search<'a> {
        let shape = puzzle.shape();
        let n = shape.order();
        let cells = shape.cells();
        let mut rows = vec![0u16; n * n];
        let mut cols = vec![0u16; n * n];
        let row_of: Vec<u32> = (0..cells).map(|c| shape.row_of(c) as u32).collect();
        let col_of: Vec<u32> = (0..cells).map(|c| shape.col_of(c) as u32).collect();
        let mut value = vec![0u16; cells];
        // Each cell's extra units: its units after the row, the column and the block.
        let (mut extra_start, mut extra_of) = (vec![0u32], Vec::new());
        for c in 0..cells {
            extra_of.extend(shape.units_of(c).skip(3).map(|u| u.number as u32));
            extra_start.push(extra_of.len() as u32);
        }
        let mut extras = vec![0u16; shape.extra_count() * n];
        for (c, v) in puzzle.givens() {
            value[c] = v as u16;
            rows[row_of[c] as usize * n + v] += 1;
            cols[col_of[c] as usize * n + v] += 1;
            for &k in &extra_of[extra_start[c] as usize..extra_start[c + 1] as usize] {
                extras[k as usize * n + v] += 1;
            }
        }
        // Blocks: boxes, or rows for a Latin square.
        let block_cell = |b: usize, i: usize| {
            if shape.is_latin() {
                shape.cell(b, i)
            } else {
                shape.box_cell(b, i)
            }
        };
        let mut free = Vec::new();
        let mut start = Vec::with_capacity(n + 1);
        let mut missing_base = Vec::new();
        let mut block_of = vec![u32::MAX; cells];
        for b in 0..n {
            start.push(free.len() as u32);
            let mut present = vec![false; n];
            for i in 0..n {
                let c = block_cell(b, i);
                match puzzle.get(c) {
                    Some(v) => present[v] = true,
                    None => {
                        free.push(c as u32);
                        block_of[c] = b as u32;
                    }
                }
            }
            // Givens do not clash (checked by the caller), so the missing values fit exactly.
            missing_base.extend((0..n).filter(|&v| !present[v]).map(|v| v as u16));
        }
        start.push(free.len() as u32);
        debug_assert_eq!(free.len(), missing_base.len());
        Search {
            n,
            alpha: grasp.options.alpha.max(1),
            plateau: grasp.options.plateau,
            budget,
            rng: ChaCha8Rng::seed_from_u64(grasp.options.seed),
            stats: Stats::default(),
            shape,
            puzzle,
            domains,
            value,
            row_of,
            col_of,
            given_rows: rows.clone(),
            given_cols: cols.clone(),
            rows,
            cols,
            order: free.clone(),
            free,
            start,
            missing: missing_base.clone(),
            missing_base,
            block_of,
            candidates: Vec::with_capacity(n),
            left: vec![0; n],
            given_extras: extras.clone(),
            extras,
            extra_start,
            extra_of,
            cost: 0,
        }
    }

    /// Counts one node; the budget's reason to stop, if it ran out.
    #[inline]
    fn tick(&mut self) -> Result<(), StopReason> {
        self.stats.nodes += 1;
        match self.budget.exceeded(self.stats.nodes) {
            Some(reason) => Err(reason),
            None => Ok(()),
        }
    }

    /// One GRASP iteration: construction, then local search. The cost of the local minimum.
    pub(super) fn iteration(&mut self) -> Result<u64, StopReason> {
        self.tick()?;
        self.construct();
        self.descend()?;
        Ok(self.cost)
    }

    /// The greedy randomized construction (see the module docs).
    fn construct(&mut self) {
        let n = self.n;
        self.stats.guesses += 1;
        self.rows.copy_from_slice(&self.given_rows);
        self.cols.copy_from_slice(&self.given_cols);
        self.extras.copy_from_slice(&self.given_extras);
        self.missing.copy_from_slice(&self.missing_base);
        for b in 0..n {
            self.left[b] = self.start[b + 1] - self.start[b];
        }
        self.order.shuffle(&mut self.rng);
        for k in 0..self.order.len() {
            let cell = self.order[k] as usize;
            let b = self.block_of[cell] as usize;
            let (r, c) = (self.row_of[cell] as usize, self.col_of[cell] as usize);
            let base = self.start[b] as usize;
            let left = self.left[b] as usize;
            self.candidates.clear();
            for i in 0..left {
                let v = self.missing[base + i] as usize;
                let mut cost = u32::from(self.rows[r * n + v]) + u32::from(self.cols[c * n + v]);
                for &k in self.extras_of(cell) {
                    cost += u32::from(self.extras[k as usize * n + v]);
                }
                if let Some(d) = self.domains
                    && !d.contains(cell, v)
                {
                    cost += 2 * n as u32; // not a candidate: only when nothing better is left
                }
                self.candidates.push((cost, i as u16));
            }
            let rcl = self.alpha.min(left);
            if rcl < left {
                self.candidates.select_nth_unstable(rcl - 1);
            }
            let pick = self.candidates[self.rng.random_range(0..rcl)].1 as usize;
            let v = self.missing[base + pick];
            // Remove the value from the block's missing list (swap with the last one left).
            self.missing.swap(base + pick, base + left - 1);
            self.left[b] -= 1;
            self.value[cell] = v;
            self.rows[r * n + v as usize] += 1;
            self.cols[c * n + v as usize] += 1;
            for i in self.extra_start[cell] as usize..self.extra_start[cell + 1] as usize {
                self.extras[self.extra_of[i] as usize * n + v as usize] += 1;
            }
        }
        self.cost = self
            .rows
            .iter()
            .chain(self.cols.iter())
            .chain(self.extras.iter())
            .map(|&k| u64::from(k.saturating_sub(1)))
            .sum();
    }

    /// The extra units of cell `c`.
    #[inline]
    fn extras_of(&self, c: usize) -> &[u32] {
        &self.extra_of[self.extra_start[c] as usize..self.extra_start[c + 1] as usize]
    }

    /// The change of cost of a unit's counters when one `out` leaves and one `into` enters.
    #[inline]
    fn unit_delta(counts: &[u16], out: usize, into: usize) -> i32 {
        i32::from(counts[into] >= 1) - i32::from(counts[out] >= 2)
    }

    /// The change of cost if free cells `a` and `b` (same block) swapped values.
    #[inline]
    fn delta(&self, a: usize, b: usize) -> i32 {
        let n = self.n;
        let (x, y) = (self.value[a] as usize, self.value[b] as usize);
        let mut d = 0;
        let (ra, rb) = (self.row_of[a] as usize, self.row_of[b] as usize);
        if ra != rb {
            d += Self::unit_delta(&self.rows[ra * n..(ra + 1) * n], x, y)
                + Self::unit_delta(&self.rows[rb * n..(rb + 1) * n], y, x);
        }
        let (ca, cb) = (self.col_of[a] as usize, self.col_of[b] as usize);
        if ca != cb {
            d += Self::unit_delta(&self.cols[ca * n..(ca + 1) * n], x, y)
                + Self::unit_delta(&self.cols[cb * n..(cb + 1) * n], y, x);
        }
        // An extra unit holding both cells keeps its values.
        let (of_a, of_b) = (self.extras_of(a), self.extras_of(b));
        for &k in of_a.iter().filter(|k| !of_b.contains(k)) {
            let k = k as usize;
            d += Self::unit_delta(&self.extras[k * n..(k + 1) * n], x, y);
        }
        for &k in of_b.iter().filter(|k| !of_a.contains(k)) {
            let k = k as usize;
            d += Self::unit_delta(&self.extras[k * n..(k + 1) * n], y, x);
        }
        d
    }

    /// Swaps the values of free cells `a` and `b`, updating the counters in O(1).
    fn apply(&mut self, a: usize, b: usize, delta: i32) {
        let n = self.n;
        let (x, y) = (self.value[a] as usize, self.value[b] as usize);
        let (ra, rb) = (self.row_of[a] as usize, self.row_of[b] as usize);
        let (ca, cb) = (self.col_of[a] as usize, self.col_of[b] as usize);
        self.rows[ra * n + x] -= 1;
        self.rows[ra * n + y] += 1;
        self.rows[rb * n + y] -= 1;
        self.rows[rb * n + x] += 1;
        self.cols[ca * n + x] -= 1;
        self.cols[ca * n + y] += 1;
        self.cols[cb * n + y] -= 1;
        self.cols[cb * n + x] += 1;
        for i in self.extra_start[a] as usize..self.extra_start[a + 1] as usize {
            let k = self.extra_of[i] as usize;
            self.extras[k * n + x] -= 1;
            self.extras[k * n + y] += 1;
        }
        for i in self.extra_start[b] as usize..self.extra_start[b + 1] as usize {
            let k = self.extra_of[i] as usize;
            self.extras[k * n + y] -= 1;
            self.extras[k * n + x] += 1;
        }
        self.value.swap(a, b);
        self.cost = self
            .cost
            .checked_add_signed(i64::from(delta))
            .expect("cost ≥ 0");
        self.stats.propagations += 1;
    }

    /// Whether free cell `a` repeats a value in its row, its column or an extra unit.
    #[inline]
    fn conflicting(&self, a: usize) -> bool {
        let n = self.n;
        let x = self.value[a] as usize;
        self.rows[self.row_of[a] as usize * n + x] >= 2
            || self.cols[self.col_of[a] as usize * n + x] >= 2
            || self
                .extras_of(a)
                .iter()
                .any(|&k| self.extras[k as usize * n + x] >= 2)
    }

    /// Hill climbing from a conflicting cell: each step draws a free cell that repeats a value,
    /// scores its swaps with the other free cells of its block, and applies the best one if it
    /// does not raise the cost (ties drawn uniformly). The descent ends after `plateau` steps in a
    /// row without a new lowest cost.
    fn descend(&mut self) -> Result<(), StopReason> {
        let mut lowest = self.cost;
        let mut stale = 0u64;
        let free = self.free.len();
        while self.cost > 0 {
            self.tick()?;
            let mut k = self.rng.random_range(0..free);
            while !self.conflicting(self.free[k] as usize) {
                k = if k + 1 == free { 0 } else { k + 1 };
            }
            let a = self.free[k] as usize;
            let b = self.block_of[a] as usize;
            let mut best = i32::MAX;
            let mut ties = 0u32;
            let mut chosen = usize::MAX;
            for i in self.start[b] as usize..self.start[b + 1] as usize {
                let c = self.free[i] as usize;
                if c == a {
                    continue;
                }
                let d = self.delta(a, c);
                if d < best {
                    best = d;
                    ties = 1;
                    chosen = c;
                } else if d == best {
                    ties += 1;
                    if self.rng.random_range(0..ties) == 0 {
                        chosen = c;
                    }
                }
            }
            if best <= 0 {
                self.apply(a, chosen, best);
            }
            if self.cost < lowest {
                lowest = self.cost;
                stale = 0;
            } else {
                stale += 1;
                if stale > self.plateau {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The current complete grid.
    pub(super) fn grid(&self) -> Grid {
        let mut grid = self.puzzle.clone();
        for &c in &self.free {
            grid.set(c as usize, Some(self.value[c as usize] as usize));
        }
        debug_assert_eq!(grid.shape(), self.shape);
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::shape::Shape;
    use crate::text::parse_line;

    const EASY_4: &str = "...3..4114..3...";

    #[test]
    fn the_incremental_cost_matches_a_recount() {
        let puzzle = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let budget = Budget::start(&Limits::none());
        let grasp = Grasp::default();
        let mut s = Search::new(&puzzle, None, &grasp, &budget);
        let recount = |s: &Search| -> u64 {
            let g = s.grid();
            let n = 9;
            let mut cost = 0u64;
            for unit in 0..n {
                let mut row = vec![0u64; n];
                let mut col = vec![0u64; n];
                for i in 0..n {
                    row[g.at(unit, i).unwrap()] += 1;
                    col[g.at(i, unit).unwrap()] += 1;
                }
                cost += row
                    .iter()
                    .chain(&col)
                    .map(|&k| k.saturating_sub(1))
                    .sum::<u64>();
            }
            cost
        };
        for _ in 0..20 {
            s.construct();
            assert_eq!(s.cost, recount(&s));
            for step in 0..200 {
                let b = step % 9;
                let cells = &s.free[s.start[b] as usize..s.start[b + 1] as usize];
                let (a, c) = (cells[step % 9] as usize, cells[(step * 7 + 1) % 9] as usize);
                if a == c {
                    continue;
                }
                let d = s.delta(a, c);
                s.apply(a, c, d);
                assert_eq!(s.cost, recount(&s), "after swap {step}");
            }
        }
    }

    #[test]
    fn blocks_stay_permutations_after_construction() {
        let puzzle = parse_line(EASY_4, None).unwrap();
        let budget = Budget::start(&Limits::none());
        let mut s = Search::new(&puzzle, None, &Grasp::default(), &budget);
        s.construct();
        let g = s.grid();
        let shape = g.shape();
        for b in 0..4 {
            let mut seen: Vec<usize> = (0..4)
                .map(|i| g.get(shape.box_cell(b, i)).unwrap())
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, vec![0, 1, 2, 3]);
        }
    }
}
