//! `colour`: a puzzle as precolouring extension on the Sudoku graph, solved by DSATUR-ordered
//! backtracking (Brélaz) with a hyperedge rule, for any shape up to order 128.
//!
//! # Problem
//! The Sudoku graph of [`crate::encode::graph`] has a vertex per cell and an edge between any
//! two peers; the givens precolour their vertices (colour = value). A solution is a proper
//! `n`-colouring that extends the precolouring.
//!
//! # Method
//! The givens are coloured first. Then, at each search node, the uncoloured vertex of highest
//! **saturation** (number of distinct colours among its neighbours) is chosen, ties broken by
//! its degree in the uncoloured subgraph and then by position in the list of uncoloured
//! vertices; its feasible colours (those no neighbour has) are tried in increasing order. A
//! vertex with no feasible colour has saturation `n`, the highest, so it is chosen at once and
//! ends the branch. Brélaz's DSATUR is a greedy order for colouring with few colours; here the
//! number of colours is fixed at `n` and the same order drives a complete backtracking search,
//! as in Brélaz's exact algorithm and its descendants.
//!
//! Two views of the same search keep the saturation incrementally, with nothing allocated per
//! node (both choose the same vertices and colours, so they visit the same tree):
//! - [`View::Graph`]: per edge. Each vertex keeps, per colour, how many neighbours have it, the
//!   mask of colours with a nonzero count, and its uncoloured degree; colouring a vertex updates
//!   its `2(n−1) + (p−1)(q−1)` neighbours (adjacency read from the petgraph graph into a flat
//!   array once per call).
//! - [`View::Hypergraph`]: per hyperedge. The units are the cliques of the Sudoku graph, so a
//!   colour is forbidden at a vertex iff one of its 3 units (2 for a Latin square) uses it: one
//!   colour mask per unit, and the forbidden set is the union of the vertex's unit masks. The
//!   uncoloured degree comes from counts of uncoloured vertices per unit and per row-box and
//!   column-box intersection, by inclusion–exclusion: `|R| + |C| + |B| − |R∩B| − |C∩B| − 1`.
//!   Colouring a vertex updates 5 counters and 3 masks.
//!
//! The hypergraph view also gives a rule the graph view cannot see: **the hyperedge rule**. In a
//! unit, every colour not used yet must go to one of the unit's uncoloured vertices where it is
//! feasible; if there is none the branch is dead, and if there is one the colour is placed there
//! (a forced move, no guess). When the DSATUR vertex has two or more feasible colours, one pass
//! over the units (an O(n) "feasible once / twice" mask scan each) looks for such a colour first.
//!
//! Measured (BENCHMARKS.md, section "DLX and colouring", one run, release):
//! plain DSATUR per unit (`colour:dsatur`) is 1.25× as fast as per edge (`colour:graph`) on
//! `models/sudoku/9x9/top95.txt` and 1.4× on `models/sudoku/9x9/hard.txt`, for the same nodes;
//! the hyperedge rule then cuts the guesses on top95 from 1890 to 49 per puzzle and makes the
//! search about 10× faster, and solves every 16×16 of `kr_16x16.txt` where plain DSATUR leaves
//! 2 of the 5 `kr_16x16_sample.txt` puzzles unsolved after 10 s. So `colour` is the per-unit
//! view with the hyperedge rule; [`Colouring::dsatur`] and [`Colouring::graph`] are plain DSATUR
//! per unit and per edge.
//!
//! # Counters
//! [`Stats::nodes`]: the root plus every colour tried. [`Stats::guesses`]: colours tried at a
//! vertex with two or more feasible colours. [`Stats::propagations`]: updates of the saturation
//! structure (a neighbour's colour count in the graph view, a unit's mask in the hypergraph view).
//! A colour placed by the hyperedge rule counts as a node, not a guess.
//!
//! # Complexity
//! Memory O(n³) in the graph view (a colour count per vertex and colour), O(n²) in the
//! hypergraph view. Per node, choosing the vertex is O(n²) (a scan of the uncoloured vertices),
//! and so is the hyperedge rule (3n units of n vertices); colouring a vertex is O(degree) in
//! the graph view and O(1) in the hypergraph view. The search
//! is exponential in the worst case (precolouring extension is NP-complete).
//!
//! # References
//! - D. Brélaz, "New methods to color the vertices of a graph", *Communications of the ACM*
//!   22(4), 1979, 251–256 (DSATUR, and its exact backtracking version).
//! - A. M. Herzberg, M. R. Murty, "Sudoku squares and chromatic polynomials", *Notices of the
//!   AMS* 54(6), 2007 (Sudoku as precolouring extension).
//! - M. Biró, M. Hujter, Zs. Tuza, "Precoloring extension. I. Interval graphs", *Discrete
//!   Mathematics* 100, 1992 (the precolouring extension problem).
//!
//! # Examples
//! ```
//! use sudokit::solve::{Answer, Colouring, Limits, Solver};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let report = Colouring::default().solve(&puzzle, &Limits::none()).unwrap();
//! assert!(matches!(report.answer, Answer::Solved(_)));
//! ```

