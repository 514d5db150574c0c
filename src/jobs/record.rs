//! What a job's result is: the [`JobRecord`] trait (a record's status and its text and JSON
//! renderings), the [`Status`] it counts as, the [`ItemResult`] of one item (a record, an
//! [`ItemError`] reported in place, or a cancelled item), and what a runner needs to know of an
//! item ([`JobItem`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::record_text::json_line;
use crate::text::TextError;

/// What the runner needs to know of an item besides its content.
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

    /// The grids the record carries (a solution and a second one, the first solutions counted,
    /// a reduced or generated puzzle), for a front end that hands them on as values; none by
    /// default.
    fn grids(&self) -> Vec<crate::Grid> {
        Vec::new()
    }

    /// The record as written: its text, or its JSON object on one line.
    fn written(&self, json: bool) -> String {
        if json {
            json_line(&self.json())
        } else {
            self.text()
        }
    }

    /// Appends the record as written ([`JobRecord::written`]) to `out`, a buffer a writer
    /// reuses from record to record. A record that can write itself without a string of its
    /// own overrides it (a solution's line).
    fn write_into(&self, json: bool, out: &mut String) {
        out.push_str(&self.written(json));
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

    /// Appends the result as written ([`ItemResult::written`]) to `out`, a buffer a writer
    /// reuses.
    pub fn write_into(&self, json: bool, out: &mut String) {
        match self {
            ItemResult::Done(record) => record.write_into(json, out),
            ItemResult::Failed(error) => out.push_str(&error.written(json)),
            ItemResult::Cancelled => {}
        }
    }

    /// The result as written (empty when cancelled).
    pub fn written(&self, json: bool) -> String {
        match self {
            ItemResult::Done(record) => record.written(json),
            ItemResult::Failed(error) => error.written(json),
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
