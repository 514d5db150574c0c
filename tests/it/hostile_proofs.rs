//! The refutation checker against hostile proofs: the corpus in `tests/fixtures/proofs` (see its
//! README) is refused by sudokit's two checkers, and by `rate` and `drat-trim` where they are
//! installed; real CaDiCaL proofs (with deletions) are accepted by all; a solver table entry that
//! answers with a hostile proof cannot make a satisfiable puzzle `unsat`, a count 0 or 1, or a
//! grid unique.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudokit::encode::Cnf;
use sudokit::external::certify::{ProofCheck, check_refutation};
use sudokit::format::clausal_proof::ProofFormat;
use sudokit::format::dimacs::{formula_excluding, read_cnf, write_formula};

use crate::common::{path, run, s, scratch_dir, script, stderr, stdout};

/// A 4×4 puzzle with two solutions.
const TWO_SOLUTIONS: &str = "1.3.....4....2..";

/// An unsatisfiable 9×9 that needs lemmas (top95 line 1 with a 1 added at r1c4), and the
/// puzzle it was made from (one solution).
const UNSAT: &str =
    "4..1..8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const ONE_SOLUTION: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The formula a case is checked against.
enum Formula {
    /// The puzzle's CNF (sudokit's default encoding).
    Puzzle(&'static str),
    /// The puzzle's CNF with its first solution ruled out (the second run of a count).
    AfterFirstSolution(&'static str),
}

/// One hostile proof: its file, format, formula, and a phrase of sudokit's refusal.
struct Case {
    file: &'static str,
    format: ProofFormat,
    formula: Formula,
    refusal: &'static str,
}

const CORPUS: &[Case] = &[
    Case {
        file: "reason_deletion.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 4 (-1002 0) is neither RUP nor RAT",
    },
    Case {
        file: "reason_deletion.bin.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 4 (-1002 0) is neither RUP nor RAT",
    },
    Case {
        file: "reason_deletion.frat",
        format: ProofFormat::Frat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 4 (-1002 0) is neither RUP nor RAT",
    },
    Case {
        file: "reason_deletion.drat",
        format: ProofFormat::Drat,
        formula: Formula::AfterFirstSolution(TWO_SOLUTIONS),
        refusal: "step 4 (-1002 0) is neither RUP nor RAT",
    },
    Case {
        file: "unit_deletion.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 3 (-1001 0) is neither RUP nor RAT",
    },
    Case {
        file: "rat_on_a_used_pivot.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 1 (-1 0) is neither RUP nor RAT",
    },
    Case {
        file: "pivot_not_first.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 2 (-1001 1002 0) is neither RUP nor RAT on its first literal",
    },
    Case {
        file: "missing_empty_clause.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "never derive the empty clause",
    },
    Case {
        file: "empty_clause_at_once.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(TWO_SOLUTIONS),
        refusal: "step 1 (0) is the empty clause",
    },
    Case {
        file: "unsat_9x9.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(ONE_SOLUTION),
        refusal: "is neither RUP nor RAT",
    },
    Case {
        file: "reordered_lemmas.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(UNSAT),
        refusal: "is neither RUP nor RAT",
    },
    Case {
        file: "truncated.drat",
        format: ProofFormat::Drat,
        formula: Formula::Puzzle(UNSAT),
        refusal: "never derive the empty clause",
    },
];

fn scratch(name: &str) -> PathBuf {
    scratch_dir("proofs", name)
}

fn fixture(file: &str) -> PathBuf {
    path("tests/fixtures/proofs").join(file)
}

/// The first solution `sudokit solve` prints, as its line.
fn first_solution(puzzle: &str) -> String {
    let out = run(&["solve", "-"], format!("{puzzle}\n").as_bytes());
    stdout(&out).trim().to_string()
}

fn formula(of: &Formula) -> Cnf {
    match *of {
        Formula::Puzzle(p) => formula_excluding(&p.parse().unwrap(), Default::default(), &[]),
        Formula::AfterFirstSolution(p) => formula_excluding(
            &p.parse().unwrap(),
            Default::default(),
            &[first_solution(p).parse().unwrap()],
        ),
    }
}

fn ours(cnf: &Cnf, format: ProofFormat, proof: &Path) -> ProofCheck {
    let bytes = std::fs::read(proof).unwrap();
    check_refutation(cnf, format, &mut bytes.as_slice(), &|| None)
}

/// Whether `program` answers (`common::tool_starts`): under `SUDOKIT_REQUIRE_TOOLS` its absence
/// fails unless `SUDOKIT_UNAVAILABLE_TOOLS` names it (CI installs rate; drat-trim has no package
/// and is used where it is on the PATH).
fn available(program: &str) -> bool {
    crate::common::tool_starts(program, &["--help"])
}

/// The verdict of each installed external DRAT checker on `cnf` and `proof`: (name, verified).
fn external_verdicts(cnf: &Path, proof: &Path) -> Vec<(&'static str, bool)> {
    let mut verdicts = Vec::new();
    if available("rate") {
        let out = Command::new("rate")
            .args([s(cnf), s(proof)])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        verdicts.push(("rate", text.lines().any(|l| l.trim() == "s VERIFIED")));
    }
    if available("drat-trim") {
        let out = Command::new("drat-trim")
            .args([s(cnf), s(proof)])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        verdicts.push(("drat-trim", text.lines().any(|l| l.trim() == "s VERIFIED")));
    }
    verdicts
}

fn write_dimacs(cnf: &Cnf, path: &Path) {
    write_formula(cnf, &[], std::fs::File::create(path).unwrap()).unwrap();
}

#[test]
fn every_hostile_proof_is_refused_by_sudokit_and_by_the_external_checkers() {
    let dir = scratch("corpus");
    for case in CORPUS {
        let cnf = formula(&case.formula);
        let proof = fixture(case.file);
        match ours(&cnf, case.format, &proof) {
            ProofCheck::Rejected(why) => assert!(
                why.contains(case.refusal),
                "{}: refused, but as {why:?}",
                case.file
            ),
            other => panic!("{}: {other:?}", case.file),
        }
        if case.format == ProofFormat::Drat {
            let cnf_path = dir.join("formula.cnf");
            write_dimacs(&cnf, &cnf_path);
            for (checker, verified) in external_verdicts(&cnf_path, &proof) {
                assert!(!verified, "{checker} verifies {}", case.file);
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_real_proof_in_the_corpus_is_accepted_by_every_checker() {
    let dir = scratch("control");
    let cnf = formula(&Formula::Puzzle(UNSAT));
    let proof = fixture("unsat_9x9.drat");
    assert!(matches!(
        ours(&cnf, ProofFormat::Drat, &proof),
        ProofCheck::Accepted { .. }
    ));
    let cnf_path = dir.join("unsat.cnf");
    write_dimacs(&cnf, &cnf_path);
    for (checker, verified) in external_verdicts(&cnf_path, &proof) {
        assert!(verified, "{checker} refuses the real proof");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random 3-SAT formulas at the threshold, small enough for a debug build: CaDiCaL's proofs of
/// the unsatisfiable ones, with their many deletions, are accepted by sudokit and rate alike.
#[test]
fn cadical_proofs_with_deletions_are_accepted_by_sudokit_and_rate_alike() {
    if !available("cadical") {
        return;
    }
    let dir = scratch("random");
    let mut unsat = 0;
    for seed in 1..=12u64 {
        let text = random_3sat(seed, 120, 516);
        let cnf_path = dir.join(format!("r{seed}.cnf"));
        std::fs::write(&cnf_path, &text).unwrap();
        let proof = dir.join(format!("r{seed}.drat"));
        let status = Command::new("cadical")
            .args(["-q", s(&cnf_path), s(&proof)])
            .status()
            .unwrap();
        if status.code() != Some(20) {
            continue;
        }
        unsat += 1;
        let cnf = read_cnf(text.as_bytes()).unwrap();
        let verdict = ours(&cnf, ProofFormat::Drat, &proof);
        assert!(
            matches!(verdict, ProofCheck::Accepted { .. }),
            "seed {seed}: {verdict:?}"
        );
        for (checker, verified) in external_verdicts(&cnf_path, &proof) {
            assert!(verified, "seed {seed}: {checker} refuses CaDiCaL's proof");
        }
    }
    assert!(unsat >= 3, "only {unsat} of 12 formulas are unsatisfiable");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A random 3-SAT formula in DIMACS (a fixed linear congruential generator).
fn random_3sat(seed: u64, vars: u64, clauses: usize) -> String {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    let mut text = format!("p cnf {vars} {clauses}\n");
    for _ in 0..clauses {
        let mut picked: Vec<u64> = Vec::new();
        while picked.len() < 3 {
            let v = next() % vars + 1;
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        for v in picked {
            let sign = if next() % 2 == 0 { "" } else { "-" };
            text += &format!("{sign}{v} ");
        }
        text += "0\n";
    }
    text
}

/// The DIMACS model of a 4×4 grid in sudokit's CNF (`x(r,c,v) = (r-1)·16 + (c-1)·4 + v`).
fn model_4x4(text: &str) -> String {
    let digits: Vec<u32> = text.chars().map(|c| c.to_digit(10).unwrap()).collect();
    let mut line = String::from("s SATISFIABLE\nv");
    for (cell, &digit) in digits.iter().enumerate() {
        for v in 1..=4u32 {
            let var = cell as u32 * 4 + v;
            let sign = if digit == v { "" } else { "-" };
            line += &format!(" {sign}{var}");
        }
    }
    line + " 0\n"
}

/// A solver table whose entries `hostile-drat` and `hostile-frat` (as CaDiCaL and CryptoMiniSat
/// write their proofs) give the first
/// solution on their first run, if `first` is given, and then answer `unsat` with the
/// reason-deletion proof; `dir/calls` counts the runs.
fn hostile_table(dir: &Path, first: Option<&str>) -> PathBuf {
    if let Some(grid) = first {
        std::fs::write(dir.join("model"), model_4x4(grid)).unwrap();
    }
    let calls = dir.join("calls");
    let model = dir.join("model");
    let mut table = String::new();
    for (name, format, file) in [
        ("hostile-drat", "drat", "reason_deletion.drat"),
        ("hostile-frat", "frat", "reason_deletion.frat"),
    ] {
        let body = format!(
            "n=$(cat '{calls}' 2>/dev/null || echo 0); echo $((n + 1)) > '{calls}'\n\
             if [ \"$n\" = 0 ] && [ -f '{model}' ]; then cat '{model}'; exit 10; fi\n\
             cp '{proof}' \"$2\"; echo 's UNSATISFIABLE'; exit 20",
            calls = calls.display(),
            model = model.display(),
            proof = fixture(file).display(),
        );
        let program = script(dir, &format!("{name}.sh"), &body);
        table += &format!(
            "[solver.{name}]\nprogram = \"{}\"\nargs = [\"{{input}}\", \"{{proof}}\"]\n\
             input = \"cnf\"\nanswer = \"dimacs\"\nversion = []\nsat_exit = [10]\n\
             unsat_exit = [20]\nproof = {{ format = \"{format}\", args = [\"{{file}}\"] }}\n\n",
            program.display()
        );
    }
    let path = dir.join("hostile.toml");
    std::fs::write(&path, table).unwrap();
    path
}

/// Runs `command` with the table's `entry` on `puzzle`, its count of runs reset: the output and
/// its standard output.
fn run_entry(
    dir: &Path,
    table: &Path,
    command: &[&str],
    entry: &str,
    puzzle: &Path,
) -> (std::process::Output, String) {
    let _ = std::fs::remove_file(dir.join("calls"));
    let backend = format!("ext:{entry}");
    let mut args = vec!["--solvers", s(table)];
    args.extend(command.iter().copied());
    args.extend(["--backend", &backend, s(puzzle)]);
    let out = run(&args, b"");
    let text = stdout(&out);
    (out, text)
}

#[test]
fn a_hostile_proof_cannot_make_a_satisfiable_puzzle_unsat_or_its_count_zero() {
    let dir = scratch("cli");
    let table = hostile_table(&dir, None);
    let puzzle = dir.join("p.txt");
    std::fs::write(&puzzle, format!("{TWO_SOLUTIONS}\n")).unwrap();
    for (entry, format) in [("hostile-drat", "drat"), ("hostile-frat", "frat")] {
        for command in [
            vec!["solve", "--require-certificate", "--json"],
            vec!["solve"],
            vec!["count", "--require-certificate"],
            vec!["count"],
        ] {
            let (out, text) = run_entry(&dir, &table, &command, entry, &puzzle);
            assert_eq!(out.status.code(), Some(2), "{command:?} {entry}: {text}");
            assert!(
                text.contains(&format!(
                    "it says unsat, but its {format} proof is rejected: step 4 (-1002 0) is \
                     neither RUP nor RAT"
                )),
                "{command:?} {entry}: {text} {}",
                stderr(&out)
            );
            assert!(!text.contains("\"certified\":true"), "{text}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_look_alike_that_gives_one_model_then_a_hostile_proof_counts_nothing() {
    let dir = scratch("look-alike");
    let first = first_solution(TWO_SOLUTIONS);
    let table = hostile_table(&dir, Some(first.as_str()));
    let puzzle = dir.join("p.txt");
    std::fs::write(&puzzle, format!("{TWO_SOLUTIONS}\n")).unwrap();
    for entry in ["hostile-drat", "hostile-frat"] {
        for command in [
            vec!["count", "--require-certificate"],
            vec!["count"],
            vec!["solve", "--unique"],
        ] {
            let (out, text) = run_entry(&dir, &table, &command, entry, &puzzle);
            assert_eq!(out.status.code(), Some(2), "{command:?} {entry}: {text}");
            assert!(
                text.contains("proof is rejected") && !text.contains("unique"),
                "{command:?} {entry}: {text}"
            );
            assert_eq!(
                std::fs::read_to_string(dir.join("calls")).unwrap().trim(),
                "2",
                "one model, then the proof"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_valid_proof_with_a_deleted_reason_is_accepted_and_the_ignored_deletion_reported() {
    let dir = scratch("ignored");
    let proof = dir.join("proof.drat");
    let real = std::fs::read_to_string(fixture("unsat_9x9.drat")).unwrap();
    std::fs::write(&proof, format!("100000 0\nd 100000 0\n{real}")).unwrap();
    let program = script(
        &dir,
        "prover.sh",
        &format!(
            "cp '{}' \"$2\"; echo 's UNSATISFIABLE'; exit 20",
            proof.display()
        ),
    );
    let table = dir.join("prover.toml");
    std::fs::write(
        &table,
        format!(
            "[solver.prover]\nprogram = \"{}\"\nargs = [\"{{input}}\", \"{{proof}}\"]\n\
             input = \"cnf\"\nanswer = \"dimacs\"\nversion = []\nsat_exit = [10]\n\
             unsat_exit = [20]\nproof = {{ format = \"drat\", args = [\"{{file}}\"] }}\n",
            program.display()
        ),
    )
    .unwrap();
    let out = run(
        &[
            "--solvers",
            s(&table),
            "solve",
            "--require-certificate",
            "--json",
            "--backend",
            "ext:prover",
            "-",
        ],
        format!("{UNSAT}\n").as_bytes(),
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text} {}", stderr(&out));
    assert!(text.contains("\"certified\":true"), "{text}");
    assert!(
        text.contains("(1 deletion of a reason or absent clause ignored, as drat-trim does)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
