//! The geometry of a grid: order, box shape, units, peers and cell indexing.
//!
//! A [`Shape`] is either a generalized Sudoku with boxes of `p` rows × `q` columns (order
//! `n = p·q`) or a Latin square of order `n` (no box constraint). Everything else — the number of
//! cells, the units, the peers of a cell, the box a cell lies in — is derived from `(p, q)`; nothing
//! assumes 9.
//!
//! Indexing conventions (0-based in code, 1-based in every file a user reads or writes):
//! - a **cell** is `(r, c)` with `r, c < n`, or its row-major index `r·n + c` ([`Shape::cell`]);
//! - a **value** is `0..n` in code and `1..=n` for users;
//! - a **unit** is numbered `0..n` for rows, `n..2n` for columns, `2n..3n` for boxes
//!   ([`Unit::index`]); a Latin square has only the first `2n`.
//! - boxes are numbered row-major: box `b` covers rows `p·⌊b/p⌋ ..` and columns `q·(b mod p) ..`
//!   (there are `n/p = q` bands of boxes and `n/q = p` boxes across a band).
//!
//! # Complexity
//! Every query is O(1); iterating a unit is O(n) and the peers of a cell O(n). Nothing is
//! precomputed, so a shape of order 1024 costs a few words.
//!
//! # Examples
//! ```
//! use sudokit::Shape;
//! let classic = Shape::sudoku(3, 3).unwrap();
//! assert_eq!(classic.order(), 9);
//! assert_eq!(classic.peers(classic.cell(4, 4)).count(), 20);
//! let six = Shape::sudoku(2, 3).unwrap();
//! assert_eq!(six.box_of(3, 4), 3);
//! ```

use std::fmt;

use thiserror::Error;

/// The largest order sudokit models, parses, writes and verifies.
pub const MAX_ORDER: usize = 1024;

/// Why a shape cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// Order or box side is zero.
    #[error("the order and the box sides must be at least 1")]
    Zero,
    /// The order exceeds [`MAX_ORDER`].
    #[error("order {order} is larger than the maximum {MAX_ORDER}")]
    TooLarge {
        /// The order that was asked for.
        order: usize,
    },
    /// No default box shape for a cell count that is not a square of an integer.
    #[error("{cells} cells is not n² for any order n")]
    NotSquare {
        /// The cell count given.
        cells: usize,
    },
}

/// The kind of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

/// A row, a column or a box, with its 0-based number within its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Row, column or box.
    pub kind: UnitKind,
    /// 0-based number of the row, column or box.
    pub number: usize,
}

impl Unit {
    /// The flat unit index: rows `0..n`, columns `n..2n`, boxes `2n..3n`.
    pub fn index(self, order: usize) -> usize {
        let base = match self.kind {
            UnitKind::Row => 0,
            UnitKind::Column => order,
            UnitKind::Box => 2 * order,
        };
        base + self.number
    }
}

impl UnitKind {
    /// `row`, `column` or `box`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        }
    }
}

impl fmt::Display for Unit {
    /// Users see 1-based numbers: `row 3`, `column 1`, `box 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.number + 1)
    }
}

/// A grid geometry: order `n`, and boxes of `p` rows × `q` columns unless it is a Latin square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: usize,
    box_cols: usize,
    order: usize,
    latin: bool,
}

impl Shape {
    /// A Sudoku of order `p·q` with boxes of `p` rows and `q` columns.
    ///
    /// # Errors
    /// [`ShapeError::Zero`] if a side is 0, [`ShapeError::TooLarge`] if `p·q` > [`MAX_ORDER`].
    pub fn sudoku(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        if box_rows == 0 || box_cols == 0 {
            return Err(ShapeError::Zero);
        }
        let order = box_rows
            .checked_mul(box_cols)
            .filter(|&n| n <= MAX_ORDER)
            .ok_or(ShapeError::TooLarge {
                order: box_rows.saturating_mul(box_cols),
            })?;
        Ok(Shape {
            box_rows,
            box_cols,
            order,
            latin: false,
        })
    }

    /// A Latin square of order `n`: rows and columns only.
    ///
    /// # Errors
    /// [`ShapeError::Zero`] if `n` is 0, [`ShapeError::TooLarge`] if `n` > [`MAX_ORDER`].
    pub fn latin(order: usize) -> Result<Shape, ShapeError> {
        if order == 0 {
            return Err(ShapeError::Zero);
        }
        if order > MAX_ORDER {
            return Err(ShapeError::TooLarge { order });
        }
        Ok(Shape {
            box_rows: 1,
            box_cols: order,
            order,
            latin: true,
        })
    }

