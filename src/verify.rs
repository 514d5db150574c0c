//! The O(n²) certificate verifier: is a candidate grid a solution of a puzzle?
//!
//! Every answer any sudokit backend reports passes through [`verify`] first. It depends on
//! [`Shape`] and [`Grid`] only — never on a solver — so a wrong solver cannot vouch
//! for itself.
//!
//! # The NP-membership argument
//! Generalized Sudoku is in NP because a solution is a certificate of polynomial size (n² values of
//! ⌈log₂(n+1)⌉ bits) that this function checks in time polynomial — in fact linear — in that size.
//! A candidate `s` solves puzzle `P` iff
//! 1. `s` has `P`'s shape and every cell holds a value in `1..=n` (complete, in range);
//! 2. `s` agrees with every given of `P`;
//! 3. every unit of `s` is a permutation of `1..=n`.
//!
//! For (3) it suffices that no unit repeats a value: a unit has exactly `n` cells, each holding one
//! of `n` values, so by the pigeonhole principle "no value twice" means "every value once". The
//! check therefore keeps one n-bit set per unit scan and stops at the first value met twice.
//!
//! # Complexity
//! Time O(n²): each cell is read once in the row scan (which also checks completeness, range and
//! givens) and once more in each of the column and box scans, with O(1) bitset work per read; a
//! failure costs at most one more O(n) scan of the guilty unit to name the earlier cell. Extra
//! memory: one bitset of `n` bits, reused for every unit — ⌈n/64⌉ words, so O(n) words. There is
//! no sorting and no hashing. (A single pass with one bitset per unit would need `3n²` bits; three
//! scans with one bitset keep the memory at O(n) and the time linear.) Up to order 64 a unit's set
//! fits one word, so a valid candidate is first checked in one pass with a word per row, column
//! and box (2n + 1 words; for orders 9, 16 and 25 the range and givens in the same pass, every
//! unit required to hold all n values), and the scans run only to name the first violation of
//! an invalid one.
//!
//! Measured with `cargo bench --bench verify` (criterion, one core, valid pattern grids with half
//! the cells given; per-call time divided by n²), in one run on the 2-core development machine:
//!
//! | n | cells | Sudoku ns/cell | Latin ns/cell |
//! |---:|---:|---:|---:|
//! | 9 | 81 | 1.3 | 0.9 |
//! | 16 | 256 | 0.9 | 0.8 |
//! | 25 | 625 | 0.6 | 0.5 |
//! | 36 | 1,296 | 2.1 | 2.3 |
//! | 64 | 4,096 | 2.3 | 2.2 |
//! | 100 | 10,000 | 7.7 | 4.6 |
//! | 256 | 65,536 | 6.5 | 4.3 |
//! | 1024 | 1,048,576 | 9.1 | 5.2 |
//!
//! The orders 9, 16 and 25 (square boxes and Latin squares) take one pass with the shape fixed
//! at compile time (about one instruction a cell, vectorised); 36 and 64 the one-word pass of
//! any order; above 64, the three scans (n = 1024 pays cache misses in the column scan). The
//! cost stays linear in the number of cells.
//!
//! # References
//! - T. Yato, T. Seta, "Complexity and completeness of finding another solution and its application
//!   to puzzles", IEICE Trans. Fundamentals E86-A(5), 2003 (Sudoku is NP-complete).
//! - M. R. Garey, D. S. Johnson, *Computers and Intractability*, 1979 (certificates and NP).
//!
//! # Examples
//! ```
//! use sudokit::verify::{verify, Violation};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1...............", None).unwrap();
//! let wrong = parse_line("2143341212344321", None).unwrap();
//! assert!(matches!(verify(&puzzle, &wrong), Err(Violation::GivenChanged { .. })));
//! ```

use thiserror::Error;

use crate::bitset::Bitset;
use crate::grid::{CellRef, Clash, Grid};
use crate::shape::{Shape, Unit, UnitKind};

