//! Sweeps of a puzzle reduction: the orbits ahead of the pass are tested against the puzzle as
//! it is now, so that those already needed are known before the pass reaches them.
//!
//! # Method
//! Whether an orbit is *needed* (the puzzle without it has a second solution) is monotone along
//! a reduction: a second solution of P \ o solves every P' \ o with P' ⊆ P, and the pass only
//! removes givens. So an orbit found needed against the puzzle of some moment is kept when the
//! pass reaches it, whatever was removed in between, and its own test can be skipped; the puzzle
//! is exactly the one of the pass without sweeps.
//!
//! The point is the price. Near the end of a 25×25 reduction almost every test is a search for a
//! second solution, and that search costs more the fewer givens the puzzle has: on one trace it
//! took about 0.004 s per test at 300 or more givens, 0.03 s at 290–299, 0.06 s at 270–289 and
//! 0.09 s below 270 (fifteenfold on a harder grid). Most givens of the final puzzle are already
//! needed well before the pass reaches them, so a sweep finds their second solutions where they
//! are cheap. The price of a sweep is its other answers: an orbit that is still removable is
//! tested for nothing (the pass tests it again on its turn), and that refutation is not always
//! cheap. The reduction therefore sweeps only from order [`SWEEP_FROM_ORDER`] on (below, the
//! tests are cheap either way), only while it removes one orbit at a time (the hard region),
//! and each time the puzzle has lost [`sweep_interval`] more givens, over the orbits ahead not
//! yet known needed. On 25×25 this divides the CPU time of a reduction by 1.35 to 2.9 (median
//! 1.8, five seeds; figures in `BENCHMARKS.md`).
//!
//! The tests of a sweep are independent, so the lanes of the reduction share them: each takes
//! the next orbit as soon as it is free.
//!
//! # Complexity
//! A sweep runs one removal test per orbit ahead that is not yet known needed (at most the
//! number of orbits), on as many threads as there are removal tests. With sweeps every d givens
//! over a hard region of h givens, at most about h/d sweeps.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::progress::Tracker;
use super::well_posed::RemovalTest;
use crate::grid::Grid;

/// From this order on the reduction sweeps. On 16×16 and 20×20 reductions sweeps cost about
/// as much as they save (their tests are cheap either way); on 24×24 they were 1.9× faster on
/// one seed and 1.3× slower on another, on 25×25 1.35× to 2.9× faster on five seeds (figures in
/// `BENCHMARKS.md`).
pub const SWEEP_FROM_ORDER: usize = 24;

/// The number of givens the puzzle loses between two sweeps, for order n: 2n/5, rounded up
/// (10 for 25×25). Chosen on 25×25 reductions: every 5 or every 20 givens was slower (figures in
/// `BENCHMARKS.md`).
pub fn sweep_interval(order: usize) -> usize {
    (2 * order).div_ceil(5).max(1)
}

/// Tests every orbit of `order` not marked in `needed` against `puzzle` (well posed with
/// solution `solution`; every cell of those orbits given) and marks those whose removal loses
/// uniqueness. The tests run on the threads of `tests`, one each, and are counted by `tracker`.
/// Returns how many were marked.
pub(crate) fn sweep(
    puzzle: &Grid,
    solution: &Grid,
    order: &[&[usize]],
    needed: &mut [bool],
    tests: &mut [&mut RemovalTest],
    tracker: &Tracker,
) -> usize {
    debug_assert_eq!(needed.len(), order.len());
    let givens = puzzle.filled();
    let ahead: Vec<usize> = (0..order.len()).filter(|&j| !needed[j]).collect();
    let next = AtomicUsize::new(0);
    // One lane: test the orbits of `ahead` taken from `next` until none is left; returns those
    // found needed.
    let lane = |test: &mut RemovalTest| {
        let mut without = puzzle.clone();
        let mut found = Vec::new();
        loop {
            if tracker.cancelled() {
                return found;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&j) = ahead.get(i) else {
                return found;
            };
            for &c in order[j] {
                without.set(c, None);
            }
            if !test.still_unique(&without, solution, order[j]) {
                found.push(j);
            }
            tracker.tested(givens);
            for &c in order[j] {
                without.set(c, puzzle.get(c));
            }
        }
    };
    let found: Vec<usize> = match tests {
        [] => panic!("a sweep needs a removal test"),
        [only] => lane(only),
        _ => std::thread::scope(|scope| {
            let threads: Vec<_> = tests
                .iter_mut()
                .map(|test| scope.spawn(|| lane(test)))
                .collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().expect("a lane of the sweep panicked"))
                .collect()
        }),
    };
    for &j in &found {
        needed[j] = true;
    }
    found.len()
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;

    use super::*;
    use crate::generate::puzzle::puzzle_rng;
    use crate::generate::random_grid::random_grid;
    use crate::generate::well_posed::UniquenessEngine;
    use crate::shape::Shape;

    #[test]
    fn a_sweep_marks_exactly_the_needed_orbits() {
        // A 9×9 grid halfway reduced: the sweep's marks must agree with a test of each orbit
        // on its own, for one and for two lanes.
        let shape = Shape::sudoku(3, 3).unwrap();
        for seed in 0..4 {
            let mut rng = puzzle_rng(seed, 0);
            let solution = random_grid(&Grid::empty(shape), &mut rng).unwrap().unwrap();
            let mut cells: Vec<usize> = (0..81).collect();
            cells.shuffle(&mut rng);
            let mut test = RemovalTest::new(shape, UniquenessEngine::Sat);
            let mut puzzle = solution.clone();
            for &c in &cells[..40] {
                puzzle.set(c, None);
                if !test.still_unique(&puzzle, &solution, &[c]) {
                    puzzle.set(c, solution.get(c));
                }
            }
            let rest: Vec<[usize; 1]> = cells[40..].iter().map(|&c| [c]).collect();
            let order: Vec<&[usize]> = rest.iter().map(|c| c.as_slice()).collect();
            let truth: Vec<bool> = order
                .iter()
                .map(|orbit| {
                    let mut without = puzzle.clone();
                    without.set(orbit[0], None);
                    !test.still_unique(&without, &solution, orbit)
                })
                .collect();
            assert!(truth.iter().any(|&t| t) && truth.iter().any(|&t| !t));
            for lanes in [1, 2] {
                let mut tests: Vec<RemovalTest> = (0..lanes)
                    .map(|_| RemovalTest::new(shape, UniquenessEngine::Sat))
                    .collect();
                let mut refs: Vec<&mut RemovalTest> = tests.iter_mut().collect();
                // One orbit known needed beforehand stays marked and is not counted.
                let known = truth.iter().position(|&t| t).unwrap();
                let mut needed = vec![false; order.len()];
                needed[known] = true;
                let tracker = Tracker::new(None);
                let found = sweep(&puzzle, &solution, &order, &mut needed, &mut refs, &tracker);
                assert_eq!(tracker.tests(), order.len() as u64 - 1);
                assert_eq!(needed, truth, "seed {seed}, {lanes} lanes");
                assert_eq!(found, truth.iter().filter(|&&t| t).count() - 1);
            }
        }
    }

    #[test]
    fn the_interval_grows_with_the_order() {
        assert_eq!(sweep_interval(1), 1);
        assert_eq!(sweep_interval(16), 7);
        assert_eq!(sweep_interval(25), 10);
        assert_eq!(sweep_interval(36), 15);
    }
}
