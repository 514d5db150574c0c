//! The fast path of `native` for grids of at most 128 cells (orders up to 11; 9×9 with 3×3 boxes
//! has its own engine, `band9`): the same propagation rules, with the candidates stored **by
//! value** instead of by cell.
//!
//! For each value `d` one 128-bit word `board[d]` holds the cells where `d` is still possible (the
//! digit-major layout of JCZSolve and tdoku, here for any shape). Every rule becomes a few word
//! operations:
//! - **naked singles**: "seen once" / "seen twice" words accumulated over the n boards give, in
//!   O(n) word operations, every cell with exactly one candidate (and every cell with none: a
//!   contradiction);
//! - **hidden singles**: `board[d] & unit` with one bit set; a value with no place in a unit is a
//!   contradiction. Only values whose board changed since their last check are rescanned;
//! - **placing** `d` on a set of cells clears their peers from `board[d]` (one precomputed peer
//!   mask per cell) and the cells from every other board, all placements of a round at once; two
//!   placements of one value that are peers are detected as a contradiction.
//!
//! At the root, **box–line reduction** (locked candidates) joins the fixpoint: a value whose
//! places in a box lie on one line leaves the rest of that line, and vice versa (see
//! `BOX_LINE_DEPTH` for why only at the root).
//!
//! The search branches on a cell with the fewest candidates (the lowest cell with two
//! candidates, found from bit-sliced counters in O(n) word operations, falling back to a scan) and
//! copies the whole state (n + 1 words) onto a preallocated stack instead of keeping a trail: for
//! 9×9 the copy is 176 bytes, cheaper than undoing.
//!
//! # Complexity
//! Per propagation round O(n · units) word operations at worst; per search node the copy is
//! O(n) words. Memory O(n² · (n + 1)) words for the stack. Exponential in the worst case, like
//! every exact method.
//!
//! # References
//! - J. C. Z. (zhouyundong), "JCZSolve" (2012–2014), the bitboard design, as described in
//!   T. Dillon, "tdoku: A fast Sudoku solver and generator" (2019),
//!   <https://t-dillon.github.io/tdoku/>.
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006): the naked/hidden single rules.

use std::cell::RefCell;

use super::{Budget, CountReport, Stats, StopReason};
use crate::grid::Grid;
use crate::shape::Shape;

/// The largest number of cells the fast path handles.
pub(crate) const MAX_CELLS: usize = 128;

/// The largest order of a shape with at most [`MAX_CELLS`] cells.
const MAX_N: usize = 11;

/// Box–line reduction runs only while fewer than this many choice points are open (so at the
/// root). Measured on the first 2000 puzzles of each set (nodes per puzzle, first solution /
/// count to 2): applied at every node it cut royle17 from 7.3 / 13.4 to 2.5 / 3.4 and top1465
/// from 52.9 / 92.8 to 22.3 / 38.7, but forum_hardest only from 160 / 332 to 133 / 274 while
/// making each node dearer, so that set got 20–45% slower; at the root only it keeps most of the
/// gain (2.9 / 4.0, 28.6 / 49.1) and costs forum_hardest nothing measurable.
const BOX_LINE_DEPTH: usize = 1;

/// The search state: one board per value, and the cells already placed.
#[derive(Debug, Clone, Copy)]
struct State {
    board: [u128; MAX_N],
    placed: u128,
}

/// A choice point: the state before the choice, the cell, the values not yet tried.
#[derive(Debug, Clone, Copy)]
struct Frame {
    state: State,
    cell: u32,
    rest: u32,
}

/// Masks of one shape.
struct Tables {
    shape: Shape,
    n: usize,
    all: u128,
    peers: Vec<u128>,
    units: Vec<u128>,
    /// Per cell, the units that contain it, one bit per unit (at most 33 units).
    cell_units: Vec<u64>,
    /// Box–line intersections: `(box ∖ line, line ∖ box)` for each box and each row or column
    /// crossing it.
    crossings: Vec<(u128, u128)>,
}

