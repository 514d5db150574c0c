//! The solver table's TOML form: the built-in `solvers.toml` and users' files.
//!
//! A file holds `[solver.NAME]` tables (see `solvers.toml` for the fields). Every field is
//! optional in the file: a user's table for a name the table has changes only the fields it
//! sets; a new name needs at least `args`, `input`, `answer` and `version` (`program` defaults
//! to the name; `version = []` says it has no version option). Unknown fields are errors, so a
//! typo does not pass silently.
//!
//! Every entry of the merged table is then checked ([`validate`]): its input is an export
//! format and its answer a reader of that format's answers, every `{placeholder}` is one its
//! field knows, the input reaches the program (`{input}` or `stdin`), the time arguments have
//! their `{time}`, a proof has its format, its `{file}` and its `{proof}` in `args`, and no exit
//! code is in two of `exit_ok`, `sat_exit` and `unsat_exit` (a code says one thing). A mistake
//! is refused when the table is loaded, naming the file, the entry and the field; an exit code
//! in two lists also names the line and column of the list that repeats it.
//!
//! # References
//! - TOML v1.0.0 specification; the `toml` crate.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Capture, Entry, ExternalError, ProofSpec};
use crate::format::clausal_proof::ProofFormat;
use crate::format::{find_format, find_reader};

/// A file: its solver tables by name, in file order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    solver: toml::Table,
}

/// One `[solver.NAME]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    program: Option<String>,
    args: Option<Vec<String>>,
    time_args: Option<Vec<String>>,
    input: Option<String>,
    answer: Option<String>,
    stdin: Option<bool>,
    capture: Option<Capture>,
    exit_ok: Option<Vec<i32>>,
    sat_exit: Option<Vec<i32>>,
    unsat_exit: Option<Vec<i32>>,
    reports: Option<String>,
    version: Option<Vec<String>>,
    probe: Option<Vec<String>>,
    probe_contains: Option<String>,
    max_order: Option<usize>,
    proof: Option<RawProof>,
    enumerate: Option<Vec<String>>,
}

/// A `proof = { format = ..., args = [...] }` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProof {
    format: Option<String>,
    args: Option<Vec<String>>,
}

/// The exit-code lists of each `[solver.NAME]` table of a file, with their places (read again,
/// only to name the place of an exit code in two lists).
#[derive(Debug, Deserialize)]
struct ExitPlaces {
    #[serde(default)]
    solver: BTreeMap<String, EntryExitPlaces>,
}

/// The exit-code lists of one table as written, with their byte spans.
#[derive(Debug, Deserialize)]
struct EntryExitPlaces {
    exit_ok: Option<toml::Spanned<Vec<i32>>>,
    sat_exit: Option<toml::Spanned<Vec<i32>>>,
    unsat_exit: Option<toml::Spanned<Vec<i32>>>,
}

/// The exit-code fields, in the order a message names them.
const EXIT_FIELDS: [&str; 3] = ["exit_ok", "sat_exit", "unsat_exit"];

/// The first exit code held by two of `exit_ok`, `sat_exit` and `unsat_exit`: the code, the
/// field that holds it first and the one that holds it again.
fn exit_code_in_two_lists(entry: &Entry) -> Option<(i32, &'static str, &'static str)> {
    let lists = [&entry.exit_ok, &entry.sat_exit, &entry.unsat_exit];
    for second in 1..lists.len() {
        for first in 0..second {
            if let Some(&code) = lists[second].iter().find(|c| lists[first].contains(c)) {
                return Some((code, EXIT_FIELDS[first], EXIT_FIELDS[second]));
            }
        }
    }
    None
}

/// The message for an exit code in two lists.
fn exit_overlap_message(code: i32, first: &str, second: &str) -> String {
    format!(
        "{second}: exit code {code} is also in {first} (an exit code says one thing: a normal \
         run, sat or unsat)"
    )
}

