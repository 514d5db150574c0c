//! Simonis' propagation schemes for Sudoku: a candidate store and the engine that runs a scheme's
//! propagators to their common fixpoint.
//!
//! Every unit (row, column, box) of a [`Shape`] is an `alldifferent` constraint over its `n` cells.
//! A [`Scheme`] names how strongly each is propagated (forward checking, ECLiPSe's range
//! exhaustion, hyper-arc consistency), with or without channeling, with the redundant constraints
//! `S`, `C`, `3` and with shaving; see [`scheme`]. [`Domains`] holds the candidates of every cell as a bitset of
//! `⌈n/64⌉` words (one word for every order up to 64), and [`Propagator`] removes candidates until
//! no propagator of the scheme can remove more (the fixpoint), or reports [`Failure`] when a cell,
//! or a value of a unit, has no candidate left.
//!
//! The engine keeps all its scratch space (queues, dirty flags, matching arrays) between calls, so
//! a propagation call allocates nothing: search and shaving call it many thousands of times.
//!
//! The files of this module, one consistency level or constraint each:
//! [`fc`] (forward checking and channeling), [`bounds`] (ECLiPSe's range exhaustion),
//! [`dual`] (the dual variables' `alldifferent` of `BCI`), [`hac`] (Régin's
//! matching-based filtering), [`redundant`] (same, colored matrix, rows–boxes), [`shave`],
//! [`scheme`] (names and the lattice), [`searcher`] (depth-first search on top of a scheme).
//!
//! # Complexity
//! A store is `n²·⌈n/64⌉` words. One fixpoint costs, per revision of a unit: O(n) for forward
//! checking and channeling (word operations), O(n²) per scan for range exhaustion (`BC`, and
//! `BCI`'s duals; O(n³) when a revision splits off many exhausted sets), O(n²) for
//! hyper-arc consistency when the warm-started matching needs at most one augmenting path (O(n³)
//! when it is rebuilt); the redundant constraints cost O(n³) per round. The number of rounds
//! is bounded by the number of candidates removed, at most `n³`.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", CP Workshop on Modeling and Reformulating
//!   Constraint Satisfaction Problems, 2005 (the schemes, their names and their lattice).
//! - J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994.
//! - The ECLiPSe library `ic_global`, `alldifferent/1` (the `BC` propagator of the paper), after
//!   J.-F. Puget, "A fast algorithm for the bound consistency of alldiff constraints", AAAI 1998.
//! - J. E. Hopcroft, R. M. Karp, "An n^5/2 algorithm for maximum matchings in bipartite graphs",
//!   SIAM J. Comput. 1973; R. E. Tarjan, "Depth-first search and linear graph algorithms", SIAM J.
//!   Comput. 1972.
//!
//! # Examples
//! ```
//! use sudokit::propagate::{Domains, Propagator, Scheme};
//! use sudokit::text::parse_line;
//! // A 4×4 puzzle that forward checking alone solves.
//! let puzzle = parse_line("12.434.221.34321", None).unwrap();
//! let mut domains = Domains::from_puzzle(&puzzle);
//! let mut engine = Propagator::new(puzzle.shape());
//! engine.propagate(&mut domains, Scheme::FC).unwrap();
//! assert!(domains.is_solved());
//! assert_eq!(domains.to_grid().unwrap().at(2, 2), Some(3)); // the 4 of row 3
//! ```

pub mod bounds;
mod domains;
pub mod dual;
pub mod explain;
pub mod fc;
pub mod hac;
pub mod reasons;
pub mod redundant;
pub mod scheme;
pub mod searcher;
pub mod shave;
pub mod trace;

use thiserror::Error;

use crate::shape::Shape;

pub(crate) use crate::bitset::iter_bits;
pub use domains::Domains;

pub use scheme::{Consistency, Scheme, SchemeError, Shaving};
pub use searcher::{SearchError, Searcher, count_with_scheme};

