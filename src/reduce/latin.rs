//! Latin square completion → Sudoku: the reduction that makes Sudoku NP-complete, both ways.
//!
//! A partial Latin square `L` of order `m` becomes a Sudoku of order `n = m²` with `m×m` boxes
//! (values 0-based, as in the code):
//! - `pattern(i, j) = (m·(i mod m) + ⌊i/m⌋ + j) mod n` is a complete Sudoku;
//! - `B = {(i, j) : i < m and j ≡ 0 (mod m)}` are the `m·m` cells that carry `L`: cell `(i, m·q)`
//!   stands for `L(i, q)`;
//! - a cell outside `B` is given `pattern(i, j)`; a cell `(i, m·q)` of `B` is given `m·L(i, q)`
//!   where `L(i, q)` is given, and is empty otherwise.
//!
//! # Why it works (proof sketch, in the vocabulary of DESIGN.md)
//! For `i < m`, `pattern(i, m·q) = m·((i + q) mod m)`: the pattern puts exactly the multiples of
//! `m` on `B`, and every other cell of the first band, and of the columns `m·q`, holds a
//! non-multiple (its residue mod m is `j mod m ≠ 0`, resp. `⌊i/m⌋ ≠ 0`).
//! - The givens outside `B` already hold every non-multiple in row `i < m`, in column `m·q` and in
//!   box `q` of the first band; so an empty cell of `B` can only take a multiple of `m`, `m·x`.
//! - Row `i < m` meets `B` in `(i, 0), (i, m), ..., (i, m(m−1))` — row `i` of `L`; box `q` of the
//!   first band meets `B` in `(0, m·q), ..., (m−1, m·q)` — column `q` of `L`; column `m·q` meets
//!   `B` in the same cells. So the Sudoku constraints on `B` say exactly: the `x` values form a
//!   Latin square extending `L`.
//! - Every other unit is complete already and valid (it is the pattern's).
//!
//! Hence the Sudoku is completable **iff** `L` is, and the completions are in bijection:
//! [`sudoku_to_latin`] maps a Sudoku solution `s` back by `L(i, q) = s(i, m·q) / m`, and
//! [`latin_to_sudoku_solution`] maps a completion of `L` forward. The target has `n² − m² +
//! givens(L)` givens, and is built in O(n²) = O(m⁴) time: a polynomial reduction from Latin square
//! completion (NP-complete, Colbourn 1984) to Sudoku. Together with the O(n²) certificate verifier
//! (NP membership) this is the NP-completeness demonstration.
//!
//! The source paper prints `n` where `m` is meant in the pattern and in `B`; with `n` the formula
//! does not even index the grid correctly, and the version above is the one that works.
//!
//! # Complexity
//! [`latin_to_sudoku`] and [`latin_to_sudoku_solution`] are O(m⁴) = O(n²); [`sudoku_to_latin`] is
//! O(m²).
//!
//! # References
//! - C. J. Colbourn, "The complexity of completing partial Latin squares", Discrete Applied
//!   Mathematics 8, 1984.
//! - T. Yato, T. Seta, "Complexity and completeness of finding another solution and its application
//!   to puzzles", IEICE Trans. Fundamentals E86-A(5), 2003.
//!
//! # Examples
//! ```
//! use sudokit::reduce::latin::{latin_to_sudoku, sudoku_to_latin};
//! use sudokit::text::{parse_line, ShapeSpec};
//! let partial = parse_line("1.....3..", Some(ShapeSpec::Latin)).unwrap();
//! let sudoku = latin_to_sudoku(&partial).unwrap();
//! assert_eq!(sudoku.shape().order(), 9);
//! assert_eq!(sudoku.filled(), 81 - 9 + 2);
//! ```

pub use crate::reduce::latin_error::LatinReductionError;

use crate::grid::Grid;
use crate::reduce::reduction::{
    GRID_SIZE_NAMES, InstanceSize, Reduction, ReductionError, SizeNames, SizeRow, grid_size,
};
use crate::shape::{MAX_ORDER, Shape};
use crate::verify::verify;

/// The pattern value of cell `(i, j)` of the Sudoku of order `m²` (0-based).
#[inline]
pub fn pattern(m: usize, i: usize, j: usize) -> usize {
    (m * (i % m) + i / m + j) % (m * m)
}

/// Whether cell `(i, j)` of the Sudoku carries the Latin square (`i < m`, `j ≡ 0 mod m`).
#[inline]
pub fn carries_latin(m: usize, i: usize, j: usize) -> bool {
    i < m && j.is_multiple_of(m)
}

