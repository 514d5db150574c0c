//! `mip`: the 0-1 integer program of [`crate::encode::ilp`] solved through good_lp, with microlp
//! (pure Rust) as the solver; the same model and loop drive `highs` (`solve::highs`, behind the
//! cargo feature `highs`).
//!
//! # Model
//! The rows of [`Ilp::rows`] (one `= 1` per cell, per row and value, per column and value, per
//! box and value, and one per given), with the givens substituted: only the variables `x(r,c,v)`
//! of empty cells that [`allowed`] leaves open exist; a given's own variable is the constant 1
//! and every other variable is the constant 0. Each row then reads `sum(open) = 1 - (fixed ones)`;
//! a row with nothing open and right-hand side 0 is dropped, and a row whose right-hand side is
//! negative (two equal givens in a unit) or that has nothing open but still asks for 1 (an empty
//! cell, or a value of a unit, with no place left) is infeasible before any solver runs, so the
//! puzzle is unsatisfiable. Substitution is plain presolve: on a typical 9×9 with 25 givens it
//! leaves about 200 of the 729 variables, so microlp's simplex works on a quarter of the columns.
//! The objective is 0, so any feasible point is optimal and both solvers stop at the first one.
//!
//! # Counting: no-good cuts
//! For each 0-1 solution `x*` found, the cut `sum_{x*=1} x <= (#ones - 1)` (over the open
//! variables) removes exactly that point, and the program is solved again, until it is infeasible
//! (the count is complete) or the count reaches its limit. Each re-solve builds the good_lp model
//! anew (model building is linear in the size; the solve dominates). This is the PuLP Sudoku
//! example's loop. Every solution is decoded with [`decode`] (values within the solver's
//! integrality tolerance, 1e-5, are snapped to 0 or 1 first; a value further off is an error, not a
//! guess) and checked by the certificate verifier before it is counted.
//!
//! # Limits: what is bounded
//! - Time and cancellation: the remaining time is passed to every solve (microlp
//!   `SolveOptions::time_limit`, HiGHS `time_limit`), and the budget is checked again between
//!   re-solves. microlp reads its clock only every thousand simplex pivots and neither solver
//!   takes a stop token, so each solve (model building included) runs detached
//!   (`solve::detached`): the call returns at the deadline or on cancellation, and the abandoned
//!   solve ends at the solver's next clock check.
//! - Nodes: [`Stats::nodes`] counts, per solve, the root LP plus the branch-and-bound nodes the
//!   solver reports (microlp `nodes_solved`, HiGHS `mip_node_count`). The remaining budget goes to
//!   the solver (microlp `SolveOptions::node_limit`, HiGHS `mip_max_nodes`) and is checked between
//!   re-solves. An infeasible microlp solve reports no counters, so it adds its root only.
//! - A solve stopped by a limit without a solution answers `Unknown` (the count is a lower bound);
//!   an incumbent found before the stop is a real (verified) solution and counts.
//!
//! [`Stats::guesses`] are the branch-and-bound nodes (branches), [`Stats::propagations`] the
//! variables fixed by substitution (`n³ - open`).
//!
//! # Complexity
//! Building the model is O(n³) per solve plus the cuts (O(n²) each); each solve is a
//! branch and bound over LP relaxations, exponential in the worst case. Counting `k` solutions
//! takes `k + 1` solves.
//!
//! # References
//! - A. Bartlett, T. Chartier, A. Langville, T. Rankin, "An integer programming model for the
//!   Sudoku problem", Journal of Online Mathematics and its Applications 8, 2008.
//! - E. Balas, R. Jeroslow, "Canonical cuts on the unit hypercube", SIAM Journal on Applied
//!   Mathematics 23 (1972) 61–69 (the no-good cut).
//! - The PuLP documentation's Sudoku case study (enumerating all solutions by adding cuts).
//!
//! # Examples
//! ```
//! use sudokit::solve::{backend, Limits, Outcome};
//! use sudokit::text::parse_line;
//! let mip = backend("mip").unwrap();
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! assert!(matches!(mip.unique(&puzzle, &Limits::none()).unwrap().outcome, Outcome::Unique(_)));
//! let empty = sudokit::Grid::empty(sudokit::Shape::sudoku(2, 2).unwrap());
//! assert_eq!(mip.count(&empty, 5, &Limits::none()).unwrap().count, 5);
//! ```

use std::sync::Arc;

use good_lp::{Expression, ProblemVariables, SolverModel, Variable, variable};

