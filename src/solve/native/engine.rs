//! The cell-major engine of [`super::Native`] (orders above 11, and [`super::NativeGeneral`]
//! everywhere): the candidate words, the buckets by candidate count, the trail, the propagation
//! of naked and hidden singles and the restarted most-constrained-cell search; the module docs
//! of `native` describe the method.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

use super::super::geometry::{Geometry, geometry};
use super::super::luby::luby;
use super::super::mask::Mask;
use super::super::{Budget, CountReport, Stats, StopReason};
use crate::grid::Grid;

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
pub(super) struct Engine<M: Mask> {
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
pub(super) fn with_engine<M: Mask, R>(puzzle: &Grid, f: impl FnOnce(&mut Engine<M>) -> R) -> R {
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
    pub(super) fn count(
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
