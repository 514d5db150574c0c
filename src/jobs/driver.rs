//! The driver: runs a [`Job`] over its input on the [batch driver](crate::batch::Batch), writes
//! each record through a [`Sink`] in input order, continues what a resumed output kept, and stops
//! as the [`Control`] says.
//!
//! - **resume**: with the old results of a resumable output ([`Sink::open`]), each item is paired
//!   with the result at its place, which must answer it (same input line, same item key); a
//!   final result is copied, an `unknown` or `error` one is redone;
//! - **stops**: no item starts once the control is stopped or its deadline has passed; a
//!   cancelled item ends the output there (the rest is not written), so what was written is a
//!   prefix;
//! - **a closed output**: while the workers run, the driver checks every 50 ms whether the
//!   reader of the output went away ([`Sink::closed`]), and then stops the batch and the searches
//!   in flight at once, so `solve hard.txt | head -1` ends as soon as `head` does, not when the
//!   next puzzle is solved.
//!
//! # Examples
//! ```
//! use std::path::Path;
//! use sudokit::jobs::driver::Driver;
//! use sudokit::jobs::item::puzzles;
//! use sudokit::jobs::solve::{SolveJob, SolveOptions};
//! use sudokit::jobs::{Control, JobRecord, ItemResult, Job};
//! use sudokit::text::ReadOptions;
//! let job = SolveJob::new(SolveOptions { unique: true, ..SolveOptions::default() }).unwrap();
//! let items = puzzles(Path::new("models/sudoku/4x4/kr_4x4_sample.txt"), ReadOptions::default()).unwrap();
//! let mut statuses = Vec::new();
//! let ran = Driver::new(Control::new())
//!     .collect(&job, items, |result| statuses.push(result.status()))
//!     .unwrap();
//! assert_eq!(ran.tally.total, statuses.len());
//! assert_eq!(ran.tally.exit_code(), 0);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use thiserror::Error;

use super::job::{Control, ItemResult, Job, JobItem, Status, Tally};
use super::partial::{IndexEntry, OldResults, PartialError};
use super::sink::Sink;
use crate::batch::{Batch, Finished, ProgressFn};

