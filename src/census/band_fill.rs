//! Band fill counts: how many ways one band (`p` rows of a grid with `p×q` boxes) can be filled
//! when the set of values in each of its columns is given.
//!
//! # The column sets of a band
//! A band of a grid with `p×q` boxes is `p` rows by `n = p·q` columns; its columns fall into `p`
//! stacks of `q`. Each column of the band holds `p` values, and the `q` columns of a stack hold
//! every value once between them (the stack's box). So a band's **column sets** give, for each
//! stack, a partition of the values into `q` blocks of `p` ([`super::partition`]). Given the
//! column sets, a filling puts each column's values in its `p` cells so that every row holds
//! every value once; the boxes then hold every value automatically. The number of fillings,
//! `f(C)`, is all a count of whole grids needs to know about a band: the bands below the first
//! only see the first band's column sets (see [`super::completion`]).
//!
//! # The table
//! `f` is invariant under relabelling the values, permuting the columns inside a stack and
//! permuting the stacks. So the table fixes stack 1's partition (values `0..p` in its first
//! column, `p..2p` in the next, ...) by relabelling, and forgets the columns' order in the other
//! stacks: an entry is a tuple of `p − 1` partition indices, `U^(p−1)` entries for
//! `U = n!/(p!^q q!)` partitions (78 400 for 3×3, 42 875 for 4×2). The entries fall into classes
//! under the whole symmetry group (relabellings that keep stack 1's partition, stack
//! permutations, and swapping stack 1 with another stack followed by the relabelling that puts
//! it back in its fixed form). A breadth-first search with those generators finds the classes,
//! and `f` is counted once per class, by a depth-first search over the rows of each column's
//! values (row masks per value, no allocation per node), with the first column's order fixed
//! (the rows of a band can be permuted: `f` is `p!` times that count).
//!
//! # Complexity
//! The classes: O(U^(p−1) · g · n) for `g` generators. Each class's `f`: at most `(p!)^(q−1)`
//! choices for the rest of the first stack, then a product of permanents of 0-1 matrices for the
//! middle stacks; the last stack is forced and checked in O(n). A 3×3 table takes milliseconds.
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I", Mathematical Spectrum 39 (2006):
//!   bands 2 and 3 of a 9×9 grid counted from the column contents the first band leaves.

use rayon::prelude::*;

use super::partition::{MAX_BLOCKS, StackPartitions, relabel_mask};
use super::{MAX_ORDER, Stopped};
use crate::search::Budget;

/// Most stacks (rows per box, `p`) the census handles: row masks are bytes.
pub(crate) const MAX_STACKS: usize = 8;

/// Largest table built: 4 M entries.
const MAX_CONFIGURATIONS: usize = 1 << 22;

/// The column sets of one band: for each stack, the value mask of each of its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ColumnSets {
    /// `masks[s][j]`: the values in column `j` of stack `s`.
    pub(crate) masks: [[u16; MAX_BLOCKS]; MAX_STACKS],
}

/// One class of table entries: entries with the same fill count by symmetry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FillClass {
    /// The smallest entry of the class.
    pub(crate) representative: usize,
    /// Entries in the class.
    pub(crate) size: u64,
    /// `f` of each entry: the fillings of a band with those column sets.
    pub(crate) fill: u64,
}

/// The fill counts of every band configuration of a shape; see the module docs.
#[derive(Debug, Clone)]
pub(crate) struct BandFill {
    p: usize,
    q: usize,
    n: usize,
    partitions: StackPartitions,
    entries: usize,
    class_of: Vec<u32>,
    classes: Vec<FillClass>,
}

impl BandFill {
    /// The table of a shape with `p×q` boxes, or `Ok(None)` when the shape is beyond it (more
    /// than [`MAX_STACKS`] rows per box, more than 4 M entries).
    ///
    /// # Errors
    /// The budget ran out or was cancelled while the table was built.
    pub(crate) fn new(p: usize, q: usize, budget: &Budget) -> Result<Option<BandFill>, Stopped> {
        if p > MAX_STACKS || p * q > MAX_ORDER {
            return Ok(None);
        }
        let Some(partitions) = StackPartitions::new(p, q) else {
            return Ok(None);
        };
        let Some(entries) = partitions
            .len()
            .checked_pow(p as u32 - 1)
            .filter(|&e| e <= MAX_CONFIGURATIONS)
        else {
            return Ok(None);
        };
        let mut table = BandFill {
            p,
            q,
            n: p * q,
            partitions,
            entries,
            class_of: Vec::new(),
            classes: Vec::new(),
        };
        table.find_classes(budget)?;
        let fills: Vec<Result<u64, Stopped>> = table
            .classes
            .par_iter()
            .map(|class| match budget.interrupted() {
                Some(reason) => Err(Stopped(reason)),
                None => Ok(fill_count(p, q, &table.column_sets(class.representative))),
            })
            .collect();
        for (class, fill) in table.classes.iter_mut().zip(fills) {
            class.fill = fill?;
        }
        Ok(Some(table))
    }

