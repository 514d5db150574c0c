//! `solve` as a job: the first solution of each puzzle, or with `unique` whether it has exactly
//! one, with any backend of the registry; with the sat backend and a proof directory, every
//! negative claim backed by a checked refutation.
//!
//! A record is the solution as a puzzle line (a grid block and a blank line above order 35),
//! `unsat`, `unknown (time limit)` / `unknown (node limit)`, and with `unique` also `multiple`;
//! as JSON `{"line", "status", "solution", "second", "reason", "stats", "proof"}`. Every
//! solution has passed the certificate verifier (the registry wraps every backend in
//! `Verified`).
//!
//! An `unsat` (and a `unique`) says how it is known when another program's word is behind it:
//! `unsat (checked: cadical's DRAT proof)`, or `unsat (claimed by minisat, not checked)`; the
//! JSON line has `"certified"` and `"refutation"` ([`add_refutation`]). A `unique` that rests on
//! a claim nothing checked is not the answer asked for (a negative record); with
//! `require_certificate` such an answer is an error in place.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::item::PuzzleItem;
use super::job::Job;
use super::options::{Opt, OptionError, said};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::{
    add_refutation, grid_json, grid_record, micros, push_grid_record, stats_json, with_note,
};
use super::solver_options::{NoOtherKeys, RunOptions, SolverOptions};
use super::source::{Items, Source, puzzles_of};
use super::summary::NoSummary;
use crate::grid::Grid;
use crate::search::{Answer, Limits, Outcome, Refutation, Stats, StopReason};
use crate::solve::Solver;
use crate::solve::sat::{ProofClaim, ProofReport, Sat};
use crate::text::ReadOptions;

/// The options of `solve`, as every front end gives them (unset fields take their defaults;
/// the shared ones, [`SolverOptions`] and [`RunOptions`], are flattened: their keys are this
/// type's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolveOptions {
    /// The backend.
    #[serde(flatten)]
    pub solver: SolverOptions,
    /// The budgets per puzzle, and the puzzles solved at a time.
    #[serde(flatten)]
    pub run: RunOptions,
    /// Decide uniqueness: count up to two solutions.
    pub unique: bool,
    /// With the sat backend: write each negative claim's proof here, and check it.
    pub proof_dir: Option<PathBuf>,
    /// No other key.
    #[serde(flatten)]
    pub others: NoOtherKeys,
}

/// The `solve` job; see the module docs.
pub struct SolveJob {
    spec: String,
    solver: Box<dyn Solver>,
    /// The sat backend again, typed, when proofs are asked for.
    proofs: Option<(Sat, PathBuf)>,
    limits: Limits,
    unique: bool,
    threads: usize,
    max_order: Option<usize>,
    require_certificate: bool,
}

impl std::fmt::Debug for SolveJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveJob")
            .field("backend", &self.spec)
            .field("unique", &self.unique)
            .finish_non_exhaustive()
    }
}

impl SolveJob {
    /// Checks `options` and builds the backend (and, for proofs, the directory).
    ///
    /// # Errors
    /// An unknown backend, flags that contradict it, bad limits, a proof directory with another
    /// backend or that cannot be made.
    pub fn new(options: SolveOptions) -> Result<SolveJob, OptionError> {
        let solver = options.solver.solver()?;
        let spec = solver.name().to_string();
        let proofs = match &options.proof_dir {
            None => None,
            Some(dir) => {
                let Some(sat) = options.solver.spec().sat()? else {
                    return Err(OptionError::Conflict(said!(
                        Opt("proof_dir"),
                        " goes with ",
                        Opt("backend"),
                        format!(" sat, not {spec}"),
                    )));
                };
                if dir.exists() && !dir.is_dir() {
                    return Err(OptionError::Invalid {
                        option: "proof_dir",
                        message: format!(
                            "{} is a file, not a directory (proofs go into a directory: give a \
                             new name or a directory)",
                            dir.display()
                        ),
                    });
                }
                std::fs::create_dir_all(dir).map_err(|source| OptionError::Directory {
                    option: "proof_dir",
                    path: dir.clone(),
                    source,
                })?;
                Some((sat, dir.clone()))
            }
        };
        Ok(SolveJob {
            spec,
            solver,
            proofs,
            limits: options.run.limits(None)?,
            unique: options.unique,
            threads: options.run.threads()?,
            max_order: options.solver.max_order,
            require_certificate: options.solver.require_certificate,
        })
    }

