//! `norvig`: Peter Norvig's constraint propagation with depth-first search, for any shape.
//!
//! Faithful to the essay's program:
//! - `values[s]` holds the possible values of square `s` (here a bitset instead of a string);
//! - `assign(values, s, d)` eliminates every other value from `s`;
//! - `eliminate(values, s, d)` removes `d` from `s`; (1) if `s` is left with one value `d2`,
//!   `d2` is eliminated from the peers of `s`; (2) for each unit of `s`, if `d` has no place left
//!   it is a contradiction, and if it has one place it is assigned there;
//! - `search` picks an unfilled square with the fewest possibilities and tries each value on a
//!   **copy** of `values` (no undo: copying is the essay's design, so this backend allocates per
//!   node, unlike `native`).
//!
//! One change of form, not of result: the essay's mutual recursion between `assign` and
//! `eliminate` is run with an explicit stack of pending eliminations, so a 64×64 grid does not
//! overflow the call stack. Both reach the same fixpoint (each removal triggers the same checks)
//! and both find every contradiction the rules can find.
//!
//! # Complexity
//! Per node: O(n²) for the copy and the square choice, plus O(n) per elimination for the unit
//! checks. Exponential in the worst case.
//!
//! # References
//! - P. Norvig, "Solving Every Sudoku Puzzle", 2006, <https://norvig.com/sudoku.html>.

use super::geometry::{Geometry, geometry};
use super::mask::{MAX_MASK_ORDER, Mask, dispatch_mask, values};
use super::{Budget, CountReport, Limits, SolveError, Solver, Stats};
use crate::grid::Grid;

/// Norvig's solver; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Norvig;

impl Solver for Norvig {
    fn name(&self) -> &str {
        "norvig"
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let geo = geometry(puzzle.shape());
        Ok(dispatch_mask!(geo.n, M => search::<M>(&geo, puzzle, limit, &budget)))
    }
}

struct Propagator<'a> {
    geo: &'a Geometry,
    pending: Vec<(u32, u32)>,
    stats: Stats,
}

impl Propagator<'_> {
    /// `assign(values, s, d)`: eliminate all the other values from `s`; false on a contradiction.
    fn assign<M: Mask>(&mut self, values_of: &mut [M], s: usize, d: usize) -> bool {
        let others = values_of[s] & !M::bit(d);
        self.pending
            .extend(values(others).map(|d2| (s as u32, d2 as u32)));
        self.eliminate_pending(values_of)
    }

    /// Runs `eliminate` on every pending `(s, d)`, and on what those eliminations imply.
    fn eliminate_pending<M: Mask>(&mut self, values_of: &mut [M]) -> bool {
        let geo = self.geo;
        while let Some((s, d)) = self.pending.pop() {
            let (s, d) = (s as usize, d as usize);
            let bit = M::bit(d);
            if values_of[s] & bit == M::ZERO {
                continue; // already eliminated
            }
            values_of[s] &= !bit;
            self.stats.propagations += 1;
            let left = values_of[s];
            if left == M::ZERO {
                self.pending.clear();
                return false; // removed the last value
            }
            // (1) A square reduced to one value d2: eliminate d2 from the peers.
            if left.is_single() {
                let d2 = left.lowest() as u32;
                self.pending.extend(geo.peers(s).iter().map(|&p| (p, d2)));
            }
            // (2) A unit reduced to one place for d: put it there.
            for &u in geo.units_of(s) {
                let mut places = geo
                    .unit(u as usize)
                    .iter()
                    .filter(|&&c| values_of[c as usize] & bit != M::ZERO);
                match (places.next(), places.next()) {
                    (None, _) => {
                        self.pending.clear();
                        return false;
                    }
                    (Some(&only), None) => {
                        let others = values_of[only as usize] & !bit;
                        self.pending
                            .extend(values(others).map(|d2| (only, d2 as u32)));
                    }
                    _ => {}
                }
            }
        }
        true
    }
}

fn search<M: Mask>(geo: &Geometry, puzzle: &Grid, limit: u64, budget: &Budget) -> CountReport {
    let mut report = CountReport::default();
    let mut prop = Propagator {
        geo,
        pending: Vec::new(),
        stats: Stats {
            nodes: 1,
            ..Stats::default()
        },
    };
    // parse_grid: start from "anything possible" and assign the givens.
    let mut values_of = vec![M::below(geo.n); geo.cells];
    let consistent = puzzle
        .givens()
        .all(|(s, d)| prop.assign(&mut values_of, s, d));
    // Choice points: (the values at the node, square, digits left to try).
    let mut stack: Vec<(Vec<M>, usize, M)> = Vec::new();
    if !consistent {
        report.stats = Stats {
            elapsed: budget.elapsed(),
            ..prop.stats
        };
        return report;
    }
    'node: loop {
        let choice = values_of
            .iter()
            .enumerate()
            .filter(|(_, m)| m.count() > 1)
            .min_by_key(|(_, m)| m.count())
            .map(|(s, _)| s);
        match choice {
            None => {
                report.count += 1;
                if report.solutions.len() < 2 {
                    let mut grid = Grid::empty(puzzle.shape());
                    for (s, m) in values_of.iter().enumerate() {
                        grid.set(s, Some(m.lowest()));
                    }
                    report.solutions.push(grid);
                }
                if report.count >= limit {
                    report.hit_limit = true;
                    break;
                }
            }
            Some(s) => stack.push((values_of.clone(), s, values_of[s])),
        }
        while let Some(top) = stack.last_mut() {
            if top.2 == M::ZERO {
                stack.pop();
                continue;
            }
            let d = top.2.lowest();
            top.2 = top.2.without_lowest();
            values_of = top.0.clone();
            let s = top.1;
            prop.stats.nodes += 1;
            prop.stats.guesses += 1;
            if let Some(reason) = budget.exceeded(prop.stats.nodes) {
                report.stopped = Some(reason);
                break 'node;
            }
            if prop.assign(&mut values_of, s, d) {
                continue 'node;
            }
        }
        break;
    }
    report.stats = Stats {
        elapsed: budget.elapsed(),
        ..prop.stats
    };
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::text::parse_line;

    #[test]
    fn norvig_counts_and_detects_clashes() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        assert_eq!(
            Norvig
                .count(&empty, u64::MAX, &Limits::none())
                .unwrap()
                .count,
            288
        );
        let clash = parse_line("11..............", None).unwrap();
        assert_eq!(Norvig.count(&clash, 2, &Limits::none()).unwrap().count, 0);
    }
}
