//! Flat lookup tables of a shape for the solvers' inner loops: the cells of each unit, the units
//! of each cell and the peers of each cell, as `u32` arrays, built once per shape and shared.
//!
//! [`Shape`] computes these on the fly; a search visits them millions of times, so the solvers read
//! them from memory instead. [`geometry`] caches one table set per shape for the whole process.
//!
//! # Complexity
//! Building: O(n² · degree) time and memory, where degree = `2(n−1) + (p−1)(q−1)`; for n = 64 with
//! 8×8 boxes that is 4096 × 175 peers, 2.8 MB. Lookups are O(1).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::shape::Shape;

/// The tables of one shape.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub shape: Shape,
    /// Order n.
    pub n: usize,
    /// n².
    pub cells: usize,
    /// Number of units (3n, or 2n for a Latin square).
    pub unit_count: usize,
    /// Units per cell (3, or 2 for a Latin square).
    pub units_per_cell: usize,
    /// `units[u·n + i]`: the i-th cell of unit u (flat unit index as in [`crate::shape::Unit`]).
    pub units: Vec<u32>,
    /// `cell_units[c·units_per_cell + j]`: the units of cell c.
    pub cell_units: Vec<u32>,
    /// Peers per cell.
    pub degree: usize,
    /// `peers[c·degree + j]`: the peers of cell c.
    pub peers: Vec<u32>,
}

impl Geometry {
    fn new(shape: Shape) -> Geometry {
        let n = shape.order();
        let units: Vec<u32> = shape
            .units()
            .flat_map(|u| shape.unit_cells(u).map(|c| c as u32).collect::<Vec<_>>())
            .collect();
        let cell_units = (0..shape.cells())
            .flat_map(|c| shape.units_of(c).map(move |u| u.index(n) as u32))
            .collect();
        let peers = (0..shape.cells())
            .flat_map(|c| shape.peers(c).map(|p| p as u32).collect::<Vec<_>>())
            .collect();
        Geometry {
            shape,
            n,
            cells: shape.cells(),
            unit_count: shape.unit_count(),
            units_per_cell: if shape.is_latin() { 2 } else { 3 },
            units,
            cell_units,
            degree: shape.peer_count(),
            peers,
        }
    }

    /// The cells of unit `u`.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u32] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The peers of cell `c`.
    #[inline]
    pub fn peers(&self, c: usize) -> &[u32] {
        &self.peers[c * self.degree..(c + 1) * self.degree]
    }

    /// The units of cell `c`.
    #[inline]
    pub fn units_of(&self, c: usize) -> &[u32] {
        &self.cell_units[c * self.units_per_cell..(c + 1) * self.units_per_cell]
    }
}

/// The shared tables of `shape`, built on first use.
pub(crate) fn geometry(shape: Shape) -> Arc<Geometry> {
    static CACHE: OnceLock<Mutex<HashMap<Shape, Arc<Geometry>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(g) = cache.lock().expect("geometry cache").get(&shape) {
        return Arc::clone(g);
    }
    let built = Arc::new(Geometry::new(shape));
    let mut map = cache.lock().expect("geometry cache");
    // Keep the cache small: a long batch of mixed shapes must not grow it without bound.
    if map.len() >= 16 {
        map.clear();
    }
    Arc::clone(map.entry(shape).or_insert(built))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_shape() {
        let shape = Shape::sudoku(2, 3).unwrap();
        let g = geometry(shape);
        assert_eq!(g.peers(7).len(), 12);
        assert_eq!(g.unit(2 * 6 + 3), &[15, 16, 17, 21, 22, 23]);
        assert_eq!(g.units_of(0), &[0, 6, 12]);
        let latin = geometry(Shape::latin(4).unwrap());
        assert_eq!(latin.units_of(5), &[1, 5]);
        assert_eq!(latin.unit_count, 8);
    }
}
