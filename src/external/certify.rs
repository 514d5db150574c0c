//! Checking an external SAT solver's refutation proof against the formula sudokit wrote, before
//! its `unsat` is reported as known.
//!
//! The proof ([`crate::format::clausal_proof`]: DRAT, RUP or FRAT lemmas) is read step by step
//! and fed to a forward DRAT checker (the `dratify` crate): every lemma must be a reverse unit
//! propagation (RUP) or resolution asymmetric tautology (RAT) consequence of the formula and
//! the lemmas before it, deletions remove clauses (unit deletions are ignored, as drat-trim and
//! rate do), and the proof must derive the empty clause. The formula is the one in memory, not
//! the file the solver read: a solver that rewrote its input cannot refute a different formula.
//!
//! A proof that introduces variables far beyond the formula's is refused before the checker
//! sizes its arrays by them; the clock and the stop token are read every 256 steps.
//!
//! # Complexity
//! Forward checking: each lemma costs one unit propagation over the clauses present (RAT
//! lemmas one per resolution candidate); linear in the proof times the propagation cost.
//!
//! # References
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim", SAT 2014 (DRAT and its checking).
//! - M. Heule, W. Hunt, N. Wetzler, "Trimming while checking clausal proofs", FMCAD 2013.

use std::io::BufRead;

use dratify::{Checker, Lit as CheckerLit};

use crate::encode::Cnf;
use crate::format::clausal_proof::{ProofError, ProofFormat, Step, read_proof};
use crate::search::StopReason;

/// The name of the checker, for reports.
pub const CHECKER: &str = "dratify (forward DRAT)";

/// How far past the formula's variables a proof's variables may go (extension variables).
const EXTRA_VARIABLES: u64 = 1 << 20;

/// What checking a refutation proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofCheck {
    /// Every step is valid and the empty clause is derived: the formula is unsatisfiable.
    Accepted {
        /// Lemmas and deletions read.
        steps: u64,
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
    let formula: Vec<Vec<CheckerLit>> = cnf
        .clauses()
        .map(|clause| clause.iter().map(|l| checker_lit(l.to_dimacs())).collect())
        .collect();
    let vars = cnf.vars() as u64;
    let mut checker = Checker::new(cnf.vars() as u32, &formula, true, true);
    drop(formula);
    let mut steps = 0u64;
    let mut refuted = false;
    let mut stop = None;
    let mut lits: Vec<CheckerLit> = Vec::new();
    let read = read_proof(format, proof, &mut |step| {
        if refuted {
            // Steps after the empty clause change nothing.
            return Ok(());
        }
        steps += 1;
        if steps % 256 == 0
            && let Some(reason) = interrupted()
        {
            stop = Some(reason);
            return Err(format!("stopped: {reason}"));
        }
        let (delete, clause) = match step {
            Step::Add(clause) => (false, clause),
            Step::Delete(clause) => (true, clause),
        };
        lits.clear();
        for &l in clause {
            if l.unsigned_abs() > vars + EXTRA_VARIABLES {
                return Err(format!(
                    "step {steps} names variable {}, far beyond the formula's {vars}",
                    l.unsigned_abs()
                ));
            }
            lits.push(checker_lit(l));
        }
        if !checker.check_step(delete, &lits) {
            return Err(format!(
                "step {steps} ({}) is neither RUP nor RAT",
                clause_text(clause)
            ));
        }
        if !delete && clause.is_empty() {
            refuted = true;
        }
        Ok(())
    });
    if let Some(reason) = stop {
        return ProofCheck::Stopped(reason);
    }
    match read {
        Err(ProofError::Stopped(message)) => ProofCheck::Rejected(message),
        Err(e) => ProofCheck::Rejected(format!("the proof cannot be read: {e}")),
        Ok(()) if refuted => ProofCheck::Accepted { steps },
        // A formula refuted by unit propagation alone needs no lemma: the empty clause is then
        // RUP at once, and the checker accepts it.
        Ok(()) if checker.check_step(false, &[]) => ProofCheck::Accepted { steps },
        Ok(()) => ProofCheck::Rejected(format!(
            "the proof's {steps} steps never derive the empty clause (truncated proof?)"
        )),
    }
}

/// A DIMACS literal as the checker's literal: variable `|l| - 1`, doubled, plus the sign.
fn checker_lit(l: i64) -> CheckerLit {
    let var = (l.unsigned_abs() - 1) as CheckerLit;
    2 * var + CheckerLit::from(l < 0)
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
            ProofCheck::Accepted { steps: 2 }
        );
        assert_eq!(
            check(
                &four(),
                ProofFormat::Frat,
                "o 1 1 2 0\na 5 2 0 l 1 2 0\na 6 0\n"
            ),
            ProofCheck::Accepted { steps: 2 }
        );
        // Without the lemma, the empty clause is not RUP.
        let ProofCheck::Rejected(why) = check(&four(), ProofFormat::Drat, "0\n") else {
            panic!("a wrong proof is rejected");
        };
        assert!(why.contains("step 1 (0) is neither RUP nor RAT"), "{why}");
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
            ProofCheck::Accepted { steps: 1 }
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
    fn huge_variables_are_refused_and_limits_stop_the_check() {
        let ProofCheck::Rejected(why) = check(&four(), ProofFormat::Drat, "2000000000 0\n0\n")
        else {
            panic!("refused");
        };
        assert!(why.contains("far beyond"), "{why}");
        let long: String = "2 0\n".repeat(1000) + "0\n";
        let stopped = check_refutation(&four(), ProofFormat::Drat, &mut long.as_bytes(), &|| {
            Some(StopReason::TimeLimit)
        });
        assert_eq!(stopped, ProofCheck::Stopped(StopReason::TimeLimit));
    }
}
