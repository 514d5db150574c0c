//! The 9×9 engine of `native` (3×3 boxes only): candidates kept per value and per **band** of
//! three rows, 27 bits to a word, with the band rules as table look-ups on one word and the rules
//! across values and bands as vector operations on all words at once, and a search that branches
//! on the **configurations** of a value in a band or a stack (which box takes it in each row,
//! which column in each box) rather than on cells.
//!
//! # Parts
//! - [`board`]: the band words (their layout) and the state of a search node;
//! - [`propagate`]: three tiers of rules to a fixpoint: the band rules per word (JCZSolve's
//!   design) and naked singles, then the triad rules in vectors ([`triads`], tdoku's
//!   cardinality constraints), written with the band geometry of [`geometry`];
//! - [`branch`]: the branch on a value's configurations in the band or stack with the fewest;
//! - [`search`]: depth-first search and counting, the engine's entry ([`search::count_with`]);
//! - [`lanes`] and [`simd`]: the vectors, and the choice of their implementation at run time;
//! - [`tables`]: the constant tables of the band rules and the configurations.
//!
//! Measured on the first 10,000 puzzles of `forum_hardest_1905_11plus` (first solution,
//! guesses per puzzle; tdoku 35.0): the band rules with cell branching, 61.3; branching on
//! configurations, 48.0; with stack configurations, 45.1; with minirows, 40.0; with minicolumns
//! too, 35.7 (counting to two: 63.7 against tdoku's 63.9). Each rule costs less time than the
//! nodes it saves.
//!
//! # Vectors
//! The change detection of tier 1 and the whole of tier 3 and of the branch choice are written
//! once over [`lanes::Lanes`] and compiled for each implementation: AVX2 when the CPU has it
//! (chosen at run time, [`simd`]), SSE2 otherwise on x86-64, plain arrays elsewhere. The rules
//! of tier 1 stay scalar: each is a few table look-ups on one word. The engine gets the proof
//! that the CPU runs its implementation ([`lanes::Lanes::Token`]) with the puzzle and makes
//! its first vectors with it.

mod board;
mod branch;
mod geometry;
mod lanes;
mod propagate;
mod search;
// The crate's one module with `unsafe` (see the crate docs).
#[allow(unsafe_code)]
pub(crate) mod simd;
mod tables;
mod triads;

use crate::shape::Shape;

