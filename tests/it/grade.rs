//! `sudokit grade`: known cases, the paper's evidence puzzles, JSON shape, tables, bad input,
//! runtime.

use serde_json::Value;

use crate::common::{assert_no_panic, run, s, stderr, stdout, temp_file};

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn hidden_singles_need_channeling_and_xwings_need_the_colored_matrix() {
    let out = run(
        &[
            "grade",
            "--json",
            "models/sudoku/9x9/hidden_singles.txt",
            "models/sudoku/9x9/xwing.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    // 2 puzzles + summary, twice.
    assert_eq!(objects.len(), 6);
    for o in &objects[0..2] {
        let free = names(&o["search_free"]);
        assert!(
            free.contains(&"FCI".into()) && !free.contains(&"FC".into()),
            "{o}"
        );
        assert!(names(&o["weakest"]).contains(&"FCI".into()));
    }
    for o in &objects[3..5] {
        let free = names(&o["search_free"]);
        assert!(
            free.contains(&"HACC".into()) && !free.contains(&"HAC".into()),
            "{o}"
        );
        assert!(!free.contains(&"HACS".into()) && !free.contains(&"HAC3".into()));
        assert_eq!(o["candidates"]["HACC"], 81);
        assert!(o["candidates"]["HAC"].as_u64().unwrap() > 81);
    }
    let summary = &objects[5];
    assert_eq!(summary["puzzles"], 2);
    assert_eq!(summary["search_free"]["HACC"], 100.0);
    assert_eq!(summary["search_free"]["HAC"], 0.0);
}

#[test]
fn summary_objects_have_the_documented_fields() {
    let out = run(
        &[
            "grade",
            "--json",
            "models/sudoku/9x9/easy.txt",
            "models/sudoku/6x6/puzzles.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects.len(), 22);
    let summary = &objects[10];
    assert_eq!(summary["file"], "models/sudoku/9x9/easy.txt");
    assert_eq!(summary["puzzles"], 10);
    assert_eq!(summary["givens"]["min"], 36);
    assert_eq!(summary["givens"]["max"], 36);
    assert_eq!(summary["givens"]["avg"], 36.0);
    let map = summary["search_free"].as_object().unwrap();
    let expected = [
        "FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "HACSC", "HACS3", "HACC3",
        "HACSC3", "FCV", "BCV", "HACV", "FCV+", "BCV+", "HACV+",
    ];
    assert_eq!(map.len(), 18);
    for name in expected {
        let pct = map[name].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&pct), "{name}: {pct}");
    }
    // Per-puzzle objects come in input order.
    let lines: Vec<u64> = objects[11..21]
        .iter()
        .map(|o| o["line"].as_u64().unwrap())
        .collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
    // The percentages agree with the per-puzzle objects.
    for name in expected {
        let free = objects[0..10]
            .iter()
            .filter(|o| names(&o["search_free"]).contains(&name.to_string()))
            .count();
        assert_eq!(map[name].as_f64().unwrap(), free as f64 * 10.0, "{name}");
    }
}

#[test]
fn text_output_has_a_line_per_puzzle_a_table_and_the_lattice() {
    let out = run(
        &[
            "grade",
            "--schemes",
            "FC,FCI,HAC,HACC",
            "models/sudoku/9x9/xwing.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("models/sudoku/9x9/xwing.txt:1: 17 givens; weakest: HACC;"),
        "{first}"
    );
    assert!(text.contains("    FC    FCI    HAC   HACC"), "{text}");
    assert!(text.contains("HAC    ⊏ HACC         2"), "{text}");
    assert!(
        text.contains("FC     ⊏ FCI          0  (no difference found)"),
        "{text}"
    );
    let quiet = run(
        &[
            "grade",
            "--summary",
            "--schemes",
            "FC",
            "models/sudoku/9x9/xwing.txt",
        ],
        b"",
    );
    assert!(!stdout(&quiet).contains("givens; weakest"));
}

#[test]
fn bad_lines_are_reported_in_place_and_the_rest_is_graded() {
    let nine = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let input = format!("{nine}\n{}x\n{nine}\n", &nine[..80]);
    let file = temp_file("grade_bad.txt", input.as_bytes());
    let out = run(&["grade", "--schemes", "FC,HACV", s(&file)], b"");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with(":1: 17 givens; weakest: HACV; search-free: HACV"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("error: ") && lines[1].contains("grade_bad.txt:2:81:"),
        "{text}"
    );
    assert!(lines[2].contains(":3: 17 givens"), "{text}");
    let out = run(&["grade", "--json", "--schemes", "FC", s(&file)], b"");
    assert_eq!(out.status.code(), Some(2));
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects[1]["status"], "error");
    assert_eq!(objects[1]["line"], 2);
    assert_eq!(objects[3]["puzzles"], 2);
}

#[test]
fn unknown_schemes_and_empty_input_are_usage_errors() {
    let out = run(&["grade", "--schemes", "FC,HACX", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown scheme 'HACX'"),
        "{}",
        stderr(&out)
    );
    let out = run(&["grade", "-"], b"# nothing\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no puzzles found"));
}

#[test]
fn runtime_reports_searches_that_prove_uniqueness() {
    let out = run(
        &[
            "grade",
            "--json",
            "--runtime",
            "--schemes",
            "FC,HAC,HACS",
            "models/sudoku/9x9/hard.txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects.len(), 12);
    for o in &objects[..11] {
        for scheme in ["FC", "HAC", "HACS"] {
            let r = &o["runtime"][scheme];
            assert_eq!(r["solutions"], 1, "{o}");
            assert_eq!(r["complete"], true);
            assert!(r["nodes"].as_u64().unwrap() >= 1);
        }
    }
    let table = &objects[11]["runtime"]["HAC"];
    assert!(table["ms"]["min"].as_f64().unwrap() <= table["ms"]["median"].as_f64().unwrap());
    assert!(table["ms"]["median"].as_f64().unwrap() <= table["ms"]["max"].as_f64().unwrap());
    assert_eq!(objects[11]["runtime"]["FC"]["unknown"], 0);
    let text = stdout(&run(
        &[
            "grade",
            "--summary",
            "--runtime",
            "--schemes",
            "HAC",
            "models/sudoku/9x9/hard.txt",
        ],
        b"",
    ));
    assert!(text.contains("Search time per puzzle"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("HAC ")), "{text}");
}

/// The candidates each scheme leaves on each puzzle of a file (`None`: refuted).
fn candidates(args: &[&str]) -> Vec<Value> {
    let out = run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    objects[..objects.len() - 1]
        .iter()
        .map(|o| o["candidates"].clone())
        .collect()
}

#[test]
fn the_papers_evidence_puzzles_grade_as_its_model_does() {
    // simonis_cases.txt: top100 line 31, royle17 line 1, top100 line 18 (see models/README.md).
    let file = "models/sudoku/9x9/simonis_cases.txt";
    let got = candidates(&["grade", "--json", file]);
    // ECLiPSe's range exhaustion solves line 31 (textbook bounds consistency stopped at 310).
    assert_eq!(got[0]["BC"], 81);
    assert!(got[0]["FCI"].as_u64().unwrap() > 81);
    // The duals' alldifferent solves royle17's first puzzle; BC alone does not.
    assert_eq!(got[1]["BCI"], 81);
    assert!(got[1]["BC"].as_u64().unwrap() > 81);
    // One shaving pass on FC leaves 205 candidates; repeated passes solve it.
    assert_eq!(got[2]["FCV"], 205);
    assert_eq!(got[2]["FCV+"], 81);
    assert_eq!(got[2]["BCV"], 81);
    // --shave fixpoint makes FCV the repeated form, --shave once makes FCV+ the single pass.
    let fixpoint = candidates(&[
        "grade",
        "--json",
        "--shave",
        "fixpoint",
        "--schemes",
        "FCV",
        file,
    ]);
    assert_eq!(fixpoint[2]["FCV+"], 81);
    assert!(fixpoint[2].get("FCV").is_none());
    let once = candidates(&[
        "grade",
        "--json",
        "--shave",
        "once",
        "--schemes",
        "FCV+",
        file,
    ]);
    assert_eq!(once[2]["FCV"], 205);
    // The text table shows both shavings and the edge between them.
    let text = stdout(&run(
        &["grade", "--summary", "--schemes", "FCV,FCV+", file],
        b"",
    ));
    assert!(text.contains("FCV    ⊏ FCV+         1"), "{text}");
}

/// The difficulty label of every puzzle of `files`, in order (`--json`, the schemes that decide
/// it).
fn difficulties(files: &[&str]) -> Vec<String> {
    let mut args = vec!["grade", "--json", "--schemes", "FCI,HAC,HACS"];
    args.extend_from_slice(files);
    let out = run(&args, b"");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The puzzles' objects (the summary object of each file follows them).
    json_lines(&stdout(&out))
        .iter()
        .filter(|v| v.get("line").is_some())
        .map(|v| v["difficulty"].as_str().expect("a label").to_string())
        .collect()
}

#[test]
fn difficulty_labels_follow_the_schemes_on_the_collections() {
    // Hidden singles: easy; the paper's BC and BCI cases (search-free for HAC, not FCI): medium;
    // the X-wing puzzles (search-free for HACC only): expert.
    assert_eq!(
        difficulties(&[
            "models/sudoku/9x9/hidden_singles.txt",
            "models/sudoku/9x9/simonis_cases.txt",
            "models/sudoku/9x9/xwing.txt",
        ]),
        [
            "easy", "easy", "medium", "medium", "expert", "expert", "expert"
        ]
    );
    // top100, the data set of Simonis' tables: FCI 0 %, HAC 5 %, HACS 14 % search-free
    // (BENCHMARKS.md, "Grading"), so 0 easy, 5 medium, 9 hard, 86 expert.
    let labels = difficulties(&["models/sudoku/9x9/top100.txt"]);
    let count = |label: &str| labels.iter().filter(|l| *l == label).count();
    assert_eq!(
        [
            count("easy"),
            count("medium"),
            count("hard"),
            count("expert")
        ],
        [0, 5, 9, 86]
    );
    // The text line ends with the same label.
    let out = run(
        &[
            "grade",
            "--schemes",
            "FCI,HAC,HACS",
            "models/sudoku/9x9/hidden_singles.txt",
        ],
        b"",
    );
    let text = stdout(&out);
    let records: Vec<&str> = text.lines().filter(|l| l.contains(" givens; ")).collect();
    assert_eq!(records.len(), 2, "{text}");
    assert!(
        records.iter().all(|l| l.ends_with("; difficulty: easy")),
        "{text}"
    );
    // Without the schemes that decide it, no label.
    let out = run(
        &[
            "grade",
            "--json",
            "--schemes",
            "FC",
            "models/sudoku/9x9/top95.txt",
        ],
        b"",
    );
    assert!(
        json_lines(&stdout(&out))
            .iter()
            .all(|v| v["difficulty"].is_null())
    );
}

#[test]
fn generate_difficulty_makes_puzzles_that_grade_gives_the_same_label() {
    for label in ["easy", "medium", "hard", "expert"] {
        let out = run(
            &[
                "generate",
                "--box",
                "3x3",
                "--difficulty",
                label,
                "--count",
                "2",
                "--seed",
                "5",
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{label}: {}", stderr(&out));
        let file = temp_file(&format!("difficulty-{label}.txt"), stdout(&out).as_bytes());
        assert_eq!(difficulties(&[s(&file)]), [label, label], "{label}");
    }
    // A label stands for --scheme and --not-scheme: not both.
    let out = run(
        &[
            "generate",
            "--box",
            "3x3",
            "--difficulty",
            "hard",
            "--scheme",
            "HAC",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["generate", "--box", "3x3", "--difficulty", "trivial"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("easy, medium, hard or expert"),
        "{}",
        stderr(&out)
    );
}
