//! Real answers of real solvers (`tests/fixtures/answers`, each with the command that wrote
//! it): every model of an enumeration decoded and verified in order, and the forms that carry
//! no readable model refused with an error that names the form and the flag that writes one.

use crate::common::{path, run, s, stderr, stdout};

/// The two solutions of `two.txt`.
const FIRST: &str = "1234341221434321";
const SECOND: &str = "1243341221344321";

fn decode(form: &str, file: &str, json: bool) -> std::process::Output {
    let puzzle = path("tests/fixtures/answers/two.txt");
    let answer = path(&format!("tests/fixtures/answers/{file}"));
    let mut args = vec!["decode", s(&puzzle), "--from", form, s(&answer)];
    if json {
        args.push("--json");
    }
    run(&args, b"")
}

#[test]
fn every_model_of_an_enumeration_is_decoded_in_order() {
    // (form, file, the solutions in the order of the answer, whether it says there is no other)
    let cases: &[(&str, &str, &[&str], bool)] = &[
        ("dimacs", "picosat-all.out", &[SECOND, FIRST], true),
        (
            "dimacs",
            "cryptominisat5-maxsol.out",
            &[FIRST, SECOND],
            true,
        ),
        ("clingo", "clingo-n0.out", &[SECOND, FIRST], true),
        ("clingo", "clingo-outf2.out", &[SECOND, FIRST], true),
        ("clasp", "clasp-outf2.out", &[SECOND, FIRST], true),
        ("minizinc", "minizinc-a.out", &[FIRST, SECOND], true),
        ("minizinc", "minizinc-json.out", &[FIRST, SECOND], true),
        ("dlx", "miniexact-e.out", &[FIRST, SECOND], true),
        // One model: z3's `v` line without its final 0; clasp's OPB form prints its last
        // model only.
        ("dimacs", "z3-dimacs.out", &[FIRST], false),
        ("clasp", "clasp-opb.out", &[FIRST], false),
    ];
    for &(form, file, solutions, complete) in cases {
        let out = decode(form, file, false);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[..solutions.len()], solutions, "{file}: {text}");
        if complete {
            assert_eq!(
                lines[solutions.len()],
                "2 solutions of 2; the solver says there is no other (not checked)",
                "{file}"
            );
        } else {
            assert_eq!(lines.len(), 1, "{file}: {text}");
        }
        // JSON: a line per model, then the count.
        let out = decode(form, file, true);
        let lines: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), solutions.len() + 1, "{file}");
        for (k, solution) in solutions.iter().enumerate() {
            assert_eq!(lines[k]["solution"], *solution, "{file}");
            assert_eq!(lines[k]["model"], k + 1, "{file}");
        }
        let summary = &lines[solutions.len()];
        assert_eq!(summary["models"], solutions.len(), "{file}");
        assert_eq!(summary["complete"], complete, "{file}");
    }
}

#[test]
fn forms_without_a_model_are_refused_naming_the_flag_that_writes_one() {
    let cases = [
        (
            "glpsol",
            "glpsol-w.out",
            "glpsol's -w solution file",
            "-o OUT",
        ),
        (
            "cbc",
            "cbc-stdout.out",
            "cbc's log (its standard output)",
            "solu OUT",
        ),
        (
            "minisat",
            "minisat-stdout.out",
            "minisat's standard output, which has no model",
            "minisat IN.cnf OUT",
        ),
    ];
    for (form, file, what, flag) in cases {
        let out = decode(form, file, false);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let error = stderr(&out);
        assert!(
            error.contains(what) && error.contains(flag),
            "{file}: {error}"
        );
    }
}

#[test]
fn contradictory_answers_are_refused_naming_the_place() {
    // Real answers edited to contradict themselves; each was read without a word before (the
    // repeated models counted twice: `2 solutions of 2; the solver says there is no other`).
    let cases = [
        (
            "dimacs",
            "picosat-all-repeated.out",
            "picosat-all-repeated.out:5:1: model 2 repeats model 1 (line 1): the same solution given twice",
        ),
        (
            "clasp",
            "clasp-outf2-repeated.out",
            "clasp-outf2-repeated.out:19:7: model 2 repeats model 1 (line 13)",
        ),
        (
            "minizinc",
            "minizinc-a-repeated.out",
            "minizinc-a-repeated.out:14:1: model 2 repeats model 1 (line 7)",
        ),
        (
            "clasp",
            "clasp-outf2-number.out",
            "clasp-outf2-number.out:26:4: \"Models\": \"Number\" says 5 models, the answer gives 2",
        ),
        (
            "clasp",
            "clasp-outf2-unsat.out",
            "clasp-outf2-unsat.out:22:28: \"Result\": UNSATISFIABLE after 2 models: the answer contradicts itself",
        ),
        (
            "clasp",
            "clasp-opb-unsat.out",
            "clasp-opb-unsat.out:10:3: UNSATISFIABLE after 1 model: the answer contradicts itself",
        ),
        (
            "minizinc",
            "minizinc-a-unsat.out",
            "minizinc-a-unsat.out:15:1: =====UNSATISFIABLE===== after 2 models",
        ),
        (
            "smt2",
            "z3-both-ways.out",
            "z3-both-ways.out:3:11: x_1_3_3 is given two values: false here, true at line 2, column 11",
        ),
    ];
    for (form, file, message) in cases {
        for json in [false, true] {
            let out = decode(form, file, json);
            assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
            assert!(stderr(&out).contains(message), "{file}: {}", stderr(&out));
        }
    }
}

#[test]
fn an_ext_backend_refuses_a_repeated_model_as_decode_does() {
    // A table entry that "enumerates" by printing the answer with a model twice.
    let dir = std::env::temp_dir().join(format!("sudokit-repeated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("solvers.toml");
    let answer = path("tests/fixtures/answers/picosat-all-repeated.out");
    std::fs::write(
        &table,
        format!(
            "[solver.repeater]\nprogram = \"/bin/sh\"\nargs = [\"-c\", \"cat \\\"$0\\\"\", \"{}\", \"{{enumerate}}\", \"{{input}}\"]\nenumerate = [\"--all\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\nversion = []\n",
            answer.display()
        ),
    )
    .unwrap();
    let puzzle = path("tests/fixtures/answers/two.txt");
    let out = run(
        &[
            "--solvers",
            s(&table),
            "count",
            "--backend",
            "ext:repeater",
            s(&puzzle),
        ],
        b"",
    );
    let error = stderr(&out) + &stdout(&out);
    assert!(
        error.contains("line 5, column 1: model 2 repeats model 1 (line 1)"),
        "{error}"
    );
    assert_eq!(out.status.code(), Some(2), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
