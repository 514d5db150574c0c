//! Encoders: one puzzle translated into one formalism per file, and the shared variable map.
//!
//! | file | formalism | written by |
//! |---|---|---|
//! | [`cnf`] | propositional CNF (Lynce & Ouaknine encodings, Kwon & Jain's optimized one) | [`crate::format::dimacs`] |
//! | [`ilp`] | 0-1 integer program with equality constraints | [`crate::format::lp`], [`crate::format::mps`] |
//! | [`exact_cover`] | exact cover with 4n² primary items | [`crate::format::dlx1`] |
//! | [`graph`] | precoloured Sudoku graph and hypergraph (petgraph) | [`crate::format::col`], [`crate::format::hgr`] |
//! | [`csp`] | alldifferent model for MiniZinc | [`crate::format::minizinc`] |
//!
//! # The x(r,c,v) map
//! Every formalism uses the Boolean (or 0-1) variable `x(r,c,v)`: "cell (r,c) holds value v".
//! In code `r, c, v` are 0-based and the variable has the 0-based index
//! [`x_index`]`(n, r, c, v) = r·n² + c·n + v`; in every file a user reads it is the 1-based
//! DIMACS variable `r·n² + c·n + v + 1` ([`Var::to_dimacs`]), the same number DESIGN.md §5 gives.
//! [`x_of_index`] inverts it. The 0-based/1-based boundary is crossed only by
//! [`Var::from_dimacs`] / [`Var::to_dimacs`] and [`Lit::from_dimacs`] / [`Lit::to_dimacs`].
//!
//! # The clause sink
//! [`ClauseSink`] is the one interface the CNF encoders write to, in the spirit of varisat's
//! `ExtendFormula`: `new_var` and `add_clause`. It is object safe and infallible, so the same
//! encoder feeds the streaming DIMACS writer ([`crate::format::dimacs::DimacsWriter`], which keeps
//! the first I/O error until `finish`), the in-memory [`Cnf`], the [`Counter`] that sizes a file
//! before it is written, or a SAT solver. A sink hands out variables in increasing order, one
//! after the other.
//!
//! # Complexity
//! The map is O(1) both ways; [`Cnf`] stores a formula in one flat literal array
//! (4 bytes per literal plus 8 bytes per clause).
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006.
//! - G. Kwon, H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
//! - varisat's `ExtendFormula` trait (the shape of [`ClauseSink`]).
//!
//! # Examples
//! ```
//! use sudokit::encode::{x_index, x_of_index, Var};
//! // 9×9: x(r=1, c=1, v=1) (1-based) is DIMACS variable 1, x(9,9,9) is 729.
//! assert_eq!(Var::from_index(x_index(9, 0, 0, 0)).to_dimacs(), 1);
//! assert_eq!(Var::from_index(x_index(9, 8, 8, 8)).to_dimacs(), 729);
//! assert_eq!(x_of_index(9, x_index(9, 2, 7, 4)), (2, 7, 4));
//! ```

pub mod cnf;
pub mod csp;
pub mod exact_cover;
pub mod graph;
pub mod ilp;

use std::fmt;

use crate::grid::Grid;

/// The 0-based index of `x(r,c,v)` (0-based r, c, v) in an order-`n` grid: `r·n² + c·n + v`.
#[inline]
pub fn x_index(n: usize, row: usize, col: usize, value: usize) -> usize {
    debug_assert!(row < n && col < n && value < n);
    (row * n + col) * n + value
}

/// `(r, c, v)`, 0-based, of a 0-based index `< n³`.
#[inline]
pub fn x_of_index(n: usize, index: usize) -> (usize, usize, usize) {
    (index / (n * n), index / n % n, index % n)
}

/// The `(r, c, v)` (0-based) of `solution` in the cells `puzzle` leaves open: what a no-good
/// that rules `solution` out forbids together (the given cells are fixed in every solution).
/// Empty when no cell is open.
pub fn nogood(puzzle: &Grid, solution: &Grid) -> Vec<(usize, usize, usize)> {
    let shape = puzzle.shape();
    (0..shape.cells())
        .filter(|&cell| puzzle.get(cell).is_none())
        .filter_map(|cell| {
            let v = solution.get(cell)?;
            Some((shape.row_of(cell), shape.col_of(cell), v))
        })
        .collect()
}

