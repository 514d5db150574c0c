//! The removal test of the puzzle reduction: does a well-posed puzzle stay well posed when some of
//! its givens are removed?
//!
//! # Method
//! Let P be well posed with solution S, and B a set of givens of P. Every solution of P \ B
//! agrees with S off B (there it is given), so P \ B is well posed **iff it has no solution that
//! differs from S on some cell of B**. The test searches for such a solution directly, instead of
//! counting the solutions of P \ B up to 2: a count also re-solves the part of the space where B
//! takes S's values, which is P's own search space, and proves P well posed once more.
//!
//! Before any case, the test looks for a small trade of S (two values or two lines exchanged;
//! [`super::trades`]) with no given left in P \ B: the traded grid is a second solution, found
//! at once.
//!
//! "Some cell of B differs from S" is split into disjoint **cases**: for B = {b₁, …, b_k}, case i
//! fixes b₁ … b_{i−1} to their values in S and removes S(b_i) from the candidates of b_i — a
//! domain restriction at the root. Each case's root is propagated to its HAC fixpoint
//! (all-different by matching, [`crate::propagate`]); a case whose fixpoint fails has no
//! solution, without search (the pre-filter: near the end of a reduction many removals are
//! settled this way). The cases that survive are searched, by one of three engines:
//! - [`UniquenessEngine::Sat`] (the default): each case's fixpoint becomes a small CNF — one
//!   variable per candidate of a cell with two or more, each such cell takes exactly one, each
//!   value not yet placed in a unit takes exactly one of its places there (pairwise
//!   at-most-one) — solved by CDCL, a fresh solver per case: varisat below order
//!   [`CADICAL_FROM_ORDER`], CaDiCaL set for puzzles from it on with the feature `cadical` (else
//!   varisat there too). The fixpoint leaves few open candidates, so the formulas are small, and
//!   clause learning proves the refutations (the common answer) far faster than depth-first
//!   search.
//!   CaDiCaL's first decisions lean toward the last second solution the test found for the same
//!   S (its phases): the next one is often in the same region of the grid. On 25×25 generation
//!   that took 1–9 % less CPU on five of six seeds (one 0.7 % more; the same puzzles);
//!   decisions toward S itself were slower (see `BENCHMARKS.md`).
//! - `UniquenessEngine::Incremental` (with the feature `cadical`): one CaDiCaL per removal
//!   test, loaded once with the rules of the empty grid (one variable per candidate, each cell
//!   and each value of each unit exactly once, pairwise at-most-one). A case is a call under
//!   assumptions only — the givens of P \ B, b₁ … b_{i−1} at their values in S, b_i not at its
//!   value, and the cells the case's HAC fixpoint fixes — so no clause is ever added or retired,
//!   and the learnt clauses stay from one test to the next (and from one puzzle to the next:
//!   they follow from the rules alone). The solver's decisions lean toward S (forced phases).
//! - [`UniquenessEngine::Hac`]: depth-first search with HAC propagation from the case's root
//!   ([`Searcher::run_from`]), each cell's value in S tried first (the second solutions it looks
//!   for tend to differ from S on few cells). A case runs under a node budget that follows the
//!   Luby sequence; when it runs out, the test restarts on a random isomorphic copy of the
//!   instance ([`Transform`]: the same answer, another search order), skipping the cases already
//!   refuted. The budget grows without bound, so the answer is exact.
//!
//! Measured on 25×25 reductions (see `BENCHMARKS.md`), the SAT engine is faster than the HAC
//! one, and faster than the `native` count up to 2 from order 16 on; below
//! [`SEARCH_FROM_ORDER`] the reduction keeps `native`'s count. The incremental engine takes about
//! twice the fresh solvers' CPU time on 25×25, where the hard tests dominate: there its search
//! runs on the whole grid's formula under hundreds of assumption levels (long learnt clauses,
//! costly to analyse and shrink), where a fresh solver sees only the fixpoint's few open
//! candidates. On 16×16, where every test is cheap, it was ahead of fresh solvers with
//! CaDiCaL's defaults, but not of fresh solvers set for puzzles (median 0.18 against 0.15 s
//! of CPU a puzzle), nor of fresh varisat solvers (0.08 s). So generation and minimize use the
//! fresh solvers at every order (the default, [`UniquenessEngine::Sat`]);
//! `SUDOKIT_REMOVAL_ENGINE` names generation's engine for comparisons
//! ([`UniquenessEngine::from_env`]).
//!
//! Every second solution found goes through [`crate::verify()`].
//!
//! # Complexity
//! A case refuted by the pre-filter costs one HAC fixpoint (see [`crate::propagate`]); a case
//! that survives costs a search, exponential in the worst case (completion is NP-complete). The
//! SAT engine writes O(m·n) clauses for m open candidates (at most n³, far fewer after the
//! fixpoint), in O(n³ + m·n) time. The incremental engine loads O(n⁴) clauses once (pairwise
//! at-most-one over the n³ candidates) and passes O(n²) assumptions per case. A test of k
//! removed givens runs at most k cases and stops at the first that has a solution.
//!
//! # References
//! - J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994 (the
//!   HAC fixpoint).
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006 (the CNF, here over the
//!   candidates left by propagation).
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", IPL 47 (1993):
//!   the restart schedule.
//!
//! # Examples
//! ```
//! use sudokit::generate::well_posed::{UniquenessEngine, RemovalTest};
//! use sudokit::text::parse_line;
//! let solution = parse_line(
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
//!     None,
//! )
//! .unwrap();
//! let mut test = RemovalTest::new(solution.shape(), UniquenessEngine::Sat);
//! // One given out of a complete grid: the cell is forced by its row.
//! let mut puzzle = solution.clone();
//! puzzle.set(0, None);
//! assert!(test.still_unique(&puzzle, &solution, &[0]));
//! // Every given out: many solutions.
//! let empty = sudokit::Grid::empty(solution.shape());
//! let all: Vec<usize> = (0..81).collect();
//! assert!(!test.still_unique(&empty, &solution, &all));
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::symmetry::Transform;
use super::trades::Trades;
use crate::encode::cnf::{Amo, at_most_one};
use crate::encode::{ClauseSink, Lit, Var};
use crate::grid::Grid;
use crate::propagate::{Domains, Propagator, Scheme, Searcher};
use crate::search::Limits;
use crate::shape::Shape;
use crate::solve::luby::luby;
#[cfg(feature = "cadical")]
use crate::solve::sat::incremental::Incremental;
use crate::solve::sat::{self, SatSolver};

/// From this order on the reduction uses this module's test; below it, `native`'s count up to 2
/// (faster there: 9×9 and 12×12 were measured).
pub const SEARCH_FROM_ORDER: usize = 16;

/// From this order on the SAT engine's fresh solvers are CaDiCaL (with the feature `cadical`);
/// below it varisat, which starts cheaper and wins on the smaller formulas there. Measured with
/// `--features cadical`, `--threads 1`, CPU s, the same puzzles (`BENCHMARKS.md`): 16×16
/// median 0.08 (varisat) against 0.14 s (CaDiCaL) over seeds 1–11; 20×20 seeds 1–3 0.35 / 0.69
/// / 0.68 against 0.53 / 0.89 / 1.06; 24×24 seeds 1–2 8.4 / 9.2 against 9.6 / 10.1; 25×25
/// seeds 4 / 5 / 8 21.9 / 24.4 / 9.4 against 18.0 / 16.1 / 10.9.
pub const CADICAL_FROM_ORDER: usize = 25;

/// The solver of the SAT engine's cases for puzzles of order `order` (see
/// [`CADICAL_FROM_ORDER`]).
fn removal_solver(order: usize) -> SatSolver {
    if order >= CADICAL_FROM_ORDER {
        SatSolver::FASTEST
    } else {
        SatSolver::Varisat
    }
}

/// The engine that searches the cases the pre-filter leaves; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UniquenessEngine {
    /// A fresh SAT solver per case (see [`CADICAL_FROM_ORDER`]), on the
    /// case's HAC fixpoint.
    #[default]
    Sat,
    /// Depth-first search with HAC propagation and Luby restarts on isomorphic copies.
    Hac,
    /// One incremental CaDiCaL per removal test (with the feature `cadical`), loaded once with
    /// the rules of the empty grid; the givens and each case are assumptions, and learnt clauses
    /// stay from one test to the next.
    #[cfg(feature = "cadical")]
    Incremental,
}

