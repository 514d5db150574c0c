//! The ordered parallel map behind every batch: runs one function on every item of a stream, on
//! several threads, and hands the results back **in input order, as soon as each is settled**
//! (the results before it done).
//!
//! Every front end — the command line, the Python package, a Dask worker — runs its batches
//! through [`Batch::run`], so they share the same guarantees:
//! - **order**: results come in the order of the items, whatever the thread count, so a batch's
//!   output is the same on 1 or 64 threads;
//! - **streaming**: a result is handed on as soon as it and every result before it exist, so the
//!   first lines of a long batch appear at once and `| head -1` does not wait for a block; memory
//!   holds only the results waiting for a slower one before them (at most a window of
//!   [`Batch::window`] items in flight);
//! - **cancellation**: setting the [`Cancel`] token (or passing the deadline of
//!   [`Batch::with_deadline`]) stops the batch before its next item; the
//!   items in flight finish (a search under the same token stops at once) and every result
//!   settled in order is still handed on, so what was emitted is a valid prefix;
//! - **progress**: an optional callback sees the count of results emitted, at most ten times a
//!   second.
//!
//! Items are taken from the stream by the workers, a few at a time: one at first, more while
//! they are fast (a worker aims at a millisecond of work per take), so a stream of easy puzzles
//! costs little synchronisation and a stream of hard ones still streams one by one.
//!
//! There is no collecting thread: the worker that completes the oldest result not yet emitted
//! emits it, and every later result already done, under the output lock (so `emit` runs on the
//! workers, one call at a time, in order).
//!
//! # Complexity
//! One lock of the stream per take and one lock of the output per item; the reordering buffer
//! holds at most the window.
//!
//! # Examples
//! ```
//! use sudokit::batch::{Batch, Finished};
//! let batch = Batch::new(4);
//! let mut out = Vec::new();
//! let end = batch
//!     .run(1..=100u64, |x| x * x, |y| {
//!         out.push(y);
//!         Ok::<(), ()>(())
//!     })
//!     .unwrap();
//! assert_eq!(end, Finished::Complete { items: 100 });
//! assert_eq!(out, (1..=100u64).map(|x| x * x).collect::<Vec<_>>());
//! ```

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::search::Cancel;

/// How a batch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// Every item was done and its result emitted.
    Complete {
        /// Results emitted.
        items: usize,
    },
    /// The cancel token stopped the batch: the results emitted are those of the first `items`
    /// items, and the stream may hold more.
    Cancelled {
        /// Results emitted.
        items: usize,
    },
}

impl Finished {
    /// Results emitted.
    pub fn items(self) -> usize {
        match self {
            Finished::Complete { items } | Finished::Cancelled { items } => items,
        }
    }
}

/// What a progress callback sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Results emitted so far.
    pub done: usize,
    /// Time since the batch started.
    pub elapsed: Duration,
}

/// A progress callback.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// An ordered parallel map over a stream; see the module docs.
#[derive(Clone)]
pub struct Batch {
    threads: usize,
    cancel: Cancel,
    deadline: Option<Instant>,
    progress: Option<ProgressFn>,
    window: usize,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("threads", &self.threads)
            .field("window", &self.window)
            .finish_non_exhaustive()
    }
}

/// The work a worker aims at per take of the stream.
const TAKE_TARGET: Duration = Duration::from_millis(1);

/// The most items taken at once.
const MAX_TAKE: usize = 64;

/// How often the progress callback is called at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

impl Batch {
    /// A map with `threads` workers (at least 1).
    pub fn new(threads: usize) -> Batch {
        let threads = threads.max(1);
        Batch {
            threads,
            cancel: Cancel::new(),
            deadline: None,
            progress: None,
            window: (256 * threads).max(1024),
        }
    }

    /// This map, stopped by `cancel`.
    pub fn with_cancel(mut self, cancel: Cancel) -> Batch {
        self.cancel = cancel;
        self
    }

