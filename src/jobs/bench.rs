//! The run of `bench`: each file's puzzles read, then one row per backend ([`crate::bench`]:
//! throughput, median and p99 time per puzzle, guesses, how many within 0.1 s, 1 s and 10 s),
//! written as a table row or a JSON object.
//!
//! [`BenchOptions`] are the serde options with their defaults, [`Bench::new`] checks them,
//! [`Bench::run`] times the files, and [`BenchCommand`] is that run as the
//! [registry](super::registry)'s `bench`, so that the command line, `sudokit.run("bench", ...)`
//! and `sudokit.records("bench", ...)` (a record per row) time backends the same way.
//!
//! # One process, whole files
//! A row is a measurement of one backend over a whole file on the given threads (wall time,
//! throughput, percentiles over every puzzle), not the record of an item: a Dask task over a
//! shard of the file would measure another run (its shard, on its worker, beside other
//! tasks), and the rows of the shards do not add up to the row of the file. So the registry
//! marks `bench` as not shardable ([`super::registry::Entry::shardable`]): a Dask plan refuses
//! it, and [`BenchCommand`]'s shard run is an error. Its numbers also differ from run to run,
//! so two front ends agree on its rows, backends and columns, not on its timings.
//!
//! # Examples
//! ```
//! use std::path::PathBuf;
//! use sudokit::jobs::Control;
//! use sudokit::jobs::bench::{Bench, BenchOptions};
//! use sudokit::text::ReadOptions;
//! let bench = Bench::new(BenchOptions { first: Some(2), ..BenchOptions::default() }).unwrap();
//! let files = [PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt")];
//! let mut rows = Vec::new();
//! let tally = bench
//!     .run(&files, ReadOptions::default(), &Control::new(), true, &mut |row| {
//!         rows.push(row.to_string());
//!         Ok(())
//!     }, &mut |_| {})
//!     .unwrap();
//! assert_eq!((rows.len(), tally.total), (1, 2));
//! assert!(rows[0].contains("\"backend\":\"native\"") && rows[0].contains("\"puzzles\":2"));
//! ```

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use thiserror::Error;

use super::capped::capped;
use super::command::{Command, Form, RecordOut, ShardResult, Summing, Unshardable};
use super::control::Control;
use super::item::{InputError, puzzles_until};
use super::options::{self, OptionError};
use super::partial::OldResults;
use super::record::{JobRecord, Status};
use super::record_text::{json_line, rounded};
use super::run_error::RunError;
use super::runner::{Ran, Runner};
use super::sink::Sink;
use super::source::Source;
use super::tally::Tally;
use crate::bench::{self, BenchRow};
use crate::solve::{self, Limits, SolveError, Solver};
use crate::text::ReadOptions;

/// The options of `bench`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BenchOptions {
    /// The backends timed, each a spec (`native`, `cp:FC`, `sat:minimal`).
    pub backends: Vec<String>,
    /// Only the first N puzzles of each file.
    pub first: Option<usize>,
    /// Time budget per puzzle in seconds (a puzzle that runs out counts as unknown).
    pub time_limit: f64,
    /// Search-node budget per puzzle.
    pub node_limit: Option<u64>,
    /// Puzzles solved at a time: 1 by default, unlike every other command (all cores), for
    /// times that other threads on the same cores do not disturb.
    pub threads: usize,
    /// Refuse puzzles above this order (default: each backend's own limit).
    pub max_order: Option<usize>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            backends: vec![solve::DEFAULT_BACKEND.to_string()],
            first: None,
            time_limit: 10.0,
            node_limit: None,
            threads: 1,
            max_order: None,
        }
    }
}

