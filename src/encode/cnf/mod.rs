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
//! # Files
//! [`direct`] (minimal, efficient, extended), [`optimized`], [`amo`] (the four at-most-one
//! encodings, one file each, with their sizes A(k) and X(k)), [`var_map`] (decoding).
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

/// `FromStr` and `Display` through `ALL` and `name()`, with an error that lists the names.
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

pub mod amo;
pub mod direct;
pub mod optimized;
pub mod symbolic;
pub mod var_map;

use std::fmt;
use std::str::FromStr;

use super::{ClauseSink, Lit, Var};
use crate::grid::Grid;
use crate::shape::Shape;

pub use amo::{Amo, AtMostOne, at_most_one};
pub use symbolic::symbolic_listing;
pub use var_map::{DecodeError, VarMap};

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

    /// What the encoding writes, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Encoding::Minimal => "cell at-least-one, unit at-most-one per value (Lynce & Ouaknine)",
            Encoding::Efficient => "minimal + cell at-most-one",
            Encoding::Extended => "efficient + unit at-least-one per value",
            Encoding::Optimized => {
                "extended simplified by the givens, open variables renumbered (Kwon & Jain)"
            }
        }
    }
}

named_enum_parse!(Encoding, "encoding");

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
pub struct CnfSize {
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
pub fn formula_size(shape: Shape, options: CnfOptions, givens: usize) -> Option<CnfSize> {
    let n = shape.order();
    let n2 = n * n;
    // One AMO (and ALO) set per unit and value: 3n² (2n² Latin), n more per extra unit.
    let unit_values = shape.unit_count() * n;
    let (a, x) = (options.amo.clauses(n), options.amo.aux(n));
    let (amo_sets, alo_units) = match options.encoding {
        Encoding::Minimal => (unit_values, 0),
        Encoding::Efficient => (unit_values + n2, 0),
        Encoding::Extended => (unit_values + n2, unit_values),
        Encoding::Optimized => return None,
    };
    Some(CnfSize {
        vars: n * n2 + amo_sets * x,
        clauses: n2 + amo_sets * a + alo_units + givens,
        literals: n * n2 + 2 * amo_sets * a + alo_units * n + givens,
    })
}

/// The repeated box pairs of a shape: `n²·(p·q(q−1)/2 + q·p(p−1)/2)`, 0 for a Latin square;
/// with a region map, n times the pairs of cells of a region that share a row or a column.
pub fn repeated_box_pairs(shape: Shape) -> usize {
    if shape.is_latin() {
        return 0;
    }
    if shape.has_region_map() {
        let n = shape.order();
        let pairs: usize = (0..n)
            .map(|b| {
                let cells: Vec<usize> = (0..n).map(|i| shape.box_cell(b, i)).collect();
                let mut shared = 0;
                for (i, &a) in cells.iter().enumerate() {
                    for &o in &cells[i + 1..] {
                        let line = shape.row_of(a) == shape.row_of(o)
                            || shape.col_of(a) == shape.col_of(o);
                        shared += usize::from(line);
                    }
                }
                shared
            })
            .sum();
        return n * pairs;
    }
    let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
    n * n * (p * q * (q - 1) / 2 + q * p * (p - 1) / 2)
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
        Encoding::Optimized => optimized::encode_optimized(puzzle, options.amo, sink),
        encoding => direct::encode_direct(puzzle, encoding, options.amo, sink),
    }
}

/// The clause that excludes `solution`: some open cell takes another value. Over the x
/// variables of the open cells only (given cells are fixed; auxiliary variables are not
/// functions of the grid). Empty when no cell is open.
pub fn blocking_clause(puzzle: &Grid, map: &VarMap, solution: &Grid) -> Vec<Lit> {
    let shape = puzzle.shape();
    (0..shape.cells())
        .filter(|&cell| puzzle.get(cell).is_none())
        .filter_map(|cell| {
            let v = solution.get(cell)?;
            map.var(shape.row_of(cell), shape.col_of(cell), v)
                .map(Var::negative)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Cnf, Counter, Model, Var};
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
