//! The replay checker: every step of an explanation re-derived from the store before it, by
//! the rule it names, from the rule's definition — as the certificate verifier checks a
//! solution, and written as independently of the code that finds the steps.
//!
//! For each step, from the candidates before it (the givens, minus every earlier removal):
//! - the rule is one of the scheme's ([`super::family`]); a step after a contradiction, or a
//!   removal of a candidate that is not there or of a given's value, is rejected;
//! - **givens** (step 1, and only there): the removals are exactly the givens' values in their
//!   non-given peers; every given is placed;
//! - **naked single**: the cell, not placed before, has exactly that candidate; the removals are
//!   exactly the value in its peers. **hidden single**: the value's only place in the unit is
//!   the cell, which had other candidates; the removals are exactly those candidates and the
//!   value in the cell's peers. Each cell is placed once.
//! - **naked set** of k ≥ 2 open cells of one unit: their candidates lie among the k values;
//!   each removal is one of those values in another cell of the unit. **hidden set** of k ≥ 2
//!   values: their places in the unit are among the k open cells; each removal is another
//!   value of one of those cells;
//! - **confinement** (locked candidates, fish, band): k distinct units of one kind and k of
//!   another; every place of the value in the first lies in the second; each removal is the
//!   value in a cell of the second outside the first;
//! - **probe**: the cell had the value and another; the chain, replayed from the store with the
//!   value placed there, with the base scheme's rules, ends in a contradiction; the removal is
//!   exactly that value;
//! - **contradiction**: an empty cell; k cells of a unit whose candidates number fewer than k; k
//!   values whose places in a unit number fewer than k; k units of one kind whose places of a
//!   value lie in fewer units of another. It must be the last step.
//!
//! Then the ending: a solution has one candidate per cell, every cell placed, and passes the
//! verifier; a stuck ending has the open cells and candidates it says, every one-candidate cell
//! placed, and names the cell a search would branch on; a contradiction is the last step.
//!
//! # Complexity
//! O(n²) per step for the store and the singles, O(n·k) for the sets; a probe's chain
//! recursively.

use thiserror::Error;

use super::explanation::{Ending, Explanation};
use super::family::Family;
use super::step::{Deduction, Reason};
use crate::grid::Grid;
use crate::propagate::Domains;
use crate::shape::Shape;

/// A step that does not follow, and why. `step` is 1-based; a step of a probe's chain is
/// written `12.3` (the third step of step 12's chain).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the explanation's step {step} does not follow: {message}")]
pub struct ReplayError {
    /// Which step.
    pub step: String,
    /// What is wrong.
    pub message: String,
}

/// Replays every step of `story` and its ending; see the module docs.
///
/// # Errors
/// [`ReplayError`] naming the first step (or the ending) that does not follow.
pub fn replay(story: &Explanation) -> Result<(), ReplayError> {
    let puzzle = &story.puzzle;
    let shape = puzzle.shape();
    let mut d = Domains::from_puzzle(puzzle);
    let mut placed = vec![false; shape.cells()];
    let family = Family::for_order(story.scheme, story.order);
    let base = Family::of(story.scheme.without_shaving());
    if puzzle.filled() > 0 && story.steps.first().map(|s| &s.reason) != Some(&Reason::Givens) {
        return Err(fail("1", "the first step must place every given"));
    }
    let contradiction = steps(
        puzzle,
        (family, base),
        &mut d,
        &mut placed,
        &story.steps,
        "",
    )?;
    let ending = |message: String| ReplayError {
        step: "ending".into(),
        message,
    };
    match (&story.ending, contradiction) {
        (Ending::Contradiction, true) => Ok(()),
        (Ending::Contradiction, false) => Err(ending("no step is a contradiction".into())),
        (_, true) => Err(ending("the steps end in a contradiction".into())),
        (Ending::Solved(grid), false) => {
            if d.to_grid().as_ref() != Some(grid) {
                return Err(ending("the solution is not what the steps leave".into()));
            }
            if let Some(cell) = (0..shape.cells()).find(|&c| !placed[c]) {
                return Err(ending(format!("cell {cell} is never placed")));
            }
            crate::verify::verify(puzzle, grid)
                .map_err(|v| ending(format!("the solution fails the verifier: {v}")))
        }
        (
            Ending::Stuck {
                open_cells,
                candidates,
                branch,
            },
            false,
        ) => {
            let open = (0..shape.cells()).filter(|&c| d.count(c) > 1).count();
            if (open, d.total()) != (*open_cells, *candidates) || open == 0 {
                return Err(ending(format!(
                    "{open} open cells and {} candidates left, not {open_cells} and {candidates}",
                    d.total()
                )));
            }
            if let Some(cell) = (0..shape.cells()).find(|&c| d.count(c) == 1 && !placed[c]) {
                return Err(ending(format!(
                    "cell {cell} has one candidate but is not placed"
                )));
            }
            let fewest = (0..shape.cells())
                .filter(|&c| d.count(c) > 1)
                .min_by_key(|&c| (d.count(c), c))
                .map(|c| (c, d.min(c).unwrap_or(0)));
            if fewest != Some(*branch) {
                return Err(ending(format!(
                    "the branch {branch:?} is not the most constrained cell {fewest:?}"
                )));
            }
            Ok(())
        }
    }
}

