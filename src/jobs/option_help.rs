//! What each option of the registry's commands is: its kind (a switch, a whole number, a list,
//! a box shape ...) and its help in one line, said once here for every front end that builds
//! its own argument parsing from the [registry](super::registry) (Python's keyword errors,
//! `python -m sudokit.dask`'s flags), and the command line's flag of the options whose flag is
//! not the option's name with dashes (`--proof` is `proof_dir`), so that an option message
//! written with flags can be said in the caller's spelling ([`as_keywords`]).
//!
//! The help of an option is looked up by `command.option` first (where one name means
//! something else in another command: generate's `count` and count's `limit`), then by its
//! name; a test checks that every option of every command has one and that none is left over.
//!
//! # Examples
//! ```
//! use sudokit::jobs::option_help::{Kind, as_keywords, help};
//! let time_limit = help("solve", "time_limit").unwrap();
//! assert_eq!(time_limit.kind, Kind::Number);
//! assert_eq!(help("generate", "count").unwrap().kind, Kind::Integer);
//! assert_eq!(as_keywords("--proof goes with --backend sat"), "proof_dir goes with backend sat");
//! ```

use serde::Serialize;

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// On or off (`--unique`; `--no-sweeps` for an option on by default).
    Switch,
    /// A whole number.
    Integer,
    /// A number (seconds).
    Number,
    /// A word or a name (a backend, a scheme, a size).
    Text,
    /// A comma-separated list (`native,dlx`).
    List,
    /// A box shape `PxQ` (`[P, Q]` as a value).
    Shape,
}

impl Kind {
    /// What the kind takes, in words (`a whole number`).
    pub fn words(self) -> &'static str {
        match self {
            Kind::Switch => "true or false",
            Kind::Integer => "a whole number",
            Kind::Number => "a number",
            Kind::Text => "a string",
            Kind::List => "a list of names",
            Kind::Shape => "a box shape (P, Q)",
        }
    }
}

/// An option's kind, flag and help.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionHelp {
    /// The option's name in the options types (and as a Python keyword): `time_limit`.
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// The command line's flag, without its dashes: `time-limit`, `proof` for `proof_dir`,
    /// `no-sweeps` for the switch `sweeps` that is on by default.
    pub flag: String,
    /// What it does, in one line.
    pub help: &'static str,
}

