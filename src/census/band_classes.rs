//! First-band classes (Felgenhauer and Jarvis): the first bands of a grid, up to the
//! symmetries that keep the number of completions, each class with its size.
//!
//! # The bands
//! The first band of a grid with `p×q` boxes is its first `p` rows. Relabelling the values maps
//! grids to grids, so the count is `n!` times the count of grids whose first box reads
//! `1, 2, …, n` row by row; the bands with that first box are numbered densely here. In each
//! other box of the band, a row holds `q` values: which values (the band's *structure*: for each
//! box and value, the row it lies in) and in which order (`q!` per row and box). For 3×3 there
//! are 56 structures and `6⁶` orders: 2 612 736 bands.
//!
//! # The classes
//! These maps send a first band to another with as many completions, each followed by the
//! relabelling that puts the first box back in order: permuting the columns inside a stack,
//! permuting the stacks (the whole grid's columns move with them), and permuting the band's rows
//! (the grid's rows move alike inside every band). For 3×3 they leave 416 classes. Felgenhauer
//! and Jarvis then merge the classes whose bands have the same column sets up to symmetry — the
//! completions depend on nothing else — into 44; see [`super::sudoku`].
//!
//! The column permutations inside the stacks other than the first touch neither the first box
//! nor the values in each row of a box: they act on each such box's columns alone, freely. So
//! the search runs on one band per such orbit, the one whose first row is increasing inside
//! every box but the first (`(q!)^(p−1)` bands each: 36 for 3×3, which leaves 72 576). A
//! search from each band not yet reached, applying the other generators (adjacent column swaps
//! in the first stack, adjacent stack swaps, adjacent row swaps) and putting each image back in
//! that form, finds each class and its size; a bitset marks the bands reached. The classes'
//! sizes add up to the number of bands.
//!
//! # Complexity
//! O(B/(q!)^(p−1) · g · p·n) for `B` bands and `g` generators: 72 576 bands × 6 generators for
//! 3×3, milliseconds; memory one bit per band searched, plus the queue.
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I", Mathematical Spectrum 39 (2006), and
//!   "Enumerating possible Sudoku grids" (2005): the 416 classes of first bands, merged into 44
//!   by their column sets.

use super::band_fill::{ColumnSets, MAX_STACKS};
use super::{MAX_ORDER, Stopped};
use crate::search::Budget;

/// Most bands (with the first box fixed) classified: 256 M bits of marks.
const MAX_BANDS: u64 = 1 << 28;

/// One class of first bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BandClass {
    /// The smallest number of a band searched in the class.
    pub(crate) representative: u64,
    /// Bands in the class.
    pub(crate) size: u64,
}

/// A band's cells, `p` rows of `n` values, row-major.
type Cells = [u8; MAX_STACKS * MAX_ORDER];

/// The first bands of a shape with the first box fixed, numbered, and their classes.
#[derive(Debug, Clone)]
pub(crate) struct BandClasses {
    p: usize,
    q: usize,
    n: usize,
    /// Structure codes, sorted: digit `(b−1)·n + v` (base `p`) is the row of value `v` in box `b`.
    structures: Vec<u64>,
    /// `p^k` for each digit `k`.
    digit_weight: Vec<u64>,
    /// `q!`; the orders per structure searched, `(q!)^((p−1)²)` (the first row increasing in
    /// every box but the first); the bands each searched band stands for, `(q!)^(p−1)`.
    row_orders: u64,
    orders: u64,
    column_orders: u64,
    classes: Vec<BandClass>,
}

