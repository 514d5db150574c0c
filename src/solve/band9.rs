//! The 9×9 engine of `native` (3×3 boxes only): candidates kept per value and per **band** of
//! three rows, 27 bits to a word, so that the propagation rules of a whole band are a handful of
//! word operations.
//!
//! # Layout
//! Cell `c` (row-major, 0..81) lies in band `c / 27` at bit `c % 27` of that band's word: bit
//! `9·r + k` is row `r` (0..3) of the band, column `k`. For value `d` and band `b`, `cand[9b + d]`
//! holds the cells of the band where `d` is still possible (27 words in all, a band's nine words
//! side by side); `unsolved[b]` holds the cells of the band not yet placed. These 120 bytes are
//! the state copied per guess. The board also keeps each word as the rules last left it (`seen`,
//! equal to the words at a fixpoint, so it is set from the copy, not stored with it) and the
//! bivalue cells of the last naked-single pass; `seen` lives in the board rather than in an array
//! of the caller's, so that both are addressed from one register (forum_hardest: 477 → 440 M
//! instructions).
//!
//! # Rules
//! A word is **updated** whenever it differs from the value the update last left in it. A sweep
//! compares the 27 words in value-major order (value 0 in bands 0, 1, 2, then value 1, …) and
//! updates a changed word at once, so that a change an update makes to a later word is seen in
//! the same sweep; sweeps repeat until one finds nothing (the loop is unrolled, one predictable
//! branch per word):
//! - **locked candidates inside the band**: the word is reduced to its nine *triads* (row ×
//!   box, three cells each) that are not empty. Value `d` sits once in each of the band's rows and
//!   once in each of its boxes, so the triads it ends up in form a permutation of the 3×3 triad
//!   matrix; a table over the 512 occupancy patterns keeps exactly the triads that lie on such a
//!   permutation (none: a contradiction). This covers pointing and claiming (box–line) inside the
//!   band, and every row or box of the band left without a place;
//! - **pointing along columns**: a box of the band where the value is left in one column (a
//!   placed value is such a case) takes that column from the value's words of the other two
//!   bands (one table over the nine column bits);
//! - **hidden singles in rows and boxes**: a row of the band with one place left is placed (a box
//!   with one place left has become such a row by the first rule): the cell leaves `unsolved` and
//!   the other eight values' words. Such a row is found without looking at it again: its only
//!   kept triad (a second table over the occupancy patterns, `FORCED`) lies in a box with one
//!   column left (the pointing mask). The placement is branch-free: every update clears the
//!   band's other words with the (often empty) set of placed cells, which costs fewer cycles
//!   than the mispredicted test it replaces.
//!
//! When no word changes any more, a pass finds the **naked singles** (cells on exactly one value's
//! word: "seen once", "twice" and "three times" over a band's nine words, bands 0 and 1 side by
//! side in 64 bits), the cells left with no value (a contradiction) and, for the choice, the open
//! cells with exactly two values. Placing a single, like a guess, only clears the cell's row and
//! box from its value's word; the rules above do the rest. When there are none left, a last pass
//! finds **hidden singles in columns** (and columns left without a place), at every node: per
//! value, the three bands' words are folded to nine column bits "a place", "two or more places"
//! and "a place in an open cell" (values 0–7 four at a time, which the compiler vectorises), and
//! only a column with exactly one place, in an open cell, is placed. Most passes find nothing
//! (92 % on `forum_hardest_1905_11plus`), so this test is what they cost: about 200
//! instructions, against 800 for the per-band count it replaces. On the first 2000 puzzles of
//! that set they cut the guesses per puzzle from 123 to 107 (with the peer-scored choice below).
//! The fixpoint is the state of a search node; with every cell placed it is a solution (each
//! value then has one cell per row of each band, in three different boxes, and one per column).
//!
//! # Search
//! Depth-first; a node branches on a cell with two candidates (the naked-single pass found them
//! all): the first one of the row with the most such cells (the first such row on a tie; one
//! table look-up per row), falling back to a cell with the fewest candidates. Bivalue cells in a
//! cluster make the guess propagate further. On the first 2000 puzzles of
//! `forum_hardest_1905_11plus` (first solution) the first bivalue cell of the grid takes 134
//! guesses per puzzle; scoring each bivalue cell by the bivalue cells among its row and box
//! peers, 107; the busiest row, 112, but the scoring cost a look-up per bivalue cell and a
//! mispredicted branch, so the row is 4 % fewer instructions and about 6 % faster. The state
//! before the choice is pushed with the values not yet tried; the last value reuses it without a
//! copy. A guess changes one word, which is updated at once, before the first sweep (3 % fewer
//! instructions than finding it by a sweep). Counting goes on after a solution from the same
//! stack, so "count to 2" costs one search, not two.
//!
//! There are no restarts here (the general engine of [`super::native`] has Luby restarts for
//! first solutions): on 9×9 the trees have no heavy tail (on all 48766 puzzles of
//! `forum_hardest_1905_11plus`, first solution: median 118 guesses, p99 849, max 2842), so a
//! restart would only repeat work.
//!
//! # Complexity
//! A word update is O(1) (six table look-ups, [`tables::LOCKED`] and [`tables::FORCED`] from
//! one table, and about forty word operations); a sweep 27 comparisons; the naked-single pass 27
//! words; the column pass 27 words; the choice nine look-ups and nine words. Per node the state
//! copy is 30 words.
//! [`Stats::propagations`] counts word updates (a guess's own included). Memory: one state per
//! open choice point (at most 81). Exponential in the worst case, like every exact method.
//!
//! # References
//! - J. C. Z. (zhouyundong), "JCZSolve" (2012–2014): one 27-bit word per value and band, band
//!   updates driven by the rows' and boxes' occupancy.
//! - T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>: the write-up that explains JCZSolve's design (band
//!   words, triads, bivalue-cell guesses, state copied per guess).
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006): naked and hidden singles.

