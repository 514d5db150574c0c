//! The conformance suite every backend runs: the same puzzles, the same questions, every answer
//! checked by the certificate verifier and every count checked against an independent
//! brute-force count (a few lines of plain recursion below, sharing no code with any backend).
//!
//! One table lists the backends by their registry spec, each with its profile; a test fails when
//! a family of the registry has no row. A backend joins with one row:
//! ```ignore
//! conformance_table! {
//!     native: "native", Full;
//!     backtrack: "backtrack", Small;
//! }
//! ```
//! - `Full`: every check, with the hard 9×9 and the 16×16 models;
//! - `Small`: every check on the small models only (the exponential textbook methods, and
//!   encodings that are slow in a debug build);
//! - `Mip(big)`: every check, counting up to 24 solutions (counting by no-good cuts re-solves the
//!   program once per solution, so its cost grows with the square of the count);
//! - `Heuristic`: solutions and limits only (a heuristic never proves unsat or uniqueness);
//! - `External`: an external solver of the table (`ext:NAME`), on the small models and counting
//!   up to 24 solutions (one program run per solution); skipped with a message when the program
//!   is not installed, unless `SUDOKIT_REQUIRE_TOOLS` is set.

use std::time::Duration;

use sudokit::solve::{Answer, Limits, Outcome, Solver, StopReason, Verified, backend, registry};
use sudokit::text::parse_line;
use sudokit::{Grid, Shape, verify};

/// How much of the suite a backend runs; see the module docs.
#[derive(Debug, Clone, Copy)]
pub enum Profile {
    Full,
    Small,
    Mip(bool),
    Heuristic,
    External,
}

