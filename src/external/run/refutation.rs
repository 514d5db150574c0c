//! How the `unsat` of a run is known: its proof checked against the formula sudokit wrote, or a
//! claim.
//!
//! **Refutations.** An entry with a `proof` gets its proof arguments on every run; when a run
//! ends in `unsat`, the proof is checked against the formula sudokit wrote
//! ([`crate::external::certify`]) and the count's [`Refutation`] is the checked proof. A proof
//! that is rejected is an error, never an `unsat`. Without a proof (or when a limit stops the
//! check) the `unsat` is a [`Refutation::Claim`]: shown as a claim, never as a fact.

use std::io::BufReader;
use std::path::Path;
use std::time::Instant;

use crate::external::certify::{CHECKER, ProofCheck, check_refutation};
use crate::external::files::open_regular;
use crate::external::{Entry, ExternalError};
use crate::format::ExportOptions;
use crate::format::clausal_proof::ProofFormat;
use crate::format::dimacs::formula_excluding;
use crate::grid::Grid;
use crate::search::{Cancel, Refutation, StopReason};

impl Entry {
    /// Why an `unsat` of this entry is not checked, when it writes no proof.
    pub(super) fn unchecked(&self, reason: impl Into<String>) -> Refutation {
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
    pub(super) fn refutation(
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
}
