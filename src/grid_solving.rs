//! Solving a [`Grid`] in one call: the methods the top of the library adds to `Grid` (parse it,
//! solve, count or test it with the default or a named backend, export it to any format) and to
//! its answers (`solution()`), with [`reduce_latin`] — the crate root's facade, the five lines a
//! user writes first. Each call goes through the same registries as the command line (every
//! grid a backend returns passes the certificate verifier), and every failure is one [`Error`].
//!
//! # Examples
//! ```
//! use sudokit::{Grid, Outcome};
//! let puzzle: Grid = "...3..4114..3...".parse()?;
//! let solution = puzzle.solve()?.solution().cloned().expect("solvable");
//! assert_eq!(sudokit::verify(&puzzle, &solution), Ok(()));
//! assert!(matches!(puzzle.unique()?, Outcome::Unique(_)));
//! assert_eq!(puzzle.solve_with("sat:minimal:pairwise")?.solution(), Some(&solution));
//! assert!(puzzle.export("cnf")?.contains("p cnf 64 "));
//! let reduction = sudokit::reduce_latin(&"1...".parse::<Grid>()?.as_latin())?;
//! assert_eq!(reduction.sudoku().shape().order(), 4);
//! # Ok::<(), sudokit::Error>(())
//! ```

use std::str::FromStr;

use thiserror::Error;

use crate::format::{ExportOptions, UnknownFormat, export, find_format};
use crate::grid::Grid;
use crate::reduce::latin::{LatinReduction, LatinReductionError};
use crate::search::{Answer, CountReport, Limits, Outcome};
use crate::shape::Shape;
use crate::solve::{DEFAULT_BACKEND, SolveError, UnknownBackend, backend};
use crate::text::{PuzzleReader, ReadOptions, TextError};

/// Any failure of the facade.
#[derive(Debug, Error)]
pub enum Error {
    /// The text is not a puzzle (with line and column).
    #[error(transparent)]
    Parse(#[from] TextError),
    /// The text holds no puzzle at all.
    #[error("the text holds no puzzle")]
    NoPuzzle,
    /// The backend spec is unknown or malformed.
    #[error(transparent)]
    Backend(#[from] UnknownBackend),
    /// The backend could not answer (the order is too large, or a bug it reported).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The format name is unknown.
    #[error(transparent)]
    Format(#[from] UnknownFormat),
    /// The Latin-square reduction failed.
    #[error(transparent)]
    Latin(#[from] LatinReductionError),
}

/// Reads the first puzzle of `text` in any form (puzzle line, grid block, JSON), the shape
/// inferred from the size. Givens that clash are an error.
impl FromStr for Grid {
    type Err = Error;

    fn from_str(text: &str) -> Result<Grid, Error> {
        let first = PuzzleReader::new(text.as_bytes(), ReadOptions::default()).next();
        Ok(first.ok_or(Error::NoPuzzle)??.grid)
    }
}

impl Grid {
    /// The first solution with the default backend, or why there is none.
    ///
    /// # Errors
    /// [`Error::Solve`] when the backend cannot take the puzzle.
    pub fn solve(&self) -> Result<Answer, Error> {
        self.solve_with(DEFAULT_BACKEND)
    }

    /// The first solution with the backend `spec` names (`sat`, `dlx`, `cp:HACS`, ...).
    ///
    /// # Errors
    /// [`Error::Backend`] for an unknown spec, [`Error::Solve`] when the backend cannot take the
    /// puzzle.
    pub fn solve_with(&self, spec: &str) -> Result<Answer, Error> {
        Ok(backend(spec)?.solve(self, &Limits::none())?.answer)
    }

    /// The number of solutions, counted up to `limit` with the default backend.
    ///
    /// # Errors
    /// As [`Grid::solve`].
    pub fn count(&self, limit: u64) -> Result<CountReport, Error> {
        Ok(backend(DEFAULT_BACKEND)?.count(self, limit, &Limits::none())?)
    }

    /// Whether the puzzle has no, one or several solutions, with the default backend.
    ///
    /// # Errors
    /// As [`Grid::solve`].
    pub fn unique(&self) -> Result<Outcome, Error> {
        Ok(backend(DEFAULT_BACKEND)?
            .unique(self, &Limits::none())?
            .outcome)
    }

    /// The puzzle in the export format `format` (`cnf`, `lp`, `dlx`, ...) with the default
    /// options.
    ///
    /// # Errors
    /// [`Error::Format`] for an unknown format.
    pub fn export(&self, format: &str) -> Result<String, Error> {
        self.export_with(format, &ExportOptions::default())
    }

    /// The puzzle in the export format `format` with `options` (the CNF encoding).
    ///
    /// # Errors
    /// As [`Grid::export`].
    pub fn export_with(&self, format: &str, options: &ExportOptions) -> Result<String, Error> {
        let mut out = Vec::new();
        export(self, find_format(format)?, options, &[], &mut out)
            .expect("writing to memory does not fail");
        Ok(String::from_utf8(out).expect("the writers write UTF-8"))
    }

    /// The same givens read as a Latin square (rows and columns only).
    pub fn as_latin(&self) -> Grid {
        let shape = Shape::latin(self.shape().order()).expect("an order that has a shape");
        let mut square = Grid::empty(shape);
        for (cell, value) in self.givens() {
            square.set(cell, Some(value));
        }
        square
    }
}

impl Answer {
    /// The solution, when there is one.
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Answer::Solved(grid) => Some(grid),
            _ => None,
        }
    }
}

impl Outcome {
    /// The solution, when it is the only one.
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::Unique(grid) => Some(grid),
            _ => None,
        }
    }
}

/// Reduces a partial Latin square to Sudoku (Latin square completion → Sudoku).
///
/// # Errors
/// [`Error::Latin`] when the Sudoku would be above the largest order.
pub fn reduce_latin(square: &Grid) -> Result<LatinReduction, Error> {
    Ok(LatinReduction::new(square)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facade_round_trips_a_latin_square() {
        let square: Grid = "1...".parse().unwrap();
        let reduction = reduce_latin(&square).unwrap();
        let solution = reduction.sudoku().solve().unwrap();
        let completion = reduction.back(solution.solution().unwrap()).unwrap();
        assert_eq!(crate::verify(reduction.square(), &completion), Ok(()));
        assert_eq!(reduction.sizes()[1].size.numbers()[0], 16);
    }

    #[test]
    fn bad_text_and_names_are_errors() {
        assert!(matches!("".parse::<Grid>(), Err(Error::NoPuzzle)));
        assert!(matches!("12".parse::<Grid>(), Err(Error::Parse(_))));
        let puzzle: Grid = "1...............".parse().unwrap();
        assert!(matches!(
            puzzle.solve_with("quantum"),
            Err(Error::Backend(_))
        ));
        assert!(matches!(puzzle.export("xml"), Err(Error::Format(_))));
        assert_eq!(puzzle.count(3).unwrap().count, 3);
    }
}
