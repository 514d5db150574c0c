//! Why a partial Latin square has no completion, in a few givens: a **minimal conflict**, a
//! subset of the givens that already has no completion and loses that property when any one of
//! its givens is dropped.
//!
//! [`minimal_conflict`] finds one by **deletion**: start from all the givens (no completion);
//! for each given in turn, drop it if the rest still has no completion, keep it otherwise. One
//! pass suffices: a given kept was needed by a superset of the final set, and a completion of
//! that superset without the given also completes every subset of it, so the final set without
//! any of its givens completes. Every test is a solve by a backend whose answers pass the
//! certificate verifier, and the result is minimal (no given can go) though not always the
//! smallest such set.
//!
//! [`Conflict::why`] then names **why** the conflict has no completion, as a teacher would: the
//! story of the weakest propagation scheme that refutes it (forward checking, hidden singles,
//! range exhaustion, Hall sets, the colored matrix), whose last step is a **Hall violation** — a
//! cell with no symbol left, k cells of a row or column that can take only k − 1 symbols, a
//! symbol with no place left in a row, or k rows whose places of a symbol lie in k − 1 columns.
//! Every step is replayed by [`crate::propagate::explain::replay`].
//!
//! # Complexity
//! One solve per given (exponential in the worst case each; small squares only); the
//! explanation, one traced fixpoint per scheme tried.
//!
//! # References
//! - J. Marques-Silva, "Minimal unsatisfiability: models, algorithms and applications", ISMVL
//!   2010 (deletion-based extraction of a minimal unsatisfiable subset).
//!
//! # Examples
//! ```
//! use sudokit::reduce::conflict::minimal_conflict;
//! use sudokit::solve::{Limits, backend};
//! use sudokit::text::{ShapeSpec, parse_line};
//! // Row 1 holds 1 and 2, so (1,3) must be 3; column 3 already has a 3 in (2,3). With a fourth
//! // given, (3,3) = 1, deletion keeps three of the four.
//! let square = parse_line("12...3..1", Some(ShapeSpec::Latin)).unwrap();
//! let native = backend("native").unwrap();
//! let conflict = minimal_conflict(&square, native.as_ref(), &Limits::none()).unwrap().unwrap();
//! assert_eq!(conflict.givens.filled(), 3);
//! // Without any one of the three, the rest completes.
//! for (cell, _) in conflict.givens.givens() {
//!     let mut fewer = conflict.givens.clone();
//!     fewer.set(cell, None);
//!     assert!(native.solve(&fewer, &Limits::none()).unwrap().answer.solution().is_some());
//! }
//! // Deletion dropped the 1 of (1,1) (the 1 of (3,3) does its work); why, in words:
//! assert_eq!(
//!     conflict.hall_violation().unwrap(),
//!     "(1,3) has no candidate left: its row holds 2 and its column holds 1 and 3"
//! );
//! ```

use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::propagate::explain::{Ending, Explanation, explain};
use crate::reduce::latin::as_latin_square;
use crate::search::{Answer, Limits};
use crate::solve::{SolveError, Solver};

/// A minimal conflict and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The conflicting givens, as a partial Latin square.
    pub givens: Grid,
    /// The solves made (one per given of the square).
    pub solves: usize,
}

impl Conflict {
    /// The givens in words, 1-based: "1 in (1,1), 2 in (1,2), 3 in (2,3)".
    pub fn describe(&self) -> String {
        let shape = self.givens.shape();
        let givens: Vec<String> = self
            .givens
            .givens()
            .map(|(c, v)| {
                format!(
                    "{} in ({},{})",
                    v + 1,
                    shape.row_of(c) + 1,
                    shape.col_of(c) + 1
                )
            })
            .collect();
        givens.join(", ")
    }

    /// Why the conflict's givens have no completion: the story of the weakest of `FC`, `FCI`,
    /// `BC`, `HAC`, `HACC` that refutes them, whose last step names the Hall violation; `None`
    /// when none refutes them without search (see the module docs).
    pub fn why(&self) -> Option<Explanation> {
        let square = as_latin_square(&self.givens);
        [
            Scheme::FC,
            Scheme::FCI,
            Scheme::BC,
            Scheme::HAC,
            Scheme::HACC,
        ]
        .into_iter()
        .filter_map(|scheme| explain(&square, scheme).ok())
        .find(|story| story.ending == Ending::Contradiction)
    }

    /// The Hall violation [`Conflict::why`] ends on, in words.
    pub fn hall_violation(&self) -> Option<String> {
        let story = self.why()?;
        let last = story.steps.last()?;
        Some(last.text.trim_start_matches("Contradiction: ").to_string())
    }
}

/// A minimal conflict of `latin` (read as a Latin square), found by deletion with `solver`; see
/// the module docs. `None` when the square has a completion, or when a limit stopped a solve
/// (an unknown answer settles nothing).
///
/// # Errors
/// [`SolveError`] as the solver's.
pub fn minimal_conflict(
    latin: &Grid,
    solver: &dyn Solver,
    limits: &Limits,
) -> Result<Option<Conflict>, SolveError> {
    let mut current = as_latin_square(latin);
    let mut solves = 1;
    match solver.solve(&current, limits)?.answer {
        Answer::Unsat => {}
        _ => return Ok(None),
    }
    for (cell, v) in latin.givens() {
        current.set(cell, None);
        solves += 1;
        match solver.solve(&current, limits)?.answer {
            Answer::Unsat => {}
            Answer::Solved(_) => current.set(cell, Some(v)),
            Answer::Unknown(_) => return Ok(None),
        }
    }
    Ok(Some(Conflict {
        givens: current,
        solves,
    }))
}