    /// This map, stopped (as by its cancel token) once `deadline` has passed: no item starts
    /// after it.
    pub fn with_deadline(mut self, deadline: Instant) -> Batch {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the batch must start no more items.
    fn stopped(&self) -> bool {
        self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// This map, reporting its progress to `progress`.
    pub fn with_progress(mut self, progress: ProgressFn) -> Batch {
        self.progress = Some(progress);
        self
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The most items in flight beyond the oldest result not yet emitted.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Runs `work` on every item and calls `emit` on the results in item order; see the module
    /// docs. `emit` may fail (a closed pipe): the batch then stops and returns that error.
    ///
    /// # Errors
    /// The first error of `emit`.
    pub fn run<I, T, R, E>(
        &self,
        items: I,
        work: impl Fn(T) -> R + Sync,
        mut emit: impl FnMut(R) -> Result<(), E> + Send,
    ) -> Result<Finished, E>
    where
        I: Iterator<Item = T> + Send,
        T: Send,
        R: Send,
        E: Send,
    {
        let start = Instant::now();
        let mut reporter = Reporter {
            progress: self.progress.as_deref(),
            start,
            last: start,
        };
        if self.threads == 1 {
            let mut done = 0;
            for item in items {
                if self.stopped() {
                    return Ok(Finished::Cancelled { items: done });
                }
                emit(work(item))?;
                done += 1;
                reporter.report(done, false);
            }
            reporter.report(done, true);
            // A source that ended because the stop token ended it (a reader that stops at a
            // signal) did not end: the batch was stopped.
            if self.stopped() {
                return Ok(Finished::Cancelled { items: done });
            }
            return Ok(Finished::Complete { items: done });
        }
        let shared = Shared {
            source: Mutex::new(Source {
                items,
                next: 0,
                emitted: 0,
                exhausted: false,
                stop: false,
            }),
            room: Condvar::new(),
            output: Mutex::new(Output {
                pending: VecDeque::new(),
                emitted: 0,
                emit: &mut emit,
                failure: None,
                reporter,
            }),
        };
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                let shared = &shared;
                let work = &work;
                scope.spawn(move || self.worker(shared, work));
            }
        });
        let output = shared
            .output
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = output.failure {
            return Err(e);
        }
        let Output {
            emitted,
            mut reporter,
            ..
        } = output;
        reporter.report(emitted, true);
        let source = shared
            .source
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        Ok(
            if source.exhausted && emitted == source.next && !self.stopped() {
                Finished::Complete { items: emitted }
            } else {
                Finished::Cancelled { items: emitted }
            },
        )
    }

