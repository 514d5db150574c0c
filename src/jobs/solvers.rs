//! `solvers` as a job: the solver table (built in, changed and extended by the user's file),
//! each entry probed on this machine: whether its program is found, its path, the version it
//! reports, the export format it reads and the answer reader of its output; `long` adds the
//! command template, the time-limit arguments, the proof it writes and how it reports sat,
//! unsat and unknown. The probes run on all cores; the rows come in the table's order, under a
//! heading, then `N of M solvers found`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::job::Job;
use super::options::{self, OptionError};
use super::record::{ItemResult, JobItem, JobRecord, Status};
use super::source::{Items, Source};
use super::summary::Summary;
use crate::external::{self, Entry};

/// The options of `solvers`, as every front end gives them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolversOptions {
    /// Also the command template, the time-limit arguments, the proof and the reports.
    pub long: bool,
    /// Worker threads for the probes (default: all cores).
    pub threads: Option<usize>,
}

/// The `solvers` job; see the module docs.
#[derive(Debug, Clone)]
pub struct SolversJob {
    entries: Vec<Entry>,
    width: usize,
    long: bool,
    threads: usize,
}

/// An entry of the table, at its position.
#[derive(Debug, Clone)]
pub struct TableEntry {
    /// Its position in the table (0-based).
    pub index: usize,
    /// The entry.
    pub entry: Entry,
}

impl JobItem for TableEntry {
    fn line(&self) -> usize {
        self.index + 1
    }

    fn key(&self) -> u64 {
        super::item::Fnv::of(self.entry.name.as_bytes())
    }
}

impl SolversJob {
    /// The job over the solver table of this process.
    ///
    /// # Errors
    /// The table cannot be read (a bad user file); `threads` of 0.
    pub fn new(options: SolversOptions) -> Result<SolversJob, OptionError> {
        let table = external::table()?;
        let entries = table.entries().to_vec();
        let width = entries
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        Ok(SolversJob {
            entries,
            width,
            long: options.long,
            threads: options::threads(options.threads)?,
        })
    }
}

/// An entry probed here.
#[derive(Debug, Clone)]
pub struct SolverRow {
    /// The entry.
    pub entry: Entry,
    /// Its program, when found.
    pub path: Option<PathBuf>,
    /// The version it reports.
    pub version: Option<String>,
    width: usize,
    long: bool,
}

impl JobRecord for SolverRow {
    /// Probing is the answer asked for, found or not.
    fn status(&self) -> Status {
        Status::Done
    }

    fn text(&self) -> String {
        let (entry, width) = (&self.entry, self.width);
        let (found, path) = match &self.path {
            Some(path) => ("yes", path.display().to_string()),
            None => match entry.path() {
                Some(path) => (
                    "no",
                    format!(
                        "({} lacks {} in its {} output)",
                        path.display(),
                        entry.probe_contains,
                        entry.probe.join(" ")
                    ),
                ),
                None => ("no", format!("({} not on the PATH)", entry.program)),
            },
        };
        let version = self.version.as_deref().unwrap_or("-");
        let mut text = format!(
            "{:<width$}  {found:<7}  {version:<10}  {:<5}  {:<9}  {path}\n",
            entry.name, entry.input, entry.answer
        );
        if self.long {
            text += &format!("{:width$}  command: {}\n", "", entry.command());
            if !entry.time_args.is_empty() {
                text += &format!("{:width$}  time limit: {}\n", "", entry.time_args.join(" "));
            }
            if let Some(proof) = &entry.proof {
                text += &format!(
                    "{:width$}  proof: {} ({}), checked before an unsat\n",
                    "",
                    proof.format,
                    proof.args.join(" ")
                );
            }
            if let Some(words) = &entry.enumerate {
                text += &format!("{:width$}  enumerates: {}\n", "", words.join(" "));
            }
            text += &format!("{:width$}  reports: {}\n", "", entry.reports);
        }
        text
    }

    fn json(&self) -> Value {
        let mut value = json!({
            "solver": self.entry.name,
            "found": self.path.is_some(),
            "path": self.path.as_ref().map(|p| p.display().to_string()),
            "version": self.version,
            "command": self.entry.command(),
        });
        if let Ok(Value::Object(fields)) = serde_json::to_value(&self.entry) {
            for (key, field) in fields {
                value[key] = field;
            }
        }
        value
    }
}

/// The heading and the count of solvers found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolversFound {
    /// The width of the name column.
    pub width: usize,
    /// Solvers found.
    pub found: usize,
    /// Solvers in the table.
    pub total: usize,
}

impl Summary<SolverRow> for SolversFound {
    fn begin(&self, json: bool) -> String {
        if json {
            return String::new();
        }
        let width = self.width;
        format!(
            "{:<width$}  {:<7}  {:<10}  {:<5}  {:<9}  path\n",
            "solver", "found", "version", "input", "answer"
        )
    }

    fn add(&mut self, result: &ItemResult<SolverRow>) {
        if let ItemResult::Done(row) = result {
            self.total += 1;
            self.found += usize::from(row.path.is_some());
        }
    }

    fn merge(&mut self, share: SolversFound) {
        self.found += share.found;
        self.total += share.total;
    }

    fn end(&self, json: bool, _complete: bool) -> String {
        if json {
            String::new()
        } else {
            format!("\n{} of {} solvers found\n", self.found, self.total)
        }
    }
}

impl Job for SolversJob {
    type Item = TableEntry;
    type Record = SolverRow;
    type Summary = SolversFound;

    fn name(&self) -> &'static str {
        "solvers"
    }

    fn identity(&self) -> Value {
        json!({"long": self.long})
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn summary(&self) -> SolversFound {
        SolversFound {
            width: self.width,
            ..SolversFound::default()
        }
    }

    fn generated(&self) -> Option<u64> {
        Some(self.entries.len() as u64)
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<TableEntry>, InputError> {
        let range = match sources.as_slice() {
            [] => 0..self.entries.len() as u64,
            [Source::Range(range)] => range.clone(),
            _ => return Err(InputError::Source("a range of table entries")),
        };
        let entries: Vec<TableEntry> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(i, _)| range.contains(&(*i as u64)))
            .map(|(index, entry)| TableEntry {
                index,
                entry: entry.clone(),
            })
            .collect();
        Ok(Box::new(entries.into_iter()))
    }

    fn run(&self, item: TableEntry, _control: &Control) -> ItemResult<SolverRow> {
        let path = item.entry.found();
        let version = path.as_ref().and_then(|_| item.entry.reported_version());
        ItemResult::Done(SolverRow {
            entry: item.entry,
            path,
            version,
            width: self.width,
            long: self.long,
        })
    }
}
