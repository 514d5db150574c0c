//! `grasp`: a GRASP metaheuristic (greedy randomized adaptive search procedure) for Sudoku of any
//! shape and for Latin squares. A heuristic: it finds solutions, it never proves there is none.
//!
//! # The method
//! The **blocks** are the boxes (the rows, for a Latin square). Every state the search visits
//! fills each block with exactly the values its givens leave out, so the block constraints
//! always hold, and the **cost** of a state is the number of repeated values in rows and columns:
//! the sum over rows and columns `u` and values `v` of `max(0, count_u(v) − 1)`. A complete grid
//! of cost 0 is a solution. Each GRASP iteration has two phases:
//!
//! 1. **Greedy randomized construction.** The free cells are taken in a random order. The
//!    candidates of a cell are the values its block still misses; the greedy cost of a candidate
//!    `v` is the number of times `v` already occurs in the cell's row and column (givens and the
//!    values placed so far, so the costs adapt after every placement). The restricted candidate
//!    list (RCL) holds the [`GraspOptions::alpha`] cheapest candidates, and one of them is drawn
//!    uniformly. `alpha = 1` is the greedy construction (randomized only by the cell order), a
//!    large `alpha` a random one.
//! 2. **Local search** (hill climbing). A move swaps the values of two free cells of one block,
//!    so the block stays a permutation. Each step draws a free cell that repeats a value in its
//!    row or column, scores its swaps with the other free cells of its block, each in O(1) from
//!    per-row and per-column counters of every value, and applies the best one (ties drawn
//!    uniformly) unless it would raise the cost. Moves that leave the cost unchanged (sideways
//!    moves) are accepted, because Sudoku's cost landscape is made of wide plateaus; the descent
//!    stops as stuck after [`GraspOptions::plateau`] steps in a row without a new lowest cost.
//!
//! The best grid seen so far (lowest cost at the end of a descent) is kept ([`GraspRun::best`]).
//! Iterations restart from a new construction until the cost reaches 0 or the budget runs out.
//!
//! **Optional pre-propagation** ([`GraspOptions::pre`], `grasp:pre=FCI`; off by default, so `grasp` is
//! the plain method): a propagation scheme of [`crate::propagate`] runs on the givens first; the
//! cells it fixes become givens of the search, and the construction prefers each cell's remaining
//! candidates (a value outside them costs `2n` more). Any solution agrees with the fixed cells,
//! since the schemes only remove values no solution uses. Restricting the *moves* to the
//! remaining candidates as well was tried and solved fewer puzzles, so moves are not restricted.
//!
//! # Answers: what a heuristic can say honestly
//! A search that cannot exhaust the space can show a solution exists (it verifies one), and that
//! there are several (two different verified solutions), but never that there is none, nor that
//! there is exactly one. So, through the [`Solver`] trait:
//! - `solve` answers `Solved(grid)` or `Unknown(reason)`, **never `Unsat`**;
//! - `count(limit)` counts the *distinct* solutions found over restarts (a lower bound); it stops
//!   with `hit_limit` when it reaches `limit`, and otherwise always with `stopped` set (the budget
//!   ran out), so [`CountReport::complete`] is never true;
//! - `unique` (= `count(2)`) answers `Multiple(a, b)` when two distinct solutions turn up, else
//!   `Unknown(reason)`: **never `Unique` and never `Unsat`**.
//!
//! Givens that clash (a row, column or box holding a value twice) leave no state of cost 0, so
//! the search would only spend its budget: the answer it would give then, `Unknown` with the
//! budget's reason (the node budget if one applies, else the time budget), is given at once.
//!
//! A scheme that refutes the puzzle (a cell or a unit's value with no candidate) is treated like
//! clashing givens: `Unknown` at once.
//!
//! # Budget
//! [`Limits`] are honoured: `nodes` bounds the work counted in [`Stats::nodes`] (one per
//! construction and one per local-search step), `time` the wall clock. A caller that gives
//! neither gets [`GraspOptions::default_nodes`] ([`DEFAULT_NODES`] by default), because an unbounded
//! heuristic never ends on a puzzle without solutions. [`Stats::guesses`] counts the
//! constructions (GRASP iterations) and [`Stats::propagations`] the swaps applied (plus the
//! candidate removals of the pre-propagation).
//!
//! The search is deterministic for a [`GraspOptions::seed`] (ChaCha8): under a node budget, the same
//! seed gives the same answer and the same counters on every machine.
//!
//! On the command line the backend is `grasp`, or `grasp:` followed by options, e.g.
//! `grasp:pre=FCI,alpha=3,seed=7,plateau=500,nodes=200000` (see [`Grasp::from_spec`]); a
//! solver with pre-propagation names itself `grasp+SCHEME` (e.g. `grasp+FCI`) in reports.
//!
//! # Complexity
//! With `n` the order: a construction is O(n³) (at most n² free cells, each scoring at most n
//! candidates and selecting the α cheapest in O(n)), plus O(n²) to reset the counters; a
//! local-search step finds a conflicting cell in O(1) expected draws when conflicts are common
//! (O(n²) in the worst case, a scan of the free cells), scores at most n − 1 swaps in O(1) each
//! and applies one in O(1). Memory O(n²) (O(n³/64) words for the candidates of a
//! pre-propagation). How many steps a puzzle needs is not bounded: the method is incomplete.
//!
//! # References
//! - T. A. Feo, M. G. C. Resende, "Greedy randomized adaptive search procedures", Journal of
//!   Global Optimization 6, 1995 (the method: randomized greedy construction with a restricted
//!   candidate list, then local search, repeated).
//! - K. Takano, R. de Freitas, V. G. Pereira de Sá, "O jogo de lógica Sudoku: modelagem teórica,
//!   NP-completude, algoritmos e heurísticas" (SBC, CTIC),
//!   <https://sol.sbc.org.br/index.php/ctic/article/view/10020>: its abstract proposes a GRASP
//!   for generic n×n Sudoku. Only the abstract was available, so the construction, the
//!   neighbourhood and the parameters here are this module's own reading of the method.
//! - R. Lewis, "Metaheuristics can solve Sudoku puzzles", Journal of Heuristics, 2007 (blocks
//!   filled as permutations, moves that swap two free cells of a box, cost counted on rows and
//!   columns).
//!
//! # Examples
//! ```
//! use sudokit::solve::{Answer, Limits, Outcome, Solver};
//! use sudokit::solve::grasp::{Grasp, GraspOptions};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let grasp = Grasp::new(GraspOptions { seed: 7, ..GraspOptions::default() });
//! let Answer::Solved(grid) = grasp.solve(&puzzle, &Limits::none()).unwrap().answer else {
//!     panic!("an easy 4×4 is solved");
//! };
//! assert_eq!(sudokit::verify(&puzzle, &grid), Ok(()));
//! // The puzzle is well posed, but a heuristic cannot prove it: `unique` says unknown.
//! let few = Limits::nodes(1000);
//! assert!(matches!(grasp.unique(&puzzle, &few).unwrap().outcome, Outcome::Unknown(_)));
//! ```

