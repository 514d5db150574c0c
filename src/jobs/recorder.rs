//! The recorder: places the results of a run in its output, in input order, and counts them.
//! It holds what a run writes to (a [`Sink`]) and what a resumed run continues (the old
//! results of `FILE.partial`), so the [runner](super::runner) that makes the results and the
//! Dask client that receives them from tasks place them alike:
//!
//! - each result is paired with the old result at its place ([`Recorder::next_old`], in input
//!   order), which must answer the same item (same input line, same item key:
//!   [`claim`]); a final old result (`done`, `negative`) is kept, an `unknown` or `error` one is
//!   redone;
//! - a result is written whole (its text, or its JSON line; with `brief`, only the records
//!   that are not `done`), with its line, status and key in the index of a resumable output;
//! - [`Recorder::finish`] checks that no old result is left over (more old results than
//!   items: another input), and gives the [`Tally`].
//!
//! A census places its parts with a recorder too, out of order ([`super::census_parts`]): it
//! takes every old part when it begins ([`Recorder::next_old`], [`Recorder::keep_read`]) and
//! records each new part as it finishes.
//!
//! # Examples
//! ```
//! use sudokit::jobs::recorder::Recorder;
//! use sudokit::jobs::{Sink, Status};
//! let sink = Sink::stdout("puzzles", false);
//! let recorder = Recorder::new(&sink, None, false);
//! recorder.place(1, 0, Status::Done, "").unwrap();
//! let tally = recorder.finish(true).unwrap();
//! assert_eq!((tally.total, tally.done), (1, 1));
//! ```

use std::sync::{Mutex, PoisonError};

use super::partial::{IndexEntry, OldResults, PartialError};
use super::record::Status;
use super::run_error::RunError;
use super::sink::Sink;
use super::tally::Tally;

/// How a result pairs with the old result at its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A final old result answers the item: it is kept, the item is not run again.
    Keep(Box<IndexEntry>),
    /// The item is run (again): `replaced` is the old result at its place, if any.
    Redo {
        /// The old `unknown` or `error` result the new one replaces.
        replaced: Option<Box<IndexEntry>>,
    },
    /// The old result at this place answers another item: the resume is refused.
    Mismatch {
        /// The item's input line.
        line: usize,
        /// Why it does not fit.
        reason: String,
    },
}

/// How the old result `entry` at an item's place pairs with the item (input `line`, `key`).
pub fn claim(entry: Option<Box<IndexEntry>>, line: usize, key: u64) -> Claim {
    match entry {
        None => Claim::Redo { replaced: None },
        Some(entry) if entry.line != line => Claim::Mismatch {
            line,
            reason: format!("it answers input line {}", entry.line),
        },
        Some(entry) if entry.key != key => Claim::Mismatch {
            line,
            reason: "the puzzle differs: the input changed".to_string(),
        },
        Some(entry) if entry.status.is_final() => Claim::Keep(entry),
        Some(entry) => Claim::Redo {
            replaced: Some(entry),
        },
    }
}

/// The sink a recorder writes to: the caller's, or its own (a Dask client's writer, which
/// keeps it between calls).
enum SinkRef<'a> {
    Borrowed(&'a Sink),
    Owned(Box<Sink>),
}

impl std::ops::Deref for SinkRef<'_> {
    type Target = Sink;

    fn deref(&self) -> &Sink {
        match self {
            SinkRef::Borrowed(sink) => sink,
            SinkRef::Owned(sink) => sink,
        }
    }
}

/// Places a run's results; see the module docs.
pub struct Recorder<'a> {
    sink: SinkRef<'a>,
    old: Mutex<Option<OldResults>>,
    brief: bool,
    /// The tally and the places taken so far.
    counts: Mutex<(Tally, usize)>,
}

impl std::fmt::Debug for Recorder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("counts", &self.counts)
            .finish_non_exhaustive()
    }
}

impl<'a> Recorder<'a> {
    /// A recorder writing to `sink`, continuing the `old` results of a resumed output; with
    /// `brief`, the text of a `done` result is left out (its place is still counted).
    pub fn new(sink: &'a Sink, old: Option<OldResults>, brief: bool) -> Recorder<'a> {
        Recorder {
            sink: SinkRef::Borrowed(sink),
            old: Mutex::new(old),
            brief,
            counts: Mutex::new((Tally::default(), 0)),
        }
    }

    /// A recorder that owns its sink ([`Recorder::finish_owned`] gives it back).
    pub fn owning(sink: Sink, old: Option<OldResults>, brief: bool) -> Recorder<'static> {
        Recorder {
            sink: SinkRef::Owned(Box::new(sink)),
            old: Mutex::new(old),
            brief,
            counts: Mutex::new((Tally::default(), 0)),
        }
    }