    /// Rows per box, `p`: the band's rows and its number of stacks.
    pub(crate) fn stacks(&self) -> usize {
        self.p
    }

    /// Columns per stack, `q`.
    pub(crate) fn columns_per_stack(&self) -> usize {
        self.q
    }

    /// The order `n = p·q`.
    pub(crate) fn order(&self) -> usize {
        self.n
    }

    /// The partitions of one stack.
    pub(crate) fn partitions(&self) -> &StackPartitions {
        &self.partitions
    }

    /// Number of table entries, `U^(p−1)`.
    pub(crate) fn entries(&self) -> usize {
        self.entries
    }

    /// The classes of entries.
    pub(crate) fn classes(&self) -> &[FillClass] {
        &self.classes
    }

    /// The class of entry `entry`.
    #[inline]
    pub(crate) fn class_of(&self, entry: usize) -> usize {
        self.class_of[entry] as usize
    }

    /// `f` of entry `entry`.
    #[inline]
    pub(crate) fn fill(&self, entry: usize) -> u64 {
        self.classes[self.class_of[entry] as usize].fill
    }

    /// The column sets of entry `entry`: stack 1 in its fixed form, the other stacks' blocks in
    /// the order of their smallest values.
    pub(crate) fn column_sets(&self, entry: usize) -> ColumnSets {
        let mut sets = ColumnSets::default();
        let block = (1u16 << self.p) - 1;
        for j in 0..self.q {
            sets.masks[0][j] = block << (j * self.p);
        }
        let mut rest = entry;
        for s in 1..self.p {
            let index = rest % self.partitions.len();
            rest /= self.partitions.len();
            sets.masks[s][..self.q].copy_from_slice(self.partitions.blocks(index));
        }
        sets
    }

    /// The relabelling that puts the partition of stack 1 (`first`, any column order) in its
    /// fixed form: with the columns ordered by their smallest values, the values of column `j`,
    /// in increasing order, become `j·p, j·p + 1, ...`. It depends on the partition alone (not
    /// on the columns' order), so a relabelling that keeps the fixed partition is not undone.
    pub(crate) fn fixing_relabelling(&self, first: &[u16]) -> [u8; MAX_ORDER] {
        let mut columns = [0u16; MAX_BLOCKS];
        columns[..self.q].copy_from_slice(&first[..self.q]);
        columns[..self.q].sort_unstable_by_key(|mask| mask.trailing_zeros());
        let mut map = [0u8; MAX_ORDER];
        for (j, &mask) in columns[..self.q].iter().enumerate() {
            let mut m = mask;
            let mut k = 0;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                map[v] = (j * self.p + k) as u8;
                k += 1;
            }
        }
        map
    }

    /// The partition index of stack masks `masks` after the relabelling `map`.
    #[inline]
    pub(crate) fn relabelled_index(&self, masks: &[u16], map: &[u8]) -> usize {
        let mut image = [0u16; MAX_BLOCKS];
        for (slot, &mask) in image.iter_mut().zip(&masks[..self.q]) {
            *slot = relabel_mask(mask, map);
        }
        self.partitions
            .index_of_masks(&image[..self.q])
            .expect("a relabelled partition is a partition")
    }

    /// The entry of a band's column sets (any labels, any column order).
    pub(crate) fn index_of(&self, sets: &ColumnSets) -> usize {
        let map = self.fixing_relabelling(&sets.masks[0]);
        let mut entry = 0;
        for s in (1..self.p).rev() {
            entry = entry * self.partitions.len() + self.relabelled_index(&sets.masks[s], &map);
        }
        entry
    }

    /// The classes of entries under the symmetry generators (see the module docs).
    fn find_classes(&mut self, budget: &Budget) -> Result<(), Stopped> {
        let generators = self.generators();
        self.class_of = vec![u32::MAX; self.entries];
        let mut queue: Vec<usize> = Vec::new();
        let mut visited = 0u64;
        for start in 0..self.entries {
            if self.class_of[start] != u32::MAX {
                continue;
            }
            let id = self.classes.len() as u32;
            self.class_of[start] = id;
            queue.clear();
            queue.push(start);
            let mut size = 0u64;
            while let Some(entry) = queue.pop() {
                size += 1;
                visited += 1;
                if visited.is_multiple_of(4096)
                    && let Some(reason) = budget.interrupted()
                {
                    return Err(Stopped(reason));
                }
                let sets = self.column_sets(entry);
                for generator in &generators {
                    let image = self.index_of(&generator.apply(&sets, self.p, self.q));
                    if self.class_of[image] == u32::MAX {
                        self.class_of[image] = id;
                        queue.push(image);
                    }
                }
            }
            self.classes.push(FillClass {
                representative: start,
                size,
                fill: 0,
            });
        }
        Ok(())
    }

    /// Generators of the symmetry group acting on the entries.
    fn generators(&self) -> Vec<Generator> {
        let (p, q) = (self.p, self.q);
        let identity: Vec<u8> = (0..self.n as u8).collect();
        let mut generators = Vec::new();
        // Transpositions inside stack 1's first column, and swaps of its whole columns: with the
        // fixed form, they generate every relabelling that keeps stack 1's partition.
        for k in 0..p.saturating_sub(1) {
            let mut map = identity.clone();
            map.swap(k, k + 1);
            generators.push(Generator::Relabel(map));
        }
        for j in 0..q.saturating_sub(1) {
            let mut map = identity.clone();
            for k in 0..p {
                map.swap(j * p + k, (j + 1) * p + k);
            }
            generators.push(Generator::Relabel(map));
        }
        // Adjacent stack swaps, the first of which moves stack 1 (then fixed again by
        // `index_of`).
        for s in 0..p.saturating_sub(1) {
            generators.push(Generator::SwapStacks(s));
        }
        generators
    }
}

