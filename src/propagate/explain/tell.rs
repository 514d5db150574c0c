//! The story of one scheme on one puzzle, told easiest first.
//!
//! 1. **Step 1 places every given**: each given's value leaves its row, column and box.
//! 2. Then, until nothing is left: a **contradiction** if there is one in sight (a cell with no
//!    candidate, two placed cells with one value, a value with no place); else the easiest rule
//!    the scheme has ([`super::family`]) that removes something: a **naked single** (one step
//!    per placement: the value leaves every peer), a **hidden single** (placed the same way),
//!    **locked candidates**, **naked and hidden pairs**, then **triples**; else the scheme's
//!    **stronger reasoning**, taken from its own run ([`super::guided`]): larger Hall sets, the
//!    rows, columns and boxes of `C` and `3`, range exhaustion, shaving probes.
//!
//! **The story ends where the scheme does.** The scheme's fixpoint `E` is computed first (by the
//! engine, from the givens: the same run [`crate::grade`] makes). Every step removes only
//! candidates outside `E` (the guard of [`super::rules`]), and the guide takes each removal of
//! the engine's run in turn, so the last store is `E` itself: solved exactly when the scheme
//! solves the puzzle, stuck where its search would start, or a contradiction when it refutes the
//! puzzle (the guard is off then: any sound step of the scheme's rules tells the refutation).
//! This holds for every scheme, `BC`'s order-dependent range exhaustion included: the guide
//! follows the engine's own order for what the easy rules leave.
//!
//! **A probe** tries the value in a copy of the store and tells the base scheme's story from
//! there, guided by the engine's run of the same trial, until a contradiction; the chain is then
//! cut to the steps the contradiction needs (each step keeps the steps that removed what its
//! reason relies on, [`super::step::Reason::needs`]), and replayed to recompute each kept step's
//! removals: a short sub-chain.
//!
//! # Complexity
//! One engine run with the trace on, plus per step the easy rules' scans (see
//! [`super::rules`]); a probe adds a base run and its story. Teaching sizes.

use super::explanation::{Ending, Explanation, Order};
use super::family::Family;
use super::guided::{Guide, Lead};
use super::rules::Board;
use super::step::{Deduction, Reason};
use super::text::{sentence, supposition};
use crate::grid::Grid;
use crate::propagate::{Domains, Propagator, Scheme};
use crate::search::{Budget, StopReason};

/// How a run of the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    Fixpoint,
    Contradiction,
    /// The budget ran out (the time limit, or the stop token) before the story was told.
    Stopped(StopReason),
}

/// The story of `scheme` on `puzzle`, unchecked (see [`super::replay`]); with a `budget`, the
/// engine's run and the telling stop when it runs out, with the reason.
pub(super) fn tell(
    puzzle: &Grid,
    scheme: Scheme,
    order: Order,
    budget: Option<&Budget>,
) -> Result<Explanation, StopReason> {
    let shape = puzzle.shape();
    let start = Domains::from_puzzle(puzzle);
    let mut engine = Propagator::new(shape);
    engine.set_tracing(true);
    engine.set_stop(budget.cloned());
    let mut fixpoint = start.clone();
    let failed = engine.propagate(&mut fixpoint, scheme).is_err();
    // A shaving pass stops early when the budget runs out: that store is not the fixpoint.
    if let Some(reason) = budget.and_then(Budget::interrupted) {
        return Err(reason);
    }
    let events = engine.take_events();
    let mut teller = Teller {
        puzzle,
        scheme,
        base: scheme.without_shaving(),
        family: Family::for_order(scheme, order),
        placed: vec![false; shape.cells()],
    };
    let mut state = start.clone();
    let mut steps = Vec::new();
    if puzzle.filled() > 0 {
        let removed = Reason::Givens.consequences(puzzle, &state);
        teller.push(&mut state, &mut steps, Reason::Givens, removed);
    }
    let mut guide = Guide::new(&start, events, failed, scheme);
    let guard = (!failed).then_some(&fixpoint);
    let ended = teller.run(&mut state, &mut guide, guard, &mut steps, budget);
    let ending = match ended {
        Ended::Stopped(reason) => return Err(reason),
        Ended::Contradiction => Ending::Contradiction,
        Ended::Fixpoint => match state.to_grid() {
            Some(grid) if crate::verify::verify(puzzle, &grid).is_ok() => Ending::Solved(grid),
            Some(_) => Ending::Contradiction,
            None => Ending::Stuck {
                open_cells: (0..shape.cells()).filter(|&c| state.count(c) > 1).count(),
                candidates: state.total(),
                branch: branch(&state),
            },
        },
    };
    Ok(Explanation {
        puzzle: puzzle.clone(),
        scheme,
        order,
        steps,
        ending,
    })
}