fn sudoku_shape(m: usize) -> Result<Shape, LatinReductionError> {
    if m.checked_mul(m).is_none_or(|n| n > MAX_ORDER) {
        return Err(LatinReductionError::TooLarge { m });
    }
    Shape::sudoku(m, m).map_err(|_| LatinReductionError::TooLarge { m })
}

/// Builds the Sudoku for a partial Latin square (any grid of order m is read as a Latin square;
/// its box shape, if any, is ignored).
///
/// # Errors
/// [`LatinReductionError::TooLarge`] if `m² >` [`MAX_ORDER`].
pub fn latin_to_sudoku(latin: &Grid) -> Result<Grid, LatinReductionError> {
    embed(latin, |_, _| None)
}

/// Maps a completion of `latin` to the solution of the Sudoku [`latin_to_sudoku`] builds.
///
/// # Errors
/// [`LatinReductionError::NotASolution`] if `completion` does not complete `latin` (checked
/// with the verifier, as Latin squares), and as [`latin_to_sudoku`].
pub fn latin_to_sudoku_solution(
    latin: &Grid,
    completion: &Grid,
) -> Result<Grid, LatinReductionError> {
    let m = latin.shape().order();
    verify(&as_latin_square(latin), &as_latin_square(completion))
        .map_err(LatinReductionError::NotASolution)?;
    embed(latin, |i, q| completion.at(i, q).map(|v| v * m))
}

/// The Sudoku of order m² with the pattern outside B, and on B `m·L(i,q)` where `L` is given, else
/// what `fill` says.
fn embed(
    latin: &Grid,
    fill: impl Fn(usize, usize) -> Option<usize>,
) -> Result<Grid, LatinReductionError> {
    let m = latin.shape().order();
    let shape = sudoku_shape(m)?;
    let n = shape.order();
    let mut sudoku = Grid::empty(shape);
    for i in 0..n {
        for j in 0..n {
            let value = if carries_latin(m, i, j) {
                let q = j / m;
                latin.at(i, q).map(|v| v * m).or_else(|| fill(i, q))
            } else {
                Some(pattern(m, i, j))
            };
            sudoku.set(shape.cell(i, j), value);
        }
    }
    Ok(sudoku)
}

/// Maps a Sudoku solution back to the completion of the Latin square: `L(i, q) = s(i, m·q) / m`.
/// The solution is checked first against the Sudoku built from `latin`, with the verifier.
///
/// # Errors
/// [`LatinReductionError::WrongShape`], [`LatinReductionError::NotASolution`] (the verifier's
/// violation), or [`LatinReductionError::NotEmbedded`] (cannot happen for a verified solution;
/// kept so that the back-map never trusts its input).
pub fn sudoku_to_latin(latin: &Grid, solution: &Grid) -> Result<Grid, LatinReductionError> {
    let m = latin.shape().order();
    let sudoku = latin_to_sudoku(latin)?;
    if solution.shape() != sudoku.shape() {
        return Err(LatinReductionError::WrongShape {
            m,
            expected: m * m,
            found: solution.shape(),
        });
    }
    verify(&sudoku, solution).map_err(LatinReductionError::NotASolution)?;
    let shape = Shape::latin(m).expect("order already valid");
    let mut completion = Grid::empty(shape);
    for i in 0..m {
        for q in 0..m {
            let value = solution
                .at(i, m * q)
                .expect("a verified solution is complete");
            if !value.is_multiple_of(m) {
                return Err(LatinReductionError::NotEmbedded {
                    row: i + 1,
                    col: m * q + 1,
                    value: value + 1,
                    m,
                });
            }
            completion.set(shape.cell(i, q), Some(value / m));
        }
    }
    Ok(completion)
}

/// Latin square completion → Sudoku as a [`Reduction`]: [`latin_to_sudoku`] forward,
/// [`sudoku_to_latin`] back (the completion is verified as a Latin square against the partial
/// one), sizes `n² = m⁴` cells, `3n` units, `3n²` incidences, `n² − m² + g` givens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LatinToSudoku;

/// `grid` read as a Latin square (its box shape, if any, dropped).
pub fn as_latin_square(grid: &Grid) -> Grid {
    let shape = Shape::latin(grid.shape().order()).expect("order already valid");
    let mut out = Grid::empty(shape);
    for (cell, v) in grid.givens() {
        out.set(cell, Some(v));
    }
    out
}

impl Reduction for LatinToSudoku {
    type Source = Grid;
    type SourceSolution = Grid;
    type Target = Grid;
    type TargetSolution = Grid;

    fn name(&self) -> String {
        "Latin square → Sudoku".into()
    }

    fn size_names(&self) -> SizeNames {
        GRID_SIZE_NAMES
    }