use bounds::Exhaustion;
use hac::Matcher;
use trace::Rule;

/// A propagator found a cell, or a value of a unit, with no candidate left: the puzzle (under the
/// choices made so far) has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a cell or a value of a unit has no candidate left")]
pub struct Failure;

/// Runs schemes to their fixpoint on a [`Domains`] store of one shape; owns all scratch space.
///
/// One engine serves any number of calls (and any scheme) on stores of its shape; it is not
/// `Sync`-shared: give each thread its own.
pub struct Propagator {
    shape: Shape,
    n: usize,
    words: usize,
    /// Cells of each unit, `unit_count × n`.
    unit_cells: Vec<u32>,
    /// Units of each cell: `cell_units[cell_unit_start[c]..cell_unit_start[c + 1]]` (3, or 2
    /// for a Latin square, plus the extra units holding the cell).
    cell_units: Vec<u32>,
    cell_unit_start: Vec<u32>,
    /// Peers of each cell: `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u32>,
    peer_start: Vec<u32>,
    /// Cells whose single candidate still has to be removed from their peers.
    fixed_queue: Vec<u32>,
    /// Units to revise (channeling, range exhaustion, HAC): flags, how many are set, and the
    /// order they were set in (a stack; entries whose flag was cleared by a sweep are stale).
    unit_flag: Vec<bool>,
    dirty_count: usize,
    dirty_units: Vec<u32>,
    /// Changes since the redundant constraints last ran: per unit (same) and per value (C, 3).
    same_dirty: Vec<bool>,
    value_dirty: Vec<bool>,
    /// The flags the current round of redundant constraints works from.
    same_now: Vec<bool>,
    value_now: Vec<bool>,
    any_redundant_dirty: bool,
    /// Last matching of each unit (cell index in unit → value), for warm starts.
    unit_mates: Vec<u32>,
    matcher: Matcher,
    /// Scratch words: one cell's worth, and a unit's worth.
    scratch: Vec<u64>,
    scratch2: Vec<u64>,
    /// Scratch for the range exhaustion of `BC` (cells or dual variables of one unit).
    exhaustion: Exhaustion,
    /// Scratch store for shaving probes.
    probe: Option<Box<Domains>>,
    propagations: u64,
    /// The budget of the search running on this engine: shaving stops probing once it is
    /// exhausted (a shorter pass removes fewer values, never a wrong one).
    stop: Option<crate::search::Budget>,
    /// The record of every step, when tracing is on ([`trace`]).
    trace: Option<Box<trace::TraceState>>,
}

impl Propagator {
    /// An engine for stores of `shape`.
    pub fn new(shape: Shape) -> Propagator {
        let n = shape.order();
        let words = n.div_ceil(64);
        let units = shape.unit_count();
        let mut unit_cells = Vec::with_capacity(units * n);
        for unit in shape.units() {
            unit_cells.extend(shape.unit_cells(unit).map(|c| c as u32));
        }
        let units_per_cell = if shape.is_latin() { 2 } else { 3 };
        let mut cell_units = Vec::with_capacity(shape.cells() * units_per_cell);
        let mut peers = Vec::with_capacity(shape.cells() * shape.peer_count());
        let (mut cell_unit_start, mut peer_start) = (vec![0u32], vec![0u32]);
        for cell in 0..shape.cells() {
            cell_units.extend(shape.units_of(cell).map(|u| u.index(n) as u32));
            peers.extend(shape.peers(cell).map(|c| c as u32));
            cell_unit_start.push(cell_units.len() as u32);
            peer_start.push(peers.len() as u32);
        }
        Propagator {
            shape,
            n,
            words,
            unit_cells,
            cell_units,
            cell_unit_start,
            peers,
            peer_start,
            fixed_queue: Vec::with_capacity(shape.cells()),
            unit_flag: vec![false; units],
            dirty_count: 0,
            dirty_units: Vec::with_capacity(units),
            same_dirty: vec![false; units],
            value_dirty: vec![false; n],
            same_now: vec![false; units],
            value_now: vec![false; n],
            any_redundant_dirty: false,
            unit_mates: (0..units).flat_map(|_| 0..n as u32).collect(),
            matcher: Matcher::new(n),
            scratch: vec![0; words],
            scratch2: vec![0; words * n.max(3)],
            exhaustion: Exhaustion::new(n, words),
            probe: None,
            stop: None,
            propagations: 0,
            trace: None,
        }
    }

