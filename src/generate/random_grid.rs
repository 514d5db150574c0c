//! Random complete grids by randomized search: any shape up to order 128.
//!
//! # Method
//! Depth-first search on bitset candidates (one `u128` per cell) from the empty grid (or from
//! given cells): the cell with the fewest candidates is chosen (ties broken at random among the
//! first few found), its value drawn uniformly among its candidates, and the value removed from
//! its peers, cells left with one candidate being assigned in turn (forward checking with naked
//! singles). A dead end backtracks through a trail of `(cell, old candidates)`, so nothing is
//! copied per node. After a number of nodes that follows the Luby sequence (times n²) the search
//! restarts with fresh random choices: wrong early choices on large grids make the run time
//! heavy-tailed, and restarts cut the tail. The solver is kept separate from the `native`
//! backend, whose value order is fixed so that its answers are deterministic.
//!
//! # Uniformity
//! The grids are **not** exactly uniform. A randomized search gives each grid the product of the
//! probabilities of the choices on its path (1/k at a cell with k candidates), so grids below a
//! choice with few completions are more likely than grids below one with many; dead ends and
//! restarts shift the weights again. Unlike [`super::symmetry::random_pattern_grid`] it is not
//! confined to one orbit of the symmetry group: every grid has a positive probability. (Exact
//! uniform sampling would need the count of completions below every choice, which is #P-hard in
//! general; for 9×9 it can be approached by sampling grids and transforming them.)
//!
//! # Complexity
//! Per node: O(n²) to find the cell (a scan), O(peers) = O(n) to propagate an assignment. Empty
//! grids up to 36×36 are filled in about n² nodes, with few restarts; the problem (completing a
//! partial grid) is NP-complete in general, so the worst case is exponential.
//!
//! # References
//! - C. P. Gomes, B. Selman, H. Kautz, "Boosting combinatorial search through randomization",
//!   AAAI 1998 (randomized value order and restarts against heavy tails).
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", *Information
//!   Processing Letters* 47 (1993) (the restart schedule).
//!
//! # Examples
//! ```
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//! use sudokit::generate::random_grid::random_grid;
//! use sudokit::{Grid, Shape, verify};
//! let shape = Shape::sudoku(3, 3).unwrap();
//! let grid = random_grid(&Grid::empty(shape), &mut ChaCha8Rng::seed_from_u64(1)).unwrap().unwrap();
//! assert_eq!(verify(&Grid::empty(shape), &grid), Ok(()));
//! ```

use rand::Rng;

use crate::grid::Grid;
use crate::shape::Shape;
use crate::solve::luby::luby;

/// The largest order the randomized search handles (one `u128` of candidates per cell).
pub const MAX_RANDOM_GRID_ORDER: usize = 128;

/// Why no random grid could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RandomGridError {
    /// The order is above [`MAX_RANDOM_GRID_ORDER`].
    #[error("random grids by search are made up to order {MAX_RANDOM_GRID_ORDER}, not {0}")]
    TooLarge(usize),
}

/// A uniformly drawn value among the set bits of `mask` (not zero).
fn random_bit<R: Rng + ?Sized>(mask: u128, rng: &mut R) -> usize {
    let k = below(rng, mask.count_ones() as u64) as u32;
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A uniform number below `bound` (> 0), by Lemire's multiply-shift (the bias is below 2⁻³²
/// for the small bounds used here).
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, bound: u64) -> u64 {
    ((rng.next_u64() as u128 * bound as u128) >> 64) as u64
}

/// A choice point: the cell, the values not tried yet, the trail length to return to.
struct Frame {
    cell: u32,
    rest: u128,
    mark: usize,
}

/// The search state for one shape.
struct Search {
    n: usize,
    /// The peers of cell `c`: `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    cand: Vec<u128>,
    trail: Vec<(u32, u128)>,
    queue: Vec<u32>,
    frames: Vec<Frame>,
}

impl Search {
    fn new(shape: Shape) -> Search {
        let cells = shape.cells();
        let mut peers = Vec::with_capacity(cells * shape.peer_count());
        let mut peer_start = vec![0u32];
        for cell in 0..cells {
            peers.extend(shape.peers(cell).map(|c| c as u32));
            peer_start.push(peers.len() as u32);
        }
        Search {
            n: shape.order(),
            peer_start,
            peers,
            cand: vec![0; cells],
            trail: Vec::with_capacity(cells * 4),
            queue: Vec::with_capacity(cells),
            frames: Vec::with_capacity(cells),
        }
    }

    /// Resets to the givens and propagates; false if they contradict.
    fn load(&mut self, start: &Grid) -> bool {
        let full = if self.n == 128 {
            u128::MAX
        } else {
            (1u128 << self.n) - 1
        };
        self.cand.fill(full);
        self.trail.clear();
        self.queue.clear();
        self.frames.clear();
        for (cell, v) in start.givens() {
            if self.cand[cell] & (1 << v) == 0 {
                return false;
            }
            self.cand[cell] = 1 << v;
            self.queue.push(cell as u32);
        }
        for cell in 0..self.cand.len() {
            if self.cand[cell].count_ones() == 1 && start.get(cell).is_none() {
                self.queue.push(cell as u32);
            }
        }
        let ok = self.propagate();
        self.trail.clear();
        ok
    }