    /// The backend's spec, as its registry name (`sat` folded with `--encoding` is
    /// `sat:minimal:pairwise`).
    pub fn backend(&self) -> &str {
        &self.spec
    }

    /// Solves one puzzle (the puzzle at `line` of its input).
    ///
    /// # Errors
    /// The backend cannot take the puzzle (its order), or a proof could not be written: the
    /// message.
    pub fn solve(
        &self,
        grid: &Grid,
        line: usize,
        control: &Control,
    ) -> Result<SolveRecord, String> {
        let limits = control.limits(&self.limits);
        let record = |found: Found,
                      refutation: Refutation,
                      stats: Stats,
                      proof: Option<ProofReport>| SolveRecord {
            line,
            found,
            refutation,
            stats,
            proof: proof.map(Box::new),
        };
        if let Some((sat, dir)) = &self.proofs {
            let stem = format!("line{line}");
            return if self.unique {
                sat.unique_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| record(Found::of_outcome(r.outcome), r.refutation, r.stats, p))
            } else {
                sat.solve_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| record(Found::of_answer(r.answer), r.refutation, r.stats, p))
            }
            .map_err(|e| e.to_string());
        }
        if self.unique {
            self.solver
                .unique(grid, &limits)
                .map(|r| record(Found::of_outcome(r.outcome), r.refutation, r.stats, None))
        } else {
            self.solver
                .solve(grid, &limits)
                .map(|r| record(Found::of_answer(r.answer), r.refutation, r.stats, None))
        }
        .map_err(|e| e.to_string())
    }
}

impl Job for SolveJob {
    type Item = PuzzleItem;
    type Record = SolveRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "solve"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn identity(&self) -> Value {
        json!({
            "backend": self.spec,
            "unique": self.unique,
            "max_order": self.max_order,
            "proof_dir": self.proofs.as_ref().map(|(_, dir)| dir.display().to_string()),
            "require_certificate": self.require_certificate,
        })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    /// Puzzle lines are read without their clash check, which [`Job::run`] makes only when the
    /// answer has no solution: a solution has passed the verifier, so it holds every given
    /// and repeats no value in a unit, and the givens cannot clash. (Not with proofs: a
    /// clashing puzzle would have its refutation written before its error.)
    fn read_options(&self, read: ReadOptions, _input: usize) -> ReadOptions {
        ReadOptions {
            defer_line_clashes: self.proofs.is_none(),
            ..read
        }
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<SolveRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        let solved = self.solve(&puzzle.grid, puzzle.line, control);
        let has_solution = matches!(
            &solved,
            Ok(SolveRecord {
                found: Found::Solution(_) | Found::Unique(_) | Found::Multiple(..),
                ..
            })
        );
        if !has_solution && let Some(error) = puzzle.deferred_clash() {
            // The error the reading would have made, in the same place.
            return ItemResult::Failed(ItemError::read(&item.file, &error));
        }
        match solved {
            Ok(solved) => ItemResult::Done(solved),
            Err(message) => ItemResult::Failed(ItemError::failed(&item.file, puzzle.line, message)),
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A solution (uniqueness not asked).
    Solution(Grid),
    /// The only solution.
    Unique(Grid),
    /// Two different solutions.
    Multiple(Grid, Grid),
    /// No solution.
    Unsat,
    /// No answer within the budget.
    Unknown(StopReason),
}

impl Found {
    /// The found of a search for one solution.
    pub fn of_answer(answer: Answer) -> Found {
        match answer {
            Answer::Solved(grid) => Found::Solution(grid),
            Answer::Unsat => Found::Unsat,
            Answer::Unknown(reason) => Found::Unknown(reason),
        }
    }

    /// The found of a uniqueness test.
    pub fn of_outcome(outcome: Outcome) -> Found {
        match outcome {
            Outcome::Unique(grid) => Found::Unique(grid),
            Outcome::Multiple(a, b) => Found::Multiple(a, b),
            Outcome::Unsat => Found::Unsat,
            Outcome::Unknown(reason) => Found::Unknown(reason),
        }
    }

    /// The status word of JSON: `solved`, `unique`, `multiple`, `unsat`, `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Found::Solution(_) => "solved",
            Found::Unique(_) => "unique",
            Found::Multiple(..) => "multiple",
            Found::Unsat => "unsat",
            Found::Unknown(_) => "unknown",
        }
    }
}

/// The record of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveRecord {
    /// The puzzle's input line.
    pub line: usize,
    /// What the search found.
    pub found: Found,
    /// How an `unsat` or a `unique` is known (sudokit's own search, a checked proof, or another
    /// program's claim); meaningless for the other findings.
    pub refutation: Refutation,
    /// The search's counters.
    pub stats: Stats,
    /// The checked proof of a negative claim (sat backend with a proof directory); boxed, as
    /// it is rare and large.
    pub proof: Option<Box<ProofReport>>,
}

