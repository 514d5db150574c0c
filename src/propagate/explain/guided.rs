//! The scheme's stronger reasoning, led by its own run: when the easy rules find nothing, the
//! next step comes from the scheme's trace ([`crate::propagate::trace`]).
//!
//! The engine ran the scheme from a store `T₀` and recorded events `e₀, e₁, …` (each with the
//! candidates it removed); `Tⱼ` is `T₀` without the removals of the events before `eⱼ`. The story
//! is at a store `S ⊆ T₀`. [`Guide::next`] takes the **first event that removed a candidate still
//! in `S`**, `eⱼ`; every earlier event's removals are gone from `S`, so `S ⊆ Tⱼ`, and the reason
//! the event had on `Tⱼ` still holds on `S`:
//! - a tight set of a bipartite graph (a unit's cells and values, a value's rows and columns, a
//!   band's lines and boxes) stays tight on the smaller graph of `S`, or `S` has a Hall
//!   violation there (then the step is that contradiction);
//! - a value confined to a crossing stays confined, or has no place;
//! - a failed shaving probe fails from `S` too: the guide hands back the engine's store `Tⱼ`,
//!   and the probe's own chain is told the same way from the engine's run of the trial.
//!
//! The reason is found afresh on `S` (the smallest tight set explaining the event's removals
//! still there, [`crate::propagate::reasons`]). Each step removes at least one candidate, so the
//! story ends: when no event has a removal left in `S`, `S` is the engine's fixpoint (with the
//! guard of [`super::rules`]), or, if the engine failed, `S ⊆` the store it failed on, where a
//! Hall violation is found and told.
//!
//! # Complexity
//! Per call: the events skipped (their removals checked once each, O(1) per removal) plus one
//! graph of n nodes per side and its tight sets (O(n³)).

use super::family::Family;
use super::rules::Board;
use super::step::{Reason, cells_of};
use crate::propagate::reasons::{Side, Sides, TightSet, hall_violation, tight_sets_on};
use crate::propagate::trace::{Event, Rule};
use crate::propagate::{Domains, Scheme};
use crate::shape::Shape;

/// What the guide says comes next.
pub(super) enum Lead {
    /// A step: its reason and removals.
    Step(Reason, Vec<(usize, usize)>),
    /// A shaving probe of `value` in `cell`; `engine_store` is the store the engine probed
    /// (without the trial).
    Probe {
        cell: usize,
        value: usize,
        engine_store: Domains,
    },
    /// The story's store has no solution: this contradiction says why.
    Contradiction(Reason),
    /// Nothing is left to remove: the scheme's fixpoint.
    Fixpoint,
}

/// The engine's run, read forward as the story goes; see the module docs.
pub(super) struct Guide {
    events: Vec<Event>,
    failed: bool,
    cursor: usize,
    /// `T_cursor`.
    engine: Domains,
    family: Family,
    scheme: Scheme,
}

impl Guide {
    /// The guide of a run from `start` that recorded `events` and ended in a failure or not.
    pub fn new(start: &Domains, events: Vec<Event>, failed: bool, scheme: Scheme) -> Guide {
        Guide {
            events,
            failed,
            cursor: 0,
            engine: start.clone(),
            family: Family::of(scheme),
            scheme,
        }
    }

    /// The next step on `board`; see the module docs.
    pub fn next(&mut self, board: &Board<'_>) -> Lead {
        let d = board.d;
        while self.cursor < self.events.len() {
            let event = &self.events[self.cursor];
            let present: Vec<(usize, usize)> = event
                .removed
                .iter()
                .copied()
                .filter(|&(c, v)| d.contains(c, v))
                .collect();
            if !present.is_empty()
                && let Some(lead) = self.explain(board, event.rule, &present)
            {
                return lead;
            }
            for &(c, v) in &self.events[self.cursor].removed {
                self.engine.remove(c, v);
            }
            self.cursor += 1;
        }
        if self.failed {
            let shape = d.shape();
            let hint = self.events.last().map(|e| e.rule);
            return match violation(shape, d, hint, self.family, self.scheme) {
                Some(reason) => Lead::Contradiction(reason),
                None => Lead::Fixpoint,
            };
        }
        Lead::Fixpoint
    }