impl UniquenessEngine {
    /// The engine named by the environment variable `SUDOKIT_REMOVAL_ENGINE` (`sat`, `hac`, or
    /// `incremental` with the feature `cadical`), for comparisons (the puzzles are the same);
    /// `None` when it is not set (or names no engine): the default engine then.
    pub fn from_env() -> Option<UniquenessEngine> {
        std::env::var("SUDOKIT_REMOVAL_ENGINE")
            .ok()
            .and_then(|name| UniquenessEngine::from_name(&name))
    }

    /// The engine of a name: `sat`, `hac` or `incremental`.
    pub fn from_name(name: &str) -> Option<UniquenessEngine> {
        match name {
            "sat" => Some(UniquenessEngine::Sat),
            "hac" => Some(UniquenessEngine::Hac),
            #[cfg(feature = "cadical")]
            "incremental" => Some(UniquenessEngine::Incremental),
            _ => None,
        }
    }
}

/// The removal test for one shape; keeps its engines and scratch space between tests.
pub struct RemovalTest {
    shape: Shape,
    engine: UniquenessEngine,
    propagator: Propagator,
    searcher: Searcher,
    /// Draws the isomorphic copies of the HAC restarts; the answers do not depend on it.
    rng: ChaCha8Rng,
    /// Nodes per unit of the HAC restart schedule.
    unit: u64,
    /// The root store of a case (scratch).
    root: Domains,
    /// The cases that survive the pre-filter (scratch).
    open: Vec<usize>,
    /// Variable numbers of the SAT engine (scratch of [`solve_domains`]).
    index: Vec<u32>,
    /// The SAT engine's phases (scratch of [`solve_domains`]).
    phases: Vec<Lit>,
    /// The last second solution the SAT engine found for the current solution: its next
    /// searches decide toward it first (see the module docs).
    witness: Option<Grid>,
    /// Whether the last test needed a search (the pre-filter did not decide it).
    searched: bool,
    /// The small trades of the last solution seen.
    trades: Option<Trades>,
    /// The solver of the incremental engine, built at its first search.
    #[cfg(feature = "cadical")]
    rules: Option<Rules>,
    /// The assumptions of a call of the incremental engine (scratch).
    #[cfg(feature = "cadical")]
    assumptions: Vec<Lit>,
}

