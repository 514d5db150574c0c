//! The `sat` backend (its conformance rows, one per CNF encoding, are in the table of
//! [`crate::conformance`]): `solve --backend sat`
//! from the command line, with `--proof` (proofs written, checked, and a corrupted one rejected).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sudokit::format::dimacs::read_cnf;
use sudokit::solve::sat::check_proof;
use sudokit::text::parse_line;
use sudokit::verify;

use crate::common::{run, stderr, stdout};

pub(crate) fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A fresh directory under the target directory for one test's proofs.
pub(crate) fn proof_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sat-proofs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

// A 4×4 puzzle with a candidate in every cell and no solution (search is needed to refute it).
pub(crate) const UNSAT_4X4: &str = ".1...34........1";

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
    for ext in ["cnf", "varisat", "lrat", "drat"] {
        assert!(dir.join(format!("line1.{ext}")).exists(), "{ext}");
    }
    check_proof(&dir.join("line1.cnf"), &dir.join("line1.varisat"), None).unwrap();
    // The optimized encoding of this puzzle has an empty clause; the proof's formula must not:
    // an LRAT checker wants the empty clause derived (the refutation is a real step).
    let cnf = std::fs::read_to_string(dir.join("line1.cnf")).unwrap();
    assert!(
        !cnf.lines().any(|l| l.trim() == "0"),
        "an empty clause:\n{cnf}"
    );
    let lrat = std::fs::read_to_string(dir.join("line1.lrat")).unwrap();
    assert!(!lrat.trim().is_empty(), "an empty LRAT proof");
    assert_eq!(
        lrat_refutes(&dir.join("line1.cnf"), &dir.join("line1.lrat")),
        Ok(())
    );
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
    let text =
        std::fs::read_to_string(crate::common::path("models/sudoku/9x9/serg_sample.txt")).unwrap();
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

/// An independent LRAT checker (reverse unit propagation along the hints), so the LRAT files
/// the checker writes for external tools are themselves checked here.
pub(crate) fn lrat_refutes(cnf: &Path, lrat: &Path) -> Result<(), String> {
    use std::collections::HashMap;
    let formula = read_cnf(std::io::BufReader::new(std::fs::File::open(cnf).unwrap())).unwrap();
    let mut clauses: HashMap<u64, Vec<i64>> = formula
        .clauses()
        .enumerate()
        .map(|(i, c)| (i as u64 + 1, c.iter().map(|l| l.to_dimacs()).collect()))
        .collect();
    if formula.clauses().any(|c| c.is_empty()) {
        // The formula contains the empty clause (the optimized encoding of a puzzle whose givens
        // leave a cell without a value): it refutes itself.
        return Ok(());
    }
    let text = std::fs::read_to_string(lrat).unwrap();
    for (number, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let id: u64 = fields[0]
            .parse()
            .map_err(|e| format!("line {number}: {e}"))?;
        if fields.get(1) == Some(&"d") {
            for f in &fields[2..fields.len() - 1] {
                clauses.remove(&f.parse::<u64>().unwrap());
            }
            continue;
        }
        let ints: Vec<i64> = fields[1..].iter().map(|f| f.parse().unwrap()).collect();
        let zero = ints.iter().position(|&x| x == 0).unwrap();
        let (lits, hints) = (&ints[..zero], &ints[zero + 1..ints.len() - 1]);
        // Assign the negation of the clause, then each hint must be unit or falsified.
        let mut value: HashMap<i64, bool> = lits.iter().map(|&l| (l.abs(), l < 0)).collect();
        let mut conflict = false;
        for &h in hints {
            let hint = clauses
                .get(&(h as u64))
                .ok_or(format!("line {number}: hint {h} unknown (or a RAT hint)"))?;
            let mut open = Vec::new();
            for &l in hint {
                match value.get(&l.abs()) {
                    Some(&v) if v == (l > 0) => {
                        return Err(format!("line {number}: hint {h} is satisfied"));
                    }
                    Some(_) => {}
                    None => open.push(l),
                }
            }
            match open.as_slice() {
                [] => {
                    conflict = true;
                    break;
                }
                [l] => {
                    value.insert(l.abs(), *l > 0);
                }
                _ => return Err(format!("line {number}: hint {h} is not unit")),
            }
        }
        if !conflict {
            return Err(format!("line {number}: the hints end without a conflict"));
        }
        if lits.is_empty() {
            return Ok(());
        }
        clauses.insert(id, lits.to_vec());
    }
    Err("no empty clause derived".to_string())
}

