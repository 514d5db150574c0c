//! The 9×9 engine of `native` (3×3 boxes only): candidates kept per value and per **band** of
//! three rows, 27 bits to a word, with the band rules as table look-ups on one word and the rules
//! across values and bands as vector operations on all words at once, and a search that branches
//! on the **configurations** of a value in a band or a stack (which box takes it in each row,
//! which column in each box) rather than on cells.
//!
//! # Layout
//! Cell `c` (row-major, 0..81) lies in band `c / 27` at bit `c % 27` of that band's word: bit
//! `9·r + k` is row `r` (0..3) of the band, column `k`. Word `4·d + b` holds the cells of band
//! `b` where value `d` is still possible (`b` = 3 is a padding word, always zero), so that the
//! eight words of values `2c` and `2c + 1` form one vector of eight 32-bit lanes (a *chunk*,
//! five in all, the last half padding): band `b` of the two values in lanes `b` and `4 + b`
//! ([`lanes`]). `unsolved[b]` holds the cells of band `b` not yet placed. The board also keeps
//! each word as the band rules last left it (`seen`).
//!
//! # Rules
//! Propagation runs three tiers to a common fixpoint; a tier runs when the ones before it have
//! nothing left to do.
//! 1. **Band rules, per word** (JCZSolve's design), whenever a word differs from `seen` (the
//!    changed words are found by comparing the chunks of `cand` and `seen`, five vector
//!    comparisons):
//!    - *locked candidates inside the band*: the word is reduced to its nine *triads* (row ×
//!      box, three cells each) that lie on a permutation of the 3×3 triad matrix made of
//!      non-empty triads (value `d` sits once in each row and once in each box of the band): a
//!      table over the 512 occupancy patterns ([`tables::LOCKED`]); none is a contradiction;
//!    - *pointing along columns*: a box of the band where the value is left in one column takes
//!      that column from the value's words of the other two bands;
//!    - *hidden singles in rows and boxes*: a row of the band with one place left is placed (the
//!      cell leaves `unsolved` and the other eight values' words).
//! 2. **Naked singles**: cells on exactly one value's word ("seen once" and "twice" over the
//!    nine words of a band) are placed; a cell on no word is a contradiction.
//! 3. **Triad rules, in vectors** (two values per vector operation):
//!    - *stack configurations*: for each value and stack, the 3×3 matrix band × column has one
//!      place per row (a box holds the value once) and per column (a column holds it once);
//!      every place not on a permutation of the matrix's non-empty places leaves the value's
//!      words. With a rotation of each 3-bit group of the column sets and of the lanes, a cell
//!      `(i, j)` is kept when `(i+1, j+1)` and `(i+2, j+2)`, or `(i+1, j+2)` and `(i+2, j+1)`, are
//!      places. This covers claiming along columns, pointing, and hidden singles in columns;
//!    - *minirows hold three values*: a minirow (the three cells of a row in one box) holds
//!      exactly three values. Bit-sliced counters over the nine values count, per minirow, the
//!      values with a place there and the values *forced* there (their only triad in that row of
//!      the band). Fewer than three of the first, or more than three of the second, is a
//!      contradiction; exactly three candidates means each takes the minirow (leaves the rest of
//!      its row and box); exactly three forced values means the others leave the minirow;
//!    - *minicolumns hold three values*: the same for the three cells of a column in one box,
//!      a value being forced there when it is its only column in the box.
//!
//!    These are the cardinality constraints of T. Dillon's triads (tdoku), reasoned about with
//!    the band words instead of tdoku's box vectors.
//!
//! The fixpoint is the state of a search node; with every cell placed it is a solution (each
//! value then has one cell per row of each band, in three different boxes, and one per column).
//!
//! # Search
//! Depth-first with binary branches. At a node, for each band (rows) and each stack (columns),
//! the configurations of every value are counted: the permutations of its 3×3 triad matrix made
//! of non-empty triads (1 to 6; computed in vectors with the same rotations). The branch is on
//! the band or stack with the fewest configurations in all (above one per value: not yet
//! fixed), on the value there with the fewest (at least two): the **guess** keeps one
//! configuration (the value's places are cut to its three triads), and its **negation** keeps
//! the others ([`tables::SPLIT`]: a configuration with a triad no other one has, so that
//! the negation is a triad set too). This is tdoku's choice of "the band with the fewest
//! possible configurations, then the value with the fewest"; a cell is the fallback when no
//! configuration can be split off (not met on the collections measured).
//!
//! The state before the branch is pushed with the negation; when the guess fails, the negation
//! is applied to the restored state and needs no frame of its own. [`Stats::guesses`] counts
//! the guesses only: a negation is forced by the refuted guess, as tdoku's `num_guesses` and
//! a SAT solver's decisions count them. [`Stats::nodes`] counts both sides.
//! Counting goes on after a solution from the same stack, so "count to 2" costs one search.
//!
//! Measured on the first 10,000 puzzles of `forum_hardest_1905_11plus` (first solution,
//! guesses per puzzle; tdoku 35.0): the band rules with cell branching, 61.3; branching on
//! configurations, 48.0; with stack configurations, 45.1; with minirows, 40.0; with minicolumns
//! too, 35.7 (counting to two: 63.7 against tdoku's 63.9). Each rule costs less time than the
//! nodes it saves.
//!
//! # Vectors
//! The change detection of tier 1 and the whole of tier 3 and of the branch choice are written
//! once over [`lanes::Lanes`] and compiled for each implementation: AVX2 when the CPU has it
//! (chosen at run time, [`simd`]), SSE2 otherwise on x86-64, plain arrays elsewhere. The rules
//! of tier 1 stay scalar: each is a few table look-ups on one word. The engine gets the proof
//! that the CPU runs its implementation ([`lanes::Lanes::Token`]) with the puzzle and makes
//! its first vectors with it.
//!
//! # Complexity
//! Tier 1 is O(1) per word update (five table look-ups, about forty word operations); tier 2 is
//! 27 words; tier 3 is 5 chunks × about 90 vector operations; the choice 5 chunks × about 50.
//! [`Stats::propagations`] counts word updates. Per node the state copy is 42 words. Memory: one
//! state per open choice point (at most 81). Exponential in the worst case, like every exact
//! method.
//!
//! # References
//! - J. C. Z. (zhouyundong), "JCZSolve" (2012–2014): one 27-bit word per value and band, band
//!   updates driven by the rows' and boxes' occupancy.
//! - T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>: triads, the cardinality constraints of minirows, band
//!   configurations and the branching on them; JCZSolve's design explained.
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006): naked and hidden singles.

