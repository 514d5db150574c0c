//! The dual (position) variables of a unit and their own `alldifferent`, channelled to the cells:
//! the `I` of `BCI`.
//!
//! Simonis (2005): "we introduce a dual set of variables, which are linked to the original
//! variables via an inverse constraint, and which themselves must be all different. This
//! improves the reasoning obtained from the forward checking and the bound-consistent versions."
//! For each unit, the dual variable of value `v` is the position (`0..n`, in the unit's cell
//! order: columns of a row, rows of a column, row-major in a box) where `v` goes. The inverse
//! constraint is kept domain consistent for free: the dual domains are read off the cells
//! (position `i` is in the domain of `v` exactly when `v` is a candidate of the unit's `i`-th
//! cell), so removing position `i` from `v` is removing `v` from that cell.
//!
//! The dual `alldifferent` runs at the scheme's level. For `BCI` it is the range exhaustion of
//! [`super::bounds`] on positions: values whose places all lie in a range of positions and use
//! up as many places as they are (a hidden pair or triple of neighbouring positions, a value
//! with one place left) keep those places for themselves, and every other value leaves them.
//! For `FCI`, forward checking on the duals is exactly the channeling of [`super::fc`] (a value
//! with one place is placed there, a value with none is a failure), which `FCI` runs as it is.
//!
//! # Complexity
//! Building the dual domains and writing them back is O(n²) bit operations per revision of a
//! unit; the filter costs what [`super::bounds`] says, with positions for values.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", 2005 (the dual model and channeling).
//! - B. M. W. Cheng, K. M. F. Choi, J. H. M. Lee, J. C. K. Wu, "Increasing constraint
//!   propagation by redundant modeling: an experience report", Constraints 4(2), 1999
//!   (channelling a model with its dual).

use super::{Domains, Failure, Propagator};

impl Propagator {
    /// Range exhaustion on the dual variables of unit `u`, channelled back to its cells.
    pub(super) fn bounds_dual(&mut self, d: &mut Domains, u: usize) -> Result<(), Failure> {
        let n = self.n;
        let mut ex = std::mem::take(&mut self.exhaustion);
        for v in 0..n {
            ex.domain_mut(v).fill(0);
        }
        for i in 0..n {
            let cell = self.unit_cells[u * n + i] as usize;
            for v in super::iter_bits(d.cell_words(cell)) {
                ex.domain_mut(v)[i / 64] |= 1u64 << (i % 64);
            }
        }
        let result = ex.filter(n).and_then(|changed| {
            if changed {
                for i in 0..n {
                    let cell = self.unit_cells[u * n + i] as usize;
                    for v in 0..n {
                        if ex.domain(v)[i / 64] & (1u64 << (i % 64)) == 0 {
                            self.remove(d, cell, v)?;
                        }
                    }
                }
            }
            Ok(())
        });
        self.exhaustion = ex;
        result
    }
}
