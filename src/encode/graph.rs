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
use crate::verify::{Violation, verify};

/// `n²·deg/2`, the number of edges of the Sudoku graph of `shape`.
pub fn edge_count(shape: Shape) -> usize {
    if shape.has_box_geometry() {
        shape.cells() * shape.peer_count() / 2
    } else {
        (0..shape.cells())
            .map(|c| shape.peer_count_of(c))
            .sum::<usize>()
            / 2
    }
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

/// Why a colouring of a puzzle's Sudoku graph names no solution of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColouringError {
    /// Not one colour per vertex.
    #[error("the colouring colours {found} vertices; the graph has {cells}")]
    Vertices {
        /// The vertices coloured.
        found: usize,
        /// The vertices of the graph, n².
        cells: usize,
    },
    /// More colour classes than values.
    #[error("the colouring uses {found} colours; a solution uses {order}")]
    TooManyColours {
        /// The classes used.
        found: usize,
        /// The order n.
        order: usize,
    },
    /// Two givens of different values in one class (1-based values).
    #[error("one colour holds the givens {0} and {1}")]
    GivensShareAColour(usize, usize),
    /// The colouring maps to a grid that is not a solution.
    #[error("the colouring is not a solution: {0}")]
    NotASolution(Violation),
}

/// The solution a colouring of `puzzle`'s Sudoku graph names: `classes[v]` is vertex `v`'s colour
/// class (0-based vertices, classes numbered in any way, such as networkx's `greedy_color`).
/// Each class takes the value of the givens in it, the other classes the values no given takes,
/// in class order; the grid is then checked by the certificate verifier.
///
/// # Errors
/// A colouring of another graph, more than n classes, two givens of different values in one
/// class, or a grid that is not a solution.
pub fn solution_of_colouring(puzzle: &Grid, classes: &[usize]) -> Result<Grid, ColouringError> {
    let (cells, order) = (puzzle.shape().cells(), puzzle.shape().order());
    if classes.len() != cells {
        let found = classes.len();
        return Err(ColouringError::Vertices { found, cells });
    }
    let found = classes.iter().max().map_or(0, |&k| k + 1);
    if found > order {
        return Err(ColouringError::TooManyColours { found, order });
    }
    let mut value_of: Vec<Option<usize>> = vec![None; found];
    for (cell, value) in puzzle.givens() {
        match value_of[classes[cell]] {
            Some(v) if v != value => {
                return Err(ColouringError::GivensShareAColour(v + 1, value + 1));
            }
            _ => value_of[classes[cell]] = Some(value),
        }
    }
    let taken = value_of.clone();
    let mut free = (0..order).filter(|v| !taken.contains(&Some(*v)));
    for slot in value_of.iter_mut().filter(|s| s.is_none()) {
        *slot = free.next();
    }
    let values: Vec<Option<usize>> = classes.iter().map(|&k| value_of[k]).collect();
    let solution = Grid::from_cells(puzzle.shape(), &values);
    verify(puzzle, &solution).map_err(ColouringError::NotASolution)?;
    Ok(solution)
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

    #[test]
    fn a_colouring_names_its_solution() {
        let puzzle = crate::text::parse_line("...3..4114..3...", None).unwrap();
        let solution = crate::text::parse_line("4123234114323214", None).unwrap();
        // Classes numbered in another order than the values: the givens relabel them.
        let classes: Vec<usize> = solution.raw().iter().map(|&v| 3 - v as usize).collect();
        assert_eq!(solution_of_colouring(&puzzle, &classes), Ok(solution));
        let mut clash = classes.clone();
        clash[3] = clash[6]; // the givens 3 and 4 in one class
        assert_eq!(
            solution_of_colouring(&puzzle, &clash),
            Err(ColouringError::GivensShareAColour(3, 4))
        );
        assert!(matches!(
            solution_of_colouring(&puzzle, &[0; 16]),
            Err(ColouringError::GivensShareAColour(..))
        ));
        let too_many: Vec<usize> = (0..16).collect();
        assert!(matches!(
            solution_of_colouring(&puzzle, &too_many),
            Err(ColouringError::TooManyColours {
                found: 16,
                order: 4
            })
        ));
        assert!(matches!(
            solution_of_colouring(&puzzle, &classes[..15]),
            Err(ColouringError::Vertices {
                found: 15,
                cells: 16
            })
        ));
        let mut swapped = classes.clone();
        swapped.swap(0, 1); // row 1 keeps its values, columns 1 and 2 repeat
        assert!(matches!(
            solution_of_colouring(&puzzle, &swapped),
            Err(ColouringError::NotASolution(_))
        ));
    }
}
