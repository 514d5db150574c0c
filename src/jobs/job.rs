//! What every job is: the [`Job`] trait (a validated configuration that turns one item into a
//! typed record), the [`JobRecord`] trait (a record's status and its text and JSON renderings),
//! the [`Status`] of a record, the [`Tally`] of a run and its exit code, and the [`Control`] that
//! stops a run from outside.
//!
//! # Examples
//! ```
//! use sudokit::jobs::{Status, Tally};
//! let mut tally = Tally::default();
//! for status in [Status::Done, Status::Unknown, Status::Done] {
//!     tally.add(status);
//! }
//! assert_eq!((tally.total, tally.unknown, tally.exit_code()), (3, 1, 1));
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::item::InputError;
use super::render::json_line;
use super::source::{Items, Source};
use super::summary::Summary;
use crate::search::{Cancel, Limits};
use crate::text::{ReadOptions, TextError};

/// A command as a library job: a validated configuration, and the work it does on one item.
///
/// The command line builds a job from its parsed flags, the Python package from keyword
/// arguments and a Dask task from its shard's description; each then hands the job and its input
/// to the [runner](super::runner::Runner), or calls [`Job::run`] itself, and places the records.
pub trait Job: Sync {
    /// One unit of input: a puzzle read from a file (or the error that replaced it), a pair of
    /// puzzle and candidate, an index.
    type Item: JobItem;
    /// The typed result of one item.
    type Record: JobRecord;

    /// The command's name (`solve`), written in the index of a resumable output.
    fn name(&self) -> &'static str;

    /// The options that shape the records, as JSON: a resumed run continues only the results of
    /// a run with the same identity. Threads and time or node budgets are left out (they change
    /// how long a result takes, or turn it `unknown`, which a resumed run redoes).
    fn identity(&self) -> Value;

    /// How many items the driver works on at a time.
    fn workers(&self) -> usize;

    /// The work on one item. `control` stops it early (its searches take
    /// [`Control::limits`]).
    fn run(&self, item: Self::Item, control: &Control) -> ItemResult<Self::Record>;

    /// What the command adds up over its records ([`NoSummary`](super::summary::NoSummary)
    /// for most).
    type Summary: Summary<Self::Record>;

    /// An empty summary.
    fn summary(&self) -> Self::Summary;

    /// The job's items from its sources (the inputs opened, or a Dask task's shards).
    ///
    /// # Errors
    /// Sources of another kind than the job reads.
    fn items(&self, sources: Vec<Source>) -> Result<Items<Self::Item>, InputError>;

    /// How input `input` is read, given the caller's `read` (verify reads its candidates, and
    /// info every puzzle, without refusing clashing givens).
    fn read_options(&self, read: ReadOptions, input: usize) -> ReadOptions {
        let _ = input;
        read
    }

    /// Notes on the options, said once before the run (which backends a cross-check left out).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// What the driver needs to know of an item besides its content.
pub trait JobItem: Send {
    /// The input line the item's record answers (1-based; the index + 1 for generated items).
    fn line(&self) -> usize;

    /// A fingerprint of the item's content, so that a resumed run checks that each kept result
    /// answers the same item.
    fn key(&self) -> u64;
}

/// A record: how it counts, and how it is written.
pub trait JobRecord: Send {
    /// How the record counts in the tally and for `--resume`.
    fn status(&self) -> Status;

    /// The record as text: whole lines, each ending in `\n`.
    fn text(&self) -> String;

    /// The record as one JSON object.
    fn json(&self) -> Value;

    /// The record as written: its text, or its JSON object on one line.
    fn render(&self, json: bool) -> String {
        if json {
            json_line(&self.json())
        } else {
            self.text()
        }
    }
}

/// The result of a job on one item.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemResult<R> {
    /// The item's record.
    Done(R),
    /// The item could not be handled: bad input, or a backend that cannot take it. Reported in
    /// place, in input order.
    Failed(ItemError),
    /// The run was stopped before the item was finished: nothing is written for it nor for any
    /// item after it, so that the output stays a prefix.
    Cancelled,
}