    fn reduce(&self, source: &Grid) -> Result<Grid, ReductionError> {
        Ok(latin_to_sudoku(source)?)
    }

    fn target_size(&self, source: &Grid) -> Result<InstanceSize, ReductionError> {
        let m = source.shape().order();
        let n = sudoku_shape(m)?.order();
        Ok(InstanceSize {
            variables: n * n,
            constraints: 3 * n,
            entries: 3 * n * n,
            fixed: n * n - m * m + source.filled(),
        })
    }

    fn size_of(&self, target: &Grid) -> InstanceSize {
        grid_size(target)
    }

    fn check_target(&self, target: &Grid, solution: &Grid) -> Result<(), ReductionError> {
        verify(target, solution).map_err(|v| ReductionError::TargetCheck {
            target: "Sudoku",
            reason: v.to_string(),
        })
    }

    fn back(&self, source: &Grid, _target: &Grid, solution: &Grid) -> Result<Grid, ReductionError> {
        let completion = sudoku_to_latin(source, solution)?;
        verify(&as_latin_square(source), &completion)?;
        Ok(completion)
    }
}

/// A partial Latin square reduced to Sudoku: the Sudoku, the map back, and the sizes of both
/// instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatinReduction {
    square: Grid,
    sudoku: Grid,
}

impl LatinReduction {
    /// Reduces `square` (read as a partial Latin square) to a Sudoku of order m².
    ///
    /// # Errors
    /// [`LatinReductionError`] when the Sudoku would be above the largest order.
    pub fn new(square: &Grid) -> Result<LatinReduction, LatinReductionError> {
        let square = square.as_latin();
        Ok(LatinReduction {
            sudoku: latin_to_sudoku(&square)?,
            square,
        })
    }

    /// The partial Latin square.
    pub fn square(&self) -> &Grid {
        &self.square
    }

    /// The Sudoku of order m², completable exactly when the square is.
    pub fn sudoku(&self) -> &Grid {
        &self.sudoku
    }

    /// The completion of the square that a solution of the Sudoku gives.
    ///
    /// # Errors
    /// [`LatinReductionError::NotASolution`] when `solution` does not solve the Sudoku.
    pub fn back(&self, solution: &Grid) -> Result<Grid, LatinReductionError> {
        sudoku_to_latin(&self.square, solution)
    }

    /// The sizes of the square and of the Sudoku (cells, units, incidences, givens).
    pub fn sizes(&self) -> [SizeRow; 2] {
        let row = |level: &str, grid: &Grid| SizeRow {
            level: level.to_string(),
            names: GRID_SIZE_NAMES,
            size: grid_size(grid),
        };
        [
            row("partial Latin square", &self.square),
            row(&LatinToSudoku.name(), &self.sudoku),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{ShapeSpec, parse_line};
    use crate::verify::Violation;

    fn latin(line: &str) -> Grid {
        parse_line(line, Some(ShapeSpec::Latin)).unwrap()
    }

    #[test]
    fn the_pattern_is_a_sudoku_and_b_holds_the_multiples() {
        for m in 1..=6 {
            let empty = Grid::empty(Shape::latin(m).unwrap());
            let complete: Vec<usize> = (0..m * m).map(|c| (c / m + c % m) % m).collect();
            let cyclic = Grid::from_cells(
                Shape::latin(m).unwrap(),
                &complete.iter().map(|&v| Some(v)).collect::<Vec<_>>(),
            );
            let solution = latin_to_sudoku_solution(&empty, &cyclic).unwrap();
            let sudoku = latin_to_sudoku(&empty).unwrap();
            assert_eq!(verify(&sudoku, &solution), Ok(()), "m = {m}");
            assert_eq!(sudoku_to_latin(&empty, &solution).unwrap(), cyclic);
        }
    }

    #[test]
    fn givens_count_is_n2_minus_m2_plus_givens() {
        let partial = latin("1.2..3.1.");
        let sudoku = latin_to_sudoku(&partial).unwrap();
        assert_eq!(sudoku.filled(), 81 - 9 + partial.filled());
        assert!(sudoku.first_clash().is_none());
    }

    #[test]
    fn a_wrong_back_map_input_is_rejected_by_the_verifier() {
        let partial = latin("1........");
        let sudoku = latin_to_sudoku(&partial).unwrap();
        assert!(matches!(
            sudoku_to_latin(&partial, &sudoku),
            Err(LatinReductionError::NotASolution(Violation::Empty { .. }))
        ));
        let too_big = Grid::empty(Shape::latin(33).unwrap());
        assert_eq!(
            latin_to_sudoku(&too_big),
            Err(LatinReductionError::TooLarge { m: 33 })
        );
    }
}
