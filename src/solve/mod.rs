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
pub mod dlx;
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
pub mod sat;

use std::fmt;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::grid::Grid;
use crate::verify::{Violation, verify};

#[cfg(feature = "highs")]
pub use self::highs::Highs;
pub use backtrack::{Backtrack, Bitwise, FcMrv};
pub use colouring::Colouring;
pub use cp::Cp;
pub use dlx::Dlx;
pub use grasp::Grasp;
pub use mip::Mip;
pub use native::{Native, NativeGeneral};
pub use norvig::Norvig;
pub use parallel::count_parallel;
pub use sat::Sat;

/// Bounds on the work of one call. `None` means unbounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Budget of search nodes (see [`Stats::nodes`]).
    pub nodes: Option<u64>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A time budget only.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            nodes: None,
        }
    }
}

/// Why a search stopped before it could answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The time budget ran out.
    TimeLimit,
    /// The node budget ran out.
    NodeLimit,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::TimeLimit => "time limit",
            StopReason::NodeLimit => "node limit",
        })
    }
}

/// Work counters of one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: the root plus every branch tried.
    pub nodes: u64,
    /// Guesses: branches tried at choice points (a search-free puzzle has none). A guess that
    /// fails is a backtrack.
    pub guesses: u64,
    /// Propagations: candidate eliminations (or consistency checks, for the plain backtracker).
    pub propagations: u64,
    /// Wall-clock time of the call.
    pub elapsed: Duration,
}

impl Stats {
    /// Adds another call's counters (elapsed times add too).
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.propagations += other.propagations;
        self.elapsed += other.elapsed;
    }
}

/// The answer of [`Solver::solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A solution (not necessarily the only one).
    Solved(Grid),
    /// No solution exists.
    Unsat,
    /// A limit stopped the search first.
    Unknown(StopReason),
}

/// [`Solver::solve`]'s answer with its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveReport {
    /// The answer.
    pub answer: Answer,
    /// Work done.
    pub stats: Stats,
}

/// [`Solver::count`]'s answer. The default is the report of a count that has found nothing yet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CountReport {
    /// Solutions found: the exact count when [`CountReport::complete`], else a lower bound.
    pub count: u64,
    /// Whether the count stopped because it reached the requested limit.
    pub hit_limit: bool,
    /// Set when a [`Limits`] budget stopped the count (then `count` is only a lower bound).
    pub stopped: Option<StopReason>,
    /// The first (at most two) solutions found, in search order.
    pub solutions: Vec<Grid>,
    /// Work done.
    pub stats: Stats,
}

impl CountReport {
    /// Whether `count` is the exact number of solutions (the search space was exhausted).
    pub fn complete(&self) -> bool {
        !self.hit_limit && self.stopped.is_none()
    }
}

/// Whether a puzzle is well posed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No solution.
    Unsat,
    /// Exactly one solution.
    Unique(Grid),
    /// At least two solutions; two different ones.
    Multiple(Grid, Grid),
    /// A limit stopped the search before the question was settled.
    Unknown(StopReason),
}

/// [`Solver::unique`]'s answer with its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UniqueReport {
    /// The outcome.
    pub outcome: Outcome,
    /// Work done.
    pub stats: Stats,
}

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
    /// The command-line name.
    fn name(&self) -> &str;

    /// The largest order this backend accepts; larger puzzles give [`SolveError::TooLarge`].
    fn max_order(&self) -> usize;

    /// The first solution, or `Unsat`, or `Unknown` when a limit stops the search.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above [`Solver::max_order`].
    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Result<SolveReport, SolveError> {
        let report = self.count(puzzle, 1, limits)?;
        let answer = match (report.solutions.into_iter().next(), report.stopped) {
            (Some(grid), _) => Answer::Solved(grid),
            (None, Some(reason)) => Answer::Unknown(reason),
            (None, None) => Answer::Unsat,
        };
        Ok(SolveReport {
            answer,
            stats: report.stats,
        })
    }

    /// Counts solutions, stopping at `limit` (`u64::MAX` for all), and keeps the first two.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above [`Solver::max_order`].
    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError>;

    /// Whether the puzzle has no, one or several solutions: `count(2)`.
    ///
    /// # Errors
    /// As [`Solver::count`].
    fn unique(&self, puzzle: &Grid, limits: &Limits) -> Result<UniqueReport, SolveError> {
        let report = self.count(puzzle, 2, limits)?;
        let mut found = report.solutions.into_iter();
        let outcome = match (report.count, report.stopped) {
            (n, _) if n >= 2 => {
                let a = found.next().expect("two solutions kept");
                let b = found.next().expect("two solutions kept");
                Outcome::Multiple(a, b)
            }
            (_, Some(reason)) => Outcome::Unknown(reason),
            (1, None) => Outcome::Unique(found.next().expect("one solution kept")),
            _ => Outcome::Unsat,
        };
        Ok(UniqueReport {
            outcome,
            stats: report.stats,
        })
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

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        let mut report = self.0.count(puzzle, limit, limits)?;
        report.solutions = std::mem::take(&mut report.solutions)
            .into_iter()
            .map(|g| verified(self.name(), puzzle, g))
            .collect::<Result<_, _>>()?;
        if report.solutions.len() == 2 && report.solutions[0] == report.solutions[1] {
            return Err(duplicate_error(self.name()));
        }
        Ok(report)
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

/// The error for a backend that reports the same solution twice as two solutions.
fn duplicate_error(backend: &str) -> SolveError {
    SolveError::Duplicate {
        backend: backend.to_string(),
    }
}

/// The command-line names of the backends built so far, the default first.
pub const BACKENDS: &[&str] = &[
    "native",
    "backtrack",
    "fc-mrv",
    "bitwise",
    "norvig",
    "cp",
    "dlx",
    "colour",
    "sat",
    "mip",
    #[cfg(feature = "highs")]
    "highs",
    "grasp",
];

/// The default backend's name.
pub const DEFAULT_BACKEND: &str = "native";

/// A backend name that [`backend`] does not know.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnknownBackend {
    /// Not a backend name at all.
    #[error("unknown backend {name} (available: {})", BACKENDS.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// A backend behind a cargo feature this build was compiled without.
    #[error(
        "backend {name} is not in this build (feature {feature}); rebuild with: cargo build --release --features {feature}"
    )]
    NotCompiled {
        /// The name asked for.
        name: String,
        /// The cargo feature that enables it.
        feature: String,
    },
}