/// Which `x(r,c,v)` the givens leave open, indexed by [`x_index`]: a given cell allows only its
/// value; an empty cell allows the values no given peer holds.
///
/// # Complexity
/// O(n³) time and n³ bytes.
pub fn allowed(puzzle: &Grid) -> Vec<bool> {
    let shape = puzzle.shape();
    let n = shape.order();
    // used[unit][v]: value v is given somewhere in the unit.
    let mut used = vec![false; shape.unit_count() * n];
    for (cell, v) in puzzle.givens() {
        for unit in shape.units_of(cell) {
            used[unit.index(n) * n + v] = true;
        }
    }
    let mut allowed = vec![false; n * n * n];
    for cell in 0..shape.cells() {
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        match puzzle.get(cell) {
            Some(v) => allowed[x_index(n, r, c, v)] = true,
            None => {
                for v in 0..n {
                    allowed[x_index(n, r, c, v)] =
                        shape.units_of(cell).all(|u| !used[u.index(n) * n + v]);
                }
            }
        }
    }
    allowed
}

/// An assignment read from a solver's answer: `Some(true/false)` per variable it mentions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Model {
    values: Vec<Option<bool>>,
    /// Variables far past the dense part (a stray `1144444442` in an answer file), kept sparse so
    /// a few bytes of input never allocate gigabytes; the dense part grows only as far as the
    /// literals set so far justify.
    far: std::collections::BTreeMap<usize, bool>,
    /// Literals set so far.
    set: usize,
    /// One past the largest variable index mentioned.
    len: usize,
}

/// Slack of the dense part of a [`Model`]: it grows to index `i` when `i < 2·set + DENSE_SLACK`.
const DENSE_SLACK: usize = 1 << 16;

impl Model {
    /// The model that sets each literal of `lits` true (later literals win on a repeat).
    pub fn from_lits(lits: impl IntoIterator<Item = Lit>) -> Model {
        let mut model = Model::default();
        for l in lits {
            model.set(l);
        }
        model
    }

    /// Makes `lit` true.
    pub fn set(&mut self, lit: Lit) {
        let i = lit.var().index();
        self.set += 1;
        self.len = self.len.max(i + 1);
        if i >= self.values.len() {
            if i >= 2 * self.set + DENSE_SLACK {
                self.far.insert(i, !lit.is_negative());
                return;
            }
            self.values.resize(i + 1, None);
        }
        self.values[i] = Some(!lit.is_negative());
    }

    /// The value of a variable, `None` if the answer does not mention it.
    pub fn value(&self, var: Var) -> Option<bool> {
        let i = var.index();
        match self.values.get(i).copied().flatten() {
            Some(value) => Some(value),
            None => self.far.get(&i).copied(),
        }
    }

    /// Whether a variable is true (unmentioned variables count as false).
    pub fn is_true(&self, var: Var) -> bool {
        self.value(var) == Some(true)
    }

    /// One past the largest variable index mentioned.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no variable is mentioned.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The true/false vector of variables `0..vars` (unmentioned = false).
    pub fn to_bools(&self, vars: usize) -> Vec<bool> {
        (0..vars)
            .map(|i| self.is_true(Var::from_index(i)))
            .collect()
    }
}

/// A Boolean variable, 0-based inside, 1-based in DIMACS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The variable with 0-based index `index`.
    ///
    /// # Panics
    /// If `index ≥ 2³¹ − 1` (DIMACS numbers are signed 32-bit in every solver we target).
    #[inline]
    pub fn from_index(index: usize) -> Var {
        assert!(
            index < i32::MAX as usize,
            "variable index {index} too large"
        );
        Var(index as u32)
    }

    /// The 0-based index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The variable with 1-based DIMACS number `number ≥ 1`.
    ///
    /// # Panics
    /// If `number` is 0 or too large.
    #[inline]
    pub fn from_dimacs(number: usize) -> Var {
        assert!(number >= 1, "DIMACS variables start at 1");
        Var::from_index(number - 1)
    }

    /// The 1-based DIMACS number.
    #[inline]
    pub fn to_dimacs(self) -> usize {
        self.0 as usize + 1
    }

    /// The positive literal.
    #[inline]
    pub fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The negative literal.
    #[inline]
    pub fn negative(self) -> Lit {
        Lit(self.0 << 1 | 1)
    }
}

/// A literal: a variable or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal of a non-zero DIMACS integer (`-3` is "not variable 3").
    ///
    /// # Panics
    /// If `number` is 0.
    #[inline]
    pub fn from_dimacs(number: i64) -> Lit {
        let var = Var::from_dimacs(number.unsigned_abs() as usize);
        if number < 0 {
            var.negative()
        } else {
            var.positive()
        }
    }

    /// The signed 1-based DIMACS integer.
    #[inline]
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().to_dimacs() as i64;
        if self.is_negative() { -v } else { v }
    }

    /// The variable.
    #[inline]
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether the literal is a negation.
    #[inline]
    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// The opposite literal.
    #[inline]
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// Where CNF encoders put their clauses; see the module docs.
///
/// Contract: `new_var` returns `Var::from_index(k)` for `k = 0, 1, 2, …` in order on a fresh
/// sink (the encoders rely on it for the x(r,c,v) numbering).
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds a clause (the disjunction of `clause`; empty = false).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Says which constraint the clauses that follow write (until the next call): for listings
    /// that name each clause's constraint ([`cnf::symbolic_listing`]). Ignored by default.
    fn constraint(&mut self, what: Constraint) {
        let _ = what;
    }
}

