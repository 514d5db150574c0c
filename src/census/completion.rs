//! Completions of a first band: how many ways the bands below it can be filled, from the first
//! band's column sets alone.
//!
//! Each column of the grid holds every value once, so the values a column still needs below the
//! first band are the complement of the first band's column set. Below a first band:
//! - **two bands** (`q = 2`): the second band's column sets are those complements, and it can be
//!   filled in `f(complement)` ways ([`super::band_fill`]);
//! - **three bands** (`q = 3`): each value, in each stack, has two columns left (one per band
//!   below); choosing which one the second band takes, with `p` values per column, fixes both
//!   bands' column sets `S` and `R \ S`, and the completions are `Σ_S f(S) · f(R \ S)` — the
//!   column-contents count of Felgenhauer and Jarvis. For 3×3 there are 56 choices per stack,
//!   56³ = 175 616 terms, each two table lookups.
//!
//! Taller stacks of bands (`q ≥ 4`) are not handled; a shape with a side of 2 or 3 is counted in
//! the orientation where the bands are few (transposing maps grids to grids).
//!
//! # Complexity
//! `q = 2`: O(n). `q = 3`: O(c^p) lookups for `c` choices per stack (56 for 3×3), plus
//! O(c · p · c · n) to index the choices; no allocation inside the sum.
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I", Mathematical Spectrum 39 (2006):
//!   the completions of a first band counted through the column contents it leaves.

use super::band_fill::{BandFill, ColumnSets};
use super::partition::MAX_BLOCKS;

/// Counts the completions of first bands of one shape, with its band fill table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Completions<'a> {
    table: &'a BandFill,
}

/// The second and third bands' column masks in one stack, for one choice.
type StackChoice = ([u16; MAX_BLOCKS], [u16; MAX_BLOCKS]);

