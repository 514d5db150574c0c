//! Random validity-preserving transformations of a grid, and random complete grids made by
//! transforming a pattern grid.
//!
//! A p×q grid keeps every row, column and box constraint under:
//! - **value relabelling**: any permutation of the n values;
//! - **rows within a band**: the p rows of a band (a row of boxes) in any order;
//! - **bands**: the q bands in any order;
//! - **columns within a stack** and **stacks**: the same for the q columns of a stack and the p
//!   stacks;
//! - **transpose**, when the boxes are square (p = q) or there are none (a Latin square): it maps
//!   rows to columns and p×q boxes to q×p ones, so the shape is kept only then.
//!
//! A row permutation within a band moves whole rows, and the cells of a box stay in the same
//! band, so each box is mapped onto a box; the same holds for the other moves. [`transform`]
//! applies one uniformly drawn element of the group they generate: the permutations are drawn
//! independently and uniformly (Fisher–Yates), and the transpose with probability ½.
//!
//! # Uniformity
//! [`random_pattern_grid`] is **not** uniform over the complete grids. It reaches only the orbit
//! of the pattern grid ([`super::pattern::canonical`]) under the group above, which has at most
//! n!·(p!)^q·q!·(q!)^p·p!·2 elements, while the number of grids is far larger (for 9×9 the orbit
//! has at most 9!·6⁸·2 ≈ 1.2·10¹² grids out of 6.67·10²¹, all of them images of one
//! very regular grid). Within the
//! orbit it is uniform (a uniform group element, applied to one point, gives the uniform
//! distribution on the orbit). For grids drawn from all of them, see [`super::random_grid`],
//! which is not exactly uniform either but is not confined to one orbit.
//!
//! # Complexity
//! O(n²) time for a transformation (one pass over the cells), O(n) random numbers.
//!
//! # References
//! - B. Felgenhauer, F. Jarvis, "Mathematics of Sudoku I" (2006): the validity-preserving
//!   symmetry group of 9×9 Sudoku (3.36·10⁶ · 9! elements with transposition) and the count of
//!   6.67·10²¹ grids.
//!
//! # Examples
//! ```
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//! use sudokit::generate::symmetry::random_pattern_grid;
//! use sudokit::{Grid, Shape, verify};
//! let shape = Shape::sudoku(2, 3).unwrap();
//! let grid = random_pattern_grid(shape, &mut ChaCha8Rng::seed_from_u64(7));
//! assert_eq!(verify(&Grid::empty(shape), &grid), Ok(()));
//! ```

use rand::Rng;
use rand::seq::SliceRandom;

use super::pattern;
use crate::grid::Grid;
use crate::shape::Shape;

/// One element of the validity-preserving group, as explicit maps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transform {
    /// New value of each old value.
    pub values: Vec<usize>,
    /// Old row shown at each new row.
    pub rows: Vec<usize>,
    /// Old column shown at each new column.
    pub cols: Vec<usize>,
    /// Whether the result is transposed (only drawn when the shape allows it).
    pub transpose: bool,
}

impl Transform {
    /// A uniformly drawn element of the group of `shape` (see the module docs).
    pub fn random<R: Rng + ?Sized>(shape: Shape, rng: &mut R) -> Transform {
        let n = shape.order();
        let (p, q) = (shape.box_rows(), shape.box_cols());
        let mut values: Vec<usize> = (0..n).collect();
        values.shuffle(rng);
        if !shape.has_box_geometry() {
            // Regions stay where they are: only relabelling the values keeps every unit.
            return Transform {
                values,
                rows: (0..n).collect(),
                cols: (0..n).collect(),
                transpose: false,
            };
        }
        // Rows: bands of p rows (q bands); columns: stacks of q columns (p stacks).
        let rows = block_permutation(n / p, p, rng);
        let cols = block_permutation(n / q, q, rng);
        let transpose = (p == q || shape.is_latin()) && rng.next_u32() & 1 == 1;
        Transform {
            values,
            rows,
            cols,
            transpose,
        }
    }

    /// The transformed grid (givens and empty cells alike are moved).
    pub fn apply(&self, grid: &Grid) -> Grid {
        let shape = grid.shape();
        let n = shape.order();
        let mut out = Grid::empty(shape);
        for r in 0..n {
            for c in 0..n {
                let v = grid.at(self.rows[r], self.cols[c]).map(|v| self.values[v]);
                let (tr, tc) = if self.transpose { (c, r) } else { (r, c) };
                out.set(shape.cell(tr, tc), v);
            }
        }
        out
    }
}

/// A permutation of `blocks · size` positions that permutes the blocks and, independently, the
/// positions inside each block.
fn block_permutation<R: Rng + ?Sized>(blocks: usize, size: usize, rng: &mut R) -> Vec<usize> {
    let mut order: Vec<usize> = (0..blocks).collect();
    order.shuffle(rng);
    let mut out = Vec::with_capacity(blocks * size);
    let mut inner: Vec<usize> = (0..size).collect();
    for &b in &order {
        inner.shuffle(rng);
        out.extend(inner.iter().map(|&i| b * size + i));
    }
    out
}

/// `grid` under a uniformly drawn element of the group of its shape.
pub fn transform<R: Rng + ?Sized>(grid: &Grid, rng: &mut R) -> Grid {
    Transform::random(grid.shape(), rng).apply(grid)
}

/// A complete grid in O(n²): the pattern grid under a random transformation. Uniform on the
/// pattern's orbit, not on all grids (see the module docs).
pub fn random_pattern_grid<R: Rng + ?Sized>(shape: Shape, rng: &mut R) -> Grid {
    transform(&pattern::canonical(shape), rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn transformed_grids_stay_valid_on_every_small_shape() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (p, q) in [
            (1, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 5),
            (4, 4),
            (1, 7),
        ] {
            let shape = Shape::sudoku(p, q).unwrap();
            for _ in 0..20 {
                let grid = random_pattern_grid(shape, &mut rng);
                assert_eq!(verify(&Grid::empty(shape), &grid), Ok(()), "{shape}");
            }
        }
        let latin = Shape::latin(6).unwrap();
        for _ in 0..20 {
            let grid = random_pattern_grid(latin, &mut rng);
            assert_eq!(verify(&Grid::empty(latin), &grid), Ok(()));
        }
    }

    #[test]
    fn a_transform_moves_a_puzzle_with_its_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let shape = Shape::sudoku(3, 3).unwrap();
        let solution = random_pattern_grid(shape, &mut rng);
        let mut puzzle = solution.clone();
        for cell in (0..81).step_by(2) {
            puzzle.set(cell, None);
        }
        let t = Transform::random(shape, &mut rng);
        let (tp, ts) = (t.apply(&puzzle), t.apply(&solution));
        assert_eq!(verify(&tp, &ts), Ok(()));
        assert_eq!(tp.filled(), puzzle.filled());
    }

    #[test]
    fn different_seeds_give_different_grids() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let a = random_pattern_grid(shape, &mut ChaCha8Rng::seed_from_u64(1));
        let b = random_pattern_grid(shape, &mut ChaCha8Rng::seed_from_u64(2));
        let a2 = random_pattern_grid(shape, &mut ChaCha8Rng::seed_from_u64(1));
        assert_ne!(a, b);
        assert_eq!(a, a2);
    }
}
