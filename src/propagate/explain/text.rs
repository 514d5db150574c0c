//! The sentence of each step, 1-based, in the words of a human solver: what the rule sees, what
//! follows, and the candidates it removes.
//!
//! # Complexity
//! Linear in the step's witnesses and removals (an empty cell also looks at its peers).

use super::step::{Reason, cells_of};
use super::words::{
    and_list, cell_name, cells_text, count, removals_text, symbol, units_text, value_word,
    values_text,
};
use crate::grid::Grid;
use crate::propagate::{Domains, Scheme};
use crate::shape::Shape;

/// "row, column and box" (a Latin square: "row and column"; a region map: "row, column and
/// region"; extra units add "and the extra units it lies on").
fn units_of_cell(shape: Shape) -> &'static str {
    match (
        shape.is_latin(),
        shape.has_region_map(),
        shape.extra_count() > 0,
    ) {
        (true, _, _) => "row and column",
        (false, false, false) => "row, column and box",
        (false, true, false) => "row, column and region",
        (false, false, true) => "row, column, box and the extra units it lies on",
        (false, true, true) => "row, column, region and the extra units it lies on",
    }
}

/// The sentence of a probe's supposition: the value tried placed in its cell, which still has
/// other candidates (a naked single only inside the trial), removing `removed`.
pub(super) fn supposition(
    shape: Shape,
    cell: usize,
    value: usize,
    removed: &[(usize, usize)],
) -> String {
    let v = symbol(shape.order(), value);
    let name = cell_name(shape, cell);
    if removed.is_empty() {
        format!(
            "Suppose {name} = {v}, the value tried: it is placed ({v} is already gone from its {})",
            units_of_cell(shape)
        )
    } else {
        format!(
            "Suppose {name} = {v}, the value tried: it is placed, and {v} leaves the cell's {} ({})",
            units_of_cell(shape),
            removals_text(shape, removed)
        )
    }
}