impl RemovalTest {
    /// A test for puzzles of `shape`, searching with `engine`.
    pub fn new(shape: Shape, engine: UniquenessEngine) -> RemovalTest {
        RemovalTest {
            shape,
            engine,
            propagator: Propagator::new(shape),
            searcher: Searcher::new(shape),
            rng: ChaCha8Rng::seed_from_u64(0x5eed),
            unit: 32 * shape.order() as u64,
            root: Domains::full(shape),
            open: Vec::new(),
            index: Vec::new(),
            phases: Vec::new(),
            witness: None,
            searched: false,
            trades: None,
            #[cfg(feature = "cadical")]
            rules: None,
            #[cfg(feature = "cadical")]
            assumptions: Vec::new(),
        }
    }

    /// Whether `reduced` — a well-posed puzzle whose solution is `solution`, with the givens of
    /// the cells `removed` taken out — is still well posed.
    ///
    /// The answer is only meaningful under that precondition (`solution` is the unique solution
    /// of `reduced` plus the removed givens); it is not checked.
    ///
    /// # Panics
    /// If a shape differs from the test's, or (a bug) a second solution fails verification.
    pub fn still_unique(&mut self, reduced: &Grid, solution: &Grid, removed: &[usize]) -> bool {
        assert_eq!(reduced.shape(), self.shape, "shape of the removal test");
        assert_eq!(solution.shape(), self.shape, "shape of the solution");
        debug_assert!(removed.iter().all(|&c| reduced.get(c).is_none()));
        self.searched = false;
        // The shortcut: a small trade left without a given.
        if self
            .trades
            .as_ref()
            .is_none_or(|t| t.solution() != solution)
        {
            self.trades = Some(Trades::of(solution));
            self.witness = None;
        }
        let trades = self.trades.as_mut().expect("built above");
        if let Some(t) = trades.bare_in(reduced) {
            let other = trades.traded(t);
            crate::verify(reduced, &other).expect("a traded grid solves the puzzle");
            debug_assert!(removed.iter().any(|&c| other.get(c) != solution.get(c)));
            return false;
        }
        // The pre-filter: the cases whose root fixpoint does not fail.
        self.open.clear();
        for case in 0..removed.len() {
            if self.case_root(reduced, solution, removed, case) {
                self.open.push(case);
            }
        }
        if self.open.is_empty() {
            return true;
        }
        self.searched = true;
        match self.engine {
            UniquenessEngine::Sat => self.sat(reduced, solution, removed),
            UniquenessEngine::Hac => self.hac(reduced, solution, removed),
            #[cfg(feature = "cadical")]
            UniquenessEngine::Incremental => self.incremental(reduced, solution, removed),
        }
    }

