//! One step of an explanation: the rule with its witnesses ([`Reason`]), what it removes, and
//! what the rule means on a candidate store — the removals it implies ([`Reason::consequences`])
//! and the absent candidates it relies on ([`Reason::needs`], used to cut a probe's chain down
//! to the steps its contradiction needs).
//!
//! Every rule is a consequence of "each unit holds each value exactly once":
//! - a **naked set** (`k` cells of a unit whose candidates lie among `k` values) takes those
//!   values, so they leave the unit's other cells; a **hidden set** (`k` values of a unit that
//!   fit only in `k` cells) takes those cells, so they keep only those values; `k = 1` are the
//!   naked and hidden singles, which also send the value out of the cell's other units;
//! - **confinement** ([`Reason::Confined`]): `k` disjoint units of one kind each hold the value
//!   once, and its places there lie inside `k` disjoint units of another kind, which hold it `k`
//!   times in all; so those `k` places are all of them, and the value leaves the rest of the `k`
//!   covering units. `k = 1` with a box and a line is **locked candidates**, rows against
//!   columns an **X-wing** (`k = 2`) or a **swordfish** (`k = 3`), lines against boxes the rows
//!   and boxes of a band;
//! - a **probe** tries a value and reaches a contradiction: the value is in no solution;
//! - a **contradiction** is a Hall violation: a cell with no candidate, `k` cells of a unit with
//!   fewer than `k` values between them, `k` values with fewer than `k` places, or `k` confined
//!   units whose places of a value lie in fewer than `k` covering units.
//!
//! # Complexity
//! [`Reason::consequences`] and [`Reason::needs`] are O(n·|witnesses|).

use crate::grid::Grid;
use crate::propagate::Domains;
use crate::shape::{Shape, UnitKind};

/// What kind of deduction a step is (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// Every given placed at once: their values leave their units.
    Givens,
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
    /// A cell, a set of cells, a value or a set of values with too few candidates: no solution.
    Contradiction,
}

impl StepKind {
    /// The name a solver would use, with the set size where it matters ("naked pair").
    pub fn name(self, size: usize) -> String {
        let sizes = ["single", "pair", "triple", "quad"];
        let named = |prefix: &str| match sizes.get(size.wrapping_sub(1)) {
            Some(word) => format!("{prefix} {word}"),
            None => format!("{prefix} set of {size}"),
        };
        match self {
            StepKind::Givens => "givens".into(),
            StepKind::NakedSingle => "naked single".into(),
            StepKind::HiddenSingle => "hidden single".into(),
            StepKind::NakedSet => named("naked"),
            StepKind::HiddenSet => named("hidden"),
            StepKind::LockedCandidates => "locked candidates".into(),
            StepKind::Fish => match size {
                1 => "single line (colored matrix)".into(),
                2 => "X-wing".into(),
                3 => "swordfish".into(),
                4 => "jellyfish".into(),
                _ => format!("fish of size {size}"),
            },
            StepKind::BandFish => match size {
                1 => "a line and a box of a band".into(),
                _ => format!("{size} lines and {size} boxes of a band"),
            },
            StepKind::Probe => "shaving probe".into(),
            StepKind::Contradiction => "contradiction".into(),
        }
    }
}

