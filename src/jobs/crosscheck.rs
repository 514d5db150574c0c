//! `crosscheck` as a job: every participant (backends, external solvers, deliberately faulty
//! copies) counts the solutions of each puzzle up to a limit, every solution verified, the answers
//! compared ([`crate::crosscheck`]); and the summary table per participant
//! ([`CrosscheckSummary`]), which adds up over the shards of a file.
//!
//! A record is `line L: unique: 9 agreed` when the answers agree (the participants that ended
//! unknown or were skipped named: `, 1 unknown (ext:cvc5)`), else the puzzle and every
//! answer (`DISAGREEMENT`); as JSON `{"line", "puzzle", "status", "consensus", "answer",
//! "runs"}`. The default participants are [`default_backends`], in one place for every front end.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::item::PuzzleItem;
use super::job::Job;
use super::options::{OptionError, at_least_one};
use super::record::{ItemResult, JobRecord, Status};
use super::record_text::json_line;
use super::record_text::{micros, millis, rounded};
use super::solver_options::{NoOtherKeys, RunOptions};
use super::source::{Items, Source, puzzles_of};
use super::summary::Summary;
use super::tally::Ran;
use crate::crosscheck::fault::{Fault, Faulty};
use crate::crosscheck::{
    self, Participant, ParticipantRun, ParticipantTally, PuzzleCheck, Standing, Verdict,
};
use crate::search::{Limits, StopReason};
use crate::solve::{self, Verified, registry};
use crate::text;

/// The options of `crosscheck`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CrosscheckOptions {
    /// The backends (empty: [`default_backends`]).
    pub backends: Vec<String>,
    /// Also the external solvers of the solver table: every one found (an empty list), or
    /// those named.
    pub external: Option<Vec<String>>,
    /// Count solutions up to this many (2 decides uniqueness).
    pub limit: u64,
    /// The budgets per participant and puzzle (default: [`DEFAULT_TIME_LIMIT`] seconds), and
    /// the puzzles checked at a time; flattened, their keys are this type's.
    #[serde(flatten)]
    pub run: RunOptions,
    /// Deliberately faulty copies of backends: `BACKEND:grid` or `BACKEND:unsat`.
    pub inject_fault: Vec<String>,
    /// No other key.
    #[serde(flatten)]
    pub others: NoOtherKeys,
}

/// The default time budget per participant and puzzle, in seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;

impl Default for CrosscheckOptions {
    fn default() -> Self {
        CrosscheckOptions {
            backends: Vec::new(),
            external: None,
            limit: 2,
            run: RunOptions {
                time_limit: Some(DEFAULT_TIME_LIMIT),
                ..RunOptions::default()
            },
            inject_fault: Vec::new(),
            others: NoOtherKeys,
        }
    }
}

/// The default participants: every backend family of this build, in its default form, except
/// the heuristics (a heuristic can never settle a count, so with the default limit of 2 it would
/// spend its whole budget on every unique puzzle looking for a second solution) and the
/// external solvers (`ext` has no default member; `--external` adds them). Name one to include
/// it.
pub fn default_backends() -> Vec<String> {
    registry::ENTRIES
        .iter()
        .filter(|e| {
            e.is_built() && e.capabilities.complete && e.family != registry::EXTERNAL_FAMILY
        })
        .map(|e| e.family.to_string())
        .collect()
}

/// The `crosscheck` job; see the module docs.
pub struct CrosscheckJob {
    participants: Vec<Participant>,
    limit: u64,
    limits: Limits,
    threads: usize,
    notes: Vec<String>,
}

