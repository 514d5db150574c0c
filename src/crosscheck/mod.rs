//! Cross-checking: every backend on the same puzzle, every answer verified, the answers compared.
//!
//! A *participant* is a backend ([`Solver`], looked up by name and wrapped in
//! [`Verified`](crate::solve::Verified)): an embedded one, or an external solver of the solver
//! table as `ext:NAME` ([`crate::external`]: the puzzle exported in the program's format, solved
//! again with no-goods to count). Each one answers the same question,
//! "how many solutions, up to `limit`?", under the same [`Limits`], and every grid it returns
//! passes the certificate verifier.
//!
//! # Claims and agreement
//! An answer is read as a **claim** on the number of solutions, an interval `[lo, hi]`:
//! - a complete count `k` claims `[k, k]` (unsat is `[0, 0]`, unique `[1, 1]`);
//! - a count stopped by the limit claims `[limit, ∞)` ("multiple" when the limit is 2);
//! - a count stopped by a time or node budget after `k` verified solutions claims `[k, ∞)`
//!   (an *unknown* answer, which still contradicts an unsat claim when `k ≥ 1`);
//!
//! The claims of one puzzle **agree** when some number lies in all of them. Otherwise the puzzle
//! is a **disagreement**, as is any answer whose grid fails the verifier or that repeats a
//! solution ([`Verdict::Failed`]): a bug in some backend, and the report prints the puzzle and
//! every answer so it can be reproduced from the output alone. To say *which* participant
//! disagrees, the consensus value is the count that most claims contain (ties go to the claim
//! of the first participant, the reference); the participants whose claim misses it are marked.
//!
//! # Complexity
//! The participants' own work, plus O(P log P) per puzzle for P participants.
//!
//! # Examples
//! ```
//! use sudokit::crosscheck::{Participant, check};
//! use sudokit::solve::Limits;
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("...3..4114..3...", None).unwrap();
//! let participants = ["native", "norvig", "fc-mrv"].map(|n| Participant::backend(n).unwrap());
//! let result = check(&puzzle, &participants, 2, &Limits::none());
//! assert!(result.agreed());
//! assert_eq!(result.consensus, Some(1)); // unique
//! ```

pub mod fault;

use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::solve::{self, CountReport, Limits, SolveError, Solver, StopReason, UnknownBackend};

/// One side of the comparison: a backend of the registry, embedded or external (`ext:NAME`).
pub enum Participant {
    /// A backend of the registry (already wrapped in `Verified`).
    Backend(Box<dyn Solver>),
}

impl Participant {
    /// The registry backend `name` (see [`solve::backend`]).
    ///
    /// # Errors
    /// The registry's [`UnknownBackend`].
    pub fn backend(name: &str) -> Result<Participant, UnknownBackend> {
        solve::backend(name).map(Participant::Backend)
    }

    /// The name in tables: the backend's own name (`ext:NAME` for an external solver).
    pub fn name(&self) -> String {
        match self {
            Participant::Backend(solver) => solver.name().to_string(),
        }
    }

    /// Runs this participant on `puzzle`.
    pub fn run(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> ParticipantRun {
        let start = Instant::now();
        let verdict = match self {
            Participant::Backend(solver) => match solver.count(puzzle, limit, limits) {
                Ok(report) => Verdict::from_count(report, limit),
                Err(e @ (SolveError::TooLarge { .. } | SolveError::Unsupported { .. })) => {
                    Verdict::Skipped(e.to_string())
                }
                Err(e) => Verdict::Failed(e.to_string()),
            },
        };
        ParticipantRun {
            name: self.name(),
            verdict,
            elapsed: start.elapsed(),
        }
    }
}

/// What one participant answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Verified solutions were counted: `count` of them, and the claim's upper end (`None` = no
    /// upper bound: the limit or a budget stopped the count, or the tool only solves).
    Counted {
        /// Solutions found (all verified).
        count: u64,
        /// Whether the count is exact (the search space was exhausted).
        exact: bool,
        /// Why an inexact count stopped: `None` when it reached the requested limit (or the tool
        /// only solves), otherwise the budget that ran out.
        stopped: Option<StopReason>,
        /// The first (at most two) solutions, verified.
        solutions: Vec<Grid>,
    },
    /// The participant cannot take this puzzle (too large, tool not installed).
    Skipped(String),
    /// The answer is wrong on its face: a grid the verifier rejects, a repeated solution, a
    /// malformed tool answer. Always a disagreement.
    Failed(String),
}