/// The first reason a candidate is not a solution.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Violation {
    /// Candidate and puzzle differ in shape.
    #[error("the candidate is {found}, the puzzle {expected}")]
    ShapeMismatch {
        /// The puzzle's shape.
        expected: Shape,
        /// The candidate's shape.
        found: Shape,
    },
    /// A cell is empty.
    #[error("cell {cell} is empty")]
    Empty {
        /// The empty cell.
        cell: CellRef,
    },
    /// A cell holds a value outside `1..=n`.
    #[error("cell {cell} holds {value}, outside 1..={order}")]
    OutOfRange {
        /// The cell.
        cell: CellRef,
        /// The 1-based value found.
        value: usize,
        /// The order n.
        order: usize,
    },
    /// A given was changed.
    #[error("cell {cell} is given {given} but holds {found}")]
    GivenChanged {
        /// The cell.
        cell: CellRef,
        /// The 1-based given.
        given: usize,
        /// The 1-based value in the candidate.
        found: usize,
    },
    /// A unit repeats a value, so it is not a permutation.
    #[error("{0}")]
    Repeated(Clash),
}

impl Violation {
    /// A short name of the kind: `shape`, `empty`, `out-of-range`, `given-changed` or
    /// `repeated`.
    pub fn kind(&self) -> &'static str {
        match self {
            Violation::ShapeMismatch { .. } => "shape",
            Violation::Empty { .. } => "empty",
            Violation::OutOfRange { .. } => "out-of-range",
            Violation::GivenChanged { .. } => "given-changed",
            Violation::Repeated(_) => "repeated",
        }
    }

    /// The unit a violation names, if it is a repeated value.
    pub fn unit(&self) -> Option<Unit> {
        match self {
            Violation::Repeated(clash) => Some(clash.unit),
            _ => None,
        }
    }
}

/// Checks that `candidate` is a solution of `puzzle`; see the module docs.
///
/// # Errors
/// The first [`Violation`] met: cell-level problems (empty, out of range, changed given) and row
/// repeats in row-major order, then column repeats, then box repeats.
///
/// # Complexity
/// O(n²) time, ⌈n/64⌉ words of extra memory.
pub fn verify(puzzle: &Grid, candidate: &Grid) -> Result<(), Violation> {
    let shape = puzzle.shape();
    if candidate.shape() != shape {
        return Err(Violation::ShapeMismatch {
            expected: shape,
            found: candidate.shape(),
        });
    }
    let n = shape.order();
    let (givens, values) = (puzzle.raw(), candidate.raw());
    if !shape.has_box_geometry() {
        // Regions: the unit scans (the one-pass checks know only p×q boxes).
        return name_violation(candidate, givens, values, n);
    }
    // Fast paths, for a valid candidate: the common orders in one pass with shapes fixed at
    // compile time; other orders up to 64: every cell in range and agreeing with the givens, and
    // no unit repeating a value. The scans below then only name the first violation.
    let (latin, square) = (shape.is_latin(), shape.box_rows() == shape.box_cols());
    let fixed = match (n, latin) {
        (9, false) if square => Some(complete_fixed::<3, 3, 9>(givens, values, true)),
        (16, false) if square => Some(complete_fixed::<4, 4, 16>(givens, values, true)),
        (25, false) if square => Some(complete_fixed::<5, 5, 25>(givens, values, true)),
        (9, true) => Some(complete_fixed::<1, 9, 9>(givens, values, false)),
        (16, true) => Some(complete_fixed::<1, 16, 16>(givens, values, false)),
        (25, true) => Some(complete_fixed::<1, 25, 25>(givens, values, false)),
        _ => None,
    };
    // (A fold, not `all`: no early exit, so the compiler vectorises it.)
    let agree = |ok: bool, (&g, &v): (&u16, &u16)| {
        ok & (usize::from(v) < n) & ((g == crate::grid::EMPTY) | (g == v))
    };
    let valid = fixed.unwrap_or_else(|| {
        givens.iter().zip(values).fold(true, agree) && candidate.repeat_free() == Some(true)
    });
    if valid {
        return Ok(());
    }
    name_violation(candidate, givens, values, n)
}

