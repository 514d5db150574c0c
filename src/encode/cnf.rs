//! CNF encodings of a puzzle: Lynce & Ouaknine's minimal, efficient and extended encodings,
//! Kwon & Jain's optimized encoding, and four at-most-one (AMO) encodings.
//!
//! Variables `x(r,c,v)` are numbered as in [`crate::encode`] (DIMACS `r·n² + c·n + v + 1`);
//! auxiliary variables of the AMO encodings follow after the `n³` (or, in `optimized`, after the
//! open) x variables. The clauses go to any [`ClauseSink`].
//!
//! # Encodings
//! - **minimal**: each cell has at least one value (`n²` clauses of `n` literals); each value is
//!   at most once in each unit (one AMO over `n` cells per unit and value).
//! - **efficient**: minimal + each cell has at most one value (one AMO over `n` values per cell).
//! - **extended**: efficient + each value is at least once in each unit (`n` literals per clause).
//! - **optimized** (Kwon & Jain): extended, simplified by the givens. A given fixes its variable
//!   true, and every other value of its cell and the same value in its peers false; those
//!   variables are not emitted, clauses satisfied by a true variable are dropped, false literals
//!   are deleted. The remaining ("open") variables are renumbered `1..` in x order, and the
//!   [`VarMap`] maps them back, so decoding stays exact. With pairwise AMO, the box pairs whose
//!   two cells share a row or a column (already excluded by that row or column) are dropped too
//!   ([`Encoded::dropped_box_pairs`] counts them).
//!
//! In minimal/efficient/extended each given becomes a unit clause, and the box AMO keeps the pairs
//! that repeat a row or column pair, so the counts are exactly the paper's: an empty 9×9 has 729
//! variables and 8829 (minimal), 11745 (efficient), 11988 (extended) clauses.
//!
//! # At-most-one encodings (k literals, k ≥ 3; k ≤ 2 is always pairwise)
//! | AMO | clauses A(k) | auxiliary variables X(k) |
//! |---|---|---|
//! | pairwise | k(k−1)/2 | 0 |
//! | sequential (Sinz's counter) | 3k − 4 | k − 1 |
//! | product (Chen, one level, pairwise on the coordinates) | 2k + a(a−1)/2 + b(b−1)/2 | a + b |
//! | bimander (Nguyen & Mai, groups of two) | ⌊k/2⌋ + k·m | m |
//!
//! with `a = ⌈√k⌉`, `b = ⌈k/a⌉`, `m = ⌈log₂⌈k/2⌉⌉`. Every AMO clause has two literals.
//!
//! # Sizes in closed form
//! For a grid of order `n = p·q` with `U` unit kinds (3 for Sudoku, 2 for a Latin square) and
//! `g` givens, with `A = A(n)` and `X = X(n)` from the table above:
//!
//! | encoding | clauses | auxiliary variables | literals |
//! |---|---|---|---|
//! | minimal | n² + U·n²·A + g | U·n²·X | n³ + 2·U·n²·A + g |
//! | efficient | n² + (U+1)·n²·A + g | (U+1)·n²·X | n³ + 2·(U+1)·n²·A + g |
//! | extended | (U+1)·n² + (U+1)·n²·A + g | (U+1)·n²·X | (U+1)·n³ + 2·(U+1)·n²·A + g |
//!
//! Variables are `n³ +` the auxiliary count. For the empty grid the optimized encoding with
//! pairwise AMO is extended minus the `n²·(p·q(q−1)/2 + q·p(p−1)/2)` repeated box pairs (1458 at
//! 9×9). [`formula_size`] evaluates these formulas; the tests check them against the encoders.
//!
//! # Complexity
//! Encoding is linear in the output: O(n⁴) clauses with pairwise AMO, O(n³) with sequential or
//! product. The encoder itself keeps O(n) scratch memory, plus O(n³) bits for `optimized`.
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006 (the three encodings, counts).
//! - G. Kwon, H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
//! - C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints", CP 2005.
//! - J. Chen, "A new SAT encoding of the at-most-one constraint", ModRef 2010.
//! - V.-H. Nguyen, S. T. Mai, "A new method to encode the at-most-one constraint into SAT",
//!   SoICT 2015 (bimander).
//!
//! # Examples
//! ```
//! use sudokit::encode::{cnf::{encode, Amo, CnfOptions, Encoding}, Counter};
//! use sudokit::{Grid, Shape};
//! let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
//! let mut count = Counter::default();
//! encode(&empty, CnfOptions { encoding: Encoding::Extended, amo: Amo::Pairwise }, &mut count);
//! assert_eq!((count.vars, count.clauses), (729, 11988));
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{ClauseSink, Lit, Model, Var, allowed, x_index};
use crate::grid::{CellRef, Grid};
use crate::shape::{Shape, UnitKind};

