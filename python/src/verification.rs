//! `verify`, the certificate check of a candidate solution, and its answer `Verification`
//! (valid, or the violation found); a value equal to its bool, that pickles.

use pyo3::prelude::*;

use pyo3::types::PyTuple;
use sudokit::{Grid, Violation};

use crate::grid_input::{candidate_of, grid_of};
use crate::values::{grid_of_state, grid_state, reduce};

/// The certificate check of a candidate: true when it solves the puzzle, else `violation`
/// says why, `kind` names the problem and `unit` the row, column or box that repeats a value.
///
/// A value: equal to its bool (`verify(p, s) == True`) and to a check that found the same
/// violation (or none).
#[pyclass(module = "sudokit", frozen)]
pub struct Verification {
    violation: Option<Violation>,
    /// The puzzle and the candidate checked (pickling checks them again).
    puzzle: Grid,
    candidate: Grid,
}

#[pymethods]
impl Verification {
    /// Whether the candidate solves the puzzle.
    #[getter]
    fn valid(&self) -> bool {
        self.violation.is_none()
    }

    /// The first problem found, in words (`column 3 has 4 twice: at (2,3) and (4,3)`), or None.
    #[getter]
    fn violation(&self) -> Option<String> {
        self.violation.as_ref().map(|v| v.to_string())
    }

    /// `shape`, `empty`, `out-of-range`, `given-changed` or `repeated`; None when valid.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        self.violation.as_ref().map(|v| match v {
            Violation::ShapeMismatch { .. } => "shape",
            Violation::Empty { .. } => "empty",
            Violation::OutOfRange { .. } => "out-of-range",
            Violation::GivenChanged { .. } => "given-changed",
            Violation::Repeated(_) => "repeated",
        })
    }

    /// The unit that repeats a value, as `("row" | "column" | "box", number)`, 1-based.
    #[getter]
    fn unit(&self) -> Option<(&'static str, usize)> {
        let unit = self.violation.as_ref()?.unit()?;
        let kind = match unit.kind {
            sudokit::UnitKind::Row => "row",
            sudokit::UnitKind::Column => "column",
            sudokit::UnitKind::Box => "box",
        };
        Some((kind, unit.number + 1))
    }

    fn __bool__(&self) -> bool {
        self.violation.is_none()
    }

    /// Equal to its bool, and to a check that found the same violation (or none).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(o) = other.cast::<Verification>() {
            return Ok(o.get().violation == self.violation);
        }
        if other.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(other.extract::<bool>()? == self.violation.is_none());
        }
        Ok(false)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!self.__eq__(other)?)
    }

    /// The hash of its bool (a check equals its bool).
    fn __hash__(&self) -> u64 {
        u64::from(self.violation.is_none())
    }

    /// Pickling: the puzzle and the candidate, checked again (the check is O(n²)).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (grid_state(&self.puzzle), grid_state(&self.candidate));
        reduce(py, "_verification_from_state", state)
    }

    fn __repr__(&self) -> String {
        match &self.violation {
            None => "Verification(valid=True)".to_string(),
            Some(v) => format!("Verification(valid=False, violation={:?})", v.to_string()),
        }
    }
}

/// The certificate check: whether `candidate` is a solution of `puzzle` (O(n²)).
///
/// Returns:
///     A `Verification`, true when valid; else `violation` says why.
///
/// Raises:
///     ParseError: text that is not a grid.
#[pyfunction]
pub fn verify(puzzle: &Bound<'_, PyAny>, candidate: &Bound<'_, PyAny>) -> PyResult<Verification> {
    Ok(verification(grid_of(puzzle)?, candidate_of(candidate)?))
}

fn verification(puzzle: Grid, candidate: Grid) -> Verification {
    Verification {
        violation: sudokit::verify(&puzzle, &candidate).err(),
        puzzle,
        candidate,
    }
}

/// The inverse of `Verification.__reduce__`.
#[pyfunction]
pub fn _verification_from_state(puzzle: &str, candidate: &str) -> PyResult<Verification> {
    Ok(verification(
        grid_of_state(puzzle)?,
        grid_of_state(candidate)?,
    ))
}
