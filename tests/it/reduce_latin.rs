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
    let digits = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("text") && matches!(n.attribute("class"), Some("given" | "found"))
        })
        .count();
    assert_eq!(digits, 36, "givens and solution values fill every cell");
    // A title, row and column numbers, a legend.
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(
        title.text(),
        Some("puzzle 4 of models/sudoku/6x6/puzzles.txt: 6×6 (2×3 boxes), 12 givens, solved")
    );
    let coordinates = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("coord"))
        .count();
    assert_eq!(coordinates, 12);
    assert!(
        svg.contains(">bold: given</text>")
            && svg.contains(">blue: found (a verified solution)</text>")
    );
    // --solve draws the solution the backend finds, verified: the same as the file's.
    let solved = run(
        &[
            "render",
            "models/sudoku/6x6/puzzles.txt",
            "--solve",
            "--index",
            "4",
        ],
        b"",
    );
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    assert_eq!(stdout(&solved), svg);
    let unsat = run(&["render", "-", "--solve", "--plain"], b"12...3...\n");
    assert_eq!(unsat.status.code(), Some(1));
    assert!(stdout(&unsat).contains(">no solution</text>"));
    assert!(!stdout(&unsat).contains("class=\"coord\""));
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
    for expected in [
        "partial Latin square: 9 cells, 6 units, 18 cell–unit incidences, 2 givens; native: the completion 132321213 (verified)",
        "CNF (extended, pairwise AMO): 729 variables, 12062 clauses, 26318 literals, 74 unit clauses (as predicted); varisat: a model satisfying all 12062 clauses (81 of 729 variables true); map back to a Sudoku solution (verified), then to the completion 132321213 (verified)",
        "0-1 ILP: 729 0-1 variables, 398 equality rows, 2990 non-zeros, 74 given rows (as predicted); microlp: a 0-1 point meeting all 398 rows (81 of 729 variables at 1)",
        "exact cover: 87 options, 324 items, 348 option–item incidences, 76 single-option cells (as predicted); dancing links (dlx): 81 options covering each of the 324 items once",
        "precoloured Sudoku graph: 81 vertices, 810 edges, 1620 edge ends, 74 precoloured vertices (as predicted); DSATUR (colour): a proper colouring",
        "Sudoku solution: 123756489756489123489123756234567891567891234891234567345678912678912345912345678",
        "every level: completion 132321213 (verified)",
        "count: 1 Sudoku solutions = 1 completions",
        "varisat: no solution, so no completion: unsatisfiable; the refutation was checked by varisat's proof checker",
        "0-1 ILP: 729 0-1 variables, 399 equality rows, 2991 non-zeros, 75 given rows (as predicted); microlp: no solution, so no completion: infeasible once the givens are substituted",
        "every level: no completion",
        "a minimal conflict: 1 in (1,1), 2 in (1,2), 3 in (2,3) alone have no completion",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Every level of both squares, with its verdict.
    for (square, verdict) in [(1, "yes"), (2, "no")] {
        assert!(html.contains(&format!("id=\"square-{square}\"")));
        let section = html
            .split(&format!("id=\"square-{square}\""))
            .nth(1)
            .unwrap();
        let section = section.split("</section>").next().unwrap();
        for level in ["latin", "sudoku", "cnf", "ilp", "exact-cover", "colouring"] {
            assert!(
                section.contains(&format!(
                    "data-level=\"{level}\" data-verdict=\"{verdict}\""
                )),
                "square {square}, level {level}"
            );
        }
    }
    // The map is 1-based and matches the picture: (1,4) holds 7, symbol 3 at (1,2).
    assert!(
        html.contains("<title>Sudoku cell (1,4) ↔ square cell (1,2): digit 7 ↔ symbol 3</title>")
    );
    assert!(html.contains("Symbol s of L is digit m·(s − 1) + 1 of S: here 1 → 1, 2 → 4, 3 → 7"));
    assert!(html.contains("id=\"argument\"") && html.contains("id=\"formalisms\""));
    assert!(html.contains("A minimal conflict: the givens 1 in (1,1), 2 in (1,2), 3 in (2,3)"));
    // Every inline drawing is well-formed XML on its own.
    for piece in html.split("<svg").skip(1) {
        let svg = format!("<svg{}</svg>", piece.split("</svg>").next().unwrap());
        assert!(roxmltree::Document::parse(&svg).is_ok(), "{svg}");
    }
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
    let levels = objects[0]["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 6);
    assert!(levels.iter().all(|l| l["answer"] == "completed"));
    assert!(
        levels
            .iter()
            .all(|l| l["completion"] == objects[0]["completion"])
    );
    assert!(levels[1..].iter().all(|l| l["size"] == l["predicted"]));
    assert_eq!(objects[1]["status"], "no-completion");
    let levels = objects[1]["levels"].as_array().unwrap();
    assert!(levels.iter().all(|l| l["answer"] == "no-completion"));
    assert_eq!(levels[2]["evidence"]["kind"], "proof");
    assert_eq!(levels[3]["evidence"]["kind"], "presolve");
    assert_eq!(levels[4]["evidence"]["kind"], "search");
    assert_eq!(
        objects[1]["conflict"],
        serde_json::json!([[1, 1, 1], [1, 2, 2], [2, 3, 3]])
    );
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
                    "--levels",
                    "latin,sudoku",
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

#[test]
fn every_level_agrees_on_random_squares_and_keeps_its_proofs() {
    let squares = run(
        &[
            "generate-latin",
            "--order",
            "3",
            "--kind",
            "partial",
            "--givens",
            "4",
            "--count",
            "12",
            "--seed",
            "5",
        ],
        b"",
    );
    let proofs = temp_file("course-proofs.placeholder", b"")
        .parent()
        .unwrap()
        .join("course-proofs");
    let out = run(
        &[
            "reduce",
            "latin",
            "-",
            "--solve",
            "--json",
            "--proof",
            s(&proofs),
        ],
        &squares.stdout,
    );
    // Exit 2 would be a disagreement between levels (or a failed check).
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    let objects: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 12);
    let mut seen = std::collections::BTreeSet::new();
    for (k, object) in objects.iter().enumerate() {
        let status = object["status"].as_str().unwrap();
        seen.insert(status.to_string());
        let levels = object["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 6);
        for level in levels {
            assert_eq!(level["answer"], status, "square {}: {level}", k + 1);
        }
        if status == "no-completion" {
            let lrat = levels[2]["evidence"]["lrat"].as_str().unwrap();
            assert_eq!(lrat, s(&proofs.join(format!("square{}.lrat", k + 1))));
            assert!(std::fs::metadata(lrat).unwrap().len() > 0);
            assert!(!object["conflict"].as_array().unwrap().is_empty());
        }
    }
    assert_eq!(seen.len(), 2, "both kinds among the squares: {seen:?}");
}
