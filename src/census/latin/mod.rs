//! Latin squares by reduced squares and row-pair classes.
//!
//! # The method
//! - **Reduced squares.** Permuting the columns (or relabelling the values) makes the first row
//!   read `1, 2, …, n` in exactly one way, and permuting the other rows then makes the first
//!   column read `1, 2, …, n` in exactly one way: `L(n) = n! · (n−1)! · R(n)`, where `R(n)`
//!   counts the *reduced* squares (16 942 080 of order 7).
//! - **Row-pair classes.** With the first row the identity, the second row is a permutation
//!   `σ` with no fixed point (a derangement). Relabelling the values by `τ` and moving the
//!   columns by `τ` keeps the first row and turns the second into `τστ⁻¹`: the number `T(σ)` of
//!   squares with those two rows depends only on the *cycle type* of `σ`. So
//!   `L(n) = n! · Σ_λ d_λ · T(λ)`, summed over the cycle types `λ` of derangements (partitions
//!   of `n` into parts of at least 2; 7 of them for `n = 8`), `d_λ` the derangements of that
//!   type, `T(λ)` counted for one representative `σ` (its cycles on consecutive values).
//! - **Third rows up to the centralizer.** The permutations `τ` that commute with `σ` keep both
//!   first rows and turn a third row `ρ` into `τρτ⁻¹`; so the third rows fall into orbits of
//!   equal counts (8 of them share each orbit for `σ` an 8-cycle, up to 384 for four
//!   2-cycles). `T(σ) = Σ_orbits |orbit| · (n−3)! · K(σ, ρ)`, with `K` the completions whose
//!   remaining rows are sorted by their first value.
//! - **The last two rows** need no search: each column misses two values, each value is missed
//!   by two columns, and these pairs form cycles; each cycle can be filled in 2 ways, the cycle
//!   through the first column in 1 (its order is fixed): `2^(c−1)` ways for `c` cycles. The row
//!   before them is searched cell by cell while the cycles are kept as components of the
//!   missing pairs, so the count needs no pass at the end.
//! - **Parts.** Each part is one orbit of third rows of one class (for order 4, one class), and
//!   the parts interleave the classes, so that a run stopped early has counted a sample of each.
//!
//! The search fills rows 4 to `n − 3` cell by cell with bit masks per column (no allocation
//! per node).
//!
//! # Complexity
//! About `T(λ) / ((n−3)! · |C(σ)| · 2^(c̄−1))` searches of the third row from the end, for the
//! centralizer `C(σ)` and `c̄` cycles on average: order 7 takes milliseconds, order 8 about 10⁸
//! (a minute on two cores), order 9 about 10¹³ (far beyond: a time-limited run prints its
//! estimate).
//!
//! # References
//! - B. D. McKay, I. M. Wanless, "On the number of Latin squares", Annals of Combinatorics 9
//!   (2005): reduced squares, and counting through the cycle structure of pairs of rows.
//! - B. D. McKay, A. Meynert, W. Myrvold, "Small Latin squares, quasigroups and loops", Journal
//!   of Combinatorial Designs 15 (2007).
//! - Sequences A000315 (reduced Latin squares) and A002860 (Latin squares) of the OEIS.

mod classes;
mod completion;

use self::classes::{row_pair_classes, third_row_orbits};
use self::completion::Completion;
use super::{Fact, PartError, Plan, Stopped};
use crate::search::Budget;

/// Largest order counted: `L(10) ≈ 9.98·10³⁶` still fits in 128 bits, `L(11)` does not.
pub(crate) const MAX_LATIN_ORDER: usize = 10;

/// A row of a square.
type Row = [u8; MAX_LATIN_ORDER];

/// One row-pair class: the derangements of one cycle type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RowPairClass {
    /// Cycle lengths, largest first.
    pub(crate) cycle_type: Vec<usize>,
    /// `d_λ`: derangements of this type.
    pub(crate) members: u128,
    /// The representative second row: `σ` with its cycles on consecutive values.
    second_row: Row,
}

/// One part: a class, and for order 5 and up one orbit of third rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LatinPart {
    class: usize,
    /// The orbit's smallest third row, and the orbit's size.
    third_row: Option<(Row, u64)>,
}

/// The count of the Latin squares of order `n`, split into parts.
#[derive(Debug, Clone)]
pub(crate) struct LatinPlan {
    n: usize,
    classes: Vec<RowPairClass>,
    parts: Vec<LatinPart>,
}

