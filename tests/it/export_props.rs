//! Property tests of the encoders and writers (fixed seeds): round trips of every writer that
//! has a reader, and the model counts of the CNF encodings against an independent counter.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use sudokit::encode::Cnf;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding, encode};
use sudokit::encode::exact_cover::ExactCover;
use sudokit::encode::graph::{edges, hyperedges};
use sudokit::format::{col, dimacs, dlx1, hgr};
use sudokit::{Grid, Shape, verify};

use crate::export_support::{
    as_set, brute_force_solutions, exact_covers, pattern_solution, puzzle_from, sat_solutions,
};

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Puzzles of a shape: a relabelled pattern solution, a mask, and a few extra givens that may
/// make the puzzle unsatisfiable.
fn puzzles(p: usize, q: usize, keep_percent: u32) -> impl Strategy<Value = Grid> {
    let shape = Shape::sudoku(p, q).unwrap();
    let n = shape.order();
    (
        Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
        prop::collection::vec(prop::bool::weighted(keep_percent as f64 / 100.0), n * n),
        prop::collection::vec((0..n * n, 0..n), 0..3),
    )
        .prop_map(move |(relabel, keep, extra)| {
            puzzle_from(&pattern_solution(shape, &relabel), &keep, &extra)
        })
}

fn all_options() -> Vec<CnfOptions> {
    Encoding::ALL
        .into_iter()
        .flat_map(|encoding| Amo::ALL.map(|amo| CnfOptions { encoding, amo }))
        .collect()
}

#[test]
fn the_pattern_grids_are_solutions() {
    for (p, q) in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4)] {
        let shape = Shape::sudoku(p, q).unwrap();
        let relabel: Vec<usize> = (0..shape.order()).collect();
        assert_eq!(
            verify(&Grid::empty(shape), &pattern_solution(shape, &relabel)),
            Ok(())
        );
    }
}

/// The models of each encoding, counted with blocking clauses, against the brute-force count.
fn check_model_counts(puzzle: &Grid) -> Result<(), TestCaseError> {
    let expected = brute_force_solutions(puzzle, 10_000);
    for options in all_options() {
        let mut cnf = Cnf::new();
        let encoded = encode(puzzle, options, &mut cnf);
        let found = sat_solutions(&cnf, &encoded.map, puzzle, 10_000);
        prop_assert_eq!(
            as_set(&found),
            as_set(&expected),
            "{:?} on {}",
            options,
            sudokit::text::to_text(puzzle)
        );
        if options.amo == Amo::Pairwise && options.encoding != Encoding::Optimized {
            // No auxiliary variables: every model is one of the counted ones.
            prop_assert_eq!(cnf.vars(), puzzle.shape().order().pow(3));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(40, 0x5eed_0004))]
    #[test]
    fn four_by_four_models_are_exactly_the_solutions(puzzle in puzzles(2, 2, 30)) {
        check_model_counts(&puzzle)?;
    }
}

proptest! {
    #![proptest_config(config(16, 0x5eed_0006))]
    #[test]
    fn two_by_three_models_are_exactly_the_solutions(puzzle in puzzles(2, 3, 55)) {
        check_model_counts(&puzzle)?;
    }
}

