//! CaDiCaL (A. Biere's CDCL solver, version 2.2.1, compiled from the source the
//! `rustsat-cadical` crate vendors) in process, with the cargo feature `cadical`: the solver of
//! the `sat:cadical` backends, of `native`'s CDCL stage, and of generation's removal test from
//! order 25 on.
//!
//! # Stopping a call
//! CaDiCaL calls a terminate callback often during a search; the callback reads the budget's
//! clock and stop token ([`Budget::interrupted`]) and ends the call when it ran out, so a time
//! limit is honoured within a fraction of a millisecond.
//!
//! # Proofs
//! A proving solver writes its refutation as textual LRAT through a proof tracer of its own
//! ([`LratWriter`], connected with antecedents, option `lrat`), which
//! [`crate::proof::lrat::check_lrat`] checks before the claim is reported. CaDiCaL's built-in LRAT
//! file is not used: CaDiCaL numbers original and derived clauses from one counter, so when it
//! derives a clause while the formula is still being added (a clause shortened by a unit given
//! before it) the original clauses are no longer numbered 1..m in file order, which every LRAT
//! checker assumes. The tracer is told the id of each original clause as it is added, so it
//! writes the proof with the formula's clauses as 1..m (in the order they were added, the
//! order of the DIMACS file) and the derived clauses as m+1, m+2, …, each with its antecedents
//! renumbered the same way.
//!
//! # References
//! - A. Biere, K. Fazekas, M. Fleury, M. Heisinger, "CaDiCaL, Kissat, Paracooba, Plingeling and
//!   Treengeling entering the SAT Competition 2020", SAT Competition 2020 proceedings.
//! - C. Jabs, rustsat and rustsat-cadical (the binding).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use rustsat::solvers::{ControlSignal, PhaseLit, Solve, SolverResult, Terminate};
use rustsat::types::{Lit as RLit, TernaryVal};
use rustsat_cadical::{CaDiCaL, CaDiCaLClause, ClauseId, Config, ProofTracerHandle, TraceProof};

use crate::encode::{ClauseSink, Lit, Model, Var};
use crate::search::Budget;

/// The options [`Cadical::for_puzzles`] sets on top of CaDiCaL's configuration `sat` (which
/// searches in stable mode only, with less elimination and subsumption effort): no light
/// preprocessing before the first search (congruence closure, sweeping and fast elimination,
/// which cost more than they save on a puzzle's formula), no sweeping later, and no
/// chronological backtracking (`chrono=0`: every conflict backjumps to its assertion level).
///
/// Measured (CPU, median of 3, `sudokit solve --threads 1`, one process per puzzle) on the 25×25
/// puzzles of `acs_general_25x25_f40-50.txt` against CaDiCaL 2.2.1's defaults: lines 101–200
/// (the hard band) 11.62 → 6.16 s in total, the slowest 0.97 → 0.47 s; lines 1–100
/// 6.49 → 3.97 s; lines 201–300 1.54 → 0.94 s. The configuration `sat` alone gave 8.97 s on
/// lines 101–200 and nothing on lines 1–100 (6.57 s); see BENCHMARKS.md.
///
/// `chrono=0`, measured later against the two options above alone: CaDiCaL 2.2.1's binary on
/// the optimized CNF of lines 101–200, conflicts summed over the 100 formulas, 82 082 → 63 440,
/// and lower on each of four copies with variables and clauses shuffled (97 832 → 88 227,
/// 96 491 → 66 974, 96 017 → 70 877, 83 264 → 73 372). In process (CPU, minimum of 2,
/// alternated, `sudokit solve --threads 1`): lines 1–100 3.53 → 3.15 s, 101–200
/// 5.00 → 4.14 s (the slowest 0.355 → 0.199 s), 201–300 0.94 → 0.92 s; with `--unique`,
/// lines 101–200 5.37 → 4.56 s. Which puzzles need the most conflicts changes with the setting
/// (and with the order of the variables), so the puzzles over 1.5 times the CPU of Debian's
/// `cadical` (1.5.3) stay as many: 32 before and 33 after of lines 101–200 in
/// `scripts/hard_tail.sh`, mostly other puzzles.
pub(crate) const PUZZLE_OPTIONS: &[(&str, i32)] =
    &[("preprocesslight", 0), ("sweep", 0), ("chrono", 0)];

/// A literal as rustsat spells it (the same 0-based variable).
pub(super) fn to_rustsat(lit: Lit) -> RLit {
    RLit::new(lit.var().index() as u32, lit.is_negative())
}