    /// One worker: takes items while there is room in the window, works, and hands each result
    /// to the output; the worker that completes the oldest result not yet emitted emits it and
    /// every result after it that is ready.
    fn worker<I, T, R, E>(&self, shared: &Shared<'_, I, R, E>, work: &(impl Fn(T) -> R + Sync))
    where
        I: Iterator<Item = T>,
    {
        let mut take = 1usize;
        let mut batch: Vec<T> = Vec::new();
        loop {
            let first = {
                let mut source = shared.lock_source();
                loop {
                    if source.stop || source.exhausted || self.stopped() {
                        return;
                    }
                    if source.next < source.emitted + self.window {
                        break;
                    }
                    source = shared
                        .room
                        .wait(source)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                let room = source.emitted + self.window - source.next;
                let first = source.next;
                batch.extend(source.items.by_ref().take(take.min(room)));
                source.next += batch.len();
                if batch.len() < take.min(room) {
                    source.exhausted = true;
                }
                first
            };
            if batch.is_empty() {
                shared.room.notify_all();
                return;
            }
            let started = Instant::now();
            let count = batch.len();
            // Each result is handed on as soon as it exists: a slow item does not hold back
            // the ones taken before it.
            for (k, item) in batch.drain(..).enumerate() {
                // A stop leaves the rest of the take undone: the results emitted stay a
                // prefix, and no item starts after the stop.
                if k > 0 && self.stopped() {
                    return;
                }
                if !shared.deliver(first + k, work(item)) {
                    return;
                }
            }
            // Aim at TAKE_TARGET of work per take: fast items are taken many at a time.
            let per_item = started.elapsed() / count as u32;
            take = if per_item.is_zero() {
                MAX_TAKE
            } else {
                (TAKE_TARGET.as_nanos() / per_item.as_nanos()).clamp(1, MAX_TAKE as u128) as usize
            };
        }
    }
}

/// What the workers share: the stream, and the output in order.
struct Shared<'a, I, R, E> {
    source: Mutex<Source<I>>,
    /// Signalled when results are emitted (room in the window) or the batch stops.
    room: Condvar,
    output: Mutex<Output<'a, R, E>>,
}

impl<I, R, E> Shared<'_, I, R, E> {
    fn lock_source(&self) -> MutexGuard<'_, Source<I>> {
        self.source.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stores the result of item `index` and emits every result now in order. Returns `false`
    /// once the batch has failed (the worker stops).
    fn deliver(&self, index: usize, result: R) -> bool {
        let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        if output.failure.is_some() {
            return false;
        }
        let slot = index - output.emitted;
        if output.pending.len() <= slot {
            output.pending.resize_with(slot + 1, || None);
        }
        output.pending[slot] = Some(result);
        let before = output.emitted;
        while let Some(Some(_)) = output.pending.front() {
            let result = output.pending.pop_front().flatten().expect("checked");
            if let Err(e) = (output.emit)(result) {
                output.failure = Some(e);
                break;
            }
            output.emitted += 1;
        }
        let (emitted, failed) = (output.emitted, output.failure.is_some());
        if emitted != before {
            output.reporter.report(emitted, false);
        }
        drop(output);
        // (In the tests, the window between the two locks is widened: another worker's
        // emission can come in between, as preemption allows anywhere.)
        #[cfg(test)]
        std::thread::yield_now();
        if emitted != before || failed {
            // The lock order is output, then source; no path holds the source while taking
            // the output.
            let mut source = self.lock_source();
            // Another worker may have emitted more in between and said so first: the count
            // only grows (a stale, smaller one would leave every worker waiting for room).
            source.emitted = source.emitted.max(emitted);
            source.stop |= failed;
            drop(source);
            self.room.notify_all();
        }
        !failed
    }
}

struct Source<I> {
    items: I,
    /// Index of the next item to take.
    next: usize,
    /// Results emitted.
    emitted: usize,
    exhausted: bool,
    /// Set when `emit` failed: take nothing more.
    stop: bool,
}

/// The results waiting for an earlier one, and the caller's `emit`.
struct Output<'a, R, E> {
    /// `pending[i]` is the result of item `emitted + i`, once it exists.
    pending: VecDeque<Option<R>>,
    emitted: usize,
    emit: &'a mut (dyn FnMut(R) -> Result<(), E> + Send),
    failure: Option<E>,
    reporter: Reporter<'a>,
}

/// Calls the progress callback at most every [`PROGRESS_EVERY`].
struct Reporter<'a> {
    progress: Option<&'a (dyn Fn(Progress) + Send + Sync)>,
    start: Instant,
    last: Instant,
}

