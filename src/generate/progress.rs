//! Progress reports of a running reduction (puzzle generation or
//! [`super::puzzle::minimize`]): how many givens are left, how many removal tests have been
//! answered, and the time since the puzzle was started, handed to a callback of the caller's
//! ([`OnProgress`], in [`super::puzzle::Options::progress`]).
//!
//! A 25×25 puzzle can take minutes (see `BENCHMARKS.md`), so a caller that shows progress needs
//! it from inside the reduction. The callback runs on the thread that answered the test (a
//! lane's or a sweep's thread too), at most once per [`REPORT_INTERVAL`]; without a callback a
//! test costs one atomic increment more.
//!
//! # Examples
//! ```
//! use std::sync::{Arc, Mutex};
//! use sudokit::Shape;
//! use sudokit::generate::progress::OnProgress;
//! use sudokit::generate::puzzle::{Generator, Options, puzzle_rng};
//! let seen = Arc::new(Mutex::new(Vec::new()));
//! let log = Arc::clone(&seen);
//! let options = Options {
//!     progress: Some(OnProgress::new(move |p| log.lock().unwrap().push(p.givens))),
//!     ..Options::default()
//! };
//! let mut generator = Generator::new(Shape::sudoku(3, 3).unwrap(), options).unwrap();
//! let made = generator.generate(&mut puzzle_rng(1, 0)).unwrap();
//! // A 9×9 puzzle takes well under the interval: at most the final report.
//! assert!(seen.lock().unwrap().iter().all(|&g| g >= made.puzzle.filled()));
//! ```

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::search::Cancel;

/// How far the reduction of one puzzle has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerationProgress {
    /// Givens left in the puzzle being reduced.
    pub givens: usize,
    /// Removal tests answered so far, over every complete grid tried for this puzzle.
    pub tested: u64,
    /// The complete grid being reduced (1 for the first; more when a grid missed a target).
    pub grid: usize,
    /// Time since the puzzle was started.
    pub elapsed: Duration,
    /// Whether the reduction has ended (the last report of a puzzle).
    pub done: bool,
}

impl std::fmt::Display for GenerationProgress {
    /// `31 givens left, 120 removals tested, 2.5 s` (the progress lines of `generate` and
    /// `minimize`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} givens left, {} removals tested, {:.1} s",
            self.givens,
            self.tested,
            self.elapsed.as_secs_f64()
        )
    }
}

/// The shortest time between two reports of one puzzle (the last one excepted).
pub const REPORT_INTERVAL: Duration = Duration::from_millis(200);

/// A callback that receives [`GenerationProgress`] reports; cloning shares it.
#[derive(Clone)]
pub struct OnProgress(Arc<dyn Fn(&GenerationProgress) + Send + Sync>);

impl OnProgress {
    /// Wraps `report`, which may be called from several threads.
    pub fn new(report: impl Fn(&GenerationProgress) + Send + Sync + 'static) -> OnProgress {
        OnProgress(Arc::new(report))
    }

    /// Calls the callback.
    pub fn report(&self, progress: &GenerationProgress) {
        (self.0)(progress);
    }
}

impl fmt::Debug for OnProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OnProgress(..)")
    }
}

/// Two callbacks are equal when they are the same one (clones of one [`OnProgress`]).
impl PartialEq for OnProgress {
    fn eq(&self, other: &OnProgress) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for OnProgress {}

/// Counts the tests of one puzzle's reduction and reports to the callback, if there is one.
/// Shared by the threads of the lanes and sweeps (`&self` everywhere).
#[derive(Debug)]
pub(crate) struct Tracker {
    on: Option<OnProgress>,
    start: Instant,
    /// When the next report is due.
    next: Mutex<Instant>,
    tested: AtomicU64,
    grid: AtomicU64,
    /// Set from outside to stop the reduction between two removal tests.
    cancel: Option<Cancel>,
}

impl Tracker {
    /// A tracker started now.
    pub(crate) fn new(on: Option<OnProgress>) -> Tracker {
        let start = Instant::now();
        Tracker {
            on,
            start,
            next: Mutex::new(start + REPORT_INTERVAL),
            tested: AtomicU64::new(0),
            grid: AtomicU64::new(1),
            cancel: None,
        }
    }

    /// This tracker, which also tells the reduction to stop once `cancel` is set.
    pub(crate) fn with_cancel(mut self, cancel: Option<Cancel>) -> Tracker {
        self.cancel = cancel;
        self
    }

    /// Whether the run was cancelled: the reduction stops before its next test.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// The reduction starts on another complete grid.
    pub(crate) fn next_grid(&self) {
        self.grid.fetch_add(1, Ordering::Relaxed);
    }

    /// A removal test was answered; the puzzle has `givens` left.
    #[inline]
    pub(crate) fn tested(&self, givens: usize) {
        self.tested.fetch_add(1, Ordering::Relaxed);
        if self.on.is_some() {
            self.report(givens, false);
        }
    }

    /// The reduction has ended with `givens` left: the last report, whatever the interval.
    pub(crate) fn finished(&self, givens: usize) {
        if self.on.is_some() {
            self.report(givens, true);
        }
    }

    /// Removal tests answered so far.
    pub(crate) fn tests(&self) -> u64 {
        self.tested.load(Ordering::Relaxed)
    }

    fn report(&self, givens: usize, done: bool) {
        let Some(on) = &self.on else { return };
        let now = Instant::now();
        // Another thread reporting at this moment makes this report unnecessary.
        let Ok(mut next) = self.next.try_lock() else {
            return;
        };
        if now < *next && !done {
            return;
        }
        *next = now + REPORT_INTERVAL;
        on.report(&GenerationProgress {
            givens,
            tested: self.tests(),
            grid: self.grid.load(Ordering::Relaxed) as usize,
            elapsed: now - self.start,
            done,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_spaced_and_the_last_one_is_sent() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let tracker = Tracker::new(Some(OnProgress::new(move |p| {
            log.lock().unwrap().push(*p);
        })));
        for givens in (0..1000).rev() {
            tracker.tested(givens);
        }
        tracker.next_grid();
        tracker.finished(0);
        let seen = seen.lock().unwrap();
        // A thousand quick tests fall within one interval: only the final report.
        let last = seen.last().expect("the final report");
        assert!(last.done);
        assert_eq!((last.tested, last.grid, last.givens), (1000, 2, 0));
        assert!(seen.len() <= 2);
        assert_eq!(tracker.tests(), 1000);
    }

    #[test]
    fn without_a_callback_only_the_count_runs() {
        let tracker = Tracker::new(None);
        tracker.tested(5);
        tracker.finished(5);
        assert_eq!(tracker.tests(), 1);
    }
}