impl<R: JobRecord> ItemResult<R> {
    /// How the result counts (`None` when cancelled).
    pub fn status(&self) -> Option<Status> {
        match self {
            ItemResult::Done(record) => Some(record.status()),
            ItemResult::Failed(_) => Some(Status::Error),
            ItemResult::Cancelled => None,
        }
    }

    /// The result as written (empty when cancelled).
    pub fn render(&self, json: bool) -> String {
        match self {
            ItemResult::Done(record) => record.render(json),
            ItemResult::Failed(error) => error.render(json),
            ItemResult::Cancelled => String::new(),
        }
    }
}

/// An item reported in place because it could not be handled: a puzzle that cannot be read, a
/// backend that cannot take it, a candidate without a puzzle. Written `error: FILE:LINE:COLUMN:
/// message` (`error: message` without a file), or as the JSON object `{"file", "line",
/// "column", "status": "error", "error"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemError {
    /// The input the problem is in (`None` for generated items).
    pub file: Option<Arc<str>>,
    /// The line (1-based), or the index + 1 of a generated item.
    pub line: usize,
    /// The column (1-based; 1 when the whole item is at fault).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl ItemError {
    /// A puzzle of `file` that could not be read.
    pub fn read(file: &Arc<str>, error: &TextError) -> ItemError {
        ItemError {
            file: Some(file.clone()),
            line: error.line,
            column: error.column,
            message: error.kind.to_string(),
        }
    }

    /// A puzzle at `line` of `file` that was read but could not be handled.
    pub fn failed(file: &Arc<str>, line: usize, message: impl ToString) -> ItemError {
        ItemError {
            file: Some(file.clone()),
            line,
            column: 1,
            message: message.to_string(),
        }
    }

    /// The place and message: `FILE:LINE:COLUMN: message`.
    pub fn located(&self) -> String {
        match &self.file {
            Some(file) => format!("{file}:{}:{}: {}", self.line, self.column, self.message),
            None => self.message.clone(),
        }
    }
}

impl std::fmt::Display for ItemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.located())
    }
}

impl std::error::Error for ItemError {}

impl JobRecord for ItemError {
    fn status(&self) -> Status {
        Status::Error
    }

    fn text(&self) -> String {
        format!("error: {}\n", self.located())
    }

    fn json(&self) -> Value {
        json!({
            "file": self.file.as_deref(),
            "line": self.line,
            "column": self.column,
            "status": "error",
            "error": self.message,
        })
    }
}

/// How a record counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The answer asked for: a solution, a valid certificate, an exact count.
    Done,
    /// A final negative answer the command exists to detect: unsat, several solutions with
    /// uniqueness asked, an invalid candidate, a disagreement. Exit 1.
    Negative,
    /// No answer: a time or node budget ran out. Exit 1; a resumed run redoes it.
    Unknown,
    /// Bad input, or an item the backend cannot take. Exit 2; a resumed run redoes it.
    Error,
}

impl Status {
    /// Whether a resumed run keeps the record (`done` and `negative`) rather than redoing it.
    pub fn is_final(self) -> bool {
        matches!(self, Status::Done | Status::Negative)
    }

    /// The status in one word, as the index of a resumable output writes it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::Negative => "negative",
            Status::Unknown => "unknown",
            Status::Error => "error",
        }
    }

    /// The status a [`Status::word`] names.
    pub fn from_word(word: &str) -> Option<Status> {
        [
            Status::Done,
            Status::Negative,
            Status::Unknown,
            Status::Error,
        ]
        .into_iter()
        .find(|s| s.word() == word)
    }
}

/// The counts of a run, for its closing note and its exit code. Tallies of the shards of one
/// input add up ([`Tally::merge`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Records written (or kept by a resumed run).
    pub total: usize,
    /// Records of status [`Status::Done`].
    pub done: usize,
    /// Records of status [`Status::Negative`].
    pub negative: usize,
    /// Records of status [`Status::Unknown`].
    pub unknown: usize,
    /// Records of status [`Status::Error`].
    pub errors: usize,
}

