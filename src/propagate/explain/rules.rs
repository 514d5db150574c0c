//! The easy rules, found on a candidate store the way a person scans a grid: contradictions
//! first (a cell with no candidate, two placed cells of a unit with one value, a value with no
//! place), then naked singles, hidden singles, locked candidates, naked and hidden pairs and
//! triples. Each finder returns the first reason in a fixed scan order (cells row-major; units
//! rows, columns, boxes; values increasing) with the removals it makes.
//!
//! A **guard** (the scheme's own fixpoint, when it has one) keeps the story on the scheme's
//! path: a step removes only candidates the scheme's fixpoint removes too, so that the
//! explanation ends exactly where the scheme does (see [`super::tell`]). A single whose
//! removals the guard would cut is not taken; a set or a confinement keeps the removals the
//! guard allows.
//!
//! # Complexity
//! Per call: O(n²) for singles and contradictions, O(n³) for hidden singles and locked
//! candidates, and for sets of k the combinations of the unit's cells (values) with at most k
//! candidates (places), at most C(n, k) per unit.

use super::step::{Reason, cells_of};
use crate::grid::Grid;
use crate::propagate::Domains;
use crate::shape::Shape;

/// The store a finder looks at, with what has been placed and the guard.
pub(super) struct Board<'a> {
    pub puzzle: &'a Grid,
    pub d: &'a Domains,
    pub placed: &'a [bool],
    pub guard: Option<&'a Domains>,
}

/// A reason and the removals it makes.
pub(super) type Found = (Reason, Vec<(usize, usize)>);