mod local_search;

use std::collections::HashSet;
use std::str::FromStr;

use thiserror::Error;

use local_search::Search;

use super::{Budget, CountReport, Limits, Refutation, SolveError, Solver, Stats, StopReason};
use crate::grid::Grid;
use crate::propagate::{Domains, Propagator, Scheme};
use crate::shape::MAX_ORDER;

/// The node budget of a call whose [`Limits`] give neither a time nor a node budget.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// The options of the GRASP solver. Build them with struct update syntax:
/// `GraspOptions { alpha: 3, ..GraspOptions::default() }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraspOptions {
    /// A propagation scheme run on the givens before the search (default `None`: the plain
    /// method). With `Some(scheme)` the cells the scheme fixes count as givens and the
    /// construction prefers each cell's remaining candidates; moves are not restricted.
    pub pre: Option<Scheme>,
    /// Size of the restricted candidate list: the construction draws among the `alpha` cheapest
    /// candidates of a cell (at least 1; default 2).
    pub alpha: usize,
    /// Seed of the random generator (default 0).
    pub seed: u64,
    /// Local-search steps in a row without a new lowest cost after which a descent counts as
    /// stuck and the next iteration starts (default 1000; 0 stops at the first such step).
    pub plateau: u64,
    /// Node budget when the caller's [`Limits`] give none at all (default [`DEFAULT_NODES`]).
    pub default_nodes: u64,
}