use crate::encode::ilp::{Ilp, IlpSolution, IlpStatus, decode, var_name};
use crate::encode::{allowed, x_index};
use crate::grid::Grid;
use crate::search::Budget;
use crate::solve::detached::run_detached;
use crate::solve::{
    CountReport, Limits, Refutation, SolveError, Solver, Stats, StopReason, verified,
};

/// The largest order the MIP backends accept: `n³` binaries for microlp's dense LU and HiGHS
/// alike; 25×25 (15625 variables before substitution) is already a slow solve.
pub const MIP_MAX_ORDER: usize = 64;

/// Values closer than this to 0 or 1 are read as 0 or 1 (microlp's integrality rounding).
const SNAP: f64 = 1e-5;

/// The 0-1 program of a puzzle with the givens substituted (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct Reduced {
    /// The open variables `(r, c, v)`, 0-based; a variable's position is its column.
    pub(crate) open: Vec<(usize, usize, usize)>,
    /// Rows `sum(columns) = rhs`.
    pub(crate) rows: Vec<(Vec<usize>, f64)>,
    /// `n³`.
    pub(crate) all: usize,
}

impl Reduced {
    /// The program of `puzzle`, or `None` when substitution alone shows it infeasible.
    pub(crate) fn new(puzzle: &Grid) -> Option<Reduced> {
        let shape = puzzle.shape();
        let n = shape.order();
        let allowed = allowed(puzzle);
        let mut column = vec![usize::MAX; n * n * n];
        let mut open = Vec::new();
        for cell in 0..shape.cells() {
            if puzzle.get(cell).is_some() {
                continue;
            }
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            for v in 0..n {
                let i = x_index(n, r, c, v);
                if allowed[i] {
                    column[i] = open.len();
                    open.push((r, c, v));
                }
            }
        }
        let mut rows = Vec::new();
        for row in Ilp::new(puzzle).rows() {
            let mut ones = 0i64;
            let mut vars = Vec::new();
            for &(r, c, v) in &row.vars {
                match puzzle.at(r, c) {
                    Some(g) => ones += i64::from(g == v),
                    None => {
                        let k = column[x_index(n, r, c, v)];
                        if k != usize::MAX {
                            vars.push(k);
                        }
                    }
                }
            }
            let rhs = 1 - ones;
            match (vars.is_empty(), rhs) {
                (_, rhs) if rhs < 0 => return None,
                (true, 0) => {}
                (true, _) => return None,
                (false, rhs) => rows.push((vars, rhs as f64)),
            }
        }
        Some(Reduced {
            open,
            rows,
            all: n * n * n,
        })
    }

    /// The good_lp variables and objective-0 problem with every row and cut added, for `solver`.
    pub(crate) fn build<S: good_lp::Solver>(
        &self,
        cuts: &[Vec<usize>],
        solver: S,
    ) -> (S::Model, Vec<Variable>) {
        let mut vars = ProblemVariables::new();
        let xs = vars.add_vector(variable().binary(), self.open.len());
        let mut model = vars.minimise(Expression::default()).using(solver);
        for (columns, rhs) in &self.rows {
            let sum: Expression = columns.iter().map(|&k| xs[k]).sum();
            model.add_constraint(sum.eq(*rhs));
        }
        for cut in cuts {
            let sum: Expression = cut.iter().map(|&k| xs[k]).sum();
            model.add_constraint(sum.leq((cut.len() - 1) as f64));
        }
        (model, xs)
    }
}

/// What one solve of the program (with its cuts) gave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Once {
    /// A solution: the values of the open variables, in column order.
    Found(Vec<f64>),
    /// No solution.
    Infeasible,
    /// A limit stopped the solver before it found a solution.
    Stopped(StopReason),
}

/// One solve with its node count (root included) and branch-and-bound nodes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Solved {
    /// The answer.
    pub(crate) once: Once,
    /// Nodes: 1 for the root plus `branched`.
    pub(crate) nodes: u64,
    /// Branch-and-bound nodes below the root.
    pub(crate) branched: u64,
}

/// A MIP solver behind good_lp: one solve of `model` plus `cuts` within the remaining budget.
pub(crate) trait MipEngine {
    /// The backend's name.
    fn backend(&self) -> &str;

