//! `native`, the default backend: constraint propagation on bitset candidates with a
//! most-constrained-cell search, for any shape up to order 128.
//!
//! Three engines share the rules below: 9×9 grids with 3×3 boxes use the band-oriented engine of
//! `band9` (27-bit words per value and band, JCZSolve's design); other grids of at most 128 cells
//! (orders up to 11) use the digit-major bitboards of [`super::bitboard`]; larger grids use the
//! cell-major engine of this file ([`NativeGeneral`] forces it everywhere, for comparison), which
//! hands hard grids of orders 16 to 36 over to a CDCL stage (below).
//!
//! # Method
//! Each cell holds its candidates as one machine word (`u16` up to n = 16, `u32`, `u64`, `u128`;
//! the code is monomorphised per width). Propagation runs to a fixpoint of two rules:
//! - **naked single**: a cell with one candidate takes it, and the value leaves its peers;
//! - **hidden single**: in a unit, a value with one place left goes there. Units are scanned
//!   only when one of their cells changed (a dirty-unit bitset); one pass over a unit computes
//!   "seen once" and "seen twice" masks, so a unit costs n word operations. A value with no place
//!   in a unit is a contradiction.
//!
//! When propagation stops, the search branches on a cell with the fewest candidates (MRV). Cells
//! with two or more candidates live in buckets (intrusive doubly linked lists) by candidate count,
//! and a bit per non-empty bucket finds the smallest in O(1); every elimination moves a cell
//! between buckets in O(1). Values are tried in increasing order.
//!
//! For a first solution (`count` with limit 1, which `solve` is) the search restarts after a
//! number of nodes that follows the Luby sequence (200 · 1, 1, 2, 1, 1, 2, 4, …), each run with
//! a new seeded tie-break among the first cells of the smallest bucket and a seeded first value.
//! Hard satisfiable grids near the phase transition have heavy-tailed search times, and restarts
//! cut the tail (on the first 20 puzzles of `acs_general_25x25_f40-50`, from 7 unsolved within
//! 2 s to none). The budget grows without bound, so the search stays complete and still proves
//! unsatisfiability; the seed is fixed, so the answer is deterministic. Counting (limit ≥ 2) never
//! restarts.
//!
//! **CDCL stage (orders 16 to 36, first solution or uniqueness).** When the search above has
//! met 500 dead ends (guesses refuted by propagation, over all restarts) without an answer, the
//! call hands the puzzle over to conflict-driven clause learning: the `sat` backend's default
//! encoding (Kwon & Jain's optimized CNF, pairwise AMO) solved by varisat, from the puzzle's
//! givens, with what is left of the time and node budgets (each SAT call is one node, as in
//! `sat`). Large grids near the phase transition are quasigroup-completion-like, and the hard
//! ones defeat the pruning rules tried, as measured on the seven 25×25 puzzles of
//! `acs_general_25x25_f40-50` that this engine alone left unknown after 10 s: the restarted
//! propagation search ran 0.8–1.7 million nodes on each in 10 s without an answer; full
//! hyper-arc consistency of every unit (`cp`, Régin's HAC, no restarts) solved 2 of the 7 in
//! 20 s; CDCL solved all 7 in 0.02–1.8 s each. The budget counts dead ends, not nodes, because
//! a nearly empty 25×25 grid needs thousands of nodes (one per open cell, and restarts) but
//! hardly any dead end, and there the propagation search is ten times faster than CDCL. With
//! 500, no puzzle of `acs_general_16x16` or `acs_general_16x16_f40-50` reaches the CDCL stage,
//! and the hardest of `kr_16x16` do, faster than before; 200 or 300 sent some 16×16 puzzles
//! over that the propagation search solves sooner, and 1000 was slower on the 25×25 hard band
//! (BENCHMARKS.md). Counting beyond two solutions stays with the propagation search (blocking
//! clauses enumerate slowly), and so do orders above 36 (the pairwise encoding grows as n⁴).
//!
//! Backtracking restores state from a trail of `(cell, old candidates)` entries, so nothing is
//! copied and nothing is allocated per search node: the candidate array, the trail, the queue of
//! cells to assign, the buckets and the stack of choice points are allocated once per shape and
//! kept in a per-thread cache across calls.
//!
//! # Complexity
//! Memory O(n² + trail), the trail holding at most n³ entries (each elimination removes one of
//! the n³ candidates once per branch). Per search node, propagation is O(eliminations ·
//! (1 + units per cell)) plus O(n) per dirty unit. The problem is NP-complete, so the number of
//! nodes is exponential in the worst case. The CDCL stage holds the pairwise encoding, O(n⁴)
//! clauses before the givens simplify it (a whole 25×25 run peaks near 15 MiB).
//!
//! # References
//! - P. Norvig, "Solving Every Sudoku Puzzle" (2006), <https://norvig.com/sudoku.html>:
//!   constraint propagation (the two rules above) with minimum-remaining-values search.
//! - S. S. Skiena, *The Algorithm Design Manual*, 2nd ed., Springer 2008, §7.3 (Sudoku, forward
//!   checking and most-constrained-square selection).
//! - H. Simonis, "Sudoku as a Constraint Problem", CP Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems, 2005 (FC with channeling = naked + hidden singles).
//! - D. E. Knuth, *The Art of Computer Programming* 4B, "Dancing links" / "Backtrack programming"
//!   (trail-based undo, MRV).
//! - C. P. Gomes, D. Shmoys, "Completing quasigroups or Latin squares: a structured graph
//!   coloring problem", Computational Symposium on Graph Coloring and its Generalizations, 2002
//!   (quasigroup completion and its hard region).
//! - J. P. Marques-Silva, K. A. Sakallah, "GRASP: a search algorithm for propositional
//!   satisfiability", IEEE Trans. Computers 48(5), 1999 (CDCL); G. Kwon, H. Jain, "Optimized
//!   CNF encoding for Sudoku puzzles", LPAR 2006 (the encoding of the CDCL stage).
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", *Information
//!   Processing Letters* 47 (1993) 173–180 (the restart schedule); C. P. Gomes, B. Selman,
//!   H. Kautz, "Boosting combinatorial search through randomization", AAAI 1998 (heavy tails).

