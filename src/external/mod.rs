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
//! ([`SolverTable::merge_file`]).
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

pub mod certify;
mod config;

pub mod files;
mod run;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

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

/// How a program writes a refutation proof (the `proof` field of its entry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProofSpec {
    /// The proof's format: `drat`, `rup` or `frat` ([`crate::format::clausal_proof`]).
    pub format: String,
    /// The arguments `{proof}` stands for in the entry's `args`, with `{file}` for the proof
    /// file (CaDiCaL: `["{file}"]`, its second file argument).
    pub args: Vec<String>,
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
    /// How it writes a refutation proof, checked before its `unsat` is reported as known
    /// (without one, its `unsat` is a claim: [`crate::search::Refutation::Claim`]).
    pub proof: Option<ProofSpec>,
    /// The arguments `{enumerate}` stands for in `args` when a count wants every model of one
    /// run (`{limit}`: the most models wanted); `None`: the program prints one model, and a
    /// count rules out each solution found and runs it again.
    pub enumerate: Option<Vec<String>>,
    /// The file that last set a field of the entry (`built-in solvers.toml` or a user's file),
    /// for messages.
    #[serde(skip)]
    pub origin: String,
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
            version: Vec::new(),
            probe: Vec::new(),
            probe_contains: String::new(),
            max_order: 64,
            proof: None,
            enumerate: None,
            origin: String::new(),
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
pub struct SolverTable {
    entries: Vec<Entry>,
}

/// The built-in table's text.
pub const BUILTIN: &str = include_str!("solvers.toml");

/// Where the built-in entries come from, in messages.
const BUILTIN_ORIGIN: &str = "built-in solvers.toml";

/// The largest table file read (1 MiB): a solver table is a few kilobytes; a larger file (or
/// `/dev/zero`) is not one, and reading it whole could exhaust the memory.
pub const MAX_TABLE_BYTES: u64 = 1 << 20;

impl SolverTable {
    /// The built-in entries.
    pub fn builtin() -> SolverTable {
        let mut entries = Vec::new();
        config::merge(&mut entries, BUILTIN, BUILTIN_ORIGIN)
            .expect("the built-in table parses (a unit test checks it)");
        SolverTable { entries }
    }

    /// Adds or changes entries from TOML `text` read from `origin`, and checks every entry of
    /// the result (see [`SolverTable::validate`]); on an error the table is unchanged.
    ///
    /// # Errors
    /// [`ExternalError::Config`] with what is wrong and where: the file, the entry, the field.
    pub fn merge(&mut self, text: &str, origin: &str) -> Result<(), ExternalError> {
        let mut entries = self.entries.clone();
        config::merge(&mut entries, text, origin)?;
        let merged = SolverTable { entries };
        merged.validate()?;
        *self = merged;
        Ok(())
    }

    /// Adds or changes entries from the TOML file at `path`: a regular file of at most
    /// [`MAX_TABLE_BYTES`] (a FIFO or a device is refused without being opened for reading).
    ///
    /// # Errors
    /// [`ExternalError::Config`] when it cannot be read, is too large, or is not a valid table.
    pub fn merge_file(&mut self, path: &Path) -> Result<(), ExternalError> {
        let origin = path.display().to_string();
        let config = |message: String| ExternalError::Config {
            origin: origin.clone(),
            message,
        };
        let text = read_table_file(path).map_err(config)?;
        self.merge(&text, &origin)
    }

