//! The NP-completeness chain one level down: a partial Latin square → Sudoku → CNF, the CNF
//! solved by a SAT solver (varisat), the model mapped back to the Sudoku and then to the Latin
//! square, with a certificate check at every level.
//!
//! [`run_latin_sat_chain`] performs, for one partial Latin square `L` of order m:
//! 1. **reduce** `L` → Sudoku `S` of order m² ([`LatinToSudoku`]), and `S` → CNF `F`
//!    ([`SudokuToCnf`]); each target's size is predicted from its source
//!    ([`Reduction::target_size`]) and measured on the target ([`Reduction::size_of`]);
//! 2. **solve** `F` with varisat ([`solve_with_varisat`], the one place the SAT solver is called);
//! 3. **check and map back**: the model must satisfy every clause of `F`; it is decoded to a grid
//!    and verified against `S` by the O(n²) verifier; the Sudoku solution is mapped back to a
//!    completion of `L` and verified as a Latin square.
//!
//! An unsatisfiable `F` means `S` has no solution (the encodings are exact), hence `L` has no
//! completion (the "iff" of [`crate::reduce::latin`]).
//!
//! # Complexity
//! Reductions and checks are polynomial: O(n²) for the Latin step, linear in the formula for the
//! CNF step and its check (O(n⁴) literals with pairwise AMO); the solve step is the SAT solver's.
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006.
//! - varisat, a CDCL SAT solver in Rust (J. Fleischer).
//!
//! # Examples
//! ```
//! use sudokit::encode::cnf::CnfOptions;
//! use sudokit::reduce::sat_chain::{SatVerdict, run_latin_sat_chain};
//! use sudokit::text::{ShapeSpec, parse_line};
//! let latin = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
//! let chain = run_latin_sat_chain(&latin, CnfOptions::default()).unwrap();
//! assert_eq!(chain.verdict, SatVerdict::NoCompletion);
//! assert_eq!(chain.cnf_size, chain.cnf_predicted);
//! ```

use std::time::{Duration, Instant};

use crate::encode::Cnf;
use crate::encode::cnf::CnfOptions;
use crate::grid::Grid;
use crate::reduce::encodings::{CnfTarget, SudokuToCnf};
use crate::reduce::latin::LatinToSudoku;
use crate::reduce::reduction::{InstanceSize, Reduction, ReductionError, grid_size};
use crate::solve::Limits;
use crate::solve::sat::{CnfAnswer, solve_cnf};

/// What the SAT solver found, after every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SatVerdict {
    /// A model, checked against the CNF, mapped back and verified at both grid levels.
    Completed {
        /// Variables the model sets true.
        true_vars: usize,
        /// The Sudoku solution decoded from the model (verified).
        sudoku_solution: Grid,
        /// The completion of the Latin square (verified).
        completion: Grid,
    },
    /// The CNF is unsatisfiable: no Sudoku solution, no completion.
    NoCompletion,
}

/// Every level of one run: instances, sizes (predicted and measured), times, verdict.
#[derive(Debug, Clone)]
pub struct SatChain {
    /// The partial Latin square.
    pub latin: Grid,
    /// The Sudoku it reduces to.
    pub sudoku: Grid,
    /// The CNF of the Sudoku.
    pub cnf: CnfTarget,
    /// The Latin square's size as a grid problem.
    pub latin_size: InstanceSize,
    /// The Sudoku's size predicted from the Latin square.
    pub sudoku_predicted: InstanceSize,
    /// The Sudoku's size measured.
    pub sudoku_size: InstanceSize,
    /// The CNF's size predicted from the Sudoku.
    pub cnf_predicted: InstanceSize,
    /// The CNF's size measured.
    pub cnf_size: InstanceSize,
    /// The outcome.
    pub verdict: SatVerdict,
    /// Time of Latin square → Sudoku.
    pub reduce_sudoku_time: Duration,
    /// Time of Sudoku → CNF.
    pub reduce_cnf_time: Duration,
    /// Time of the SAT solver.
    pub solve_time: Duration,
    /// Time of the CNF check, the decode and the verifier at the Sudoku level.
    pub back_sudoku_time: Duration,
    /// Time of the back-map to the Latin square and its verification.
    pub back_latin_time: Duration,
}

/// Why the chain could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SatChainError {
    /// A reduction, a check or a back-map failed (a bug: the chain never reports an unchecked
    /// answer), or the square is too large.
    #[error("{0}")]
    Reduction(#[from] ReductionError),
    /// The SAT solver failed.
    #[error("SAT solver: {0}")]
    Solver(String),
}

/// Solves `cnf` with varisat (through the `sat` backend's [`solve_cnf`]): the value of every variable in a model, or `None` when the
/// formula is unsatisfiable.
///
/// # Errors
/// [`SatChainError::Solver`] if varisat stops with an error.
pub fn solve_with_varisat(cnf: &Cnf) -> Result<Option<Vec<bool>>, SatChainError> {
    match solve_cnf(cnf, &Limits::none()) {
        CnfAnswer::Sat(model) => Ok(Some(model.to_bools(cnf.vars()))),
        CnfAnswer::Unsat => Ok(None),
        CnfAnswer::Unknown(reason) => Err(SatChainError::Solver(format!("stopped: {reason}"))),
    }
}