impl Tally {
    /// Counts one record.
    pub fn add(&mut self, status: Status) {
        self.total += 1;
        match status {
            Status::Done => self.done += 1,
            Status::Negative => self.negative += 1,
            Status::Unknown => self.unknown += 1,
            Status::Error => self.errors += 1,
        }
    }

    /// Adds the counts of another run (another shard of the same input).
    pub fn merge(&mut self, other: &Tally) {
        self.total += other.total;
        self.done += other.done;
        self.negative += other.negative;
        self.unknown += other.unknown;
        self.errors += other.errors;
    }

    /// The exit code of a finished run: 2 if any item was bad input, else 1 if any answer was
    /// negative or unknown, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.negative + self.unknown > 0 {
            1
        } else {
            0
        }
    }

    /// The closing note when some items gave an error (`what`: "puzzles", "pairs"): `3 of 95
    /// puzzles gave an error (reported in place, in input order)`.
    pub fn errors_note(&self, what: &str) -> Option<String> {
        (self.errors > 0).then(|| {
            format!(
                "{} of {} {what} gave an error (reported in place, in input order)",
                self.errors, self.total
            )
        })
    }
}

/// How a run is stopped from outside: a front end's signal handler, its `--timeout`, or a closed
/// output. Cloning shares the tokens.
#[derive(Debug, Clone, Default)]
pub struct Control {
    /// Stops the batch before its next item (the items in flight finish).
    pub stop: Cancel,
    /// Stops the searches in flight too (they answer `unknown (cancelled)`).
    pub abort: Cancel,
    /// No item starts after this instant, and every search's time budget ends at it (so the
    /// items in flight end `unknown (time limit)`).
    pub deadline: Option<Instant>,
}

impl Control {
    /// A control that never stops anything by itself.
    pub fn new() -> Control {
        Control::default()
    }

    /// This control with a deadline.
    pub fn with_deadline(mut self, deadline: Instant) -> Control {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the run must start no more items: stopped, aborted, or past the deadline.
    pub fn stopped(&self) -> bool {
        self.stop.is_cancelled() || self.abort.is_cancelled() || self.expired()
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `limits` under this control: the abort token as their stop token, and the time budget
    /// cut to what is left before the deadline (zero once it has passed, so a search started
    /// late answers `unknown (time limit)` at once).
    pub fn limits(&self, limits: &Limits) -> Limits {
        Limits {
            time: self.time(limits.time),
            nodes: limits.nodes,
            cancel: Some(self.abort.clone()),
        }
    }

    /// A time budget cut to what is left before the deadline.
    pub fn time(&self, time: Option<Duration>) -> Option<Duration> {
        let Some(deadline) = self.deadline else {
            return time;
        };
        let left = deadline.saturating_duration_since(Instant::now());
        Some(time.map_or(left, |t| t.min(left)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_code_puts_errors_first() {
        let mut tally = Tally::default();
        tally.add(Status::Done);
        assert_eq!(tally.exit_code(), 0);
        tally.add(Status::Negative);
        assert_eq!(tally.exit_code(), 1);
        tally.add(Status::Error);
        assert_eq!(tally.exit_code(), 2);
        assert_eq!(
            tally.errors_note("puzzles").unwrap(),
            "1 of 3 puzzles gave an error (reported in place, in input order)"
        );
        let mut sum = Tally::default();
        sum.merge(&tally);
        sum.merge(&tally);
        assert_eq!((sum.total, sum.errors), (6, 2));
    }

    #[test]
    fn statuses_round_trip_through_their_words() {
        for status in [
            Status::Done,
            Status::Negative,
            Status::Unknown,
            Status::Error,
        ] {
            assert_eq!(Status::from_word(status.word()), Some(status));
        }
        assert!(Status::Negative.is_final() && !Status::Unknown.is_final());
    }

    #[test]
    fn a_deadline_clips_the_budget() {
        let control = Control::new().with_deadline(Instant::now());
        assert!(control.stopped());
        let limits = control.limits(&Limits::time(Duration::from_secs(5)));
        assert_eq!(limits.time, Some(Duration::ZERO));
        assert!(limits.cancel.is_some());
        assert_eq!(Control::new().time(None), None);
    }
}