    /// The shape this engine serves.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Bounds the shaving of the following calls by `budget` (`None`: unbounded): a search on
    /// this engine sets its own, so a long shaving pass honours the search's limits.
    pub(crate) fn set_stop(&mut self, budget: Option<crate::search::Budget>) {
        self.stop = budget;
    }

    /// Propagator revisions run so far (a unit revised, a fixed cell forwarded, a redundant
    /// constraint checked, a shaving probe): the machine-independent measure of work.
    pub fn propagations(&self) -> u64 {
        self.propagations
    }

    /// Runs `scheme` to its fixpoint on `d`, starting from scratch (every unit is revised).
    ///
    /// `BCI` first runs `BC` to its fixpoint, then adds the dual variables (as the paper's model
    /// posts the cells' `alldifferent` before the duals'): since `BC` is not monotone, this is
    /// what makes `BC ⊑ BCI` hold (see [`bounds`]).
    ///
    /// # Errors
    /// [`Failure`] when some cell or some value of a unit loses its last candidate; `d` is then
    /// partly pruned and must be discarded.
    pub fn propagate(&mut self, d: &mut Domains, scheme: Scheme) -> Result<(), Failure> {
        debug_assert_eq!(d.shape, self.shape);
        if scheme.level() == Consistency::Bc && scheme.channeling() {
            self.propagate_all(d, scheme.without_channeling())?;
        }
        self.propagate_all(d, scheme)
    }

    /// [`Propagator::propagate`] for one scheme: every unit and value marked for revision.
    fn propagate_all(&mut self, d: &mut Domains, scheme: Scheme) -> Result<(), Failure> {
        self.reset();
        for cell in 0..self.shape.cells() {
            match d.count(cell) {
                0 => return Err(Failure),
                1 => self.fixed_queue.push(cell as u32),
                _ => {}
            }
        }
        for u in 0..self.shape.unit_count() {
            self.mark_unit(u);
        }
        self.value_dirty.fill(true);
        self.any_redundant_dirty = true;
        self.finish(d, scheme)
    }

    /// Assigns `v` to `cell` and propagates incrementally: `d` must be at the fixpoint of `scheme`
    /// (as left by [`Propagator::propagate`]) before the call.
    ///
    /// # Errors
    /// [`Failure`] as for [`Propagator::propagate`]; also when `v` is not a candidate of `cell`.
    pub fn assign(
        &mut self,
        d: &mut Domains,
        scheme: Scheme,
        cell: usize,
        v: usize,
    ) -> Result<(), Failure> {
        self.reset();
        if !d.contains(cell, v) {
            return Err(Failure);
        }
        self.restrict_to_value(d, cell, v);
        self.finish(d, scheme)
    }

    /// Removes `v` from `cell` and propagates incrementally (same precondition as
    /// [`Propagator::assign`]).
    ///
    /// # Errors
    /// [`Failure`] as for [`Propagator::propagate`].
    pub fn exclude(
        &mut self,
        d: &mut Domains,
        scheme: Scheme,
        cell: usize,
        v: usize,
    ) -> Result<(), Failure> {
        self.reset();
        self.remove(d, cell, v)?;
        self.finish(d, scheme)
    }