/// The sentence of a step with `reason` removing `removed` from the store `before`; `base` is
/// the scheme a probe's chain runs.
pub(super) fn sentence(
    puzzle: &Grid,
    reason: &Reason,
    removed: &[(usize, usize)],
    before: &Domains,
    base: Scheme,
) -> String {
    let shape = puzzle.shape();
    let n = shape.order();
    let sym = |v: usize| symbol(n, v);
    let unit = |u: &usize| shape.unit(*u).to_string();
    let removals = removals_text(shape, removed);
    match reason {
        Reason::Givens => {
            let k = puzzle.filled();
            match k {
                0 => "There are no givens".into(),
                1 => format!(
                    "The given is placed: its {} leaves its {} ({} removed)",
                    value_word(shape, 1),
                    units_of_cell(shape),
                    count(removed.len(), "candidate")
                ),
                _ => format!(
                    "The {k} givens are placed: each {} leaves its {} ({} removed)",
                    value_word(shape, 1),
                    units_of_cell(shape),
                    count(removed.len(), "candidate")
                ),
            }
        }
        &Reason::NakedSingle { cell, value } if removed.is_empty() => format!(
            "{} has one candidate left, {}: it is placed ({} is already gone from its {})",
            cell_name(shape, cell),
            sym(value),
            sym(value),
            units_of_cell(shape),
        ),
        &Reason::NakedSingle { cell, value } => format!(
            "{} has one candidate left, {}: it is placed, and {} leaves the cell's {} ({removals})",
            cell_name(shape, cell),
            sym(value),
            sym(value),
            units_of_cell(shape)
        ),
        &Reason::HiddenSingle {
            unit: u,
            value,
            cell,
        } => format!(
            "In {}, {} fits only in {}: {} = {}, and {} leaves the cell's {} ({removals})",
            unit(&u),
            sym(value),
            cell_name(shape, cell),
            cell_name(shape, cell),
            sym(value),
            sym(value),
            units_of_cell(shape)
        ),
        Reason::NakedSet {
            unit: u,
            cells,
            values,
        } => format!(
            "In {}, the {} {} hold only the {} {}: these {} leave the unit's other cells \
             ({removals})",
            unit(u),
            count(cells.len(), "cell"),
            cells_text(shape, cells),
            count(values.len(), value_word(shape, 1)),
            values_text(shape, values.iter().copied()),
            value_word(shape, values.len()),
        ),
        Reason::HiddenSet {
            unit: u,
            values,
            cells,
        } => format!(
            "In {}, the {} {} fit only in the {} {}: those cells keep only these {} \
             ({removals})",
            unit(u),
            count(values.len(), value_word(shape, 1)),
            values_text(shape, values.iter().copied()),
            count(cells.len(), "cell"),
            cells_text(shape, cells),
            value_word(shape, values.len()),
        ),
        Reason::Confined {
            value,
            confined,
            cover,
        } => {
            let those = if cover.len() == 1 {
                format!("the rest of {}", units_text(shape, cover))
            } else {
                format!("the other cells of {}", units_text(shape, cover))
            };
            if reason.kind(shape) == super::step::StepKind::LockedCandidates {
                format!(
                    "In {}, {} lies only where it crosses {}: {those} loses it ({removals})",
                    units_text(shape, confined),
                    sym(*value),
                    units_text(shape, cover),
                )
            } else {
                format!(
                    "{} on {}: in {}, {} lies only in {}, so it leaves {those} ({removals})",
                    reason.kind(shape).name(confined.len()),
                    sym(*value),
                    units_text(shape, confined),
                    sym(*value),
                    units_text(shape, cover),
                )
            }
        }
        Reason::Probe { cell, value, chain } => {
            let last = chain
                .last()
                .map(|s| s.text.trim_start_matches("Contradiction: ").to_string())
                .unwrap_or_default();
            format!(
                "Trying {} in {}: {} reaches a contradiction in {} ({last}), so {} is not a \
                 candidate of {} ({removals})",
                sym(*value),
                cell_name(shape, *cell),
                base,
                count(chain.len(), "step"),
                sym(*value),
                cell_name(shape, *cell),
            )
        }
        &Reason::EmptyCell { cell } => {
            format!(
                "Contradiction: {} has no candidate left{}",
                cell_name(shape, cell),
                empty_cell_cause(shape, before, cell)
            )
        }
        Reason::CellsShort {
            unit: u,
            cells,
            values,
        } => {
            let singles = cells.iter().all(|&c| before.count(c) == 1);
            let givens = cells.iter().all(|&c| puzzle.get(c).is_some());
            if singles && values.len() == 1 {
                format!(
                    "Contradiction: in {}, {} {} {} {}",
                    unit(u),
                    and_list(cells.iter().map(|&c| cell_name(shape, c))),
                    if cells.len() == 2 { "both" } else { "all" },
                    if givens {
                        "hold"
                    } else {
                        "have only one candidate left,"
                    },
                    sym(values[0])
                )
            } else {
                format!(
                    "Contradiction: in {}, the {} {} can take only the {} {}, but {} need {} \
                     different {} (a Hall violation)",
                    unit(u),
                    count(cells.len(), "cell"),
                    cells_text(shape, cells),
                    count(values.len(), value_word(shape, 1)),
                    values_text(shape, values.iter().copied()),
                    count(cells.len(), "cell"),
                    cells.len(),
                    value_word(shape, cells.len()),
                )
            }
        }
        Reason::ValuesShort {
            unit: u,
            values,
            cells,
        } => {
            if cells.is_empty() && values.len() == 1 {
                format!(
                    "Contradiction: in {}, {} has no place left",
                    unit(u),
                    sym(values[0])
                )
            } else {
                format!(
                    "Contradiction: in {}, the {} {} fit only in the {} {}: {} {} cannot \
                     fit in {} (a Hall violation)",
                    unit(u),
                    count(values.len(), value_word(shape, 1)),
                    values_text(shape, values.iter().copied()),
                    count(cells.len(), "cell"),
                    cells_text(shape, cells),
                    values.len(),
                    value_word(shape, values.len()),
                    count(cells.len(), "cell"),
                )
            }
        }
        Reason::ConfinedShort {
            value,
            confined,
            cover,
        } => {
            if cover.is_empty() && confined.len() == 1 {
                format!(
                    "Contradiction: in {}, {} has no place left",
                    units_text(shape, confined),
                    sym(*value)
                )
            } else {
                format!(
                    "Contradiction: in {}, {} lies only in {}: {} {}s cannot fit in {} \
                     (a Hall violation)",
                    units_text(shape, confined),
                    sym(*value),
                    units_text(shape, cover),
                    confined.len(),
                    sym(*value),
                    units_text(shape, cover),
                )
            }
        }
    }
}

/// ": its row holds 1 and 2, its column holds 3" — the placed peers that took the values of an
/// empty cell, unit by unit (values taken otherwise are "removed by earlier steps").
fn empty_cell_cause(shape: Shape, before: &Domains, cell: usize) -> String {
    let n = shape.order();
    let mut explained = vec![false; n];
    let mut parts = Vec::new();
    for unit in shape.units_of(cell) {
        let mut held: Vec<usize> = cells_of(shape, unit.index(n))
            .into_iter()
            .filter(|&c| c != cell)
            .filter_map(|c| before.value(c))
            .filter(|&v| !explained[v])
            .collect();
        held.sort_unstable();
        held.dedup();
        if held.is_empty() {
            continue;
        }
        for &v in &held {
            explained[v] = true;
        }
        let word = unit.to_string();
        let kind = word.split(' ').next().unwrap_or("unit");
        parts.push(format!(
            "its {kind} holds {}",
            and_list(held.iter().map(|&v| symbol(n, v)))
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    let others: Vec<usize> = (0..n).filter(|&v| !explained[v]).collect();
    let rest = match others.len() {
        0 => String::new(),
        1 => format!("; {} was removed by an earlier step", symbol(n, others[0])),
        _ => format!(
            "; {} were removed by earlier steps",
            and_list(others.iter().map(|&v| symbol(n, v)))
        ),
    };
    format!(": {}{rest}", and_list(parts))
}