/// Why a step removes what it removes: the rule and its witnesses. Cells, units (in
/// [`Shape::units`] order: rows, columns, boxes) and values are 0-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Every given is placed: its value leaves its peers.
    Givens,
    /// `cell` has the single candidate `value`: it is placed, and the value leaves its peers.
    NakedSingle {
        /// The cell.
        cell: usize,
        /// Its value.
        value: usize,
    },
    /// In `unit`, `value` fits only in `cell`: the cell takes it (its other candidates go) and
    /// the value leaves the cell's peers.
    HiddenSingle {
        /// The unit.
        unit: usize,
        /// The value.
        value: usize,
        /// Its only place.
        cell: usize,
    },
    /// In `unit`, the `cells` hold only the `values` (as many): the values leave the unit's
    /// other cells.
    NakedSet {
        /// The unit.
        unit: usize,
        /// The cells (at least two, each open).
        cells: Vec<usize>,
        /// Their values.
        values: Vec<usize>,
    },
    /// In `unit`, the `values` fit only in the `cells` (as many): those cells keep only those
    /// values.
    HiddenSet {
        /// The unit.
        unit: usize,
        /// The values (at least two).
        values: Vec<usize>,
        /// Their places.
        cells: Vec<usize>,
    },
    /// `value`'s places in the `confined` units (disjoint, of one kind) lie inside the `cover`
    /// units (as many, disjoint, of another kind): the value leaves the rest of the cover.
    Confined {
        /// The value.
        value: usize,
        /// The units whose places of the value are confined.
        confined: Vec<usize>,
        /// The units they are confined to.
        cover: Vec<usize>,
    },
    /// Trying `value` in `cell` leads, by `chain`, to a contradiction: the value is removed.
    Probe {
        /// The probed cell.
        cell: usize,
        /// The refuted value.
        value: usize,
        /// The steps from the trial to the contradiction (the last one).
        chain: Vec<Deduction>,
    },
    /// `cell` has no candidate left.
    EmptyCell {
        /// The cell.
        cell: usize,
    },
    /// In `unit`, the `cells` can take only the `values`, fewer than the cells.
    CellsShort {
        /// The unit.
        unit: usize,
        /// The cells.
        cells: Vec<usize>,
        /// Every candidate they have between them.
        values: Vec<usize>,
    },
    /// In `unit`, the `values` fit only in the `cells`, fewer than the values (none: a value
    /// with no place left).
    ValuesShort {
        /// The unit.
        unit: usize,
        /// The values.
        values: Vec<usize>,
        /// Every place they have between them.
        cells: Vec<usize>,
    },
    /// `value`'s places in the `confined` units lie inside fewer `cover` units.
    ConfinedShort {
        /// The value.
        value: usize,
        /// The confined units.
        confined: Vec<usize>,
        /// The units they are confined to, fewer.
        cover: Vec<usize>,
    },
}

/// The kind of a unit index.
pub(super) fn unit_kind(shape: Shape, unit: usize) -> UnitKind {
    shape.unit(unit).kind
}

/// The cells of a unit index.
pub(super) fn cells_of(shape: Shape, unit: usize) -> Vec<usize> {
    shape.unit_cells(shape.unit(unit)).collect()
}

/// Whether `cell` lies in one of `units`.
pub(super) fn in_any(shape: Shape, units: &[usize], cell: usize) -> bool {
    let n = shape.order();
    shape.units_of(cell).any(|u| units.contains(&u.index(n)))
}

impl Reason {
    /// Whether the reason is a contradiction.
    pub fn is_contradiction(&self) -> bool {
        matches!(
            self,
            Reason::EmptyCell { .. }
                | Reason::CellsShort { .. }
                | Reason::ValuesShort { .. }
                | Reason::ConfinedShort { .. }
        )
    }

    /// The kind of step it is.
    pub fn kind(&self, shape: Shape) -> StepKind {
        match self {
            Reason::Givens => StepKind::Givens,
            Reason::NakedSingle { .. } => StepKind::NakedSingle,
            Reason::HiddenSingle { .. } => StepKind::HiddenSingle,
            Reason::NakedSet { .. } => StepKind::NakedSet,
            Reason::HiddenSet { .. } => StepKind::HiddenSet,
            Reason::Confined {
                confined, cover, ..
            } => {
                let boxes = [confined, cover]
                    .iter()
                    .any(|us| us.iter().any(|&u| unit_kind(shape, u) == UnitKind::Box));
                match (boxes, confined.len()) {
                    (false, _) => StepKind::Fish,
                    (true, 1) => StepKind::LockedCandidates,
                    (true, _) => StepKind::BandFish,
                }
            }
            Reason::Probe { .. } => StepKind::Probe,
            _ => StepKind::Contradiction,
        }
    }

    /// The size that names the step (a pair is 2, an X-wing 2).
    pub fn size(&self) -> usize {
        match self {
            Reason::NakedSet { cells, .. } => cells.len(),
            Reason::HiddenSet { values, .. } => values.len(),
            Reason::Confined { confined, .. } => confined.len(),
            _ => 1,
        }
    }