impl Verdict {
    /// The verdict of a backend's count report.
    pub fn from_count(report: CountReport, limit: u64) -> Verdict {
        let exact = report.complete();
        debug_assert!(exact || report.hit_limit || report.stopped.is_some());
        debug_assert!(!report.hit_limit || report.count >= limit);
        Verdict::Counted {
            count: report.count,
            exact,
            stopped: report.stopped,
            solutions: report.solutions,
        }
    }

    /// The claimed interval of solution counts, `(lo, hi)` with `hi = None` for unbounded.
    pub fn claim(&self) -> Option<(u64, Option<u64>)> {
        match self {
            Verdict::Counted { count, exact, .. } => {
                Some((*count, if *exact { Some(*count) } else { None }))
            }
            _ => None,
        }
    }

    /// Whether the answer settles the question for `limit`: an exact count, or the limit
    /// reached. A solve-only tool's single solution settles it only for `limit` 1.
    pub fn decisive(&self, limit: u64) -> bool {
        matches!(self, Verdict::Counted { count, exact, stopped: None, .. } if *exact || *count >= limit)
    }

    /// The answer in a word or two: `unsat`, `unique`, `multiple`, `3`, `≥5`,
    /// `unknown (time limit)`, `skipped: …`, `FAILED: …`.
    pub fn describe(&self, limit: u64) -> String {
        match self {
            Verdict::Counted {
                count, exact: true, ..
            } => match count {
                0 => "unsat".to_string(),
                1 if limit <= 2 => "unique".to_string(),
                k => format!("{k} solutions"),
            },
            Verdict::Counted {
                count,
                stopped: None,
                ..
            } => {
                if *count < limit {
                    "solved (solve only, cannot count)".to_string()
                } else if limit == 2 {
                    "multiple".to_string()
                } else if limit == 1 {
                    "solved".to_string()
                } else {
                    format!("≥{count}")
                }
            }
            Verdict::Counted {
                count,
                stopped: Some(reason),
                ..
            } => {
                if *count == 0 {
                    format!("unknown ({reason})")
                } else {
                    format!("unknown ({reason}) after {count} solutions")
                }
            }
            Verdict::Skipped(why) => format!("skipped: {why}"),
            Verdict::Failed(why) => format!("FAILED: {why}"),
        }
    }
}

/// One participant's run on one puzzle.
#[derive(Debug, Clone)]
pub struct ParticipantRun {
    /// The participant's name.
    pub name: String,
    /// The answer.
    pub verdict: Verdict,
    /// Wall time of the run (the certificate checks included).
    pub elapsed: Duration,
}

/// How a run compares with the consensus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standing {
    /// A decisive answer that contains the consensus.
    Agreed,
    /// A claim that misses the consensus, or a failed answer.
    Disagreed,
    /// Stopped by a budget, consistent with the consensus.
    Unknown,
    /// Did not run on this puzzle.
    Skipped,
}

/// Every participant's answer on one puzzle, and the comparison.
#[derive(Debug, Clone)]
pub struct PuzzleCheck {
    /// The runs, in participant order.
    pub runs: Vec<ParticipantRun>,
    /// How each run compares, in the same order.
    pub standings: Vec<Standing>,
    /// The consensus count (contained in the most claims), if any participant made a claim.
    pub consensus: Option<u64>,
}

impl PuzzleCheck {
    /// Whether no run disagreed.
    pub fn agreed(&self) -> bool {
        !self.standings.contains(&Standing::Disagreed)
    }

    /// Whether some run settled the question and none disagreed.
    pub fn decided(&self) -> bool {
        self.agreed() && self.standings.contains(&Standing::Agreed)
    }
}

/// Runs every participant on `puzzle` (count up to `limit`) and compares the answers; see the
/// module docs.
pub fn check(
    puzzle: &Grid,
    participants: &[Participant],
    limit: u64,
    limits: &Limits,
) -> PuzzleCheck {
    let runs: Vec<ParticipantRun> = participants
        .iter()
        .map(|p| p.run(puzzle, limit, limits))
        .collect();
    compare(runs, limit)
}

