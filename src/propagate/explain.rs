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

use super::reasons::{Side, tight_sets};
use super::trace::{Event, Rule};
use super::{Domains, Propagator, Scheme};
use crate::grid::Grid;
use crate::shape::Shape;

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

/// "(3,5)", 1-based.
pub fn cell_name(shape: Shape, cell: usize) -> String {
    format!("({},{})", shape.row_of(cell) + 1, shape.col_of(cell) + 1)
}

/// A list of 1-based values: "3, 8".
fn values_text(values: impl IntoIterator<Item = usize>) -> String {
    let words: Vec<String> = values.into_iter().map(|v| (v + 1).to_string()).collect();
    words.join(", ")
}

/// "1, 2 and 3".
fn and_list(words: impl IntoIterator<Item = String>) -> String {
    let words: Vec<String> = words.into_iter().collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

fn cells_text(shape: Shape, cells: &[usize]) -> String {
    let words: Vec<String> = cells.iter().map(|&c| cell_name(shape, c)).collect();
    words.join(", ")
}

/// "removes 4 from (3,1), (3,8); 2 from (5,5)": the removals grouped by value, or by cell
/// ("removes 2, 6 from (7,5)") when that takes fewer groups.
fn removals_text(shape: Shape, removed: &[(usize, usize)]) -> String {
    let mut values: Vec<usize> = removed.iter().map(|r| r.1).collect();
    values.sort_unstable();
    values.dedup();
    let mut cells: Vec<usize> = removed.iter().map(|r| r.0).collect();
    cells.sort_unstable();
    cells.dedup();
    let parts: Vec<String> = if cells.len() < values.len() {
        cells
            .iter()
            .map(|&c| {
                let of_cell = removed.iter().filter(|r| r.0 == c).map(|r| r.1);
                format!("{} from {}", values_text(of_cell), cell_name(shape, c))
            })
            .collect()
    } else {
        values
            .iter()
            .map(|&v| {
                let of_value: Vec<usize> =
                    removed.iter().filter(|r| r.1 == v).map(|r| r.0).collect();
                format!("{} from {}", v + 1, cells_text(shape, &of_value))
            })
            .collect()
    };
    format!("removes {}", parts.join("; "))
}

/// The deductions of one event, given the store before it.
fn deductions(puzzle: &Grid, before: &Domains, event: &Event, scheme: Scheme) -> Vec<Deduction> {
    let shape = puzzle.shape();
    let base = |kind: Kind, name: String, units: Vec<usize>| Deduction {
        kind,
        name,
        rule: event.rule,
        units,
        cells: Vec::new(),
        values: Vec::new(),
        removed: event.removed.clone(),
        placed: Vec::new(),
        text: String::new(),
    };
    let unit_name = |u: usize| shape.unit(u).to_string();
    let mut out = if event.failed {
        let units = match event.rule {
            Rule::Channeling { unit }
            | Rule::RangeExhaustion { unit }
            | Rule::DualExhaustion { unit }
            | Rule::Matching { unit } => vec![unit],
            Rule::Same { line, boxed } => vec![line, boxed],
            _ => Vec::new(),
        };
        let mut step = base(
            Kind::Contradiction,
            Kind::Contradiction.name(0),
            units.clone(),
        );
        step.text = contradiction_text(shape, before, event, &units);
        vec![step]
    } else {
        match event.rule {
            Rule::NakedSingle { cell, value } => {
                let given = puzzle.get(cell).is_some();
                let name = if given {
                    "given".into()
                } else {
                    Kind::NakedSingle.name(1)
                };
                let units = shape.units_of(cell).map(|u| u.index(shape.order()));
                let mut step = base(Kind::NakedSingle, name, units.collect());
                step.cells = vec![cell];
                step.values = vec![value];
                let peers = if shape.is_latin() {
                    "row and column"
                } else {
                    "row, column and box"
                };
                let removals = removals_text(shape, &event.removed);
                step.text = if given {
                    format!(
                        "The given {} in {} leaves the cell's {peers} ({removals})",
                        value + 1,
                        cell_name(shape, cell)
                    )
                } else {
                    format!(
                        "{} has one candidate left, {}: it leaves the cell's {peers} ({removals})",
                        cell_name(shape, cell),
                        value + 1
                    )
                };
                vec![step]
            }
            Rule::HiddenSingle { unit, value, cell } => {
                let mut step = base(Kind::HiddenSingle, Kind::HiddenSingle.name(1), vec![unit]);
                step.cells = vec![cell];
                step.values = vec![value];
                step.text = format!(
                    "In {}, {} fits only in {}: {} = {} ({})",
                    unit_name(unit),
                    value + 1,
                    cell_name(shape, cell),
                    cell_name(shape, cell),
                    value + 1,
                    removals_text(shape, &event.removed)
                );
                vec![step]
            }
            Rule::RangeExhaustion { unit }
            | Rule::DualExhaustion { unit }
            | Rule::Matching { unit } => unit_sets(shape, before, event, unit, base),
            Rule::Same { line, boxed } => vec![locked(shape, before, event, line, boxed, base)],
            Rule::Colored { value } => fish(shape, before, event, value, base),
            Rule::RowsBoxes { value, band, group } => {
                band_fish(shape, before, event, value, band, group, base)
            }
            Rule::Shave { cell, value } => {
                let mut step = base(Kind::Probe, Kind::Probe.name(1), Vec::new());
                step.cells = vec![cell];
                step.values = vec![value];
                step.text = format!(
                    "Trying {} in {}: {} reaches a contradiction, so {} is not a candidate there",
                    value + 1,
                    cell_name(shape, cell),
                    scheme.without_shaving(),
                    value + 1
                );
                vec![step]
            }
            Rule::Channeling { .. } => Vec::new(),
        }
    };
    // The cells each deduction leaves with one candidate.
    let mut now = before.clone();
    for step in &mut out {
        for &(cell, v) in &step.removed {
            now.remove(cell, v);
        }
        let mut cells: Vec<usize> = step.removed.iter().map(|r| r.0).collect();
        cells.dedup();
        step.placed = cells
            .into_iter()
            .filter_map(|c| now.value(c).map(|v| (c, v)))
            .collect();
    }
    out
}

/// What ran out: the first cell left without a candidate, else the first value of a unit left
/// without a place (in the step's units first).
fn contradiction_text(shape: Shape, before: &Domains, event: &Event, units: &[usize]) -> String {
    let mut after = before.clone();
    for &(cell, v) in &event.removed {
        after.remove(cell, v);
    }
    let cause = match (0..shape.cells()).find(|&c| after.count(c) == 0) {
        Some(cell) => Some(format!("{} has no candidate left", cell_name(shape, cell))),
        None => units
            .iter()
            .copied()
            .chain(0..shape.unit_count())
            .find_map(|u| {
                let unit = shape.unit(u);
                (0..shape.order())
                    .find(|&v| shape.unit_cells(unit).all(|c| !after.contains(c, v)))
                    .map(|v| format!("in {unit}, {} has no place left", v + 1))
            }),
    };
    let cause = cause.unwrap_or_else(|| "a cell or a value has no candidate left".into());
    match (event.rule, event.removed.is_empty()) {
        (Rule::NakedSingle { cell, value }, false) => format!(
            "{} has one candidate left, {}, which {}: {cause}",
            cell_name(shape, cell),
            value + 1,
            removals_text(shape, &event.removed)
        ),
        (_, false) => format!(
            "Contradiction: {cause} (the step {})",
            removals_text(shape, &event.removed)
        ),
        (_, true) => format!("Contradiction: {cause}"),
    }
}

type Base<'a> = &'a dyn Fn(Kind, String, Vec<usize>) -> Deduction;

/// A unit's removals as Hall sets of cells or of values.
fn unit_sets(
    shape: Shape,
    before: &Domains,
    event: &Event,
    unit: usize,
    base: impl Fn(Kind, String, Vec<usize>) -> Deduction,
) -> Vec<Deduction> {
    let cells: Vec<usize> = shape.unit_cells(shape.unit(unit)).collect();
    let adj: Vec<Vec<usize>> = cells.iter().map(|&c| before.values(c).collect()).collect();
    let position = |cell: usize| cells.iter().position(|&c| c == cell).unwrap_or(0);
    let removed: Vec<(usize, usize)> = event
        .removed
        .iter()
        .map(|&(c, v)| (position(c), v))
        .collect();
    let unit_name = shape.unit(unit).to_string();
    let Some(sets) = tight_sets(&adj, &removed) else {
        return vec![filter_step(shape, event, vec![unit], &base)];
    };
    sets.into_iter()
        .map(|set| {
            let kind = match set.side {
                Side::Left => Kind::NakedSet,
                Side::Right => Kind::HiddenSet,
            };
            let mut step = base(kind, kind.name(set.size()), vec![unit]);
            step.cells = set.left.iter().map(|&i| cells[i]).collect();
            step.values = set.right.clone();
            step.removed = set.removed.iter().map(|&(i, v)| (cells[i], v)).collect();
            let (set_cells, set_values) = (
                cells_text(shape, &step.cells),
                values_text(set.right.iter().copied()),
            );
            step.text = match set.side {
                Side::Left => format!(
                    "In {unit_name}, the {} cell{} {set_cells} hold{} only {set_values}: \
                     these values leave the unit's other cells ({})",
                    set.size(),
                    if set.size() == 1 { "" } else { "s" },
                    if set.size() == 1 { "s" } else { "" },
                    removals_text(shape, &step.removed)
                ),
                Side::Right if set.size() == 1 => format!(
                    "In {unit_name}, {set_values} fits only in {set_cells}: {set_cells} = \
                     {set_values} ({})",
                    removals_text(shape, &step.removed)
                ),
                Side::Right => format!(
                    "In {unit_name}, {set_values} fit only in {set_cells}: those cells keep only \
                     these values ({})",
                    removals_text(shape, &step.removed)
                ),
            };
            step
        })
        .collect()
}

/// A step with the propagator's removals and no smaller reason.
fn filter_step(shape: Shape, event: &Event, units: Vec<usize>, base: Base<'_>) -> Deduction {
    let mut step = base(Kind::Filter, Kind::Filter.name(0), units);
    step.text = format!(
        "The {:?} filter {}",
        event.rule,
        removals_text(shape, &event.removed)
    );
    step
}

/// Locked candidates: one side of the crossing of `line` and box `boxed`.
fn locked(
    shape: Shape,
    before: &Domains,
    event: &Event,
    line: usize,
    boxed: usize,
    base: impl Fn(Kind, String, Vec<usize>) -> Deduction,
) -> Deduction {
    let mut step = base(
        Kind::LockedCandidates,
        Kind::LockedCandidates.name(0),
        vec![line, boxed],
    );
    let line_cells: Vec<usize> = shape.unit_cells(shape.unit(line)).collect();
    let box_cells: Vec<usize> = shape.unit_cells(shape.unit(boxed)).collect();
    step.cells = line_cells
        .iter()
        .copied()
        .filter(|c| box_cells.contains(c))
        .collect();
    let mut values: Vec<usize> = event.removed.iter().map(|r| r.1).collect();
    values.sort_unstable();
    values.dedup();
    step.values = values.clone();
    let _ = before;
    let from_line = event.removed.iter().all(|r| line_cells.contains(&r.0));
    let (inside, outside) = if from_line {
        (shape.unit(boxed), shape.unit(line))
    } else {
        (shape.unit(line), shape.unit(boxed))
    };
    step.text = format!(
        "In {inside}, {} lie{} only where it crosses {outside}: the rest of {outside} loses {} ({})",
        values_text(values.iter().copied()),
        if values.len() == 1 { "s" } else { "" },
        if values.len() == 1 { "it" } else { "them" },
        removals_text(shape, &event.removed)
    );
    step
}

/// A fish of the colored matrix: rows × columns of one value.
fn fish(
    shape: Shape,
    before: &Domains,
    event: &Event,
    value: usize,
    base: impl Fn(Kind, String, Vec<usize>) -> Deduction,
) -> Vec<Deduction> {
    let n = shape.order();
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|r| {
            (0..n)
                .filter(|&c| before.contains(shape.cell(r, c), value))
                .collect()
        })
        .collect();
    let removed: Vec<(usize, usize)> = event
        .removed
        .iter()
        .map(|&(cell, _)| (shape.row_of(cell), shape.col_of(cell)))
        .collect();
    let Some(sets) = tight_sets(&adj, &removed) else {
        return vec![filter_step(shape, event, Vec::new(), &base)];
    };
    sets.into_iter()
        .map(|set| {
            let (lines, across, line_word, across_word, line_unit, across_unit) = match set.side {
                Side::Left => (&set.left, &set.right, "row", "column", 0, n),
                Side::Right => (&set.right, &set.left, "column", "row", n, 0),
            };
            let units = lines
                .iter()
                .map(|&i| line_unit + i)
                .chain(across.iter().map(|&j| across_unit + j))
                .collect();
            let mut step = base(Kind::Fish, Kind::Fish.name(set.size()), units);
            step.values = vec![value];
            step.removed = set
                .removed
                .iter()
                .map(|&(r, c)| (shape.cell(r, c), value))
                .collect();
            step.cells = set
                .left
                .iter()
                .flat_map(|&r| set.right.iter().map(move |&c| (r, c)))
                .map(|(r, c)| shape.cell(r, c))
                .filter(|&cell| before.contains(cell, value))
                .collect();
            let plural = |word: &str, k: usize| {
                if k == 1 {
                    word.to_string()
                } else {
                    format!("{word}s")
                }
            };
            step.text = format!(
                "{} on {}: in {} {}, {} lies only in {} {}, so it leaves the other cells of {} \
                 ({})",
                step.name,
                value + 1,
                plural(line_word, lines.len()),
                and_list(lines.iter().map(|i| (i + 1).to_string())),
                value + 1,
                plural(across_word, across.len()),
                and_list(across.iter().map(|i| (i + 1).to_string())),
                if across.len() == 1 {
                    format!("that {across_word}")
                } else {
                    format!("those {across_word}s")
                },
                removals_text(shape, &step.removed)
            );
            step
        })
        .collect()
}