    /// Whether the last [`RemovalTest::still_unique`] needed a search: the pre-filter did not
    /// settle it.
    pub fn searched(&self) -> bool {
        self.searched
    }

    /// Builds the root store of case `case` in `self.root` and propagates it with HAC; returns
    /// whether the fixpoint exists (`false`: the case has no solution).
    fn case_root(
        &mut self,
        reduced: &Grid,
        solution: &Grid,
        removed: &[usize],
        case: usize,
    ) -> bool {
        self.root.copy_from(&Domains::from_puzzle(reduced));
        for &b in &removed[..case] {
            self.root.set_single(b, value(solution, b));
        }
        let b = removed[case];
        self.root.remove(b, value(solution, b));
        reduced.first_clash().is_none()
            && self
                .propagator
                .propagate(&mut self.root, Scheme::HAC)
                .is_ok()
    }

    /// The open cases by SAT, one solver per case.
    fn sat(&mut self, reduced: &Grid, solution: &Grid, removed: &[usize]) -> bool {
        for i in 0..self.open.len() {
            let case = self.open[i];
            let built = self.case_root(reduced, solution, removed, case);
            debug_assert!(built, "the pre-filter kept this case");
            let found = solve_domains(
                &self.root,
                &mut self.index,
                &mut self.phases,
                self.witness.as_ref(),
            );
            if let Some(other) = found {
                crate::verify(reduced, &other).expect("the SAT model solves the puzzle");
                assert!(
                    removed.iter().any(|&c| other.get(c) != solution.get(c)),
                    "a case's solution differs from the solution on a removed cell"
                );
                self.witness = Some(other);
                return false;
            }
        }
        true
    }

    /// The open cases by the incremental solver: one call per case, under the givens of
    /// `reduced` and the case as assumptions.
    #[cfg(feature = "cadical")]
    fn incremental(&mut self, reduced: &Grid, solution: &Grid, removed: &[usize]) -> bool {
        let shape = self.shape;
        let rules = self.rules.get_or_insert_with(|| Rules::new(shape));
        if rules.phased.as_ref() != Some(solution) {
            rules.phase_toward(solution);
        }
        self.assumptions.clear();
        for cell in 0..shape.cells() {
            if let Some(v) = reduced.get(cell) {
                self.assumptions.push(rules.lit(cell, v));
            }
        }
        let givens = self.assumptions.len();
        for i in 0..self.open.len() {
            let case = self.open[i];
            let rules = self.rules.as_mut().expect("built above");
            self.assumptions.truncate(givens);
            for &b in &removed[..case] {
                self.assumptions.push(rules.lit(b, value(solution, b)));
            }
            let b = removed[case];
            self.assumptions
                .push(rules.lit(b, value(solution, b)).negate());
            // The cells the case's HAC fixpoint fixes, as assumptions too: unit propagation on
            // the pairwise encoding is weaker than HAC. (Assuming every candidate the fixpoint
            // removes as well was slower: one assumption level each.)
            let built = self.case_root(reduced, solution, removed, case);
            debug_assert!(built, "the pre-filter kept this case");
            let rules = self.rules.as_ref().expect("built above");
            for cell in (0..shape.cells()).filter(|&c| reduced.get(c).is_none()) {
                if let Some(v) = self.root.value(cell) {
                    self.assumptions.push(rules.lit(cell, v));
                }
            }
            let rules = self.rules.as_mut().expect("built above");
            if rules.solver.solve_assuming(&self.assumptions) {
                let other = rules.grid();
                crate::verify(reduced, &other).expect("the SAT model solves the puzzle");
                assert!(
                    removed.iter().any(|&c| other.get(c) != solution.get(c)),
                    "a case's solution differs from the solution on a removed cell"
                );
                return false;
            }
        }
        true
    }

