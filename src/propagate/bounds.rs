//! Bounds consistency of `alldifferent` (`BC`): Hall intervals on the natural value order.
//!
//! A **Hall interval** of a unit is an interval of values `[a, b]` together with exactly `b − a + 1`
//! cells whose candidates all lie inside it: those cells use up the interval, so no other cell can
//! take a value in it, and a cell whose smallest (largest) candidate falls in it must move that
//! bound past it. More than `b − a + 1` such cells is a failure. Only bounds move: a value strictly
//! between the bounds of a cell stays, which is what makes bounds consistency weaker than
//! hyper-arc consistency. As the issue and Simonis' lattice require, `BC` runs together with
//! forward checking (so `FC ⊑ BC`); the engine does that, this file holds the Hall-interval part.
//!
//! The method is the direct one (Puget's idea without his balanced-tree bookkeeping): sort the
//! cells by upper bound once per revision, and for each distinct lower bound `a` sweep the cells in
//! that order counting those with `min ≥ a`; after the last cell of each upper bound `b`, the count
//! is the number of cells inside `[a, b]`. A revision repeats until the bounds stop moving, so the
//! result is the bounds-consistent fixpoint of the unit.
//!
//! # Complexity
//! O(n²) per sweep (n lower bounds × n cells) plus O(n log n) for the sort; a sweep that moves a
//! bound restarts, so a revision is O(n² · moves). López-Ortiz et al. reach O(n) after sorting with
//! union–find; at the orders Sudoku uses the quadratic sweep on preallocated arrays is faster in
//! practice and much simpler to check.
//!
//! # References
//! - J.-F. Puget, "A fast algorithm for the bound consistency of alldiff constraints", AAAI 1998.
//! - A. López-Ortiz, C.-G. Quimper, J. Tromp, P. van Beek, "A fast and simple algorithm for bounds
//!   consistency of the alldifferent constraint", IJCAI 2003.
//! - H. Simonis, "Sudoku as a constraint problem", 2005 (BC in the lattice of schemes).

use super::{Domains, Failure, Propagator};

impl Propagator {
    /// Makes unit `u` bounds consistent (Hall intervals), to the unit's fixpoint.
    pub(super) fn bounds(&mut self, d: &mut Domains, u: usize) -> Result<(), Failure> {
        let n = self.n;
        let mut mins = std::mem::take(&mut self.bounds_min);
        let mut maxs = std::mem::take(&mut self.bounds_max);
        let mut order = std::mem::take(&mut self.bounds_order);
        let result = self.bounds_sweeps(d, u, &mut mins, &mut maxs, &mut order);
        debug_assert_eq!(mins.len(), n);
        self.bounds_min = mins;
        self.bounds_max = maxs;
        self.bounds_order = order;
        result
    }

    fn bounds_sweeps(
        &mut self,
        d: &mut Domains,
        u: usize,
        mins: &mut [u32],
        maxs: &mut [u32],
        order: &mut [u32],
    ) -> Result<(), Failure> {
        let n = self.n;
        'revise: loop {
            for i in 0..n {
                let cell = self.unit_cells[u * n + i] as usize;
                mins[i] = d.min(cell).ok_or(Failure)? as u32;
                maxs[i] = d.max(cell).ok_or(Failure)? as u32;
                order[i] = i as u32;
            }
            order.sort_unstable_by_key(|&i| maxs[i as usize]);
            for lower in 0..n {
                let a = mins[lower];
                // Each distinct lower bound once: skip `a` if an earlier position has it.
                if mins[..lower].contains(&a) {
                    continue;
                }
                let mut inside = 0u32;
                for idx in 0..n {
                    let j = order[idx] as usize;
                    if mins[j] >= a {
                        inside += 1;
                    }
                    let b = maxs[j];
                    if idx + 1 < n && maxs[order[idx + 1] as usize] == b {
                        continue; // count every cell with this upper bound first
                    }
                    if b < a || inside == 0 {
                        continue;
                    }
                    let width = b - a + 1;
                    if inside > width {
                        return Err(Failure);
                    }
                    if inside == width {
                        // Hall interval [a, b]: push the bounds of the cells outside it.
                        let mut moved = false;
                        for k in 0..n {
                            let (lo, hi) = (mins[k], maxs[k]);
                            let outside = lo < a || hi > b;
                            let bound_inside = (a..=b).contains(&lo) || (a..=b).contains(&hi);
                            if outside && bound_inside {
                                let cell = self.unit_cells[u * n + k] as usize;
                                for v in a..=b {
                                    moved |= self.remove(d, cell, v as usize)?;
                                }
                            }
                        }
                        if moved {
                            continue 'revise;
                        }
                    }
                }
            }
            return Ok(());
        }
    }
}
