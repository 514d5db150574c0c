//! `verify` and `info` on the models.

use crate::common::{assert_no_panic, run, s, stdout, temp_file};

#[test]
fn verify_accepts_the_model_solutions() {
    for (puzzles, solutions) in [
        (
            "models/sudoku/4x4/kr_4x4_sample.txt",
            "models/sudoku/4x4/kr_4x4_sample.solutions.txt",
        ),
        (
            "models/sudoku/6x6/puzzles.txt",
            "models/sudoku/6x6/solutions.txt",
        ),
        (
            "models/sudoku/9x9/easy.txt",
            "models/sudoku/9x9/easy.solutions.txt",
        ),
    ] {
        let out = run(&["verify", puzzles, solutions], b"");
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        assert_eq!(
            stdout(&out)
                .lines()
                .filter(|l| l.ends_with(": valid"))
                .count(),
            10
        );
    }
}

#[test]
fn verify_rejects_a_changed_cell_and_names_the_unit() {
    let solutions =
        std::fs::read_to_string(crate::common::path("models/sudoku/9x9/easy.solutions.txt"))
            .unwrap();
    let mut lines: Vec<String> = solutions.lines().map(str::to_string).collect();
    // Swap two cells of row 1 of the third solution: its columns now repeat values.
    let mut chars: Vec<char> = lines[2].chars().collect();
    chars.swap(0, 1);
    lines[2] = chars.into_iter().collect();
    let bad = temp_file("bad_solutions.txt", (lines.join("\n") + "\n").as_bytes());
    let out = run(&["verify", "models/sudoku/9x9/easy.txt", s(&bad)], b"");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let third = text.lines().nth(2).unwrap();
    assert!(third.starts_with("line 3: invalid: "), "{third}");
    assert!(
        third.contains("given") || third.contains("column"),
        "{third}"
    );
    let out = run(
        &["verify", "--json", "models/sudoku/9x9/easy.txt", s(&bad)],
        b"",
    );
    let objects: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 10);
    assert_eq!(objects[2]["valid"], false);
    assert_eq!(objects[0]["valid"], true);
}

#[test]
fn verify_reads_solutions_from_standard_input() {
    let solutions = std::fs::read(crate::common::path("models/sudoku/6x6/solutions.txt")).unwrap();
    let out = run(
        &["verify", "models/sudoku/6x6/puzzles.txt", "-"],
        &solutions,
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn verify_reports_unpaired_entries() {
    let one = temp_file("one_solution.txt", b"1432234141233214\n");
    let out = run(
        &["verify", "models/sudoku/4x4/kr_4x4_sample.txt", s(&one)],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 10, "every puzzle gets a line: {text}");
    assert!(text.lines().nth(1).unwrap().contains("ended before"));
}

#[test]
fn info_describes_shapes_and_clashes() {
    let out = run(&["info", "models/sudoku/6x6/puzzles.txt"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out)
            .lines()
            .all(|l| l.contains("6×6 (2×3 boxes)") && l.ends_with("no clash"))
    );
    let out = run(&["info", "--json", "-"], b"1..1............\n");
    // Clashing givens are bad input for every command: described in place, exit 2.
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["givens"], 2);
    assert_eq!(v["clash"], "row 1 has 1 twice: at (1,1) and (1,4)");
    let out = run(&["info", "--latin", "models/latin/partial.txt"], b"");
    assert!(stdout(&out).lines().all(|l| l.contains("Latin square")));
    let out = run(&["info", "models/sudoku/25x25/acs_general_40pct.txt"], b"");
    assert!(stdout(&out).contains("25×25 (5×5 boxes)"));
}

#[test]
fn info_reads_every_sample_of_the_public_collections_without_an_error() {
    for name in [
        "9x9/top1465_sample.txt",
        "9x9/top100.txt",
        "9x9/forum_hardest_11plus_sample.txt",
        "9x9/serg_sample.txt",
        "16x16/kr_16x16_sample.txt",
        "25x25/hard_band_sample.txt",
    ] {
        let file = crate::common::path(&format!("models/sudoku/{name}"));
        let out = run(&["info", s(&file)], b"");
        assert_eq!(out.status.code(), Some(0), "{name}");
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert_eq!(
            stdout(&out)
                .lines()
                .filter(|l| l.ends_with("no clash"))
                .count(),
            lines
        );
    }
}

#[test]
fn info_takes_several_files_and_names_each() {
    let out = run(
        &[
            "info",
            "models/sudoku/9x9/easy.txt",
            "models/sudoku/9x9/hard.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 10 + 11);
    assert!(text.starts_with("models/sudoku/9x9/easy.txt: line 1: 9×9 (3×3 boxes)"));
    assert!(text.contains("\nmodels/sudoku/9x9/hard.txt: line 11: 9×9"));
    let out = run(
        &["info", "--json", "models/sudoku/4x4/kr_4x4_sample.txt", "-"],
        b"1...............\n",
    );
    let last: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["file"].as_str(), last["line"].as_u64()),
        (Some("-"), Some(1))
    );
}
