//! Solvers: one trait, many backends, and the questions every backend answers on any shape.
//!
//! A backend implements [`Solver`]:
//! - [`Solver::solve`]: the first solution, or a proof that there is none;
//! - [`Solver::count`]: the exact number of solutions up to a limit, whether the limit stopped the
//!   count, and up to two of the solutions found;
//! - [`Solver::unique`] (provided, built on `count(2)`): [`Outcome`] =
//!   `Unsat | Unique(grid) | Multiple(grid, grid) | Unknown(reason)`.
//!
//! [`Limits`] bound the work (time, search nodes); a backend that runs out answers
//! [`Answer::Unknown`] / [`Outcome::Unknown`], never a guess. A puzzle whose givens clash is
//! unsatisfiable. [`Stats`] count nodes, guesses, propagations and elapsed time, the machine-
//! independent measures the benchmark reports (Knuth's "mems" idea).
//!
//! Backends are looked up by their command-line name with [`backend`], which wraps each in
//! [`Verified`]: every grid it returns has passed the certificate verifier
//! [`verify`], and a grid that fails it becomes [`SolveError::Unverified`]. A backend behind
//! a cargo feature the build lacks (`highs`) gives [`UnknownBackend::NotCompiled`], which says
//! how to enable it.
//!
//! | name | file | method |
//! |---|---|---|
//! | `native` | [`native`] | bitset candidates, naked + hidden singles, MRV buckets, trail undo; orders 16–36: hard grids (500 dead ends) handed to the `sat` encoding (CDCL) |
//! | `backtrack` | [`backtrack`] | plain backtracking in cell order |
//! | `fc-mrv` | [`backtrack`] | forward checking + minimum remaining values (Skiena) |
//! | `bitwise` | [`backtrack`] | backtracking with bitmask unit state |
//! | `norvig` | [`norvig`] | Norvig's eliminate/assign propagation with search |
//! | `sat` | [`sat`] | a CNF encoding solved by varisat (CDCL); `sat:ENCODING:AMO` picks the encoding |
//! | `grasp` | [`grasp`] | GRASP metaheuristic: solutions only, never unsat or unique (heuristic) |
//! | `dlx` | [`dlx`] | Knuth's Algorithm X with dancing links on the exact cover, MRV item choice |
//! | `colour` | [`colouring`] | precolouring extension on the Sudoku graph, DSATUR-ordered backtracking with the hyperedge rule (`colour:dsatur`, `colour:graph`: plain DSATUR per unit, per edge) |
//! | `mip` | [`mip`] | 0-1 ILP through good_lp + microlp, counting by no-good cuts |
//! | `highs` | `highs` (feature `highs`) | the same ILP and loop with HiGHS |
//! | `ext:NAME` | [`external`] | an external program of the solver table ([`crate::external`]), counting by no-goods |
//!
//! [`count_parallel`] splits one count over the cores (rayon) for any backend.
//!
//! # Examples
//! ```
//! use sudokit::solve::{backend, Limits, Outcome};
//! use sudokit::text::parse_line;
//! let solver = backend("native").unwrap();
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let outcome = solver.unique(&puzzle, &Limits::none()).unwrap().outcome;
//! assert!(matches!(outcome, Outcome::Unique(_)));
//! let empty = sudokit::Grid::empty(sudokit::Shape::sudoku(2, 2).unwrap());
//! assert_eq!(solver.count(&empty, 1000, &Limits::none()).unwrap().count, 288);
//! ```

pub mod backtrack;
mod band9;
pub mod bitboard;
pub mod colouring;
pub mod cp;
pub(crate) mod detached;
pub mod dlx;
pub mod external;
mod geometry;
pub mod grasp;
#[cfg(feature = "highs")]
pub mod highs;
pub(crate) mod luby;
pub(crate) mod mask;
pub mod mip;
pub mod native;
pub mod norvig;
mod parallel;
pub mod registry;
mod require_certificate;
pub mod sat;

use thiserror::Error;

