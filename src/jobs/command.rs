//! A command's run over its inputs, whole, once for every front end: its inputs opened as the
//! job reads them, one run of the [runner](super::runner) per input for the commands that
//! summarize each input (grade, minimize) and one over them all otherwise, the results placed by
//! a [`Recorder`], the job's typed [summary](super::summary) fed, ended per input and at the
//! end, and the closing notes and exit code ([`finish`]).
//!
//! The [`Command`] trait is the same run behind a trait object, for the front ends that pick a
//! command by name from the [registry](super::registry) (Python, Dask): [`Command::run`] into
//! an output, [`Command::records`] as values, [`Command::run_shard`] for one Dask task (the
//! records of a shard and its share of the summary, in the summary's serde form), and
//! [`Command::summing`] for the client that adds the shares up.
//!
//! # Examples
//! ```
//! use std::path::PathBuf;
//! use sudokit::jobs::registry;
//! use sudokit::jobs::runner::Runner;
//! use sudokit::jobs::{Control, Sink};
//! use sudokit::text::ReadOptions;
//! let entry = registry::command("solve").unwrap();
//! let command = entry.build(serde_json::json!({"unique": true}), 1).unwrap();
//! let inputs = [PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt")];
//! let mut statuses = Vec::new();
//! let runner = Runner::new(Control::new());
//! let ran = command
//!     .records(&inputs, ReadOptions::default(), &runner, &mut |r| statuses.push(r.status))
//!     .unwrap();
//! assert_eq!((ran.tally.total, ran.exit_code()), (statuses.len(), 0));
//! ```

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::item::InputError;
use super::job::Job;
use super::partial::OldResults;
use super::record::Status;
use super::recorder::Recorder;
use super::run_identity::run_identity;
use super::runner::{Placed, Ran, RunError, Runner};
use super::sink::Sink;
use super::source::{Source, open_sources};
use super::summary::Summary;
use crate::text::ReadOptions;

/// The inputs of one run of the runner: an input of a command that summarizes each (named),
/// or every input of the others together.
#[derive(Debug)]
pub struct Group {
    /// The input, for a command that ends each input ([`Summary::end_input`]).
    pub name: Option<String>,
    /// Its sources.
    pub sources: Vec<Source>,
}

/// The sources of a command's inputs cut into its runs (see [`Group`]): one per input when
/// `per_input`, else one.
pub fn groups(per_input: bool, inputs: &[PathBuf], sources: Vec<Source>) -> Vec<Group> {
    if per_input {
        inputs
            .iter()
            .zip(sources)
            .map(|(input, source)| Group {
                name: Some(input.display().to_string()),
                sources: vec![source],
            })
            .collect()
    } else {
        vec![Group {
            name: None,
            sources,
        }]
    }
}

/// How the records are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Form {
    /// One JSON object per record (and per summary).
    pub json: bool,
    /// Only the records that are not `done` (the tables still end the run).
    pub brief: bool,
}

/// Runs `job` over `groups` into `sink` (continuing the `old` results of a resumed output):
/// the records in input order, each group's end and the closing text of the job's summary;
/// `observe` sees each result this run made. The sink stays open ([`finish`] ends it).
///
/// # Errors
/// As [`Runner::run`]; sources the job cannot read.
pub fn run_groups<J: Job>(
    job: &J,
    groups: Vec<Group>,
    sink: &Sink,
    old: Option<OldResults>,
    runner: &Runner,
    form: Form,
    mut observe: impl FnMut(Placed<J::Record>) + Send,
) -> Result<(Ran, J::Summary), RunError> {
    let recorder = Recorder::new(sink, old, form.brief);
    let mut summary = job.summary();
    write_extra(sink, &summary.begin(form.json))?;
    let mut complete = true;
    for group in groups {
        let items = job.items(group.sources)?;
        let done = runner.run(job, items, &recorder, form.json, |placed| {
            summary.add(&placed.result);
            observe(placed);
        })?;
        if !done {
            complete = false;
            break;
        }
        if let Some(name) = group.name {
            write_extra(sink, &summary.end_input(&name, form.json))?;
        }
    }
    write_extra(sink, &summary.end(form.json, complete))?;
    let tally = recorder.finish(complete)?;
    Ok((Ran { tally, complete }, summary))
}