    /// Runs the base fixpoint, then shaving if the scheme asks for it.
    fn finish(&mut self, d: &mut Domains, scheme: Scheme) -> Result<(), Failure> {
        // The traced loop is a separate instance: the untraced one has no trace test at all.
        let run = if self.trace.is_some() {
            self.run::<true>(d, scheme)
        } else {
            self.run::<false>(d, scheme)
        };
        let result = run.and_then(|()| match scheme.shaving() {
            Shaving::None => Ok(()),
            mode => self.shave(d, scheme.without_shaving(), mode),
        });
        if result.is_err() {
            self.reset();
        }
        result
    }

    /// Clears the queues and dirty flags.
    fn reset(&mut self) {
        self.fixed_queue.clear();
        if self.dirty_count > 0 {
            self.unit_flag.fill(false);
            self.dirty_count = 0;
        }
        self.dirty_units.clear();
        self.same_dirty.fill(false);
        self.value_dirty.fill(false);
        self.any_redundant_dirty = false;
    }

    #[inline]
    fn mark_unit(&mut self, u: usize) {
        if !self.unit_flag[u] {
            self.unit_flag[u] = true;
            self.dirty_count += 1;
            self.dirty_units.push(u as u32);
        }
        self.same_dirty[u] = true;
    }

    /// Records that `cell` lost candidates (already removed from `d`, which still has `count`
    /// there); the caller marks the values.
    #[inline]
    fn note_cell_change(&mut self, cell: usize, count: usize) {
        if count == 1 {
            self.fixed_queue.push(cell as u32);
        }
        for i in self.cell_unit_start[cell] as usize..self.cell_unit_start[cell + 1] as usize {
            let u = self.cell_units[i] as usize;
            self.mark_unit(u);
        }
        self.any_redundant_dirty = true;
    }

    /// Removes a candidate and records the change.
    ///
    /// # Errors
    /// [`Failure`] if the cell is left empty.
    #[inline]
    fn remove(&mut self, d: &mut Domains, cell: usize, v: usize) -> Result<bool, Failure> {
        if !d.remove(cell, v) {
            return Ok(false);
        }
        let count = d.count(cell);
        if count == 0 {
            return Err(Failure);
        }
        self.value_dirty[v] = true;
        self.note_cell_change(cell, count);
        Ok(true)
    }

    /// Keeps only the candidates of `cell` that are in `keep` (a cell's worth of words); records
    /// every removal.
    ///
    /// # Errors
    /// [`Failure`] if the cell is left empty.
    fn restrict(&mut self, d: &mut Domains, cell: usize, keep: &[u64]) -> Result<bool, Failure> {
        let w = self.words;
        let mut removed_any = false;
        let mut left = 0usize;
        for (i, &k) in keep.iter().enumerate().take(w) {
            let slot = &mut d.bits[cell * w + i];
            let gone = *slot & !k;
            *slot &= k;
            left += slot.count_ones() as usize;
            if gone != 0 {
                removed_any = true;
                let mut rest = gone;
                while rest != 0 {
                    let v = i * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    self.value_dirty[v] = true;
                }
            }
        }
        if left == 0 {
            return Err(Failure);
        }
        if removed_any {
            self.note_cell_change(cell, left);
        }
        Ok(removed_any)
    }

    /// Makes `v` the only candidate of `cell` (which has it) and records the change.
    fn restrict_to_value(&mut self, d: &mut Domains, cell: usize, v: usize) {
        let w = self.words;
        let mut any = false;
        for i in 0..w {
            let keep = if i == v / 64 { 1u64 << (v % 64) } else { 0 };
            let slot = &mut d.bits[cell * w + i];
            let mut gone = *slot & !keep;
            *slot &= keep;
            while gone != 0 {
                any = true;
                let u = i * 64 + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                self.value_dirty[u] = true;
            }
        }
        if any {
            self.note_cell_change(cell, 1);
        }
    }

