//! The row-pair classes of the Latin squares of order `n` and the orbits of their third rows
//! ([the method](super)): the cycle types of the derangements, with their sizes and
//! representatives; the centralizer of a representative, and the orbits of the third rows under
//! it, found by a search over the ranks of all permutations.

use super::{MAX_LATIN_ORDER, Row, RowPairClass, factorial};
use crate::census::Stopped;
use crate::search::Budget;

/// The cycle types of the derangements of `n` (none for `n = 1`), with their sizes and
/// representatives.
pub(super) fn row_pair_classes(n: usize) -> Vec<RowPairClass> {
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
pub(super) fn third_row_orbits(
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
        if seen.is_multiple_of(4096) && stopped.is_none() {
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
}
