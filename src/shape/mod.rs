//! The geometry of a grid: order, box shape, units, peers and cell indexing.
//!
//! A [`Shape`] is either a generalized Sudoku with boxes of `p` rows × `q` columns (order
//! `n = p·q`) or a Latin square of order `n` (no box constraint). Everything else — the number of
//! cells, the units, the peers of a cell, the box a cell lies in — is derived from `(p, q)`; nothing
//! assumes 9.
//!
//! A Sudoku shape may also carry [`Regions`] ([`Shape::with_regions`]): a region map that
//! replaces the p×q boxes (jigsaw) and extra units (the diagonals of X-Sudoku, windoku's windows,
//! a user's list). Its units are then rows, columns, regions and extras, and a cell's peers are
//! the other cells of its units. [`Shape::has_box_geometry`] says whether the p×q boxes are the
//! third kind of unit and nothing else is added: the paths built on box arithmetic (the 9×9
//! engine, bands, the census, symmetries of boxes) require it; every other path reads the units.
//!
//! Indexing conventions (0-based in code, 1-based in every file a user reads or writes):
//! - a **cell** is `(r, c)` with `r, c < n`, or its row-major index `r·n + c` ([`Shape::cell`]);
//! - a **value** is `0..n` in code and `1..=n` for users;
//! - a **unit** is numbered `0..n` for rows, `n..2n` for columns, `2n..3n` for boxes (or the
//!   regions of a map), and `3n..` for extra units ([`Unit::index`]); a Latin square has only the
//!   first `2n` (it takes no regions).
//! - boxes are numbered row-major: box `b` covers rows `p·⌊b/p⌋ ..` and columns `q·(b mod p) ..`
//!   (there are `n/p = q` bands of boxes and `n/q = p` boxes across a band).
//!
//! # Complexity
//! Every query is O(1); iterating a unit is O(n) and the peers of a cell O(n) (with regions,
//! O(n·k) for a cell in k units, sorted). Nothing is precomputed for p×q boxes, so a shape of
//! order 1024 costs a few words; regions are tables built once ([`Regions`]).
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

mod regions;

use std::fmt;

use thiserror::Error;

pub use regions::{ExtraName, ExtraSet, RegionError, RegionSpec, Regions, extra_units, parse_map};

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
    /// Regions of another order than the shape's.
    #[error("the regions are of order {regions}, but the grid has order {order}")]
    RegionOrder {
        /// The regions' order.
        regions: usize,
        /// The shape's order.
        order: usize,
    },
    /// Regions on a Latin square.
    #[error("a Latin square takes no region map or extra units")]
    LatinRegions,
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
    /// A region of a region map (in place of the boxes).
    Region,
    /// An extra unit, with its name.
    Extra(ExtraName),
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
    /// The flat unit index: rows `0..n`, columns `n..2n`, boxes or regions `2n..3n`, extra
    /// units `3n..` (an extra's `number` counts all the extras).
    pub fn index(self, order: usize) -> usize {
        let base = match self.kind {
            UnitKind::Row => 0,
            UnitKind::Column => order,
            UnitKind::Box | UnitKind::Region => 2 * order,
            UnitKind::Extra(_) => 3 * order,
        };
        base + self.number
    }
}

impl UnitKind {
    /// `row`, `column`, `box`, `region`, `diagonal`, `window` or `extra unit`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
            UnitKind::Region => "region",
            UnitKind::Extra(ExtraName::MainDiagonal | ExtraName::AntiDiagonal) => "diagonal",
            UnitKind::Extra(ExtraName::Window(_)) => "window",
            UnitKind::Extra(ExtraName::Listed(_)) => "extra unit",
        }
    }
}

impl fmt::Display for Unit {
    /// Users see 1-based numbers: `row 3`, `column 1`, `box 9`, `region 2`; an extra unit its
    /// name: `main diagonal`, `window 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            UnitKind::Extra(name) => write!(f, "{name}"),
            kind => write!(f, "{} {}", kind.name(), self.number + 1),
        }
    }
}

