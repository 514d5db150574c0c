//! The vocabulary every search shares: what bounds it ([`Limits`], [`Cancel`]), what it cost
//! ([`Stats`]), why it stopped early ([`StopReason`]), what it found ([`Answer`],
//! [`CountReport`], [`Outcome`]) and how it knows there is nothing more to find
//! ([`Refutation`]). This module runs no search itself: the searches are in [`crate::solve`],
//! [`crate::propagate`] and the modules above them; this is only the words they answer in.
//!
//! The solving backends ([`crate::solve`]) and the search on a propagation scheme
//! ([`crate::propagate::Searcher`]) speak it alike, so a count from either can be compared,
//! tabled and verified by the same code.
//!
//! A search stops for one of three reasons before it has answered: its time budget ran out, its
//! node budget ran out, or its [`Cancel`] token was set (Ctrl-C in a notebook, a signal in the
//! command line, a caller giving up). It then reports [`StopReason`] and what it found so far,
//! never a guess: a count it did not finish is a lower bound ([`CountReport::complete`] is
//! `false`).
//!
//! # Examples
//! ```
//! use std::time::Duration;
//! use sudokit::search::{Cancel, Limits};
//! let cancel = Cancel::new();
//! let limits = Limits::time(Duration::from_secs(2)).with_cancel(cancel.clone());
//! assert!(!cancel.is_cancelled());
//! cancel.cancel(); // from another thread: every search under `limits` stops soon
//! assert!(limits.cancel.as_ref().is_some_and(Cancel::is_cancelled));
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::grid::Grid;

/// A flag that stops every search holding a clone of it: set it from any thread, and each
/// search checks it as often as its clock (every 64 nodes for the native searches).
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not yet set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the token: the searches holding it stop with [`StopReason::Cancelled`].
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the token was set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Two tokens are equal when they are the same token.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// Bounds on the work of one call. `None` means unbounded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Budget of search nodes (see [`Stats::nodes`]).
    pub nodes: Option<u64>,
    /// A token that stops the call early when set.
    pub cancel: Option<Cancel>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A time budget only.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// A node budget only.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// These limits with `cancel` as their stop token.
    pub fn with_cancel(mut self, cancel: Cancel) -> Limits {
        self.cancel = Some(cancel);
        self
    }

    /// Whether the stop token is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }
}

/// Why a search stopped before it could answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The time budget ran out.
    TimeLimit,
    /// The node budget ran out.
    NodeLimit,
    /// The [`Cancel`] token was set.
    Cancelled,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::TimeLimit => "time limit",
            StopReason::NodeLimit => "node limit",
            StopReason::Cancelled => "cancelled",
        })
    }
}

/// Work counters of one call: the machine-independent measures a benchmark reports (Knuth's
/// "mems" idea), beside the wall-clock time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: the root plus every branch tried.
    pub nodes: u64,
    /// Guesses: branches tried at choice points (a search-free puzzle has none). A guess that
    /// fails is a backtrack. The 9×9 engine of `native` branches in two (a guess and its
    /// negation) and counts the guesses only, as tdoku and SAT solvers count decisions.
    pub guesses: u64,
    /// Dead ends: branches refuted by propagation. Counted by the searches on a propagation
    /// scheme (`cp`, grading); the other backends leave it at 0.
    pub backtracks: u64,
    /// Propagations: candidate eliminations (or consistency checks, for the plain backtracker;
    /// propagator revisions, for the searches on a propagation scheme).
    pub propagations: u64,
    /// Wall-clock time of the call.
    pub elapsed: Duration,
}

impl Stats {
    /// Adds another call's counters (elapsed times add too).
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.backtracks += other.backtracks;
        self.propagations += other.propagations;
        self.elapsed += other.elapsed;
    }
}

