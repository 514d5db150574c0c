//! Counting with a program's own enumeration: one run that prints every model, read as it
//! prints them, stopped at the limit, the deadline or the stop token; its "no other" checked by
//! one more run with every model ruled out where the entry writes proofs.

use std::fs::File;
use std::io::BufReader;
use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Run;
use super::process::{Ended, kill_pid_group, spawn};
use crate::external::ExternalError;
use crate::format::{Decoded, ExportOptions, decode_answers};
use crate::grid::Grid;
use crate::search::{CountReport, StopReason};

impl Run<'_> {
    /// Counts with the program's own enumeration: one run that prints every model (up to
    /// `limit`), read as it prints them and stopped at the limit. When the enumeration ends,
    /// its "no other" is checked, where the entry writes proofs, by one more run with every
    /// model ruled out; otherwise it is a claim.
    pub(super) fn enumeration(&mut self, limit: u64) -> Result<CountReport, ExternalError> {
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
