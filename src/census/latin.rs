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

use super::{Fact, PartError, Plan, Stopped};
use crate::search::Budget;

/// Largest order counted: `L(10) ≈ 9.98·10³⁶` still fits in 128 bits, `L(11)` does not.
pub(crate) const MAX_LATIN_ORDER: usize = 10;

/// Searches of the third row from the end between two looks at the clock.
const CHECK_EVERY: u64 = 1 << 14;

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

/// The orbits of the third rows that fit under the identity and `σ`, under conjugation by the
/// permutations that commute with `σ`: each orbit's smallest row, and its size. A search from
/// each row not yet reached applies the centralizer's generators; a bitset over the ranks of
/// all permutations marks the rows reached.
///
/// # Errors
/// The budget ran out or was cancelled.
fn third_row_orbits(
    n: usize,
    class: &RowPairClass,
    budget: &Budget,
) -> Result<Vec<(Row, u64)>, Stopped> {
    let generators = centralizer_generators(&class.cycle_type);
    let mut reached = vec![0u64; (factorial(n) as usize).div_ceil(64)];
    let mut mark = |rho: &Row| {
        let rank = permutation_rank(&rho[..n]);
        let (word, bit) = (rank / 64, rank % 64);
        let new = reached[word] & (1 << bit) == 0;
        reached[word] |= 1 << bit;
        new
    };
    let mut orbits = Vec::new();
    let mut queue: Vec<Row> = Vec::new();
    let mut stopped = None;
    let mut seen = 0u64;
    for_each_third_row(n, &class.second_row, &mut |rho: &Row| {
        seen += 1;
        if seen % 4096 == 0 && stopped.is_none() {
            stopped = budget.interrupted().map(Stopped);
        }
        if stopped.is_some() || !mark(rho) {
            return;
        }
        queue.clear();
        queue.push(*rho);
        let mut size = 0u64;
        while let Some(row) = queue.pop() {
            size += 1;
            for tau in &generators {
                let mut image = [0u8; MAX_LATIN_ORDER];
                for j in 0..n {
                    image[usize::from(tau[j])] = tau[usize::from(row[j])];
                }
                if mark(&image) {
                    queue.push(image);
                }
            }
        }
        orbits.push((*rho, size));
    });
    match stopped {
        Some(stopped) => Err(stopped),
        None => Ok(orbits),
    }
}

/// Calls `visit` on every third row that fits under the identity and `second`, in increasing
/// order.
fn for_each_third_row(n: usize, second: &Row, visit: &mut dyn FnMut(&Row)) {
    fn place(
        c: usize,
        n: usize,
        second: &Row,
        row: &mut Row,
        used: u16,
        visit: &mut dyn FnMut(&Row),
    ) {
        if c == n {
            visit(row);
            return;
        }
        for v in 0..n {
            if used & (1 << v) != 0 || v == c || v == usize::from(second[c]) {
                continue;
            }
            row[c] = v as u8;
            place(c + 1, n, second, row, used | 1 << v, visit);
        }
    }
    place(0, n, second, &mut [0; MAX_LATIN_ORDER], 0, visit);
}

/// The rank of a permutation of `0..k` among all of them, in lexicographic order.
fn permutation_rank(perm: &[u8]) -> usize {
    let k = perm.len();
    let mut rank = 0;
    for i in 0..k {
        let smaller_after = perm[i + 1..].iter().filter(|&&w| w < perm[i]).count();
        rank = rank * (k - i) + smaller_after;
    }
    rank
}

/// Generators of the centralizer of the permutation whose cycles, of lengths `cycle_type`, run
/// over consecutive values: the rotation of each cycle, and the swap of each two neighbouring
/// cycles of one length.
fn centralizer_generators(cycle_type: &[usize]) -> Vec<Row> {
    let n: usize = cycle_type.iter().sum();
    let identity: Row = std::array::from_fn(|i| i as u8);
    let mut generators = Vec::new();
    let mut start = 0;
    for (i, &length) in cycle_type.iter().enumerate() {
        let mut rotation = identity;
        for j in 0..length {
            rotation[start + j] = (start + (j + 1) % length) as u8;
        }
        generators.push(rotation);
        if cycle_type.get(i + 1) == Some(&length) {
            let mut swap = identity;
            for j in 0..length {
                swap[start + j] = (start + length + j) as u8;
                swap[start + length + j] = (start + j) as u8;
            }
            generators.push(swap);
        }
        start += length;
    }
    debug_assert!(
        generators
            .iter()
            .all(|g| g[..n].iter().all(|&v| usize::from(v) < n))
    );
    generators
}