use std::cell::RefCell;

use super::{Budget, CountReport, Stats, StopReason};
use crate::grid::Grid;
use crate::shape::Shape;

mod tables;

use self::tables::{
    BAND, BAND_PEERS, LOCKED_FORCED, OTHER, POINTING_COLUMNS, ROW, SPREAD, TRIADS_OF_ROW, columns,
    ones,
};

/// Whether the engine handles `shape`: 9×9 with 3×3 boxes.
pub(crate) fn fits(shape: Shape) -> bool {
    shape.order() == 9 && !shape.is_latin() && shape.box_rows() == 3
}

/// The state of a search node.
#[derive(Debug, Clone, Copy)]
struct Board {
    /// `cand[9b + d]`: where value `d` may go in band `b`.
    cand: [u32; 27],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// Each word as the band rules last left it (a word that differs is updated again); equal
    /// to `cand` at a fixpoint, so it is not kept in the frames.
    seen: [u32; 27],
    /// The open cells of each band with two values, as the last naked-single pass found them
    /// (at a fixpoint: the cells to branch on).
    pairs: [u32; 3],
}

impl Board {
    /// Every value possible everywhere.
    fn full() -> Board {
        Board {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            seen: [0; 27],
            pairs: [0; 3],
        }
    }

    /// Applies the band rules to word `i` (see the module docs); false on a contradiction.
    /// `seen[i]` becomes the word as left by the rules.
    #[inline(always)]
    fn update(&mut self, i: usize) -> bool {
        let b = i / 9;
        let a0 = self.cand[i];
        let occ = TRIADS_OF_ROW[(a0 & ROW) as usize] as usize
            | (TRIADS_OF_ROW[((a0 >> 9) & ROW) as usize] as usize) << 3
            | (TRIADS_OF_ROW[((a0 >> 18) & ROW) as usize] as usize) << 6;
        // Always below 512; the mask lets the compiler drop the bounds checks.
        let occ = occ & 0x1ff;
        let [locked, forced] = LOCKED_FORCED[occ];
        let a = a0 & locked;
        if a == 0 {
            return false;
        }
        self.cand[i] = a;
        self.seen[i] = a;
        let pointing = POINTING_COLUMNS[columns(a) as usize];
        let (o1, o2) = OTHER[i];
        self.cand[o1] &= !pointing;
        self.cand[o2] &= !pointing;
        // A row with one place left: its only triad, in a box with one column left.
        let lone = a & forced & pointing;
        self.unsolved[b] &= !lone;
        for w in &mut self.cand[9 * b..9 * b + 9] {
            *w &= !lone;
        }
        self.cand[i] = a;
        true
    }