/// A grid geometry: order `n`, and boxes of `p` rows × `q` columns unless it is a Latin square,
/// or regions (a map in place of the boxes, extra units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    // Sides and order fit 16 bits (at most MAX_ORDER): a shape is two words, copied with every
    // grid.
    box_rows: u16,
    box_cols: u16,
    order: u16,
    latin: bool,
    regions: Option<&'static Regions>,
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
            box_rows: box_rows as u16,
            box_cols: box_cols as u16,
            order: order as u16,
            latin: false,
            regions: None,
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
            box_cols: order as u16,
            order: order as u16,
            latin: true,
            regions: None,
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

    /// This shape with `regions`: a map in place of the boxes and extra units. The box sides
    /// stay as they were (they name the shape's default boxes, which a map replaces).
    ///
    /// # Errors
    /// [`ShapeError::RegionOrder`] for regions of another order, [`ShapeError::LatinRegions`]
    /// on a Latin square.
    pub fn with_regions(self, regions: &'static Regions) -> Result<Shape, ShapeError> {
        if self.latin {
            return Err(ShapeError::LatinRegions);
        }
        if regions.order() != self.order() {
            return Err(ShapeError::RegionOrder {
                regions: regions.order(),
                order: self.order(),
            });
        }
        let plain = !regions.has_map() && regions.extra_count() == 0;
        Ok(Shape {
            regions: (!plain).then_some(regions),
            ..self
        })
    }

    /// The regions this shape carries, if any.
    #[inline]
    pub fn regions(&self) -> Option<&'static Regions> {
        self.regions
    }

    /// Whether the units are exactly rows, columns and the p×q boxes (or, for a Latin square,
    /// rows and columns): no region map, no extra unit. The paths built on box arithmetic
    /// require it.
    #[inline]
    pub fn has_box_geometry(&self) -> bool {
        self.regions.is_none()
    }

    /// Whether a region map replaces the boxes.
    #[inline]
    pub fn has_region_map(&self) -> bool {
        self.regions.is_some_and(Regions::has_map)
    }

    /// The number of extra units.
    #[inline]
    pub fn extra_count(&self) -> usize {
        self.regions.map_or(0, Regions::extra_count)
    }

    /// The kind of the third partition of the cells: [`UnitKind::Region`] with a region map,
    /// else [`UnitKind::Box`].
    #[inline]
    pub fn box_kind(&self) -> UnitKind {
        if self.has_region_map() {
            UnitKind::Region
        } else {
            UnitKind::Box
        }
    }

    /// Order `n`: the number of values, rows, columns (and boxes).
    #[inline]
    pub fn order(&self) -> usize {
        usize::from(self.order)
    }

    /// Rows per box (`p`); 1 for a Latin square. With a region map, the rows of the order's
    /// default boxes, which the map replaces: read it only with [`Shape::has_box_geometry`].
    #[inline]
    pub fn box_rows(&self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns per box (`q`); `n` for a Latin square.
    #[inline]
    pub fn box_cols(&self) -> usize {
        usize::from(self.box_cols)
    }

    /// Whether this is a Latin square (no box constraint).
    #[inline]
    pub fn is_latin(&self) -> bool {
        self.latin
    }

    /// Number of cells, `n²`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.order() * self.order()
    }

    /// Number of units: `3n`, or `2n` for a Latin square, plus the extra units.
    #[inline]
    pub fn unit_count(&self) -> usize {
        if self.latin {
            2 * self.order()
        } else {
            3 * self.order() + self.extra_count()
        }
    }

    /// Degree of a cell in the Sudoku graph: `2(n−1) + (p−1)(q−1)`, or `2(n−1)` for a Latin
    /// square. With regions, the cells' degrees differ: this is the largest
    /// ([`Shape::peer_count_of`] gives each).
    pub fn peer_count(&self) -> usize {
        let lines = 2 * (self.order() - 1);
        if self.latin {
            lines
        } else if self.regions.is_some() {
            (0..self.cells())
                .map(|cell| self.peer_count_of(cell))
                .max()
                .unwrap_or(0)
        } else {
            lines + (self.box_rows() - 1) * (self.box_cols() - 1)
        }
    }

    /// The number of peers of cell `cell`.
    pub fn peer_count_of(&self, cell: usize) -> usize {
        if self.regions.is_some() {
            self.peers(cell).count()
        } else {
            self.peer_count()
        }
    }

    /// Row-major index of cell `(r, c)`.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        debug_assert!(row < self.order() && col < self.order());
        row * self.order() + col
    }

    /// Row of a cell index.
    #[inline]
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.order()
    }

    /// Column of a cell index.
    #[inline]
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.order()
    }

    /// Box number of cell `(r, c)`, or its region with a region map (meaningless for a Latin
    /// square, where it is 0..).
    #[inline]
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        if let Some(region) = self
            .regions
            .and_then(|regions| regions.region_of(row * self.order() + col))
        {
            return region;
        }
        (row / self.box_rows()) * (self.order() / self.box_cols()) + col / self.box_cols()
    }

    /// Top-left cell `(r, c)` of box `b` (p×q boxes: with a region map, the box of the default
    /// shape, not a region).
    #[inline]
    pub fn box_origin(&self, b: usize) -> (usize, usize) {
        let across = self.order() / self.box_cols();
        (
            (b / across) * self.box_rows(),
            (b % across) * self.box_cols(),
        )
    }

    /// The `i`-th cell (row-major inside the box) of box `b`, or of region `b`.
    #[inline]
    pub fn box_cell(&self, b: usize, i: usize) -> usize {
        if let Some(regions) = self.regions.filter(|regions| regions.has_map()) {
            return regions.region_cell(b, i);
        }
        let (r0, c0) = self.box_origin(b);
        self.cell(r0 + i / self.box_cols(), c0 + i % self.box_cols())
    }

    /// All units in index order: rows, then columns, then boxes or regions (unless Latin), then
    /// the extra units.
    pub fn units(&self) -> impl Iterator<Item = Unit> + '_ {
        (0..self.unit_count()).map(|index| self.unit(index))
    }

    /// The unit with flat index `index` (see [`Unit::index`]).
    pub fn unit(&self, index: usize) -> Unit {
        let n = self.order();
        let kind = match index / n {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            2 => self.box_kind(),
            _ => {
                let k = index - 3 * n;
                let name = self
                    .regions
                    .filter(|regions| k < regions.extra_count())
                    .map_or(ExtraName::Listed(k as u16), |regions| regions.extra_name(k));
                return Unit {
                    kind: UnitKind::Extra(name),
                    number: k,
                };
            }
        };
        Unit {
            kind,
            number: index % n,
        }
    }

    /// The `i`-th cell of a unit (row-major inside a box or region; an extra unit's in the
    /// order it was given).
    #[inline]
    pub fn unit_cell(&self, unit: Unit, i: usize) -> usize {
        match unit.kind {
            UnitKind::Row => self.cell(unit.number, i),
            UnitKind::Column => self.cell(i, unit.number),
            UnitKind::Box | UnitKind::Region => self.box_cell(unit.number, i),
            UnitKind::Extra(_) => self
                .regions
                .expect("an extra unit belongs to a shape with regions")
                .extra_cell(unit.number, i),
        }
    }

    /// The cells of a unit, in order.
    pub fn unit_cells(&self, unit: Unit) -> impl Iterator<Item = usize> + '_ {
        (0..self.order()).map(move |i| self.unit_cell(unit, i))
    }

    /// The units that contain a cell: its row, its column, (unless Latin) its box or region,
    /// then the extra units holding it.
    pub fn units_of(&self, cell: usize) -> impl Iterator<Item = Unit> + use<> {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        let b = self.box_of(r, c);
        let count = if self.latin { 2 } else { 3 };
        let lines = [
            Unit {
                kind: UnitKind::Row,
                number: r,
            },
            Unit {
                kind: UnitKind::Column,
                number: c,
            },
            Unit {
                kind: self.box_kind(),
                number: b,
            },
        ]
        .into_iter()
        .take(count);
        let extras = self.regions.map(|regions| {
            regions.extras_of(cell).iter().map(move |&k| Unit {
                kind: UnitKind::Extra(regions.extra_name(usize::from(k))),
                number: usize::from(k),
            })
        });
        lines.chain(extras.into_iter().flatten())
    }

    /// The peers of a cell: every other cell sharing a unit with it, each once, in this order:
    /// the row, the column, then the box cells outside the cell's row and column. With regions,
    /// the row, the column, then the other peers in increasing order.
    pub fn peers(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.order();
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        let row = (0..n).filter(move |&j| j != c).map(move |j| r * n + j);
        let col = (0..n).filter(move |&i| i != r).map(move |i| i * n + c);
        let others = self.regions.map(|_| {
            let mut others: Vec<usize> = self
                .units_of(cell)
                .skip(2)
                .flat_map(|unit| self.unit_cells(unit))
                .filter(|&o| self.row_of(o) != r && self.col_of(o) != c)
                .collect();
            others.sort_unstable();
            others.dedup();
            others
        });
        let boxed = (!self.latin && self.regions.is_none())
            .then(|| {
                let (r0, c0) = self.box_origin(self.box_of(r, c));
                (r0..r0 + self.box_rows())
                    .filter(move |&i| i != r)
                    .flat_map(move |i| {
                        (c0..c0 + self.box_cols())
                            .filter(move |&j| j != c)
                            .map(move |j| i * n + j)
                    })
            })
            .into_iter()
            .flatten();
        row.chain(col)
            .chain(boxed)
            .chain(others.into_iter().flatten())
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
        ra == rb
            || ca == cb
            || (!self.latin && self.box_of(ra, ca) == self.box_of(rb, cb))
            || self.regions.is_some_and(|regions| {
                let of_b = regions.extras_of(b);
                regions.extras_of(a).iter().any(|k| of_b.contains(k))
            })
    }
}

