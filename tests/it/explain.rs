//! `sudokit explain`: the propagation of one scheme, step by step, as text, JSON lines and HTML.

use crate::common::{run, s, stderr, stdout, temp_file};
use sudokit::text::parse_line;

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn a_hidden_single_puzzle_walked_through_fci() {
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/hidden_singles.txt",
            "--scheme",
            "FCI",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with(
        "puzzle 1 of models/sudoku/9x9/hidden_singles.txt: 9×9 (3×3 boxes), 17 givens; scheme FCI"
    ));
    let hidden = text
        .lines()
        .find(|l| l.contains(", hidden single: In "))
        .expect("a hidden single");
    assert!(hidden.contains(" fits only in "), "{hidden}");
    assert!(text.contains("step 1, givens: The 17 givens leave their rows, columns and boxes"));
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("FCI solves the puzzle without search in "),
        "{last}"
    );
    // The solution printed is the puzzle's.
    let solution = parse_line(last.rsplit(": ").next().unwrap(), None).unwrap();
    let puzzle = parse_line(
        include_str!("../../models/sudoku/9x9/hidden_singles.txt")
            .lines()
            .next()
            .unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(sudokit::verify(&puzzle, &solution), Ok(()));
    // FC alone cannot: it stops where a search would start, exit 1.
    let fc = run(
        &[
            "explain",
            "models/sudoku/9x9/hidden_singles.txt",
            "--scheme",
            "FC",
        ],
        b"",
    );
    assert_eq!(fc.status.code(), Some(1));
    assert!(stdout(&fc).contains("a search would start here"));
    assert!(!stdout(&fc).contains("hidden single"));
}

#[test]
fn an_xwing_puzzle_walked_through_hacc_as_json_lines_and_html() {
    let page = temp_file("explain-xwing.html", b"");
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/xwing.txt",
            "--scheme",
            "HACC",
            "--json",
            "--html",
            s(&page),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    let (steps, ending) = objects.split_at(objects.len() - 1);
    assert_eq!(ending[0]["ending"], "solved");
    assert_eq!(ending[0]["steps"], steps.len());
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["step"], i + 1);
        assert!(step["text"].as_str().is_some_and(|t| !t.is_empty()));
    }
    let xwing = steps
        .iter()
        .find(|s| s["name"] == "X-wing")
        .expect("an X-wing step");
    assert_eq!(xwing["kind"], "fish");
    assert_eq!(xwing["cells"].as_array().unwrap().len(), 4);
    assert_eq!(xwing["units"].as_array().unwrap().len(), 4);
    assert!(!xwing["removed"].as_array().unwrap().is_empty());
    // Removed candidates are [row, column, value], 1-based.
    for removed in xwing["removed"].as_array().unwrap() {
        let [r, c, v] = [0, 1, 2].map(|i| removed[i].as_u64().unwrap());
        assert!((1..=9).contains(&r) && (1..=9).contains(&c) && (1..=9).contains(&v));
    }
    assert!(steps.iter().any(|s| s["kind"] == "naked-set"));
    // HAC alone gets stuck on it.
    let hac = run(
        &[
            "explain",
            "models/sudoku/9x9/xwing.txt",
            "--scheme",
            "HAC",
            "--json",
        ],
        b"",
    );
    assert_eq!(hac.status.code(), Some(1));
    let last = json_lines(&stdout(&hac)).pop().unwrap();
    assert_eq!(last["ending"], "search");
    assert!(last["open_cells"].as_u64().unwrap() > 0);
    // The page: one frame per step and a last one, each with the grid of candidates.
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("<section class=\"frame\"").count(),
        steps.len() + 1
    );
    assert!(html.contains("id=\"step-1\"") && html.contains("id=\"end\""));
    assert!(html.contains("Step 1 of") && html.contains(": X-wing</a></h2>"));
    for piece in html.split("<svg").skip(1).take(5) {
        let svg = format!("<svg{}</svg>", piece.split("</svg>").next().unwrap());
        assert!(roxmltree::Document::parse(&svg).is_ok());
    }
}

#[test]
fn the_default_scheme_is_the_first_that_needs_no_search() {
    let out = run(&["explain", "12.434.221.34321"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(
        "the puzzle given: 4×4 (2×2 boxes), 13 givens; scheme FC (the first scheme that solves it without search)"
    ));
    let hidden = run(&["explain", "models/sudoku/9x9/hidden_singles.txt"], b"");
    assert!(stdout(&hidden).contains("; scheme FCI (the first scheme"));
    // A square with no completion: a contradiction, exit 1.
    let none = run(&["explain", "--latin", "12...3...", "--scheme", "FC"], b"");
    assert_eq!(none.status.code(), Some(1));
    let text = stdout(&none);
    assert!(text.contains("contradiction: (3,1) has one candidate left, 1"));
    assert!(text.contains("FC reaches a contradiction after 5 steps"));
}

#[test]
fn bad_input_is_refused() {
    for (args, message) in [
        (
            vec!["explain", "nosuch.txt"],
            "cannot open nosuch.txt: no such file, and not a puzzle",
        ),
        (
            vec!["explain", "models/sudoku/9x9/xwing.txt", "--index", "9"],
            "holds 2 puzzles, so there is no puzzle 9",
        ),
        (
            vec!["explain", "models/sudoku/9x9/xwing.txt", "--scheme", "XYZ"],
            "unknown scheme 'XYZ'",
        ),
        (
            vec!["explain", "models/sudoku/9x9/xwing.txt", "--index", "0"],
            "--index counts from 1",
        ),
    ] {
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}
