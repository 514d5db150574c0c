//! Stack partitions: the ways the `q` columns of one stack, inside one band, split the `n = p·q`
//! values into `q` sets of `p` (each column of a band holds `p` values, and the box the stack
//! and the band share holds every value once).
//!
//! A partition is kept as its blocks (value masks) in the order of their smallest values, so
//! the columns' order is forgotten: every count built on these partitions is invariant under
//! permuting the columns of a stack. The partitions are numbered by a dense index: a table over
//! the partition's *restricted growth string* (block of each value, blocks numbered by first
//! occurrence, read as a base-`q` number) gives the index with no search and no hashing.
//!
//! # Complexity
//! `n! / (p!^q · q!)` partitions (280 for 3×3, 35 for 4×2); the table has `q^n` entries (19 683
//! for 3×3). [`StackPartitions::index_of_blocks`] is O(n).

use super::MAX_ORDER;

/// Most columns per box (blocks of a partition) the census handles.
pub(crate) const MAX_BLOCKS: usize = 8;

/// Largest `q^n` index table built (4 M entries, 16 MB).
const MAX_TABLE: usize = 1 << 22;

/// Every partition of the values `0..n` into `q` blocks of `p` values, with a dense index.
#[derive(Debug, Clone)]
pub(crate) struct StackPartitions {
    p: usize,
    q: usize,
    n: usize,
    /// The blocks of each partition, by smallest value; unused trailing entries are 0.
    all: Vec<[u16; MAX_BLOCKS]>,
    /// Index of the partition whose restricted growth string, read in base `q`, is the key;
    /// `u32::MAX` where the key is not a partition into blocks of `p`.
    index: Vec<u32>,
}

impl StackPartitions {
    /// The partitions of `p·q` values into `q` blocks of `p`, or `None` when the shape is beyond
    /// the census (more than [`MAX_ORDER`] values, more than [`MAX_BLOCKS`] blocks, or an index
    /// table above 4 M entries).
    pub(crate) fn new(p: usize, q: usize) -> Option<StackPartitions> {
        let n = p * q;
        if p == 0 || q == 0 || n > MAX_ORDER || q > MAX_BLOCKS {
            return None;
        }
        let table = q.checked_pow(n as u32).filter(|&t| t <= MAX_TABLE)?;
        let mut parts = StackPartitions {
            p,
            q,
            n,
            all: Vec::new(),
            index: vec![u32::MAX; table],
        };
        let mut blocks = [0u16; MAX_BLOCKS];
        parts.enumerate(0, 0, 0, &mut blocks);
        Some(parts)
    }

    /// Assigns value `v` onward, `used` blocks opened so far, `key` the growth string so far.
    fn enumerate(&mut self, v: usize, used: usize, key: usize, blocks: &mut [u16; MAX_BLOCKS]) {
        if v == self.n {
            self.index[key] = self.all.len() as u32;
            self.all.push(*blocks);
            return;
        }
        let weight = self.q.pow(v as u32);
        for b in 0..(used + 1).min(self.q) {
            if blocks[b].count_ones() as usize == self.p {
                continue;
            }
            blocks[b] |= 1 << v;
            self.enumerate(v + 1, used.max(b + 1), key + b * weight, blocks);
            blocks[b] &= !(1 << v);
        }
    }

    /// Number of partitions.
    pub(crate) fn len(&self) -> usize {
        self.all.len()
    }

    /// The blocks of partition `index`, by smallest value.
    pub(crate) fn blocks(&self, index: usize) -> &[u16] {
        &self.all[index][..self.q]
    }

    /// The index of the partition whose value `v` lies in block `block_of[v]` (any block labels
    /// `0..q`), or `None` if the blocks do not all hold `p` values.
    pub(crate) fn index_of_blocks(&self, block_of: &[u8]) -> Option<usize> {
        let mut renumber = [u8::MAX; MAX_BLOCKS];
        let mut opened = 0u8;
        let mut key = 0usize;
        let mut weight = 1usize;
        for &label in &block_of[..self.n] {
            let slot = renumber.get_mut(usize::from(label))?;
            if *slot == u8::MAX {
                *slot = opened;
                opened += 1;
            }
            key += usize::from(*slot) * weight;
            weight *= self.q;
        }
        match *self.index.get(key)? {
            u32::MAX => None,
            i => Some(i as usize),
        }
    }

    /// The index of the partition with these blocks (value masks, any order), or `None` if they
    /// are not a partition into blocks of `p`.
    pub(crate) fn index_of_masks(&self, masks: &[u16]) -> Option<usize> {
        let mut block_of = [u8::MAX; MAX_ORDER];
        for (b, &mask) in masks.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                *block_of.get_mut(v)? = b as u8;
            }
        }
        if block_of[..self.n].contains(&u8::MAX) {
            return None;
        }
        self.index_of_blocks(&block_of)
    }
}

/// The image of a value mask under the relabelling `v ↦ map[v]`.
#[inline]
pub(crate) fn relabel_mask(mask: u16, map: &[u8]) -> u16 {
    let mut image = 0u16;
    let mut m = mask;
    while m != 0 {
        let v = m.trailing_zeros() as usize;
        m &= m - 1;
        image |= 1 << map[v];
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial_product(p: usize, q: usize) -> usize {
        // n! / (p!^q q!)
        let fact = |k: usize| (1..=k).product::<usize>();
        fact(p * q) / (fact(p).pow(q as u32) * fact(q))
    }

    #[test]
    fn there_are_n_factorial_over_p_factorial_to_the_q_times_q_factorial_partitions() {
        for (p, q) in [
            (1, 1),
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 2),
            (2, 4),
            (5, 2),
        ] {
            let parts = StackPartitions::new(p, q).unwrap();
            assert_eq!(parts.len(), binomial_product(p, q), "{p}×{q}");
        }
        assert_eq!(StackPartitions::new(3, 3).unwrap().len(), 280);
    }

    #[test]
    fn every_partition_finds_its_own_index_under_any_block_order() {
        let parts = StackPartitions::new(3, 3).unwrap();
        for i in 0..parts.len() {
            let blocks = parts.blocks(i);
            assert_eq!(blocks.iter().fold(0, |a, b| a | b), 0x1ff);
            assert!(blocks.iter().all(|b| b.count_ones() == 3));
            let reversed: Vec<u16> = blocks.iter().rev().copied().collect();
            assert_eq!(parts.index_of_masks(&reversed), Some(i));
        }
        // Blocks of the wrong size are no partition.
        assert_eq!(parts.index_of_masks(&[0b1111, 0b11_0000, 0x1c0]), None);
    }

    #[test]
    fn relabelling_moves_each_value() {
        assert_eq!(relabel_mask(0b101, &[2, 0, 1]), 0b110);
    }
}