impl Board<'_> {
    fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// The removals of `reason` the guard allows.
    pub fn allowed(&self, reason: &Reason) -> Vec<(usize, usize)> {
        let mut removals = reason.consequences(self.puzzle, self.d);
        if let Some(guard) = self.guard {
            removals.retain(|&(c, v)| !guard.contains(c, v));
        }
        removals
    }

    /// A single's removals, if the guard allows them all.
    fn whole(&self, reason: Reason) -> Option<Found> {
        let all = reason.consequences(self.puzzle, self.d);
        let allowed = self.allowed(&reason);
        (all.len() == allowed.len()).then_some((reason, allowed))
    }

    /// A set's or a confinement's allowed removals, if there are any.
    fn some(&self, reason: Reason) -> Option<Found> {
        let allowed = self.allowed(&reason);
        (!allowed.is_empty()).then_some((reason, allowed))
    }

    /// A contradiction any scheme sees: a cell with no candidate, or two placed cells of a unit
    /// with the same value; with `values_too`, also a value with no place in a unit; with
    /// `sets`, two or three open cells of a unit with fewer values between them (and with
    /// `values_too` as well, two or three values with fewer places).
    pub fn contradiction(&self, values_too: bool, sets: bool) -> Option<Reason> {
        let shape = self.shape();
        let n = shape.order();
        if let Some(cell) = (0..shape.cells()).find(|&c| self.d.count(c) == 0) {
            return Some(Reason::EmptyCell { cell });
        }
        for unit in 0..shape.unit_count() {
            let cells = cells_of(shape, unit);
            let mut first: Vec<Option<usize>> = vec![None; n];
            for &c in &cells {
                if let Some(v) = self.d.value(c) {
                    match first[v] {
                        Some(other) => {
                            return Some(Reason::CellsShort {
                                unit,
                                cells: vec![other, c],
                                values: vec![v],
                            });
                        }
                        None => first[v] = Some(c),
                    }
                }
            }
        }
        if values_too {
            for unit in 0..shape.unit_count() {
                let cells = cells_of(shape, unit);
                if let Some(value) = (0..n).find(|&v| cells.iter().all(|&c| !self.d.contains(c, v)))
                {
                    return Some(Reason::ValuesShort {
                        unit,
                        values: vec![value],
                        cells: Vec::new(),
                    });
                }
            }
        }
        if sets {
            for k in 2..=3 {
                if let Some(found) = self.short_set(k, values_too) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// `k` open cells of a unit with fewer than `k` values between them, or (with `values_too`)
    /// `k` values with fewer than `k` places.
    fn short_set(&self, k: usize, values_too: bool) -> Option<Reason> {
        let shape = self.shape();
        let n = shape.order();
        for unit in 0..shape.unit_count() {
            let cells = cells_of(shape, unit);
            let pool: Vec<(usize, Vec<usize>)> = cells
                .iter()
                .filter(|&&c| self.d.count(c) > 1 && self.d.count(c) < k)
                .map(|&c| (c, self.d.values(c).collect()))
                .collect();
            let mut found = None;
            short_combination(&pool, k, &mut |members, union| {
                found = Some(Reason::CellsShort {
                    unit,
                    cells: members.to_vec(),
                    values: union.to_vec(),
                });
            });
            if found.is_some() {
                return found;
            }
            if !values_too {
                continue;
            }
            let pool: Vec<(usize, Vec<usize>)> = (0..n)
                .map(|v| {
                    let places = cells
                        .iter()
                        .copied()
                        .filter(|&c| self.d.contains(c, v))
                        .collect::<Vec<_>>();
                    (v, places)
                })
                .filter(|(_, places)| places.len() < k)
                .collect();
            short_combination(&pool, k, &mut |members, union| {
                found = Some(Reason::ValuesShort {
                    unit,
                    values: members.to_vec(),
                    cells: union.to_vec(),
                });
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The first cell not yet placed with one candidate.
    pub fn naked_single(&self) -> Option<Found> {
        let shape = self.shape();
        (0..shape.cells())
            .filter(|&c| !self.placed[c])
            .filter_map(|cell| self.d.value(cell).map(|value| (cell, value)))
            .find_map(|(cell, value)| self.whole(Reason::NakedSingle { cell, value }))
    }

    /// The first value of a unit with one place, in an open cell.
    pub fn hidden_single(&self) -> Option<Found> {
        let shape = self.shape();
        let n = shape.order();
        for unit in 0..shape.unit_count() {
            let cells = cells_of(shape, unit);
            for value in 0..n {
                let mut places = cells.iter().filter(|&&c| self.d.contains(c, value));
                if let (Some(&cell), None) = (places.next(), places.next())
                    && self.d.count(cell) > 1
                {
                    let found = self.whole(Reason::HiddenSingle { unit, value, cell });
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        None
    }

    /// The first value of a box whose places lie in one line (the line loses it outside the
    /// box), else of a line whose places lie in one box.
    pub fn locked(&self) -> Option<Found> {
        let shape = self.shape();
        if shape.is_latin() {
            return None;
        }
        let n = shape.order();
        for b in 0..n {
            let boxed = 2 * n + b;
            let cells = cells_of(shape, boxed);
            for value in 0..n {
                let places: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| self.d.contains(c, value) && self.d.count(c) > 1)
                    .collect();
                if places.len() < 2 {
                    continue;
                }
                let row = shape.row_of(places[0]);
                let col = shape.col_of(places[0]);
                for (same, line) in [
                    (places.iter().all(|&c| shape.row_of(c) == row), row),
                    (places.iter().all(|&c| shape.col_of(c) == col), n + col),
                ] {
                    if same {
                        let found = self.some(Reason::Confined {
                            value,
                            confined: vec![boxed],
                            cover: vec![line],
                        });
                        if found.is_some() {
                            return found;
                        }
                    }
                }
            }
        }
        for line in 0..2 * n {
            let cells = cells_of(shape, line);
            for value in 0..n {
                let places: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| self.d.contains(c, value) && self.d.count(c) > 1)
                    .collect();
                if places.len() < 2 {
                    continue;
                }
                let b = shape.box_of(shape.row_of(places[0]), shape.col_of(places[0]));
                if places
                    .iter()
                    .all(|&c| shape.box_of(shape.row_of(c), shape.col_of(c)) == b)
                {
                    let found = self.some(Reason::Confined {
                        value,
                        confined: vec![line],
                        cover: vec![2 * n + b],
                    });
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        None
    }

    /// The first naked set of `k` open cells in a unit.
    pub fn naked_set(&self, k: usize) -> Option<Found> {
        let shape = self.shape();
        for unit in 0..shape.unit_count() {
            let open: Vec<usize> = cells_of(shape, unit)
                .into_iter()
                .filter(|&c| self.d.count(c) > 1)
                .collect();
            if open.len() <= k {
                continue;
            }
            let pool: Vec<(usize, Vec<usize>)> = open
                .iter()
                .filter(|&&c| self.d.count(c) <= k)
                .map(|&c| (c, self.d.values(c).collect()))
                .collect();
            let mut found = None;
            combinations(&pool, k, &mut |cells, values| {
                found = self.some(Reason::NakedSet {
                    unit,
                    cells: cells.to_vec(),
                    values: values.to_vec(),
                });
                found.is_some()
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The first hidden set of `k` values of a unit, each with at least two places.
    pub fn hidden_set(&self, k: usize) -> Option<Found> {
        let shape = self.shape();
        let n = shape.order();
        for unit in 0..shape.unit_count() {
            let cells = cells_of(shape, unit);
            let open = cells.iter().filter(|&&c| self.d.count(c) > 1).count();
            if open <= k {
                continue;
            }
            let pool: Vec<(usize, Vec<usize>)> = (0..n)
                .map(|v| {
                    let places: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&c| self.d.contains(c, v))
                        .collect();
                    (v, places)
                })
                .filter(|(_, places)| places.len() >= 2 && places.len() <= k)
                .collect();
            let mut found = None;
            combinations(&pool, k, &mut |values, places| {
                found = self.some(Reason::HiddenSet {
                    unit,
                    values: values.to_vec(),
                    cells: places.to_vec(),
                });
                found.is_some()
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// Calls `hit` with the first combination of `k` items of `pool` whose neighbours number fewer
/// than `k`.
fn short_combination(
    pool: &[(usize, Vec<usize>)],
    k: usize,
    hit: &mut dyn FnMut(&[usize], &[usize]),
) {
    walk_short(pool, k, 0, &mut Vec::new(), &[], &mut |members, union| {
        hit(members, union);
        true
    });
}

fn walk_short(
    pool: &[(usize, Vec<usize>)],
    k: usize,
    start: usize,
    chosen: &mut Vec<usize>,
    union: &[usize],
    hit: &mut dyn FnMut(&[usize], &[usize]) -> bool,
) -> bool {
    if chosen.len() == k {
        return union.len() < k && hit(chosen, union);
    }
    for (index, (item, neighbours)) in pool.iter().enumerate().skip(start) {
        let mut next = union.to_vec();
        for &x in neighbours {
            if !next.contains(&x) {
                next.push(x);
            }
        }
        if next.len() >= k {
            continue;
        }
        next.sort_unstable();
        chosen.push(*item);
        if walk_short(pool, k, index + 1, chosen, &next, hit) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// Calls `hit(members, union)` for each combination of `k` items of `pool` (an item and its
/// neighbours) whose neighbours number exactly `k`, until `hit` returns true. Returns whether
/// it did.
fn combinations(
    pool: &[(usize, Vec<usize>)],
    k: usize,
    hit: &mut dyn FnMut(&[usize], &[usize]) -> bool,
) -> bool {
    fn walk(
        pool: &[(usize, Vec<usize>)],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        union: &[usize],
        hit: &mut dyn FnMut(&[usize], &[usize]) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return union.len() == k && hit(chosen, union);
        }
        for (index, (item, neighbours)) in pool.iter().enumerate().skip(start) {
            let mut next = union.to_vec();
            for &x in neighbours {
                if !next.contains(&x) {
                    next.push(x);
                }
            }
            if next.len() > k {
                continue;
            }
            next.sort_unstable();
            chosen.push(*item);
            if walk(pool, k, index + 1, chosen, &next, hit) {
                return true;
            }
            chosen.pop();
        }
        false
    }
    walk(pool, k, 0, &mut Vec::new(), &[], hit)
}