impl SolveRecord {
    /// The grid when the record's text is that grid's line and nothing else: a solution, or a
    /// uniqueness sudokit checked, without a proof to name.
    fn plain_grid(&self) -> Option<&Grid> {
        if self.proof.is_some() {
            return None;
        }
        match &self.found {
            Found::Solution(grid) => Some(grid),
            Found::Unique(grid)
                if self.refutation.is_certified() || self.refutation.note().is_none() =>
            {
                Some(grid)
            }
            _ => None,
        }
    }
}

impl JobRecord for SolveRecord {
    fn grids(&self) -> Vec<Grid> {
        match &self.found {
            Found::Solution(a) | Found::Unique(a) => vec![a.clone()],
            Found::Multiple(a, b) => vec![a.clone(), b.clone()],
            Found::Unsat | Found::Unknown(_) => Vec::new(),
        }
    }

    fn status(&self) -> Status {
        match self.found {
            // A uniqueness resting on a claim nothing checked is not the answer asked for.
            Found::Unique(_) if !self.refutation.is_certified() => Status::Negative,
            Found::Solution(_) | Found::Unique(_) => Status::Done,
            Found::Multiple(..) | Found::Unsat => Status::Negative,
            Found::Unknown(_) => Status::Unknown,
        }
    }

    fn write_into(&self, json: bool, out: &mut String) {
        match self.plain_grid() {
            Some(grid) if !json => push_grid_record(grid, out),
            _ => out.push_str(&self.written(json)),
        }
    }

    fn text(&self) -> String {
        if let Some(grid) = self.plain_grid() {
            return grid_record(grid);
        }
        let text = match &self.found {
            Found::Solution(grid) => grid_record(grid),
            // A uniqueness resting on a claim says so; a checked one reads like sudokit's own.
            Found::Unique(grid) => match self.refutation.note() {
                Some(note) if !self.refutation.is_certified() => with_note(
                    &grid_record(grid),
                    &format!("(unique: {})", &note[1..note.len() - 1]),
                ),
                _ => grid_record(grid),
            },
            Found::Multiple(..) => "multiple\n".to_string(),
            Found::Unsat => match self.refutation.note() {
                Some(note) => format!("unsat {note}\n"),
                None => "unsat\n".to_string(),
            },
            Found::Unknown(reason) => format!("unknown ({reason})\n"),
        };
        let Some(proof) = &self.proof else {
            return text;
        };
        // ` (proof: checked, FILE)` at the end of the record's line, or on a line of its own
        // after a grid block.
        with_note(
            &text,
            &format!("(proof: checked, {})", proof.proof.display()),
        )
    }

