//! `sudokit generate` and `sudokit minimize`: reproducible seeds, well-posed and locally minimal
//! puzzles re-checked by a second backend, scheme targets graded by `sudokit grade`, and
//! reductions that keep the solution.

use serde_json::Value;
use sudokit::Grid;
use sudokit::solve::{Limits, Outcome, Solver, backend};
use sudokit::text::parse_json;

use crate::common::{assert_no_panic, run, stderr, stdout, temp_file};

/// The backend that re-checks what `native` decided while generating and reducing.
const SECOND_BACKEND: &str = "dlx";

fn second() -> Box<dyn Solver> {
    backend(SECOND_BACKEND).expect("the second backend is built")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// The puzzle and solution of one `generate --json` object.
fn puzzle_and_solution(object: &Value) -> (Grid, Grid) {
    let puzzle = parse_json(&object.to_string(), None).expect("the object reads back as a puzzle");
    let solution = parse_json(&object["solution"].to_string(), None).expect("solution object");
    (puzzle, solution)
}

/// The unique solution by the second backend, or a panic naming what it found instead.
fn unique_by_second(puzzle: &Grid) -> Grid {
    match second().unique(puzzle, &Limits::none()).unwrap().outcome {
        Outcome::Unique(grid) => grid,
        other => panic!("not well posed for {SECOND_BACKEND}: {other:?}"),
    }
}

/// Every given is needed: removing any one leaves several solutions (second backend).
fn assert_locally_minimal(puzzle: &Grid) {
    let solver = second();
    let mut probe = puzzle.clone();
    for (cell, v) in puzzle.givens() {
        probe.set(cell, None);
        let outcome = solver.unique(&probe, &Limits::none()).unwrap().outcome;
        assert!(
            matches!(outcome, Outcome::Multiple(..)),
            "given at cell {cell} is redundant: {outcome:?}"
        );
        probe.set(cell, Some(v));
    }
}

fn generate(args: &[&str]) -> String {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn seeds_reproduce_across_runs_and_thread_counts() {
    let base = ["--box", "3x3", "--count", "16", "--seed", "99"];
    let one = generate(&[&base[..], &["--threads", "1"]].concat());
    let again = generate(&[&base[..], &["--threads", "1"]].concat());
    let two = generate(&[&base[..], &["--threads", "2"]].concat());
    let three = generate(&[&base[..], &["--threads", "3"]].concat());
    assert_eq!(one.lines().count(), 16);
    assert_eq!(one, again);
    assert_eq!(one, two);
    assert_eq!(one, three);
    // Puzzle i depends on (seed, i) only: a shorter run is a prefix.
    let first4 = generate(&["--box", "3x3", "--count", "4", "--seed", "99"]);
    assert!(one.starts_with(&first4));
    let other = generate(&["--box", "3x3", "--count", "16", "--seed", "100"]);
    assert_ne!(one, other);
}

#[test]
fn generated_puzzles_are_well_posed_and_locally_minimal_for_a_second_backend() {
    for (shape, count) in [("2x2", "8"), ("2x3", "6"), ("3x3", "6"), ("2x4", "3")] {
        let text = generate(&["--box", shape, "--count", count, "--seed", "3", "--json"]);
        let objects = json_lines(&text);
        assert_eq!(objects.len(), count.parse::<usize>().unwrap());
        for (i, object) in objects.iter().enumerate() {
            assert_eq!(object["index"], i + 1);
            let (puzzle, solution) = puzzle_and_solution(object);
            assert_eq!(object["givens"], puzzle.filled());
            assert_eq!(unique_by_second(&puzzle), solution, "{shape} #{i}");
            assert_locally_minimal(&puzzle);
        }
    }
}

#[test]
fn symmetric_puzzles_are_well_posed_and_symmetric() {
    for symmetry in ["rot180", "rot90", "mirror", "diagonal"] {
        let text = generate(&[
            "--box",
            "3x3",
            "--count",
            "3",
            "--seed",
            "8",
            "--symmetry",
            symmetry,
            "--json",
        ]);
        for object in json_lines(&text) {
            let (puzzle, solution) = puzzle_and_solution(&object);
            assert_eq!(unique_by_second(&puzzle), solution);
            let image = |r: usize, c: usize| match symmetry {
                "rot180" => (8 - r, 8 - c),
                "rot90" => (c, 8 - r),
                "mirror" => (r, 8 - c),
                _ => (c, r),
            };
            for r in 0..9 {
                for c in 0..9 {
                    let (ir, ic) = image(r, c);
                    assert_eq!(
                        puzzle.at(r, c).is_some(),
                        puzzle.at(ir, ic).is_some(),
                        "{symmetry}: ({r}, {c})"
                    );
                }
            }
        }
    }
}

#[test]
fn a_target_number_of_givens_and_complete_grids() {
    let text = generate(&["--box", "3x3", "--count", "3", "--givens", "30", "--json"]);
    for object in json_lines(&text) {
        let (puzzle, solution) = puzzle_and_solution(&object);
        assert_eq!(puzzle.filled(), 30);
        assert_eq!(unique_by_second(&puzzle), solution);
    }
    for grids in ["search", "pattern"] {
        let text = generate(&[
            "--box",
            "2x3",
            "--count",
            "4",
            "--grid-only",
            "--grids",
            grids,
        ]);
        for line in text.lines() {
            let grid = sudokit::text::parse_line(line, None).unwrap();
            assert!(grid.is_complete(), "{line}");
            assert_eq!(sudokit::verify(&Grid::empty(grid.shape()), &grid), Ok(()));
        }
    }
}

#[test]
fn a_scheme_target_is_graded_that_way() {
    let text = generate(&[
        "--box",
        "3x3",
        "--count",
        "2",
        "--seed",
        "4",
        "--scheme",
        "HACS",
        "--not-scheme",
        "HAC",
    ]);
    let file = temp_file("generated_hacs.txt", text.as_bytes());
    let out = run(
        &[
            "grade",
            "--json",
            "--schemes",
            "HAC,HACS",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects.len(), 3, "two puzzles and the summary");
    for o in &objects[..2] {
        let free: Vec<&str> = o["search_free"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(free, ["HACS"], "{o}");
    }
    for line in text.lines() {
        let puzzle = sudokit::text::parse_line(line, None).unwrap();
        unique_by_second(&puzzle);
    }
}

#[test]
fn json_progress_events_end_with_each_puzzle() {
    let plain = generate(&["--box", "3x3", "--count", "3", "--seed", "4", "--json"]);
    let out = run(
        &[
            "generate",
            "--box",
            "3x3",
            "--count",
            "3",
            "--seed",
            "4",
            "--json",
            "--progress",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The puzzles do not depend on the reports.
    assert_eq!(stdout(&out), plain);
    let events = json_lines(&stderr(&out));
    // The puzzles run on several threads: their reports come in any order.
    let mut done: Vec<&Value> = events
        .iter()
        .filter(|e| e["progress"]["done"] == true)
        .collect();
    done.sort_by_key(|e| e["progress"]["index"].as_u64());
    assert_eq!(done.len(), 3, "one final report per puzzle: {events:?}");
    for (event, puzzle) in done.iter().zip(json_lines(&plain)) {
        let p = &event["progress"];
        assert_eq!(p["index"], puzzle["index"]);
        assert_eq!(p["givens"], puzzle["givens"]);
        assert!(p["tested"].as_u64().unwrap() >= puzzle["givens"].as_u64().unwrap());
        assert_eq!(p["grid"], 1);
    }
    // --progress goes with --json.
    let out = run(&["generate", "--box", "2x2", "--progress"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn bad_generate_options_exit_2() {
    for args in [
        &["generate", "--box", "3x3", "--grid-only", "--givens", "30"][..],
        &["generate", "--box", "3x3", "--givens", "82"],
        &["generate", "--box", "3x3", "--symmetry", "spiral"],
        &["generate", "--box", "3x3", "--scheme", "XYZ"],
        &["generate", "--box", "3x3", "--threads", "0"],
    ] {
        let out = run(args, b"");
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    // An unreachable target: no 4×4 puzzle has 3 givens and one solution.
    let out = run(
        &[
            "generate",
            "--box",
            "2x2",
            "--givens",
            "3",
            "--attempts",
            "5",
        ],
        b"",
    );
    // A puzzle no grid gives is an error in its place, and the run goes on.
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).starts_with("error: puzzle 1: no puzzle met"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1 of 1 puzzles gave an error"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn minimize_keeps_the_solution_and_leaves_locally_minimal_puzzles() {
    for file in [
        "models/sudoku/9x9/easy.txt",
        "models/sudoku/6x6/puzzles.txt",
        "models/sudoku/4x4/kr_4x4_sample.txt",
    ] {
        for seed in [None, Some("5")] {
            let mut args = vec!["minimize", "--json", file];
            if let Some(seed) = seed {
                args.extend(["--seed", seed]);
            }
            let out = run(&args, b"");
            assert_no_panic(&out);
            assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
            let objects = json_lines(&stdout(&out));
            let (summary, rows) = objects.split_last().unwrap();
            let originals: Vec<Grid> = std::fs::read_to_string(crate::common::path(file))
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .map(|l| sudokit::text::parse_line(l, None).unwrap())
                .collect();
            assert_eq!(rows.len(), originals.len());
            let mut minimal = 0;
            for (row, original) in rows.iter().zip(&originals) {
                assert_eq!(row["status"], "reduced");
                let reduced = parse_json(&row.to_string(), None).unwrap();
                assert_eq!(row["before"], original.filled());
                assert_eq!(row["after"], reduced.filled());
                assert!(reduced.givens().all(|(c, v)| original.get(c) == Some(v)));
                assert_eq!(unique_by_second(&reduced), unique_by_second(original));
                assert_locally_minimal(&reduced);
                minimal += usize::from(row["already_minimal"] == true);
            }
            assert_eq!(summary["puzzles"], rows.len());
            assert_eq!(summary["already_minimal"], minimal);
            assert_eq!(summary["not_well_posed"], 0);
        }
    }
}

#[test]
fn minimize_reports_puzzles_that_are_not_well_posed_in_place() {
    let input = b"................\n12....34........\n1...3...........\n...3..4114..3...\n";
    let out = run(&["minimize", "--box", "2x2", "-"], input);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("-:1: not reduced: several solutions"),
        "{text}"
    );
    assert!(text.contains("-:2: not reduced: no solution"), "{text}");
    assert!(
        text.contains("-:3: not reduced: several solutions"),
        "{text}"
    );
    assert!(text.contains("-:4: "), "{text}");
    // The table counts one reduced puzzle and three that are not well posed.
    let table = text.lines().last().unwrap();
    let fields: Vec<&str> = table.split_whitespace().collect();
    assert_eq!(fields[0], "-");
    assert_eq!(fields[1], "1");
    assert_eq!(fields.last(), Some(&"3"), "{table}");
    // Unreadable input is exit 2, reported in place.
    let out = run(&["minimize", "-"], b"12x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("error: -:1:"), "{}", stdout(&out));
}

#[test]
fn minimize_writes_the_reduced_puzzles() {
    let target = temp_file("minimized.txt", b"");
    let out = run(
        &[
            "minimize",
            "--summary",
            "models/sudoku/9x9/easy.txt",
            "--reduced",
            target.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&target).unwrap();
    assert_eq!(written.lines().count(), 10);
    // Reducing the reduced file removes nothing.
    let out = run(&["minimize", "--json", target.to_str().unwrap()], b"");
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects.last().unwrap()["already_minimal"], 10);
}

/// Release-mode sizes (run by `.ci/run`): 16×16 puzzles, re-checked by the second backend.
#[test]
#[ignore = "release-mode suite: cargo test --release --test it -- --ignored generate"]
fn generate_sixteen_by_sixteen_puzzles_are_well_posed() {
    let text = generate(&["--box", "4x4", "--count", "3", "--seed", "2", "--json"]);
    for object in json_lines(&text) {
        let (puzzle, solution) = puzzle_and_solution(&object);
        assert_eq!(unique_by_second(&puzzle), solution);
    }
}

/// Release-mode: a 25×25 reduction, where sweeps and lanes are active, gives the same puzzle
/// with both (two threads) as with neither (one thread, `--no-sweeps`), and `sat` finds it well
/// posed with the solution reported.
#[test]
#[ignore = "release-mode suite: cargo test --release --test it -- --ignored generate"]
fn generate_twenty_five_sweeps_and_lanes_keep_the_puzzle() {
    let base = ["--box", "5x5", "--seed", "8", "--json"];
    let fast = generate(&[&base[..], &["--threads", "2"]].concat());
    let plain = generate(&[&base[..], &["--threads", "1", "--no-sweeps"]].concat());
    assert_eq!(fast, plain);
    let objects = json_lines(&fast);
    let (puzzle, solution) = puzzle_and_solution(&objects[0]);
    let sat = backend("sat").expect("sat is built");
    match sat.unique(&puzzle, &Limits::none()).unwrap().outcome {
        Outcome::Unique(grid) => assert_eq!(grid, solution),
        other => panic!("not well posed for sat: {other:?}"),
    }
}
