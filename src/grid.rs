//! Grids of values: puzzles (the filled cells are the givens) and solutions (every cell filled).
//!
//! A [`Grid`] stores one `u16` per cell, row-major: a value `0..n` (0-based in code; users see
//! `1..=n`) or [`EMPTY`]. A **puzzle** is a grid whose filled cells are its givens; a **solution**
//! is a complete grid that extends them. [`Grid::first_clash`] finds two givens that repeat a
//! value inside a unit — such a puzzle has no solution.
//!
//! # Complexity
//! Cell access is O(1); [`Grid::first_clash`] is O(n²) time with one n-bit bitset of extra
//! memory (the unit scan the certificate verifier also relies on). Up to order 64 both first
//! make one pass with a 64-bit set per row, column and box (2n + 1 words), and scan the units
//! only to name a clash.
//!
//! # Examples
//! ```
//! use sudokit::{Grid, Shape};
//! let shape = Shape::sudoku(2, 2).unwrap();
//! let mut grid = Grid::empty(shape);
//! grid.set(shape.cell(0, 0), Some(3));
//! grid.set(shape.cell(0, 3), Some(3));
//! let clash = grid.first_clash().unwrap();
//! assert_eq!(clash.to_string(), "row 1 has 4 twice: at (1,1) and (1,4)");
//! ```

use std::fmt;

use crate::bitset::Bitset;
use crate::shape::{Shape, Unit, UnitKind};

/// The stored marker of an empty cell.
pub const EMPTY: u16 = u16::MAX;

/// A cell, shown 1-based as `(row,column)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRef {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row + 1, self.col + 1)
    }
}

/// Two cells of one unit holding the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clash {
    /// The unit where the value repeats.
    pub unit: Unit,
    /// The 0-based value.
    pub value: usize,
    /// The earlier cell in the unit's order.
    pub first: CellRef,
    /// The later cell.
    pub second: CellRef,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has {} twice: at {} and {}",
            self.unit,
            self.value + 1,
            self.first,
            self.second
        )
    }
}

/// A grid of a given shape; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u16>,
}

/// A puzzle is a grid whose filled cells are the givens.
pub type Puzzle = Grid;

