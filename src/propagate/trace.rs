//! An optional record of what the propagators deduce, step by step: the raw material of
//! [`super::explain`] (and of `sudokit explain`).
//!
//! With tracing on ([`Propagator::set_tracing`]), the engine records one [`Event`] per
//! propagator step that removed a candidate or failed: the [`Rule`] that ran (a fixed cell
//! forwarded, a value placed by channeling, one unit's range exhaustion or matching, one
//! crossing of the `S` constraint, one value of `C` or of `3`, a shaving probe) and the exact
//! candidates it removed, found by comparing the store before and after the step. Read the
//! events with [`Propagator::take_events`]. Replaying the removals in order from the start store
//! rebuilds every intermediate store: each removal belongs to exactly one event.
//!
//! **Cost when off.** The fixpoint loop is compiled twice (a `const TRACE: bool` parameter):
//! the engine tests once per call whether the trace is on and runs the traced instance only
//! then, so the untraced instance has no test at step boundaries at all; the traced
//! group of `cargo bench --bench propagate` and `examples/fixpoint_run.rs` (instruction counts
//! under callgrind) measure the cost with and without the hook. Shaving probes run
//! untraced (they work on a scratch store); the probe that fails is recorded as one
//! [`Rule::Shave`] event.
//!
//! # Complexity
//! Off: O(1) per fixpoint. On: O(n²·⌈n/64⌉) per step (a copy and a comparison of the store).
//!
//! # Examples
//! ```
//! use sudokit::propagate::trace::Rule;
//! use sudokit::propagate::{Domains, Propagator, Scheme};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("12.434.221.34321", None).unwrap();
//! let mut domains = Domains::from_puzzle(&puzzle);
//! let mut engine = Propagator::new(puzzle.shape());
//! engine.set_tracing(true);
//! engine.propagate(&mut domains, Scheme::FC).unwrap();
//! let events = engine.take_events();
//! assert!(events.iter().all(|e| matches!(e.rule, Rule::NakedSingle { .. })));
//! let removed: usize = events.iter().map(|e| e.removed.len()).sum();
//! assert_eq!(removed, 3 * 3); // the 3 empty cells keep only their solution's value
//! ```

use super::{Domains, Propagator};

/// The propagator step behind an [`Event`]. Cells, units and values are 0-based indices (units
/// in [`crate::Shape::units`] order: rows, columns, boxes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Rule {
    /// Forward checking: `cell` has the single candidate `value`, which leaves its peers.
    NakedSingle {
        /// The fixed cell.
        cell: usize,
        /// Its value.
        value: usize,
    },
    /// Channeling: in `unit`, `value` has one place left, `cell`, which keeps only `value`.
    HiddenSingle {
        /// The unit.
        unit: usize,
        /// The value.
        value: usize,
        /// Its only place.
        cell: usize,
    },
    /// Channeling on `unit` found a value with no place left (a failure; the values it places
    /// are recorded as [`Rule::HiddenSingle`] events, one per place).
    Channeling {
        /// The unit.
        unit: usize,
    },
    /// `BC`: range exhaustion on the cells of `unit`.
    RangeExhaustion {
        /// The unit.
        unit: usize,
    },
    /// `BCI`: range exhaustion on the positions of the values of `unit`.
    DualExhaustion {
        /// The unit.
        unit: usize,
    },
    /// `HAC`: Régin's matching filter on `unit`.
    Matching {
        /// The unit.
        unit: usize,
    },
    /// `S`: where the row or column `line` crosses the box `boxed` (both unit indices).
    Same {
        /// The row or column.
        line: usize,
        /// The box.
        boxed: usize,
    },
    /// `C`: the rows × columns matching of `value`.
    Colored {
        /// The value.
        value: usize,
    },
    /// `3`: the rows × boxes matching of `value` in band `group` (`band`), or the columns ×
    /// boxes matching in stack `group`.
    RowsBoxes {
        /// The value.
        value: usize,
        /// A band (rows) or a stack (columns).
        band: bool,
        /// Which band or stack.
        group: usize,
    },
    /// Shaving: `value` in `cell` fails under the base scheme, so it is removed.
    Shave {
        /// The probed cell.
        cell: usize,
        /// The refuted value.
        value: usize,
    },
}