/// The 1-based line and column of the list `field` of `[solver.name]` in `text`, when the
/// file sets it.
fn exit_field_place(text: &str, name: &str, field: &str) -> Option<(usize, usize)> {
    let places: ExitPlaces = toml::from_str(text).ok()?;
    let entry = places.solver.get(name)?;
    let span = match field {
        "exit_ok" => entry.exit_ok.as_ref(),
        "sat_exit" => entry.sat_exit.as_ref(),
        _ => entry.unsat_exit.as_ref(),
    }?
    .span();
    let before = text.get(..span.start)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = crate::text::located::column_at(&text[line_start..], span.start - line_start);
    Some((line, column))
}

/// Refuses an entry whose exit code is in two lists after the file `origin` (`text`) changed
/// it, naming the file, line and column of the list this file set that repeats the code.
fn refuse_exit_overlap(entry: &Entry, text: &str, origin: &str) -> Result<(), ExternalError> {
    let Some((code, first, second)) = exit_code_in_two_lists(entry) else {
        return Ok(());
    };
    let message = format!(
        "[solver.{}] {}",
        entry.name,
        exit_overlap_message(code, first, second)
    );
    // The list of this file that makes the overlap: the second one, or the first.
    let place = exit_field_place(text, &entry.name, second)
        .or_else(|| exit_field_place(text, &entry.name, first));
    let origin = match place {
        Some((line, column)) => format!("{origin}:{line}:{column}"),
        None => origin.to_string(),
    };
    Err(ExternalError::Config { origin, message })
}

/// Reads the tables of `text` (from `origin`, for messages) over `entries`: a name already
/// there has its fields changed, a new name is added at the end. The entries are not checked
/// here: [`validate`] checks the merged table.
///
/// # Errors
/// [`ExternalError::Config`] for TOML that does not parse, an unknown field, a new entry
/// without `args`, `input`, `answer` or `version`, or an exit code in two of `exit_ok`,
/// `sat_exit` and `unsat_exit` (with the file, line and column).
pub(super) fn merge(
    entries: &mut Vec<Entry>,
    text: &str,
    origin: &str,
) -> Result<(), ExternalError> {
    let config = |message: String| ExternalError::Config {
        origin: origin.to_string(),
        message,
    };
    let file: File = toml::from_str(text).map_err(|e| config(e.to_string()))?;
    // toml::Table keeps keys sorted; the order of the file is the order of the spans.
    let mut tables: Vec<(String, toml::Value)> = file.solver.into_iter().collect();
    let order: BTreeMap<String, usize> = tables
        .iter()
        .map(|(name, _)| {
            (
                name.clone(),
                text.find(&format!("[solver.{name}]")).unwrap_or(usize::MAX),
            )
        })
        .collect();
    tables.sort_by_key(|(name, _)| order[name]);
    for (name, value) in tables {
        let raw: RawEntry = value
            .try_into()
            .map_err(|e: toml::de::Error| config(format!("[solver.{name}]: {e}")))?;
        match entries.iter_mut().find(|e| e.name == name) {
            Some(entry) => {
                entry.origin = origin.to_string();
                apply(entry, raw).map_err(|e| config(format!("[solver.{name}] {e}")))?;
                refuse_exit_overlap(entry, text, origin)?;
            }
            None => {
                let missing: Vec<&str> = [
                    ("args", raw.args.is_none()),
                    ("input", raw.input.is_none()),
                    ("answer", raw.answer.is_none()),
                    ("version", raw.version.is_none()),
                ]
                .into_iter()
                .filter(|(_, absent)| *absent)
                .map(|(field, _)| field)
                .collect();
                if !missing.is_empty() {
                    return Err(config(format!(
                        "[solver.{name}] is a new solver and needs {}",
                        missing.join(", ")
                    )));
                }
                let mut entry = Entry::new(&name);
                entry.origin = origin.to_string();
                apply(&mut entry, raw).map_err(|e| config(format!("[solver.{name}] {e}")))?;
                refuse_exit_overlap(&entry, text, origin)?;
                entries.push(entry);
            }
        }
    }
    Ok(())
}

