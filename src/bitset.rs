//! A fixed-size set of small integers (`0..len`) packed in 64-bit words.
//!
//! Used wherever a unit's values are tracked: clash detection, the certificate verifier, and the
//! solvers' candidate sets for orders above 64.
//!
//! # Complexity
//! `insert`, `contains` and `remove` are O(1); `clear` is O(len/64).

/// A set of integers below a fixed bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitset {
    words: Vec<u64>,
}

impl Bitset {
    /// An empty set able to hold `0..len`.
    pub fn new(len: usize) -> Bitset {
        Bitset {
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Adds `i`; returns whether it was absent.
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let absent = self.words[w] & b == 0;
        self.words[w] |= b;
        absent
    }

    /// Whether `i` is present.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1u64 << (i % 64));
    }

    /// Removes everything.
    #[inline]
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        iter_bits(&self.words)
    }
}

/// The set bits of a word slice, in increasing order.
#[inline]
pub(crate) fn iter_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(wi, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                wi * 64 + bit
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::Bitset;

    #[test]
    fn insert_remove_iterate() {
        let mut s = Bitset::new(130);
        assert!(s.insert(0));
        assert!(s.insert(129));
        assert!(!s.insert(129));
        assert!(s.insert(64));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert_eq!(s.len(), 3);
        s.remove(64);
        assert!(!s.contains(64));
        s.clear();
        assert!(s.is_empty());
    }
}
