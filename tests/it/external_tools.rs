//! The exports checked by the real tools: minisat and picosat (every CNF encoding × AMO),
//! glpsol and cbc (LP and MPS), MiniZinc with Gecode (`.dzn` + `models/sudoku.mzn`).
//!
//! A test whose tool is missing prints `skipped: TOOL ...` and passes; `.ci/run` installs every
//! tool and reruns this suite with `SUDOKIT_REQUIRE_TOOLS=1`, where a missing tool is a failure
//! (`common::missing_tool`). Every decoded grid goes through `verify`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sudokit::encode::cnf::{Amo, CnfOptions, Encoding, encode};
use sudokit::encode::ilp::{self, Ilp, IlpSolution, IlpStatus};
use sudokit::encode::{Cnf, csp::Csp};
use sudokit::format::dimacs::{self, AnswerFormat, DimacsAnswer};
use sudokit::format::{lp, minizinc, mip_answer, mps};
use sudokit::text::{PuzzleReader, ReadOptions, parse_line, to_text};
use sudokit::{Grid, verify};

use crate::common::{path, run, s, stderr, stdout, tool_starts};
use crate::export_support::{as_set, brute_force_solutions, pattern_solution, puzzle_from};

/// Whether `tool` can be started (`common::tool_starts`: prints the skip message when it cannot;
/// with `SUDOKIT_REQUIRE_TOOLS` set, as `.ci/run` does, a missing tool fails the test instead).
fn installed(tool: &str) -> bool {
    tool_starts(tool, &["--help"])
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-tools-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tool(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

fn read_puzzles(file: &str) -> Vec<Grid> {
    let text = std::fs::read(path(file)).unwrap();
    PuzzleReader::new(&text[..], ReadOptions::default())
        .map(|r| r.unwrap().grid)
        .collect()
}

/// The instances of the CNF suite: the first puzzle of every 9×9 file in models/, and one
/// 16×16 and one 25×25 (70% givens: the 40% one takes minisat seconds per encoding).
fn cnf_instances() -> Vec<(String, Grid)> {
    let mut all = Vec::new();
    for file in [
        "models/sudoku/9x9/easy.txt",
        "models/sudoku/9x9/hard.txt",
        "models/sudoku/9x9/royle17_sample.txt",
        "models/sudoku/9x9/top95.txt",
        "models/sudoku/16x16/kr_16x16_sample.txt",
        "models/sudoku/25x25/acs_general_70pct.txt",
    ] {
        all.push((file.to_string(), read_puzzles(file).remove(0)));
    }
    all
}

/// Runs minisat or picosat on `cnf` and returns the parsed answer (the `s` line, never the exit
/// code: picosat exits 0 after a parse error).
fn sat_answer(solver: &str, cnf: &Path, dir: &Path) -> DimacsAnswer {
    match solver {
        "minisat" => {
            let result = dir.join("minisat.out");
            tool("minisat", &["-verb=0", s(cnf), s(&result)]);
            let text = std::fs::read(&result).expect("minisat writes its result file");
            dimacs::read_answer(&text[..], AnswerFormat::Minisat).unwrap()
        }
        _ => {
            let out = tool("picosat", &[s(cnf)]);
            dimacs::read_answer(&out.stdout[..], AnswerFormat::Competition).unwrap_or_else(|e| {
                panic!("picosat on {}: {e}: {}", cnf.display(), stdout_of(&out))
            })
        }
    }
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn all_options() -> Vec<CnfOptions> {
    Encoding::ALL
        .into_iter()
        .flat_map(|encoding| Amo::ALL.map(|amo| CnfOptions { encoding, amo }))
        .collect()
}

#[test]
fn minisat_and_picosat_solve_every_encoding() {
    let solvers: Vec<&str> = ["minisat", "picosat"]
        .into_iter()
        .filter(|t| installed(t))
        .collect();
    if solvers.is_empty() {
        return;
    }
    let dir = scratch("sat");
    let cnf = dir.join("puzzle.cnf");
    for (file, puzzle) in cnf_instances() {
        for options in all_options() {
            let written =
                dimacs::write_cnf(&puzzle, options, std::fs::File::create(&cnf).unwrap()).unwrap();
            for &solver in &solvers {
                let DimacsAnswer::Sat(model) = sat_answer(solver, &cnf, &dir) else {
                    panic!("{solver} finds no model for {file} with {options:?}");
                };
                let grid = written.encoded.map.decode(&puzzle, &model).unwrap();
                assert_eq!(
                    verify(&puzzle, &grid),
                    Ok(()),
                    "{solver} {file} {options:?}"
                );
            }
        }
    }
}

#[test]
fn the_cli_round_trip_through_minisat_and_picosat() {
    if !installed("minisat") || !installed("picosat") {
        return;
    }
    let dir = scratch("cli");
    let cnf = dir.join("p.cnf");
    let file = "models/sudoku/9x9/hard.txt";
    let solutions: Vec<String> = (1..=3)
        .map(|k| {
            let k = k.to_string();
            let out = run(
                &[
                    "export",
                    file,
                    "--index",
                    &k,
                    "--to",
                    "cnf",
                    "--encoding",
                    "optimized",
                    "-o",
                    s(&cnf),
                ],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let result = dir.join("p.minisat");
            tool("minisat", &["-verb=0", s(&cnf), s(&result)]);
            let out = run(
                &[
                    "decode",
                    file,
                    "--index",
                    &k,
                    "--from",
                    "minisat",
                    "--encoding",
                    "optimized",
                    s(&result),
                ],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let by_minisat = stdout(&out);
            let picosat = tool("picosat", &[s(&cnf)]);
            let answer = dir.join("p.picosat");
            std::fs::write(&answer, &picosat.stdout).unwrap();
            let out = run(
                &[
                    "decode",
                    file,
                    "--index",
                    &k,
                    "--from",
                    "dimacs",
                    "--encoding",
                    "optimized",
                    s(&answer),
                ],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            // The puzzles are well posed: both solvers find the one solution.
            assert_eq!(stdout(&out), by_minisat);
            by_minisat
        })
        .collect();
    let puzzles = read_puzzles(file);
    for (puzzle, line) in puzzles.iter().zip(&solutions) {
        assert_eq!(
            verify(puzzle, &parse_line(line.trim(), None).unwrap()),
            Ok(())
        );
    }
}

/// A 9×9 puzzle without clashing givens and without a solution: the first easy puzzle with one
/// more given that differs from its (unique) solution where no peer holds that value.
fn unsat_nine_by_nine() -> Grid {
    let puzzle = read_puzzles("models/sudoku/9x9/easy.txt").remove(0);
    let solution = brute_force_solutions(&puzzle, 1).remove(0);
    let shape = puzzle.shape();
    for cell in (0..81).filter(|&c| puzzle.get(c).is_none()) {
        for v in (0..9).filter(|&v| Some(v) != solution.get(cell)) {
            if shape.peers(cell).all(|p| puzzle.get(p) != Some(v)) {
                let mut bad = puzzle.clone();
                bad.set(cell, Some(v));
                assert!(bad.first_clash().is_none());
                return bad;
            }
        }
    }
    unreachable!("some empty cell has a second candidate")
}

#[test]
fn unsat_puzzles_are_unsat_for_every_tool() {
    let bad = unsat_nine_by_nine();
    assert!(brute_force_solutions(&bad, 1).is_empty());
    let dir = scratch("unsat");
    let solvers: Vec<&str> = ["minisat", "picosat"]
        .into_iter()
        .filter(|t| installed(t))
        .collect();
    let cnf = dir.join("bad.cnf");
    for options in all_options() {
        dimacs::write_cnf(&bad, options, std::fs::File::create(&cnf).unwrap()).unwrap();
        for &solver in &solvers {
            assert_eq!(
                sat_answer(solver, &cnf, &dir),
                DimacsAnswer::Unsat,
                "{solver} {options:?}"
            );
        }
    }
    let ilp = Ilp::new(&bad);
    for (solver, solution) in ilp_solutions(&ilp, &dir) {
        assert_eq!(solution.status, IlpStatus::Infeasible, "{solver}");
    }
    // decode says unsat and exits 1.
    let puzzle_file = dir.join("bad.txt");
    std::fs::write(&puzzle_file, to_text(&bad) + "\n").unwrap();
    if solvers.contains(&"picosat") {
        dimacs::write_cnf(
            &bad,
            CnfOptions::default(),
            std::fs::File::create(&cnf).unwrap(),
        )
        .unwrap();
        let answer = dir.join("bad.out");
        std::fs::write(&answer, tool("picosat", &[s(&cnf)]).stdout).unwrap();
        let out = run(
            &["decode", s(&puzzle_file), "--from", "dimacs", s(&answer)],
            b"",
        );
        assert_eq!(
            (out.status.code(), stdout(&out).as_str()),
            (Some(1), "unsat (claimed by the answer, not checked)\n")
        );
    }
}

/// Solves the LP and the MPS file of `ilp` with glpsol and cbc (those installed), checking that
/// glpsol prints no warning; returns `(tool/format, solution)`.
fn ilp_solutions(ilp: &Ilp, dir: &Path) -> Vec<(String, IlpSolution)> {
    let lp_file = dir.join("p.lp");
    let mps_file = dir.join("p.mps");
    lp::write_lp(ilp, std::fs::File::create(&lp_file).unwrap()).unwrap();
    mps::write_mps(ilp, std::fs::File::create(&mps_file).unwrap()).unwrap();
    let mut found = Vec::new();
    if installed("glpsol") {
        for (flag, file) in [("--lp", &lp_file), ("--freemps", &mps_file)] {
            let report = dir.join("glpsol.out");
            let out = tool("glpsol", &[flag, s(file), "-o", s(&report)]);
            let said = format!(
                "{}{}",
                stdout_of(&out),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                !said.to_lowercase().contains("warning"),
                "glpsol warns: {said}"
            );
            assert!(!said.to_lowercase().contains("error"), "glpsol: {said}");
            let text = std::fs::read(&report).unwrap();
            found.push((
                format!("glpsol {flag}"),
                mip_answer::read_glpsol(&text[..]).unwrap(),
            ));
        }
    }
    if installed("cbc") {
        for file in [&lp_file, &mps_file] {
            let solution = dir.join("cbc.out");
            let _ = std::fs::remove_file(&solution);
            tool("cbc", &[s(file), "solve", "solu", s(&solution)]);
            let text = std::fs::read(&solution).expect("cbc writes its solution");
            found.push((
                format!("cbc {}", file.display()),
                mip_answer::read_cbc(&text[..]).unwrap(),
            ));
        }
    }
    found
}

#[test]
fn glpsol_and_cbc_agree_on_the_lp_and_mps_files() {
    let mut instances: Vec<Grid> = read_puzzles("models/sudoku/9x9/hard.txt")
        .into_iter()
        .take(2)
        .collect();
    instances.push(read_puzzles("models/sudoku/6x6/puzzles.txt").remove(0));
    instances.push(read_puzzles("models/sudoku/16x16/kr_16x16_sample.txt").remove(0));
    // The 25×25 with 70 % of the cells given: glpsol takes a fraction of a second (the 40 % one
    // ran past a minute, so it stays out of the test suite).
    instances.push(read_puzzles("models/sudoku/25x25/acs_general_70pct.txt").remove(0));
    let latin = std::fs::read_to_string(path("models/latin/partial.txt")).unwrap();
    let latin_options = ReadOptions {
        shape: Some(sudokit::text::ShapeSpec::Latin),
        ..ReadOptions::default()
    };
    instances.push(
        PuzzleReader::new(latin.as_bytes(), latin_options)
            .next()
            .unwrap()
            .unwrap()
            .grid,
    );
    let dir = scratch("ilp");
    for puzzle in instances {
        let ilp = Ilp::new(&puzzle);
        let solutions = ilp_solutions(&ilp, &dir);
        let mut grids = Vec::new();
        for (solver, solution) in &solutions {
            assert_eq!(solution.status, IlpStatus::Optimal, "{solver}");
            let grid = ilp::decode(&puzzle, solution).unwrap();
            assert_eq!(verify(&puzzle, &grid), Ok(()), "{solver}");
            grids.push(grid);
        }
        // The 9×9, 6×6 and 16×16 instances are well posed, so every tool finds the same grid;
        // the Latin square and the 25×25 general instance may have several solutions, each
        // verified above.
        if !puzzle.shape().is_latin() && puzzle.shape().order() < 25 {
            assert!(grids.windows(2).all(|w| w[0] == w[1]), "the tools disagree");
        }
    }
}

#[test]
fn decode_reads_glpsol_and_cbc_reports() {
    let file = "models/sudoku/9x9/easy.txt";
    let dir = scratch("ilp-cli");
    let lp_file = dir.join("p.lp");
    let out = run(
        &[
            "export",
            file,
            "--index",
            "4",
            "--to",
            "lp",
            "-o",
            s(&lp_file),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let expected = std::fs::read_to_string(path("models/sudoku/9x9/easy.solutions.txt"))
        .unwrap()
        .lines()
        .nth(3)
        .unwrap()
        .to_string();
    if installed("glpsol") {
        let report = dir.join("p.glpsol");
        tool("glpsol", &["--lp", s(&lp_file), "-o", s(&report)]);
        let out = run(
            &[
                "decode",
                file,
                "--index",
                "4",
                "--from",
                "glpsol",
                s(&report),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out).trim(), expected);
    }
    if installed("cbc") {
        let solution = dir.join("p.cbc");
        tool("cbc", &[s(&lp_file), "solve", "solu", s(&solution)]);
        let out = run(
            &[
                "decode",
                file,
                "--index",
                "4",
                "--from",
                "cbc",
                s(&solution),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out).trim(), expected);
    }
}

/// Small puzzles with a spread of solution counts (fixed, reproducible): relabelled pattern
/// solutions, a seeded share of their cells kept, sometimes two extra non-clashing givens.
fn small_puzzles() -> Vec<Grid> {
    let mut state: u64 = 0x5eed;
    let mut next = |bound: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % bound
    };
    let mut puzzles = vec![parse_line("12....3........4", None).unwrap()];
    for (p, q, count) in [(2, 2, 10), (2, 3, 8)] {
        let shape = sudokit::Shape::sudoku(p, q).unwrap();
        let n = shape.order();
        for i in 0..count {
            let mut relabel: Vec<usize> = (0..n).collect();
            for j in (1..n).rev() {
                relabel.swap(j, next(j + 1));
            }
            let solution = pattern_solution(shape, &relabel);
            let percent = if n == 4 { 15 + 5 * i } else { 40 + 3 * i };
            let keep: Vec<bool> = (0..n * n).map(|_| next(100) < percent).collect();
            let extra: Vec<(usize, usize)> = if i % 2 == 1 {
                (0..2).map(|_| (next(n * n), next(n))).collect()
            } else {
                Vec::new()
            };
            puzzles.push(puzzle_from(&solution, &keep, &extra));
        }
    }
    puzzles
}

#[test]
fn picosat_all_counts_the_models_of_the_pairwise_encodings() {
    if !installed("picosat") {
        return;
    }
    let dir = scratch("all");
    let cnf_file = dir.join("p.cnf");
    let mut counts = Vec::new();
    for puzzle in small_puzzles() {
        let expected = brute_force_solutions(&puzzle, 100_000);
        counts.push(expected.len());
        for encoding in [
            Encoding::Minimal,
            Encoding::Efficient,
            Encoding::Extended,
            Encoding::Optimized,
        ] {
            let options = CnfOptions {
                encoding,
                amo: Amo::Pairwise,
            };
            let mut cnf = Cnf::new();
            let encoded = encode(&puzzle, options, &mut cnf);
            dimacs::write_formula(&cnf, &[], std::fs::File::create(&cnf_file).unwrap()).unwrap();
            let out = tool("picosat", &["--all", s(&cnf_file)]);
            let answers = dimacs::read_all_answers(&out.stdout[..]).unwrap();
            let grids: Vec<Grid> = answers
                .iter()
                .filter_map(|a| match a {
                    DimacsAnswer::Sat(model) => Some(encoded.map.decode(&puzzle, model).unwrap()),
                    _ => None,
                })
                .collect();
            for grid in &grids {
                assert_eq!(verify(&puzzle, grid), Ok(()));
            }
            assert_eq!(
                grids.len(),
                expected.len(),
                "{options:?} on {}",
                to_text(&puzzle)
            );
            assert_eq!(as_set(&grids), as_set(&expected));
        }
    }
    // The sample covers unsatisfiable, unique and multiple-solution puzzles.
    eprintln!("solution counts of the small puzzles: {counts:?}");
    assert!(counts.contains(&0) && counts.contains(&1), "{counts:?}");
    assert!(counts.iter().any(|&c| c > 1), "{counts:?}");
}

#[test]
fn minizinc_solves_the_dzn_with_the_model() {
    let mut instances = vec![
        read_puzzles("models/sudoku/9x9/hard.txt").remove(0),
        read_puzzles("models/sudoku/6x6/puzzles.txt").remove(0),
    ];
    let latin = std::fs::read_to_string(path("models/latin/partial.txt")).unwrap();
    let latin_options = ReadOptions {
        shape: Some(sudokit::text::ShapeSpec::Latin),
        ..ReadOptions::default()
    };
    instances.push(
        PuzzleReader::new(latin.as_bytes(), latin_options)
            .next()
            .unwrap()
            .unwrap()
            .grid,
    );
    let dir = scratch("mzn");
    for puzzle in instances {
        let dzn = dir.join("p.dzn");
        minizinc::write_dzn(&Csp::new(&puzzle), std::fs::File::create(&dzn).unwrap()).unwrap();
        let text = std::fs::read_to_string(&dzn).unwrap();
        // Syntax facts that hold with or without MiniZinc.
        let n = puzzle.shape().order();
        assert!(text.contains(&format!("p = {};", puzzle.shape().box_rows())));
        assert_eq!(text.matches('|').count(), n + 1);
        assert_eq!(text.matches("|];").count(), 1);
        // No region map and no extra unit: both arrays empty.
        assert!(
            text.trim_end()
                .ends_with("region = array2d(1..0, 1..0, []);\nextra = array2d(1..0, 1..0, []);")
        );
        if !installed("minizinc") {
            continue;
        }
        let out = tool(
            "minizinc",
            &["--solver", "gecode", s(&path("models/sudoku.mzn")), s(&dzn)],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let options = ReadOptions {
            shape: puzzle
                .shape()
                .is_latin()
                .then_some(sudokit::text::ShapeSpec::Latin),
            ..ReadOptions::default()
        };
        let grid = PuzzleReader::new(&out.stdout[..], options)
            .next()
            .expect("a grid block")
            .expect("MiniZinc prints a grid block")
            .grid;
        assert_eq!(verify(&puzzle, &grid), Ok(()));
    }
}