    /// The sink.
    pub fn sink(&self) -> &Sink {
        &self.sink
    }

    /// Whether items need their keys (the output is a resumable file, whose index holds them).
    pub fn keys(&self) -> bool {
        self.sink.is_resumable_file()
    }

    /// The old result at the next place (called once per item, in input order).
    pub fn next_old(&self) -> Option<Box<IndexEntry>> {
        lock(&self.old)
            .as_mut()
            .and_then(Iterator::next)
            .map(Box::new)
    }

    /// Counts one more place, with `status` when it holds a result; returns the place (1-based).
    fn count(&self, status: Option<Status>) -> usize {
        let mut counts = lock(&self.counts);
        counts.1 += 1;
        if let Some(status) = status {
            counts.0.add(status);
        }
        counts.1
    }

    /// Keeps an old final result.
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep(&self, entry: &IndexEntry) -> Result<(), RunError> {
        self.sink.keep(entry)?;
        self.count(Some(entry.status));
        Ok(())
    }

    /// Keeps an old final result and gives its bytes (a census reads the count of a part it
    /// keeps; see [`Sink::keep_read`]).
    ///
    /// # Errors
    /// The copy fails.
    pub fn keep_read(&self, entry: &IndexEntry) -> Result<Vec<u8>, RunError> {
        let text = self.sink.keep_read(entry)?;
        self.count(Some(entry.status));
        Ok(text)
    }

    /// Writes a result of this run: its `text` (left out with `brief` when `done`), for input
    /// `line` with item `key`, in the place of `replaced`.
    ///
    /// # Errors
    /// The write fails.
    pub fn record(
        &self,
        line: usize,
        key: u64,
        status: Status,
        text: &str,
        replaced: Option<&IndexEntry>,
    ) -> Result<(), RunError> {
        let text = if self.brief && status == Status::Done {
            ""
        } else {
            text
        };
        self.sink.write(text, line, status, key, replaced)?;
        self.count(Some(status));
        Ok(())
    }

    /// Refuses the resume: the old result at the next place answers another item. The old
    /// results stay as they were.
    pub fn mismatch(&self, line: usize, reason: String) -> RunError {
        let result = self.count(None);
        self.sink.abandon();
        RunError::Partial(PartialError::Mismatch {
            partial: self.sink.partial_path(),
            result,
            line,
            reason,
        })
    }

    /// Places a result made elsewhere (a Dask task): the old final result at its place is kept
    /// instead when there is one, else the result is written.
    ///
    /// # Errors
    /// As [`Recorder::record`]; the old result answers another item.
    pub fn place(&self, line: usize, key: u64, status: Status, text: &str) -> Result<(), RunError> {
        match claim(self.next_old(), line, key) {
            Claim::Keep(entry) => self.keep(&entry),
            Claim::Redo { replaced } => self.record(line, key, status, text, replaced.as_deref()),
            Claim::Mismatch { line, reason } => Err(self.mismatch(line, reason)),
        }
    }

    /// The tally so far.
    pub fn tally(&self) -> Tally {
        lock(&self.counts).0
    }

    /// Ends the placing: when the run was `complete`, no old result may be left (the input
    /// shrank). Returns the tally.
    ///
    /// # Errors
    /// Old results left over (the resume is refused; the old results stay as they were).
    pub fn finish(self, complete: bool) -> Result<Tally, RunError> {
        self.finish_owned(complete).map(|(tally, _)| tally)
    }

    /// As [`Recorder::finish`], giving back the sink of an [owning](Recorder::owning) recorder.
    ///
    /// # Errors
    /// As [`Recorder::finish`].
    pub fn finish_owned(self, complete: bool) -> Result<(Tally, Option<Sink>), RunError> {
        let (tally, position) = *lock(&self.counts);
        if complete {
            let mut rest = self
                .old
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner);
            let left = rest.as_mut().map_or(0, |r| r.count());
            if left > 0 {
                let partial = self.sink.partial_path();
                self.sink.abandon();
                return Err(RunError::Partial(PartialError::TooMany {
                    partial,
                    results: position + left,
                    items: position,
                }));
            }
        }
        let sink = match self.sink {
            SinkRef::Owned(sink) => Some(*sink),
            SinkRef::Borrowed(_) => None,
        };
        Ok((tally, sink))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
