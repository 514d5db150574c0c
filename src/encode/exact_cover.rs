//! The exact-cover problem of a puzzle: `4n²` primary items (`3n²` for a Latin square, `n` more
//! per extra unit), each to be covered exactly once, and one option per allowed `(r,c,v)`.
//!
//! With a region map the box items are the regions'; an extra unit `k` (a diagonal, a window)
//! adds the items `(k,v)`, covered by the options of its cells.
//!
//! Items: every cell `(r,c)` holds a value; every row `r`, column `c` and box `b` holds every
//! value `v` once. The option `(r,c,v)` covers the cell item `(r,c)` and the unit-value items
//! `(r,v)`, `(c,v)`, `(b,v)`. A given cell has the single option of its value; an empty cell has
//! one option per value that no given peer holds ([`crate::encode::allowed`]). A solution is a
//! set of `n²` options covering every item once, and the grid is read off the options.
//!
//! # Complexity
//! O(n³) to list the options, O(n²) items.
//!
//! # References
//! - D. E. Knuth, "Dancing links", Millennial Perspectives in Computer Science, 2000; and the
//!   input format of his `dlx1` program (The Art of Computer Programming 7.2.2.1).
//!
//! # Examples
//! ```
//! use sudokit::encode::exact_cover::ExactCover;
//! use sudokit::{Grid, Shape};
//! let problem = ExactCover::new(&Grid::empty(Shape::sudoku(3, 3).unwrap()));
//! assert_eq!(problem.item_count(), 324);
//! assert_eq!(problem.options().count(), 729);
//! ```

use super::{allowed, x_index};
use crate::grid::Grid;
use crate::shape::Shape;

/// An item to cover (0-based fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// Cell (r, c) holds a value.
    Cell {
        /// Row.
        r: usize,
        /// Column.
        c: usize,
    },
    /// Row r holds value v.
    RowValue {
        /// Row.
        r: usize,
        /// Value.
        v: usize,
    },
    /// Column c holds value v.
    ColValue {
        /// Column.
        c: usize,
        /// Value.
        v: usize,
    },
    /// Box b (or region b) holds value v.
    BoxValue {
        /// Box.
        b: usize,
        /// Value.
        v: usize,
    },
    /// Extra unit k holds value v.
    ExtraValue {
        /// The extra unit's number among the extras.
        k: usize,
        /// Value.
        v: usize,
    },
}

/// The exact-cover problem of one puzzle; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactCover {
    shape: Shape,
    allowed: Vec<bool>,
}

impl ExactCover {
    /// The problem of `puzzle`.
    pub fn new(puzzle: &Grid) -> ExactCover {
        ExactCover {
            shape: puzzle.shape(),
            allowed: allowed(puzzle),
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// `4n²`, or `3n²` for a Latin square, plus `n` per extra unit.
    pub fn item_count(&self) -> usize {
        self.shape.cells() + self.shape.unit_count() * self.shape.order()
    }

    /// The items: cells row-major, then row-values, column-values, box-values, extra-values.
    pub fn items(&self) -> impl Iterator<Item = Item> + '_ {
        let n = self.shape.order();
        (0..self.item_count()).map(move |i| {
            let (k, a, b) = (i / (n * n), i / n % n, i % n);
            match k {
                0 => Item::Cell { r: a, c: b },
                1 => Item::RowValue { r: a, v: b },
                2 => Item::ColValue { c: a, v: b },
                3 if !self.shape.is_latin() => Item::BoxValue { b: a, v: b },
                _ => Item::ExtraValue {
                    k: (i - 4 * n * n) / n,
                    v: b,
                },
            }
        })
    }

    /// The position of an item in [`ExactCover::items`].
    pub fn item_index(&self, item: Item) -> usize {
        let n = self.shape.order();
        let (k, a, b) = match item {
            Item::Cell { r, c } => (0, r, c),
            Item::RowValue { r, v } => (1, r, v),
            Item::ColValue { c, v } => (2, c, v),
            Item::BoxValue { b, v } => (3, b, v),
            Item::ExtraValue { k, v } => return 4 * n * n + k * n + v,
        };
        (k * n + a) * n + b
    }

    /// The items option `(r,c,v)` covers (0-based), in item order.
    pub fn option_items(&self, r: usize, c: usize, v: usize) -> Vec<Item> {
        let mut items = vec![
            Item::Cell { r, c },
            Item::RowValue { r, v },
            Item::ColValue { c, v },
        ];
        if !self.shape.is_latin() {
            items.push(Item::BoxValue {
                b: self.shape.box_of(r, c),
                v,
            });
        }
        let cell = self.shape.cell(r, c);
        items.extend(
            self.shape
                .units_of(cell)
                .skip(3)
                .map(|unit| Item::ExtraValue { k: unit.number, v }),
        );
        items
    }

    /// The allowed `(r,c,v)` (0-based), row-major then by value: one option each.
    pub fn options(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let n = self.shape.order();
        (0..n * n * n)
            .filter(|&i| self.allowed[i])
            .map(move |i| (i / (n * n), i / n % n, i % n))
    }

    /// Whether `(r,c,v)` is an option.
    pub fn is_option(&self, r: usize, c: usize, v: usize) -> bool {
        self.allowed[x_index(self.shape.order(), r, c, v)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn givens_have_a_single_option_and_peers_lose_theirs() {
        let puzzle = parse_line("1...............", None).unwrap();
        let problem = ExactCover::new(&puzzle);
        let cell0: Vec<_> = problem.options().filter(|o| (o.0, o.1) == (0, 0)).collect();
        assert_eq!(cell0, vec![(0, 0, 0)]);
        // 7 peers lose value 1: 64 − 3 (other values of the given cell) − 7.
        assert_eq!(problem.options().count(), 64 - 3 - 7);
        for (i, item) in problem.items().enumerate() {
            assert_eq!(problem.item_index(item), i);
        }
        let latin = ExactCover::new(&Grid::empty(Shape::latin(3).unwrap()));
        assert_eq!(latin.item_count(), 27);
        assert_eq!(latin.option_items(0, 1, 2).len(), 3);
    }
}
