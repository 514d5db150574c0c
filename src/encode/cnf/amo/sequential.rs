//! Sinz's sequential counter: auxiliary `s_i` = "some of x_1..x_i is true", for i < k.
//!
//! # Complexity
//! 3k − 4 clauses and k − 1 auxiliary variables.
//!
//! # References
//! - C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints", CP 2005.

use super::AtMostOne;
use crate::encode::{ClauseSink, Lit, Var};

/// Sinz's sequential counter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

impl AtMostOne for Sequential {
    fn clauses(&self, k: usize) -> usize {
        3 * k - 4
    }

    fn aux(&self, k: usize) -> usize {
        k - 1
    }

    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let k = lits.len();
        let first = sink.new_var().index();
        for _ in 1..k - 1 {
            sink.new_var();
        }
        let s = |i: usize| Var::from_index(first + i);
        sink.add_clause(&[lits[0].negate(), s(0).positive()]);
        for (i, &x) in lits.iter().enumerate().take(k - 1).skip(1) {
            sink.add_clause(&[x.negate(), s(i).positive()]);
            sink.add_clause(&[s(i - 1).negative(), s(i).positive()]);
            sink.add_clause(&[x.negate(), s(i - 1).negative()]);
        }
        sink.add_clause(&[lits[k - 1].negate(), s(k - 2).negative()]);
    }
}