/// Where a search would branch: the open cell with the fewest candidates (first in row-major
/// order) and its smallest candidate, as the `cp` backend's search does.
pub(super) fn branch(d: &Domains) -> (usize, usize) {
    let mut best: Option<(usize, usize)> = None;
    for cell in 0..d.shape().cells() {
        let k = d.count(cell);
        if k > 1 && best.is_none_or(|(_, b)| k < b) {
            best = Some((cell, k));
        }
    }
    let cell = best.map_or(0, |(c, _)| c);
    (cell, d.min(cell).unwrap_or(0))
}

struct Teller<'a> {
    puzzle: &'a Grid,
    scheme: Scheme,
    base: Scheme,
    family: Family,
    placed: Vec<bool>,
}

impl Teller<'_> {
    /// Adds the step of `reason` removing `removed` from `state`, and applies it.
    fn push(
        &mut self,
        state: &mut Domains,
        steps: &mut Vec<Deduction>,
        reason: Reason,
        removed: Vec<(usize, usize)>,
    ) {
        let step = deduction(self.puzzle, reason, removed, state, self.base);
        for &(cell, _) in &step.placed {
            self.placed[cell] = true;
        }
        for &(cell, v) in &step.removed {
            state.remove(cell, v);
        }
        steps.push(step);
    }

    /// Tells steps until a contradiction or the fixpoint; see the module docs.
    fn run(
        &mut self,
        state: &mut Domains,
        guide: &mut Guide,
        guard: Option<&Domains>,
        steps: &mut Vec<Deduction>,
        budget: Option<&Budget>,
    ) -> Ended {
        let family = self.family;
        loop {
            // The clock is read once a step (a step's scans cost O(n³)).
            if let Some(reason) = budget.and_then(Budget::interrupted) {
                return Ended::Stopped(reason);
            }
            let board = Board {
                puzzle: self.puzzle,
                d: state,
                placed: &self.placed,
                guard,
            };
            if let Some(reason) = board.contradiction(family.hidden_singles, family.naked_sets) {
                self.push(state, steps, reason, Vec::new());
                return Ended::Contradiction;
            }
            let mut found = board.naked_single();
            if found.is_none() && family.hidden_singles {
                found = board.hidden_single();
            }
            if found.is_none() && family.locked {
                found = board.locked();
            }
            for k in 2..=3 {
                if found.is_none() && family.naked_sets {
                    found = board.naked_set(k);
                }
                if found.is_none() && family.hidden_sets {
                    found = board.hidden_set(k);
                }
            }
            if let Some((reason, removed)) = found {
                self.push(state, steps, reason, removed);
                continue;
            }
            match guide.next(&board) {
                Lead::Step(reason, removed) => self.push(state, steps, reason, removed),
                Lead::Probe {
                    cell,
                    value,
                    engine_store,
                } => {
                    let chain = self.probe_chain(state, cell, value, engine_store);
                    let reason = Reason::Probe { cell, value, chain };
                    self.push(state, steps, reason, vec![(cell, value)]);
                }
                Lead::Contradiction(reason) => {
                    self.push(state, steps, reason, Vec::new());
                    return Ended::Contradiction;
                }
                Lead::Fixpoint => return Ended::Fixpoint,
            }
        }
    }

    /// The chain of the probe of `value` in `cell` from `state`: the base scheme's story of the
    /// trial, guided by the engine's run of it from `engine_store`, cut to what its
    /// contradiction needs.
    fn probe_chain(
        &self,
        state: &Domains,
        cell: usize,
        value: usize,
        mut engine_store: Domains,
    ) -> Vec<Deduction> {
        let shape = self.puzzle.shape();
        let mut engine = Propagator::new(shape);
        engine.set_tracing(true);
        let mut engine_start = engine_store.clone();
        restrict(&mut engine_start, cell, value);
        let failed = engine
            .assign(&mut engine_store, self.base, cell, value)
            .is_err();
        let events = engine.take_events();
        let mut trial = state.clone();
        restrict(&mut trial, cell, value);
        let start = trial.clone();
        let mut sub = Teller {
            puzzle: self.puzzle,
            scheme: self.base,
            base: self.base,
            family: Family::of(self.base),
            placed: self.placed.clone(),
        };
        let mut guide = Guide::new(&engine_start, events, failed, self.base);
        let mut chain = Vec::new();
        // A probe's chain is one step of the outer story, which reads the clock between steps.
        let ended = sub.run(&mut trial, &mut guide, None, &mut chain, None);
        debug_assert_eq!(ended, Ended::Contradiction, "{}", self.scheme);
        let mut chain = cut(self.puzzle, &start, chain, self.base);
        // The trial's own placement is a supposition, not a naked single of the puzzle: the
        // cell still has its other candidates outside the trial.
        for step in &mut chain {
            if step.reason == (Reason::NakedSingle { cell, value }) {
                step.name = "supposition".into();
                step.text = supposition(shape, cell, value, &step.removed);
            }
        }
        chain
    }
}