    /// The placements the step makes, `(cell, value)`: every given for [`Reason::Givens`], the
    /// cell of a single, none otherwise.
    pub fn placements(&self, puzzle: &Grid) -> Vec<(usize, usize)> {
        match *self {
            Reason::Givens => puzzle.givens().collect(),
            Reason::NakedSingle { cell, value } | Reason::HiddenSingle { cell, value, .. } => {
                vec![(cell, value)]
            }
            _ => Vec::new(),
        }
    }

    /// Every removal the reason implies in `d` (the candidates still there), in cell then value
    /// order; none for a contradiction.
    pub fn consequences(&self, puzzle: &Grid, d: &Domains) -> Vec<(usize, usize)> {
        let shape = puzzle.shape();
        let mut out: Vec<(usize, usize)> = Vec::new();
        let from_peers = |out: &mut Vec<(usize, usize)>, cell: usize, value: usize| {
            for p in shape.peers(cell) {
                if puzzle.get(p).is_none() && d.contains(p, value) {
                    out.push((p, value));
                }
            }
        };
        match self {
            Reason::Givens => {
                for (cell, value) in puzzle.givens() {
                    from_peers(&mut out, cell, value);
                }
            }
            &Reason::NakedSingle { cell, value } => from_peers(&mut out, cell, value),
            &Reason::HiddenSingle { cell, value, .. } => {
                out.extend(d.values(cell).filter(|&u| u != value).map(|u| (cell, u)));
                from_peers(&mut out, cell, value);
            }
            Reason::NakedSet {
                unit,
                cells,
                values,
            } => {
                for c in cells_of(shape, *unit) {
                    if !cells.contains(&c) {
                        out.extend(
                            values
                                .iter()
                                .filter(|&&v| d.contains(c, v))
                                .map(|&v| (c, v)),
                        );
                    }
                }
            }
            Reason::HiddenSet { values, cells, .. } => {
                for &c in cells {
                    out.extend(d.values(c).filter(|v| !values.contains(v)).map(|v| (c, v)));
                }
            }
            Reason::Confined {
                value,
                confined,
                cover,
            } => {
                for &u in cover {
                    for c in cells_of(shape, u) {
                        if d.contains(c, *value) && !in_any(shape, confined, c) {
                            out.push((c, *value));
                        }
                    }
                }
            }
            &Reason::Probe { cell, value, .. } if d.contains(cell, value) => {
                out.push((cell, value));
            }
            _ => {}
        }
        // A given keeps its value: a rule that would take it is a contradiction, found as one.
        out.retain(|&(c, _)| puzzle.get(c).is_none());
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The candidates whose absence the reason relies on, `(cell, value)` (the trial's and the
    /// givens' aside): what a chain must keep of the steps before it.
    pub fn needs(&self, shape: Shape) -> Vec<(usize, usize)> {
        let n = shape.order();
        let mut out = Vec::new();
        match self {
            Reason::Givens | Reason::Probe { .. } => {}
            &Reason::NakedSingle { cell, value } => {
                out.extend((0..n).filter(|&u| u != value).map(|u| (cell, u)));
            }
            &Reason::HiddenSingle { unit, value, cell } => {
                out.extend(
                    cells_of(shape, unit)
                        .into_iter()
                        .filter(|&c| c != cell)
                        .map(|c| (c, value)),
                );
            }
            &Reason::EmptyCell { cell } => out.extend((0..n).map(|u| (cell, u))),
            Reason::NakedSet { cells, values, .. } | Reason::CellsShort { cells, values, .. } => {
                for &c in cells {
                    out.extend((0..n).filter(|u| !values.contains(u)).map(|u| (c, u)));
                }
            }
            Reason::HiddenSet {
                unit,
                values,
                cells,
            }
            | Reason::ValuesShort {
                unit,
                values,
                cells,
            } => {
                for c in cells_of(shape, *unit) {
                    if !cells.contains(&c) {
                        out.extend(values.iter().map(|&v| (c, v)));
                    }
                }
            }
            Reason::Confined {
                value,
                confined,
                cover,
            }
            | Reason::ConfinedShort {
                value,
                confined,
                cover,
            } => {
                for &u in confined {
                    for c in cells_of(shape, u) {
                        if !in_any(shape, cover, c) {
                            out.push((c, *value));
                        }
                    }
                }
            }
        }
        out
    }

    /// The units, cells and values a picture highlights: the step's units, the cells of its
    /// reason (for a confinement, the value's places in the confined units of `before`), and
    /// its values.
    pub fn parts(&self, puzzle: &Grid, before: &Domains) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let shape = puzzle.shape();
        let n = shape.order();
        let units_of = |cell: usize| shape.units_of(cell).map(|u| u.index(n)).collect();
        match self {
            Reason::Givens => {
                let (cells, values) = puzzle.givens().unzip();
                (Vec::new(), cells, values)
            }
            &Reason::NakedSingle { cell, value } => (units_of(cell), vec![cell], vec![value]),
            &Reason::HiddenSingle { unit, value, cell } => (vec![unit], vec![cell], vec![value]),
            Reason::NakedSet {
                unit,
                cells,
                values,
            }
            | Reason::HiddenSet {
                unit,
                values,
                cells,
            }
            | Reason::CellsShort {
                unit,
                cells,
                values,
            }
            | Reason::ValuesShort {
                unit,
                values,
                cells,
            } => (vec![*unit], cells.clone(), values.clone()),
            Reason::Confined {
                value,
                confined,
                cover,
            }
            | Reason::ConfinedShort {
                value,
                confined,
                cover,
            } => {
                let mut places: Vec<usize> = confined
                    .iter()
                    .flat_map(|&u| cells_of(shape, u))
                    .filter(|&c| before.contains(c, *value))
                    .collect();
                places.sort_unstable();
                places.dedup();
                let units = confined.iter().chain(cover).copied().collect();
                (units, places, vec![*value])
            }
            &Reason::Probe { cell, value, .. } => (Vec::new(), vec![cell], vec![value]),
            &Reason::EmptyCell { cell } => (units_of(cell), vec![cell], Vec::new()),
        }
    }
}

/// One step of an explanation. Cells, units and values are 0-based indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    /// What kind of deduction.
    pub kind: StepKind,
    /// Its display name ("naked pair", "X-wing").
    pub name: String,
    /// The rule and its witnesses: what the replay checker re-derives the step from.
    pub reason: Reason,
    /// The units the step works in (to highlight).
    pub units: Vec<usize>,
    /// The cells of the reason (the placed cell, the Hall set, the fish's places, ...).
    pub cells: Vec<usize>,
    /// The values of the reason.
    pub values: Vec<usize>,
    /// The candidates removed, `(cell, value)`.
    pub removed: Vec<(usize, usize)>,
    /// The cells the step places, `(cell, value)`: every given at step 1, the cell of a single.
    pub placed: Vec<(usize, usize)>,
    /// The step in one sentence, 1-based.
    pub text: String,
}

