//! `dlx`: Knuth's Algorithm X with dancing links on the exact-cover encoding of a puzzle, with
//! the minimum-remaining-values item choice. It counts and enumerates all solutions of any shape,
//! and is the reference counter of the cross-check.
//!
//! # Problem
//! The exact-cover problem of [`crate::encode::exact_cover`]: `4n²` **primary** items (`3n²` for
//! a Latin square), no secondary items. Item `(r,c)` says cell `(r,c)` holds a value; items
//! `(r,v)`, `(c,v)`, `(b,v)` say row `r`, column `c`, box `b` hold value `v`. Option `(r,c,v)`
//! covers `{(r,c), (r,v), (c,v), (b,v)}`. A solution is a set of options that covers every
//! primary item **exactly once**; it is a set of `n²` options, one per cell, read off as a grid.
//!
//! Worked example: the empty Latin square of order 2 has 12 items and 8 options. Every item
//! has 2 options; the search covers the first, cell `(0,0)`, and tries its option `(0,0,1)`,
//! which also covers "row 0 holds 1" and "column 0 holds 1". Every other item is then left with
//! one option, so the search reaches the solution `12/21` without another choice; the second
//! option `(0,0,2)` gives `21/12`: 2 solutions, 2 guesses.
//!
//! The givens are chosen before the search: a given cell has a single option, and the encoding
//! leaves no option that clashes with a given, so the search runs on the items the givens leave
//! uncovered and the options of the empty cells. A puzzle whose givens clash has no solution.
//!
//! # Method
//! Algorithm D of TAOCP 7.2.2.1 (Algorithm X with dancing links), iterative, on flat `u32`
//! arrays: the item headers (`llink`/`rlink`, with the root 0) and the nodes (`ulink`/`dlink`
//! and `top`). Every option covers the same number `K` of items (4, or 3 for a Latin square), so
//! option `o` is the `K` consecutive nodes from `first + K·o` and needs no spacer nodes; `K` is
//! a const parameter so the position arithmetic compiles to shifts and multiplications. With
//! extra units (a diagonal, a window) an option covers 4 items and one more per extra unit of
//! its cell: `K` is then 4 plus the most extra units of a cell, and a shorter option is padded
//! with nodes that belong to no item (`top` = `PAD`), which hiding and covering skip; the
//! plain shapes build without padding, as before. At each
//! level the search covers the uncovered item with the fewest options (first such in item
//! order; an item with none ends the branch at once), then tries its options in order. Two
//! refinements keep the item scan short without changing what is counted: the scan stops at the
//! first item with a single option (a forced move), and when every uncovered item has exactly
//! one option left, those options are the one solution below the node, counted without
//! descending (a running total of options left per item tells when to check). Everything is
//! allocated once per call, nothing per search node.
//!
//! # Counters
//! [`Stats::nodes`]: the root plus every option tried (Knuth's "nodes"), forced ones included
//! (except the final forced options of the shortcut above), which is what the node budget
//! counts. [`Stats::guesses`]: options tried for an item that had two or more when chosen.
//! [`Stats::propagations`]: **updates** in Knuth's sense, the number of times a node was removed
//! from its item's list (one `hide` step), a machine-independent measure of work proportional to
//! Knuth's mems (each update costs a constant number of memory accesses).
//!
//! # Complexity
//! Memory O(n³): `K` nodes per option, at most `n³` options, 12 bytes per node plus 8 per
//! option, and the encoding's n³-byte table while building (about 120 MB at the order limit 128
//! for an empty grid, 3 MB for an empty 25×25). Building costs O(n³); each search node O(n²)
//! for the item choice plus the updates of its covers. The search is exponential in the worst
//! case (the problem is NP-complete); counting visits every solution.
//!
//! # References
//! - D. E. Knuth, "Dancing links", in *Millennial Perspectives in Computer Science*, Palgrave
//!   2000, 187–214 (arXiv cs/0011047).
//! - D. E. Knuth, *The Art of Computer Programming* 4B, §7.2.2.1 "Dancing links" (Algorithm D,
//!   the MRV heuristic, mems and updates), Addison-Wesley 2022.
//!
//! # Examples
//! ```
//! use sudokit::solve::{Dlx, Limits, Solver};
//! use sudokit::{Grid, Shape};
//! let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
//! assert_eq!(Dlx.count(&empty, u64::MAX, &Limits::none()).unwrap().count, 288);
//! let mut seen = 0;
//! Dlx.enumerate(&empty, 10, &Limits::none(), |grid| {
//!     assert!(grid.is_complete());
//!     seen += 1;
//! })
//! .unwrap();
//! assert_eq!(seen, 10);
//! ```