    /// Solves once, within what is left of `budget` (the solver gets the remaining time and
    /// the caller returns at the deadline or a cancellation; see [`run_detached`]);
    /// `branch_nodes`: remaining branch-and-bound nodes.
    ///
    /// # Errors
    /// [`SolveError::Backend`] when the solver fails for a reason other than a limit.
    fn solve_once(
        &self,
        model: &Arc<Reduced>,
        cuts: &[Vec<usize>],
        budget: &Budget,
        branch_nodes: Option<u64>,
    ) -> Result<Solved, SolveError>;
}

/// Counts solutions by no-good cuts with `engine` (the shared loop of `mip` and `highs`).
pub(crate) fn count_with(
    engine: &(impl MipEngine + Solver),
    puzzle: &Grid,
    limit: u64,
    limits: &Limits,
) -> Result<CountReport, SolveError> {
    let budget = Budget::start(limits);
    let mut stats = Stats::default();
    let report = |count, hit_limit, stopped, solutions, stats: Stats| CountReport {
        count,
        hit_limit,
        stopped,
        solutions,
        refutation: Refutation::Search,
        stats: Stats {
            elapsed: budget.elapsed(),
            ..stats
        },
    };
    let Some(model) = Reduced::new(puzzle) else {
        // Propagating the givens left a cell or a unit's value without a place.
        return Ok(CountReport {
            refutation: Refutation::Propagation,
            ..report(0, false, None, Vec::new(), stats)
        });
    };
    let model = Arc::new(model);
    stats.propagations = (model.all - model.open.len()) as u64;
    if limit == 0 {
        return Ok(report(0, true, None, Vec::new(), stats));
    }
    if model.open.is_empty() {
        // Every cell given and no row broken: the puzzle is its own (only) solution.
        let grid = verified(engine.backend(), puzzle, puzzle.clone())?;
        stats.nodes = 1;
        return Ok(report(1, limit == 1, None, vec![grid], stats));
    }
    let mut cuts: Vec<Vec<usize>> = Vec::new();
    let mut solutions = Vec::new();
    let mut count = 0u64;
    loop {
        if count >= limit {
            return Ok(report(count, true, None, solutions, stats));
        }
        if let Some(reason) = budget.interrupted() {
            return Ok(report(count, false, Some(reason), solutions, stats));
        }
        // One node for the root, the rest for branch and bound.
        let branch_nodes = match limits.nodes {
            Some(max) if stats.nodes >= max => {
                let stop = Some(StopReason::NodeLimit);
                return Ok(report(count, false, stop, solutions, stats));
            }
            Some(max) => Some(max - stats.nodes - 1),
            None => None,
        };
        let solved = engine.solve_once(&model, &cuts, &budget, branch_nodes)?;
        stats.nodes += solved.nodes;
        stats.guesses += solved.branched;
        match solved.once {
            Once::Infeasible => return Ok(report(count, false, None, solutions, stats)),
            Once::Stopped(reason) => {
                return Ok(report(count, false, Some(reason), solutions, stats));
            }
            Once::Found(values) => {
                let grid = read_grid(engine.backend(), puzzle, &model, &values)?;
                count += 1;
                let cut: Vec<usize> = (0..model.open.len()).filter(|&k| values[k] > 0.5).collect();
                cuts.push(cut);
                if solutions.len() < 2 {
                    solutions.push(grid);
                }
            }
        }
    }
}

/// The first 0-1 point of a program, as the solver returned it (see [`Mip::first_point`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PointReport {
    /// The point: every open variable with its value (snapped to 0 or 1 within the solver's
    /// tolerance) and every given's variable at 1; variables not listed are 0 by substitution.
    /// `None` when the program is infeasible or a limit stopped the solver.
    pub point: Option<IlpSolution>,
    /// Substitution alone showed the program infeasible (no solver run).
    pub presolved: bool,
    /// The limit that stopped the solver, if one did.
    pub stopped: Option<StopReason>,
    /// Nodes (root LP plus branch and bound), branches, variables fixed by substitution, time.
    pub stats: Stats,
}