    /// The main fixpoint loop: forward checking of newly fixed cells (cheapest), then the unit
    /// propagators of the level on the dirty units, then, once no unit is dirty, the redundant
    /// constraints; until nothing changes.
    ///
    /// A revision of a unit runs the level's propagator, then channeling (`FCI`) or the duals'
    /// range exhaustion (`BCI`). Every propagator but `BC`'s is monotone, so the order matters
    /// only for `BC` fixpoints (see [`bounds`]). Order-free schemes take the cheapest order:
    /// fixed cells are forwarded before every revision and the most recently dirtied unit is
    /// revised first. `BC`-based schemes run in **sweeps**, the plain "sweep the constraints until
    /// none changes" order of a simple implementation, which makes their verdicts reproducible
    /// and comparable: the cells fixed since the last sweep are forwarded, then the units are
    /// visited in index order (rows, columns, boxes), each dirty one revised (a unit dirtied
    /// during the sweep waits for the next sweep unless its index is larger).
    fn run<const TRACE: bool>(&mut self, d: &mut Domains, scheme: Scheme) -> Result<(), Failure> {
        let sweeps = !scheme.order_free();
        loop {
            while let Some(cell) = self.fixed_queue.pop() {
                self.propagations += 1;
                let cell = cell as usize;
                self.step::<TRACE, _>(
                    d,
                    |d| Rule::NakedSingle {
                        cell,
                        value: d.min(cell).unwrap_or(0),
                    },
                    |e, d| e.forward(d, cell),
                )?;
            }
            if sweeps && self.dirty_count > 0 {
                for u in 0..self.unit_flag.len() {
                    if self.unit_flag[u] {
                        self.unit_flag[u] = false;
                        self.dirty_count -= 1;
                        self.revise::<TRACE>(d, scheme, u)?;
                    }
                }
                continue;
            }
            if let Some(u) = self.dirty_units.pop() {
                let u = u as usize;
                if self.unit_flag[u] {
                    self.unit_flag[u] = false;
                    self.dirty_count -= 1;
                    self.revise::<TRACE>(d, scheme, u)?;
                }
                continue;
            }
            if scheme.has_redundant() && self.any_redundant_dirty {
                // Take the change flags: removals made by the redundant constraints themselves
                // set them again and start another round.
                self.any_redundant_dirty = false;
                std::mem::swap(&mut self.same_dirty, &mut self.same_now);
                std::mem::swap(&mut self.value_dirty, &mut self.value_now);
                self.same_dirty.fill(false);
                self.value_dirty.fill(false);
                if scheme.same() {
                    self.same::<TRACE>(d)?;
                }
                if scheme.colored() {
                    self.colored::<TRACE>(d)?;
                }
                if scheme.rows_boxes() {
                    self.rows_boxes::<TRACE>(d)?;
                }
                continue;
            }
            return Ok(());
        }
    }

    /// Revises unit `u` with the scheme's unit propagators.
    fn revise<const TRACE: bool>(
        &mut self,
        d: &mut Domains,
        scheme: Scheme,
        u: usize,
    ) -> Result<(), Failure> {
        if scheme.channeling() || scheme.level() != Consistency::Fc {
            self.propagations += 1;
        }
        match (scheme.level(), scheme.channeling()) {
            (Consistency::Fc, false) => Ok(()),
            (Consistency::Fc, true) => {
                self.step::<TRACE, _>(d, |_| Rule::Channeling { unit: u }, |e, d| e.channel(d, u))
            }
            (Consistency::Bc, channeling) => {
                self.step::<TRACE, _>(
                    d,
                    |_| Rule::RangeExhaustion { unit: u },
                    |e, d| e.bounds(d, u),
                )?;
                if channeling {
                    self.step::<TRACE, _>(
                        d,
                        |_| Rule::DualExhaustion { unit: u },
                        |e, d| e.bounds_dual(d, u),
                    )?;
                }
                Ok(())
            }
            // HAC implies channeling: no HAC scheme adds it.
            (Consistency::Hac, _) => {
                self.step::<TRACE, _>(d, |_| Rule::Matching { unit: u }, |e, d| e.hac(d, u))
            }
        }
    }
}

#[cfg(test)]
mod tests;
