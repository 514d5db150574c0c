//! The propagation of one scheme told step by step, as a human solver would: which rule, in
//! which unit, removes which candidates, and why.
//!
//! [`explain`] runs a [`Scheme`] to its fixpoint with the engine's trace on ([`super::trace`])
//! and turns each recorded event into one or more [`Deduction`]s:
//! - a fixed cell forwarded is a **naked single** (its value leaves its peers);
//! - a value placed by channeling is a **hidden single** (the only place of a value in a unit);
//! - a unit's range exhaustion (`BC`, `BCI`) or matching (`HAC`) removes values because of
//!   **Hall sets**: k cells of the unit that hold only k values between them (a naked pair,
//!   triple, ...) or k values that fit only in k cells (a hidden pair, ...); each removal is
//!   given the smallest such set ([`super::reasons`]), and one deduction per set;
//! - the `S` constraint is **locked candidates** (a value of a box confined to one row or
//!   column, or the reverse); `C` is a **fish** (an X-wing for two rows, a swordfish for three:
//!   the value's places in k rows lie in k columns, so it leaves the rest of those columns); `3`
//!   is the same on the rows and boxes of a band (or columns and boxes of a stack);
//! - shaving is a **probe**: a value whose trial fails under the base scheme is removed.
//!
//! The explanation ends where the fixpoint does: the grid solved without search, or the
//! candidates left where a search would start, or a contradiction (no solution).
//! [`Explanation::frames`] replays the removals to give the candidates before each step.
//!
//! # Complexity
//! The traced fixpoint costs O(n²·⌈n/64⌉) more per propagator step than the plain one; the
//! reasons O(n³) per matching step. For teaching-size grids.
//!
//! # Examples
//! ```
//! use sudokit::propagate::explain::{Kind, explain};
//! use sudokit::propagate::Scheme;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("12.434.221.34321", None).unwrap();
//! let story = explain(&puzzle, Scheme::FC);
//! assert!(story.solution().is_some());
//! assert!(story.steps.iter().all(|s| s.kind == Kind::NakedSingle));
//! assert!(story.steps[0].text.starts_with("3 of the givens leave their rows, columns and boxes"));
//! assert_eq!(story.steps[0].name, "givens");
//! ```

mod steps;
mod words;

use super::trace::Rule;
use super::{Domains, Propagator, Scheme};
use crate::grid::Grid;
use crate::shape::Shape;
use steps::deductions;
pub use words::cell_name;

/// What kind of deduction a step is (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A cell with one candidate: its value leaves the peers.
    NakedSingle,
    /// The one place of a value in a unit.
    HiddenSingle,
    /// k cells of a unit holding only k values (a naked pair, triple, ...).
    NakedSet,
    /// k values of a unit fitting only in k cells (a hidden pair, triple, ...).
    HiddenSet,
    /// A value of a box confined to a row or column, or of a row or column to a box.
    LockedCandidates,
    /// A value's places in k rows (columns) lying in k columns (rows): X-wing, swordfish, ...
    Fish,
    /// The same on the rows (columns) and boxes of a band (stack).
    BandFish,
    /// A trial that fails under the base scheme.
    Probe,
    /// A removal no smaller reason was found for (the propagator's own step).
    Filter,
    /// A cell or a value of a unit with no candidate left.
    Contradiction,
}

impl Kind {
    /// The name a solver would use, with the set size where it matters ("naked pair").
    pub fn name(self, size: usize) -> String {
        let sizes = ["single", "pair", "triple", "quad"];
        let named = |prefix: &str| match sizes.get(size.wrapping_sub(1)) {
            Some(word) => format!("{prefix} {word}"),
            None => format!("{prefix} set of {size}"),
        };
        match self {
            Kind::NakedSingle => "naked single".into(),
            Kind::HiddenSingle => "hidden single".into(),
            Kind::NakedSet => named("naked"),
            Kind::HiddenSet => named("hidden"),
            Kind::LockedCandidates => "locked candidates".into(),
            Kind::Fish => match size {
                1 => "single row (colored matrix)".into(),
                2 => "X-wing".into(),
                3 => "swordfish".into(),
                4 => "jellyfish".into(),
                _ => format!("fish of size {size}"),
            },
            Kind::BandFish => "rows and boxes of a band".into(),
            Kind::Probe => "shaving probe".into(),
            Kind::Filter => "filter".into(),
            Kind::Contradiction => "contradiction".into(),
        }
    }
}