impl std::fmt::Debug for CrosscheckJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrosscheckJob")
            .field("participants", &self.names())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl CrosscheckJob {
    /// Checks `options` and builds the participants: the backends, the external solvers and
    /// the faulty copies, in that order.
    ///
    /// # Errors
    /// An unknown backend or solver, a bad fault, bad limits.
    pub fn new(options: CrosscheckOptions) -> Result<CrosscheckJob, OptionError> {
        let limit = at_least_one("limit", Some(options.limit))?.unwrap_or(2);
        let mut notes = Vec::new();
        let backends = if options.backends.is_empty() {
            default_backends()
        } else {
            options.backends.clone()
        };
        let mut participants = backends
            .iter()
            .map(|name| Participant::backend(name))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(names) = &options.external {
            let names: Vec<String> = if names.is_empty() {
                let found: Vec<String> = crate::external::table()?
                    .found()
                    .into_iter()
                    .map(|(e, _)| e.name.clone())
                    .collect();
                if found.is_empty() {
                    notes.push(
                        "--external: no solver of the table is installed (sudokit solvers lists \
                         them)"
                            .to_string(),
                    );
                }
                found
            } else {
                names.clone()
            };
            for name in names {
                participants.push(Participant::backend(&format!(
                    "{}:{name}",
                    registry::EXTERNAL_FAMILY
                ))?);
            }
        }
        for spec in &options.inject_fault {
            let invalid = |message: String| OptionError::Invalid {
                option: "inject_fault",
                message,
            };
            let Some((name, fault)) = spec.rsplit_once(':') else {
                return Err(invalid(format!(
                    "takes BACKEND:FAULT (grid or unsat), not {spec}"
                )));
            };
            let fault: Fault = fault.parse().map_err(invalid)?;
            let inner = solve::backend(name)?;
            participants.push(Participant::Backend(Box::new(Verified(Faulty::new(
                inner, fault,
            )))));
        }
        Ok(CrosscheckJob {
            participants,
            limit,
            limits: options.run.limits(Some(DEFAULT_TIME_LIMIT))?,
            threads: options.run.threads()?,
            notes,
        })
    }

    /// The participants' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.participants.iter().map(Participant::name).collect()
    }

    /// What a front end should tell the user before the run (no external solver found).
    pub fn option_notes(&self) -> &[String] {
        &self.notes
    }

    /// Checks one puzzle: each participant's budget is cut to the time left before the
    /// control's deadline, and a participant whose turn comes after it is not started (it
    /// stands `unknown (time limit)`, as a run stopped by the clock does).
    pub fn check(&self, puzzle: &crate::Grid, control: &Control) -> PuzzleCheck {
        let runs = self
            .participants
            .iter()
            .map(|participant| {
                if control.expired() {
                    ParticipantRun {
                        name: participant.name(),
                        verdict: Verdict::Counted {
                            count: 0,
                            exact: false,
                            stopped: Some(StopReason::TimeLimit),
                            solutions: Vec::new(),
                        },
                        elapsed: Duration::ZERO,
                    }
                } else {
                    participant.run(puzzle, self.limit, &control.limits(&self.limits))
                }
            })
            .collect();
        crosscheck::compare(runs, self.limit)
    }
}

impl Job for CrosscheckJob {
    type Item = PuzzleItem;
    type Record = CrosscheckRecord;

    type Summary = CrosscheckSummary;

    fn name(&self) -> &'static str {
        "crosscheck"
    }

    fn summary(&self) -> CrosscheckSummary {
        CrosscheckSummary {
            tallies: crosscheck::tallies(&self.participants),
            counts: CrosscheckCounts::default(),
        }
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn identity(&self) -> Value {
        json!({ "participants": self.names(), "limit": self.limit })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<CrosscheckRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        // Nothing starts after the deadline: its answers would all be unknown.
        if control.stopped() {
            return ItemResult::Cancelled;
        }
        ItemResult::Done(CrosscheckRecord {
            file: item.file.clone(),
            line: puzzle.line,
            puzzle: text::to_text(&puzzle.grid),
            check: self.check(&puzzle.grid, control),
            limit: self.limit,
        })
    }
}

/// The cross-check of one puzzle.
#[derive(Debug, Clone)]
pub struct CrosscheckRecord {
    /// Its file.
    pub file: Arc<str>,
    /// Its input line.
    pub line: usize,
    /// The puzzle's text.
    pub puzzle: String,
    /// Every participant's run and standing.
    pub check: PuzzleCheck,
    /// The count limit.
    pub limit: u64,
}

/// The consensus when some decisive run supports it (a count that only unknown runs contain is
/// no answer).
pub fn supported_consensus(check: &PuzzleCheck) -> Option<u64> {
    check
        .consensus
        .filter(|_| check.standings.contains(&Standing::Agreed))
}

/// The consensus in words: `unsat`, `unique`, `multiple`, `solvable`, `k solutions`, `≥k
/// solutions` or `undecided`.
pub fn consensus_word(check: &PuzzleCheck, limit: u64) -> String {
    match supported_consensus(check) {
        None => "undecided".to_string(),
        Some(0) => "unsat".to_string(),
        Some(1) if limit >= 2 => "unique".to_string(),
        Some(k) if k >= limit => {
            if limit == 2 {
                "multiple".to_string()
            } else if limit == 1 {
                "solvable".to_string()
            } else {
                format!("≥{k} solutions")
            }
        }
        Some(k) => format!("{k} solutions"),
    }
}