/// A CaDiCaL instance, filled through [`ClauseSink`] (variables 0-based, in order).
pub(crate) struct Cadical {
    solver: CaDiCaL<'static, 'static>,
    /// The proof tracer of a proving solver; disconnected (and so released) before the solver.
    tracer: Option<ProofTracerHandle<LratWriter>>,
    vars: u32,
    scratch: Vec<RLit>,
}

impl Cadical {
    /// A fresh solver that stops when `budget` runs out or is cancelled.
    pub(crate) fn bounded(budget: &Budget) -> Cadical {
        let mut solver = CaDiCaL::default();
        if budget.remaining().is_some() || budget.cancel().is_some() {
            let budget = budget.clone();
            solver.attach_terminator(move || match budget.interrupted() {
                Some(_) => ControlSignal::Terminate,
                None => ControlSignal::Continue,
            });
        }
        Cadical {
            solver,
            tracer: None,
            vars: 0,
            scratch: Vec::new(),
        }
    }

    /// A fresh solver as [`Cadical::bounded`], set for the search for a puzzle's solutions
    /// ([`PUZZLE_OPTIONS`]).
    pub(crate) fn for_puzzles(budget: &Budget) -> Cadical {
        let mut cadical = Cadical::bounded(budget);
        // A setting CaDiCaL refused would leave its default: the answers stay the same (and
        // checked), only the speed differs; the unit test holds the setting to CaDiCaL 2.2.1.
        let _ = cadical.solver.set_configuration(Config::Sat);
        for &(name, value) in PUZZLE_OPTIONS {
            let _ = cadical.solver.set_option(name, value);
        }
        cadical
    }

    /// A fresh solver that writes its refutation of a formula of `clauses` clauses as textual
    /// LRAT to `proof` (see the module docs), and stops when `budget` runs out.
    ///
    /// # Errors
    /// The proof file cannot be created.
    pub(crate) fn proving(budget: &Budget, proof: &Path, clauses: usize) -> io::Result<Cadical> {
        let out = BufWriter::new(File::create(proof)?);
        let mut cadical = Cadical::bounded(budget);
        cadical
            .solver
            .set_option("lrat", 1)
            .map_err(|e| io::Error::other(e.to_string()))?;
        let tracer = LratWriter::new(out, clauses as u64);
        cadical.tracer = Some(cadical.solver.connect_proof_tracer(tracer, true));
        Ok(cadical)
    }

    /// Solves: `Some(true)` satisfiable, `Some(false)` unsatisfiable, `None` stopped by the
    /// budget.
    pub(crate) fn solve(&mut self) -> Option<bool> {
        match self.solver.solve() {
            Ok(SolverResult::Sat) => Some(true),
            Ok(SolverResult::Unsat) => Some(false),
            // Interrupted, or an error the binding reports (none is expected once the formula
            // is loaded): no answer.
            Ok(SolverResult::Interrupted) | Err(_) => None,
        }
    }

    /// Makes the search decide `lit` true when it first decides on its variable (CaDiCaL's
    /// phase for the variable).
    pub(crate) fn phase(&mut self, lit: Lit) {
        // CaDiCaL takes a phase in any state; a refusal would only leave its default phase.
        let _ = self.solver.phase_lit(to_rustsat(lit));
    }

    /// The model of the last satisfiable call, over the variables handed out.
    pub(crate) fn model(&self) -> Model {
        Model::from_lits((0..self.vars).map(|i| {
            let var = Var::from_index(i as usize);
            match self.solver.lit_val(RLit::positive(i)) {
                Ok(TernaryVal::True) => var.positive(),
                _ => var.negative(),
            }
        }))
    }

    /// Ends the proof: disconnects the tracer and flushes the proof file.
    ///
    /// # Errors
    /// The proof could not be written, or the formula added was not the `clauses` clauses
    /// [`Cadical::proving`] was told.
    pub(crate) fn close(mut self) -> io::Result<()> {
        let Some(handle) = self.tracer.take() else {
            return Ok(());
        };
        let writer = self
            .solver
            .disconnect_proof_tracer(handle)
            .map_err(|e| io::Error::other(e.to_string()))?;
        writer.finish()
    }
}

impl Drop for Cadical {
    fn drop(&mut self) {
        if let Some(handle) = self.tracer.take() {
            // The handle came from this solver, so it is connected; disconnecting hands the
            // tracer back before the solver that calls it is released.
            let _ = self.solver.disconnect_proof_tracer(handle);
        }
    }
}

