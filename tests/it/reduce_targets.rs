//! The reductions as objects: every size formula against the target the writers produce, the
//! Latin square → Sudoku → CNF → SAT → back round trip, the target checks of the other encodings,
//! and `reduce latin --to cnf|ilp|exact-cover|colouring` (and `--to cnf --solve`) on the command
//! line.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
use sudokit::encode::ilp::{IlpSolution, IlpStatus, var_name};
use sudokit::format::{col, dimacs, dlx1, lp};
use sudokit::generate::latin::{quasigroup_with_holes, random_partial};
use sudokit::reduce::encodings::{
    SudokuToCnf, SudokuToColouring, SudokuToExactCover, SudokuToIlp, every_target_size,
};
use sudokit::reduce::latin::{LatinToSudoku, latin_to_sudoku};
use sudokit::reduce::reduction::{Compose, InstanceSize, Reduction, ReductionError, grid_size};
use sudokit::reduce::sat_chain::{SatVerdict, run_latin_sat_chain};
use sudokit::solve::{Answer, Limits, backend};
use sudokit::text::{ShapeSpec, parse_line, to_line};
use sudokit::{Grid, Shape, verify};

use crate::common::{run, s, stderr, stdout, temp_file};

fn latin(line: &str) -> Grid {
    parse_line(line, Some(ShapeSpec::Latin)).unwrap()
}

/// Random partial Latin squares of order `m`: quasigroups with holes and random partial ones.
fn random_squares(m: usize, each: usize, seed: u64) -> Vec<Grid> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for i in 0..each {
        out.push(quasigroup_with_holes(m, m * m / 2 + i % m, &mut rng).unwrap());
        out.push(random_partial(m, m * m / 3 + i % m, &mut rng).unwrap());
    }
    out
}

/// Sources to size: the reductions' Sudokus of course and random squares, and Sudokus of other
/// box shapes (the encodings take any puzzle).
fn sudoku_sources() -> Vec<Grid> {
    let mut out: Vec<Grid> = ["1.......3", "12...3...", "1...", "...."]
        .iter()
        .map(|l| latin_to_sudoku(&latin(l)).unwrap())
        .collect();
    for square in random_squares(3, 1, 7) {
        out.push(latin_to_sudoku(&square).unwrap());
    }
    out.push(parse_line("1.3.....4....2..", None).unwrap());
    out.push(parse_line(&".".repeat(36), None).unwrap());
    out.push(parse_line("12.......4......", Some(ShapeSpec::Latin)).unwrap());
    out
}

/// `(variables, clauses, literals, unit clauses)` of a DIMACS file.
fn dimacs_size(text: &[u8]) -> InstanceSize {
    let cnf = dimacs::read_cnf(text).expect("valid DIMACS");
    InstanceSize {
        variables: cnf.vars(),
        constraints: cnf.len(),
        entries: cnf.literal_count(),
        fixed: cnf.clauses().filter(|c| c.len() == 1).count(),
    }
}

/// `(binary columns, rows, non-zeros, given rows)` of a CPLEX LP file.
fn lp_size(text: &str) -> InstanceSize {
    let mut size = InstanceSize::default();
    let mut section = "";
    for line in text.lines() {
        match line.trim() {
            "Subject To" | "Binary" | "End" | "Minimize" | "Bounds" => section = line.trim(),
            l if l.starts_with('\\') || l.is_empty() => {}
            l if section == "Subject To" => {
                size.constraints += 1;
                size.entries += l.split_whitespace().filter(|t| t.starts_with("x_")).count();
                size.fixed += usize::from(l.starts_with("given_"));
            }
            l if section == "Binary" => size.variables += l.split_whitespace().count(),
            _ => {}
        }
    }
    size
}

/// `(options, items, incidences, single-option cells)` of a dlx1 file.
fn dlx_size(text: &[u8]) -> InstanceSize {
    let problem = dlx1::read_dlx(text).expect("valid dlx1");
    let mut per_cell = std::collections::HashMap::new();
    for option in &problem.options {
        for &i in option {
            if problem.name(i).starts_with('p') {
                *per_cell.entry(i).or_insert(0) += 1;
            }
        }
    }
    InstanceSize {
        variables: problem.options.len(),
        constraints: problem.primary.len() + problem.secondary.len(),
        entries: problem.options.iter().map(Vec::len).sum(),
        fixed: per_cell.values().filter(|&&k| k == 1).count(),
    }
}

