//! Complete grids of any shape in O(n²) time, by two constructions from a circular list of values.
//!
//! Both take a circular list `L` of the n values (a permutation; the identity gives the canonical
//! grid) and write `L[k mod n]` into each cell for an offset `k` computed in O(1), so a grid costs
//! O(n²) time and no search. Boxes are `p` rows × `q` columns; a cell is `(r, c)` with
//! `r = b·p + i` (band `b < q`, row `i < p` inside the box) and `c = s·q + j` (stack `s < p`,
//! column `j < q` inside the box).
//!
//! **Box by box** ([`Construction::BoxByBox`]): box number `k = b·p + s` (row-major) is filled column
//! by column with consecutive list entries, starting one step further than the box before it:
//! `offset(r, c) = k + j·p + i`.
//! - *Box*: `j·p + i` runs over `0..n` once as `(i, j)` runs over the box: all n values.
//! - *Row* `(b, i)`: `s + j·p` over `s < p`, `j < q` is again every residue of `0..n` once, and the
//!   rest (`b·p + i`) is a constant shift.
//! - *Column* `(s, j)`: `b·p + i` over `b < q`, `i < p` is every residue once, plus a constant.
//!
//! **Band shift** ([`Construction::BandShift`]): every row of a band holds the same circular
//! pattern, each row of the band shifted by the box width `q` and each band by one:
//! `offset(r, c) = i·q + b + c`.
//! - *Row*: `c` runs over `0..n`: all values.
//! - *Column*: `i·q + b` over `i < p`, `b < q` is every residue once.
//! - *Box* `(b, s)`: `i·q + j` over `i < p`, `j < q` is every residue once, plus `b + s·q`.
//!
//! For a Latin square (p = 1, q = n) both give the cyclic square `L[(r + c) mod n]`.
//!
//! # Complexity
//! O(n²) time, O(1) extra memory besides the grid.
//!
//! # References
//! - The pattern `(q·(r mod p) + ⌊r/p⌋ + c) mod n` is the classic one for Latin-square completion →
//!   Sudoku (Yato & Seta 2003); the box-by-box filling is its transpose-like twin, filling boxes
//!   instead of bands.
//!
//! # Examples
//! ```
//! use sudokit::generate::pattern::{Construction, complete_grid};
//! use sudokit::{Grid, Shape, verify};
//! let shape = Shape::sudoku(2, 3).unwrap();
//! let values: Vec<usize> = (0..6).collect();
//! for construction in [Construction::BoxByBox, Construction::BandShift] {
//!     let grid = complete_grid(shape, construction, &values);
//!     assert_eq!(verify(&Grid::empty(shape), &grid), Ok(()));
//! }
//! ```

use crate::grid::Grid;
use crate::shape::Shape;

/// Which O(n²) construction to use; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Construction {
    /// Box `k` filled column-major from list position `k`.
    BoxByBox,
    /// Rows of a band shifted by the box width, bands by one.
    BandShift,
}

/// The list offset of cell `(r, c)` under a construction.
#[inline]
fn offset(shape: Shape, construction: Construction, r: usize, c: usize) -> usize {
    let (p, q) = (shape.box_rows(), shape.box_cols());
    let (b, i) = (r / p, r % p);
    let (s, j) = (c / q, c % q);
    match construction {
        Construction::BoxByBox => (b * p + s) + j * p + i,
        Construction::BandShift => i * q + b + c,
    }
}

/// The complete grid of `shape` built from the circular list `values` (0-based values, a
/// permutation of `0..n`).
///
/// # Panics
/// If `values` is not of length n (a programming error: callers pass a permutation).
pub fn complete_grid(shape: Shape, construction: Construction, values: &[usize]) -> Grid {
    let n = shape.order();
    assert_eq!(values.len(), n, "the circular list holds the n values");
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            let k = offset(shape, construction, r, c) % n;
            grid.set(shape.cell(r, c), Some(values[k]));
        }
    }
    grid
}

/// The canonical grid: band shift over the identity list, `(q·(r mod p) + ⌊r/p⌋ + c) mod n`.
pub fn canonical(shape: Shape) -> Grid {
    let identity: Vec<usize> = (0..shape.order()).collect();
    complete_grid(shape, Construction::BandShift, &identity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn both_constructions_are_valid_for_every_shape_up_to_64_and_some_larger() {
        let mut shapes = Vec::new();
        for n in 1..=64usize {
            for p in (1..=n).filter(|p| n % p == 0) {
                shapes.push(Shape::sudoku(p, n / p).unwrap());
            }
            shapes.push(Shape::latin(n).unwrap());
        }
        for (p, q) in [(10, 10), (9, 12), (16, 16), (1, 200)] {
            shapes.push(Shape::sudoku(p, q).unwrap());
        }
        for shape in shapes {
            // A list that is not the identity, to show the list is what fills the grid.
            let n = shape.order();
            let values: Vec<usize> = (0..n).map(|k| (k * 7 + 3) % n).collect();
            let values = if (0..n).all(|v| values.contains(&v)) {
                values
            } else {
                (0..n).rev().collect()
            };
            for construction in [Construction::BoxByBox, Construction::BandShift] {
                let grid = complete_grid(shape, construction, &values);
                assert_eq!(
                    verify(&Grid::empty(shape), &grid),
                    Ok(()),
                    "{shape} {construction:?}"
                );
            }
        }
    }

    #[test]
    fn the_constructions_differ_when_boxes_are_not_lines() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let values: Vec<usize> = (0..9).collect();
        assert_ne!(
            complete_grid(shape, Construction::BoxByBox, &values),
            complete_grid(shape, Construction::BandShift, &values)
        );
        // Box 1 (top band, middle stack) starts one step further: its top-left cell is L[1].
        let grid = complete_grid(shape, Construction::BoxByBox, &values);
        assert_eq!(grid.at(0, 3), Some(1));
        assert_eq!(grid.at(1, 0), Some(1));
    }
}