impl Tables {
    fn new(shape: Shape) -> Tables {
        let cells = shape.cells();
        let all = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let peers = (0..cells)
            .map(|c| shape.peers(c).fold(0u128, |m, p| m | 1 << p))
            .collect();
        let units = shape
            .units()
            .map(|u| shape.unit_cells(u).fold(0u128, |m, c| m | 1 << c))
            .collect();
        let cell_units = (0..cells)
            .map(|c| {
                shape
                    .units_of(c)
                    .fold(0u64, |m, u| m | 1 << u.index(shape.order()))
            })
            .collect();
        let mut crossings = Vec::new();
        // Box–line crossings need p×q boxes (extra units may be added; a region map may not).
        if !shape.is_latin() && !shape.has_region_map() {
            let mask =
                |cells: &mut dyn Iterator<Item = usize>| cells.fold(0u128, |m, c| m | 1 << c);
            for b in 0..shape.order() {
                let boxed = mask(&mut shape.unit_cells(crate::shape::Unit {
                    kind: crate::shape::UnitKind::Box,
                    number: b,
                }));
                let (r0, c0) = shape.box_origin(b);
                let rows = (r0..r0 + shape.box_rows())
                    .map(|r| mask(&mut (0..shape.order()).map(|c| shape.cell(r, c))));
                let cols = (c0..c0 + shape.box_cols())
                    .map(|c| mask(&mut (0..shape.order()).map(|r| shape.cell(r, c))));
                for line in rows.chain(cols).collect::<Vec<_>>() {
                    crossings.push((boxed & !line, line & !boxed));
                }
            }
        }
        Tables {
            crossings,
            cell_units,
            shape,
            n: shape.order(),
            all,
            peers,
            units,
        }
    }
}

struct Engine {
    tables: Tables,

    frames: Vec<Frame>,
    stats: Stats,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// Whether the fast path handles `shape`.
pub(crate) fn fits(shape: Shape) -> bool {
    // A cell's units are one 64-bit mask of unit indices.
    shape.cells() <= MAX_CELLS && shape.unit_count() <= 64
}

/// Counts the solutions of `puzzle` (which must [`fit`](fits)) up to `limit`.
pub(crate) fn count(puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let shape = puzzle.shape();
    let mut engine = ENGINE
        .with_borrow_mut(Option::take)
        .filter(|e| e.tables.shape == shape)
        .unwrap_or_else(|| Engine {
            tables: Tables::new(shape),
            frames: Vec::with_capacity(shape.cells()),
            stats: Stats::default(),
        });
    let report = engine.count(puzzle, limit, budget);
    ENGINE.with_borrow_mut(|slot| *slot = Some(engine));
    report
}

impl Engine {
    fn count(&mut self, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
        self.stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        self.frames.clear();
        let mut report = CountReport::default();
        let t = &self.tables;
        let mut state = State {
            board: [0; MAX_N],
            placed: 0,
        };
        for d in 0..t.n {
            state.board[d] = t.all;
        }
        let mut consistent = true;
        for (cell, v) in puzzle.givens() {
            let bit = 1u128 << cell;
            if state.board[v] & bit == 0 {
                consistent = false;
                break;
            }
            for d in 0..t.n {
                if d != v {
                    state.board[d] &= !bit;
                }
            }
        }
        if consistent && self.propagate(&mut state, [t.all; MAX_N]) {
            report.stopped = self.search(state, puzzle, limit, budget, &mut report);
        }
        self.stats.elapsed = budget.elapsed();
        report.stats = self.stats;
        report
    }

    /// Naked and hidden singles to the fixpoint; false on a contradiction. Naked singles (O(n)
    /// word operations a round) run to their own fixpoint before each hidden-single pass (O(n ·
    /// units)).
    ///
    /// `checked` holds the boards as they were when their hidden singles were last checked (the
    /// parent's fixpoint): only the units of cells that left a board since can hold a new one.
    // `d` indexes two arrays while `place` borrows the state mutably: a range loop is clearest.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    fn propagate(&mut self, s: &mut State, mut checked: [u128; MAX_N]) -> bool {
        let n = self.tables.n;
        // Boards as they were after the last box–line pass (the parent's fixpoint is stable).
        let mut locked = checked;
        loop {
            loop {
                let (mut once, mut twice) = (0u128, 0u128);
                for &b in &s.board[..n] {
                    twice |= once & b;
                    once |= b;
                }
                if once != self.tables.all {
                    return false;
                }
                let singles = once & !twice & !s.placed;
                if singles == 0 {
                    break;
                }
                for d in 0..n {
                    let p = singles & s.board[d];
                    // A naked single is on no other board: nothing to clear there.
                    if p != 0 && !self.place(s, d, p, false) {
                        return false;
                    }
                }
            }
            let mut any = false;
            for d in 0..n {
                let b = s.board[d];
                if b == checked[d] {
                    continue;
                }
                let mut touched = 0;
                let mut gone = checked[d] & !b;
                while gone != 0 {
                    touched |= self.tables.cell_units[gone.trailing_zeros() as usize];
                    gone &= gone - 1;
                }
                let mut p = 0u128;
                while touched != 0 {
                    let x = b & self.tables.units[touched.trailing_zeros() as usize];
                    touched &= touched - 1;
                    if x == 0 {
                        return false;
                    }
                    if x & (x - 1) == 0 {
                        p |= x;
                    }
                }
                p &= !s.placed;
                if p != 0 {
                    if !self.place(s, d, p, true) {
                        return false;
                    }
                    any = true;
                }
                // Placing cleared peers from the board: they are checked in the next pass.
                checked[d] = b;
            }
            let reduced = !any
                && self.frames.len() < BOX_LINE_DEPTH
                && self.locked_candidates(s, &mut locked);
            if !any && !reduced {
                return true;
            }
        }
    }