impl<'a> Completions<'a> {
    /// The counter for the shape of `table`, or `None` unless its grid has two or three bands.
    pub(crate) fn new(table: &'a BandFill) -> Option<Completions<'a>> {
        matches!(table.columns_per_stack(), 2 | 3).then_some(Completions { table })
    }

    /// The number of ways to fill every band below a first band with column sets `first`.
    pub(crate) fn count(&self, first: &ColumnSets) -> u128 {
        match self.table.columns_per_stack() {
            2 => self.below_two_bands(first),
            _ => self.below_three_bands(first),
        }
    }

    fn below_two_bands(&self, first: &ColumnSets) -> u128 {
        let all = self.all_values();
        let mut second = ColumnSets::default();
        for s in 0..self.table.stacks() {
            for j in 0..2 {
                second.masks[s][j] = all & !first.masks[s][j];
            }
        }
        u128::from(self.table.fill(self.table.index_of(&second)))
    }

    fn below_three_bands(&self, first: &ColumnSets) -> u128 {
        let p = self.table.stacks();
        let choices: Vec<Vec<StackChoice>> = (0..p)
            .map(|s| self.stack_choices(&first.masks[s]))
            .collect();
        let mut second_index: Vec<Vec<usize>> = choices.iter().map(|c| vec![0; c.len()]).collect();
        let mut third_index = second_index.clone();
        let mut total = 0u128;
        for (second0, third0) in &choices[0] {
            let second_map = self.table.fixing_relabelling(second0);
            let third_map = self.table.fixing_relabelling(third0);
            for s in 1..p {
                for (i, (second, third)) in choices[s].iter().enumerate() {
                    second_index[s][i] = self.table.relabelled_index(second, &second_map);
                    third_index[s][i] = self.table.relabelled_index(third, &third_map);
                }
            }
            total += self.sum_products(&second_index, &third_index, 1, 0, 0, 1);
        }
        total
    }

    /// `Σ f(second) · f(third)` over the choices of stacks `s..p`, the entries so far `second`
    /// and `third` (stack `k` weighs `U^(k−1)`; `weight` is that of stack `s`).
    fn sum_products(
        &self,
        second_index: &[Vec<usize>],
        third_index: &[Vec<usize>],
        s: usize,
        second: usize,
        third: usize,
        weight: usize,
    ) -> u128 {
        if s == second_index.len() {
            return u128::from(self.table.fill(second)) * u128::from(self.table.fill(third));
        }
        let next = weight * self.table.partitions().len();
        let last = s + 1 == second_index.len();
        let mut total = 0u128;
        for (&a, &b) in second_index[s].iter().zip(&third_index[s]) {
            let (e2, e3) = (second + a * weight, third + b * weight);
            total += if last {
                u128::from(self.table.fill(e2)) * u128::from(self.table.fill(e3))
            } else {
                self.sum_products(second_index, third_index, s + 1, e2, e3, next)
            };
        }
        total
    }

    /// In one stack whose first-band columns hold `first[0..3]`: every way to give each value one
    /// of its two other columns in the second band (`p` values per column), with the third
    /// band's columns that follow.
    fn stack_choices(&self, first: &[u16]) -> Vec<StackChoice> {
        let n = self.table.order();
        let mut column_of = [0u8; 16];
        for (j, &mask) in first[..3].iter().enumerate() {
            for (v, slot) in column_of.iter_mut().enumerate().take(n) {
                if mask & (1 << v) != 0 {
                    *slot = j as u8;
                }
            }
        }
        let mut out = Vec::new();
        let mut second = [0u16; MAX_BLOCKS];
        self.choose(0, &column_of, &mut second, &mut out);
        out
    }

    fn choose(
        &self,
        v: usize,
        column_of: &[u8; 16],
        second: &mut [u16; MAX_BLOCKS],
        out: &mut Vec<StackChoice>,
    ) {
        let (n, p) = (self.table.order(), self.table.stacks());
        if v == n {
            let mut third = [0u16; MAX_BLOCKS];
            for j in 0..3 {
                // The values of column j in neither the first nor the second band.
                let first_j = (0..n)
                    .filter(|&w| usize::from(column_of[w]) == j)
                    .fold(0u16, |m, w| m | 1 << w);
                third[j] = self.all_values() & !first_j & !second[j];
            }
            out.push((*second, third));
            return;
        }
        for j in 0..3 {
            if j == usize::from(column_of[v]) || second[j].count_ones() as usize == p {
                continue;
            }
            second[j] |= 1 << v;
            self.choose(v + 1, column_of, second, out);
            second[j] &= !(1 << v);
        }
    }

    fn all_values(&self) -> u16 {
        ((1u32 << self.table.order()) - 1) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Budget, Limits};

    #[test]
    fn the_first_9x9_band_in_its_simplest_form_has_72_times_108374976_completions() {
        // Felgenhauer and Jarvis: rows 123 456 789 / 456 789 123 / 789 123 456 complete in
        // 108,374,976 ways with the first column of bands 2 and 3 in increasing order; the rows
        // inside bands 2 and 3 (3!·3!) and the two bands (2) can be permuted: 72 times as many.
        let table = BandFill::new(3, 3, &Budget::start(&Limits::none()))
            .unwrap()
            .unwrap();
        let mut first = ColumnSets::default();
        // Column j of stack s holds the values of rows 0..3 there: {3s'+j ...}.
        let rows = [
            [0, 1, 2, 3, 4, 5, 6, 7, 8],
            [3, 4, 5, 6, 7, 8, 0, 1, 2],
            [6, 7, 8, 0, 1, 2, 3, 4, 5],
        ];
        for row in rows {
            for (c, &v) in row.iter().enumerate() {
                first.masks[c / 3][c % 3] |= 1 << v;
            }
        }
        let completions = Completions::new(&table).unwrap();
        assert_eq!(completions.count(&first), 72 * 108_374_976);
    }

    #[test]
    fn each_9x9_stack_leaves_56_choices() {
        let table = BandFill::new(3, 3, &Budget::start(&Limits::none()))
            .unwrap()
            .unwrap();
        let completions = Completions::new(&table).unwrap();
        let sets = table.column_sets(0);
        assert_eq!(completions.stack_choices(&sets.masks[0]).len(), 56);
    }
}