/// `(vertices, edges, edge ends, precoloured vertices)` of a `.col` file.
fn col_size(text: &[u8]) -> InstanceSize {
    let graph = col::read_col(text).expect("valid .col");
    InstanceSize {
        variables: graph.vertices,
        constraints: graph.edges.len(),
        entries: 2 * graph.edges.len(),
        fixed: graph.givens.len(),
    }
}

#[test]
fn every_size_formula_matches_the_file_written() {
    for sudoku in sudoku_sources() {
        let label = to_line(&sudoku).unwrap();
        // Every encoding × AMO on the small grids; four pairs covering each on the 9×9 ones.
        let pairs: Vec<(Encoding, Amo)> = if sudoku.shape().order() < 9 {
            Encoding::ALL
                .iter()
                .flat_map(|&e| Amo::ALL.iter().map(move |&a| (e, a)))
                .collect()
        } else {
            Encoding::ALL.into_iter().zip(Amo::ALL).collect()
        };
        for (encoding, amo) in pairs {
            let options = CnfOptions { encoding, amo };
            let reduction = SudokuToCnf { options };
            let mut file = Vec::new();
            dimacs::write_cnf(&sudoku, options, &mut file).unwrap();
            let predicted = reduction.target_size(&sudoku).unwrap();
            assert_eq!(predicted, dimacs_size(&file), "{label} {encoding}/{amo}");
            assert_eq!(
                predicted,
                reduction.size_of(&reduction.reduce(&sudoku).unwrap())
            );
        }
        let mut file = Vec::new();
        lp::write_lp(&SudokuToIlp.reduce(&sudoku).unwrap(), &mut file).unwrap();
        let predicted = SudokuToIlp.target_size(&sudoku).unwrap();
        assert_eq!(
            predicted,
            lp_size(&String::from_utf8(file).unwrap()),
            "{label}"
        );
        assert_eq!(
            predicted,
            SudokuToIlp.size_of(&SudokuToIlp.reduce(&sudoku).unwrap())
        );

        let mut file = Vec::new();
        dlx1::write_dlx(&SudokuToExactCover.reduce(&sudoku).unwrap(), &mut file).unwrap();
        assert_eq!(
            SudokuToExactCover.target_size(&sudoku).unwrap(),
            dlx_size(&file),
            "{label}"
        );

        let mut file = Vec::new();
        col::write_col(&sudoku, &mut file).unwrap();
        assert_eq!(
            SudokuToColouring.target_size(&sudoku).unwrap(),
            col_size(&file),
            "{label}"
        );
    }
}

#[test]
fn the_latin_size_formula_matches_the_sudoku_line_written() {
    let mut squares = random_squares(4, 3, 11);
    squares.extend(random_squares(5, 2, 12));
    squares.push(Grid::empty(Shape::latin(1).unwrap()));
    for square in squares {
        let predicted = LatinToSudoku.target_size(&square).unwrap();
        let line = to_line(&LatinToSudoku.reduce(&square).unwrap()).unwrap();
        let m = square.shape().order();
        let read = parse_line(&line, Some(ShapeSpec::Box(m, m))).unwrap();
        assert_eq!(predicted, grid_size(&read));
        assert_eq!(predicted.fixed, m.pow(4) - m * m + square.filled());
    }
    let chain = Compose(LatinToSudoku, SudokuToCnf::default());
    assert_eq!(
        chain.name(),
        "Latin square → Sudoku → CNF (extended, pairwise AMO)"
    );
    assert_eq!(
        LatinToSudoku.target_size(&Grid::empty(Shape::latin(33).unwrap())),
        Err(ReductionError::Latin(
            sudokit::reduce::latin::LatinReductionError::TooLarge { m: 33 }
        ))
    );
}

