//! The hard band of 25×25 (release mode: `cargo test --release --test it -- --ignored
//! native_hard_band`): the seven puzzles of `acs_general_25x25_f40-50` that `native`'s
//! propagation search alone left unknown after 10 s (0.8–1.7 million nodes each;
//! `models/sudoku/25x25/hard_band_sample.txt`, lines 102, 123, 125, 136, 164, 178 and 190 of the
//! collection) are solved
//! within 10 000 nodes, which only the CDCL stage makes possible (a SAT call is one node). Each
//! solution passes the certificate verifier, here and in the registry's wrapper.

use sudokit::solve::{Answer, Limits, backend};
use sudokit::text::parse_line;

use crate::common::path;

/// The lines of the sample in the collection `acs_general_25x25_f40-50.txt` (1-based).
const HARD_LINES: [usize; 7] = [102, 123, 125, 136, 164, 178, 190];

#[test]
#[ignore = "release suite: run with --release -- --ignored native_hard_band"]
fn native_hard_band_solved_within_ten_thousand_nodes() {
    let text = std::fs::read_to_string(path("models/sudoku/25x25/hard_band_sample.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), HARD_LINES.len());
    let native = backend("native").unwrap();
    let limits = Limits::nodes(10_000);
    for (&line, text) in HARD_LINES.iter().zip(&lines) {
        let puzzle = parse_line(text, None).unwrap();
        let report = native.solve(&puzzle, &limits).unwrap();
        let Answer::Solved(grid) = report.answer else {
            panic!("line {line}: {:?} after {:?}", report.answer, report.stats)
        };
        assert_eq!(sudokit::verify(&puzzle, &grid), Ok(()), "line {line}");
        assert!(
            report.stats.nodes <= 10_000,
            "line {line}: {:?}",
            report.stats
        );
    }
}