impl LatinPlan {
    /// The plan for order `n`, or `Ok(None)` above [`MAX_LATIN_ORDER`] or for 0.
    ///
    /// # Errors
    /// The budget stopped the search for the orbits of third rows.
    pub(crate) fn new(n: usize, budget: &Budget) -> Result<Option<LatinPlan>, Stopped> {
        if n == 0 || n > MAX_LATIN_ORDER {
            return Ok(None);
        }
        let classes = row_pair_classes(n);
        let mut per_class: Vec<Vec<LatinPart>> = Vec::new();
        for (c, class) in classes.iter().enumerate() {
            let parts = if n >= 5 {
                third_row_orbits(n, class, budget)?
                    .into_iter()
                    .map(|orbit| LatinPart {
                        class: c,
                        third_row: Some(orbit),
                    })
                    .collect()
            } else {
                vec![LatinPart {
                    class: c,
                    third_row: None,
                }]
            };
            per_class.push(parts);
        }
        // Interleave the classes.
        let longest = per_class.iter().map(Vec::len).max().unwrap_or(0);
        let mut parts = Vec::new();
        for k in 0..longest {
            parts.extend(per_class.iter().filter_map(|list| list.get(k).copied()));
        }
        if n == 1 {
            parts.push(LatinPart {
                class: 0,
                third_row: None,
            });
        }
        Ok(Some(LatinPlan { n, classes, parts }))
    }

    /// `n!·(n−1)!`: the Latin squares per reduced square.
    pub(crate) fn per_reduced(&self) -> u128 {
        factorial(self.n) * factorial(self.n - 1)
    }
}

impl Plan for LatinPlan {
    fn parts(&self) -> usize {
        self.parts.len()
    }

    /// The Latin squares part `k` stands for: `n!·d_λ·(n−2)!` times the completions of the
    /// class's two rows, or `n!·d_λ·|orbit|·(n−3)!` times those of three rows.
    fn count_part(&self, k: usize, budget: &Budget) -> Result<u128, PartError> {
        let n = self.n;
        if n == 1 {
            return Ok(1);
        }
        let part = &self.parts[k];
        let class = &self.classes[part.class];
        let (third, weight) = match &part.third_row {
            Some((row, orbit)) => (Some(row), [u128::from(*orbit), factorial(n - 3)]),
            None => (None, [1, factorial(n - 2)]),
        };
        let completions = Completion::new(n, &class.second_row, third).count(budget)?;
        [class.members, weight[0], weight[1], u128::from(completions)]
            .into_iter()
            .try_fold(factorial(n), u128::checked_mul)
            .ok_or(PartError::Overflow)
    }

    fn symmetries(&self) -> Vec<String> {
        let n = self.n;
        if n == 1 {
            return vec!["the square of order 1 is its own reduced square".to_string()];
        }
        let types: Vec<String> = self
            .classes
            .iter()
            .map(|c| {
                let parts: Vec<String> = c.cycle_type.iter().map(usize::to_string).collect();
                format!("({}): {}", parts.join(","), c.members)
            })
            .collect();
        let mut lines = vec![
            format!(
                "column permutations (or value relabelling): the first row fixed, times {n}! = {}",
                factorial(n)
            ),
            format!(
                "row permutations: the first column fixed (reduced squares: the count is \
                 {n}!·({n}−1)! = {} times theirs)",
                self.per_reduced()
            ),
            format!(
                "conjugation of the second row (values and columns moved together): {} row-pair \
                 classes by cycle type, each counted once and weighted by its derangements: {}",
                self.classes.len(),
                types.join(", ")
            ),
        ];
        if n >= 5 {
            lines.push(format!(
                "the permutations commuting with the second row: third rows in orbits, one \
                 counted per orbit, {} parts",
                self.parts.len()
            ));
        }
        if n >= 4 {
            lines.push(
                "the last two rows by cycles: 2^(c−1) fillings for c cycles of the pairs of \
                 values the columns miss"
                    .to_string(),
            );
        }
        lines
    }

    fn facts(&self, total: Option<u128>) -> Vec<Fact> {
        let mut facts = vec![
            Fact::new("row_pair_classes", self.classes.len() as u128),
            Fact::new(
                "derangements",
                self.classes.iter().map(|c| c.members).sum::<u128>(),
            ),
        ];
        if let Some(total) = total {
            facts.insert(0, Fact::new("reduced_squares", total / self.per_reduced()));
        }
        facts
    }
}

/// `k!` for the orders the plans take (to 16, [`super::methods_for`]); every product of the
/// counts themselves is checked.
///
/// # Panics
/// From `35!` on, which does not fit in 128 bits and no plan asks for.
pub(crate) fn factorial(k: usize) -> u128 {
    super::big_count::checked_factorial(k).expect("the plans take orders to 16")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn latin_count(n: usize) -> u128 {
        let plan = LatinPlan::new(n, &Budget::start(&Limits::none()))
            .unwrap()
            .unwrap();
        let budget = Budget::start(&Limits::none());
        (0..plan.parts())
            .map(|k| plan.count_part(k, &budget).unwrap())
            .sum()
    }

    #[test]
    fn small_orders_match_the_known_counts() {
        // OEIS A002860.
        for (n, count) in [
            (1, 1),
            (2, 2),
            (3, 12),
            (4, 576),
            (5, 161_280),
            (6, 812_851_200),
        ] {
            assert_eq!(latin_count(n), count, "order {n}");
        }
    }
}
