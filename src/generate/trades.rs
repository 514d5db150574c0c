//! Small trades of a complete grid: unavoidable sets found without search, each with the second
//! grid that proves it.
//!
//! # Method
//! A **trade** of a complete grid S is a set X of cells with other values on X that, with S off
//! X, form another complete grid. X is then **unavoidable**: a puzzle with no given in X has at
//! least two solutions. Two families are listed here, both read off S directly:
//! - **Two values.** For values a and b, every unit holds one a-cell and one b-cell; join the
//!   two, for every unit. A connected component of that graph contains, for every unit, both of
//!   its a/b cells or neither, so a and b can be exchanged on it. The components are the
//!   minimal two-value trades (the smallest have four cells: a rectangle across two boxes).
//! - **Two lines.** For two rows r, r′ of one band, the map from the column of a value in r to
//!   the column of the same value in r′ is a permutation of the columns. Over the columns of one
//!   of its cycles, r and r′ hold the same values, so the two rows can exchange their cells
//!   there: every row keeps its values, every column and (the rows share their boxes) every
//!   box keeps its cells' values. The same holds for two columns of one stack (for a Latin
//!   square, whose one "stack" is the whole grid, any two columns).
//!
//! The reduction of [`super::puzzle`] uses them as an exact shortcut of its removal test
//! ([`super::well_posed`]): a removal that leaves a trade without a given makes the puzzle ill
//! posed, and the traded grid is the second solution, without a search. The test still searches
//! when no trade is left bare: most second solutions near the end of a 25×25 reduction change
//! most values and rows, which neither family describes.
//!
//! # Complexity
//! O(n³ α(n)) to build (n(n−1)/2 value pairs with 2n cells and 3n joins each, by union–find,
//! and O(n·p) line pairs with O(n) work each); the cell sets are stored as bitsets of n² bits,
//! so a check of a puzzle is O(t · n²/64) for t trades, after an O(n²) pass over its givens.
//!
//! # References
//! - G. McGuire, B. Tugemann, G. Civario, "There is no 16-clue Sudoku puzzle", *Experimental
//!   Mathematics* 23 (2014): unavoidable sets.
//! - A. D. Keedwell, "Critical sets in Latin squares and related matters", *Mathematical
//!   Chronicle* (2002 survey): Latin trades and critical sets.
//!
//! # Examples
//! ```
//! use sudokit::generate::trades::Trades;
//! use sudokit::text::parse_line;
//! let solution = parse_line(
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
//!     None,
//! )
//! .unwrap();
//! let mut trades = Trades::of(&solution);
//! // The complete grid leaves no trade bare; the empty grid leaves them all bare.
//! assert_eq!(trades.bare_in(&solution), None);
//! let empty = sudokit::Grid::empty(solution.shape());
//! let bare = trades.bare_in(&empty).unwrap();
//! let other = trades.traded(bare);
//! assert!(sudokit::verify(&empty, &other).is_ok());
//! assert_ne!(other, solution);
//! ```

use petgraph::unionfind::UnionFind;

use crate::grid::Grid;
use crate::shape::Shape;

/// The cell at a position of a line: `(line, position) -> cell`.
type LineCell<'a> = dyn Fn(usize, usize) -> usize + 'a;

/// The small trades of one complete grid (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trades {
    /// The grid the trades belong to.
    solution: Grid,
    /// 64-bit words per cell set.
    words: usize,
    /// The cell sets, `words` words each.
    sets: Vec<u64>,
    /// Each trade's cells with their other values: trade t is `changes[starts[t]..starts[t + 1]]`.
    changes: Vec<(usize, usize)>,
    /// Where each trade starts in `changes` (one more entry than trades).
    starts: Vec<usize>,
    /// The givens of the last puzzle checked (scratch).
    givens: Vec<u64>,
}