/// Whether `square` has a completion, asked of the native backend on the Latin square itself
/// (not through the reduction).
fn completable(square: &Grid) -> bool {
    let native = backend("native").unwrap();
    match native.solve(square, &Limits::none()).unwrap().answer {
        Answer::Solved(_) => true,
        Answer::Unsat => false,
        Answer::Unknown(reason) => panic!("no limit was set, yet: {reason}"),
    }
}

/// Every step of the SAT chain agrees with the direct answer, and a completion verifies.
fn check_sat_round_trip(square: &Grid, options: CnfOptions) {
    let chain = run_latin_sat_chain(square, options).unwrap();
    assert_eq!(chain.cnf_size, chain.cnf_predicted);
    assert_eq!(chain.sudoku_size, chain.sudoku_predicted);
    match &chain.verdict {
        SatVerdict::Completed {
            sudoku_solution,
            completion,
            ..
        } => {
            assert!(completable(square), "{}", to_line(square).unwrap());
            assert_eq!(verify(&chain.sudoku, sudoku_solution), Ok(()));
            assert_eq!(verify(square, completion), Ok(()));
        }
        SatVerdict::NoCompletion => {
            assert!(!completable(square), "{}", to_line(square).unwrap())
        }
    }
    // The composed reduction maps the same model back the same way.
    let composed = Compose(LatinToSudoku, SudokuToCnf { options });
    let target = composed.reduce(square).unwrap();
    assert_eq!(composed.size_of(&target), chain.cnf_size);
}

#[test]
fn sat_round_trip_on_every_partial_latin_square_of_order_2() {
    let mut seen = [0usize; 2];
    for code in 0..81usize {
        let cells: Vec<Option<usize>> = (0..4)
            .map(|i| match code / 3usize.pow(i) % 3 {
                0 => None,
                v => Some(v - 1),
            })
            .collect();
        let square = Grid::from_cells(Shape::latin(2).unwrap(), &cells);
        if square.first_clash().is_some() {
            continue;
        }
        seen[usize::from(completable(&square))] += 1;
        check_sat_round_trip(&square, CnfOptions::default());
    }
    // 35 clash-free partial squares: the 31 subsets of the two Latin squares of order 2, and 4
    // with two givens on a diagonal that no completion has (e.g. 1 at (1,1) and 2 at (2,2)).
    assert_eq!(seen, [4, 31]);
}

#[test]
fn sat_round_trip_on_order_3_with_every_encoding() {
    let squares = [latin("1.......3"), latin("12...3..."), latin(".........")];
    for (i, square) in squares.iter().enumerate() {
        let options = CnfOptions {
            encoding: Encoding::ALL[i % 4],
            amo: Amo::ALL[i % 4],
        };
        check_sat_round_trip(square, options);
    }
    for (i, square) in random_squares(3, 2, 5).iter().enumerate() {
        let options = CnfOptions {
            encoding: Encoding::ALL[(i + 3) % 4],
            amo: Amo::ALL[(i + 1) % 4],
        };
        check_sat_round_trip(square, options);
    }
}

#[test]
#[ignore = "release suite: SAT round trips on random squares of orders 3 and 4 (run by .ci/run)"]
fn reduce_targets_sat_round_trip_release() {
    for square in random_squares(3, 100, 21) {
        check_sat_round_trip(&square, CnfOptions::default());
    }
    for (i, square) in random_squares(4, 30, 22).iter().enumerate() {
        let options = CnfOptions {
            encoding: Encoding::ALL[i % 4],
            amo: Amo::ALL[(i / 4) % 4],
        };
        check_sat_round_trip(square, options);
    }
}

