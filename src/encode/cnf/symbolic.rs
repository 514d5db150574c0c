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
//! [`constraint_kinds`] gives the same clauses by kind of constraint, each kind's first
//! constraint written out, for the course page's slide.
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
    let mut listing = Listing::default();
    let encoded = encode(puzzle, options, &mut listing);
    let (names, aux) = variable_names(puzzle, &encoded.map, listing.vars);
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
            out.push_str(&clause_text(clause, &names));
            out.push('\n');
        }
    }
    out
}

/// The name of every variable: `x(r,c,v)` for the grid's, `a1, a2, …` for the auxiliary ones
/// in the order they were made; and how many auxiliary ones.
fn variable_names(puzzle: &Grid, map: &super::VarMap, vars: usize) -> (Vec<String>, usize) {
    let n = puzzle.shape().order();
    let mut names: Vec<Option<String>> = vec![None; vars];
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                if let Some(var) = map.var(r, c, v) {
                    names[var.index()] = Some(format!("x({},{},{})", r + 1, c + 1, v + 1));
                }
            }
        }
    }
    let mut aux = 0;
    let names = names.into_iter().map(|name| {
        name.unwrap_or_else(|| {
            aux += 1;
            format!("a{aux}")
        })
    });
    let names = names.collect();
    (names, aux)
}

/// A clause over the named variables (`¬x(1,1,1) ∨ ¬x(1,1,2)`; `⊥ (the empty clause)`).
fn clause_text(clause: &[Lit], names: &[String]) -> String {
    if clause.is_empty() {
        return "⊥ (the empty clause)".into();
    }
    let terms = clause.iter().map(|l| {
        let name = &names[l.var().index()];
        if l.is_negative() {
            format!("¬{name}")
        } else {
            name.clone()
        }
    });
    terms.collect::<Vec<_>>().join(" ∨ ")
}

/// One kind of constraint of a Sudoku's CNF (every cell holds a value, every unit holds each
/// value at most once, every given, ...), as a slide shows it: how many constraints of the
/// kind write clauses, how many clauses they write, and the first of them with its clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintKind {
    /// The first constraint of the kind, in words (`cell (1,1) holds a value`).
    pub first: String,
    /// The constraints of the kind.
    pub constraints: usize,
    /// Their clauses.
    pub clauses: usize,
    /// The first constraint's clauses, each over the named variables.
    pub first_clauses: Vec<String>,
}

/// The kinds of constraint of `puzzle`'s CNF with `options`, in the order the encoder writes
/// them (see [`ConstraintKind`]); their clauses add up to the formula's.
///
/// # Examples
/// ```
/// use sudokit::encode::cnf::{CnfOptions, symbolic::constraint_kinds};
/// use sudokit::text::parse_line;
/// let kinds = constraint_kinds(&parse_line("1...............", None).unwrap(), CnfOptions::default());
/// assert_eq!((kinds[0].first.as_str(), kinds[0].constraints), ("cell (1,1) holds a value", 16));
/// assert_eq!(kinds[0].first_clauses, ["x(1,1,1) ∨ x(1,1,2) ∨ x(1,1,3) ∨ x(1,1,4)"]);
/// ```
pub fn constraint_kinds(puzzle: &Grid, options: CnfOptions) -> Vec<ConstraintKind> {
    let mut kinds = Kinds::default();
    let encoded = encode(puzzle, options, &mut kinds);
    let (names, _) = variable_names(puzzle, &encoded.map, kinds.vars);
    let shape = puzzle.shape();
    let kind = |k: KindTally| ConstraintKind {
        first: words(shape, k.first),
        constraints: k.constraints,
        clauses: k.clauses,
        first_clauses: k
            .first_clauses
            .iter()
            .map(|c| clause_text(c, &names))
            .collect(),
    };
    kinds.kinds.into_iter().map(kind).collect()
}

/// Counts the clauses by kind of constraint, keeping the first constraint's of each kind.
#[derive(Default)]
struct Kinds {
    vars: usize,
    current: Option<Constraint>,
    /// Whether the current constraint has written no clause yet.
    fresh: bool,
    /// The kinds, in the order they come.
    kinds: Vec<KindTally>,
}

/// One kind of constraint, as [`Kinds`] counts it.
struct KindTally {
    first: Option<Constraint>,
    constraints: usize,
    clauses: usize,
    first_clauses: Vec<Vec<Lit>>,
}

impl ClauseSink for Kinds {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let key = self.current.as_ref().map(std::mem::discriminant);
        let same = |k: &KindTally| k.first.as_ref().map(std::mem::discriminant) == key;
        let at = self.kinds.iter().position(same).unwrap_or_else(|| {
            self.kinds.push(KindTally {
                first: self.current,
                constraints: 0,
                clauses: 0,
                first_clauses: Vec::new(),
            });
            self.kinds.len() - 1
        });
        let kind = &mut self.kinds[at];
        if std::mem::take(&mut self.fresh) || kind.constraints == 0 {
            kind.constraints += 1;
        }
        kind.clauses += 1;
        if kind.first == self.current {
            kind.first_clauses.push(clause.to_vec());
        }
    }

    fn constraint(&mut self, what: Constraint) {
        self.current = Some(what);
        self.fresh = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds' clauses add up to the formula's, and each kind's first constraint is the
    /// listing's first group of that kind.
    #[test]
    fn the_kinds_add_up_to_the_formula() {
        let puzzle = parse_line("12..34..........", None).unwrap();
        for encoding in [Encoding::Minimal, Encoding::Extended, Encoding::Optimized] {
            for amo in [Amo::Pairwise, Amo::Sequential] {
                let options = CnfOptions { encoding, amo };
                let mut cnf = Cnf::new();
                encode(&puzzle, options, &mut cnf);
                let kinds = constraint_kinds(&puzzle, options);
                let clauses: usize = kinds.iter().map(|k| k.clauses).sum();
                assert_eq!(clauses, cnf.len(), "{encoding} {amo}");
                let listing = symbolic_listing(&puzzle, options);
                for kind in &kinds {
                    let group = format!("# {}\n{}\n", kind.first, kind.first_clauses.join("\n"));
                    assert!(listing.contains(&group), "{encoding} {amo}: {group}");
                    assert!(kind.constraints >= 1 && kind.clauses >= kind.first_clauses.len());
                }
            }
        }
        let extended = CnfOptions {
            encoding: Encoding::Extended,
            amo: Amo::Pairwise,
        };
        let counts: Vec<_> = constraint_kinds(&puzzle, extended)
            .iter()
            .map(|k| (k.constraints, k.clauses))
            .collect();
        // 16 cells (a value, at most one: 6 pairs each), 12 units × 4 values (at most once: 6
        // pairs; holds it: 1), 4 givens.
        assert_eq!(counts, [(16, 16), (16, 96), (48, 288), (48, 48), (4, 4)]);
    }
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