/// Compares finished runs of a count up to `limit`; see the module docs.
pub fn compare(runs: Vec<ParticipantRun>, limit: u64) -> PuzzleCheck {
    let claims: Vec<Option<(u64, Option<u64>)>> = runs.iter().map(|r| r.verdict.claim()).collect();
    let contains =
        |claim: &(u64, Option<u64>), k: u64| k >= claim.0 && claim.1.is_none_or(|hi| k <= hi);
    // The best point lies at some claim's lower end; ties go to the earliest claim.
    let consensus = claims
        .iter()
        .flatten()
        .map(|c| c.0)
        .enumerate()
        .max_by_key(|&(i, k)| {
            let support = claims.iter().flatten().filter(|c| contains(c, k)).count();
            (support, std::cmp::Reverse(i))
        })
        .map(|(_, k)| k);
    let standings = runs
        .iter()
        .zip(&claims)
        .map(|(run, claim)| match (&run.verdict, claim) {
            (Verdict::Failed(_), _) => Standing::Disagreed,
            (Verdict::Skipped(_), _) => Standing::Skipped,
            (verdict, Some(claim)) => {
                let k = consensus.expect("a claim exists");
                if !contains(claim, k) {
                    Standing::Disagreed
                } else if verdict.decisive(limit) {
                    Standing::Agreed
                } else {
                    Standing::Unknown
                }
            }
            (_, None) => Standing::Skipped,
        })
        .collect();
    PuzzleCheck {
        runs,
        standings,
        consensus,
    }
}

/// Per-participant totals over a batch.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParticipantTally {
    /// The participant's name.
    pub name: String,
    /// Runs that agreed with the consensus.
    pub agreed: usize,
    /// Runs that disagreed (or failed).
    pub disagreed: usize,
    /// Runs stopped by a budget.
    pub unknown: usize,
    /// Runs skipped.
    pub skipped: usize,
    /// Total wall time of the runs that were not skipped.
    pub time: Duration,
}

impl ParticipantTally {
    /// Mean time per run that was not skipped.
    pub fn mean(&self) -> Duration {
        let ran = self.agreed + self.disagreed + self.unknown;
        if ran == 0 {
            Duration::ZERO
        } else {
            self.time / ran as u32
        }
    }

    /// Adds one run.
    pub fn add(&mut self, run: &ParticipantRun, standing: Standing) {
        match standing {
            Standing::Agreed => self.agreed += 1,
            Standing::Disagreed => self.disagreed += 1,
            Standing::Unknown => self.unknown += 1,
            Standing::Skipped => self.skipped += 1,
        }
        if standing != Standing::Skipped {
            self.time += run.elapsed;
        }
    }
}