/// One generator of the symmetries of the table.
#[derive(Debug, Clone)]
enum Generator {
    /// Relabel the values.
    Relabel(Vec<u8>),
    /// Swap stacks `s` and `s + 1`.
    SwapStacks(usize),
}

impl Generator {
    fn apply(&self, sets: &ColumnSets, p: usize, q: usize) -> ColumnSets {
        let mut image = *sets;
        match self {
            Generator::Relabel(map) => {
                for s in 0..p {
                    for j in 0..q {
                        image.masks[s][j] = relabel_mask(sets.masks[s][j], map);
                    }
                }
            }
            Generator::SwapStacks(s) => image.masks.swap(*s, s + 1),
        }
        image
    }
}

/// `f(C)`: the fillings of a band with `p` rows whose column `j` of stack `s` holds the values
/// `sets.masks[s][j]`, every row holding every value once. Rows are symmetric, so the first
/// column's values go to rows `0, 1, ...` in increasing order and the count is multiplied by
/// `p!`.
///
/// # Complexity
/// See the module docs: at most `(p!)^(q−1)` branches in the first stack, permanents of 0-1
/// matrices in the middle stacks, O(n) for the forced last stack.
pub(crate) fn fill_count(p: usize, q: usize, sets: &ColumnSets) -> u64 {
    if p == 1 {
        // One row: each column holds one value, in its one cell.
        return 1;
    }
    let mut search = FillSearch {
        p,
        full: ((1u16 << p) - 1) as u8,
        columns: [[0; MAX_STACKS]; MAX_STACKS * MAX_BLOCKS],
        count: 0,
        last: [[0; MAX_STACKS]; MAX_BLOCKS],
        q,
        used: [0; MAX_ORDER],
    };
    let values = |mask: u16| {
        let mut out = [0u8; MAX_STACKS];
        let mut m = mask;
        let mut k = 0;
        while m != 0 {
            out[k] = m.trailing_zeros() as u8;
            m &= m - 1;
            k += 1;
        }
        out
    };
    // The first column of stack 1: its values go to rows 0.. in increasing order.
    for (row, &v) in values(sets.masks[0][0])[..p].iter().enumerate() {
        search.used[v as usize] = 1 << row;
    }
    for j in 1..q {
        search.columns[search.count] = values(sets.masks[0][j]);
        search.count += 1;
    }
    for s in 1..p - 1 {
        for j in 0..q {
            search.columns[search.count] = values(sets.masks[s][j]);
            search.count += 1;
        }
    }
    for j in 0..q {
        search.last[j] = values(sets.masks[p - 1][j]);
    }
    let orderings: u64 = (1..=p as u64).product();
    search.column(0, 0, search.full) * orderings
}

/// The depth-first search of [`fill_count`]: columns in order, each column's values given rows
/// one by one.
struct FillSearch {
    p: usize,
    q: usize,
    full: u8,
    /// The columns to fill, after the fixed first one and before the last stack.
    columns: [[u8; MAX_STACKS]; MAX_STACKS * MAX_BLOCKS],
    count: usize,
    /// The last stack's columns, forced.
    last: [[u8; MAX_STACKS]; MAX_BLOCKS],
    /// Rows each value already takes.
    used: [u8; MAX_ORDER],
}

