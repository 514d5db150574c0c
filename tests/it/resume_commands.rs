//! Every batch command keeps its output whole: the per-puzzle commands (`info`, `verify`,
//! `generate`, `count`) continue a torn `-o FILE` with `--resume` to the file an uninterrupted
//! run writes, and the commands with closing tables (`grade`, `minimize`, `crosscheck`,
//! `reduce latin`) stopped by `--timeout` leave whole results only, say how far they got, and
//! exit 1.

use std::path::{Path, PathBuf};

use crate::common::{path, s, stderr, sudokit};

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-resume-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Starts `args` with `-o out` and stops it at once (`--timeout`): it leaves `out.partial` and
/// the record of its run, which `--resume` checks.
pub(crate) fn leave_partial_run(args: &[&str], out: &Path) {
    let stopped = sudokit()
        .args(args)
        .args(["-o", s(out), "--timeout", "0.000001"])
        .output()
        .expect("stopped run");
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
}

/// Runs `args` with `-o FILE` in `dir`, then again on a copy torn after `keep` whole lines
/// and half of the next, with `--resume`: the resumed file must be the full one.
fn resume_matches_a_full_run(dir: &Path, name: &str, args: &[&str], keep: usize) {
    let full = dir.join(format!("{name}.full"));
    let out = sudokit()
        .args(args)
        .args(["-o", s(&full)])
        .output()
        .expect("full run");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{name}: {}",
        stderr(&out)
    );
    let expected = std::fs::read(&full).expect("full output");
    let ends: Vec<usize> = expected
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i)
        .collect();
    assert!(ends.len() > keep + 1, "{name}: too few results to tear");
    // `keep` whole lines and a fragment of the next, as a kill -9 could leave them.
    let cut = ends[keep - 1] + 1 + (ends[keep] - ends[keep - 1]) / 2;
    let torn = dir.join(format!("{name}.out"));
    leave_partial_run(args, &torn);
    std::fs::write(dir.join(format!("{name}.out.partial")), &expected[..cut]).expect("partial");
    let out = sudokit()
        .args(args)
        .args(["-o", s(&torn), "--resume"])
        .output()
        .expect("resumed run");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{name}: {}",
        stderr(&out)
    );
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&torn).expect("resumed output")),
        String::from_utf8_lossy(&expected),
        "{name}: the resumed output differs from the full run's"
    );
    assert!(
        !dir.join(format!("{name}.out.partial")).exists(),
        "{name}: partial left"
    );
}

#[test]
fn per_puzzle_commands_resume_a_torn_output() {
    let dir = temp_dir("per-puzzle");
    let easy = path("models/sudoku/9x9/easy.txt");
    let solutions = path("models/sudoku/9x9/easy.solutions.txt");
    let top95 = path("models/sudoku/9x9/top95.txt");
    resume_matches_a_full_run(&dir, "info", &["info", s(&top95)], 7);
    resume_matches_a_full_run(&dir, "info-json", &["info", "--json", s(&top95)], 40);
    resume_matches_a_full_run(&dir, "verify", &["verify", s(&easy), s(&solutions)], 2);
    resume_matches_a_full_run(
        &dir,
        "generate",
        &["generate", "--box", "2x3", "--count", "9", "--seed", "5"],
        4,
    );
    resume_matches_a_full_run(
        &dir,
        "generate-json",
        &[
            "generate",
            "--box",
            "2x2",
            "--count",
            "6",
            "--json",
            "--threads",
            "2",
        ],
        3,
    );
    resume_matches_a_full_run(&dir, "count", &["count", "--limit", "3", s(&top95)], 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of `copies` rounds of the 95 puzzles of top95.
fn many_puzzles(dir: &Path, copies: usize) -> PathBuf {
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).expect("top95");
    let file = dir.join("many.txt");
    std::fs::write(&file, top95.repeat(copies)).expect("many");
    file
}

#[test]
fn commands_with_tables_stop_at_a_result_boundary() {
    let dir = temp_dir("tables");
    let many = many_puzzles(&dir, 400);
    let latin: String = std::fs::read_to_string(path("models/latin/partial.txt"))
        .expect("latin")
        .repeat(2000);
    let squares = dir.join("squares.txt");
    std::fs::write(&squares, latin).expect("squares");
    let runs: [(&str, Vec<&str>); 5] = [
        ("grade", vec!["grade", "--json", s(&many)]),
        ("minimize", vec!["minimize", "--json", s(&many)]),
        (
            "crosscheck",
            vec!["crosscheck", "--json", "--backends", "native,dlx", s(&many)],
        ),
        (
            "reduce latin",
            vec!["reduce", "latin", "--json", s(&squares)],
        ),
        (
            "reduce latin --solve",
            vec!["reduce", "latin", "--solve", "--json", s(&squares)],
        ),
    ];
    for (name, args) in runs {
        let out = sudokit()
            .args(["--timeout", "0.5"])
            .args(&args)
            .output()
            .expect("runs");
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {message}");
        assert!(
            message.contains("--timeout 0.5 s reached"),
            "{name}: {message}"
        );
        // These commands have no --resume, so the summary must not suggest it.
        assert!(!message.contains("--resume"), "{name}: {message}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "{name}: torn output"
        );
        // Every line is a whole JSON object: nothing was cut inside a result.
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}: a torn line ({e}): {line}"));
            assert!(value.is_object(), "{name}: {line}");
        }
        let results = text.lines().count();
        assert!(
            results < 38_000,
            "{name}: the whole batch ran ({results} lines)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