fn fail(step: &str, message: impl Into<String>) -> ReplayError {
    ReplayError {
        step: step.to_string(),
        message: message.into(),
    }
}

/// Replays `list` on `d`; returns whether it ended in a contradiction.
fn steps(
    puzzle: &Grid,
    (family, base): (Family, Family),
    d: &mut Domains,
    placed: &mut [bool],
    list: &[Deduction],
    prefix: &str,
) -> Result<bool, ReplayError> {
    let shape = puzzle.shape();
    for (i, step) in list.iter().enumerate() {
        let name = format!("{prefix}{}", i + 1);
        let err = |message: String| fail(&name, message);
        if i > 0 && list[i - 1].reason.is_contradiction() {
            return Err(err("a step after a contradiction".into()));
        }
        if step.kind != step.reason.kind(shape) {
            return Err(err(format!("its kind {:?} is not its reason's", step.kind)));
        }
        if !family.allows(shape, &step.reason) {
            return Err(err(format!("the scheme has no {} rule", step.name)));
        }
        let mut seen = vec![false; shape.cells() * shape.order()];
        for &(c, v) in &step.removed {
            if c >= shape.cells() || v >= shape.order() {
                return Err(err(format!("removes ({c}, {v}), outside the grid")));
            }
            if puzzle.get(c).is_some() {
                return Err(err(format!(
                    "removes {} from the given cell {}: a given is not a candidate",
                    v + 1,
                    super::words::cell_name(shape, c)
                )));
            }
            if !d.contains(c, v) || std::mem::replace(&mut seen[c * shape.order() + v], true) {
                return Err(err(format!(
                    "removes {} from {}, which is not a candidate there",
                    v + 1,
                    super::words::cell_name(shape, c)
                )));
            }
        }
        check(puzzle, d, placed, step, i, base).map_err(err)?;
        if step.placed != step.reason.placements(puzzle) {
            return Err(err("its placements are not its rule's".into()));
        }
        for &(c, _) in &step.placed {
            placed[c] = true;
        }
        for &(c, v) in &step.removed {
            d.remove(c, v);
        }
    }
    Ok(list.last().is_some_and(|s| s.reason.is_contradiction()))
}

/// The cells of a unit index.
fn unit_cells(shape: Shape, unit: usize) -> Vec<usize> {
    shape.unit_cells(shape.unit(unit)).collect()
}