impl Trades {
    /// The two-value and two-line trades of the complete grid `solution`.
    ///
    /// # Panics
    /// If `solution` is not complete.
    pub fn of(solution: &Grid) -> Trades {
        let shape = solution.shape();
        let value = |cell: usize| solution.get(cell).expect("a complete grid");
        let mut trades = Trades {
            solution: solution.clone(),
            words: shape.cells().div_ceil(64),
            sets: Vec::new(),
            changes: Vec::new(),
            starts: vec![0],
            givens: vec![0; shape.cells().div_ceil(64)],
        };
        trades.add_two_values(shape, &value);
        // Two lines of a band share their boxes and no other unit only with p×q boxes: a
        // region map or an extra unit (a diagonal crosses both lines) breaks those cycles.
        if shape.has_box_geometry() {
            trades.add_two_lines(shape, &value);
        }
        trades
    }

    /// The components of each value pair's graph (see the module docs).
    fn add_two_values(&mut self, shape: Shape, value: &dyn Fn(usize) -> usize) {
        let n = shape.order();
        // The cells of each value, in cell order, and each unit's cell of each value.
        let mut at: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
        for cell in 0..shape.cells() {
            at[value(cell)].push(cell);
        }
        let units: Vec<Vec<usize>> = (0..shape.unit_count())
            .map(|u| {
                let mut by_value = vec![0; n];
                for cell in shape.unit_cells(shape.unit(u)) {
                    by_value[value(cell)] = cell;
                }
                by_value
            })
            .collect();
        // Union–find over the 2n cells of a pair: a-cells are 0..n, b-cells n..2n, each list
        // in cell order, so a cell's slot is found by binary search.
        let slot = |list: &[usize], cell: usize| list.binary_search(&cell).expect("listed");
        for a in 0..n {
            for b in a + 1..n {
                let mut joined = UnionFind::<usize>::new(2 * n);
                for by_value in &units {
                    joined.union(slot(&at[a], by_value[a]), n + slot(&at[b], by_value[b]));
                }
                let labels = joined.into_labeling();
                let mut roots = labels.clone();
                roots.sort_unstable();
                roots.dedup();
                for root in roots {
                    let trade = labels.iter().enumerate().filter(|&(_, &l)| l == root);
                    self.push(trade.map(|(i, _)| {
                        if i < n {
                            (at[a][i], b)
                        } else {
                            (at[b][i - n], a)
                        }
                    }));
                }
            }
        }
    }

    /// The cycles of each pair of rows in a band and of columns in a stack.
    fn add_two_lines(&mut self, shape: Shape, value: &dyn Fn(usize) -> usize) {
        let n = shape.order();
        let (p, q) = (shape.box_rows(), shape.box_cols());
        // Each family: lines per band (or stack), and the cell at position i of line l.
        let rows = |l: usize, i: usize| shape.cell(l, i);
        let cols = |l: usize, i: usize| shape.cell(i, l);
        let families: [(usize, &LineCell); 2] = [(p, &rows), (q, &cols)];
        let mut position_in_first = vec![0; n];
        let mut seen = vec![false; n];
        for (group, cell) in families {
            for first_line in (0..n).step_by(group) {
                for l1 in first_line..first_line + group {
                    for l2 in l1 + 1..first_line + group {
                        for i in 0..n {
                            position_in_first[value(cell(l1, i))] = i;
                        }
                        seen.fill(false);
                        for start in 0..n {
                            if seen[start] {
                                continue;
                            }
                            // The cycle through `start`: the next position holds in line 1 the
                            // value that line 2 holds here.
                            let mut cycle = Vec::new();
                            let mut i = start;
                            while !seen[i] {
                                seen[i] = true;
                                cycle.push(i);
                                i = position_in_first[value(cell(l2, i))];
                            }
                            self.push(cycle.iter().flat_map(|&i| {
                                let (a, b) = (cell(l1, i), cell(l2, i));
                                [(a, value(b)), (b, value(a))]
                            }));
                        }
                    }
                }
            }
        }
    }