use super::{
    Budget, CountReport, Limits, Refutation, SolveError, Solver, Stats, StopReason, check_order,
};
use crate::encode::exact_cover::ExactCover;
use crate::grid::Grid;

/// The largest order `dlx` accepts: `4·128³` nodes (about 100 MB) for an empty grid.
pub const MAX_DLX_ORDER: usize = 128;

/// The most extra units one cell may lie on for `dlx` (both diagonals and a window: 3).
pub const MAX_DLX_EXTRAS_PER_CELL: usize = 3;

/// The `top` of a padding node: no item.
const PAD: u32 = u32::MAX;

/// The most extra units one cell of `shape` lies on.
fn extras_per_cell(shape: crate::shape::Shape) -> usize {
    if shape.extra_count() == 0 {
        return 0;
    }
    (0..shape.cells())
        .map(|cell| shape.units_of(cell).count().saturating_sub(3))
        .max()
        .unwrap_or(0)
}

/// The dancing-links backend; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dlx;

impl Solver for Dlx {
    /// Every region map, and extra units up to [`MAX_DLX_EXTRAS_PER_CELL`] on a cell.
    fn handles_shape(&self, shape: crate::shape::Shape) -> bool {
        extras_per_cell(shape) <= MAX_DLX_EXTRAS_PER_CELL
    }

    fn name(&self) -> &str {
        "dlx"
    }

    fn max_order(&self) -> usize {
        MAX_DLX_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        Ok(self.run(puzzle, limit, limits, 2, None))
    }
}

impl Dlx {
    /// Calls `visit` on every solution of `puzzle` in search order, up to `limit` of them, and
    /// reports the count like [`Solver::count`] (with no solutions kept). The grid passed to
    /// `visit` is one buffer rewritten for each solution: nothing is allocated per solution.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above [`MAX_DLX_ORDER`].
    ///
    /// # Examples
    /// ```
    /// use sudokit::solve::{Dlx, Limits};
    /// use sudokit::{Grid, Shape};
    /// let mut squares = Vec::new();
    /// let report = Dlx
    ///     .enumerate(&Grid::empty(Shape::latin(3).unwrap()), u64::MAX, &Limits::none(), |g| {
    ///         squares.push(g.clone())
    ///     })
    ///     .unwrap();
    /// assert_eq!((report.count, squares.len()), (12, 12));
    /// ```
    pub fn enumerate(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
        mut visit: impl FnMut(&Grid),
    ) -> Result<CountReport, SolveError> {
        check_order(self, puzzle)?;
        if puzzle.first_clash().is_some() {
            return Ok(Budget::start(limits).unsat_report());
        }
        Ok(self.run(puzzle, limit, limits, 0, Some(&mut visit)))
    }

    /// The search behind [`Solver::count`] (keeps `keep` solutions) and [`Dlx::enumerate`]
    /// (calls `visit` on each), on a puzzle within the order limit whose givens do not clash. A
    /// solution's grid is only built when one of them needs it.
    fn run(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
        keep: usize,
        visit: Option<&mut dyn FnMut(&Grid)>,
    ) -> CountReport {
        let budget = Budget::start(limits);
        let shape = puzzle.shape();
        let mut report = if shape.is_latin() {
            Links::<3, false>::new(puzzle).search(puzzle, limit, &budget, keep, visit)
        } else {
            match extras_per_cell(shape) {
                0 => Links::<4, false>::new(puzzle).search(puzzle, limit, &budget, keep, visit),
                1 => Links::<5, true>::new(puzzle).search(puzzle, limit, &budget, keep, visit),
                2 => Links::<6, true>::new(puzzle).search(puzzle, limit, &budget, keep, visit),
                _ => Links::<7, true>::new(puzzle).search(puzzle, limit, &budget, keep, visit),
            }
        };
        report.stats.elapsed = budget.elapsed();
        report
    }
}