    /// Band rules, naked singles and (at the end) hidden singles in columns, to the fixpoint;
    /// false on a contradiction. A word that differs from `seen` is updated again; `updates`
    /// counts the word updates.
    fn propagate(&mut self, updates: &mut u64) -> bool {
        loop {
            loop {
                let mut any = false;
                macro_rules! sweep {
                    ($($i:literal)*) => {$(
                        if self.cand[$i] != self.seen[$i] {
                            any = true;
                            *updates += 1;
                            if !self.update($i) {
                                return false;
                            }
                        }
                    )*};
                }
                sweep!(0 9 18 1 10 19 2 11 20 3 12 21 4 13 22 5 14 23 6 15 24 7 16 25 8 17 26);
                if !any {
                    break;
                }
            }
            if self.unsolved == [0; 3] {
                return true;
            }
            let mut any = false;
            // Bands 0 and 1 side by side in 64 bits, band 2 alone.
            let (mut one, mut two, mut three) = (0u64, 0u64, 0u64);
            let (mut one2, mut two2, mut three2) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = u64::from(self.cand[d]) | u64::from(self.cand[9 + d]) << 32;
                three |= two & x;
                two |= one & x;
                one |= x;
                let y = self.cand[18 + d];
                three2 |= two2 & y;
                two2 |= one2 & y;
                one2 |= y;
            }
            let tallies = [
                (one as u32, two as u32, three as u32),
                ((one >> 32) as u32, (two >> 32) as u32, (three >> 32) as u32),
                (one2, two2, three2),
            ];
            for (b, &(once, twice, thrice)) in tallies.iter().enumerate() {
                if once != BAND {
                    return false;
                }
                self.pairs[b] = twice & !thrice & self.unsolved[b];
                let mut singles = once & !twice & self.unsolved[b];
                if singles != 0 {
                    any = true;
                    // Only the value's own row and box are cleared here; the band rules do
                    // the rest when they see the word changed.
                    while singles != 0 {
                        let p = singles.trailing_zeros() as usize;
                        singles &= singles - 1;
                        for d in 0..9 {
                            let j = 9 * b + d;
                            if self.cand[j] >> p & 1 != 0 {
                                self.cand[j] &= !BAND_PEERS[p];
                                break;
                            }
                        }
                    }
                }
            }
            if !any {
                match self.column_singles() {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                }
            }
        }
    }

    /// Hidden singles in columns: a value whose column has one place left, for all values at
    /// once from the three bands' column sets; the place's row and box are cleared, the band
    /// rules do the rest. A column with no place is a contradiction (`None`). `Some(true)` if a
    /// word changed.
    fn column_singles(&mut self) -> Option<bool> {
        // Per value, folded to nine column bits: the columns with a place, with two or more
        // places, and with a place in an open cell; values 0–7 four at a time, so that the
        // operations vectorise.
        #[inline(always)]
        fn fold(w0: u32, w1: u32, w2: u32, u: [u32; 3]) -> (u32, u32) {
            let o = w0 | w1 | w2;
            let t = (w0 & w1) | ((w0 | w1) & w2);
            let open = (w0 & u[0]) | (w1 & u[1]) | (w2 & u[2]);
            let (o0, o1, o2) = (o & ROW, (o >> 9) & ROW, (o >> 18) & ROW);
            let once = o0 | o1 | o2;
            let twice = columns(t) | (o0 & o1) | ((o0 | o1) & o2);
            (once, once & !twice & columns(open))
        }
        let u = self.unsolved;
        let mut lone = [0u32; 9];
        let mut all = [ROW; 4];
        for q in 0..2 {
            let w0: [u32; 4] = self.cand[4 * q..4 * q + 4].try_into().unwrap();
            let w1: [u32; 4] = self.cand[9 + 4 * q..9 + 4 * q + 4].try_into().unwrap();
            let w2: [u32; 4] = self.cand[18 + 4 * q..18 + 4 * q + 4].try_into().unwrap();
            for k in 0..4 {
                let (once, l) = fold(w0[k], w1[k], w2[k], u);
                all[k] &= once;
                lone[4 * q + k] = l;
            }
        }
        let (once, l) = fold(self.cand[8], self.cand[17], self.cand[26], u);
        lone[8] = l;
        let all = all[0] & all[1] & all[2] & all[3] & once;
        if all != ROW {
            return None;
        }
        if lone.iter().fold(0, |acc, &l| acc | l) == 0 {
            return Some(false);
        }
        for (d, &l) in lone.iter().enumerate() {
            if l == 0 {
                continue;
            }
            for b in 0..3 {
                let j = 9 * b + d;
                let mut new = self.cand[j] & (l * SPREAD) & self.unsolved[b];
                let mut a = self.cand[j];
                while new != 0 {
                    a &= !BAND_PEERS[new.trailing_zeros() as usize];
                    new &= new - 1;
                }
                self.cand[j] = a;
            }
        }
        Some(true)
    }

    /// Whether every cell is placed (at a fixpoint: then the grid is a solution).
    fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The values of a cell (position `p` of band `b`) as a 9-bit mask.
    #[inline(always)]
    fn values(&self, b: usize, p: usize) -> u32 {
        let w = &self.cand[9 * b..9 * b + 9];
        let bit = 1 << p;
        let mut m = 0;
        for (d, &x) in w.iter().enumerate() {
            m |= u32::from(x & bit != 0) << d;
        }
        m
    }

    /// The cell to branch on: the first cell with two values in the row with the most such cells
    /// (the first such row on a tie), else one with the fewest values.
    /// Returns the band, the position and the values.
    fn choose(&self) -> (usize, usize, u32) {
        let pairs = self.pairs;
        if pairs != [0; 3] {
            let (mut score, mut band, mut pos) = (0, 0, 0);
            for (b, &all) in pairs.iter().enumerate() {
                for r in 0..3 {
                    let row = (all >> (9 * r)) & ROW;
                    let s = ones(row);
                    if s > score {
                        (score, band, pos) = (s, b, 9 * r + row.trailing_zeros() as usize);
                    }
                }
            }
            return (band, pos, self.values(band, pos));
        }
        let mut best = (u32::MAX, 0, 0, 0);
        for b in 0..3 {
            let mut open = self.unsolved[b];
            while open != 0 {
                let p = open.trailing_zeros() as usize;
                open &= open - 1;
                let m = self.values(b, p);
                if m.count_ones() < best.0 {
                    best = (m.count_ones(), b, p, m);
                }
            }
        }
        (best.1, best.2, best.3)
    }

    /// Sets value `v` on position `p` of band `b` (a guess): the place's row and box leave the
    /// value's word, the band rules do the rest.
    fn assign(&mut self, b: usize, p: usize, v: usize) {
        self.cand[9 * b + v] &= !BAND_PEERS[p];
    }

    /// The (complete) assignment as a grid.
    fn grid(&self, shape: Shape) -> Grid {
        let mut grid = Grid::empty(shape);
        for d in 0..9 {
            for b in 0..3 {
                let mut cells = self.cand[9 * b + d];
                while cells != 0 {
                    grid.set(27 * b + cells.trailing_zeros() as usize, Some(d));
                    cells &= cells - 1;
                }
            }
        }
        grid
    }
}

