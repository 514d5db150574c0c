//! Graph and hypergraph precolouring: a puzzle as a precoloured Sudoku graph (petgraph) or
//! hypergraph.
//!
//! The **Sudoku graph** has one vertex per cell (vertex `r·n + c`, 0-based; `r·n + c + 1` in
//! files) and an edge between every two peers, so it has `n²·(2(n−1) + (p−1)(q−1))/2` edges
//! (810 for 9×9; `n²(n−1)` for a Latin square). A solution is a proper `n`-colouring that
//! extends the precolouring given by the givens (colour = value). The **hypergraph** has the same
//! vertices and one hyperedge per unit: `3n` hyperedges (`2n` for a Latin square), each of
//! `n` vertices; a solution colours every hyperedge with `n` distinct colours.
//!
//! # Complexity
//! O(n³) edges, built in O(n³); the hypergraph is O(n²) in size.
//!
//! # References
//! - A. M. Herzberg, M. R. Murty, "Sudoku squares and chromatic polynomials", Notices of the
//!   AMS 54(6), 2007 (the Sudoku graph).
//! - DIMACS graph colouring format; G. Karypis, V. Kumar, hMETIS manual (hypergraph format).
//!
//! # Examples
//! ```
//! use sudokit::encode::graph::{edge_count, sudoku_graph};
//! use sudokit::Shape;
//! let shape = Shape::sudoku(3, 3).unwrap();
//! let graph = sudoku_graph(shape);
//! assert_eq!((graph.node_count(), graph.edge_count()), (81, 810));
//! assert_eq!(edge_count(shape), 810);
//! ```

use petgraph::graph::{NodeIndex, UnGraph};

use crate::grid::Grid;
use crate::shape::Shape;

/// `n²·deg/2`, the number of edges of the Sudoku graph of `shape`.
pub fn edge_count(shape: Shape) -> usize {
    shape.cells() * shape.peer_count() / 2
}

/// The edges `(u, v)` with `u < v` (0-based vertices), in order of `u` then `v`.
pub fn edges(shape: Shape) -> impl Iterator<Item = (usize, usize)> {
    (0..shape.cells()).flat_map(move |u| {
        let mut later: Vec<usize> = shape.peers(u).filter(|&w| w > u).collect();
        later.sort_unstable();
        later.into_iter().map(move |w| (u, w))
    })
}

/// The Sudoku graph of `shape` (node `i` is cell `i`).
pub fn sudoku_graph(shape: Shape) -> UnGraph<(), ()> {
    let mut graph = UnGraph::with_capacity(shape.cells(), edge_count(shape));
    for _ in 0..shape.cells() {
        graph.add_node(());
    }
    for (u, w) in edges(shape) {
        graph.add_edge(NodeIndex::new(u), NodeIndex::new(w), ());
    }
    graph
}

/// A precoloured Sudoku graph: the graph and the colour (0-based value) of each given cell.
#[derive(Debug, Clone)]
pub struct Precoloured {
    /// The Sudoku graph.
    pub graph: UnGraph<(), ()>,
    /// `(vertex, colour)` for every given, in vertex order.
    pub precolouring: Vec<(usize, usize)>,
    /// Number of colours, `n`.
    pub colours: usize,
}

/// The precoloured graph of `puzzle`.
pub fn precoloured(puzzle: &Grid) -> Precoloured {
    Precoloured {
        graph: sudoku_graph(puzzle.shape()),
        precolouring: puzzle.givens().collect(),
        colours: puzzle.shape().order(),
    }
}

/// Whether `colouring` (one colour per vertex) is proper on `graph`.
pub fn is_proper(graph: &UnGraph<(), ()>, colouring: &[usize]) -> bool {
    graph.edge_indices().all(|e| {
        let (a, b) = graph.edge_endpoints(e).expect("edge of the graph");
        colouring[a.index()] != colouring[b.index()]
    })
}

/// The hyperedges of `shape`: one per unit, each the unit's cells (0-based vertices), in unit
/// order (rows, columns, boxes).
pub fn hyperedges(shape: Shape) -> impl Iterator<Item = Vec<usize>> {
    (0..shape.unit_count()).map(move |i| shape.unit_cells(shape.unit(i)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_counts_follow_the_formula() {
        for (shape, expected) in [
            (Shape::sudoku(2, 2).unwrap(), 56),
            (Shape::sudoku(2, 3).unwrap(), 216),
            (Shape::sudoku(3, 3).unwrap(), 810),
            (Shape::latin(5).unwrap(), 25 * 4),
        ] {
            assert_eq!(edge_count(shape), expected, "{shape}");
            assert_eq!(sudoku_graph(shape).edge_count(), expected);
            assert_eq!(hyperedges(shape).count(), shape.unit_count());
        }
    }

    #[test]
    fn a_solution_is_a_proper_colouring() {
        let solution = crate::text::parse_line("1432234141233214", None).unwrap();
        let colours: Vec<usize> = solution.raw().iter().map(|&v| v as usize).collect();
        let graph = sudoku_graph(solution.shape());
        assert!(is_proper(&graph, &colours));
        let mut wrong = colours.clone();
        wrong.swap(0, 1);
        assert!(!is_proper(&graph, &wrong));
    }
}
