//! `Shape`: the order of a grid and its boxes (none for a Latin square); a value that pickles.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sudokit::Shape as LibShape;

use crate::errors::value_error;
use crate::values::reduce;

/// The shape of a grid: its order, and its boxes (none for a Latin square).
#[pyclass(module = "sudokit", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape(pub LibShape);

#[pymethods]
impl Shape {
    /// The order n (the grid is n×n).
    #[getter]
    fn order(&self) -> usize {
        self.0.order()
    }

    /// `(p, q)`: boxes of p rows and q columns, or None for a Latin square.
    #[getter]
    fn r#box(&self) -> Option<(usize, usize)> {
        (!self.0.is_latin()).then(|| (self.0.box_rows(), self.0.box_cols()))
    }

    /// Whether the grid is a Latin square (rows and columns only).
    #[getter]
    fn latin(&self) -> bool {
        self.0.is_latin()
    }

    /// n², the number of cells.
    #[getter]
    fn cells(&self) -> usize {
        self.0.cells()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        match self.r#box() {
            Some((p, q)) => format!("Shape(box=({p}, {q}))"),
            None => format!("Shape(latin={})", self.0.order()),
        }
    }

    /// Pickling: the order and the boxes (None for a Latin square).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce(py, "_shape_from_state", (self.0.order(), self.r#box()))
    }
}

/// The inverse of `Shape.__reduce__`.
#[pyfunction]
pub fn _shape_from_state(order: usize, r#box: Option<(usize, usize)>) -> PyResult<Shape> {
    let shape = match r#box {
        Some((p, q)) => LibShape::sudoku(p, q),
        None => LibShape::latin(order),
    }
    .map_err(value_error)?;
    if shape.order() != order {
        return Err(value_error(format!(
            "boxes {box:?} do not make order {order}"
        )));
    }
    Ok(Shape(shape))
}
