//! The solver table: every external solver sudokit can run, how to run it, and how to read its
//! answer.
//!
//! An [`Entry`] names a program, its command template (`{input}`, `{output}`, `{time}`,
//! `{seconds}`, `{millis}`), the export format it reads ([`crate::format::find_format`]), the
//! answer reader of its output ([`crate::format::find_reader`]) and how it reports sat, unsat
//! and unknown (its exit codes). The built-in entries (`solvers.toml` beside this file: minisat,
//! picosat, cadical, kissat, cryptominisat5, glucose, clasp, clingo, z3, cvc5, glpsol, cbc,
//! lp_solve, HiGHS, SCIP, miniexact, Knuth's dlx1, and MiniZinc with Gecode, Chuffed or
//! OR-Tools) are TOML, the form a user's file takes to add or change entries
//! ([`Table::merge_file`]).
//!
//! [`Entry::count`] runs one: it writes the puzzle in the entry's format to a scratch directory,
//! runs the program (killed at the time limit, or when the stop token is set), reads the answer,
//! verifies the grid, and counts further solutions by running again with the solutions found
//! ruled out ([`crate::format::export_excluding`]); the scratch directory is removed. The
//! `ext:NAME` backend of [`crate::solve::registry`] wraps an entry as a [`crate::solve::Solver`],
//! which is how `solve`, `count` and `crosscheck --external` run them.
//!
//! This module sits beside [`crate::solve`] in the layers: it uses the formats and the search
//! vocabulary, and `solve` uses it for the `ext` backend, not the other way round.
//!
//! # Complexity
//! The program's own work per run, plus the export and the answer, linear in their size, per
//! solution counted.
//!
//! # References
//! - The manuals of the programs listed, and their answer formats in [`crate::format`].

mod config;
mod run;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use run::Scratch;

/// What becomes the answer when the program writes no `{output}` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Capture {
    /// Its standard output.
    #[default]
    Stdout,
    /// Its standard output, then its standard error (dlx1 says `Altogether 0 solutions` there).
    Both,
}

/// One external solver of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The name users type (`--external NAME`, `--backend ext:NAME`).
    pub name: String,
    /// The executable, looked up on the `PATH` unless it is a path.
    pub program: String,
    /// The arguments, with the placeholders `{input}`, `{output}`, `{time}`, `{seconds}` and
    /// `{millis}`.
    pub args: Vec<String>,
    /// The arguments `{time}` stands for under a time limit (nothing without one).
    pub time_args: Vec<String>,
    /// The export format the program reads.
    pub input: String,
    /// The answer reader of its output.
    pub answer: String,
    /// Whether the input goes to standard input rather than `{input}`.
    pub stdin: bool,
    /// What becomes the answer without `{output}`.
    pub capture: Capture,
    /// Exit codes of a normal run.
    pub exit_ok: Vec<i32>,
    /// Exit codes that say "satisfiable" (checked against the answer).
    pub sat_exit: Vec<i32>,
    /// Exit codes that say "unsatisfiable" (checked against the answer).
    pub unsat_exit: Vec<i32>,
    /// How the program reports sat, unsat and unknown, in one line.
    pub reports: String,
    /// The arguments that make it print its version (none: it has no such option).
    pub version: Vec<String>,
    /// Arguments whose output must contain [`Entry::probe_contains`] for the entry to be found.
    pub probe: Vec<String>,
    /// What the probe's output must contain.
    pub probe_contains: String,
    /// The largest order handed to the program.
    pub max_order: usize,
}

impl Entry {
    /// An entry called `name` that runs the program `name`, other fields empty or default.
    pub fn new(name: &str) -> Entry {
        Entry {
            name: name.to_string(),
            program: name.to_string(),
            args: Vec::new(),
            time_args: Vec::new(),
            input: String::new(),
            answer: String::new(),
            stdin: false,
            capture: Capture::Stdout,
            exit_ok: vec![0],
            sat_exit: Vec::new(),
            unsat_exit: Vec::new(),
            reports: String::new(),
            version: vec!["--version".to_string()],
            probe: Vec::new(),
            probe_contains: String::new(),
            max_order: 64,
        }
    }