impl BandClasses {
    /// The classes of the first bands of a shape with `p×q` boxes, or `Ok(None)`
    /// when there are too many bands (more than 2²⁸ with the first box fixed).
    ///
    /// # Errors
    /// The budget ran out or was cancelled.
    pub(crate) fn new(p: usize, q: usize, budget: &Budget) -> Result<Option<BandClasses>, Stopped> {
        let n = p * q;
        if p > MAX_STACKS || n > MAX_ORDER || q > 8 {
            return Ok(None);
        }
        let digits = (p - 1) * n;
        let Some(_) = (p as u64).checked_pow(digits as u32) else {
            return Ok(None);
        };
        let digit_weight: Vec<u64> = (0..digits).map(|k| (p as u64).pow(k as u32)).collect();
        let row_orders: u64 = (1..=q as u64).product();
        let (Some(orders), Some(column_orders)) = (
            row_orders.checked_pow(((p - 1) * (p - 1)) as u32),
            row_orders.checked_pow((p - 1) as u32),
        ) else {
            return Ok(None);
        };
        let mut classes = BandClasses {
            p,
            q,
            n,
            structures: Vec::new(),
            digit_weight,
            row_orders,
            orders,
            column_orders,
            classes: Vec::new(),
        };
        let mut used = [0u8; MAX_ORDER];
        for (v, rows) in used.iter_mut().enumerate().take(n) {
            *rows = 1 << (v / q);
        }
        let mut filled = [[0u8; MAX_STACKS]; MAX_STACKS];
        // Structures beyond MAX_BANDS / orders are not listed: the shape is declined.
        let most = MAX_BANDS / orders;
        if column_orders.checked_mul(orders).is_none() {
            return Ok(None);
        }
        if !classes.enumerate_structures(1, 0, 0, &mut used, &mut filled, most) {
            return Ok(None);
        }
        classes.structures.sort_unstable();
        classes.find_classes(budget)?;
        Ok(Some(classes))
    }

    /// Places value `v` of box `b` (rows chosen so far in `used`, `filled[b][r]` values in row
    /// `r` of box `b`), `code` the structure so far. Returns `false` as soon as more than `most`
    /// structures are found.
    fn enumerate_structures(
        &mut self,
        b: usize,
        v: usize,
        code: u64,
        used: &mut [u8; MAX_ORDER],
        filled: &mut [[u8; MAX_STACKS]; MAX_STACKS],
        most: u64,
    ) -> bool {
        if b == self.p {
            self.structures.push(code);
            return self.structures.len() as u64 <= most;
        }
        if v == self.n {
            return self.enumerate_structures(b + 1, 0, code, used, filled, most);
        }
        for r in 0..self.p {
            if used[v] & (1 << r) != 0 || usize::from(filled[b][r]) == self.q {
                continue;
            }
            used[v] |= 1 << r;
            filled[b][r] += 1;
            let digit = self.digit_weight[(b - 1) * self.n + v] * r as u64;
            let within = self.enumerate_structures(b, v + 1, code + digit, used, filled, most);
            used[v] &= !(1 << r);
            filled[b][r] -= 1;
            if !within {
                return false;
            }
        }
        true
    }

    /// Number of first bands with the first box fixed.
    pub(crate) fn bands(&self) -> u64 {
        self.searched() * self.column_orders
    }

    /// Number of bands searched: those whose first row increases inside every box but the
    /// first.
    fn searched(&self) -> u64 {
        self.structures.len() as u64 * self.orders
    }

    /// Number of structures (which values share a row in each box).
    pub(crate) fn structures(&self) -> usize {
        self.structures.len()
    }

    /// The classes, by representative.
    pub(crate) fn classes(&self) -> &[BandClass] {
        &self.classes
    }

    /// The column sets of the band searched numbered `rank`.
    pub(crate) fn column_sets(&self, rank: u64) -> ColumnSets {
        let cells = self.unrank(rank);
        let mut sets = ColumnSets::default();
        for r in 0..self.p {
            for c in 0..self.n {
                sets.masks[c / self.q][c % self.q] |= 1 << cells[r * self.n + c];
            }
        }
        sets
    }

