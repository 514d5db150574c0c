//! The conformance suite every backend runs: the same puzzles, the same questions, every answer
//! checked by the certificate verifier and every count checked against an independent
//! brute-force count (a few lines of plain recursion below, sharing no code with any backend).
//!
//! A backend joins with one line:
//! ```ignore
//! conformance_suite!(native, || Box::new(sudokit::solve::Native));
//! conformance_suite!(backtrack, || Box::new(sudokit::solve::Backtrack), big = false);
//! ```
//! `big = false` skips the hard 9×9 and the 16×16 puzzles, for the exponential textbook methods.

use std::time::Duration;

use sudokit::solve::{Answer, Limits, Outcome, Solver, StopReason, Verified};
use sudokit::text::parse_line;
use sudokit::{Grid, Shape, verify};

/// Instantiates the conformance tests for one backend; see the module docs.
macro_rules! conformance_suite {
    ($name:ident, $make:expr) => {
        conformance_suite!($name, $make, big = true);
    };
    ($name:ident, $make:expr, big = $big:expr) => {
        mod $name {
            use sudokit::solve::Solver;

            fn solver() -> Box<dyn Solver> {
                ($make)()
            }

            #[test]
            fn solves_the_model_puzzles() {
                $crate::conformance::solves_models(solver(), $big);
            }

            #[test]
            fn proves_unsat() {
                $crate::conformance::proves_unsat(solver());
            }

            #[test]
            fn counts_multiple_solutions_exactly() {
                $crate::conformance::counts_exactly(solver());
            }

            #[test]
            fn accepts_a_full_grid() {
                $crate::conformance::full_grid(solver());
            }

            #[test]
            fn honours_limits() {
                $crate::conformance::honours_limits(solver());
            }
        }
    };
}
// Later backends' test files instantiate the suite through this path.
#[allow(unused_imports)]
pub(crate) use conformance_suite;

conformance_suite!(native, || Box::new(sudokit::solve::Native));
conformance_suite!(native_general, || Box::new(sudokit::solve::NativeGeneral));
conformance_suite!(norvig, || Box::new(sudokit::solve::Norvig));
conformance_suite!(fc_mrv, || Box::new(sudokit::solve::FcMrv), big = false);
conformance_suite!(bitwise, || Box::new(sudokit::solve::Bitwise), big = false);
conformance_suite!(cp_hac, || Box::new(sudokit::solve::Cp::default()));
// Plain forward checking is slow on the 16×16 models in a debug build: small cases only.
conformance_suite!(
    cp_fc,
    || Box::new(sudokit::solve::Cp {
        scheme: sudokit::propagate::Scheme::FC
    }),
    big = false
);
conformance_suite!(cp_hacsc3, || Box::new(sudokit::solve::Cp {
    scheme: "HACSC3".parse().unwrap()
}));
conformance_suite!(
    backtrack,
    || Box::new(sudokit::solve::Backtrack),
    big = false
);

fn lines(relative: &str) -> Vec<String> {
    std::fs::read_to_string(crate::common::path(relative))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn grid(line: &str) -> Grid {
    parse_line(line, None).unwrap()
}

/// Number of solutions of `puzzle` by plain recursion, up to `cap`.
pub fn brute_count(puzzle: &Grid, cap: u64) -> u64 {
    fn go(g: &mut Grid, empties: &[usize], cap: u64) -> u64 {
        let Some((&cell, rest)) = empties.split_first() else {
            return 1;
        };
        let shape = g.shape();
        let mut total = 0;
        for v in 0..shape.order() {
            if shape.peers(cell).all(|p| g.get(p) != Some(v)) {
                g.set(cell, Some(v));
                total += go(g, rest, cap - total);
                g.set(cell, None);
                if total >= cap {
                    break;
                }
            }
        }
        total
    }
    if puzzle.first_clash().is_some() {
        return 0;
    }
    let mut g = puzzle.clone();
    let empties: Vec<usize> = (0..puzzle.shape().cells())
        .filter(|&c| puzzle.get(c).is_none())
        .collect();
    go(&mut g, &empties, cap)
}

/// A deterministic stream of puzzles: `k` givens placed by a linear congruential generator.
fn small_puzzles(shape: Shape, givens: usize) -> impl Iterator<Item = Grid> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    std::iter::repeat_with(move || {
        let mut g = Grid::empty(shape);
        while g.filled() < givens {
            let cell = next() % shape.cells();
            let v = next() % shape.order();
            if g.get(cell).is_none() && shape.peers(cell).all(|p| g.get(p) != Some(v)) {
                g.set(cell, Some(v));
            }
        }
        g
    })
}