    /// The program's path: itself when it names a path, else the first executable of that name
    /// on the `PATH`.
    pub fn path(&self) -> Option<PathBuf> {
        let program = Path::new(&self.program);
        if program.components().count() > 1 {
            return is_executable(program).then(|| program.to_path_buf());
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| is_executable(candidate))
    }

    /// The program's path when the entry can run here: the program is found and, if the entry
    /// has a probe, the probe's output contains what it must (a MiniZinc solver configuration).
    pub fn found(&self) -> Option<PathBuf> {
        let path = self.path()?;
        if self.probe.is_empty() {
            return Some(path);
        }
        let output = run::quick_output(&path, &self.probe)?;
        output.contains(&self.probe_contains).then_some(path)
    }

    /// The version the program reports: the word after `version` on the first line that says
    /// it, else the first line of its output; `None` without a version option or output.
    pub fn reported_version(&self) -> Option<String> {
        if self.version.is_empty() {
            return None;
        }
        let output = run::quick_output(&self.path()?, &self.version)?;
        let lines: Vec<&str> = output
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        for (i, line) in lines.iter().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(k) = words
                .iter()
                .position(|w| w.trim_end_matches(':').eq_ignore_ascii_case("version"))
                && let Some(word) = words.get(k + 1)
            {
                return Some(word.trim_end_matches([':', ',']).to_string());
            }
            // A first line without the word: its last number with a dot (`Solver 5.0`).
            let number = |w: &&&str| {
                let w = w.trim_start_matches('v');
                w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.')
            };
            if i == 0
                && let Some(word) = words.iter().rev().find(number)
            {
                return Some(word.to_string());
            }
        }
        lines.first().map(|l| l.to_string())
    }

    /// The command line with placeholders as written, for listings.
    pub fn command(&self) -> String {
        let mut words = vec![self.program.clone()];
        words.extend(self.args.iter().cloned());
        if self.stdin {
            words.push("< {input}".to_string());
        }
        words.join(" ")
    }
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Why an external solver could not answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExternalError {
    /// A table file that cannot be read.
    #[error("{origin}: {message}")]
    Config {
        /// The file (or `built-in`).
        origin: String,
        /// What is wrong.
        message: String,
    },
    /// No entry of that name.
    #[error("no solver {name} in the table (known: {known}; sudokit solvers lists them)")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names of the table.
        known: String,
    },
    /// The program is not there.
    #[error("{name}: {program} is not on the PATH (or its solver configuration is missing)")]
    NotFound {
        /// The entry.
        name: String,
        /// Its program.
        program: String,
    },
    /// The entry names a format or reader that does not exist.
    #[error("{name}: {message}")]
    BadEntry {
        /// The entry.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// Writing the input, starting the program or reading its answer failed.
    #[error("{name}: {message}")]
    Io {
        /// The entry.
        name: String,
        /// What failed.
        message: String,
    },
    /// The program exited in a way its entry does not allow.
    #[error("{name}: {message}")]
    Failed {
        /// The entry.
        name: String,
        /// What happened, with the end of its standard error.
        message: String,
    },
    /// The answer cannot be read, is not a grid, or contradicts the exit code.
    #[error("{name}: {message}")]
    BadAnswer {
        /// The entry.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// The answer decodes to a grid the certificate verifier rejects.
    #[error("{name} returned a grid that is not a solution: {violation}")]
    NotASolution {
        /// The entry.
        name: String,
        /// What the verifier found.
        violation: crate::verify::Violation,
    },
    /// The input format has no no-good, so the program cannot count past one solution.
    #[error(
        "{name} cannot count: its input format {format} cannot rule out a solution (use a count limit of 1)"
    )]
    CannotCount {
        /// The entry.
        name: String,
        /// Its input format.
        format: String,
    },
}

/// A solver table: the entries in order (built-in first, then those users added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    entries: Vec<Entry>,
}