/// The completions of a square's first two or three rows, the other rows sorted by their first
/// value: rows filled cell by cell, the last two by their cycles.
struct Completion {
    n: usize,
    full: u16,
    /// The first value of each row: the given rows', then the others in increasing order.
    first: Row,
    /// Values each column already holds (column 0 is fixed and not tracked).
    column: [u16; MAX_LATIN_ORDER],
    /// Rows given (2 or 3).
    given: usize,
    leaves: u64,
    stopped: Option<Stopped>,
}

impl Completion {
    fn new(n: usize, second: &[u8], third: Option<&Row>) -> Completion {
        let mut column = [0u16; MAX_LATIN_ORDER];
        let mut given = 1u16 | 1 << second[0];
        for (c, slot) in column.iter_mut().enumerate().take(n) {
            *slot = 1 << c | 1 << second[c];
            if let Some(third) = third {
                *slot |= 1 << third[c];
            }
        }
        let mut first = [0u8; MAX_LATIN_ORDER];
        first[1] = second[0];
        if let Some(third) = third {
            first[2] = third[0];
            given |= 1 << third[0];
        }
        let rows_given = if third.is_some() { 3 } else { 2 };
        let mut r = rows_given;
        for v in 0..n {
            if given & (1 << v) == 0 {
                first[r] = v as u8;
                r += 1;
            }
        }
        Completion {
            n,
            full: ((1u32 << n) - 1) as u16,
            first,
            column,
            given: rows_given,
            leaves: 0,
            stopped: None,
        }
    }

    /// The completions with the first column fixed. A stop reports the share of the next row's
    /// choices searched.
    fn count(mut self, budget: &Budget) -> Result<u64, PartError> {
        let n = self.n;
        if n <= 3 {
            // Order 2: no row left; order 3: the last row is forced (a Latin rectangle of
            // n − 1 rows always completes in one way).
            return Ok(1);
        }
        if self.given == n - 2 {
            return Ok(self.last_two_rows());
        }
        let row = self.given;
        if row == n - 3 {
            let total = self.third_last_row(budget);
            return match self.stopped {
                Some(Stopped(reason)) => Err(PartError::Stopped(reason, 0.0)),
                None => Ok(total),
            };
        }
        // The next row's choices, one after another: how far the search got is their share.
        let mut rows = Vec::new();
        self.next_rows(
            1,
            1 << self.first[row],
            &mut [self.first[row]; MAX_LATIN_ORDER],
            &mut rows,
        );
        let mut total = 0;
        for (i, choice) in rows.iter().enumerate() {
            for (column, &v) in self.column[1..n].iter_mut().zip(&choice[1..n]) {
                *column |= 1 << v;
            }
            total += self.fill(row + 1, 1, 1 << self.first[row + 1], budget);
            for (column, &v) in self.column[1..n].iter_mut().zip(&choice[1..n]) {
                *column &= !(1 << v);
            }
            if let Some(Stopped(reason)) = self.stopped {
                return Err(PartError::Stopped(reason, i as f64 / rows.len() as f64));
            }
        }
        Ok(total)
    }