    /// The default Sudoku shape of order `n`: `k×k` boxes when `n = k²`, otherwise `p×q` with
    /// `p ≤ q` and `p` as large as possible (6 → 2×3, 8 → 2×4, 12 → 3×4). A prime order gets
    /// `1×n` boxes, which makes every box a row.
    ///
    /// # Errors
    /// As [`Shape::sudoku`].
    pub fn default_for_order(order: usize) -> Result<Shape, ShapeError> {
        if order == 0 {
            return Err(ShapeError::Zero);
        }
        let p = (1..=integer_sqrt(order))
            .rev()
            .find(|p| order.is_multiple_of(*p))
            .unwrap_or(1);
        Shape::sudoku(p, order / p)
    }

    /// The default shape for a grid of `cells` cells (see [`Shape::default_for_order`]).
    ///
    /// # Errors
    /// [`ShapeError::NotSquare`] if `cells` is not `n²`, else as [`Shape::sudoku`].
    pub fn default_for_cells(cells: usize) -> Result<Shape, ShapeError> {
        let order = order_from_cells(cells).ok_or(ShapeError::NotSquare { cells })?;
        Shape::default_for_order(order)
    }

    /// Order `n`: the number of values, rows, columns (and boxes).
    #[inline]
    pub fn order(&self) -> usize {
        self.order
    }

    /// Rows per box (`p`); 1 for a Latin square.
    #[inline]
    pub fn box_rows(&self) -> usize {
        self.box_rows
    }

    /// Columns per box (`q`); `n` for a Latin square.
    #[inline]
    pub fn box_cols(&self) -> usize {
        self.box_cols
    }

    /// Whether this is a Latin square (no box constraint).
    #[inline]
    pub fn is_latin(&self) -> bool {
        self.latin
    }

    /// Number of cells, `n²`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.order * self.order
    }

    /// Number of units: `3n`, or `2n` for a Latin square.
    #[inline]
    pub fn unit_count(&self) -> usize {
        if self.latin {
            2 * self.order
        } else {
            3 * self.order
        }
    }

    /// Degree of a cell in the Sudoku graph: `2(n−1) + (p−1)(q−1)`, or `2(n−1)` for a Latin square.
    #[inline]
    pub fn peer_count(&self) -> usize {
        let lines = 2 * (self.order - 1);
        if self.latin {
            lines
        } else {
            lines + (self.box_rows - 1) * (self.box_cols - 1)
        }
    }

    /// Row-major index of cell `(r, c)`.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        debug_assert!(row < self.order && col < self.order);
        row * self.order + col
    }

    /// Row of a cell index.
    #[inline]
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.order
    }

    /// Column of a cell index.
    #[inline]
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.order
    }

    /// Box number of cell `(r, c)` (meaningless for a Latin square, where it is 0..).
    #[inline]
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        (row / self.box_rows) * (self.order / self.box_cols) + col / self.box_cols
    }

    /// Top-left cell `(r, c)` of box `b`.
    #[inline]
    pub fn box_origin(&self, b: usize) -> (usize, usize) {
        let across = self.order / self.box_cols;
        ((b / across) * self.box_rows, (b % across) * self.box_cols)
    }

    /// The `i`-th cell (row-major inside the box) of box `b`.
    #[inline]
    pub fn box_cell(&self, b: usize, i: usize) -> usize {
        let (r0, c0) = self.box_origin(b);
        self.cell(r0 + i / self.box_cols, c0 + i % self.box_cols)
    }

    /// All units in index order: rows, then columns, then boxes (unless Latin).
    pub fn units(&self) -> impl Iterator<Item = Unit> + '_ {
        let n = self.order;
        let kinds: &[UnitKind] = if self.latin {
            &[UnitKind::Row, UnitKind::Column]
        } else {
            &[UnitKind::Row, UnitKind::Column, UnitKind::Box]
        };
        kinds
            .iter()
            .flat_map(move |&kind| (0..n).map(move |number| Unit { kind, number }))
    }

    /// The unit with flat index `index` (see [`Unit::index`]).
    pub fn unit(&self, index: usize) -> Unit {
        let n = self.order;
        let kind = match index / n {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            _ => UnitKind::Box,
        };
        Unit {
            kind,
            number: index % n,
        }
    }

    /// The `i`-th cell of a unit (row-major inside a box).
    #[inline]
    pub fn unit_cell(&self, unit: Unit, i: usize) -> usize {
        match unit.kind {
            UnitKind::Row => self.cell(unit.number, i),
            UnitKind::Column => self.cell(i, unit.number),
            UnitKind::Box => self.box_cell(unit.number, i),
        }
    }

    /// The cells of a unit, in order.
    pub fn unit_cells(&self, unit: Unit) -> impl Iterator<Item = usize> + '_ {
        (0..self.order).map(move |i| self.unit_cell(unit, i))
    }

    /// The units that contain a cell: its row, its column and (unless Latin) its box.
    pub fn units_of(&self, cell: usize) -> impl Iterator<Item = Unit> + use<> {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        let b = self.box_of(r, c);
        let count = if self.latin { 2 } else { 3 };
        [
            Unit {
                kind: UnitKind::Row,
                number: r,
            },
            Unit {
                kind: UnitKind::Column,
                number: c,
            },
            Unit {
                kind: UnitKind::Box,
                number: b,
            },
        ]
        .into_iter()
        .take(count)
    }

    /// The peers of a cell: every other cell sharing a unit with it, each once, in this order:
    /// the row, the column, then the box cells outside the cell's row and column.
    pub fn peers(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.order;
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        let row = (0..n).filter(move |&j| j != c).map(move |j| r * n + j);
        let col = (0..n).filter(move |&i| i != r).map(move |i| i * n + c);
        let boxed = (!self.latin)
            .then(|| {
                let (r0, c0) = self.box_origin(self.box_of(r, c));
                (r0..r0 + self.box_rows)
                    .filter(move |&i| i != r)
                    .flat_map(move |i| {
                        (c0..c0 + self.box_cols)
                            .filter(move |&j| j != c)
                            .map(move |j| i * n + j)
                    })
            })
            .into_iter()
            .flatten();
        row.chain(col).chain(boxed)
    }

    /// Whether two distinct cells are peers.
    #[inline]
    pub fn are_peers(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (ra, ca, rb, cb) = (
            self.row_of(a),
            self.col_of(a),
            self.row_of(b),
            self.col_of(b),
        );
        ra == rb || ca == cb || (!self.latin && self.box_of(ra, ca) == self.box_of(rb, cb))
    }
}