impl Default for GraspOptions {
    fn default() -> GraspOptions {
        GraspOptions {
            pre: None,
            alpha: 2,
            seed: 0,
            plateau: 1000,
            default_nodes: DEFAULT_NODES,
        }
    }
}

/// The GRASP solver; see the module docs. Its [`Solver::name`] is its registry spec: `grasp`,
/// or `grasp:` and the options that differ from the defaults (`grasp:pre=FCI:seed=3`), which
/// parses back to the same solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grasp {
    options: GraspOptions,
    name: String,
}

impl Default for Grasp {
    fn default() -> Grasp {
        Grasp::new(GraspOptions::default())
    }
}

impl Grasp {
    /// The solver with these options.
    pub fn new(options: GraspOptions) -> Grasp {
        let defaults = GraspOptions::default();
        let mut parts = Vec::new();
        if let Some(scheme) = options.pre {
            parts.push(format!("pre={}", scheme.name()));
        }
        if options.alpha != defaults.alpha {
            parts.push(format!("alpha={}", options.alpha));
        }
        if options.seed != defaults.seed {
            parts.push(format!("seed={}", options.seed));
        }
        if options.plateau != defaults.plateau {
            parts.push(format!("plateau={}", options.plateau));
        }
        if options.default_nodes != defaults.default_nodes {
            parts.push(format!("nodes={}", options.default_nodes));
        }
        let name = std::iter::once("grasp".to_string())
            .chain(parts)
            .collect::<Vec<_>>()
            .join(":");
        Grasp { options, name }
    }

    /// The options.
    pub fn options(&self) -> GraspOptions {
        self.options
    }
}

/// A bad `grasp:` option string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraspSpecError {
    /// An option other than `pre`, `alpha`, `seed`, `plateau`, `nodes`.
    #[error("unknown grasp option {0:?} (options: pre, alpha, seed, plateau, nodes)")]
    UnknownOption(String),
    /// An option without `=value`, or a value that is not a number in range.
    #[error("grasp option {option}: {value:?} is not a valid value (expected {expected})")]
    BadValue {
        /// The option.
        option: String,
        /// Its value.
        value: String,
        /// What the option takes.
        expected: &'static str,
    },
    /// An option given twice (`alpha=2,alpha=3`): which one was meant is not clear.
    #[error("grasp option {0} is given twice")]
    Repeated(String),
    /// Two separators in a row, or one at an end (`pre=FC,,`).
    #[error("an empty grasp option in {0:?} (two separators in a row, or one at an end)")]
    Empty(String),
}

impl Grasp {
    /// The solver described by the options after `grasp:`: `key=value` pairs separated by `,` or
    /// `:` (the colon form fits inside `bench --backends`, a comma-separated list). The keys are
    /// `pre` (a scheme name such as `FCI`, or `none`), `alpha` (≥ 1), `seed`, `plateau` and
    /// `nodes` (the default node budget, ≥ 1); a bare scheme name is `pre` (`grasp:FCI` is
    /// `grasp:pre=FCI`); options not given keep their defaults, and an empty string is the
    /// default solver.
    ///
    /// # Errors
    /// [`GraspSpecError`] for an unknown option or a bad value.
    ///
    /// # Examples
    /// ```
    /// use sudokit::solve::grasp::{Grasp, GraspOptions};
    /// use sudokit::propagate::Scheme;
    /// let g = Grasp::from_spec("alpha=3,seed=9:pre=FCI").unwrap().options();
    /// assert_eq!((g.alpha, g.seed, g.plateau), (3, 9, GraspOptions::default().plateau));
    /// assert_eq!(g.pre, Some(Scheme::FCI));
    /// assert_eq!(Grasp::from_spec("FCI").unwrap().options(), Grasp::from_spec("pre=FCI").unwrap().options());
    /// assert!(Grasp::from_spec("alpha=0").is_err());
    /// ```
    pub fn from_spec(spec: &str) -> Result<Grasp, GraspSpecError> {
        let mut grasp = GraspOptions::default();
        if spec.is_empty() {
            return Ok(Grasp::new(grasp));
        }
        let mut seen: Vec<String> = Vec::new();
        for item in spec.split([',', ':']) {
            if item.trim().is_empty() {
                return Err(GraspSpecError::Empty(spec.to_string()));
            }
            // A bare scheme name is the preprocessing scheme: `grasp:FCI` is `grasp:pre=FCI`.
            let item =
                if !item.contains('=') && item.trim().parse::<crate::propagate::Scheme>().is_ok() {
                    format!("pre={}", item.trim())
                } else {
                    item.to_string()
                };
            let item = item.as_str();
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            let key = key.trim();
            if seen.iter().any(|k| k == key) {
                return Err(GraspSpecError::Repeated(key.to_string()));
            }
            seen.push(key.to_string());
            if key == "pre" {
                grasp.pre = match value.trim() {
                    "none" | "NONE" => None,
                    name => Some(name.parse().map_err(|_| GraspSpecError::BadValue {
                        option: key.to_string(),
                        value: value.to_string(),
                        expected: "a scheme name such as FCI, or none",
                    })?),
                };
                continue;
            }
            if !["alpha", "seed", "plateau", "nodes"].contains(&key) {
                return Err(GraspSpecError::UnknownOption(key.to_string()));
            }
            let bad = || GraspSpecError::BadValue {
                option: key.to_string(),
                value: value.to_string(),
                expected: match key {
                    "alpha" | "nodes" => "a whole number from 1 to 18446744073709551615",
                    _ => "a whole number from 0 to 18446744073709551615",
                },
            };
            let number: u64 = value.trim().parse().map_err(|_| bad())?;
            match key {
                "alpha" if number >= 1 => {
                    grasp.alpha = usize::try_from(number).map_err(|_| bad())?
                }
                "seed" => grasp.seed = number,
                "plateau" => grasp.plateau = number,
                "nodes" if number >= 1 => grasp.default_nodes = number,
                _ => return Err(bad()),
            }
        }
        Ok(Grasp::new(grasp))
    }