fn distinct(items: &[usize]) -> bool {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

/// The removals must be exactly `expected`.
fn exactly(removed: &[(usize, usize)], mut expected: Vec<(usize, usize)>) -> Result<(), String> {
    let mut removed = removed.to_vec();
    removed.sort_unstable();
    expected.sort_unstable();
    expected.dedup();
    if removed == expected {
        Ok(())
    } else {
        Err(format!(
            "removes {} candidates where the rule removes exactly {}",
            removed.len(),
            expected.len()
        ))
    }
}

/// Each removal must satisfy `ok`, and there must be one.
fn among(removed: &[(usize, usize)], ok: impl Fn(usize, usize) -> bool) -> Result<(), String> {
    if removed.is_empty() {
        return Err("removes nothing".into());
    }
    match removed.iter().find(|&&(c, v)| !ok(c, v)) {
        Some(&(c, v)) => Err(format!(
            "removes {} from cell {c}, which the rule does not imply",
            v + 1
        )),
        None => Ok(()),
    }
}

/// The step's own rule, from its definition; see the module docs.
fn check(
    puzzle: &Grid,
    d: &Domains,
    placed: &[bool],
    step: &Deduction,
    index: usize,
    base: Family,
) -> Result<(), String> {
    let shape = puzzle.shape();
    let n = shape.order();
    let unit_of = |unit: usize| -> Result<Vec<usize>, String> {
        if unit < shape.unit_count() {
            Ok(unit_cells(shape, unit))
        } else {
            Err(format!("unit {unit} does not exist"))
        }
    };
    let peers_with = |cell: usize, v: usize| -> Vec<(usize, usize)> {
        shape
            .peers(cell)
            .filter(|&p| puzzle.get(p).is_none() && d.contains(p, v))
            .map(|p| (p, v))
            .collect()
    };
    let no_clash = |cell: usize, v: usize| -> Result<(), String> {
        match shape.peers(cell).find(|&p| puzzle.get(p) == Some(v)) {
            Some(p) => Err(format!("a given peer (cell {p}) already holds the value")),
            None => Ok(()),
        }
    };
    let removed = &step.removed;
    match &step.reason {
        Reason::Givens => {
            if index != 0 {
                return Err("the givens are placed at step 1 only".into());
            }
            let mut expected = Vec::new();
            for (cell, v) in puzzle.givens() {
                expected.extend(peers_with(cell, v));
            }
            exactly(removed, expected)
        }
        &Reason::NakedSingle { cell, value } => {
            if cell >= shape.cells() || placed[cell] || puzzle.get(cell).is_some() {
                return Err("the cell is already placed".into());
            }
            if d.values(cell).collect::<Vec<_>>() != [value] {
                return Err("the cell has other candidates, or not this one".into());
            }
            no_clash(cell, value)?;
            exactly(removed, peers_with(cell, value))
        }
        &Reason::HiddenSingle { unit, value, cell } => {
            let cells = unit_of(unit)?;
            if !cells.contains(&cell) || placed[cell] || d.count(cell) < 2 {
                return Err("the cell is not an open cell of the unit".into());
            }
            let places: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&c| d.contains(c, value))
                .collect();
            if places != [cell] {
                return Err("the value has other places in the unit, or not this one".into());
            }
            no_clash(cell, value)?;
            let mut expected: Vec<(usize, usize)> = d
                .values(cell)
                .filter(|&v| v != value)
                .map(|v| (cell, v))
                .collect();
            expected.extend(peers_with(cell, value));
            exactly(removed, expected)
        }
        Reason::NakedSet {
            unit,
            cells,
            values,
        } => {
            let unit_cells = unit_of(*unit)?;
            if cells.len() < 2 || cells.len() != values.len() || !distinct(cells) {
                return Err("a naked set needs k ≥ 2 distinct cells and k values".into());
            }
            if !distinct(values) || values.iter().any(|&v| v >= n) {
                return Err("the values are not k distinct values".into());
            }
            if cells
                .iter()
                .any(|c| !unit_cells.contains(c) || d.count(*c) < 2)
            {
                return Err("a cell of the set is not an open cell of the unit".into());
            }
            if cells
                .iter()
                .any(|&c| d.values(c).any(|v| !values.contains(&v)))
            {
                return Err("a cell of the set has a candidate outside the set's values".into());
            }
            among(removed, |c, v| {
                unit_cells.contains(&c) && !cells.contains(&c) && values.contains(&v)
            })
        }
        Reason::HiddenSet {
            unit,
            values,
            cells,
        } => {
            let unit_cells = unit_of(*unit)?;
            if values.len() < 2 || cells.len() != values.len() || !distinct(cells) {
                return Err("a hidden set needs k ≥ 2 values and k distinct cells".into());
            }
            if !distinct(values) || values.iter().any(|&v| v >= n) {
                return Err("the values are not k distinct values".into());
            }
            if cells
                .iter()
                .any(|c| !unit_cells.contains(c) || d.count(*c) < 2)
            {
                return Err("a cell of the set is not an open cell of the unit".into());
            }
            if values.iter().any(|&v| {
                unit_cells
                    .iter()
                    .any(|&c| d.contains(c, v) && !cells.contains(&c))
            }) {
                return Err("a value of the set has a place outside the set's cells".into());
            }
            among(removed, |c, v| cells.contains(&c) && !values.contains(&v))
        }
        Reason::Confined {
            value,
            confined,
            cover,
        } => {
            if confined.is_empty() || confined.len() != cover.len() {
                return Err("a confinement needs k units in k units".into());
            }
            let (inside, outside) = confinement(shape, d, *value, confined, cover)?;
            if !inside {
                return Err("the value has a place in the confined units outside the cover".into());
            }
            among(removed, |c, v| v == *value && outside.contains(&c))
        }
        Reason::Probe { cell, value, chain } => {
            let (cell, value) = (*cell, *value);
            if cell >= shape.cells() || d.count(cell) < 2 || !d.contains(cell, value) {
                return Err("the probed value is not one of two or more candidates".into());
            }
            exactly(removed, vec![(cell, value)])?;
            let mut trial = d.clone();
            for v in 0..n {
                if v != value {
                    trial.remove(cell, v);
                }
            }
            let mut placed = placed.to_vec();
            let prefix = format!("{}.", index + 1);
            let ended = steps(
                puzzle,
                (base, base),
                &mut trial,
                &mut placed,
                chain,
                &prefix,
            )
            .map_err(|e| format!("its chain: step {}: {}", e.step, e.message))?;
            if ended {
                Ok(())
            } else {
                Err("its chain does not end in a contradiction".into())
            }
        }
        &Reason::EmptyCell { cell } => {
            nothing(removed)?;
            if cell < shape.cells() && d.count(cell) == 0 {
                Ok(())
            } else {
                Err("the cell has a candidate".into())
            }
        }
        Reason::CellsShort {
            unit,
            cells,
            values,
        } => {
            nothing(removed)?;
            let unit_cells = unit_of(*unit)?;
            if cells.is_empty() || !distinct(cells) || values.len() >= cells.len() {
                return Err("fewer values than cells are needed".into());
            }
            if cells.iter().any(|c| !unit_cells.contains(c)) {
                return Err("a cell is not in the unit".into());
            }
            if cells
                .iter()
                .any(|&c| d.values(c).any(|v| !values.contains(&v)))
            {
                return Err("a cell has a candidate outside the values".into());
            }
            Ok(())
        }
        Reason::ValuesShort {
            unit,
            values,
            cells,
        } => {
            nothing(removed)?;
            let unit_cells = unit_of(*unit)?;
            if values.is_empty() || !distinct(values) || cells.len() >= values.len() {
                return Err("fewer places than values are needed".into());
            }
            if values.iter().any(|&v| v >= n) {
                return Err("a value is outside the grid".into());
            }
            if values.iter().any(|&v| {
                unit_cells
                    .iter()
                    .any(|&c| d.contains(c, v) && !cells.contains(&c))
            }) {
                return Err("a value has a place outside the cells".into());
            }
            Ok(())
        }
        Reason::ConfinedShort {
            value,
            confined,
            cover,
        } => {
            nothing(removed)?;
            if confined.is_empty() || cover.len() >= confined.len() {
                return Err("fewer covering units than confined ones are needed".into());
            }
            let (inside, _) = confinement(shape, d, *value, confined, cover)?;
            if inside {
                Ok(())
            } else {
                Err("the value has a place in the confined units outside the cover".into())
            }
        }
    }
}

