//! Chen's product encoding, one level: the k literals laid on an a×b grid (a = ⌈√k⌉,
//! b = ⌈k/a⌉); a true literal sets its row variable u and its column variable v, and at most one
//! u and one v are true (pairwise).
//!
//! # Complexity
//! 2k + a(a−1)/2 + b(b−1)/2 clauses and a + b auxiliary variables.
//!
//! # References
//! - J. Chen, "A new SAT encoding of the at-most-one constraint", ModRef 2010.

use super::{AtMostOne, Pairwise};
use crate::encode::{ClauseSink, Lit, Var};

/// Chen's product encoding (one level).
#[derive(Debug, Clone, Copy, Default)]
pub struct Product;

/// `(a, b)` = `(⌈√k⌉, ⌈k/a⌉)`: the grid the product encoding lays k literals on.
pub(super) fn sides(k: usize) -> (usize, usize) {
    let mut a = (k as f64).sqrt() as usize;
    while a * a < k {
        a += 1;
    }
    while a > 1 && (a - 1) * (a - 1) >= k {
        a -= 1;
    }
    (a, k.div_ceil(a))
}

impl AtMostOne for Product {
    fn clauses(&self, k: usize) -> usize {
        let (a, b) = sides(k);
        2 * k + Pairwise.clauses(a) + Pairwise.clauses(b)
    }

    fn aux(&self, k: usize) -> usize {
        let (a, b) = sides(k);
        a + b
    }

    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let (a, b) = sides(lits.len());
        let first = sink.new_var().index();
        for _ in 1..a + b {
            sink.new_var();
        }
        let u = |i: usize| Var::from_index(first + i).positive();
        let v = |j: usize| Var::from_index(first + a + j).positive();
        for (i, &x) in lits.iter().enumerate() {
            sink.add_clause(&[x.negate(), u(i / b)]);
            sink.add_clause(&[x.negate(), v(i % b)]);
        }
        let us: Vec<Lit> = (0..a).map(u).collect();
        let vs: Vec<Lit> = (0..b).map(v).collect();
        Pairwise.encode(&us, sink);
        Pairwise.encode(&vs, sink);
    }
}
