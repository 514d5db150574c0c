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
//!   type. Each `T(λ)` is `(n−2)!` times `K(λ)`, the completions whose first column reads
//!   `1, 2, …, n`, counted for one representative `σ` (its cycles on consecutive values, so
//!   that `σ(1) = 2`: the squares counted are reduced).
//! - **The last two rows** need no search: each column misses two values, each value is missed
//!   by two columns, and these pairs form cycles; each cycle can be filled in 2 ways, the cycle
//!   through the first column in 1 (its order is fixed): `2^(c−1)` ways for `c` cycles.
//! - **Parts.** Each class is split by its third row (from order 5), and the parts interleave
//!   the classes, so that a run stopped early has counted a fair sample of each.
//!
//! The search fills rows 4 to `n − 2` cell by cell with bit masks per column (no allocation
//! per node).
//!
//! # Complexity
//! About `R(n) · (n−1) / (D(n) · 2^(c̄−1))` leaves per class, for `D(n)` derangements and `c̄`
//! cycles on average: order 7 takes milliseconds, order 8 about 10⁹ leaves (minutes on one
//! core), order 9 about 10¹⁴ (far beyond: see the estimate a time-limited run prints).
//!
//! # References
//! - B. D. McKay, I. M. Wanless, "On the number of Latin squares", Annals of Combinatorics 9
//!   (2005): reduced squares and the counts to order 11.
//! - B. D. McKay, A. Meynert, W. Myrvold, "Small Latin squares, quasigroups and loops", Journal
//!   of Combinatorial Designs 15 (2007).
//! - Sequence A000315 (reduced Latin squares) and A002860 (Latin squares) of the OEIS.

use super::{Fact, PartError, Plan, Stopped};
use crate::search::Budget;

/// Largest order counted: `L(10) ≈ 9.98·10³⁶` still fits in 128 bits, `L(11)` does not.
pub(crate) const MAX_LATIN_ORDER: usize = 10;

/// Leaves between two looks at the clock.
const CHECK_EVERY: u64 = 1 << 14;

/// One row-pair class: the derangements of one cycle type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RowPairClass {
    /// Cycle lengths, largest first.
    pub(crate) cycle_type: Vec<usize>,
    /// `d_λ`: derangements of this type.
    pub(crate) members: u128,
    /// The representative second row: `σ` with its cycles on consecutive values.
    second_row: [u8; MAX_LATIN_ORDER],
}

/// One part: a class, with a third row when the order is at least 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LatinPart {
    class: usize,
    third_row: Option<[u8; MAX_LATIN_ORDER]>,
}

/// The count of the Latin squares of order `n`, split into parts.
#[derive(Debug, Clone)]
pub(crate) struct LatinPlan {
    n: usize,
    classes: Vec<RowPairClass>,
    parts: Vec<LatinPart>,
    /// `n! · (n−2)!`: the symmetries factored out of each `d_λ · K`.
    factor: u128,
}