    /// Box–line reduction (locked candidates): when a value's places in a box all lie on one
    /// line, it leaves the rest of the line, and when its places on a line all lie in one box,
    /// it leaves the rest of the box. True if a candidate was removed.
    /// Only values whose board changed since `seen` are examined.
    fn locked_candidates(&mut self, s: &mut State, seen: &mut [u128; MAX_N]) -> bool {
        let mut changed = false;
        for (b, seen) in s.board[..self.tables.n].iter_mut().zip(seen.iter_mut()) {
            let before = *b;
            if before == *seen {
                continue;
            }
            for &(box_rest, line_rest) in &self.tables.crossings {
                if *b & box_rest == 0 {
                    *b &= !line_rest;
                } else if *b & line_rest == 0 {
                    *b &= !box_rest;
                }
            }
            changed |= *b != before;
            *seen = *b;
        }
        changed
    }

    /// Places value `d` on the cells `p`; false if two of them are peers or `d` was not possible.
    /// `others` says whether the cells may still be on other values' boards.
    #[inline]
    fn place(&mut self, s: &mut State, d: usize, p: u128, others: bool) -> bool {
        let t = &self.tables;
        let mut cells = p;
        let mut b = s.board[d];
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            b &= !t.peers[c];
        }
        if b & p != p {
            return false;
        }
        s.board[d] = b;
        if others {
            for (e, other) in s.board[..t.n].iter_mut().enumerate() {
                if e != d {
                    *other &= !p;
                }
            }
        }
        s.placed |= p;
        self.stats.propagations += u64::from(p.count_ones());
        true
    }

    /// An unplaced cell with the fewest candidates, and its candidates.
    fn choose(&self, s: &State) -> (usize, u32) {
        let t = &self.tables;
        let n = t.n;
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &b in &s.board[..n] {
            three |= two & b;
            two |= one & b;
            one |= b;
        }
        let pairs = two & !three & !s.placed;
        let cell = if pairs != 0 {
            pairs.trailing_zeros() as usize
        } else {
            let mut best = (u32::MAX, 0);
            let mut open = !s.placed & t.all;
            while open != 0 {
                let c = open.trailing_zeros() as usize;
                open &= open - 1;
                let k = self.candidates(s, c).count_ones();
                if k < best.0 {
                    best = (k, c);
                }
            }
            best.1
        };
        (cell, self.candidates(s, cell))
    }

    /// The candidates of a cell as a value mask.
    #[inline]
    fn candidates(&self, s: &State, cell: usize) -> u32 {
        let mut m = 0;
        for d in 0..self.tables.n {
            m |= (((s.board[d] >> cell) & 1) as u32) << d;
        }
        m
    }

    fn grid(&self, s: &State, puzzle: &Grid) -> Grid {
        let mut grid = Grid::empty(puzzle.shape());
        for d in 0..self.tables.n {
            let mut cells = s.board[d];
            while cells != 0 {
                grid.set(cells.trailing_zeros() as usize, Some(d));
                cells &= cells - 1;
            }
        }
        grid
    }

    fn search(
        &mut self,
        mut state: State,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
        report: &mut CountReport,
    ) -> Option<StopReason> {
        let all = self.tables.all;
        'node: loop {
            if state.placed == all {
                report.count += 1;
                if report.solutions.len() < 2 {
                    report.solutions.push(self.grid(&state, puzzle));
                }
                if report.count >= limit {
                    report.hit_limit = true;
                    return None;
                }
            } else {
                let (cell, rest) = self.choose(&state);
                self.frames.push(Frame {
                    state,
                    cell: cell as u32,
                    rest,
                });
            }
            loop {
                let frame = self.frames.last_mut()?;
                let v = frame.rest.trailing_zeros() as usize;
                frame.rest &= frame.rest - 1;
                let cell = frame.cell as usize;
                state = frame.state;
                if frame.rest == 0 {
                    // The last value: nothing to come back to.
                    self.frames.pop();
                }
                self.stats.nodes += 1;
                self.stats.guesses += 1;
                if let Some(reason) = budget.exceeded(self.stats.nodes) {
                    return Some(reason);
                }
                let bit = 1u128 << cell;
                let before = state.board;
                for d in 0..self.tables.n {
                    if d != v {
                        state.board[d] &= !bit;
                    }
                }
                if self.propagate(&mut state, before) {
                    continue 'node;
                }
            }
        }
    }
}