/// The rows × boxes matching of a band (or columns × boxes of a stack) for one value.
fn band_fish(
    shape: Shape,
    before: &Domains,
    event: &Event,
    value: usize,
    band: bool,
    group: usize,
    base: impl Fn(Kind, String, Vec<usize>) -> Deduction,
) -> Vec<Deduction> {
    let n = shape.order();
    let (p, q) = (shape.box_rows(), shape.box_cols());
    let (lines, depth) = if band { (p, q) } else { (q, p) };
    let cell_at = |i: usize, j: usize, t: usize| {
        if band {
            shape.cell(group * p + i, j * q + t)
        } else {
            shape.cell(j * p + t, group * q + i)
        }
    };
    let adj: Vec<Vec<usize>> = (0..lines)
        .map(|i| {
            (0..lines)
                .filter(|&j| (0..depth).any(|t| before.contains(cell_at(i, j, t), value)))
                .collect()
        })
        .collect();
    let mut removed: Vec<(usize, usize)> = Vec::new();
    for &(cell, _) in &event.removed {
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        let (i, j) = if band { (r % p, c / q) } else { (c % q, r / p) };
        if !removed.contains(&(i, j)) {
            removed.push((i, j));
        }
    }
    let box_unit = |j: usize| {
        let b = if band {
            group * (n / q) + j
        } else {
            j * (n / q) + group
        };
        2 * n + b
    };
    let line_unit = |i: usize| {
        if band {
            group * p + i
        } else {
            n + group * q + i
        }
    };
    let (word, group_word) = if band {
        ("row", "band")
    } else {
        ("column", "stack")
    };
    let Some(sets) = tight_sets(&adj, &removed) else {
        return vec![filter_step(shape, event, Vec::new(), &base)];
    };
    sets.into_iter()
        .map(|set| {
            let units = set
                .left
                .iter()
                .map(|&i| line_unit(i))
                .chain(set.right.iter().map(|&j| box_unit(j)))
                .collect();
            let mut step = base(Kind::BandFish, Kind::BandFish.name(set.size()), units);
            step.values = vec![value];
            step.removed = event
                .removed
                .iter()
                .copied()
                .filter(|&(cell, _)| {
                    let (r, c) = (shape.row_of(cell), shape.col_of(cell));
                    let (i, j) = if band { (r % p, c / q) } else { (c % q, r / p) };
                    set.removed.contains(&(i, j))
                })
                .collect();
            let line_names: Vec<String> = set
                .left
                .iter()
                .map(|&i| shape.unit(line_unit(i)).to_string())
                .collect();
            let box_names: Vec<String> = set
                .right
                .iter()
                .map(|&j| shape.unit(box_unit(j)).to_string())
                .collect();
            step.text = format!(
                "In {group_word} {}, {} can hold {} only inside {}: {} leaves the other {word}s \
                 of {} ({})",
                group + 1,
                line_names.join(" and "),
                value + 1,
                box_names.join(" and "),
                value + 1,
                if box_names.len() == 1 {
                    "that box"
                } else {
                    "those boxes"
                },
                removals_text(shape, &step.removed)
            );
            step
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn hidden_singles_and_an_xwing() {
        let text = include_str!("../../models/sudoku/9x9/hidden_singles.txt");
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
        let text = include_str!("../../models/sudoku/9x9/xwing.txt");
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
