//! Running an entry of the solver table: the scratch directory, the process with its deadline,
//! and the count by solving again with the solutions found ruled out.
//!
//! A run writes the puzzle in the entry's format (with one no-good per solution found so far),
//! starts the program in its own process group, in the scratch directory (so the logs some
//! programs leave, `Highs.log`, land there), with standard input from `/dev/null` (or the
//! input file), its standard output and error to files, and polls it: at the deadline, or when
//! the stop token is set, the whole group is killed. Then the exit code is checked against the
//! entry, the answer read and decoded by the entry's reader and verified; a verdict in the exit
//! code (SAT solvers' 10 and 20) must agree with the answer. One run is one search node of
//! [`Stats`]: a node budget bounds the runs.
//!
//! **Refutations.** An entry with a `proof` gets its proof arguments on every run; when a run
//! ends in `unsat`, the proof is checked against the formula sudokit wrote
//! ([`super::certify`]) and the count's [`Refutation`] is the checked proof. A proof that is
//! rejected is an error, never an `unsat`. Without a proof (or when a limit stops the check)
//! the `unsat` is a [`Refutation::Claim`]: shown as a claim, never as a fact.
//!
//! **Cleaning up after a kill.** sudokit cannot clean up when it is killed with SIGKILL, so
//! each run has a watchdog: a shell, in a process group of its own, that waits on a pipe from
//! sudokit. When the run ends, sudokit says so on the pipe and the watchdog exits; when sudokit
//! dies first, the pipe closes, and the watchdog kills the program's process group and removes
//! the scratch directory. (A parent-death signal would need `prctl` in the child between fork
//! and exec, an `unsafe` hook this crate does not use; and it would reach only the direct
//! child, not a FlatZinc solver started by MiniZinc.)
//!
//! # Complexity
//! One program run per solution counted, plus one that proves there is no other.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::certify::{CHECKER, ProofCheck, check_refutation};
use super::files::open_regular;
use super::{Entry, ExternalError};
use crate::format::clausal_proof::ProofFormat;
use crate::format::dimacs::formula_excluding;
use crate::format::{
    Decoded, ExportOptions, decode_answer, decode_answers, export_excluding, find_format,
    find_reader,
};
use crate::grid::Grid;
use crate::search::{Cancel, CountReport, Limits, Refutation, StopReason};

/// A directory of its own under the system's temporary directory, removed with everything in
/// it when dropped.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Creates a fresh directory (an absolute path: programs run inside it).
    ///
    /// # Errors
    /// The I/O error of creating it.
    pub fn new() -> std::io::Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sudokit-ext-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        let dir = std::fs::canonicalize(&dir)?;
        Ok(Scratch { dir })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// How a process ended.
enum Ended {
    /// It exited, with its code (`None`: killed by a signal it did not get from us).
    Exited(Option<i32>),
    /// The deadline passed: killed.
    TimeLimit,
    /// The stop token was set: killed.
    Cancelled,
}