    /// Appends one trade, given as its cells with their other values.
    fn push(&mut self, changes: impl Iterator<Item = (usize, usize)>) {
        let start = self.sets.len();
        self.sets.resize(start + self.words, 0);
        for (cell, other) in changes {
            self.sets[start + cell / 64] |= 1 << (cell % 64);
            self.changes.push((cell, other));
        }
        self.starts.push(self.changes.len());
    }

    /// The grid the trades belong to.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// How many trades there are.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are none (never, for a grid of order 2 or more).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A trade none of whose cells is given in `puzzle` (a puzzle whose givens agree with the
    /// solution), if one exists: the puzzle is then not well posed.
    pub fn bare_in(&mut self, puzzle: &Grid) -> Option<usize> {
        self.givens.fill(0);
        for cell in (0..puzzle.shape().cells()).filter(|&c| puzzle.get(c).is_some()) {
            self.givens[cell / 64] |= 1 << (cell % 64);
        }
        let words = self.words;
        (0..self.len()).find(|&t| {
            self.sets[t * words..(t + 1) * words]
                .iter()
                .zip(&self.givens)
                .all(|(set, given)| set & given == 0)
        })
    }

    /// The solution with trade `t` made: another complete grid, equal to the solution off the
    /// trade's cells.
    ///
    /// # Panics
    /// If `t` is out of range.
    pub fn traded(&self, t: usize) -> Grid {
        let mut other = self.solution.clone();
        for &(cell, v) in &self.changes[self.starts[t]..self.starts[t + 1]] {
            other.set(cell, Some(v));
        }
        other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::pattern::canonical;
    use crate::generate::puzzle::puzzle_rng;
    use crate::generate::random_grid::random_grid;

    #[test]
    fn every_trade_makes_another_grid_that_differs_exactly_on_its_cells() {
        let sudoku = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]
            .map(|(p, q)| Shape::sudoku(p, q).unwrap());
        // Latin squares too (boxes of one row: every two columns may trade).
        let latin = [5, 7].map(|n| Shape::latin(n).unwrap());
        for shape in sudoku.into_iter().chain(latin) {
            let empty = Grid::empty(shape);
            for seed in 0..3 {
                let solution = random_grid(&empty, &mut puzzle_rng(seed, 0))
                    .unwrap()
                    .unwrap();
                let trades = Trades::of(&solution);
                assert!(trades.len() >= shape.order() * (shape.order() - 1) / 2);
                for t in 0..trades.len() {
                    let other = trades.traded(t);
                    assert_eq!(crate::verify(&empty, &other), Ok(()), "{shape} trade {t}");
                    let words = trades.words;
                    let set = &trades.sets[t * words..(t + 1) * words];
                    for cell in 0..shape.cells() {
                        let inside = set[cell / 64] >> (cell % 64) & 1 == 1;
                        assert_eq!(other.get(cell) != solution.get(cell), inside);
                    }
                }
            }
        }
    }

    #[test]
    fn a_puzzle_hitting_every_trade_leaves_none_bare() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let grid = canonical(shape);
        let mut trades = Trades::of(&grid);
        // In the pattern grid each row of a band is the one above shifted by three columns, so
        // two rows exchange three of their cells: the smallest trades have six.
        let smallest = (0..trades.len())
            .map(|t| trades.starts[t + 1] - trades.starts[t])
            .min()
            .unwrap();
        assert_eq!(smallest, 6);
        // Give one cell of every trade: none is bare.
        let mut puzzle = Grid::empty(shape);
        for t in 0..trades.len() {
            let (cell, _) = trades.changes[trades.starts[t]];
            puzzle.set(cell, grid.get(cell));
        }
        assert_eq!(trades.bare_in(&puzzle), None);
        // The empty grid leaves every trade bare, the first one first.
        assert_eq!(trades.bare_in(&Grid::empty(shape)), Some(0));
    }
}
