//! `sudokit explain`: the propagation of one scheme, step by step, as text, JSON lines and HTML;
//! and the replay checker that every explanation passes (and that rejects broken ones).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::generate::latin::random_partial;
use sudokit::grade::{FixpointVerdict, grade, scheme_to_explain};
use sudokit::propagate::explain::{Ending, Explanation, Reason, StepKind, explain, replay};
use sudokit::propagate::{Domains, Scheme};
use sudokit::text::{ShapeSpec, parse_line};
use sudokit::{Grid, Shape};

use crate::common::{run, s, stderr, stdout, temp_file};

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn puzzles(text: &str, spec: Option<ShapeSpec>) -> Vec<Grid> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| parse_line(l, spec).unwrap())
        .collect()
}

/// The explanation ends where the grade says the scheme's fixpoint is.
fn agrees_with_grade(story: &Explanation, verdict: FixpointVerdict) -> bool {
    matches!(
        (&story.ending, verdict),
        (Ending::Solved(_), FixpointVerdict::SearchFree)
            | (Ending::Stuck { .. }, FixpointVerdict::Open { .. })
            | (Ending::Contradiction, FixpointVerdict::Refuted)
    )
}

/// Explains `puzzle` with every scheme of `schemes` (explain replays each), and checks each
/// ending against the grade.
fn explain_all(puzzle: &Grid, schemes: &[Scheme]) -> Vec<Explanation> {
    let graded = grade(puzzle, schemes);
    schemes
        .iter()
        .map(|&scheme| {
            let story = explain(puzzle, scheme).unwrap_or_else(|e| panic!("{scheme}: {e}"));
            let verdict = graded.verdict(scheme).unwrap();
            assert!(
                agrees_with_grade(&story, verdict),
                "{scheme}: {:?} but graded {verdict:?}",
                story.ending
            );
            story
        })
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
    assert!(text.contains("step 1, givens: The 17 givens are placed"));
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
    // FC alone cannot: it stops where a search would start, on the cell it would branch on.
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
    assert!(stdout(&fc).contains("a search would start here, branching on ("));
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
    // HAC alone gets stuck on it, and names the branch.
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
    assert_eq!(last["branch"].as_array().unwrap().len(), 3);
    // The page: one frame per step and a last one, each with the grid of candidates.
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("<section class=\"slide frame\"").count(),
        steps.len() + 1
    );
    assert!(html.contains("id=\"step-1\"") && html.contains("id=\"end\""));
    assert!(html.contains("Step 1 of") && html.contains(": X-wing</a></h2>"));
    for piece in html.split("<svg").skip(1).take(5) {
        let svg = format!("<svg{}</svg>", piece.split("</svg>").next().unwrap());
        assert!(roxmltree::Document::parse(&svg).is_ok());
    }
}