/// How a search knows that what it did not find does not exist: that there is no solution
/// (`unsat`), no second one (`unique`), or none beyond those counted (an exact count).
///
/// A solution is always checked by the certificate verifier; a refutation is as good as what
/// stands behind it. sudokit's own backends refute by propagation or by a search run to its end
/// (their code is tested, not checked per answer); a refutation proof is checked before it is
/// reported; an external program's word that nothing checked is a [`Refutation::Claim`], and
/// every face shows it as one (`unsat (claimed by minisat, not checked)`, JSON
/// `"certified": false`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Refutation {
    /// Propagation alone: the givens clash, or propagation from them leaves a cell or a unit's
    /// value without a place; no search.
    Propagation,
    /// The backend's own search ran to its end (sudokit's code).
    #[default]
    Search,
    /// A refutation proof, checked before the answer was given.
    Proof {
        /// The program that wrote the proof (`cadical`, `varisat`).
        by: String,
        /// The proof's format (`drat`, `frat`, `rup`, `varisat`).
        format: String,
        /// What checked it.
        checker: String,
    },
    /// An external program said so and nothing checked it.
    Claim {
        /// The program (the table entry's name).
        by: String,
        /// Why it was not checked (`minisat writes no proof`, `the proof was rejected: ...`).
        reason: String,
    },
}

impl Refutation {
    /// Whether the refutation was established by sudokit (its own search or propagation, or a
    /// proof it checked) rather than taken on another program's word.
    pub fn is_certified(&self) -> bool {
        !matches!(self, Refutation::Claim { .. })
    }

    /// A short name of the kind: `propagation`, `search`, `proof` or `claim`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refutation::Propagation => "propagation",
            Refutation::Search => "search",
            Refutation::Proof { .. } => "proof",
            Refutation::Claim { .. } => "claim",
        }
    }

    /// The refutation of two parts of one search together: the weaker of the two (a claim
    /// before a checked proof before a search before propagation).
    pub fn weaker(self, other: Refutation) -> Refutation {
        fn rank(r: &Refutation) -> u8 {
            match r {
                Refutation::Claim { .. } => 0,
                Refutation::Proof { .. } => 1,
                Refutation::Search => 2,
                Refutation::Propagation => 3,
            }
        }
        if rank(&other) < rank(&self) {
            other
        } else {
            self
        }
    }

    /// The note that follows `unsat` (or an exact count) in a text record: nothing for sudokit's
    /// own refutations, `(checked: cadical's DRAT proof)` for a checked proof of another
    /// program, `(claimed by minisat, not checked)` for a claim.
    pub fn note(&self) -> Option<String> {
        match self {
            Refutation::Propagation | Refutation::Search => None,
            Refutation::Proof { by, format, .. } => Some(format!(
                "(checked: {by}'s {} proof)",
                format.to_ascii_uppercase()
            )),
            Refutation::Claim { by, .. } => Some(format!("(claimed by {by}, not checked)")),
        }
    }
}

impl fmt::Display for Refutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refutation::Propagation => f.write_str("propagation"),
            Refutation::Search => f.write_str("exhausted search"),
            Refutation::Proof {
                by,
                format,
                checker,
            } => write!(f, "{by}'s {format} proof, checked by {checker}"),
            Refutation::Claim { by, reason } => {
                write!(f, "claimed by {by}, not checked: {reason}")
            }
        }
    }
}

/// The answer of a search for one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A solution (not necessarily the only one).
    Solved(Grid),
    /// No solution exists.
    Unsat,
    /// The search stopped first.
    Unknown(StopReason),
}

/// A search for one solution: the answer with its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveReport {
    /// The answer.
    pub answer: Answer,
    /// How an [`Answer::Unsat`] is known.
    pub refutation: Refutation,
    /// Work done.
    pub stats: Stats,
}

