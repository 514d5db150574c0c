//! Fault injection: a backend wrapper that answers wrongly on purpose, so a user (and the test
//! suite) can see that the certificate verifier and the cross-check catch a buggy backend.
//!
//! `sudokit crosscheck --inject-fault native:grid` adds a participant `native+fault:grid` whose
//! solutions have two cells of different values swapped (the verifier rejects them), and
//! `native:unsat` one that claims every puzzle is unsatisfiable (only the comparison with the
//! other participants can catch that). It is a self-test of the checking machinery, never used
//! to answer a question.

use std::fmt;
use std::str::FromStr;

use crate::grid::Grid;
use crate::solve::{CountReport, Limits, SolveError, Solver};

/// The kind of wrong answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Swap the values of two cells of every solution returned.
    CorruptGrid,
    /// Answer "no solution" whatever the puzzle.
    ClaimUnsat,
}

impl Fault {
    /// The name used on the command line and in participant names.
    pub fn name(self) -> &'static str {
        match self {
            Fault::CorruptGrid => "grid",
            Fault::ClaimUnsat => "unsat",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(s: &str) -> Result<Fault, String> {
        match s {
            "grid" => Ok(Fault::CorruptGrid),
            "unsat" => Ok(Fault::ClaimUnsat),
            other => Err(format!("unknown fault {other} (grid or unsat)")),
        }
    }
}

/// `inner`, answering wrongly as `fault` says.
pub struct Faulty<S> {
    inner: S,
    fault: Fault,
    name: String,
}

impl<S: Solver> Faulty<S> {
    /// Wraps `inner`; the participant is named `INNER+fault:KIND`.
    pub fn new(inner: S, fault: Fault) -> Faulty<S> {
        let name = format!("{}+fault:{fault}", inner.name());
        Faulty { inner, fault, name }
    }
}

/// `grid` with the first two cells of different values (row-major) swapped: no longer a
/// solution, since those two values now both appear twice in some unit or a given changed.
fn corrupt(mut grid: Grid) -> Grid {
    let first = grid.get(0);
    if let Some(other) = (1..grid.shape().cells()).find(|&c| grid.get(c) != first) {
        let value = grid.get(other);
        grid.set(other, first);
        grid.set(0, value);
    }
    grid
}

impl<S: Solver> Solver for Faulty<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn max_order(&self) -> usize {
        self.inner.max_order()
    }

    fn splittable(&self) -> bool {
        self.inner.splittable()
    }

    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        self.inner.handles_shape(shape)
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let report = self.inner.search(puzzle, limit, limits)?;
        Ok(self.spoil(report))
    }

    fn count(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Result<CountReport, SolveError> {
        let report = self.inner.count(puzzle, limit, limits)?;
        Ok(self.spoil(report))
    }
}

impl<S: Solver> Faulty<S> {
    /// The report with the fault applied.
    fn spoil(&self, mut report: CountReport) -> CountReport {
        match self.fault {
            Fault::CorruptGrid => {
                report.solutions = std::mem::take(&mut report.solutions)
                    .into_iter()
                    .map(corrupt)
                    .collect();
            }
            Fault::ClaimUnsat => {
                report.count = 0;
                report.hit_limit = false;
                report.stopped = None;
                report.solutions.clear();
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Native, Solver, Verified};
    use crate::{Shape, verify};

    #[test]
    fn corrupted_grids_fail_the_verifier() {
        let empty = Grid::empty(Shape::sudoku(2, 3).unwrap());
        let good = Native.solve(&empty, &Limits::none()).unwrap();
        let crate::solve::Answer::Solved(grid) = good.answer else {
            panic!("solvable");
        };
        assert!(verify(&empty, &grid).is_ok());
        assert!(verify(&empty, &corrupt(grid)).is_err());
        let err = Verified(Faulty::new(Native, Fault::CorruptGrid))
            .solve(&empty, &Limits::none())
            .unwrap_err();
        assert!(matches!(err, SolveError::Unverified { .. }), "{err}");
    }

    #[test]
    fn names_parse() {
        assert_eq!("grid".parse::<Fault>(), Ok(Fault::CorruptGrid));
        assert_eq!("unsat".parse::<Fault>(), Ok(Fault::ClaimUnsat));
        assert!("x".parse::<Fault>().is_err());
        assert_eq!(
            Faulty::new(Native, Fault::ClaimUnsat).name(),
            "native+fault:unsat"
        );
    }
}
