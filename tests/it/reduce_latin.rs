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
    assert!(stderr(&other).contains("has 10 puzzles, not 11"));
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
            "--limit",
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
        "partial Latin square: 9 cells = m², 6 units = 2m, 18 cell–unit incidences = 2m², 2 givens = g; native: the completion 132321213 (verified; the first completion found)",
        "CNF (extended, pairwise AMO): 729 variables = n³, 12062 clauses = n² + 4n²·A + 3n² + G, 26318 literals = n³ + 2·4n²·A + n·3n² + G, 74 unit clauses = G (A = n(n−1)/2 = 36 clauses and X = 0 auxiliary variables per at-most-one of n literals); varisat: a model satisfying all 12062 clauses (81 of 729 variables true); map back to a Sudoku solution (verified), then to the completion 132321213 (verified; the same completion as the first)",
        "0-1 ILP: 729 0-1 variables = n³, 398 equality rows = 4n² + G, 2990 non-zeros = 4n³ + G, 74 given rows = G; microlp: a 0-1 point meeting all 398 rows (81 of 729 variables at 1)",
        "exact cover: 87 options = G + a, 324 items = 4n², 348 option–item incidences = 4(G + a), 76 single-option cells = G + s (a = 13 symbols left to the square's empty cells, s = 2 of them with one left); dancing links (dlx): 81 options covering each of the 324 items once",
        "precoloured Sudoku graph: 81 vertices = n², 810 edges = n²(3n − p − q − 1)/2, 1620 edge ends = n²(3n − p − q − 1), 74 precoloured vertices = G (3n − p − q − 1 = 20 peers per cell); DSATUR (colour): a proper colouring",
        "where m = 3, g = 2, n = m² = 9, p = q = m = 3, G = n² − m² + g = 74",
        "the Sudoku solution of the completion: 123756489756489123489123756234567891567891234891234567345678912678912345912345678",
        "every level: the same completion 132321213 (verified at every level)",
        "count: the square has 1 completion and its Sudoku 1 solution, counted separately: equal, as the reduction keeps the count",
        "varisat: no solution, so no completion: unsatisfiable; the refutation was checked by varisat's proof checker",
        "0-1 ILP: 729 0-1 variables = n³, 399 equality rows = 4n² + G, 2991 non-zeros = 4n³ + G, 75 given rows = G; microlp: no solution, so no completion: infeasible once the givens are substituted",
        "every level: no completion",
        "a minimal conflict: 1 in (1,1), 2 in (1,2), 3 in (2,3) alone have no completion",
        "why: (1,3) has no candidate left: its row holds 1 and 2 and its column holds 3",
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
        let section = section
            .split(&format!("id=\"square-{}\"", square + 1))
            .next()
            .unwrap();
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
    assert!(
        html.contains("<b>A minimal conflict</b>: the givens 1 in (1,1), 2 in (1,2), 3 in (2,3)")
    );
    // One contradiction per square: the conflict's chain, step by step, ends on the violation
    // that the slide before names too.
    let violation = "(1,3) has no candidate left: its row holds 1 and 2 and its column holds 3";
    assert!(html.contains(&format!("<li>Contradiction: {violation}.</li></ol>")));
    assert!(html.contains(&format!("reach a Hall violation: {violation}.</p>")));
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
    // Each level's size with its formulas, whose values are the sizes measured.
    assert!(levels.iter().all(|l| l["formulas"]["values"] == l["size"]));
    assert_eq!(levels[2]["formulas"]["constraints"], "n² + 4n²·A + 3n² + G");
    assert_eq!(objects[0]["completion_count"], 1);
    assert_eq!(objects[0]["count"], 1);
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
                    "--limit",
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