/// A count of solutions up to a limit. The default is the report of a count that has found
/// nothing yet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CountReport {
    /// Solutions found: the exact count when [`CountReport::complete`], else a lower bound.
    pub count: u64,
    /// Whether the count stopped because it reached the requested limit.
    pub hit_limit: bool,
    /// Set when the search stopped early ([`Limits`]): then `count` is only a lower bound.
    pub stopped: Option<StopReason>,
    /// The first (at most two) solutions found, in search order.
    pub solutions: Vec<Grid>,
    /// How the search knows there are no solutions beyond those counted (when the count is
    /// [`CountReport::complete`]).
    pub refutation: Refutation,
    /// Work done.
    pub stats: Stats,
}

/// How many solutions a [`CountReport`] keeps: two tell a unique puzzle from one with several.
pub const KEPT_SOLUTIONS: usize = 2;

impl CountReport {
    /// Whether `count` is the exact number of solutions (the search space was exhausted).
    pub fn complete(&self) -> bool {
        !self.hit_limit && self.stopped.is_none()
    }

    /// Counts one more solution, keeping it if fewer than [`KEPT_SOLUTIONS`] are kept, and says
    /// whether the count has reached `limit` (then `hit_limit` is set).
    pub fn record(&mut self, solution: impl FnOnce() -> Grid, limit: u64) -> bool {
        self.count += 1;
        if self.solutions.len() < KEPT_SOLUTIONS {
            self.solutions.push(solution());
        }
        self.hit_limit = self.count >= limit;
        self.hit_limit
    }

    /// Whether the count is exact only on another program's word: it is complete and its
    /// refutation (no solution beyond those counted) is an unchecked [`Refutation::Claim`].
    pub fn rests_on_claim(&self) -> bool {
        self.complete() && !self.refutation.is_certified()
    }

    /// The first solution, or why there is none: `count(1)` read as a [`SolveReport`].
    pub fn into_solve_report(self) -> SolveReport {
        let answer = match (self.solutions.into_iter().next(), self.stopped) {
            (Some(grid), _) => Answer::Solved(grid),
            (None, Some(reason)) => Answer::Unknown(reason),
            (None, None) => Answer::Unsat,
        };
        SolveReport {
            answer,
            refutation: self.refutation,
            stats: self.stats,
        }
    }

    /// Whether there are none, one or several solutions: `count(2)` read as a
    /// [`UniqueReport`].
    ///
    /// # Panics
    /// If the report counts more solutions than it keeps (a count of 2 with fewer than two
    /// solutions kept): a backend bug.
    pub fn into_unique_report(self) -> UniqueReport {
        let mut found = self.solutions.into_iter();
        let outcome = match (self.count, self.stopped) {
            (n, _) if n >= 2 => {
                let a = found.next().expect("two solutions kept");
                let b = found.next().expect("two solutions kept");
                Outcome::Multiple(a, b)
            }
            (_, Some(reason)) => Outcome::Unknown(reason),
            (1, None) => Outcome::Unique(found.next().expect("one solution kept")),
            _ => Outcome::Unsat,
        };
        UniqueReport {
            outcome,
            refutation: self.refutation,
            stats: self.stats,
        }
    }
}

/// Whether a puzzle is well posed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No solution.
    Unsat,
    /// Exactly one solution.
    Unique(Grid),
    /// At least two solutions; two different ones.
    Multiple(Grid, Grid),
    /// The search stopped before the question was settled.
    Unknown(StopReason),
}

impl SolveReport {
    /// Whether the answer is an `unsat` that rests on an unchecked [`Refutation::Claim`].
    pub fn rests_on_claim(&self) -> bool {
        matches!(self.answer, Answer::Unsat) && !self.refutation.is_certified()
    }
}

/// A uniqueness test: the outcome with its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UniqueReport {
    /// The outcome.
    pub outcome: Outcome,
    /// How an [`Outcome::Unsat`] or [`Outcome::Unique`] is known (no solution, no second one).
    pub refutation: Refutation,
    /// Work done.
    pub stats: Stats,
}