use super::geometry::{Geometry, geometry};
use super::mask::{MAX_MASK_ORDER, Mask, dispatch_mask};
use super::{Budget, CountReport, Limits, SolveError, Solver, Stats};
use crate::encode::graph::precoloured;
use crate::grid::Grid;

/// How the saturation of the vertices is kept; see the module docs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// Per edge of the Sudoku graph.
    Graph,
    /// Per unit (hyperedge): the faster, and the one `colour` uses.
    #[default]
    Hypergraph,
}

/// The DSATUR precolouring-extension backend; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colouring {
    /// How saturation is kept.
    pub view: View,
    /// Whether a colour with one feasible vertex left in a unit is placed there before a
    /// DSATUR branch (the hyperedge rule; see the module docs).
    pub hyperedge_rule: bool,
}

impl Default for Colouring {
    /// The hypergraph view with the hyperedge rule: `colour`.
    fn default() -> Colouring {
        Colouring {
            view: View::Hypergraph,
            hyperedge_rule: true,
        }
    }
}

impl Colouring {
    /// Plain DSATUR, per-edge (graph) view: `colour:graph`.
    pub fn graph() -> Colouring {
        Colouring {
            view: View::Graph,
            hyperedge_rule: false,
        }
    }

    /// Plain DSATUR, per-unit (hypergraph) view: `colour:dsatur`.
    pub fn dsatur() -> Colouring {
        Colouring {
            view: View::Hypergraph,
            hyperedge_rule: false,
        }
    }
}

impl Solver for Colouring {
    /// `colour` (the default), `colour:dsatur` (per unit, no hyperedge rule), `colour:graph`
    /// (per edge, no hyperedge rule; with the rule, `colour:graph+rule`), so tables tell them
    /// apart.
    fn name(&self) -> &str {
        match (self.view, self.hyperedge_rule) {
            (View::Hypergraph, true) => "colour",
            (View::Hypergraph, false) => "colour:dsatur",
            (View::Graph, false) => "colour:graph",
            (View::Graph, true) => "colour:graph+rule",
        }
    }

    fn max_order(&self) -> usize {
        MAX_MASK_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let budget = Budget::start(limits);
        let mut report = dispatch_mask!(puzzle.shape().order(), M => match self.view {
            View::Graph => {
                search::<M, _>(puzzle, EdgeView::new(puzzle), self.hyperedge_rule, limit, &budget)
            }
            View::Hypergraph => {
                search::<M, _>(puzzle, UnitView::new(puzzle), self.hyperedge_rule, limit, &budget)
            }
        });
        report.stats.elapsed = budget.elapsed();
        Ok(report)
    }
}

/// No colour yet.
const NONE: u32 = u32::MAX;

/// Saturation bookkeeping: what the search asks of a view.
trait Saturation<M: Mask> {
    /// Colours `x` with `c` (x uncoloured).
    fn assign(&mut self, x: usize, c: usize);
    /// Undoes [`Saturation::assign`].
    fn unassign(&mut self, x: usize, c: usize);
    /// Colours held by neighbours of `x`.
    fn forbidden(&self, x: usize) -> M;
    /// Uncoloured neighbours of `x` (x uncoloured).
    fn uncoloured_degree(&self, x: usize) -> u32;
    /// Updates made so far.
    fn updates(&self) -> u64;
}