/// Finding 1: every given is placed and propagated at step 1, and the contradiction of the
/// course's uncompletable square is the cell (1,3), not a given.
#[test]
fn step_one_places_every_given() {
    let out = run(&["explain", "--latin", "12...3..."], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("scheme FC (the first scheme that proves it has no solution)"),
        "{text}"
    );
    assert!(
        text.contains("step 1, givens: The 3 givens are placed"),
        "{text}"
    );
    assert!(
        text.contains(
            "step 2, contradiction: Contradiction: (1,3) has no candidate left: its row holds \
             1 and 2 and its column holds 3"
        ),
        "{text}"
    );
    assert!(!text.contains("(1,1) has no candidate"));
    let json = json_lines(&stdout(&run(
        &["explain", "--latin", "12...3...", "--json"],
        b"",
    )));
    assert_eq!(
        json[0]["placed"],
        serde_json::json!([[1, 1, 1], [1, 2, 2], [2, 3, 3]])
    );
    // No step ever removes a given's value.
    for step in &json {
        for r in step["removed"].as_array().into_iter().flatten() {
            assert!(
                ![[1, 1], [1, 2], [2, 3]]
                    .contains(&[r[0].as_u64().unwrap(), r[1].as_u64().unwrap()])
            );
        }
    }
    // The page: no frame strikes a given out, and the last frame still shows the three givens.
    let page = temp_file("explain-givens.html", b"");
    let out = run(
        &["explain", "--latin", "12...3...", "--html", s(&page)],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).unwrap();
    let end = html.split("id=\"end\"").nth(1).unwrap();
    let svg = end
        .split("<svg")
        .nth(1)
        .unwrap()
        .split("</svg>")
        .next()
        .unwrap();
    assert_eq!(svg.matches("<text class=\"g\"").count(), 3, "{svg}");
    assert!(!svg.contains("class=\"x\""));
    // The 9×9 of the issue: 21 givens, all at step 1, none placed again.
    let line = include_str!("../../models/sudoku/9x9/top100.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(9)
        .unwrap();
    let out = run(&["explain", "-", "--json"], format!("{line}\n").as_bytes());
    let steps = json_lines(&stdout(&out));
    assert_eq!(steps[0]["kind"], "givens");
    assert_eq!(steps[0]["placed"].as_array().unwrap().len(), 21);
    let text = stdout(&run(&["explain", "-"], format!("{line}\n").as_bytes()));
    assert!(
        text.contains("step 1, givens: The 21 givens are placed"),
        "{text}"
    );
    assert_eq!(text.matches(", givens: ").count(), 1);
    // Each cell is placed once: the givens at step 1, every other cell by one single.
    let mut placed = std::collections::BTreeSet::new();
    for step in &steps {
        for p in step["placed"].as_array().into_iter().flatten() {
            assert!(
                placed.insert((p[0].as_u64().unwrap(), p[1].as_u64().unwrap())),
                "{p} placed twice"
            );
        }
    }
    assert_eq!(placed.len(), 81);
}

/// The rank of a kind in the order of the story: easiest first.
fn rank(kind: StepKind) -> usize {
    match kind {
        StepKind::Givens | StepKind::Contradiction => 0,
        StepKind::NakedSingle => 1,
        StepKind::HiddenSingle => 2,
        StepKind::LockedCandidates => 3,
        _ => 4,
    }
}

/// Finding 6: singles come before anything harder, and a hidden single before a locked
/// candidate or a set; a set never holds a solved cell; probes carry their chain.
fn check_order(story: &Explanation) {
    let shape = story.puzzle.shape();
    let n = shape.order();
    let mut placed = vec![false; shape.cells()];
    let hidden_rule = story.steps.iter().any(|s| s.kind == StepKind::HiddenSingle)
        || matches!(
            story.scheme.name(),
            "FCI"
                | "BCI"
                | "HAC"
                | "HACS"
                | "HACC"
                | "HAC3"
                | "HACSC"
                | "HACS3"
                | "HACC3"
                | "HACSC3"
                | "HACV"
                | "HACV+"
        );
    let mut k = 0;
    story.frames(|step, d: &Domains| {
        let Some(step) = step else {
            return;
        };
        k += 1;
        let naked = (0..shape.cells()).any(|c| d.count(c) == 1 && !placed[c]);
        let hidden = shape.units().any(|unit| {
            (0..n).any(|v| {
                let places: Vec<usize> = shape
                    .unit_cells(unit)
                    .filter(|&c| d.contains(c, v))
                    .collect();
                places.len() == 1 && d.count(places[0]) > 1
            })
        });
        if step.kind != StepKind::Givens && naked {
            assert!(
                rank(step.kind) <= 1,
                "step {k}: {} while a naked single was open",
                step.name
            );
        }
        if hidden_rule && hidden && !naked {
            assert!(
                rank(step.kind) <= 2,
                "step {k}: {} while a hidden single was open",
                step.name
            );
        }
        if matches!(step.kind, StepKind::NakedSet | StepKind::HiddenSet) {
            assert!(
                step.cells.iter().all(|&c| d.count(c) > 1),
                "step {k}: a set with a solved cell"
            );
            assert!(step.cells.len() >= 2);
        }
        if step.kind == StepKind::Probe {
            let chain = step.chain();
            assert!(
                chain
                    .last()
                    .is_some_and(|s| s.kind == StepKind::Contradiction)
            );
        }
        for &(c, _) in &step.placed {
            assert!(!placed[c], "step {k}: a cell placed twice");
            placed[c] = true;
        }
    });
}

#[test]
fn steps_come_easiest_first_and_name_where_search_starts() {
    for (file, spec) in [
        (include_str!("../../models/sudoku/9x9/xwing.txt"), None),
        (
            include_str!("../../models/sudoku/9x9/hidden_singles.txt"),
            None,
        ),
        (
            include_str!("../../models/latin/course.txt"),
            Some(ShapeSpec::Latin),
        ),
    ] {
        for puzzle in puzzles(file, spec) {
            for story in explain_all(&puzzle, &Scheme::EVERY) {
                check_order(&story);
            }
        }
    }
    // A stuck ending names the most constrained cell and its first value.
    let puzzle = puzzles(include_str!("../../models/sudoku/9x9/xwing.txt"), None)[0].clone();
    let story = explain(&puzzle, Scheme::HAC).unwrap();
    let Ending::Stuck { branch, .. } = story.ending else {
        panic!("HAC is stuck on the X-wing puzzle");
    };
    let d = story.final_store();
    let fewest = (0..81)
        .filter(|&c| d.count(c) > 1)
        .map(|c| d.count(c))
        .min()
        .unwrap();
    assert_eq!(d.count(branch.0), fewest);
    assert_eq!(d.min(branch.0), Some(branch.1));
    assert!(story.ending_text().contains("trying"));
}

/// Finding 6: the header's scheme is what the schemes do: a square that a scheme refutes is not
/// "unsolved by every scheme".
#[test]
fn the_default_scheme_is_the_first_that_decides() {
    let out = run(&["explain", "12.434.221.34321"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(
        "the puzzle given: 4×4 (2×2 boxes), 13 givens; scheme FC (the first scheme that solves it without search)"
    ));
    let hidden = run(&["explain", "models/sudoku/9x9/hidden_singles.txt"], b"");
    assert!(stdout(&hidden).contains("; scheme FCI (the first scheme"));
    // The order-5 square whose top-left 3×3 is a Latin subsquare: HAC refutes it, by a Hall
    // violation of a column.
    let out = run(&["explain", "--latin", "123..231..312............"], b"");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("(the first scheme that proves it has no solution)"),
        "{text}"
    );
    assert!(text.contains("(a Hall violation)"), "{text}");
    for line in include_str!("../../models/sudoku/9x9/top100.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(10)
    {
        let puzzle = parse_line(line, None).unwrap();
        let (scheme, why) = scheme_to_explain(&puzzle);
        let story = explain(&puzzle, scheme).unwrap();
        assert_eq!(
            story.solution().is_some(),
            why.contains("solves it"),
            "{line}: {scheme} {why}"
        );
    }
}

/// Every explanation the course and the data produce passes the replay checker and ends at the
/// grade's verdict: the course squares, random squares of orders 3–6 (the uncompletable ones
/// among them), and top100 with the scheme `explain` chooses. (Every scheme on all of top100 is
/// the release suite below.)
#[test]
fn every_explanation_replays() {
    for file in [
        include_str!("../../models/latin/course.txt"),
        include_str!("../../models/latin/lecture.txt"),
    ] {
        for square in puzzles(file, Some(ShapeSpec::Latin)) {
            explain_all(&square, &Scheme::EVERY);
        }
    }
    for square in puzzles(
        include_str!("../../models/latin/partial.txt"),
        Some(ShapeSpec::Latin),
    ) {
        explain_all(&square, &[Scheme::FC, Scheme::HAC, Scheme::HACC]);
    }
    let native = sudokit::solve::backend("native").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut uncompletable = 0;
    for m in 3..=6 {
        for i in 0..8 {
            let square = random_partial(m, m * m / 3 + i % m, &mut rng).unwrap();
            let solved = native
                .solve(&square, &sudokit::solve::Limits::none())
                .unwrap();
            uncompletable += usize::from(solved.answer.solution().is_none());
            explain_all(
                &square,
                &[
                    Scheme::FC,
                    Scheme::FCI,
                    Scheme::BC,
                    Scheme::HAC,
                    Scheme::HACC,
                    Scheme::HACV,
                ],
            );
        }
    }
    assert!(uncompletable >= 5, "{uncompletable} uncompletable squares");
    for puzzle in puzzles(include_str!("../../models/sudoku/9x9/top100.txt"), None)
        .iter()
        .step_by(4)
    {
        let (scheme, _) = scheme_to_explain(puzzle);
        explain_all(puzzle, &[scheme]);
    }
}

#[test]
#[ignore = "release suite: every scheme on every top100 puzzle (run by .ci/run)"]
fn explain_release_every_scheme_on_top100() {
    for puzzle in puzzles(include_str!("../../models/sudoku/9x9/top100.txt"), None) {
        explain_all(&puzzle, &Scheme::EVERY);
    }
    for square in puzzles(
        include_str!("../../models/latin/partial.txt"),
        Some(ShapeSpec::Latin),
    ) {
        explain_all(&square, &Scheme::EVERY);
    }
    let native = sudokit::solve::backend("native").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2029);
    for m in 3..=6 {
        for i in 0..40 {
            let square = random_partial(m, m * m / 3 + i % (m * m / 2), &mut rng).unwrap();
            let _ = native
                .solve(&square, &sudokit::solve::Limits::none())
                .unwrap();
            explain_all(&square, &Scheme::EVERY);
        }
    }
}

/// Hand-broken explanations are rejected, each with the step that does not follow.
#[test]
fn the_replay_checker_rejects_broken_explanations() {
    let puzzle = puzzles(include_str!("../../models/sudoku/9x9/xwing.txt"), None)[0].clone();
    let good = explain(&puzzle, Scheme::HACC).unwrap();
    assert_eq!(replay(&good), Ok(()));
    let rejected = |story: &Explanation, what: &str| {
        let error = replay(story).expect_err(what);
        eprintln!("{what}: {error}");
        error
    };
    let find = |kind: StepKind| good.steps.iter().position(|s| s.kind == kind).unwrap();
    // A removal the naked pair does not imply (another value of another cell).
    let mut story = good.clone();
    let pair = find(StepKind::NakedSet);
    let before = {
        let mut d = Domains::from_puzzle(&puzzle);
        for s in &story.steps[..pair] {
            for &(c, v) in &s.removed {
                d.remove(c, v);
            }
        }
        d
    };
    let Reason::NakedSet { values, unit, .. } = story.steps[pair].reason.clone() else {
        unreachable!()
    };
    let shape = puzzle.shape();
    let extra = shape
        .unit_cells(shape.unit(unit))
        .filter(|&c| before.count(c) > 1)
        .flat_map(|c| before.values(c).map(move |v| (c, v)))
        .find(|(_, v)| !values.contains(v))
        .unwrap();
    story.steps[pair].removed.push(extra);
    assert_eq!(
        rejected(&story, "an extra removal").step,
        (pair + 1).to_string()
    );
    // A given named as a candidate.
    let mut story = good.clone();
    let given = puzzle.givens().next().unwrap();
    story.steps[pair].removed.push((given.0, (given.1 + 1) % 9));
    assert!(
        rejected(&story, "a given's candidate")
            .message
            .contains("given")
    );
    // A hidden single moved to another cell.
    let mut story = good.clone();
    let hidden = find(StepKind::HiddenSingle);
    if let Reason::HiddenSingle { cell, .. } = &mut story.steps[hidden].reason {
        *cell = (*cell + 1) % 81;
    }
    rejected(&story, "a hidden single elsewhere");
    // The givens step dropped: the first step no longer starts from every given.
    let mut story = good.clone();
    story.steps.remove(0);
    assert_eq!(rejected(&story, "no givens step").step, "1");
    // A step dropped: a later single is no longer single.
    let mut story = good.clone();
    story.steps.remove(1);
    rejected(&story, "a step left out");
    // The X-wing's rows claimed for a value it does not confine.
    let mut story = good.clone();
    let fish = find(StepKind::Fish);
    if let Reason::Confined { value, .. } = &mut story.steps[fish].reason {
        *value = (*value + 1) % 9;
    }
    rejected(&story, "a fish on another value");
    // A wrong solution at the end.
    let mut story = good.clone();
    if let Ending::Solved(grid) = &mut story.ending {
        let v = grid.get(0).unwrap();
        grid.set(0, Some((v + 1) % 9));
    }
    assert_eq!(rejected(&story, "a wrong solution").step, "ending");
    // A hidden pair that includes a solved cell.
    let square = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
    let mut story = explain(&square, Scheme::HAC).unwrap();
    story.steps.insert(
        1,
        sudokit::propagate::explain::Deduction {
            kind: StepKind::HiddenSet,
            name: "hidden pair".into(),
            reason: Reason::HiddenSet {
                unit: 0,
                values: vec![0, 2],
                cells: vec![0, 2],
            },
            units: vec![0],
            cells: vec![0, 2],
            values: vec![0, 2],
            removed: vec![],
            placed: vec![],
            text: String::new(),
        },
    );
    rejected(&story, "a hidden pair with a solved cell");
    // A probe whose chain stops short of a contradiction.
    let line = include_str!("../../models/sudoku/9x9/top100.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(9)
        .unwrap();
    let puzzle = parse_line(line, None).unwrap();
    let mut story = explain(&puzzle, Scheme::BCV).unwrap();
    let probe = story
        .steps
        .iter()
        .position(|s| s.kind == StepKind::Probe)
        .unwrap();
    if let Reason::Probe { chain, .. } = &mut story.steps[probe].reason {
        assert!(chain.len() >= 2);
        chain.pop();
    }
    assert!(
        rejected(&story, "a probe without its contradiction")
            .message
            .contains("chain")
    );
    // A step the scheme does not have: a hidden single in an FC story.
    let puzzle = puzzles(
        include_str!("../../models/sudoku/9x9/hidden_singles.txt"),
        None,
    )[0]
    .clone();
    let mut story = explain(&puzzle, Scheme::FCI).unwrap();
    story.scheme = Scheme::FC;
    assert!(
        rejected(&story, "a rule outside the scheme")
            .message
            .contains("no hidden single rule")
    );
    let _ = Shape::latin(3);
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
            "has 2 puzzles, not 9",
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

#[test]
fn explain_stops_at_its_timeout_with_a_message_and_exit_1() {
    // An empty 100×100 Latin square: grading every scheme to choose one (the shaving schemes
    // probe each of its million candidates) once ran on past --timeout until the hard stop
    // (exit 124, no output).
    let empty: String = (0..100)
        .map(|_| format!("{}\n", [". "; 100].concat()))
        .collect();
    let start = std::time::Instant::now();
    let out = run(
        &["--timeout", "1", "explain", "--latin", "-"],
        empty.as_bytes(),
    );
    let elapsed = start.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "puzzle 1 of -: stopped: time limit before the explanation was told\n"
    );
    assert!(
        stderr(&out).contains("--timeout 1 s reached"),
        "{}",
        stderr(&out)
    );
    assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
    // A shaving scheme asked for, in JSON: the ending says stopped.
    let out = run(
        &[
            "--timeout",
            "1",
            "explain",
            "--latin",
            "--scheme",
            "FCV",
            "--json",
            "-",
        ],
        empty.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["ending"], "stopped");
    assert_eq!(lines[0]["reason"], "time limit");
}

#[test]
fn clashing_givens_are_explained_as_the_contradiction_they_are() {
    // Other commands refuse the line (exit 2); explain tells why it has no solution.
    let page = temp_file("clash.html", b"");
    let out = run(&["explain", "11..............", "--report", s(&page)], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "step 2, contradiction: Contradiction: in row 1, (1,1) and (1,2) both hold 1"
        ),
        "{text}"
    );
    assert!(text.contains("the puzzle has no solution"), "{text}");
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains("both hold 1")
    );
    // From a file too, in a Latin square's column.
    let file = temp_file("clash.txt", b"1..1.....\n");
    let out = run(&["explain", "--latin", s(&file), "--json"], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("in column 1, (1,1) and (2,1) both hold 1"),
        "{}",
        stdout(&out)
    );
    let refused = run(&["solve", "11.............."], b"");
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn human_order_takes_the_easiest_rule_first_and_ends_where_the_scheme_does() {
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/simonis_cases.txt",
            "--order",
            "human",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let single = text
        .lines()
        .position(|l| l.contains("hidden single: In row 5, 3 fits only in (5,4)"))
        .unwrap_or_else(|| panic!("no hidden single at (5,4): {text}"));
    let first_set = text
        .lines()
        .position(|l| l.contains("naked pair") || l.contains("naked triple"))
        .unwrap_or(usize::MAX);
    assert!(single < first_set, "{text}");
    assert!(
        text.contains("BC, told in human order, solves the puzzle"),
        "{text}"
    );
    // The scheme's own order: a naked set first (BC has no hidden singles).
    let own = stdout(&run(
        &["explain", "models/sudoku/9x9/simonis_cases.txt"],
        b"",
    ));
    assert!(own.lines().nth(2).unwrap().contains("naked"), "{own}");
    // JSON says the order.
    let json = stdout(&run(
        &[
            "explain",
            "models/sudoku/9x9/simonis_cases.txt",
            "--order",
            "human",
            "--json",
        ],
        b"",
    ));
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(last["order"], "human");
}

#[test]
fn human_order_replays_and_reaches_the_schemes_own_end() {
    use sudokit::propagate::explain::{Order, explain_in_order};
    use sudokit::search::Limits;
    let file = std::fs::read_to_string("models/sudoku/9x9/top95.txt").unwrap();
    for line in file.lines().filter(|l| !l.starts_with('#')).take(12) {
        let puzzle = parse_line(line, None).unwrap();
        for scheme in [Scheme::FC, Scheme::BC, Scheme::HAC, Scheme::HACC] {
            // explain_in_order replays every step before it returns.
            let own = explain_in_order(&puzzle, scheme, Order::Scheme, &Limits::none()).unwrap();
            let human = explain_in_order(&puzzle, scheme, Order::Human, &Limits::none()).unwrap();
            assert_eq!(human.ending, own.ending, "{scheme} on {line}");
            assert_eq!(human.final_store(), own.final_store(), "{scheme} on {line}");
        }
    }
}

#[test]
fn a_probe_chain_is_stepped_through_in_sub_frames_drawn_on_the_grid() {
    let puzzle = std::fs::read_to_string("models/sudoku/9x9/hard.txt").unwrap();
    let line = puzzle.lines().nth(9).unwrap();
    let grid = parse_line(line, None).unwrap();
    let story = explain(&grid, scheme_to_explain(&grid).0).unwrap();
    let (k, probe) = story
        .steps
        .iter()
        .enumerate()
        .find(|(_, s)| !s.chain().is_empty())
        .expect("a probe");
    let html = sudokit::render::explain::explain_page(&story, "probe");
    let chains: usize = story.steps.iter().map(|s| s.chain().len()).sum();
    assert_eq!(
        html.matches("<section class=\"slide frame lecture-only\"")
            .count(),
        chains,
        "one lecture-only sub-frame per step of every chain"
    );
    for (j, sub) in probe.chain().iter().enumerate() {
        let id = format!("id=\"step-{}-{}\"", k + 1, j + 1);
        let frame = html.split(id.as_str()).nth(1).expect("the sub-frame");
        let frame = frame.split("</section>").next().unwrap();
        assert!(frame.contains(&format!(
            "{} of {}: {}",
            j + 1,
            probe.chain().len(),
            sub.name
        )));
        assert!(frame.contains("<svg"), "drawn on the grid");
        // What the sub-step removes is struck out, what it places is outlined.
        assert_eq!(frame.matches("class=\"strike\"").count(), sub.removed.len());
        assert_eq!(frame.matches("class=\"placed\"").count(), sub.placed.len());
    }
    // The page stays a document: the sub-frames are lecture-only, the chain listed in place.
    assert!(html.contains("<ol class=\"chain\">"));
}
