//! Propagation in the 9×9 engine: three tiers of rules run to a common fixpoint; a tier runs
//! when the ones before it have nothing left to do. The fixpoint is the state of a search node;
//! with every cell placed it is a solution (each value then has one cell per row of each band,
//! in three different boxes, and one per column).
//!
//! 1. **Band rules, per word** (JCZSolve's design), whenever a word differs from `seen` (the
//!    changed words are found by comparing the chunks of `cand` and `seen`, five vector
//!    comparisons):
//!    - *locked candidates inside the band*: the word is reduced to its nine *triads* (row ×
//!      box, three cells each) that lie on a permutation of the 3×3 triad matrix made of
//!      non-empty triads (value `d` sits once in each row and once in each box of the band): a
//!      table over the 512 occupancy patterns ([`super::tables::LOCKED`]); none is a
//!      contradiction;
//!    - *pointing along columns*: a box of the band where the value is left in one column takes
//!      that column from the value's words of the other two bands;
//!    - *hidden singles in rows and boxes*: a row of the band with one place left is placed (the
//!      cell leaves `unsolved` and the other eight values' words).
//! 2. **Naked singles**: cells on exactly one value's word ("seen once" and "twice" over the
//!    nine words of a band) are placed; a cell on no word is a contradiction.
//! 3. **Triad rules, in vectors**: [`super::triads`].
//!
//! The rules of tier 1 stay scalar: each is a few table look-ups on one word; only its change
//! detection is written over [`Lanes`].
//!
//! # Complexity
//! Tier 1 is O(1) per word update (five table look-ups, about forty word operations);
//! [`Stats::propagations`](crate::search::Stats::propagations) counts word updates. Tier 2 is
//! 27 words.
//!
//! # References
//! - J. C. Z. (zhouyundong), "JCZSolve" (2012–2014): one 27-bit word per value and band, band
//!   updates driven by the rows' and boxes' occupancy.
//! - T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>: JCZSolve's design explained.
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006): naked and hidden singles.

use super::board::Board;
use super::lanes::Lanes;
use super::tables::{
    BAND, BAND_PEERS, LOCKED_FORCED, OTHER, POINTING_COLUMNS, ROW, TRIADS_OF_ROW, columns,
};

impl Board {
    /// Applies the band rules to word `i` (see the module docs); false on a contradiction.
    /// `seen` takes the word as left by the rules.
    #[inline(always)]
    fn update(&mut self, i: usize) -> bool {
        let b = i & 3;
        let a0 = self.cand.0[i];
        let occ = TRIADS_OF_ROW[(a0 & ROW) as usize] as usize
            | (TRIADS_OF_ROW[((a0 >> 9) & ROW) as usize] as usize) << 3
            | (TRIADS_OF_ROW[((a0 >> 18) & ROW) as usize] as usize) << 6;
        // Always below 512; the mask lets the compiler drop the bounds check.
        let [locked, forced] = LOCKED_FORCED[occ & 0x1ff];
        let a = a0 & locked;
        if a == 0 {
            return false;
        }
        self.seen.0[i] = a;
        let pointing = POINTING_COLUMNS[columns(a) as usize];
        let (o1, o2) = OTHER[i];
        self.cand.0[usize::from(o1)] &= !pointing;
        self.cand.0[usize::from(o2)] &= !pointing;
        // A row with one place left: its only triad, in a box with one column left. Clearing
        // the (often empty) set from every word costs fewer cycles than a mispredicted test.
        let lone = a & forced & pointing;
        self.unsolved[b] &= !lone;
        for d in 0..9 {
            self.cand.0[4 * d + b] &= !lone;
        }
        self.cand.0[i] = a;
        true
    }

    /// The three tiers to their fixpoint; false on a contradiction. `updates` counts the word
    /// updates.
    #[inline(always)]
    pub(super) fn propagate<L: Lanes>(&mut self, cpu: L::Token, updates: &mut u64) -> bool {
        loop {
            loop {
                // The changed words, in order; words changed by these updates are found by the
                // next round.
                let mut changed = 0u64;
                for c in 0..5 {
                    let m = self
                        .cand
                        .chunk::<L>(cpu, c)
                        .ne_mask(self.seen.chunk(cpu, c));
                    changed |= u64::from(m) << (8 * c);
                }
                if changed == 0 {
                    break;
                }
                while changed != 0 {
                    let i = changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    *updates += 1;
                    if !self.update(i) {
                        return false;
                    }
                }
            }
            if self.solved() {
                return true;
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.triad_rules::<L>(cpu) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Places the naked singles (tier 2); `None` on a cell with no value, `Some(true)` if a word
    /// changed. Scalar, bands 0 and 1 side by side in 64 bits: the words were just written one
    /// by one, and wide loads would wait for those stores.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let (mut one, mut two) = (0u64, 0u64);
        let (mut one2, mut two2) = (0u32, 0u32);
        for d in 0..9 {
            let x = u64::from(self.cand.0[4 * d]) | u64::from(self.cand.0[4 * d + 1]) << 32;
            two |= one & x;
            one |= x;
            let y = self.cand.0[4 * d + 2];
            two2 |= one2 & y;
            one2 |= y;
        }
        let tallies = [
            (one as u32, two as u32),
            ((one >> 32) as u32, (two >> 32) as u32),
            (one2, two2),
        ];
        let mut any = false;
        for (b, &(once, twice)) in tallies.iter().enumerate() {
            if once != BAND {
                return None;
            }
            let mut singles = once & !twice & self.unsolved[b];
            while singles != 0 {
                any = true;
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                // Only the value's own row and box are cleared here; the band rules do the rest.
                for d in 0..9 {
                    if self.cand.0[4 * d + b] >> p & 1 != 0 {
                        self.cand.0[4 * d + b] &= !BAND_PEERS[p];
                        break;
                    }
                }
            }
        }
        Some(any)
    }
}
