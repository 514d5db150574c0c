//! The `grasp` backend: a heuristic, so only the parts of the conformance suite that a heuristic
//! can pass apply.
//!
//! Its rows in the conformance table run the `Heuristic` profile. The full suite does not fit:
//! `proves_unsat` wants `Unsat` and
//! `counts_exactly` wants complete counts, which an incomplete search can never give, and
//! `solves_models` and `full_grid` want `unique` to answer `Unique`, which it can never prove.
//! `grasp` answers `Unknown` there by design (see the module docs of `sudokit::solve::grasp`).
//! What applies is run here: the model puzzles are solved (every grid verified), the limits are
//! honoured (the suite's own `honours_limits`), and on top of that the heuristic's contract:
//! never `Unsat`, never `Unique`, never a complete count, and the same seed gives the same run.

use sudokit::propagate::Scheme;
use sudokit::solve::grasp::GraspOptions;
use sudokit::solve::{Answer, Grasp, Limits, Outcome, Solver, StopReason, Verified, backend};
use sudokit::text::parse_line;
use sudokit::{Grid, Shape, verify};

use crate::common::{run, stderr, stdout};

fn lines(relative: &str) -> Vec<String> {
    std::fs::read_to_string(crate::common::path(relative))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn nodes(n: u64) -> Limits {
    Limits::nodes(n)
}

const MODELS: [&str; 3] = [
    "models/sudoku/4x4/kr_4x4_sample.txt",
    "models/sudoku/6x6/puzzles.txt",
    "models/sudoku/9x9/easy.txt",
];

/// Both the plain method and the one with pre-propagation, through the registry's wrapper.
fn variants() -> Vec<Box<dyn Solver>> {
    vec![
        backend("grasp").unwrap(),
        backend("grasp:pre=FCI,seed=3").unwrap(),
        Box::new(Verified(Grasp::new(GraspOptions {
            alpha: 4,
            seed: 11,
            ..GraspOptions::default()
        }))),
    ]
}

#[test]
fn solves_the_model_puzzles() {
    for solver in variants() {
        for file in MODELS {
            for line in lines(file) {
                let puzzle = parse_line(&line, None).unwrap();
                match solver.solve(&puzzle, &Limits::none()).unwrap().answer {
                    Answer::Solved(g) => assert_eq!(verify(&puzzle, &g), Ok(()), "{file}"),
                    other => panic!("{}: {other:?} on {file}: {line}", solver.name()),
                }
            }
        }
    }
}

#[test]
fn never_answers_unsat_or_unique() {
    let solver = backend("grasp").unwrap();
    // Well-posed models: solved, but uniqueness stays unknown and a count is never complete.
    for file in MODELS {
        let puzzle = parse_line(&lines(file)[0], None).unwrap();
        let outcome = solver.unique(&puzzle, &nodes(3000)).unwrap().outcome;
        assert_eq!(outcome, Outcome::Unknown(StopReason::NodeLimit), "{file}");
        let report = solver.count(&puzzle, u64::MAX, &nodes(3000)).unwrap();
        assert_eq!(report.count, 1, "{file}");
        assert!(!report.complete(), "{file}");
    }
    // Clashing givens in a row, and an unsat 4×4 without a clash: unknown, never unsat.
    let mut clash = Grid::empty(Shape::sudoku(2, 2).unwrap());
    clash.set(0, Some(1));
    clash.set(3, Some(1));
    let refuted = parse_line("..124...........", None).unwrap();
    for puzzle in [clash, refuted] {
        for solver in variants() {
            let answer = solver.solve(&puzzle, &nodes(2000)).unwrap().answer;
            assert_eq!(answer, Answer::Unknown(StopReason::NodeLimit), "{puzzle:?}");
            let outcome = solver.unique(&puzzle, &nodes(2000)).unwrap().outcome;
            assert_eq!(outcome, Outcome::Unknown(StopReason::NodeLimit));
            let timed = Limits::time(std::time::Duration::from_millis(10));
            let outcome = solver.unique(&puzzle, &timed).unwrap().outcome;
            assert_eq!(outcome, Outcome::Unknown(StopReason::TimeLimit));
            let report = solver.count(&puzzle, u64::MAX, &nodes(2000)).unwrap();
            assert_eq!((report.count, report.complete()), (0, false));
        }
    }
    // Several solutions: two distinct verified ones are a proof, and `unique` may say so.
    let empty = Grid::empty(Shape::sudoku(2, 3).unwrap());
    match solver.unique(&empty, &nodes(100_000)).unwrap().outcome {
        Outcome::Multiple(a, b) => assert_ne!(a, b),
        other => panic!("{other:?}"),
    }
}

#[test]
fn honours_limits() {
    // The conformance suite's own check: node and time budgets on the empty 9×9.
    crate::conformance::honours_limits(Box::new(Grasp::default()));
    // A node budget too small for a hard 16×16 puzzle: unknown, within the budget.
    let puzzle = parse_line(&lines("models/sudoku/16x16/kr_16x16_sample.txt")[0], None).unwrap();
    let report = Grasp::default().solve(&puzzle, &nodes(5)).unwrap();
    assert_eq!(report.answer, Answer::Unknown(StopReason::NodeLimit));
    assert!(report.stats.nodes <= 6, "{:?}", report.stats);
    // No limits at all: the default node budget applies, and a count ends.
    let small = Grasp::new(GraspOptions {
        default_nodes: 500,
        ..GraspOptions::default()
    });
    let report = small
        .count(&puzzle_of("models/sudoku/9x9/easy.txt"), 2, &Limits::none())
        .unwrap();
    assert_eq!(report.stopped, Some(StopReason::NodeLimit));
    assert!(report.stats.nodes <= 501);
}

fn puzzle_of(file: &str) -> Grid {
    parse_line(&lines(file)[0], None).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let hard = puzzle_of("models/sudoku/9x9/hard.txt");
    let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
    for pre in [None, Some(Scheme::FCI)] {
        let grasp = |seed| {
            Grasp::new(GraspOptions {
                pre,
                seed,
                ..GraspOptions::default()
            })
        };
        for puzzle in [&hard, &empty] {
            let a = grasp(5).run(puzzle, 1, &nodes(20_000)).unwrap();
            let b = grasp(5).run(puzzle, 1, &nodes(20_000)).unwrap();
            assert_eq!(
                (&a.solutions, a.count, a.stopped, a.best_cost),
                (&b.solutions, b.count, b.stopped, b.best_cost)
            );
            assert_eq!(
                (a.stats.nodes, a.stats.guesses, a.stats.propagations),
                (b.stats.nodes, b.stats.guesses, b.stats.propagations)
            );
            assert_eq!(a.best, b.best);
        }
        // Other seeds walk other paths: the empty grid's solutions differ.
        let grids: Vec<Grid> = (0..4)
            .map(|seed| {
                let run = grasp(seed).run(&empty, 1, &nodes(100_000)).unwrap();
                assert_eq!(verify(&empty, &run.solutions[0]), Ok(()));
                run.solutions[0].clone()
            })
            .collect();
        assert!(grids.iter().any(|g| *g != grids[0]), "{pre:?}");
    }
}

#[test]
fn the_command_line_runs_grasp() {
    let out = run(
        &[
            "solve",
            "--backend",
            "grasp",
            "--json",
            "models/sudoku/6x6/puzzles.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 10);
    assert!(
        text.lines().all(|l| l.contains("\"status\":\"solved\"")),
        "{text}"
    );
    let out = run(
        &[
            "solve",
            "--backend",
            "grasp:pre=FCI,alpha=3",
            "models/sudoku/4x4/kr_4x4_sample.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = std::fs::read_to_string(crate::common::path(
        "models/sudoku/4x4/kr_4x4_sample.solutions.txt",
    ))
    .unwrap();
    assert_eq!(stdout(&out), expected);
    // The colon form of the options fits in bench's comma-separated list.
    let out = run(
        &[
            "bench",
            "--backends",
            "native,grasp:pre=FCI:alpha=3",
            "models/sudoku/4x4/kr_4x4_sample.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let row = stdout(&out)
        .lines()
        .find(|l| l.contains("grasp:pre=FCI:alpha=3"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}", stdout(&out)));
    assert!(row.split_whitespace().nth(3) == Some("10"), "{row}");
    let out = run(&["solve", "--backend", "grasp:beta=1", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("backend grasp:beta=1: unknown grasp option \"beta\""),
        "{}",
        stderr(&out)
    );
}