/// The dancing-links structure of one puzzle; `K` nodes per option (`PADDED`: some of them
/// padding, [`PAD`]).
struct Links<const K: usize, const PADDED: bool> {
    /// Header list of the uncovered items (0 is the root): `llink`/`rlink`, one per item + 1.
    llink: Vec<u32>,
    rlink: Vec<u32>,
    /// Options left per item.
    len: Vec<u32>,
    /// Vertical lists: nodes `0..first` are the item heads, then `K` nodes per option.
    ulink: Vec<u32>,
    dlink: Vec<u32>,
    /// The item of each node.
    top: Vec<u32>,
    /// The first option node.
    first: u32,
    /// The cell and value of each option.
    option_cell: Vec<u32>,
    option_value: Vec<u32>,
    /// Uncovered items, and the options left summed over them (each option once per item).
    left_items: u64,
    left_nodes: u64,
    /// Updates (see the module docs).
    updates: u64,
}

impl<const K: usize, const PADDED: bool> Links<K, PADDED> {
    /// The links of the exact-cover problem of `puzzle` (givens not clashing), with the givens'
    /// items already covered.
    fn new(puzzle: &Grid) -> Links<K, PADDED> {
        let shape = puzzle.shape();
        let n = shape.order();
        let problem = ExactCover::new(puzzle);
        debug_assert!(PADDED || problem.item_count() == K * n * n);
        // Items the givens cover are left out; the rest are numbered 1.. in item order.
        let mut id = vec![u32::MAX; problem.item_count()];
        for (cell, v) in puzzle.givens() {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            for item in problem.option_items(r, c, v) {
                id[problem.item_index(item)] = 0;
            }
        }
        let mut items = 0u32;
        for slot in id.iter_mut() {
            if *slot == u32::MAX {
                items += 1;
                *slot = items;
            } else {
                *slot = u32::MAX;
            }
        }
        let heads = items as usize + 1;
        let options = || {
            problem
                .options()
                .filter(|&(r, c, _)| puzzle.at(r, c).is_none())
        };
        let option_count = options().count();
        let total = heads + K * option_count;
        let mut links = Links {
            llink: (0..heads as u32)
                .map(|i| if i == 0 { items } else { i - 1 })
                .collect(),
            rlink: (0..heads as u32)
                .map(|i| if i == items { 0 } else { i + 1 })
                .collect(),
            len: vec![0; heads],
            ulink: (0..total as u32).collect(),
            dlink: (0..total as u32).collect(),
            top: vec![0; total],
            first: heads as u32,
            option_cell: Vec::with_capacity(option_count),
            option_value: Vec::with_capacity(option_count),
            left_items: items as u64,
            left_nodes: 0,
            updates: 0,
        };
        let mut node = heads as u32;
        for (r, c, v) in options() {
            links.option_cell.push(shape.cell(r, c) as u32);
            links.option_value.push(v as u32);
            let covered = problem.option_items(r, c, v);
            debug_assert!(covered.len() <= K);
            links.left_nodes += covered.len() as u64;
            for item in covered.iter().copied() {
                let i = id[problem.item_index(item)];
                debug_assert!(i != u32::MAX, "an option of an empty cell meets a given");
                // Append `node` at the bottom of item i's list.
                let last = links.ulink[i as usize];
                links.top[node as usize] = i;
                links.ulink[node as usize] = last;
                links.dlink[node as usize] = i;
                links.dlink[last as usize] = node;
                links.ulink[i as usize] = node;
                links.len[i as usize] += 1;
                node += 1;
            }
            for _ in covered.len()..K {
                // A padding node: in no item's list (its links point to itself).
                links.top[node as usize] = PAD;
                node += 1;
            }
        }
        links
    }

    /// The first node of the option holding `p`.
    #[inline]
    fn option_start(&self, p: u32) -> u32 {
        p - (p - self.first) % K as u32
    }

