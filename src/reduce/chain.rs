//! The executable NP-completeness demonstration: a partial Latin square carried through the
//! reduction to Sudoku, solved there by any backend, mapped back, and verified at every level.
//!
//! [`run_latin_chain`] performs, for one partial Latin square `L` of order m:
//! 1. **reduce**: `L` → the Sudoku `S` of order m² ([`latin_to_sudoku`]);
//! 2. **solve**: `S` by the chosen backend; a reported solution is checked by the O(n²) verifier
//!    against `S`;
//! 3. **map back**: the Sudoku solution → a completion of `L`
//!    ([`sudoku_to_latin`]), checked by the verifier as a Latin
//!    square against `L`.
//!
//! When the backend proves `S` unsolvable, the chain's conclusion is that `L` has no completion
//! (by the "iff" of the reduction). Counting (`count_limit > 1`) compares the number of Sudoku
//! solutions found with the number of completions, which the reduction keeps equal.
//!
//! # Complexity
//! Reduction and both verifications are O(n²) = O(m⁴); the solve step is the backend's.

use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::reduce::latin::{LatinReductionError, latin_to_sudoku, sudoku_to_latin};
use crate::shape::Shape;
use crate::solve::{Limits, SolveError, Solver, StopReason};
use crate::verify::verify;

/// What the solve step found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainVerdict {
    /// A completion of the Latin square, from a verified Sudoku solution.
    Completed {
        /// The Sudoku solution (verified against the Sudoku).
        sudoku_solution: Grid,
        /// The completion (verified against the Latin square).
        completion: Grid,
    },
    /// The backend proved the Sudoku unsolvable: the square has no completion.
    NoCompletion,
    /// A limit stopped the backend.
    Unknown(StopReason),
}

/// Every step of one chain run.
#[derive(Debug, Clone)]
pub struct LatinChain {
    /// The partial Latin square.
    pub latin: Grid,
    /// The Sudoku it reduces to.
    pub sudoku: Grid,
    /// The outcome.
    pub verdict: ChainVerdict,
    /// Solutions counted on the Sudoku (up to the requested limit), if counting was asked for.
    pub sudoku_count: Option<u64>,
    /// Whether the count stopped at the limit.
    pub count_hit_limit: bool,
    /// Time of the reduction.
    pub reduce_time: Duration,
    /// Time of the solve step.
    pub solve_time: Duration,
    /// Time of the back-map and the two verifications.
    pub check_time: Duration,
    /// The backend's name.
    pub backend: String,
}

/// Why the chain could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// The reduction or the back-map refused (too large, or a solution that does not verify).
    #[error(transparent)]
    Reduction(#[from] LatinReductionError),
    /// The backend could not answer.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Runs the chain; see the module docs. `count_limit` of 1 only solves; above 1 it counts the
/// Sudoku's solutions up to that limit as well.
///
/// # Errors
/// [`ChainError`] if the Sudoku is too large for the backend, or if a solution fails the verifier
/// at either level (a backend bug: the chain never reports an unchecked answer).
pub fn run_latin_chain(
    latin: &Grid,
    solver: &dyn Solver,
    limits: &Limits,
    count_limit: u64,
) -> Result<LatinChain, ChainError> {
    let started = Instant::now();
    let sudoku = latin_to_sudoku(latin)?;
    let reduce_time = started.elapsed();

    let started = Instant::now();
    let report = solver.count(&sudoku, count_limit.max(1), limits)?;
    let solve_time = started.elapsed();

    let started = Instant::now();
    let verdict = match (report.solutions.first(), report.stopped) {
        (Some(solution), _) => {
            verify(&sudoku, solution).map_err(LatinReductionError::NotASolution)?;
            let completion = sudoku_to_latin(latin, solution)?;
            let as_latin = Shape::latin(latin.shape().order()).expect("valid order");
            let mut square = Grid::empty(as_latin);
            for (cell, v) in latin.givens() {
                square.set(cell, Some(v));
            }
            verify(&square, &completion).map_err(LatinReductionError::NotASolution)?;
            ChainVerdict::Completed {
                sudoku_solution: solution.clone(),
                completion,
            }
        }
        (None, Some(reason)) => ChainVerdict::Unknown(reason),
        (None, None) => ChainVerdict::NoCompletion,
    };
    let check_time = started.elapsed();
    Ok(LatinChain {
        latin: latin.clone(),
        sudoku,
        verdict,
        sudoku_count: (count_limit > 1).then_some(report.count),
        count_hit_limit: report.hit_limit,
        reduce_time,
        solve_time,
        check_time,
        backend: solver.name().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::backend;
    use crate::text::{ShapeSpec, parse_line};

    #[test]
    fn a_completable_and_an_uncompletable_square() {
        let native = backend("native").unwrap();
        let yes = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
        let chain = run_latin_chain(&yes, native.as_ref(), &Limits::none(), 1).unwrap();
        let ChainVerdict::Completed { completion, .. } = &chain.verdict else {
            panic!("{:?}", chain.verdict)
        };
        assert_eq!(completion.at(0, 0), Some(0));
        assert_eq!(completion.at(2, 2), Some(2));
        // Row 1 holds 1 and 2; cell (1,3) must be 3, but column 3 already has 3 below it.
        let no = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
        let chain = run_latin_chain(&no, native.as_ref(), &Limits::none(), 1).unwrap();
        assert_eq!(chain.verdict, ChainVerdict::NoCompletion);
    }

    #[test]
    fn counts_match_the_completions_of_the_empty_square() {
        // The empty Latin square of order 3 has 12 completions.
        let empty = Grid::empty(Shape::latin(3).unwrap());
        let native = backend("native").unwrap();
        let chain = run_latin_chain(&empty, native.as_ref(), &Limits::none(), 1000).unwrap();
        assert_eq!(chain.sudoku_count, Some(12));
        assert!(!chain.count_hit_limit);
    }
}
