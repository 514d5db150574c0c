//! The solver table on real programs: every export target read by a real solver and its answer
//! decoded and verified (`export` → solver → `decode`), every solver of the table on a
//! cross-check sample with zero disagreements, `solve --backend ext:NAME` with its time limit
//! and its scratch files.
//!
//! A test whose program is missing prints `skipped: ...` and passes (`common::missing_tool`);
//! `.ci/run` installs the solvers (from Debian, from PyPI: miniexact, kissat, glucose, KaHyPar and
//! networkx; HiGHS's program built from the sources of the `highs` feature) and runs this suite
//! with `SUDOKIT_REQUIRE_TOOLS=1`, where a missing one fails unless `SUDOKIT_UNAVAILABLE_TOOLS`
//! names it (the solvers neither Debian nor PyPI ships, e.g. SCIP's program and Knuth's dlx1).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{missing_tool, path, run, s, stderr, stdout, sudokit, tool_starts};
use crate::crosscheck::found_solvers;

/// Whether `program` can be started (`common::tool_starts`: under `SUDOKIT_REQUIRE_TOOLS` its
/// absence fails unless `SUDOKIT_UNAVAILABLE_TOOLS` names it).
fn installed(program: &str) -> bool {
    tool_starts(program, &["--version"])
}

/// Whether python3 can import `module` (networkx for the graph exports, kahypar for hgr); its
/// absence goes through `common::missing_tool`.
fn python_module(module: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        missing_tool(module, "cannot be imported by python3");
    }
    ok
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-ext-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The puzzles every round trip takes: a 9×9 (top95 line 1), a 6×6 (boxes of 2×3, so box
/// formulas with p ≠ q are exercised), a Latin square, and an unsatisfiable 9×9 without
/// clashing givens. `(file, --latin, expected answer line)`.
fn instances(dir: &Path) -> Vec<(PathBuf, bool, String)> {
    let top = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    let six = std::fs::read_to_string(path("models/sudoku/6x6/puzzles.txt")).unwrap();
    let six_solution = std::fs::read_to_string(path("models/sudoku/6x6/solutions.txt")).unwrap();
    let latin = std::fs::read_to_string(path("models/latin/partial.txt")).unwrap();
    let mut cases = Vec::new();
    let mut add = |name: &str, text: &str, latin: bool, expected: String| {
        let file = dir.join(name);
        std::fs::write(&file, format!("{text}\n")).unwrap();
        cases.push((file, latin, expected));
    };
    add(
        "nine.txt",
        top.lines().next().unwrap(),
        false,
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293".into(),
    );
    add(
        "six.txt",
        six.lines().next().unwrap(),
        false,
        six_solution.lines().next().unwrap().to_string(),
    );
    let square = latin
        .lines()
        .find(|l| !l.starts_with('#') && !l.is_empty())
        .unwrap();
    let out = run(&["solve", "--latin", "-"], format!("{square}\n").as_bytes());
    add("latin.txt", square, true, stdout(&out).trim().to_string());
    add(
        "unsat.txt",
        "38..6..1..291.3...51...7.29...4.176.7.859234..41...9.....7.48961....6....9...51..",
        false,
        "unsat".into(),
    );
    cases
}

/// Exports each instance to `format`, runs `solver` (its arguments with `{in}` for the export;
/// `stdout` true: its standard output is the answer, else `{out}` names it), decodes the answer
/// with `reader` and checks the verified grid (or `unsat`, exit 1).
fn round_trip(format: &str, solver: &str, args: &[&str], reader: &str) {
    let dir = scratch(&format!("{format}-{reader}-{solver}"));
    for (puzzle, latin, expected) in instances(&dir) {
        let shape: &[&str] = if latin { &["--latin"] } else { &[] };
        let input = dir.join(format!("p.{format}"));
        let mut export = vec!["export", s(&puzzle), "--to", format, "-o", s(&input)];
        export.extend_from_slice(shape);
        let out = run(&export, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let answer = dir.join("answer.out");
        let writes_file = args.contains(&"{out}");
        let filled: Vec<String> = args
            .iter()
            .map(|a| a.replace("{in}", s(&input)).replace("{out}", s(&answer)))
            .collect();
        let ran = Command::new(solver)
            .args(&filled)
            .current_dir(crate::common::repo())
            .output()
            .unwrap_or_else(|e| panic!("{solver} runs: {e}"));
        if !writes_file {
            std::fs::write(&answer, &ran.stdout).unwrap();
        }
        let mut decode = vec!["decode", s(&puzzle), "--from", reader, s(&answer)];
        decode.extend_from_slice(shape);
        let out = run(&decode, b"");
        let what = format!(
            "{format} -> {solver} -> {reader} on {}: {}{}",
            puzzle.display(),
            stderr(&out),
            String::from_utf8_lossy(&ran.stderr)
        );
        // An answer's unsat is the solver's claim: decode says so.
        let expected = if expected == "unsat" {
            "unsat (claimed by the answer, not checked)".to_string()
        } else {
            expected
        };
        // The verified grid first; a solver that knows there is no other (clingo's `Models :
        // 1`) gets the count after it.
        let text = stdout(&out);
        assert_eq!(text.lines().next().unwrap_or(""), expected, "{what}");
        assert!(
            text.lines()
                .skip(1)
                .all(|l| l.contains("the solver says there is no other")),
            "{what}: {text}"
        );
        let code = if expected.starts_with("unsat") { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "{what}");
    }
}

#[test]
fn opb_through_clasp() {
    if installed("clasp") {
        round_trip("opb", "clasp", &["{in}"], "clasp");
    }
}

#[test]
fn asp_through_clingo_and_gringo_with_clasp() {
    if installed("clingo") {
        round_trip("asp", "clingo", &["{in}"], "clingo");
    }
    if installed("gringo") && installed("clasp") {
        round_trip("asp", "sh", &["-c", "gringo {in} | clasp"], "clasp");
    }
}

#[test]
fn smt2_through_z3_and_cvc5() {
    if installed("z3") {
        round_trip("smt2", "z3", &["{in}"], "smt2");
    }
    if installed("cvc5") {
        round_trip("smt2", "cvc5", &["{in}"], "z3");
    }
}

#[test]
fn mzn_and_dzn_through_minizinc() {
    if installed("minizinc") {
        round_trip(
            "mzn",
            "minizinc",
            &["--solver", "gecode", "{in}"],
            "minizinc",
        );
        round_trip(
            "dzn",
            "minizinc",
            &["--solver", "gecode", "models/sudoku.mzn", "{in}"],
            "minizinc",
        );
    }
}

#[test]
fn mps_through_lp_solve() {
    if installed("lp_solve") {
        round_trip(
            "mps",
            "lp_solve",
            &["-fmps", "{in}", "-S4", "-presolve"],
            "lp_solve",
        );
    }
}

#[test]
fn cnf_through_the_competition_solvers() {
    // The arguments the table gives them: glucose without -verb=0 prints `Solved by
    // simplification` (no `c ` before it) among its answer lines.
    for (solver, args) in [
        ("cadical", &["-q", "{in}"][..]),
        ("cryptominisat5", &["--verb", "0", "{in}"]),
        ("kissat", &["-q", "{in}"]),
        ("glucose", &["-verb=0", "-model", "{in}"]),
    ] {
        if installed(solver) {
            round_trip("cnf", solver, args, "dimacs");
        }
    }
}

#[test]
fn lp_through_highs_and_scip() {
    if installed("highs") {
        round_trip(
            "lp",
            "highs",
            &["--model_file", "{in}", "--solution_file", "{out}"],
            "highs",
        );
    }
    if installed("scip") {
        round_trip(
            "lp",
            "scip",
            &["-q", "-c", "read {in} optimize write solution {out} quit"],
            "scip",
        );
    }
}

#[test]
fn dlx_through_miniexact() {
    // miniexact (from PyPI) reads Knuth's format; -p prints the options it chose, -e enumerates
    // and ends with "Found N solutions!" (so an unsat answer says so).
    if installed("miniexact") {
        round_trip("dlx", "miniexact", &["-x", "-p", "-e", "{in}"], "dlx");
    }
}

#[test]
fn dlx_through_dlx1() {
    // Knuth's dlx1 is in no package; a user who built it has it on the PATH.
    if installed("dlx1") {
        round_trip("dlx", "sh", &["-c", "dlx1 m1 < {in} 2>&1"], "dlx");
    }
}

#[test]
fn graphs_through_networkx() {
    if !python_module("networkx") {
        return;
    }
    let colourer = s(&path("models/tools/colour_graph.py")).to_string();
    for format in ["graphml", "edges", "col", "hgr"] {
        round_trip(format, "python3", &[&colourer, "{in}"], "col");
    }
}

#[test]
fn hgr_through_kahypar() {
    // KaHyPar (from PyPI) partitions hMETIS hypergraphs; its reader must see one hyperedge of n
    // vertices per unit. There is no answer to decode: a partition is not a colouring.
    if !python_module("kahypar") {
        return;
    }
    let dir = scratch("hgr-kahypar");
    let reader = s(&path("models/tools/read_hgr.py")).to_string();
    for (file, latin, n, units) in [
        ("models/sudoku/9x9/top95.txt", false, 9, 27),
        ("models/sudoku/6x6/puzzles.txt", false, 6, 18),
        ("models/latin/partial.txt", true, 3, 6),
    ] {
        let hgr = dir.join("p.hgr");
        let mut export = vec!["export", file, "--index", "1", "--to", "hgr", "-o", s(&hgr)];
        if latin {
            export.push("--latin");
        }
        let out = run(&export, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let read = Command::new("python3")
            .args([&reader, s(&hgr)])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&read.stdout);
        let mut lines = text.lines();
        let counts: Vec<usize> = lines
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(counts, [n * n, units, units * n], "{file}: {text}");
        assert!(
            lines
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .all(|w| w == n.to_string()),
            "{file}: {text}"
        );
    }
}

/// `(solver, agreed, disagreed, unknown, skipped)` of the summary rows of a crosscheck.
fn summary(text: &str) -> Vec<(String, u64, u64, u64, u64)> {
    text.lines()
        .filter(|l| l.starts_with("ext:"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            (f[0].to_string(), n(1), n(2), n(3), n(4))
        })
        .collect()
}

/// Cross-checks `file` with every solver found and `native`: every solver decides every
/// puzzle it takes (the others are skipped, and named in their rows), and no answer disagrees.
fn crosscheck_every_solver(file: &str, puzzles: u64) {
    let found = found_solvers();
    if found.is_empty() {
        eprintln!("skipped: no external solver installed");
        return;
    }
    let out = run(
        &[
            "crosscheck",
            file,
            "--backends",
            "native",
            "--external",
            "--time-limit",
            "300",
        ],
        b"",
    );
    let text = stdout(&out);
    eprintln!("{text}");
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains(&format!(
            "{puzzles} puzzles: {puzzles} agreed, 0 with disagreements"
        )),
        "{text}"
    );
    let rows = summary(&text);
    assert_eq!(rows.len(), found.len(), "{text}");
    for (name, agreed, disagreed, unknown, skipped) in rows {
        // A solver skips only the puzzles above its table's max_order (lp_solve: orders up to
        // 12), and the row of each such puzzle names it.
        let named = text
            .lines()
            .filter(|l| {
                l.split_once(" skipped (")
                    .is_some_and(|(_, names)| names.split([',', ' ', ')']).any(|n| n == name))
            })
            .count() as u64;
        assert_eq!(
            (agreed + skipped, disagreed, unknown, skipped),
            (puzzles, 0, 0, named),
            "{name}: {text}"
        );
    }
}

#[test]
fn the_sample_crosschecks_with_every_solver() {
    // 4×4, 9×9 (top95 lines, a hard one), a 16×16, an unsat 9×9 and puzzles with several
    // solutions: the solvers count by no-goods, so they decide uniqueness too.
    crosscheck_every_solver("models/sudoku/crosscheck_sample.txt", 10);
}

#[test]
#[ignore = "release suite: top95 through every installed solver (minutes)"]
fn top95_crosschecks_with_every_solver() {
    crosscheck_every_solver("models/sudoku/9x9/top95.txt", 95);
}

#[test]
fn solve_with_an_external_backend_its_time_limit_and_no_files_left() {
    let found = found_solvers();
    // cadical's refutation of a second solution is checked (its DRAT proof): `unique` is then
    // known, exit 0. A solver without a proof only claims it (see the trust tests).
    let Some(name) = found.iter().find(|n| *n == "cadical") else {
        missing_tool("cadical", "is not among the solvers found");
        return;
    };
    let backend = format!("ext:{name}");
    let out = run(
        &[
            "solve",
            "--unique",
            "models/sudoku/4x4/kr_4x4_sample.txt",
            "--backend",
            &backend,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected =
        std::fs::read_to_string(path("models/sudoku/4x4/kr_4x4_sample.solutions.txt")).unwrap();
    assert_eq!(stdout(&out), expected);
    // A 25×25 with 40% of the cells given, a time limit far below what any of them needs: the
    // program is killed, the answer is unknown, and its scratch directory is gone.
    let tmp = scratch("tmpdir");
    let out = sudokit()
        .args([
            "solve",
            "models/sudoku/25x25/acs_general_40pct.txt",
            "--backend",
            &backend,
            "--time-limit",
            "0.05",
        ])
        .current_dir(crate::common::repo())
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for line in stdout(&out).lines() {
        assert_eq!(line, "unknown (time limit)");
    }
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "scratch files left: {left:?}");
    // An unknown solver name, and one not installed, are clear errors.
    let out = run(
        &["solve", "-", "--backend", "ext:nosuchsolver"],
        b"1...............\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no solver nosuchsolver in the table"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_user_table_adds_a_solver() {
    let found = found_solvers();
    if !found.iter().any(|n| n == "picosat") {
        missing_tool("picosat", "is not among the solvers found");
        return;
    }
    let dir = scratch("table");
    let file = dir.join("solvers.toml");
    std::fs::write(
        &file,
        "[solver.mine]\nprogram = \"picosat\"\nargs = [\"{input}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\nexit_ok = [0, 10, 20]\nversion = [\"--version\"]\n",
    )
    .unwrap();
    let out = run(&["--solvers", s(&file), "solvers", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"solver\":\"mine\""),
        "{}",
        stdout(&out)
    );
    let out = run(
        &[
            "--solvers",
            s(&file),
            "count",
            "-",
            "--backend",
            "ext:mine",
            "--limit",
            "10",
        ],
        b"12..34..21..43..\n",
    );
    // Its enumeration (picosat has none here: the entry has no `enumerate`) counts by no-goods,
    // and its final unsat is a claim: printed as one, exit 1.
    assert_eq!(
        (out.status.code(), stdout(&out).trim()),
        (Some(1), "4 (claimed by mine, not checked)"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&file, "[solver.broken]\nprogam = 1\n").unwrap();
    let out = run(&["--solvers", s(&file), "solvers"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("progam"), "{}", stderr(&out));
}

#[test]
fn the_graph_helper_colours_every_form_of_a_16x16_alike() {
    // Its DSATUR once broke ties by the order of the file's lines: the edge list of a 16×16 took
    // over 120 s where the same graph as .col took 1.5 s. Now every form gets one search, and
    // the propagation of single colours keeps it short.
    if !python_module("networkx") {
        return;
    }
    let dir = scratch("helper-forms");
    let mut answers = Vec::new();
    for form in ["edges", "col", "graphml", "hgr"] {
        let file = dir.join(format!("p.{form}"));
        let out = run(
            &[
                "export",
                "models/sudoku/16x16/kr_16x16_sample.txt",
                "--index",
                "2",
                "--to",
                form,
                "-o",
                s(&file),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let coloured = Command::new("python3")
            .arg(path("models/tools/colour_graph.py"))
            .arg(&file)
            .output()
            .unwrap();
        assert!(coloured.status.success(), "{form}");
        answers.push(String::from_utf8(coloured.stdout).unwrap());
    }
    assert!(answers.iter().all(|a| *a == answers[0]), "the forms differ");
    let answer = dir.join("answer.out");
    std::fs::write(&answer, &answers[0]).unwrap();
    let out = run(
        &[
            "decode",
            "models/sudoku/16x16/kr_16x16_sample.txt",
            "--index",
            "2",
            "--from",
            "col",
            s(&answer),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn enumerating_solvers_count_in_one_run() {
    // A two-solution 4×4: the solvers that enumerate print both models in one run (cryptominisat5
    // then runs once more, its FRAT proof checking that there is no third).
    let found = found_solvers();
    let cases = [
        ("clingo", 1, false),
        ("clasp", 1, false),
        ("picosat", 1, false),
        ("minizinc", 1, false),
        ("miniexact", 1, false),
        ("cryptominisat5", 2, true),
    ];
    let mut ran = 0;
    for (name, runs, certified) in cases {
        if !found.iter().any(|n| n == name) {
            missing_tool(name, "is not among the solvers found");
            continue;
        }
        ran += 1;
        let out = run(
            &["count", "--json", "--backend", &format!("ext:{name}"), "-"],
            b"12..341221..4321\n",
        );
        let row: serde_json::Value = serde_json::from_str(stdout(&out).trim())
            .unwrap_or_else(|e| panic!("{name}: {e}: {}{}", stdout(&out), stderr(&out)));
        assert_eq!(row["count"], 2, "{name}: {row}");
        assert_eq!(row["complete"], true, "{name}: {row}");
        assert_eq!(row["stats"]["nodes"], runs, "{name}: {row}");
        assert_eq!(row["certified"], certified, "{name}: {row}");
        // A limit stops the enumeration: the program is not run to its end.
        let out = run(
            &[
                "count",
                "--limit",
                "1",
                "--backend",
                &format!("ext:{name}"),
                "-",
            ],
            b"12..341221..4321\n",
        );
        assert_eq!(stdout(&out), "at least 1 (limit)\n", "{name}");
    }
    if ran == 0 {
        eprintln!("skipped: no enumerating solver installed");
    }
}

/// Every installed solver of the table on the jigsaw and the X-Sudoku of `models/variants`:
/// each whose input form lists the units (every one but the MiniZinc data of the p×q model)
/// gives the one solution, through the export, the program and the decoding, and the
/// verifier with the regions.
#[test]
fn regions_through_every_installed_solver() {
    let jigsaw = ["--regions", "models/variants/janko_chaos_108.regions"];
    let x = ["--extra", "diagonals"];
    let cases = [
        (&jigsaw, "models/variants/janko_chaos_108.txt"),
        (&x, "models/variants/x_sudoku_18.txt"),
    ];
    let mut tried = 0;
    for name in found_solvers() {
        for (flags, file) in cases {
            let backend = format!("ext:{name}");
            let mut args = vec!["count", "--limit", "2", "--backend", &backend];
            args.extend_from_slice(flags);
            args.push(file);
            let counted = run(&args, b"");
            let native = run(&[&["count"][..], flags, &[file]].concat(), b"");
            assert_eq!(stdout(&native).trim(), "1", "{}", stderr(&native));
            let text = stdout(&counted);
            assert!(
                text.trim() == "1"
                    || text.trim() == "1 (claimed by ".to_string() + &name + ", not checked)",
                "{name} on {file}: {text}{}",
                stderr(&counted)
            );
            tried += 1;
        }
    }
    eprintln!("{tried} solver runs on region variants");
}

/// An X-Sudoku exported to CNF, solved by minisat and read back by `decode` with its flags.
#[test]
fn an_exported_x_sudoku_decodes_back_with_its_flags() {
    if !installed("minisat") {
        return;
    }
    let dir = scratch("regions-decode");
    let cnf = dir.join("x.cnf");
    let answer = dir.join("x.answer");
    let puzzle = "models/variants/x_sudoku_18.txt";
    let export = run(
        &[
            "export",
            "--to",
            "cnf",
            "--extra",
            "diagonals",
            puzzle,
            "-o",
            s(&cnf),
        ],
        b"",
    );
    assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
    let _ = Command::new("minisat")
        .args([s(&cnf), s(&answer)])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let decoded = run(
        &[
            "decode",
            "--extra",
            "diagonals",
            puzzle,
            "--from",
            "minisat",
            s(&answer),
        ],
        b"",
    );
    assert_eq!(decoded.status.code(), Some(0), "{}", stderr(&decoded));
    let solved = run(&["solve", "--extra", "diagonals", puzzle], b"");
    assert!(
        stdout(&decoded).contains(stdout(&solved).trim()),
        "{}\n{}",
        stdout(&decoded),
        stdout(&solved)
    );
}

/// The jigsaw and the X-Sudoku of `models/variants` cross-checked by every installed solver of
/// the table (beside native, dlx and sat; `regions::the_exact_backends_agree_on_the_samples`
/// has the others): no disagreement.
#[test]
fn regions_crosscheck_with_every_solver() {
    for (flags, file) in [
        (
            &["--regions", "models/variants/janko_chaos_108.regions"][..],
            "models/variants/janko_chaos_108.txt",
        ),
        (
            &["--extra", "diagonals"][..],
            "models/variants/x_sudoku_18.txt",
        ),
        (
            &["--extra", "diagonals"][..],
            "models/variants/ukpa_diagonal_hard_1.txt",
        ),
    ] {
        let output = run(
            &[
                &["crosscheck", "--backends", "native,dlx,sat", "--external"][..],
                flags,
                &["--", file],
            ]
            .concat(),
            b"",
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains("1 puzzles: 1 agreed, 0 with disagreements, 0 undecided"),
            "{file}: {text}"
        );
    }
}

/// A jigsaw exported to CNF: its header's decode command, as written (the map's rows inline),
/// reads minisat's answer back to the published solution.
#[test]
fn an_exported_jigsaw_decodes_with_its_header_command() {
    if !installed("minisat") {
        return;
    }
    let dir = scratch("regions-header");
    let (cnf, answer) = (dir.join("j.cnf"), dir.join("j.answer"));
    let export = run(
        &[
            "export",
            "--to",
            "cnf",
            "--regions",
            "models/variants/janko_chaos_108.regions",
            "models/variants/janko_chaos_108.txt",
            "-o",
            s(&cnf),
        ],
        b"",
    );
    assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
    let _ = Command::new("minisat")
        .args([s(&cnf), s(&answer)])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let text = std::fs::read_to_string(&cnf).unwrap();
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix("c decode exactly: sudokit "))
        .expect("a decode line");
    assert!(
        command.contains("--regions 111112222,333112222,"),
        "{command}"
    );
    let args: Vec<&str> = command
        .split(' ')
        .map(|word| if word == "ANSWER" { s(&answer) } else { word })
        .collect();
    let decoded = run(&args, b"");
    assert_eq!(decoded.status.code(), Some(0), "{}", stderr(&decoded));
    assert!(stdout(&decoded).contains(
        "845279361359162784281395476467918235574623918136754829928536147792481653613847592"
    ));
}

/// The jigsaw and the X-Sudoku as MiniZinc data for `models/sudoku.mzn` (its `region` and
/// `extra` arrays), solved by minizinc and decoded with their flags.
#[test]
fn regions_as_dzn_through_the_shipped_model() {
    if !installed("minizinc") {
        return;
    }
    let dir = scratch("regions-dzn");
    for (flags, file) in [
        (
            &["--regions", "models/variants/janko_chaos_108.regions"][..],
            "models/variants/janko_chaos_108.txt",
        ),
        (
            &["--extra", "diagonals"][..],
            "models/variants/x_sudoku_18.txt",
        ),
    ] {
        let (dzn, answer) = (dir.join("p.dzn"), dir.join("p.answer"));
        let export = run(
            &[
                &["export", "--to", "dzn"][..],
                flags,
                &[file, "-o", s(&dzn)],
            ]
            .concat(),
            b"",
        );
        assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
        let solved = Command::new("minizinc")
            .args(["--solver", "gecode", s(&path("models/sudoku.mzn")), s(&dzn)])
            .stderr(Stdio::null())
            .output()
            .unwrap();
        std::fs::write(&answer, &solved.stdout).unwrap();
        let decoded = run(
            &[
                &["decode"][..],
                flags,
                &[file, "--from", "minizinc", s(&answer)],
            ]
            .concat(),
            b"",
        );
        let native = run(&[&["solve"][..], flags, &[file]].concat(), b"");
        assert_eq!(
            decoded.status.code(),
            Some(0),
            "{file}: {}",
            stderr(&decoded)
        );
        assert!(stdout(&decoded).contains(stdout(&native).trim()), "{file}");
    }
}
