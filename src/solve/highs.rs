//! `highs` (cargo feature `highs`): the `mip` backend's model and no-good-cut loop
//! ([`super::mip`]) with HiGHS, the open-source MIP solver, as the solver.
//!
//! good_lp builds the HiGHS model; the model is then solved through the `highs` crate directly,
//! so that the node budget (`mip_max_nodes`) reaches the solver and the node count
//! (`mip_node_count`) reaches [`Stats`](crate::solve::Stats), neither of which good_lp exposes.
//! The remaining time goes to HiGHS's `time_limit`, and the solve runs detached
//! (`solve::detached`) so that a cancellation returns at once; HiGHS runs quietly. Limits and statistics
//! are as described in [`super::mip`]: a solve stopped by a limit without a solution answers
//! `Unknown`, and an infeasible answer is `Unsat`.
//!
//! Without the feature, `--backend highs` is refused with the command that enables it
//! ([`UnknownBackend::NotCompiled`](crate::solve::UnknownBackend::NotCompiled)).
//!
//! # Complexity
//! As [`super::mip`]; HiGHS adds presolve, cutting planes and primal heuristics to the branch and
//! bound, and most 9×9 puzzles solve at the root.
//!
//! # References
//! - Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex method", Mathematical
//!   Programming Computation 10 (2018) 119–142 (HiGHS's simplex).
//! - HiGHS options and info: <https://ergo-code.github.io/HiGHS/dev/options/definitions/>.
//!
//! # Examples
//! ```
//! use sudokit::solve::{backend, Answer, Limits};
//! use sudokit::text::parse_line;
//! let highs = backend("highs").unwrap();
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! assert!(matches!(highs.solve(&puzzle, &Limits::none()).unwrap().answer, Answer::Solved(_)));
//! ```

use std::sync::Arc;
use std::time::Duration;

use ::highs::{HighsModelStatus, HighsSolutionStatus};

use crate::grid::Grid;
use crate::search::Budget;
use crate::solve::detached::run_detached;
use crate::solve::mip::{
    MIP_MAX_ORDER, MipEngine, Once, PointReport, Reduced, Solved, count_with, first_point_with,
};
use crate::solve::{CountReport, Limits, SolveError, Solver, StopReason};

/// The `highs` backend: the substituted 0-1 program, solved by HiGHS.
#[derive(Debug, Clone, Copy, Default)]
pub struct Highs;

impl Solver for Highs {
    fn name(&self) -> &str {
        "highs"
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

impl super::mip::PointSolver for Highs {
    fn program(&self) -> &'static str {
        "highs"
    }

    fn first_point(&self, puzzle: &Grid, limits: &Limits) -> Result<PointReport, SolveError> {
        first_point_with(self, puzzle, limits)
    }
}

impl Highs {
    /// The first 0-1 point of the program of `puzzle` (see [`PointReport`]).
    ///
    /// # Errors
    /// [`SolveError::Backend`] when HiGHS fails for a reason other than a limit.
    pub fn first_point(&self, puzzle: &Grid, limits: &Limits) -> Result<PointReport, SolveError> {
        first_point_with(self, puzzle, limits)
    }
}

/// A HiGHS failure as a typed error.
fn failure(message: String) -> SolveError {
    SolveError::Backend {
        backend: "highs".into(),
        message,
    }
}

impl MipEngine for Highs {
    fn backend(&self) -> &str {
        "highs"
    }

    fn solve_once(
        &self,
        model: &Arc<Reduced>,
        cuts: &[Vec<usize>],
        budget: &Budget,
        branch_nodes: Option<u64>,
    ) -> Result<Solved, SolveError> {
        let (model, cuts, time) = (Arc::clone(model), cuts.to_vec(), budget.remaining());
        // HiGHS takes no stop token: the solve runs detached, so a cancellation returns at once.
        match run_detached(budget, move || solve(&model, &cuts, time, branch_nodes)) {
            Ok(solved) => solved,
            Err(reason) => Ok(Solved {
                once: Once::Stopped(reason),
                nodes: 1,
                branched: 0,
            }),
        }
    }
}

/// One HiGHS solve of `model` with `cuts`, within `time` and `branch_nodes`.
fn solve(
    model: &Reduced,
    cuts: &[Vec<usize>],
    time: Option<Duration>,
    branch_nodes: Option<u64>,
) -> Result<Solved, SolveError> {
    let (problem, _) = model.build(cuts, good_lp::highs);
    let mut inner = problem
        .try_into_inner()
        .map_err(|e| failure(e.to_string()))?;
    if let Some(time) = time {
        inner
            .try_set_option("time_limit", time.as_secs_f64())
            .map_err(|e| failure(format!("setting time_limit: {e:?}")))?;
    }
    if let Some(nodes) = branch_nodes {
        // HiGHS counts the root among its nodes; `mip_max_nodes` is a 32-bit option.
        let max = i32::try_from(nodes.saturating_add(1)).unwrap_or(i32::MAX);
        inner
            .try_set_option("mip_max_nodes", max)
            .map_err(|e| failure(format!("setting mip_max_nodes: {e:?}")))?;
    }
    let solved = inner
        .try_solve()
        .map_err(|e| failure(format!("solving: {e:?}")))?;
    let nodes = solved
        .int_info_value(c"mip_node_count")
        .ok()
        .and_then(|n| u64::try_from(n).ok())
        .unwrap_or(0)
        .max(1);
    let has_solution = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let once = match solved.status() {
        // All variables are binary and the objective is 0, so "unbounded" is impossible.
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => Once::Infeasible,
        HighsModelStatus::Optimal
        | HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedSolutionLimit
            if has_solution =>
        {
            Once::Found(solved.get_solution().columns().to_vec())
        }
        HighsModelStatus::ReachedTimeLimit => Once::Stopped(StopReason::TimeLimit),
        // `mip_max_nodes` ends the search with the solution-limit status.
        HighsModelStatus::ReachedSolutionLimit => Once::Stopped(StopReason::NodeLimit),
        other => return Err(failure(format!("HiGHS ended with status {other:?}"))),
    };
    Ok(Solved {
        once,
        nodes,
        branched: nodes - 1,
    })
}
