//! What `--resume` checks before it continues a run, so that it never appends to the results of
//! another run.
//!
//! A batch writing `-o FILE` records its run beside `FILE.partial`, in `FILE.partial.run`: the
//! command line (without `--resume`, `--threads`, `--timeout` and `-o`, which do not shape the
//! results) and a fingerprint of the input file (its length and a hash of its first MiB). The
//! record is removed when `FILE` is complete. `--resume` refuses, with the reason, when:
//! - the record is missing (the partial file is not one a sudokit run left), or names another
//!   command line or another input;
//! - a kept result is not of the run's form (a text line where JSON is expected, or the reverse);
//! - a kept result names an input line (`"line"` in JSON, `line N:` or `error: FILE:N:` in text)
//!   other than the one it stands for, or fails the command's own check (a solution that does not
//!   solve its puzzle);
//! - the file holds more results than the input has puzzles.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::{Value, json};

/// The record of a run, written beside `FILE.partial`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRecord {
    /// The command line that shapes the results.
    pub argv: Vec<String>,
    /// The input's fingerprint (`None` for standard input or no input file).
    pub input: Option<String>,
}

/// Flags that do not change the results (with whether they take a value).
const IGNORED: &[(&str, bool)] = &[
    ("--resume", false),
    ("--threads", true),
    ("--timeout", true),
    ("-o", true),
    ("--output", true),
];

impl RunRecord {
    /// The record of this process's run, reading `input` (a file, or `-`) for its fingerprint.
    ///
    /// # Errors
    /// The input cannot be read.
    pub fn of_this_run(input: Option<&Path>) -> anyhow::Result<RunRecord> {
        let mut argv = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let (name, inline) = arg.split_once('=').unwrap_or((&arg, ""));
            match IGNORED.iter().find(|(flag, _)| *flag == name) {
                Some((_, true)) if inline.is_empty() => {
                    args.next();
                }
                Some(_) => {}
                None => argv.push(arg),
            }
        }
        let input = match input {
            Some(path) if path.as_os_str() != "-" => Some(fingerprint(path)?),
            _ => None,
        };
        Ok(RunRecord { argv, input })
    }

    /// Where the record of `partial` is kept.
    pub fn path_for(partial: &Path) -> PathBuf {
        let mut name = partial.as_os_str().to_owned();
        name.push(".run");
        PathBuf::from(name)
    }

    /// Writes the record beside `partial`.
    ///
    /// # Errors
    /// The record cannot be written.
    pub fn write(&self, partial: &Path) -> anyhow::Result<()> {
        let path = RunRecord::path_for(partial);
        let value = json!({"argv": self.argv, "input": self.input});
        fs::write(&path, value.to_string() + "\n")
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Checks that `partial` was left by this same run.
    ///
    /// # Errors
    /// The record is missing or differs; the message says how.
    pub fn check(&self, partial: &Path) -> anyhow::Result<()> {
        let path = RunRecord::path_for(partial);
        let fresh = "; start again without --resume";
        let Ok(text) = fs::read_to_string(&path) else {
            bail!(
                "{} has no record of the run that wrote it ({} is missing){fresh}",
                partial.display(),
                path.display()
            );
        };
        let value: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a run record{fresh}", path.display()))?;
        let argv: Vec<String> = value["argv"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        if argv != self.argv {
            bail!(
                "{} was written by `sudokit {}`, not by `sudokit {}`{fresh}",
                partial.display(),
                argv.join(" "),
                self.argv.join(" ")
            );
        }
        if value["input"].as_str() != self.input.as_deref() {
            bail!(
                "the input is not the one {} was written from (it changed since){fresh}",
                partial.display()
            );
        }
        Ok(())
    }

    /// Removes the record of `partial` (the run is complete).
    pub fn remove(partial: &Path) {
        let _ = fs::remove_file(RunRecord::path_for(partial));
    }
}

/// The length and a hash (FNV-1a) of the first MiB of a file.
fn fingerprint(path: &Path) -> anyhow::Result<String> {
    use std::io::Read;
    let file = fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let length = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut head = Vec::new();
    file.take(1 << 20)
        .read_to_end(&mut head)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let hash = head.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Ok(format!("{length} bytes, {hash:016x}"))
}

/// The generic check of a kept result against the input line it stands for: its form (JSON or
/// text) and, where it names one, its input line.
///
/// # Errors
/// A message saying what is wrong.
pub fn check_result(text: &str, json: bool, line: usize) -> Result<(), String> {
    let first = text.lines().next().unwrap_or("");
    let is_json = first.starts_with('{');
    if json != is_json {
        return Err(format!(
            "it is {} where the run writes {}",
            if is_json { "JSON" } else { "text" },
            if json { "JSON" } else { "text" }
        ));
    }
    let named = if json {
        let value: Value =
            serde_json::from_str(first).map_err(|e| format!("it is not a JSON object: {e}"))?;
        ["line", "puzzle_line"]
            .iter()
            .find_map(|key| value.get(*key).and_then(Value::as_u64))
    } else {
        named_line(first)
    };
    match named {
        Some(named) if named != line as u64 => {
            Err(format!("it is the result of input line {named}"))
        }
        _ => Ok(()),
    }
}

/// The input line a text result names: `line N: ...`, or `error: FILE:N:COLUMN: ...`.
fn named_line(text: &str) -> Option<u64> {
    if let Some(rest) = text.strip_prefix("line ") {
        return rest.split(':').next()?.parse().ok();
    }
    let rest = text.strip_prefix("error: ")?;
    // FILE:LINE:COLUMN: message, where FILE may hold colons: the first `:N:N:` run.
    let parts: Vec<&str> = rest.split(':').collect();
    parts
        .windows(2)
        .find(|w| w[0].parse::<u64>().is_ok() && w[1].parse::<u64>().is_ok())
        .and_then(|w| w[0].parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_checked_against_their_line() {
        assert_eq!(check_result("line 3: valid\n", false, 3), Ok(()));
        assert!(check_result("line 4: valid\n", false, 3).is_err());
        assert!(check_result("error: a:b.txt:7:2: bad\n", false, 3).is_err());
        assert_eq!(check_result("error: a:b.txt:3:2: bad\n", false, 3), Ok(()));
        assert!(check_result("{\"line\":5}\n", true, 3).is_err());
        assert!(check_result("{\"line\":3}\n", false, 3).is_err(), "form");
        assert!(check_result("garbage\n", true, 3).is_err(), "form");
        assert_eq!(check_result("unsat\n", false, 9), Ok(()));
    }
}