/// Runs the chain; see the module docs.
///
/// # Errors
/// [`SatChainError`] if the square is too large (m² above [`crate::shape::MAX_ORDER`]), if
/// varisat fails, or if a check fails at any level.
pub fn run_latin_sat_chain(latin: &Grid, options: CnfOptions) -> Result<SatChain, SatChainError> {
    let to_sudoku = LatinToSudoku;
    let to_cnf = SudokuToCnf { options };

    let started = Instant::now();
    let sudoku = to_sudoku.reduce(latin)?;
    let reduce_sudoku_time = started.elapsed();
    let started = Instant::now();
    let cnf = to_cnf.reduce(&sudoku)?;
    let reduce_cnf_time = started.elapsed();

    let started = Instant::now();
    let model = solve_with_varisat(&cnf.cnf)?;
    let solve_time = started.elapsed();

    let (verdict, back_sudoku_time, back_latin_time) = match model {
        None => (SatVerdict::NoCompletion, Duration::ZERO, Duration::ZERO),
        Some(model) => {
            let started = Instant::now();
            to_cnf.check_target(&cnf, &model)?;
            let sudoku_solution = to_cnf.back(&sudoku, &cnf, &model)?;
            let back_sudoku_time = started.elapsed();
            let started = Instant::now();
            to_sudoku.check_target(&sudoku, &sudoku_solution)?;
            let completion = to_sudoku.back(latin, &sudoku, &sudoku_solution)?;
            let back_latin_time = started.elapsed();
            (
                SatVerdict::Completed {
                    true_vars: model.iter().filter(|&&b| b).count(),
                    sudoku_solution,
                    completion,
                },
                back_sudoku_time,
                back_latin_time,
            )
        }
    };
    Ok(SatChain {
        latin_size: grid_size(latin),
        sudoku_predicted: to_sudoku.target_size(latin)?,
        sudoku_size: to_sudoku.size_of(&sudoku),
        cnf_predicted: to_cnf.target_size(&sudoku)?,
        cnf_size: to_cnf.size_of(&cnf),
        latin: latin.clone(),
        sudoku,
        cnf,
        verdict,
        reduce_sudoku_time,
        reduce_cnf_time,
        solve_time,
        back_sudoku_time,
        back_latin_time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::text::{ShapeSpec, parse_line};
    use crate::verify::verify;

    #[test]
    fn the_course_squares_through_sat() {
        let yes = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
        let chain = run_latin_sat_chain(&yes, CnfOptions::default()).unwrap();
        let SatVerdict::Completed { completion, .. } = &chain.verdict else {
            panic!("{:?}", chain.verdict)
        };
        assert_eq!(crate::text::to_line(completion).unwrap(), "132321213");
        assert_eq!(chain.sudoku_size, chain.sudoku_predicted);
        assert_eq!(chain.cnf_size, chain.cnf_predicted);
        assert_eq!(chain.sudoku_size.fixed, 81 - 9 + 2);
        let no = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
        let chain = run_latin_sat_chain(&no, CnfOptions::default()).unwrap();
        assert_eq!(chain.verdict, SatVerdict::NoCompletion);
    }

    #[test]
    fn a_model_that_breaks_a_clause_is_rejected_before_the_back_map() {
        let latin = Grid::empty(Shape::latin(2).unwrap());
        let to_cnf = SudokuToCnf::default();
        let sudoku = LatinToSudoku.reduce(&latin).unwrap();
        let cnf = to_cnf.reduce(&sudoku).unwrap();
        let mut model = solve_with_varisat(&cnf.cnf).unwrap().unwrap();
        to_cnf.check_target(&cnf, &model).unwrap();
        let grid = to_cnf.back(&sudoku, &cnf, &model).unwrap();
        assert_eq!(verify(&sudoku, &grid), Ok(()));
        // Flip one true x variable: some cell loses its value.
        let i = model.iter().position(|&b| b).unwrap();
        model[i] = false;
        assert!(matches!(
            to_cnf.check_target(&cnf, &model),
            Err(ReductionError::TargetCheck { target: "CNF", .. })
        ));
        assert!(to_cnf.back(&sudoku, &cnf, &model).is_err());
    }

    #[test]
    fn a_composed_reduction_maps_a_model_back_through_the_middle_level() {
        use crate::reduce::reduction::{Compose, ReductionError};
        let latin = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
        let chain = Compose(LatinToSudoku, SudokuToCnf::default());
        let target = chain.reduce(&latin).unwrap();
        assert_eq!(chain.target_size(&latin).unwrap(), chain.size_of(&target));
        let mut model = solve_with_varisat(&target.last.cnf).unwrap().unwrap();
        chain.check_target(&target, &model).unwrap();
        let completion = chain.back(&latin, &target, &model).unwrap();
        assert_eq!(crate::text::to_line(&completion).unwrap(), "132321213");
        // All false: every cell's at-least-one clause fails, at both the CNF check and the back-map.
        model.iter_mut().for_each(|b| *b = false);
        assert!(chain.check_target(&target, &model).is_err());
        assert!(matches!(
            chain.back(&latin, &target, &model),
            Err(ReductionError::CnfDecode(_))
        ));
    }
}