/// `(key, kind, flag or "" for the name with dashes, help)`: the key is an option's name, or
/// `command.name` where the command gives the name a meaning of its own.
const TABLE: &[(&str, Kind, &str, &str)] = &[
    (
        "amo",
        Kind::Text,
        "",
        "at-most-one encoding of the CNF: pairwise, sequential, product or bimander",
    ),
    (
        "attempts",
        Kind::Integer,
        "",
        "complete grids tried per puzzle before giving up",
    ),
    (
        "backend",
        Kind::Text,
        "",
        "the backend that solves each puzzle (native, dlx, sat, cp:SCHEME, ...)",
    ),
    (
        "backends",
        Kind::List,
        "",
        "the backends compared (default: every exact backend compiled in)",
    ),
    (
        "bench.backends",
        Kind::List,
        "",
        "the backends timed, each on every file (default: native)",
    ),
    (
        "bench.threads",
        Kind::Integer,
        "",
        "puzzles solved at a time (default 1, for undisturbed timings)",
    ),
    (
        "bench.time_limit",
        Kind::Number,
        "",
        "time budget per puzzle in seconds (default 10); running out is unknown",
    ),
    (
        "box",
        Kind::Shape,
        "",
        "the box shape PxQ of the puzzles made",
    ),
    ("count", Kind::Integer, "", "how many to make"),
    (
        "count.limit",
        Kind::Integer,
        "",
        "count at most N solutions (default: no limit)",
    ),
    (
        "crosscheck.limit",
        Kind::Integer,
        "",
        "count at most N solutions (2 decides uniqueness)",
    ),
    (
        "decode.reader",
        Kind::Text,
        "from",
        "the answer's form: a reader's name (dimacs, opb, lp-solution, dlx, ...)",
    ),
    (
        "difficulty",
        Kind::Text,
        "",
        "an everyday difficulty: easy, medium, hard or expert",
    ),
    (
        "encoding",
        Kind::Text,
        "",
        "the CNF encoding: minimal, efficient, extended or optimized",
    ),
    (
        "extra",
        Kind::List,
        "",
        "extra units of the puzzles made: diagonals, windows",
    ),
    (
        "external",
        Kind::List,
        "",
        "also run the solver table's external solvers: those named, or every one found ([])",
    ),
    (
        "first",
        Kind::Integer,
        "",
        "time only the first N puzzles of each file",
    ),
    (
        "form",
        Kind::Text,
        "",
        "how each Sudoku is written: line, block or json",
    ),
    (
        "generate-latin.givens",
        Kind::Integer,
        "",
        "givens placed (kind partial)",
    ),
    (
        "givens",
        Kind::Integer,
        "",
        "stop removing givens at N (well posed, usually not minimal)",
    ),
    (
        "grid_only",
        Kind::Switch,
        "",
        "make the complete grids only (no givens removed)",
    ),
    (
        "grids",
        Kind::Text,
        "",
        "where complete grids come from: search or pattern",
    ),
    ("holes", Kind::Integer, "", "cells emptied (kind qwh)"),
    (
        "index",
        Kind::Integer,
        "",
        "export only the N-th puzzle of the input (1-based)",
    ),
    (
        "inject_fault",
        Kind::List,
        "",
        "add a faulty copy of a backend, BACKEND:FAULT (to test the comparison)",
    ),
    (
        "kind",
        Kind::Text,
        "",
        "how the squares are made: qwh (a square with holes) or partial (random givens)",
    ),
    (
        "long",
        Kind::Switch,
        "",
        "also each entry's command template and how it reports its verdicts",
    ),
    (
        "max_order",
        Kind::Integer,
        "max-n",
        "refuse puzzles above order N (default: the backend's own limit)",
    ),
    (
        "max_size",
        Kind::Text,
        "",
        "refuse an export estimated above SIZE (K, M, G, T; unlimited)",
    ),
    (
        "method",
        Kind::Text,
        "",
        "how to count the empty grid (auto, or a method of `sudokit count --help`)",
    ),
    (
        "node_limit",
        Kind::Integer,
        "",
        "search-node budget per puzzle (default: none); running out is unknown",
    ),
    (
        "not_scheme",
        Kind::Text,
        "",
        "the puzzle must not be search-free for this propagation scheme",
    ),
    ("order", Kind::Integer, "", "every puzzle must have order N"),
    (
        "generate-latin.order",
        Kind::Integer,
        "",
        "the order of the squares",
    ),
    (
        "out_dir",
        Kind::Text,
        "",
        "write one file per item into DIR (made if missing): DIR/STEM-K.EXT",
    ),
    (
        "proof_dir",
        Kind::Text,
        "proof",
        "keep the sat backend's refutation proofs in DIR",
    ),
    (
        "regions",
        Kind::List,
        "",
        "the rows of a region map in place of the boxes of the puzzles made",
    ),
    (
        "require_certificate",
        Kind::Switch,
        "",
        "refuse an answer resting on an external solver's unchecked word",
    ),
    (
        "runtime",
        Kind::Switch,
        "",
        "also search each puzzle with each scheme and print the search-time table",
    ),
    (
        "scheme",
        Kind::Text,
        "",
        "the propagation scheme of the cp backend (default HAC)",
    ),
    (
        "generate.scheme",
        Kind::Text,
        "",
        "the puzzle must be search-free for this propagation scheme",
    ),
    (
        "schemes",
        Kind::Text,
        "",
        "comma-separated schemes to run (paper: the paper's; all: every one)",
    ),
    (
        "seed",
        Kind::Integer,
        "",
        "base random seed: item i is drawn from (seed, i)",
    ),
    (
        "minimize.seed",
        Kind::Integer,
        "",
        "random seed of the order givens are tried in (default: in order)",
    ),
    (
        "shave",
        Kind::Text,
        "",
        "how the shaving schemes shave: once or fixpoint (default: as named)",
    ),
    (
        "stats",
        Kind::Switch,
        "",
        "print the size of each export on standard error",
    ),
    (
        "sweeps",
        Kind::Switch,
        "no-sweeps",
        "sweep ahead for needed givens during the reduction (from 24x24 on)",
    ),
    (
        "symmetry",
        Kind::Text,
        "",
        "symmetry of the givens: none, rot180, rot90, mirror or diagonal",
    ),
    (
        "threads",
        Kind::Integer,
        "",
        "worker threads (default: all cores)",
    ),
    (
        "time_limit",
        Kind::Number,
        "",
        "time budget per puzzle in seconds (default: none); running out is unknown",
    ),
    (
        "to",
        Kind::Text,
        "",
        "the target format (cnf, smt2, lp, ...; for reduce-latin also sudoku)",
    ),
    (
        "unique",
        Kind::Switch,
        "",
        "decide uniqueness: a second solution makes the puzzle negative",
    ),
];