fn write_extra(sink: &Sink, text: &str) -> Result<(), RunError> {
    if !text.is_empty() {
        sink.write_extra(text)?;
    }
    Ok(())
}

/// How a run ended, as a front end reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The tally and whether every item was done.
    pub ran: Ran,
    /// The exit code: 1 for a stopped run, else the summary's.
    pub exit_code: u8,
    /// The notes for standard error: how far a stopped run got, the items that gave an error,
    /// the summary's notes.
    pub notes: Vec<String>,
}

/// Ends the output of a run: a stopped run says how far it got (`why` says why: `--timeout 5 s
/// reached`) and exits 1; a complete one notes the items that gave an error and exits with
/// the summary's code.
///
/// # Errors
/// The final flush or rename fails.
pub fn finish(
    sink: Sink,
    ran: Ran,
    summary: &dyn Summing,
    noun: &str,
    why: impl FnOnce() -> String,
) -> Result<Report, RunError> {
    let stopped = sink.finish(ran.complete, why)?;
    Ok(report(stopped, ran, summary, noun))
}

/// How a run ended, its output already ended: `stopped` is the line that says how far a
/// stopped run got (exit 1); otherwise the summary's exit code. The count of the items that
/// gave an error comes before the summary's notes, or after them when they are the errors
/// ([`Summary::errors_in_notes`]). See [`finish`].
pub fn report(stopped: Option<String>, ran: Ran, summary: &dyn Summing, noun: &str) -> Report {
    let exit_code = if stopped.is_some() {
        1
    } else {
        summary.exit_code(&ran)
    };
    let mut notes: Vec<String> = stopped.into_iter().collect();
    if summary.errors_in_notes() {
        notes.extend(summary.notes());
        notes.extend(ran.tally.errors_note_above(noun));
    } else {
        notes.extend(ran.tally.errors_note(noun));
        notes.extend(summary.notes());
    }
    Report {
        ran,
        exit_code,
        notes,
    }
}

/// A record as values: its place, status, and both of its forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordOut {
    /// The input line it answers.
    pub line: usize,
    /// Its item's key (0 unless asked for: see [`Command::run_shard`]).
    pub key: u64,
    /// How it counts.
    pub status: Status,
    /// As text (whole lines).
    pub text: String,
    /// As one JSON line (with its newline).
    pub json: String,
    /// The grids it carries ([`JobRecord::grids`](super::JobRecord::grids)).
    pub grids: Vec<crate::Grid>,
}

impl RecordOut {
    fn of<R: super::JobRecord>(placed: &Placed<R>) -> Option<RecordOut> {
        Some(RecordOut {
            line: placed.line,
            key: placed.key,
            status: placed.result.status()?,
            text: placed.result.written(false),
            json: placed.result.written(true),
            grids: match &placed.result {
                super::ItemResult::Done(record) => record.grids(),
                _ => Vec::new(),
            },
        })
    }
}

/// What a task on a cluster returns (see [`super::shard`]): the records of its shard, in order,
/// each written in the chosen form, and the shard's share of the summary (the summary's serde
/// form). It travels in its serde form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// `(input line, item key, status, written record)`, in input order.
    pub entries: Vec<(usize, u64, Status, String)>,
    /// The shard's summary.
    pub share: Value,
}

/// A run that is whole, in one process (`bench`, whose rows time whole files; `count` without
/// input, the census of an empty grid): a Dask run may not cut it into shards
/// ([`super::registry::Entry::check_shardable`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{command} {why} in one process: use sudokit.run")]
pub struct Unshardable {
    /// The command.
    pub command: &'static str,
    /// What it does in one process (`times whole runs`).
    pub why: &'static str,
}