/// CaDiCaL's proof tracer that writes textual LRAT with the formula's clauses numbered 1..m in
/// the order they were added (see the module docs).
pub(crate) struct LratWriter {
    out: BufWriter<File>,
    /// The number of formula clauses (m).
    formula: u64,
    /// Original clauses seen so far.
    originals: u64,
    /// The last id written (m + derived clauses so far).
    last: u64,
    /// CaDiCaL's clause id → the id in the written proof (0: unknown).
    renumbered: Vec<u64>,
    /// The hints of the step being written (scratch).
    hints: Vec<u64>,
    /// The first write error, or a clause the tracer could not place.
    error: Option<io::Error>,
}

impl LratWriter {
    fn new(out: BufWriter<File>, formula: u64) -> LratWriter {
        LratWriter {
            out,
            formula,
            originals: 0,
            last: formula,
            renumbered: Vec::new(),
            hints: Vec::new(),
            error: None,
        }
    }

    /// Records that CaDiCaL's clause `id` is clause `ours` of the written proof.
    fn place(&mut self, id: ClauseId, ours: u64) {
        let Ok(index) = usize::try_from(id.0) else {
            self.fail(format!("CaDiCaL clause id {} is negative", id.0));
            return;
        };
        if index >= self.renumbered.len() {
            self.renumbered.resize(index + 1, 0);
        }
        self.renumbered[index] = ours;
    }

    /// The id in the written proof of CaDiCaL's clause `id`.
    fn ours(&self, id: ClauseId) -> Option<u64> {
        usize::try_from(id.0)
            .ok()
            .and_then(|i| self.renumbered.get(i).copied())
            .filter(|&ours| ours != 0)
    }

    fn fail(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(io::Error::other(message));
        }
    }

    fn write_step(&mut self, clause: &CaDiCaLClause) -> io::Result<()> {
        write!(self.out, "{}", self.last)?;
        for lit in clause.iter() {
            write!(self.out, " {}", lit.to_ipasir())?;
        }
        write!(self.out, " 0")?;
        for hint in &self.hints {
            write!(self.out, " {hint}")?;
        }
        writeln!(self.out, " 0")
    }

    /// Flushes the proof; the error of any step that could not be written.
    fn finish(mut self) -> io::Result<()> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        if self.originals != self.formula {
            return Err(io::Error::other(format!(
                "the solver was given {} clauses, not the formula's {}",
                self.originals, self.formula
            )));
        }
        self.out.flush()
    }
}

impl TraceProof for LratWriter {
    fn add_original_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        _clause: &CaDiCaLClause,
        _restored: bool,
    ) {
        self.originals += 1;
        self.place(id, self.originals);
    }

    fn add_derived_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        clause: &CaDiCaLClause,
        antecedents: &[ClauseId],
    ) {
        if self.error.is_some() {
            return;
        }
        let mut hints = std::mem::take(&mut self.hints);
        hints.clear();
        for &antecedent in antecedents {
            match self.ours(antecedent) {
                Some(ours) => hints.push(ours),
                None => {
                    self.fail(format!("antecedent {} is no known clause", antecedent.0));
                    return;
                }
            }
        }
        self.hints = hints;
        self.last += 1;
        self.place(id, self.last);
        if let Err(e) = self.write_step(clause) {
            self.error = Some(e);
        }
    }

    fn delete_clause(&mut self, id: ClauseId, _redundant: bool, _clause: &CaDiCaLClause) {
        if self.error.is_some() {
            return;
        }
        let Some(ours) = self.ours(id) else {
            self.fail(format!("deleted clause {} is no known clause", id.0));
            return;
        };
        if let Err(e) = writeln!(self.out, "{} d {ours} 0", self.last) {
            self.error = Some(e);
        }
    }
}

