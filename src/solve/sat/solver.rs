//! The varisat side of the `sat` backend: a solver that stops when its budget runs out, the
//! [`ClauseSink`] that encoders write into, model conversion, and [`solve_cnf`] for any
//! in-memory formula.
//!
//! # Stopping a call
//! varisat 0.2 has no interrupt, conflict budget or statistics API. Its proof trace is the one
//! hook it calls back during a search: when the budget has a deadline or a stop token, the
//! solver writes its trace (native format) to a writer that discards it, or to the proof file,
//! and that writer fails once the budget is exhausted; varisat then ends the call with a proof
//! I/O error, read as the budget's [`StopReason`]. The trace comes in buffers of 8 KiB, every few
//! dozen conflicts, so an overrun is bounded by the work of one buffer (a propagation-heavy
//! stretch without conflicts writes nothing, and is not interrupted).

use std::io::{self, Write};

use varisat::{ExtendFormula, ProofFormat};

use crate::encode::{ClauseSink, Cnf, Lit, Model, Var};
use crate::search::{Budget, Limits, StopReason};

/// A fresh varisat solver that stops when `budget` runs out or is cancelled (see the module
/// docs); without a deadline or stop token, a plain solver.
pub(crate) fn bounded_solver(budget: &Budget) -> varisat::Solver<'static> {
    let mut solver = varisat::Solver::new();
    if budget.remaining().is_some() || budget.cancel().is_some() {
        solver.write_proof(
            Interrupt {
                inner: io::sink(),
                budget: budget.clone(),
            },
            ProofFormat::Varisat,
        );
    }
    solver
}

/// A fresh varisat solver that writes its proof (native format) to `out`, and stops when
/// `budget` runs out or is cancelled.
pub(crate) fn proving_solver(
    budget: &Budget,
    out: impl Write + 'static,
) -> varisat::Solver<'static> {
    let mut solver = varisat::Solver::new();
    solver.write_proof(
        Interrupt {
            inner: out,
            budget: budget.clone(),
        },
        ProofFormat::Varisat,
    );
    solver
}

/// Why to stop before SAT call number `calls + 1`, if the budget ran out: a node of the `sat`
/// backend is one SAT call.
pub(crate) fn out_of_budget(budget: &Budget, calls: u64) -> Option<StopReason> {
    if budget.node_limit().is_some_and(|max| calls >= max) {
        return Some(StopReason::NodeLimit);
    }
    budget.interrupted()
}

/// Why a call of a [`bounded_solver`] failed: the budget that the trace writer found
/// exhausted. varisat's only error source without a proof processor is that writer.
pub(crate) fn stop_reason(budget: &Budget) -> StopReason {
    budget.interrupted().unwrap_or(StopReason::TimeLimit)
}

/// A proof-trace writer that fails once the budget is exhausted: varisat then stops the solve.
struct Interrupt<W: Write> {
    inner: W,
    budget: Budget,
}

impl<W: Write> Write for Interrupt<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(reason) = self.budget.interrupted() {
            return Err(io::Error::other(reason.to_string()));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The model of the last successful call, in sudokit's literals.
pub(crate) fn model_of(solver: &varisat::Solver) -> Model {
    Model::from_lits(
        solver
            .model()
            .unwrap_or_default()
            .into_iter()
            .map(from_varisat),
    )
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), !lit.is_negative())
}

fn from_varisat(lit: varisat::Lit) -> Lit {
    let var = Var::from_index(lit.index());
    if lit.is_negative() {
        var.negative()
    } else {
        var.positive()
    }
}

/// The varisat side of [`ClauseSink`]: encoders write straight into a solver.
///
/// Variables are handed out by the solver, 0-based and in order, as the sink contract asks;
/// literals are converted through a scratch buffer (no allocation per clause).
pub struct SatSink<'s, 'a> {
    solver: &'s mut varisat::Solver<'a>,
    scratch: Vec<varisat::Lit>,
}

impl<'s, 'a> SatSink<'s, 'a> {
    /// A sink adding to `solver`.
    pub fn new(solver: &'s mut varisat::Solver<'a>) -> SatSink<'s, 'a> {
        SatSink {
            solver,
            scratch: Vec::new(),
        }
    }
}

impl ClauseSink for SatSink<'_, '_> {
    fn new_var(&mut self) -> Var {
        Var::from_index(self.solver.new_var().index())
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.scratch.clear();
        self.scratch.extend(clause.iter().map(|&l| to_varisat(l)));
        self.solver.add_clause(&self.scratch);
    }
}

/// The answer of [`solve_cnf`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CnfAnswer {
    /// A satisfying assignment (every variable of the formula set).
    Sat(Model),
    /// The formula is unsatisfiable.
    Unsat,
    /// The budget ran out (or a node limit of 0 forbade the one call).
    Unknown(StopReason),
}

/// Solves an in-memory formula with varisat: one SAT call, bounded by `limits` as the module
/// docs describe.
///
/// # Complexity
/// Loading is linear in the formula; the search is CDCL.
///
/// # Examples
/// ```
/// use sudokit::encode::{ClauseSink, Cnf};
/// use sudokit::solve::{Limits, sat::{solve_cnf, CnfAnswer}};
/// let mut cnf = Cnf::new();
/// let (a, b) = (cnf.new_var(), cnf.new_var());
/// cnf.add_clause(&[a.positive(), b.positive()]);
/// cnf.add_clause(&[a.negative()]);
/// match solve_cnf(&cnf, &Limits::none()) {
///     CnfAnswer::Sat(model) => assert!(model.is_true(b) && !model.is_true(a)),
///     other => panic!("{other:?}"),
/// }
/// cnf.add_clause(&[b.negative()]);
/// assert_eq!(solve_cnf(&cnf, &Limits::none()), CnfAnswer::Unsat);
/// ```
pub fn solve_cnf(cnf: &Cnf, limits: &Limits) -> CnfAnswer {
    let budget = Budget::start(limits);
    if let Some(reason) = out_of_budget(&budget, 0) {
        return CnfAnswer::Unknown(reason);
    }
    let mut solver = bounded_solver(&budget);
    cnf.replay(&mut SatSink::new(&mut solver));
    match solver.solve() {
        Ok(true) => CnfAnswer::Sat(model_of(&solver)),
        Ok(false) => CnfAnswer::Unsat,
        Err(_) => CnfAnswer::Unknown(stop_reason(&budget)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sink_numbers_variables_as_the_encoders_expect() {
        let mut solver = varisat::Solver::new();
        let mut sink = SatSink::new(&mut solver);
        for i in 0..5 {
            assert_eq!(sink.new_var(), Var::from_index(i));
        }
        // a ∨ ¬b, b: the only model has a and b true.
        let (a, b) = (Var::from_index(0), Var::from_index(1));
        sink.add_clause(&[a.positive(), b.negative()]);
        sink.add_clause(&[b.positive()]);
        assert_eq!(solver.solve().ok(), Some(true));
        let model = model_of(&solver);
        assert!(model.is_true(a) && model.is_true(b));
        assert_eq!(from_varisat(to_varisat(a.negative())), a.negative());
    }

    #[test]
    fn a_cancelled_budget_stops_before_the_call() {
        let cancel = crate::search::Cancel::new();
        cancel.cancel();
        let cnf = Cnf::with_vars(1);
        assert_eq!(
            solve_cnf(&cnf, &Limits::none().with_cancel(cancel)),
            CnfAnswer::Unknown(StopReason::Cancelled)
        );
    }
}