    /// Removes the other nodes of `p`'s option from their items' lists.
    #[inline]
    fn hide(&mut self, p: u32) {
        let s = self.option_start(p);
        let mut padding = 0;
        for q in s..s + K as u32 {
            if q == p {
                continue;
            }
            let q = q as usize;
            if PADDED && self.top[q] == PAD {
                padding += 1;
                continue;
            }
            let (u, d) = (self.ulink[q], self.dlink[q]);
            self.dlink[u as usize] = d;
            self.ulink[d as usize] = u;
            self.len[self.top[q] as usize] -= 1;
        }
        self.updates += K as u64 - 1 - padding;
        self.left_nodes -= K as u64 - 1 - padding;
    }

    /// Puts back what [`Links::hide`] removed.
    #[inline]
    fn unhide(&mut self, p: u32) {
        let s = self.option_start(p);
        let mut padding = 0;
        for q in (s..s + K as u32).rev() {
            if q == p {
                continue;
            }
            if PADDED && self.top[q as usize] == PAD {
                padding += 1;
                continue;
            }
            let (u, d) = (self.ulink[q as usize], self.dlink[q as usize]);
            self.dlink[u as usize] = q;
            self.ulink[d as usize] = q;
            self.len[self.top[q as usize] as usize] += 1;
        }
        self.left_nodes += K as u64 - 1 - padding;
    }

    /// Covers item `i`: hides every option of `i` and takes `i` out of the header list.
    fn cover(&mut self, i: u32) {
        let mut p = self.dlink[i as usize];
        while p != i {
            self.hide(p);
            p = self.dlink[p as usize];
        }
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
        self.left_items -= 1;
        self.left_nodes -= self.len[i as usize] as u64;
    }

    /// Undoes [`Links::cover`].
    fn uncover(&mut self, i: u32) {
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = i;
        self.llink[r as usize] = i;
        self.left_items += 1;
        self.left_nodes += self.len[i as usize] as u64;
        let mut p = self.ulink[i as usize];
        while p != i {
            self.unhide(p);
            p = self.ulink[p as usize];
        }
    }

    /// Covers the items of `p`'s option other than `top(p)`, in node order.
    #[inline]
    fn cover_others(&mut self, p: u32) {
        let s = self.option_start(p);
        for q in s..s + K as u32 {
            if q != p && !(PADDED && self.top[q as usize] == PAD) {
                self.cover(self.top[q as usize]);
            }
        }
    }

    /// Undoes [`Links::cover_others`], in reverse order.
    #[inline]
    fn uncover_others(&mut self, p: u32) {
        let s = self.option_start(p);
        for q in (s..s + K as u32).rev() {
            if q != p && !(PADDED && self.top[q as usize] == PAD) {
                self.uncover(self.top[q as usize]);
            }
        }
    }

    /// The item to branch on, its number of options, and whether every uncovered item has
    /// exactly one option left; `None` when every item is covered.
    ///
    /// The item is one with the fewest options (the first in item order), except that the scan
    /// stops at the first item with one option while some item has two or more: a forced item
    /// is taken at once (an item with none, if any, ends the branch a few forced steps later).
    /// When as many options are left as items (counted with multiplicity), either every item has
    /// exactly one, or one has none; a full scan tells which.
    #[inline]
    fn choose(&self) -> Option<(u32, u32, bool)> {
        let mut i = self.rlink[0];
        if i == 0 {
            return None;
        }
        let stop = if self.left_nodes == self.left_items {
            0
        } else {
            1
        };
        let mut best = (i, self.len[i as usize]);
        while i != 0 && best.1 > stop {
            let l = self.len[i as usize];
            if l < best.1 {
                best = (i, l);
            }
            i = self.rlink[i as usize];
        }
        Some((best.0, best.1, best.1 == 1 && stop == 0))
    }

