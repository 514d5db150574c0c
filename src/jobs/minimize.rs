//! `minimize` as a job: each well-posed puzzle loses givens by committed choice (in cell order, or
//! in the random order of `(seed, i)` for puzzle `i` of its file) until it is locally minimal;
//! and the per-file table of the givens removed ([`MinimizeSummary`]).
//!
//! A record is `FILE:LINE: 30 -> 24 givens: PUZZLE` (the reduced puzzle; a grid block on the
//! lines after above order 35), or `FILE:LINE: not reduced: several solutions ...` for a puzzle
//! that is not well posed (a negative answer); as JSON the reduced puzzle's object with `"file"`,
//! `"line"`, `"status"` (`reduced`, `unsat`, `multiple`), `"before"`, `"after"`, `"removed"`,
//! `"already_minimal"`.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::item::PuzzleItem;
use super::job::Job;
use super::options::{self, OptionError};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::rounded;
use super::source::{Items, Source, puzzles_of};
use super::summary::{InputSummary, PerInput};
use crate::generate::progress::OnProgress;
use crate::generate::puzzle::{MinimizeError, Minimized, minimize_cancellable, puzzle_rng};
use crate::text::{to_json, to_text};

/// The options of `minimize`, as every front end gives them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MinimizeOptions {
    /// Remove givens in a random order drawn from this seed (puzzle `i` of a file from
    /// `(seed, i)`) instead of cell order.
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

/// A progress callback for the reduction of the puzzle at `(file, line)`.
pub type ReductionProgress = Arc<dyn Fn(&str, usize) -> Option<OnProgress> + Send + Sync>;

/// The `minimize` job; see the module docs.
pub struct MinimizeJob {
    seed: Option<u64>,
    threads: usize,
    progress: Option<ReductionProgress>,
}

impl std::fmt::Debug for MinimizeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MinimizeJob")
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl MinimizeJob {
    /// Checks `options`.
    ///
    /// # Errors
    /// `threads` of 0.
    pub fn new(options: MinimizeOptions) -> Result<MinimizeJob, OptionError> {
        Ok(MinimizeJob {
            seed: options.seed,
            threads: options::threads(options.threads)?,
            progress: None,
        })
    }

    /// This job, reporting the progress of each reduction where `progress` gives a callback.
    pub fn with_progress(mut self, progress: ReductionProgress) -> MinimizeJob {
        self.progress = Some(progress);
        self
    }
}

impl Job for MinimizeJob {
    type Item = PuzzleItem;
    type Record = MinimizeRecord;

    type Summary = PerInput<MinimizeSummary>;

    fn name(&self) -> &'static str {
        "minimize"
    }

    fn summary(&self) -> PerInput<MinimizeSummary> {
        PerInput::new(MinimizeSummary::default())
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn identity(&self) -> Value {
        json!({ "seed": self.seed })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<MinimizeRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        let progress = self
            .progress
            .as_ref()
            .and_then(|p| p(&item.file, puzzle.line));
        let mut rng = self.seed.map(|seed| puzzle_rng(seed, item.index as u64));
        let reduced = minimize_cancellable(
            &puzzle.grid,
            rng.as_mut().map(|r| r as &mut dyn rand::Rng),
            progress.as_ref(),
            Some(&control.stop),
        );
        let result = match reduced {
            Err(MinimizeError::Cancelled) => return ItemResult::Cancelled,
            Err(e @ MinimizeError::TooLarge(_)) => {
                return ItemResult::Failed(ItemError::failed(&item.file, puzzle.line, e));
            }
            other => other,
        };
        ItemResult::Done(MinimizeRecord {
            file: item.file.clone(),
            line: puzzle.line,
            result,
        })
    }
}

/// The reduction of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinimizeRecord {
    /// Its file.
    pub file: Arc<str>,
    /// Its input line.
    pub line: usize,
    /// The reduced puzzle, or why it is not well posed.
    pub result: Result<Minimized, MinimizeError>,
}

impl MinimizeRecord {
    /// The reduced puzzle, when there is one.
    pub fn reduced(&self) -> Option<&Minimized> {
        self.result.as_ref().ok()
    }
}

impl JobRecord for MinimizeRecord {
    fn grids(&self) -> Vec<crate::Grid> {
        self.reduced()
            .map(|m| m.puzzle.clone())
            .into_iter()
            .collect()
    }

    fn status(&self) -> Status {
        if self.result.is_ok() {
            Status::Done
        } else {
            Status::Negative
        }
    }

    fn text(&self) -> String {
        let (file, line) = (&self.file, self.line);
        let m = match &self.result {
            Err(e) => return format!("{file}:{line}: not reduced: {e}\n"),
            Ok(m) => m,
        };
        let what = if m.already_minimal() {
            format!("{} givens, already locally minimal", m.after)
        } else {
            format!("{} -> {} givens", m.before, m.after)
        };
        let grid = to_text(&m.puzzle);
        if grid.contains('\n') {
            format!("{file}:{line}: {what}\n{}\n", grid.trim_end())
        } else {
            format!("{file}:{line}: {what}: {grid}\n")
        }
    }

