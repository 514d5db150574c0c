//! The pairwise at-most-one encoding: one binary clause `¬a ∨ ¬b` per pair of literals.
//!
//! # Complexity
//! k(k−1)/2 clauses, no auxiliary variables.
//!
//! # References
//! - I. Lynce, J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006 (used by all three of their
//!   encodings).

use super::AtMostOne;
use crate::encode::{ClauseSink, Lit};

/// One binary clause per pair.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pairwise;

impl AtMostOne for Pairwise {
    fn clauses(&self, k: usize) -> usize {
        k * k.saturating_sub(1) / 2
    }

    fn aux(&self, _: usize) -> usize {
        0
    }

    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[a.negate(), b.negate()]);
            }
        }
    }
}
