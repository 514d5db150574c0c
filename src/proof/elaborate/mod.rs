//! Turning a DRAT refutation into an LRAT one: a forward DRAT checker that, for every lemma it
//! accepts, writes the unit-propagation hints that justify it, so that a second checker
//! ([`super::lrat::check_lrat`], written apart from this file) can check the same
//! refutation again without search.
//!
//! # Method
//! The formula's clauses are numbered 1, 2, … in file order, as LRAT numbers them; each lemma and
//! each derived unit (below) gets the next number. The checker keeps the clauses with two
//! watched literals each and the top-level assignment that unit propagation over them forces.
//!
//! - **A lemma** `C` is checked by reverse unit propagation (RUP): the literals of `C` are set
//!   false on top of the top-level assignment and propagated; a conflict proves `C`. Its LRAT
//!   hints are the clauses that took part in the conflict, found by walking the trail back from
//!   the conflicting clause, in the order they propagated. Failing RUP, `C` is checked as a
//!   resolution asymmetric tautology (RAT) on its first literal `p`: for every live clause `D`
//!   holding `¬p`, the resolvent `C ∪ (D \ {¬p})` must be a tautology or RUP; the hints are then
//!   one group per such `D`, `-id(D)` followed by the resolvent's RUP hints.
//! - **The top-level assignment**: when a clause becomes unit at the top level, its literal is
//!   set for good, and a unit clause holding it is written to the LRAT proof (hinted by the units
//!   of the clause's other literals, then the clause), so a later step's hints name one unit
//!   instead of its whole derivation. These units are clauses of the proof like the others: live
//!   for the RAT checks of both checkers.
//! - **Deletions** remove a clause with the same literals (in any order). A clause that is the
//!   reason of a top-level literal is not deleted: its deletion is ignored and counted, as
//!   drat-trim does. A deleted reason would otherwise leave a literal set that nothing live
//!   implies, and a later lemma could rest on it: the proof `x 0`, `w -x 0`, `d w -x 0`, `-w 0`
//!   derives a contradiction from any formula that way. A deletion of a clause that is not
//!   present is ignored and counted too.
//! - **The end**: the proof refutes the formula when a step (or the formula itself) makes unit
//!   propagation at the top level fail; the empty clause is then written with the units of the
//!   failing clause's literals and the clause as its hints. Steps after that are not read.
//!
//! # Complexity
//! Each lemma costs one unit propagation over the clauses present (two watched literals, each
//! with a blocking literal) and a walk back over the literals set by it; a RAT lemma costs one
//! such propagation per clause holding the negated pivot, found by a scan of the clause store.
//! Deletions cost the clause's length (a hash of its sorted literals). The LRAT proof is written
//! as it goes, in memory.
//!
//! # References
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim: efficient checking and trimming using
//!   expressive clausal proofs", SAT 2014 (DRAT, ignoring deletions of reason clauses).
//! - L. Cruz-Filipe, M. J. H. Heule, W. A. Hunt Jr., M. Kaufmann, P. Schneider-Kamp, "Efficient
//!   certified RAT verification", CADE 2017 (LRAT, and producing it from a DRAT check).
//! - M. Moskewicz, C. Madigan, Y. Zhao, L. Zhang, S. Malik, "Chaff: engineering an efficient SAT
//!   solver", DAC 2001 (two watched literals).
//! - G. Chu, A. Harwood, P. Stuckey, "Cache conscious data structures for Boolean satisfiability
//!   solvers", JSAT 6, 2009 (blocking literals).

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};

mod unit_propagation;

/// No clause: the reason of a literal set by the lemma under test.
const NONE: u32 = u32::MAX;

/// A clause in the store.
#[derive(Debug, Clone, Copy)]
struct Clause {
    /// Where its literals start in the arena.
    start: u32,
    /// How many literals it has (after duplicates are dropped).
    len: u32,
    /// Its LRAT id.
    id: u64,
    /// Not deleted.
    live: bool,
    /// Holds a literal and its negation: never propagates.
    tautology: bool,
}

