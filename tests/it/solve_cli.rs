//! `solve`, `count` and `bench` from the command line.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use sudokit::text::parse_line;
use sudokit::verify;

use crate::common::{assert_no_panic, path, run, s, stderr, stdout, sudokit, temp_file};

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn solve_prints_the_verified_solutions_in_order() {
    let out = run(&["solve", "models/sudoku/9x9/easy.txt"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = std::fs::read_to_string(path("models/sudoku/9x9/easy.solutions.txt")).unwrap();
    assert_eq!(stdout(&out), expected);
    for threads in ["1", "2"] {
        let out = run(
            &[
                "solve",
                "--threads",
                threads,
                "models/sudoku/6x6/puzzles.txt",
            ],
            b"",
        );
        let expected = std::fs::read_to_string(path("models/sudoku/6x6/solutions.txt")).unwrap();
        assert_eq!(stdout(&out), expected, "--threads {threads}");
    }
}

#[test]
fn solve_json_reports_status_solution_and_stats() {
    let out = run(
        &["solve", "--json", "--backend", "norvig", "-"],
        b"1.3.....4....2..\n",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(v["status"], "solved");
    assert_eq!(v["line"], 1);
    let puzzle = parse_line("1.3.....4....2..", None).unwrap();
    let solution = parse_line(v["solution"].as_str().unwrap(), None).unwrap();
    assert_eq!(verify(&puzzle, &solution), Ok(()));
    assert!(v["stats"]["nodes"].as_u64().unwrap() >= 1);
    assert!(v["stats"]["elapsed_us"].as_f64().is_some());
}

#[test]
fn unique_says_multiple_with_two_verified_solutions() {
    // Two givens of a 4×4 grid leave many solutions; the second puzzle has one.
    let input = b"12..............\n...3..4114..3...\n11..............\n";
    let out = run(&["solve", "--unique", "--json", "-"], input);
    assert_eq!(out.status.code(), Some(2), "clashing givens are bad input");
    let v = json_lines(&stdout(&out));
    assert_eq!(v[0]["status"], "multiple");
    assert_ne!(v[0]["solution"], v[0]["second"]);
    let puzzle = parse_line("12..............", None).unwrap();
    for key in ["solution", "second"] {
        let g = parse_line(v[0][key].as_str().unwrap(), None).unwrap();
        assert_eq!(verify(&puzzle, &g), Ok(()));
    }
    assert_eq!(v[1]["status"], "unique");
    assert_eq!(v[2]["status"], "error");
    assert_eq!(
        (v[2]["line"].as_u64(), v[2]["column"].as_u64()),
        (Some(3), Some(2))
    );
    let out = run(&["solve", "--unique", "-"], input);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["multiple", "4123234114323214"]);
    assert!(
        lines[2].starts_with("error: -:3:2: clashing givens: row 1 has 1 twice"),
        "{}",
        lines[2]
    );
    // Without the clash, only the multiple answer is negative: exit 1.
    let out = run(
        &["solve", "--unique", "-"],
        b"12..............
...3..4114..3...
",
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bad_lines_are_reported_in_place_and_exit_2() {
    let file = temp_file(
        "solve_bad.txt",
        b"1.3.....4....2..\n1.3..x..4....2..\n123\n1.3.....4....2..\n",
    );
    let out = run(&["solve", s(&file)], b"");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let puzzle = parse_line("1.3.....4....2..", None).unwrap();
    for i in [0, 3] {
        let solution = parse_line(lines[i], None).unwrap();
        assert_eq!(verify(&puzzle, &solution), Ok(()), "{}", lines[i]);
    }
    assert!(
        lines[1].starts_with(&format!("error: {}:2:6: ", file.display())),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with(&format!("error: {}:3:", file.display())));
    assert!(stderr(&out).contains("2 of 4 puzzles gave an error"));
    let out = run(&["solve", "--json", s(&file)], b"");
    let v = json_lines(&stdout(&out));
    assert_eq!(v[1]["status"], "error");
    assert_eq!(
        (v[1]["line"].as_u64(), v[1]["column"].as_u64()),
        (Some(2), Some(6))
    );
}

#[test]
fn unknown_and_feature_gated_backends_are_named() {
    let out = run(&["solve", "--backend", "quantum", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(
        "unknown backend quantum (available: native, backtrack, fc-mrv, bitwise, norvig, cp"
    ));
    // In a build with the highs feature, highs is a backend like the others.
    if cfg!(feature = "highs") {
        return;
    }
    let out = run(
        &[
            "bench",
            "--backends",
            "native,highs",
            "models/sudoku/4x4/kr_4x4_sample.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("backend highs is not in this build (feature highs); rebuild with: cargo build --release --features highs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_millisecond_on_a_hard_25x25_is_unknown_promptly() {
    let start = Instant::now();
    let out = run(
        &[
            "solve",
            "--time-limit",
            "0.001",
            "--json",
            "models/sudoku/25x25/acs_general_40pct.txt",
        ],
        b"",
    );
    // The outcome is the test; the bound (for the whole command on a loaded machine) only
    // catches a search that ignores its clock.
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(1));
    for v in json_lines(&stdout(&out)) {
        assert_eq!(v["status"], "unknown", "{v}");
        assert_eq!(v["reason"], "time limit");
    }
}

#[test]
fn a_closed_pipe_ends_the_batch_quietly() {
    let line = std::fs::read_to_string(path("models/sudoku/9x9/easy.txt")).unwrap();
    let big = temp_file("big.txt", line.repeat(3000).as_bytes());
    let mut child = sudokit()
        .args(["solve", s(&big)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim().len(), 81);
    // Dropping the reader closes the pipe, as `| head -1` does.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_no_panic(&out);
}

#[test]
fn count_the_empty_grids() {
    for (args, expected) in [
        (&["count", "--box", "2x2"][..], "288"),
        (&["count", "--latin", "--order", "4"][..], "576"),
        (
            &["count", "--latin", "--order", "5", "--threads", "2"][..],
            "161280",
        ),
        // The old spelling, kept for one release (with a note on standard error).
        (&["count", "--latin", "4"][..], "576"),
        (
            &["count", "--box", "3x3", "--limit", "1000"][..],
            "at least 1000 (limit)",
        ),
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim(), expected, "{args:?}");
    }
    let out = run(
        &["count", "--json", "--box", "3x3", "--time-limit", "0.05"],
        b"",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped"], "time limit");
    // A lower bound that a budget stopped is not the count asked for: exit 1, not 0.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let empty_9x9 = ".".repeat(81);
    let input = format!("1.3.....4....2..\n{empty_9x9}\n");
    let out = run(&["count", "--time-limit", "0.05", "-"], input.as_bytes());
    let text = stdout(&out);
    assert!(text.starts_with("2\nat least "), "{text}");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = run(&["count"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--box PxQ (or --latin --order N)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn count_a_file_of_puzzles() {
    let out = run(
        &["count", "-"],
        b"12..............\n1.3.....4....2..\n...3..4114..3...\n11..............\n",
    );
    assert_eq!(
        stdout(&out),
        "24\n2\n1\nerror: -:4:2: clashing givens: row 1 has 1 twice: at (1,1) and (1,2)\n"
    );
    assert_eq!(out.status.code(), Some(2));
    // The course square that is unsat only after search counts 0.
    let course = run(&["reduce", "latin", "-"], b"12...3...\n");
    let out = run(&["count", "-"], &course.stdout);
    assert_eq!((stdout(&out).as_str(), out.status.code()), ("0\n", Some(0)));
    let out = run(
        &["count", "--limit", "3", "--json", "-"],
        b"12..............\n",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(
        (v["count"].as_u64(), &v["hit_limit"]),
        (Some(3), &Value::Bool(true))
    );
}

#[test]
fn bench_prints_a_row_per_backend_and_file() {
    let out = run(
        &[
            "bench",
            "--backends",
            "native,norvig",
            "models/sudoku/9x9/easy.txt",
            "models/sudoku/6x6/puzzles.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].contains("puzzles/s") && lines[0].contains("p99"));
    assert!(lines[1].starts_with("easy.txt") && lines[1].contains("native"));
    assert!(lines[4].starts_with("puzzles.txt") && lines[4].contains("norvig"));
    let out = run(
        &[
            "bench",
            "--json",
            "--first",
            "4",
            "models/sudoku/9x9/easy.txt",
        ],
        b"",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(
        (v["puzzles"].as_u64(), v["solved"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(v["within"][0], 4);
    assert!(v["median_us"].as_f64().unwrap() <= v["p99_us"].as_f64().unwrap());
}

#[test]
fn every_new_command_has_examples_in_its_help() {
    for command in ["solve", "count", "bench"] {
        let out = run(&[command, "--help"], b"");
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains("Examples:"), "{command}");
    }
}

#[test]
fn serg_benchmark_sample_is_multiple_with_two_verified_solutions() {
    let text = std::fs::read_to_string(path("models/sudoku/9x9/serg_sample.txt")).unwrap();
    let out = run(
        &[
            "solve",
            "--unique",
            "--json",
            "models/sudoku/9x9/serg_sample.txt",
        ],
        b"",
    );
    let results = json_lines(&stdout(&out));
    assert_eq!(results.len(), 40);
    for (line, v) in text.lines().zip(&results) {
        assert_eq!(v["status"], "multiple", "{line}");
        let puzzle = parse_line(line, None).unwrap();
        let a = parse_line(v["solution"].as_str().unwrap(), None).unwrap();
        let b = parse_line(v["second"].as_str().unwrap(), None).unwrap();
        assert_ne!(a, b);
        assert_eq!(verify(&puzzle, &a), Ok(()));
        assert_eq!(verify(&puzzle, &b), Ok(()));
    }
}