#[test]
fn the_lrat_files_for_external_checkers_check_independently() {
    let dir = proof_dir("lrat");
    let d = dir.to_str().unwrap();
    let input = format!("{UNSAT_4X4}\n...3..4114..3...\n");
    for backend in ["sat", "sat:minimal:bimander", "sat:extended:sequential"] {
        let out = run(
            &["solve", "--backend", backend, "--unique", "--proof", d, "-"],
            input.as_bytes(),
        );
        assert_eq!(
            stdout(&out).matches("proof: checked").count(),
            2,
            "{}",
            stderr(&out)
        );
        for stem in ["line1", "line2"] {
            let (cnf, lrat) = (
                dir.join(format!("{stem}.cnf")),
                dir.join(format!("{stem}.lrat")),
            );
            assert_eq!(lrat_refutes(&cnf, &lrat), Ok(()), "{backend} {stem}");
        }
    }
    // A broken hint is caught (the last run: extended-style clauses, a real refutation).
    let lrat = dir.join("line1.lrat");
    let text = std::fs::read_to_string(&lrat).unwrap();
    let broken: String = text.replacen(" 0 ", " 0 999999 ", 1);
    std::fs::write(&lrat, broken).unwrap();
    assert!(lrat_refutes(&dir.join("line1.cnf"), &lrat).is_err());
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

/// An external proof checker: `lrat-check` (drat-trim's LRAT checker) or `rate` (a DRAT
/// checker: `cargo install rate`), on the `PATH` or named by `SUDOKIT_LRAT_CHECK` /
/// `SUDOKIT_DRAT_CHECK`. `None` when absent, through `common::missing_tool` (the skip message,
/// or a failure under `SUDOKIT_REQUIRE_TOOLS`: `.ci/run` installs rate, and names lrat-check,
/// which has no package to install, in `SUDOKIT_UNAVAILABLE_TOOLS`).
fn external_checker(program: &str, variable: &str) -> Option<PathBuf> {
    let path = std::env::var_os(variable).map(PathBuf::from).or_else(|| {
        let paths = std::env::var_os("PATH")?;
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    });
    if path.is_none() {
        crate::common::missing_tool(
            program,
            &format!("is not on the PATH (set {variable} to point at one)"),
        );
    }
    path
}

/// Runs the external checkers found on every proof of `dir`: each `STEM.lrat` and `STEM.drat`
/// against `STEM.cnf`. Returns how many proofs each checked.
pub(crate) fn check_externally(dir: &Path) -> (usize, usize) {
    let lrat_check = external_checker("lrat-check", "SUDOKIT_LRAT_CHECK");
    let rate = external_checker("rate", "SUDOKIT_DRAT_CHECK");
    let (mut lrat, mut drat) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let cnf = entry.unwrap().path();
        if cnf.extension().is_none_or(|e| e != "cnf") {
            continue;
        }
        let verified = |checker: &Path, proof: &Path, says: &str| {
            let out = Command::new(checker).arg(&cnf).arg(proof).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.lines().any(|l| l.trim() == says),
                "{} rejects {}: {text}",
                checker.display(),
                proof.display()
            );
        };
        if let Some(checker) = &lrat_check {
            verified(checker, &cnf.with_extension("lrat"), "c VERIFIED");
            lrat += 1;
        }
        if let Some(checker) = &rate {
            verified(checker, &cnf.with_extension("drat"), "s VERIFIED");
            drat += 1;
        }
    }
    (lrat, drat)
}

#[test]
fn proofs_pass_external_checkers() {
    // A trivial refutation (an empty clause in the optimized encoding), a small search, a full
    // grid's uniqueness (nothing open), and uniqueness of hard 9×9 puzzles.
    let top95 =
        std::fs::read_to_string(crate::common::path("models/sudoku/9x9/top95.txt")).unwrap();
    let mut input = format!("{UNSAT_4X4}\n1234341221434321\n...3..4114..3...\n");
    for line in top95.lines().filter(|l| !l.is_empty()).take(3) {
        input += line;
        input += "\n";
    }
    let dir = proof_dir("external");
    let out = run(
        &[
            "solve",
            "--backend",
            "sat",
            "--unique",
            "--proof",
            dir.to_str().unwrap(),
            "-",
        ],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 6 * 4);
    let (lrat, drat) = check_externally(&dir);
    eprintln!("external checks: {lrat} LRAT, {drat} DRAT proofs");
}

/// The target: uniqueness with a checked proof for every puzzle of magictour_top95, in
/// one run, and every LRAT file checked again independently, and by the external checkers found.
/// Release mode: `cargo test --release --test it -- --ignored sat_cli`.
#[test]
#[ignore = "release-mode data-set suite"]
fn every_top95_puzzle_is_unique_with_a_checked_proof() {
    let file = crate::common::path("models/sudoku/9x9/top95.txt");
    let dir = proof_dir("top95");
    let out = run(
        &[
            "solve",
            "--backend",
            "sat",
            "--unique",
            "--json",
            "--proof",
            dir.to_str().unwrap(),
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = json_lines(&stdout(&out));
    assert_eq!(rows.len(), 95);
    for v in &rows {
        assert_eq!(v["status"], "unique", "{v}");
        assert_eq!(v["proof"]["status"], "checked", "{v}");
        let stem = format!("line{}", v["line"]);
        let (cnf, lrat) = (
            dir.join(format!("{stem}.cnf")),
            dir.join(format!("{stem}.lrat")),
        );
        assert_eq!(lrat_refutes(&cnf, &lrat), Ok(()), "{stem}");
    }
    let (lrat, drat) = check_externally(&dir);
    eprintln!("external checks: {lrat} LRAT, {drat} DRAT proofs");
}

#[cfg(not(feature = "cadical"))]
#[test]
fn sat_cadical_without_the_feature_says_how_to_rebuild() {
    let out = run(
        &["solve", "--backend", "sat:cadical", "-"],
        b"...3..4114..3...\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--features cadical"),
        "{}",
        stderr(&out)
    );
}