/// Solves the program of `puzzle` once with `engine` and returns the 0-1 point itself (not a
/// grid): the input of [`crate::reduce::encodings::SudokuToIlp`]'s target check and back-map.
///
/// # Errors
/// [`SolveError::Backend`] when the solver fails for a reason other than a limit.
pub(crate) fn first_point_with(
    engine: &impl MipEngine,
    puzzle: &Grid,
    limits: &Limits,
) -> Result<PointReport, SolveError> {
    let budget = Budget::start(limits);
    let mut report = PointReport {
        point: None,
        presolved: false,
        stopped: None,
        stats: Stats::default(),
    };
    let Some(model) = Reduced::new(puzzle) else {
        report.presolved = true;
        report.stats.elapsed = budget.elapsed();
        return Ok(report);
    };
    let model = Arc::new(model);
    report.stats.propagations = (model.all - model.open.len()) as u64;
    let values = if model.open.is_empty() {
        report.stats.nodes = 1;
        Some(Vec::new())
    } else {
        let nodes = limits.nodes.map(|max| max.saturating_sub(1));
        let solved = engine.solve_once(&model, &[], &budget, nodes)?;
        report.stats.nodes = solved.nodes;
        report.stats.guesses = solved.branched;
        match solved.once {
            Once::Found(values) => Some(values),
            Once::Infeasible => None,
            Once::Stopped(reason) => {
                report.stopped = Some(reason);
                None
            }
        }
    };
    report.point = values.map(|values| named_point(puzzle, &model, &values));
    report.stats.elapsed = budget.elapsed();
    Ok(report)
}

/// The named 0-1 point of a solution of the substituted program: the open variables' values
/// (snapped within [`SNAP`]) and the givens' variables at 1.
fn named_point(puzzle: &Grid, model: &Reduced, values: &[f64]) -> IlpSolution {
    let snap = |x: f64| {
        if x.abs() <= SNAP {
            0.0
        } else if (x - 1.0).abs() <= SNAP {
            1.0
        } else {
            x
        }
    };
    let mut named: Vec<(String, f64)> = model
        .open
        .iter()
        .zip(values)
        .map(|(&(r, c, v), &x)| (var_name(r, c, v), snap(x)))
        .collect();
    let shape = puzzle.shape();
    named.extend(
        puzzle
            .givens()
            .map(|(cell, v)| (var_name(shape.row_of(cell), shape.col_of(cell), v), 1.0)),
    );
    IlpSolution {
        status: IlpStatus::Optimal,
        values: named,
    }
}

/// The verified grid of a solution, decoded by the ILP decoder.
fn read_grid(
    backend: &str,
    puzzle: &Grid,
    model: &Reduced,
    values: &[f64],
) -> Result<Grid, SolveError> {
    let solution = named_point(puzzle, model, values);
    let grid = decode(puzzle, &solution).map_err(|e| SolveError::Backend {
        backend: backend.to_string(),
        message: format!("its solution does not decode: {e}"),
    })?;
    verified(backend, puzzle, grid)
}

/// The `mip` backend: the substituted 0-1 program, solved by microlp through good_lp.
///
/// microlp is a pure-Rust simplex with branch and bound; it is exact but slow on large grids
/// (see BENCHMARKS.md). Both limits of [`Limits`] reach the solver (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Mip;

impl Solver for Mip {
    fn name(&self) -> &str {
        "mip"
    }

    fn max_order(&self) -> usize {
        MIP_MAX_ORDER
    }

    fn search(
        &self,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, SolveError> {
        count_with(self, puzzle, limit, limits)
    }
}

/// A backend that finds the first 0-1 point of the Sudoku's ILP (the `mip` and `highs`
/// families): the ILP level of the reduction chain asks the registry for one by name
/// ([`registry::point_solver`](super::registry::point_solver)).
pub trait PointSolver: Send + Sync {
    /// The program that solves the ILP, as the chain names it (`microlp`, `highs`).
    fn program(&self) -> &'static str;

    /// The first 0-1 point of the program of `puzzle` (see [`PointReport`]).
    ///
    /// # Errors
    /// [`SolveError::Backend`] when the solver fails for a reason other than a limit.
    fn first_point(&self, puzzle: &Grid, limits: &Limits) -> Result<PointReport, SolveError>;
}

impl PointSolver for Mip {
    fn program(&self) -> &'static str {
        "microlp"
    }

    fn first_point(&self, puzzle: &Grid, limits: &Limits) -> Result<PointReport, SolveError> {
        first_point_with(self, puzzle, limits)
    }
}

impl Mip {
    /// The first 0-1 point of the program of `puzzle` (see [`PointReport`]); the time and node
    /// limits reach microlp as in [`Solver::count`].
    ///
    /// # Errors
    /// [`SolveError::Backend`] when microlp fails for a reason other than a limit.
    pub fn first_point(&self, puzzle: &Grid, limits: &Limits) -> Result<PointReport, SolveError> {
        first_point_with(self, puzzle, limits)
    }
}