fn nothing(removed: &[(usize, usize)]) -> Result<(), String> {
    if removed.is_empty() {
        Ok(())
    } else {
        Err("a contradiction removes nothing".into())
    }
}

/// Checks a confinement's units (distinct, one kind each, two different kinds) and returns
/// whether every place of `value` in `confined` lies in `cover`, and the cells of `cover`
/// outside `confined`.
fn confinement(
    shape: Shape,
    d: &Domains,
    value: usize,
    confined: &[usize],
    cover: &[usize],
) -> Result<(bool, Vec<usize>), String> {
    let units = shape.unit_count();
    if value >= shape.order() || confined.iter().chain(cover).any(|&u| u >= units) {
        return Err("a unit or the value is outside the grid".into());
    }
    let kind = |u: usize| shape.unit(u).kind;
    let one_kind = |us: &[usize]| us.iter().all(|&u| kind(u) == kind(us[0]));
    if !distinct(confined) || !distinct(cover) || !one_kind(confined) {
        return Err("the units are not distinct units of one kind".into());
    }
    if !cover.is_empty() && (!one_kind(cover) || kind(cover[0]) == kind(confined[0])) {
        return Err("the covering units must be of one other kind".into());
    }
    let inside_cover = |c: usize| cover.iter().any(|&u| unit_cells(shape, u).contains(&c));
    let inside_confined = |c: usize| confined.iter().any(|&u| unit_cells(shape, u).contains(&c));
    let inside = confined
        .iter()
        .flat_map(|&u| unit_cells(shape, u))
        .filter(|&c| d.contains(c, value))
        .all(inside_cover);
    let outside = cover
        .iter()
        .flat_map(|&u| unit_cells(shape, u))
        .filter(|&c| !inside_confined(c))
        .collect();
    Ok((inside, outside))
}