    /// The open cases by HAC search, restarted as the module docs say.
    fn hac(&mut self, reduced: &Grid, solution: &Grid, removed: &[usize]) -> bool {
        let n = self.shape.order();
        let (mut puzzle, mut sol, mut cells) =
            (reduced.clone(), solution.clone(), removed.to_vec());
        // `first`: each cell's value order starts at its value in S (see `Searcher::run_from`).
        let mut first = Grid::empty(self.shape);
        let mut done = 0;
        for run in 1.. {
            let limits = Limits::nodes(self.unit.saturating_mul(luby(run)));
            if run > 1 {
                (puzzle, sol, cells) = isomorphic_copy(reduced, solution, removed, &mut self.rng);
            }
            for c in 0..self.shape.cells() {
                first.set(c, Some((value(&sol, c) + n - 1) % n));
            }
            while done < self.open.len() {
                let case = self.open[done];
                let built = self.case_root(&puzzle, &sol, &cells, case);
                debug_assert!(built, "an isomorphic copy has the same fixpoint");
                let root = self.root.clone();
                let outcome = self
                    .searcher
                    .run_from(&puzzle, &root, Scheme::HAC, 1, &limits, Some(&first))
                    .expect("HAC is sound and the limit is 1");
                if let Some(other) = outcome.solutions.first() {
                    assert!(
                        cells.iter().any(|&c| other.get(c) != sol.get(c)),
                        "a case's solution differs from the solution on a removed cell"
                    );
                    return false;
                }
                if outcome.stopped.is_some() {
                    break;
                }
                done += 1;
            }
            if done == self.open.len() {
                return true;
            }
        }
        unreachable!("the restart loop only ends by returning")
    }
}

/// The incremental engine's solver: the rules of the empty grid of a shape, one variable per
/// candidate (cell c, value v: variable c·n + v), each cell and each value of each unit exactly
/// once (pairwise at-most-one); every variable frozen, since any may be assumed.
#[cfg(feature = "cadical")]
struct Rules {
    solver: Incremental,
    shape: Shape,
    /// The solution the phases point to.
    phased: Option<Grid>,
}

#[cfg(feature = "cadical")]
impl Rules {
    fn new(shape: Shape) -> Rules {
        let n = shape.order();
        let mut solver = Incremental::default();
        // The calls share the givens, in cell order, as their first assumptions, so the trail
        // of the last call is kept as far as they agree (ilb). Measured on one 25×25 generation
        // (seed 8, --threads 1, CPU s): 61.5 with ilb, 52.7 with the phases toward the
        // solution too, then 38.4 without inprocessing, 41.3 without lucky phases, 39.5 without
        // both (the fresh-solver engine: 20.5).
        for (name, value) in [("ilb", 1), ("inprocessing", 0), ("lucky", 0)] {
            let taken = solver.set_option(name, value);
            debug_assert!(taken, "CaDiCaL option {name}");
        }
        for _ in 0..shape.cells() * n {
            let var = solver.new_var();
            solver.freeze(var);
        }
        let lit = |cell: usize, v: usize| Var::from_index(cell * n + v).positive();
        let mut clause = Vec::with_capacity(n);
        let exactly_one = |solver: &mut Incremental, clause: &[Lit]| {
            solver.add_clause(clause);
            at_most_one(Amo::Pairwise, clause, solver);
        };
        for cell in 0..shape.cells() {
            clause.clear();
            clause.extend((0..n).map(|v| lit(cell, v)));
            exactly_one(&mut solver, &clause);
        }
        for u in 0..shape.unit_count() {
            let unit = shape.unit(u);
            for v in 0..n {
                clause.clear();
                clause.extend(shape.unit_cells(unit).map(|cell| lit(cell, v)));
                exactly_one(&mut solver, &clause);
            }
        }
        Rules {
            solver,
            shape,
            phased: None,
        }
    }