use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

use super::geometry::{Geometry, geometry};
use super::luby::luby;
use super::mask::{MAX_MASK_ORDER, Mask, dispatch_mask};
use super::sat::{self, Sat};
use super::{Budget, CountReport, Limits, SolveError, Solver, Stats, StopReason};
use super::{band9, bitboard};
use crate::grid::Grid;

/// The native propagation solver; see the module docs. 9×9 grids take the band engine
/// (`band9`), other grids of at most 128 cells (orders up to 11) the bitboard fast path of
/// [`super::bitboard`]; larger ones the cell-major engine below, with its CDCL stage for hard
/// grids of orders 16 to 36.
#[derive(Debug, Clone, Copy, Default)]
pub struct Native;

/// `native` without the small-grid fast path: the cell-major engine on every shape (with the
/// CDCL stage on orders 16 to 36, as in [`Native`]). It exists to measure what the fast path
/// gains, and to cross-check the two engines.
#[derive(Debug, Clone, Copy, Default)]
pub struct NativeGeneral;

impl Solver for NativeGeneral {
    fn name(&self) -> &str {
        "native:general"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    /// The propagation at the root finds clashing givens by itself.
    fn handles_clashing_givens(&self) -> bool {
        true
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let handover = handover_budget(puzzle.shape().order(), limit);
        let report = dispatch_mask!(puzzle.shape().order(), M => {
            with_engine::<M, _>(puzzle, |engine| engine.count(puzzle, limit, &budget, handover))
        });
        match report {
            Ok(report) => Ok(report),
            Err(native) => cdcl_finish(puzzle, limit, &budget, native),
        }
    }
}

impl Solver for Native {
    fn name(&self) -> &str {
        "native"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    /// The propagation at the root finds clashing givens by itself.
    fn handles_clashing_givens(&self) -> bool {
        true
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        if band9::fits(puzzle.shape()) {
            return Ok(band9::count(puzzle, limit, &Budget::start(limits)));
        }
        if bitboard::fits(puzzle.shape()) {
            return Ok(bitboard::count(puzzle, limit, &Budget::start(limits)));
        }
        NativeGeneral.search(puzzle, limit, limits)
    }
}

/// "No cell" in the bucket lists.
const NONE: u32 = u32::MAX;

/// A choice point: the cell, the values not tried yet, the trail length to return to.
#[derive(Debug, Clone, Copy)]
struct Frame<M> {
    cell: u32,
    rest: M,
    mark: usize,
}

/// The preallocated state of the search for one shape and mask width.
struct Engine<M: Mask> {
    geo: Arc<Geometry>,
    state: State<M>,
}

/// Everything but the tables, so the tables can be borrowed while the state changes.
struct State<M: Mask> {
    full: M,
    cand: Vec<M>,
    trail: Vec<(u32, M)>,
    /// Cells that became single and whose value has not yet left their peers.
    queue: Vec<u32>,
    /// Bucket heads by candidate count; `next`/`prev` link the cells of a bucket.
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
    /// Bit `k − 1` is set when bucket `k` (k ≥ 2) is not empty.
    nonempty: u128,
    /// Units to rescan for hidden singles.
    dirty: Vec<u64>,
    dirty_any: bool,
    frames: Vec<Frame<M>>,
    stats: Stats,
    /// Guesses refuted by propagation in this call.
    dead_ends: u64,
    /// The number of dead ends at which the search hands over to the CDCL stage (`u64::MAX`:
    /// never).
    handover: u64,
}

thread_local! {
    /// Engines kept between calls on this thread (a batch solves many puzzles of one shape).
    static ENGINES: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on this thread's engine for the puzzle's shape and mask width, creating it if needed.
fn with_engine<M: Mask, R>(puzzle: &Grid, f: impl FnOnce(&mut Engine<M>) -> R) -> R {
    let shape = puzzle.shape();
    let cached = ENGINES.with_borrow_mut(|engines| {
        engines
            .iter()
            .position(|e| {
                e.downcast_ref::<Engine<M>>()
                    .is_some_and(|e| e.geo.shape == shape)
            })
            .map(|i| engines.swap_remove(i))
    });
    let mut engine: Box<Engine<M>> = match cached {
        Some(e) => e.downcast().expect("position() checked the type"),
        None => Box::new(Engine::new(geometry(shape))),
    };
    let result = f(&mut engine);
    ENGINES.with_borrow_mut(|engines| {
        if engines.len() >= 4 {
            engines.remove(0);
        }
        engines.push(engine);
    });
    result
}

impl<M: Mask> Engine<M> {
    fn new(geo: Arc<Geometry>) -> Engine<M> {
        let cells = geo.cells;
        let state = State {
            full: M::below(geo.n),
            cand: vec![M::ZERO; cells],
            trail: Vec::with_capacity(cells * 4),
            queue: Vec::with_capacity(cells),
            head: vec![NONE; geo.n + 1],
            next: vec![NONE; cells],
            prev: vec![NONE; cells],
            nonempty: 0,
            dirty: vec![0; geo.unit_count.div_ceil(64)],
            dirty_any: false,
            frames: Vec::with_capacity(cells),
            stats: Stats::default(),
            dead_ends: 0,
            handover: u64::MAX,
        };
        Engine { geo, state }
    }

    /// Counts the solutions of `puzzle` up to `limit`; see [`Solver::count`]. With
    /// `handover = Some(dead_ends)` the search gives up when it has met that many dead ends and
    /// needs another guess, and returns `Err` with its statistics for the CDCL stage to finish
    /// (see the module docs).
    fn count(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
        handover: Option<u64>,
    ) -> Result<CountReport, Stats> {
        let geo = &*self.geo;
        let st = &mut self.state;
        st.stats = Stats::default();
        st.handover = handover.unwrap_or(u64::MAX);
        st.dead_ends = 0;
        let mut report = CountReport::default();
        st.stats.nodes = 1;
        if limit > 1 {
            if st.load(geo, puzzle) && st.propagate(geo) {
                report.stopped = match st.search(geo, puzzle, limit, budget, &mut report, None) {
                    End::Stopped(reason) => Some(reason),
                    End::Done | End::Restart => None,
                    End::Handover => {
                        st.stats.elapsed = budget.elapsed();
                        return Err(st.stats);
                    }
                };
            }
        } else {
            // First solution only: restart with a new tie-break and value order after a Luby
            // number of nodes, which cuts the heavy tail of hard satisfiable grids. The node
            // budget grows without bound, so the search stays complete (it still proves unsat).
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            for run in 1.. {
                if !(st.load(geo, puzzle) && st.propagate(geo)) {
                    break;
                }
                let restart = RESTART_UNIT * luby(run);
                match st.search(
                    geo,
                    puzzle,
                    limit,
                    budget,
                    &mut report,
                    Some((restart, &mut rng)),
                ) {
                    End::Done => break,
                    End::Stopped(reason) => {
                        report.stopped = Some(reason);
                        break;
                    }
                    End::Restart => {}
                    End::Handover => {
                        st.stats.elapsed = budget.elapsed();
                        return Err(st.stats);
                    }
                }
            }
        }
        st.stats.elapsed = budget.elapsed();
        report.stats = st.stats;
        Ok(report)
    }
}

impl<M: Mask> State<M> {
    /// Resets the state to the puzzle's givens (not yet propagated); false on a clash.
    fn load(&mut self, geo: &Geometry, puzzle: &Grid) -> bool {
        self.trail.clear();
        self.queue.clear();
        self.frames.clear();
        self.head.fill(NONE);
        self.nonempty = 0;
        self.dirty.fill(0);
        self.dirty_any = false;
        self.cand.fill(self.full);
        let n = geo.n as u32;
        for cell in 0..geo.cells {
            if n >= 2 {
                self.link(cell, n);
            } else {
                self.queue.push(cell as u32);
            }
        }
        for (cell, v) in puzzle.givens() {
            let bit = M::bit(v);
            if self.cand[cell] & bit == M::ZERO {
                return false;
            }
            let others = self.cand[cell] & !bit;
            if !self.remove(geo, cell, others) {
                return false;
            }
        }
        // The search never undoes the givens.
        self.trail.clear();
        true
    }

    #[inline(always)]
    fn link(&mut self, cell: usize, k: u32) {
        let h = self.head[k as usize];
        self.next[cell] = h;
        self.prev[cell] = NONE;
        if h != NONE {
            self.prev[h as usize] = cell as u32;
        }
        self.head[k as usize] = cell as u32;
        self.nonempty |= 1u128 << (k - 1);
    }

    #[inline(always)]
    fn unlink(&mut self, cell: usize, k: u32) {
        let (p, nx) = (self.prev[cell], self.next[cell]);
        if p != NONE {
            self.next[p as usize] = nx;
        } else {
            self.head[k as usize] = nx;
            if nx == NONE {
                self.nonempty &= !(1u128 << (k - 1));
            }
        }
        if nx != NONE {
            self.prev[nx as usize] = p;
        }
    }

    /// Removes `bits` from a cell's candidates; false when the cell is left with none.
    #[inline]
    fn remove(&mut self, geo: &Geometry, cell: usize, bits: M) -> bool {
        let old = self.cand[cell];
        let new = old & !bits;
        if new == old {
            return true;
        }
        self.trail.push((cell as u32, old));
        self.cand[cell] = new;
        self.stats.propagations += 1;
        let before = old.count();
        if before >= 2 {
            self.unlink(cell, before);
        }
        let after = new.count();
        if after >= 2 {
            self.link(cell, after);
        } else if after == 1 {
            self.queue.push(cell as u32);
        } else {
            return false;
        }
        for &u in geo.units_of(cell) {
            self.dirty[u as usize / 64] |= 1 << (u % 64);
        }
        self.dirty_any = true;
        true
    }

    /// Naked and hidden singles to the fixpoint; false on a contradiction.
    fn propagate(&mut self, geo: &Geometry) -> bool {
        loop {
            while let Some(cell) = self.queue.pop() {
                let v = self.cand[cell as usize];
                for &p in geo.peers(cell as usize) {
                    if self.cand[p as usize] & v != M::ZERO && !self.remove(geo, p as usize, v) {
                        return false;
                    }
                }
            }
            if !self.dirty_any {
                return true;
            }
            if !self.hidden_singles(geo) {
                return false;
            }
        }
    }

    /// One pass of the hidden-single rule over the dirty units; false on a contradiction.
    fn hidden_singles(&mut self, geo: &Geometry) -> bool {
        self.dirty_any = false;
        for w in 0..self.dirty.len() {
            while self.dirty[w] != 0 {
                let b = self.dirty[w].trailing_zeros() as usize;
                self.dirty[w] &= self.dirty[w] - 1;
                let cells = geo.unit(w * 64 + b);
                let (mut once, mut twice, mut solved) = (M::ZERO, M::ZERO, M::ZERO);
                let cand = &self.cand[..];
                for &c in cells {
                    let m = cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    // Branch-free: a single candidate (or none) is a solved value.
                    solved |= if m.without_lowest() == M::ZERO {
                        m
                    } else {
                        M::ZERO
                    };
                }
                if once != self.full {
                    return false;
                }
                let mut hidden = once & !twice & !solved;
                while hidden != M::ZERO {
                    let v = M::bit(hidden.lowest());
                    hidden = hidden.without_lowest();
                    // Two hidden values in one cell: placing the first removed the second.
                    let Some(&c) = cells
                        .iter()
                        .find(|&&c| self.cand[c as usize] & v != M::ZERO)
                    else {
                        return false;
                    };
                    let others = self.cand[c as usize] & !v;
                    if !self.remove(geo, c as usize, others) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Restores the state to trail length `mark`.
    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (cell, old) = self.trail.pop().expect("longer than mark");
            let cell = cell as usize;
            let now = self.cand[cell].count();
            if now >= 2 {
                self.unlink(cell, now);
            }
            self.cand[cell] = old;
            let before = old.count();
            if before >= 2 {
                self.link(cell, before);
            }
        }
        self.queue.clear();
        if self.dirty_any {
            self.dirty.fill(0);
            self.dirty_any = false;
        }
    }

    /// The current (complete) assignment as a grid.
    fn grid(&self, puzzle: &Grid) -> Grid {
        let mut grid = Grid::empty(puzzle.shape());
        for (cell, m) in self.cand.iter().enumerate() {
            grid.set(cell, Some(m.lowest()));
        }
        grid
    }

    /// Depth-first search from a propagated root; fills `report` and returns why it stopped
    /// early, if a budget ran out.
    ///
    /// With `restart = Some((nodes, rng))` the cell is drawn among the first few of the smallest
    /// bucket and the first value tried from a random offset, and the search gives up with
    /// [`End::Restart`] after `nodes` nodes. It gives up with [`End::Handover`] when it needs
    /// another guess and has met the dead-end budget of the propagation stage
    /// (`self.handover`).
    fn search(
        &mut self,
        geo: &Geometry,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
        report: &mut CountReport,
        mut restart: Option<(u64, &mut Rng)>,
    ) -> End {
        let first_node = self.stats.nodes;
        'node: loop {
            if self.nonempty == 0 {
                report.count += 1;
                if report.solutions.len() < 2 {
                    report.solutions.push(self.grid(puzzle));
                }
                if report.count >= limit {
                    report.hit_limit = true;
                    return End::Done;
                }
            } else {
                let k = self.nonempty.trailing_zeros() + 1;
                let mut cell = self.head[k as usize];
                if let Some((_, rng)) = restart.as_mut() {
                    for _ in 0..rng.below(4) {
                        let next = self.next[cell as usize];
                        if next == NONE {
                            break;
                        }
                        cell = next;
                    }
                }
                self.frames.push(Frame {
                    cell,
                    rest: self.cand[cell as usize],
                    mark: self.trail.len(),
                });
            }
            // Try the next value of the deepest open choice point.
            loop {
                let Some(frame) = self.frames.last_mut() else {
                    return End::Done;
                };
                if frame.rest == M::ZERO {
                    self.frames.pop();
                    continue;
                }
                let v = match restart.as_mut() {
                    Some((_, rng)) => {
                        let from = frame.rest & !M::below(rng.below(geo.n as u64) as usize);
                        if from != M::ZERO {
                            from.lowest()
                        } else {
                            frame.rest.lowest()
                        }
                    }
                    None => frame.rest.lowest(),
                };
                frame.rest &= !M::bit(v);
                let (cell, mark) = (frame.cell as usize, frame.mark);
                if self.dead_ends >= self.handover {
                    return End::Handover;
                }
                self.undo(mark);
                self.stats.nodes += 1;
                self.stats.guesses += 1;
                if let Some(reason) = budget.exceeded(self.stats.nodes) {
                    return End::Stopped(reason);
                }
                if let Some((nodes, _)) = restart
                    && self.stats.nodes - first_node > nodes
                {
                    return End::Restart;
                }
                let others = self.cand[cell] & !M::bit(v);
                if self.remove(geo, cell, others) && self.propagate(geo) {
                    continue 'node;
                }
                self.dead_ends += 1;
            }
        }
    }
}

/// How a search ended.
enum End {
    /// The tree was exhausted or the solution limit reached.
    Done,
    /// A budget of [`Limits`] ran out.
    Stopped(StopReason),
    /// The restart budget ran out.
    Restart,
    /// The dead-end budget of the propagation stage ran out: the CDCL stage takes over.
    Handover,
}

/// Nodes per unit of the restart schedule.
const RESTART_UNIT: u64 = 200;

/// Dead ends of the propagation search (guesses refuted by propagation) after which the CDCL
/// stage takes over (see the module docs).
const HANDOVER_DEAD_ENDS: u64 = 500;

/// The smallest order with a CDCL stage (smaller grids rarely reach the budget).
const HANDOVER_MIN_ORDER: usize = 16;

/// The dead-end budget of the propagation stage for a call, or `None` when it runs alone:
/// orders from [`HANDOVER_MIN_ORDER`] to [`sat::MAX_ORDER_PAIRWISE`], first solution or
/// uniqueness.
fn handover_budget(order: usize, limit: u64) -> Option<u64> {
    ((HANDOVER_MIN_ORDER..=sat::MAX_ORDER_PAIRWISE).contains(&order) && limit <= 2)
        .then_some(HANDOVER_DEAD_ENDS)
}

/// The CDCL stage: the puzzle, from scratch, by the `sat` backend's default encoding within
/// what is left of the budget. The statistics add the propagation stage's (`native`) to the SAT
/// calls (each SAT call is a node); the elapsed time is the whole call's.
fn cdcl_finish(
    puzzle: &Grid,
    limit: u64,
    budget: &Budget,
    native: Stats,
) -> Result<CountReport, SolveError> {
    let stop = |reason| {
        Ok(CountReport {
            stopped: Some(reason),
            stats: Stats {
                elapsed: budget.elapsed(),
                ..native
            },
            ..CountReport::default()
        })
    };
    if let Some(reason) = budget.interrupted() {
        return stop(reason);
    }
    let time = budget.remaining();
    let nodes = match budget.node_limit() {
        Some(max) if max <= native.nodes => return stop(StopReason::NodeLimit),
        Some(max) => Some(max - native.nodes),
        None => None,
    };
    let mut report = Sat::default().count(
        puzzle,
        limit,
        &Limits {
            time,
            nodes,
            cancel: budget.cancel().cloned(),
        },
    )?;
    report.stats.nodes += native.nodes;
    report.stats.guesses += native.guesses;
    report.stats.propagations += native.propagations;
    report.stats.elapsed = budget.elapsed();
    Ok(report)
}

/// A small deterministic generator (SplitMix64) for the restart tie-breaks.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        z % bound.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::text::parse_line;

    #[test]
    fn counts_small_empty_grids() {
        let count = |shape| {
            Native
                .count(&Grid::empty(shape), u64::MAX, &Limits::none())
                .unwrap()
                .count
        };
        assert_eq!(count(Shape::sudoku(2, 2).unwrap()), 288);
        assert_eq!(count(Shape::latin(4).unwrap()), 576);
        assert_eq!(count(Shape::latin(1).unwrap()), 1);
        assert_eq!(count(Shape::latin(3).unwrap()), 12);
    }

    #[test]
    fn solves_a_hard_nine_by_nine() {
        let puzzle = parse_line(
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            None,
        )
        .unwrap();
        let report = Native.solve(&puzzle, &Limits::none()).unwrap();
        let super::super::Answer::Solved(grid) = report.answer else {
            panic!("{report:?}")
        };
        assert_eq!(crate::verify(&puzzle, &grid), Ok(()));
    }

    /// The first puzzle of the repository's 16×16 sample.
    fn sample16() -> Grid {
        let text = include_str!("../../models/sudoku/16x16/kr_16x16_sample.txt");
        parse_line(text.lines().next().expect("a line"), None).expect("a puzzle")
    }

    /// The propagation stage alone (`handover` = `None`) or up to a dead-end budget.
    fn propagation_stage(
        puzzle: &Grid,
        limit: u64,
        handover: Option<u64>,
    ) -> Result<CountReport, Stats> {
        let budget = Budget::start(&Limits::none());
        dispatch_mask!(puzzle.shape().order(), M => {
            with_engine::<M, _>(puzzle, |engine| engine.count(puzzle, limit, &budget, handover))
        })
    }

    #[test]
    fn the_cdcl_stage_takes_over_at_the_dead_end_budget() {
        let empty = Grid::empty(Shape::sudoku(4, 4).unwrap());
        assert!(propagation_stage(&empty, 1, Some(HANDOVER_DEAD_ENDS)).is_ok());
        let stats =
            propagation_stage(&empty, 1, Some(0)).expect_err("the empty grid needs a guess");
        assert_eq!((stats.nodes, stats.guesses), (1, 0));
        let report = cdcl_finish(&empty, 1, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(report.hit_limit && report.stopped.is_none());
        assert_eq!(report.count, 1);
        assert_eq!(crate::verify(&empty, &report.solutions[0]), Ok(()));
        assert_eq!(report.stats.nodes, 2, "the root and one SAT call");
        // Above the range the propagation stage runs alone, and so does counting past two.
        assert_eq!(handover_budget(16, 1), Some(HANDOVER_DEAD_ENDS));
        assert_eq!(handover_budget(15, 2), None);
        assert_eq!(handover_budget(sat::MAX_ORDER_PAIRWISE + 1, 1), None);
        assert_eq!(handover_budget(25, 3), None);
    }

    #[test]
    fn both_stages_agree_on_uniqueness_and_unsat() {
        let puzzle = sample16();
        let alone = propagation_stage(&puzzle, 2, None).unwrap();
        let stats = Stats::default();
        let cdcl = cdcl_finish(&puzzle, 2, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(alone.complete() && cdcl.complete());
        assert_eq!(alone.count, 1);
        assert_eq!(cdcl.count, 1);
        assert_eq!(cdcl.solutions, alone.solutions);
        // A wrong value in an open cell that clashes with no given: unsat only after search.
        let solution = &alone.solutions[0];
        let shape = puzzle.shape();
        let (cell, v) = (0..shape.cells())
            .filter(|&c| puzzle.get(c).is_none())
            .flat_map(|c| (0..shape.order()).map(move |v| (c, v)))
            .find(|&(c, v)| {
                solution.get(c) != Some(v) && shape.peers(c).all(|p| puzzle.get(p) != Some(v))
            })
            .expect("an open cell with a wrong but allowed value");
        let mut wrong = puzzle.clone();
        wrong.set(cell, Some(v));
        let alone = propagation_stage(&wrong, 1, None).unwrap();
        let cdcl = cdcl_finish(&wrong, 1, &Budget::start(&Limits::none()), stats).unwrap();
        assert!(alone.complete() && cdcl.complete());
        assert_eq!((alone.count, cdcl.count), (0, 0));
    }

    #[test]
    fn the_cdcl_stage_keeps_the_budgets() {
        let puzzle = sample16();
        let native = Stats {
            nodes: 3,
            ..Stats::default()
        };
        let nodes = Limits::nodes(3);
        let report = cdcl_finish(&puzzle, 1, &Budget::start(&nodes), native).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(report.solutions.is_empty());
        let time = Limits::time(std::time::Duration::ZERO);
        let report = cdcl_finish(&puzzle, 1, &Budget::start(&time), native).unwrap();
        assert_eq!(report.stopped, Some(StopReason::TimeLimit));
        assert_eq!(report.stats.nodes, 3);
    }

    #[test]
    fn a_node_limit_gives_unknown() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let limits = Limits::nodes(5);
        let report = Native.count(&empty, u64::MAX, &limits).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(!report.complete());
    }
}
