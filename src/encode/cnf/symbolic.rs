//! A Sudoku's CNF written for people: each clause over the named variables `x(r,c,v)` ("cell
//! (r, c) holds v", 1-based) under the name of the constraint it belongs to, as `export --to cnf
//! --symbolic` prints it for a tiny instance on a slide or a handout.
//!
//! The clauses are the encoder's own (through [`ClauseSink::constraint`], which says which
//! constraint each group writes), in the order of the DIMACS file, so the listing has exactly
//! the DIMACS file's clauses. Auxiliary variables of an at-most-one encoding (sequential,
//! product, bimander) are `a1, a2, …` in the order they are made.
//!
//! ```text
//! # cell (1,1) holds a value
//! x(1,1,1) ∨ x(1,1,2) ∨ x(1,1,3) ∨ x(1,1,4)
//! # cell (1,1) holds at most one value
//! ¬x(1,1,1) ∨ ¬x(1,1,2)
//! ```
//!
//! # Complexity
//! Linear in the formula's literals.

use std::fmt::Write as _;

use super::{CnfOptions, encode};
use crate::encode::{ClauseSink, Constraint, Lit, Var};
use crate::grid::Grid;
use crate::shape::Shape;

/// The clauses of one constraint.
struct Group {
    what: Option<Constraint>,
    clauses: Vec<Vec<Lit>>,
}

/// Collects the clauses, grouped by the constraint they write.
#[derive(Default)]
struct Listing {
    vars: usize,
    groups: Vec<Group>,
    current: Option<Constraint>,
}

impl ClauseSink for Listing {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        match self.groups.last_mut() {
            Some(group) if group.what == self.current => group.clauses.push(clause.to_vec()),
            _ => self.groups.push(Group {
                what: self.current,
                clauses: vec![clause.to_vec()],
            }),
        }
    }

    fn constraint(&mut self, what: Constraint) {
        self.current = Some(what);
    }
}

/// The constraint in words, 1-based.
fn words(shape: Shape, what: Option<Constraint>) -> String {
    let cell = |c: usize| format!("({},{})", shape.row_of(c) + 1, shape.col_of(c) + 1);
    match what {
        Some(Constraint::CellHoldsAValue(c)) => format!("cell {} holds a value", cell(c)),
        Some(Constraint::CellHoldsOneValue(c)) => {
            format!("cell {} holds at most one value", cell(c))
        }
        Some(Constraint::UnitHoldsValueAtMostOnce(unit, v)) => {
            format!("{unit} holds {} at most once", v + 1)
        }
        Some(Constraint::UnitHoldsValue(unit, v)) => format!("{unit} holds {}", v + 1),
        Some(Constraint::Given(c, v)) => format!("the given {} = {}", cell(c), v + 1),
        None => "the givens clash: no solution".into(),
    }
}

/// The CNF of `puzzle` with `options` as a symbolic listing; see the module docs.
///
/// # Examples
/// ```
/// use sudokit::encode::cnf::{CnfOptions, symbolic_listing};
/// use sudokit::text::parse_line;
/// let puzzle = parse_line("1...............", None).unwrap();
/// let text = symbolic_listing(&puzzle, CnfOptions::default());
/// assert!(text.contains("# cell (1,1) holds a value\nx(1,1,1) ∨ x(1,1,2) ∨ x(1,1,3) ∨ x(1,1,4)\n"));
/// assert!(text.contains("# the given (1,1) = 1\nx(1,1,1)\n"));
/// ```
pub fn symbolic_listing(puzzle: &Grid, options: CnfOptions) -> String {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut listing = Listing::default();
    let encoded = encode(puzzle, options, &mut listing);
    let mut names: Vec<Option<String>> = vec![None; listing.vars];
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                if let Some(var) = encoded.map.var(r, c, v) {
                    names[var.index()] = Some(format!("x({},{},{})", r + 1, c + 1, v + 1));
                }
            }
        }
    }
    let mut aux = 0;
    for name in names.iter_mut().filter(|name| name.is_none()) {
        aux += 1;
        *name = Some(format!("a{aux}"));
    }
    let clauses: usize = listing.groups.iter().map(|g| g.clauses.len()).sum();
    let mut out = format!(
        "# the CNF of a {shape}, {} encoding, {} at-most-one: {} variables (x(r,c,v): cell \
         (r,c) holds v{}), {clauses} clauses; ∨ is or, ¬ is not\n",
        options.encoding,
        options.amo,
        listing.vars,
        if aux > 0 {
            format!("; a1 to a{aux}: auxiliary")
        } else {
            String::new()
        }
    );
    for group in &listing.groups {
        let _ = writeln!(out, "# {}", words(shape, group.what));
        for clause in &group.clauses {
            let terms: Vec<String> = clause
                .iter()
                .map(|l| {
                    let name = names[l.var().index()].as_deref().unwrap_or("?");
                    if l.is_negative() {
                        format!("¬{name}")
                    } else {
                        name.to_string()
                    }
                })
                .collect();
            if terms.is_empty() {
                out.push_str("⊥ (the empty clause)\n");
            } else {
                out.push_str(&terms.join(" ∨ "));
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Cnf;
    use crate::encode::cnf::{Amo, Encoding};
    use crate::text::parse_line;

    /// The listing has the DIMACS file's clauses, one line each, for every encoding.
    #[test]
    fn the_listing_has_every_clause_of_the_formula() {
        let puzzle = parse_line("12..34..........", None).unwrap();
        for encoding in [
            Encoding::Minimal,
            Encoding::Efficient,
            Encoding::Extended,
            Encoding::Optimized,
        ] {
            for amo in [Amo::Pairwise, Amo::Sequential, Amo::Product] {
                let options = CnfOptions { encoding, amo };
                let mut cnf = Cnf::new();
                encode(&puzzle, options, &mut cnf);
                let text = symbolic_listing(&puzzle, options);
                let clause_lines = text.lines().filter(|l| !l.starts_with('#')).count();
                assert_eq!(clause_lines, cnf.len(), "{encoding} {amo}");
                assert!(!text.contains('?'), "{encoding} {amo}");
                assert!(
                    text.contains("row 1 holds 3 at most once"),
                    "{encoding} {amo}"
                );
            }
        }
    }
}