/// A bench that failed as a whole.
#[derive(Debug, Error)]
pub enum BenchError {
    /// A file that cannot be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A backend that cannot take a puzzle of the file (too large), or a failed certificate.
    #[error("{backend} on {file}")]
    Solve {
        /// The backend.
        backend: String,
        /// The file.
        file: String,
        /// What went wrong.
        #[source]
        source: Box<SolveError>,
    },
    /// The output cannot be written.
    #[error("cannot write the output")]
    Io(#[from] io::Error),
}

/// A bench with its options checked.
pub struct Bench {
    solvers: Vec<Box<dyn Solver>>,
    limits: Limits,
    threads: usize,
    first: Option<usize>,
    notes: Vec<String>,
}

impl std::fmt::Debug for Bench {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.solvers.iter().map(|s| s.name()).collect();
        f.debug_struct("Bench")
            .field("backends", &names)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl Bench {
    /// The bench, its options checked.
    ///
    /// # Errors
    /// An unknown backend or none; a time that is not positive; a count of 0.
    pub fn new(options: BenchOptions) -> Result<Bench, OptionError> {
        let limits = options::limits(Some(options.time_limit), options.node_limit)?;
        let notes = options::threads_note(Some(options.threads))
            .into_iter()
            .collect();
        let threads = options::threads(Some(options.threads))?;
        options::at_least_one("first", options.first)?;
        let solvers = options
            .backends
            .iter()
            .map(|name| capped(solve::backend(name)?, options.max_order))
            .collect::<Result<Vec<_>, OptionError>>()?;
        if solvers.is_empty() {
            return Err(OptionError::Invalid {
                option: "backends",
                message: "names no backend".into(),
            });
        }
        Ok(Bench {
            solvers,
            limits,
            threads,
            first: options.first,
            notes,
        })
    }

    /// Notes on the options, said before the run (more threads than the cap allows).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The width of the backend column: the longest name (`sat:extended:sequential`).
    fn width(&self) -> usize {
        self.solvers
            .iter()
            .map(|s| s.name().len())
            .max()
            .unwrap_or(0)
            .max(9)
    }

    /// The heading of the table.
    pub fn heading(&self) -> String {
        let width = self.width();
        format!(
            "{:<32} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>10} {:>10} {:>10} {:>9} {:>7} {:>6} {:>6} {:>6}\n",
            "file",
            "backend",
            "puzzles",
            "solved",
            "unsat",
            "unknown",
            "puzzles/s",
            "median µs",
            "p99 µs",
            "guesses",
            "noguess",
            "≤0.1s",
            "≤1s",
            "≤10s"
        )
    }

    /// Times every backend on every file (read with `read`; stopped and timed by `control`):
    /// the heading (text only), then a row per backend and file handed to `write` as it is
    /// made, as a table row or (`json`) a JSON line; a puzzle that cannot be read is left out
    /// and said to `note`. Returns the tally of the puzzles read.
    ///
    /// # Errors
    /// A file that cannot be read; a backend that cannot take a puzzle; `write` fails.
    pub fn run(
        &self,
        files: &[PathBuf],
        read: ReadOptions,
        control: &Control,
        json: bool,
        write: &mut dyn FnMut(&str) -> io::Result<()>,
        note: &mut dyn FnMut(String),
    ) -> Result<Tally, BenchError> {
        if !json {
            write(&self.heading())?;
        }
        self.rows(files, read, control, note, &mut |row, file| {
            write(&if json {
                json_line(&row_json(row, &file.display().to_string()))
            } else {
                row_text(row, &file_name(file), self.width())
            })
        })
    }

    /// Times every backend on every file as [`Bench::run`] does, handing each row and its
    /// file to `row` (no heading, nothing written).
    ///
    /// # Errors
    /// A file that cannot be read; a backend that cannot take a puzzle; `row` fails.
    pub fn rows(
        &self,
        files: &[PathBuf],
        read: ReadOptions,
        control: &Control,
        note: &mut dyn FnMut(String),
        row: &mut dyn FnMut(&BenchRow, &Path) -> io::Result<()>,
    ) -> Result<Tally, BenchError> {
        let mut tally = Tally::default();
        for file in files {
            let mut grids = Vec::new();
            for item in puzzles_until(file, read, &control.stop)? {
                if self.first.is_some_and(|n| grids.len() >= n) {
                    break;
                }
                match item.read_puzzle() {
                    Ok(puzzle) => {
                        tally.add(Status::Done);
                        grids.push(puzzle.grid.clone());
                    }
                    Err(e) => {
                        tally.add(Status::Error);
                        note(e.text().trim_end().to_string());
                    }
                }
            }
            for solver in &self.solvers {
                let timed = bench::run(
                    &**solver,
                    &grids,
                    &control.limits(&self.limits),
                    self.threads,
                )
                .map_err(|source| BenchError::Solve {
                    backend: solver.name().to_string(),
                    file: file.display().to_string(),
                    source: Box::new(source),
                })?;
                row(&timed, file)?;
            }
        }
        Ok(tally)
    }
}

/// A file as the table names it: its file name.
fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// A row as a line of the table.
pub fn row_text(row: &BenchRow, file: &str, width: usize) -> String {
    format!(
        "{:<32} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>10.1} {:>10.1} {:>10.1} {:>9.2} {:>6.1}% {:>6} {:>6} {:>6}\n",
        file,
        row.backend,
        row.puzzles,
        row.solved,
        row.unsat,
        row.unknown,
        row.puzzles_per_second,
        row.median_us,
        row.p99_us,
        row.guesses_per_puzzle,
        row.no_guess_percent,
        row.within[0],
        row.within[1],
        row.within[2]
    )
}

/// A row as a JSON object, with its `file`: rates and times to a useful precision, without
/// float noise.
pub fn row_json(row: &BenchRow, file: &str) -> Value {
    let mut value = serde_json::to_value(row).expect("a bench row serializes");
    for (key, places) in [
        ("puzzles_per_second", 1),
        ("wall_seconds", 6),
        ("median_us", 3),
        ("p99_us", 3),
        ("guesses_per_puzzle", 3),
        ("no_guess_percent", 2),
    ] {
        if let Some(x) = value.get(key).and_then(Value::as_f64) {
            value[key] = json!(rounded(x, places));
        }
    }
    value["file"] = json!(file);
    value
}

/// What a bench adds up: the puzzles that could not be read, each said after the run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BenchSummary {
    /// The reading errors, in input order.
    pub unread: Vec<String>,
}

impl Summing for BenchSummary {
    fn add_share(&mut self, _share: Value) -> Result<(), serde_json::Error> {
        Err(serde::de::Error::custom(whole()))
    }