proptest! {
    #![proptest_config(config(24, 0x5eed_d1ac))]
    #[test]
    fn dimacs_written_and_read_back_gives_the_same_clauses(
        puzzle in prop_oneof![puzzles(2, 2, 40), puzzles(2, 3, 40), puzzles(3, 3, 40)],
        choice in 0usize..16,
    ) {
        let options = all_options()[choice];
        let mut memory = Cnf::new();
        let encoded = encode(&puzzle, options, &mut memory);
        let mut file = Vec::new();
        let written = dimacs::write_cnf(&puzzle, options, &mut file).unwrap();
        prop_assert_eq!(&written.encoded, &encoded);
        let read = dimacs::read_cnf(&file[..]).unwrap();
        prop_assert_eq!(&read, &memory);
        prop_assert_eq!(written.size.literals, memory.literal_count());
        // The in-memory writer gives the same bytes after the comments.
        let mut again = Vec::new();
        dimacs::write_formula(&memory, &[], &mut again).unwrap();
        let body = |bytes: &[u8]| {
            String::from_utf8(bytes.to_vec())
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('c'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(body(&file), body(&again));
    }
}

proptest! {
    #![proptest_config(config(24, 0x5eed_a115))]
    #[test]
    fn answers_written_as_dimacs_decode_to_the_solution(puzzle in puzzles(3, 3, 35)) {
        let solution = brute_force_solutions(&puzzle, 1);
        prop_assume!(!solution.is_empty());
        let solution = &solution[0];
        for encoding in Encoding::ALL {
            let map = dimacs::var_map(&puzzle, encoding);
            // The SAT-competition answer of the solution, in lines of ten literals.
            let n = puzzle.shape().order();
            let mut lits = Vec::new();
            for r in 0..n {
                for c in 0..n {
                    for v in 0..n {
                        if let Some(var) = map.var(r, c, v) {
                            let d = var.to_dimacs() as i64;
                            lits.push(if solution.at(r, c) == Some(v) { d } else { -d });
                        }
                    }
                }
            }
            let mut text = String::from("c a solver\ns SATISFIABLE\n");
            for chunk in lits.chunks(10) {
                let line: Vec<String> = chunk.iter().map(i64::to_string).collect();
                text.push_str(&format!("v {}\n", line.join(" ")));
            }
            text.push_str("v 0\n");
            let dimacs::DimacsAnswer::Sat(model) =
                dimacs::read_answer(text.as_bytes(), dimacs::AnswerFormat::Competition).unwrap()
            else {
                return Err(TestCaseError::fail("not SAT"));
            };
            prop_assert_eq!(&map.decode(&puzzle, &model).unwrap(), solution);
            // Truncating the answer anywhere before the final 0 is an error, never a panic.
            let cut = text.len() * 2 / 3;
            prop_assert!(
                dimacs::read_answer(&text.as_bytes()[..cut], dimacs::AnswerFormat::Competition)
                    .is_err()
            );
        }
    }
}

proptest! {
    #![proptest_config(config(16, 0x5eed_0d1c))]
    #[test]
    fn dlx_col_and_hgr_round_trip(
        puzzle in prop_oneof![puzzles(2, 2, 30), puzzles(2, 3, 60), puzzles(3, 3, 70)],
    ) {
        let shape = puzzle.shape();
        let n = shape.order();
        // DLX: the options read back are the encoder's, and the covers are the solutions.
        let problem = ExactCover::new(&puzzle);
        let mut file = Vec::new();
        dlx1::write_dlx(&problem, &mut file).unwrap();
        let read = dlx1::read_dlx(&file[..]).unwrap();
        prop_assert_eq!(read.primary.len(), problem.item_count());
        let options: Vec<(usize, usize, usize)> =
            (0..read.options.len()).map(|o| read.sudoku_option(o, n).unwrap()).collect();
        prop_assert_eq!(&options, &problem.options().collect::<Vec<_>>());
        let covers = exact_covers(&read, 1000);
        let grids: Vec<Grid> = covers
            .iter()
            .map(|cover| {
                let mut grid = Grid::empty(shape);
                for &o in cover {
                    let (r, c, v) = options[o];
                    grid.set(shape.cell(r, c), Some(v));
                }
                grid
            })
            .collect();
        for grid in &grids {
            prop_assert_eq!(verify(&puzzle, grid), Ok(()));
        }
        prop_assert_eq!(as_set(&grids), as_set(&brute_force_solutions(&puzzle, 1000)));
        // .col: edges and precolouring read back.
        let mut file = Vec::new();
        col::write_col(&puzzle, &mut file).unwrap();
        let graph = col::read_col(&file[..]).unwrap();
        let expected: Vec<(usize, usize)> = edges(shape).map(|(u, v)| (u + 1, v + 1)).collect();
        prop_assert_eq!(graph.edges, expected);
        let givens: Vec<(usize, usize)> = puzzle.givens().map(|(c, v)| (c + 1, v + 1)).collect();
        prop_assert_eq!(&graph.givens, &givens);
        // .hgr: hyperedges and precolouring read back.
        let mut file = Vec::new();
        hgr::write_hgr(&puzzle, &mut file).unwrap();
        let h = hgr::read_hgr(&file[..]).unwrap();
        let expected: Vec<Vec<usize>> =
            hyperedges(shape).map(|e| e.iter().map(|v| v + 1).collect()).collect();
        prop_assert_eq!(h.edges, expected);
        prop_assert_eq!(h.givens, givens);
    }
}

proptest! {
    #![proptest_config(config(64, 0x5eed_bad0))]
    #[test]
    fn readers_never_panic_on_damaged_files(
        cut in 0usize..4000,
        flip in 0usize..4000,
        byte in any::<u8>(),
    ) {
        let puzzle = sudokit::text::parse_line("1.3.....4....2..", None).unwrap();
        let mut cnf = Vec::new();
        dimacs::write_cnf(&puzzle, CnfOptions::default(), &mut cnf).unwrap();
        let mut damaged = cnf.clone();
        let at = flip % damaged.len();
        damaged[at] = byte;
        damaged.truncate(cut.max(1) % (damaged.len() + 1));
        let _ = dimacs::read_cnf(&damaged[..]);
        let _ = dimacs::read_answer(&damaged[..], dimacs::AnswerFormat::Competition);
        let _ = dimacs::read_answer(&damaged[..], dimacs::AnswerFormat::Minisat);
        let _ = dlx1::read_dlx(&damaged[..]);
        let _ = col::read_col(&damaged[..]);
        let _ = hgr::read_hgr(&damaged[..]);
        let _ = sudokit::format::mip_answer::read_glpsol(&damaged[..]);
        let _ = sudokit::format::mip_answer::read_cbc(&damaged[..]);
        // A truncated CNF (not at a clause end) is an error with a place.
        let full = cnf.len();
        let mid = &cnf[..full - 3];
        let e = dimacs::read_cnf(mid).unwrap_err();
        prop_assert!(e.line > 1);
    }
}
