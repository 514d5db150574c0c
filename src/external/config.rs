//! The solver table's TOML form: the built-in `solvers.toml` and users' files.
//!
//! A file holds `[solver.NAME]` tables (see `solvers.toml` for the fields). Every field is
//! optional in the file: a user's table for a name the table has changes only the fields it
//! sets; a new name needs at least `args`, `input` and `answer` (`program` defaults to the
//! name). Unknown fields are errors, so a typo does not pass silently.
//!
//! # References
//! - TOML v1.0.0 specification; the `toml` crate.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Capture, Entry, ExternalError};

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
}

/// Reads the tables of `text` (from `origin`, for messages) over `entries`: a name already
/// there has its fields changed, a new name is added at the end.
///
/// # Errors
/// [`ExternalError::Config`] for TOML that does not parse, an unknown field, or a new entry
/// without `args`, `input` or `answer`.
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
            Some(entry) => apply(entry, raw),
            None => {
                let missing: Vec<&str> = [
                    ("args", raw.args.is_none()),
                    ("input", raw.input.is_none()),
                    ("answer", raw.answer.is_none()),
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
                apply(&mut entry, raw);
                entries.push(entry);
            }
        }
    }
    Ok(())
}

/// Sets the fields `raw` has.
fn apply(entry: &mut Entry, raw: RawEntry) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_change_fields_and_add_solvers() {
        let mut entries = vec![Entry::new("z3")];
        entries[0].args = vec!["{input}".into()];
        let text = "[solver.z3]\nprogram = \"/opt/z3/bin/z3\"\n\n[solver.yices]\nprogram = \"yices-smt2\"\nargs = [\"{input}\"]\ninput = \"smt2\"\nanswer = \"smt2\"\n";
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
            error.to_string().contains("needs args, input, answer"),
            "{error}"
        );
        let error = merge(&mut entries, "[solver.x\n", "f.toml").unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
    }
}