/// Empty tallies, one per participant, in order.
pub fn tallies(participants: &[Participant]) -> Vec<ParticipantTally> {
    participants
        .iter()
        .map(|p| ParticipantTally {
            name: p.name(),
            ..ParticipantTally::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::fault::{Fault, Faulty};
    use super::*;
    use crate::Shape;
    use crate::solve::{Native, Verified};
    use crate::text::parse_line;

    fn run(name: &str, verdict: Verdict) -> ParticipantRun {
        ParticipantRun {
            name: name.to_string(),
            verdict,
            elapsed: Duration::from_millis(1),
        }
    }

    fn exact(count: u64) -> Verdict {
        Verdict::Counted {
            count,
            exact: true,
            stopped: None,
            solutions: Vec::new(),
        }
    }

    fn at_least(count: u64, stopped: Option<StopReason>) -> Verdict {
        Verdict::Counted {
            count,
            exact: false,
            stopped,
            solutions: Vec::new(),
        }
    }

    #[test]
    fn claims_that_overlap_agree() {
        let check = compare(
            vec![
                run("a", exact(1)),
                run("b", exact(1)),
                run("c", at_least(0, Some(StopReason::TimeLimit))),
                run("d", at_least(1, Some(StopReason::NodeLimit))),
            ],
            2,
        );
        assert_eq!(check.consensus, Some(1));
        assert_eq!(
            check.standings,
            [
                Standing::Agreed,
                Standing::Agreed,
                Standing::Unknown,
                Standing::Unknown
            ]
        );
        assert!(check.agreed() && check.decided());
    }

    #[test]
    fn the_minority_is_marked() {
        let check = compare(
            vec![
                run("a", exact(0)),
                run("b", at_least(2, None)),
                run("c", at_least(2, None)),
                run("d", at_least(1, Some(StopReason::TimeLimit))),
            ],
            2,
        );
        assert_eq!(check.consensus, Some(2));
        assert_eq!(check.standings[0], Standing::Disagreed);
        assert_eq!(check.standings[1..3], [Standing::Agreed, Standing::Agreed]);
        // A verified solution found before a time limit contradicts an unsat claim.
        let check = compare(
            vec![
                run("a", exact(0)),
                run("d", at_least(1, Some(StopReason::TimeLimit))),
            ],
            2,
        );
        assert!(!check.agreed());
    }

    #[test]
    fn ties_go_to_the_reference() {
        let check = compare(vec![run("ref", exact(1)), run("other", exact(3))], 2);
        assert_eq!(check.consensus, Some(1));
        assert_eq!(check.standings, [Standing::Agreed, Standing::Disagreed]);
    }

    #[test]
    fn failures_and_skips() {
        let check = compare(
            vec![
                run("a", Verdict::Skipped("too large".into())),
                run("b", Verdict::Failed("bad grid".into())),
            ],
            2,
        );
        assert_eq!(check.consensus, None);
        assert_eq!(check.standings, [Standing::Skipped, Standing::Disagreed]);
        assert!(!check.agreed());
        let check = compare(vec![run("a", Verdict::Skipped("no".into()))], 2);
        assert!(check.agreed() && !check.decided());
    }

    #[test]
    fn a_corrupted_grid_is_caught_by_the_verifier() {
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        let participants = vec![
            Participant::backend("native").unwrap(),
            Participant::Backend(Box::new(Verified(Faulty::new(Native, Fault::CorruptGrid)))),
        ];
        let check = check(&puzzle, &participants, 2, &Limits::none());
        assert_eq!(check.standings, [Standing::Agreed, Standing::Disagreed]);
        let Verdict::Failed(why) = &check.runs[1].verdict else {
            panic!("{:?}", check.runs[1].verdict);
        };
        assert!(why.contains("not a solution"), "{why}");
    }

    #[test]
    fn a_false_unsat_claim_is_caught_by_the_comparison() {
        let empty = Grid::empty(Shape::sudoku(2, 2).unwrap());
        let participants = vec![
            Participant::backend("native").unwrap(),
            Participant::backend("norvig").unwrap(),
            Participant::Backend(Box::new(Verified(Faulty::new(Native, Fault::ClaimUnsat)))),
        ];
        let check = check(&empty, &participants, 2, &Limits::none());
        assert_eq!(check.consensus, Some(2));
        assert_eq!(
            check.standings,
            [Standing::Agreed, Standing::Agreed, Standing::Disagreed]
        );
        let mut tallies = tallies(&participants);
        for ((tally, run), standing) in tallies.iter_mut().zip(&check.runs).zip(&check.standings) {
            tally.add(run, *standing);
        }
        assert_eq!((tallies[2].agreed, tallies[2].disagreed), (0, 1));
        assert_eq!(tallies[2].name, "native+fault:unsat");
    }

    #[test]
    fn verdicts_describe_themselves() {
        assert_eq!(exact(0).describe(2), "unsat");
        assert_eq!(exact(1).describe(2), "unique");
        assert_eq!(exact(3).describe(10), "3 solutions");
        assert_eq!(at_least(2, None).describe(2), "multiple");
        assert_eq!(at_least(10, None).describe(10), "≥10");
        assert_eq!(
            at_least(1, None).describe(2),
            "solved (solve only, cannot count)"
        );
        assert!(!at_least(1, None).decisive(2) && at_least(1, None).decisive(1));
        assert_eq!(
            at_least(0, Some(StopReason::TimeLimit)).describe(2),
            "unknown (time limit)"
        );
    }
}
