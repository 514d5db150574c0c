//! The checks every answer of several models must pass, in one place: each answer reader keeps
//! a [`ModelLedger`] of the models it has handed on, and `decode` and the `ext:` backends both
//! read answers through the readers, so both refuse the same answers.
//!
//! A strict reader refuses, each an [`AnswerError`] naming the line (and column):
//! - **a repeated model**: a model that describes the same grid as one before it (an
//!   enumeration that prints a solution twice would count it twice);
//! - **a claimed count that differs from the models given** (`s SOLUTIONS 3` after two models,
//!   clasp's `Models : 5` or `"Number": 5` after two answer sets);
//! - **an unsatisfiable verdict after a model** (clasp's `UNSATISFIABLE` with witnesses,
//!   MiniZinc's `=====UNSATISFIABLE=====` after a solution): the answer contradicts itself.
//!
//! A variable set both ways within one model is the reader's own check (variables are named
//! differently in each form).
//!
//! # Complexity
//! Each model is hashed once: linear in the answer; the ledger holds the grids seen.

use std::collections::HashMap;

use crate::format::entry::{AnswerError, Claim, answer_error};
use crate::grid::Grid;

/// The models of one answer handed on so far; see the module docs.
#[derive(Debug, Default)]
pub(crate) struct ModelLedger {
    /// Each grid seen, with its model number (1-based) and line.
    seen: HashMap<Grid, (usize, usize)>,
    /// Models handed on (grids or not).
    models: usize,
}

impl ModelLedger {
    /// A ledger of no model.
    pub(crate) fn new() -> ModelLedger {
        ModelLedger::default()
    }

    /// How many models were handed on.
    pub(crate) fn models(&self) -> usize {
        self.models
    }

    /// Records the model `claim` read at `line`: the error of a grid seen before, as a
    /// message (for readers whose parser places it).
    pub(crate) fn record(&mut self, claim: &Claim, line: usize) -> Result<(), String> {
        self.models += 1;
        let model = self.models;
        if let Claim::Grid(grid) = claim {
            if let Some(&(first, first_line)) = self.seen.get(grid) {
                return Err(format!(
                    "model {model} repeats model {first} (line {first_line}): the same solution \
                     given twice"
                ));
            }
            self.seen.insert(grid.clone(), (model, line));
        }
        Ok(())
    }

    /// Records the model `claim` read at `line`, `column`.
    ///
    /// # Errors
    /// A grid seen before, at that place.
    pub(crate) fn model(
        &mut self,
        claim: &Claim,
        line: usize,
        column: usize,
    ) -> Result<(), AnswerError> {
        self.record(claim, line)
            .map_err(|message| answer_error(line, column, message))
    }

    /// The message when the answer's own count of its models (`what`: how it says it) is not
    /// the number of models given.
    pub(crate) fn count_differs(&self, claimed: u64, what: &str) -> Option<String> {
        (claimed != self.models as u64).then(|| {
            format!(
                "{what} says {claimed} model{}, the answer gives {}",
                if claimed == 1 { "" } else { "s" },
                self.models
            )
        })
    }

    /// Checks the answer's own count of its models (`what`: how it says it) at `line`,
    /// `column`.
    ///
    /// # Errors
    /// A count that is not the number of models given.
    pub(crate) fn claimed_count(
        &self,
        claimed: u64,
        what: &str,
        line: usize,
        column: usize,
    ) -> Result<(), AnswerError> {
        match self.count_differs(claimed, what) {
            Some(message) => Err(answer_error(line, column, message)),
            None => Ok(()),
        }
    }

    /// The message when the answer says unsatisfiable (`what`: how it says it) after models.
    pub(crate) fn unsat_after_models(&self, what: &str) -> Option<String> {
        (self.models > 0).then(|| {
            format!(
                "{what} after {} model{}: the answer contradicts itself",
                self.models,
                if self.models == 1 { "" } else { "s" }
            )
        })
    }

    /// Checks an unsatisfiable verdict (`what`: how the answer says it) at `line`, `column`.
    ///
    /// # Errors
    /// The verdict comes after a model.
    pub(crate) fn unsat_verdict(
        &self,
        what: &str,
        line: usize,
        column: usize,
    ) -> Result<(), AnswerError> {
        match self.unsat_after_models(what) {
            Some(message) => Err(answer_error(line, column, message)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_grid_a_wrong_count_and_unsat_after_a_model_are_refused() {
        let first: Grid = "1234341221434321".parse().unwrap();
        let second: Grid = "1243341221344321".parse().unwrap();
        let mut ledger = ModelLedger::new();
        assert!(ledger.unsat_verdict("UNSATISFIABLE", 1, 1).is_ok());
        ledger.model(&Claim::Grid(first.clone()), 2, 1).unwrap();
        ledger.model(&Claim::Grid(second), 5, 1).unwrap();
        // Two models that are not grids are not compared.
        ledger.model(&Claim::NotAGrid("x".into()), 6, 1).unwrap();
        ledger.model(&Claim::NotAGrid("x".into()), 7, 1).unwrap();
        let error = ledger.model(&Claim::Grid(first), 9, 3).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 9, column 3: model 5 repeats model 1 (line 2): the same solution given twice"
        );
        assert_eq!(ledger.models(), 5);
        assert!(ledger.claimed_count(5, "Models", 1, 1).is_ok());
        assert_eq!(
            ledger
                .claimed_count(7, "Models", 10, 2)
                .unwrap_err()
                .to_string(),
            "line 10, column 2: Models says 7 models, the answer gives 5"
        );
        assert_eq!(
            ledger
                .unsat_verdict("UNSATISFIABLE", 11, 1)
                .unwrap_err()
                .to_string(),
            "line 11, column 1: UNSATISFIABLE after 5 models: the answer contradicts itself"
        );
    }
}