    /// The reason of `rule`'s removals `present` on the board's store.
    fn explain(&self, board: &Board<'_>, rule: Rule, present: &[(usize, usize)]) -> Option<Lead> {
        let d = board.d;
        let shape = d.shape();
        let n = shape.order();
        let step = |reason: Reason| {
            let removed = board.allowed(&reason);
            (!removed.is_empty()).then_some(Lead::Step(reason, removed))
        };
        match rule {
            Rule::NakedSingle { cell, value } => match d.count(cell) {
                0 => Some(Lead::Contradiction(Reason::EmptyCell { cell })),
                _ => step(Reason::NakedSingle { cell, value }),
            },
            Rule::HiddenSingle { unit, value, cell } => {
                let places = cells_of(shape, unit)
                    .into_iter()
                    .filter(|&c| d.contains(c, value))
                    .count();
                match places {
                    0 => Some(Lead::Contradiction(Reason::ValuesShort {
                        unit,
                        values: vec![value],
                        cells: Vec::new(),
                    })),
                    _ => step(Reason::HiddenSingle { unit, value, cell }),
                }
            }
            Rule::Channeling { unit } => unit_lead(d, unit, present, Sides::Right, step),
            Rule::RangeExhaustion { unit } => unit_lead(d, unit, present, Sides::Left, step),
            Rule::DualExhaustion { unit } => unit_lead(d, unit, present, Sides::Right, step),
            Rule::Matching { unit } => unit_lead(d, unit, present, Sides::Both, step),
            Rule::Same { line, boxed } => {
                let cells = cells_of(shape, line);
                let (cell, value) = present[0];
                let (confined, cover) = if cells.contains(&cell) {
                    (boxed, line)
                } else {
                    (line, boxed)
                };
                let places = cells_of(shape, confined)
                    .into_iter()
                    .filter(|&c| d.contains(c, value))
                    .count();
                if places == 0 {
                    return Some(Lead::Contradiction(Reason::ValuesShort {
                        unit: confined,
                        values: vec![value],
                        cells: Vec::new(),
                    }));
                }
                step(Reason::Confined {
                    value,
                    confined: vec![confined],
                    cover: vec![cover],
                })
            }
            Rule::Colored { value } => {
                let graph = value_graph(shape, d, value, Crossing::RowsColumns);
                graph_lead(&graph, d, value, present, step)
            }
            Rule::RowsBoxes { value, band, group } => {
                let crossing = if band {
                    Crossing::Band(group)
                } else {
                    Crossing::Stack(group)
                };
                let graph = value_graph(shape, d, value, crossing);
                graph_lead(&graph, d, value, present, step)
            }
            Rule::Shave { cell, value } => {
                let _ = n;
                Some(Lead::Probe {
                    cell,
                    value,
                    engine_store: self.engine.clone(),
                })
            }
        }
    }
}

/// The lead of a unit's event: the smallest tight set (on `sides`) of the unit's cells and
/// values that explains a removal still present, or the unit's Hall violation.
fn unit_lead(
    d: &Domains,
    unit: usize,
    present: &[(usize, usize)],
    sides: Sides,
    step: impl Fn(Reason) -> Option<Lead>,
) -> Option<Lead> {
    let shape = d.shape();
    let cells = cells_of(shape, unit);
    let adj: Vec<Vec<usize>> = cells.iter().map(|&c| d.values(c).collect()).collect();
    let edges: Vec<(usize, usize)> = present
        .iter()
        .filter_map(|&(c, v)| cells.iter().position(|&x| x == c).map(|i| (i, v)))
        .collect();
    if let Some(violation) = hall_violation(&adj) {
        return Some(Lead::Contradiction(unit_violation(&cells, unit, violation)));
    }
    let sets = tight_sets_on(&adj, &edges, sides)?;
    sets.into_iter().find_map(|set| {
        let mut members: Vec<(usize, Vec<usize>)> = Vec::new();
        let reason = match set.side {
            Side::Left => {
                // Placed cells leave the set with their values: it stays tight.
                let (mut cells_in, mut values) = (Vec::new(), set.right.clone());
                for &i in &set.left {
                    match d.value(cells[i]) {
                        Some(v) => values.retain(|&x| x != v),
                        None => cells_in.push(cells[i]),
                    }
                }
                members.push((0, cells_in.clone()));
                single_or(cells_in, values, |cells_in, values| Reason::NakedSet {
                    unit,
                    cells: cells_in,
                    values,
                })
            }
            Side::Right => {
                let (mut values, mut cells_in) = (Vec::new(), Vec::new());
                for &v in &set.right {
                    let places: Vec<usize> = set
                        .left
                        .iter()
                        .map(|&i| cells[i])
                        .filter(|&c| d.contains(c, v))
                        .collect();
                    if !(places.len() == 1 && d.count(places[0]) == 1) {
                        values.push(v);
                    }
                }
                for &i in &set.left {
                    if d.count(cells[i]) > 1 {
                        cells_in.push(cells[i]);
                    }
                }
                if values.len() == 1 && cells_in.len() == 1 {
                    Reason::HiddenSingle {
                        unit,
                        value: values[0],
                        cell: cells_in[0],
                    }
                } else {
                    Reason::HiddenSet {
                        unit,
                        values,
                        cells: cells_in,
                    }
                }
            }
        };
        step(reason)
    })
}

