//! Stopping a command early without losing or corrupting output: SIGINT, SIGTERM and SIGHUP,
//! and the global `--timeout SECONDS`.
//!
//! [`install`] runs once, before the subcommand. It starts two small threads:
//! - a **signal thread** (`signal-hook`'s blocking iterator: no handler code of our own runs in
//!   signal context). On a signal it stops the run gracefully: the output takes no more results
//!   (every result already written stays, so the output is a valid prefix), batches start no
//!   more items ([`batch_cancel`]) and the searches in flight stop at their next check
//!   ([`clip`] gives every search the [`search_cancel`] token); the command then ends the normal
//!   way, with its summary (how far the run got, how to resume it; `crosscheck` its table of
//!   the puzzles checked), and `main` exits with 128 + the signal number (130 for Ctrl-C, 143
//!   for SIGTERM). The puzzles in flight are abandoned: their results are never written, so a
//!   resumed run redoes them. If the command has not ended [`GRACE`] later, or on a second
//!   signal, the thread stops it at once: output lock held, temporary files removed, summary
//!   printed.
//! - a **deadline thread** for `--timeout`. Solving commands clip every per-puzzle time budget to
//!   the time left ([`clip`]), so at the deadline the puzzles in flight end as `unknown (time
//!   limit)` and batches stop before the next chunk ([`expired`]), print the summary and exit 1.
//!   If the command has still not finished [`GRACE`] after the deadline (a command with no
//!   solver budget, such as a huge export), the thread stops it as a signal would, with exit
//!   code 124 (as `timeout(1)` does).
//!
//! The output lock and the progress counters live in [`super::sink`]; this file only decides
//! when to stop.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::Context;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use sudokit::search::{Cancel, Limits};

/// How long a command may overrun `--timeout` before it is stopped outright.
pub const GRACE: Duration = Duration::from_secs(2);

/// Exit code when the grace period after `--timeout` runs out (as `timeout(1)`).
pub const TIMEOUT_EXIT: i32 = 124;

/// The `--timeout` deadline, when one was given.
static DEADLINE: OnceLock<(Instant, f64)> = OnceLock::new();

/// The token that stops batches at the `--timeout` deadline or a signal (see [`batch_cancel`]).
static BATCH_CANCEL: OnceLock<Cancel> = OnceLock::new();

/// The token that stops the searches in flight on a signal (see [`search_cancel`]).
static SEARCH_CANCEL: OnceLock<Cancel> = OnceLock::new();

/// The signal that stopped the run, if one did.
static SIGNAL: OnceLock<i32> = OnceLock::new();

/// The token that stops every batch before its next item: set at the `--timeout` deadline and
/// on a signal.
pub fn batch_cancel() -> Cancel {
    BATCH_CANCEL.get_or_init(Cancel::new).clone()
}

/// The token that stops every search in flight: set on a signal (a `--timeout` ends searches
/// through their time budget instead, so they answer `unknown (time limit)`).
pub fn search_cancel() -> Cancel {
    SEARCH_CANCEL.get_or_init(Cancel::new).clone()
}

/// The exit code of a run stopped by a signal: 128 + the signal number.
pub fn signal_exit() -> Option<u8> {
    SIGNAL.get().map(|&signal| (128 + signal) as u8)
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Temporary files to delete when the process is stopped from outside.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the signal thread and, with `timeout`, the deadline thread.
///
/// # Errors
/// A timeout that is not a positive number of seconds; the signal handlers cannot be set.
pub fn install(timeout: Option<f64>) -> anyhow::Result<()> {
    if let Some(seconds) = timeout {
        let span = super::solving::seconds("--timeout", seconds)?;
        // A deadline beyond what an `Instant` holds is no deadline: nothing is installed.
        let Some(deadline) = Instant::now().checked_add(span) else {
            return install_signals();
        };
        let _ = DEADLINE.set((deadline, seconds));
        std::thread::Builder::new()
            .name("sudokit-deadline".into())
            .spawn(move || {
                let cancel = batch_cancel();
                let now = Instant::now();
                if deadline > now {
                    std::thread::sleep(deadline - now);
                }
                cancel.cancel();
                let Some(hard) = deadline.checked_add(GRACE) else {
                    return;
                };
                loop {
                    let now = Instant::now();
                    if now >= hard {
                        break;
                    }
                    std::thread::sleep(hard - now);
                }
                let why = format!(
                    "--timeout {seconds} s reached and the command did not stop within {} s more",
                    GRACE.as_secs()
                );
                stop_now(&why, TIMEOUT_EXIT);
            })
            .context("cannot start the deadline thread")?;
    }
    install_signals()
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
            super::sink::interrupt(&why);
            batch_cancel().cancel();
            search_cancel().cancel();
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

/// Ends the process at once: output lock held, temporary files removed, summary printed.
fn stop_now(why: &str, code: i32) -> ! {
    let _guard = super::sink::lock_and_summarize(why);
    if let Ok(temps) = TEMPS.lock() {
        for path in temps.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
    std::process::exit(code)
}

/// Names a temporary file to delete if the process is stopped before it is renamed.
pub fn register_temp(path: PathBuf) {
    if let Ok(mut temps) = TEMPS.lock() {
        temps.push(path);
    }
}

/// Forgets a temporary file (renamed or removed by its writer).
pub fn unregister_temp(path: &std::path::Path) {
    if let Ok(mut temps) = TEMPS.lock() {
        temps.retain(|p| p != path);
    }
}

/// The `--timeout` deadline, when one was given.
pub fn deadline() -> Option<Instant> {
    DEADLINE.get().map(|(d, _)| *d)
}

/// Whether the `--timeout` deadline has passed.
pub fn expired() -> bool {
    DEADLINE.get().is_some_and(|(d, _)| Instant::now() >= *d)
}

/// The `--timeout` value in seconds, when one was given.
pub fn timeout_seconds() -> Option<f64> {
    DEADLINE.get().map(|(_, s)| *s)
}

/// `limits` with the signal's stop token, and the time budget cut to what is left before the
/// `--timeout` deadline (zero once
/// it has passed, so a solver started late answers `unknown (time limit)` at once).
pub fn clip(limits: &Limits) -> Limits {
    Limits {
        time: clip_time(limits.time),
        nodes: limits.nodes,
        cancel: Some(search_cancel()),
    }
}

/// A time budget cut to what is left before the `--timeout` deadline (for budgets other than
/// [`Limits`], such as the propagation search's).
pub fn clip_time(time: Option<Duration>) -> Option<Duration> {
    let Some((deadline, _)) = DEADLINE.get() else {
        return time;
    };
    let left = deadline.saturating_duration_since(Instant::now());
    Some(time.map_or(left, |t| t.min(left)))
}