impl Reporter<'_> {
    fn report(&mut self, done: usize, last: bool) {
        let Some(progress) = self.progress else {
            return;
        };
        let now = Instant::now();
        if last || now.duration_since(self.last) >= PROGRESS_EVERY {
            self.last = now;
            progress(Progress {
                done,
                elapsed: now.duration_since(self.start),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn results_come_in_order_whatever_the_threads_and_speeds() {
        for threads in [1, 2, 3, 8] {
            let mut out = Vec::new();
            let end = Batch::new(threads)
                .run(
                    0..500usize,
                    |i| {
                        if i % 97 == 0 {
                            std::thread::sleep(Duration::from_millis(3));
                        }
                        i * 2
                    },
                    |r| {
                        out.push(r);
                        Ok::<(), ()>(())
                    },
                )
                .unwrap();
            assert_eq!(end, Finished::Complete { items: 500 });
            assert_eq!(out, (0..500).map(|i| i * 2).collect::<Vec<_>>());
        }
    }

    /// Many trivial items on more threads than cores: workers that emit runs of results at once
    /// race to tell the source how far the output got; a stale (smaller) count once left every
    /// worker waiting for room that never came. Run under a watchdog, so that a hang fails.
    #[test]
    fn racing_emitters_never_leave_the_workers_without_room() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for round in 0..8 {
                let mut emitted = 0usize;
                // A small window: a stale count leaves no room soon.
                let batch = Batch {
                    window: 2 + round % 4,
                    ..Batch::new(4)
                };
                let end = batch
                    .run(
                        0..50_000usize,
                        |i| i ^ round,
                        |_| {
                            emitted += 1;
                            Ok::<(), ()>(())
                        },
                    )
                    .unwrap();
                assert_eq!(
                    (end, emitted),
                    (Finished::Complete { items: 50_000 }, 50_000)
                );
            }
            done.send(()).unwrap();
        });
        finished
            .recv_timeout(Duration::from_secs(60))
            .expect("the batch finished (a hang means the workers wait for room)");
    }

    #[test]
    fn an_emit_error_stops_the_batch() {
        let done = AtomicUsize::new(0);
        let result = Batch::new(4).run(
            0..100_000usize,
            |i| {
                done.fetch_add(1, Ordering::Relaxed);
                i
            },
            |i| if i == 10 { Err(i) } else { Ok(()) },
        );
        assert_eq!(result, Err(10));
        assert!(done.load(Ordering::Relaxed) < 100_000);
    }

    #[test]
    fn cancelling_leaves_an_ordered_prefix() {
        for threads in [1, 4] {
            let cancel = Cancel::new();
            let batch = Batch::new(threads).with_cancel(cancel.clone());
            let mut out = Vec::new();
            let end = batch
                .run(
                    0..10_000usize,
                    |i| {
                        if i == 50 {
                            cancel.cancel();
                        }
                        i
                    },
                    |i| {
                        out.push(i);
                        Ok::<(), ()>(())
                    },
                )
                .unwrap();
            let Finished::Cancelled { items } = end else {
                panic!("{end:?}")
            };
            assert_eq!(out.len(), items);
            assert_eq!(out, (0..items).collect::<Vec<_>>());
            // One worker works through its take and stops after the item that cancelled.
            // With several, a take of items before 50 that was not started when item 50 (in
            // another take) cancelled stays undone: the prefix may end before 50.
            if threads == 1 {
                assert_eq!(items, 51);
            } else {
                assert!(items < 10_000, "{items}");
            }
        }
    }

    #[test]
    fn a_slow_item_does_not_hold_back_the_ones_before_it() {
        // Item 3 blocks until item 1's result has been emitted: that only ends if results
        // stream as they settle.
        let emitted = Arc::new(AtomicUsize::new(0));
        let seen = emitted.clone();
        let mut out = Vec::new();
        Batch::new(2)
            .run(
                0..4usize,
                |i| {
                    if i == 3 {
                        let start = Instant::now();
                        while seen.load(Ordering::SeqCst) < 2 {
                            assert!(start.elapsed() < Duration::from_secs(10), "not streamed");
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    }
                    i
                },
                |i| {
                    out.push(i);
                    emitted.fetch_add(1, Ordering::SeqCst);
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
        assert_eq!(out, vec![0, 1, 2, 3]);
    }

    #[test]
    fn progress_reports_the_final_count() {
        let last = Arc::new(AtomicUsize::new(0));
        let seen = last.clone();
        let batch = Batch::new(2).with_progress(Arc::new(move |p: Progress| {
            seen.store(p.done, Ordering::SeqCst);
        }));
        batch
            .run(0..1000usize, |i| i, |_| Ok::<(), ()>(()))
            .unwrap();
        assert_eq!(last.load(Ordering::SeqCst), 1000);
    }
}