    /// The literal "cell holds v".
    fn lit(&self, cell: usize, v: usize) -> Lit {
        Var::from_index(cell * self.shape.order() + v).positive()
    }

    /// Decisions toward `solution`: each cell's value in it first.
    fn phase_toward(&mut self, solution: &Grid) {
        let n = self.shape.order();
        for cell in 0..self.shape.cells() {
            let s = value(solution, cell);
            for v in 0..n {
                let lit = self.lit(cell, v);
                self.solver.phase(if v == s { lit } else { lit.negate() });
            }
        }
        self.phased = Some(solution.clone());
    }

    /// The grid of the last model.
    fn grid(&self) -> Grid {
        let n = self.shape.order();
        let mut grid = Grid::empty(self.shape);
        for cell in 0..self.shape.cells() {
            let mut values = (0..n).filter(|&v| self.solver.is_true(self.lit(cell, v).var()));
            if let (Some(v), None) = (values.next(), values.next()) {
                grid.set(cell, Some(v));
            }
        }
        grid
    }
}

/// The value of `cell` in a complete grid.
fn value(grid: &Grid, cell: usize) -> usize {
    grid.get(cell).expect("the solution is complete")
}

/// `reduced`, `solution` and `removed` under one random [`Transform`].
fn isomorphic_copy(
    reduced: &Grid,
    solution: &Grid,
    removed: &[usize],
    rng: &mut ChaCha8Rng,
) -> (Grid, Grid, Vec<usize>) {
    let shape = reduced.shape();
    let transform = Transform::random(shape, rng);
    // Where each old row and column goes (the transform lists the old line at each new one).
    let n = shape.order();
    let (mut row_to, mut col_to) = (vec![0; n], vec![0; n]);
    for i in 0..n {
        row_to[transform.rows[i]] = i;
        col_to[transform.cols[i]] = i;
    }
    // The removed cells keep their order: the cases are numbered by it.
    let cells = removed
        .iter()
        .map(|&cell| {
            let (r, c) = (row_to[shape.row_of(cell)], col_to[shape.col_of(cell)]);
            if transform.transpose {
                shape.cell(c, r)
            } else {
                shape.cell(r, c)
            }
        })
        .collect();
    (transform.apply(reduced), transform.apply(solution), cells)
}

/// A complete grid within `d` that satisfies the Sudoku rules, if one exists, by SAT on the open
/// candidates of `d` (see the module docs), with the solver [`removal_solver`] picks. With
/// CaDiCaL, the search decides each cell's value in `toward` first, when given (varisat takes no
/// phases). `index` and `phases` are scratch space.
fn solve_domains(
    d: &Domains,
    index: &mut Vec<u32>,
    phases: &mut Vec<Lit>,
    toward: Option<&Grid>,
) -> Option<Grid> {
    let shape = d.shape();
    let n = shape.order();
    // One variable per candidate of an open cell; fixed cells need none.
    index.clear();
    index.resize(shape.cells() * n, u32::MAX);
    let mut vars = 0u32;
    for cell in (0..shape.cells()).filter(|&c| d.count(c) > 1) {
        for v in d.values(cell) {
            index[cell * n + v] = vars;
            vars += 1;
        }
    }
    let lit = |cell: usize, v: usize| {
        let i = index[cell * n + v];
        (i != u32::MAX).then(|| Var::from_index(i as usize).positive())
    };
    let solver = removal_solver(n);
    phases.clear();
    if let Some(toward) = toward.filter(|_| solver != SatSolver::Varisat) {
        for cell in (0..shape.cells()).filter(|&c| d.count(c) > 1) {
            let wanted = toward.get(cell);
            for v in d.values(cell) {
                if let Some(x) = lit(cell, v) {
                    phases.push(if wanted == Some(v) { x } else { x.negate() });
                }
            }
        }
    }
    let model = sat::solve_fresh(
        solver,
        |sink| {
            for _ in 0..vars {
                sink.new_var();
            }
            let mut clause = Vec::with_capacity(n);
            let exactly_one = |sink: &mut dyn ClauseSink, clause: &[Lit]| {
                sink.add_clause(clause);
                at_most_one(Amo::Pairwise, clause, sink);
            };
            for cell in (0..shape.cells()).filter(|&c| d.count(c) > 1) {
                clause.clear();
                clause.extend(d.values(cell).filter_map(|v| lit(cell, v)));
                exactly_one(sink, &clause);
            }
            let mut placed = vec![false; n];
            for u in 0..shape.unit_count() {
                let unit = shape.unit(u);
                placed.fill(false);
                for cell in shape.unit_cells(unit) {
                    if let Some(v) = d.value(cell) {
                        placed[v] = true;
                    }
                }
                for v in (0..n).filter(|&v| !placed[v]) {
                    clause.clear();
                    clause.extend(
                        shape
                            .unit_cells(unit)
                            .filter(|&cell| d.contains(cell, v))
                            .filter_map(|cell| lit(cell, v)),
                    );
                    exactly_one(sink, &clause);
                }
            }
        },
        phases,
    )?;
    let mut grid = d.fixed_grid();
    for cell in (0..shape.cells()).filter(|&c| d.count(c) > 1) {
        for v in d.values(cell) {
            if model.is_true(Var::from_index(index[cell * n + v] as usize)) {
                grid.set(cell, Some(v));
            }
        }
    }
    Some(grid)
}