/// The built-in table's text.
pub const BUILTIN: &str = include_str!("solvers.toml");

impl Table {
    /// The built-in entries.
    pub fn builtin() -> Table {
        let mut entries = Vec::new();
        config::merge(&mut entries, BUILTIN, "built-in solvers.toml")
            .expect("the built-in table parses (a unit test checks it)");
        Table { entries }
    }

    /// Adds or changes entries from TOML `text` read from `origin`.
    ///
    /// # Errors
    /// [`ExternalError::Config`] with what is wrong and where.
    pub fn merge(&mut self, text: &str, origin: &str) -> Result<(), ExternalError> {
        config::merge(&mut self.entries, text, origin)
    }

    /// Adds or changes entries from the TOML file at `path`.
    ///
    /// # Errors
    /// [`ExternalError::Config`] when it cannot be read or parsed.
    pub fn merge_file(&mut self, path: &Path) -> Result<(), ExternalError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ExternalError::Config {
            origin: origin.clone(),
            message: e.to_string(),
        })?;
        self.merge(&text, &origin)
    }

    /// Every entry, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry called `name`.
    ///
    /// # Errors
    /// [`ExternalError::Unknown`] naming the entries.
    pub fn get(&self, name: &str) -> Result<&Entry, ExternalError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ExternalError::Unknown {
                name: name.to_string(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The entries that can run here, with their paths.
    pub fn found(&self) -> Vec<(&Entry, PathBuf)> {
        self.entries
            .iter()
            .filter_map(|e| e.found().map(|path| (e, path)))
            .collect()
    }
}

/// The process-wide table, built-in until [`install`] replaces it.
fn global() -> &'static RwLock<Arc<Table>> {
    static TABLE: OnceLock<RwLock<Arc<Table>>> = OnceLock::new();
    TABLE.get_or_init(|| RwLock::new(Arc::new(Table::builtin())))
}

/// The table the `ext:NAME` backends use.
pub fn table() -> Arc<Table> {
    global()
        .read()
        .map_or_else(|e| e.into_inner().clone(), |t| t.clone())
}

/// Makes `table` the one the `ext:NAME` backends use (the command line installs the built-in
/// table merged with the user's file).
pub fn install(table: Table) {
    let mut slot = global().write().unwrap_or_else(|e| e.into_inner());
    *slot = Arc::new(table);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{find_format, find_reader};

    #[test]
    fn the_builtin_table_names_real_formats_and_readers() {
        let table = Table::builtin();
        let names: Vec<&str> = table.entries().iter().map(|e| e.name.as_str()).collect();
        for expected in [
            "minisat",
            "picosat",
            "cadical",
            "kissat",
            "cryptominisat5",
            "glucose",
            "clasp",
            "clingo",
            "z3",
            "cvc5",
            "glpsol",
            "cbc",
            "lp_solve",
            "highs",
            "scip",
            "miniexact",
            "dlx1",
            "minizinc",
            "minizinc-chuffed",
            "minizinc-ortools",
        ] {
            assert!(names.contains(&expected), "{expected}");
        }
        for entry in table.entries() {
            let format = find_format(&entry.input).unwrap();
            assert!(find_reader(&entry.answer).is_ok(), "{}", entry.name);
            assert!(
                format
                    .answers
                    .contains(&find_reader(&entry.answer).unwrap().name),
                "{}",
                entry.name
            );
            assert!(
                format.exclude.is_some(),
                "{} counts by no-goods",
                entry.name
            );
            assert!(entry.args.iter().any(|a| a.contains("{input}")) || entry.stdin);
            assert!(!entry.reports.is_empty(), "{}", entry.name);
        }
        assert!(
            table
                .get("nothing")
                .unwrap_err()
                .to_string()
                .contains("minisat, picosat")
        );
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let mut entry = Entry::new("none");
        entry.program = "sudokit-no-such-program".into();
        assert_eq!(entry.found(), None);
        entry.program = "/nonexistent/solver".into();
        assert_eq!(entry.path(), None);
    }
}
