//! `count` as a job: the exact number of solutions of each puzzle (or of an empty grid), up to a
//! limit, each count split over the job's threads ([`count_parallel_wide`]), one puzzle at a
//! time. Counts are 128-bit: the empty grid's is `n!` times the completions of its first row,
//! past 64 bits from order 16 on; nothing is clamped.
//!
//! A record is the count, `at least N (limit)` when the limit asked for (`limit`) stopped it
//! (the answer asked for; never without a limit), or `at least N (unknown: time limit)` when a
//! budget or a stop did (a lower bound, no answer: exit 1, redone by a resumed run), or
//! `N (claimed by NAME, not checked)` for an exact count that rests on an external solver's
//! unchecked word that there is no other solution (a negative record: not the answer asked for;
//! with `require_certificate` an error in place); as JSON `{"line", "count", "complete",
//! "hit_limit", "stopped", "stats"}`, with `"certified"` and `"refutation"` on an exact count.
//!
//! An empty grid without a limit is counted only when the enumeration can finish
//! ([`enumeration_reach`]): the shapes out of its reach are refused before any search.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::census::{EmptyGridCount, EmptyGridError, empty_grid_count};
use super::control::Control;
use super::item::InputError;
use super::item::PuzzleItem;
use super::job::Job;
use super::options::{Opt, OptionError, at_least_one, said};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::{add_refutation, stats_json};
use super::solver_options::{NoOtherKeys, RunOptions, SolverOptions};
use super::source::{Items, Source, puzzles_of};
use super::summary::NoSummary;
use crate::census::{enumeration_reach, json_count};
use crate::grid::Grid;
use crate::search::{CountReport, Limits};
use crate::shape::Shape;
use crate::solve::{Solver, count_parallel_wide};

/// The options of `count`, as every front end gives them (the shared ones, [`SolverOptions`]
/// and [`RunOptions`], are flattened: their keys are this type's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CountOptions {
    /// The backend.
    #[serde(flatten)]
    pub solver: SolverOptions,
    /// The budgets per count, and the threads each count is split over.
    #[serde(flatten)]
    pub run: RunOptions,
    /// Count at most this many solutions (default: no limit).
    pub limit: Option<u64>,
    /// The order every puzzle must have (`order`); another is an error in place.
    pub order: Option<usize>,
    /// How an empty grid is counted: `auto`, `enumerate`, or a symmetry method
    /// (`band-classes`, `column-sets`, `reduced-latin`); see [`super::census`]. A puzzle is
    /// always counted by enumeration.
    pub method: String,
    /// No other key.
    #[serde(flatten)]
    pub others: NoOtherKeys,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            solver: SolverOptions::default(),
            run: RunOptions::default(),
            limit: None,
            order: None,
            method: "auto".to_string(),
            others: NoOtherKeys,
        }
    }
}

/// The `count` job; see the module docs.
pub struct CountJob {
    solver: Box<dyn Solver>,
    limit: Option<u64>,
    limits: Limits,
    pool: rayon::ThreadPool,
    order: Option<usize>,
    method: String,
    enumeration_options: bool,
    identity: Value,
}

impl std::fmt::Debug for CountJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountJob")
            .field("backend", &self.solver.name())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// The shape of the empty grid `count` counts without a puzzle file: `--box PxQ`, or
/// `--latin --order N`.
///
/// # Errors
/// Neither given, or a shape that cannot be.
pub fn empty_grid_shape(
    boxes: Option<(usize, usize)>,
    latin: bool,
    order: Option<usize>,
) -> Result<Shape, OptionError> {
    let invalid = |message: String| OptionError::Invalid {
        option: if latin { "order" } else { "box" },
        message,
    };
    match (boxes, latin, order) {
        (Some((p, q)), false, None) => Shape::sudoku(p, q).map_err(|e| invalid(e.to_string())),
        (None, true, Some(n)) => Shape::latin(n).map_err(|e| invalid(e.to_string())),
        (None, false, Some(n)) => Shape::default_for_order(n).map_err(|e| invalid(e.to_string())),
        _ => Err(OptionError::Conflict(said!(
            "give a puzzle FILE, or ",
            Opt("box"),
            " PxQ (or ",
            Opt("latin"),
            " ",
            Opt("order"),
            " N) for the empty grid",
        ))),
    }
}

