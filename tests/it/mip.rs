//! The MIP backends: the conformance suite for `mip` (microlp) and, with the `highs` feature,
//! `highs`; and the command line (`solve --backend mip`, and `--backend highs` in a build without
//! the feature).

use crate::common::{assert_no_panic, path, run, stderr, stdout};

/// The conformance suite (the functions behind `conformance_suite!`) for the MIP backends, with
/// one change: counting by no-good cuts re-solves the program once per solution, each re-solve
/// larger by one cut, so the cost grows with the square of the count; the counting cases stop at
/// 24 solutions ([`crate::conformance::counts_exactly_up_to`]), leaving out the empty 4×4 grid
/// (288) and Latin square (576), which took microlp about ten minutes even in release.
macro_rules! mip_conformance {
    ($name:ident, $make:expr, big = $big:expr) => {
        mod $name {
            use sudokit::solve::Solver;

            fn solver() -> Box<dyn Solver> {
                ($make)()
            }

            #[test]
            fn solves_the_model_puzzles() {
                crate::conformance::solves_models(solver(), $big);
            }

            #[test]
            fn proves_unsat() {
                crate::conformance::proves_unsat(solver());
            }

            #[test]
            fn counts_multiple_solutions_exactly() {
                crate::conformance::counts_exactly_up_to(solver(), 24);
            }

            #[test]
            fn accepts_a_full_grid() {
                crate::conformance::full_grid(solver());
            }

            #[test]
            fn honours_limits() {
                crate::conformance::honours_limits(solver());
            }
        }
    };
}

// microlp on the hard 9×9 and the 16×16 models is slow: small cases only.
mip_conformance!(
    mip_conformance,
    || Box::new(sudokit::solve::Mip),
    big = false
);

// HiGHS runs the model puzzles of every size.
#[cfg(feature = "highs")]
mip_conformance!(
    highs_conformance,
    || Box::new(sudokit::solve::Highs),
    big = true
);

#[test]
fn solve_with_mip_prints_the_model_solutions() {
    for (puzzles, solutions) in [
        (
            "models/sudoku/4x4/kr_4x4_sample.txt",
            "models/sudoku/4x4/kr_4x4_sample.solutions.txt",
        ),
        (
            "models/sudoku/9x9/easy.txt",
            "models/sudoku/9x9/easy.solutions.txt",
        ),
    ] {
        let out = run(&["solve", "--backend", "mip", puzzles], b"");
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let expected = std::fs::read_to_string(path(solutions)).unwrap();
        assert_eq!(stdout(&out), expected, "{puzzles}");
    }
}

#[test]
fn count_with_mip_proves_uniqueness_and_counts_an_empty_grid() {
    let out = run(
        &["count", "--backend", "mip", "--json", "-"],
        b"...3..4114..3...\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"count\":1"), "{}", stdout(&out));
}

#[cfg(not(feature = "highs"))]
#[test]
fn highs_without_the_feature_says_how_to_enable_it() {
    let out = run(
        &[
            "solve",
            "--backend",
            "highs",
            "models/sudoku/4x4/kr_4x4_sample.txt",
        ],
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("rebuild with: cargo build --release --features highs"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

#[cfg(feature = "highs")]
#[test]
fn solve_with_highs_prints_the_model_solutions() {
    let out = run(
        &["solve", "--backend", "highs", "models/sudoku/9x9/easy.txt"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = std::fs::read_to_string(path("models/sudoku/9x9/easy.solutions.txt")).unwrap();
    assert_eq!(stdout(&out), expected);
}
