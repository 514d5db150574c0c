//! `generate-latin`, `reduce latin` and `render` from the command line.

use crate::common::{run, s, stderr, stdout, temp_file};
use sudokit::text::{PuzzleReader, ReadOptions, ShapeSpec};

fn read(text: &str, spec: Option<ShapeSpec>) -> Vec<sudokit::Grid> {
    let options = ReadOptions {
        shape: spec,
        ..ReadOptions::default()
    };
    PuzzleReader::new(text.as_bytes(), options)
        .map(|r| r.expect("readable").grid)
        .collect()
}

#[test]
fn generate_latin_is_seeded_and_counts_holes_and_givens() {
    let a = run(
        &[
            "generate-latin",
            "--order",
            "5",
            "--holes",
            "7",
            "--count",
            "4",
            "--seed",
            "9",
        ],
        b"",
    );
    let b = run(
        &[
            "generate-latin",
            "--order",
            "5",
            "--holes",
            "7",
            "--count",
            "4",
            "--seed",
            "9",
        ],
        b"",
    );
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    let squares = read(&stdout(&a), Some(ShapeSpec::Latin));
    assert_eq!(squares.len(), 4);
    assert!(
        squares
            .iter()
            .all(|g| g.filled() == 25 - 7 && g.first_clash().is_none())
    );
    let c = run(
        &[
            "generate-latin",
            "--order",
            "5",
            "--holes",
            "7",
            "--count",
            "4",
            "--seed",
            "10",
        ],
        b"",
    );
    assert_ne!(stdout(&a), stdout(&c));
    let p = run(
        &[
            "generate-latin",
            "--order",
            "6",
            "--kind",
            "partial",
            "--givens",
            "11",
            "--count",
            "3",
        ],
        b"",
    );
    let partial = read(&stdout(&p), Some(ShapeSpec::Latin));
    assert!(
        partial
            .iter()
            .all(|g| g.filled() == 11 && g.first_clash().is_none())
    );
    let bad = run(&["generate-latin", "--order", "3", "--holes", "10"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("10 cells asked for, but an order-3 square has 9"));
}

#[test]
fn reduce_latin_to_sudoku_keeps_the_givens_formula_for_every_order() {
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/partial.txt",
            "--form",
            "block",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sudokus = read(&stdout(&out), None);
    let source = std::fs::read_to_string(crate::common::path("models/latin/partial.txt")).unwrap();
    let squares = read(&source, Some(ShapeSpec::Latin));
    assert_eq!(sudokus.len(), squares.len());
    for (latin, sudoku) in squares.iter().zip(&sudokus) {
        let m = latin.shape().order();
        assert_eq!(sudoku.shape().order(), m * m);
        assert_eq!(
            (sudoku.shape().box_rows(), sudoku.shape().box_cols()),
            (m, m)
        );
        assert_eq!(sudoku.filled(), m.pow(4) - m * m + latin.filled());
        assert!(sudoku.first_clash().is_none());
    }
    // Puzzle lines cannot hold orders above 35: those squares are reported in place, in order.
    let lines = run(&["reduce", "latin", "models/latin/partial.txt"], b"");
    assert_eq!(lines.status.code(), Some(2));
    let text = stdout(&lines);
    assert_eq!(text.lines().count(), 10);
    assert!(
        text.lines()
            .nth(6)
            .unwrap()
            .contains("models/latin/partial.txt:7:1: the Sudoku of order 36")
    );
    // JSON output reads back as input.
    let json = run(
        &["reduce", "latin", "--json", "models/latin/partial.txt"],
        b"",
    );
    assert_eq!(read(&stdout(&json), None), sudokus);
}

#[test]
fn reduce_latin_reports_bad_squares_in_place() {
    let out = run(&["reduce", "latin", "-"], b"12.\n1.1......\n.........\n");
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with("error: -:1:4: the line has 3 symbols"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("error: -:2:3: clashing givens: row 1 has 1 twice"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2].len(), 81);
}

#[test]
fn render_writes_valid_svg_with_one_rect_per_cell() {
    let target = temp_file("render.svg", b"");
    let out = run(
        &[
            "render",
            "models/sudoku/6x6/puzzles.txt",
            "--solution",
            "models/sudoku/6x6/solutions.txt",
            "--index",
            "4",
            "-o",
            s(&target),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(&target).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("valid XML");
    let cells = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("rect") && n.attribute("class").is_some_and(|c| c.starts_with("cell"))
        })
        .count();
    assert_eq!(cells, 36);
    let texts = doc.descendants().filter(|n| n.has_tag_name("text")).count();
    assert_eq!(texts, 36, "givens and solution values fill every cell");
    // A solution that does not solve the puzzle is refused.
    let wrong = run(
        &[
            "render",
            "models/sudoku/6x6/puzzles.txt",
            "--solution",
            "models/sudoku/6x6/solutions.txt",
            "--index",
            "1",
        ],
        b"",
    );
    assert_eq!(wrong.status.code(), Some(0));
    let mismatched = run(
        &[
            "render",
            "models/sudoku/6x6/puzzles.txt",
            "--solution",
            "models/sudoku/6x6/puzzles.txt",
            "--index",
            "2",
        ],
        b"",
    );
    assert_eq!(mismatched.status.code(), Some(2));
    assert!(
        stderr(&mismatched).contains("does not solve the puzzle: cell (1,1) is empty"),
        "{}",
        stderr(&mismatched)
    );
    let other = run(
        &[
            "render",
            "models/sudoku/6x6/puzzles.txt",
            "--solution",
            "models/sudoku/6x6/solutions.txt",
            "--index",
            "11",
        ],
        b"",
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(stderr(&other).contains("holds 10 puzzles, so there is no puzzle 11"));
    let big = run(
        &["render", "models/sudoku/25x25/acs_general_40pct.txt"],
        b"",
    );
    assert!(roxmltree::Document::parse(&stdout(&big)).is_ok());
}

#[test]
fn the_course_chain_completes_one_square_and_refutes_the_other() {
    let report = temp_file("course.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--count",
            "100",
            "--report",
            s(&report),
        ],
        b"",
    );
    // The second square has no completion: the negative answer, exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("verify Sudoku solution: valid"));
    assert!(text.contains("map back: completion 132321213"));
    assert!(text.contains("count: 1 Sudoku solutions = 1 completions"));
    assert!(text.contains("no solution, so the Latin square has no completion"));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<svg").count(), 4);
    assert_eq!(html.matches("<rect class=\"cell").count(), 2 * (9 + 81));
    // The 3 cells carrying each square are highlighted in each Sudoku.
    assert_eq!(html.matches("class=\"cell mark\"").count(), 2 * 9);
    let json = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--json",
            "--backend",
            "norvig",
        ],
        b"",
    );
    let objects: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects[0]["status"], "completed");
    assert_eq!(objects[0]["backend"], "norvig");
    assert_eq!(objects[1]["status"], "no-completion");
}

