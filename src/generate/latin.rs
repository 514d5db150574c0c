//! Random Latin squares: complete ones (Jacobson–Matthews), quasigroups with holes (always
//! completable) and random consistent partial squares (which may not complete).
//!
//! A Latin square of order m is a set of m² triples (row, column, symbol) with each pair of
//! coordinates appearing once: a 0/1 "incidence cube" with exactly one 1 on every line. Jacobson
//! and Matthews extend the cube with *improper* squares that carry one −1 entry, and walk by ±1
//! moves on 2×2×2 sub-cubes; the walk is ergodic and its stationary distribution is uniform over
//! the proper squares, so after enough moves (we make m³, then continue until the square is proper)
//! the result is close to uniform. Permuting the rows, columns and symbols of the cyclic square
//! would be faster but reaches only squares isotopic to a group table: not uniform.
//!
//! A **quasigroup with holes** (QWH) is a complete square with `h` cells removed: completable by
//! construction. A **random partial square** places random values on random cells, skipping any
//! that clash with a given already placed; its givens are consistent, but it may have no
//! completion (deciding that is NP-complete: Colbourn 1984).
//!
//! # Complexity
//! A Jacobson–Matthews move costs O(m) (finding the other 1s on three lines); m³ moves take
//! O(m⁴) time and O(m³) bytes for the cube. The other generators are O(m²) after that.
//!
//! # References
//! - M. T. Jacobson, P. Matthews, "Generating uniformly distributed random Latin squares",
//!   J. Combinatorial Designs 4(6), 1996.
//! - C. P. Gomes, D. Shmoys, "Completing quasigroups or Latin squares: a structured graph coloring
//!   problem", 2002 (quasigroups with holes).
//! - C. J. Colbourn, "The complexity of completing partial Latin squares", Discrete Applied
//!   Mathematics 8, 1984.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::grid::Grid;
use crate::shape::{Shape, ShapeError};

/// The largest order the Jacobson–Matthews walk is run for (its cube has m³ entries).
pub const MAX_RANDOM_ORDER: usize = 128;

/// Why a random Latin square cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LatinGenError {
    /// The order is 0 or too large.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The order is above [`MAX_RANDOM_ORDER`].
    #[error("random Latin squares are made up to order {MAX_RANDOM_ORDER}, not {0}")]
    TooLarge(usize),
    /// More holes or givens than cells.
    #[error("{asked} cells asked for, but an order-{order} square has {cells}")]
    TooMany {
        /// Holes or givens asked for.
        asked: usize,
        /// The order.
        order: usize,
        /// Cells in the square.
        cells: usize,
    },
}

/// The incidence cube of a (possibly improper) Latin square.
struct Cube {
    m: usize,
    entries: Vec<i8>,
}

impl Cube {
    fn cyclic(m: usize) -> Cube {
        let mut entries = vec![0i8; m * m * m];
        for r in 0..m {
            for c in 0..m {
                entries[(r * m + c) * m + (r + c) % m] = 1;
            }
        }
        Cube { m, entries }
    }

    #[inline]
    fn at(&self, r: usize, c: usize, s: usize) -> i8 {
        self.entries[(r * self.m + c) * self.m + s]
    }

    #[inline]
    fn add(&mut self, r: usize, c: usize, s: usize, delta: i8) {
        self.entries[(r * self.m + c) * self.m + s] += delta;
    }

    /// The positions along a line where the cube holds 1 (one, or two beside an improper cell).
    fn ones(&self, line: impl Fn(usize) -> (usize, usize, usize)) -> [Option<usize>; 2] {
        let mut found = [None, None];
        let mut k = 0;
        for t in 0..self.m {
            let (r, c, s) = line(t);
            if self.at(r, c, s) == 1 && k < 2 {
                found[k] = Some(t);
                k += 1;
            }
        }
        found
    }

    /// One Jacobson–Matthews move; returns the improper cell it leaves, if any.
    fn step(
        &mut self,
        improper: Option<(usize, usize, usize)>,
        rng: &mut impl Rng,
    ) -> Option<(usize, usize, usize)> {
        let m = self.m;
        let (r, c, s) = match improper {
            Some(cell) => cell,
            None => loop {
                let (r, c, s) = (
                    rng.random_range(0..m),
                    rng.random_range(0..m),
                    rng.random_range(0..m),
                );
                if self.at(r, c, s) == 0 {
                    break (r, c, s);
                }
            },
        };
        let pick = |options: [Option<usize>; 2], rng: &mut dyn FnMut() -> bool| match options {
            [Some(a), Some(b)] => {
                if rng() {
                    a
                } else {
                    b
                }
            }
            [Some(a), None] => a,
            _ => unreachable!("every line of a Latin cube holds a 1"),
        };
        let mut coin = || rng.random_bool(0.5);
        let r2 = pick(self.ones(|t| (t, c, s)), &mut coin);
        let c2 = pick(self.ones(|t| (r, t, s)), &mut coin);
        let s2 = pick(self.ones(|t| (r, c, t)), &mut coin);
        self.add(r, c, s, 1);
        self.add(r, c2, s2, 1);
        self.add(r2, c, s2, 1);
        self.add(r2, c2, s, 1);
        self.add(r, c, s2, -1);
        self.add(r, c2, s, -1);
        self.add(r2, c, s, -1);
        self.add(r2, c2, s2, -1);
        (self.at(r2, c2, s2) == -1).then_some((r2, c2, s2))
    }

