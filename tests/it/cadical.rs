//! The cargo feature `cadical` (`cargo test --features cadical --test it cadical`): the
//! `sat:cadical` backend from the command line, its LRAT proofs checked in process, again by the
//! independent checker of [`crate::sat_cli`] and by the external checkers found, and its time
//! limit (unknown, never a guess); `native`'s CDCL stage on a 25×25 hard-band puzzle, which this build hands to CaDiCaL.

use serde_json::Value;
use sudokit::solve::{Answer, Limits, StopReason, backend};
use sudokit::text::parse_line;
use sudokit::verify;

use crate::common::{path, run, stderr, stdout};
use crate::sat_cli::{UNSAT_4X4, check_externally, json_lines, lrat_refutes, proof_dir};

#[test]
fn sat_cadical_proves_unsat_and_uniqueness_with_checked_lrat() {
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    let hard: Vec<&str> = top95.lines().filter(|l| !l.is_empty()).take(3).collect();
    // Unsat (search needed), a full grid (nothing open), a 4×4 and three hard 9×9 puzzles.
    let mut input = format!("{UNSAT_4X4}\n1234341221434321\n...3..4114..3...\n");
    for line in &hard {
        input += line;
        input += "\n";
    }
    for backend in ["sat:cadical", "sat:cadical:minimal:sequential"] {
        let dir = proof_dir(&backend.replace(':', "-"));
        let out = run(
            &[
                "solve",
                "--backend",
                backend,
                "--unique",
                "--json",
                "--proof",
                dir.to_str().unwrap(),
                "-",
            ],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let records = json_lines(&stdout(&out));
        assert_eq!(records.len(), 6);
        let statuses: Vec<&str> = records
            .iter()
            .map(|v| v["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            statuses,
            ["unsat", "unique", "unique", "unique", "unique", "unique"]
        );
        for (i, (v, line)) in records.iter().zip(input.lines()).enumerate() {
            assert_eq!(v["proof"]["status"], "checked", "{backend} line {}", i + 1);
            if let Value::String(solution) = &v["solution"] {
                let puzzle = parse_line(line, None).unwrap();
                let grid = parse_line(solution, None).unwrap();
                assert_eq!(verify(&puzzle, &grid), Ok(()));
            }
            let stem = format!("line{}", i + 1);
            let (cnf, lrat) = (
                dir.join(format!("{stem}.cnf")),
                dir.join(format!("{stem}.lrat")),
            );
            assert_eq!(lrat_refutes(&cnf, &lrat), Ok(()), "{backend} {stem}");
            assert!(!dir.join(format!("{stem}.varisat")).exists());
        }
        let (lrat, drat) = check_externally(&dir);
        eprintln!("{backend}: external checks of {lrat} LRAT, {drat} DRAT proofs");
    }
}

#[test]
fn sat_cadical_counts_and_verifies_every_solution() {
    let out = run(
        &[
            "count",
            "--box",
            "2x2",
            "--backend",
            "sat:cadical",
            "--threads",
            "1",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(
        (&v["count"], &v["complete"]),
        (&288.into(), &true.into()),
        "{v}"
    );
}

#[test]
fn a_time_limit_gives_unknown_never_a_guess() {
    // The 25×25 hard-band puzzle under a 1 ms limit (the limit inside one long CaDiCaL call,
    // through its terminate callback, is tested in the library: solve::sat::cadical).
    let text = std::fs::read_to_string(path("models/sudoku/25x25/hard_band_sample.txt")).unwrap();
    let puzzle = parse_line(text.lines().next().unwrap(), None).unwrap();
    let sat = backend("sat:cadical").unwrap();
    let limit = std::time::Duration::from_millis(1);
    let report = sat.solve(&puzzle, &Limits::time(limit)).unwrap();
    assert_eq!(report.answer, Answer::Unknown(StopReason::TimeLimit));
}

#[test]
fn native_hands_a_hard_25x25_puzzle_to_cadical() {
    let text = std::fs::read_to_string(path("models/sudoku/25x25/hard_band_sample.txt")).unwrap();
    let puzzle = parse_line(text.lines().next().unwrap(), None).unwrap();
    let report = backend("native")
        .unwrap()
        .solve(&puzzle, &Limits::nodes(10_000))
        .unwrap();
    let Answer::Solved(grid) = report.answer else {
        panic!("{:?} after {:?}", report.answer, report.stats)
    };
    assert_eq!(verify(&puzzle, &grid), Ok(()));
}
