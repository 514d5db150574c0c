//! Two-value trades of a complete grid: the smallest unavoidable sets, found without search.
//!
//! # Method
//! Let S be a complete grid and a, b two values. Every unit holds one cell of value a and one of
//! value b; join those two cells, for every unit. A set X of a- and b-cells that contains, for
//! every unit, both of its a/b cells or neither (a union of connected components of that graph)
//! can have a and b exchanged: each unit then holds b where it held a and a where it held b, so
//! the result is again a complete grid. X is therefore **unavoidable**: a puzzle with no given in
//! X has at least two solutions (S, and S with a and b exchanged on X). The components are the
//! minimal such sets of two values (the smallest have four cells: a rectangle across two boxes).
//!
//! The reduction of [`super::puzzle`] uses them as an exact shortcut of its removal test
//! ([`super::well_posed`]): a removal that leaves a component without a given makes the puzzle
//! ill posed, and the exchanged grid is the second solution, without a search. The test still
//! searches when no component is left bare (the second solutions near the end of a 25×25
//! reduction usually change most values, which no two-value set describes).
//!
//! # Complexity
//! O(n³ α(n)) to build (n(n−1)/2 pairs, 2n cells and 3n joins each, by union–find); the sets are
//! stored as bitsets of n² bits, so a check of a puzzle is O(t · n²/64) for t sets, after an
//! O(n²) pass that lists its givens.
//!
//! # References
//! - G. McGuire, B. Tugemann, G. Civario, "There is no 16-clue Sudoku puzzle", *Experimental
//!   Mathematics* 23 (2014): unavoidable sets, and the two-value ones among them.
//! - A. D. Keedwell, "Critical sets in Latin squares and related matters" (2002): Latin trades.
//!
//! # Examples
//! ```
//! use sudokit::generate::trades::TwoValueTrades;
//! use sudokit::text::parse_line;
//! let solution = parse_line(
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
//!     None,
//! )
//! .unwrap();
//! let mut trades = TwoValueTrades::of(&solution);
//! // The complete grid leaves no trade bare; the empty grid leaves them all bare.
//! assert_eq!(trades.bare_in(&solution), None);
//! let empty = sudokit::Grid::empty(solution.shape());
//! let bare = trades.bare_in(&empty).unwrap();
//! let other = trades.exchanged(bare, &solution);
//! assert!(sudokit::verify(&empty, &other).is_ok());
//! assert_ne!(other, solution);
//! ```

use petgraph::unionfind::UnionFind;

use crate::grid::Grid;

/// The minimal two-value trades of one complete grid (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoValueTrades {
    /// The grid the trades belong to.
    solution: Grid,
    /// 64-bit words per cell set.
    words: usize,
    /// The cell sets, `words` words each.
    cells: Vec<u64>,
    /// The two values of each set.
    values: Vec<(usize, usize)>,
    /// The givens of the last puzzle checked (scratch).
    givens: Vec<u64>,
}

impl TwoValueTrades {
    /// The trades of the complete grid `solution`.
    ///
    /// # Panics
    /// If `solution` is not complete.
    pub fn of(solution: &Grid) -> TwoValueTrades {
        let shape = solution.shape();
        let n = shape.order();
        let words = shape.cells().div_ceil(64);
        // The cells of each value, in cell order.
        let mut at: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
        for cell in 0..shape.cells() {
            at[solution.get(cell).expect("a complete grid")].push(cell);
        }
        // For each unit, its cell of each value.
        let units: Vec<Vec<usize>> = (0..shape.unit_count())
            .map(|u| {
                let mut by_value = vec![0; n];
                for cell in shape.unit_cells(shape.unit(u)) {
                    by_value[solution.get(cell).expect("a complete grid")] = cell;
                }
                by_value
            })
            .collect();
        let (mut cells, mut values) = (Vec::new(), Vec::new());
        // Union–find over the 2n cells of a pair: a-cells are 0..n, b-cells n..2n, each in
        // cell order, so a cell's slot is found by binary search.
        let slot = |list: &[usize], cell: usize| list.binary_search(&cell).expect("listed");
        for a in 0..n {
            for b in a + 1..n {
                let mut sets = UnionFind::<usize>::new(2 * n);
                for by_value in &units {
                    sets.union(slot(&at[a], by_value[a]), n + slot(&at[b], by_value[b]));
                }
                let labels = sets.into_labeling();
                let mut roots: Vec<usize> = labels.clone();
                roots.sort_unstable();
                roots.dedup();
                if roots.len() < 2 {
                    // One component: the whole pair, which every well-posed puzzle hits anyway
                    // (it holds at most one value not given) and which no smaller set refines.
                    continue;
                }
                for root in roots {
                    let start = cells.len();
                    cells.resize(start + words, 0);
                    for (i, &label) in labels.iter().enumerate() {
                        if label == root {
                            let cell = if i < n { at[a][i] } else { at[b][i - n] };
                            cells[start + cell / 64] |= 1 << (cell % 64);
                        }
                    }
                    values.push((a, b));
                }
            }
        }
        TwoValueTrades {
            solution: solution.clone(),
            words,
            cells,
            values,
            givens: vec![0; words],
        }
    }