/// A naked set of one cell is a naked single.
fn single_or(
    cells: Vec<usize>,
    values: Vec<usize>,
    set: impl Fn(Vec<usize>, Vec<usize>) -> Reason,
) -> Reason {
    if let ([cell], [value]) = (cells.as_slice(), values.as_slice()) {
        Reason::NakedSingle {
            cell: *cell,
            value: *value,
        }
    } else {
        set(cells, values)
    }
}

/// A Hall violation of a unit's graph as a contradiction.
fn unit_violation(cells: &[usize], unit: usize, violation: TightSet) -> Reason {
    let members: Vec<usize> = violation.left.iter().map(|&i| cells[i]).collect();
    match violation.side {
        Side::Left if members.len() == 1 && violation.right.is_empty() => {
            Reason::EmptyCell { cell: members[0] }
        }
        Side::Left => Reason::CellsShort {
            unit,
            cells: members,
            values: violation.right,
        },
        Side::Right => Reason::ValuesShort {
            unit,
            values: violation.right,
            cells: members,
        },
    }
}

/// The units a value's bipartite graph crosses.
#[derive(Debug, Clone, Copy)]
enum Crossing {
    /// Rows × columns (the colored matrix `C`).
    RowsColumns,
    /// The rows × boxes of band `g` (`3`).
    Band(usize),
    /// The columns × boxes of stack `g` (`3`).
    Stack(usize),
}

/// A value's graph: left and right units, the cells where each pair crosses, and the edges.
struct ValueGraph {
    left: Vec<usize>,
    right: Vec<usize>,
    /// `cross[i][j]`: the cells shared by left unit i and right unit j.
    cross: Vec<Vec<Vec<usize>>>,
    adj: Vec<Vec<usize>>,
}

fn value_graph(shape: Shape, d: &Domains, value: usize, crossing: Crossing) -> ValueGraph {
    let n = shape.order();
    let (left, right): (Vec<usize>, Vec<usize>) = match crossing {
        Crossing::RowsColumns => ((0..n).collect(), (n..2 * n).collect()),
        Crossing::Band(g) => {
            let (p, q) = (shape.box_rows(), shape.box_cols());
            let boxes_per_band = n / q;
            (
                (g * p..(g + 1) * p).collect(),
                (0..boxes_per_band)
                    .map(|j| 2 * n + g * boxes_per_band + j)
                    .collect(),
            )
        }
        Crossing::Stack(g) => {
            let (p, q) = (shape.box_rows(), shape.box_cols());
            let boxes_per_band = n / q;
            (
                (g * q..(g + 1) * q).map(|c| n + c).collect(),
                (0..n / p).map(|j| 2 * n + j * boxes_per_band + g).collect(),
            )
        }
    };
    let cross: Vec<Vec<Vec<usize>>> = left
        .iter()
        .map(|&a| {
            let cells_a = cells_of(shape, a);
            right
                .iter()
                .map(|&b| {
                    let cells_b = cells_of(shape, b);
                    cells_a
                        .iter()
                        .copied()
                        .filter(|c| cells_b.contains(c))
                        .collect()
                })
                .collect()
        })
        .collect();
    let adj = cross
        .iter()
        .map(|row| {
            (0..right.len())
                .filter(|&j| row[j].iter().any(|&c| d.contains(c, value)))
                .collect()
        })
        .collect();
    ValueGraph {
        left,
        right,
        cross,
        adj,
    }
}