/// Runs the checks of `profile` on the backend `spec` names, through the registry.
fn check(spec: &str, profile: Profile, test: Check) {
    if matches!(profile, Profile::External) && !external_installed(spec) {
        return;
    }
    let solver = || backend(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    match (test, profile) {
        (Check::Models, Profile::External) => solves_models(solver(), false),
        (Check::Counts, Profile::External) => counts_exactly_up_to(solver(), 24),
        (Check::Models, Profile::Full) => solves_models(solver(), true),
        (Check::Models, Profile::Small) => solves_models(solver(), false),
        (Check::Models, Profile::Mip(big)) => solves_models(solver(), big),
        (Check::Models, Profile::Heuristic) => solves_models_heuristically(solver()),
        (Check::Unsat, Profile::Heuristic) => {}
        (Check::Unsat, _) => proves_unsat(solver()),
        (Check::Counts, Profile::Mip(_)) => counts_exactly_up_to(solver(), 24),
        (Check::Counts, Profile::Heuristic) => {}
        (Check::Counts, _) => counts_exactly(solver()),
        (Check::FullGrid, Profile::Heuristic) => {}
        (Check::FullGrid, _) => full_grid(solver()),
        (Check::Limits, _) => honours_limits(solver()),
    }
}

/// Whether the external solver of `spec` (`ext:NAME`) can run here; when it cannot,
/// `common::missing_tool` (the skip message, or a failure under `SUDOKIT_REQUIRE_TOOLS`).
fn external_installed(spec: &str) -> bool {
    match backend(spec) {
        Ok(_) => true,
        Err(e) => {
            let name = spec.strip_prefix("ext:").unwrap_or(spec);
            crate::common::missing_tool(name, &format!("cannot run: {e}"));
            false
        }
    }
}

/// The checks, one test each.
#[derive(Debug, Clone, Copy)]
enum Check {
    Models,
    Unsat,
    Counts,
    FullGrid,
    Limits,
}

/// Instantiates the suite for every row and the table the coverage test reads; see the module
/// docs.
macro_rules! conformance_table {
    ($($(#[$meta:meta])* $name:ident: $spec:literal, $profile:ident $(($arg:expr))?;)*) => {
        $(
            $(#[$meta])*
            mod $name {
                use super::{Check, Profile, check};

                const PROFILE: Profile = Profile::$profile $(($arg))?;

                #[test]
                fn solves_the_model_puzzles() {
                    check($spec, PROFILE, Check::Models);
                }

                #[test]
                fn proves_unsat() {
                    check($spec, PROFILE, Check::Unsat);
                }

                #[test]
                fn counts_multiple_solutions_exactly() {
                    check($spec, PROFILE, Check::Counts);
                }

                #[test]
                fn accepts_a_full_grid() {
                    check($spec, PROFILE, Check::FullGrid);
                }

                #[test]
                fn honours_limits() {
                    check($spec, PROFILE, Check::Limits);
                }
            }
        )*

        /// The specs of the table, for the coverage test.
        const TABLE: &[&str] = &[$($(#[$meta])* $spec,)*];
    };
}

conformance_table! {
    native: "native", Full;
    native_general: "native:general", Full;
    norvig: "norvig", Full;
    fc_mrv: "fc-mrv", Small;
    bitwise: "bitwise", Small;
    backtrack: "backtrack", Small;
    cp_hac: "cp:HAC", Full;
    // Plain forward checking is slow on the 16×16 models in a debug build: small cases only.
    cp_fc: "cp:FC", Small;
    cp_bci: "cp:BCI", Small;
    cp_hacv: "cp:HACV", Small;
    cp_bcv_plus: "cp:BCV+", Small;
    cp_hacsc3: "cp:HACSC3", Full;
    dlx: "dlx", Full;
    colour: "colour", Full;
    // Plain DSATUR (no hyperedge rule) takes seconds per 16×16 model: small cases only.
    colour_graph: "colour:graph", Small;
    colour_dsatur: "colour:dsatur", Small;
    colour_graph_rule: "colour:graph+rule", Small;
    // Every encoding and every AMO: in a debug build varisat is slow on the big models with
    // the unsimplified encodings, so those run the small cases; the optimized encoding (the
    // default and the bimander variant) runs the hard 9×9 and 16×16 models too.
    sat: "sat", Full;
    sat_minimal: "sat:minimal:pairwise", Small;
    sat_efficient: "sat:efficient:product", Small;
    sat_extended: "sat:extended:sequential", Small;
    sat_optimized: "sat:optimized:bimander", Full;
    // CaDiCaL in process (feature cadical): the default encoding on every case, and one
    // other encoding and AMO.
    #[cfg(feature = "cadical")]
    sat_cadical: "sat:cadical", Full;
    #[cfg(feature = "cadical")]
    sat_cadical_minimal: "sat:cadical:minimal:sequential", Small;
    // microlp on the hard 9×9 and the 16×16 models is slow: small cases only.
    mip: "mip", Mip(false);
    // HiGHS runs the model puzzles of every size.
    #[cfg(feature = "highs")]
    highs: "highs", Mip(true);
    grasp: "grasp", Heuristic;
    grasp_pre: "grasp:pre=FCI", Heuristic;
    // One external solver in the quick suite (the external-tools suite runs every one).
    ext_minisat: "ext:minisat", External;
}

#[test]
fn every_registry_family_has_a_row_and_every_row_parses() {
    for entry in registry::ENTRIES.iter().filter(|e| e.is_built()) {
        assert!(
            TABLE
                .iter()
                .any(|spec| spec.split(':').next() == Some(entry.family)),
            "the backend family {} has no row in the conformance table",
            entry.family
        );
    }
    for spec in TABLE {
        if spec.starts_with("ext:") && !external_installed(spec) {
            continue;
        }
        assert_eq!(
            backend(spec).unwrap().name(),
            *spec,
            "rows use canonical names"
        );
    }
}

/// A heuristic's share of [`solves_models`]: it finds the solutions of the well-posed models.
fn solves_models_heuristically(solver: Box<dyn Solver>) {
    let solver = Verified(solver);
    for (file, take) in [
        ("models/sudoku/4x4/kr_4x4_sample.txt", 10),
        ("models/sudoku/6x6/puzzles.txt", 10),
        ("models/sudoku/9x9/easy.txt", 3),
    ] {
        for line in lines(file).iter().take(take) {
            expect_solved(&solver, &grid(line));
        }
    }
}

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
    // The outcome is the test; the bound only catches a search that ignores its clock, with a
    // wide margin for a loaded machine.
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}
