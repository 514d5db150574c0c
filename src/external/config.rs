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
//! their `{time}`, and a proof has its format, its `{file}` and its `{proof}` in `args`. A
//! mistake is refused when the table is loaded, naming the file, the entry and the field.
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

/// Reads the tables of `text` (from `origin`, for messages) over `entries`: a name already
/// there has its fields changed, a new name is added at the end. The entries are not checked
/// here: [`validate`] checks the merged table.
///
/// # Errors
/// [`ExternalError::Config`] for TOML that does not parse, an unknown field, or a new entry
/// without `args`, `input`, `answer` or `version`.
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
}
