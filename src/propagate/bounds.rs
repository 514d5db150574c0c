//! The `BC` level: ECLiPSe's "bound-consistent" `alldifferent`, the propagator Simonis' `BC`
//! schemes ran (`ic_global:alldifferent/1`), found by **range exhaustion**.
//!
//! Simonis (2005): "The program uses the IC library (which defines a forward checking version of
//! all different) and its extension ic_global, which provides a bound-consistent all different."
//! That propagator is not textbook bounds consistency (Hall intervals on `[min, max]` hulls): it
//! looks at the **actual domains**. Its method, as the ECLiPSe library documents and implements
//! it, and as [`Exhaustion::filter`] does it:
//!
//! 1. Sort the items (cells of a unit, or the dual position variables of a unit's values, see
//!    [`super::dual`]) by increasing largest value, then decreasing smallest value, then
//!    increasing domain size; ties keep the items' order in the list (a stable sort).
//! 2. For each distinct largest value `b`, in increasing order, take the **group** of items
//!    whose largest value is at most `b`, in decreasing order of their smallest value (items of
//!    earlier groups first on ties), and scan it: after each item, `U` is the union of the
//!    domains scanned so far and `k` their number. `|U| < k` is a failure; `|U| = k` means the
//!    scanned items are **exhausted**: they take exactly the values of `U`. (A scan stops early
//!    once `|U|` exceeds the group's size: no longer prefix can be exhausted.) Every prefix
//!    whose items have smallest value at least `a` is the set of items whose whole domain lies in
//!    `[a, b]`, so every value interval is tried, and the prefixes in between try more sets.
//! 3. At the first exhausted prefix found that is not the whole list, remove `U` — interior
//!    values included — from every other item, drop the exhausted items, and start again at 1
//!    with the rest (in ECLiPSe the constraint splits in two and the rest is posted anew);
//!    when none is found, or only the whole list, stop.
//!
//! A fixed item is exhausted on its own (its group starts with it), so forward checking is part
//! of `BC` and `FC ⊑ BC`. Known cases, in one `alldifferent`: `A, B, C ∈ 4..6`,
//! `D ∈ {3,4,5,8}`, `E ∈ 1..9` give `D = {3,8}`, `E = {1,2,3,7,8,9}`; `P, Q ∈ {2,4}`,
//! `R ∈ {4,6}` give `R = 6`. Textbook bounds consistency changes neither.
//!
//! **Choices.** ECLiPSe keeps the pieces of a split constraint until backtracking, and does not
//! rerun an exhausted piece until one of its variables changes; sudokit keeps no such state: each
//! revision of a unit starts from the whole unit (in unit order) and repeats step 3 within the
//! revision. A revision is rerun whenever a cell of the unit changes, holes included. The rule is
//! sound (it only removes values no solution of the unit uses) but **not monotone**: a cell that
//! shrinks into a value range can hide an exhausted set the range held before, so the fixpoint
//! can depend on the order the units are revised in. `BC`-based schemes therefore run in sweeps
//! (see [`super::Propagator`]): forward the newly fixed cells, then revise the dirty units in index
//! order (rows, columns, boxes), until nothing changes — the order a simple implementation of the
//! paper's model uses, which makes every verdict reproducible. `BCI` first runs `BC` to its
//! fixpoint and then adds the duals, as the paper's model posts the cells' constraints first.
//! How much another order, or ECLiPSe's kept pieces, changes the verdicts on the data sets is
//! measured in `BENCHMARKS.md` (a few puzzles in a hundred for `BC` on 17-clue puzzles; `BCI`
//! and `BCV` hardly move).
//!
//! # Complexity
//! One scan is O(k²) bitset unions and popcounts of `⌈n/64⌉` words for `k` items (an insertion
//! sort plus a group merge per distinct largest value); a revision does at most `k` scans (each
//! drops at least one item), so O(k³) word operations in the worst case, O(k²) in the common case
//! of no or one exhausted set.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", CP 2005 Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems (the `BC` schemes, run with ECLiPSe's `ic_global`).
//! - The ECLiPSe Constraint Programming System, library `ic_global`, `alldifferent/1`
//!   ("checks for exhaustion of all sub-ranges of possible values"), after J.-F. Puget, "A fast
//!   algorithm for the bound consistency of alldiff constraints", AAAI 1998.

