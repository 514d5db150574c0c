//! How the variables of an encoded puzzle map back to the cell variables `x(r,c,v)`, and the
//! decoding of a model into a grid.

use thiserror::Error;

use crate::encode::{Model, Var, x_index};
use crate::grid::{CellRef, Grid};

/// How the variables of an encoded puzzle map back to `x(r,c,v)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarMap {
    /// `x(r,c,v)` is variable `first + x_index(n, r, c, v)` (minimal, efficient, extended).
    Direct {
        /// The order.
        n: usize,
        /// The variable of `x(0,0,0)` (index 0 on a fresh sink).
        first: usize,
    },
    /// Only the open `x` have variables (optimized): `slots[x_index]` is `var index + 1`, or 0
    /// for an `x` fixed by the givens.
    Sparse {
        /// The order.
        n: usize,
        /// Per x index: 0 (fixed) or 1 + the variable index.
        slots: Vec<u32>,
    },
}

impl VarMap {
    /// The order.
    pub fn order(&self) -> usize {
        match self {
            VarMap::Direct { n, .. } | VarMap::Sparse { n, .. } => *n,
        }
    }

    /// The variable of `x(r,c,v)` (0-based), `None` if the encoding fixed it.
    pub fn var(&self, row: usize, col: usize, value: usize) -> Option<Var> {
        let n = self.order();
        let i = x_index(n, row, col, value);
        match self {
            VarMap::Direct { first, .. } => Some(Var::from_index(first + i)),
            VarMap::Sparse { slots, .. } => {
                (slots[i] != 0).then(|| Var::from_index(slots[i] as usize - 1))
            }
        }
    }

    /// Number of x variables that got a variable.
    pub fn x_vars(&self) -> usize {
        match self {
            VarMap::Direct { n, .. } => n * n * n,
            VarMap::Sparse { slots, .. } => slots.iter().filter(|&&s| s != 0).count(),
        }
    }

    /// The grid a model describes: each cell takes the value whose variable is true; a cell with
    /// no variable (optimized, a given) takes its given.
    ///
    /// # Errors
    /// [`DecodeError::NoValue`] when no value of a cell is true, [`DecodeError::TwoValues`]
    /// when two are. The grid is not verified here: pass it to [`crate::verify()`].
    pub fn decode(&self, puzzle: &Grid, model: &Model) -> Result<Grid, DecodeError> {
        let shape = puzzle.shape();
        let n = shape.order();
        let mut grid = Grid::empty(shape);
        for cell in 0..shape.cells() {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            let mut found = None;
            let mut has_var = false;
            for v in 0..n {
                if let Some(var) = self.var(r, c, v) {
                    has_var = true;
                    if model.is_true(var) {
                        if let Some(first) = found {
                            return Err(DecodeError::TwoValues {
                                cell: grid.cell_ref(cell),
                                first: first + 1,
                                second: v + 1,
                            });
                        }
                        found = Some(v);
                    }
                }
            }
            if !has_var {
                found = puzzle.get(cell);
            }
            match found {
                Some(v) => grid.set(cell, Some(v)),
                None => {
                    return Err(DecodeError::NoValue {
                        cell: grid.cell_ref(cell),
                    });
                }
            }
        }
        Ok(grid)
    }
}

/// Why a model does not describe a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// No value of a cell is true.
    #[error("the answer sets no value of cell {cell}")]
    NoValue {
        /// The cell.
        cell: CellRef,
    },
    /// Two values of a cell are true.
    #[error("the answer sets two values of cell {cell}: {first} and {second}")]
    TwoValues {
        /// The cell.
        cell: CellRef,
        /// The 1-based first value.
        first: usize,
        /// The 1-based second value.
        second: usize,
    },
}