/// Which clauses the encoding emits; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Cell at-least-one + unit at-most-one per value.
    Minimal,
    /// Minimal + cell at-most-one.
    Efficient,
    /// Efficient + unit at-least-one per value.
    #[default]
    Extended,
    /// Kwon & Jain: extended, simplified by the givens, with a variable map.
    Optimized,
}

impl Encoding {
    /// All encodings, in the order of the paper.
    pub const ALL: [Encoding; 4] = [
        Encoding::Minimal,
        Encoding::Efficient,
        Encoding::Extended,
        Encoding::Optimized,
    ];

    /// The name used on the command line and in file comments.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Efficient => "efficient",
            Encoding::Extended => "extended",
            Encoding::Optimized => "optimized",
        }
    }
}

/// How an at-most-one constraint over k literals is written; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Amo {
    /// One binary clause per pair.
    #[default]
    Pairwise,
    /// Sinz's sequential counter.
    Sequential,
    /// Chen's product encoding (one level).
    Product,
    /// Nguyen & Mai's bimander encoding with groups of two.
    Bimander,
}

impl Amo {
    /// All AMO encodings.
    pub const ALL: [Amo; 4] = [Amo::Pairwise, Amo::Sequential, Amo::Product, Amo::Bimander];

    /// The name used on the command line and in file comments.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Product => "product",
            Amo::Bimander => "bimander",
        }
    }

    /// Clauses for an AMO over `k` literals: the A(k) of the module docs.
    pub fn clauses(self, k: usize) -> usize {
        match (self, k) {
            (_, 0 | 1) => 0,
            (Amo::Pairwise, _) | (_, 2) => k * (k - 1) / 2,
            (Amo::Sequential, _) => 3 * k - 4,
            (Amo::Product, _) => {
                let (a, b) = product_sides(k);
                2 * k + a * (a - 1) / 2 + b * (b - 1) / 2
            }
            (Amo::Bimander, _) => k / 2 + k * bimander_bits(k),
        }
    }

    /// Auxiliary variables for an AMO over `k` literals: the X(k) of the module docs.
    pub fn aux(self, k: usize) -> usize {
        match (self, k) {
            (_, 0..=2) | (Amo::Pairwise, _) => 0,
            (Amo::Sequential, _) => k - 1,
            (Amo::Product, _) => {
                let (a, b) = product_sides(k);
                a + b
            }
            (Amo::Bimander, _) => bimander_bits(k),
        }
    }
}

macro_rules! named_enum_parse {
    ($t:ty, $what:literal) => {
        impl FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                <$t>::ALL
                    .into_iter()
                    .find(|e| e.name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = <$t>::ALL.iter().map(|e| e.name()).collect();
                        format!("unknown {} '{s}' (one of {})", $what, names.join(", "))
                    })
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
named_enum_parse!(Encoding, "encoding");
named_enum_parse!(Amo, "at-most-one encoding");

/// `(a, b)` = `(⌈√k⌉, ⌈k/a⌉)`: the grid the product encoding lays k literals on.
fn product_sides(k: usize) -> (usize, usize) {
    let mut a = (k as f64).sqrt() as usize;
    while a * a < k {
        a += 1;
    }
    while a > 1 && (a - 1) * (a - 1) >= k {
        a -= 1;
    }
    (a, k.div_ceil(a))
}

/// `⌈log₂ ⌈k/2⌉⌉`: the bits that number the groups of two of the bimander encoding.
fn bimander_bits(k: usize) -> usize {
    let groups = k.div_ceil(2);
    (usize::BITS - (groups - 1).leading_zeros()) as usize
}

/// An encoding and an AMO choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CnfOptions {
    /// Which clauses.
    pub encoding: Encoding,
    /// How each at-most-one is written.
    pub amo: Amo,
}