/// The lead of a value graph's event: the smallest tight set explaining a removal still
/// present, as a confinement, or the graph's Hall violation.
fn graph_lead(
    graph: &ValueGraph,
    d: &Domains,
    value: usize,
    present: &[(usize, usize)],
    step: impl Fn(Reason) -> Option<Lead>,
) -> Option<Lead> {
    if let Some(violation) = hall_violation(&graph.adj) {
        return Some(Lead::Contradiction(graph_violation(
            graph, value, violation,
        )));
    }
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for &(cell, _) in present {
        for (i, row) in graph.cross.iter().enumerate() {
            for (j, shared) in row.iter().enumerate() {
                if shared.contains(&cell) && !edges.contains(&(i, j)) {
                    edges.push((i, j));
                }
            }
        }
    }
    let _ = d;
    let sets = tight_sets_on(&graph.adj, &edges, Sides::Both)?;
    sets.into_iter().find_map(|set| {
        let left: Vec<usize> = set.left.iter().map(|&i| graph.left[i]).collect();
        let right: Vec<usize> = set.right.iter().map(|&j| graph.right[j]).collect();
        let (confined, cover) = match set.side {
            Side::Left => (left, right),
            Side::Right => (right, left),
        };
        step(Reason::Confined {
            value,
            confined,
            cover,
        })
    })
}

/// A Hall violation of a value graph as a contradiction.
fn graph_violation(graph: &ValueGraph, value: usize, violation: TightSet) -> Reason {
    let left: Vec<usize> = violation.left.iter().map(|&i| graph.left[i]).collect();
    let right: Vec<usize> = violation.right.iter().map(|&j| graph.right[j]).collect();
    let (confined, cover) = match violation.side {
        Side::Left => (left, right),
        Side::Right => (right, left),
    };
    Reason::ConfinedShort {
        value,
        confined,
        cover,
    }
}

/// A Hall violation anywhere in the store the family can see: the `hint` rule's graph first
/// (the engine failed there), then every unit, then the value graphs of `C` and `3`.
fn violation(
    shape: Shape,
    d: &Domains,
    hint: Option<Rule>,
    family: Family,
    scheme: Scheme,
) -> Option<Reason> {
    let n = shape.order();
    let unit_check = |unit: usize| {
        let cells = cells_of(shape, unit);
        let adj: Vec<Vec<usize>> = cells.iter().map(|&c| d.values(c).collect()).collect();
        hall_violation(&adj).map(|v| unit_violation(&cells, unit, v))
    };
    let graph_check = |value: usize, crossing: Crossing| {
        let graph = value_graph(shape, d, value, crossing);
        hall_violation(&graph.adj).map(|v| graph_violation(&graph, value, v))
    };
    let hinted = match hint {
        Some(
            Rule::Matching { unit }
            | Rule::RangeExhaustion { unit }
            | Rule::DualExhaustion { unit }
            | Rule::Channeling { unit }
            | Rule::HiddenSingle { unit, .. },
        ) => unit_check(unit),
        Some(Rule::Colored { value }) => graph_check(value, Crossing::RowsColumns),
        Some(Rule::RowsBoxes { value, band, group }) => graph_check(
            value,
            if band {
                Crossing::Band(group)
            } else {
                Crossing::Stack(group)
            },
        ),
        _ => None,
    };
    if hinted.is_some() {
        return hinted;
    }
    if let Some(found) = (0..shape.unit_count()).find_map(unit_check) {
        return Some(found);
    }
    let mut crossings = Vec::new();
    if family.fish {
        crossings.push(Crossing::RowsColumns);
    }
    // The bands of p×q boxes (the propagator applies no `3` under a region map).
    if scheme.rows_boxes() && !shape.is_latin() && !shape.has_region_map() {
        let (p, q) = (shape.box_rows(), shape.box_cols());
        crossings.extend((0..n / p).map(Crossing::Band));
        crossings.extend((0..n / q).map(Crossing::Stack));
    }
    crossings
        .into_iter()
        .find_map(|crossing| (0..n).find_map(|v| graph_check(v, crossing)))
}