/// The first violation of a candidate the fast paths refused (or of any candidate of a shape
/// with regions): the row scan (completeness, range, givens, repeats), then every other unit.
#[cold]
fn name_violation(
    candidate: &Grid,
    givens: &[u16],
    values: &[u16],
    n: usize,
) -> Result<(), Violation> {
    let shape = candidate.shape();
    let mut seen = Bitset::new(n);
    for row in 0..n {
        seen.clear();
        for cell in row * n..(row + 1) * n {
            let v = values[cell];
            if v == crate::grid::EMPTY {
                return Err(Violation::Empty {
                    cell: candidate.cell_ref(cell),
                });
            }
            if v as usize >= n {
                return Err(Violation::OutOfRange {
                    cell: candidate.cell_ref(cell),
                    value: v as usize + 1,
                    order: n,
                });
            }
            let g = givens[cell];
            if g != crate::grid::EMPTY && g != v {
                return Err(Violation::GivenChanged {
                    cell: candidate.cell_ref(cell),
                    given: g as usize + 1,
                    found: v as usize + 1,
                });
            }
            if !seen.insert(v as usize) {
                let unit = Unit {
                    kind: UnitKind::Row,
                    number: row,
                };
                let clash = candidate
                    .clash_in_unit(unit, &mut seen)
                    .expect("the row repeats a value");
                return Err(Violation::Repeated(clash));
            }
        }
    }
    for unit in shape.units().skip(n) {
        if let Some(clash) = candidate.clash_in_unit(unit, &mut seen) {
            return Err(Violation::Repeated(clash));
        }
    }
    Ok(())
}

/// Whether `values` is a solution of the puzzle `givens` of order `N` with boxes of `P` × `Q`
/// cells (`boxes` false: a Latin square, `P` = 1), with every bound fixed at compile time, so
/// the compiler unrolls and vectorises it: each cell in range and agreeing with its given, and
/// each row, column and box holding all `N` values ([`units_complete`]; a unit has `N` cells, so
/// all present means none repeated).
///
/// # Complexity
/// O(N²) time with no branch per cell; `2N` words of memory.
#[inline(always)]
fn complete_fixed<const P: usize, const Q: usize, const N: usize>(
    givens: &[u16],
    values: &[u16],
    boxes: bool,
) -> bool {
    const { assert!(P * Q == N && N < 32) };
    if values.len() != N * N || givens.len() != N * N {
        return false;
    }
    let agree = |ok: bool, (&g, &v): (&u16, &u16)| {
        ok & (v < N as u16) & ((g == crate::grid::EMPTY) | (g == v))
    };
    // Range and givens: up to order 16 in a pass of their own over the whole grid (a fold with
    // no early exit, in vectors), which measured faster there; at 25, row by row beside the
    // unit sets.
    if N <= 16 {
        givens.iter().zip(values).fold(true, agree)
            & units_complete::<P, Q, N>(values, boxes, |_, _| true)
    } else {
        let cell_agrees = |cell: usize, v: u16| agree(true, (&givens[cell], &v));
        units_complete::<P, Q, N>(values, boxes, cell_agrees)
    }
}

