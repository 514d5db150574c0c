//! Lynce & Ouaknine's minimal, efficient and extended encodings: one variable per `x(r,c,v)`,
//! numbered `r·n² + c·n + v` from the first variable, each given a unit clause.
//!
//! # Complexity
//! Linear in the clauses written: O(n⁴) with pairwise AMO, O(n³) with the others; O(n) scratch.
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006.

use super::amo::{Amo, at_most_one};
use super::{Encoded, Encoding, VarMap};
use crate::encode::{ClauseSink, Constraint, Var, x_index};
use crate::grid::Grid;

/// Encodes `puzzle` with `encoding` (not [`Encoding::Optimized`]) into `sink`.
pub(super) fn encode_direct(
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    sink: &mut dyn ClauseSink,
) -> Encoded {
    let shape = puzzle.shape();
    let n = shape.order();
    let first = sink.new_var().index();
    for _ in 1..n * n * n {
        sink.new_var();
    }
    let x = |r: usize, c: usize, v: usize| Var::from_index(first + x_index(n, r, c, v)).positive();
    let mut lits = Vec::with_capacity(n);
    let cell_amo = encoding != Encoding::Minimal;
    for r in 0..n {
        for c in 0..n {
            lits.clear();
            lits.extend((0..n).map(|v| x(r, c, v)));
            sink.constraint(Constraint::CellHoldsAValue(shape.cell(r, c)));
            sink.add_clause(&lits);
            if cell_amo {
                sink.constraint(Constraint::CellHoldsOneValue(shape.cell(r, c)));
                at_most_one(amo, &lits, sink);
            }
        }
    }
    for unit in shape.units() {
        for v in 0..n {
            lits.clear();
            lits.extend(shape.unit_cells(unit).map(|cell| {
                let (r, c) = (shape.row_of(cell), shape.col_of(cell));
                x(r, c, v)
            }));
            sink.constraint(Constraint::UnitHoldsValueAtMostOnce(unit, v));
            at_most_one(amo, &lits, sink);
            if encoding == Encoding::Extended {
                sink.constraint(Constraint::UnitHoldsValue(unit, v));
                sink.add_clause(&lits);
            }
        }
    }
    for (cell, v) in puzzle.givens() {
        sink.constraint(Constraint::Given(cell, v));
        sink.add_clause(&[x(shape.row_of(cell), shape.col_of(cell), v)]);
    }
    Encoded {
        map: VarMap::Direct { n, first },
        dropped_box_pairs: 0,
        trivially_unsat: false,
    }
}