impl Grid {
    /// The grid with no cell filled.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![EMPTY; shape.cells()],
        }
    }

    /// A grid from row-major cells (`None` = empty, `Some(v)` with `v < n`).
    ///
    /// # Panics
    /// If the length is not `n²` or a value is `≥ n`: callers validate user input first.
    pub fn from_cells(shape: Shape, cells: &[Option<usize>]) -> Grid {
        assert_eq!(cells.len(), shape.cells(), "cell count of {shape}");
        let mut grid = Grid::empty(shape);
        for (i, v) in cells.iter().enumerate() {
            grid.set(i, *v);
        }
        grid
    }

    /// A grid from its raw row-major cells ([`EMPTY`] or a 0-based value), or `None` when
    /// their number is not `n²` or a value is `≥ n`.
    pub(crate) fn from_raw(shape: Shape, cells: Vec<u16>) -> Option<Grid> {
        // EMPTY + 1 wraps to 0 and a value v becomes v + 1, at most n: the largest of them
        // says whether every cell is valid (a maximum, which the compiler vectorises).
        let largest = cells.iter().fold(0, |m: u16, &v| m.max(v.wrapping_add(1)));
        (usize::from(largest) <= shape.order() && cells.len() == shape.cells())
            .then_some(Grid { shape, cells })
    }

    /// A grid from raw cells its maker knows to be valid (checked in debug builds only).
    pub(crate) fn from_valid_raw(shape: Shape, cells: Vec<u16>) -> Grid {
        debug_assert!(Grid::from_raw(shape, cells.clone()).is_some());
        Grid { shape, cells }
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The value of a cell, 0-based.
    #[inline]
    pub fn get(&self, cell: usize) -> Option<usize> {
        let v = self.cells[cell];
        (v != EMPTY).then_some(v as usize)
    }

    /// The value at `(r, c)`, 0-based.
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> Option<usize> {
        self.get(self.shape.cell(row, col))
    }

    /// Sets or clears a cell.
    ///
    /// # Panics
    /// If `value ≥ n`.
    #[inline]
    pub fn set(&mut self, cell: usize, value: Option<usize>) {
        self.cells[cell] = match value {
            Some(v) => {
                assert!(v < self.shape.order(), "value {v} out of range");
                v as u16
            }
            None => EMPTY,
        };
    }

    /// The raw row-major cells ([`EMPTY`] or a 0-based value).
    #[inline]
    pub fn raw(&self) -> &[u16] {
        &self.cells
    }

    /// Number of filled cells (the givens of a puzzle).
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != EMPTY).count()
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != EMPTY)
    }

    /// `(cell, value)` for every filled cell, row-major.
    pub fn givens(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != EMPTY)
            .map(|(i, &v)| (i, v as usize))
    }

    /// A 0-based cell reference for messages.
    #[inline]
    pub fn cell_ref(&self, cell: usize) -> CellRef {
        CellRef {
            row: self.shape.row_of(cell),
            col: self.shape.col_of(cell),
        }
    }

    /// The first repeated value inside a unit, scanning rows, then columns, then boxes, each in
    /// order; `None` if no unit repeats a value. Empty cells are ignored.
    ///
    /// # Complexity
    /// O(n²) time, one n-bit bitset of extra memory.
    pub fn first_clash(&self) -> Option<Clash> {
        if self.repeat_free() == Some(true) {
            return None;
        }
        let shape = self.shape;
        let mut seen = Bitset::new(shape.order());
        for unit in shape.units() {
            if let Some(clash) = self.clash_in_unit(unit, &mut seen) {
                return Some(clash);
            }
        }
        None
    }

    /// Whether no unit repeats a value, in one branch-free pass with a 64-bit set per row,
    /// column and box (orders up to 64; `None` above): the fast path of [`Grid::first_clash`]
    /// and of the certificate verifier, which fall back to their unit scans only to name a
    /// clash.
    pub(crate) fn repeat_free(&self) -> Option<bool> {
        let shape = self.shape;
        let n = shape.order();
        // Regions are read through the unit scans.
        if n > 64 || !shape.has_box_geometry() {
            return None;
        }
        let (p, q) = (shape.box_rows(), shape.box_cols());
        // A Latin square has no boxes: their sets are kept but never read.
        let box_mask = if shape.is_latin() { 0 } else { u64::MAX };
        // The common orders with constant loop bounds: the column and box sets stay in
        // registers (9×9: about 10 instructions a cell).
        Some(match (p, q) {
            (3, 3) => repeat_free_fixed::<3, 3, 9>(&self.cells, box_mask),
            (2, 3) => repeat_free_fixed::<2, 3, 6>(&self.cells, box_mask),
            (4, 4) => repeat_free_fixed::<4, 4, 16>(&self.cells, box_mask),
            (5, 5) => repeat_free_fixed::<5, 5, 25>(&self.cells, box_mask),
            _ => repeat_free_any(&self.cells, p, q, box_mask),
        })
    }

    /// The first repeated value in one unit; `seen` is scratch space of `n` bits.
    pub(crate) fn clash_in_unit(&self, unit: Unit, seen: &mut Bitset) -> Option<Clash> {
        let shape = self.shape;
        seen.clear();
        let mut repeated = None;
        match unit.kind {
            // Rows are contiguous: scan the slice directly (the hot case of the verifier).
            UnitKind::Row => {
                let n = shape.order();
                let row = &self.cells[unit.number * n..(unit.number + 1) * n];
                for (i, &v) in row.iter().enumerate() {
                    if v != EMPTY && !seen.insert(v as usize) {
                        repeated = Some((unit.number * n + i, v as usize));
                        break;
                    }
                }
            }
            _ => {
                for cell in shape.unit_cells(unit) {
                    let v = self.cells[cell];
                    if v != EMPTY && !seen.insert(v as usize) {
                        repeated = Some((cell, v as usize));
                        break;
                    }
                }
            }
        }
        let (second, value) = repeated?;
        let first = shape
            .unit_cells(unit)
            .find(|&c| self.get(c) == Some(value))
            .expect("a repeated value was seen earlier in the unit");
        Some(Clash {
            unit,
            value,
            first: self.cell_ref(first),
            second: self.cell_ref(second),
        })
    }
}

/// [`Grid::repeat_free`] for any order up to 64 (boxes of `p` × `q` cells; a `box_mask` of
/// zero ignores the boxes).
fn repeat_free_any(cells: &[u16], p: usize, q: usize, box_mask: u64) -> bool {
    let n = p * q;
    let (mut cols, mut boxes) = ([0u64; 64], [0u64; 64]);
    let mut repeated = 0u64;
    for (r, row) in cells.chunks_exact(n).enumerate() {
        let mut in_row = 0u64;
        // The row's boxes, one per stack of q columns (no division per cell).
        let band = &mut boxes[(r / p) * p..][..p];
        let stacks = row.chunks_exact(q).zip(cols[..n].chunks_exact_mut(q));
        for ((cells, cols), in_box) in stacks.zip(band) {
            let mut seen = *in_box;
            for (&v, in_col) in cells.iter().zip(cols) {
                // An empty cell (or a value past 63) sets no bit.
                let bit = if v < 64 { 1u64 << v } else { 0 };
                repeated |= (in_row | *in_col | (seen & box_mask)) & bit;
                in_row |= bit;
                *in_col |= bit;
                seen |= bit;
            }
            *in_box = seen;
        }
    }
    repeated == 0
}

