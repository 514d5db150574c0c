//! The state of the 9×9 engine: the band words of every value ([`Words`]) and the board of a
//! search node ([`Board`]).
//!
//! # Layout
//! Cell `c` (row-major, 0..81) lies in band `c / 27` at bit `c % 27` of that band's word: bit
//! `9·r + k` is row `r` (0..3) of the band, column `k`. Word `4·d + b` holds the cells of band
//! `b` where value `d` is still possible (`b` = 3 is a padding word, always zero), so that the
//! eight words of values `2c` and `2c + 1` form one vector of eight 32-bit lanes (a *chunk*,
//! five in all, the last half padding): band `b` of the two values in lanes `b` and `4 + b`
//! ([`super::lanes`]). `unsolved[b]` holds the cells of band `b` not yet placed. The board also
//! keeps each word as the band rules last left it (`seen`).
//!
//! # Complexity
//! A board is 84 words; reading or writing a chunk is one vector load or store (two with SSE2).

use super::lanes::Lanes;
use super::tables::{BAND, ROW};
use crate::grid::{EMPTY, Grid};
use crate::shape::Shape;

/// The band words: word `4d + b` is value `d`'s in band `b` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(super) struct Words(pub(super) [u32; 40]);

impl Words {
    /// Every value possible everywhere.
    pub(super) fn full() -> Words {
        let mut w = Words([0; 40]);
        for d in 0..9 {
            w.0[4 * d..4 * d + 3].fill(BAND);
        }
        w
    }

    /// Chunk `c`: the words of values `2c` and `2c + 1`, as lanes (made with `cpu`).
    #[inline(always)]
    pub(super) fn chunk<L: Lanes>(&self, cpu: L::Token, c: usize) -> L {
        L::load(
            cpu,
            self.0[8 * c..8 * c + 8].try_into().expect("eight words"),
        )
    }

    /// Writes chunk `c`.
    #[inline(always)]
    pub(super) fn set_chunk<L: Lanes>(&mut self, c: usize, x: L) {
        x.store(
            (&mut self.0[8 * c..8 * c + 8])
                .try_into()
                .expect("eight words"),
        );
    }
}

/// The state of a search node.
#[derive(Debug, Clone, Copy)]
pub(super) struct Board {
    /// Word `4d + b`: where value `d` may go in band `b`.
    pub(super) cand: Words,
    /// Each word as the band rules last left it (a word that differs is updated again); equal
    /// to `cand` at a fixpoint, so it is not kept in the frames.
    pub(super) seen: Words,
    /// Cells of each band not yet placed (lane 3 unused).
    pub(super) unsolved: [u32; 4],
}

impl Board {
    /// Every value possible everywhere.
    pub(super) fn full() -> Board {
        Board {
            cand: Words::full(),
            seen: Words([0; 40]),
            unsolved: [BAND, BAND, BAND, 0],
        }
    }

    /// Whether every cell is placed (at a fixpoint: then the grid is a solution).
    #[inline(always)]
    pub(super) fn solved(&self) -> bool {
        self.unsolved == [0; 4]
    }

    /// Masks value `d`'s three band words.
    #[inline(always)]
    pub(super) fn apply(&mut self, d: usize, masks: [u32; 3]) {
        for (b, m) in masks.iter().enumerate() {
            self.cand.0[4 * d + b] &= m;
        }
    }

    /// The (complete) assignment as a grid. Each value's band word then holds one cell in each
    /// of the band's three rows, so the cells are found with a fixed number of steps (three
    /// per word, no loop whose end depends on the data, which the branch predictor would miss).
    pub(super) fn grid(&self, shape: Shape) -> Grid {
        let mut raw = [EMPTY; 81];
        for d in 0..9u16 {
            for b in 0..3 {
                let cells = self.cand.0[4 * usize::from(d) + b];
                for row in 0..3 {
                    let cell = cells & (ROW << (9 * row));
                    debug_assert_eq!(cell.count_ones(), 1, "a complete assignment");
                    // (A row without its cell would give 32: the place is kept in the grid,
                    // which then fails the verifier every solution goes through.)
                    raw[(27 * b + cell.trailing_zeros() as usize).min(80)] = d;
                }
            }
        }
        Grid::from_valid_raw(shape, raw.to_vec())
    }
}
