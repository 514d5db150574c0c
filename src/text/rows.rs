//! A grid as rows of values (`None` for an empty cell, `1..=n` given), the form a caller's
//! list of lists takes: [`from_rows`] and [`to_rows`].

use thiserror::Error;

use super::{ShapeSpec, TextErrorKind};
use crate::grid::{Clash, Grid};
use crate::shape::{Shape, ShapeError};

/// Why rows of values are not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RowsError {
    /// No shape of the requested kind has the order the rows give.
    #[error("{0}")]
    Shape(#[from] ShapeError),
    /// The requested shape does not fit the order the rows give.
    #[error("{0}")]
    Spec(TextErrorKind),
    /// A row whose length is not the number of rows.
    #[error("row {row} has {found} values, the grid has {order} rows")]
    RowLength {
        /// 1-based row.
        row: usize,
        /// Values in the row.
        found: usize,
        /// The number of rows, n.
        order: usize,
    },
    /// A value outside `1..=n` (0 is an empty cell).
    #[error("cell ({row},{col}) holds {value}, outside 1..={order}")]
    OutOfRange {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The value.
        value: usize,
        /// The order n.
        order: usize,
    },
    /// Two givens repeat a value in a unit.
    #[error("clashing givens: {0}")]
    Clash(Clash),
}

/// The puzzle of `rows` (n rows of n values; `None` or `Some(0)` an empty cell, `Some(1..=n)`
/// given), of the shape `spec` asks for or else the one inferred from n. O(n²).
///
/// # Errors
/// A shape that does not fit n, a row of another length, a value above n, givens that clash.
pub fn from_rows(rows: &[Vec<Option<usize>>], spec: Option<ShapeSpec>) -> Result<Grid, RowsError> {
    let n = rows.len();
    let shape = match spec {
        Some(spec) => spec.shape_for(n).map_err(RowsError::Spec)?,
        None => Shape::default_for_order(n)?,
    };
    let mut grid = Grid::empty(shape);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != n {
            let (row, found, order) = (r + 1, row.len(), n);
            return Err(RowsError::RowLength { row, found, order });
        }
        for (c, value) in row.iter().enumerate() {
            match *value {
                None | Some(0) => {}
                Some(v) if v <= n => grid.set(shape.cell(r, c), Some(v - 1)),
                Some(value) => {
                    let (row, col, order) = (r + 1, c + 1, n);
                    return Err(RowsError::OutOfRange {
                        row,
                        col,
                        value,
                        order,
                    });
                }
            }
        }
    }
    match grid.first_clash() {
        Some(clash) => Err(RowsError::Clash(clash)),
        None => Ok(grid),
    }
}

/// The rows of `grid`, top to bottom: each cell's value `1..=n`, `None` when empty. O(n²).
pub fn to_rows(grid: &Grid) -> Vec<Vec<Option<usize>>> {
    let n = grid.shape().order();
    (0..n)
        .map(|r| (0..n).map(|c| grid.at(r, c).map(|v| v + 1)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(values: &[[usize; 4]]) -> Vec<Vec<Option<usize>>> {
        values
            .iter()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect()
    }

    #[test]
    fn rows_round_trip() {
        let given = rows(&[[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 2]]);
        let grid = from_rows(&given, None).unwrap();
        assert_eq!(grid.filled(), 4);
        let back = to_rows(&grid);
        assert_eq!(back[0], vec![Some(1), None, None, None]);
        assert_eq!(from_rows(&back, None), Ok(grid));
    }

    #[test]
    fn bad_rows_say_why() {
        let mut short = rows(&[[1, 0, 0, 0]; 4]);
        short[2].pop();
        let error = from_rows(&short, None).unwrap_err();
        assert_eq!(error.to_string(), "row 3 has 3 values, the grid has 4 rows");
        let big = rows(&[[0, 0, 5, 0], [0; 4], [0; 4], [0; 4]]);
        let error = from_rows(&big, None).unwrap_err();
        assert_eq!(error.to_string(), "cell (1,3) holds 5, outside 1..=4");
        let clash = rows(&[[1, 1, 0, 0], [0; 4], [0; 4], [0; 4]]);
        assert!(matches!(from_rows(&clash, None), Err(RowsError::Clash(_))));
        let latin = from_rows(&clash[1..3], Some(ShapeSpec::Box(2, 3)));
        assert!(matches!(latin, Err(RowsError::Spec(_))));
    }
}