/// The per-edge view: colour counts per neighbour.
struct EdgeView<M> {
    n: usize,
    /// Adjacency in CSR form: the neighbours of `x` are `adj[start[x]..start[x + 1]]`.
    start: Vec<u32>,
    adj: Vec<u32>,
    /// `count[x·n + c]`: neighbours of `x` coloured `c`.
    count: Vec<u16>,
    forbidden: Vec<M>,
    degree: Vec<u32>,
    updates: u64,
}

impl<M: Mask> EdgeView<M> {
    fn new(puzzle: &Grid) -> EdgeView<M> {
        let graph = precoloured(puzzle).graph;
        let vertices = graph.node_count();
        let mut start = Vec::with_capacity(vertices + 1);
        let mut adj = Vec::with_capacity(2 * graph.edge_count());
        start.push(0);
        for x in graph.node_indices() {
            adj.extend(graph.neighbors(x).map(|w| w.index() as u32));
            start.push(adj.len() as u32);
        }
        let degree = start.windows(2).map(|w| w[1] - w[0]).collect();
        let n = puzzle.shape().order();
        EdgeView {
            n,
            start,
            adj,
            count: vec![0; vertices * n],
            forbidden: vec![M::ZERO; vertices],
            degree,
            updates: 0,
        }
    }

    #[inline]
    fn neighbours(&self, x: usize) -> std::ops::Range<usize> {
        self.start[x] as usize..self.start[x + 1] as usize
    }
}

impl<M: Mask> Saturation<M> for EdgeView<M> {
    #[inline]
    fn assign(&mut self, x: usize, c: usize) {
        for k in self.neighbours(x) {
            let w = self.adj[k] as usize;
            let slot = &mut self.count[w * self.n + c];
            *slot += 1;
            if *slot == 1 {
                self.forbidden[w] |= M::bit(c);
            }
            self.degree[w] -= 1;
        }
        self.updates += (self.start[x + 1] - self.start[x]) as u64;
    }

    #[inline]
    fn unassign(&mut self, x: usize, c: usize) {
        for k in self.neighbours(x) {
            let w = self.adj[k] as usize;
            let slot = &mut self.count[w * self.n + c];
            *slot -= 1;
            if *slot == 0 {
                self.forbidden[w] &= !M::bit(c);
            }
            self.degree[w] += 1;
        }
    }

    #[inline]
    fn forbidden(&self, x: usize) -> M {
        self.forbidden[x]
    }

    #[inline]
    fn uncoloured_degree(&self, x: usize) -> u32 {
        self.degree[x]
    }

    fn updates(&self) -> u64 {
        self.updates
    }
}

/// The per-unit view: a colour mask per unit and uncoloured counts per unit and intersection.
struct UnitView<M> {
    geo: std::sync::Arc<Geometry>,
    /// Colours used in each unit.
    used: Vec<M>,
    /// Uncoloured vertices per unit, then per row-box intersection, then per column-box one.
    free: Vec<u32>,
    /// Per vertex: its units' and intersections' indices into `free` (5, or 2 for Latin).
    slots: Vec<[u32; 5]>,
    latin: bool,
    /// Regions (a map, extra units): no row-box intersections to count by; the forbidden
    /// colours are the union over every unit of the vertex, and the uncoloured degree is kept
    /// per vertex (`degree`), updated over the peers as in the per-edge view.
    general: bool,
    degree: Vec<u32>,
    updates: u64,
}

impl<M: Mask> UnitView<M> {
    fn new(puzzle: &Grid) -> UnitView<M> {
        let shape = puzzle.shape();
        let geo = geometry(shape);
        let n = shape.order();
        let latin = shape.is_latin();
        let general = !shape.has_box_geometry();
        let units = geo.unit_count;
        // Row-box intersections: (row, box column), n · (n/q) of them; column-box ones likewise.
        let (p, q) = (shape.box_rows(), shape.box_cols());
        let row_segments = if latin { 0 } else { n * (n / q) };
        let col_segments = if latin { 0 } else { n * (n / p) };
        let mut free = vec![n as u32; units];
        free.extend(std::iter::repeat_n(q as u32, row_segments));
        free.extend(std::iter::repeat_n(p as u32, col_segments));
        let slots = (0..shape.cells())
            .map(|x| {
                let u = geo.units_of(x);
                if latin || general {
                    [u[0], u[1], 0, 0, 0]
                } else {
                    let (r, c) = (shape.row_of(x), shape.col_of(x));
                    let rb = units + r * (n / q) + c / q;
                    let cb = units + row_segments + c * (n / p) + r / p;
                    [u[0], u[1], u[2], rb as u32, cb as u32]
                }
            })
            .collect();
        let degree = if general {
            (0..shape.cells())
                .map(|x| geo.peers(x).len() as u32)
                .collect()
        } else {
            Vec::new()
        };
        UnitView {
            geo,
            used: vec![M::ZERO; units],
            free,
            slots,
            latin,
            general,
            degree,
            updates: 0,
        }
    }
}

