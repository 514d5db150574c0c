//! The client's side of a command run on a cluster: the results of its tasks
//! ([`super::shard`]), handed over in input order, placed as a run on one machine places its
//! records (a resumable result file through the [`Recorder`], continued when resumed; or the
//! text handed back for the caller's stream), their shares of the summary added up, each input
//! and the run ended, and the exit code and notes of the command line ([`Assembly::finish`]).
//!
//! # Examples
//! ```
//! use std::path::PathBuf;
//! use sudokit::jobs::OpenMode;
//! use sudokit::jobs::assembly::Assembly;
//! use sudokit::jobs::shard::{Plan, Step, run_task};
//! let plan = Plan { command: "info".into(), inputs: 1, ..Plan::default() };
//! let inputs = [PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt")];
//! let mut run = Assembly::open(&plan, &inputs, None, OpenMode::Fresh).unwrap();
//! let mut text = run.begin();
//! for step in run.tasks(&inputs, 3, 50).unwrap() {
//!     match step.unwrap() {
//!         Step::Task(task) => text += &run.push(run_task(&plan, &task.to_bytes()).unwrap()).unwrap(),
//!         Step::EndInput(name) => text += &run.end_input(&name).unwrap(),
//!     }
//! }
//! text += &run.end(true);
//! let report = run.finish(true).unwrap();
//! assert_eq!((report.exit_code, text.lines().count()), (0, report.ran.tally.total));
//! ```

use std::path::{Path, PathBuf};

use super::command::{Command, Report, ShardResult, Summing, finish, report};
use super::item::InputError;
use super::partial::OpenMode;
use super::recorder::Recorder;
use super::registry::Entry;
use super::run_error::RunError;
use super::shard::{Plan, Step, TaskError, tasks};
use super::sink::{Sink, SinkError};
use super::tally::{Ran, Tally};

/// Where the records go.
enum Place {
    /// A resumable result file, through the library's recorder (taken by [`Assembly::finish`]).
    File(Option<Recorder<'static>>),
    /// The caller's stream: the texts are handed back; only the tally is kept here.
    Stream(Tally),
}

/// A command's run on a cluster, as its client places it (see the module docs).
pub struct Assembly {
    entry: &'static Entry,
    command: Box<dyn Command>,
    plan: Plan,
    place: Place,
    summary: Box<dyn Summing>,
    seen: usize,
}

impl std::fmt::Debug for Assembly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Assembly({})", self.entry.name)
    }
}

impl Assembly {
    /// The run of `plan` over `inputs`, its records placed in `output` (a resumable result file
    /// opened as `-o FILE` opens it, `mode` saying whether it is resumed) or, without one,
    /// handed back as text.
    ///
    /// # Errors
    /// A plan that does not build; an output for a command whose output is not a resumable
    /// file; a resume without output; an output that cannot be opened or resumed.
    pub fn open(
        plan: &Plan,
        inputs: &[PathBuf],
        output: Option<&Path>,
        mode: OpenMode,
    ) -> Result<Assembly, TaskError> {
        let (entry, command) = plan.command()?;
        plan.read()?;
        entry.check_output(output.is_some())?;
        let place = match output {
            None if mode == OpenMode::Resume => {
                return Err(RunError::Sink(SinkError::ResumeWithoutFile).into());
            }
            None => Place::Stream(Tally::default()),
            Some(output) => {
                let identity = command
                    .output_identity(plan.json, inputs)
                    .map_err(RunError::from)?;
                let (sink, old) = Sink::open(Some(output), entry.noun, &identity, mode)
                    .map_err(RunError::from)?;
                Place::File(Some(Recorder::owning(sink, old, false)))
            }
        };
        Ok(Assembly {
            entry,
            summary: command.summing(),
            command,
            plan: plan.clone(),
            place,
            seen: 0,
        })
    }

    /// The command's notes on its options (said before the run).
    pub fn notes(&self) -> Vec<String> {
        self.command.notes()
    }

    /// The steps of the run over `inputs`: shards of `size` puzzles, ranges of `chunk` items
    /// (see [`tasks`]).
    ///
    /// # Errors
    /// A plan whose read options do not build.
    pub fn tasks(
        &self,
        inputs: &[PathBuf],
        size: usize,
        chunk: u64,
    ) -> Result<impl Iterator<Item = Result<Step, InputError>> + Send + use<>, TaskError> {
        let read = self.plan.read()?;
        Ok(tasks(self.entry, &*self.command, inputs, read, size, chunk))
    }

    /// The text written before the first record (a table's heading), or nothing.
    pub fn begin(&self) -> String {
        self.summary.begin(self.plan.json)
    }

    /// Places a task's result, the next in input order: its records, and its share of the
    /// summary. Returns the text for the caller's stream (empty when the records go to the
    /// file).
    ///
    /// # Errors
    /// A share of another command, a record the file cannot take, a finished run.
    pub fn push(&mut self, result: ShardResult) -> Result<String, TaskError> {
        self.summary.add_share(result.share)?;
        self.seen += result.entries.len();
        let mut text = String::new();
        match &mut self.place {
            Place::File(recorder) => {
                let recorder = recorder.as_ref().ok_or(TaskError::Finished)?;
                for (line, key, status, record) in result.entries {
                    recorder.place(line, key, status, &record)?;
                }
            }
            Place::Stream(tally) => {
                for (_, _, status, record) in result.entries {
                    tally.add(status);
                    text.push_str(&record);
                }
            }
        }
        Ok(text)
    }

    /// Ends input `input` after its last task's result: the text written after its records
    /// (grade's and minimize's summary line), or nothing.
    ///
    /// # Errors
    /// An input without a single puzzle ([`InputError::Empty`]).
    pub fn end_input(&mut self, input: &str) -> Result<String, InputError> {
        if std::mem::take(&mut self.seen) == 0 {
            return Err(InputError::Empty {
                name: input.to_string(),
            });
        }
        Ok(if self.entry.per_input {
            self.summary.end_input(input, self.plan.json)
        } else {
            String::new()
        })
    }

    /// The text that ends the run (the tables); `complete` when every task's result was
    /// placed.
    pub fn end(&self, complete: bool) -> String {
        self.summary.end(self.plan.json, complete)
    }

    /// Ends the run (`complete`: every task's result was placed): the output file is completed
    /// (or, for a stopped run, kept as a partial file to resume); returns the tally, the exit
    /// code and the notes.
    ///
    /// # Errors
    /// The file cannot be finished; the run was finished already.
    pub fn finish(&mut self, complete: bool) -> Result<Report, TaskError> {
        let noun = self.entry.noun;
        match &mut self.place {
            Place::Stream(tally) => {
                let ran = Ran {
                    tally: *tally,
                    complete,
                };
                let stopped = (!complete).then(|| format!("stopped after {} {noun}", tally.total));
                Ok(report(stopped, ran, &*self.summary, noun))
            }
            Place::File(recorder) => {
                let recorder = recorder.take().ok_or(TaskError::Finished)?;
                let (tally, sink) = recorder.finish_owned(complete)?;
                let sink = sink.expect("an owning recorder gives its sink back");
                let ran = Ran { tally, complete };
                Ok(finish(sink, ran, &*self.summary, noun, || {
                    "stopped".to_string()
                })?)
            }
        }
    }
}