    fn to_grid(&self) -> Grid {
        let m = self.m;
        let shape = Shape::latin(m).expect("order checked");
        let mut grid = Grid::empty(shape);
        for r in 0..m {
            for c in 0..m {
                let s = (0..m)
                    .find(|&s| self.at(r, c, s) == 1)
                    .expect("proper square");
                grid.set(shape.cell(r, c), Some(s));
            }
        }
        grid
    }
}

/// Checks a request for squares of order `order` with `cells` holes or givens, before any is
/// made.
///
/// # Errors
/// As [`quasigroup_with_holes`] and [`random_partial`].
pub fn check_request(order: usize, cells: usize) -> Result<(), LatinGenError> {
    check_order(order)?;
    if cells > order * order {
        return Err(LatinGenError::TooMany {
            asked: cells,
            order,
            cells: order * order,
        });
    }
    Ok(())
}

fn check_order(order: usize) -> Result<(), LatinGenError> {
    Shape::latin(order)?;
    if order > MAX_RANDOM_ORDER {
        return Err(LatinGenError::TooLarge(order));
    }
    Ok(())
}

/// A random complete Latin square of order `order` (near-uniform; see the module docs).
///
/// # Errors
/// [`LatinGenError`] for order 0 or above [`MAX_RANDOM_ORDER`].
pub fn random_latin_square(order: usize, rng: &mut impl Rng) -> Result<Grid, LatinGenError> {
    check_order(order)?;
    let mut cube = Cube::cyclic(order);
    if order == 1 {
        // One square only, and no 0 entry for the walk to start from.
        return Ok(cube.to_grid());
    }
    let mut improper = None;
    let moves = order * order * order;
    for _ in 0..moves {
        improper = cube.step(improper, rng);
    }
    while improper.is_some() {
        improper = cube.step(improper, rng);
    }
    Ok(cube.to_grid())
}

/// A quasigroup with holes: a random complete square with `holes` random cells emptied.
///
/// # Errors
/// As [`random_latin_square`], and [`LatinGenError::TooMany`] if `holes > order²`.
pub fn quasigroup_with_holes(
    order: usize,
    holes: usize,
    rng: &mut impl Rng,
) -> Result<Grid, LatinGenError> {
    let cells = order * order;
    if holes > cells {
        return Err(LatinGenError::TooMany {
            asked: holes,
            order,
            cells,
        });
    }
    let mut grid = random_latin_square(order, rng)?;
    let mut all: Vec<usize> = (0..cells).collect();
    all.shuffle(rng);
    for &cell in &all[..holes] {
        grid.set(cell, None);
    }
    Ok(grid)
}

/// A random partial Latin square with `givens` consistent givens, which may not complete: cells
/// are visited in random order and each gets a random value that no given in its row or column
/// holds yet (a cell with no such value stays empty, and the next cell is tried).
///
/// # Errors
/// [`LatinGenError`] for a bad order, [`LatinGenError::TooMany`] if `givens > order²`.
pub fn random_partial(
    order: usize,
    givens: usize,
    rng: &mut impl Rng,
) -> Result<Grid, LatinGenError> {
    check_order(order)?;
    let cells = order * order;
    if givens > cells {
        return Err(LatinGenError::TooMany {
            asked: givens,
            order,
            cells,
        });
    }
    let shape = Shape::latin(order)?;
    let mut grid = Grid::empty(shape);
    let mut row_used = vec![vec![false; order]; order];
    let mut col_used = vec![vec![false; order]; order];
    let mut order_of_cells: Vec<usize> = (0..cells).collect();
    order_of_cells.shuffle(rng);
    let mut placed = 0;
    let mut free = Vec::with_capacity(order);
    for cell in order_of_cells {
        if placed == givens {
            break;
        }
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        free.clear();
        free.extend((0..order).filter(|&v| !row_used[r][v] && !col_used[c][v]));
        if free.is_empty() {
            continue;
        }
        let v = free[rng.random_range(0..free.len())];
        grid.set(cell, Some(v));
        row_used[r][v] = true;
        col_used[c][v] = true;
        placed += 1;
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn random_squares_are_latin_and_seeded() {
        for m in 1..=12 {
            let mut rng = ChaCha8Rng::seed_from_u64(m as u64);
            let square = random_latin_square(m, &mut rng).unwrap();
            assert_eq!(verify(&Grid::empty(square.shape()), &square), Ok(()));
            let mut again = ChaCha8Rng::seed_from_u64(m as u64);
            assert_eq!(random_latin_square(m, &mut again).unwrap(), square);
        }
    }

    #[test]
    fn the_walk_leaves_the_cyclic_square() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let squares: Vec<Grid> = (0..5)
            .map(|_| random_latin_square(6, &mut rng).unwrap())
            .collect();
        let cyclic = Cube::cyclic(6).to_grid();
        assert!(squares.iter().any(|s| *s != cyclic));
        assert!(squares.windows(2).any(|w| w[0] != w[1]));
    }

    #[test]
    fn holes_and_partial_counts() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let qwh = quasigroup_with_holes(7, 20, &mut rng).unwrap();
        assert_eq!(qwh.filled(), 49 - 20);
        let partial = random_partial(7, 15, &mut rng).unwrap();
        assert_eq!(partial.filled(), 15);
        assert!(partial.first_clash().is_none());
        assert!(matches!(
            random_partial(3, 10, &mut rng),
            Err(LatinGenError::TooMany { .. })
        ));
        assert!(matches!(
            random_latin_square(0, &mut rng),
            Err(LatinGenError::Shape(_))
        ));
    }
}