/// A standing in words.
pub fn standing_word(standing: Standing) -> &'static str {
    match standing {
        Standing::Agreed => "agreed",
        Standing::Disagreed => "disagreed",
        Standing::Unknown => "unknown",
        Standing::Skipped => "skipped",
    }
}

impl JobRecord for CrosscheckRecord {
    fn status(&self) -> Status {
        if self.check.agreed() {
            Status::Done
        } else {
            Status::Negative
        }
    }

    fn text(&self) -> String {
        let (check, limit, line) = (&self.check, self.limit, self.line);
        let count = |s: Standing| check.standings.iter().filter(|&&x| x == s).count();
        if check.agreed() {
            let word = consensus_word(check, limit);
            let mut text = format!("line {line}: {word}: {} agreed", count(Standing::Agreed));
            for (what, standing) in [
                ("unknown", Standing::Unknown),
                ("skipped", Standing::Skipped),
            ] {
                if count(standing) > 0 {
                    // The participants that ended so, named: `, 1 unknown (ext:cvc5)`.
                    let names: Vec<&str> = check
                        .runs
                        .iter()
                        .zip(&check.standings)
                        .filter(|(_, s)| **s == standing)
                        .map(|(run, _)| run.name.as_str())
                        .collect();
                    text += &format!(", {} {what} ({})", count(standing), names.join(", "));
                }
            }
            return text + "\n";
        }
        let mut text = format!(
            "line {line}: DISAGREEMENT ({} agreed on {}, {} disagreed)\n  {}:{line}: {}\n",
            count(Standing::Agreed),
            consensus_word(check, limit),
            count(Standing::Disagreed),
            self.file,
            self.puzzle.replace('\n', "\n  ")
        );
        for (run, standing) in check.runs.iter().zip(&check.standings) {
            let mark = if *standing == Standing::Disagreed {
                "  <-- disagrees"
            } else {
                ""
            };
            text += &format!(
                "  {}: {} ({:.3} ms){mark}\n",
                run.name,
                run.verdict.describe(limit),
                run.elapsed.as_secs_f64() * 1e3
            );
            if let Verdict::Counted { solutions, .. } = &run.verdict {
                for s in solutions {
                    text += &format!("    solution {}\n", text::to_text(s).replace('\n', " / "));
                }
            }
        }
        text
    }

    fn json(&self) -> Value {
        let (check, limit) = (&self.check, self.limit);
        let runs: Vec<Value> = check
            .runs
            .iter()
            .zip(&check.standings)
            .map(|(run, standing)| {
                let mut value = json!({
                    "backend": run.name,
                    "answer": run.verdict.describe(limit),
                    "standing": standing_word(*standing),
                    "elapsed_us": micros(run.elapsed),
                });
                if let Verdict::Counted {
                    count,
                    exact,
                    solutions,
                    ..
                } = &run.verdict
                {
                    value["count"] = json!(count);
                    value["exact"] = json!(exact);
                    value["solutions"] = solutions.iter().map(text::to_text).collect();
                }
                value
            })
            .collect();
        json!({
            "line": self.line,
            "puzzle": self.puzzle,
            "status": if check.agreed() { "agreed" } else { "disagreed" },
            "consensus": supported_consensus(check),
            "answer": consensus_word(check, limit),
            "runs": runs,
        })
    }
}

/// The counts of a cross-check, for its summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrosscheckCounts {
    /// Puzzles checked (read and run).
    pub checked: usize,
    /// Puzzles that could not be read.
    pub errors: usize,
    /// Puzzles whose answers disagree.
    pub disagreements: usize,
    /// Puzzles whose answers agree but settle nothing.
    pub undecided: usize,
}

/// The per-participant totals of a cross-check; see the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrosscheckSummary {
    /// One per participant, in order.
    pub tallies: Vec<ParticipantTally>,
    /// The puzzle counts.
    pub counts: CrosscheckCounts,
}

impl CrosscheckSummary {
    /// Adds a result.
    fn add_result(&mut self, result: &ItemResult<CrosscheckRecord>) {
        let record = match result {
            ItemResult::Done(record) => record,
            ItemResult::Failed(_) => {
                self.counts.errors += 1;
                return;
            }
            ItemResult::Cancelled => return,
        };
        let check = &record.check;
        self.counts.checked += 1;
        for ((tally, run), standing) in self
            .tallies
            .iter_mut()
            .zip(&check.runs)
            .zip(&check.standings)
        {
            tally.add(run, *standing);
        }
        if !check.agreed() {
            self.counts.disagreements += 1;
        } else if !check.decided() {
            self.counts.undecided += 1;
        }
    }