/// Variables, clauses and literals of a CNF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Size {
    /// Variables (x and auxiliary).
    pub vars: usize,
    /// Clauses.
    pub clauses: usize,
    /// Literal occurrences.
    pub literals: usize,
}

/// The closed-form size of the minimal, efficient or extended encoding of a puzzle with `givens`
/// givens on `shape` (see the module docs); `None` for `optimized`, whose size depends on where
/// the givens are.
pub fn formula_size(shape: Shape, options: CnfOptions, givens: usize) -> Option<Size> {
    let n = shape.order();
    let n2 = n * n;
    let units = if shape.is_latin() { 2 } else { 3 };
    let (a, x) = (options.amo.clauses(n), options.amo.aux(n));
    let (amo_sets, alo_units) = match options.encoding {
        Encoding::Minimal => (units * n2, 0),
        Encoding::Efficient => ((units + 1) * n2, 0),
        Encoding::Extended => ((units + 1) * n2, units * n2),
        Encoding::Optimized => return None,
    };
    Some(Size {
        vars: n * n2 + amo_sets * x,
        clauses: n2 + amo_sets * a + alo_units + givens,
        literals: n * n2 + 2 * amo_sets * a + alo_units * n + givens,
    })
}

/// The repeated box pairs of a shape: `n²·(p·q(q−1)/2 + q·p(p−1)/2)`, 0 for a Latin square.
pub fn repeated_box_pairs(shape: Shape) -> usize {
    if shape.is_latin() {
        return 0;
    }
    let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
    n * n * (p * q * (q - 1) / 2 + q * p * (p - 1) / 2)
}

/// How the variables of an encoded puzzle map back to `x(r,c,v)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarMap {
    /// `x(r,c,v)` is variable `first + x_index(n, r, c, v)` (minimal, efficient, extended).
    Direct {
        /// The order.
        n: usize,
        /// The variable of `x(0,0,0)` (index 0 on a fresh sink).
        first: usize,
    },
    /// Only the open `x` have variables (optimized): `slots[x_index]` is `var index + 1`, or 0
    /// for an `x` fixed by the givens.
    Sparse {
        /// The order.
        n: usize,
        /// Per x index: 0 (fixed) or 1 + the variable index.
        slots: Vec<u32>,
    },
}

impl VarMap {
    /// The order.
    pub fn order(&self) -> usize {
        match self {
            VarMap::Direct { n, .. } | VarMap::Sparse { n, .. } => *n,
        }
    }

    /// The variable of `x(r,c,v)` (0-based), `None` if the encoding fixed it.
    pub fn var(&self, row: usize, col: usize, value: usize) -> Option<Var> {
        let n = self.order();
        let i = x_index(n, row, col, value);
        match self {
            VarMap::Direct { first, .. } => Some(Var::from_index(first + i)),
            VarMap::Sparse { slots, .. } => {
                (slots[i] != 0).then(|| Var::from_index(slots[i] as usize - 1))
            }
        }
    }

    /// Number of x variables that got a variable.
    pub fn x_vars(&self) -> usize {
        match self {
            VarMap::Direct { n, .. } => n * n * n,
            VarMap::Sparse { slots, .. } => slots.iter().filter(|&&s| s != 0).count(),
        }
    }

    /// The grid a model describes: each cell takes the value whose variable is true; a cell with
    /// no variable (optimized, a given) takes its given.
    ///
    /// # Errors
    /// [`DecodeError::NoValue`] when no value of a cell is true, [`DecodeError::TwoValues`]
    /// when two are. The grid is not verified here: pass it to [`crate::verify`].
    pub fn decode(&self, puzzle: &Grid, model: &Model) -> Result<Grid, DecodeError> {
        let shape = puzzle.shape();
        let n = shape.order();
        let mut grid = Grid::empty(shape);
        for cell in 0..shape.cells() {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            let mut found = None;
            let mut has_var = false;
            for v in 0..n {
                if let Some(var) = self.var(r, c, v) {
                    has_var = true;
                    if model.is_true(var) {
                        if let Some(first) = found {
                            return Err(DecodeError::TwoValues {
                                cell: grid.cell_ref(cell),
                                first: first + 1,
                                second: v + 1,
                            });
                        }
                        found = Some(v);
                    }
                }
            }
            if !has_var {
                found = puzzle.get(cell);
            }
            match found {
                Some(v) => grid.set(cell, Some(v)),
                None => {
                    return Err(DecodeError::NoValue {
                        cell: grid.cell_ref(cell),
                    });
                }
            }
        }
        Ok(grid)
    }
}