/// The first generated puzzle whose brute-force count is exactly `count`.
fn puzzle_with_count(shape: Shape, givens: usize, count: u64) -> Grid {
    small_puzzles(shape, givens)
        .take(20_000)
        .find(|g| brute_count(g, count + 1) == count)
        .unwrap_or_else(|| panic!("no {shape} puzzle with {givens} givens has {count} solutions"))
}

fn expect_solved(solver: &dyn Solver, puzzle: &Grid) -> Grid {
    let report = solver.solve(puzzle, &Limits::none()).unwrap();
    match report.answer {
        Answer::Solved(g) => {
            assert_eq!(verify(puzzle, &g), Ok(()), "{}", solver.name());
            g
        }
        other => panic!("{}: {other:?} on {:?}", solver.name(), puzzle),
    }
}

pub fn solves_models(solver: Box<dyn Solver>, big: bool) {
    let solver = Verified(solver);
    let mut files = vec![
        ("models/sudoku/4x4/kr_4x4_sample.txt", 10),
        ("models/sudoku/6x6/puzzles.txt", 10),
        ("models/sudoku/9x9/easy.txt", 10),
    ];
    if big {
        files.push(("models/sudoku/9x9/hard.txt", 3));
        files.push(("models/sudoku/16x16/kr_16x16_sample.txt", 5));
    }
    for (file, take) in files {
        for line in lines(file).iter().take(take) {
            let puzzle = grid(line);
            let solution = expect_solved(&solver, &puzzle);
            // The model puzzles are well posed: uniqueness and a count agree.
            match solver.unique(&puzzle, &Limits::none()).unwrap().outcome {
                Outcome::Unique(g) => assert_eq!(g, solution, "{file}"),
                other => panic!("{file}: {other:?}"),
            }
        }
    }
    // Counts of the small models agree with brute force.
    for file in [
        "models/sudoku/4x4/kr_4x4_sample.txt",
        "models/sudoku/6x6/puzzles.txt",
    ] {
        for line in lines(file) {
            let puzzle = grid(&line);
            let report = solver.count(&puzzle, 100, &Limits::none()).unwrap();
            assert_eq!(report.count, brute_count(&puzzle, 100), "{file}: {line}");
        }
    }
}

pub fn proves_unsat(solver: Box<dyn Solver>) {
    let solver = Verified(solver);
    // Clashing givens: a row (4×4), a box (6×6), a column (9×9).
    let mut row = Grid::empty(Shape::sudoku(2, 2).unwrap());
    row.set(0, Some(1));
    row.set(3, Some(1));
    let mut boxed = Grid::empty(Shape::sudoku(2, 3).unwrap());
    boxed.set(0, Some(4));
    boxed.set(6 + 2, Some(4));
    let mut column = grid(&lines("models/sudoku/9x9/easy.txt")[0]);
    let shape = column.shape();
    let (r, c) = (0..81)
        .map(|i| (i / 9, i % 9))
        .find(|&(r, c)| column.at(r, c).is_some())
        .unwrap();
    let v = column.at(r, c).unwrap();
    let other_row = (0..9)
        .find(|&i| i / 3 != r / 3 && column.at(i, c).is_none())
        .unwrap();
    column.set(shape.cell(other_row, c), Some(v));
    for puzzle in [row, boxed, column] {
        assert!(puzzle.first_clash().is_some());
        let report = solver.solve(&puzzle, &Limits::none()).unwrap();
        assert_eq!(report.answer, Answer::Unsat, "{}", solver.name());
        assert_eq!(
            solver.unique(&puzzle, &Limits::none()).unwrap().outcome,
            Outcome::Unsat
        );
    }
    // Unsat without a clash, and with a candidate left in every cell: only search refutes it.
    for (shape, givens) in [
        (Shape::sudoku(2, 2).unwrap(), 5),
        (Shape::sudoku(2, 3).unwrap(), 10),
        (Shape::latin(5).unwrap(), 7),
    ] {
        let puzzle = small_puzzles(shape, givens)
            .take(20_000)
            .find(|g| brute_count(g, 1) == 0 && every_cell_has_a_candidate(g))
            .unwrap_or_else(|| panic!("no unsat {shape} puzzle found"));
        let report = solver.count(&puzzle, u64::MAX, &Limits::none()).unwrap();
        assert_eq!((report.count, report.complete()), (0, true), "{puzzle:?}");
        assert_eq!(
            solver.solve(&puzzle, &Limits::none()).unwrap().answer,
            Answer::Unsat
        );
    }
}