    fn json(&self) -> Value {
        let mut value = json!({
            "line": self.line,
            "status": self.found.word(),
            "stats": stats_json(&self.stats),
        });
        match &self.found {
            Found::Solution(grid) => value["solution"] = grid_json(grid),
            Found::Unique(grid) => {
                value["solution"] = grid_json(grid);
                add_refutation(&mut value, &self.refutation);
            }
            Found::Multiple(a, b) => {
                value["solution"] = grid_json(a);
                value["second"] = grid_json(b);
            }
            Found::Unsat => add_refutation(&mut value, &self.refutation),
            Found::Unknown(reason) => value["reason"] = reason.to_string().into(),
        }
        if let Some(proof) = &self.proof {
            value["proof"] = json!({
                "status": "checked",
                "claim": match proof.claim {
                    ProofClaim::Unsat => "unsat",
                    ProofClaim::Unique => "unique",
                },
                "cnf": proof.cnf.display().to_string(),
                "proof": proof.proof.display().to_string(),
                "lrat": proof.lrat.display().to_string(),
                "drat": proof.drat.display().to_string(),
                "solve_us": micros(proof.solve_time),
                "check_us": micros(proof.check_time),
                "elapsed_us": micros(proof.total_time),
            });
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn records_and_json_lines() {
        let record = SolveRecord {
            line: 4,
            found: Found::Unsat,
            refutation: Refutation::Search,
            stats: Stats::default(),
            proof: None,
        };
        assert_eq!(record.text(), "unsat\n");
        assert_eq!(record.status(), Status::Negative);
        let unknown = SolveRecord {
            found: Found::Unknown(StopReason::TimeLimit),
            ..record
        };
        let text = unknown.written(true);
        assert!(text.contains("\"reason\":\"time limit\"") && text.ends_with("}\n"));
        assert_eq!(unknown.status(), Status::Unknown);
    }

    #[test]
    fn a_claim_is_shown_as_one() {
        let claim = Refutation::Claim {
            by: "minisat".into(),
            reason: "minisat writes no proof".into(),
        };
        let unsat = SolveRecord {
            line: 1,
            found: Found::Unsat,
            refutation: claim.clone(),
            stats: Stats::default(),
            proof: None,
        };
        assert_eq!(unsat.text(), "unsat (claimed by minisat, not checked)\n");
        let text = unsat.written(true);
        assert!(text.contains("\"certified\":false"), "{text}");
        assert!(
            text.contains("\"reason\":\"minisat writes no proof\""),
            "{text}"
        );
        let grid: Grid = "1234341221434321".parse().unwrap();
        let unique = SolveRecord {
            found: Found::Unique(grid),
            ..unsat.clone()
        };
        assert_eq!(
            unique.text(),
            "1234341221434321 (unique: claimed by minisat, not checked)\n"
        );
        assert_eq!(
            unique.status(),
            Status::Negative,
            "a claimed uniqueness is not the answer asked for"
        );
        let proof = SolveRecord {
            refutation: Refutation::Proof {
                by: "cadical".into(),
                format: "drat".into(),
                checker: "sudokit".into(),
            },
            ..unsat
        };
        assert_eq!(proof.text(), "unsat (checked: cadical's DRAT proof)\n");
        assert!(proof.written(true).contains("\"certified\":true"));
    }

    #[test]
    fn options_come_from_json_and_are_checked() {
        let options: SolveOptions =
            serde_json::from_str(r#"{"backend": "sat", "encoding": "minimal"}"#).unwrap();
        assert_eq!(
            SolveJob::new(options).unwrap().backend(),
            "sat:minimal:pairwise"
        );
        // The flattened shared options refuse a key that is none of the job's.
        let unknown = serde_json::from_str::<SolveOptions>(r#"{"bakend": "sat"}"#);
        assert!(unknown.unwrap_err().to_string().contains("bakend"));
        let bad: SolveOptions = serde_json::from_str(r#"{"time_limit": 0}"#).unwrap();
        assert_eq!(SolveJob::new(bad).unwrap_err().option(), Some("time_limit"));
        let proof = SolveOptions {
            proof_dir: Some(std::env::temp_dir()),
            ..SolveOptions::default()
        };
        let error = SolveJob::new(proof).unwrap_err();
        assert_eq!(
            error.to_string(),
            "proof_dir goes with backend sat, not native"
        );
        // As the registry reads them (Python's keywords, a Dask shard): each error names its
        // key, the flattened ones too.
        let read = |v| crate::jobs::registry::options_of::<SolveOptions>(v).unwrap_err();
        let said = read(serde_json::json!({"bogus": 1})).to_string();
        assert_eq!(said, "unknown field `bogus`");
        let said = read(serde_json::json!({"time_limit": "x"})).to_string();
        assert!(said.starts_with("time_limit: invalid type"), "{said}");
        let said = read(serde_json::json!({"unique": 3})).to_string();
        assert!(said.starts_with("unique: invalid type"), "{said}");
        let capped: SolveOptions = serde_json::from_str(r#"{"max_order": 4}"#).unwrap();
        let job = SolveJob::new(capped).unwrap();
        let grid = parse_line(&".".repeat(81), None).unwrap();
        let error = job.solve(&grid, 3, &Control::new()).unwrap_err();
        assert!(error.contains("--max-n 4"), "{error}");
    }
}