/// Why a model does not describe a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// No value of a cell is true.
    #[error("the answer sets no value of cell {cell}")]
    NoValue {
        /// The cell.
        cell: CellRef,
    },
    /// Two values of a cell are true.
    #[error("the answer sets two values of cell {cell}: {first} and {second}")]
    TwoValues {
        /// The cell.
        cell: CellRef,
        /// The 1-based first value.
        first: usize,
        /// The 1-based second value.
        second: usize,
    },
}

/// What an encoder reports besides the clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The variable map for decoding.
    pub map: VarMap,
    /// Box AMO pairs left out because a row or column already has them (optimized, pairwise).
    pub dropped_box_pairs: usize,
    /// Whether the encoder wrote an empty clause (clashing givens, or a cell or unit left
    /// without a place for a value): the formula is unsatisfiable.
    pub trivially_unsat: bool,
}

/// Encodes `puzzle` into `sink`; see the module docs.
///
/// # Complexity
/// Linear in the clauses written (see the module docs).
pub fn encode(puzzle: &Grid, options: CnfOptions, sink: &mut dyn ClauseSink) -> Encoded {
    match options.encoding {
        Encoding::Optimized => encode_optimized(puzzle, options.amo, sink),
        encoding => encode_direct(puzzle, encoding, options.amo, sink),
    }
}

/// Writes an AMO over `lits` with `amo`.
pub fn at_most_one(amo: Amo, lits: &[Lit], sink: &mut dyn ClauseSink) {
    let k = lits.len();
    if k <= 1 {
        return;
    }
    match amo {
        _ if k == 2 => sink.add_clause(&[lits[0].negate(), lits[1].negate()]),
        Amo::Pairwise => pairwise(lits, sink),
        Amo::Sequential => {
            // s_i: "some of x_1..x_i is true", for i < k.
            let first = sink.new_var().index();
            for _ in 1..k - 1 {
                sink.new_var();
            }
            let s = |i: usize| Var::from_index(first + i);
            sink.add_clause(&[lits[0].negate(), s(0).positive()]);
            for (i, &x) in lits.iter().enumerate().take(k - 1).skip(1) {
                sink.add_clause(&[x.negate(), s(i).positive()]);
                sink.add_clause(&[s(i - 1).negative(), s(i).positive()]);
                sink.add_clause(&[x.negate(), s(i - 1).negative()]);
            }
            sink.add_clause(&[lits[k - 1].negate(), s(k - 2).negative()]);
        }
        Amo::Product => {
            let (a, b) = product_sides(k);
            let first = sink.new_var().index();
            for _ in 1..a + b {
                sink.new_var();
            }
            let u = |i: usize| Var::from_index(first + i).positive();
            let v = |j: usize| Var::from_index(first + a + j).positive();
            for (i, &x) in lits.iter().enumerate() {
                sink.add_clause(&[x.negate(), u(i / b)]);
                sink.add_clause(&[x.negate(), v(i % b)]);
            }
            let us: Vec<Lit> = (0..a).map(u).collect();
            let vs: Vec<Lit> = (0..b).map(v).collect();
            pairwise(&us, sink);
            pairwise(&vs, sink);
        }
        Amo::Bimander => {
            // Groups of two literals, each group numbered in binary by the bits b_j: a true
            // literal forces the bits to its group's number, and its partner to be false.
            let bits = bimander_bits(k);
            let first = sink.new_var().index();
            for _ in 1..bits {
                sink.new_var();
            }
            for pair in lits.chunks(2) {
                if let [a, b] = pair {
                    sink.add_clause(&[a.negate(), b.negate()]);
                }
            }
            for (i, &x) in lits.iter().enumerate() {
                let group = i / 2;
                for j in 0..bits {
                    let bit = Var::from_index(first + j);
                    let lit = if group >> j & 1 == 1 {
                        bit.positive()
                    } else {
                        bit.negative()
                    };
                    sink.add_clause(&[x.negate(), lit]);
                }
            }
        }
    }
}