use crate::grid::Grid;
use crate::verify::{Violation, verify};

#[cfg(feature = "highs")]
pub use self::highs::Highs;
pub use backtrack::{Backtrack, Bitwise, FcMrv};
pub use colouring::Colouring;
pub use cp::Cp;
pub use dlx::Dlx;
pub use external::External;
pub use grasp::{Grasp, GraspOptions};
pub use mip::Mip;
pub use native::{Native, NativeGeneral};
pub use norvig::Norvig;
pub use parallel::{WideCount, count_parallel, count_parallel_wide};
pub use registry::{DEFAULT_BACKEND, UnknownBackend, backend};
pub use require_certificate::RequireCertificate;
pub use sat::Sat;

pub(crate) use crate::search::Budget;
pub use crate::search::{
    Answer, Cancel, CountReport, Limits, Outcome, Refutation, SolveReport, Stats, StopReason,
    UniqueReport,
};

/// Why a backend could not answer at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The puzzle's order is above what the backend handles.
    #[error("backend {backend} handles orders up to {max}, the puzzle has order {order}")]
    TooLarge {
        /// The backend's name.
        backend: String,
        /// The puzzle's order.
        order: usize,
        /// The backend's [`Solver::max_order`].
        max: usize,
    },
    /// The backend returned a grid that is not a solution: a bug in the backend.
    #[error("backend {backend} returned a grid that is not a solution: {violation}")]
    Unverified {
        /// The backend's name.
        backend: String,
        /// What the certificate verifier found.
        violation: Violation,
    },
    /// The backend reported one solution twice as two different ones: a bug in the backend.
    #[error("backend {backend} reported the same solution twice")]
    Duplicate {
        /// The backend's name.
        backend: String,
    },
    /// The backend cannot answer this question (an external solver whose input format has no
    /// no-good cannot count past one solution).
    #[error("backend {backend} cannot answer: {reason}")]
    Unsupported {
        /// The backend's name.
        backend: String,
        /// Why.
        reason: String,
    },
    /// The answer rests on another program's claim that nothing checked, and a certificate was
    /// required ([`RequireCertificate`], `--require-certificate`).
    #[error(
        "backend {backend}: the answer rests on an unchecked claim ({refutation}); --require-certificate refuses it"
    )]
    Uncertified {
        /// The backend's name.
        backend: String,
        /// The claim (who made it and why it was not checked).
        refutation: String,
    },
    /// A count without a limit reached the most one search counts (2⁶⁴ − 1 solutions): it is
    /// refused rather than clamped.
    #[error("backend {backend}: the count reached 2^64 - 1 solutions, the most one search counts")]
    CountOverflow {
        /// The backend's name.
        backend: String,
    },
    /// An embedded solver failed for a reason other than a limit (a numerical or internal error).
    #[error("backend {backend} failed: {message}")]
    Backend {
        /// The backend's name.
        backend: String,
        /// The solver's message.
        message: String,
    },
}

/// A solving method. Every method answers on any shape up to [`Solver::max_order`].
pub trait Solver: Send + Sync {
    /// The backend's registry name, which [`backend`] parses back to the same backend
    /// (`native`, `sat:optimized:pairwise`, `cp:HACS`, `grasp:pre=FCI,alpha=2`, ...).
    fn name(&self) -> &str;

    /// The largest order this backend accepts; larger puzzles give [`SolveError::TooLarge`].
    fn max_order(&self) -> usize;

    /// Whether [`Solver::search`] answers `unsat` by itself for givens that clash; when it does
    /// not (the default), [`Solver::count`] answers them before calling it.
    fn handles_clashing_givens(&self) -> bool {
        false
    }

    /// Whether [`count_parallel`] may split a count into subproblems and count each with this
    /// backend (the default). An external program counts the whole puzzle itself, with its own
    /// enumeration or by no-goods, so splitting would only start it once per part.
    fn splittable(&self) -> bool {
        true
    }