impl UniqueReport {
    /// Whether the outcome is an `unsat` or a `unique` that rests on an unchecked
    /// [`Refutation::Claim`] (no solution, or no second one).
    pub fn rests_on_claim(&self) -> bool {
        matches!(self.outcome, Outcome::Unsat | Outcome::Unique(_))
            && !self.refutation.is_certified()
    }
}

/// The clock, node budget and stop token of one call, checked cheaply inside search loops.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    nodes: Option<u64>,
    cancel: Option<Cancel>,
}

impl Budget {
    /// Starts the clock.
    pub(crate) fn start(limits: &Limits) -> Budget {
        let start = Instant::now();
        Budget {
            start,
            // A budget beyond what an `Instant` can hold is no budget.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            nodes: limits.nodes,
            cancel: limits.cancel.clone(),
        }
    }

    /// Why to stop after `nodes` nodes, if a budget ran out. The clock and the stop token are
    /// read every 64 nodes.
    #[inline]
    pub(crate) fn exceeded(&self, nodes: u64) -> Option<StopReason> {
        if let Some(max) = self.nodes
            && nodes > max
        {
            return Some(StopReason::NodeLimit);
        }
        if nodes.is_multiple_of(64) {
            return self.interrupted();
        }
        None
    }

    /// Why to stop now, reading the clock and the stop token (not the node budget): for loops
    /// whose steps are not search nodes.
    pub(crate) fn interrupted(&self) -> Option<StopReason> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Some(StopReason::Cancelled);
        }
        if let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// The time left before the deadline (`None`: no deadline).
    pub(crate) fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The node budget, if any.
    pub(crate) fn node_limit(&self) -> Option<u64> {
        self.nodes
    }

    /// The stop token, if any.
    pub(crate) fn cancel(&self) -> Option<&Cancel> {
        self.cancel.as_ref()
    }

    /// Time since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The report of a search that proved there is nothing to find (clashing givens).
    pub(crate) fn unsat_report(&self) -> CountReport {
        CountReport {
            refutation: Refutation::Propagation,
            stats: Stats {
                elapsed: self.elapsed(),
                ..Stats::default()
            },
            ..CountReport::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_time_budget_is_no_deadline() {
        let budget = Budget::start(&Limits::time(Duration::from_secs(u64::MAX)));
        assert_eq!(budget.exceeded(64), None);
        assert_eq!(budget.remaining(), None);
    }

    #[test]
    fn cancel_stops_at_the_next_check() {
        let cancel = Cancel::new();
        let budget = Budget::start(&Limits::none().with_cancel(cancel.clone()));
        assert_eq!(budget.exceeded(64), None);
        cancel.cancel();
        assert_eq!(budget.exceeded(63), None, "read every 64 nodes only");
        assert_eq!(budget.exceeded(128), Some(StopReason::Cancelled));
    }

    #[test]
    fn the_node_budget_counts_past_the_limit() {
        let budget = Budget::start(&Limits::nodes(10));
        assert_eq!(budget.exceeded(10), None);
        assert_eq!(budget.exceeded(11), Some(StopReason::NodeLimit));
    }

    #[test]
    fn a_count_keeps_two_solutions_and_reads_as_answers() {
        let grid = Grid::empty(crate::Shape::sudoku(2, 2).unwrap());
        let mut report = CountReport::default();
        assert!(!report.record(|| grid.clone(), 3));
        assert!(!report.record(|| grid.clone(), 3));
        assert!(report.record(|| unreachable!("only two are kept"), 3));
        assert_eq!(report.solutions.len(), 2);
        assert!(report.hit_limit && !report.complete());
        assert!(matches!(
            report.clone().into_unique_report().outcome,
            Outcome::Multiple(..)
        ));
        assert!(matches!(
            report.into_solve_report().answer,
            Answer::Solved(_)
        ));
        assert_eq!(
            CountReport::default().into_solve_report().answer,
            Answer::Unsat
        );
    }
}
