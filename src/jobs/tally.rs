//! How a run counts: the [`Tally`] of its records by status, how it ended ([`Ran`]), and the
//! exit code of each.
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

use serde::{Deserialize, Serialize};

use super::record::Status;

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
        self.errors_said(what, "reported in place")
    }

    /// The closing note of a command that says its errors in its notes, after them: `3 of 95
    /// puzzles gave an error (said above, in input order)`.
    pub fn errors_note_above(&self, what: &str) -> Option<String> {
        self.errors_said(what, "said above")
    }

    fn errors_said(&self, what: &str, said: &str) -> Option<String> {
        (self.errors > 0).then(|| {
            format!(
                "{} of {} {what} gave an error ({said}, in input order)",
                self.errors, self.total
            )
        })
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ran {
    /// The records written (and kept), by status.
    pub tally: Tally,
    /// Whether every item of the input was done (not stopped by the control).
    pub complete: bool,
}

impl Ran {
    /// The exit code: 1 for a stopped run, else the tally's.
    pub fn exit_code(&self) -> u8 {
        if self.complete {
            self.tally.exit_code()
        } else {
            1
        }
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
        assert_eq!(
            tally.errors_note_above("puzzles").unwrap(),
            "1 of 3 puzzles gave an error (said above, in input order)"
        );
        let mut sum = Tally::default();
        sum.merge(&tally);
        sum.merge(&tally);
        assert_eq!((sum.total, sum.errors), (6, 2));
    }
}
