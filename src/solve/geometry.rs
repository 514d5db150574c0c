//! Flat lookup tables of a shape for the solvers' inner loops: the cells of each unit, the units
//! of each cell and the peers of each cell, as `u32` arrays, built once per shape and shared.
//!
//! [`Shape`] computes these on the fly; a search visits them millions of times, so the solvers read
//! them from memory instead. [`geometry`] caches one table set per shape for the whole process.
//!
//! With regions (a jigsaw map, extra units) a cell's units and peers vary in number; the tables
//! hold each cell's list one after the other, with its start.
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
    /// Number of units (3n, or 2n for a Latin square, plus the extra units).
    pub unit_count: usize,
    /// `units[u·n + i]`: the i-th cell of unit u (flat unit index as in [`crate::shape::Unit`]).
    pub units: Vec<u32>,
    /// The units of cell c: `cell_units[cell_unit_start[c]..cell_unit_start[c + 1]]`.
    cell_units: Vec<u32>,
    cell_unit_start: Vec<u32>,
    /// The peers of cell c: `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u32>,
    peer_start: Vec<u32>,
}

impl Geometry {
    fn new(shape: Shape) -> Geometry {
        let n = shape.order();
        let units: Vec<u32> = shape
            .units()
            .flat_map(|u| shape.unit_cells(u).map(|c| c as u32).collect::<Vec<_>>())
            .collect();
        let (mut cell_units, mut cell_unit_start) = (Vec::new(), vec![0u32]);
        let (mut peers, mut peer_start) = (Vec::new(), vec![0u32]);
        for cell in 0..shape.cells() {
            cell_units.extend(shape.units_of(cell).map(|u| u.index(n) as u32));
            cell_unit_start.push(cell_units.len() as u32);
            peers.extend(shape.peers(cell).map(|p| p as u32));
            peer_start.push(peers.len() as u32);
        }
        Geometry {
            shape,
            n,
            cells: shape.cells(),
            unit_count: shape.unit_count(),
            units,
            cell_units,
            cell_unit_start,
            peers,
            peer_start,
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
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// The units of cell `c`.
    #[inline]
    pub fn units_of(&self, c: usize) -> &[u32] {
        &self.cell_units[self.cell_unit_start[c] as usize..self.cell_unit_start[c + 1] as usize]
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
