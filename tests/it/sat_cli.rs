//! The `sat` backend: the conformance suite for each CNF encoding, and `solve --backend sat`
//! from the command line, with `--proof` (proofs written, checked, and a corrupted one rejected).

use std::path::Path;

use serde_json::Value;
use sudokit::solve::sat::{Sat, check_proof};
use sudokit::text::parse_line;
use sudokit::verify;

use crate::common::{run, shared_data, stderr, stdout};
use crate::conformance::conformance_suite;

/// The `sat` backend named by a registry spec (`sat:ENCODING:AMO`).
pub(crate) fn sat(spec: &str) -> Box<dyn sudokit::solve::Solver> {
    Box::new(spec.parse::<Sat>().unwrap())
}

conformance_suite!(sat_default, || crate::sat_cli::sat("sat"));
conformance_suite!(sat_minimal, || crate::sat_cli::sat("sat:minimal:pairwise"));
// Product AMO on the efficient encoding; the large models are covered by the other variants.
conformance_suite!(
    sat_efficient,
    || crate::sat_cli::sat("sat:efficient:product"),
    big = false
);
conformance_suite!(sat_extended, || crate::sat_cli::sat(
    "sat:extended:pairwise"
));
conformance_suite!(sat_optimized, || crate::sat_cli::sat(
    "sat:optimized:bimander"
));

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A fresh directory under the target directory for one test's proofs.
fn proof_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sat-proofs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

// A 4×4 puzzle with a candidate in every cell and no solution (search is needed to refute it).
const UNSAT_4X4: &str = ".1...34........1";

#[test]
fn an_unsat_puzzle_gets_a_checked_proof() {
    let puzzle = parse_line(UNSAT_4X4, None).unwrap();
    assert!(puzzle.first_clash().is_none());
    let dir = proof_dir("unsat");
    let d = dir.to_str().unwrap();
    let out = run(
        &["solve", "--backend", "sat", "--proof", d, "-"],
        UNSAT_4X4.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("unsat (proof: checked, "), "{text}");
    for ext in ["cnf", "varisat", "lrat"] {
        assert!(dir.join(format!("line1.{ext}")).exists(), "{ext}");
    }
    check_proof(&dir.join("line1.cnf"), &dir.join("line1.varisat"), None).unwrap();
    let out = run(
        &[
            "solve",
            "--backend",
            "sat:minimal:sequential",
            "--unique",
            "--json",
            "--proof",
            d,
            "-",
        ],
        UNSAT_4X4.as_bytes(),
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(v["status"], "unsat");
    assert_eq!(v["proof"]["status"], "checked");
    assert_eq!(v["proof"]["claim"], "unsat");
}

#[test]
fn a_unique_top95_puzzle_gets_a_checked_uniqueness_proof() {
    let line = std::fs::read_to_string(crate::common::path("models/sudoku/9x9/top95.txt"))
        .unwrap()
        .lines()
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap()
        .to_string();
    let dir = proof_dir("unique");
    let d = dir.to_str().unwrap();
    let out = run(
        &[
            "solve",
            "--backend",
            "sat",
            "--unique",
            "--json",
            "--proof",
            d,
            "-",
        ],
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(v["status"], "unique");
    assert_eq!(v["proof"]["status"], "checked");
    assert_eq!(v["proof"]["claim"], "unique");
    let puzzle = parse_line(&line, None).unwrap();
    let solution = parse_line(v["solution"].as_str().unwrap(), None).unwrap();
    assert_eq!(verify(&puzzle, &solution), Ok(()));
    // The refuted formula ends with the clause that blocks the solution.
    let cnf = std::fs::read_to_string(dir.join("line1.cnf")).unwrap();
    assert!(cnf.contains("blocks the solution"), "{cnf}");
    // Plain output: the solution line, then the proof note.
    let out = run(
        &["solve", "--backend", "sat", "--unique", "--proof", d, "-"],
        format!("{line}\n").as_bytes(),
    );
    let text = stdout(&out);
    let (grid, note) = text.trim_end().split_once(' ').unwrap();
    assert_eq!(parse_line(grid, None).unwrap(), solution);
    assert!(note.starts_with("(proof: checked, "), "{note}");
}

#[test]
fn a_serg_benchmark_puzzle_is_multiple_with_two_verified_solutions() {
    let text = match shared_data("serg_benchmark.txt") {
        Some(path) => std::fs::read_to_string(path).unwrap(),
        // The data sets sit beside the repository; without them, a 4×4 with many solutions.
        None => "12..............\n".to_string(),
    };
    let line = text.lines().next().unwrap();
    let dir = proof_dir("multiple");
    let out = run(
        &[
            "solve",
            "--backend",
            "sat",
            "--unique",
            "--json",
            "--proof",
            dir.to_str().unwrap(),
            "-",
        ],
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(v["status"], "multiple");
    assert_ne!(v["solution"], v["second"]);
    assert!(v["proof"].is_null(), "two solutions need no proof");
    let puzzle = parse_line(line, None).unwrap();
    for key in ["solution", "second"] {
        let g = parse_line(v[key].as_str().unwrap(), None).unwrap();
        assert_eq!(verify(&puzzle, &g), Ok(()), "{key}");
    }
}

#[test]
fn a_corrupted_proof_is_rejected() {
    let dir = proof_dir("corrupt");
    let d = dir.to_str().unwrap();
    let out = run(
        &["solve", "--backend", "sat", "--proof", d, "-"],
        UNSAT_4X4.as_bytes(),
    );
    assert!(stdout(&out).contains("proof: checked"), "{}", stderr(&out));
    let (cnf, proof) = (dir.join("line1.cnf"), dir.join("line1.varisat"));
    check_proof(&cnf, &proof, None).unwrap();
    let bytes = std::fs::read(&proof).unwrap();
    assert!(bytes.len() > 4);
    // Cut off the end: the refutation is gone.
    std::fs::write(&proof, &bytes[..bytes.len() / 2]).unwrap();
    assert!(check_proof(&cnf, &proof, None).is_err());
    // Flip bits in the middle.
    let mut flipped = bytes.clone();
    for b in flipped.iter_mut().skip(bytes.len() / 3).take(4) {
        *b ^= 0x5a;
    }
    std::fs::write(&proof, &flipped).unwrap();
    assert!(check_proof(&cnf, &proof, None).is_err());
    // The intact proof does not refute a different (satisfiable) formula.
    std::fs::write(&proof, &bytes).unwrap();
    let sat_cnf = dir.join("sat.cnf");
    std::fs::write(&sat_cnf, "p cnf 2 1\n1 2 0\n").unwrap();
    assert!(check_proof(&sat_cnf, &proof, None).is_err());
}

#[test]
fn encoding_and_amo_flags_pick_the_variant_and_are_checked() {
    let out = run(
        &[
            "solve",
            "--backend",
            "sat",
            "--encoding",
            "optimized",
            "--amo",
            "bimander",
            "-",
        ],
        b"...3..4114..3...\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(
        &["solve", "--encoding", "minimal", "-"],
        b"...3..4114..3...\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--backend sat"), "{}", stderr(&out));
    let out = run(&["solve", "--proof", "x", "-"], b"...3..4114..3...\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--backend sat"), "{}", stderr(&out));
}