    /// Runs GRASP until `wanted` distinct solutions are found or the budget runs out, and
    /// returns everything the search learnt, including the best grid seen.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above [`Solver::max_order`].
    pub fn run(&self, puzzle: &Grid, wanted: u64, limits: &Limits) -> Result<GraspRun, SolveError> {
        super::check_order(self, puzzle)?;
        let limits = if limits.time.is_none() && limits.nodes.is_none() {
            Limits {
                nodes: Some(self.options.default_nodes.max(1)),
                ..limits.clone()
            }
        } else {
            limits.clone()
        };
        let budget = Budget::start(&limits);
        let mut run = GraspRun {
            solutions: Vec::new(),
            count: 0,
            stopped: None,
            best: None,
            best_cost: u64::MAX,
            stats: Stats::default(),
        };
        if wanted == 0 {
            run.stats.elapsed = budget.elapsed();
            return Ok(run);
        }
        if puzzle.first_clash().is_some() {
            run.stopped = Some(budget_reason(&limits));
            run.stats.elapsed = budget.elapsed();
            return Ok(run);
        }
        let domains = match self.options.pre {
            None => None,
            Some(scheme) => {
                let mut domains = Domains::from_puzzle(puzzle);
                let mut engine = Propagator::new(puzzle.shape());
                let result = engine.propagate(&mut domains, scheme);
                run.stats.propagations += engine.propagations();
                if result.is_err() {
                    // The scheme refuted the puzzle; a heuristic still does not claim unsat.
                    run.stopped = Some(budget_reason(&limits));
                    run.stats.elapsed = budget.elapsed();
                    return Ok(run);
                }
                Some(domains)
            }
        };
        let start = match &domains {
            Some(d) => d.fixed_grid(),
            None => puzzle.clone(),
        };
        let mut search = Search::new(&start, domains.as_ref(), self, &budget);
        let mut seen: HashSet<Grid> = HashSet::new();
        loop {
            match search.iteration() {
                Ok(cost) => {
                    if cost < run.best_cost {
                        run.best_cost = cost;
                        run.best = Some(search.grid());
                    }
                    if cost == 0 {
                        let grid = search.grid();
                        if seen.insert(grid.clone()) {
                            run.count += 1;
                            if run.solutions.len() < 2 {
                                run.solutions.push(grid);
                            }
                            if run.count >= wanted {
                                break;
                            }
                        }
                    }
                }
                Err(reason) => {
                    run.stopped = Some(reason);
                    break;
                }
            }
        }
        let pre_propagations = run.stats.propagations;
        run.stats = Stats {
            elapsed: budget.elapsed(),
            ..search.stats
        };
        run.stats.propagations += pre_propagations;
        Ok(run)
    }
}