use super::{Domains, Failure, Propagator};

/// Scratch space and the range-exhaustion filter for one `alldifferent` of up to `capacity`
/// items whose domains are bitsets of `words` words (values or positions `0..64·words`).
#[derive(Debug, Clone, Default)]
pub struct Exhaustion {
    words: usize,
    /// The domains being filtered, item `i` at `i·words..(i+1)·words`.
    doms: Vec<u64>,
    low: Vec<u32>,
    high: Vec<u32>,
    size: Vec<u32>,
    /// Items still in the list, in sorted order after each sort.
    active: Vec<u32>,
    /// The current group (decreasing smallest value) and the merge buffer.
    group: Vec<u32>,
    merged: Vec<u32>,
    union: Vec<u64>,
}

impl Exhaustion {
    /// Scratch for up to `capacity` items of `words` words each.
    pub fn new(capacity: usize, words: usize) -> Exhaustion {
        Exhaustion {
            words,
            doms: vec![0; capacity * words],
            low: vec![0; capacity],
            high: vec![0; capacity],
            size: vec![0; capacity],
            active: Vec::with_capacity(capacity),
            group: Vec::with_capacity(capacity),
            merged: Vec::with_capacity(capacity),
            union: vec![0; words],
        }
    }

    /// The domain of item `i` (to fill before [`Exhaustion::filter`], read after it).
    #[inline]
    pub fn domain_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.doms[i * self.words..(i + 1) * self.words]
    }

    /// The domain of item `i`.
    #[inline]
    pub fn domain(&self, i: usize) -> &[u64] {
        &self.doms[i * self.words..(i + 1) * self.words]
    }

    /// Runs the range-exhaustion rule (see the module docs) on items `0..k` in place.
    ///
    /// Returns whether a value was removed.
    ///
    /// # Errors
    /// [`Failure`] when an item is or becomes empty, or some items have fewer values between
    /// them than there are items.
    pub fn filter(&mut self, k: usize) -> Result<bool, Failure> {
        self.active.clear();
        self.active.extend(0..k as u32);
        let mut changed = false;
        while let Some(found) = self.scan()? {
            changed |= self.remove_exhausted(found)?;
        }
        Ok(changed)
    }

    /// One pass of steps 1–2 over the active items: `None` when no exhausted prefix other than
    /// the whole list is found, else the split `(exhausted, rest_of_group_start)`: the first
    /// `exhausted` items of `group` are exhausted, with their union in `union`, and the items
    /// to prune are `group[exhausted..]` followed by `active[rest_of_group_start..]`.
    fn scan(&mut self) -> Result<Option<(usize, usize)>, Failure> {
        let w = self.words;
        for &item in &self.active {
            let i = item as usize;
            let dom = &self.doms[i * w..(i + 1) * w];
            let size: u32 = dom.iter().map(|x| x.count_ones()).sum();
            if size == 0 {
                return Err(Failure);
            }
            self.size[i] = size;
            self.low[i] = lowest(dom);
            self.high[i] = highest(dom);
        }
        self.sort_active();
        self.group.clear();
        let len = self.active.len();
        let mut start = 0;
        while start < len {
            let b = self.high[self.active[start] as usize];
            let mut end = start;
            while end < len && self.high[self.active[end] as usize] == b {
                end += 1;
            }
            self.merge_group(start, end);
            start = end;
            self.union.fill(0);
            let cutoff = self.group.len() as u32;
            for (scanned, &item) in self.group.iter().enumerate() {
                let i = item as usize;
                let mut union_size = 0;
                for (u, &x) in self.union.iter_mut().zip(&self.doms[i * w..(i + 1) * w]) {
                    *u |= x;
                    union_size += u.count_ones();
                }
                let count = scanned as u32 + 1;
                if union_size < count {
                    return Err(Failure);
                }
                if union_size == count {
                    if scanned + 1 == self.group.len() && start == len {
                        return Ok(None); // the whole list: nothing outside it
                    }
                    return Ok(Some((scanned + 1, start)));
                }
                if union_size > cutoff {
                    break;
                }
            }
        }
        Ok(None)
    }

    /// Stable insertion sort of the active items by (largest value, decreasing smallest value,
    /// size): O(k²) at worst, no allocation.
    fn sort_active(&mut self) {
        let key = |i: u32| {
            let i = i as usize;
            (self.high[i], u32::MAX - self.low[i], self.size[i])
        };
        for j in 1..self.active.len() {
            let item = self.active[j];
            let k = key(item);
            let mut pos = j;
            while pos > 0 && key(self.active[pos - 1]) > k {
                self.active[pos] = self.active[pos - 1];
                pos -= 1;
            }
            self.active[pos] = item;
        }
    }

    /// Merges `active[start..end]` (one largest value, decreasing smallest value) into the
    /// group, by decreasing smallest value, group items first on ties.
    fn merge_group(&mut self, start: usize, end: usize) {
        self.merged.clear();
        let (mut g, mut c) = (0, start);
        while g < self.group.len() || c < end {
            let take_group = c == end
                || (g < self.group.len()
                    && self.low[self.group[g] as usize] >= self.low[self.active[c] as usize]);
            if take_group {
                self.merged.push(self.group[g]);
                g += 1;
            } else {
                self.merged.push(self.active[c]);
                c += 1;
            }
        }
        std::mem::swap(&mut self.group, &mut self.merged);
    }

    /// Step 3: removes the union from the items outside the exhausted prefix, which become the
    /// new active list (rest of the group, then the items with larger largest values).
    fn remove_exhausted(
        &mut self,
        (exhausted, rest_start): (usize, usize),
    ) -> Result<bool, Failure> {
        let w = self.words;
        self.merged.clear();
        self.merged.extend_from_slice(&self.group[exhausted..]);
        self.merged.extend_from_slice(&self.active[rest_start..]);
        std::mem::swap(&mut self.active, &mut self.merged);
        let mut changed = false;
        for &item in &self.active {
            let i = item as usize;
            let mut left = 0;
            for (x, &u) in self.doms[i * w..(i + 1) * w].iter_mut().zip(&self.union) {
                changed |= *x & u != 0;
                *x &= !u;
                left |= *x;
            }
            if left == 0 {
                return Err(Failure);
            }
        }
        Ok(changed)
    }
}