    /// Adds another shard's summary (same participants).
    fn add_share(&mut self, other: &CrosscheckSummary) {
        for (mine, theirs) in self.tallies.iter_mut().zip(&other.tallies) {
            mine.agreed += theirs.agreed;
            mine.disagreed += theirs.disagreed;
            mine.unknown += theirs.unknown;
            mine.skipped += theirs.skipped;
            mine.time += theirs.time;
        }
        let (c, o) = (&mut self.counts, &other.counts);
        c.checked += o.checked;
        c.errors += o.errors;
        c.disagreements += o.disagreements;
        c.undecided += o.undecided;
    }

    /// The summary JSON line's object: `{"summary": {"puzzles", "errors", "disagreements",
    /// "undecided", "backends": [...]}}`.
    pub fn json(&self) -> Value {
        let rows: Vec<Value> = self
            .tallies
            .iter()
            .map(|tally| {
                json!({
                    "backend": tally.name,
                    "agreed": tally.agreed,
                    "disagreed": tally.disagreed,
                    "unknown": tally.unknown,
                    "skipped": tally.skipped,
                    "mean_ms": millis(tally.mean()),
                    "total_s": rounded(tally.time.as_secs_f64(), 6),
                })
            })
            .collect();
        let counts = &self.counts;
        json!({"summary": {
            "puzzles": counts.checked, "errors": counts.errors,
            "disagreements": counts.disagreements, "undecided": counts.undecided,
            "backends": rows,
        }})
    }

    /// The summary table: a blank line, the totals, and one row per participant.
    pub fn text(&self) -> String {
        let counts = &self.counts;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n{} puzzles: {} agreed, {} with disagreements, {} undecided",
            counts.checked,
            counts.checked - counts.disagreements - counts.undecided,
            counts.disagreements,
            counts.undecided
        );
        let width = self
            .tallies
            .iter()
            .map(|t| t.name.len())
            .max()
            .unwrap_or(7)
            .max(7);
        let _ = writeln!(
            out,
            "{:<width$} {:>7} {:>9} {:>7} {:>7} {:>10} {:>10}",
            "backend", "agreed", "disagreed", "unknown", "skipped", "mean ms", "total s"
        );
        for t in &self.tallies {
            let _ = writeln!(
                out,
                "{:<width$} {:>7} {:>9} {:>7} {:>7} {:>10.3} {:>10.2}",
                t.name,
                t.agreed,
                t.disagreed,
                t.unknown,
                t.skipped,
                t.mean().as_secs_f64() * 1e3,
                t.time.as_secs_f64()
            );
        }
        out
    }

    /// The note when some answers disagree.
    pub fn disagreements_note(&self) -> Option<String> {
        let counts = &self.counts;
        (counts.disagreements > 0).then(|| {
            format!(
                "{} of {} puzzles have answers that disagree (printed above with the puzzle)",
                counts.disagreements, counts.checked
            )
        })
    }
}

/// The summary ends the run whole even when the run was stopped (it covers the puzzles
/// checked); the exit code counts disagreements, not unknown answers.
impl Summary<CrosscheckRecord> for CrosscheckSummary {
    fn add(&mut self, result: &ItemResult<CrosscheckRecord>) {
        self.add_result(result);
    }

    fn merge(&mut self, share: CrosscheckSummary) {
        self.add_share(&share);
    }

    fn end(&self, json: bool, _complete: bool) -> String {
        if json {
            json_line(&self.json())
        } else {
            self.text()
        }
    }

    fn notes(&self) -> Vec<String> {
        self.disagreements_note().into_iter().collect()
    }

    fn exit_code(&self, ran: &Ran) -> u8 {
        if ran.tally.errors > 0 {
            2
        } else if ran.tally.negative > 0 || !ran.complete {
            1
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_participants_leave_out_heuristics_and_external_solvers() {
        let names = default_backends();
        assert!(names.contains(&"native".to_string()));
        assert!(!names.contains(&"grasp".to_string()));
        assert!(!names.contains(&registry::EXTERNAL_FAMILY.to_string()));
        let job = CrosscheckJob::new(CrosscheckOptions::default()).unwrap();
        assert_eq!(job.names().len(), names.len());
    }
}