/// One recorded step: the rule, what it removed, and whether it ended in a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The step.
    pub rule: Rule,
    /// The candidates removed, `(cell, value)`, in cell then value order.
    pub removed: Vec<(usize, usize)>,
    /// The step found a cell, or a value of a unit, with no candidate left.
    pub failed: bool,
}

/// The trace of one engine: the store before the current step and the events so far.
#[derive(Debug, Clone)]
pub(super) struct TraceState {
    before: Option<Domains>,
    events: Vec<Event>,
}

impl Propagator {
    /// Turns the trace on (keeping no earlier events) or off.
    pub fn set_tracing(&mut self, on: bool) {
        self.trace = on.then(|| {
            Box::new(TraceState {
                before: None,
                events: Vec::new(),
            })
        });
    }

    /// The events recorded since tracing was turned on or the last call (empty when off).
    pub fn take_events(&mut self) -> Vec<Event> {
        self.trace
            .as_deref_mut()
            .map(|t| std::mem::take(&mut t.events))
            .unwrap_or_default()
    }

    /// Runs one propagator step `f` on `d`; in the traced instance of the fixpoint loop
    /// (`TRACE`), records what it removed (and whether it failed) under the rule `rule` names.
    /// The untraced instance is the bare call.
    #[inline(always)]
    pub(super) fn step<const TRACE: bool, T>(
        &mut self,
        d: &mut Domains,
        rule: impl FnOnce(&Domains) -> Rule,
        f: impl FnOnce(&mut Propagator, &mut Domains) -> Result<T, super::Failure>,
    ) -> Result<T, super::Failure> {
        if !TRACE {
            return f(self, d);
        }
        self.traced_step(d, rule, f)
    }

    #[cold]
    #[inline(never)]
    fn traced_step<T>(
        &mut self,
        d: &mut Domains,
        rule: impl FnOnce(&Domains) -> Rule,
        f: impl FnOnce(&mut Propagator, &mut Domains) -> Result<T, super::Failure>,
    ) -> Result<T, super::Failure> {
        if let Some(t) = self.trace.as_deref_mut() {
            t.begin(d);
        }
        let result = f(self, d);
        let rule = rule(d);
        if let Some(t) = self.trace.as_deref_mut() {
            t.end(d, rule, result.is_err());
        }
        result
    }

    /// Records a step whose removals are known (a failed shaving probe), when tracing.
    #[inline(always)]
    pub(super) fn trace_event(&mut self, rule: Rule, removed: &[(usize, usize)]) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.events.push(Event {
                rule,
                removed: removed.to_vec(),
                failed: false,
            });
        }
    }

    /// Runs `f` with tracing suspended (shaving probes on a scratch store).
    #[inline(always)]
    pub(super) fn untraced<T>(&mut self, f: impl FnOnce(&mut Propagator) -> T) -> T {
        if self.trace.is_none() {
            return f(self);
        }
        let saved = self.trace.take();
        let out = f(self);
        self.trace = saved;
        out
    }
}

impl TraceState {
    fn begin(&mut self, d: &Domains) {
        match &mut self.before {
            Some(before) if before.shape() == d.shape() => before.copy_from(d),
            slot => *slot = Some(d.clone()),
        }
    }

    fn end(&mut self, d: &Domains, rule: Rule, failed: bool) {
        let Some(before) = &self.before else {
            return;
        };
        let mut removed = Vec::new();
        for cell in 0..d.shape().cells() {
            if before.cell_words(cell) != d.cell_words(cell) {
                removed.extend(
                    before
                        .values(cell)
                        .filter(|&v| !d.contains(cell, v))
                        .map(|v| (cell, v)),
                );
            }
        }
        if removed.is_empty() && !failed {
            return;
        }
        // Channeling places several values of one unit in one revision: one event per place.
        if let (Rule::Channeling { unit }, false) = (rule, failed) {
            let mut start = 0;
            while start < removed.len() {
                let cell = removed[start].0;
                let end = start + removed[start..].iter().take_while(|r| r.0 == cell).count();
                let value = d.min(cell).unwrap_or(0);
                self.events.push(Event {
                    rule: Rule::HiddenSingle { unit, value, cell },
                    removed: removed[start..end].to_vec(),
                    failed: false,
                });
                start = end;
            }
            return;
        }
        self.events.push(Event {
            rule,
            removed,
            failed,
        });
    }
}