/// A summary behind a trait object: the client of Dask tasks adds their shares up, ends each
/// input and the run, and gives the notes and exit code.
pub trait Summing: Send + Sync {
    /// Adds a task's share.
    ///
    /// # Errors
    /// A share that is not this summary's serde form.
    fn add_share(&mut self, share: Value) -> Result<(), serde_json::Error>;
    /// See [`Summary::begin`]; nothing by default (a command that runs whole in one process).
    fn begin(&self, json: bool) -> String {
        let _ = json;
        String::new()
    }
    /// See [`Summary::end_input`]; nothing by default.
    fn end_input(&mut self, input: &str, json: bool) -> String {
        let _ = (input, json);
        String::new()
    }
    /// See [`Summary::end`]; nothing by default.
    fn end(&self, json: bool, complete: bool) -> String {
        let _ = (json, complete);
        String::new()
    }
    /// See [`Summary::notes`].
    fn notes(&self) -> Vec<String>;
    /// See [`Summary::errors_in_notes`].
    fn errors_in_notes(&self) -> bool;
    /// See [`Summary::exit_code`].
    fn exit_code(&self, ran: &Ran) -> u8;
}

/// A typed summary as a [`Summing`].
pub struct Summed<S, R> {
    /// The summary.
    pub summary: S,
    records: PhantomData<fn() -> R>,
}

impl<S, R> Summed<S, R> {
    /// The summary behind the trait.
    pub fn new(summary: S) -> Summed<S, R> {
        Summed {
            summary,
            records: PhantomData,
        }
    }
}

impl<R, S: Summary<R>> Summing for Summed<S, R> {
    fn add_share(&mut self, share: Value) -> Result<(), serde_json::Error> {
        self.summary.merge(serde_json::from_value(share)?);
        Ok(())
    }

    fn begin(&self, json: bool) -> String {
        self.summary.begin(json)
    }

    fn end_input(&mut self, input: &str, json: bool) -> String {
        self.summary.end_input(input, json)
    }

    fn end(&self, json: bool, complete: bool) -> String {
        self.summary.end(json, complete)
    }

    fn notes(&self) -> Vec<String> {
        self.summary.notes()
    }

    fn errors_in_notes(&self) -> bool {
        self.summary.errors_in_notes()
    }

    fn exit_code(&self, ran: &Ran) -> u8 {
        self.summary.exit_code(ran)
    }
}

/// A command picked by name, with its options checked: the same run as [`run_groups`] and
/// [`finish`], behind a trait object.
pub trait Command: Send + Sync {
    /// Notes on the options, said before the run.
    fn notes(&self) -> Vec<String>;

    /// How input `input` is read, given the caller's `read` (see [`Job::read_options`]).
    fn read_options(&self, read: ReadOptions, input: usize) -> ReadOptions;

    /// See [`Job::raw_input`].
    fn raw_input(&self, input: usize) -> bool;

    /// The identity of a resumable output of this command over `inputs` written as JSON or
    /// text (see [`run_identity`]).
    ///
    /// # Errors
    /// An input that cannot be read.
    fn output_identity(&self, json: bool, inputs: &[PathBuf]) -> Result<Value, InputError>;

    /// Opens `inputs` as this command reads them (stopped by the runner's control).
    ///
    /// # Errors
    /// As [`open_sources`].
    fn open(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        runner: &Runner,
    ) -> Result<Vec<Source>, InputError> {
        open_sources(
            inputs,
            |i| self.read_options(read, i),
            |i| self.raw_input(i),
            &runner.control().stop,
        )
    }

    /// Runs over `inputs` into `sink` (see [`run_groups`]); returns the run and its summary.
    ///
    /// # Errors
    /// As [`run_groups`]; an input that cannot be opened.
    fn run(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        sink: &Sink,
        old: Option<OldResults>,
        runner: &Runner,
        form: Form,
    ) -> Result<(Ran, Box<dyn Summing>), RunError>;