impl CountJob {
    /// Checks `options` and builds the backend and the thread pool.
    ///
    /// # Errors
    /// An unknown backend, bad limits, a limit or order of 0.
    pub fn new(options: CountOptions) -> Result<CountJob, OptionError> {
        let solver = options.solver.solver()?;
        let threads = options.run.threads()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| OptionError::Invalid {
                option: "threads",
                message: format!("cannot start the worker threads: {e}"),
            })?;
        let identity = json!({
            "backend": solver.name(),
            "limit": options.limit,
            "max_order": options.solver.max_order,
            "order": options.order,
            "require_certificate": options.solver.require_certificate,
        });
        let enumeration_options = options.limit.is_some()
            || options.run.node_limit.is_some()
            || !options.solver.spec().is_default();
        Ok(CountJob {
            method: options.method,
            enumeration_options,
            limit: at_least_one("limit", options.limit)?,
            limits: options.run.limits(None)?,
            order: at_least_one("order", options.order)?,
            solver,
            pool,
            identity,
        })
    }

    /// How this job counts the empty grid of `shape` (by a symmetry method or by enumeration;
    /// see [`empty_grid_count`]).
    ///
    /// # Errors
    /// An unknown method, a symmetry method with an enumeration's options, or an enumeration
    /// without a limit that could not finish.
    pub fn empty_grid_count(&self, shape: &Shape) -> Result<EmptyGridCount, EmptyGridError> {
        empty_grid_count(
            &self.method,
            shape,
            self.enumeration_options,
            self.limit.is_some(),
        )
    }

    /// The method a puzzle file is counted with: only `auto` and `enumerate` count puzzles.
    ///
    /// # Errors
    /// A symmetry method, which counts empty grids only.
    pub fn check_puzzle_method(&self) -> Result<(), OptionError> {
        match self.method.as_str() {
            "auto" | "enumerate" => Ok(()),
            name => Err(OptionError::Conflict(said!(
                Opt("method"),
                format!(" {name} counts the empty grid: give "),
                Opt("box"),
                " PxQ or ",
                Opt("latin"),
                " ",
                Opt("order"),
                " N without FILE",
            ))),
        }
    }

    /// The order every puzzle must have (`order`): the empty grid's without input.
    pub fn order(&self) -> Option<usize> {
        self.order
    }

    /// The thread pool the counts run on (a census runs on it too).
    pub fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// The time budget and stop token of a count under `control`.
    pub fn limits(&self, control: &Control) -> Limits {
        control.limits(&self.limits)
    }

    /// Counts the solutions of one grid (the puzzle at `line`, `None` for an empty grid).
    ///
    /// # Errors
    /// The backend cannot take the grid, or the grid is empty, there is no limit and the
    /// enumeration could not finish ([`enumeration_reach`]): the message.
    pub fn count(
        &self,
        grid: &Grid,
        line: Option<usize>,
        control: &Control,
    ) -> Result<CountRecord, String> {
        let order = grid.shape().order();
        if let Some(n) = self.order
            && n != order
        {
            return Err(format!("--order {n} but the puzzle has order {order}"));
        }
        if self.limit.is_none() && grid.filled() == 0 {
            enumeration_reach(&grid.shape()).map_err(|e| e.to_string())?;
        }
        let limits = control.limits(&self.limits);
        let parts = 64 * self.pool.current_num_threads();
        let wide = self
            .pool
            .install(|| count_parallel_wide(&*self.solver, grid, self.limit, &limits, parts))
            .map_err(|e| e.to_string())?;
        Ok(CountRecord {
            line,
            count: wide.count,
            report: wide.search,
        })
    }
}

impl Job for CountJob {
    type Item = PuzzleItem;
    type Record = CountRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "count"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn identity(&self) -> Value {
        self.identity.clone()
    }

    /// One count at a time: each count is split over the threads.
    fn workers(&self) -> usize {
        1
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<CountRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        match self.count(&puzzle.grid, Some(puzzle.line), control) {
            Ok(counted) => ItemResult::Done(counted),
            Err(message) => ItemResult::Failed(ItemError::failed(&item.file, puzzle.line, message)),
        }
    }
}

/// The count of one grid.
#[derive(Debug, Clone, PartialEq)]
pub struct CountRecord {
    /// The puzzle's input line (`None` for an empty grid).
    pub line: Option<usize>,
    /// The solutions: exact when the report is complete, else a lower bound (the limit itself
    /// when the limit stopped it).
    pub count: u128,
    /// The search that made the count: whether the limit stopped it, or a budget (`stopped`),
    /// the first solutions, the refutation, the work. For an empty grid its `count` is that of
    /// the completions of the first row, `count` above being `n!` times it.
    pub report: CountReport,
}

impl CountRecord {
    /// Whether a time or node budget (or a stop) cut the count short: a lower bound, no answer.
    /// Reaching the limit is the answer asked for.
    pub fn stopped_by_budget(&self) -> bool {
        !self.report.hit_limit && self.report.stopped.is_some()
    }
}

impl JobRecord for CountRecord {
    fn grids(&self) -> Vec<crate::Grid> {
        self.report.solutions.clone()
    }

    fn status(&self) -> Status {
        if self.stopped_by_budget() {
            Status::Unknown
        } else if self.report.rests_on_claim() {
            // A claim is not the answer asked for.
            Status::Negative
        } else {
            Status::Done
        }
    }