/// The reason a search that cannot succeed gives at once: the budget it would exhaust.
fn budget_reason(limits: &Limits) -> StopReason {
    if limits.nodes.is_some() {
        StopReason::NodeLimit
    } else {
        StopReason::TimeLimit
    }
}

/// `grasp` or `grasp:OPTIONS` (as [`Grasp::from_spec`]), the form [`Solver::name`] writes.
impl FromStr for Grasp {
    type Err = GraspSpecError;

    fn from_str(spec: &str) -> Result<Grasp, GraspSpecError> {
        match spec.strip_prefix("grasp") {
            Some("") => Ok(Grasp::default()),
            Some(rest) if rest.starts_with(':') => Grasp::from_spec(&rest[1..]),
            _ => Err(GraspSpecError::UnknownOption(spec.to_string())),
        }
    }
}

/// What one [`Grasp::run`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraspRun {
    /// The first (at most two) distinct solutions found.
    pub solutions: Vec<Grid>,
    /// Distinct solutions found: a lower bound on the number of solutions.
    pub count: u64,
    /// Set when the budget stopped the search before it found the solutions asked for.
    pub stopped: Option<StopReason>,
    /// The complete grid of lowest cost seen at the end of a descent (a solution when
    /// `best_cost` is 0); `None` when no iteration finished.
    pub best: Option<Grid>,
    /// The cost of `best` (repeated values in rows and columns); `u64::MAX` when `best` is
    /// `None`.
    pub best_cost: u64,
    /// Work done.
    pub stats: Stats,
}

impl Solver for Grasp {
    fn name(&self) -> &str {
        &self.name
    }

    fn max_order(&self) -> usize {
        MAX_ORDER
    }

    /// A heuristic never refutes: clashing givens end as a budget stop, not `unsat`.
    fn handles_clashing_givens(&self) -> bool {
        true
    }

