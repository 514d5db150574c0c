//! Checking an external SAT solver's refutation proof against the formula sudokit wrote, before
//! its `unsat` is reported as known.
//!
//! The proof ([`crate::format::clausal_proof`]: DRAT, RUP or FRAT lemmas) is checked twice, by
//! two checkers written apart, and both must accept it:
//!
//! 1. a forward DRAT checker ([`crate::proof::elaborate`]) reads it step by step: every lemma must be a
//!    reverse unit propagation (RUP) or resolution asymmetric tautology (RAT) consequence of the
//!    formula and the lemmas before it; deletions of clauses that are the reason of a top-level
//!    literal are ignored (and counted), as drat-trim does; the proof must derive the empty
//!    clause. For every lemma it accepts, it writes the LRAT hints that justify it;
//! 2. the LRAT checker ([`crate::proof::lrat::check_lrat`]) checks that LRAT proof against
//!    the formula, by unit propagation over the hints alone, with no search and no state carried
//!    between steps.
//!
//! A bug in the first checker that accepts a wrong lemma leaves no hints that work for the
//! second; a bug in the second cannot certify a proof the first refused. The formula is the one
//! in memory, not the file the solver read: a solver that rewrote its input cannot refute a
//! different formula.
//!
//! A proof that introduces variables far beyond the formula's is refused before the checker
//! sizes its arrays by them; the clock and the stop token are read every 256 steps.
//!
//! # Complexity
//! Forward checking: each lemma costs one unit propagation over the clauses present (RAT
//! lemmas one per resolution candidate); the LRAT check is linear in the hints written, which
//! are held in memory (about the proof's size).
//!
//! # References
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim", SAT 2014 (DRAT and its checking).
//! - L. Cruz-Filipe, M. J. H. Heule, W. A. Hunt Jr., M. Kaufmann, P. Schneider-Kamp, "Efficient
//!   certified RAT verification", CADE 2017 (LRAT).

use std::io::BufRead;

use crate::encode::Cnf;
use crate::format::clausal_proof::{ProofError, ProofFormat, Step, read_proof};
use crate::proof::elaborate::Elaborator;
use crate::proof::lrat::check_lrat;
use crate::search::StopReason;

/// The name of the checkers, for reports.
pub const CHECKER: &str = "sudokit's forward DRAT checker, its LRAT re-checked";

/// How far past the formula's variables a proof's variables may go (extension variables).
const EXTRA_VARIABLES: u64 = 1 << 20;

/// What checking a refutation proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofCheck {
    /// Every step is valid and the empty clause is derived: the formula is unsatisfiable.
    Accepted {
        /// Lemmas and deletions read.
        steps: u64,
        /// Deletions ignored because the clause was the reason of a top-level literal (as
        /// drat-trim does), or was not present.
        ignored_deletions: u64,
    },
    /// The proof is wrong, incomplete or unreadable: why.
    Rejected(String),
    /// A limit stopped the check first.
    Stopped(StopReason),
}