impl fmt::Display for Shape {
    /// `9×9 (3×3 boxes)`, `5×5 Latin square`, `9×9 (jigsaw regions)`, `9×9 (3×3 boxes,
    /// diagonals)`, `9×9 (jigsaw regions, 2 extra units)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.order();
        if self.latin {
            return write!(f, "{n}×{n} Latin square");
        }
        if self.has_region_map() {
            write!(f, "{n}×{n} (jigsaw regions")?;
        } else {
            write!(f, "{n}×{n} ({}×{} boxes", self.box_rows(), self.box_cols())?;
        }
        if let Some(regions) = self.regions.filter(|regions| regions.extra_count() > 0) {
            match regions.extra_sets() {
                Some(sets) => {
                    for set in sets {
                        write!(f, ", {}", set.name())?;
                    }
                }
                None => write!(f, ", {} extra units", regions.extra_count())?,
            }
        }
        f.write_str(")")
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

    #[test]
    fn a_jigsaw_shape_reads_its_units_from_the_map() {
        let map = parse_map("111222\n113222\n133344\n533444\n555664\n556666\n", None).unwrap();
        let regions = Regions::new(6, Some(map), Vec::new()).unwrap();
        let shape = Shape::sudoku(2, 3).unwrap().with_regions(regions).unwrap();
        assert!(!shape.has_box_geometry() && shape.has_region_map());
        assert_eq!(shape.to_string(), "6×6 (jigsaw regions)");
        assert_eq!(shape.unit(12).kind, UnitKind::Region);
        assert_eq!(shape.unit(14).to_string(), "region 3");
        let region: Vec<usize> = shape.unit_cells(shape.unit(14)).collect();
        assert_eq!(region, vec![8, 13, 14, 15, 19, 20]);
        let mut hits = vec![0usize; 36];
        for unit in shape.units() {
            for cell in shape.unit_cells(unit) {
                hits[cell] += 1;
            }
        }
        assert!(hits.iter().all(|&h| h == 3));
        for cell in 0..36 {
            let peers: Vec<usize> = shape.peers(cell).collect();
            let mut sorted = peers.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), peers.len(), "cell {cell}: peers repeat");
            assert!(!peers.contains(&cell));
            for other in 0..36 {
                assert_eq!(shape.are_peers(cell, other), peers.contains(&other));
            }
        }
        // A region whose cells share rows with each other gives fewer peers outside the
        // lines than a 2×3 box: the degrees differ from cell to cell.
        assert!((0..36).any(|c| shape.peer_count_of(c) != shape.peer_count()));
        assert_eq!(
            Shape::latin(6).unwrap().with_regions(regions),
            Err(ShapeError::LatinRegions)
        );
        assert!(matches!(
            Shape::sudoku(3, 3).unwrap().with_regions(regions),
            Err(ShapeError::RegionOrder {
                regions: 6,
                order: 9
            })
        ));
    }

    #[test]
    fn an_x_shape_adds_the_diagonals_to_the_boxes() {
        let regions = Regions::from_parts(None, &[ExtraSet::Diagonals], 9).unwrap();
        let shape = Shape::sudoku(3, 3).unwrap().with_regions(regions).unwrap();
        assert_eq!(shape.to_string(), "9×9 (3×3 boxes, diagonals)");
        assert_eq!(shape.unit_count(), 29);
        assert_eq!(shape.unit(27).to_string(), "main diagonal");
        assert_eq!(shape.unit(28).to_string(), "anti-diagonal");
        assert_eq!(shape.unit(28).index(9), 28);
        // The centre is on both diagonals: 20 peers in its lines and box, and the 12 cells
        // of the diagonals outside its box.
        assert_eq!(shape.units_of(40).count(), 5);
        assert_eq!(shape.peer_count_of(40), 32);
        assert_eq!(shape.peer_count_of(1), 20);
        assert!(shape.are_peers(0, 80) && !Shape::sudoku(3, 3).unwrap().are_peers(0, 80));
        assert_eq!(shape.box_of(4, 4), 4);
        let plain = Regions::from_parts(None, &[], 9).unwrap();
        assert!(
            Shape::sudoku(3, 3)
                .unwrap()
                .with_regions(plain)
                .unwrap()
                .has_box_geometry()
        );
    }
}
