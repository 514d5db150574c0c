//! The deductions of one traced event: the rule's step told as a human solver would, with the
//! reason found on the store before the event (the Hall sets of [`crate::propagate::reasons`]
//! for matchings and range exhaustion, the crossing for locked candidates, the rows and columns
//! of a fish, the lines and boxes of a band).

use super::words::{and_list, cell_name, cells_text, removals_text, values_text};
use super::{Deduction, Kind};
use crate::grid::Grid;
use crate::propagate::reasons::{Side, tight_sets};
use crate::propagate::trace::{Event, Rule};
use crate::propagate::{Domains, Scheme};
use crate::shape::Shape;

/// The deductions of one event, given the store before it.
pub(super) fn deductions(
    puzzle: &Grid,
    before: &Domains,
    event: &Event,
    scheme: Scheme,
) -> Vec<Deduction> {
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