impl ClauseSink for Cadical {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.vars as usize);
        self.vars += 1;
        var
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.scratch.clear();
        self.scratch.extend(clause.iter().map(|&l| to_rustsat(l)));
        self.solver
            .add_clause_ref(self.scratch.as_slice())
            .expect("CaDiCaL takes clauses in its input state");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    #[test]
    fn solves_and_refutes_small_formulas() {
        let budget = Budget::start(&Limits::none());
        let mut s = Cadical::bounded(&budget);
        let (a, b) = (s.new_var(), s.new_var());
        s.add_clause(&[a.positive(), b.positive()]);
        s.add_clause(&[a.negative()]);
        assert_eq!(s.solve(), Some(true));
        let model = s.model();
        assert!(model.is_true(b) && !model.is_true(a));
        s.add_clause(&[b.negative()]);
        assert_eq!(s.solve(), Some(false));
    }

    #[test]
    fn the_puzzle_options_are_set_and_the_solver_answers() {
        let budget = Budget::start(&Limits::none());
        let mut s = Cadical::for_puzzles(&budget);
        for &(name, value) in PUZZLE_OPTIONS {
            assert_eq!(s.solver.get_option(name).unwrap(), value, "{name}");
        }
        assert_eq!(s.solver.get_option("stabilizeonly").unwrap(), 1);
        let (a, b) = (s.new_var(), s.new_var());
        s.add_clause(&[a.positive(), b.positive()]);
        s.add_clause(&[a.negative()]);
        assert_eq!(s.solve(), Some(true));
        assert!(s.model().is_true(b));
        s.add_clause(&[b.negative()]);
        assert_eq!(s.solve(), Some(false));
    }

    /// The pigeonhole formula: `holes + 1` pigeons, `holes` holes (unsatisfiable, and
    /// exponential for resolution: CaDiCaL needs minutes at 12 holes).
    fn pigeonhole(s: &mut dyn ClauseSink, holes: usize) -> Vec<Vec<Lit>> {
        let p: Vec<Vec<Var>> = (0..=holes)
            .map(|_| (0..holes).map(|_| s.new_var()).collect())
            .collect();
        let mut clauses = Vec::new();
        for row in &p {
            clauses.push(row.iter().map(|v| v.positive()).collect::<Vec<_>>());
        }
        for h in 0..holes {
            for (i, pi) in p.iter().enumerate() {
                for pj in &p[i + 1..] {
                    clauses.push(vec![pi[h].negative(), pj[h].negative()]);
                }
            }
        }
        for clause in &clauses {
            s.add_clause(clause);
        }
        clauses
    }

    #[test]
    fn a_spent_budget_stops_the_call() {
        let cancel = crate::search::Cancel::new();
        cancel.cancel();
        let budget = Budget::start(&Limits::none().with_cancel(cancel));
        let mut s = Cadical::bounded(&budget);
        pigeonhole(&mut s, 7);
        assert_eq!(s.solve(), None);
    }

    #[test]
    fn a_time_limit_ends_a_long_call_through_the_terminate_callback() {
        // One call that would take minutes: only the callback can end it.
        let limit = std::time::Duration::from_millis(100);
        let budget = Budget::start(&Limits::time(limit));
        let mut s = Cadical::bounded(&budget);
        pigeonhole(&mut s, 12);
        let started = std::time::Instant::now();
        assert_eq!(s.solve(), None);
        // A wide margin (the machine is shared): the outcome matters, not the timing.
        assert!(started.elapsed() < limit * 50, "{:?}", started.elapsed());
    }

    #[test]
    fn the_proof_numbers_the_formula_as_added_and_checks() {
        // Units first, as sudokit's encodings write the givens: CaDiCaL derives shortened
        // clauses while the formula is still being added, which its own LRAT numbering mixes
        // into the originals' ids.
        let dir = std::env::temp_dir().join(format!("sudokit-cadical-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let proof = dir.join("php.lrat");
        let budget = Budget::start(&Limits::none());
        let mut cnf = crate::encode::Cnf::new();
        let x = cnf.new_var();
        cnf.add_clause(&[x.negative()]);
        let clauses = pigeonhole(&mut cnf, 4);
        for clause in &clauses[..3] {
            let mut widened = clause.clone();
            widened.push(x.positive());
            cnf.add_clause(&widened);
        }
        let m = cnf.clauses().count();
        let mut s = Cadical::proving(&budget, &proof, m).unwrap();
        cnf.replay(&mut s);
        assert_eq!(s.solve(), Some(false));
        s.close().unwrap();
        let dimacs: Vec<Vec<i64>> = cnf
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        let text = std::fs::read_to_string(&proof).unwrap();
        let first: u64 = text.split_whitespace().next().unwrap().parse().unwrap();
        assert!(
            first > m as u64,
            "derived ids follow the formula's: {first}"
        );
        assert_eq!(
            crate::proof::lrat::check_lrat(&dimacs, text.as_bytes()),
            Ok(())
        );
        // The same proof does not refute the formula without its first clause (x is then
        // free, and the widened clauses no longer shorten).
        assert!(crate::proof::lrat::check_lrat(&dimacs[1..], text.as_bytes()).is_err());
        // Told the wrong clause count, closing fails rather than writing a misnumbered proof.
        let mut s = Cadical::proving(&budget, &proof, m + 1).unwrap();
        cnf.replay(&mut s);
        assert_eq!(s.solve(), Some(false));
        assert!(s.close().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
