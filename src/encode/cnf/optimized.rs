//! Kwon & Jain's optimized encoding: the extended encoding simplified by the givens.
//!
//! A given fixes its variable true, and every other value of its cell and the same value in its
//! peers false; those variables are not emitted, clauses satisfied by a true variable are
//! dropped, false literals are deleted. The remaining ("open") variables are renumbered `1..` in
//! x order, and the [`VarMap`] maps them back. With pairwise AMO, the box pairs whose two cells
//! share a row or a column (already excluded by that row or column) are dropped too. Givens that
//! clash, or a cell or a unit's value left with no place, become an empty clause.
//!
//! # Complexity
//! Linear in the clauses written, plus O(n³) bits for the open variables.
//!
//! # References
//! - G. Kwon, H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.

use super::amo::{Amo, at_most_one};
use super::{Encoded, VarMap};
use crate::encode::{ClauseSink, Constraint, Lit, Var, allowed, x_index};
use crate::grid::Grid;
use crate::shape::UnitKind;

/// Encodes `puzzle` with the optimized encoding into `sink`.
pub(super) fn encode_optimized(puzzle: &Grid, amo: Amo, sink: &mut dyn ClauseSink) -> Encoded {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut open = allowed(puzzle);
    // Given cells are fixed: none of their x is a variable.
    for (cell, v) in puzzle.givens() {
        open[x_index(n, shape.row_of(cell), shape.col_of(cell), v)] = false;
    }
    let mut slots = vec![0u32; n * n * n];
    for (i, _) in open.iter().enumerate().filter(|(_, o)| **o) {
        slots[i] = sink.new_var().index() as u32 + 1;
    }
    let map = VarMap::Sparse { n, slots };
    let mut encoded = Encoded {
        map,
        dropped_box_pairs: 0,
        trivially_unsat: false,
    };
    let empty_clause = |sink: &mut dyn ClauseSink, flag: &mut bool| {
        sink.add_clause(&[]);
        *flag = true;
    };
    if puzzle.first_clash().is_some() {
        empty_clause(sink, &mut encoded.trivially_unsat);
    }
    let lit = |map: &VarMap, r: usize, c: usize, v: usize| map.var(r, c, v).map(Var::positive);
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for cell in (0..shape.cells()).filter(|&cell| puzzle.get(cell).is_none()) {
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        lits.clear();
        lits.extend((0..n).filter_map(|v| lit(&encoded.map, r, c, v)));
        sink.constraint(Constraint::CellHoldsAValue(cell));
        if lits.is_empty() {
            empty_clause(sink, &mut encoded.trivially_unsat);
        } else {
            sink.add_clause(&lits);
            sink.constraint(Constraint::CellHoldsOneValue(cell));
            at_most_one(amo, &lits, sink);
        }
    }
    let mut given_in_unit = vec![false; n];
    let mut cells: Vec<usize> = Vec::with_capacity(n);
    for unit in shape.units() {
        given_in_unit.fill(false);
        for cell in shape.unit_cells(unit) {
            if let Some(v) = puzzle.get(cell) {
                given_in_unit[v] = true;
            }
        }
        for v in (0..n).filter(|&v| !given_in_unit[v]) {
            cells.clear();
            cells.extend(shape.unit_cells(unit).filter(|&cell| {
                lit(&encoded.map, shape.row_of(cell), shape.col_of(cell), v).is_some()
            }));
            lits.clear();
            lits.extend(cells.iter().map(|&cell| {
                lit(&encoded.map, shape.row_of(cell), shape.col_of(cell), v)
                    .expect("filtered above")
            }));
            sink.constraint(Constraint::UnitHoldsValue(unit, v));
            if lits.is_empty() {
                empty_clause(sink, &mut encoded.trivially_unsat);
                continue;
            }
            sink.add_clause(&lits);
            sink.constraint(Constraint::UnitHoldsValueAtMostOnce(unit, v));
            if matches!(unit.kind, UnitKind::Box | UnitKind::Region) && amo == Amo::Pairwise {
                // Pairs sharing a row or a column are in that row's or column's AMO already.
                for i in 0..cells.len() {
                    for j in i + 1..cells.len() {
                        let (a, b) = (cells[i], cells[j]);
                        if shape.row_of(a) == shape.row_of(b) || shape.col_of(a) == shape.col_of(b)
                        {
                            encoded.dropped_box_pairs += 1;
                        } else {
                            sink.add_clause(&[lits[i].negate(), lits[j].negate()]);
                        }
                    }
                }
            } else {
                at_most_one(amo, &lits, sink);
            }
        }
    }
    encoded
}