    fn text(&self) -> String {
        let report = &self.report;
        let count = self.count;
        match (report.hit_limit, report.stopped) {
            (true, _) => format!("at least {count} (limit)\n"),
            (false, Some(reason)) => format!("at least {count} (unknown: {reason})\n"),
            (false, None) => match report.refutation.note() {
                Some(note) if report.rests_on_claim() => format!("{count} {note}\n"),
                _ => format!("{count}\n"),
            },
        }
    }

    fn json(&self) -> Value {
        let report = &self.report;
        let mut value = json!({
            "line": self.line,
            "count": json_count(self.count),
            "complete": report.complete(),
            "hit_limit": report.hit_limit,
            "stopped": report.stopped.map(|r| r.to_string()),
            "stats": stats_json(&report.stats),
        });
        if self.line.is_none() {
            // The empty grid: an enumeration up to relabelling (see `count_parallel`).
            value["method"] = json!("enumerate");
            value["symmetries"] =
                json!(["value relabelling: the first row fixed (orders 2 to 20), times n!"]);
        }
        if report.complete() {
            add_refutation(&mut value, &report.refutation);
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Refutation, StopReason};

    #[test]
    fn counts_bounds_and_claims() {
        let record = |report: CountReport| CountRecord {
            line: Some(3),
            count: u128::from(report.count),
            report,
        };
        let exact = record(CountReport {
            count: 2,
            ..CountReport::default()
        });
        assert_eq!((exact.text(), exact.status()), ("2\n".into(), Status::Done));
        let stopped = record(CountReport {
            count: 1,
            stopped: Some(StopReason::TimeLimit),
            ..CountReport::default()
        });
        assert_eq!(
            (stopped.text(), stopped.status()),
            ("at least 1 (unknown: time limit)\n".into(), Status::Unknown)
        );
        let claimed = record(CountReport {
            refutation: Refutation::Claim {
                by: "minisat".into(),
                reason: "no proof".into(),
            },
            ..CountReport::default()
        });
        assert_eq!(
            (claimed.text(), claimed.status()),
            (
                "0 (claimed by minisat, not checked)\n".into(),
                Status::Negative
            )
        );
        let text = claimed.written(true);
        assert!(text.contains("\"certified\":false"), "{text}");
    }

    #[test]
    fn the_empty_4x4_grid_has_288_completions() {
        let options = serde_json::from_value(json!({"threads": 1})).unwrap();
        let job = CountJob::new(options).unwrap();
        let shape = empty_grid_shape(Some((2, 2)), false, None).unwrap();
        let record = job
            .count(&Grid::empty(shape), None, &Control::new())
            .unwrap();
        assert_eq!(record.text(), "288\n");
        assert_eq!(record.json()["line"], Value::Null);
        assert_eq!((record.count, record.report.count), (288, 12));
        assert!(empty_grid_shape(None, false, None).is_err());
        assert_eq!(
            empty_grid_shape(None, true, Some(5)).unwrap(),
            Shape::latin(5).unwrap()
        );
    }

    #[test]
    fn empty_grids_past_64_bits_are_counted_to_the_limit_or_refused() {
        let job = |limit: Option<u64>| {
            let options = serde_json::from_value(json!({"threads": 1, "limit": limit}));
            CountJob::new(options.unwrap()).unwrap()
        };
        let sixteen = Grid::empty(Shape::sudoku(4, 4).unwrap());
        // Without a limit: refused before any search (it could not finish).
        let refused = job(None)
            .count(&sixteen, None, &Control::new())
            .unwrap_err();
        assert!(refused.contains("out of reach"), "{refused}");
        // With one: the limit, reached by 16! times three completions of the first row.
        let record = job(Some(50_000_000_000_000))
            .count(&sixteen, None, &Control::new())
            .unwrap();
        assert_eq!((record.count, record.report.count), (50_000_000_000_000, 3));
        assert!(record.report.hit_limit && record.report.stopped.is_none());
        assert_eq!(record.text(), "at least 50000000000000 (limit)\n");
        assert_eq!(record.status(), Status::Done);
        // A count stopped before it ends is a lower bound with its reason, never `(limit)`.
        let stopped = CountRecord {
            line: None,
            count: 20_922_789_888_000 * 900_000,
            report: CountReport {
                count: 900_000,
                stopped: Some(StopReason::TimeLimit),
                ..CountReport::default()
            },
        };
        assert_eq!(
            stopped.text(),
            "at least 18830510899200000000 (unknown: time limit)\n"
        );
        assert_eq!(stopped.status(), Status::Unknown);
        assert_eq!(stopped.json()["hit_limit"], false);
        assert_eq!(stopped.json()["count"], "18830510899200000000");
    }
}