fn pairwise(lits: &[Lit], sink: &mut dyn ClauseSink) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[a.negate(), b.negate()]);
        }
    }
}

fn encode_direct(
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
            sink.add_clause(&lits);
            if cell_amo {
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
            at_most_one(amo, &lits, sink);
            if encoding == Encoding::Extended {
                sink.add_clause(&lits);
            }
        }
    }
    for (cell, v) in puzzle.givens() {
        sink.add_clause(&[x(shape.row_of(cell), shape.col_of(cell), v)]);
    }
    Encoded {
        map: VarMap::Direct { n, first },
        dropped_box_pairs: 0,
        trivially_unsat: false,
    }
}

fn encode_optimized(puzzle: &Grid, amo: Amo, sink: &mut dyn ClauseSink) -> Encoded {
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
        if lits.is_empty() {
            empty_clause(sink, &mut encoded.trivially_unsat);
        } else {
            sink.add_clause(&lits);
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
            if lits.is_empty() {
                empty_clause(sink, &mut encoded.trivially_unsat);
                continue;
            }
            sink.add_clause(&lits);
            if unit.kind == UnitKind::Box && amo == Amo::Pairwise {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Cnf, Counter};
    use crate::text::parse_line;

    fn count(puzzle: &Grid, encoding: Encoding, amo: Amo) -> (Counter, Encoded) {
        let mut c = Counter::default();
        let e = encode(puzzle, CnfOptions { encoding, amo }, &mut c);
        (c, e)
    }

    #[test]
    fn the_empty_nine_by_nine_has_the_papers_counts() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        for (encoding, clauses) in [
            (Encoding::Minimal, 8829),
            (Encoding::Efficient, 11745),
            (Encoding::Extended, 11988),
        ] {
            let (c, _) = count(&empty, encoding, Amo::Pairwise);
            assert_eq!((c.vars, c.clauses), (729, clauses), "{encoding}");
        }
        assert_eq!(repeated_box_pairs(empty.shape()), 1458);
    }

    #[test]
    fn the_formulas_match_the_encoders() {
        let shapes = [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5)];
        for (p, q) in shapes {
            for shape in [Shape::sudoku(p, q).unwrap(), Shape::latin(p * q).unwrap()] {
                let empty = Grid::empty(shape);
                for encoding in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
                    for amo in Amo::ALL {
                        let options = CnfOptions { encoding, amo };
                        let (c, _) = count(&empty, encoding, amo);
                        let f = formula_size(shape, options, 0).unwrap();
                        assert_eq!(
                            (c.vars, c.clauses, c.literals),
                            (f.vars, f.clauses, f.literals),
                            "{shape} {encoding} {amo}"
                        );
                    }
                }
                let (ext, _) = count(&empty, Encoding::Extended, Amo::Pairwise);
                let (opt, e) = count(&empty, Encoding::Optimized, Amo::Pairwise);
                assert_eq!(e.dropped_box_pairs, repeated_box_pairs(shape), "{shape}");
                assert_eq!(opt.clauses, ext.clauses - repeated_box_pairs(shape));
                assert_eq!(opt.vars, ext.vars);
            }
        }
    }

    #[test]
    fn amo_counts_follow_the_table() {
        for k in 0..40 {
            for amo in Amo::ALL {
                let mut cnf = Cnf::with_vars(k);
                let lits: Vec<Lit> = (0..k).map(|i| Var::from_index(i).positive()).collect();
                at_most_one(amo, &lits, &mut cnf);
                assert_eq!(cnf.len(), amo.clauses(k), "{amo} k={k}");
                assert_eq!(cnf.vars() - k, amo.aux(k), "{amo} k={k}");
            }
        }
        assert_eq!(Amo::Sequential.clauses(9), 23);
        assert_eq!(Amo::Product.clauses(9), 18 + 3 + 3);
        // 9 literals: 5 groups numbered with 3 bits; 4 pair clauses + 9·3 bit clauses.
        assert_eq!((Amo::Bimander.clauses(9), Amo::Bimander.aux(9)), (31, 3));
        assert_eq!(bimander_bits(3), 1);
        assert_eq!(bimander_bits(64), 5);
        assert_eq!(product_sides(10), (4, 3));
    }

    #[test]
    fn amo_encodings_allow_exactly_the_assignments_with_at_most_one_true() {
        // Brute force: every assignment of k ≤ 8 literals extends to the auxiliaries iff ≤ 1 true.
        for k in 0..=8 {
            for amo in Amo::ALL {
                let mut cnf = Cnf::with_vars(k);
                let lits: Vec<Lit> = (0..k).map(|i| Var::from_index(i).positive()).collect();
                at_most_one(amo, &lits, &mut cnf);
                let aux = cnf.vars() - k;
                for bits in 0u32..1 << k {
                    let extendable = (0u32..1 << aux).any(|extra| {
                        let assignment: Vec<bool> = (0..k)
                            .map(|i| bits >> i & 1 == 1)
                            .chain((0..aux).map(|j| extra >> j & 1 == 1))
                            .collect();
                        cnf.is_satisfied_by(&assignment)
                    });
                    assert_eq!(extendable, bits.count_ones() <= 1, "{amo} k={k} {bits:b}");
                }
            }
        }
    }

    #[test]
    fn optimized_drops_fixed_variables_and_decodes_through_the_map() {
        let puzzle = parse_line("1.3.....4....2..", None).unwrap();
        let solution = parse_line("1432234141233214", None).unwrap();
        let mut cnf = Cnf::new();
        let e = encode(
            &puzzle,
            CnfOptions {
                encoding: Encoding::Optimized,
                amo: Amo::Pairwise,
            },
            &mut cnf,
        );
        assert!(!e.trivially_unsat);
        assert!(e.map.x_vars() < 64 - 4);
        let model = Model::from_lits(
            solution
                .givens()
                .filter_map(|(cell, v)| e.map.var(cell / 4, cell % 4, v).map(Var::positive)),
        );
        let bools = model.to_bools(cnf.vars());
        assert!(cnf.is_satisfied_by(&bools));
        assert_eq!(e.map.decode(&puzzle, &model).unwrap(), solution);
    }

    #[test]
    fn optimized_reports_clashes_and_dead_cells_as_empty_clauses() {
        let clash = parse_line("11..............", None).unwrap();
        let (_, e) = count(&clash, Encoding::Optimized, Amo::Pairwise);
        assert!(e.trivially_unsat);
        // Cell (1,4) sees 1 and 2 in its row, 3 in its box and 4 in its column.
        let dead = parse_line("12....3........4", None).unwrap();
        let mut cnf = Cnf::new();
        let e = encode(
            &dead,
            CnfOptions {
                encoding: Encoding::Optimized,
                amo: Amo::Sequential,
            },
            &mut cnf,
        );
        assert!(e.trivially_unsat);
        assert!(cnf.clauses().any(|c| c.is_empty()));
    }

    #[test]
    fn decoding_reports_cells_without_or_with_two_values() {
        let puzzle = Grid::empty(Shape::sudoku(2, 2).unwrap());
        let map = VarMap::Direct { n: 4, first: 0 };
        let err = map.decode(&puzzle, &Model::default()).unwrap_err();
        assert_eq!(err.to_string(), "the answer sets no value of cell (1,1)");
        let model =
            Model::from_lits([Var::from_index(0).positive(), Var::from_index(2).positive()]);
        assert_eq!(
            map.decode(&puzzle, &model).unwrap_err().to_string(),
            "the answer sets two values of cell (1,1): 1 and 3"
        );
    }

    #[test]
    fn names_parse_back() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>().unwrap(), e);
        }
        for a in Amo::ALL {
            assert_eq!(a.to_string().parse::<Amo>().unwrap(), a);
        }
        assert!("commander".parse::<Amo>().unwrap_err().contains("bimander"));
    }
}