impl<M: Mask> Saturation<M> for UnitView<M> {
    #[inline]
    fn assign(&mut self, x: usize, c: usize) {
        for &u in self.geo.units_of(x) {
            self.used[u as usize] |= M::bit(c);
            self.updates += 1;
        }
        if self.general {
            for &w in self.geo.peers(x) {
                self.degree[w as usize] -= 1;
            }
            return;
        }
        let k = if self.latin { 2 } else { 5 };
        for &s in &self.slots[x][..k] {
            self.free[s as usize] -= 1;
        }
    }

    #[inline]
    fn unassign(&mut self, x: usize, c: usize) {
        for &u in self.geo.units_of(x) {
            self.used[u as usize] &= !M::bit(c);
        }
        if self.general {
            for &w in self.geo.peers(x) {
                self.degree[w as usize] += 1;
            }
            return;
        }
        let k = if self.latin { 2 } else { 5 };
        for &s in &self.slots[x][..k] {
            self.free[s as usize] += 1;
        }
    }

    #[inline]
    fn forbidden(&self, x: usize) -> M {
        let s = &self.slots[x];
        if self.general {
            let units = self.geo.units_of(x);
            units
                .iter()
                .fold(M::ZERO, |set, &u| set | self.used[u as usize])
        } else if self.latin {
            self.used[s[0] as usize] | self.used[s[1] as usize]
        } else {
            self.used[s[0] as usize] | self.used[s[1] as usize] | self.used[s[2] as usize]
        }
    }

    #[inline]
    fn uncoloured_degree(&self, x: usize) -> u32 {
        if self.general {
            return self.degree[x];
        }
        let s = &self.slots[x];
        let f = |i: usize| self.free[s[i] as usize];
        if self.latin {
            f(0) + f(1) - 2
        } else {
            f(0) + f(1) + f(2) - f(3) - f(4) - 1
        }
    }

    fn updates(&self) -> u64 {
        self.updates
    }
}

/// The uncoloured vertices as a list with O(1) removal and last-in-first-out restoring.
struct Uncoloured {
    order: Vec<u32>,
    pos: Vec<u32>,
    len: usize,
}

impl Uncoloured {
    fn new(vertices: usize) -> Uncoloured {
        Uncoloured {
            order: (0..vertices as u32).collect(),
            pos: (0..vertices as u32).collect(),
            len: vertices,
        }
    }

    /// Moves `x` just past the end of the list.
    #[inline]
    fn remove(&mut self, x: usize) {
        let i = self.pos[x] as usize;
        let last = self.order[self.len - 1];
        self.order.swap(i, self.len - 1);
        self.pos[last as usize] = i as u32;
        self.pos[x] = (self.len - 1) as u32;
        self.len -= 1;
    }

    /// Puts back the vertex removed last.
    #[inline]
    fn restore(&mut self) {
        self.len += 1;
    }
}

/// DSATUR order: the uncoloured vertex with the most forbidden colours, then the highest
/// uncoloured degree (first in list order on ties), and its forbidden colours.
#[inline]
fn choose<M: Mask, S: Saturation<M>>(view: &S, list: &Uncoloured, n: u32) -> (usize, M) {
    let mut best = (0u32, 0u32, 0usize, M::ZERO);
    for (i, &x) in list.order[..list.len].iter().enumerate() {
        let x = x as usize;
        let forbidden = view.forbidden(x);
        let sat = forbidden.count();
        if i == 0 || sat > best.0 || (sat == best.0 && view.uncoloured_degree(x) > best.1) {
            best = (sat, view.uncoloured_degree(x), x, forbidden);
            if sat == n {
                break;
            }
        }
    }
    (best.2, best.3)
}

/// What the hyperedge rule found.
enum Rule {
    Nothing,
    /// A colour missing from a unit has no feasible vertex there.
    Dead,
    /// A colour missing from a unit has one feasible vertex there.
    Forced(usize, usize),
}