/// Sets the fields `raw` has.
fn apply(entry: &mut Entry, mut raw: RawEntry) -> Result<(), String> {
    if let Some(proof) = raw.proof.take() {
        let old = entry.proof.take();
        let format = proof.format.or(old.as_ref().map(|p| p.format.clone()));
        let args = proof.args.or(old.map(|p| p.args));
        match (format, args) {
            (Some(format), Some(args)) => entry.proof = Some(ProofSpec { format, args }),
            (None, _) => return Err("proof: needs format (drat, rup or frat)".into()),
            (_, None) => return Err("proof: needs args (with {file} for the proof file)".into()),
        }
    }
    macro_rules! set {
        ($($field:ident),*) => {
            $(if let Some(value) = raw.$field {
                entry.$field = value;
            })*
        };
    }
    set!(
        program,
        args,
        time_args,
        input,
        answer,
        stdin,
        capture,
        exit_ok,
        sat_exit,
        unsat_exit,
        reports,
        version,
        probe,
        probe_contains,
        max_order
    );
    if let Some(words) = raw.enumerate {
        entry.enumerate = Some(words);
    }
    Ok(())
}

/// The placeholders each field may hold.
const ARG_PLACEHOLDERS: &[&str] = &[
    "input",
    "output",
    "time",
    "seconds",
    "millis",
    "proof",
    "enumerate",
];
const TIME_PLACEHOLDERS: &[&str] = &["seconds", "millis"];
const PROOF_PLACEHOLDERS: &[&str] = &["file"];
const ENUMERATE_PLACEHOLDERS: &[&str] = &["limit"];

/// The `{name}` placeholders of `words` that are not in `known`: the first, as a message.
fn unknown_placeholder(field: &str, words: &[String], known: &[&str]) -> Result<(), String> {
    for word in words {
        let mut rest = word.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                return Err(format!("{field}: '{word}' has a '{{' without its '}}'"));
            };
            let name = &after[..close];
            if !known.contains(&name) {
                let known: Vec<String> = known.iter().map(|k| format!("{{{k}}}")).collect();
                let known = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err(format!(
                    "{field}: unknown placeholder {{{name}}} in '{word}' (this field takes {known})"
                ));
            }
            rest = &after[close + 1..];
        }
    }
    Ok(())
}

/// Whether any word of `words` holds `{name}`.
fn holds(words: &[String], name: &str) -> bool {
    let placeholder = format!("{{{name}}}");
    words.iter().any(|w| w.contains(&placeholder))
}

