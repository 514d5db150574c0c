//! `export` and `decode` from the command line (no external tool needed).

use sudokit::format::{col, dimacs, dlx1, hgr};
use sudokit::text::parse_line;

use crate::common::{assert_no_panic, run, s, stderr, stdout, temp_file};
use crate::export_support::{brute_force_solutions, exact_covers};

const EMPTY_9: &str = "{\"box\":[3,3],\"givens\":[]}\n";

#[test]
fn the_empty_nine_by_nine_has_the_papers_clause_counts() {
    for (encoding, clauses) in [("minimal", 8829), ("efficient", 11745), ("extended", 11988)] {
        let out = run(
            &[
                "export",
                "-",
                "--to",
                "cnf",
                "--encoding",
                encoding,
                "--stats",
            ],
            EMPTY_9.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        let header = text.lines().find(|l| l.starts_with("p ")).unwrap();
        assert_eq!(header, format!("p cnf 729 {clauses}"));
        let stats = stderr(&out);
        assert!(
            stats.contains(&format!(
                "cnf {encoding}/pairwise: 729 variables, {clauses} clauses"
            )),
            "{stats}"
        );
        assert!(stats.contains(&format!("{} bytes", text.len())), "{stats}");
    }
    let out = run(
        &[
            "export",
            "-",
            "--to",
            "cnf",
            "--encoding",
            "optimized",
            "--stats",
        ],
        EMPTY_9.as_bytes(),
    );
    let stats = stderr(&out);
    assert!(stats.contains("729 variables, 10530 clauses"), "{stats}");
    assert!(
        stats.contains("dropped 1458 box pairs that repeat a row or column pair"),
        "{stats}"
    );
}

#[test]
fn several_puzzles_need_an_index_or_a_directory() {
    let out = run(
        &["export", "models/sudoku/9x9/easy.txt", "--to", "cnf"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--index N, or write one file each with --out-dir DIR"),
        "{}",
        stderr(&out)
    );
    let out = run(
        &[
            "export",
            "models/sudoku/9x9/easy.txt",
            "--to",
            "cnf",
            "--index",
            "11",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("has 10 puzzles, not 11"));
    let out = run(
        &[
            "export",
            "models/sudoku/9x9/easy.txt",
            "--to",
            "lp",
            "--amo",
            "product",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--to cnf only"));
    let out = run(
        &[
            "export",
            "models/sudoku/9x9/easy.txt",
            "--to",
            "cnf",
            "--encoding",
            "tiny",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("minimal, efficient, extended, optimized"));
}

#[test]
fn a_directory_gets_one_file_per_puzzle() {
    let dir = temp_file("export-dir-marker", b"").with_file_name("export-dir");
    let _ = std::fs::remove_dir_all(&dir);
    let target = format!("{}/", s(&dir));
    let out = run(
        &[
            "export",
            "models/sudoku/6x6/puzzles.txt",
            "--to",
            "col",
            "-o",
            &target,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let puzzles =
        std::fs::read_to_string(crate::common::path("models/sudoku/6x6/puzzles.txt")).unwrap();
    for (k, line) in (1..).zip(puzzles.lines()) {
        let puzzle = parse_line(line, None).unwrap();
        let col_file = dir.join(format!("puzzles-{k:02}.col"));
        let graph = col::read_col(&std::fs::read(&col_file).unwrap()[..]).unwrap();
        assert_eq!((graph.vertices, graph.edges.len()), (36, 216));
        let given = std::fs::read_to_string(dir.join(format!("puzzles-{k:02}.given"))).unwrap();
        let pairs: Vec<(usize, usize)> = given
            .lines()
            .map(|l| {
                let (a, b) = l.split_once(' ').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        assert_eq!(pairs, graph.givens);
        assert_eq!(pairs.len(), puzzle.filled());
    }
    assert!(!dir.join("puzzles-11.col").exists());
}

#[test]
fn hypergraphs_have_three_n_or_two_n_hyperedges() {
    let out = run(
        &[
            "export",
            "models/sudoku/9x9/easy.txt",
            "--index",
            "3",
            "--to",
            "hgr",
        ],
        b"",
    );
    let h = hgr::read_hgr(stdout(&out).as_bytes()).unwrap();
    assert_eq!((h.edges.len(), h.vertices), (27, 81));
    let out = run(
        &[
            "export",
            "--latin",
            "models/latin/partial.txt",
            "--index",
            "1",
            "--to",
            "hgr",
        ],
        b"",
    );
    let h = hgr::read_hgr(stdout(&out).as_bytes()).unwrap();
    assert_eq!(h.edges.len(), 2 * (h.vertices as f64).sqrt() as usize);
}

#[test]
fn exported_exact_cover_solves_to_the_solution() {
    let solutions =
        std::fs::read_to_string(crate::common::path("models/sudoku/9x9/easy.solutions.txt"))
            .unwrap();
    for k in [1usize, 7] {
        let out = run(
            &[
                "export",
                "models/sudoku/9x9/easy.txt",
                "--index",
                &k.to_string(),
                "--to",
                "dlx",
            ],
            b"",
        );
        let problem = dlx1::read_dlx(stdout(&out).as_bytes()).unwrap();
        assert_eq!(problem.primary.len(), 324);
        assert!(problem.primary.iter().all(|name| name.len() <= 8));
        let covers = exact_covers(&problem, 2);
        assert_eq!(covers.len(), 1, "a well-posed puzzle has one cover");
        let mut line = vec![b'.'; 81];
        for &o in &covers[0] {
            let (r, c, v) = problem.sudoku_option(o, 9).unwrap();
            line[r * 9 + c] = b'1' + v as u8;
        }
        assert_eq!(
            String::from_utf8(line).unwrap(),
            solutions.lines().nth(k - 1).unwrap()
        );
    }
}

/// The DIMACS literals of `solution` in the CNF of `puzzle` written with `encoding`: every
/// variable of a cell value, true where the solution has that value.
fn model_literals(puzzle: &sudokit::Grid, solution: &sudokit::Grid, encoding: &str) -> Vec<i64> {
    let map = dimacs::var_map(puzzle, encoding.parse().unwrap());
    let order = puzzle.shape().order();
    let mut lits = Vec::new();
    for cell in 0..order * order {
        for v in 0..order {
            if let Some(var) = map.var(cell / order, cell % order, v) {
                let d = var.to_dimacs() as i64;
                lits.push(if solution.get(cell) == Some(v) { d } else { -d });
            }
        }
    }
    lits
}

#[test]
fn decode_maps_a_written_answer_back_and_verifies_it() {
    let puzzle_file = temp_file("decode_puzzle.txt", b"1.3.....4....2..\n");
    let puzzle = parse_line("1.3.....4....2..", None).unwrap();
    let solution = &brute_force_solutions(&puzzle, 2)[0];
    for encoding in ["extended", "optimized"] {
        let mut lits = model_literals(&puzzle, solution, encoding);
        let text: Vec<String> = lits.iter().map(i64::to_string).collect();
        let answer = temp_file(
            &format!("answer-{encoding}.txt"),
            format!("SAT\n{} 0\n", text.join(" ")).as_bytes(),
        );
        let args = [
            "decode",
            s(&puzzle_file),
            "--from",
            "minisat",
            "--encoding",
            encoding,
            s(&answer),
        ];
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out).trim(), sudokit::text::to_text(solution));
        // Flip the first positive literal: the cell loses its value, which does not verify.
        let first_true = lits.iter().position(|&l| l > 0).unwrap();
        lits[first_true] = -lits[first_true];
        let text: Vec<String> = lits.iter().map(i64::to_string).collect();
        let wrong = temp_file(
            &format!("wrong-{encoding}.txt"),
            format!("SAT\n{} 0\n", text.join(" ")).as_bytes(),
        );
        let mut args = args;
        args[6] = s(&wrong);
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("not a solution"), "{}", stderr(&out));
    }
}

#[test]
fn decode_names_the_index_an_answer_was_made_for() {
    // The answer to the second puzzle, decoded against the first (--index 1): the message names
    // --index 2 and its line rather than the encoding.
    let file = temp_file("decode_two.txt", b"1.3.....4....2..\n\n.2........1.4...\n");
    let second = parse_line(".2........1.4...", None).unwrap();
    let solution = &brute_force_solutions(&second, 2)[0];
    let lits = model_literals(&second, solution, "extended");
    let text: Vec<String> = lits.iter().map(i64::to_string).collect();
    let answer = temp_file(
        "decode_two.out",
        format!("SAT\n{} 0\n", text.join(" ")).as_bytes(),
    );
    let decode = |index: &str| {
        run(
            &[
                "decode",
                s(&file),
                "--index",
                index,
                "--from",
                "minisat",
                s(&answer),
            ],
            b"",
        )
    };
    let wrong = decode("1");
    assert_eq!(wrong.status.code(), Some(1));
    let message = stderr(&wrong);
    assert!(
        message.contains("it solves puzzle 2, line 3, of ")
            && message.contains("the answer was made for --index 2, not 1")
            && !message.contains("--encoding"),
        "{message}"
    );
    let right = decode("2");
    assert_eq!(right.status.code(), Some(0), "{}", stderr(&right));
    assert_eq!(stdout(&right).trim(), sudokit::text::to_text(solution));
}

#[test]
fn decode_reports_unsat_and_malformed_answers() {
    let puzzle = temp_file("decode_p.txt", b"1.3.....4....2..\n");
    let unsat = temp_file("unsat.txt", b"s UNSATISFIABLE\n");
    let out = run(&["decode", s(&puzzle), "--from", "dimacs", s(&unsat)], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "unsat (claimed by the answer, not checked)\n");
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "dimacs",
            b"s SATISFIABLE\nv 1 -2 x 0\n",
            ":2:8: 'x' is not a literal",
        ),
        (
            "dimacs",
            b"s SATISFIABLE\nv 1 -2\n",
            ":3:1: the model ends without its final 0",
        ),
        ("minisat", b"", ":1:1: no status line"),
        (
            "glpsol",
            b"Status:     INTEGER OPTIMAL\n",
            ":2:1: a solution without its column table",
        ),
        (
            "cbc",
            b"Optimal - objective value 0\n 1 x_1_1_1 one 0\n",
            ":2:12: 'one' is not a number",
        ),
    ];
    for (from, text, message) in cases {
        let answer = temp_file(&format!("bad-{from}.txt"), text);
        let out = run(&["decode", s(&puzzle), "--from", from, s(&answer)], b"");
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{from}");
        let err = stderr(&out);
        assert!(err.contains(&format!("{}{message}", s(&answer))), "{err}");
    }
}

#[test]
fn every_target_writes_on_the_larger_models() {
    for (file, order) in [
        ("models/sudoku/16x16/kr_16x16_sample.txt", 16usize),
        ("models/sudoku/25x25/acs_general_40pct.txt", 25),
    ] {
        for to in ["cnf", "lp", "mps", "dlx", "col", "hgr", "dzn"] {
            let out = run(
                &["export", file, "--index", "1", "--to", to, "--stats"],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{file} {to}: {}", stderr(&out));
            assert!(stderr(&out).contains(&format!("{} bytes", out.stdout.len())));
        }
        let out = run(
            &[
                "export",
                file,
                "--index",
                "1",
                "--to",
                "cnf",
                "--amo",
                "sequential",
            ],
            b"",
        );
        let cnf = dimacs::read_cnf(&out.stdout[..]).unwrap();
        assert!(cnf.vars() > order.pow(3));
    }
}

#[test]
fn the_help_names_every_format_and_every_answer_reader() {
    let formats = sudokit::format::FORMATS.iter().map(|f| (f.name, f.summary));
    let readers = sudokit::format::READERS.iter().map(|r| (r.name, r.summary));
    let entries: [(&str, Vec<(&str, &str)>); 2] =
        [("export", formats.collect()), ("decode", readers.collect())];
    for (command, entries) in entries {
        let short = stdout(&run(&[command, "-h"], b""));
        let long = stdout(&run(&[command, "--help"], b""));
        for (name, summary) in entries {
            assert!(short.contains(name), "{command} -h lacks {name}");
            assert!(long.contains(summary), "{command} --help lacks {name}");
        }
    }
}

#[test]
fn max_size_is_never_passed() {
    // An export is refused when its size may pass --max-size: `--max-size 1500` once wrote
    // 1,927 bytes, the estimate being below the real size.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    for format in sudokit::format::FORMATS {
        let out = run(&["export", "--to", format.name, "-"], puzzle.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let real = out.stdout.len();
        let below = (real - 1).to_string();
        let out = run(
            &["export", "--to", format.name, "--max-size", &below, "-"],
            puzzle.as_bytes(),
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}: {} bytes",
            format.name,
            real
        );
        assert!(out.stdout.is_empty(), "{}", format.name);
    }
}

#[test]
fn symbolic_lists_every_clause_of_the_dimacs_file_by_constraint() {
    for amo in ["pairwise", "sequential"] {
        let dimacs = stdout(&run(
            &["export", "-", "--to", "cnf", "--amo", amo],
            b"12..34..........\n",
        ));
        let clauses: usize = dimacs
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .and_then(|l| l.split_whitespace().nth(3))
            .and_then(|k| k.parse().ok())
            .unwrap();
        let out = run(
            &["export", "-", "--to", "cnf", "--amo", amo, "--symbolic"],
            b"12..34..........\n",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(
            text.lines().filter(|l| !l.starts_with('#')).count(),
            clauses,
            "{amo}"
        );
        for heading in [
            "# cell (1,3) holds a value",
            "# box 4 holds 2 at most once",
            "# column 2 holds 4",
            "# the given (2,1) = 3",
        ] {
            assert!(text.contains(heading), "{amo}: {heading}");
        }
        assert!(text.contains("\nx(2,1,3)\n"), "the given's unit clause");
    }
    let out = run(
        &["export", "-", "--to", "lp", "--symbolic"],
        b"12..34..........\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--symbolic lists a CNF"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_errors_of_an_export_to_files_are_counted_after_they_are_said() {
    // The files are the output: each bad puzzle is a note on standard error, and the count of
    // them closes the notes (it said "reported in place" before them).
    let input = temp_file(
        "export_bad.txt",
        b"1.3.....4....2..\n12\n.2........1.4...\n",
    );
    let dir = std::env::temp_dir().join(format!("sudokit-export-bad-{}", std::process::id()));
    let out = run(
        &["export", s(&input), "--to", "cnf", "--out-dir", s(&dir)],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let notes = stderr(&out);
    let lines: Vec<&str> = notes.lines().collect();
    assert_eq!(lines.len(), 2, "{notes}");
    assert!(lines[0].contains(":2:3: the line has 2 symbols"), "{notes}");
    assert_eq!(
        lines[1],
        "sudokit: 1 of 3 puzzles gave an error (said above, in input order)"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