impl FillSearch {
    /// Fillings with columns `< col` filled and the first `k` values of column `col` placed,
    /// `free` the rows of column `col` still open.
    fn column(&mut self, col: usize, k: usize, free: u8) -> u64 {
        if k == self.p {
            return self.column(col + 1, 0, self.full);
        }
        if col == self.count {
            return u64::from(self.last_stack_fits());
        }
        let v = usize::from(self.columns[col][k]);
        let mut options = free & !self.used[v];
        let mut total = 0;
        while options != 0 {
            let row = options & options.wrapping_neg();
            options ^= row;
            self.used[v] |= row;
            total += self.column(col, k + 1, free & !row);
            self.used[v] ^= row;
        }
        total
    }

    /// Whether the last stack, where each value's row is forced, has each column's values in
    /// different rows.
    fn last_stack_fits(&self) -> bool {
        self.last[..self.q].iter().all(|column| {
            let rows = column[..self.p].iter().fold(0u8, |acc, &v| {
                acc | (self.full & !self.used[usize::from(v)])
            });
            rows == self.full
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn table(p: usize, q: usize) -> BandFill {
        BandFill::new(p, q, &Budget::start(&Limits::none()))
            .unwrap()
            .unwrap()
    }

    /// Bands with `p` rows, filled plainly: every row a permutation, boxes full.
    fn bands_by_brute_force(p: usize, q: usize) -> u64 {
        let n = p * q;
        let mut grid = vec![usize::MAX; p * n];
        fn go(grid: &mut Vec<usize>, cell: usize, p: usize, q: usize, n: usize) -> u64 {
            if cell == p * n {
                return 1;
            }
            let (r, c) = (cell / n, cell % n);
            let mut total = 0;
            for v in 0..n {
                let clash = (0..c).any(|c2| grid[r * n + c2] == v)
                    || (0..r).any(|r2| grid[r2 * n + c] == v)
                    || (0..cell).any(|other| {
                        other / n <= r && (other % n) / q == c / q && grid[other] == v
                    });
                if !clash {
                    grid[cell] = v;
                    total += go(grid, cell + 1, p, q, n);
                    grid[cell] = usize::MAX;
                }
            }
            total
        }
        go(&mut grid, 0, p, q, n)
    }

    #[test]
    fn the_fill_counts_add_up_to_the_bands_counted_plainly() {
        // Σ over all column sets of f = the number of bands; the table holds 1 / (n!/(p!^q) ·
        // q!^(p−1)) of the column sets, by relabelling and column order.
        for (p, q) in [(2, 2), (3, 2), (2, 3)] {
            let t = table(p, q);
            let n = p * q;
            let fact = |k: usize| (1..=k as u64).product::<u64>();
            let per_entry = fact(n) / fact(p).pow(q as u32) * fact(q).pow(p as u32 - 1);
            let sum: u64 = t.classes().iter().map(|c| c.size * c.fill).sum();
            assert_eq!(sum * per_entry, bands_by_brute_force(p, q), "{p}×{q}");
            let sizes: u64 = t.classes().iter().map(|c| c.size).sum();
            assert_eq!(sizes as usize, t.entries());
        }
    }

    #[test]
    fn every_entry_of_a_class_has_the_fill_of_its_representative() {
        for (p, q) in [(3, 2), (2, 3), (3, 3)] {
            let t = table(p, q);
            for entry in (0..t.entries()).step_by(7) {
                assert_eq!(
                    t.fill(entry),
                    fill_count(p, q, &t.column_sets(entry)),
                    "{p}×{q} entry {entry}"
                );
            }
        }
    }

    #[test]
    fn the_2x2_table_by_hand() {
        // Stack 2 holds {0,1}|{2,3} (as stack 1: each row's two values swap columns, 4
        // fillings), or {0,2}|{1,3} or {0,3}|{1,2} (2 each).
        let t = table(2, 2);
        let fills: Vec<u64> = (0..t.entries()).map(|e| t.fill(e)).collect();
        assert_eq!(fills, [4, 2, 2]);
        assert_eq!(t.classes().len(), 2);
    }

    #[test]
    fn the_3x3_table_has_280_squared_entries() {
        let t = table(3, 3);
        assert_eq!(t.entries(), 78_400);
        // Every band of a 9×9 grid: 9! · 56 · 6⁶.
        let sum: u64 = t.classes().iter().map(|c| c.size * c.fill).sum();
        let per_entry = 362_880 / 216 * 36;
        assert_eq!(sum * per_entry, 362_880 * 56 * 6u64.pow(6));
    }

    #[test]
    fn shapes_beyond_the_table_are_declined() {
        let budget = Budget::start(&Limits::none());
        assert!(BandFill::new(5, 2, &budget).unwrap().is_none());
        assert!(BandFill::new(9, 1, &budget).unwrap().is_none());
    }
}