/// A started program: the process, and the watchdog that cleans up if sudokit dies first.
struct Running {
    child: Child,
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
fn spawn(command: &mut Command, scratch: &Path) -> std::io::Result<Running> {
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
    fn wait(mut self, deadline: Option<Instant>, cancel: Option<&Cancel>) -> Ended {
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
pub(super) fn quick_output(program: &Path, args: &[String]) -> Option<String> {
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
fn tail(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(file) = open_regular(path) {
        let _ = BufReader::new(file).take(1 << 16).read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    lines[start..].join(" / ")
}

impl Entry {
    fn error(&self, make: fn(String, String) -> ExternalError, message: String) -> ExternalError {
        make(self.name.clone(), message)
    }

    /// The arguments with the placeholders filled in (`time`: the time left, if limited;
    /// `proof`: the proof file, when the entry writes proofs).
    fn arguments(
        &self,
        input: &Path,
        output: &Path,
        proof: Option<&Path>,
        time: Option<Duration>,
        enumerate: Option<u64>,
    ) -> Vec<String> {
        let fill = |arg: &str| -> String {
            let (seconds, millis) = time.map_or((0, 0), |t| {
                (t.as_secs_f64().ceil().max(1.0) as u64, t.as_millis().max(1))
            });
            arg.replace("{input}", &input.display().to_string())
                .replace("{output}", &output.display().to_string())
                .replace("{seconds}", &seconds.to_string())
                .replace("{millis}", &millis.to_string())
        };
        let time_args: Vec<String> = match time {
            Some(_) => self.time_args.iter().map(|a| fill(a)).collect(),
            None => Vec::new(),
        };
        let proof_args: Vec<String> = match (&self.proof, proof) {
            (Some(spec), Some(file)) => spec
                .args
                .iter()
                .map(|a| a.replace("{file}", &file.display().to_string()))
                .collect(),
            _ => Vec::new(),
        };
        // `{limit}`: the most models wanted (a count without a limit asks for 2³¹ − 1).
        let enumerate_args: Vec<String> = match (&self.enumerate, enumerate) {
            (Some(words), Some(limit)) => {
                let limit = limit.min(i32::MAX as u64).to_string();
                words.iter().map(|a| a.replace("{limit}", &limit)).collect()
            }
            _ => Vec::new(),
        };
        let mut args = Vec::new();
        for arg in &self.args {
            match arg.as_str() {
                "{time}" => args.extend(time_args.iter().cloned()),
                "{proof}" => args.extend(proof_args.iter().cloned()),
                "{enumerate}" => args.extend(enumerate_args.iter().cloned()),
                _ => args.push(fill(
                    &arg.replace("{time}", &time_args.join(" "))
                        .replace("{proof}", &proof_args.join(" "))
                        .replace("{enumerate}", &enumerate_args.join(" ")),
                )),
            }
        }
        args
    }

    /// Why an `unsat` of this entry is not checked, when it writes no proof.
    fn unchecked(&self, reason: impl Into<String>) -> Refutation {
        Refutation::Claim {
            by: self.name.clone(),
            reason: reason.into(),
        }
    }

    /// How the `unsat` of the last run is known: its proof, checked against the formula with
    /// `excluded` ruled out, or a claim.
    ///
    /// # Errors
    /// [`ExternalError::BadAnswer`] when the proof is rejected.
    fn refutation(
        &self,
        puzzle: &Grid,
        excluded: &[Grid],
        proof: Option<&Path>,
        deadline: Option<Instant>,
        cancel: Option<&Cancel>,
    ) -> Result<Refutation, ExternalError> {
        let (Some(spec), Some(path)) = (&self.proof, proof) else {
            return Ok(self.unchecked("no proof in its table entry"));
        };
        let format: ProofFormat = spec.format.parse().map_err(|e: String| {
            self.error(|name, message| ExternalError::BadEntry { name, message }, e)
        })?;
        let rejected = |why: String| {
            self.error(
                |name, message| ExternalError::BadAnswer { name, message },
                format!("it says unsat, but its {format} proof is rejected: {why}"),
            )
        };
        let file = open_regular(path).map_err(|e| rejected(format!("no proof file ({e})")))?;
        let cnf = formula_excluding(puzzle, ExportOptions::default().cnf, excluded);
        let interrupted = || {
            if cancel.is_some_and(Cancel::is_cancelled) {
                Some(StopReason::Cancelled)
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                Some(StopReason::TimeLimit)
            } else {
                None
            }
        };
        match check_refutation(
            &cnf,
            format,
            &mut BufReader::with_capacity(1 << 16, file),
            &interrupted,
        ) {
            ProofCheck::Accepted {
                ignored_deletions, ..
            } => Ok(Refutation::Proof {
                by: self.name.clone(),
                format: format.name().to_string(),
                checker: match ignored_deletions {
                    0 => CHECKER.to_string(),
                    n => format!(
                        "{CHECKER} ({n} deletion{} of a reason or absent clause ignored, as \
                         drat-trim does)",
                        if n == 1 { "" } else { "s" }
                    ),
                },
            }),
            ProofCheck::Rejected(why) => Err(rejected(why)),
            ProofCheck::Stopped(reason) => Ok(self.unchecked(format!(
                "the {reason} stopped the check of its {format} proof"
            ))),
        }
    }

    /// Counts the solutions of `puzzle` up to `limit` with the program at `program`: every
    /// solution verified. An entry that enumerates (its `enumerate` arguments) and a count past
    /// one solution read every model of one run; otherwise each further solution is found by
    /// running again with the earlier ones ruled out. The final `unsat` is checked by its proof
    /// when the entry writes one. A search node is one run of the program.
    ///
    /// # Errors
    /// [`ExternalError`]: the entry names an unknown format or reader, the input cannot be
    /// written, the program cannot start or exits badly, its answer cannot be read or is not a
    /// solution, its refutation proof is rejected, or it would have to count past one solution
    /// on a format without no-goods.
    pub fn count(
        &self,
        program: &Path,
        puzzle: &Grid,
        limit: u64,
        limits: &Limits,
    ) -> Result<CountReport, ExternalError> {
        let mut run = Run::new(self, program, puzzle, limits)?;
        let open = (0..puzzle.shape().cells()).any(|cell| puzzle.get(cell).is_none());
        let mut report = if self.enumerate.is_some() && limit > 1 && open {
            run.enumeration(limit)?
        } else {
            run.nogoods(limit, Vec::new(), CountReport::default())?
        };
        report.stats.nodes = run.runs;
        report.stats.elapsed = run.start.elapsed();
        Ok(report)
    }
}

/// One count with an entry: its scratch files, clock and runs.
struct Run<'a> {
    entry: &'a Entry,
    program: &'a Path,
    puzzle: &'a Grid,
    limits: &'a Limits,
    format: &'static crate::format::ExportFormat,
    reader: &'static crate::format::AnswerReader,
    scratch: Scratch,
    input: PathBuf,
    output: PathBuf,
    errors: PathBuf,
    stdout_log: PathBuf,
    proof: Option<PathBuf>,
    writes_output: bool,
    start: Instant,
    deadline: Option<Instant>,
    runs: u64,
}

impl<'a> Run<'a> {
    fn new(
        entry: &'a Entry,
        program: &'a Path,
        puzzle: &'a Grid,
        limits: &'a Limits,
    ) -> Result<Run<'a>, ExternalError> {
        let bad = |message: String| ExternalError::BadEntry {
            name: entry.name.clone(),
            message,
        };
        let format = find_format(&entry.input).map_err(|e| bad(e.to_string()))?;
        let reader = find_reader(&entry.answer).map_err(|e| bad(e.to_string()))?;
        let scratch = Scratch::new().map_err(|e| ExternalError::Io {
            name: entry.name.clone(),
            message: format!("scratch directory: {e}"),
        })?;
        let dir = scratch.path().to_path_buf();
        let start = Instant::now();
        Ok(Run {
            entry,
            program,
            puzzle,
            limits,
            format,
            reader,
            input: dir.join(format!("puzzle.{}", format.extension)),
            output: dir.join("answer.out"),
            errors: dir.join("stderr.txt"),
            stdout_log: dir.join("stdout.txt"),
            proof: entry
                .proof
                .as_ref()
                .map(|spec| dir.join(format!("proof.{}", spec.format))),
            writes_output: entry.args.iter().any(|a| a.contains("{output}")),
            scratch,
            start,
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            runs: 0,
        })
    }

    fn io(&self, what: &str, e: std::io::Error) -> ExternalError {
        ExternalError::Io {
            name: self.entry.name.clone(),
            message: format!("{what}: {e}"),
        }
    }

    fn failed(&self, message: String) -> ExternalError {
        ExternalError::Failed {
            name: self.entry.name.clone(),
            message,
        }
    }

    fn bad_answer(&self, message: String) -> ExternalError {
        ExternalError::BadAnswer {
            name: self.entry.name.clone(),
            message,
        }
    }

    /// Why to stop before another run, if a limit says so.
    fn stop(&self, runs_allowed: bool) -> Option<StopReason> {
        if self.limits.is_cancelled() {
            Some(StopReason::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::TimeLimit)
        } else if !runs_allowed {
            Some(StopReason::NodeLimit)
        } else {
            None
        }
    }

    /// Writes the puzzle with `excluded` ruled out to the input file.
    fn write_input(&self, excluded: &[Grid]) -> Result<(), ExternalError> {
        let mut file = File::create(&self.input).map_err(|e| self.io("input", e))?;
        export_excluding(
            self.puzzle,
            self.format,
            &ExportOptions::default(),
            excluded,
            &mut file,
        )
        .map_err(|e| self.io("input", e))
    }

    /// The command of one run: with the proof arguments, or with the enumeration arguments for
    /// `enumerate` models.
    fn command(&self, enumerate: Option<u64>) -> Result<Command, ExternalError> {
        let time = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let proof = if enumerate.is_none() {
            self.proof.as_deref()
        } else {
            None
        };
        let stdin = if self.entry.stdin {
            Stdio::from(File::open(&self.input).map_err(|e| self.io("input", e))?)
        } else {
            Stdio::null()
        };
        let mut command = Command::new(self.program);
        command
            .args(
                self.entry
                    .arguments(&self.input, &self.output, proof, time, enumerate),
            )
            .stdin(stdin);
        Ok(command)
    }

    /// The exit code of a run that ended by itself, checked against the entry.
    fn exit_code(&self, code: Option<i32>) -> Result<i32, ExternalError> {
        let Some(code) = code else {
            return Err(self.failed(format!("killed by a signal: {}", tail(&self.errors))));
        };
        let entry = self.entry;
        let allowed = [&entry.exit_ok, &entry.sat_exit, &entry.unsat_exit];
        if !allowed.iter().any(|codes| codes.contains(&code)) {
            return Err(self.failed(format!("exited with status {code}: {}", tail(&self.errors))));
        }
        Ok(code)
    }

    /// How the last run's `unsat` is known (see [`Entry::refutation`]).
    fn refutation(&self, excluded: &[Grid]) -> Result<Refutation, ExternalError> {
        self.entry.refutation(
            self.puzzle,
            excluded,
            self.proof.as_deref(),
            self.deadline,
            self.limits.cancel.as_ref(),
        )
    }

    /// Counts by no-goods from `report` and the solutions `excluded` found so far: runs the
    /// program with them ruled out until it says unsat, a limit stops it, or `limit` is
    /// reached.
    fn nogoods(
        &mut self,
        limit: u64,
        mut excluded: Vec<Grid>,
        mut report: CountReport,
    ) -> Result<CountReport, ExternalError> {
        let open = (0..self.puzzle.shape().cells()).any(|cell| self.puzzle.get(cell).is_none());
        loop {
            if report.count >= limit {
                report.hit_limit = true;
                break;
            }
            let runs_allowed = self.limits.nodes.is_none_or(|max| self.runs < max);
            if let Some(reason) = self.stop(runs_allowed) {
                report.stopped = Some(reason);
                break;
            }
            if !excluded.is_empty() && self.format.exclude.is_none() {
                return Err(ExternalError::CannotCount {
                    name: self.entry.name.clone(),
                    format: self.format.name.to_string(),
                });
            }
            self.write_input(&excluded)?;
            for stale in [Some(&self.output), self.proof.as_ref()]
                .into_iter()
                .flatten()
            {
                let _ = std::fs::remove_file(stale);
            }
            // Standard output: the answer, unless the program writes `{output}` itself.
            let stdout_path = if self.writes_output {
                &self.stdout_log
            } else {
                &self.output
            };
            let stdout = File::create(stdout_path).map_err(|e| self.io("answer", e))?;
            let stderr = if !self.writes_output && self.entry.capture == super::Capture::Both {
                stdout.try_clone().map_err(|e| self.io("answer", e))?
            } else {
                File::create(&self.errors).map_err(|e| self.io("stderr", e))?
            };
            let mut command = self.command(None)?;
            command.stdout(stdout).stderr(stderr);
            let running = spawn(&mut command, self.scratch.path())
                .map_err(|e| self.io(&format!("cannot start {}", self.program.display()), e))?;
            self.runs += 1;
            let code = match running.wait(self.deadline, self.limits.cancel.as_ref()) {
                Ended::TimeLimit => {
                    report.stopped = Some(StopReason::TimeLimit);
                    break;
                }
                Ended::Cancelled => {
                    report.stopped = Some(StopReason::Cancelled);
                    break;
                }
                Ended::Exited(code) => self.exit_code(code)?,
            };
            let says_sat = self.entry.sat_exit.contains(&code);
            let says_unsat = self.entry.unsat_exit.contains(&code);
            // Some programs (miniexact) say unsat by their exit code alone and print nothing.
            if says_unsat && std::fs::metadata(&self.output).is_ok_and(|m| m.len() == 0) {
                report.refutation = self.refutation(&excluded)?;
                break;
            }
            let file = open_regular(&self.output).map_err(|e| {
                self.bad_answer(format!(
                    "no answer file ({e}); it said: {}",
                    tail(&self.errors)
                ))
            })?;
            let decoded = decode_answer(
                self.puzzle,
                self.reader,
                &ExportOptions::default(),
                &mut BufReader::new(file),
            )
            .map_err(|e| {
                self.bad_answer(format!(
                    "unreadable answer ({} reader): {e}",
                    self.reader.name
                ))
            })?;
            match decoded {
                Decoded::Solution(grid) => {
                    if says_unsat {
                        return Err(self.bad_answer(format!(
                            "exit code {code} says unsat, the answer has a solution"
                        )));
                    }
                    if excluded.contains(&grid) {
                        return Err(
                            self.bad_answer("returned a solution that was ruled out".into())
                        );
                    }
                    report.record(|| grid.clone(), limit);
                    if !open {
                        // Nothing is open: the puzzle itself is the only solution.
                        report.hit_limit = false;
                        report.refutation = Refutation::Propagation;
                        break;
                    }
                    excluded.push(grid);
                    report.hit_limit = false;
                }
                Decoded::Unsat => {
                    if says_sat {
                        return Err(self.bad_answer(format!(
                            "exit code {code} says sat, the answer says unsat"
                        )));
                    }
                    report.refutation = self.refutation(&excluded)?;
                    break;
                }
                Decoded::Unknown if self.limits.time.is_some() => {
                    report.stopped = Some(StopReason::TimeLimit);
                    break;
                }
                Decoded::Unknown => {
                    return Err(self.bad_answer("answered unknown without a time limit".into()));
                }
                Decoded::Invalid(_, violation) => {
                    return Err(ExternalError::NotASolution {
                        name: self.entry.name.clone(),
                        violation,
                    });
                }
                Decoded::NotAGrid(why) => {
                    return Err(self.bad_answer(format!("the answer is not a grid: {why}")));
                }
            }
        }
        Ok(report)
    }

    /// Counts with the program's own enumeration: one run that prints every model (up to
    /// `limit`), read as it prints them and stopped at the limit. When the enumeration ends,
    /// its "no other" is checked, where the entry writes proofs, by one more run with every
    /// model ruled out; otherwise it is a claim.
    fn enumeration(&mut self, limit: u64) -> Result<CountReport, ExternalError> {
        let mut report = CountReport::default();
        if let Some(reason) = self.stop(self.limits.nodes.is_none_or(|max| max > 0)) {
            report.stopped = Some(reason);
            return Ok(report);
        }
        self.write_input(&[])?;
        let stderr = File::create(&self.errors).map_err(|e| self.io("stderr", e))?;
        let mut command = self.command(Some(limit))?;
        command.stdout(Stdio::piped()).stderr(stderr);
        let mut running = spawn(&mut command, self.scratch.path())
            .map_err(|e| self.io(&format!("cannot start {}", self.program.display()), e))?;
        self.runs += 1;
        let stdout = running.child.stdout.take().expect("piped");
        // A watcher kills the program at the deadline or on the stop token, which ends the
        // reading below.
        let stopped: std::sync::Mutex<Option<StopReason>> = std::sync::Mutex::new(None);
        let done = std::sync::atomic::AtomicBool::new(false);
        let group = running.child.id();
        let mut found: Vec<Grid> = Vec::new();
        let mut end: Option<Decoded> = None;
        let mut failure: Option<ExternalError> = None;
        let read = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let reason = if self.limits.is_cancelled() {
                        Some(StopReason::Cancelled)
                    } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                        Some(StopReason::TimeLimit)
                    } else {
                        None
                    };
                    if let Some(reason) = reason {
                        *stopped.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
                        kill_pid_group(group);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let mut input = BufReader::with_capacity(1 << 16, stdout);
            let read = decode_answers(
                self.puzzle,
                self.reader,
                &ExportOptions::default(),
                &mut input,
                &mut |decoded| match decoded {
                    // A solution printed twice is refused by the reader (its model ledger), as
                    // `decode` refuses it: the read ends with that error.
                    Decoded::Solution(grid) => {
                        report.record(|| grid.clone(), limit);
                        found.push(grid);
                        !report.hit_limit
                    }
                    Decoded::Invalid(_, violation) => {
                        failure = Some(ExternalError::NotASolution {
                            name: self.entry.name.clone(),
                            violation,
                        });
                        false
                    }
                    Decoded::NotAGrid(why) => {
                        failure = Some(self.bad_answer(format!("a model is not a grid: {why}")));
                        false
                    }
                    other => {
                        end = Some(other);
                        false
                    }
                },
            );
            // Stop the program if the reading stopped before its end (the limit, a bad
            // model); else let it end by itself (the watcher still minds the clock).
            if report.hit_limit || failure.is_some() || read.is_err() {
                kill_pid_group(group);
            }
            let ended = running.wait(None, None);
            done.store(true, Ordering::Relaxed);
            (read, ended)
        });
        let (read, ended) = read;
        if let Some(reason) = *stopped.lock().unwrap_or_else(|e| e.into_inner()) {
            report.stopped = Some(reason);
            report.hit_limit = false;
            return Ok(report);
        }
        if let Some(failure) = failure {
            return Err(failure);
        }
        if report.hit_limit {
            return Ok(report);
        }
        read.map_err(|e| {
            self.bad_answer(format!(
                "unreadable answer ({} reader): {e}",
                self.reader.name
            ))
        })?;
        let Ended::Exited(code) = ended else {
            unreachable!("no deadline and no stop token given to wait")
        };
        self.exit_code(code)?;
        match end {
            Some(Decoded::Unsat) => {
                if self.proof.is_some() && self.format.exclude.is_some() {
                    // The end of the enumeration, checked: one more run with every model ruled
                    // out must be a refutation with a proof.
                    let counted = report.count;
                    let checked = self.nogoods(u64::MAX, found, report)?;
                    if checked.count > counted {
                        return Err(self.bad_answer(format!(
                            "its enumeration ended after {counted} solutions, and a run with them ruled out found another"
                        )));
                    }
                    return Ok(checked);
                }
                report.refutation = self
                    .entry
                    .unchecked("the end of its enumeration: no proof in its table entry");
                Ok(report)
            }
            Some(Decoded::Unknown) if self.limits.time.is_some() => {
                report.stopped = Some(StopReason::TimeLimit);
                Ok(report)
            }
            Some(Decoded::Unknown) => {
                Err(self.bad_answer("answered unknown without a time limit".into()))
            }
            // It printed fewer models than asked for and did not say there are no more: go
            // on by no-goods from those it found.
            _ => self.nogoods(limit, found, report),
        }
    }
}

/// Kills the process group led by `id` (a program that has already ended is no error).
fn kill_pid_group(id: u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_time_arguments_come_and_go() {
        let mut entry = Entry::new("t");
        entry.args = vec![
            "-q".into(),
            "{time}".into(),
            "{input}".into(),
            "-c".into(),
            "{time} read {input} write {output}".into(),
        ];
        entry.time_args = vec!["-t".into(), "{seconds}".into()];
        let (input, output) = (Path::new("/s/p.cnf"), Path::new("/s/a.out"));
        assert_eq!(
            entry.arguments(input, output, None, Some(Duration::from_millis(1500)), None),
            [
                "-q",
                "-t",
                "2",
                "/s/p.cnf",
                "-c",
                "-t 2 read /s/p.cnf write /s/a.out"
            ]
        );
        assert_eq!(
            entry.arguments(input, output, None, None, None),
            ["-q", "/s/p.cnf", "-c", " read /s/p.cnf write /s/a.out"]
        );
    }

    #[test]
    fn the_scratch_directory_goes_away() {
        let path = {
            let scratch = Scratch::new().unwrap();
            std::fs::write(scratch.path().join("x"), "y").unwrap();
            scratch.path().to_path_buf()
        };
        assert!(!path.exists());
    }
}
