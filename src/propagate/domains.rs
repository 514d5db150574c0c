//! The candidate store of the propagation engine: the candidates of every cell as a bitset.
//!
//! # Complexity
//! A store is `n²·⌈n/64⌉` words; a cell's operations are O(⌈n/64⌉) word operations, whole-store
//! ones (copy, total, subset) O(n²·⌈n/64⌉).

use std::fmt;

use crate::grid::Grid;
use crate::shape::Shape;

/// The candidates of every cell: one bitset of `⌈n/64⌉` words per cell, bit `v` = value `v`
/// (0-based).
#[derive(Clone, PartialEq, Eq)]
pub struct Domains {
    pub(super) shape: Shape,
    pub(super) words: usize,
    pub(super) bits: Vec<u64>,
}

impl fmt::Debug for Domains {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Domains({}; ", self.shape)?;
        for cell in 0..self.shape.cells() {
            let values: Vec<usize> = self.values(cell).map(|v| v + 1).collect();
            write!(f, "{values:?}")?;
        }
        write!(f, ")")
    }
}

impl Domains {
    /// Every value possible in every cell.
    pub fn full(shape: Shape) -> Domains {
        let n = shape.order();
        let words = n.div_ceil(64);
        let mut cell = vec![u64::MAX; words];
        if !n.is_multiple_of(64) {
            cell[words - 1] = (1u64 << (n % 64)) - 1;
        }
        let mut bits = Vec::with_capacity(shape.cells() * words);
        for _ in 0..shape.cells() {
            bits.extend_from_slice(&cell);
        }
        Domains { shape, words, bits }
    }

    /// The givens as single candidates, every other cell full. No propagation is done.
    pub fn from_puzzle(puzzle: &Grid) -> Domains {
        let mut d = Domains::full(puzzle.shape());
        for (cell, v) in puzzle.givens() {
            d.set_single(cell, v);
        }
        d
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The words of one cell.
    #[inline]
    pub fn cell_words(&self, cell: usize) -> &[u64] {
        &self.bits[cell * self.words..(cell + 1) * self.words]
    }

    /// Whether `v` is a candidate of `cell`.
    #[inline]
    pub fn contains(&self, cell: usize, v: usize) -> bool {
        self.bits[cell * self.words + v / 64] & (1u64 << (v % 64)) != 0
    }

    /// Removes a candidate without propagating; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, cell: usize, v: usize) -> bool {
        let w = &mut self.bits[cell * self.words + v / 64];
        let bit = 1u64 << (v % 64);
        let had = *w & bit != 0;
        *w &= !bit;
        had
    }

    /// Makes `v` the only candidate of `cell` without propagating.
    pub fn set_single(&mut self, cell: usize, v: usize) {
        let words = self.words;
        let slot = &mut self.bits[cell * words..(cell + 1) * words];
        slot.fill(0);
        slot[v / 64] = 1u64 << (v % 64);
    }

    /// Number of candidates of `cell`.
    #[inline]
    pub fn count(&self, cell: usize) -> usize {
        self.cell_words(cell)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The smallest candidate of `cell`, if any.
    #[inline]
    pub fn min(&self, cell: usize) -> Option<usize> {
        self.cell_words(cell)
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The largest candidate of `cell`, if any.
    #[inline]
    pub fn max(&self, cell: usize) -> Option<usize> {
        self.cell_words(cell)
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)
    }

    /// The value of `cell` if it has exactly one candidate.
    #[inline]
    pub fn value(&self, cell: usize) -> Option<usize> {
        (self.count(cell) == 1).then(|| self.min(cell).expect("one candidate"))
    }

    /// The candidates of `cell` in increasing order.
    pub fn values(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        crate::bitset::iter_bits(self.cell_words(cell))
    }

    /// Whether every cell has exactly one candidate.
    pub fn is_solved(&self) -> bool {
        (0..self.shape.cells()).all(|c| self.count(c) == 1)
    }

    /// Total number of candidates over all cells (`n²` when solved).
    pub fn total(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The grid of the cells with one candidate (others empty).
    pub fn fixed_grid(&self) -> Grid {
        let mut g = Grid::empty(self.shape);
        for cell in 0..self.shape.cells() {
            g.set(cell, self.value(cell));
        }
        g
    }

    /// The complete grid if every cell has exactly one candidate.
    pub fn to_grid(&self) -> Option<Grid> {
        self.is_solved().then(|| self.fixed_grid())
    }

    /// Overwrites this store with `other` (same shape) without allocating.
    #[inline]
    pub fn copy_from(&mut self, other: &Domains) {
        debug_assert_eq!(self.shape, other.shape);
        self.bits.copy_from_slice(&other.bits);
    }

    /// Whether every candidate of `self` is a candidate of `other` (cell by cell).
    pub fn is_subset_of(&self, other: &Domains) -> bool {
        self.shape == other.shape && self.bits.iter().zip(&other.bits).all(|(a, b)| a & !b == 0)
    }
}