/// A run that failed as a whole (not one of its items).
#[derive(Debug, Error)]
pub enum DriverError {
    /// Writing the output failed (a closed pipe is `BrokenPipe`: a normal end for a front end).
    #[error("cannot write the output")]
    Io(#[from] std::io::Error),
    /// The resumed output does not fit the input.
    #[error(transparent)]
    Partial(#[from] PartialError),
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

/// What the driver does with the records; see the module docs.
#[derive(Clone)]
pub struct Driver {
    control: Control,
    progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("control", &self.control)
            .finish_non_exhaustive()
    }
}

/// How often a closed output is looked for.
const CLOSED_EVERY: Duration = Duration::from_millis(50);

/// The work done for one item, before it is written.
enum Done<R> {
    /// An old final result, kept.
    Kept(Box<IndexEntry>),
    /// A result of this run, replacing `replaced` when resuming.
    Fresh {
        result: ItemResult<R>,
        line: usize,
        key: u64,
        replaced: Option<Box<IndexEntry>>,
    },
    /// The old result at this place answers another item.
    Mismatch { line: usize, reason: String },
}

impl Driver {
    /// A driver stopped by `control`.
    pub fn new(control: Control) -> Driver {
        Driver {
            control,
            progress: None,
        }
    }

    /// This driver, reporting its progress (records written) to `progress`.
    pub fn with_progress(mut self, progress: ProgressFn) -> Driver {
        self.progress = Some(progress);
        self
    }

    /// The control.
    pub fn control(&self) -> &Control {
        &self.control
    }

    fn batch(&self, workers: usize) -> Batch {
        let mut batch = Batch::new(workers).with_cancel(self.control.stop.clone());
        if let Some(deadline) = self.control.deadline {
            batch = batch.with_deadline(deadline);
        }
        if let Some(progress) = &self.progress {
            batch = batch.with_progress(progress.clone());
        }
        batch
    }

    /// Runs `job` over `items` and hands each result to `emit`, in input order; no sink. Stops
    /// at the first cancelled item (`emit` does not see it).
    ///
    /// # Errors
    /// None today: the run's own errors are reported in the results.
    pub fn collect<J: Job>(
        &self,
        job: &J,
        items: impl Iterator<Item = J::Item> + Send,
        mut emit: impl FnMut(ItemResult<J::Record>) + Send,
    ) -> Result<Ran, DriverError> {
        let mut tally = Tally::default();
        let mut cut = false;
        let finished = self.batch(job.workers()).run(
            items,
            |item| job.run(item, &self.control),
            |result: ItemResult<J::Record>| {
                if cut {
                    return Ok::<(), DriverError>(());
                }
                match result.status() {
                    None => cut = true,
                    Some(status) => {
                        tally.add(status);
                        emit(result);
                    }
                }
                Ok(())
            },
        )?;
        Ok(Ran {
            tally,
            complete: !cut && matches!(finished, Finished::Complete { .. }),
        })
    }

    /// Runs `job` over `items`, writing each record through `sink` (as JSON with `json`; with
    /// `brief`, only the records that are not [`Status::Done`]) in input order, continuing the
    /// `old` results of a resumed output; `observe` gets each result this run made, in order,
    /// after it is written (for the tables of a summary, the pages of a report). The sink stays open: the caller
    /// writes its tables and [finishes](Sink::finish) it.
    ///
    /// # Errors
    /// A write that fails (a closed output: [`std::io::ErrorKind::BrokenPipe`]); an old result
    /// that does not answer its item, or more old results than items.
    #[allow(clippy::too_many_arguments)]
    pub fn run<J: Job>(
        &self,
        job: &J,
        items: impl Iterator<Item = J::Item> + Send,
        sink: &Sink,
        old: Option<OldResults>,
        json: bool,
        brief: bool,
        mut observe: impl FnMut(ItemResult<J::Record>) + Send,
    ) -> Result<Ran, DriverError> {
        let keys = sink.is_resumable_file();
        let old = Mutex::new(old);
        let pairs = items.map(|item| {
            let entry = old
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .as_mut()
                .and_then(Iterator::next)
                .map(Box::new);
            (item, entry)
        });
        let work = |(item, entry): (J::Item, Option<Box<IndexEntry>>)| -> Done<J::Record> {
            if let Some(entry) = &entry {
                let (line, key) = (item.line(), item.key());
                if entry.line != line || entry.key != key {
                    let reason = if entry.line != line {
                        format!("it answers input line {}", entry.line)
                    } else {
                        "the puzzle differs: the input changed".to_string()
                    };
                    return Done::Mismatch { line, reason };
                }
                if entry.status.is_final() {
                    return Done::Kept(entry.clone());
                }
            }
            let line = item.line();
            let key = if keys { item.key() } else { 0 };
            Done::Fresh {
                result: job.run(item, &self.control),
                line,
                key,
                replaced: entry,
            }
        };
        let mut tally = Tally::default();
        let mut cut = false;
        let mut position = 0usize;
        let emit = |done: Done<J::Record>| -> Result<(), DriverError> {
            if cut {
                return Ok(());
            }
            position += 1;
            match done {
                Done::Kept(entry) => {
                    sink.keep(&entry)?;
                    tally.add(entry.status);
                }
                Done::Mismatch { line, reason } => {
                    return Err(DriverError::Partial(PartialError::Mismatch {
                        partial: sink.partial_path(),
                        result: position,
                        line,
                        reason,
                    }));
                }
                Done::Fresh {
                    result,
                    line,
                    key,
                    replaced,
                } => {
                    let Some(status) = result.status() else {
                        cut = true;
                        return Ok(());
                    };
                    let text = if brief && status == Status::Done {
                        String::new()
                    } else {
                        result.render(json)
                    };
                    sink.write(&text, line, status, key, replaced.as_deref())?;
                    tally.add(status);
                    observe(result);
                }
            }
            Ok(())
        };
        let closed = AtomicBool::new(false);
        let running = AtomicBool::new(true);
        let finished = std::thread::scope(|scope| {
            let watcher = sink.can_close().then(|| {
                scope.spawn(|| {
                    while running.load(Ordering::Relaxed) {
                        if sink.closed() {
                            closed.store(true, Ordering::Relaxed);
                            self.control.stop.cancel();
                            self.control.abort.cancel();
                            return;
                        }
                        std::thread::park_timeout(CLOSED_EVERY);
                    }
                })
            });
            let finished = self.batch(job.workers()).run(pairs, work, emit);
            running.store(false, Ordering::Relaxed);
            if let Some(watcher) = watcher {
                watcher.thread().unpark();
            }
            finished
        });
        if closed.load(Ordering::Relaxed) {
            return Err(DriverError::Io(std::io::Error::from(
                std::io::ErrorKind::BrokenPipe,
            )));
        }
        let finished = match finished {
            Err(DriverError::Partial(refused)) => {
                // A refused resume leaves the old results as they were, and nothing beside them.
                sink.abandon();
                return Err(DriverError::Partial(refused));
            }
            finished => finished?,
        };
        let complete = !cut && matches!(finished, Finished::Complete { .. });
        if complete {
            let mut rest = old.into_inner().unwrap_or_else(|e| e.into_inner());
            let left = rest.as_mut().map_or(0, |r| r.count());
            if left > 0 {
                let partial = sink.partial_path();
                sink.abandon();
                return Err(DriverError::Partial(PartialError::TooMany {
                    partial,
                    results: position + left,
                    items: position,
                }));
            }
        }
        Ok(Ran { tally, complete })
    }
}