    /// The grid the trades belong to.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// How many trades there are.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are none (only the whole pairs are trades; order 2, for instance).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
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
            self.cells[t * words..(t + 1) * words]
                .iter()
                .zip(&self.givens)
                .all(|(set, given)| set & given == 0)
        })
    }

    /// The solution with the two values of trade `t` exchanged on its cells: another complete
    /// grid, equal to `solution` off the trade.
    ///
    /// # Panics
    /// If `t` is out of range or `solution` is not the grid the trades were built from.
    pub fn exchanged(&self, t: usize, solution: &Grid) -> Grid {
        assert_eq!(solution, &self.solution, "the trades' own grid");
        let (a, b) = self.values[t];
        let mut other = solution.clone();
        let set = &self.cells[t * self.words..(t + 1) * self.words];
        for cell in 0..solution.shape().cells() {
            if set[cell / 64] >> (cell % 64) & 1 == 1 {
                let v = solution.get(cell).expect("a complete grid");
                other.set(cell, Some(if v == a { b } else { a }));
            }
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
    use crate::shape::Shape;

    #[test]
    fn every_trade_exchanges_into_another_grid() {
        for (p, q) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
            let shape = Shape::sudoku(p, q).unwrap();
            let empty = Grid::empty(shape);
            for seed in 0..3 {
                let solution = random_grid(&empty, &mut puzzle_rng(seed, 0))
                    .unwrap()
                    .unwrap();
                let trades = TwoValueTrades::of(&solution);
                for t in 0..trades.len() {
                    let other = trades.exchanged(t, &solution);
                    assert_eq!(crate::verify(&empty, &other), Ok(()), "{shape} trade {t}");
                    let changed = (0..shape.cells())
                        .filter(|&c| other.get(c) != solution.get(c))
                        .count();
                    assert!(changed >= 4 && changed < 2 * shape.order(), "{changed}");
                }
            }
        }
    }

    #[test]
    fn a_pattern_grid_has_rectangles_and_a_puzzle_hitting_them_has_none_bare() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let grid = canonical(shape);
        let mut trades = TwoValueTrades::of(&grid);
        assert!(!trades.is_empty());
        let smallest = (0..trades.len())
            .map(|t| {
                let other = trades.exchanged(t, &grid);
                (0..81).filter(|&c| other.get(c) != grid.get(c)).count()
            })
            .min()
            .unwrap();
        assert!(smallest <= 6, "{smallest}");
        // Give one cell of every trade: none is bare.
        let mut puzzle = Grid::empty(shape);
        for t in 0..trades.len() {
            let other = trades.exchanged(t, &grid);
            let cell = (0..81).find(|&c| other.get(c) != grid.get(c)).unwrap();
            puzzle.set(cell, grid.get(cell));
        }
        assert_eq!(trades.bare_in(&puzzle), None);
        // The empty grid leaves every trade bare, the first one first.
        assert_eq!(trades.bare_in(&Grid::empty(shape)), Some(0));
    }
}