impl LatinPlan {
    /// The plan for order `n`, or `None` above [`MAX_LATIN_ORDER`] or for 0.
    pub(crate) fn new(n: usize) -> Option<LatinPlan> {
        if n == 0 || n > MAX_LATIN_ORDER {
            return None;
        }
        let classes = row_pair_classes(n);
        let mut per_class: Vec<Vec<LatinPart>> = Vec::new();
        for (c, class) in classes.iter().enumerate() {
            let parts = if n >= 5 {
                third_rows(n, &class.second_row)
                    .into_iter()
                    .map(|row| LatinPart {
                        class: c,
                        third_row: Some(row),
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
        let factor = factorial(n) * factorial(n.saturating_sub(2));
        Some(LatinPlan {
            n,
            classes,
            parts,
            factor,
        })
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

    /// The Latin squares part `k` stands for: `n!·(n−2)!·d_λ` times its completions.
    fn count_part(&self, k: usize, budget: &Budget) -> Result<u128, PartError> {
        if self.n == 1 {
            return Ok(1);
        }
        let part = &self.parts[k];
        let class = &self.classes[part.class];
        let completions =
            Completion::new(self.n, &class.second_row, part.third_row.as_ref()).count(budget)?;
        self.factor
            .checked_mul(class.members)
            .and_then(|x| x.checked_mul(u128::from(completions)))
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
                "row permutations: the first column fixed (reduced squares), times ({n}−1)! = {}",
                factorial(n - 1)
            ),
            format!(
                "conjugation of the second row (values and columns moved together): {} row-pair \
                 classes by cycle type, each counted once with d_λ/({n}−1) members among the \
                 reduced squares: {}",
                self.classes.len(),
                types.join(", ")
            ),
        ];
        if n >= 4 {
            lines.push(
                "the last two rows by cycles: 2^(c−1) fillings for c cycles of the pairs of \
                 values the columns miss"
                    .to_string(),
            );
        }
        if n >= 5 {
            lines.push(format!(
                "parts: each class split by its third row, {} parts",
                self.parts.len()
            ));
        }
        lines
    }

    fn facts(&self, total: u128) -> Vec<Fact> {
        vec![
            Fact::new("reduced_squares", total / self.per_reduced()),
            Fact::new("row_pair_classes", self.classes.len() as u128),
            Fact::new(
                "derangements",
                self.classes.iter().map(|c| c.members).sum::<u128>(),
            ),
        ]
    }
}

/// `k!` (exact for `k ≤ 34`).
pub(crate) fn factorial(k: usize) -> u128 {
    (1..=k as u128).product()
}

/// The cycle types of the derangements of `n` (none for `n = 1`), with their sizes and
/// representatives.
fn row_pair_classes(n: usize) -> Vec<RowPairClass> {
    let mut types = Vec::new();
    partitions_at_least_two(n, n, &mut Vec::new(), &mut types);
    types
        .into_iter()
        .map(|cycle_type: Vec<usize>| {
            // d_λ = n! / Π (k^m_k · m_k!)
            let mut denominator = 1u128;
            let mut k = 0;
            while k < cycle_type.len() {
                let length = cycle_type[k];
                let mut m = 0;
                while k < cycle_type.len() && cycle_type[k] == length {
                    m += 1;
                    k += 1;
                }
                denominator *= (length as u128).pow(m) * factorial(m as usize);
            }
            let mut second_row = [0u8; MAX_LATIN_ORDER];
            let mut start = 0;
            for &length in &cycle_type {
                for i in 0..length {
                    second_row[start + i] = (start + (i + 1) % length) as u8;
                }
                start += length;
            }
            RowPairClass {
                members: factorial(n) / denominator,
                cycle_type,
                second_row,
            }
        })
        .collect()
}

/// The partitions of `left` into parts of at least 2 and at most `largest`, largest first.
fn partitions_at_least_two(
    left: usize,
    largest: usize,
    current: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if left == 0 {
        if !current.is_empty() {
            out.push(current.clone());
        }
        return;
    }
    for part in (2..=largest.min(left)).rev() {
        current.push(part);
        partitions_at_least_two(left - part, part, current, out);
        current.pop();
    }
}

/// Every third row that starts with value 2 and fits under the identity and `second`.
fn third_rows(n: usize, second: &[u8; MAX_LATIN_ORDER]) -> Vec<[u8; MAX_LATIN_ORDER]> {
    fn place(
        c: usize,
        n: usize,
        second: &[u8; MAX_LATIN_ORDER],
        row: &mut [u8; MAX_LATIN_ORDER],
        used: u16,
        out: &mut Vec<[u8; MAX_LATIN_ORDER]>,
    ) {
        if c == n {
            out.push(*row);
            return;
        }
        for v in 0..n {
            if used & (1 << v) != 0 || v == c || v == usize::from(second[c]) {
                continue;
            }
            row[c] = v as u8;
            place(c + 1, n, second, row, used | 1 << v, out);
        }
    }
    let mut out = Vec::new();
    let mut row = [0u8; MAX_LATIN_ORDER];
    row[0] = 2;
    place(1, n, second, &mut row, 1 << 2, &mut out);
    out
}

/// The completions of a reduced square's first rows: rows filled cell by cell, the last two by
/// their cycles.
struct Completion {
    n: usize,
    full: u16,
    /// Values each column already holds (column 0 is fixed and not tracked).
    column: [u16; MAX_LATIN_ORDER],
    /// Rows given (2 or 3).
    given: usize,
    leaves: u64,
    stopped: Option<Stopped>,
}

impl Completion {
    fn new(n: usize, second: &[u8], third: Option<&[u8; MAX_LATIN_ORDER]>) -> Completion {
        let mut column = [0u16; MAX_LATIN_ORDER];
        for (c, slot) in column.iter_mut().enumerate().take(n) {
            *slot = 1 << c | 1 << second[c];
            if let Some(third) = third {
                *slot |= 1 << third[c];
            }
        }
        Completion {
            n,
            full: ((1u32 << n) - 1) as u16,
            column,
            given: if third.is_some() { 3 } else { 2 },
            leaves: 0,
            stopped: None,
        }
    }

    /// The completions with the first column fixed.
    fn count(mut self, budget: &Budget) -> Result<u64, Stopped> {
        let n = self.n;
        let total = if n <= 3 {
            // Order 2: no row left; order 3: the last row is forced (a Latin rectangle of
            // n − 1 rows always completes in one way).
            1
        } else if self.given == n - 2 {
            self.last_two_rows()
        } else {
            let row = self.given;
            self.fill(row, 1, 1 << row, budget)
        };
        debug_assert!(self.given <= n - 2 || n <= 3);
        match self.stopped {
            Some(stopped) => Err(stopped),
            None => Ok(total),
        }
    }

    /// Completions with rows `< row` filled and the cells `< c` of row `row` (holding the values
    /// `in_row`).
    fn fill(&mut self, row: usize, c: usize, in_row: u16, budget: &Budget) -> u64 {
        if row == self.n - 3 {
            return self.third_last_row(budget);
        }
        if c == self.n {
            let next = row + 1;
            return self.fill(next, 1, 1 << next, budget);
        }
        let mut options = self.full & !self.column[c] & !in_row;
        let mut total = 0;
        while options != 0 && self.stopped.is_none() {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            self.column[c] |= bit;
            total += self.fill(row, c + 1, in_row | bit, budget);
            self.column[c] ^= bit;
        }
        total
    }

    /// The completions of the last three rows: row `n−3` cell by cell, each choice leaving its
    /// column a pair of missing values, an edge between them; the last two rows then fill in
    /// `2^(c−1)` ways for `c` cycles, that is `c` components of those edges, kept as the search
    /// goes (each value's component as a mask, copied down the search).
    fn third_last_row(&mut self, budget: &Budget) -> u64 {
        let n = self.n;
        self.leaves += 1;
        if self.leaves % CHECK_EVERY == 0
            && let Some(reason) = budget.interrupted()
        {
            self.stopped = Some(Stopped(reason));
            return 0;
        }
        let mut component = [0u16; MAX_LATIN_ORDER];
        for (v, slot) in component.iter_mut().enumerate().take(n) {
            *slot = 1 << v;
        }
        // Column 0 misses n−2 and n−1.
        let joined = component[n - 2] | component[n - 1];
        component[n - 2] = joined;
        component[n - 1] = joined;
        let row = n - 3;
        self.last_row_cell(1, 1 << row, component, n as u32 - 1)
    }

    /// Row `n−3` from column `c` on, the row holding `in_row`, the components of the edges so
    /// far `component` (`components` of them).
    fn last_row_cell(
        &self,
        c: usize,
        in_row: u16,
        mut component: [u16; MAX_LATIN_ORDER],
        components: u32,
    ) -> u64 {
        if c == self.n {
            return 1 << (components - 1);
        }
        let missing = self.full & !self.column[c];
        let mut options = missing & !in_row;
        let mut total = 0;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            let pair = missing & !bit;
            let a = pair.trailing_zeros() as usize;
            let b = (pair & (pair - 1)).trailing_zeros() as usize;
            total += if component[a] & (1 << b) != 0 {
                // The edge closes a cycle.
                self.last_row_cell(c + 1, in_row | bit, component, components)
            } else {
                let saved = component;
                let joined = component[a] | component[b];
                let mut m = joined;
                while m != 0 {
                    component[m.trailing_zeros() as usize] = joined;
                    m &= m - 1;
                }
                let sub = self.last_row_cell(c + 1, in_row | bit, component, components - 1);
                component = saved;
                sub
            };
        }
        total
    }

    /// `2^(c−1)`: the ways to fill the last two rows, `c` the cycles of the pairs of values the
    /// columns miss (column 0 misses `n−2` and `n−1`, in that order).
    fn last_two_rows(&self) -> u64 {
        let n = self.n;
        let mut missing = [0u16; MAX_LATIN_ORDER];
        missing[0] = 1 << (n - 2) | 1 << (n - 1);
        for (slot, &column) in missing.iter_mut().zip(&self.column).take(n).skip(1) {
            *slot = self.full & !column;
        }
        // Columns missing each value.
        let mut columns_of = [0u16; MAX_LATIN_ORDER];
        for (c, &pair) in missing.iter().enumerate().take(n) {
            let mut m = pair;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                columns_of[v] |= 1 << c;
            }
        }
        let mut seen = 0u16;
        let mut cycles = 0u32;
        for start in 0..n {
            if seen & (1 << start) != 0 {
                continue;
            }
            cycles += 1;
            let mut c = start;
            let mut value = missing[c].trailing_zeros() as usize;
            loop {
                seen |= 1 << c;
                // Each value is missed by exactly two columns: the other one is next.
                let next = columns_of[value] & !(1 << c);
                debug_assert_eq!(next.count_ones(), 1);
                c = next.trailing_zeros() as usize;
                if c == start {
                    break;
                }
                value = (missing[c] & !(1 << value)).trailing_zeros() as usize;
            }
        }
        1 << (cycles - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn latin_count(n: usize) -> u128 {
        let plan = LatinPlan::new(n).unwrap();
        let budget = Budget::start(&Limits::none());
        (0..plan.parts())
            .map(|k| plan.count_part(k, &budget).unwrap())
            .sum()
    }

    #[test]
    fn the_derangement_classes_add_up_to_the_derangements() {
        // D(n): 1, 2, 9, 44, 265, 1854, 14833
        for (n, derangements) in [
            (2, 1),
            (3, 2),
            (4, 9),
            (5, 44),
            (6, 265),
            (7, 1854),
            (8, 14833),
        ] {
            let classes = row_pair_classes(n);
            let total: u128 = classes.iter().map(|c| c.members).sum();
            assert_eq!(total, derangements, "order {n}");
            for class in &classes {
                // The representative is a derangement of its type with σ(0) = 1.
                let sigma = &class.second_row[..n];
                assert!(sigma.iter().enumerate().all(|(i, &s)| usize::from(s) != i));
                assert_eq!(sigma[0], 1);
                // Each class has d_λ/(n−1) members with σ(0) = 1: an integer.
                assert_eq!(class.members % (n as u128 - 1), 0);
            }
        }
        assert_eq!(row_pair_classes(8).len(), 7);
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

    #[test]
    fn every_part_is_a_multiple_of_the_squares_per_reduced_square() {
        let plan = LatinPlan::new(6).unwrap();
        let budget = Budget::start(&Limits::none());
        for k in 0..plan.parts() {
            assert_eq!(plan.count_part(k, &budget).unwrap() % plan.per_reduced(), 0);
        }
    }

    #[test]
    fn the_last_two_rows_by_cycles() {
        // Order 4, second row 1 0 3 2: the columns miss {2,3} {2,3} {0,1} {0,1}, two cycles.
        let c = Completion::new(4, &[1, 0, 3, 2], None);
        assert_eq!(c.last_two_rows(), 2);
        // Second row 1 2 3 0: one cycle through all columns.
        let c = Completion::new(4, &[1, 2, 3, 0], None);
        assert_eq!(c.last_two_rows(), 1);
    }
}
