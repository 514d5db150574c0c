//! Tier 3 of propagation in the 9×9 engine ([`super::propagate`]): the triad rules, in
//! vectors (two values per vector operation).
//!
//! - *stack configurations*: for each value and stack, the 3×3 matrix band × column has one
//!   place per row (a box holds the value once) and per column (a column holds it once); every
//!   place not on a permutation of the matrix's non-empty places leaves the value's words. With
//!   a rotation of each 3-bit group of the column sets and of the lanes, a cell `(i, j)` is kept
//!   when `(i+1, j+1)` and `(i+2, j+2)`, or `(i+1, j+2)` and `(i+2, j+1)`, are places. This
//!   covers claiming along columns, pointing, and hidden singles in columns;
//! - *minirows hold three values*: a minirow (the three cells of a row in one box) holds exactly
//!   three values. Bit-sliced counters over the nine values count, per minirow, the values with
//!   a place there and the values *forced* there (their only triad in that row of the band).
//!   Fewer than three of the first, or more than three of the second, is a contradiction;
//!   exactly three candidates means each takes the minirow (leaves the rest of its row and box);
//!   exactly three forced values means the others leave the minirow;
//! - *minicolumns hold three values*: the same for the three cells of a column in one box, a
//!   value being forced there when it is its only column in the box.
//!
//! These are the cardinality constraints of T. Dillon's triads (tdoku), reasoned about with the
//! band words instead of tdoku's box vectors.
//!
//! # Complexity
//! 5 chunks × about 90 vector operations per call.
//!
//! # References
//! - T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>: triads, the cardinality constraints of minirows.

use super::board::Board;
use super::geometry::{
    TRIAD_BITS, cols, occupancy, on_permutations, others_in_row, r1, r2, spread, triad_cells,
    triad_peers,
};
use super::lanes::Lanes;
use super::tables::ROW;

/// The band lanes of both values of a chunk.
const VALID_PAIR: [u32; 8] = [!0, !0, !0, 0, !0, !0, !0, 0];
/// The band lanes of the first value only (the last chunk: value 8 and the padding).
const VALID_ONE: [u32; 8] = [!0, !0, !0, 0, 0, 0, 0, 0];

/// Adds `x` to saturating bit-sliced counters: `c[k]` holds the bits seen at least `k + 1`
/// times.
#[inline(always)]
fn tally<L: Lanes>(c: &mut [L; 4], x: L) {
    c[3] = c[3].or(c[2].and(x));
    c[2] = c[2].or(c[1].and(x));
    c[1] = c[1].or(c[0].and(x));
    c[0] = c[0].or(x);
}

/// The counters of the two values' halves added up (the result in both halves).
#[inline(always)]
fn combine<L: Lanes>(a: [L; 4]) -> [L; 4] {
    let b = [
        a[0].swap_values(),
        a[1].swap_values(),
        a[2].swap_values(),
        a[3].swap_values(),
    ];
    [
        a[0].or(b[0]),
        a[1].or(b[1]).or(a[0].and(b[0])),
        a[2].or(b[2]).or(a[1].and(b[0])).or(a[0].and(b[1])),
        a[3].or(b[3])
            .or(a[2].and(b[0]))
            .or(a[1].and(b[1]))
            .or(a[0].and(b[2])),
    ]
}

impl Board {
    /// Tier 3 (see the module docs): stack configurations, minirows and minicolumns; `None` on
    /// a contradiction, `Some(true)` if a word changed. Most calls find nothing, so the first
    /// pass only counts; the eliminations are recomputed in a second pass when there are some.
    #[inline(always)]
    pub(super) fn triad_rules<L: Lanes>(&mut self, cpu: L::Token) -> Option<bool> {
        let z = L::load(cpu, &[0; 8]);
        let (mut bad, mut off_permutation) = (z, z);
        let (mut places, mut forced) = ([z; 4], [z; 4]);
        let (mut column_places, mut column_forced) = ([z; 4], [z; 4]);
        let (mut unforced, mut column_unforced) = (z, z);
        for k in 0..5 {
            let w = self.cand.chunk::<L>(cpu, k);
            let valid = L::load(cpu, if k < 4 { &VALID_PAIR } else { &VALID_ONE });
            let cl = cols(w);
            let kept = on_permutations(cl);
            // Every box keeps a place.
            let boxes = kept
                .or(kept.shr::<1>())
                .or(kept.shr::<2>())
                .and(z.splat(0o111));
            bad = bad.or(boxes.xor(z.splat(0o111)).and(valid));
            off_permutation = off_permutation.or(cl.andnot(kept));
            let o = occupancy(w);
            let fo = o.andnot(others_in_row(o));
            tally(&mut places, o);
            tally(&mut forced, fo);
            unforced = unforced.or(o.andnot(fo));
            // A column alone in its box (then alone in its stack, at the permutation fixpoint).
            let fc = cl.andnot(r1(cl).or(r2(cl)));
            tally(&mut column_places, cl);
            tally(&mut column_forced, fc);
            column_unforced = column_unforced.or(cl.andnot(fc));
        }
        if !bad.is_zero() {
            return None;
        }
        if !off_permutation.is_zero() {
            for k in 0..5 {
                let w = self.cand.chunk::<L>(cpu, k);
                let cl = cols(w);
                self.cand
                    .set_chunk(k, w.andnot(spread(cl.andnot(on_permutations(cl)))));
            }
            return Some(true);
        }
        let valid = L::load(cpu, &VALID_PAIR);
        let places = combine(places);
        let forced = combine(forced);
        let unforced = unforced.or(unforced.swap_values());
        let column_places = combine(column_places);
        let column_forced = combine(column_forced);
        let column_unforced = column_unforced.or(column_unforced.swap_values());
        let too_few = places[2]
            .xor(z.splat(TRIAD_BITS))
            .or(column_places[2].xor(z.splat(ROW)));
        let too_many = forced[3].or(column_forced[3]);
        if !too_few.or(too_many).and(valid).is_zero() {
            return None;
        }
        let naked = places[2].andnot(places[3]).and(unforced).and(valid);
        let hidden = forced[2].andnot(forced[3]).and(unforced).and(valid);
        let column_naked = column_places[2]
            .andnot(column_places[3])
            .and(column_unforced)
            .and(valid);
        let column_hidden = column_forced[2]
            .andnot(column_forced[3])
            .and(column_unforced)
            .and(valid);
        if naked
            .or(hidden)
            .or(column_naked)
            .or(column_hidden)
            .is_zero()
        {
            return Some(false);
        }
        let mut changed = false;
        for k in 0..5 {
            let w = self.cand.chunk::<L>(cpu, k);
            let o = occupancy(w);
            let free = o.and(others_in_row(o));
            let mut clear = triad_peers(naked.and(free)).or(triad_cells(hidden.and(free)));
            let cl = cols(w);
            let free = cl.and(r1(cl).or(r2(cl)));
            let n = column_naked.and(free);
            let other_bands = n.rot1().or(n.rot2());
            let box_mates = r1(n).or(r2(n)).andnot(n);
            let gone = other_bands.or(box_mates).or(column_hidden.and(free));
            clear = clear.or(spread(gone));
            let nw = w.andnot(clear);
            if nw.ne_mask(w) != 0 {
                self.cand.set_chunk(k, nw);
                changed = true;
            }
        }
        Some(changed)
    }
}