/// Whether the engine handles `shape`: 9×9 with 3×3 boxes, no region map and no extra unit
/// (its bands are the boxes').
pub(crate) fn fits(shape: Shape) -> bool {
    shape.order() == 9 && !shape.is_latin() && shape.box_rows() == 3 && shape.has_box_geometry()
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::simd::{self, SimdLevel, levels};
    use crate::grid::Grid;
    use crate::search::{Budget, CountReport, StopReason};
    use crate::shape::Shape;
    use crate::solve::{Limits, NativeGeneral, Solver};
    use crate::text::parse_line;

    fn nine() -> Shape {
        Shape::sudoku(3, 3).unwrap()
    }

    fn on(level: SimdLevel, puzzle: &Grid, limit: u64) -> CountReport {
        simd::count(level, puzzle, limit, &Budget::start(&Limits::none()))
    }

    fn ours(puzzle: &Grid, limit: u64) -> CountReport {
        on(SimdLevel::Portable, puzzle, limit)
    }

    fn general(puzzle: &Grid, limit: u64) -> CountReport {
        NativeGeneral.count(puzzle, limit, &Limits::none()).unwrap()
    }

    /// Checks that every implementation of the lanes agrees with the general engine on the
    /// count, that every solution kept is one, and that the implementations do the same search.
    fn agree(puzzle: &Grid, limit: u64) {
        let g = general(puzzle, limit);
        let mut first: Option<CountReport> = None;
        for level in levels() {
            let a = on(level, puzzle, limit);
            assert_eq!(a.count, g.count, "{level:?} {puzzle:?}");
            assert_eq!(a.hit_limit, g.hit_limit, "{level:?}");
            assert_eq!(a.solutions.len(), a.count.min(2) as usize);
            for s in &a.solutions {
                assert_eq!(crate::verify(puzzle, s), Ok(()));
            }
            if a.solutions.len() == 2 {
                assert_ne!(a.solutions[0], a.solutions[1]);
            }
            match &first {
                None => first = Some(a),
                Some(f) => {
                    assert_eq!(a.solutions, f.solutions, "{level:?}");
                    assert_eq!(
                        (a.stats.nodes, a.stats.guesses, a.stats.propagations),
                        (f.stats.nodes, f.stats.guesses, f.stats.propagations),
                        "{level:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn solves_and_counts_known_puzzles() {
        let puzzle = parse_line(
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            None,
        )
        .unwrap();
        let report = ours(&puzzle, 2);
        assert_eq!(report.count, 1);
        assert!(!report.hit_limit);
        assert_eq!(crate::verify(&puzzle, &report.solutions[0]), Ok(()));
        agree(&puzzle, 2);
        // Clashing givens.
        let clash = parse_line(&format!("11{}", ".".repeat(79)), None).unwrap();
        for level in levels() {
            assert_eq!(on(level, &clash, 2).count, 0);
        }
        // Every cell given.
        let full = report.solutions[0].clone();
        let r = ours(&full, 2);
        assert_eq!((r.count, r.stats.guesses), (1, 0));
    }

    #[test]
    fn guesses_stay_within_a_fifth_of_tdokus() {
        // The first 40 puzzles of the repository's forum_hardest_1905_11plus sample. tdoku's
        // library (`SolveSudoku`, its `num_guesses`) makes 1568 guesses on them for first
        // solutions and 2568 counting to two (measured with tdoku built as its README says).
        let text = include_str!("../../models/sudoku/9x9/forum_hardest_11plus_sample.txt");
        let puzzles: Vec<Grid> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(40)
            .map(|l| parse_line(l, None).unwrap())
            .collect();
        for (limit, tdoku) in [(1, 1568), (2, 2568)] {
            let guesses: u64 = puzzles
                .iter()
                .map(|p| {
                    simd::count_best(p, limit, &Budget::start(&Limits::none()))
                        .stats
                        .guesses
                })
                .sum();
            assert!(guesses * 5 <= tdoku * 6, "limit {limit}: {guesses} guesses");
        }
        for p in &puzzles[..5] {
            agree(p, 2);
        }
    }

    #[test]
    fn counts_like_the_general_engine_on_random_puzzles() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let empty = Grid::empty(nine());
        for round in 0..60 {
            // A random solution: solve a grid seeded with a few random values.
            let mut seed = empty.clone();
            let mut cells: Vec<usize> = (0..81).collect();
            cells.shuffle(&mut rng);
            for &c in &cells[..8] {
                seed.set(c, Some(rng.random_range(0..9)));
            }
            let Some(solution) = ours(&seed, 1).solutions.first().cloned() else {
                agree(&seed, 3);
                continue;
            };
            // Keep between 18 and 40 of its values: unique or multi-solution puzzles.
            cells.shuffle(&mut rng);
            let keep = 18 + round % 23;
            let mut puzzle = empty.clone();
            for &c in &cells[..keep] {
                puzzle.set(c, solution.get(c));
            }
            agree(&puzzle, 1);
            agree(&puzzle, 2);
            agree(&puzzle, 50);
            // One more random given, often making it unsatisfiable.
            let c = cells[keep];
            puzzle.set(c, Some(rng.random_range(0..9)));
            agree(&puzzle, 10);
        }
    }

    #[test]
    fn counts_multi_solution_puzzles_exactly() {
        // Two rows swapped inside a band keep a grid valid: removing the cells where they
        // differ leaves a puzzle with at least two solutions.
        let solution = ours(&Grid::empty(nine()), 1).solutions[0].clone();
        let mut puzzle = solution.clone();
        for c in 0..9 {
            puzzle.set(c, None);
            puzzle.set(9 + c, None);
        }
        agree(&puzzle, u64::MAX);
        // Sparse grids with many solutions, counted to a limit.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..5 {
            let mut puzzle = solution.clone();
            for c in 0..81 {
                if rng.random_bool(0.75) {
                    puzzle.set(c, None);
                }
            }
            agree(&puzzle, 500);
        }
    }

    #[test]
    fn a_node_limit_stops_the_count() {
        let limits = Limits::nodes(5);
        for level in levels() {
            let report = simd::count(
                level,
                &Grid::empty(nine()),
                u64::MAX,
                &Budget::start(&limits),
            );
            assert_eq!(report.stopped, Some(StopReason::NodeLimit));
            assert_eq!(report.stats.nodes, 6);
        }
    }
}