mod lanes;
// The crate's one module with `unsafe` (see the crate docs).
#[allow(unsafe_code)]
pub(crate) mod simd;
mod tables;

use std::cell::RefCell;

use self::lanes::Lanes;
use self::tables::{
    BAND, BAND_PEERS, CONFIGURATIONS, LOCKED_FORCED, OTHER, POINTING_COLUMNS, ROW, SPLIT, SPREAD,
    TRIAD_CELLS, TRIADS_OF_ROW, columns,
};
use super::{Budget, CountReport, Stats, StopReason};
use crate::grid::Grid;
use crate::shape::Shape;

/// Whether the engine handles `shape`: 9×9 with 3×3 boxes.
pub(crate) fn fits(shape: Shape) -> bool {
    shape.order() == 9 && !shape.is_latin() && shape.box_rows() == 3
}

/// Spread triad bits: bit `9r + 3k` stands for the triad of row `r`, box `k` of a band.
const TRIAD_BITS: u32 = 0o111 * SPREAD;
/// Spread triad bits of boxes 1–2, 0–1, 2 and 0.
const BOXES_12: u32 = 0o110 * SPREAD;
const BOXES_01: u32 = 0o011 * SPREAD;
const BOX_2: u32 = 0o100 * SPREAD;
const BOX_0: u32 = SPREAD;
/// The band lanes of both values of a chunk.
const VALID_PAIR: [u32; 8] = [!0, !0, !0, 0, !0, !0, !0, 0];
/// The band lanes of the first value only (the last chunk: value 8 and the padding).
const VALID_ONE: [u32; 8] = [!0, !0, !0, 0, 0, 0, 0, 0];

