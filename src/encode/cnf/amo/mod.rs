//! At-most-one (AMO) encodings, one file each behind the [`AtMostOne`] trait, and the [`Amo`]
//! names that choose one.
//!
//! | AMO | clauses A(k) | auxiliary variables X(k) |
//! |---|---|---|
//! | [`pairwise`] | k(k−1)/2 | 0 |
//! | [`sequential`] (Sinz's counter) | 3k − 4 | k − 1 |
//! | [`product`] (Chen, one level, pairwise on the coordinates) | 2k + a(a−1)/2 + b(b−1)/2 | a + b |
//! | [`bimander`] (Nguyen & Mai, groups of two) | ⌊k/2⌋ + k·m | m |
//!
//! with `a = ⌈√k⌉`, `b = ⌈k/a⌉`, `m = ⌈log₂⌈k/2⌉⌉`, for k ≥ 3 literals (k ≤ 2 is one clause or
//! none, whatever the encoding). Every AMO clause has two literals.
//!
//! # Examples
//! ```
//! use sudokit::encode::cnf::amo::{at_most_one, Amo};
//! use sudokit::encode::{ClauseSink, Cnf, Lit, Var};
//! let mut cnf = Cnf::with_vars(9);
//! let lits: Vec<Lit> = (0..9).map(|i| Var::from_index(i).positive()).collect();
//! at_most_one(Amo::Sequential, &lits, &mut cnf);
//! assert_eq!((cnf.len(), cnf.vars() - 9), (23, 8));
//! ```

pub mod bimander;
pub mod pairwise;
pub mod product;
pub mod sequential;

use std::fmt;
use std::str::FromStr;

use crate::encode::{ClauseSink, Lit};

pub use bimander::Bimander;
pub use pairwise::Pairwise;
pub use product::Product;
pub use sequential::Sequential;

/// An at-most-one encoding: writes "at most one of these literals is true" as clauses.
///
/// The counts are for k ≥ 3 literals; [`at_most_one`] handles k ≤ 2 for every encoding.
pub trait AtMostOne: Sync {
    /// Clauses written for `k` literals.
    fn clauses(&self, k: usize) -> usize;
    /// Auxiliary variables created for `k` literals.
    fn aux(&self, k: usize) -> usize;
    /// Writes the constraint over `lits` (at least 3 of them) into `sink`, creating its
    /// auxiliary variables there.
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink);
}

/// How an at-most-one constraint over k literals is written; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Amo {
    /// One binary clause per pair.
    #[default]
    Pairwise,
    /// Sinz's sequential counter.
    Sequential,
    /// Chen's product encoding (one level).
    Product,
    /// Nguyen & Mai's bimander encoding with groups of two.
    Bimander,
}

impl Amo {
    /// All AMO encodings.
    pub const ALL: [Amo; 4] = [Amo::Pairwise, Amo::Sequential, Amo::Product, Amo::Bimander];

    /// The name used on the command line and in file comments.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Product => "product",
            Amo::Bimander => "bimander",
        }
    }

    /// What the encoding is, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Amo::Pairwise => "one binary clause per pair: k(k-1)/2 clauses, no auxiliary variable",
            Amo::Sequential => "Sinz's sequential counter: 3k-4 clauses, k-1 auxiliary variables",
            Amo::Product => {
                "Chen's product encoding: about 2k clauses, 2*sqrt(k) auxiliary variables"
            }
            Amo::Bimander => "Nguyen & Mai's bimander, groups of two: about k*log2(k) clauses",
        }
    }

    /// The encoder behind the name.
    pub fn encoder(self) -> &'static dyn AtMostOne {
        match self {
            Amo::Pairwise => &Pairwise,
            Amo::Sequential => &Sequential,
            Amo::Product => &Product,
            Amo::Bimander => &Bimander,
        }
    }

    /// Clauses for an AMO over `k` literals: the A(k) of the table (0 for k ≤ 1, one clause for
    /// k = 2 whatever the encoding).
    pub fn clauses(self, k: usize) -> usize {
        match k {
            0 | 1 => 0,
            2 => 1,
            _ => self.encoder().clauses(k),
        }
    }

    /// Auxiliary variables for an AMO over `k` literals: the X(k) of the table.
    pub fn aux(self, k: usize) -> usize {
        match k {
            0..=2 => 0,
            _ => self.encoder().aux(k),
        }
    }
}

named_enum_parse!(Amo, "at-most-one encoding");

/// Writes an AMO over `lits` with `amo`.
pub fn at_most_one(amo: Amo, lits: &[Lit], sink: &mut dyn ClauseSink) {
    match lits {
        [] | [_] => {}
        [a, b] => sink.add_clause(&[a.negate(), b.negate()]),
        _ => amo.encoder().encode(lits, sink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Cnf, Var};

    #[test]
    fn amo_counts_follow_the_table() {
        for k in 0..40 {
            for amo in Amo::ALL {
                let mut cnf = Cnf::with_vars(k);
                let lits: Vec<Lit> = (0..k).map(|i| Var::from_index(i).positive()).collect();
                at_most_one(amo, &lits, &mut cnf);
                assert_eq!(cnf.len(), amo.clauses(k), "{amo} k={k}");
                assert_eq!(cnf.vars() - k, amo.aux(k), "{amo} k={k}");
            }
        }
        assert_eq!(Amo::Sequential.clauses(9), 23);
        assert_eq!(Amo::Product.clauses(9), 18 + 3 + 3);
        // 9 literals: 5 groups numbered with 3 bits; 4 pair clauses + 9·3 bit clauses.
        assert_eq!((Amo::Bimander.clauses(9), Amo::Bimander.aux(9)), (31, 3));
        assert_eq!(bimander::bits(3), 1);
        assert_eq!(bimander::bits(64), 5);
        assert_eq!(product::sides(10), (4, 3));
    }

    #[test]
    fn amo_encodings_allow_exactly_the_assignments_with_at_most_one_true() {
        // Brute force: every assignment of k ≤ 8 literals extends to the auxiliaries iff ≤ 1 true.
        for k in 0..=8 {
            for amo in Amo::ALL {
                let mut cnf = Cnf::with_vars(k);
                let lits: Vec<Lit> = (0..k).map(|i| Var::from_index(i).positive()).collect();
                at_most_one(amo, &lits, &mut cnf);
                let aux = cnf.vars() - k;
                for bits in 0u32..1 << k {
                    let extendable = (0u32..1 << aux).any(|extra| {
                        let assignment: Vec<bool> = (0..k)
                            .map(|i| bits >> i & 1 == 1)
                            .chain((0..aux).map(|j| extra >> j & 1 == 1))
                            .collect();
                        cnf.is_satisfied_by(&assignment)
                    });
                    assert_eq!(extendable, bits.count_ones() <= 1, "{amo} k={k} {bits:b}");
                }
            }
        }
    }
}