/// Keeps only `value` in `cell`.
fn restrict(d: &mut Domains, cell: usize, value: usize) {
    let others: Vec<usize> = d.values(cell).filter(|&v| v != value).collect();
    for v in others {
        d.remove(cell, v);
    }
}

/// The step of `reason` on the store `before`.
fn deduction(
    puzzle: &Grid,
    reason: Reason,
    removed: Vec<(usize, usize)>,
    before: &Domains,
    base: Scheme,
) -> Deduction {
    let shape = puzzle.shape();
    let kind = reason.kind(shape);
    let (units, cells, values) = reason.parts(puzzle, before);
    let text = sentence(puzzle, &reason, &removed, before, base);
    Deduction {
        kind,
        name: kind.name(reason.size()),
        placed: reason.placements(puzzle),
        reason,
        units,
        cells,
        values,
        removed,
        text,
    }
}

/// A chain ending in a contradiction, cut to the steps the contradiction needs and replayed
/// from `start` (each kept step removes all its reason implies there).
fn cut(puzzle: &Grid, start: &Domains, chain: Vec<Deduction>, base: Scheme) -> Vec<Deduction> {
    let shape = puzzle.shape();
    let n = shape.order();
    let Some(last) = chain.last() else {
        return chain;
    };
    let mut needed = vec![false; shape.cells() * n];
    let mut keep = vec![false; chain.len()];
    keep[chain.len() - 1] = true;
    for (c, v) in last.reason.needs(shape) {
        needed[c * n + v] = true;
    }
    for i in (0..chain.len() - 1).rev() {
        if chain[i].removed.iter().any(|&(c, v)| needed[c * n + v]) {
            keep[i] = true;
            for (c, v) in chain[i].reason.needs(shape) {
                needed[c * n + v] = true;
            }
        }
    }
    let mut d = start.clone();
    let mut out = Vec::new();
    for (step, _) in chain.into_iter().zip(keep).filter(|(_, k)| *k) {
        let removed = step.reason.consequences(puzzle, &d);
        if removed.is_empty() && !step.reason.is_contradiction() {
            continue;
        }
        let step = deduction(puzzle, step.reason, removed, &d, base);
        for &(c, v) in &step.removed {
            d.remove(c, v);
        }
        out.push(step);
    }
    out
}