#[cfg(test)]
mod tests {
    use rand::RngExt;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::generate::puzzle::puzzle_rng;
    use crate::generate::random_grid::random_grid;
    use crate::solve::{Limits, Native, Solver};

    /// Walks a random reduction of a random grid of `shape`, removing blocks of 1 to 3 givens,
    /// and checks every test of each engine against `native`'s count up to 2 (keeping a block
    /// only when the count says unique, so the precondition holds throughout). Returns how many
    /// tests said unique, how many did not, and how many of those the first test settled by
    /// search (neither a trade nor the pre-filter).
    fn agrees_with_counts(
        shape: Shape,
        seed: u64,
        tests: &mut [RemovalTest],
    ) -> (usize, usize, usize) {
        let mut rng = puzzle_rng(seed, 0);
        let solution = random_grid(&Grid::empty(shape), &mut rng).unwrap().unwrap();
        let mut cells: Vec<usize> = (0..shape.cells()).collect();
        cells.shuffle(&mut rng);
        let mut puzzle = solution.clone();
        let (mut unique, mut multiple, mut searched) = (0, 0, 0);
        let mut rest = &cells[..];
        while !rest.is_empty() {
            let k = rng.random_range(1..=3).min(rest.len());
            let (block, tail) = rest.split_at(k);
            rest = tail;
            for &c in block {
                puzzle.set(c, None);
            }
            let count = Native.count(&puzzle, 2, &Limits::none()).unwrap();
            let truth = count.count == 1;
            for test in tests.iter_mut() {
                assert_eq!(
                    test.still_unique(&puzzle, &solution, block),
                    truth,
                    "{:?}, seed {seed}, block {block:?}",
                    test.engine
                );
            }
            if truth {
                unique += 1;
            } else {
                multiple += 1;
                searched += usize::from(tests[0].searched());
                for &c in block {
                    puzzle.set(c, solution.get(c));
                }
            }
        }
        (unique, multiple, searched)
    }

    /// [`agrees_with_counts`] over `seeds`, its tallies added up.
    fn agree_over_seeds(
        shape: Shape,
        seeds: std::ops::Range<u64>,
        tests: &mut [RemovalTest],
    ) -> (usize, usize, usize) {
        seeds.fold((0, 0, 0), |(u, m, s), seed| {
            let (du, dm, ds) = agrees_with_counts(shape, seed, tests);
            (u + du, m + dm, s + ds)
        })
    }

    #[test]
    fn both_engines_agree_with_a_count_to_two_on_random_removals() {
        for (p, q, seeds) in [(3, 3, 0..8), (2, 3, 0..6), (4, 4, 0..1)] {
            let shape = Shape::sudoku(p, q).unwrap();
            let mut tests = [
                RemovalTest::new(shape, UniquenessEngine::Sat),
                RemovalTest::new(shape, UniquenessEngine::Hac),
            ];
            let (unique, multiple, searched) = agree_over_seeds(shape, seeds, &mut tests);
            // Both kinds of answer, and second solutions found by search as well as by trades.
            assert!(
                unique > 10 && multiple > 10 && searched > 0 && searched < multiple,
                "{shape}: {unique} / {multiple} ({searched} searched)"
            );
        }
    }

