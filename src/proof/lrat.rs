//! A checker of textual LRAT refutations: the proofs CaDiCaL writes (`sat:cadical`, feature
//! `cadical`), and those [`crate::solve::sat::check_proof`] derives from varisat's, so that any LRAT proof
//! of a sudokit formula is checked in-process before a claim rests on it.
//!
//! # Method
//! The formula's clauses are numbered 1, 2, … in file order. Each addition step
//! `ID LITS… 0 HINTS… 0` is checked by reverse unit propagation over its hints only, in their
//! order: the step's literals are assigned false, and each hint clause must then be unit (its one
//! open literal is assigned true) or falsified (the step is proven; later hints are ignored). A
//! satisfied hint, a hint with two open literals, a hint that is not a live clause, or a step
//! whose hints run out without a falsified clause is rejected. A deletion step `ID d IDS… 0`
//! removes clauses. The proof refutes the formula when a step adds the empty clause. Steps with
//! RAT hints (negative ids) check a resolution asymmetric tautology on the step's first literal:
//! every live clause holding that literal's negation must be named by a negative hint whose
//! following hints falsify the resolvent, unless the resolvent is a tautology. (Neither
//! varisat's nor CaDiCaL's LRAT uses them; DRAT proofs of external solvers elaborated by
//! [`super::elaborate`] may.) A step id may not jump more than 2²⁴ past the ids so far.
//!
//! # Complexity
//! Linear in the proof's size: each step costs its hint clauses' lengths; a RAT step also scans
//! the live clauses for the pivot's negation.
//!
//! # References
//! - L. Cruz-Filipe, M. J. H. Heule, W. A. Hunt Jr., M. Kaufmann, P. Schneider-Kamp, "Efficient
//!   certified RAT verification", CADE 2017 (the LRAT format and its checking).

use std::io::BufRead;

/// How far a step's id may jump past the clauses so far (the checker's table grows to it).
const MAX_ID_GAP: usize = 1 << 24;

/// A rejected proof: the line (1-based) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LratError {
    /// The line of the proof.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The LRAT checker's state: the live clauses by id and the partial assignment of a step.
struct Checker {
    /// Clause `id` at `clauses[id]` (`None`: never added, or deleted).
    clauses: Vec<Option<Vec<i64>>>,
    /// Per variable: 0 open, 1 true, -1 false.
    value: Vec<i8>,
    /// Variables assigned during the current step (reset after it).
    trail: Vec<usize>,
}

impl Checker {
    fn lit_value(&self, lit: i64) -> i8 {
        let v = self
            .value
            .get(lit.unsigned_abs() as usize)
            .copied()
            .unwrap_or(0);
        if lit < 0 { -v } else { v }
    }

    fn assign(&mut self, lit: i64) {
        let var = lit.unsigned_abs() as usize;
        if var >= self.value.len() {
            self.value.resize(var + 1, 0);
        }
        self.value[var] = if lit < 0 { -1 } else { 1 };
        self.trail.push(var);
    }

    fn reset(&mut self) {
        for &var in &self.trail {
            self.value[var] = 0;
        }
        self.trail.clear();
    }

    /// Applies unit-propagation hints in order: `Ok(true)` when a hint is falsified (the step
    /// is proven), `Ok(false)` when they run out first.
    fn propagate_hints(&mut self, hints: &[i64]) -> Result<bool, String> {
        for &hint in hints {
            let Some(Some(hinted)) = self.clauses.get(hint as usize) else {
                return Err(format!("hint {hint} is not a live clause"));
            };
            let mut open = None;
            let mut open_count = 0;
            for &lit in hinted {
                match self.lit_value(lit) {
                    1 => return Err(format!("hint {hint} is satisfied")),
                    0 => {
                        open_count += 1;
                        open = Some(lit);
                    }
                    _ => {}
                }
            }
            match (open_count, open) {
                (0, _) => return Ok(true),
                (1, Some(lit)) => self.assign(lit),
                _ => return Err(format!("hint {hint} has {open_count} open literals")),
            }
        }
        Ok(false)
    }