/// A clause watching a literal, with another of its literals: when that one is true, the clause
/// is satisfied and need not be looked at (a blocking literal).
#[derive(Debug, Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: u32,
}

/// What the elaboration of a whole proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elaboration {
    /// The formula is refuted: the LRAT proof ends with the empty clause.
    pub refuted: bool,
    /// Deletions of a clause that was the reason of a top-level literal, ignored.
    pub ignored_reason_deletions: u64,
    /// Deletions of a clause that was not present, ignored.
    pub absent_deletions: u64,
}

/// A forward DRAT checker writing LRAT; see the module docs.
pub struct Elaborator<W: Write> {
    /// Literals of every clause, as codes `2·var + negative`.
    arena: Vec<u32>,
    clauses: Vec<Clause>,
    /// Live clauses that a deletion may name, by the hash of their sorted literals.
    by_content: HashMap<u64, Vec<u32>>,
    /// Per literal code: the clauses watching it.
    watches: Vec<Vec<Watch>>,
    /// Per literal code: 1 true, -1 false, 0 open.
    value: Vec<i8>,
    /// Per variable: the clause that set it (`NONE` for the lemma's own literals).
    reason: Vec<u32>,
    /// Per variable: the id of the unit clause holding its top-level literal (0: not top level).
    unit_id: Vec<u64>,
    /// Per variable: marked by the conflict analysis.
    seen: Vec<bool>,
    /// Per variable: its literal is in the clause under test (the LRAT checker sets it too).
    in_clause: Vec<bool>,
    trail: Vec<u32>,
    /// Trail entries below this are top level.
    top: usize,
    /// The next trail entry to propagate.
    head: usize,
    /// At the top level (nothing of a lemma is set).
    at_top: bool,
    next_id: u64,
    /// The hints of the empty clause, once the top level has failed.
    refutation: Option<Vec<u64>>,
    ignored_reason_deletions: u64,
    absent_deletions: u64,
    lrat: W,
    /// Scratch: a clause being normalised, hints, marked variables.
    scratch: Vec<u32>,
    hints: Vec<u64>,
    chain: Vec<u64>,
    marked: Vec<u32>,
}

/// A DIMACS literal as a code.
fn code(lit: i64) -> u32 {
    let var = (lit.unsigned_abs() - 1) as u32;
    2 * var + u32::from(lit < 0)
}

/// A code as a DIMACS literal.
fn dimacs(code: u32) -> i64 {
    let var = i64::from(code / 2) + 1;
    if code & 1 == 1 { -var } else { var }
}

fn var(code: u32) -> usize {
    (code / 2) as usize
}

/// The hash a deletion finds a clause by: of its sorted, duplicate-free literals.
fn content_hash(sorted: &[u32]) -> u64 {
    let mut hasher = DefaultHasher::new();
    sorted.hash(&mut hasher);
    hasher.finish()
}

/// Sorts `lits` and drops repeated literals; true when a literal and its negation are both in.
fn normalise(lits: &mut Vec<u32>) -> bool {
    lits.sort_unstable();
    lits.dedup();
    lits.windows(2).any(|w| w[0] ^ 1 == w[1])
}

