//! Long calls without the GIL, interrupted by Ctrl-C.
//!
//! The work runs on a thread of its own; the calling thread waits for it in slices of
//! [`POLL`] without the GIL (other Python threads run meanwhile) and between slices asks Python
//! whether a signal came (`check_signals`, which runs the SIGINT handler and so raises
//! `KeyboardInterrupt` in a notebook or a terminal). On an interrupt, a search stops through
//! its [`Cancel`] token and the call raises at once; work that has no token
//! ([`detached`]: generation, minimization) is left to finish in the background, its result
//! dropped.

use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;
use sudokit::search::Cancel;

use crate::errors::failure;

/// How long the calling thread waits without the GIL between two checks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` (which must stop soon once its token is set) on a thread, the GIL released,
/// until it is done or Ctrl-C sets the token.
///
/// # Errors
/// `KeyboardInterrupt` (or whatever the signal handler raised); a panic of the work, as a
/// `SudokitError`.
pub fn cancellable<T: Send>(py: Python<'_>, work: impl FnOnce(Cancel) -> T + Send) -> PyResult<T> {
    let cancel = Cancel::new();
    let token = cancel.clone();
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        let handle = scope.spawn(move || {
            let result = work(token);
            let _ = done.send(());
            result
        });
        let waited = wait(py, finished);
        if waited.is_err() {
            cancel.cancel();
        }
        match (waited, handle.join()) {
            (_, Err(panic)) => Err(failure(format!("internal error: {}", panic_text(&panic)))),
            (Err(interrupt), Ok(_)) => Err(interrupt),
            (Ok(()), Ok(result)) => Ok(result),
        }
    })
}

/// Runs `work` on a thread of its own, the GIL released, until it is done; on Ctrl-C the call
/// raises at once and the work finishes in the background.
///
/// # Errors
/// As [`cancellable`].
pub fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        let _ = send.send(outcome);
    });
    wait(py, receive)?.map_err(|panic| failure(format!("internal error: {}", panic_text(&panic))))
}

/// Waits for one message, releasing the GIL in slices and checking for signals between them.
fn wait<T: Send>(py: Python<'_>, channel: mpsc::Receiver<T>) -> PyResult<T> {
    let mut channel = channel;
    loop {
        // A receiver is Send but not Sync: it is moved into the wait and handed back.
        let (received, back) = py.detach(move || (channel.recv_timeout(POLL), channel));
        channel = back;
        match received {
            Ok(value) => return Ok(value),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(failure(
                    "internal error: the worker thread ended without an answer",
                ));
            }
        }
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".to_string())
}