    /// Whether the backend models every unit of `shape` (the default: it reads the units).
    /// One built on p×q boxes or on a fixed number of units per cell says no to region maps
    /// or extra units, and gives [`SolveError::Unsupported`] instead of an answer that would
    /// break them.
    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        let _ = shape;
        true
    }

    /// The backend's own search, which [`Solver::count`] calls once the common checks have
    /// passed: the order is at most [`Solver::max_order`], and the givens do not clash (unless
    /// [`Solver::handles_clashing_givens`]). Counts solutions up to `limit`, keeping the first
    /// two ([`CountReport::record`]). Call [`Solver::count`], not this.
    ///
    /// # Errors
    /// A backend failure ([`SolveError::Backend`]).
    fn search(&self, puzzle: &Grid, limit: u64, limits: &Limits)
    -> Result<CountReport, SolveError>;

    /// Counts solutions, stopping at `limit` (`u64::MAX` for all), and keeps the first two.
    /// Givens that clash have no solution.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above [`Solver::max_order`]; a backend failure.
    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        check_order(self, puzzle)?;
        if !self.handles_clashing_givens() && puzzle.first_clash().is_some() {
            return Ok(Budget::start(limits).unsat_report());
        }
        self.search(puzzle, limit, limits)
    }

    /// The first solution, or `Unsat`, or `Unknown` when a limit stops the search: `count(1)`.
    ///
    /// # Errors
    /// As [`Solver::count`].
    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        Ok(self.count(puzzle, 1, limits)?.into_solve_report())
    }

    /// Whether the puzzle has no, one or several solutions: `count(2)`.
    ///
    /// # Errors
    /// As [`Solver::count`].
    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        Ok(self.count(puzzle, 2, limits)?.into_unique_report())
    }
}

/// A boxed backend is a backend (so `Verified(backend)` works on any of them).
impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn max_order(&self) -> usize {
        (**self).max_order()
    }

    fn handles_clashing_givens(&self) -> bool {
        (**self).handles_clashing_givens()
    }

    fn splittable(&self) -> bool {
        (**self).splittable()
    }

    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        (**self).handles_shape(shape)
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        (**self).search(puzzle, limit, limits)
    }

    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        (**self).solve(puzzle, limits)
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        (**self).count(puzzle, limit, limits)
    }

    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        (**self).unique(puzzle, limits)
    }
}

/// [`SolveError::TooLarge`] if `puzzle` is above `solver`'s order limit.
///
/// # Errors
/// As described.
pub fn check_order(solver: &(impl Solver + ?Sized), puzzle: &Grid) -> Result<(), SolveError> {
    let shape = puzzle.shape();
    if !shape.has_box_geometry() && !solver.handles_shape(shape) {
        return Err(SolveError::Unsupported {
            backend: solver.name().to_string(),
            reason: format!(
                "it does not model the units of a {shape}; use native, sat, mip, cp or norvig"
            ),
        });
    }
    let order = puzzle.shape().order();
    if order > solver.max_order() {
        return Err(SolveError::TooLarge {
            backend: solver.name().to_string(),
            order,
            max: solver.max_order(),
        });
    }
    Ok(())
}

/// Runs `candidate` through the certificate verifier; a failure is [`SolveError::Unverified`].
///
/// # Errors
/// As described.
pub fn verified(backend: &str, puzzle: &Grid, candidate: Grid) -> Result<Grid, SolveError> {
    match verify(puzzle, &candidate) {
        Ok(()) => Ok(candidate),
        Err(violation) => Err(SolveError::Unverified {
            backend: backend.to_string(),
            violation,
        }),
    }
}

/// A backend whose every returned grid has passed [`verify`].
///
/// Two solutions of a `Multiple` outcome are also checked to differ.
#[derive(Debug, Clone, Default)]
pub struct Verified<S>(pub S);