impl<W: Write> Elaborator<W> {
    /// A checker over the formula `clauses` (DIMACS literals) with `vars` variables, writing the
    /// LRAT proof to `lrat`.
    ///
    /// # Errors
    /// Writing the LRAT proof failed.
    pub fn new<'c>(
        vars: usize,
        clauses: impl IntoIterator<Item = &'c [i64]>,
        lrat: W,
    ) -> io::Result<Elaborator<W>> {
        let mut checker = Elaborator {
            arena: Vec::new(),
            clauses: Vec::new(),
            by_content: HashMap::new(),
            watches: Vec::new(),
            value: Vec::new(),
            reason: Vec::new(),
            unit_id: Vec::new(),
            seen: Vec::new(),
            in_clause: Vec::new(),
            trail: Vec::new(),
            top: 0,
            head: 0,
            at_top: true,
            next_id: 1,
            refutation: None,
            ignored_reason_deletions: 0,
            absent_deletions: 0,
            lrat,
            scratch: Vec::new(),
            hints: Vec::new(),
            chain: Vec::new(),
            marked: Vec::new(),
        };
        checker.grow(vars);
        // Every formula clause is numbered before any unit is derived and numbered after them.
        let mut lits = Vec::new();
        for clause in clauses {
            lits.clear();
            lits.extend(clause.iter().map(|&l| code(l)));
            checker.grow_for(&lits);
            let tautology = normalise(&mut lits);
            checker.store(&lits, tautology);
        }
        for index in 0..checker.clauses.len() as u32 {
            checker.attach(index)?;
        }
        Ok(checker)
    }

    /// Whether the top level has failed: the formula and the lemmas so far are refuted.
    pub fn refuted(&self) -> bool {
        self.refutation.is_some()
    }

    /// Makes room for variables `0..vars`.
    fn grow(&mut self, vars: usize) {
        if vars > self.reason.len() {
            self.value.resize(2 * vars, 0);
            self.watches.resize_with(2 * vars, Vec::new);
            self.reason.resize(vars, NONE);
            self.unit_id.resize(vars, 0);
            self.seen.resize(vars, false);
            self.in_clause.resize(vars, false);
        }
    }

    fn grow_for(&mut self, lits: &[u32]) {
        if let Some(&max) = lits.iter().max() {
            self.grow(var(max) + 1);
        }
    }

    /// Checks and adds the lemma `lemma` (DIMACS literals, its first the RAT pivot). `Ok(false)`:
    /// neither RUP nor RAT.
    ///
    /// # Errors
    /// Writing the LRAT proof failed.
    pub fn add_lemma(&mut self, lemma: &[i64]) -> io::Result<bool> {
        if self.refuted() {
            return Ok(true);
        }
        let mut lits: Vec<u32> = Vec::with_capacity(lemma.len());
        for &l in lemma {
            let c = code(l);
            if !lits.contains(&c) {
                lits.push(c);
            }
        }
        self.grow_for(&lits);
        if lits.iter().any(|&l| lits.contains(&(l ^ 1))) {
            // A tautology is implied by nothing; it never propagates, so it is not kept.
            return Ok(true);
        }
        if lits.is_empty() {
            // The empty clause holds only when the top level has already failed.
            return Ok(false);
        }
        let id = self.next_id;
        if self.rup(&lits) {
            self.write_step(id, &lits)?;
        } else if let Some(groups) = self.rat(&lits) {
            let mut line = Vec::new();
            write!(line, "{id}")?;
            for &l in &lits {
                write!(line, " {}", dimacs(l))?;
            }
            line.extend_from_slice(b" 0");
            for (clause, hints) in groups {
                write!(line, " -{clause}")?;
                for h in hints {
                    write!(line, " {h}")?;
                }
            }
            line.extend_from_slice(b" 0\n");
            self.lrat.write_all(&line)?;
        } else {
            return Ok(false);
        }
        self.insert(&lits)?;
        Ok(true)
    }

    /// Deletes a clause with the literals `clause` (DIMACS), unless it is the reason of a
    /// top-level literal or absent (both counted).
    ///
    /// # Errors
    /// Writing the LRAT proof failed.
    pub fn delete(&mut self, clause: &[i64]) -> io::Result<()> {
        if self.refuted() {
            return Ok(());
        }
        self.scratch.clear();
        self.scratch.extend(clause.iter().map(|&l| code(l)));
        normalise(&mut self.scratch);
        let hash = content_hash(&self.scratch);
        let Some(candidates) = self.by_content.get(&hash) else {
            self.absent_deletions += 1;
            return Ok(());
        };
        let mut same = false;
        let mut chosen = None;
        for (at, &index) in candidates.iter().enumerate() {
            let c = self.clauses[index as usize];
            // Stored clauses hold no repeated literal (their order is the watches'): the same
            // length and every literal in the sorted deletion make the same clause.
            let same_clause = c.len as usize == self.scratch.len()
                && self
                    .literals(c)
                    .iter()
                    .all(|l| self.scratch.binary_search(l).is_ok());
            if !same_clause {
                continue;
            }
            same = true;
            if !self.is_reason(index) {
                chosen = Some(at);
                break;
            }
        }
        match chosen {
            Some(at) => {
                let candidates = self.by_content.get_mut(&hash).expect("looked up above");
                let index = candidates.swap_remove(at);
                if candidates.is_empty() {
                    self.by_content.remove(&hash);
                }
                let clause = &mut self.clauses[index as usize];
                clause.live = false;
                let id = clause.id;
                writeln!(self.lrat, "{} d {id} 0", self.next_id - 1)?;
            }
            None if same => self.ignored_reason_deletions += 1,
            None => self.absent_deletions += 1,
        }
        Ok(())
    }

    /// Ends the proof: writes the empty clause when the top level has failed.
    ///
    /// # Errors
    /// Writing the LRAT proof failed.
    pub fn finish(mut self) -> io::Result<(Elaboration, W)> {
        let refuted = if let Some(hints) = self.refutation.take() {
            let mut line = format!("{} 0", self.next_id);
            for h in hints {
                line.push_str(&format!(" {h}"));
            }
            line.push_str(" 0\n");
            self.lrat.write_all(line.as_bytes())?;
            true
        } else {
            false
        };
        self.lrat.flush()?;
        Ok((
            Elaboration {
                refuted,
                ignored_reason_deletions: self.ignored_reason_deletions,
                absent_deletions: self.absent_deletions,
            },
            self.lrat,
        ))
    }

    fn literals(&self, c: Clause) -> &[u32] {
        &self.arena[c.start as usize..(c.start + c.len) as usize]
    }

    /// Whether clause `index` set a top-level literal.
    fn is_reason(&self, index: u32) -> bool {
        let c = self.clauses[index as usize];
        self.literals(c)
            .iter()
            .any(|&l| self.value[l as usize] == 1 && self.reason[var(l)] == index)
    }

    /// Writes the LRAT step adding `lits` with the hints in `self.hints`.
    fn write_step(&mut self, id: u64, lits: &[u32]) -> io::Result<()> {
        let mut line = Vec::with_capacity(16 * (lits.len() + self.hints.len()));
        write!(line, "{id}")?;
        for &l in lits {
            write!(line, " {}", dimacs(l))?;
        }
        line.extend_from_slice(b" 0");
        for h in &self.hints {
            write!(line, " {h}")?;
        }
        line.extend_from_slice(b" 0\n");
        self.lrat.write_all(&line)
    }

    /// Adds a clause (a formula clause or an accepted lemma) at the top level with the next id,
    /// and propagates.
    fn insert(&mut self, lits: &[u32]) -> io::Result<()> {
        let mut lits = lits.to_vec();
        self.grow_for(&lits);
        let tautology = normalise(&mut lits);
        let index = self.store(&lits, tautology);
        self.attach(index)
    }

    /// Makes stored clause `index` deletable and watched, and propagates what it forces at the
    /// top level.
    fn attach(&mut self, index: u32) -> io::Result<()> {
        let c = self.clauses[index as usize];
        let hash = content_hash(self.literals(c));
        self.by_content.entry(hash).or_default().push(index);
        if self.refuted() || c.tautology {
            return Ok(());
        }
        if c.len == 0 {
            self.refutation = Some(vec![c.id]);
            return Ok(());
        }
        // Order the literals: true ones, then open ones, then false ones.
        let start = c.start as usize;
        let len = c.len as usize;
        let slice = &mut self.arena[start..start + len];
        let value = &self.value;
        slice.sort_by_key(|&l| match value[l as usize] {
            1 => 0,
            0 => 1,
            _ => 2,
        });
        let first = slice[0];
        let first_value = self.value[first as usize];
        if slice.len() >= 2 {
            let second = slice[1];
            self.watches[first as usize].push(Watch {
                clause: index,
                blocker: second,
            });
            self.watches[second as usize].push(Watch {
                clause: index,
                blocker: first,
            });
        }
        let second_open = len >= 2 && self.value[self.arena[start + 1] as usize] != -1;
        match first_value {
            1 => {}
            0 if second_open => {}
            0 => {
                self.assign(first, index)?;
                self.propagate_top()?;
            }
            _ => self.fail_top(index),
        }
        Ok(())
    }

    /// Puts a clause in the store with the next id.
    fn store(&mut self, lits: &[u32], tautology: bool) -> u32 {
        let index = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start: self.arena.len() as u32,
            len: lits.len() as u32,
            id: self.next_id,
            live: true,
            tautology,
        });
        self.next_id += 1;
        self.arena.extend_from_slice(lits);
        index
    }

    /// The RAT groups of `lemma` on its first literal, or `None` when a resolvent is not RUP.
    fn rat(&mut self, lemma: &[u32]) -> Option<Vec<(u64, Vec<u64>)>> {
        let pivot = lemma[0];
        let mut groups = Vec::new();
        let mut resolvent: Vec<u32> = Vec::new();
        for index in 0..self.clauses.len() {
            let c = self.clauses[index];
            if !c.live || c.tautology || !self.literals(c).contains(&(pivot ^ 1)) {
                continue;
            }
            resolvent.clear();
            resolvent.extend_from_slice(lemma);
            let mut tautology = false;
            for &l in self.literals(c) {
                if l == pivot ^ 1 {
                    continue;
                }
                if lemma.contains(&(l ^ 1)) {
                    tautology = true;
                    break;
                }
                if !resolvent.contains(&l) {
                    resolvent.push(l);
                }
            }
            if tautology {
                continue;
            }
            if !self.rup(&resolvent) {
                return None;
            }
            groups.push((c.id, self.hints.clone()));
        }
        Some(groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lrat::check_lrat;

    /// Elaborates `proof` (steps `(delete, clause)`) against `formula`: the first rejected step
    /// (1-based), what the run found and the LRAT written, which the LRAT checker must accept
    /// step by step (and as a refutation when refuted).
    fn run(formula: &[&[i64]], proof: &[(bool, &[i64])]) -> (Option<usize>, Elaboration, String) {
        let vars = formula
            .iter()
            .flat_map(|c| c.iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0);
        let mut e = Elaborator::new(vars, formula.iter().copied(), Vec::new()).unwrap();
        let mut rejected = None;
        for (step, &(delete, clause)) in proof.iter().enumerate() {
            if delete {
                e.delete(clause).unwrap();
            } else if !e.add_lemma(clause).unwrap() {
                rejected = Some(step + 1);
                break;
            }
        }
        let (done, lrat) = e.finish().unwrap();
        let lrat = String::from_utf8(lrat).unwrap();
        let clauses: Vec<Vec<i64>> = formula.iter().map(|c| c.to_vec()).collect();
        match check_lrat(&clauses, lrat.as_bytes()) {
            Ok(()) => assert!(done.refuted, "{lrat}"),
            Err(e) => assert!(
                !done.refuted && e.message.contains("never derives the empty clause"),
                "LRAT refused: {e}\n{lrat}"
            ),
        }
        (rejected, done, lrat)
    }

    const FOUR: &[&[i64]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]];

    #[test]
    fn rup_lemmas_refute_and_their_lrat_checks() {
        let (rejected, done, _) = run(FOUR, &[(false, &[2]), (false, &[])]);
        assert_eq!(rejected, None);
        assert!(done.refuted);
        // Without the lemma nothing follows.
        let (rejected, done, _) = run(FOUR, &[(false, &[])]);
        assert_eq!(rejected, Some(1));
        assert!(!done.refuted);
    }

    #[test]
    fn a_deleted_reason_keeps_its_clause() {
        // (a ∨ b): satisfiable. x 0 (RAT, x fresh), w -x 0 (RAT, w fresh, then w is forced),
        // d w -x 0 (the reason of w: ignored), -w 0 (neither RUP nor RAT while w ∨ ¬x stays).
        let (rejected, done, _) = run(
            &[&[1, 2]],
            &[
                (false, &[3]),
                (false, &[4, -3]),
                (true, &[4, -3]),
                (false, &[-4]),
                (false, &[]),
            ],
        );
        assert_eq!(rejected, Some(4));
        assert!(!done.refuted);
        assert_eq!(done.ignored_reason_deletions, 1);
    }

    #[test]
    fn rat_is_checked_on_the_first_literal_and_written_as_groups() {
        // (¬1 ∨ 3) (2 ∨ 3): the lemma (1 ∨ 2) is not RUP; on 1 its one resolvent, with
        // (¬1 ∨ 3), is (1 ∨ 2 ∨ 3), RUP by (2 ∨ 3): the group -1 2.
        let formula: &[&[i64]] = &[&[-1, 3], &[2, 3]];
        let (rejected, _, lrat) = run(formula, &[(false, &[1, 2])]);
        assert_eq!(rejected, None);
        assert_eq!(lrat, "3 1 2 0 -1 2 0\n");
        // (¬3 ∨ 6) is RAT on 6 (fresh), not on ¬3: the resolvent with (2 ∨ 3) is not RUP.
        let (rejected, _, _) = run(formula, &[(false, &[6, -3])]);
        assert_eq!(rejected, None);
        let (rejected, _, _) = run(formula, &[(false, &[-3, 6])]);
        assert_eq!(rejected, Some(1));
    }

    #[test]
    fn top_level_units_are_written_once_and_hinted() {
        // (¬2) forces 3 by (2 ∨ 3): the unit 3 is written; (1 ∨ 2) is then RAT on 1 with the
        // resolvent (1 ∨ 2 ∨ 3) true at the top. Adding (¬1 ∨ ¬3) makes ¬1 forced, and the
        // lemma (1 ∨ 2), false at the top, neither RUP nor RAT.
        let (rejected, _, lrat) = run(&[&[-1, 3], &[2, 3], &[-2]], &[(false, &[1, 2])]);
        assert_eq!(rejected, None);
        // Once (1 ∨ 2) is in, ¬2 forces 1: its unit is written too.
        assert_eq!(lrat, "4 3 0 3 2 0\n5 1 2 0 -1 4 0\n6 1 0 3 5 0\n");
        let (rejected, _, _) = run(&[&[-1, 3], &[2, 3], &[-2], &[-1, -3]], &[(false, &[1, 2])]);
        assert_eq!(rejected, Some(1));
    }

    #[test]
    fn deletions_match_any_order_and_absent_ones_are_counted() {
        // With (¬1 ∨ 2) deleted, (2) is neither RUP nor RAT: its resolvent with (¬1 ∨ ¬2) is
        // not RUP.
        let (rejected, done, _) = run(
            FOUR,
            &[
                (true, &[2, -1]),
                (true, &[7, 8]),
                (false, &[2]),
                (false, &[]),
            ],
        );
        assert_eq!(done.absent_deletions, 1);
        assert_eq!(rejected, Some(3));
    }

    #[test]
    fn a_formula_refuted_by_propagation_needs_no_lemma() {
        let (rejected, done, _) = run(&[&[1], &[-1, 2], &[-2]], &[]);
        assert_eq!(rejected, None);
        assert!(done.refuted);
        let (_, done, _) = run(&[&[1, 2], &[]], &[]);
        assert!(done.refuted);
    }

    #[test]
    fn a_lemma_on_new_variables_and_repeated_literals() {
        let (rejected, done, _) = run(
            FOUR,
            &[
                (false, &[9, 9]),
                (true, &[9]),
                (false, &[2, 2]),
                (false, &[]),
            ],
        );
        assert_eq!(rejected, None);
        assert!(done.refuted);
        assert_eq!(done.ignored_reason_deletions, 1);
    }
}
