//! The trust model at the edges: an external program's `unsat` is a claim until its proof is
//! checked. A fake solver that lies through every answer reader cannot produce an `unsat` or a
//! `0` that looks checked; a planted wrong proof is rejected; real CaDiCaL and CryptoMiniSat
//! refutations are checked.

use std::path::{Path, PathBuf};

use crate::common::{run, s, scratch_dir, script, stderr, stdout};

/// A puzzle with exactly one solution (models/sudoku/9x9/top95.txt, line 1).
const ONE_SOLUTION: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// An unsatisfiable 9×9 whose givens do not clash, and whose CNF unit propagation does not
/// refute: a refutation needs lemmas (top95 line 1 with a 1 added at r1c4).
const UNSAT: &str =
    "4..1..8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Every answer reader with an export it reads and the text by which its solver says "no
/// solution".
const LIES: &[(&str, &str, &str)] = &[
    ("dimacs", "cnf", "s UNSATISFIABLE"),
    ("minisat", "cnf", "UNSAT"),
    ("clasp", "opb", "s UNSATISFIABLE"),
    ("smt2", "smt2", "unsat"),
    ("glpsol", "lp", "Status:     INTEGER EMPTY"),
    ("cbc", "lp", "Infeasible - objective value 0.00000000"),
    ("lp_solve", "mps", "This problem is infeasible"),
    ("highs", "lp", "Model status\nInfeasible"),
    ("scip", "lp", "solution status: infeasible"),
    ("minizinc", "mzn", "=====UNSATISFIABLE====="),
    ("dlx", "dlx", "Altogether 0 solutions"),
    ("col", "col", "s UNSATISFIABLE"),
];

fn scratch(name: &str) -> PathBuf {
    scratch_dir("trust", name)
}

/// A solver table with one lying entry per reader (`liar-READER`), each printing the reader's
/// "no solution" whatever the puzzle.
fn liars(dir: &Path) -> PathBuf {
    let say = script(dir, "say.sh", "printf '%b\\n' \"$1\"");
    let mut table = String::new();
    for (reader, input, lie) in LIES {
        table += &format!(
            "[solver.liar-{reader}]\nprogram = \"{}\"\nargs = [\"{}\", \"{{input}}\"]\ninput = \"{input}\"\nanswer = \"{reader}\"\nversion = []\n\n",
            say.display(),
            lie.replace('\n', "\\\\n")
        );
    }
    let path = dir.join("liars.toml");
    std::fs::write(&path, table).unwrap();
    path
}