#[test]
fn ilp_exact_cover_and_colouring_check_their_certificates_and_map_back() {
    let square = latin("1.......3");
    let sudoku = latin_to_sudoku(&square).unwrap();
    let Answer::Solved(solution) = backend("native")
        .unwrap()
        .solve(&sudoku, &Limits::none())
        .unwrap()
        .answer
    else {
        panic!("the course square completes")
    };
    let n = sudoku.shape().order();
    let cells: Vec<(usize, usize, usize)> = (0..n * n)
        .map(|c| (c / n, c % n, solution.get(c).unwrap()))
        .collect();

    // 0-1 ILP: the point of the solution is feasible; moving one 1 breaks a row.
    let ilp = SudokuToIlp.reduce(&sudoku).unwrap();
    let mut point = IlpSolution {
        status: IlpStatus::Optimal,
        values: cells
            .iter()
            .map(|&(r, c, v)| (var_name(r, c, v), 1.0))
            .collect(),
    };
    SudokuToIlp.check_target(&ilp, &point).unwrap();
    assert_eq!(SudokuToIlp.back(&sudoku, &ilp, &point).unwrap(), solution);
    let (r, c, v) = cells[1];
    point.values[1] = (var_name(r, c, (v + 1) % n), 1.0);
    assert!(matches!(
        SudokuToIlp.check_target(&ilp, &point),
        Err(ReductionError::TargetCheck { .. })
    ));
    assert!(SudokuToIlp.back(&sudoku, &ilp, &point).is_err());

    // Exact cover: the solution's options cover every item once; dropping one does not.
    let problem = SudokuToExactCover.reduce(&sudoku).unwrap();
    SudokuToExactCover.check_target(&problem, &cells).unwrap();
    assert_eq!(
        SudokuToExactCover.back(&sudoku, &problem, &cells).unwrap(),
        solution
    );
    assert!(
        SudokuToExactCover
            .check_target(&problem, &cells[1..].to_vec())
            .is_err()
    );

    // Colouring: the solution is a proper colouring extending the precolouring; a swap is not.
    let graph = SudokuToColouring.reduce(&sudoku).unwrap();
    let mut colours: Vec<usize> = cells.iter().map(|&(_, _, v)| v).collect();
    SudokuToColouring.check_target(&graph, &colours).unwrap();
    assert_eq!(
        SudokuToColouring.back(&sudoku, &graph, &colours).unwrap(),
        solution
    );
    colours.swap(0, 1);
    assert!(SudokuToColouring.check_target(&graph, &colours).is_err());
    assert!(SudokuToColouring.back(&sudoku, &graph, &colours).is_err());
}

/// Splits a concatenation at the lines that start an instance.
fn instances(text: &str, comment: &str) -> Vec<String> {
    let marker = format!("{comment} sudokit reduce latin: square ");
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with(&marker) {
            out.push(String::new());
        }
        let current = out
            .last_mut()
            .expect("output starts with a square's header");
        current.push_str(line);
        current.push('\n');
    }
    out
}

