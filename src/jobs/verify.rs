//! `verify` as a job: the certificate check of each candidate solution against its puzzle, the
//! n-th candidate with the n-th puzzle.
//!
//! A record is `line N: valid` or `line N: invalid: why`; as JSON `{"puzzle_line",
//! "solution_line", "valid", "violation", "kind", "unit"}`. A puzzle or candidate that cannot be read, or an
//! entry of the longer file without a partner, is an error in place.

use std::sync::Arc;

use serde_json::{Value, json};

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::options::{self, OptionError};
use super::record::{ItemError, ItemResult, JobItem, JobRecord, Status};
use super::source::{Items, Source};
use super::summary::NoSummary;
use crate::text::ReadOptions;
use crate::verify::{Violation, verify};

/// One step through the two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pair {
    /// A puzzle and its candidate.
    Both(PuzzleItem, PuzzleItem),
    /// An entry of one file after the other (`ended`) ran out.
    Unpaired {
        /// The file that ran out.
        ended: Arc<str>,
        /// The entry without a partner.
        item: PuzzleItem,
    },
}

impl JobItem for Pair {
    fn line(&self) -> usize {
        match self {
            Pair::Both(puzzle, _) => puzzle.line(),
            Pair::Unpaired { item, .. } => item.line(),
        }
    }

    fn key(&self) -> u64 {
        match self {
            Pair::Both(puzzle, solution) => puzzle.key() ^ solution.key().rotate_left(1),
            Pair::Unpaired { item, .. } => item.key().rotate_left(2),
        }
    }
}

/// The pairs of the two sources of verify, puzzles and candidates (a file of each, or a
/// shard of each), one step through both at a time; an entry of one after the other ran out is
/// reported unpaired.
///
/// # Errors
/// Not two puzzle sources.
pub fn pairs_of(sources: Vec<Source>) -> Result<Items<Pair>, InputError> {
    let Ok(
        [
            Source::Puzzles {
                name: puzzle_name,
                items: mut puzzles,
            },
            Source::Puzzles {
                name: candidate_name,
                items: mut candidates,
            },
        ],
    ) = <[Source; 2]>::try_from(sources)
    else {
        return Err(InputError::Source("two inputs of puzzles"));
    };
    Ok(Box::new(std::iter::from_fn(move || {
        match (puzzles.next(), candidates.next()) {
            (None, None) => None,
            (Some(p), Some(s)) => Some(Pair::Both(p, s)),
            (Some(p), None) => Some(Pair::Unpaired {
                ended: candidate_name.clone(),
                item: p,
            }),
            (None, Some(s)) => Some(Pair::Unpaired {
                ended: puzzle_name.clone(),
                item: s,
            }),
        }
    })))
}

/// The `verify` job; see the module docs.
#[derive(Debug, Clone)]
pub struct VerifyJob {
    threads: usize,
}

impl VerifyJob {
    /// The job, on `threads` threads (default: all cores).
    ///
    /// # Errors
    /// `threads` of 0.
    pub fn new(threads: Option<usize>) -> Result<VerifyJob, OptionError> {
        Ok(VerifyJob {
            threads: options::threads(threads)?,
        })
    }
}

impl Job for VerifyJob {
    type Item = Pair;
    type Record = VerifyRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "verify"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<Pair>, InputError> {
        pairs_of(sources)
    }

    fn read_options(&self, read: ReadOptions, input: usize) -> ReadOptions {
        // The candidates may clash: that is what verify reports.
        ReadOptions {
            reject_clashes: read.reject_clashes && input == 0,
            ..read
        }
    }

    fn identity(&self) -> Value {
        json!({})
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, pair: Pair, _control: &Control) -> ItemResult<VerifyRecord> {
        match pair {
            Pair::Unpaired { ended, item } => {
                let line = item.line();
                ItemResult::Failed(ItemError {
                    file: Some(item.file.clone()),
                    line,
                    column: 1,
                    message: format!("{ended} ended before this entry: it has no partner"),
                })
            }
            Pair::Both(puzzle, solution) => {
                let (p, s) = match (puzzle.read_puzzle(), solution.read_puzzle()) {
                    (Err(e), _) | (_, Err(e)) => return ItemResult::Failed(e),
                    (Ok(p), Ok(s)) => (p, s),
                };
                ItemResult::Done(VerifyRecord {
                    puzzle_line: p.line,
                    solution_line: s.line,
                    verdict: verify(&p.grid, &s.grid),
                })
            }
        }
    }
}

/// The check of one candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyRecord {
    /// The puzzle's input line.
    pub puzzle_line: usize,
    /// The candidate's line in its file.
    pub solution_line: usize,
    /// Valid, or the first violation found.
    pub verdict: Result<(), Violation>,
}

impl JobRecord for VerifyRecord {
    fn status(&self) -> Status {
        if self.verdict.is_ok() {
            Status::Done
        } else {
            Status::Negative
        }
    }

    fn text(&self) -> String {
        match &self.verdict {
            Ok(()) => format!("line {}: valid\n", self.puzzle_line),
            Err(v) => format!("line {}: invalid: {v}\n", self.puzzle_line),
        }
    }

    fn json(&self) -> Value {
        let violation = self.verdict.as_ref().err();
        json!({
            "puzzle_line": self.puzzle_line,
            "solution_line": self.solution_line,
            "valid": self.verdict.is_ok(),
            "violation": violation.map(|v| v.to_string()),
            "kind": violation.map(Violation::kind),
            // The unit that repeats a value, `["row" | "column" | "box", number]` (1-based).
            "unit": violation.and_then(Violation::unit).map(|u| (u.kind.name(), u.number + 1)),
        })
    }
}
