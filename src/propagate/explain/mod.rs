//! The propagation of one scheme told step by step, as a person would solve the puzzle, easiest
//! first, with every step checked.
//!
//! [`explain`] tells the story (the file `tell.rs`) and replays it ([`replay()`]) before
//! returning it ([`explain_within`]: stopped by a time limit or a stop token),
//! as every solution goes through the verifier:
//! - **step 1 places every given** (their values leave their rows, columns and boxes);
//! - then the easiest rule the scheme has, each time: a contradiction in sight, **naked
//!   singles**, **hidden singles** (one step per placement: the value leaves the cell's peers in
//!   the same step), **locked candidates**, **naked and hidden pairs**, **triples**; then the
//!   scheme's **stronger reasoning** in the order its own run found it (`guided.rs`): larger Hall
//!   sets (and `BC`'s range exhaustion), **fish** of the colored matrix `C` (X-wing, swordfish),
//!   the **rows and boxes of a band** (`3`), **shaving probes** (each with the short chain that
//!   refutes the trial);
//! - the story ends where the scheme's fixpoint does: the solution (verified), or the candidates
//!   left and **the cell a search would branch on** (and the value it tries first), or a
//!   **contradiction** named as a Hall violation — a cell with no candidate, k cells of a unit
//!   that can take only k − 1 values between them, a value with no place, or k rows whose places
//!   of a value lie in k − 1 columns.
//!
//! Which rules a scheme has is `family.rs`; what each rule means is [`Reason`]; the sentences
//! are `text.rs`. [`Explanation::frames`] gives the candidates before each step for the pictures.
//!
//! # Complexity
//! One traced run of the scheme (O(n²·⌈n/64⌉) per propagator step more than a plain run), plus
//! the easy rules' scans per step (O(n³), and the combinations of pairs and triples) and a
//! probe's own story: for teaching-size grids.
//!
//! # References
//! - H. Simonis, "Sudoku as a constraint problem", 2005 (the schemes).
//! - P. Hall, "On representatives of subsets", 1935 (every rule and contradiction is a Hall set
//!   or a Hall violation).
//!
//! # Examples
//! ```
//! use sudokit::propagate::explain::{StepKind, explain};
//! use sudokit::propagate::Scheme;
//! use sudokit::text::{ShapeSpec, parse_line};
//! let puzzle = parse_line("12.434.221.34321", None).unwrap();
//! let story = explain(&puzzle, Scheme::FC).unwrap();
//! assert!(story.solution().is_some());
//! assert_eq!(story.steps[0].kind, StepKind::Givens);
//! assert!(story.steps[0].text.starts_with("The 13 givens are placed"));
//! assert!(story.steps[1..].iter().all(|s| s.kind == StepKind::NakedSingle));
//! // Row 1 holds 1 and 2, so (1,3) must be 3, which column 3 already holds.
//! let square = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
//! let story = explain(&square, Scheme::FC).unwrap();
//! assert_eq!(story.steps.len(), 2);
//! assert!(story.steps[1].text.starts_with("Contradiction: (1,3) has no candidate left"));
//! ```

mod explanation;
mod family;
mod guided;
mod replay;
mod rules;
mod step;
mod tell;
mod text;
mod words;

pub use explanation::{Ending, Explanation, Order};
pub use replay::{ReplayError, replay};
pub use step::{Deduction, Reason, StepKind};
pub use words::{cell_name, symbol};

use thiserror::Error;

use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::search::{Budget, Limits, StopReason};

/// Tells `scheme` on `puzzle` step by step and replays every step; see the module docs.
///
/// # Errors
/// [`ReplayError`] if a step does not follow from the ones before it (a bug in the story, never
/// shown to a user).
pub fn explain(puzzle: &Grid, scheme: Scheme) -> Result<Explanation, ReplayError> {
    let story = tell::tell(puzzle, scheme, Order::Scheme, None).expect("no budget, no stop");
    replay(&story)?;
    Ok(story)
}

/// Why [`explain_within`] gives no explanation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExplainError {
    /// The time limit or the stop token of the limits ended the telling first.
    #[error("stopped: {0}")]
    Stopped(StopReason),
    /// A step does not follow from the ones before it (see [`explain`]).
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// [`explain`] within `limits` (their time and stop token; the node budget does not apply):
/// the scheme's run and the telling stop when the time is up or the token is set.
///
/// # Errors
/// [`ExplainError::Stopped`] with the reason, or [`ExplainError::Replay`] as [`explain`].
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use sudokit::propagate::explain::{ExplainError, explain_within};
/// use sudokit::propagate::Scheme;
/// use sudokit::search::{Limits, StopReason};
/// use sudokit::text::parse_line;
/// let puzzle = parse_line("12.434.221.34321", None).unwrap();
/// assert!(explain_within(&puzzle, Scheme::FC, &Limits::none()).is_ok());
/// let none_left = Limits::time(Duration::ZERO);
/// assert_eq!(
///     explain_within(&puzzle, Scheme::FC, &none_left).unwrap_err(),
///     ExplainError::Stopped(StopReason::TimeLimit)
/// );
/// ```
pub fn explain_within(
    puzzle: &Grid,
    scheme: Scheme,
    limits: &Limits,
) -> Result<Explanation, ExplainError> {
    explain_in_order(puzzle, scheme, Order::Scheme, limits)
}

/// [`explain_within`] with the steps taken in `order` ([`Order::Human`]: every rule the
/// explanations know, easiest first, to the scheme's fixpoint); replayed like every story.
///
/// # Errors
/// As [`explain_within`].
///
/// # Examples
/// ```
/// use sudokit::propagate::explain::{Order, explain_in_order};
/// use sudokit::propagate::Scheme;
/// use sudokit::search::Limits;
/// use sudokit::text::parse_line;
/// let puzzle = parse_line("12.434.221.34321", None).unwrap();
/// let story = explain_in_order(&puzzle, Scheme::BC, Order::Human, &Limits::none()).unwrap();
/// assert_eq!(story.order, Order::Human);
/// assert!(story.solution().is_some());
/// ```
pub fn explain_in_order(
    puzzle: &Grid,
    scheme: Scheme,
    order: Order,
    limits: &Limits,
) -> Result<Explanation, ExplainError> {
    let budget = Budget::start(limits);
    let story = tell::tell(puzzle, scheme, order, Some(&budget)).map_err(ExplainError::Stopped)?;
    replay(&story)?;
    Ok(story)
}