    /// The number of a band searched (first box fixed, first row increasing in the other
    /// boxes).
    fn rank(&self, cells: &Cells) -> u64 {
        let (p, q, n) = (self.p, self.q, self.n);
        let mut code = 0u64;
        for b in 1..p {
            for r in 0..p {
                for &v in &cells[r * n + b * q..r * n + (b + 1) * q] {
                    code += self.digit_weight[(b - 1) * n + usize::from(v)] * r as u64;
                }
            }
        }
        let structure = self
            .structures
            .binary_search(&code)
            .expect("a band's structure is listed") as u64;
        let mut order = 0u64;
        let mut weight = 1u64;
        for r in 1..p {
            for b in 1..p {
                order += lehmer_rank(&cells[r * n + b * q..r * n + (b + 1) * q]) * weight;
                weight *= self.row_orders;
            }
        }
        structure * self.orders + order
    }

    /// The band searched numbered `rank`.
    fn unrank(&self, rank: u64) -> Cells {
        let (p, q, n) = (self.p, self.q, self.n);
        let code = self.structures[(rank / self.orders) as usize];
        let mut order = rank % self.orders;
        let mut cells = [0u8; MAX_STACKS * MAX_ORDER];
        for r in 0..p {
            for c in 0..q {
                cells[r * n + c] = (r * q + c) as u8;
            }
        }
        // The values of row r in box b, in increasing order.
        let mut sets = [[[0u8; 8]; MAX_STACKS]; MAX_STACKS];
        let mut filled = [[0usize; MAX_STACKS]; MAX_STACKS];
        for b in 1..p {
            for v in 0..n {
                let r = ((code / self.digit_weight[(b - 1) * n + v]) % p as u64) as usize;
                sets[r][b][filled[r][b]] = v as u8;
                filled[r][b] += 1;
            }
        }
        for b in 1..p {
            cells[b * q..(b + 1) * q].copy_from_slice(&sets[0][b][..q]);
        }
        for r in 1..p {
            for b in 1..p {
                let digit = order % self.row_orders;
                order /= self.row_orders;
                lehmer_unrank(
                    digit,
                    &sets[r][b][..q],
                    &mut cells[r * n + b * q..r * n + (b + 1) * q],
                );
            }
        }
        cells
    }

    /// The generators, as permutations of the cells (`new[i] = old[from[i]]`).
    fn generators(&self) -> Vec<Cells> {
        let (p, q, n) = (self.p, self.q, self.n);
        let mut identity = [0u8; MAX_STACKS * MAX_ORDER];
        for (i, slot) in identity.iter_mut().enumerate().take(p * n) {
            *slot = i as u8;
        }
        let swap_columns = |from: &mut Cells, a: usize, b: usize| {
            for r in 0..p {
                from.swap(r * n + a, r * n + b);
            }
        };
        let mut generators = Vec::new();
        // Column swaps in the other stacks are undone by the searched form: the first stack's.
        for j in 0..q - 1 {
            let mut from = identity;
            swap_columns(&mut from, j, j + 1);
            generators.push(from);
        }
        for s in 0..p - 1 {
            let mut from = identity;
            for j in 0..q {
                swap_columns(&mut from, s * q + j, (s + 1) * q + j);
            }
            generators.push(from);
        }
        for r in 0..p - 1 {
            let mut from = identity;
            for c in 0..n {
                from.swap(r * n + c, (r + 1) * n + c);
            }
            generators.push(from);
        }
        generators
    }

    /// `cells` permuted by `from`, relabelled so that the first box reads `0, 1, …` row by row,
    /// and with the columns of every other box ordered by their first-row values.
    fn apply(&self, cells: &Cells, from: &Cells) -> Cells {
        let (p, q, n) = (self.p, self.q, self.n);
        let mut moved = [0u8; MAX_STACKS * MAX_ORDER];
        for i in 0..p * n {
            moved[i] = cells[usize::from(from[i])];
        }
        let mut map = [0u8; MAX_ORDER];
        for r in 0..p {
            for c in 0..q {
                map[usize::from(moved[r * n + c])] = (r * q + c) as u8;
            }
        }
        for cell in moved.iter_mut().take(p * n) {
            *cell = map[usize::from(*cell)];
        }
        for b in 1..p {
            // Sort the box's columns by their first-row values (insertion sort, q ≤ 8).
            for j in 1..q {
                let mut k = j;
                while k > 0 && moved[b * q + k - 1] > moved[b * q + k] {
                    for r in 0..p {
                        moved.swap(r * n + b * q + k - 1, r * n + b * q + k);
                    }
                    k -= 1;
                }
            }
        }
        moved
    }

