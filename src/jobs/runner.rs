//! The runner: runs a [`Job`] over its items on the [ordered parallel map](crate::batch::Batch), in
//! input order, and hands each result on ([`Runner::collect`]) or to a
//! [`Recorder`] that places it in the output ([`Runner::run`]); it stops as the [`Control`]
//! says.
//!
//! - **resume**: with a recorder continuing a resumed output, each item is paired with the old
//!   result at its place ([`claim`]): a final result is kept and the item not run, an
//!   `unknown` or `error` one is redone;
//! - **stops**: no item starts once the control is stopped or its deadline has passed; a
//!   cancelled item ends the output there (the rest is not written), so what was written is a
//!   prefix;
//! - **a closed output**: while the workers run, the runner checks every 50 ms whether the
//!   reader of the output went away ([`Sink::closed`]), and then stops the batch and the searches
//!   in flight at once, so `solve hard.txt | head -1` ends as soon as `head` does, not when the
//!   next puzzle is solved.
//!
//! # Examples
//! ```
//! use std::path::Path;
//! use sudokit::jobs::runner::Runner;
//! use sudokit::jobs::item::puzzles;
//! use sudokit::jobs::solve::{SolveJob, SolveOptions};
//! use sudokit::jobs::{Control, JobRecord, ItemResult, Job};
//! use sudokit::text::ReadOptions;
//! let job = SolveJob::new(SolveOptions { unique: true, ..SolveOptions::default() }).unwrap();
//! let items = puzzles(Path::new("models/sudoku/4x4/kr_4x4_sample.txt"), ReadOptions::default()).unwrap();
//! let mut statuses = Vec::new();
//! let ran = Runner::new(Control::new())
//!     .collect(&job, items, |placed| statuses.push(placed.result.status()))
//!     .unwrap();
//! assert_eq!(ran.tally.total, statuses.len());
//! assert_eq!(ran.tally.exit_code(), 0);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::control::Control;
use super::job::Job;
use super::partial::IndexEntry;
use super::record::{ItemResult, JobItem};
use super::recorder::{Claim, Recorder, claim};
pub use super::run_error::RunError;
use super::sink::Sink;
pub use super::tally::Ran;
use super::tally::Tally;
use crate::batch::{Batch, Finished, ProgressFn};

/// A result with the place of its item: its input line and fingerprint (0 when not asked for).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed<R> {
    /// The item's input line.
    pub line: usize,
    /// The item's key ([`JobItem::key`]).
    pub key: u64,
    /// The result.
    pub result: ItemResult<R>,
}

/// What the runner does with the results; see the module docs.
#[derive(Clone)]
pub struct Runner {
    control: Control,
    progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("control", &self.control)
            .finish_non_exhaustive()
    }
}

/// How often a closed output is looked for.
const CLOSED_EVERY: Duration = Duration::from_millis(50);

/// The work done for one item, before it is placed.
enum Done<R> {
    /// An old final result, kept.
    Kept(Box<IndexEntry>),
    /// A result of this run, replacing `replaced` when resuming.
    Fresh {
        placed: Placed<R>,
        replaced: Option<Box<IndexEntry>>,
    },
    /// The old result at this place answers another item.
    Mismatch { line: usize, reason: String },
}

impl Runner {
    /// A runner stopped by `control`.
    pub fn new(control: Control) -> Runner {
        Runner {
            control,
            progress: None,
        }
    }

    /// This runner, reporting its progress (results placed) to `progress`.
    pub fn with_progress(mut self, progress: ProgressFn) -> Runner {
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

    /// Runs `job` over `items` and hands each result, with its item's line and key, to `emit`,
    /// in input order; no output. Stops at the first cancelled item (`emit` does not see it).
    ///
    /// # Errors
    /// None today: the run's own errors are reported in the results.
    pub fn collect<J: Job>(
        &self,
        job: &J,
        items: impl Iterator<Item = J::Item> + Send,
        mut emit: impl FnMut(Placed<J::Record>) + Send,
    ) -> Result<Ran, RunError> {
        let mut tally = Tally::default();
        let mut cut = false;
        let finished = self.batch(job.workers()).run(
            items,
            |item| {
                let (line, key) = (item.line(), item.key());
                Placed {
                    line,
                    key,
                    result: job.run(item, &self.control),
                }
            },
            |placed: Placed<J::Record>| {
                if cut {
                    return Ok::<(), RunError>(());
                }
                match placed.result.status() {
                    None => cut = true,
                    Some(status) => {
                        tally.add(status);
                        emit(placed);
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

    /// Runs `job` over `items`, placing each result with `recorder` (as JSON with `json`) in
    /// input order; `observe` gets each result this run made, in order, after it is placed (for
    /// a summary, the pages of a report). Returns whether every item was done; the recorder
    /// keeps the tally.
    ///
    /// # Errors
    /// A write that fails (a closed output: [`std::io::ErrorKind::BrokenPipe`]); an old result
    /// that does not answer its item.
    pub fn run<J: Job>(
        &self,
        job: &J,
        items: impl Iterator<Item = J::Item> + Send,
        recorder: &Recorder<'_>,
        json: bool,
        mut observe: impl FnMut(Placed<J::Record>) + Send,
    ) -> Result<bool, RunError> {
        let keys = recorder.keys();
        let sink: &Sink = recorder.sink();
        let pairs = items.map(|item| (item, recorder.next_old()));
        let work = |(item, entry): (J::Item, Option<Box<IndexEntry>>)| -> Done<J::Record> {
            let line = item.line();
            let key = if keys || entry.is_some() {
                item.key()
            } else {
                0
            };
            match claim(entry, line, key) {
                Claim::Keep(entry) => Done::Kept(entry),
                Claim::Mismatch { line, reason } => Done::Mismatch { line, reason },
                Claim::Redo { replaced } => Done::Fresh {
                    placed: Placed {
                        line,
                        key,
                        result: job.run(item, &self.control),
                    },
                    replaced,
                },
            }
        };
        let mut cut = false;
        // One buffer for every record written.
        let mut text = String::new();
        let emit = |done: Done<J::Record>| -> Result<(), RunError> {
            if cut {
                return Ok(());
            }
            match done {
                Done::Kept(entry) => recorder.keep(&entry)?,
                Done::Mismatch { line, reason } => return Err(recorder.mismatch(line, reason)),
                Done::Fresh { placed, replaced } => {
                    let Some(status) = placed.result.status() else {
                        cut = true;
                        return Ok(());
                    };
                    text.clear();
                    placed.result.write_into(json, &mut text);
                    recorder.record(placed.line, placed.key, status, &text, replaced.as_deref())?;
                    observe(placed);
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
            return Err(RunError::Io(std::io::Error::from(
                std::io::ErrorKind::BrokenPipe,
            )));
        }
        let finished = finished?;
        Ok(!cut && matches!(finished, Finished::Complete { .. }))
    }
}