/// [`repeat_free_any`] with the shape fixed at compile time (`N = P·Q`).
#[inline(always)]
fn repeat_free_fixed<const P: usize, const Q: usize, const N: usize>(
    cells: &[u16],
    box_mask: u64,
) -> bool {
    let (mut cols, mut boxes) = ([0u64; N], [0u64; N]);
    let mut repeated = 0u64;
    for (r, row) in cells.chunks_exact(N).enumerate() {
        let row: &[u16; N] = row.try_into().expect("rows of N cells");
        let band = (r / P) * P;
        let mut in_row = 0u64;
        for (c, &v) in row.iter().enumerate() {
            let bit = if v < 64 { 1u64 << v } else { 0 };
            let b = band + c / Q;
            repeated |= (in_row | cols[c] | (boxes[b] & box_mask)) & bit;
            in_row |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    repeated == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clashes_are_found_in_each_kind_of_unit() {
        let shape = Shape::sudoku(2, 3).unwrap();
        let mut g = Grid::empty(shape);
        g.set(shape.cell(0, 0), Some(1));
        g.set(shape.cell(1, 2), Some(1));
        let clash = g.first_clash().unwrap();
        assert_eq!(clash.unit.kind, UnitKind::Box);
        assert_eq!(clash.first, CellRef { row: 0, col: 0 });
        assert_eq!(clash.second, CellRef { row: 1, col: 2 });

        let mut g = Grid::empty(shape);
        g.set(shape.cell(0, 4), Some(5));
        g.set(shape.cell(5, 4), Some(5));
        assert_eq!(g.first_clash().unwrap().unit.kind, UnitKind::Column);
        g.set(shape.cell(5, 4), Some(4));
        assert!(g.first_clash().is_none());
        assert_eq!(g.filled(), 2);
    }

    #[test]
    fn the_one_pass_check_agrees_with_the_unit_scans() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let shapes = [
            Shape::sudoku(2, 2).unwrap(),
            Shape::sudoku(2, 3).unwrap(),
            Shape::sudoku(3, 2).unwrap(),
            Shape::sudoku(3, 3).unwrap(),
            Shape::sudoku(3, 4).unwrap(),
            Shape::sudoku(4, 4).unwrap(),
            Shape::sudoku(5, 5).unwrap(),
            Shape::sudoku(8, 8).unwrap(),
            Shape::sudoku(1, 9).unwrap(),
            Shape::latin(5).unwrap(),
            Shape::latin(9).unwrap(),
            Shape::latin(16).unwrap(),
            Shape::latin(25).unwrap(),
            Shape::latin(64).unwrap(),
        ];
        for shape in shapes {
            let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
            for round in 0..600 {
                let mut g = Grid::empty(shape);
                if round < 300 {
                    // From a few givens (mostly clash-free) to many (mostly clashing).
                    for _ in 0..1 + round % (2 * n) {
                        let cell = rng.random_range(0..shape.cells());
                        g.set(cell, Some(rng.random_range(0..n)));
                    }
                } else {
                    // Half of a solution, and half the time one cell more with a value of
                    // the grid (dense grids with one repeat at most).
                    for cell in 0..shape.cells() {
                        let (r, c) = (cell / n, cell % n);
                        if rng.random_range(0..2) == 0 {
                            g.set(cell, Some((q * (r % p) + r / p + c) % n));
                        }
                    }
                    if round % 2 == 0 {
                        let cell = rng.random_range(0..shape.cells());
                        g.set(cell, Some(rng.random_range(0..n)));
                    }
                }
                let mut seen = Bitset::new(n);
                let scans = shape
                    .units()
                    .all(|u| g.clash_in_unit(u, &mut seen).is_none());
                assert_eq!(g.repeat_free(), Some(scans), "{shape} {:?}", g.raw());
            }
        }
        assert_eq!(Grid::empty(Shape::latin(65).unwrap()).repeat_free(), None);
    }

    #[test]
    fn latin_squares_have_no_box_clash() {
        let shape = Shape::latin(4).unwrap();
        let mut g = Grid::empty(shape);
        g.set(shape.cell(0, 0), Some(0));
        g.set(shape.cell(1, 1), Some(0));
        assert!(g.first_clash().is_none());
    }
}