/// Checks that `proof` (of `format`) refutes `cnf`; `interrupted` is asked every 256 steps
/// whether to stop.
pub fn check_refutation(
    cnf: &Cnf,
    format: ProofFormat,
    proof: &mut dyn BufRead,
    interrupted: &dyn Fn() -> Option<StopReason>,
) -> ProofCheck {
    let formula: Vec<Vec<i64>> = cnf
        .clauses()
        .map(|clause| clause.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    let vars = cnf.vars() as u64;
    let written = |e: std::io::Error| ProofCheck::Rejected(format!("the LRAT proof: {e}"));
    let mut checker =
        match Elaborator::new(cnf.vars(), formula.iter().map(Vec::as_slice), Vec::new()) {
            Ok(checker) => checker,
            Err(e) => return written(e),
        };
    let mut steps = 0u64;
    let mut stop = None;
    let read = read_proof(format, proof, &mut |step| {
        if checker.refuted() {
            // Steps after the empty clause change nothing.
            return Ok(());
        }
        steps += 1;
        if steps.is_multiple_of(256)
            && let Some(reason) = interrupted()
        {
            stop = Some(reason);
            return Err(format!("stopped: {reason}"));
        }
        let (delete, clause) = match step {
            Step::Add(clause) => (false, clause),
            Step::Delete(clause) => (true, clause),
        };
        if let Some(&far) = clause
            .iter()
            .find(|l| l.unsigned_abs() > vars + EXTRA_VARIABLES)
        {
            return Err(format!(
                "step {steps} names variable {}, far beyond the formula's {vars}",
                far.unsigned_abs()
            ));
        }
        let result = if delete {
            checker.delete(clause).map(|()| true)
        } else {
            checker.add_lemma(clause)
        };
        match result {
            Ok(true) => Ok(()),
            Ok(false) if clause.is_empty() => Err(format!(
                "step {steps} (0) is the empty clause, and unit propagation does not refute the \
                 formula and the lemmas before it"
            )),
            Ok(false) => Err(format!(
                "step {steps} ({}) is neither RUP nor RAT on its first literal",
                clause_text(clause)
            )),
            Err(e) => Err(format!("the LRAT proof: {e}")),
        }
    });
    if let Some(reason) = stop {
        return ProofCheck::Stopped(reason);
    }
    match read {
        Err(ProofError::Stopped(message)) => return ProofCheck::Rejected(message),
        Err(e) => return ProofCheck::Rejected(format!("the proof cannot be read: {e}")),
        Ok(()) => {}
    }
    let (done, lrat) = match checker.finish() {
        Ok(finished) => finished,
        Err(e) => return written(e),
    };
    if !done.refuted {
        return ProofCheck::Rejected(format!(
            "the proof's {steps} steps never derive the empty clause (truncated proof?)"
        ));
    }
    // The second, independent check: the LRAT proof by its hints alone.
    if let Err(e) = check_lrat(&formula, lrat.as_slice()) {
        return ProofCheck::Rejected(format!(
            "the forward check accepted the proof, but its LRAT form is refused at {e}"
        ));
    }
    ProofCheck::Accepted {
        steps,
        ignored_deletions: done.ignored_reason_deletions + done.absent_deletions,
    }
}

/// A clause for messages, shortened past a few literals.
fn clause_text(clause: &[i64]) -> String {
    let mut text: Vec<String> = clause.iter().take(6).map(i64::to_string).collect();
    if clause.len() > 6 {
        text.push("...".into());
    }
    text.push("0".into());
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{ClauseSink, Lit};

    /// (a ∨ b) (¬a ∨ b) (a ∨ ¬b) (¬a ∨ ¬b): unsatisfiable, refuted by `2 0` then `0`.
    fn four() -> Cnf {
        let mut cnf = Cnf::new();
        for clause in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
            cnf.add_clause(&clause.map(Lit::from_dimacs));
        }
        cnf
    }

    fn check(cnf: &Cnf, format: ProofFormat, proof: &str) -> ProofCheck {
        check_refutation(cnf, format, &mut proof.as_bytes(), &|| None)
    }

    #[test]
    fn a_valid_refutation_is_accepted_and_a_wrong_one_rejected() {
        assert_eq!(
            check(&four(), ProofFormat::Drat, "2 0\n0\n"),
            ProofCheck::Accepted {
                steps: 1,
                ignored_deletions: 0
            }
        );
        assert_eq!(
            check(
                &four(),
                ProofFormat::Frat,
                "o 1 1 2 0\na 5 2 0 l 1 2 0\na 6 0\n"
            ),
            ProofCheck::Accepted {
                steps: 1,
                ignored_deletions: 0
            }
        );
        // Without the lemma, the empty clause is not RUP.
        let ProofCheck::Rejected(why) = check(&four(), ProofFormat::Drat, "0\n") else {
            panic!("a wrong proof is rejected");
        };
        assert!(why.contains("step 1 (0) is the empty clause"), "{why}");
        // Two clauses cannot be refuted.
        let mut sat = Cnf::new();
        sat.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(2)]);
        assert!(matches!(
            check(&sat, ProofFormat::Drat, "1 0\n0\n"),
            ProofCheck::Rejected(_)
        ));
        // A lemma after which propagation refutes the formula is enough; an empty proof is not.
        assert_eq!(
            check(&four(), ProofFormat::Drat, "2 0\n"),
            ProofCheck::Accepted {
                steps: 1,
                ignored_deletions: 0
            }
        );
        let ProofCheck::Rejected(why) = check(&four(), ProofFormat::Drat, "c nothing\n") else {
            panic!("an unfinished proof is rejected");
        };
        assert!(why.contains("never derive the empty clause"), "{why}");
        assert!(matches!(
            check(&four(), ProofFormat::Drat, "s UNSATISFIABLE\n"),
            ProofCheck::Rejected(_)
        ));
    }

    #[test]
    fn ignored_deletions_are_counted() {
        // A fresh unit, its deletion (the reason of its literal: ignored), then the refutation.
        assert_eq!(
            check(&four(), ProofFormat::Drat, "7 0\nd 7 0\nd 8 9 0\n2 0\n0\n"),
            ProofCheck::Accepted {
                steps: 4,
                ignored_deletions: 2
            }
        );
    }

    #[test]
    fn huge_variables_are_refused_and_limits_stop_the_check() {
        let ProofCheck::Rejected(why) = check(&four(), ProofFormat::Drat, "2000000000 0\n0\n")
        else {
            panic!("refused");
        };
        assert!(why.contains("far beyond"), "{why}");
        let long: String = "1 2 0\n".repeat(1000) + "2 0\n0\n";
        let stopped = check_refutation(&four(), ProofFormat::Drat, &mut long.as_bytes(), &|| {
            Some(StopReason::TimeLimit)
        });
        assert_eq!(stopped, ProofCheck::Stopped(StopReason::TimeLimit));
    }
}