/// The backend called `name` on the command line, wrapped in [`Verified`].
///
/// # Errors
/// [`UnknownBackend::NotCompiled`] for a backend whose cargo feature is off (`highs`),
/// [`UnknownBackend::Unknown`] otherwise.
pub fn backend(name: &str) -> Result<Box<dyn Solver>, UnknownBackend> {
    Ok(match name {
        "native" => Box::new(Verified(Native)),
        "backtrack" => Box::new(Verified(Backtrack)),
        "fc-mrv" => Box::new(Verified(FcMrv)),
        "bitwise" => Box::new(Verified(Bitwise)),
        "norvig" => Box::new(Verified(Norvig)),
        "cp" => Box::new(Verified(Cp::default())),
        "dlx" => Box::new(Verified(Dlx)),
        "colour" => Box::new(Verified(Colouring::default())),
        "mip" => Box::new(Verified(Mip)),
        #[cfg(feature = "highs")]
        "highs" => Box::new(Verified(Highs)),
        #[cfg(not(feature = "highs"))]
        "highs" => {
            return Err(UnknownBackend::NotCompiled {
                name: name.to_string(),
                feature: "highs".to_string(),
            });
        }
        _ if name.starts_with("cp:") => match name[3..].parse() {
            Ok(scheme) => Box::new(Verified(Cp { scheme })),
            Err(_) => {
                return Err(UnknownBackend::Unknown {
                    name: name.to_string(),
                });
            }
        },
        _ if name == "sat" || name.starts_with("sat:") => match name.parse::<Sat>() {
            Ok(sat) => Box::new(Verified(sat)),
            Err(_) => {
                return Err(UnknownBackend::Unknown {
                    name: name.to_string(),
                });
            }
        },
        "grasp" => Box::new(Verified(Grasp::default())),
        _ if name.starts_with("grasp:") => match Grasp::from_spec(&name[6..]) {
            Ok(grasp) => Box::new(Verified(grasp)),
            Err(_) => {
                return Err(UnknownBackend::Unknown {
                    name: name.to_string(),
                });
            }
        },
        "colour:graph" => Box::new(Verified(Colouring::graph())),
        "colour:dsatur" => Box::new(Verified(Colouring::dsatur())),
        _ => {
            return Err(UnknownBackend::Unknown {
                name: name.to_string(),
            });
        }
    })
}

/// Deadline and node budget of one call, checked cheaply inside search loops.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    nodes: Option<u64>,
}

impl Budget {
    /// Starts the clock.
    pub(crate) fn start(limits: &Limits) -> Budget {
        let start = Instant::now();
        Budget {
            start,
            deadline: limits.time.map(|t| start + t),
            nodes: limits.nodes,
        }
    }

    /// Why to stop after `nodes` nodes, if a budget ran out. The clock is read every 64 nodes.
    #[inline]
    pub(crate) fn exceeded(&self, nodes: u64) -> Option<StopReason> {
        if let Some(max) = self.nodes
            && nodes > max
        {
            return Some(StopReason::NodeLimit);
        }
        if let Some(deadline) = self.deadline
            && nodes % 64 == 0
            && Instant::now() >= deadline
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// Time since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The report of a search that proved there is nothing to find (clashing givens).
pub(crate) fn unsat_report(budget: &Budget) -> CountReport {
    CountReport {
        count: 0,
        hit_limit: false,
        stopped: None,
        solutions: Vec::new(),
        stats: Stats {
            elapsed: budget.elapsed(),
            ..Stats::default()
        },
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
    fn every_name_resolves_or_says_why_not() {
        for name in BACKENDS {
            let resolved = backend(name).unwrap();
            // `cp` is HAC search, and names itself with its scheme so tables tell schemes apart.
            let expected = if *name == "cp" { "cp:HAC" } else { name };
            assert_eq!(resolved.name(), expected);
        }
        assert_eq!(backend("cp:hacs").unwrap().name(), "cp:HACS");
        assert_eq!(
            backend("sat:minimal:pairwise").unwrap().name(),
            "sat:minimal:pairwise"
        );
        assert!(matches!(
            backend("sat:minimal:commander"),
            Err(UnknownBackend::Unknown { .. })
        ));
        assert!(matches!(
            backend("cp:XYZ"),
            Err(UnknownBackend::Unknown { .. })
        ));
        #[cfg(not(feature = "highs"))]
        {
            let message = backend("highs").err().unwrap().to_string();
            assert!(
                message.contains("rebuild with: cargo build --release --features highs"),
                "{message}"
            );
            assert!(!BACKENDS.contains(&"highs"));
        }
        let message = backend("quantum").err().unwrap().to_string();
        assert!(message.contains("unknown backend quantum"), "{message}");
        assert!(message.contains("native, backtrack"), "{message}");
    }

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
        fn count(&self, puzzle: &Grid, _: u64, _: &Limits) -> Result<CountReport, SolveError> {
            Ok(CountReport {
                count: 1,
                hit_limit: true,
                stopped: None,
                solutions: vec![puzzle.clone()],
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