/// The band words: word `4d + b` is value `d`'s in band `b` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Words([u32; 40]);

impl Words {
    /// Every value possible everywhere.
    fn full() -> Words {
        let mut w = Words([0; 40]);
        for d in 0..9 {
            w.0[4 * d..4 * d + 3].fill(BAND);
        }
        w
    }

    #[inline(always)]
    fn chunk<L: Lanes>(&self, cpu: L::Token, c: usize) -> L {
        L::load(
            cpu,
            self.0[8 * c..8 * c + 8].try_into().expect("eight words"),
        )
    }

    #[inline(always)]
    fn set_chunk<L: Lanes>(&mut self, c: usize, x: L) {
        x.store(
            (&mut self.0[8 * c..8 * c + 8])
                .try_into()
                .expect("eight words"),
        );
    }
}

/// The columns (9 bits) where each word has a place.
#[inline(always)]
fn cols<L: Lanes>(w: L) -> L {
    w.or(w.shr::<9>()).or(w.shr::<18>()).and(w.splat(ROW))
}

/// Rotations inside the three 3-bit groups (boxes) of a column set: bit `j` of a group takes
/// bit `j + 1` (`r1`) or `j + 2` (`r2`) of the same group, mod 3.
#[inline(always)]
fn r1<L: Lanes>(x: L) -> L {
    x.shr::<1>()
        .and(x.splat(0o333))
        .or(x.shl::<2>().and(x.splat(0o444)))
}

#[inline(always)]
fn r2<L: Lanes>(x: L) -> L {
    x.shr::<2>()
        .and(x.splat(0o111))
        .or(x.shl::<1>().and(x.splat(0o666)))
}

/// A column set repeated on the three rows of a band.
#[inline(always)]
fn spread<L: Lanes>(c: L) -> L {
    c.or(c.shl::<9>()).or(c.shl::<18>())
}

/// The non-empty triads of each word, as spread triad bits.
#[inline(always)]
fn occupancy<L: Lanes>(w: L) -> L {
    w.or(w.shr::<1>()).or(w.shr::<2>()).and(w.splat(TRIAD_BITS))
}

/// For spread triad bits, the other set bits of their rows.
#[inline(always)]
fn others_in_row<L: Lanes>(o: L) -> L {
    o.shl::<3>()
        .and(o.splat(BOXES_12))
        .or(o.shr::<3>().and(o.splat(BOXES_01)))
        .or(o.shl::<6>().and(o.splat(BOX_2)))
        .or(o.shr::<6>().and(o.splat(BOX_0)))
}

/// The cells of spread triad bits.
#[inline(always)]
fn triad_cells<L: Lanes>(n: L) -> L {
    n.shl::<3>().sub(n)
}

/// For spread triad bits, the rest of their rows and boxes.
#[inline(always)]
fn triad_peers<L: Lanes>(n: L) -> L {
    let rowany = n
        .or(n.shr::<3>())
        .or(n.shr::<6>())
        .and(n.splat(1 | 1 << 9 | 1 << 18));
    let rows = rowany.shl::<9>().sub(rowany);
    let colany = n.or(n.shr::<9>()).or(n.shr::<18>()).and(n.splat(0o111));
    let boxes = spread(colany.shl::<3>().sub(colany));
    rows.or(boxes).andnot(triad_cells(n))
}

/// For each column set, the places on a permutation of each stack's 3×3 matrix (bands ×
/// columns, the bands being the value's three lanes) made of places.
#[inline(always)]
fn on_permutations<L: Lanes>(cl: L) -> L {
    let (x1, x2) = (r1(cl), r2(cl));
    cl.and(x1.rot1().and(x2.rot2()).or(x2.rot1().and(x1.rot2())))
}

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