    /// Checks one addition: by unit propagation over its hints (RUP), or, when negative hints
    /// follow, as a resolution asymmetric tautology (RAT) on its first literal: every live clause
    /// holding the pivot's negation must be either a tautology with the clause (one of its other
    /// literals true once the clause is falsified and the first hints applied, or a literal and
    /// its negation in it) or named by a negative hint, whose following hints then falsify the
    /// resolvent.
    fn implied(&mut self, clause: &[i64], hints: &[i64]) -> Result<(), String> {
        for &lit in clause {
            if self.lit_value(lit) == 0 {
                self.assign(-lit);
            }
        }
        let result = self.implied_after_assignment(clause, hints);
        self.reset();
        result
    }

    fn implied_after_assignment(&mut self, clause: &[i64], hints: &[i64]) -> Result<(), String> {
        let first_rat = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
        if self.propagate_hints(&hints[..first_rat])? {
            return Ok(());
        }
        // Without a conflict, the step must be RAT on its first literal (with no negative hints
        // when no live clause holds the pivot's negation).
        let Some(&pivot) = clause.first() else {
            return Err("the hints run out before a conflict".to_string());
        };
        // The groups: a negative id, then the hints up to the next negative id.
        let mut groups: Vec<(usize, &[i64])> = Vec::new();
        let mut at = first_rat;
        while at < hints.len() {
            let id = hints[at].unsigned_abs() as usize;
            let end = hints[at + 1..]
                .iter()
                .position(|&h| h < 0)
                .map_or(hints.len(), |k| at + 1 + k);
            if groups.iter().any(|&(g, _)| g == id) {
                return Err(format!("RAT hint -{id} is given twice"));
            }
            groups.push((id, &hints[at + 1..end]));
            at = end;
        }
        for &(id, _) in &groups {
            let holds = matches!(self.clauses.get(id), Some(Some(c)) if c.contains(&-pivot));
            if !holds {
                return Err(format!(
                    "RAT hint -{id} is not a live clause holding {}",
                    -pivot
                ));
            }
        }
        let base = self.trail.len();
        for candidate in 1..self.clauses.len() {
            let Some(other) = &self.clauses[candidate] else {
                continue;
            };
            if !other.contains(&-pivot) {
                continue;
            }
            let tautology = other
                .iter()
                .any(|&l| (l != -pivot && self.lit_value(l) == 1) || other.contains(&-l));
            if tautology {
                continue;
            }
            let Some(&(_, group)) = groups.iter().find(|&&(g, _)| g == candidate) else {
                return Err(format!(
                    "the hints run out before a conflict, and clause {candidate} holds {} but \
                     has no RAT hint",
                    -pivot
                ));
            };
            let other = other.clone();
            for &lit in &other {
                if lit != -pivot && self.lit_value(lit) == 0 {
                    self.assign(-lit);
                }
            }
            let proven = self.propagate_hints(group);
            // Back to the state before this candidate.
            for &var in &self.trail[base..] {
                self.value[var] = 0;
            }
            self.trail.truncate(base);
            if !proven? {
                return Err(format!(
                    "the hints of the resolvent with clause {candidate} run out before a conflict"
                ));
            }
        }
        Ok(())
    }
}