    fn find_classes(&mut self, budget: &Budget) -> Result<(), Stopped> {
        let generators = self.generators();
        let bands = self.searched();
        let mut reached = vec![0u64; bands.div_ceil(64) as usize];
        let mark = |reached: &mut Vec<u64>, rank: u64| -> bool {
            let (word, bit) = ((rank / 64) as usize, rank % 64);
            let new = reached[word] & (1 << bit) == 0;
            reached[word] |= 1 << bit;
            new
        };
        let mut queue: Vec<u64> = Vec::new();
        let mut popped = 0u64;
        for start in 0..bands {
            if !mark(&mut reached, start) {
                continue;
            }
            queue.clear();
            queue.push(start);
            let mut size = 0u64;
            while let Some(rank) = queue.pop() {
                size += 1;
                popped += 1;
                if popped.is_multiple_of(4096)
                    && let Some(reason) = budget.interrupted()
                {
                    return Err(Stopped(reason));
                }
                let cells = self.unrank(rank);
                for from in &generators {
                    let image = self.rank(&self.apply(&cells, from));
                    if mark(&mut reached, image) {
                        queue.push(image);
                    }
                }
            }
            self.classes.push(BandClass {
                representative: start,
                size: size * self.column_orders,
            });
        }
        Ok(())
    }
}

/// The rank of the order of `values` among the orders of the same values (Lehmer code).
fn lehmer_rank(values: &[u8]) -> u64 {
    let k = values.len();
    let mut rank = 0u64;
    for i in 0..k {
        let smaller_after = values[i + 1..].iter().filter(|&&w| w < values[i]).count() as u64;
        rank = rank * (k - i) as u64 + smaller_after;
    }
    rank
}

/// Writes into `out` the order of `sorted` with Lehmer rank `rank`.
fn lehmer_unrank(mut rank: u64, sorted: &[u8], out: &mut [u8]) {
    let k = sorted.len();
    let mut left = [0u8; 8];
    left[..k].copy_from_slice(sorted);
    let mut remaining = k;
    // Digits, most significant first: digit i has base k − i.
    let mut digits = [0usize; 8];
    for i in (0..k).rev() {
        let base = (k - i) as u64;
        digits[i] = (rank % base) as usize;
        rank /= base;
    }
    for (i, slot) in out.iter_mut().enumerate().take(k) {
        let d = digits[i];
        *slot = left[d];
        left.copy_within(d + 1..remaining, d);
        remaining -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn classes(p: usize, q: usize) -> BandClasses {
        BandClasses::new(p, q, &Budget::start(&Limits::none()))
            .unwrap()
            .unwrap()
    }

    #[test]
    fn lehmer_codes_round_trip() {
        let sorted = [2u8, 5, 7, 9];
        let mut seen = std::collections::BTreeSet::new();
        for rank in 0..24 {
            let mut out = [0u8; 4];
            lehmer_unrank(rank, &sorted, &mut out);
            assert_eq!(lehmer_rank(&out), rank);
            seen.insert(out);
        }
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn every_band_is_numbered_once() {
        for (p, q) in [(2, 2), (2, 3), (3, 2)] {
            let c = classes(p, q);
            for rank in 0..c.searched() {
                assert_eq!(c.rank(&c.unrank(rank)), rank, "{p}×{q}");
            }
        }
    }

    #[test]
    fn the_class_sizes_add_up_to_the_number_of_bands() {
        for (p, q) in [(2, 2), (2, 3), (3, 2), (1, 3)] {
            let c = classes(p, q);
            let sizes: u64 = c.classes().iter().map(|k| k.size).sum();
            assert_eq!(sizes, c.bands(), "{p}×{q}");
        }
        // 2×3: the first box fixed, the second box's rows are the complements, in 3!·3! orders.
        assert_eq!(classes(2, 3).bands(), 36);
    }
}