/// One step of an explanation. Cells, units and values are 0-based indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    /// What kind of deduction.
    pub kind: Kind,
    /// Its display name ("naked pair", "X-wing").
    pub name: String,
    /// The propagator step it comes from.
    pub rule: Rule,
    /// The units the step works in (to highlight).
    pub units: Vec<usize>,
    /// The cells of the reason (the fixed cell, the Hall set, the fish's cells, ...).
    pub cells: Vec<usize>,
    /// The values of the reason.
    pub values: Vec<usize>,
    /// The candidates removed, `(cell, value)`.
    pub removed: Vec<(usize, usize)>,
    /// Cells the step leaves with one candidate, `(cell, value)`.
    pub placed: Vec<(usize, usize)>,
    /// The step in one sentence, 1-based.
    pub text: String,
}

impl Deduction {
    /// The step as a JSON object, cells and values 1-based: `step` (the number given),
    /// `kind`, `name`, `units` ("row 3"), `cells` (`[row, column]`), `values`, `removed` and
    /// `placed` (`[row, column, value]`), `text`.
    pub fn to_json(&self, shape: Shape, step: usize) -> serde_json::Value {
        let cell = |c: usize| serde_json::json!([shape.row_of(c) + 1, shape.col_of(c) + 1]);
        let triple = |&(c, v): &(usize, usize)| {
            serde_json::json!([shape.row_of(c) + 1, shape.col_of(c) + 1, v + 1])
        };
        serde_json::json!({
            "step": step,
            "kind": self.kind,
            "name": self.name,
            "units": self.units.iter().map(|&u| shape.unit(u).to_string()).collect::<Vec<_>>(),
            "cells": self.cells.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
            "values": self.values.iter().map(|v| v + 1).collect::<Vec<_>>(),
            "removed": self.removed.iter().map(triple).collect::<Vec<_>>(),
            "placed": self.placed.iter().map(triple).collect::<Vec<_>>(),
            "text": self.text,
        })
    }
}

/// Where the fixpoint ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Every cell has one candidate: the solution, verified.
    Solved(Grid),
    /// The fixpoint leaves open cells: a search would start here.
    Stuck {
        /// Cells with more than one candidate.
        open_cells: usize,
        /// Candidates left in all cells.
        candidates: usize,
    },
    /// A cell, or a value of a unit, lost its last candidate: no solution.
    Contradiction,
}

/// The whole story of one fixpoint.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The puzzle.
    pub puzzle: Grid,
    /// The scheme.
    pub scheme: Scheme,
    /// The steps, in order.
    pub steps: Vec<Deduction>,
    /// How it ended.
    pub ending: Ending,
}

impl Explanation {
    /// One sentence on how the fixpoint ended: solved (and in how many steps), where a search
    /// would start, or a contradiction.
    pub fn ending_text(&self) -> String {
        let steps = self.steps.len();
        match &self.ending {
            Ending::Solved(_) => {
                format!(
                    "{} solves the puzzle without search in {steps} steps",
                    self.scheme
                )
            }
            Ending::Stuck {
                open_cells,
                candidates,
            } => format!(
                "{} stops after {steps} steps with {open_cells} open cells ({candidates} \
                 candidates left): a search would start here",
                self.scheme
            ),
            Ending::Contradiction => format!(
                "{} reaches a contradiction after {steps} steps: the puzzle has no solution",
                self.scheme
            ),
        }
    }

    /// The verified solution, when the scheme solved the puzzle without search.
    pub fn solution(&self) -> Option<&Grid> {
        match &self.ending {
            Ending::Solved(grid) => Some(grid),
            _ => None,
        }
    }