fn every_cell_has_a_candidate(g: &Grid) -> bool {
    let shape = g.shape();
    (0..shape.cells()).all(|cell| {
        g.get(cell).is_some()
            || (0..shape.order()).any(|v| shape.peers(cell).all(|p| g.get(p) != Some(v)))
    })
}

pub fn counts_exactly(solver: Box<dyn Solver>) {
    counts_exactly_up_to(solver, u64::MAX);
}

/// [`counts_exactly`] on the cases with at most `max` solutions: for backends that count by
/// re-solving once per solution with one more cut (the MIP backends), whose cost grows with the
/// square of the count, the empty 4×4 grid (288) and Latin square (576) are left out.
pub fn counts_exactly_up_to(solver: Box<dyn Solver>, max: u64) {
    let solver = Verified(solver);
    let four = Shape::sudoku(2, 2).unwrap();
    let cases = [
        puzzle_with_count(four, 5, 2),
        puzzle_with_count(four, 4, 3),
        puzzle_with_count(four, 4, 10),
        puzzle_with_count(Shape::latin(4).unwrap(), 3, 16),
        puzzle_with_count(four, 2, 24),
        Grid::empty(four),
        Grid::empty(Shape::latin(4).unwrap()),
        Grid::empty(Shape::sudoku(1, 3).unwrap()),
    ];
    for puzzle in &cases {
        let expected = brute_count(puzzle, u64::MAX);
        if expected > max {
            continue;
        }
        let all = solver.count(puzzle, u64::MAX, &Limits::none()).unwrap();
        assert_eq!(all.count, expected, "{} on {puzzle:?}", solver.name());
        assert!(all.complete());
        assert!(all.solutions.len() == 2.min(expected as usize));
        // A limit below the count stops exactly there.
        let capped = solver.count(puzzle, 2, &Limits::none()).unwrap();
        assert_eq!(capped.count, 2);
        assert!(capped.hit_limit && !capped.complete());
        match solver.unique(puzzle, &Limits::none()).unwrap().outcome {
            Outcome::Multiple(a, b) => {
                assert_ne!(a, b);
                assert_eq!(verify(puzzle, &a), Ok(()));
                assert_eq!(verify(puzzle, &b), Ok(()));
            }
            other => panic!("{}: {other:?}", solver.name()),
        }
    }
    assert_eq!(brute_count(&Grid::empty(four), u64::MAX), 288);
}

pub fn full_grid(solver: Box<dyn Solver>) {
    let solver = Verified(solver);
    for file in [
        "models/sudoku/4x4/kr_4x4_sample.solutions.txt",
        "models/sudoku/9x9/easy.solutions.txt",
    ] {
        let full = grid(&lines(file)[0]);
        assert_eq!(expect_solved(&solver, &full), full);
        assert_eq!(
            solver.unique(&full, &Limits::none()).unwrap().outcome,
            Outcome::Unique(full.clone())
        );
        assert_eq!(solver.count(&full, 5, &Limits::none()).unwrap().count, 1);
    }
}

pub fn honours_limits(solver: Box<dyn Solver>) {
    let solver = Verified(solver);
    let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
    let nodes = Limits::nodes(50);
    let report = solver.count(&empty, u64::MAX, &nodes).unwrap();
    assert_eq!(
        report.stopped,
        Some(StopReason::NodeLimit),
        "{}",
        solver.name()
    );
    assert!(!report.complete());
    assert!(report.stats.nodes <= 51);
    let outcome = solver.unique(&empty, &nodes).unwrap().outcome;
    assert!(
        matches!(
            outcome,
            Outcome::Multiple(..) | Outcome::Unknown(StopReason::NodeLimit)
        ),
        "{outcome:?}"
    );
    // A time budget on a count of the 9×9 grids (6.7·10²¹ of them) runs out, promptly.
    let start = std::time::Instant::now();
    let report = solver
        .count(&empty, u64::MAX, &Limits::time(Duration::from_millis(20)))
        .unwrap();
    assert_eq!(report.stopped, Some(StopReason::TimeLimit));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