#[test]
fn reduce_latin_writes_every_target_one_instance_per_square() {
    let squares = [latin("1.......3"), latin("12...3...")];
    let sudokus: Vec<Grid> = squares
        .iter()
        .map(|l| latin_to_sudoku(l).unwrap())
        .collect();
    for (to, comment) in [
        ("cnf", "c"),
        ("ilp", "\\"),
        ("exact-cover", "|"),
        ("colouring", "c"),
    ] {
        let out = run(
            &["reduce", "latin", "models/latin/course.txt", "--to", to],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{to}: {}", stderr(&out));
        let parts = instances(&stdout(&out), comment);
        assert_eq!(parts.len(), 2, "{to}");
        for (k, (part, sudoku)) in parts.iter().zip(&sudokus).enumerate() {
            assert!(part.contains(&format!("square {} (line {}", k + 1, [2, 5][k])));
            let rows = every_target_size(sudoku, CnfOptions::default()).unwrap();
            let (measured, predicted) = match to {
                "cnf" => (dimacs_size(part.as_bytes()), rows[0].size),
                "ilp" => (lp_size(part), rows[1].size),
                "exact-cover" => (dlx_size(part.as_bytes()), rows[2].size),
                _ => (col_size(part.as_bytes()), rows[3].size),
            };
            assert_eq!(measured, predicted, "{to} square {}", k + 1);
        }
    }
    // -o DIR/: one file per square, named after the input.
    let dir = temp_file("placeholder", b"");
    let dir = dir.parent().unwrap().join("course-cnf/");
    std::fs::create_dir_all(&dir).unwrap();
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--to",
            "cnf",
            "--encoding",
            "optimized",
            "--amo",
            "sequential",
            "-o",
            &format!("{}/", dir.display()),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    for (k, sudoku) in sudokus.iter().enumerate() {
        let file = std::fs::read(dir.join(format!("course-{}.cnf", k + 1))).unwrap();
        let options = CnfOptions {
            encoding: Encoding::Optimized,
            amo: Amo::Sequential,
        };
        assert_eq!(
            dimacs_size(&file),
            SudokuToCnf { options }.target_size(sudoku).unwrap()
        );
    }
    // -o FILE with --to sudoku: the lines, in order.
    let file = dir.join("course.sudoku.txt");
    let out = run(
        &["reduce", "latin", "models/latin/course.txt", "-o", s(&file)],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<String> = sudokus.iter().map(|g| to_line(g).unwrap()).collect();
    assert_eq!(written, lines.join("\n") + "\n");
}

#[test]
fn reduce_latin_target_options_are_checked() {
    for (args, message) in [
        (
            vec!["--to", "ilp", "--encoding", "minimal"],
            "--encoding and --amo apply to --to cnf only",
        ),
        (
            vec!["--to", "exact-cover", "--solve", "--levels", "cnf"],
            "choose the levels with --levels or with --to, not both",
        ),
        (
            vec!["--to", "cnf", "--solve", "--backend", "norvig"],
            "--backend solves the latin and sudoku levels, and neither is chosen",
        ),
        (
            vec!["--solve", "--levels", "cnf", "--limit", "3"],
            "--limit counts at the sudoku level, which is not chosen",
        ),
        (
            // The old spelling of --limit, removed (--count is how many puzzles elsewhere).
            vec!["--solve", "--levels", "cnf", "--count", "3"],
            "`reduce latin --count N` is now `--limit N`",
        ),
        (
            vec!["--solve", "--levels", "cnf,bogus"],
            "unknown level 'bogus'",
        ),
        (vec!["--to", "hgr", "--solve"], "--solve has no hgr level"),
        (
            vec!["--solve", "--mip", "glpk"],
            "--mip: unknown backend glpk",
        ),
        (
            vec!["--solve", "--mip", "dlx"],
            "finds no 0-1 point of the ILP (the backends that do: mip, highs)",
        ),
        (
            vec!["--to", "colouring", "--form", "block"],
            "--form and --json choose the form of --to sudoku only",
        ),
    ] {
        let mut full = vec!["reduce", "latin", "models/latin/course.txt"];
        full.extend(args);
        let out = run(&full, b"");
        assert_eq!(out.status.code(), Some(2), "{full:?}");
        assert!(stderr(&out).contains(message), "{full:?}: {}", stderr(&out));
    }
    // A bad square is reported on standard error; the good one is still written.
    let out = run(
        &["reduce", "latin", "-", "--to", "colouring"],
        b"1.1......\n1........\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: -:1:3: clashing givens"));
    assert_eq!(instances(&stdout(&out), "c").len(), 1);
}

#[test]
fn reduce_latin_solves_through_cnf_and_reports_every_level() {
    let report = temp_file("course-cnf.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--to",
            "cnf",
            "--solve",
            "--report",
            s(&report),
        ],
        b"",
    );
    // The second square has no completion: the negative answer, exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    for expected in [
        "CNF (extended, pairwise AMO): 729 variables = n³, 12062 clauses = n² + 4n²·A + 3n² + G, 26318 literals = n³ + 2·4n²·A + n·3n² + G, 74 unit clauses = G",
        "varisat: a model satisfying all 12062 clauses (81 of 729 variables true); map back to a Sudoku solution (verified), then to the completion 132321213 (verified; the first completion found)",
        "CNF (extended, pairwise AMO): 729 variables = n³, 12063 clauses = n² + 4n²·A + 3n² + G, 26319 literals = n³ + 2·4n²·A + n·3n² + G, 75 unit clauses = G",
        "varisat: no solution, so no completion: unsatisfiable; the refutation was checked by varisat's proof checker",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // --to cnf runs the CNF level only.
    assert!(!text.contains("0-1 ILP"));
    let html = std::fs::read_to_string(&report).unwrap();
    assert_eq!(html.matches("data-level=").count(), 2);
    assert!(html.contains("data-level=\"cnf\" data-verdict=\"yes\""));
    assert!(html.contains("data-level=\"cnf\" data-verdict=\"no\""));
    assert!(html.contains("<td>clauses</td><td class=\"num\">12062</td><td class=\"formula\">n² + 4n²·A + 3n² + G</td><td class=\"num\">12062</td>"));
    // The page shows the clauses of one cell, read off the formula.
    assert!(html.contains("Cell (2, 4) holds a digit: <code>x(2,4,1) ∨ x(2,4,2)"));
    // Every inline drawing is well-formed XML on its own (as `render` writes it).
    for piece in html.split("<svg").skip(1) {
        let svg = format!("<svg{}</svg>", piece.split("</svg>").next().unwrap());
        let doc = roxmltree::Document::parse(&svg).expect("valid XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }
    let json = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--to",
            "cnf",
            "--solve",
            "--json",
            "--encoding",
            "minimal",
        ],
        b"",
    );
    let objects: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects[0]["status"], "completed");
    let cnf = &objects[0]["levels"][0];
    assert_eq!(cnf["instance"], "CNF (minimal, pairwise AMO)");
    assert_eq!(cnf["size"], cnf["predicted"]);
    assert_eq!(objects[1]["status"], "no-completion");
    let evidence = &objects[1]["levels"][0]["evidence"];
    assert_eq!(evidence["kind"], "proof");
    assert!(evidence["lrat_steps"].as_u64().unwrap() > 0);
}

