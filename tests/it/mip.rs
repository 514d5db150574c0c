//! The MIP backends (their conformance rows are in the table of [`crate::conformance`]): the
//! command line (`solve --backend mip`, and `--backend highs` in a build without
//! the feature).

use crate::common::{assert_no_panic, path, run, stderr, stdout};

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