/// The state of a search node.
#[derive(Debug, Clone, Copy)]
struct Board {
    /// Word `4d + b`: where value `d` may go in band `b`.
    cand: Words,
    /// Each word as the band rules last left it (a word that differs is updated again); equal
    /// to `cand` at a fixpoint, so it is not kept in the frames.
    seen: Words,
    /// Cells of each band not yet placed (lane 3 unused).
    unsolved: [u32; 4],
}

/// A binary branch on value `value`: its three band words are masked by `guess`, or by
/// `negation` when the guess fails.
#[derive(Debug, Clone, Copy)]
struct Branch {
    value: usize,
    guess: [u32; 3],
    negation: [u32; 3],
}

/// A choice point: the state before the guess, and the negation to apply to it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    cand: Words,
    unsolved: [u32; 4],
    value: u8,
    negation: [u32; 3],
}

impl Board {
    /// Every value possible everywhere.
    fn full() -> Board {
        Board {
            cand: Words::full(),
            seen: Words([0; 40]),
            unsolved: [BAND, BAND, BAND, 0],
        }
    }

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
    fn propagate<L: Lanes>(&mut self, cpu: L::Token, updates: &mut u64) -> bool {
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

    /// Tier 3 (see the module docs): stack configurations, minirows and minicolumns; `None` on
    /// a contradiction, `Some(true)` if a word changed. Most calls find nothing, so the first
    /// pass only counts; the eliminations are recomputed in a second pass when there are some.
    #[inline(always)]
    fn triad_rules<L: Lanes>(&mut self, cpu: L::Token) -> Option<bool> {
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

    /// Whether every cell is placed (at a fixpoint: then the grid is a solution).
    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved == [0; 4]
    }

    /// The branch at a fixpoint (see the module docs).
    #[inline(always)]
    fn choose<L: Lanes>(&self, cpu: L::Token) -> Branch {
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
                [0, 1, 2].map(|i| !((stack & !(((triads >> (3 * i)) & 7) << s)) * SPREAD))
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

    /// Masks value `d`'s three band words.
    #[inline(always)]
    fn apply(&mut self, d: usize, masks: [u32; 3]) {
        for (b, m) in masks.iter().enumerate() {
            self.cand.0[4 * d + b] &= m;
        }
    }

    /// The (complete) assignment as a grid.
    fn grid(&self, shape: Shape) -> Grid {
        let mut grid = Grid::empty(shape);
        for d in 0..9 {
            for b in 0..3 {
                let mut cells = self.cand.0[4 * d + b];
                while cells != 0 {
                    grid.set(27 * b + cells.trailing_zeros() as usize, Some(d));
                    cells &= cells - 1;
                }
            }
        }
        grid
    }
}

thread_local! {
    /// The choice-point stack, kept between calls on this thread.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// [`count`] on the lane implementation `L`, which `cpu` proves this CPU runs (everything
/// inlined, see [`simd`]).
#[inline(always)]
fn count_with<L: Lanes>(cpu: L::Token, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let mut frames = FRAMES.with_borrow_mut(std::mem::take);
    frames.clear();
    frames.reserve(81);
    let mut report = CountReport {
        stats: Stats {
            nodes: 1,
            ..Stats::default()
        },
        ..CountReport::default()
    };
    let mut board = Board::full();
    for (cell, v) in puzzle.givens() {
        let (b, p) = (cell / 27, cell % 27);
        for e in (0..9).filter(|&e| e != v) {
            board.cand.0[4 * e + b] &= !(1 << p);
        }
        board.cand.0[4 * v + b] &= !BAND_PEERS[p];
    }
    if board.propagate::<L>(cpu, &mut report.stats.propagations) {
        report.stopped = search::<L>(
            cpu,
            board,
            puzzle.shape(),
            limit,
            budget,
            &mut frames,
            &mut report,
        );
    }
    report.stats.elapsed = budget.elapsed();
    FRAMES.with_borrow_mut(|slot| *slot = frames);
    report
}

/// Depth-first search from a propagated root; fills `report` (its statistics counted on from
/// the root's) and returns why it stopped early, if a budget ran out.
#[inline(always)]
fn search<L: Lanes>(
    cpu: L::Token,
    mut board: Board,
    shape: Shape,
    limit: u64,
    budget: &Budget,
    frames: &mut Vec<Frame>,
    report: &mut CountReport,
) -> Option<StopReason> {
    'node: loop {
        if board.solved() {
            report.count += 1;
            if report.solutions.len() < 2 {
                report.solutions.push(board.grid(shape));
            }
            if report.count >= limit {
                report.hit_limit = true;
                return None;
            }
        } else {
            let branch = board.choose::<L>(cpu);
            frames.push(Frame {
                cand: board.cand,
                unsolved: board.unsolved,
                value: branch.value as u8,
                negation: branch.negation,
            });
            report.stats.nodes += 1;
            report.stats.guesses += 1;
            if let Some(reason) = budget.exceeded(report.stats.nodes) {
                return Some(reason);
            }
            board.apply(branch.value, branch.guess);
            if board.propagate::<L>(cpu, &mut report.stats.propagations) {
                continue 'node;
            }
        }
        // Backtrack: the negation of the last guess, on the state before it.
        loop {
            let frame = frames.pop()?;
            board.cand = frame.cand;
            board.seen = frame.cand;
            board.unsolved = frame.unsolved;
            report.stats.nodes += 1;
            if let Some(reason) = budget.exceeded(report.stats.nodes) {
                return Some(reason);
            }
            board.apply(usize::from(frame.value), frame.negation);
            if board.propagate::<L>(cpu, &mut report.stats.propagations) {
                continue 'node;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::simd::{SimdLevel, levels};
    use super::*;
    use crate::solve::{Limits, NativeGeneral, Solver};
    use crate::text::parse_line;

    fn nine() -> Shape {
        Shape::sudoku(3, 3).unwrap()
    }

    fn on(level: SimdLevel, puzzle: &Grid, limit: u64) -> CountReport {
        simd::count(level, puzzle, limit, &Budget::start(&Limits::none()))
    }

    fn ours(puzzle: &Grid, limit: u64) -> CountReport {
        on(SimdLevel::Portable, puzzle, limit)
    }

    fn general(puzzle: &Grid, limit: u64) -> CountReport {
        NativeGeneral.count(puzzle, limit, &Limits::none()).unwrap()
    }

    /// Checks that every implementation of the lanes agrees with the general engine on the
    /// count, that every solution kept is one, and that the implementations do the same search.
    fn agree(puzzle: &Grid, limit: u64) {
        let g = general(puzzle, limit);
        let mut first: Option<CountReport> = None;
        for level in levels() {
            let a = on(level, puzzle, limit);
            assert_eq!(a.count, g.count, "{level:?} {puzzle:?}");
            assert_eq!(a.hit_limit, g.hit_limit, "{level:?}");
            assert_eq!(a.solutions.len(), a.count.min(2) as usize);
            for s in &a.solutions {
                assert_eq!(crate::verify(puzzle, s), Ok(()));
            }
            if a.solutions.len() == 2 {
                assert_ne!(a.solutions[0], a.solutions[1]);
            }
            match &first {
                None => first = Some(a),
                Some(f) => {
                    assert_eq!(a.solutions, f.solutions, "{level:?}");
                    assert_eq!(
                        (a.stats.nodes, a.stats.guesses, a.stats.propagations),
                        (f.stats.nodes, f.stats.guesses, f.stats.propagations),
                        "{level:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn solves_and_counts_known_puzzles() {
        let puzzle = parse_line(
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            None,
        )
        .unwrap();
        let report = ours(&puzzle, 2);
        assert_eq!(report.count, 1);
        assert!(!report.hit_limit);
        assert_eq!(crate::verify(&puzzle, &report.solutions[0]), Ok(()));
        agree(&puzzle, 2);
        // Clashing givens.
        let clash = parse_line(&format!("11{}", ".".repeat(79)), None).unwrap();
        for level in levels() {
            assert_eq!(on(level, &clash, 2).count, 0);
        }
        // Every cell given.
        let full = report.solutions[0].clone();
        let r = ours(&full, 2);
        assert_eq!((r.count, r.stats.guesses), (1, 0));
    }

    #[test]
    fn guesses_stay_within_a_fifth_of_tdokus() {
        // The first 40 puzzles of the repository's forum_hardest_1905_11plus sample. tdoku's
        // library (`SolveSudoku`, its `num_guesses`) makes 1568 guesses on them for first
        // solutions and 2568 counting to two (measured with tdoku built as its README says).
        let text = include_str!("../../models/sudoku/9x9/forum_hardest_11plus_sample.txt");
        let puzzles: Vec<Grid> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(40)
            .map(|l| parse_line(l, None).unwrap())
            .collect();
        for (limit, tdoku) in [(1, 1568), (2, 2568)] {
            let guesses: u64 = puzzles
                .iter()
                .map(|p| {
                    simd::count_best(p, limit, &Budget::start(&Limits::none()))
                        .stats
                        .guesses
                })
                .sum();
            assert!(guesses * 5 <= tdoku * 6, "limit {limit}: {guesses} guesses");
        }
        for p in &puzzles[..5] {
            agree(p, 2);
        }
    }

    #[test]
    fn counts_like_the_general_engine_on_random_puzzles() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let empty = Grid::empty(nine());
        for round in 0..60 {
            // A random solution: solve a grid seeded with a few random values.
            let mut seed = empty.clone();
            let mut cells: Vec<usize> = (0..81).collect();
            cells.shuffle(&mut rng);
            for &c in &cells[..8] {
                seed.set(c, Some(rng.random_range(0..9)));
            }
            let Some(solution) = ours(&seed, 1).solutions.first().cloned() else {
                agree(&seed, 3);
                continue;
            };
            // Keep between 18 and 40 of its values: unique or multi-solution puzzles.
            cells.shuffle(&mut rng);
            let keep = 18 + round % 23;
            let mut puzzle = empty.clone();
            for &c in &cells[..keep] {
                puzzle.set(c, solution.get(c));
            }
            agree(&puzzle, 1);
            agree(&puzzle, 2);
            agree(&puzzle, 50);
            // One more random given, often making it unsatisfiable.
            let c = cells[keep];
            puzzle.set(c, Some(rng.random_range(0..9)));
            agree(&puzzle, 10);
        }
    }

    #[test]
    fn counts_multi_solution_puzzles_exactly() {
        // Two rows swapped inside a band keep a grid valid: removing the cells where they
        // differ leaves a puzzle with at least two solutions.
        let solution = ours(&Grid::empty(nine()), 1).solutions[0].clone();
        let mut puzzle = solution.clone();
        for c in 0..9 {
            puzzle.set(c, None);
            puzzle.set(9 + c, None);
        }
        agree(&puzzle, u64::MAX);
        // Sparse grids with many solutions, counted to a limit.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..5 {
            let mut puzzle = solution.clone();
            for c in 0..81 {
                if rng.random_bool(0.75) {
                    puzzle.set(c, None);
                }
            }
            agree(&puzzle, 500);
        }
    }

    #[test]
    fn a_node_limit_stops_the_count() {
        let limits = Limits::nodes(5);
        for level in levels() {
            let report = simd::count(
                level,
                &Grid::empty(nine()),
                u64::MAX,
                &Budget::start(&limits),
            );
            assert_eq!(report.stopped, Some(StopReason::NodeLimit));
            assert_eq!(report.stats.nodes, 6);
        }
    }
}