impl<S: Solver> Solver for Verified<S> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn max_order(&self) -> usize {
        self.0.max_order()
    }

    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        let mut report = self.0.solve(puzzle, limits)?;
        if let Answer::Solved(grid) = report.answer {
            report.answer = Answer::Solved(verified(self.name(), puzzle, grid)?);
        }
        Ok(report)
    }

    fn handles_clashing_givens(&self) -> bool {
        self.0.handles_clashing_givens()
    }

    fn splittable(&self) -> bool {
        self.0.splittable()
    }

    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        self.0.handles_shape(shape)
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let report = self.0.search(puzzle, limit, limits)?;
        self.checked(puzzle, report)
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        let report = self.0.count(puzzle, limit, limits)?;
        self.checked(puzzle, report)
    }

    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        let mut report = self.0.unique(puzzle, limits)?;
        report.outcome = match report.outcome {
            Outcome::Unique(g) => Outcome::Unique(verified(self.name(), puzzle, g)?),
            Outcome::Multiple(a, b) => {
                if a == b {
                    return Err(duplicate_error(self.name()));
                }
                Outcome::Multiple(
                    verified(self.name(), puzzle, a)?,
                    verified(self.name(), puzzle, b)?,
                )
            }
            other => other,
        };
        Ok(report)
    }
}

impl<S: Solver> Verified<S> {
    /// `report` with every solution through the verifier, and two solutions checked to differ.
    fn checked(&self, puzzle: &Grid, mut report: CountReport) -> Result<CountReport, SolveError> {
        report.solutions = std::mem::take(&mut report.solutions)
            .into_iter()
            .map(|g| verified(self.name(), puzzle, g))
            .collect::<Result<_, _>>()?;
        if report.solutions.len() == 2 && report.solutions[0] == report.solutions[1] {
            return Err(duplicate_error(self.name()));
        }
        Ok(report)
    }
}

/// The error for a backend that reports the same solution twice as two solutions.
fn duplicate_error(backend: &str) -> SolveError {
    SolveError::Duplicate {
        backend: backend.to_string(),
    }
}

/// Helpers shared by the backends' unit tests.
#[cfg(test)]
pub(crate) mod test_support {
    use rand::RngExt;

    use crate::{Grid, Shape};

    /// A grid of `shape` with `givens` random givens, no two of them clashing (the puzzle may
    /// still have no solution).
    pub(crate) fn random_consistent(shape: Shape, givens: usize, rng: &mut impl rand::Rng) -> Grid {
        let mut g = Grid::empty(shape);
        while g.filled() < givens {
            let cell = rng.random_range(0..shape.cells());
            let v = rng.random_range(0..shape.order());
            if g.get(cell).is_none() && shape.peers(cell).all(|p| g.get(p) != Some(v)) {
                g.set(cell, Some(v));
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    #[test]
    fn too_large_is_a_typed_error() {
        let grid = Grid::empty(Shape::latin(200).unwrap());
        let err = backend("native")
            .unwrap()
            .solve(&grid, &Limits::none())
            .unwrap_err();
        assert!(matches!(err, SolveError::TooLarge { order: 200, .. }));
    }

    /// A backend that lies, to show the wrapper catches it.
    struct Liar;
    impl Solver for Liar {
        fn name(&self) -> &str {
            "liar"
        }
        fn max_order(&self) -> usize {
            9
        }
        fn search(&self, puzzle: &Grid, _: u64, _: &Limits) -> Result<CountReport, SolveError> {
            Ok(CountReport {
                count: 1,
                hit_limit: true,
                stopped: None,
                solutions: vec![puzzle.clone()],
                refutation: crate::search::Refutation::Search,
                stats: Stats::default(),
            })
        }
    }

    #[test]
    fn the_verified_wrapper_rejects_a_non_solution() {
        let grid = Grid::empty(Shape::sudoku(2, 2).unwrap());
        let err = Verified(Liar).solve(&grid, &Limits::none()).unwrap_err();
        assert!(matches!(err, SolveError::Unverified { .. }), "{err}");
        assert!(err.to_string().contains("is empty"), "{err}");
    }
}
