//! Stopping a command early without losing or corrupting output: SIGINT, SIGTERM and SIGHUP, and
//! the global `--timeout SECONDS`. This file only decides *when* to stop; the library's
//! [`Control`] carries the stop to the jobs, and its [`SinkHandle`] keeps the output whole.
//!
//! [`install`] runs once, before the subcommand. It starts two small threads:
//! - a **signal thread** (`signal-hook`'s blocking iterator: no handler code of our own runs in
//!   signal context). On a signal it stops the run gracefully: the output takes no more records
//!   ([`SinkHandle::interrupt`]: every record already written stays, so the output is a valid
//!   prefix), batches start no more items and the searches in flight stop at their next check
//!   (the control's `stop` and `abort` tokens); the command then ends the normal way, with its
//!   summary (how far the run got, how to resume it), and `main` exits with 128 + the signal
//!   number (130 for Ctrl-C, 143 for SIGTERM). If the command has not ended [`GRACE`] later, or
//!   on a second signal, the thread stops it at once: output taken for good, temporary files
//!   removed, summary printed.
//! - a **deadline thread** for `--timeout`. Every search's budget ends at the deadline (the
//!   control's `deadline`), so at the deadline the puzzles in flight end as `unknown (time
//!   limit)`, batches stop before the next item, print the summary and exit 1. If the command has
//!   still not finished [`GRACE`] after the deadline (a command with no solver budget, such as a
//!   huge export), the thread stops it as a signal would, with exit code 124 (as `timeout(1)`
//!   does).

use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use sudokit::jobs::{Control, SinkHandle};

/// How long a command may overrun `--timeout` (or a signal) before it is stopped outright.
pub const GRACE: Duration = Duration::from_secs(5);

/// Exit code when the grace period after `--timeout` runs out (as `timeout(1)`).
pub const TIMEOUT_EXIT: i32 = 124;

/// The run's control: its tokens are set by the threads above.
static CONTROL: OnceLock<Control> = OnceLock::new();

/// The `--timeout` value in seconds, when one was given.
static TIMEOUT: OnceLock<f64> = OnceLock::new();

/// The signal that stopped the run, if one did.
static SIGNAL: OnceLock<i32> = OnceLock::new();

/// The output of the running batch, which a stop keeps whole.
static OUTPUT: Mutex<Option<SinkHandle>> = Mutex::new(None);

/// The control every job of this run obeys.
pub fn control() -> Control {
    CONTROL.get_or_init(Control::new).clone()
}

/// The exit code of a run stopped by a signal: 128 + the signal number.
pub fn signal_exit() -> Option<u8> {
    SIGNAL.get().map(|&signal| (128 + signal) as u8)
}

/// Why a batch that did not complete stopped: `--timeout 5 s reached`, or `stopped`.
pub fn why_stopped() -> String {
    match TIMEOUT.get() {
        Some(seconds) => format!("--timeout {seconds} s reached"),
        None => "stopped".to_string(),
    }
}

/// Names the output of the running batch (a signal interrupts it, a hard stop freezes it).
pub fn watch(output: SinkHandle) {
    *OUTPUT.lock().unwrap_or_else(PoisonError::into_inner) = Some(output);
}

/// Forgets the output of a finished batch.
pub fn unwatch() {
    *OUTPUT.lock().unwrap_or_else(PoisonError::into_inner) = None;
}

fn watched() -> Option<SinkHandle> {
    OUTPUT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Installs the signal thread and, with `timeout`, the deadline thread.
///
/// # Errors
/// A timeout that is not a positive number of seconds; the signal handlers cannot be set.
pub fn install(timeout: Option<f64>) -> anyhow::Result<()> {
    let mut control = Control::new();
    if let Some(seconds) = timeout {
        let span = sudokit::jobs::options::seconds("timeout", seconds)?;
        let _ = TIMEOUT.set(seconds);
        // A deadline beyond what an `Instant` holds is no deadline.
        if let Some(deadline) = Instant::now().checked_add(span) {
            control = control.with_deadline(deadline);
            let stop = control.stop.clone();
            std::thread::Builder::new()
                .name("sudokit-deadline".into())
                .spawn(move || {
                    sleep_until(deadline);
                    stop.cancel();
                    let Some(hard) = deadline.checked_add(GRACE) else {
                        return;
                    };
                    sleep_until(hard);
                    let why = format!(
                        "--timeout {seconds} s reached and the command did not stop within {} s more",
                        GRACE.as_secs()
                    );
                    stop_now(&why, TIMEOUT_EXIT);
                })
                .context("cannot start the deadline thread")?;
        }
    }
    let _ = CONTROL.set(control);
    install_signals()
}

fn sleep_until(instant: Instant) {
    loop {
        let now = Instant::now();
        if now >= instant {
            return;
        }
        std::thread::sleep(instant - now);
    }
}

/// Starts the signal thread.
fn install_signals() -> anyhow::Result<()> {
    let mut signals =
        Signals::new([SIGINT, SIGTERM, SIGHUP]).context("cannot install the signal handlers")?;
    std::thread::Builder::new()
        .name("sudokit-signals".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            let _ = SIGNAL.set(signal);
            let why = format!("interrupted by {}", signal_name(signal));
            if let Some(output) = watched() {
                output.interrupt(&why);
            }
            let control = control();
            control.stop.cancel();
            control.abort.cancel();
            // The command ends on its own; if it does not within GRACE (or on a second
            // signal), it is stopped at once.
            let (sender, receiver) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                if signals.forever().next().is_some() {
                    let _ = sender.send(());
                }
            });
            let _ = receiver.recv_timeout(GRACE);
            stop_now(&why, 128 + signal);
        })
        .context("cannot start the signal thread")?;
    Ok(())
}

/// Ends the process at once: output taken for good, temporary files removed, summary printed.
fn stop_now(why: &str, code: i32) -> ! {
    let summary = match watched() {
        Some(output) => output.freeze(why),
        None => why.to_string(),
    };
    super::note!("sudokit: {summary}");
    sudokit::jobs::target::remove_temporaries();
    std::process::exit(code)
}
