//! A solver call that cannot be interrupted, run on a thread of its own so that its caller
//! returns at the budget's deadline or as soon as the budget is cancelled.
//!
//! microlp checks its clock only every thousand simplex pivots (a thousand pivots of a 25×25
//! program take about half a second, more on a loaded machine) and takes no stop token; HiGHS
//! takes no stop token either. [`run_detached`] gives such a call a thread, waits for its answer
//! while polling the budget, and when the budget runs out first returns the reason and leaves
//! the thread behind. The call must be given the same deadline, so the abandoned thread ends at
//! the solver's next check of its own clock; a call stopped only by a stop token runs to its end
//! in the background (its answer is dropped).

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::search::{Budget, StopReason};

/// How often the waiting caller reads the stop token.
const POLL: Duration = Duration::from_millis(10);

/// Runs `job` and returns its value, or the reason `budget` ran out first (the job then goes on
/// in the background; see the module docs). Without a deadline or a stop token, `job` runs on
/// the calling thread.
///
/// A panic in `job` is resumed on the calling thread.
pub(crate) fn run_detached<T: Send + 'static>(
    budget: &Budget,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, StopReason> {
    if budget.remaining().is_none() && budget.cancel().is_none() {
        return Ok(job());
    }
    if let Some(reason) = budget.interrupted() {
        return Err(reason);
    }
    // The job stays reachable from here, so a thread that cannot be spawned leaves it to be run
    // on the calling thread.
    let slot = Arc::new(Mutex::new(Some(job)));
    let (send, receive) = channel();
    let shared = Arc::clone(&slot);
    let spawned = thread::Builder::new()
        .name("sudokit-detached-solve".into())
        .spawn(move || {
            let job = shared.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(job) = job {
                // The receiver is gone when the caller stopped waiting: nothing to do then.
                let _ = send.send(job());
            }
        });
    let worker = match spawned {
        Ok(handle) => handle,
        Err(_) => {
            let job = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            let job = job.expect("a thread that was not spawned did not take the job");
            return Ok(job());
        }
    };
    loop {
        let wait = budget.remaining().map_or(POLL, |left| left.min(POLL));
        match receive.recv_timeout(wait) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Some(reason) = budget.interrupted() {
                    return Err(reason);
                }
            }
            Err(RecvTimeoutError::Disconnected) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the worker sends its value before it ends"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Cancel, Limits};
    use std::sync::mpsc;

    #[test]
    fn without_a_budget_the_job_runs_on_the_calling_thread() {
        let caller = thread::current().id();
        let ran_on = run_detached(&Budget::start(&Limits::none()), move || {
            thread::current().id()
        });
        assert_eq!(ran_on, Ok(caller));
    }

    #[test]
    fn a_finished_job_gives_its_value() {
        let limits = Limits::none().with_cancel(Cancel::new());
        assert_eq!(run_detached(&Budget::start(&limits), || 6 * 7), Ok(42));
    }

    #[test]
    fn a_cancellation_returns_while_the_job_still_runs() {
        let cancel = Cancel::new();
        let budget = Budget::start(&Limits::none().with_cancel(cancel.clone()));
        let (release, blocked) = mpsc::channel::<()>();
        let canceller = thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            cancel.cancel();
        });
        // The job waits until released: only the cancellation can end the wait.
        let answer = run_detached(&budget, move || blocked.recv().is_ok());
        assert_eq!(answer, Err(StopReason::Cancelled));
        canceller.join().unwrap();
        release.send(()).unwrap();
    }

    #[test]
    fn a_deadline_returns_while_the_job_still_runs() {
        let budget = Budget::start(&Limits::time(Duration::from_millis(20)));
        let (release, blocked) = mpsc::channel::<()>();
        let answer = run_detached(&budget, move || blocked.recv().is_ok());
        assert_eq!(answer, Err(StopReason::TimeLimit));
        release.send(()).unwrap();
    }

    #[test]
    #[should_panic(expected = "the job's own panic")]
    fn a_panic_in_the_job_reaches_the_caller() {
        let limits = Limits::none().with_cancel(Cancel::new());
        let _ = run_detached(&Budget::start(&limits), || -> u32 {
            panic!("the job's own panic")
        });
    }
}