/// Whether every row, column and (with `boxes`) box of `values` holds all `N` values, and
/// `cell_agrees` holds for every cell (given its index and value): a one-bit mask per cell (a value out of
/// range, refused by the caller either way, sets bit `v mod 32`), the rows of a band of `P`
/// rows added up column by column, and each box then `Q` adjacent columns of that sum.
#[inline(always)]
fn units_complete<const P: usize, const Q: usize, const N: usize>(
    values: &[u16],
    boxes: bool,
    cell_agrees: impl Fn(usize, u16) -> bool,
) -> bool {
    let all: u32 = (1 << N) - 1;
    let mut ok = true;
    let mut cols = [0u32; N];
    for (b, band_values) in values.chunks_exact(N * P).enumerate() {
        let mut band = [0u32; N];
        for (r, row) in band_values.chunks_exact(N).enumerate() {
            let Ok(row) = <&[u16; N]>::try_from(row) else {
                return false;
            };
            let start = (b * P + r) * N;
            let mut in_row = 0;
            for c in 0..N {
                ok &= cell_agrees(start + c, row[c]);
                let bit = 1u32 << (row[c] & 31);
                in_row |= bit;
                band[c] |= bit;
            }
            ok &= in_row == all;
        }
        for c in 0..N {
            cols[c] |= band[c];
        }
        if boxes {
            for stack in band.chunks_exact(Q) {
                ok &= stack.iter().fold(0, |set, &bit| set | bit) == all;
            }
        }
    }
    ok & cols.iter().fold(true, |ok, &set| ok & (set == all))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid solution of any shape: row `r` is the pattern `(q·(r mod p) + ⌊r/p⌋ + c) mod n`.
    fn pattern(shape: Shape) -> Grid {
        let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
        let mut g = Grid::empty(shape);
        for r in 0..n {
            for c in 0..n {
                g.set(shape.cell(r, c), Some((q * (r % p) + r / p + c) % n));
            }
        }
        g
    }

    #[test]
    fn valid_grids_of_many_shapes_pass() {
        for (p, q) in [
            (1, 1),
            (2, 2),
            (2, 3),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (6, 6),
        ] {
            let shape = Shape::sudoku(p, q).unwrap();
            let solution = pattern(shape);
            assert_eq!(verify(&Grid::empty(shape), &solution), Ok(()), "{shape}");
            assert_eq!(verify(&solution, &solution), Ok(()));
        }
        // The fixed-shape pass itself accepts them (else the scans would, more slowly).
        let pass = |shape: Shape| {
            let solution = pattern(shape);
            let (g, v) = (Grid::empty(shape).raw().to_vec(), solution.raw().to_vec());
            match (shape.order(), shape.is_latin()) {
                (9, false) => complete_fixed::<3, 3, 9>(&g, &v, true),
                (16, false) => complete_fixed::<4, 4, 16>(&g, &v, true),
                (25, false) => complete_fixed::<5, 5, 25>(&g, &v, true),
                (9, true) => complete_fixed::<1, 9, 9>(&g, &v, false),
                (25, true) => complete_fixed::<1, 25, 25>(&g, &v, false),
                _ => unreachable!(),
            }
        };
        for shape in [(3, 3), (4, 4), (5, 5)].map(|(p, q)| Shape::sudoku(p, q).unwrap()) {
            assert!(pass(shape), "{shape}");
        }
        assert!(pass(Shape::latin(9).unwrap()) && pass(Shape::latin(25).unwrap()));
    }

    #[test]
    fn every_single_cell_mutation_is_rejected_naming_a_unit_of_the_cell() {
        // The orders of the fixed-shape pass (square boxes and Latin squares), and boxes of
        // the same orders that take the general pass.
        let shapes = [(3, 3), (4, 4), (5, 5), (1, 9), (2, 8), (2, 3)]
            .map(|(p, q)| Shape::sudoku(p, q).unwrap())
            .into_iter()
            .chain([9, 16, 25].map(|n| Shape::latin(n).unwrap()));
        for shape in shapes {
            let solution = pattern(shape);
            let puzzle = Grid::empty(shape);
            for cell in 0..shape.cells() {
                let old = solution.get(cell).unwrap();
                for v in (0..shape.order()).filter(|&v| v != old) {
                    let mut bad = solution.clone();
                    bad.set(cell, Some(v));
                    let err = verify(&puzzle, &bad).unwrap_err();
                    let unit = err.unit().expect("a repeat");
                    assert!(
                        shape.units_of(cell).any(|u| u == unit),
                        "{shape}: mutation at {cell} blamed {unit}"
                    );
                    let Violation::Repeated(clash) = err else {
                        unreachable!()
                    };
                    assert_eq!(clash.value, v);
                    let cell_ref = bad.cell_ref(cell);
                    assert!(clash.first == cell_ref || clash.second == cell_ref);
                }
            }
        }
    }

    #[test]
    fn regions_are_checked_unit_by_unit() {
        use crate::shape::{ExtraSet, Regions};
        use crate::text::parse_line;
        // Janko's Chaos Sudoku 108: its published solution under its map, and every mutation
        // rejected naming a unit of the mutated cell.
        let map = "999998888\n555998888\n555998333\n555111333\n222111333\n222111444\n\
                   222766444\n777766444\n777766666";
        let jigsaw = Shape::sudoku(3, 3)
            .unwrap()
            .with_regions(Regions::from_parts(Some(map), &[], 9).unwrap())
            .unwrap();
        let spec = Some(crate::text::ShapeSpec::Box(3, 3));
        let line =
            "845279361359162784281395476467918235574623918136754829928536147792481653613847592";
        let plain = parse_line(line, spec).unwrap();
        let mut solution = Grid::empty(jigsaw);
        for cell in 0..81 {
            solution.set(cell, plain.get(cell));
        }
        let puzzle = Grid::empty(jigsaw);
        assert_eq!(verify(&puzzle, &solution), Ok(()));
        // Read with 3×3 boxes, the same grid repeats a value in a box.
        assert!(verify(&Grid::empty(plain.shape()), &plain).is_err());
        for cell in 0..81 {
            let mut bad = solution.clone();
            bad.set(cell, Some((solution.get(cell).unwrap() + 1) % 9));
            let unit = verify(&puzzle, &bad).unwrap_err().unit().expect("a repeat");
            assert!(jigsaw.units_of(cell).any(|u| u == unit), "{cell}: {unit}");
        }
        // A valid Sudoku grid whose main diagonal repeats is refused as an X-Sudoku, naming it.
        let x = Shape::sudoku(3, 3)
            .unwrap()
            .with_regions(Regions::from_parts(None, &[ExtraSet::Diagonals], 9).unwrap())
            .unwrap();
        let sudoku = pattern(Shape::sudoku(3, 3).unwrap());
        let mut as_x = Grid::empty(x);
        for cell in 0..81 {
            as_x.set(cell, sudoku.get(cell));
        }
        let err = verify(&Grid::empty(x), &as_x).unwrap_err();
        assert!(
            matches!(err.unit().map(|u| u.kind), Some(UnitKind::Extra(_))),
            "{err}"
        );
        assert!(err.to_string().contains("diagonal"), "{err}");
    }

    #[test]
    fn a_latin_square_read_with_boxes_is_rejected_naming_a_box() {
        for side in [3, 4, 5] {
            let n = side * side;
            let shape = Shape::sudoku(side, side).unwrap();
            let mut cyclic = Grid::empty(shape);
            for cell in 0..shape.cells() {
                cyclic.set(cell, Some((cell / n + cell % n) % n));
            }
            let err = verify(&Grid::empty(shape), &cyclic).unwrap_err();
            assert_eq!(
                err.unit().map(|u| u.kind),
                Some(UnitKind::Box),
                "{shape}: {err}"
            );
            let latin = Shape::latin(n).unwrap();
            let values: Vec<_> = (0..shape.cells()).map(|cell| cyclic.get(cell)).collect();
            let square = Grid::from_cells(latin, &values);
            assert_eq!(verify(&Grid::empty(latin), &square), Ok(()));
        }
    }

    #[test]
    fn empty_and_changed_cells_are_rejected_at_every_fixed_order() {
        for side in [3, 4, 5] {
            let shape = Shape::sudoku(side, side).unwrap();
            let solution = pattern(shape);
            let last = shape.cells() - 1;
            let mut holed = solution.clone();
            holed.set(last, None);
            assert!(matches!(
                verify(&Grid::empty(shape), &holed),
                Err(Violation::Empty { .. })
            ));
            let mut puzzle = Grid::empty(shape);
            let value = solution.get(last).unwrap();
            puzzle.set(last, Some((value + 1) % shape.order()));
            assert!(matches!(
                verify(&puzzle, &solution),
                Err(Violation::GivenChanged { .. })
            ));
        }
    }

    #[test]
    fn a_dropped_given_and_an_empty_cell_are_rejected() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let solution = pattern(shape);
        let mut puzzle = Grid::empty(shape);
        puzzle.set(10, Some((solution.get(10).unwrap() + 1) % 9));
        assert!(matches!(
            verify(&puzzle, &solution),
            Err(Violation::GivenChanged { .. })
        ));
        let mut holed = solution.clone();
        holed.set(80, None);
        assert_eq!(
            verify(&Grid::empty(shape), &holed).unwrap_err().to_string(),
            "cell (9,9) is empty"
        );
        let latin = Shape::latin(9).unwrap();
        let other = Grid::empty(latin);
        assert!(matches!(
            verify(&other, &solution),
            Err(Violation::ShapeMismatch { .. })
        ));
    }
}