/// A choice point: the state before the choice, the cell, the values not yet tried.
#[derive(Debug, Clone, Copy)]
struct Frame {
    cand: [u32; 27],
    unsolved: [u32; 3],
    band: u8,
    pos: u8,
    rest: u32,
}

thread_local! {
    /// The choice-point stack, kept between calls on this thread.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// Counts the solutions of `puzzle` (which must [`fit`](fits)) up to `limit`, keeping the first
/// two; see [`super::Solver::count`].
pub(crate) fn count(puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let mut frames = FRAMES.with_borrow_mut(std::mem::take);
    frames.clear();
    frames.reserve(81);
    let mut stats = Stats {
        nodes: 1,
        ..Stats::default()
    };
    let mut report = CountReport::default();
    let mut board = Board::full();
    for (cell, v) in puzzle.givens() {
        let (b, p) = (cell / 27, cell % 27);
        for e in 0..9 {
            if e != v {
                board.cand[9 * b + e] &= !(1 << p);
            }
        }
        board.assign(b, p, v);
    }
    if board.propagate(&mut stats.propagations) {
        report.stopped = search(
            board,
            puzzle.shape(),
            limit,
            budget,
            &mut frames,
            &mut stats,
            &mut report,
        );
    }
    stats.elapsed = budget.elapsed();
    report.stats = stats;
    FRAMES.with_borrow_mut(|slot| *slot = frames);
    report
}

/// Depth-first search from a propagated root; fills `report` and returns why it stopped early, if
/// a budget ran out.
fn search(
    mut board: Board,
    shape: Shape,
    limit: u64,
    budget: &Budget,
    frames: &mut Vec<Frame>,
    stats: &mut Stats,
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
            let (band, pos, rest) = board.choose();
            frames.push(Frame {
                cand: board.cand,
                unsolved: board.unsolved,
                band: band as u8,
                pos: pos as u8,
                rest,
            });
        }
        loop {
            let frame = frames.last_mut()?;
            let v = frame.rest.trailing_zeros() as usize;
            frame.rest &= frame.rest - 1;
            let (band, pos) = (frame.band as usize, frame.pos as usize);
            // At a fixpoint every word is as the band rules left it.
            board.cand = frame.cand;
            board.seen = frame.cand;
            board.unsolved = frame.unsolved;
            if frame.rest == 0 {
                // The last value: nothing to come back to.
                frames.pop();
            }
            stats.nodes += 1;
            stats.guesses += 1;
            if let Some(reason) = budget.exceeded(stats.nodes) {
                return Some(reason);
            }
            board.assign(band, pos, v);
            // The guessed word is the only one changed: it is updated before the first sweep.
            stats.propagations += 1;
            if board.update(9 * band + v) && board.propagate(&mut stats.propagations) {
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

    use super::*;
    use crate::solve::{Limits, NativeGeneral, Solver};
    use crate::text::parse_line;

    fn nine() -> Shape {
        Shape::sudoku(3, 3).unwrap()
    }

    fn ours(puzzle: &Grid, limit: u64) -> CountReport {
        count(puzzle, limit, &Budget::start(&Limits::none()))
    }

    fn general(puzzle: &Grid, limit: u64) -> CountReport {
        NativeGeneral.count(puzzle, limit, &Limits::none()).unwrap()
    }

    /// Checks that both engines agree on the count, and that every solution kept is one.
    fn agree(puzzle: &Grid, limit: u64) {
        let (a, g) = (ours(puzzle, limit), general(puzzle, limit));
        assert_eq!(a.count, g.count, "{puzzle:?}");
        assert_eq!(a.hit_limit, g.hit_limit);
        assert_eq!(a.solutions.len(), a.count.min(2) as usize);
        for s in &a.solutions {
            assert_eq!(crate::verify(puzzle, s), Ok(()));
        }
        if a.solutions.len() == 2 {
            assert_ne!(a.solutions[0], a.solutions[1]);
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
        assert_eq!(ours(&clash, 2).count, 0);
        // Every cell given.
        let full = report.solutions[0].clone();
        let r = ours(&full, 2);
        assert_eq!((r.count, r.stats.guesses), (1, 0));
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
        let report = count(&Grid::empty(nine()), u64::MAX, &Budget::start(&limits));
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert_eq!(report.stats.nodes, 6);
    }
}