    /// See the module docs: the count of distinct solutions found, never complete unless it
    /// reached `limit` (then `hit_limit`).
    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        let run = self.run(puzzle, limit, limits)?;
        Ok(CountReport {
            count: run.count,
            hit_limit: run.count >= limit,
            stopped: run.stopped,
            solutions: run.solutions,
            // GRASP never claims the count complete (it stops at its limit or budget).
            refutation: Refutation::Search,
            stats: run.stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::solve::{Answer, Outcome};
    use crate::text::parse_line;

    const EASY_4: &str = "...3..4114..3...";

    fn few(nodes: u64) -> Limits {
        Limits::nodes(nodes)
    }

    #[test]
    fn solves_an_easy_puzzle_and_never_claims_uniqueness() {
        let puzzle = parse_line(EASY_4, None).unwrap();
        let grasp = Grasp::default();
        match grasp.solve(&puzzle, &Limits::none()).unwrap().answer {
            Answer::Solved(g) => assert_eq!(crate::verify(&puzzle, &g), Ok(())),
            other => panic!("{other:?}"),
        }
        let report = grasp.count(&puzzle, 2, &few(2000)).unwrap();
        assert_eq!(report.count, 1);
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(!report.complete());
        assert_eq!(
            grasp.unique(&puzzle, &few(2000)).unwrap().outcome,
            Outcome::Unknown(StopReason::NodeLimit)
        );
    }

    #[test]
    fn two_distinct_solutions_prove_multiple() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        match Grasp::default()
            .unique(&empty, &few(10_000))
            .unwrap()
            .outcome
        {
            Outcome::Multiple(a, b) => {
                assert_ne!(a, b);
                assert_eq!(crate::verify(&empty, &a), Ok(()));
                assert_eq!(crate::verify(&empty, &b), Ok(()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clashing_givens_are_unknown_not_unsat() {
        let mut puzzle = Grid::empty(Shape::sudoku(2, 2).unwrap());
        puzzle.set(0, Some(1));
        puzzle.set(1, Some(1));
        let grasp = Grasp::default();
        assert_eq!(
            grasp.solve(&puzzle, &Limits::none()).unwrap().answer,
            Answer::Unknown(StopReason::NodeLimit)
        );
        let timed = Limits::time(std::time::Duration::from_millis(5));
        assert_eq!(
            grasp.unique(&puzzle, &timed).unwrap().outcome,
            Outcome::Unknown(StopReason::TimeLimit)
        );
    }

    #[test]
    fn a_latin_square_uses_rows_as_blocks() {
        let puzzle = parse_line("1...2...3...4...", Some(crate::text::ShapeSpec::Latin)).unwrap();
        match Grasp::default()
            .solve(&puzzle, &Limits::none())
            .unwrap()
            .answer
        {
            Answer::Solved(g) => assert_eq!(crate::verify(&puzzle, &g), Ok(())),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn specs_parse_and_reject() {
        assert_eq!(Grasp::from_spec("").unwrap(), Grasp::default());
        let g = Grasp::from_spec("alpha=4,seed=3:plateau=0:nodes=99")
            .unwrap()
            .options();
        assert_eq!((g.alpha, g.seed, g.plateau, g.default_nodes), (4, 3, 0, 99));
        assert!(matches!(
            Grasp::from_spec("beta=1"),
            Err(GraspSpecError::UnknownOption(_))
        ));
        assert!(matches!(
            Grasp::from_spec("alpha"),
            Err(GraspSpecError::BadValue { .. })
        ));
        assert!(Grasp::from_spec("nodes=0").is_err());
        // A repeated option or an empty one was once accepted silently.
        assert_eq!(
            Grasp::from_spec("alpha=2,alpha=3").unwrap_err(),
            GraspSpecError::Repeated("alpha".into())
        );
        for spec in ["pre=FC,,", "alpha=2,", ",alpha=2", "alpha=2::seed=1"] {
            assert!(
                matches!(Grasp::from_spec(spec), Err(GraspSpecError::Empty(_))),
                "{spec}"
            );
        }
        let pre: Grasp = "grasp:pre=hacs".parse().unwrap();
        assert_eq!(pre.options().pre, Some(Scheme::HACS));
        assert_eq!(pre.name(), "grasp:pre=HACS");
        assert_eq!(Grasp::default().name(), "grasp");
        assert_eq!("grasp".parse::<Grasp>().unwrap(), Grasp::default());
        assert_eq!(Grasp::from_spec("pre=none").unwrap().options().pre, None);
        assert!(matches!(
            Grasp::from_spec("pre=XYZ"),
            Err(GraspSpecError::BadValue { .. })
        ));
        for scheme in Scheme::ALL {
            let g = Grasp::new(GraspOptions {
                pre: Some(scheme),
                ..GraspOptions::default()
            });
            assert_eq!(g.name(), format!("grasp:pre={}", scheme.name()));
            assert_eq!(g.name().parse::<Grasp>().unwrap(), g);
        }
        let g = Grasp::new(GraspOptions {
            alpha: 3,
            seed: 9,
            plateau: 5,
            default_nodes: 77,
            pre: None,
        });
        assert_eq!(g.name(), "grasp:alpha=3:seed=9:plateau=5:nodes=77");
        assert_eq!(g.name().parse::<Grasp>().unwrap(), g);
    }

    #[test]
    fn pre_propagation_fixes_cells_and_never_claims_unsat() {
        let grasp = Grasp::new(GraspOptions {
            pre: Some(Scheme::FCI),
            ..GraspOptions::default()
        });
        // FCI alone solves this one: no construction needs a choice.
        let puzzle = parse_line(EASY_4, None).unwrap();
        let run = grasp.run(&puzzle, 1, &Limits::none()).unwrap();
        assert_eq!(run.count, 1);
        assert_eq!(crate::verify(&puzzle, &run.solutions[0]), Ok(()));
        // No clash, but row 1 needs a 3 and a 4 in its first two cells, and the 4 of box 1
        // forbids the 4 there: FCI refutes the puzzle, and the answer is still unknown.
        let refuted = parse_line("..124...........", None).unwrap();
        assert!(refuted.first_clash().is_none());
        assert_eq!(
            grasp.solve(&refuted, &few(100)).unwrap().answer,
            Answer::Unknown(StopReason::NodeLimit)
        );
    }

    #[test]
    fn a_full_grid_is_its_own_solution() {
        let puzzle = parse_line("1234341221434321", None).unwrap();
        let run = Grasp::default().run(&puzzle, 1, &Limits::none()).unwrap();
        assert_eq!(run.solutions, vec![puzzle]);
        assert_eq!(run.best_cost, 0);
    }
}
