//! The help is written from the registries and is complete: every backend family (with `mip`,
//! `highs` and `ext:NAME`), encoding, AMO, scheme, export format, answer reader and alias
//! appears, and every name round-trips through its registry; so do the lists of the closing
//! texts (grade's schemes, count's methods, reduce latin's levels and targets, the solvers that
//! enumerate in decode's); every flag has one placeholder per kind of value, and every command
//! that runs work in parallel takes `--threads`.

use std::collections::BTreeSet;

use sudokit::census::Method;
use sudokit::encode::cnf::{Amo, Encoding};
use sudokit::external::SolverTable;
use sudokit::format::{FORMATS, READER_ALIASES, READERS, find_format, find_reader};
use sudokit::propagate::Scheme;
use sudokit::reduce::course::Level;
use sudokit::solve::{backend, registry};

use crate::common::{run, stderr, stdout};

fn help(args: &[&str]) -> String {
    let out = run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The commands, as their help is asked for.
const COMMANDS: &[&[&str]] = &[
    &["solve"],
    &["count"],
    &["bench"],
    &["crosscheck"],
    &["verify"],
    &["export"],
    &["decode"],
    &["info"],
    &["grade"],
    &["explain"],
    &["generate"],
    &["minimize"],
    &["generate-latin"],
    &["reduce", "latin"],
    &["render"],
    &["solvers"],
];

#[test]
fn every_backend_appears_in_the_help_and_round_trips() {
    for command in [
        &["solve"][..],
        &["count"],
        &["render"],
        &["crosscheck"],
        &["bench"],
    ] {
        let long = help(&[command, &["--help"][..]].concat());
        let short = help(&[command, &["-h"][..]].concat());
        for entry in registry::ENTRIES {
            assert!(
                long.contains(entry.syntax),
                "{command:?} --help lacks {}",
                entry.syntax
            );
            assert!(
                long.contains(entry.summary),
                "{command:?} --help lacks {}",
                entry.family
            );
            assert!(
                short.contains(entry.syntax),
                "{command:?} -h lacks {}",
                entry.syntax
            );
        }
    }
    let long = help(&["solve", "--help"]);
    for family in ["mip", "highs", "ext:NAME", "grasp[:pre=SCHEME"] {
        assert!(long.contains(family), "solve --help lacks {family}");
    }
    for entry in registry::ENTRIES.iter().filter(|e| e.is_built()) {
        for name in (entry.variants)() {
            assert_eq!(backend(&name).unwrap().name(), name);
        }
    }
    // A bare scheme after grasp: is its preprocessing scheme.
    assert_eq!(backend("grasp:FCI").unwrap().name(), "grasp:pre=FCI");
    let latin = help(&["reduce", "latin", "--help"]);
    assert!(latin.contains("ILP backends: mip, highs"), "{latin}");
}

#[test]
fn every_encoding_scheme_format_and_reader_appears_and_round_trips() {
    for command in [&["solve"][..], &["export"], &["reduce", "latin"]] {
        let long = help(&[command, &["--help"][..]].concat());
        for e in Encoding::ALL {
            assert!(long.contains(e.summary()), "{command:?} lacks {e}");
            assert_eq!(e.name().parse::<Encoding>().unwrap(), e);
        }
        for a in Amo::ALL {
            assert!(long.contains(a.summary()), "{command:?} lacks {a}");
            assert_eq!(a.name().parse::<Amo>().unwrap(), a);
        }
    }
    for command in [&["grade"][..], &["solve"], &["explain"], &["generate"]] {
        let short = help(&[command, &["-h"][..]].concat());
        for s in Scheme::EVERY {
            assert!(short.contains(s.name()), "{command:?} -h lacks {s}");
            assert_eq!(s.name().parse::<Scheme>().unwrap(), s);
        }
    }
    let export = help(&["export", "--help"]);
    let latin = help(&["reduce", "latin", "--help"]);
    for format in FORMATS {
        for text in [export.as_str(), latin.as_str()] {
            assert!(text.contains(format.summary), "lacks {}", format.name);
        }
        assert_eq!(find_format(format.name).unwrap().name, format.name);
        for alias in format.aliases {
            assert!(
                export.contains(alias),
                "export --help lacks the alias {alias}"
            );
            assert_eq!(find_format(alias).unwrap().name, format.name);
        }
    }
    let decode = help(&["decode", "--help"]);
    for reader in READERS {
        assert!(
            decode.contains(reader.summary),
            "decode --help lacks {}",
            reader.name
        );
        assert_eq!(find_reader(reader.name).unwrap().name, reader.name);
    }
    for (alias, reader) in READER_ALIASES {
        assert!(
            decode.contains(alias),
            "decode --help lacks the alias {alias}"
        );
        assert_eq!(find_reader(alias).unwrap().name, *reader);
    }
}

/// The closing text of a help (its `after_help`), with every run of white space one space: a
/// list wrapped over lines reads as one line.
fn closing(text: &str) -> String {
    let at = text.find("Print help").expect("a help flag");
    text[at..].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_list_of_a_closing_text_is_its_registry() {
    // grade: the paper's schemes, then the others, each once.
    for flag in ["-h", "--help"] {
        let grade = closing(&help(&["grade", flag]));
        let paper: Vec<&str> = Scheme::ALL.iter().map(|s| s.name()).collect();
        let said = format!("Schemes (Simonis 2005): {} (`paper`)", paper.join(" "));
        assert!(grade.contains(&said), "grade {flag}: {grade}");
        for s in Scheme::EVERY {
            let words = grade.split([' ', ',']).filter(|w| *w == s.name()).count();
            assert!(words >= 1, "grade {flag} lacks {s}: {grade}");
        }
    }
    // count: auto, every symmetry method with what it counts, enumerate; --method takes them.
    let count = closing(&help(&["count", "--help"]));
    let names: Vec<&str> = std::iter::once("auto")
        .chain(Method::ALL.iter().map(|m| m.name()))
        .chain(["enumerate"])
        .collect();
    for name in &names {
        assert!(count.contains(&format!(" {name} ")), "count lacks {name}");
    }
    for m in Method::ALL {
        let summary: Vec<&str> = m.summary().split_whitespace().collect();
        let row = format!("{m} {}; counts", summary.join(" "));
        assert!(count.contains(&row), "count lacks {row}: {count}");
        assert_eq!(m.name().parse::<Method>().unwrap(), m);
    }
    assert!(count.contains("(the default for 3×3)"), "{count}");
    let short = help(&["count", "-h"]);
    let values = format!("[values: {}]", names.join(", "));
    assert!(short.contains(&values), "count -h lacks {values}");
    // reduce latin: every level with what it is, and every export format as a target.
    let long = help(&["reduce", "latin", "--help"]);
    let short = help(&["reduce", "latin", "-h"]);
    let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    let values = format!("[values: {}]", names.join(", "));
    assert!(short.contains(&values), "reduce latin -h lacks {values}");
    for level in Level::ALL {
        let row = long.lines().any(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words.first() == Some(&level.name()) && words[1..].join(" ") == level.title()
        });
        assert!(row, "reduce latin --help lacks the level {level:?}");
        assert_eq!(level.name().parse::<Level>().unwrap(), level);
    }
    let latin = closing(&long);
    let to = &latin[latin.find("--to ").unwrap()..latin.find(" writes the Sudoku's").unwrap()];
    let targets: BTreeSet<&str> = to.split([' ', ',', '|', '(', ')']).collect();
    for format in FORMATS {
        let level = Level::ALL
            .iter()
            .find(|l| find_format(l.name()).is_ok_and(|f| f.name == format.name));
        let name = level.map_or(format.name, |l| l.name());
        assert!(
            targets.contains(name),
            "reduce latin's closing text lacks the target {name}: {to}"
        );
    }
    // decode: every solver of the built-in table that enumerates, with its flags and reader.
    let decode = closing(&help(&["decode", "--help"]));
    let table = SolverTable::builtin();
    let enumerating: Vec<_> = table
        .entries()
        .iter()
        .filter(|e| e.enumerate.is_some())
        .collect();
    assert!(enumerating.len() >= 4);
    for entry in enumerating {
        let flags = entry.enumerate.as_ref().unwrap().join(" ");
        let run = format!("{} {}", entry.program, flags.replace("{limit}", "N"));
        let at = decode
            .find(&run)
            .unwrap_or_else(|| panic!("decode lacks {run}: {decode}"));
        let after = &decode[at..];
        let reader = &after[after.find(" for ").unwrap() + 5..];
        assert!(
            reader
                .trim_start_matches("--from ")
                .starts_with(&entry.answer),
            "decode: {run} is not for {}: {decode}",
            entry.answer
        );
        assert!(find_reader(&entry.answer).is_ok());
    }
}

/// The placeholders a help text uses after its flags (`--time-limit <SECONDS>`).
fn placeholders(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if !line.starts_with('-') && !line.starts_with('<') && !line.starts_with('[') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut flag = String::from("(positional)");
        for word in words.iter().take(4) {
            let word = word.trim_end_matches(',');
            if let Some(long) = word.strip_prefix("--") {
                flag = long.to_string();
            } else if let Some(inner) = word
                .trim_start_matches('[')
                .trim_end_matches("...")
                .trim_end_matches(']')
                .strip_prefix('<')
                .and_then(|w| w.strip_suffix('>'))
            {
                out.push((flag.clone(), inner.to_string()));
            }
        }
    }
    out
}