/// The hyperedge rule: in each unit, a colour not used yet must go to one of its uncoloured
/// vertices where no neighbour has it; none is a dead end, one forces it. One pass over the units
/// with "feasible somewhere" and "feasible twice" masks: O(n) per unit.
fn hyperedge_rule<M: Mask, S: Saturation<M>>(
    view: &S,
    geo: &Geometry,
    colour: &[u32],
    full: M,
) -> Rule {
    for u in 0..geo.unit_count {
        let cells = geo.unit(u);
        let (mut placed, mut once, mut twice) = (M::ZERO, M::ZERO, M::ZERO);
        for &y in cells {
            let c = colour[y as usize];
            if c != NONE {
                placed |= M::bit(c as usize);
            } else {
                let f = full & !view.forbidden(y as usize);
                twice |= once & f;
                once |= f;
            }
        }
        let missing = full & !placed;
        if missing & !once != M::ZERO {
            return Rule::Dead;
        }
        let hidden = missing & !twice;
        if hidden != M::ZERO {
            let c = hidden.lowest();
            let y = cells
                .iter()
                .map(|&y| y as usize)
                .find(|&y| colour[y] == NONE && view.forbidden(y) & M::bit(c) == M::ZERO)
                .expect("a feasible vertex for a colour seen once");
            return Rule::Forced(y, c);
        }
    }
    Rule::Nothing
}

