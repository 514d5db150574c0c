//! The process of a run: the program started in its own process group in the scratch
//! directory, polled until it ends, its deadline passes or the stop token is set (then the whole
//! group is killed), with a watchdog that cleans up if sudokit dies first.
//!
//! **Cleaning up after a kill.** sudokit cannot clean up when it is killed with SIGKILL, so
//! each run has a watchdog: a shell, in a process group of its own, that waits on a pipe from
//! sudokit. When the run ends, sudokit says so on the pipe and the watchdog exits; when sudokit
//! dies first, the pipe closes, and the watchdog kills the program's process group and removes
//! the scratch directory. (A parent-death signal would need `prctl` in the child between fork
//! and exec, an `unsafe` hook this crate does not use; and it would reach only the direct
//! child, not a FlatZinc solver started by MiniZinc.)

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use super::Scratch;
use crate::external::files::open_regular;
use crate::search::Cancel;

/// How a process ended.
pub(super) enum Ended {
    /// It exited, with its code (`None`: killed by a signal it did not get from us).
    Exited(Option<i32>),
    /// The deadline passed: killed.
    TimeLimit,
    /// The stop token was set: killed.
    Cancelled,
}

/// A started program: the process, and the watchdog that cleans up if sudokit dies first.
pub(super) struct Running {
    pub(super) child: Child,
    watchdog: Option<Watchdog>,
}

/// The shell that kills a run's process group and removes its scratch directory when sudokit
/// dies before the run ends (see the module docs).
struct Watchdog {
    shell: Child,
    pipe: Option<ChildStdin>,
}

impl Watchdog {
    /// Starts the watchdog of the process group `group` and the directory `scratch`; `None`
    /// where there is no `/bin/sh` (the run goes on without one).
    fn start(group: u32, scratch: &Path) -> Option<Watchdog> {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            // `kill -9 -GROUP`: dash's kill takes neither `--` nor `-s KILL` before a group.
            .arg("read -r line || { kill -9 -\"$0\"; rm -rf \"$1\"; }")
            .arg(group.to_string())
            .arg(scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group: a Ctrl-C at the terminal does not end it before sudokit does.
            command.process_group(0);
        }
        let mut shell = command.spawn().ok()?;
        let pipe = shell.stdin.take();
        Some(Watchdog { shell, pipe })
    }

    /// The run is over: the watchdog exits without killing anything.
    fn release(mut self) {
        if let Some(mut pipe) = self.pipe.take() {
            let _ = pipe.write_all(b"done\n");
        }
        let _ = self.shell.wait();
    }
}

/// Starts `command` in its own process group (on Unix), in `scratch`, with a watchdog.
pub(super) fn spawn(command: &mut Command, scratch: &Path) -> std::io::Result<Running> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command.current_dir(scratch);
    let child = command.spawn()?;
    let watchdog = Watchdog::start(child.id(), scratch);
    Ok(Running { child, watchdog })
}

impl Running {
    /// Kills the program and its group, reaps it, and releases the watchdog.
    fn kill(mut self) {
        kill_pid_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.finish();
    }

    fn finish(&mut self) {
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.release();
        }
    }

    /// Waits for the program until `deadline` or until `cancel` is set.
    pub(super) fn wait(mut self, deadline: Option<Instant>, cancel: Option<&Cancel>) -> Ended {
        let mut pause = Duration::from_micros(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // The program is gone; its helpers (a FlatZinc solver) are stopped with it.
                    kill_pid_group(self.child.id());
                    self.finish();
                    return Ended::Exited(status.code());
                }
                Ok(None) => {}
                Err(_) => {
                    self.kill();
                    return Ended::Exited(None);
                }
            }
            if cancel.is_some_and(Cancel::is_cancelled) {
                self.kill();
                return Ended::Cancelled;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                self.kill();
                return Ended::TimeLimit;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }
}

/// The output (standard output, then error) of `program args`, run for at most 5 seconds with
/// no input in a scratch directory; `None` when it cannot start or runs out of time.
pub(in crate::external) fn quick_output(program: &Path, args: &[String]) -> Option<String> {
    let scratch = Scratch::new().ok()?;
    let out = scratch.path().join("out");
    let file = File::create(&out).ok()?;
    let running = spawn(
        Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(file.try_clone().ok()?)
            .stderr(file),
        scratch.path(),
    )
    .ok()?;
    match running.wait(Some(Instant::now() + Duration::from_secs(5)), None) {
        Ended::Exited(_) => {
            let mut text = String::new();
            open_regular(&out)
                .ok()?
                .take(1 << 20)
                .read_to_string(&mut text)
                .ok()?;
            Some(text)
        }
        _ => None,
    }
}

/// The last lines of a file (a program's standard error), for messages.
pub(super) fn tail(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(file) = open_regular(path) {
        let _ = BufReader::new(file).take(1 << 16).read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    lines[start..].join(" / ")
}

/// Kills the process group led by `id` (a program that has already ended is no error).
pub(super) fn kill_pid_group(id: u32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        if let Ok(id) = i32::try_from(id) {
            let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = id;
}