#[test]
fn chains_agree_with_a_second_backend_on_random_squares() {
    // Quasigroups with holes always complete; random partial squares sometimes do not.
    for (kind, fill) in [("qwh", "--holes"), ("partial", "--givens")] {
        let amount = if kind == "qwh" { "10" } else { "9" };
        let squares = run(
            &[
                "generate-latin",
                "--order",
                "4",
                "--kind",
                kind,
                fill,
                amount,
                "--count",
                "15",
                "--seed",
                "3",
            ],
            b"",
        );
        let input = squares.stdout;
        let mut statuses = Vec::new();
        for backend in ["native", "fc-mrv"] {
            let out = run(
                &[
                    "reduce",
                    "latin",
                    "-",
                    "--solve",
                    "--json",
                    "--count",
                    "50",
                    "--backend",
                    backend,
                ],
                &input,
            );
            let objects: Vec<serde_json::Value> = stdout(&out)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(objects.len(), 15);
            // Exit 1 exactly when some square has no completion.
            let refuted = objects.iter().any(|o| o["status"] != "completed");
            assert_eq!(
                out.status.code(),
                Some(i32::from(refuted)),
                "{}",
                stderr(&out)
            );
            statuses.push(
                objects
                    .iter()
                    .map(|o| (o["status"].clone(), o["count"].clone()))
                    .collect::<Vec<_>>(),
            );
        }
        assert_eq!(statuses[0], statuses[1], "{kind}");
        if kind == "qwh" {
            assert!(statuses[0].iter().all(|(s, _)| s == "completed"));
        }
    }
}