/// The symbols of the grid picture inside the slide `id` of a course page, in row-major order
/// (givens and found values; coordinates left out).
fn drawn(html: &str, id: &str) -> Vec<String> {
    let slide = html
        .split(&format!("id=\"{id}\""))
        .nth(1)
        .unwrap_or_else(|| panic!("no slide {id}"));
    let svg = slide
        .split("<svg")
        .nth(1)
        .unwrap()
        .split("</svg>")
        .next()
        .unwrap();
    svg.split("<text class=\"")
        .skip(1)
        .filter(|t| t.starts_with("given") || t.starts_with("found"))
        .map(|t| {
            t.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The 0-based value of a puzzle-line symbol.
fn value_of(symbol: &str) -> usize {
    "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        .find(symbol)
        .unwrap_or_else(|| panic!("not a symbol: {symbol}"))
}

/// Finding 2: a square with several completions tells one story, on the page, in the text and in
/// the JSON: which completion each level found, how many there are, and the Sudoku drawn is the
/// one the drawn completion maps to.
#[test]
fn a_square_with_several_completions_tells_one_story() {
    let square = b"1..4.1....1.4...\n";
    let json = run(&["reduce", "latin", "-", "--solve", "--json"], square);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let o: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    let found = o["completions_found"].as_array().unwrap();
    for level in o["levels"].as_array().unwrap() {
        let k = level["completion_index"].as_u64().unwrap() as usize;
        assert_eq!(level["completion"], found[k], "{}", level["level"]);
    }
    // The count, where cheap: the square's completions and the Sudoku's solutions, equal, and
    // equal to an exhaustive count by another backend.
    let grid = sudokit::text::parse_line("1..4.1....1.4...", Some(ShapeSpec::Latin)).unwrap();
    let dlx = sudokit::solve::backend("dlx").unwrap();
    let all = dlx
        .count(&grid, 1000, &sudokit::solve::Limits::none())
        .unwrap();
    assert!(!all.hit_limit && all.count > 1);
    assert_eq!(o["completion_count"], all.count);
    assert_eq!(o["count"], all.count);
    assert_eq!(o["completion_count_exact"], true);
    let report = temp_file("story.html", b"");
    let out = run(
        &["reduce", "latin", "-", "--solve", "--report", s(&report)],
        square,
    );
    let text = stdout(&out);
    assert!(!text.contains("every level: completion"), "{text}");
    let distinct = found.len();
    if distinct > 1 {
        assert!(
            text.contains(&format!(
                "the levels found {distinct} different completions, each verified"
            )),
            "{text}"
        );
        assert!(text.contains("another completion: the 2nd of"), "{text}");
    } else {
        assert!(text.contains("every level: the same completion"), "{text}");
    }
    assert!(text.contains(&format!(
        "count: the square has {0} completions and its Sudoku {0} solutions, counted separately",
        all.count
    )));
    // The page: the square drawn is the first completion found, the Sudoku drawn is its image
    // under the reduction, and the map table is that completion's.
    let html = std::fs::read_to_string(&report).unwrap();
    let latin = drawn(&html, "square-1");
    let sudoku = drawn(&html, "square-1-sudoku");
    assert_eq!((latin.len(), sudoku.len()), (16, 256));
    let first: String = found[0]["grid"].as_str().unwrap().to_string();
    assert_eq!(latin.concat(), first);
    for i in 0..4 {
        for q in 0..4 {
            let digit = value_of(&sudoku[i * 16 + 4 * q]);
            assert_eq!(digit % 4, 0);
            assert_eq!(digit / 4, value_of(&latin[i * 4 + q]), "cell ({i},{q})");
            assert!(html.contains(&format!(
                "<td>({},{})</td><td class=\"num\">{}",
                i + 1,
                4 * q + 1,
                sudoku[i * 16 + 4 * q]
            )));
        }
    }
    assert!(html.contains(&format!("{distinct} different completions")) || distinct == 1);
}

/// Finding 4: an uncompletable square whose conflict is not a single clash gets its Hall
/// violation named, in the text, the JSON and the page.
#[test]
fn an_uncompletable_square_names_its_hall_violation() {
    let square = b"123..231..312............\n";
    let report = temp_file("hall.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "-",
            "--solve",
            "--levels",
            "latin,sudoku",
            "--report",
            s(&report),
        ],
        square,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let why = text
        .lines()
        .find(|l| l.starts_with("  why: "))
        .unwrap_or_else(|| panic!("no why in {text}"));
    assert!(
        why.contains("can take only the 2 symbols 4, 5, but 3 cells need 3 different symbols (a Hall violation)"),
        "{why}"
    );
    let html = std::fs::read_to_string(&report).unwrap();
    // The page names the violation the text names, on both slides.
    let violation = why.trim_start_matches("  why: ");
    assert!(html.contains(&format!("<li>Contradiction: {violation}.</li></ol>")));
    assert!(html.contains(&format!("reach a Hall violation: {violation}.</p>")));
    let json = run(
        &[
            "reduce", "latin", "-", "--solve", "--levels", "latin", "--json",
        ],
        square,
    );
    let o: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert!(
        o["conflict_why"]
            .as_str()
            .unwrap()
            .contains("(a Hall violation)")
    );
    // In the library, the story behind it replays step by step and ends in that violation.
    let grid =
        sudokit::text::parse_line("123..231..312............", Some(ShapeSpec::Latin)).unwrap();
    let native = sudokit::solve::backend("native").unwrap();
    let conflict = sudokit::reduce::conflict::minimal_conflict(
        &grid,
        native.as_ref(),
        &sudokit::solve::Limits::none(),
    )
    .unwrap()
    .unwrap();
    let story = conflict.why().unwrap();
    sudokit::propagate::explain::replay(&story).unwrap();
    assert_eq!(
        story.steps.last().unwrap().kind,
        sudokit::propagate::explain::StepKind::Contradiction
    );
}

/// Finding 7: no "1 options", the exact-cover example has a choice, the first map table's
/// digits are on the picture, and the CNF and LP headers and `--help` write the map 1-based.
#[test]
fn the_course_page_and_headers_speak_one_based() {
    let report = temp_file("small-points.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--levels",
            "sudoku",
            "--report",
            s(&report),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(!html.contains(" 1 options") && !html.contains("check it on the picture"));
    let options: usize = html
        .split(") has ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|k| k.parse().ok())
        .expect("the exact-cover cell's options");
    assert!(options >= 2, "{options}");
    // The reduction's picture shows the solution on the carrying cells: the digits of the map.
    let reduction = drawn(&html, "reduction");
    assert_eq!(reduction.len(), 81);
    assert!(html.contains("The map, cell by cell, for the running example&apos;s solution"));
    assert!(html.contains(&format!(
        "<td>(2,4)</td><td class=\"num\">{}</td>",
        reduction[9 + 3]
    )));
    for to in ["cnf", "ilp", "col", "dlx"] {
        let out = run(
            &["reduce", "latin", "models/latin/course.txt", "--to", to],
            b"",
        );
        let head: String = stdout(&out).lines().take(2).collect::<Vec<_>>().join("\n");
        assert!(
            head.contains(
                "whose cell (i, 3·(j − 1) + 1) carries cell (i, j) of the square (1-based, i, j ≤ 3"
            ),
            "{to}: {head}"
        );
        assert!(
            !head.contains("i < 3") && !head.contains("3·q"),
            "{to}: {head}"
        );
    }
    let help = run(&["reduce", "latin", "--help"], b"");
    assert!(
        stdout(&help).contains("its cell (i, m·(j − 1) + 1) carries cell (i, j) of the square")
    );
    assert!(!stdout(&help).contains("(i, m·q) for i < m"));
}

#[test]
fn counts_stopped_by_the_limit_are_called_lower_bounds() {
    // 12 completions, counted up to 5: two lower bounds, not a check that the counts agree.
    let out = run(
        &[
            "reduce", "latin", "-", "--levels", "sudoku", "--solve", "--limit", "5",
        ],
        b".........\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "count: the square has at least 5 completions and its Sudoku at least 5 solutions, \
             counted separately up to the limit: lower bounds"
        ),
        "{text}"
    );
    assert!(
        !text.contains("equal, as the reduction keeps the count"),
        "{text}"
    );
}

#[test]
fn svg_dir_writes_each_picture_of_the_course_page_as_a_file() {
    let dir = temp_file("figures", b"").with_extension("d");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/lecture.txt",
            "--solve",
            "--levels",
            "latin,sudoku",
            "--svg-dir",
            s(&dir),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("SVG figures"), "{}", stderr(&out));
    for name in [
        "square-1",
        "square-1-sudoku",
        "square-2-conflict",
        "square-2-level-latin",
        "square-2-level-sudoku",
        "reduction",
    ] {
        let svg = std::fs::read_to_string(dir.join(format!("{name}.svg")))
            .unwrap_or_else(|e| panic!("{name}.svg: {e}"));
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert!(root.attribute("width").is_some() && root.attribute("height").is_some());
    }
    // The same pictures as the page's.
    let conflict = std::fs::read_to_string(dir.join("square-2-conflict.svg")).unwrap();
    assert!(conflict.contains("<title>square 2: a minimal conflict</title>"));
    assert!(conflict.contains("fill:#f7d774"), "the Hall set marked");
    // A level that finds no completion draws the square with the conflict's givens marked.
    let level = std::fs::read_to_string(dir.join("square-2-level-sudoku.svg")).unwrap();
    assert!(level.contains("<title>square 2: no completion at the Sudoku level</title>"));
    assert!(
        level.contains("fill:#f4b6b6"),
        "the minimal conflict marked"
    );
}

#[test]
fn sizes_prints_every_level_across_orders_with_its_formula() {
    let out = run(&["reduce", "latin", "--sizes", "2..8"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let row = |level: &str, size: &str| {
        text.lines()
            .find(|l| l.starts_with(level) && l[level.len()..].trim_start().starts_with(size))
            .unwrap_or_else(|| panic!("no {level} {size} in {text}"))
            .split_whitespace()
            .rev()
            .take(7)
            .map(|v| v.parse::<u64>().unwrap())
            .collect::<Vec<_>>()
    };
    // m = 8 down to m = 2.
    assert_eq!(row("Sudoku", "cells"), [4096, 2401, 1296, 625, 256, 81, 16]);
    assert_eq!(row("CNF", "variables")[0], 262_144);
    // The graph of the 9×9 Sudoku has the 810 edges the course measures on course.txt.
    assert_eq!(row("graph precolouring", "edges")[5], 810);
    let course = stdout(&run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--levels",
            "colouring",
        ],
        b"",
    ));
    assert!(course.contains("810 edges"), "{course}");
    // JSON: one object per row.
    let json = stdout(&run(&["reduce", "latin", "--sizes", "3..4", "--json"], b""));
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["formula"], "m²");
    assert_eq!(first["values"]["4"], 16);
    for bad in ["1..8", "9..2", "2..99", "x"] {
        let out = run(&["reduce", "latin", "--sizes", bad], b"");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("--sizes takes orders"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn the_course_page_writes_the_cnf_constraint_by_constraint() {
    let report = temp_file("constraints.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--report",
            s(&report),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&report).unwrap();
    let slide = html
        .split("id=\"formalism-cnf-constraints\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .expect("the slide");
    let number = |cell: &str| {
        cell.split('>')
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let rows: Vec<(String, usize)> = slide
        .split("<tr><td>")
        .skip(1)
        .map(|row| {
            let cells: Vec<&str> = row.split("</td>").collect();
            (cells[0].to_string(), number(cells[2]))
        })
        .collect();
    let words: Vec<&str> = rows.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(
        words,
        [
            "cell (1,1) holds a value",
            "cell (1,1) holds at most one value",
            "row 1 holds 1 at most once",
            "row 1 holds 1",
            "the given (1,1) = 1"
        ]
    );
    // The same formula as the CNF level's: 12062 clauses (the text output says so).
    assert!(stdout(&out).contains("12062 clauses = n² + 4n²·A + 3n² + G"));
    assert_eq!(
        rows.iter().map(|(_, clauses)| clauses).sum::<usize>(),
        12062
    );
    assert!(slide.contains("<code>x(1,1,1) ∨ x(1,1,2) ∨ x(1,1,3)"));
}