fn of(row: &(&'static str, Kind, &'static str, &'static str)) -> OptionHelp {
    let (key, kind, flag, help) = *row;
    let name = key.rsplit('.').next().unwrap_or(key);
    OptionHelp {
        name,
        kind,
        flag: if flag.is_empty() {
            name.replace('_', "-")
        } else {
            flag.to_string()
        },
        help,
    }
}

/// The help of option `name` of `command`, or None for an option the table lacks.
pub fn help(command: &str, name: &str) -> Option<OptionHelp> {
    let scoped = TABLE.iter().find(|row| {
        row.0
            .split_once('.')
            .is_some_and(|(c, n)| c == command && n == name)
    });
    scoped
        .or_else(|| TABLE.iter().find(|row| row.0 == name))
        .map(of)
}

/// An option message written with the command line's flags (`--time-limit must be ...`,
/// `--proof goes with --backend sat`) in the options' own names, as Python spells them
/// (`time_limit must be ...`, `proof_dir goes with backend sat`): every flag the table knows
/// becomes its option's name, any other `--word` its word with underscores.
pub fn as_keywords(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        let flag = &after[..end];
        if flag.is_empty() || !flag.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str("--");
        } else {
            match TABLE.iter().map(of).find(|h| h.flag == flag) {
                Some(h) if flag.starts_with("no-") => out.push_str(&format!("{}=False", h.name)),
                Some(h) => out.push_str(h.name),
                None => out.push_str(&flag.replace('-', "_")),
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::registry::COMMANDS;

    #[test]
    fn every_option_of_every_command_has_its_help_and_none_is_left_over() {
        let mut used = std::collections::BTreeSet::new();
        for entry in COMMANDS {
            let defaults = entry.defaults();
            for (name, default) in defaults.as_object().unwrap() {
                let help = help(entry.name, name)
                    .unwrap_or_else(|| panic!("{}: {name} has no help", entry.name));
                let key = TABLE
                    .iter()
                    .find(|row| row.0 == format!("{}.{name}", entry.name))
                    .map_or(name.as_str(), |row| row.0);
                used.insert(key.to_string());
                let fits = match (help.kind, default) {
                    (_, serde_json::Value::Null) => true,
                    (Kind::Switch, v) => v.is_boolean(),
                    (Kind::Integer, v) => v.is_u64(),
                    (Kind::Number, v) => v.is_number(),
                    (Kind::Text, v) => v.is_string(),
                    (Kind::List, v) => v.is_array(),
                    (Kind::Shape, v) => v.as_array().is_some_and(|a| a.len() == 2),
                };
                assert!(
                    fits,
                    "{}: {name}'s default {default} is not {:?}",
                    entry.name, help.kind
                );
                if help.kind == Kind::Switch && default == &serde_json::Value::Bool(true) {
                    assert!(
                        help.flag.starts_with("no-"),
                        "{name}: on by default, no --no- flag"
                    );
                }
                assert!(!help.flag.contains('_'), "{name}");
            }
        }
        let table: std::collections::BTreeSet<String> =
            TABLE.iter().map(|row| row.0.to_string()).collect();
        assert_eq!(used, table, "options in the table that no command has");
    }

    #[test]
    fn flags_become_the_option_names() {
        assert_eq!(
            as_keywords("--max-n 40 is above --backend dlx's limit"),
            "max_order 40 is above backend dlx's limit"
        );
        assert_eq!(
            as_keywords("--time-limit must be positive"),
            "time_limit must be positive"
        );
        assert_eq!(as_keywords("a -- b --"), "a -- b --");
        assert_eq!(as_keywords("with --no-sweeps"), "with sweeps=False");
    }
}