    fn json(&self) -> Value {
        let m = match &self.result {
            Err(e) => {
                let status = match e {
                    MinimizeError::Unsat => "unsat",
                    MinimizeError::Multiple => "multiple",
                    MinimizeError::TooLarge(_) | MinimizeError::Cancelled => "error",
                };
                return json!({"file": self.file.as_ref(), "line": self.line, "status": status,
                    "error": e.to_string()});
            }
            Ok(m) => m,
        };
        let mut value = to_json(&m.puzzle);
        value["file"] = json!(self.file.as_ref());
        value["line"] = json!(self.line);
        value["status"] = json!("reduced");
        value["before"] = json!(m.before);
        value["after"] = json!(m.after);
        value["removed"] = json!(m.before - m.after);
        value["already_minimal"] = json!(m.already_minimal());
        value
    }
}

/// Min, sum and max of a stream of counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountSpread {
    /// Values added.
    pub count: usize,
    /// Smallest.
    pub min: usize,
    /// Largest.
    pub max: usize,
    /// Sum.
    pub sum: usize,
}

impl CountSpread {
    /// Adds a value.
    pub fn add(&mut self, value: usize) {
        self.merge(&CountSpread {
            count: 1,
            min: value,
            max: value,
            sum: value,
        });
    }

    /// Adds another spread (another shard's).
    pub fn merge(&mut self, other: &CountSpread) {
        if other.count == 0 {
            return;
        }
        self.min = if self.count == 0 {
            other.min
        } else {
            self.min.min(other.min)
        };
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    /// `(min, average, max)`, or `None` before any value.
    pub fn get(self) -> Option<(usize, f64, usize)> {
        (self.count > 0).then(|| (self.min, self.sum as f64 / self.count as f64, self.max))
    }
}

/// The table of one file, kept as running figures (memory does not grow with the input); the
/// summaries of a file's shards add up ([`MinimizeSummary::merge`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MinimizeSummary {
    /// The file.
    pub file: String,
    /// Givens before.
    pub before: CountSpread,
    /// Givens after.
    pub after: CountSpread,
    /// Givens removed.
    pub removed: CountSpread,
    /// Puzzles already locally minimal.
    pub already_minimal: usize,
    /// Puzzles not well posed.
    pub not_well_posed: usize,
}

impl MinimizeSummary {
    /// An empty table for `file`.
    pub fn new(file: &str) -> MinimizeSummary {
        MinimizeSummary {
            file: file.to_string(),
            ..MinimizeSummary::default()
        }
    }

    /// Adds a result.
    pub fn add(&mut self, result: &ItemResult<MinimizeRecord>) {
        let ItemResult::Done(record) = result else {
            return;
        };
        match &record.result {
            Ok(m) => {
                self.before.add(m.before);
                self.after.add(m.after);
                self.removed.add(m.before - m.after);
                self.already_minimal += usize::from(m.already_minimal());
            }
            Err(_) => self.not_well_posed += 1,
        }
    }

    /// Adds another shard's table of the same file.
    pub fn merge(&mut self, other: &MinimizeSummary) {
        self.before.merge(&other.before);
        self.after.merge(&other.after);
        self.removed.merge(&other.removed);
        self.already_minimal += other.already_minimal;
        self.not_well_posed += other.not_well_posed;
    }

    /// Puzzles reduced (well posed).
    pub fn puzzles(&self) -> usize {
        self.before.count
    }

    /// The summary object of the file.
    pub fn json(&self) -> Value {
        let spread = |s: CountSpread| match s.get() {
            Some((min, avg, max)) => json!({"min": min, "avg": rounded(avg, 2), "max": max}),
            None => Value::Null,
        };
        json!({
            "file": self.file,
            "puzzles": self.puzzles(),
            "before": spread(self.before),
            "after": spread(self.after),
            "removed": spread(self.removed),
            "already_minimal": self.already_minimal,
            "not_well_posed": self.not_well_posed,
        })
    }
}

impl InputSummary<MinimizeRecord> for MinimizeSummary {
    fn add(&mut self, result: &ItemResult<MinimizeRecord>) {
        MinimizeSummary::add(self, result);
    }

    fn merge(&mut self, other: &MinimizeSummary) {
        MinimizeSummary::merge(self, other);
    }

    fn name(&mut self, input: &str) {
        self.file = input.to_string();
    }

    fn json(&self) -> Value {
        MinimizeSummary::json(self)
    }

    fn tables(inputs: &[MinimizeSummary]) -> String {
        summary_table(inputs)
    }
}

/// The closing table of the files: a blank line, a heading, one row per file.
pub fn summary_table(tables: &[MinimizeSummary]) -> String {
    let width = tables
        .iter()
        .map(|t| t.file.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = String::from("\n");
    let _ = writeln!(
        out,
        "Givens removed per file (min/avg/max), givens before and after, puzzles already locally minimal:"
    );
    let _ = writeln!(
        out,
        "{:<width$} {:>7} {:>16} {:>16} {:>16} {:>8} {:>14}",
        "file", "puzzles", "before", "after", "removed", "minimal", "not well posed"
    );
    let cell = |s: CountSpread| match s.get() {
        Some((min, avg, max)) => format!("{min}/{avg:.1}/{max}"),
        None => "-".to_string(),
    };
    for t in tables {
        let _ = writeln!(
            out,
            "{:<width$} {:>7} {:>16} {:>16} {:>16} {:>8} {:>14}",
            t.file,
            t.puzzles(),
            cell(t.before),
            cell(t.after),
            cell(t.removed),
            t.already_minimal,
            t.not_well_posed,
        );
    }
    out
}