impl Deduction {
    /// The steps of a probe's chain (empty for any other step).
    pub fn chain(&self) -> &[Deduction] {
        match &self.reason {
            Reason::Probe { chain, .. } => chain,
            _ => &[],
        }
    }

    /// The step as a JSON object, cells and values 1-based: `step` (the number given),
    /// `kind`, `name`, `units` ("row 3"), `cells` (`[row, column]`), `values`, `removed` and
    /// `placed` (`[row, column, value]`), `text`, and for a probe its `chain` (the same objects,
    /// numbered from 1).
    pub fn to_json(&self, shape: Shape, step: usize) -> serde_json::Value {
        let cell = |c: usize| serde_json::json!([shape.row_of(c) + 1, shape.col_of(c) + 1]);
        let triple = |&(c, v): &(usize, usize)| {
            serde_json::json!([shape.row_of(c) + 1, shape.col_of(c) + 1, v + 1])
        };
        let mut value = serde_json::json!({
            "step": step,
            "kind": self.kind,
            "name": self.name,
            "units": self.units.iter().map(|&u| shape.unit(u).to_string()).collect::<Vec<_>>(),
            "cells": self.cells.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
            "values": self.values.iter().map(|v| v + 1).collect::<Vec<_>>(),
            "removed": self.removed.iter().map(triple).collect::<Vec<_>>(),
            "placed": self.placed.iter().map(triple).collect::<Vec<_>>(),
            "text": self.text,
        });
        if let Reason::Probe { chain, .. } = &self.reason {
            value["chain"] = chain
                .iter()
                .enumerate()
                .map(|(i, s)| s.to_json(shape, i + 1))
                .collect();
        }
        value
    }
}