/// What a group of clauses of a Sudoku CNF says (cells are row-major indices, values 0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constraint {
    /// The cell holds a value.
    CellHoldsAValue(usize),
    /// The cell holds at most one value.
    CellHoldsOneValue(usize),
    /// The unit holds the value at most once.
    UnitHoldsValueAtMostOnce(crate::shape::Unit, usize),
    /// The unit holds the value.
    UnitHoldsValue(crate::shape::Unit, usize),
    /// A given fixes its cell.
    Given(usize, usize),
}

/// A sink that only counts: variables, clauses and literals. Used to size a DIMACS header before
/// the clauses are streamed, and for `--stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counter {
    /// Variables handed out.
    pub vars: usize,
    /// Clauses added.
    pub clauses: usize,
    /// Literals in all clauses.
    pub literals: usize,
}

impl ClauseSink for Counter {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.literals += clause.len();
    }
}

/// A CNF formula in memory: clauses stored back to back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    vars: usize,
    literals: Vec<Lit>,
    ends: Vec<usize>,
}

impl Cnf {
    /// The empty formula over no variables.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// An empty formula declaring `vars` variables.
    pub fn with_vars(vars: usize) -> Cnf {
        Cnf {
            vars,
            ..Cnf::default()
        }
    }

    /// Number of variables.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Number of literal occurrences.
    pub fn literal_count(&self) -> usize {
        self.literals.len()
    }

    /// Clause `i`.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.literals[start..self.ends[i]]
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        (0..self.len()).map(|i| self.clause(i))
    }

    /// Feeds every variable and clause to another sink (a solver, a writer).
    pub fn replay(&self, sink: &mut dyn ClauseSink) {
        for _ in 0..self.vars {
            sink.new_var();
        }
        for clause in self.clauses() {
            sink.add_clause(clause);
        }
    }

    /// Whether `assignment` (indexed by variable, `true` = positive) satisfies every clause.
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        self.clauses().all(|clause| {
            clause.iter().any(|l| {
                assignment
                    .get(l.var().index())
                    .is_some_and(|&value| value != l.is_negative())
            })
        })
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        for l in clause {
            self.vars = self.vars.max(l.var().index() + 1);
        }
        self.literals.extend_from_slice(clause);
        self.ends.push(self.literals.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_is_a_bijection_on_small_orders() {
        for n in 1..=7 {
            for i in 0..n * n * n {
                let (r, c, v) = x_of_index(n, i);
                assert_eq!(x_index(n, r, c, v), i);
            }
        }
    }

    #[test]
    fn literals_round_trip_through_dimacs() {
        for d in [1i64, -1, 2, -729, 262_144, -262_144] {
            assert_eq!(Lit::from_dimacs(d).to_dimacs(), d);
        }
        assert_eq!(Lit::from_dimacs(-5).negate(), Lit::from_dimacs(5));
        assert_eq!(Lit::from_dimacs(-5).var(), Var::from_dimacs(5));
    }

    #[test]
    fn the_in_memory_formula_keeps_clauses_and_checks_assignments() {
        let mut cnf = Cnf::new();
        let a = cnf.new_var();
        let b = cnf.new_var();
        cnf.add_clause(&[a.positive(), b.positive()]);
        cnf.add_clause(&[a.negative()]);
        assert_eq!(cnf.len(), 2);
        assert_eq!(cnf.clause(1), &[a.negative()]);
        assert!(cnf.is_satisfied_by(&[false, true]));
        assert!(!cnf.is_satisfied_by(&[true, true]));
        let mut count = Counter::default();
        cnf.replay(&mut count);
        assert_eq!((count.vars, count.clauses, count.literals), (2, 2, 3));
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;

    /// Found by the `sat_answer` fuzz target: one literal `1144444442` in a three-line answer
    /// made the model allocate a gigabyte.
    #[test]
    fn a_huge_variable_is_kept_sparse() {
        let far = Var::from_index(1_144_444_441).positive();
        let model = Model::from_lits([Var::from_index(0).positive(), far]);
        assert!(model.values.len() < 1 << 20, "{}", model.values.len());
        assert_eq!(model.len(), 1_144_444_442);
        assert_eq!(model.value(far.var()), Some(true));
        assert_eq!(model.value(Var::from_index(0)), Some(true));
        assert_eq!(model.value(Var::from_index(5)), None);
    }
}