impl fmt::Display for Shape {
    /// `9×9 (3×3 boxes)` or `5×5 Latin square`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.order;
        if self.latin {
            write!(f, "{n}×{n} Latin square")
        } else {
            write!(f, "{n}×{n} ({}×{} boxes)", self.box_rows, self.box_cols)
        }
    }
}

/// `n` if `cells = n²`.
pub fn order_from_cells(cells: usize) -> Option<usize> {
    let n = integer_sqrt(cells);
    (n * n == cells && n > 0).then_some(n)
}

fn integer_sqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> Vec<Shape> {
        let mut all: Vec<Shape> = [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (3, 4),
            (1, 5),
        ]
        .iter()
        .map(|&(p, q)| Shape::sudoku(p, q).unwrap())
        .collect();
        all.extend((1..=7).map(|n| Shape::latin(n).unwrap()));
        all
    }

    #[test]
    fn peer_counts_follow_the_formula() {
        for (p, q, expected) in [(2, 2, 7), (2, 3, 12), (3, 3, 20), (4, 4, 39), (5, 5, 64)] {
            let shape = Shape::sudoku(p, q).unwrap();
            assert_eq!(shape.peer_count(), expected);
            for cell in 0..shape.cells() {
                let peers: Vec<usize> = shape.peers(cell).collect();
                assert_eq!(peers.len(), expected, "{shape} cell {cell}");
                let mut sorted = peers.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), expected, "peers repeat");
                assert!(peers.iter().all(|&o| shape.are_peers(cell, o)));
            }
        }
    }

    #[test]
    fn every_cell_is_in_each_kind_of_unit_once() {
        for shape in shapes() {
            let mut hits = vec![0usize; shape.cells()];
            for unit in shape.units() {
                for cell in shape.unit_cells(unit) {
                    hits[cell] += 1;
                }
                assert_eq!(shape.unit(unit.index(shape.order())), unit);
            }
            let per_cell = if shape.is_latin() { 2 } else { 3 };
            assert!(hits.iter().all(|&h| h == per_cell), "{shape}");
            for cell in 0..shape.cells() {
                for unit in shape.units_of(cell) {
                    assert!(shape.unit_cells(unit).any(|c| c == cell));
                }
            }
        }
    }

    #[test]
    fn default_shapes() {
        let expect = [
            (4, 2, 2),
            (6, 2, 3),
            (8, 2, 4),
            (9, 3, 3),
            (10, 2, 5),
            (12, 3, 4),
            (16, 4, 4),
            (7, 1, 7),
        ];
        for (n, p, q) in expect {
            let s = Shape::default_for_order(n).unwrap();
            assert_eq!((s.box_rows(), s.box_cols()), (p, q), "order {n}");
        }
        assert_eq!(
            Shape::default_for_cells(80),
            Err(ShapeError::NotSquare { cells: 80 })
        );
        assert!(matches!(
            Shape::sudoku(33, 32),
            Err(ShapeError::TooLarge { .. })
        ));
        assert_eq!(Shape::sudoku(32, 32).unwrap().order(), 1024);
    }

    #[test]
    fn boxes_of_a_two_by_three_shape() {
        let s = Shape::sudoku(2, 3).unwrap();
        // Boxes are 2 rows high and 3 columns wide: two boxes across, three bands.
        assert_eq!(s.box_of(0, 0), 0);
        assert_eq!(s.box_of(1, 2), 0);
        assert_eq!(s.box_of(0, 3), 1);
        assert_eq!(s.box_of(2, 0), 2);
        assert_eq!(s.box_of(5, 5), 5);
        assert_eq!(s.box_origin(3), (2, 3));
    }
}
