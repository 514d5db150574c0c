//! The branch of the 9×9 engine at a fixpoint. For each band (rows) and each stack (columns),
//! the configurations of every value are counted: the permutations of its 3×3 triad matrix made
//! of non-empty triads (1 to 6; computed in vectors with the rotations of
//! [`super::geometry`]). The branch is on the band or stack with the fewest configurations in
//! all (above one per value: not yet fixed), on the value there with the fewest (at least two):
//! the **guess** keeps one configuration (the value's places are cut to its three triads), and
//! its **negation** keeps the others ([`super::tables::SPLIT`]: a configuration with a triad no
//! other one has, so that the negation is a triad set too). This is tdoku's choice of "the band
//! with the fewest possible configurations, then the value with the fewest"; a cell is the
//! fallback when no configuration can be split off (not met on the collections measured).
//!
//! # Complexity
//! 5 chunks × about 50 vector operations, then O(1) table look-ups for the branch.
//!
//! # References
//! - T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>: band configurations and the branching on them.

use super::board::{Board, Words};
use super::geometry::{cols, occupancy, r1, r2};
use super::lanes::Lanes;
use super::tables::{
    BAND_PEERS, CONFIGURATIONS, ROW, SPLIT, SPREAD, TRIAD_CELLS, TRIADS_OF_ROW, columns,
};

/// A binary branch on value `value`: its three band words are masked by `guess`, or by
/// `negation` when the guess fails.
#[derive(Debug, Clone, Copy)]
pub(super) struct Branch {
    pub(super) value: usize,
    pub(super) guess: [u32; 3],
    pub(super) negation: [u32; 3],
}

impl Board {
    /// The branch at a fixpoint (see the module docs).
    #[inline(always)]
    pub(super) fn choose<L: Lanes>(&self, cpu: L::Token) -> Branch {
        // Configurations per value: per band (lanes), and per stack (bytes of lane 0 of each
        // value, counted from band 0's point of view).
        let mut per_band = Words([0; 40]);
        let mut per_stack = Words([0; 40]);
        let z = L::load(cpu, &[0; 8]);
        let (mut band_sum, mut stack_sum) = (z, z);
        for k in 0..5 {
            let w = self.cand.chunk::<L>(cpu, k);
            let o = occupancy(w);
            let m = z.splat(0o111);
            let (a, b, c) = (o.and(m), o.shr::<9>().and(m), o.shr::<18>().and(m));
            let rs1 = |x: L| x.shr::<3>().or(x.shl::<6>()).and(m);
            let rs2 = |x: L| x.shr::<6>().or(x.shl::<3>()).and(m);
            // Cyclic and anti-cyclic permutations through each triad of row 0.
            let s = a.and(rs1(b)).and(rs2(c)).add(a.and(rs2(b)).and(rs1(c)));
            let three = z.splat(3);
            let n = s
                .and(three)
                .add(s.shr::<3>().and(three))
                .add(s.shr::<6>().and(three));
            per_band.set_chunk(k, n);
            band_sum = band_sum.add(n);
            let cl = cols(w);
            let (x1, x2) = (r1(cl), r2(cl));
            let pop3 = |x: L| {
                x.sub(x.shr::<1>().and(z.splat(0o333)))
                    .sub(x.shr::<2>().and(z.splat(0o111)))
            };
            let v =
                pop3(cl.and(x1.rot1()).and(x2.rot2())).add(pop3(cl.and(x2.rot1()).and(x1.rot2())));
            let seven = z.splat(7);
            let v = v
                .and(seven)
                .or(v.shl::<5>().and(z.splat(7 << 8)))
                .or(v.shl::<10>().and(z.splat(7 << 16)));
            per_stack.set_chunk(k, v);
            stack_sum = stack_sum.add(v);
        }
        let (mut bands, mut stacks) = ([0u32; 8], [0u32; 8]);
        band_sum.add(band_sum.swap_values()).store(&mut bands);
        stack_sum.add(stack_sum.swap_values()).store(&mut stacks);
        let total = [
            bands[0],
            bands[1],
            bands[2],
            stacks[0] & 0xff,
            (stacks[0] >> 8) & 0xff,
            stacks[0] >> 16,
        ];
        let mut best = (u32::MAX, 0);
        for (k, &t) in total.iter().enumerate() {
            if t > 9 && t < best.0 {
                best = (t, k);
            }
        }
        if best.0 != u32::MAX {
            let k = best.1;
            let count = |d: usize| {
                if k < 3 {
                    per_band.0[4 * d + k]
                } else {
                    (per_stack.0[4 * d] >> (8 * (k - 3))) & 0xff
                }
            };
            let mut pick = (u32::MAX, 0);
            for d in 0..9 {
                let n = count(d);
                if n >= 2 && n < pick.0 {
                    pick = (n, d);
                }
            }
            if let Some(branch) = self.configuration_branch(k, pick.1) {
                return branch;
            }
            for d in (0..9).filter(|&d| count(d) >= 2) {
                if let Some(branch) = self.configuration_branch(k, d) {
                    return branch;
                }
            }
        }
        self.cell_branch()
    }

    /// The branch on value `d`'s configurations in band `k` (k < 3) or stack `k − 3`: one
    /// configuration against the others; `None` when none can be split off.
    #[inline(always)]
    fn configuration_branch(&self, k: usize, d: usize) -> Option<Branch> {
        let occ = if k < 3 {
            let x = self.cand.0[4 * d + k];
            TRIADS_OF_ROW[(x & ROW) as usize] as usize
                | (TRIADS_OF_ROW[((x >> 9) & ROW) as usize] as usize) << 3
                | (TRIADS_OF_ROW[((x >> 18) & ROW) as usize] as usize) << 6
        } else {
            let s = 3 * (k - 3);
            let column = |b: usize| ((columns(self.cand.0[4 * d + b]) >> s) & 7) as usize;
            column(0) | column(1) << 3 | column(2) << 6
        };
        let [guess, negation] = SPLIT[usize::from(CONFIGURATIONS[occ & 0x1ff])];
        if guess == 0 {
            return None;
        }
        let masks = |triads: u16| -> [u32; 3] {
            let triads = u32::from(triads);
            if k < 3 {
                let mut m = [!0; 3];
                m[k] = TRIAD_CELLS[triads as usize];
                m
            } else {
                // Band i keeps the stack's column of row i of the matrix, and the other stacks.
                let s = 3 * (k - 3);
                let stack = 7u32 << s;
                let band = |i: u32| !((stack & !(((triads >> (3 * i)) & 7) << s)) * SPREAD);
                [band(0), band(1), band(2)]
            }
        };
        Some(Branch {
            value: d,
            guess: masks(guess),
            negation: masks(negation),
        })
    }

    /// The fallback branch: an open cell with the fewest values, its first value or not.
    fn cell_branch(&self) -> Branch {
        let mut best = (u32::MAX, 0, 0, 0);
        for b in 0..3 {
            let mut open = self.unsolved[b];
            while open != 0 {
                let p = open.trailing_zeros() as usize;
                open &= open - 1;
                let values = (0..9).fold(0u32, |m, d| m | ((self.cand.0[4 * d + b] >> p) & 1) << d);
                if values.count_ones() < best.0 {
                    best = (values.count_ones(), b, p, values);
                }
            }
        }
        let (_, b, p, values) = best;
        let (mut guess, mut negation) = ([!0; 3], [!0; 3]);
        guess[b] = !BAND_PEERS[p];
        negation[b] = !(1 << p);
        Branch {
            value: values.trailing_zeros() as usize,
            guess,
            negation,
        }
    }
}
