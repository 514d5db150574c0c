//! One CaDiCaL kept across many calls, each under its own assumptions, with the cargo feature
//! `cadical`: learnt clauses stay from one call to the next. Generation's incremental removal
//! test uses it ([`crate::generate::well_posed`]).
//!
//! It holds rustsat's `CaDiCaL` directly rather than [`super::cadical::Cadical`], whose proof
//! tracer handle cannot move between threads: a removal test moves to its lane's thread. There
//! is no varisat counterpart for the same reason (varisat's solver cannot move either).

use rustsat::solvers::{FreezeVar, PhaseLit, Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as RLit, TernaryVal, Var as RVar};
use rustsat_cadical::CaDiCaL;

use super::cadical::to_rustsat;

use crate::encode::{ClauseSink, Lit, Var};

/// An incremental CaDiCaL without a budget, filled through [`ClauseSink`] (variables 0-based,
/// in order).
#[derive(Default)]
pub(crate) struct Incremental {
    solver: CaDiCaL<'static, 'static>,
    vars: u32,
    scratch: Vec<RLit>,
}

/// rustsat's literal of `lit`.
impl Incremental {
    /// Whether the formula and `assumptions` (for this call only) are satisfiable.
    pub(crate) fn solve_assuming(&mut self, assumptions: &[Lit]) -> bool {
        self.scratch.clear();
        self.scratch
            .extend(assumptions.iter().map(|&l| to_rustsat(l)));
        match self.solver.solve_assumps(self.scratch.as_slice()) {
            Ok(SolverResult::Sat) => true,
            Ok(SolverResult::Unsat) => false,
            // No terminator is attached, and the formula is loaded: no other answer.
            Ok(SolverResult::Interrupted) | Err(_) => {
                panic!("CaDiCaL without a budget answers every call")
            }
        }
    }

    /// Whether `var` is true in the model of the last satisfiable call.
    pub(crate) fn is_true(&self, var: Var) -> bool {
        matches!(
            self.solver.lit_val(RLit::positive(var.index() as u32)),
            Ok(TernaryVal::True)
        )
    }

    /// Makes the solver decide `lit` true whenever it decides on its variable (CaDiCaL's forced
    /// phase).
    pub(crate) fn phase(&mut self, lit: Lit) {
        self.solver
            .phase_lit(to_rustsat(lit))
            .expect("CaDiCaL takes phases in any state");
    }

    /// Keeps `var` from elimination by inprocessing (a variable that calls will assume).
    pub(crate) fn freeze(&mut self, var: Var) {
        self.solver
            .freeze_var(RVar::new(var.index() as u32))
            .expect("CaDiCaL freezes in any state");
    }

    /// Sets one of CaDiCaL's options; `false` if CaDiCaL does not take it.
    pub(crate) fn set_option(&mut self, name: &str, value: i32) -> bool {
        self.solver.set_option(name, value).is_ok()
    }
}

impl ClauseSink for Incremental {
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
            .expect("CaDiCaL takes clauses between calls");
    }
}
