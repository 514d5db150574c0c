//! Long calls without the GIL, interrupted by Ctrl-C.
//!
//! The work runs on a thread of rayon's global pool (a thread reused from call to call: a short
//! call pays a hand-over, not the start of an OS thread); the calling thread waits for it in
//! slices of [`POLL`] without the GIL (other Python threads run meanwhile) and between slices
//! asks Python whether a signal came (`check_signals`, which runs the SIGINT handler and so
//! raises `KeyboardInterrupt` in a notebook or a terminal). On an interrupt, a search stops
//! through its [`Cancel`] token and the call raises once it has; work that has no token
//! ([`detached`]: explanation, export, encoding) is left to finish in the background, its result
//! dropped, and the call raises at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use sudokit::search::Cancel;

use crate::errors::failure;

/// How long the calling thread waits without the GIL between two checks for signals.
const POLL: Duration = Duration::from_millis(50);

/// How long a wait yields the processor before it blocks (see [`receive`]).
const SPIN: Duration = Duration::from_micros(200);

/// What a piece of work ended with: its value, or the message of its panic.
type Outcome<T> = Result<T, String>;

/// Runs `work` (which must stop soon once its token is set) on a pool thread, the GIL
/// released, until it is done or Ctrl-C sets the token.
///
/// # Errors
/// `KeyboardInterrupt` (or whatever the signal handler raised); a panic of the work, as a
/// `SudokitError`.
pub fn cancellable<T: Send>(py: Python<'_>, work: impl FnOnce(Cancel) -> T + Send) -> PyResult<T> {
    let cancel = Cancel::new();
    let token = cancel.clone();
    let (done, finished) = mpsc::channel();
    // The scope ends when the work has: a cancelled search stops soon.
    rayon::in_place_scope(|scope| {
        scope.spawn(move |_| {
            let _ = done.send(guarded(|| work(token)));
        });
        let waited = wait(py, finished);
        if waited.is_err() {
            cancel.cancel();
        }
        waited
    })
}

/// Runs `work` on a pool thread, the GIL released, until it is done; on Ctrl-C the call raises
/// at once and the work finishes in the background.
///
/// # Errors
/// As [`cancellable`].
pub fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel();
    rayon::spawn(move || {
        let _ = done.send(guarded(work));
    });
    wait(py, finished)
}

/// The work's value, or its panic as a message.
fn guarded<T>(work: impl FnOnce() -> T) -> Outcome<T> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|panic| {
        panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string())
    })
}

/// The outcome within [`POLL`]: a short call's answer is awaited by yielding the processor for
/// up to [`SPIN`] (a blocked thread would take as long again to be woken), then by blocking.
fn receive<T>(channel: &mpsc::Receiver<T>) -> Result<T, mpsc::RecvTimeoutError> {
    let start = Instant::now();
    while start.elapsed() < SPIN {
        if let Ok(outcome) = channel.try_recv() {
            return Ok(outcome);
        }
        std::thread::yield_now();
    }
    channel.recv_timeout(POLL - SPIN)
}

/// Waits for the outcome, releasing the GIL in slices and checking for signals between them.
fn wait<T: Send>(py: Python<'_>, channel: mpsc::Receiver<Outcome<T>>) -> PyResult<T> {
    let mut channel = channel;
    loop {
        // A receiver is Send but not Sync: it is moved into the wait and handed back.
        let (received, back) = py.detach(move || (receive(&channel), channel));
        channel = back;
        match received {
            Ok(outcome) => return outcome.map_err(|m| failure(format!("internal error: {m}"))),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(failure(
                    "internal error: the worker ended without an answer",
                ));
            }
        }
    }
}