impl MipEngine for Mip {
    fn backend(&self) -> &str {
        "mip"
    }

    fn solve_once(
        &self,
        model: &Arc<Reduced>,
        cuts: &[Vec<usize>],
        budget: &Budget,
        branch_nodes: Option<u64>,
    ) -> Result<Solved, SolveError> {
        let mut options = microlp::SolveOptions::default();
        options.time_limit = budget.remaining();
        options.node_limit = branch_nodes;
        let (model, cuts) = (Arc::clone(model), cuts.to_vec());
        // Building the model is on the detached thread too: on a 25×25 it takes a tenth of a
        // second.
        let solve = move || {
            let (problem, _) = model.build(&cuts, good_lp::microlp);
            // good_lp builds the microlp problem; solving the inner problem directly passes the
            // node limit (good_lp exposes only the time limit) and reads microlp's node counter.
            problem.as_inner().solve_with(options)
        };
        let outcome = match run_detached(budget, solve) {
            Err(reason) => {
                return Ok(Solved {
                    once: Once::Stopped(reason),
                    nodes: 1,
                    branched: 0,
                });
            }
            Ok(Ok(outcome)) => outcome,
            Ok(Err(microlp::Error::Infeasible)) => {
                return Ok(Solved {
                    once: Once::Infeasible,
                    nodes: 1,
                    branched: 0,
                });
            }
            Ok(Err(e)) => {
                return Err(SolveError::Backend {
                    backend: "mip".into(),
                    message: e.to_string(),
                });
            }
        };
        let branched = outcome.stats().nodes_solved;
        let once = match outcome {
            microlp::SolveOutcome::Solution(solution) => {
                Once::Found(solution.iter().map(|(_, x)| x).collect())
            }
            microlp::SolveOutcome::Interrupted(interrupted) => {
                Once::Stopped(match interrupted.termination_reason() {
                    microlp::TerminationReason::NodeLimit => StopReason::NodeLimit,
                    _ => StopReason::TimeLimit,
                })
            }
        };
        Ok(Solved {
            once,
            nodes: 1 + branched,
            branched,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;
    use crate::text::parse_line;

    #[test]
    fn substitution_keeps_only_open_variables() {
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        let model = Reduced::new(&puzzle).unwrap();
        let open = allowed(&puzzle)
            .iter()
            .enumerate()
            .filter(|&(i, &a)| a && puzzle.get(i / 4).is_none())
            .count();
        assert_eq!(model.open.len(), open);
        assert!(model.open.len() < 64);
        // Every row asks for exactly one of its open variables.
        assert!(
            model
                .rows
                .iter()
                .all(|(vars, rhs)| !vars.is_empty() && *rhs == 1.0)
        );
        // The empty grid keeps all n³ variables and the 4n² rows.
        let empty = Reduced::new(&Grid::empty(Shape::sudoku(2, 2).unwrap())).unwrap();
        assert_eq!((empty.open.len(), empty.rows.len()), (64, 64));
    }

    #[test]
    fn clashing_givens_are_infeasible_before_solving() {
        let mut puzzle = Grid::empty(Shape::sudoku(2, 2).unwrap());
        puzzle.set(0, Some(1));
        puzzle.set(3, Some(1));
        assert!(Reduced::new(&puzzle).is_none());
        let report = Mip.count(&puzzle, 10, &Limits::none()).unwrap();
        assert_eq!((report.count, report.complete()), (0, true));
    }

    #[test]
    fn cuts_enumerate_distinct_solutions() {
        let empty = Grid::empty(Shape::sudoku(1, 3).unwrap());
        let report = Mip.count(&empty, u64::MAX, &Limits::none()).unwrap();
        // The 12 Latin squares of order 3 (the 1×3 boxes are the rows).
        assert_eq!((report.count, report.complete()), (12, true));
        assert_ne!(report.solutions[0], report.solutions[1]);
        assert!(report.stats.nodes >= 13, "{:?}", report.stats);
        assert_eq!(report.stats.propagations, 0);
    }

    #[test]
    fn a_node_budget_stops_between_solves() {
        let empty = Grid::empty(Shape::sudoku(1, 3).unwrap());
        let limits = Limits::nodes(3);
        let report = Mip.count(&empty, u64::MAX, &limits).unwrap();
        assert_eq!(report.stopped, Some(StopReason::NodeLimit));
        assert!(report.count < 12 && report.stats.nodes <= 3, "{report:?}");
    }
}