/// Checks that the textual LRAT `proof` refutes the formula whose clauses are `clauses` (in
/// DIMACS order, literals as signed DIMACS integers). See the module docs.
///
/// # Errors
/// The first step that does not check, a malformed line, or a proof that never adds the empty
/// clause (reported at the last line).
///
/// # Examples
/// ```
/// use sudokit::proof::lrat::check_lrat;
/// // (a ∨ b), (¬a ∨ b), (¬b): b is implied by the first two, then the empty clause.
/// let clauses = vec![vec![1, 2], vec![-1, 2], vec![-2]];
/// let proof = "4 2 0 1 2 0\n5 0 4 3 0\n";
/// assert_eq!(check_lrat(&clauses, proof.as_bytes()), Ok(()));
/// let wrong = "4 2 0 1 0\n";
/// assert!(check_lrat(&clauses, wrong.as_bytes()).is_err());
/// ```
pub fn check_lrat(clauses: &[Vec<i64>], proof: impl BufRead) -> Result<(), LratError> {
    let mut checker = Checker {
        clauses: std::iter::once(None)
            .chain(clauses.iter().cloned().map(Some))
            .collect(),
        value: Vec::new(),
        trail: Vec::new(),
    };
    let mut number = 0;
    let mut lits = Vec::new();
    let mut hints = Vec::new();
    for line in proof.lines() {
        number += 1;
        let fail = |message: String| LratError {
            line: number,
            message,
        };
        let line = line.map_err(|e| fail(e.to_string()))?;
        let mut fields = line.split_ascii_whitespace();
        let Some(first) = fields.next() else {
            continue;
        };
        if first == "c" {
            continue;
        }
        let id: usize = first
            .parse()
            .map_err(|_| fail(format!("'{first}' is not a step id")))?;
        let mut fields = fields.peekable();
        let int = |f: &str| {
            f.parse::<i64>()
                .map_err(|_| fail(format!("'{f}' is not an integer")))
        };
        if fields.peek() == Some(&"d") {
            fields.next();
            for f in fields {
                let deleted = int(f)?;
                if deleted == 0 {
                    break;
                }
                if let Some(slot) = checker.clauses.get_mut(deleted as usize) {
                    *slot = None;
                }
            }
            continue;
        }
        lits.clear();
        hints.clear();
        let mut in_hints = false;
        let mut ended = false;
        for f in fields {
            let x = int(f)?;
            match (in_hints, x) {
                (false, 0) => in_hints = true,
                (false, lit) => lits.push(lit),
                (true, 0) => {
                    ended = true;
                    break;
                }
                (true, hint) => hints.push(hint),
            }
        }
        if !ended {
            return Err(fail("the step does not end with 0".into()));
        }
        if id < checker.clauses.len() && checker.clauses[id].is_some() {
            return Err(fail(format!("step {id} reuses a live clause id")));
        }
        if id > checker.clauses.len() + MAX_ID_GAP {
            return Err(fail(format!(
                "step {id} skips more than {MAX_ID_GAP} ids past the last one"
            )));
        }
        checker.implied(&lits, &hints).map_err(fail)?;
        if lits.is_empty() {
            return Ok(());
        }
        if id >= checker.clauses.len() {
            checker.clauses.resize(id + 1, None);
        }
        checker.clauses[id] = Some(lits.clone());
    }
    Err(LratError {
        line: number,
        message: "the proof never derives the empty clause".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_steps_and_rejects_wrong_ones() {
        // x1 ∨ x2, ¬x1 ∨ x2, x1 ∨ ¬x2, ¬x1 ∨ ¬x2: unsatisfiable.
        let f = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
        let good = "c a comment\n5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";
        assert_eq!(check_lrat(&f, good.as_bytes()), Ok(()));
        // A deleted clause used as a hint.
        let deleted = "5 2 0 1 2 0\n5 d 1 0\n6 1 0 1 4 0\n";
        let e = check_lrat(&f, deleted.as_bytes()).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("not a live clause"), "{e}");
        // Hints that leave two literals open.
        let e = check_lrat(&f, "5 0 1 0\n".as_bytes()).unwrap_err();
        assert!(e.message.contains("open literals"), "{e}");
        // No empty clause.
        let e = check_lrat(&f, "5 2 0 1 2 0\n".as_bytes()).unwrap_err();
        assert!(e.message.contains("never derives"), "{e}");
        // A RAT hint.
        let e = check_lrat(&f, "5 2 0 -1 0\n".as_bytes()).unwrap_err();
        assert!(e.message.contains("RAT"), "{e}");
        // Malformed.
        let e = check_lrat(&f, "5 2 0 1 2\n".as_bytes()).unwrap_err();
        assert!(e.message.contains("end with 0"), "{e}");
    }
}