/// Checks one entry of a merged table; the message names the field.
///
/// # Errors
/// What is wrong, as `field: problem`.
pub(super) fn validate(entry: &Entry) -> Result<(), String> {
    let format = find_format(&entry.input).map_err(|e| format!("input: {e}"))?;
    let reader = find_reader(&entry.answer).map_err(|e| format!("answer: {e}"))?;
    if !format.answers.contains(&reader.name) {
        return Err(format!(
            "answer: the {} reader reads answers to {} exports, not to {} (readers of {}: {})",
            reader.name,
            reader.format,
            format.name,
            format.name,
            format.answers.join(", ")
        ));
    }
    if entry.program.trim().is_empty() {
        return Err("program: empty".into());
    }
    unknown_placeholder("args", &entry.args, ARG_PLACEHOLDERS)?;
    unknown_placeholder("time_args", &entry.time_args, TIME_PLACEHOLDERS)?;
    if let Some(words) = &entry.enumerate {
        unknown_placeholder("enumerate", words, ENUMERATE_PLACEHOLDERS)?;
        if !holds(&entry.args, "enumerate") {
            return Err("args: enumerate is set but args have no {enumerate} to put it in".into());
        }
    } else if holds(&entry.args, "enumerate") {
        return Err("args: {enumerate} without enumerate arguments".into());
    }
    unknown_placeholder("version", &entry.version, &[])?;
    unknown_placeholder("probe", &entry.probe, &[])?;
    if !entry.stdin && !holds(&entry.args, "input") {
        return Err(
            "args: no {input} (where the exported puzzle goes), and stdin is not set".into(),
        );
    }
    if !entry.time_args.is_empty() && !holds(&entry.args, "time") {
        return Err("args: time_args are set but args have no {time} to put them in".into());
    }
    if holds(&entry.args, "output") && entry.capture != Capture::Stdout {
        return Err("capture: the answer is the {output} file, so capture has no use".into());
    }
    if let Some((code, first, second)) = exit_code_in_two_lists(entry) {
        return Err(exit_overlap_message(code, first, second));
    }
    if entry.max_order == 0 {
        return Err("max_order: must be at least 1".into());
    }
    if entry.probe.is_empty() != entry.probe_contains.is_empty() {
        return Err("probe: probe and probe_contains go together".into());
    }
    match &entry.proof {
        Some(proof) => {
            proof
                .format
                .parse::<ProofFormat>()
                .map_err(|e| format!("proof.format: {e}"))?;
            unknown_placeholder("proof.args", &proof.args, PROOF_PLACEHOLDERS)?;
            if !holds(&proof.args, "file") {
                return Err("proof.args: no {file} (where the proof is written)".into());
            }
            if !holds(&entry.args, "proof") {
                return Err("args: a proof is set but args have no {proof} to put it in".into());
            }
            if format.name != "cnf" {
                return Err(format!(
                    "proof: proofs are checked against the CNF export, and the input is {}",
                    format.name
                ));
            }
        }
        None if holds(&entry.args, "proof") => {
            return Err("args: {proof} without a proof = { format, args } table".into());
        }
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_change_fields_and_add_solvers() {
        let mut entries = vec![Entry::new("z3")];
        entries[0].args = vec!["{input}".into()];
        let text = "[solver.z3]\nprogram = \"/opt/z3/bin/z3\"\n\n[solver.yices]\nprogram = \"yices-smt2\"\nargs = [\"{input}\"]\ninput = \"smt2\"\nanswer = \"smt2\"\nversion = [\"--version\"]\n";
        merge(&mut entries, text, "test").unwrap();
        assert_eq!(entries[0].program, "/opt/z3/bin/z3");
        assert_eq!(entries[0].args, ["{input}"]);
        assert_eq!(entries[1].name, "yices");
        assert_eq!(entries[1].input, "smt2");
    }

    #[test]
    fn mistakes_are_reported() {
        let mut entries = Vec::new();
        let error = merge(&mut entries, "[solver.x]\nprogam = \"x\"\n", "f.toml").unwrap_err();
        assert!(error.to_string().contains("f.toml"), "{error}");
        assert!(error.to_string().contains("progam"), "{error}");
        let error = merge(&mut entries, "[solver.x]\nprogram = \"x\"\n", "f.toml").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("needs args, input, answer, version"),
            "{error}"
        );
        let error = merge(&mut entries, "[solver.x\n", "f.toml").unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
    }

    #[test]
    fn an_exit_code_in_two_lists_is_refused_with_its_place() {
        let mut entries = vec![Entry::new("minisat")];
        entries[0].sat_exit = vec![10];
        entries[0].unsat_exit = vec![20];
        let text = "# mine\n[solver.minisat]\nunsat_exit = [20, 10]\n";
        let error = merge(&mut entries, text, "f.toml").unwrap_err().to_string();
        assert_eq!(
            error,
            "f.toml:3:14: [solver.minisat] unsat_exit: exit code 10 is also in sat_exit (an \
             exit code says one thing: a normal run, sat or unsat)"
        );
        // A new entry, and exit_ok against sat_exit.
        let text = "[solver.y]\nargs = [\"{input}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\n\
                    version = []\n  exit_ok = [0, 10]\nsat_exit = [10]\n";
        let error = merge(&mut Vec::new(), text, "g.toml")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("g.toml:7:12: [solver.y] sat_exit: exit code 10 is also in exit_ok"),
            "{error}"
        );
        let mut entry = Entry::new("z");
        entry.args = vec!["{input}".into()];
        entry.input = "cnf".into();
        entry.answer = "dimacs".into();
        assert!(validate(&entry).is_ok());
        entry.exit_ok = vec![0];
        entry.unsat_exit = vec![0];
        assert!(validate(&entry).is_err_and(|e| e.starts_with("unsat_exit: exit code 0")));
    }
}