#[test]
fn one_placeholder_per_kind_of_value() {
    let allowed: BTreeSet<&str> = [
        "SECONDS",
        "N",
        "FILE",
        "DIR",
        "LIST",
        "PxQ",
        "SET",
        "BACKEND",
        "SCHEME",
        "FORMAT",
        "FORM",
        "READER",
        "TARGET",
        "ENCODING",
        "AMO",
        "MODE",
        "SOURCE",
        "SYMMETRY",
        "SIZE",
        "KIND",
        "TEXT",
        "PIXELS",
        "BACKEND:FAULT",
        "PUZZLES",
        "SOLUTIONS",
        "PUZZLE",
        "ANSWER",
        "METHOD",
        "LEVEL",
        "ORDER",
        "A..B",
    ]
    .into();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for command in COMMANDS {
        let text = help(&[command, &["--help"][..]].concat());
        let found = placeholders(&text);
        seen += found.len();
        if command == &["solve"] {
            assert!(
                found.contains(&("time-limit".into(), "SECONDS".into())),
                "{found:?}"
            );
            assert!(
                found.contains(&("output".into(), "FILE".into())),
                "{found:?}"
            );
        }
        for (flag, value) in found {
            if !allowed.contains(value.as_str()) {
                wrong.push(format!("{command:?} --{flag} <{value}>"));
            }
            let kind = match flag.as_str() {
                // explain reads a square's order from the puzzle: its --order is the order of
                // the steps (scheme or human).
                "order" if command == &["explain"] => Some("ORDER"),
                "time-limit" | "timeout" => Some("SECONDS"),
                "threads" | "limit" | "node-limit" | "max-n" | "index" | "seed" | "count"
                | "first" | "order" | "givens" | "attempts" | "holes" => Some("N"),
                "output" | "reduced" | "report" | "solution" | "solvers" => Some("FILE"),
                "out-dir" | "proof" => Some("DIR"),
                _ => None,
            };
            if kind.is_some_and(|k| k != value) {
                wrong.push(format!(
                    "{command:?} --{flag} <{value}>, not <{}>",
                    kind.unwrap()
                ));
            }
        }
    }
    assert!(seen > 150, "only {seen} placeholders found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_command_that_runs_in_parallel_takes_threads_and_states_its_defaults() {
    for command in [
        &["solve"][..],
        &["count"],
        &["bench"],
        &["crosscheck"],
        &["verify"],
        &["info"],
        &["grade"],
        &["generate"],
        &["minimize"],
        &["reduce", "latin"],
        &["solvers"],
    ] {
        let text = help(&[command, &["--help"][..]].concat());
        assert!(
            text.contains("--threads <N>"),
            "{command:?} lacks --threads"
        );
        if command != ["bench"] {
            assert!(text.contains("default: all cores"), "{command:?}");
        }
    }
    let bench = help(&["bench", "--help"]);
    assert!(bench.contains("--threads defaults to 1 here"), "{bench}");
    // Every time limit states its default.
    for command in [
        &["solve"][..],
        &["count"],
        &["bench"],
        &["crosscheck"],
        &["grade"],
    ] {
        let text = help(&[command, &["--help"][..]].concat());
        let at = text.find("--time-limit <SECONDS>").expect("a time limit");
        let said = &text[at..at + 400];
        assert!(
            said.contains("default: none") || said.contains("[default: 10]"),
            "{command:?}: {said}"
        );
    }
}

#[test]
fn an_old_spelling_works_unless_it_means_something_else_elsewhere() {
    let count = run(&["count", "--latin", "3"], b"");
    assert_eq!(stdout(&count), "12\n");
    assert!(
        stderr(&count).contains("--latin --order N"),
        "{}",
        stderr(&count)
    );
    // Removed: each meant what another spelling means on the other commands.
    let top95 = "models/sudoku/9x9/top95.txt";
    for (args, now) in [
        (&["bench", "--limit", "2", top95][..], "--first N"),
        (
            &[
                "reduce",
                "latin",
                "models/latin/course.txt",
                "--solve",
                "--count",
                "100",
            ],
            "--limit N",
        ),
        (&["minimize", "-o", "reduced.txt", top95], "--reduced FILE"),
        (
            &["minimize", "--output=reduced.txt", top95],
            "--reduced FILE",
        ),
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        let said = stderr(&out);
        assert!(said.contains("unexpected argument"), "{args:?}: {said}");
        assert!(
            said.contains(&format!("is now `{now}`")),
            "{args:?}: {said}"
        );
        assert!(!said.contains("similar argument"), "{args:?}: {said}");
    }
    // Another unknown flag keeps clap's own tip.
    let out = run(&["bench", "--count", "2", top95], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("is now"), "{}", stderr(&out));
}