    /// Checks every entry: the input is an export format, the answer a reader of that format's
    /// answers, the placeholders are known, the input reaches the program, a proof is complete.
    ///
    /// # Errors
    /// [`ExternalError::Config`] naming the file that set the entry, the entry and the field.
    pub fn validate(&self) -> Result<(), ExternalError> {
        for entry in &self.entries {
            config::validate(entry).map_err(|message| ExternalError::Config {
                origin: entry.origin.clone(),
                message: format!("[solver.{}] {message}", entry.name),
            })?;
        }
        Ok(())
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

/// The text of a table file: a regular file (checked before it is opened, and opened without
/// blocking, so a FIFO cannot stall the command) of at most [`MAX_TABLE_BYTES`].
fn read_table_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let metadata = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file (a solver table is a TOML file)".into());
    }
    if metadata.len() > MAX_TABLE_BYTES {
        return Err(format!(
            "{} bytes: larger than the {} KiB a solver table may take",
            metadata.len(),
            MAX_TABLE_BYTES >> 10
        ));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = options.open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_TABLE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_TABLE_BYTES {
        return Err(format!(
            "larger than the {} KiB a solver table may take",
            MAX_TABLE_BYTES >> 10
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text: {e}"))
}

/// The process-wide table: where the user's file is, and the table once loaded (or why it
/// could not be).
#[derive(Default)]
struct Global {
    user_file: Option<PathBuf>,
    loaded: Option<Result<Arc<SolverTable>, ExternalError>>,
}

fn global() -> &'static Mutex<Global> {
    static GLOBAL: OnceLock<Mutex<Global>> = OnceLock::new();
    GLOBAL.get_or_init(|| Mutex::new(Global::default()))
}

/// Sets the user's table file that [`table`] merges over the built-in entries (the command
/// line's `--solvers FILE`, or `solvers.toml` in the configuration directory); nothing is read
/// until a command needs the table.
pub fn configure(user_file: Option<PathBuf>) {
    let mut global = global().lock().unwrap_or_else(|e| e.into_inner());
    *global = Global {
        user_file,
        loaded: None,
    };
}

/// The table the `ext:NAME` backends use, loaded on first use: the built-in entries with the
/// user's file ([`configure`]) merged in and every entry checked.
///
/// # Errors
/// [`ExternalError::Config`] when the user's file cannot be read or is not a valid table (the
/// same error on every call).
pub fn table() -> Result<Arc<SolverTable>, ExternalError> {
    let mut global = global().lock().unwrap_or_else(|e| e.into_inner());
    if global.loaded.is_none() {
        let mut table = SolverTable::builtin();
        let loaded = match &global.user_file {
            Some(path) => table.merge_file(path).map(|()| Arc::new(table)),
            None => Ok(Arc::new(table)),
        };
        global.loaded = Some(loaded);
    }
    global.loaded.clone().expect("loaded above")
}

/// What is wrong with the user's table file when nothing has loaded the table yet: a command
/// that ran no external solver calls it at its end to warn about a broken file it did not
/// need (one that needed it stopped on the error already). `None` without a user's file, when
/// the table was loaded, or when the file is fine.
pub fn unused_user_table_problem() -> Option<ExternalError> {
    let unused = {
        let global = global().lock().unwrap_or_else(|e| e.into_inner());
        global.user_file.is_some() && global.loaded.is_none()
    };
    if !unused {
        return None;
    }
    table().err()
}

/// Makes `table` the one the `ext:NAME` backends use.
pub fn install(table: SolverTable) {
    let mut global = global().lock().unwrap_or_else(|e| e.into_inner());
    global.loaded = Some(Ok(Arc::new(table)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{find_format, find_reader};

    #[test]
    fn the_builtin_table_names_real_formats_and_readers() {
        let table = SolverTable::builtin();
        table.validate().unwrap();
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
    fn mistakes_in_a_users_table_are_refused_naming_file_entry_and_field() {
        let cases = [
            (
                "[solver.minisat]\ninput = \"cnff\"\n",
                "[solver.minisat] input: unknown export format cnff",
            ),
            (
                "[solver.minisat]\nanswer = \"dimac\"\n",
                "[solver.minisat] answer: unknown answer form dimac",
            ),
            (
                "[solver.minisat]\nanswer = \"clasp\"\n",
                "[solver.minisat] answer: the clasp reader reads answers to opb exports, not to cnf",
            ),
            (
                "[solver.minisat]\nargs = [\"{inptu}\", \"{output}\"]\n",
                "[solver.minisat] args: unknown placeholder {inptu}",
            ),
            (
                "[solver.z3]\nargs = [\"-smt2\"]\n",
                "[solver.z3] args: no {input}",
            ),
            (
                "[solver.cadical]\nproof = { format = \"lrat\" }\n",
                "[solver.cadical] proof.format: unknown proof format lrat",
            ),
            (
                "[solver.cadical]\nproof = { args = [\"-x\"] }\n",
                "[solver.cadical] proof.args: no {file}",
            ),
            (
                "[solver.mine]\nargs = [\"{input}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\n",
                "[solver.mine] is a new solver and needs version",
            ),
            (
                "[solver.z3]\nproof = { format = \"drat\", args = [\"{file}\"] }\n",
                "[solver.z3] args: a proof is set but args have no {proof}",
            ),
        ];
        for (text, expected) in cases {
            let mut table = SolverTable::builtin();
            let before = table.clone();
            let error = table.merge(text, "my.toml").unwrap_err().to_string();
            assert!(error.starts_with("my.toml: "), "{error}");
            assert!(error.contains(expected), "{text}: {error}");
            assert_eq!(table, before, "a refused file changes nothing");
        }
        // A kissat-like entry with a proof is accepted.
        let mut table = SolverTable::builtin();
        table
            .merge(
                "[solver.mysat]\nargs = [\"{input}\", \"{proof}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\nversion = []\nproof = { format = \"drat\", args = [\"--no-binary\", \"{file}\"] }\n",
                "my.toml",
            )
            .unwrap();
        assert_eq!(
            table.get("mysat").unwrap().proof.as_ref().unwrap().format,
            "drat"
        );
    }

    #[test]
    fn a_table_file_that_is_not_a_small_regular_file_is_refused() {
        let mut table = SolverTable::builtin();
        let error = table.merge_file(Path::new("/dev/zero")).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
        let big = std::env::temp_dir().join(format!("sudokit-big-{}.toml", std::process::id()));
        std::fs::write(&big, vec![b'#'; (MAX_TABLE_BYTES + 1) as usize]).unwrap();
        let error = table.merge_file(&big).unwrap_err();
        std::fs::remove_file(&big).unwrap();
        assert!(error.to_string().contains("larger than"), "{error}");
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