    #[cfg(feature = "cadical")]
    #[test]
    fn the_incremental_engine_agrees_with_a_count_to_two_on_random_removals() {
        // One test per shape for all its seeds: the solver, its learnt clauses and its phases
        // go from one solution to the next.
        for (p, q, seeds) in [(3, 3, 0..8), (2, 3, 0..6), (4, 4, 0..2)] {
            let shape = Shape::sudoku(p, q).unwrap();
            let mut tests = [
                RemovalTest::new(shape, UniquenessEngine::Sat),
                RemovalTest::new(shape, UniquenessEngine::Incremental),
            ];
            let (unique, multiple, searched) = agree_over_seeds(shape, seeds, &mut tests);
            assert!(
                unique > 10 && multiple > 10 && searched > 0,
                "{shape}: {unique} / {multiple} ({searched} searched)"
            );
        }
    }

    #[test]
    fn engines_have_names() {
        assert_eq!(
            UniquenessEngine::from_name("sat"),
            Some(UniquenessEngine::Sat)
        );
        assert_eq!(
            UniquenessEngine::from_name("hac"),
            Some(UniquenessEngine::Hac)
        );
        #[cfg(feature = "cadical")]
        assert_eq!(
            UniquenessEngine::from_name("incremental"),
            Some(UniquenessEngine::Incremental)
        );
        assert_eq!(UniquenessEngine::from_name("dlx"), None);
    }

    #[test]
    fn restarts_on_isomorphic_copies_keep_the_answers() {
        // A unit of one node forces many restarts, each on a copy, resuming at the first case
        // not yet refuted: the copies must keep the cases in order.
        let shape = Shape::sudoku(3, 3).unwrap();
        let mut restarted = RemovalTest::new(shape, UniquenessEngine::Hac);
        restarted.unit = 1;
        for seed in 20..26 {
            agrees_with_counts(shape, seed, std::slice::from_mut(&mut restarted));
        }
    }

    #[test]
    fn the_pre_filter_settles_forced_removals_without_search() {
        let shape = Shape::sudoku(3, 3).unwrap();
        let solution = random_grid(&Grid::empty(shape), &mut puzzle_rng(4, 0))
            .unwrap()
            .unwrap();
        let mut test = RemovalTest::new(shape, UniquenessEngine::Sat);
        // One given out of a complete grid: forced by its row, no search.
        let mut puzzle = solution.clone();
        puzzle.set(40, None);
        assert!(test.still_unique(&puzzle, &solution, &[40]));
        assert!(!test.searched());
        // Every given out: a second solution, found by a trade, without search.
        let empty = Grid::empty(shape);
        let all: Vec<usize> = (0..81).collect();
        assert!(!test.still_unique(&empty, &solution, &all));
        assert!(!test.searched());
    }

    #[test]
    fn a_sat_solution_lies_within_the_domains() {
        let shape = Shape::sudoku(2, 2).unwrap();
        let mut d = Domains::full(shape);
        d.set_single(0, 3);
        d.remove(5, 0);
        let mut index = Vec::new();
        let mut phases = Vec::new();
        let grid = solve_domains(&d, &mut index, &mut phases, None).unwrap();
        assert_eq!(crate::verify(&Grid::empty(shape), &grid), Ok(()));
        assert_eq!(grid.get(0), Some(3));
        assert_ne!(grid.get(5), Some(0));
        // Cell 1 may hold nothing but the value of cell 0: no grid.
        let mut stuck = Domains::full(shape);
        stuck.set_single(0, 3);
        stuck.set_single(1, 3);
        assert_eq!(solve_domains(&stuck, &mut index, &mut phases, None), None);
        // Leaning toward a grid changes no answer.
        let toward = grid.clone();
        let again = solve_domains(&d, &mut index, &mut phases, Some(&toward)).unwrap();
        assert_eq!(crate::verify(&Grid::empty(shape), &again), Ok(()));
        assert_eq!(
            solve_domains(&stuck, &mut index, &mut phases, Some(&toward)),
            None
        );
    }
}