    /// Every way to fill the next row from column `c` on, given the columns so far.
    fn next_rows(&self, c: usize, in_row: u16, current: &mut Row, out: &mut Vec<Row>) {
        if c == self.n {
            out.push(*current);
            return;
        }
        let mut options = self.full & !self.column[c] & !in_row;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            current[c] = bit.trailing_zeros() as u8;
            self.next_rows(c + 1, in_row | bit, current, out);
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
            return self.fill(next, 1, 1 << self.first[next], budget);
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
        // Column 0 misses the first values of the last two rows.
        let (a, b) = (
            usize::from(self.first[n - 2]),
            usize::from(self.first[n - 1]),
        );
        let joined = component[a] | component[b];
        component[a] = joined;
        component[b] = joined;
        self.last_row_cell(1, 1 << self.first[n - 3], component, n as u32 - 1)
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
    /// columns miss (column 0 misses the last two rows' first values, in their order).
    fn last_two_rows(&self) -> u64 {
        let n = self.n;
        let mut missing = [0u16; MAX_LATIN_ORDER];
        missing[0] = 1 << self.first[n - 2] | 1 << self.first[n - 1];
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

    /// The permutations of `0..n` that commute with the permutation whose cycles, of the lengths
    /// `cycle_type`, run over consecutive values: each maps the cycles of one length onto one
    /// another (any order), each rotated.
    fn centralizer(n: usize, cycle_type: &[usize]) -> Vec<Row> {
        // Cycles: (start, length).
        let mut cycles = Vec::new();
        let mut start = 0;
        for &length in cycle_type {
            cycles.push((start, length));
            start += length;
        }
        let mut out = Vec::new();
        let mut tau = [0u8; MAX_LATIN_ORDER];
        let mut taken = vec![false; cycles.len()];
        fn assign(
            i: usize,
            cycles: &[(usize, usize)],
            taken: &mut [bool],
            tau: &mut Row,
            out: &mut Vec<Row>,
        ) {
            if i == cycles.len() {
                out.push(*tau);
                return;
            }
            let (from, length) = cycles[i];
            for t in 0..cycles.len() {
                let (to, other) = cycles[t];
                if taken[t] || other != length {
                    continue;
                }
                taken[t] = true;
                for rotation in 0..length {
                    for j in 0..length {
                        tau[from + j] = (to + (j + rotation) % length) as u8;
                    }
                    assign(i + 1, cycles, taken, tau, out);
                }
                taken[t] = false;
            }
        }
        assign(0, &cycles, &mut taken, &mut tau, &mut out);
        debug_assert!(out.iter().all(|t| (0..n).all(|j| usize::from(t[j]) < n)));
        out
    }

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
    fn the_orbits_of_third_rows_cover_every_third_row_once() {
        let budget = Budget::start(&Limits::none());
        for n in [5, 6, 7] {
            for class in row_pair_classes(n) {
                // The centralizer: every member commutes with σ, and there are n!/d_λ.
                let sigma = &class.second_row;
                let all = centralizer(n, &class.cycle_type);
                for tau in &all {
                    let commutes =
                        (0..n).all(|j| tau[usize::from(sigma[j])] == sigma[usize::from(tau[j])]);
                    assert!(commutes);
                }
                assert_eq!(all.len() as u128, factorial(n) / class.members);
                // Each orbit's row is the smallest of its conjugates, the sizes divide the
                // centralizer's and add up to the third rows.
                let orbits = third_row_orbits(n, &class, &budget).unwrap();
                for (rho, size) in &orbits {
                    assert_eq!(all.len() as u64 % size, 0);
                    for tau in &all {
                        let mut image = [0u8; MAX_LATIN_ORDER];
                        for j in 0..n {
                            image[usize::from(tau[j])] = tau[usize::from(rho[j])];
                        }
                        assert!(image >= *rho);
                    }
                }
                let mut rows = 0u64;
                for_each_third_row(n, sigma, &mut |_| rows += 1);
                let covered: u64 = orbits.iter().map(|o| o.1).sum();
                assert_eq!(covered, rows, "order {n} {:?}", class.cycle_type);
            }
        }
    }

    #[test]
    fn the_last_two_rows_by_cycles() {
        // Order 4, second row 1 0 3 2: the columns miss {2,3} {2,3} {0,1} {0,1}, two cycles.
        let c = Completion::new(4, &[1, 0, 3, 2], None);
        assert_eq!(&c.first[..4], &[0, 1, 2, 3]);
        assert_eq!(c.last_two_rows(), 2);
        // Second row 1 2 3 0: one cycle through all columns.
        let c = Completion::new(4, &[1, 2, 3, 0], None);
        assert_eq!(c.last_two_rows(), 1);
    }
}
