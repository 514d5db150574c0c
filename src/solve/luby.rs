//! The Luby restart schedule, shared by the searches that restart: `native`'s large-grid engine,
//! the randomized complete grids and the well-posedness test of generation.
//!
//! # Complexity
//! O(log i) per term.
//!
//! # References
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", *Information
//!   Processing Letters* 47 (1993) 173–180.

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... (`i` ≥ 1): the restart schedule within a
/// constant factor of the optimal one for an unknown run-time distribution.
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let k = 64 - i.leading_zeros() as u64; // 2^(k-1) <= i < 2^k
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_starts_as_published() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
