//! Running an entry of the solver table: the scratch directory ([`scratch`]), the process with
//! its deadline ([`process`]), and the count by solving again with the solutions found ruled out
//! (here) or by the program's own enumeration ([`enumeration`]); the arguments of a run
//! ([`arguments`]) and the check of its `unsat` ([`refutation`]).
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
//! # Complexity
//! One program run per solution counted, plus one that proves there is no other.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

mod arguments;
mod enumeration;
mod process;
mod refutation;
mod scratch;

pub(super) use self::process::quick_output;
use self::process::{Ended, spawn, tail};
pub use self::scratch::Scratch;
use super::files::open_regular;
use super::{Entry, ExternalError};
use crate::format::{
    Decoded, ExportOptions, decode_answer, export_excluding, find_format, find_reader,
};
use crate::grid::Grid;
use crate::search::{CountReport, Limits, Refutation, StopReason};

impl Entry {
    fn error(&self, make: fn(String, String) -> ExternalError, message: String) -> ExternalError {
        make(self.name.clone(), message)
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
}