/// The backtracking search: counts colourings up to `limit`, keeps the first two.
fn search<M: Mask, S: Saturation<M>>(
    puzzle: &Grid,
    mut view: S,
    rule: bool,
    limit: u64,
    budget: &Budget,
) -> CountReport {
    let shape = puzzle.shape();
    let n = shape.order();
    let full = M::below(n);
    let mut colour = vec![NONE; shape.cells()];
    let mut list = Uncoloured::new(shape.cells());
    let geo = geometry(shape);
    for (x, c) in puzzle.givens() {
        view.assign(x, c);
        colour[x] = c as u32;
        list.remove(x);
    }
    let mut stats = Stats {
        nodes: 1,
        ..Stats::default()
    };
    let mut report = CountReport::default();
    // Choice points: the vertex and the colours not tried yet.
    let mut frames: Vec<(u32, M)> = Vec::with_capacity(list.len);
    'search: loop {
        if list.len == 0 {
            if report.solutions.len() < 2 {
                let cells: Vec<Option<usize>> = colour.iter().map(|&c| Some(c as usize)).collect();
                report.solutions.push(Grid::from_cells(shape, &cells));
            }
            report.count += 1;
            if report.count >= limit {
                report.hit_limit = true;
                break 'search;
            }
        } else {
            let (mut x, forbidden) = choose(&view, &list, n as u32);
            let mut feasible = full & !forbidden;
            if rule && feasible.without_lowest() != M::ZERO {
                match hyperedge_rule(&view, &geo, &colour, full) {
                    Rule::Nothing => {}
                    Rule::Dead => feasible = M::ZERO,
                    Rule::Forced(y, c) => {
                        x = y;
                        feasible = M::bit(c);
                    }
                }
            }
            if feasible != M::ZERO {
                stats.nodes += 1;
                if let Some(reason) = budget.exceeded(stats.nodes) {
                    report.stopped = Some(reason);
                    break 'search;
                }
                let rest = feasible.without_lowest();
                if rest != M::ZERO {
                    stats.guesses += 1;
                }
                let c = feasible.lowest();
                frames.push((x as u32, rest));
                view.assign(x, c);
                colour[x] = c as u32;
                list.remove(x);
                continue 'search;
            }
        }
        // Backtrack to the latest vertex with a colour left.
        while let Some((x, rest)) = frames.pop() {
            let x = x as usize;
            view.unassign(x, colour[x] as usize);
            colour[x] = NONE;
            list.restore();
            if rest != M::ZERO {
                stats.nodes += 1;
                if let Some(reason) = budget.exceeded(stats.nodes) {
                    report.stopped = Some(reason);
                    break 'search;
                }
                stats.guesses += 1;
                let c = rest.lowest();
                frames.push((x as u32, rest.without_lowest()));
                view.assign(x, c);
                colour[x] = c as u32;
                list.remove(x);
                continue 'search;
            }
        }
        break 'search;
    }
    stats.propagations = view.updates();
    report.stats = stats;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::solve::{Native, StopReason};
    use crate::text::parse_line;

    fn count(solver: Colouring, puzzle: &Grid, limit: u64) -> CountReport {
        solver.count(puzzle, limit, &Limits::none()).unwrap()
    }

    #[test]
    fn counts_the_small_empty_grids_in_both_views() {
        for view in [
            Colouring::graph(),
            Colouring::dsatur(),
            Colouring::default(),
        ] {
            let four = count(view, &Grid::empty(Shape::sudoku(2, 2).unwrap()), u64::MAX);
            assert_eq!((four.count, four.complete()), (288, true));
            assert_eq!(
                count(view, &Grid::empty(Shape::latin(4).unwrap()), u64::MAX).count,
                576
            );
            assert_eq!(
                count(view, &Grid::empty(Shape::sudoku(1, 3).unwrap()), u64::MAX).count,
                12
            );
            assert_eq!(
                count(view, &Grid::empty(Shape::latin(1).unwrap()), u64::MAX).count,
                1
            );
        }
    }

    #[test]
    fn both_views_walk_the_same_tree() {
        let mut latin = Grid::empty(Shape::latin(5).unwrap());
        latin.set(0, Some(2));
        latin.set(7, Some(4));
        let puzzles = [
            parse_line(
                "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
                None,
            )
            .unwrap(),
            parse_line("1...............", None).unwrap(),
            parse_line("..3.....1.....2.............6.....5.", None).unwrap(),
            latin,
        ];
        for puzzle in &puzzles {
            let ruled = Colouring {
                view: View::Graph,
                hyperedge_rule: true,
            };
            for (one, other) in [
                (Colouring::graph(), Colouring::dsatur()),
                (ruled, Colouring::default()),
            ] {
                let a = count(one, puzzle, 50);
                let b = count(other, puzzle, 50);
                assert_eq!(a.count, b.count);
                assert_eq!(a.solutions, b.solutions);
                assert_eq!(
                    (a.stats.nodes, a.stats.guesses),
                    (b.stats.nodes, b.stats.guesses)
                );
            }
        }
    }

    #[test]
    fn the_uncoloured_degree_of_the_unit_view_is_exact() {
        for shape in [
            Shape::sudoku(2, 3).unwrap(),
            Shape::sudoku(3, 2).unwrap(),
            Shape::sudoku(1, 4).unwrap(),
            Shape::latin(5).unwrap(),
        ] {
            let mut edges = EdgeView::<u16>::new(&Grid::empty(shape));
            let mut units = UnitView::<u16>::new(&Grid::empty(shape));
            let coloured = [(0, 0), (shape.cells() - 1, 1), (shape.order() + 1, 2)];
            for (k, &(x, c)) in coloured.iter().enumerate() {
                edges.assign(x, c);
                units.assign(x, c);
                for y in 0..shape.cells() {
                    if coloured[..=k].iter().all(|&(z, _)| z != y) {
                        assert_eq!(edges.forbidden(y), units.forbidden(y), "{shape} {y}");
                        assert_eq!(
                            edges.uncoloured_degree(y),
                            units.uncoloured_degree(y),
                            "{shape} {y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_native_on_generated_puzzles() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for (shape, givens) in [
            (Shape::sudoku(2, 3).unwrap(), 8),
            (Shape::sudoku(3, 2).unwrap(), 12),
            (Shape::sudoku(3, 3).unwrap(), 28),
            (Shape::latin(5).unwrap(), 6),
        ] {
            for _ in 0..8 {
                let g = crate::solve::test_support::random_consistent(shape, givens, &mut rng);
                let ours = count(Colouring::default(), &g, 2_000);
                let theirs = Native.count(&g, 2_000, &Limits::none()).unwrap();
                assert_eq!(
                    (ours.count, ours.hit_limit),
                    (theirs.count, theirs.hit_limit)
                );
            }
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let nodes = Limits::nodes(100);
        let report = Colouring::default()
            .count(&empty, u64::MAX, &nodes)
            .unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert_eq!(report.stats.nodes, 101);
        let clash = parse_line("11..............", None).unwrap();
        assert_eq!(count(Colouring::default(), &clash, 10).count, 0);
    }
}