    /// Removes the value of each queued single cell from its peers; false on a wipe-out.
    fn propagate(&mut self) -> bool {
        while let Some(cell) = self.queue.pop() {
            let bit = self.cand[cell as usize];
            let (start, end) = (
                self.peer_start[cell as usize] as usize,
                self.peer_start[cell as usize + 1] as usize,
            );
            for i in start..end {
                let p = self.peers[i] as usize;
                let old = self.cand[p];
                if old & bit != 0 {
                    let new = old & !bit;
                    self.trail.push((p as u32, old));
                    self.cand[p] = new;
                    if new == 0 {
                        return false;
                    }
                    if new & (new - 1) == 0 {
                        self.queue.push(p as u32);
                    }
                }
            }
        }
        true
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (cell, old) = self.trail.pop().expect("longer than mark");
            self.cand[cell as usize] = old;
        }
        self.queue.clear();
    }

    /// An open cell with the fewest candidates (a random one among the first ties), if any.
    fn choose<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        let mut best = u32::MAX;
        let mut ties = [0usize; 4];
        let mut found = 0;
        for (cell, &m) in self.cand.iter().enumerate() {
            let k = m.count_ones();
            if k < 2 || k > best {
                continue;
            }
            if k < best {
                best = k;
                found = 0;
            }
            if found < ties.len() {
                ties[found] = cell;
                found += 1;
            }
        }
        (found > 0).then(|| ties[below(rng, found as u64) as usize])
    }

    /// One run of at most `budget` nodes: Some(true) on a complete grid, Some(false) when the
    /// tree is exhausted, None when the budget ran out.
    fn run<R: Rng + ?Sized>(&mut self, budget: u64, rng: &mut R) -> Option<bool> {
        let mut nodes = 0u64;
        'node: loop {
            match self.choose(rng) {
                None => return Some(true),
                Some(cell) => self.frames.push(Frame {
                    cell: cell as u32,
                    rest: self.cand[cell],
                    mark: self.trail.len(),
                }),
            }
            loop {
                let Some(frame) = self.frames.last_mut() else {
                    return Some(false);
                };
                if frame.rest == 0 {
                    self.frames.pop();
                    continue;
                }
                let v = random_bit(frame.rest, rng);
                frame.rest &= !(1 << v);
                let (cell, mark) = (frame.cell as usize, frame.mark);
                self.undo(mark);
                nodes += 1;
                if nodes > budget {
                    return None;
                }
                self.trail.push((cell as u32, self.cand[cell]));
                self.cand[cell] = 1 << v;
                self.queue.push(cell as u32);
                if self.propagate() {
                    continue 'node;
                }
            }
        }
    }

    fn grid(&self, shape: Shape) -> Grid {
        let mut grid = Grid::empty(shape);
        for (cell, m) in self.cand.iter().enumerate() {
            grid.set(cell, Some(m.trailing_zeros() as usize));
        }
        grid
    }
}

/// A random completion of `start` (the empty grid for a random complete grid), or `None` when
/// it has none. See the module docs for the method and why it is not exactly uniform.
///
/// # Errors
/// [`RandomGridError::TooLarge`] above order 128.
pub fn random_grid<R: Rng + ?Sized>(
    start: &Grid,
    rng: &mut R,
) -> Result<Option<Grid>, RandomGridError> {
    let shape = start.shape();
    if shape.order() > MAX_RANDOM_GRID_ORDER {
        return Err(RandomGridError::TooLarge(shape.order()));
    }
    let mut search = Search::new(shape);
    let unit = shape.cells() as u64;
    for run in 1.. {
        if !search.load(start) {
            return Ok(None);
        }
        match search.run(unit.saturating_mul(luby(run)), rng) {
            Some(true) => return Ok(Some(search.grid(shape))),
            Some(false) => return Ok(None),
            None => {}
        }
    }
    unreachable!("the restart loop only ends by returning")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn fills_empty_grids_of_many_shapes() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for (p, q) in [(1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (2, 7)] {
            let shape = Shape::sudoku(p, q).unwrap();
            let empty = Grid::empty(shape);
            for _ in 0..5 {
                let grid = random_grid(&empty, &mut rng).unwrap().unwrap();
                assert_eq!(verify(&empty, &grid), Ok(()), "{shape}");
            }
        }
        let latin = Grid::empty(Shape::latin(7).unwrap());
        let grid = random_grid(&latin, &mut rng).unwrap().unwrap();
        assert_eq!(verify(&latin, &grid), Ok(()));
    }

    #[test]
    fn completes_givens_and_detects_no_completion() {
        let shape = Shape::sudoku(2, 2).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let start = crate::text::parse_line("1...............", None).unwrap();
        let grid = random_grid(&start, &mut rng).unwrap().unwrap();
        assert_eq!(verify(&start, &grid), Ok(()));
        // Givens that clash (two 1s in the last column) have no completion.
        let stuck = crate::text::parse_line("....1.....1....1", None).unwrap();
        let mut cells: Vec<Option<usize>> = (0..16).map(|c| stuck.get(c)).collect();
        cells[3] = Some(0);
        let stuck = Grid::from_cells(shape, &cells);
        assert_eq!(random_grid(&stuck, &mut rng).unwrap(), None);
    }

    #[test]
    fn grids_vary_with_the_seed_and_repeat_with_it() {
        let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
        let a = random_grid(&empty, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        let b = random_grid(&empty, &mut ChaCha8Rng::seed_from_u64(2)).unwrap();
        let a2 = random_grid(&empty, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, a2);
    }
}