    /// Writes the options chosen at levels `x` into `grid`, and with `rest`, the single option
    /// left to every uncovered item.
    fn fill(&self, grid: &mut Grid, x: &[u32], rest: bool) {
        let mut put = |p: u32| {
            let o = ((p - self.first) / K as u32) as usize;
            grid.set(
                self.option_cell[o] as usize,
                Some(self.option_value[o] as usize),
            );
        };
        x.iter().for_each(|&p| put(p));
        if rest {
            let mut i = self.rlink[0];
            while i != 0 {
                put(self.dlink[i as usize]);
                i = self.rlink[i as usize];
            }
        }
    }

    /// Algorithm D: counts the solutions up to `limit` within the budget, keeps the first
    /// `keep` and calls `visit` on each.
    ///
    /// One shortcut: when every uncovered item has exactly one option left, those options are
    /// disjoint (an option's items all have it as their only one) and cover every item, so they
    /// form the one solution below this node, counted without descending.
    fn search(
        mut self,
        puzzle: &Grid,
        limit: u64,
        budget: &Budget,
        keep: usize,
        mut visit: Option<&mut dyn FnMut(&Grid)>,
    ) -> CountReport {
        let mut stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        let mut count = 0u64;
        let mut hit_limit = false;
        let mut stopped: Option<StopReason> = None;
        let mut solutions = Vec::with_capacity(keep);
        let mut grid = puzzle.clone();
        // x[l]: the option node tried at level l; one level per empty cell at most.
        let mut x: Vec<u32> = vec![0; self.option_cell.len().min(puzzle.shape().cells()) + 1];
        let mut level = 0usize;
        'search: loop {
            // Enter a level (D2, D3, D4, D5).
            let choice = self.choose();
            match choice {
                None | Some((_, 1, true)) => {
                    if solutions.len() < keep || visit.is_some() {
                        self.fill(&mut grid, &x[..level], choice.is_some());
                        if solutions.len() < keep {
                            solutions.push(grid.clone());
                        }
                        if let Some(visit) = visit.as_mut() {
                            visit(&grid);
                        }
                    }
                    count += 1;
                    if count >= limit {
                        hit_limit = true;
                        break 'search;
                    }
                }
                Some((i, options, _)) if options > 0 => {
                    stats.nodes += 1;
                    if let Some(reason) = budget.exceeded(stats.nodes) {
                        stopped = Some(reason);
                        break 'search;
                    }
                    if options >= 2 {
                        stats.guesses += 1;
                    }
                    self.cover(i);
                    let p = self.dlink[i as usize];
                    x[level] = p;
                    self.cover_others(p);
                    level += 1;
                    continue 'search;
                }
                Some(_) => {}
            }
            // Leave levels until one has an option left to try (D6, D7, D8).
            loop {
                if level == 0 {
                    break 'search;
                }
                level -= 1;
                let p = x[level];
                self.uncover_others(p);
                let i = self.top[p as usize];
                let next = self.dlink[p as usize];
                if next != i {
                    stats.nodes += 1;
                    if let Some(reason) = budget.exceeded(stats.nodes) {
                        stopped = Some(reason);
                        break 'search;
                    }
                    stats.guesses += 1;
                    x[level] = next;
                    self.cover_others(next);
                    level += 1;
                    continue 'search;
                }
                self.uncover(i);
            }
        }
        stats.propagations = self.updates;
        CountReport {
            count,
            hit_limit,
            stopped,
            solutions,
            refutation: Refutation::Search,
            stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::solve::Native;
    use crate::text::parse_line;

    fn count(puzzle: &Grid) -> u64 {
        let report = Dlx.count(puzzle, u64::MAX, &Limits::none()).unwrap();
        assert!(report.complete());
        report.count
    }

    #[test]
    fn padded_options_count_the_grids_with_extra_units_as_native_does() {
        use crate::shape::{ExtraSet, Regions};
        for (p, q, sets) in [
            (2, 2, &[ExtraSet::Diagonals][..]),
            (2, 3, &[ExtraSet::Diagonals][..]),
            (2, 2, &[ExtraSet::Diagonals, ExtraSet::Windows][..]),
        ] {
            let plain = Shape::sudoku(p, q).unwrap();
            let regions = Regions::from_parts(None, sets, plain.order()).unwrap();
            let shape = plain.with_regions(regions).unwrap();
            assert!(Dlx.handles_shape(shape));
            let empty = Grid::empty(shape);
            let native = Native.count(&empty, u64::MAX, &Limits::none()).unwrap();
            assert_eq!(count(&empty), native.count, "{shape}");
            // Fewer grids than the plain shape's (288 and 28,200,960).
            let plain_grids = if p * q == 4 { 288 } else { 28_200_960 };
            assert!(native.count > 0 && native.count < plain_grids, "{shape}");
        }
    }

    #[test]
    fn counts_the_small_empty_grids() {
        assert_eq!(count(&Grid::empty(Shape::sudoku(2, 2).unwrap())), 288);
        assert_eq!(count(&Grid::empty(Shape::latin(4).unwrap())), 576);
        assert_eq!(count(&Grid::empty(Shape::latin(1).unwrap())), 1);
        assert_eq!(count(&Grid::empty(Shape::latin(2).unwrap())), 2);
        assert_eq!(count(&Grid::empty(Shape::sudoku(1, 3).unwrap())), 12);
    }

    #[test]
    fn the_worked_example_takes_two_guesses() {
        let report = Dlx
            .count(
                &Grid::empty(Shape::latin(2).unwrap()),
                u64::MAX,
                &Limits::none(),
            )
            .unwrap();
        assert_eq!((report.count, report.stats.guesses), (2, 2));
        let lines: Vec<String> = report
            .solutions
            .iter()
            .map(|g| g.raw().iter().map(|v| (v + 1).to_string()).collect())
            .collect();
        assert_eq!(lines, ["1221", "2112"]);
    }

    #[test]
    fn givens_are_preselected() {
        // A full grid: no item left, one solution, no search node beyond the root.
        let full = parse_line("1234341221434321", None).unwrap();
        let report = Dlx.count(&full, u64::MAX, &Limits::none()).unwrap();
        assert_eq!((report.count, report.stats.nodes), (1, 1));
        assert_eq!(report.solutions, vec![full]);
        // Clashing givens: no solution, without a search.
        let clash = parse_line("11..............", None).unwrap();
        assert_eq!(count(&clash), 0);
    }

    #[test]
    fn links_are_restored_after_a_complete_search() {
        let puzzle = parse_line("1...............", None).unwrap();
        let fresh = Links::<4, false>::new(&puzzle);
        let mut links = Links::<4, false>::new(&puzzle);
        // Cover and uncover every item's first option, as the search does.
        let mut i = links.rlink[0];
        while i != 0 {
            let p = links.dlink[i as usize];
            links.cover(i);
            if p != i {
                links.cover_others(p);
                links.uncover_others(p);
            }
            links.uncover(i);
            i = links.rlink[i as usize];
        }
        assert_eq!(links.ulink, fresh.ulink);
        assert_eq!(links.dlink, fresh.dlink);
        assert_eq!(links.len, fresh.len);
        assert_eq!(links.rlink, fresh.rlink);
        assert!(links.updates > 0);
    }

    #[test]
    fn agrees_with_native_on_generated_puzzles() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (shape, givens) in [
            (Shape::sudoku(2, 3).unwrap(), 6),
            (Shape::sudoku(2, 3).unwrap(), 10),
            (Shape::sudoku(3, 3).unwrap(), 24),
            (Shape::latin(5).unwrap(), 5),
        ] {
            for _ in 0..10 {
                let g = crate::solve::test_support::random_consistent(shape, givens, &mut rng);
                let limit = 20_000;
                let ours = Dlx.count(&g, limit, &Limits::none()).unwrap();
                let theirs = Native.count(&g, limit, &Limits::none()).unwrap();
                assert_eq!(ours.count, theirs.count, "{g:?}");
                assert_eq!(ours.hit_limit, theirs.hit_limit);
            }
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let nodes = Limits::nodes(100);
        let report = Dlx.count(&empty, u64::MAX, &nodes).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert_eq!(report.stats.nodes, 101);
        let capped = Dlx.count(&empty, 3, &Limits::none()).unwrap();
        assert_eq!((capped.count, capped.hit_limit), (3, true));
        assert_eq!(capped.solutions.len(), 2);
    }
}