    /// Runs over `inputs`, handing each record to `emit` as values, in input order (no output,
    /// no summary).
    ///
    /// # Errors
    /// An input that cannot be opened.
    fn records(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError>;

    /// Runs over `sources` made by the caller (puzzles in memory, generated indices), handing
    /// each record to `emit` as values, in input order. A command that reads whole files
    /// itself (bench, the census) refuses.
    ///
    /// # Errors
    /// Sources of another kind than the command reads.
    fn records_of(
        &self,
        sources: Vec<Source>,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError> {
        let _ = (sources, runner, emit);
        Err(InputError::Source("its input files").into())
    }

    /// Runs one Dask task: the records of `sources` (a shard of an input, the two shards of
    /// verify, a range of generate's indices) with their keys, written as JSON when `json`,
    /// and the shard's share of the summary.
    ///
    /// # Errors
    /// Sources of another kind than the command reads.
    fn run_shard(
        &self,
        sources: Vec<Source>,
        json: bool,
        runner: &Runner,
    ) -> Result<(ShardResult, Ran), RunError>;

    /// An empty summary, for the client that adds the tasks' shares up.
    fn summing(&self) -> Box<dyn Summing>;

    /// See [`Job::generated`].
    fn generated(&self) -> Option<u64>;
}

/// A job as a [`Command`].
pub struct JobCommand<J> {
    job: J,
    per_input: bool,
}

impl<J> JobCommand<J> {
    /// `job` as a command; `per_input`: each input is a run of its own, ended by the summary
    /// (see [`groups`]).
    pub fn new(job: J, per_input: bool) -> JobCommand<J> {
        JobCommand { job, per_input }
    }

    /// The job.
    pub fn job(&self) -> &J {
        &self.job
    }
}

impl<J: Job + Send + 'static> Command for JobCommand<J>
where
    J::Summary: 'static,
    J::Record: 'static,
{
    fn notes(&self) -> Vec<String> {
        self.job.notes()
    }

    fn read_options(&self, read: ReadOptions, input: usize) -> ReadOptions {
        self.job.read_options(read, input)
    }

    fn raw_input(&self, input: usize) -> bool {
        self.job.raw_input(input)
    }

    fn output_identity(&self, json: bool, inputs: &[PathBuf]) -> Result<Value, InputError> {
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        run_identity(self.job.name(), self.job.identity(), json, &inputs)
    }

    fn run(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        sink: &Sink,
        old: Option<OldResults>,
        runner: &Runner,
        form: Form,
    ) -> Result<(Ran, Box<dyn Summing>), RunError> {
        let sources = self.open(inputs, read, runner)?;
        let groups = groups(self.per_input, inputs, sources);
        let (ran, summary) = run_groups(&self.job, groups, sink, old, runner, form, |_| {})?;
        Ok((ran, Box::new(Summed::new(summary))))
    }

    fn records(
        &self,
        inputs: &[PathBuf],
        read: ReadOptions,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError> {
        let sources = self.open(inputs, read, runner)?;
        self.records_of(sources, runner, emit)
    }

    fn records_of(
        &self,
        sources: Vec<Source>,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError> {
        let items = self.job.items(sources)?;
        runner.collect(&self.job, items, |placed| {
            emit(RecordOut::of(&placed).expect("collect hands on no cancelled result"));
        })
    }

    fn run_shard(
        &self,
        sources: Vec<Source>,
        json: bool,
        runner: &Runner,
    ) -> Result<(ShardResult, Ran), RunError> {
        let items = self.job.items(sources)?;
        let mut summary = self.job.summary();
        let mut entries = Vec::new();
        let ran = runner.collect(&self.job, items, |placed| {
            summary.add(&placed.result);
            if let Some(status) = placed.result.status() {
                entries.push((placed.line, placed.key, status, placed.result.written(json)));
            }
        })?;
        let share = serde_json::to_value(&summary).map_err(std::io::Error::other)?;
        Ok((ShardResult { entries, share }, ran))
    }

    fn summing(&self) -> Box<dyn Summing> {
        Box::new(Summed::new(self.job.summary()))
    }

    fn generated(&self) -> Option<u64> {
        self.job.generated()
    }
}