/// The smallest set bit of a non-empty bitset.
fn lowest(words: &[u64]) -> u32 {
    let (i, w) = words
        .iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .expect("non-empty");
    i as u32 * 64 + w.trailing_zeros()
}

/// The largest set bit of a non-empty bitset.
fn highest(words: &[u64]) -> u32 {
    let (i, w) = words
        .iter()
        .enumerate()
        .rev()
        .find(|(_, w)| **w != 0)
        .expect("non-empty");
    i as u32 * 64 + 63 - w.leading_zeros()
}

impl Propagator {
    /// Range exhaustion on the cells of unit `u` (the `BC` level).
    pub(super) fn bounds(&mut self, d: &mut Domains, u: usize) -> Result<(), Failure> {
        let (n, w) = (self.n, self.words);
        let mut ex = std::mem::take(&mut self.exhaustion);
        for i in 0..n {
            let cell = self.unit_cells[u * n + i] as usize;
            ex.domain_mut(i).copy_from_slice(d.cell_words(cell));
        }
        let result = ex.filter(n).and_then(|changed| {
            if changed {
                for i in 0..n {
                    let cell = self.unit_cells[u * n + i] as usize;
                    self.restrict(d, cell, &ex.domain(i)[..w])?;
                }
            }
            Ok(())
        });
        self.exhaustion = ex;
        result
    }
}