#[test]
fn a_lying_solver_cannot_produce_a_checked_unsat_through_any_reader() {
    let dir = scratch("liars");
    let table = liars(&dir);
    let puzzle = dir.join("one.txt");
    std::fs::write(&puzzle, format!("{ONE_SOLUTION}\n")).unwrap();
    for (reader, ..) in LIES {
        let backend = format!("ext:liar-{reader}");
        let solvers = ["--solvers", s(&table)];
        let with = |args: &[&str]| {
            let mut all = solvers.to_vec();
            all.extend_from_slice(args);
            run(&all, b"")
        };
        let out = with(&["solve", "--backend", &backend, s(&puzzle)]);
        assert_eq!(
            stdout(&out),
            format!("unsat (claimed by liar-{reader}, not checked)\n"),
            "{reader}: {}",
            stderr(&out)
        );
        assert_eq!(out.status.code(), Some(1), "{reader}");
        let out = with(&["solve", "--json", "--backend", &backend, s(&puzzle)]);
        let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["status"], "unsat", "{reader}");
        assert_eq!(json["certified"], false, "{reader}");
        assert_eq!(json["refutation"]["kind"], "claim", "{reader}");
        assert_eq!(json["refutation"]["reason"], "no proof in its table entry");
        // A count resting on the unchecked zero is printed as a claim and exits 1.
        let out = with(&["count", "--backend", &backend, s(&puzzle)]);
        assert_eq!(
            stdout(&out),
            format!("0 (claimed by liar-{reader}, not checked)\n"),
            "{reader}: {}",
            stderr(&out)
        );
        assert_eq!(out.status.code(), Some(1), "{reader}");
        let out = with(&["count", "--json", "--backend", &backend, s(&puzzle)]);
        assert!(stdout(&out).contains("\"certified\":false"), "{reader}");
        // --require-certificate turns the claim into an error.
        for command in ["solve", "count"] {
            let out = with(&[
                command,
                "--require-certificate",
                "--backend",
                &backend,
                s(&puzzle),
            ]);
            assert_eq!(out.status.code(), Some(2), "{reader} {command}");
            assert!(
                stdout(&out).contains("rests on an unchecked claim"),
                "{reader} {command}: {}",
                stdout(&out)
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_lying_solver_with_a_wrong_proof_is_an_error_not_an_unsat() {
    let dir = scratch("wrong-proof");
    // It says unsat and writes a DRAT "proof" that claims the empty clause at once.
    let liar = script(
        &dir,
        "liar.sh",
        "printf '0\\n' > \"$2\"; echo 's UNSATISFIABLE'; exit 20",
    );
    let table = dir.join("liar.toml");
    std::fs::write(
        &table,
        format!(
            "[solver.prover]\nprogram = \"{}\"\nargs = [\"{{input}}\", \"{{proof}}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\nversion = []\nsat_exit = [10]\nunsat_exit = [20]\nproof = {{ format = \"drat\", args = [\"{{file}}\"] }}\n",
            liar.display()
        ),
    )
    .unwrap();
    let out = run(
        &[
            "--solvers",
            s(&table),
            "solve",
            "--backend",
            "ext:prover",
            "-",
        ],
        format!("{ONE_SOLUTION}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "it says unsat, but its drat proof is rejected: step 1 (0) is the empty clause"
        ),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether `program` can be started (`common::tool_starts`): under `SUDOKIT_REQUIRE_TOOLS` its
/// absence fails.
fn installed(program: &str) -> bool {
    crate::common::tool_starts(program, &["--version"])
}

#[test]
fn external_refutations_are_checked_and_a_planted_wrong_proof_is_rejected() {
    let dir = scratch("real-proofs");
    let puzzles = dir.join("p.txt");
    std::fs::write(&puzzles, format!("{UNSAT}\n{ONE_SOLUTION}\n")).unwrap();
    for (solver, format) in [("cadical", "DRAT"), ("cryptominisat5", "FRAT")] {
        if !installed(solver) {
            continue;
        }
        let out = run(
            &["solve", "--backend", &format!("ext:{solver}"), s(&puzzles)],
            b"",
        );
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!("unsat (checked: {solver}'s {format} proof)"),
            "{}",
            stderr(&out)
        );
        assert_eq!(lines[1].len(), 81, "{text}");
        // The count of the unique puzzle rests on a checked refutation of a second solution.
        let out = run(
            &[
                "count",
                "--require-certificate",
                "--backend",
                &format!("ext:{solver}"),
                s(&puzzles),
            ],
            b"",
        );
        assert_eq!(stdout(&out), "0\n1\n", "{solver}: {}", stderr(&out));
        assert_eq!(out.status.code(), Some(0));
    }
    if installed("cadical") {
        // Real cadical, its proof then stripped of its lemmas (the deletions and the final
        // empty clause kept): the refutation does not follow.
        let planted = script(
            &dir,
            "cadical-cut.sh",
            "cadical --no-binary \"$@\"; code=$?; grep '^d' \"$3\" > \"$3.cut\"; echo 0 >> \"$3.cut\"; mv \"$3.cut\" \"$3\"; exit $code",
        );
        let table = dir.join("cut.toml");
        std::fs::write(
            &table,
            format!(
                "[solver.cadical]\nprogram = \"{}\"\nargs = [\"-q\", \"{{input}}\", \"{{proof}}\"]\ntime_args = []\n",
                planted.display()
            ),
        )
        .unwrap();
        let out = run(
            &[
                "--solvers",
                s(&table),
                "solve",
                "--backend",
                "ext:cadical",
                "-",
            ],
            format!("{UNSAT}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert!(
            stdout(&out).contains("drat proof is rejected"),
            "{}",
            stdout(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The checker sudokit carries and the DRAT checker `rate` agree: both accept CaDiCaL's proof
/// of the unsat puzzle, both reject it without its lemmas.
#[test]
fn the_library_checker_and_rate_agree_on_cadical_proofs() {
    use sudokit::external::certify::{ProofCheck, check_refutation};
    use sudokit::format::clausal_proof::ProofFormat;
    use sudokit::format::dimacs::{formula_excluding, write_cnf};
    if !installed("cadical") || !installed("rate") {
        return;
    }
    let dir = scratch("rate");
    let puzzle: sudokit::Grid = UNSAT.parse().unwrap();
    let cnf_path = dir.join("p.cnf");
    write_cnf(
        &puzzle,
        Default::default(),
        std::fs::File::create(&cnf_path).unwrap(),
    )
    .unwrap();
    let proof = dir.join("p.drat");
    let status = std::process::Command::new("cadical")
        .args(["-q", "--no-binary", s(&cnf_path), s(&proof)])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(20));
    let text = std::fs::read_to_string(&proof).unwrap();
    let cut: String = text
        .lines()
        .filter(|l| l.starts_with('d'))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "0\n";
    let cut_path = dir.join("cut.drat");
    std::fs::write(&cut_path, &cut).unwrap();
    let formula = formula_excluding(&puzzle, Default::default(), &[]);
    for (path, valid) in [(&proof, true), (&cut_path, false)] {
        let ours = check_refutation(
            &formula,
            ProofFormat::Drat,
            &mut std::io::BufReader::new(std::fs::File::open(path).unwrap()),
            &|| None,
        );
        assert_eq!(
            matches!(ours, ProofCheck::Accepted { .. }),
            valid,
            "{ours:?}"
        );
        let rate = std::process::Command::new("rate")
            .args([s(&cnf_path), s(path)])
            .output()
            .unwrap();
        let verified = String::from_utf8_lossy(&rate.stdout).contains("s VERIFIED");
        assert_eq!(verified, valid, "rate on {}", path.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
