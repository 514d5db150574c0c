//! `sudokit crosscheck`: rows per puzzle, the summary table, disagreements caught and printed
//! reproducibly, JSON, bad input in place, and the external solvers joining the comparison.

use sudokit::text::parse_line;

use crate::common::{assert_no_panic, missing_tool, run, stderr, stdout};

const EASY: &str = "models/sudoku/9x9/easy.txt";

fn puzzle_lines(relative: &str) -> Vec<String> {
    std::fs::read_to_string(crate::common::path(relative))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn agreeing_backends_give_one_row_per_puzzle_and_a_summary() {
    let out = run(
        &["crosscheck", EASY, "--backends", "native,norvig,fc-mrv,cp"],
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(rows.len(), puzzle_lines(EASY).len());
    for row in rows {
        assert!(row.ends_with("unique: 4 agreed"), "{row}");
    }
    assert!(text.contains("agreed disagreed unknown skipped"), "{text}");
    for name in ["native", "norvig", "fc-mrv", "cp:HAC"] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} in {text}"
        );
    }
}

#[test]
fn multiple_solutions_and_exact_counts_are_compared() {
    // The empty 4×4 grid has 288 solutions; this one has 4 (two choices in each top-right row).
    let input = b"................\n12..34..21..43..\n";
    let out = run(
        &[
            "crosscheck",
            "-",
            "--backends",
            "native,norvig,bitwise",
            "--limit",
            "1000",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("line 1: 288 solutions: 3 agreed"), "{text}");
    assert!(text.contains("line 2: 4 solutions: 3 agreed"), "{text}");
    let out = run(&["crosscheck", "-", "--backends", "native,norvig"], input);
    assert!(stdout(&out).contains("line 1: multiple: 2 agreed"));
}

#[test]
fn a_faulty_backend_is_caught_and_the_output_reproduces_it() {
    let out = run(
        &[
            "crosscheck",
            EASY,
            "--backends",
            "native,norvig",
            "--inject-fault",
            "native:unsat",
            "--inject-fault",
            "norvig:grid",
        ],
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let first = &puzzle_lines(EASY)[0];
    // The puzzle itself is printed, so the bug can be reproduced from the output alone.
    assert!(text.contains(first.as_str()), "{text}");
    assert!(text.contains("line 1: DISAGREEMENT"), "{text}");
    assert!(
        text.contains("native+fault:unsat: unsat") && text.contains("<-- disagrees"),
        "{text}"
    );
    assert!(
        text.contains("norvig+fault:grid: FAILED: backend norvig+fault:grid returned a grid that is not a solution"),
        "{text}"
    );
    // The correct backends' solutions are printed, and they verify.
    let solution = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("solution "))
        .expect("a solution line");
    let puzzle = parse_line(first, None).unwrap();
    assert_eq!(
        sudokit::verify(&puzzle, &parse_line(solution, None).unwrap()),
        Ok(())
    );
    let summary = text
        .lines()
        .find(|l| l.starts_with("native+fault:unsat"))
        .unwrap();
    let fields: Vec<&str> = summary.split_whitespace().collect();
    assert_eq!(&fields[1..5], ["0", "10", "0", "0"], "{summary}");
    assert!(stderr(&out).contains("have answers that disagree"));
}

#[test]
fn json_gives_one_object_per_puzzle_and_a_summary() {
    let out = run(
        &["crosscheck", EASY, "--backends", "native,norvig", "--json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let values: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let puzzles = puzzle_lines(EASY).len();
    assert_eq!(values.len(), puzzles + 1);
    for (i, v) in values[..puzzles].iter().enumerate() {
        assert_eq!(v["status"], "agreed");
        assert_eq!(v["answer"], "unique");
        assert_eq!(v["runs"].as_array().unwrap().len(), 2);
        assert_eq!(v["puzzle"], puzzle_lines(EASY)[i].as_str());
    }
    let summary = &values[puzzles]["summary"];
    assert_eq!(summary["puzzles"], puzzles);
    assert_eq!(summary["disagreements"], 0);
    assert_eq!(summary["backends"][1]["agreed"], puzzles);
}

#[test]
fn bad_puzzles_are_reported_in_place() {
    let input = b"1.3.....4....2..\n1.1.............\n...3..4114..3...\n";
    let out = run(&["crosscheck", "-", "--backends", "native"], input);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().take(3).collect();
    assert!(lines[0].starts_with("line 1: "), "{text}");
    assert!(
        lines[1].starts_with("error: -:2:3: clashing givens"),
        "{text}"
    );
    assert!(lines[2].starts_with("line 3: unique"), "{text}");
    let out = run(&["crosscheck", "-", "--backends", "warp"], input);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown backend warp"));
    let out = run(&["crosscheck", "-", "--inject-fault", "native"], input);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("BACKEND:FAULT"), "{}", stderr(&out));
}

/// The names of the solvers of the table found here (as `sudokit solvers` lists them). Every
/// solver of the table that is not found goes through `common::missing_tool`: under
/// `SUDOKIT_REQUIRE_TOOLS` each must be found, or be named in `SUDOKIT_UNAVAILABLE_TOOLS`.
pub fn found_solvers() -> Vec<String> {
    let out = run(&["solvers", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut found = Vec::new();
    for line in stdout(&out).lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = row["solver"].as_str().unwrap().to_string();
        if row["found"] == true {
            found.push(name);
        } else {
            missing_tool(&name, "is not found (sudokit solvers)");
        }
    }
    found
}

#[test]
fn external_solvers_join_the_comparison() {
    let found = found_solvers();
    if found.is_empty() {
        eprintln!("skipped: no external solver installed");
        return;
    }
    let out = run(
        &[
            "crosscheck",
            "models/sudoku/4x4/kr_4x4_sample.txt",
            "--backends",
            "native",
            "--external",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    for name in &found {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("ext:{name} ")))
            .unwrap_or_else(|| panic!("{name} in {text}"));
        let fields: Vec<&str> = row.split_whitespace().collect();
        // Every solver counts (by no-goods): all ten agree on "unique".
        assert_eq!(&fields[1..5], ["10", "0", "0", "0"], "{row}");
    }
    // 4×4 with four solutions, counted by every solver; a solver picked by name.
    let out = run(
        &[
            "crosscheck",
            "-",
            "--backends",
            "native",
            "--limit",
            "10",
            "--json",
            "--external",
        ],
        b"12..34..21..43..\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let first: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    for run in first["runs"].as_array().unwrap() {
        assert_eq!(run["answer"], "4 solutions", "{run}");
        assert_eq!(run["solutions"].as_array().unwrap().len(), 2, "{run}");
    }
    let pick = &found[0];
    let out = run(
        &[
            "crosscheck",
            "models/sudoku/4x4/kr_4x4_sample.txt",
            "--backends",
            "native",
            "--external",
            pick,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = stdout(&out)
        .lines()
        .filter(|l| l.starts_with("ext:"))
        .count();
    assert_eq!(rows, 1, "{}", stdout(&out));
    let out = run(
        &[
            "crosscheck",
            "-",
            "--backends",
            "native",
            "--external",
            "nosuchsolver",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no solver nosuchsolver in the table"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_global_timeout_stops_the_batch_with_a_valid_prefix() {
    let file = crate::common::path("models/sudoku/9x9/top1465_sample.txt");
    let out = run(
        &[
            "--timeout",
            "0.5",
            "crosscheck",
            crate::common::s(&file),
            "--backends",
            "native,fc-mrv",
        ],
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--timeout 0.5 s reached: "));
    assert!(stderr(&out).contains("puzzles answered"));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("line ")).collect();
    assert!(rows.len() < 98, "stopped early");
    // The rows are the first puzzles, in order, with nothing missing.
    for (i, row) in rows.iter().enumerate() {
        assert!(row.starts_with(&format!("line {}: ", i + 1)), "{row}");
    }
    assert!(
        text.contains(&format!("{} puzzles: ", rows.len())),
        "{text}"
    );
}

#[test]
fn the_global_timeout_reaches_every_backend_in_flight_or_not_yet_started() {
    // Plain backtracking needs seconds on this puzzle; the bit-parallel solver milliseconds.
    let puzzle = &puzzle_lines("models/sudoku/9x9/top95.txt")[4];
    let out = run(
        &[
            "--timeout",
            "0.5",
            "crosscheck",
            "-",
            "--backends",
            "backtrack,bitwise",
            "--json",
        ],
        puzzle.as_bytes(),
    );
    assert_no_panic(&out);
    let text = stdout(&out);
    let row: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let runs = row["runs"].as_array().unwrap();
    assert_eq!(runs[0]["backend"], "backtrack");
    assert_eq!(runs[0]["answer"], "unknown (time limit)", "{row}");
    // The deadline passed during the first run: the second is not started.
    assert_eq!(runs[1]["backend"], "bitwise");
    assert_eq!(runs[1]["answer"], "unknown (time limit)", "{row}");
    assert_eq!(runs[1]["elapsed_us"], 0.0, "{row}");
    // Counts that only unknown runs contain are no answer.
    assert_eq!(row["answer"], "undecided", "{row}");
    assert_eq!(row["consensus"], serde_json::Value::Null, "{row}");
}

#[test]
fn a_row_names_the_participant_that_ended_unknown() {
    // A millisecond is too little for the 25×25: the backend that runs out is named.
    let out = crate::common::run(
        &[
            "crosscheck",
            "--backends",
            "native,mip",
            "--time-limit",
            "0.001",
            "models/sudoku/25x25/acs_general_40pct.txt",
        ],
        b"",
    );
    let text = crate::common::stdout(&out);
    assert!(
        text.lines()
            .filter(|l| l.starts_with("line "))
            .any(|l| l.contains("unknown (") && l.contains("mip")),
        "{text}"
    );
}
