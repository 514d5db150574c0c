//! The hard band of 25×25 (release mode: `cargo test --release --test it -- --ignored
//! native_hard_band`): the seven puzzles of `acs_general_25x25_f40-50` that `native`'s
//! propagation search alone left unknown after 10 s (0.8–1.7 million nodes each) are solved
//! within 10 000 nodes, which only the CDCL stage makes possible (a SAT call is one node). Each
//! solution passes the certificate verifier, here and in the registry's wrapper.

use sudokit::solve::{Answer, Limits, backend};
use sudokit::text::parse_line;

use crate::common::shared_data;

/// 1-based lines of `acs_general_25x25_f40-50.txt`.
const HARD_LINES: [usize; 7] = [102, 123, 125, 136, 164, 178, 190];

#[test]
#[ignore = "release suite: run with --release -- --ignored native_hard_band"]
fn native_hard_band_solved_within_ten_thousand_nodes() {
    let name = "acs_general_25x25_f40-50.txt";
    let Some(path) = shared_data(name) else {
        eprintln!("skipped: SUDOKIT_DATA/{name} not found");
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let native = backend("native").unwrap();
    let limits = Limits::nodes(10_000);
    for line in HARD_LINES {
        let puzzle = parse_line(lines[line - 1], None).unwrap();
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