    fn notes(&self) -> Vec<String> {
        self.unread.clone()
    }

    fn errors_in_notes(&self) -> bool {
        true
    }

    fn exit_code(&self, ran: &Ran) -> u8 {
        ran.exit_code()
    }
}

/// Why a bench has no shards.
fn whole() -> Unshardable {
    Unshardable {
        command: "bench",
        why: "times whole runs",
    }
}

/// `bench` as a registry command; see the module docs. Its output is the table (or a JSON
/// line per row) on a stream; its records ([`Command::records`]) are its rows, each in both
/// forms, numbered from 1.
#[derive(Debug)]
pub struct BenchCommand {
    bench: Bench,
}

impl BenchCommand {
    /// The bench as a command.
    pub fn new(bench: Bench) -> BenchCommand {
        BenchCommand { bench }
    }

    /// The bench.
    pub fn bench(&self) -> &Bench {
        &self.bench
    }
}

/// A bench's failure as a run's.
fn run_error(error: BenchError) -> RunError {
    match error {
        BenchError::Input(e) => RunError::Input(e),
        BenchError::Io(e) => RunError::Io(e),
        other => RunError::Command(Box::new(other)),
    }
}

impl Command for BenchCommand {
    fn notes(&self) -> Vec<String> {
        self.bench.notes.clone()
    }

    fn read_options(&self, read: ReadOptions, _input: usize) -> ReadOptions {
        read
    }

    fn raw_input(&self, _input: usize) -> bool {
        false
    }

    fn output_identity(&self, json: bool, inputs: &[PathBuf]) -> Result<Value, InputError> {
        // Never resumed (its output is a stream): the identity names the run all the same.
        let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        Ok(json!({"command": "bench", "json": json, "inputs": names}))
    }

    fn run(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        sink: &Sink,
        _old: Option<OldResults>,
        runner: &Runner,
        form: Form,
    ) -> Result<(Ran, Box<dyn Summing>), RunError> {
        let mut summary = BenchSummary::default();
        let tally = self
            .bench
            .run(
                inputs,
                read,
                runner.control(),
                form.json,
                &mut |line| sink.write_extra(line),
                &mut |note| summary.unread.push(note),
            )
            .map_err(run_error)?;
        let complete = !runner.control().stop.is_cancelled();
        Ok((Ran { tally, complete }, Box::new(summary)))
    }

    fn records(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError> {
        let width = self.bench.width();
        let mut line = 0;
        let tally = self
            .bench
            .rows(
                inputs,
                read,
                runner.control(),
                &mut |_| {},
                &mut |row, file| {
                    line += 1;
                    emit(RecordOut {
                        line,
                        key: 0,
                        status: Status::Done,
                        text: row_text(row, &file_name(file), width),
                        json: json_line(&row_json(row, &file.display().to_string())),
                        grids: Vec::new(),
                    });
                    Ok(())
                },
            )
            .map_err(run_error)?;
        let complete = !runner.control().stop.is_cancelled();
        Ok(Ran { tally, complete })
    }

    fn run_shard(
        &self,
        _sources: Vec<Source>,
        _json: bool,
        _runner: &Runner,
    ) -> Result<(ShardResult, Ran), RunError> {
        Err(RunError::Command(Box::new(whole())))
    }

    fn summing(&self) -> Box<dyn Summing> {
        Box::new(BenchSummary::default())
    }

    fn generated(&self) -> Option<u64> {
        None
    }
}
