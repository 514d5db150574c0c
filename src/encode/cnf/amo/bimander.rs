//! Nguyen & Mai's bimander encoding with groups of two: the literals are paired, each pair is
//! numbered in binary by m = ⌈log₂⌈k/2⌉⌉ bit variables, a true literal forces the bits to its
//! pair's number, and its partner to be false.
//!
//! # Complexity
//! ⌊k/2⌋ + k·m clauses and m auxiliary variables.
//!
//! # References
//! - V.-H. Nguyen, S. T. Mai, "A new method to encode the at-most-one constraint into SAT",
//!   SoICT 2015.

use super::AtMostOne;
use crate::encode::{ClauseSink, Lit, Var};

/// Nguyen & Mai's bimander encoding with groups of two.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bimander;

/// `⌈log₂ ⌈k/2⌉⌉`: the bits that number the groups of two.
pub(super) fn bits(k: usize) -> usize {
    let groups = k.div_ceil(2);
    (usize::BITS - (groups - 1).leading_zeros()) as usize
}

impl AtMostOne for Bimander {
    fn clauses(&self, k: usize) -> usize {
        k / 2 + k * bits(k)
    }

    fn aux(&self, k: usize) -> usize {
        bits(k)
    }

    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let bits = bits(lits.len());
        let first = sink.new_var().index();
        for _ in 1..bits {
            sink.new_var();
        }
        for pair in lits.chunks(2) {
            if let [a, b] = pair {
                sink.add_clause(&[a.negate(), b.negate()]);
            }
        }
        for (i, &x) in lits.iter().enumerate() {
            let group = i / 2;
            for j in 0..bits {
                let bit = Var::from_index(first + j);
                let lit = if group >> j & 1 == 1 {
                    bit.positive()
                } else {
                    bit.negative()
                };
                sink.add_clause(&[x.negate(), lit]);
            }
        }
    }
}