    /// Calls `frame` with each step and the candidates just before it, then once with `None`
    /// and the final candidates.
    pub fn frames(&self, mut frame: impl FnMut(Option<&Deduction>, &Domains)) {
        let mut d = Domains::from_puzzle(&self.puzzle);
        for step in &self.steps {
            frame(Some(step), &d);
            for &(cell, v) in &step.removed {
                d.remove(cell, v);
            }
        }
        frame(None, &d);
    }
}

/// Runs `scheme` on `puzzle` with the trace on and explains every step; see the module docs.
pub fn explain(puzzle: &Grid, scheme: Scheme) -> Explanation {
    let shape = puzzle.shape();
    let mut d = Domains::from_puzzle(puzzle);
    let mut engine = Propagator::new(shape);
    engine.set_tracing(true);
    let result = engine.propagate(&mut d, scheme);
    let events = engine.take_events();
    let mut store = Domains::from_puzzle(puzzle);
    let mut steps = Vec::new();
    for event in &events {
        steps.extend(deductions(puzzle, &store, event, scheme));
        for &(cell, v) in &event.removed {
            store.remove(cell, v);
        }
    }
    let steps = merge_givens(shape, steps, puzzle.filled());
    let ending = match result {
        Err(_) => Ending::Contradiction,
        Ok(()) => match d.to_grid() {
            Some(grid) if crate::verify::verify(puzzle, &grid).is_ok() => Ending::Solved(grid),
            Some(_) => Ending::Contradiction,
            None => Ending::Stuck {
                open_cells: (0..shape.cells()).filter(|&c| d.count(c) > 1).count(),
                candidates: d.total(),
            },
        },
    };
    Explanation {
        puzzle: puzzle.clone(),
        scheme,
        steps,
        ending,
    }
}

/// Runs of consecutive givens forwarded become one step: "the givens leave their units".
fn merge_givens(shape: Shape, steps: Vec<Deduction>, givens: usize) -> Vec<Deduction> {
    let mut out: Vec<Deduction> = Vec::with_capacity(steps.len());
    for step in steps {
        let is_given = step.kind == Kind::NakedSingle && step.name == "given";
        match out.last_mut() {
            Some(last) if is_given && last.name == "givens" => {
                last.cells.extend(step.cells);
                last.values.extend(step.values);
                last.removed.extend(step.removed);
                last.placed.extend(step.placed);
            }
            _ if is_given => out.push(Deduction {
                name: "givens".into(),
                units: Vec::new(),
                ..step
            }),
            _ => out.push(step),
        }
    }
    for step in out.iter_mut().filter(|s| s.name == "givens") {
        step.removed.sort_unstable();
        let units = if shape.is_latin() {
            "rows and columns"
        } else {
            "rows, columns and boxes"
        };
        let k = step.cells.len();
        step.text = match k {
            1 => format!("A given leaves its {units}"),
            _ if k == givens => format!("The {k} givens leave their {units}"),
            _ => format!("{k} of the givens leave their {units}"),
        } + &format!(": {} candidates removed", step.removed.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn hidden_singles_and_an_xwing() {
        let text = include_str!("../../../models/sudoku/9x9/hidden_singles.txt");
        let puzzle = parse_line(text.lines().next().unwrap(), None).unwrap();
        let story = explain(&puzzle, Scheme::FCI);
        assert!(story.solution().is_some());
        assert!(story.steps.iter().any(|s| s.kind == Kind::HiddenSingle));
        // Replaying every removal reaches the solution.
        let mut last = None;
        story.frames(|step, d| {
            if step.is_none() {
                last = d.to_grid();
            }
        });
        assert_eq!(last.as_ref(), story.solution());
        let text = include_str!("../../../models/sudoku/9x9/xwing.txt");
        let puzzle = parse_line(text.lines().next().unwrap(), None).unwrap();
        let story = explain(&puzzle, Scheme::HACC);
        assert!(story.solution().is_some());
        assert!(
            story.steps.iter().any(|s| s.name == "X-wing"),
            "{:#?}",
            story.steps
        );
        assert!(matches!(
            explain(&puzzle, Scheme::HAC).ending,
            Ending::Stuck { .. }
        ));
    }
}