/// Finding 5: every size the course shows has its formula, and the formula's value is the count
/// measured on the instance the level builds, for squares of orders 2 to 5 and every CNF
/// encoding with a closed form.
#[test]
fn every_size_formula_of_the_course_is_the_count_measured() {
    use sudokit::reduce::course::Level;
    use sudokit::reduce::formulas::size_formulas;
    use sudokit::reduce::latin::as_latin_square;
    let mut squares: Vec<Grid> = ["1.......3", "12...3...", "1..4.1....1.4...", "12..", "...."]
        .iter()
        .map(|l| latin(l))
        .collect();
    for m in 2..=5 {
        squares.extend(random_squares(m, 2, 50 + m as u64));
    }
    for square in &squares {
        let m = square.shape().order();
        let sudoku = latin_to_sudoku(square).unwrap();
        let check = |level: Level, cnf: CnfOptions, measured: InstanceSize| {
            let formulas = size_formulas(level, square, cnf).unwrap();
            assert_eq!(
                formulas.size(),
                measured,
                "{level:?} {cnf:?} m = {m}: {formulas:?}"
            );
        };
        let plain = CnfOptions::default();
        check(Level::Latin, plain, grid_size(&as_latin_square(square)));
        check(Level::Sudoku, plain, LatinToSudoku.size_of(&sudoku));
        check(
            Level::Ilp,
            plain,
            SudokuToIlp.size_of(&SudokuToIlp.reduce(&sudoku).unwrap()),
        );
        check(
            Level::ExactCover,
            plain,
            SudokuToExactCover.size_of(&SudokuToExactCover.reduce(&sudoku).unwrap()),
        );
        check(
            Level::Colouring,
            plain,
            SudokuToColouring.size_of(&SudokuToColouring.reduce(&sudoku).unwrap()),
        );
        if m > 4 {
            continue;
        }
        for encoding in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
            for amo in Amo::ALL {
                let options = CnfOptions { encoding, amo };
                let to_cnf = SudokuToCnf { options };
                check(
                    Level::Cnf,
                    options,
                    to_cnf.size_of(&to_cnf.reduce(&sudoku).unwrap()),
                );
            }
        }
        let optimized = CnfOptions {
            encoding: Encoding::Optimized,
            amo: Amo::Pairwise,
        };
        assert!(size_formulas(Level::Cnf, square, optimized).is_none());
    }
}
