//! The commands on a Dask cluster, the Rust half of `sudokit.dask`: a task runs a registry
//! command over a shard of its input ([`run_shard`]: the library's [`Command::run_shard`]) and
//! returns its records as entries (input line, item key, status, written text) with its share
//! of the command's summary (the summary's serde form); the client gives each task's result,
//! in input order, to a [`ShardRun`], which places the records with the library's recorder (a
//! resumable result file continued by `resume`, or text handed back for the caller's stream),
//! adds the shares up, and ends each input and the run as the command line does.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use serde_json::Value;
use sudokit::jobs::command::{Command, Summing, finish, report};
use sudokit::jobs::recorder::Recorder;
use sudokit::jobs::registry::Entry;
use sudokit::jobs::source::Source;
use sudokit::jobs::{Control, PuzzleItem, Ran, Runner, Sink, Status, Tally};

use crate::errors::{failure, value_error};
use crate::jobs::{RunTally, build, entry, open_mode, run_error};
use crate::puzzle::read_options;
use crate::shards::{Shard, Tail, items};

/// Registers the shard reader, the shard runner and the client's run.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<crate::shards::ShardReader>()?;
    m.add_function(wrap_pyfunction!(crate::shards::shards, m)?)?;
    m.add_function(wrap_pyfunction!(run_shard, m)?)?;
    m.add_class::<ShardRun>()?;
    Ok(())
}

/// A record as a task returns it: `(input line, item key, status word, text)`.
pub type Entry4 = (usize, u64, String, String);

/// A shard as Python passes it: `(first_line, form, data, tail)`.
type ShardArg = (usize, String, Vec<u8>, Option<Tail>);

/// The puzzles of a shard of `file` as a source, read as input `input` of the command.
fn shard_source(
    command: &dyn Command,
    input: usize,
    file: &str,
    shard: Option<&ShardArg>,
    first_index: usize,
    read: sudokit::text::ReadOptions,
) -> PyResult<Source> {
    let name: Arc<str> = Arc::from(file);
    let Some((first, form, data, tail)) = shard else {
        return Ok(Source::Puzzles {
            name,
            items: Box::new(std::iter::empty()),
        });
    };
    let shard = Shard {
        first: *first,
        form,
        data,
        tail: tail.clone(),
    };
    let read: Vec<_> = items(&shard, command.read_options(read, input))?.collect();
    let file = name.clone();
    Ok(Source::Puzzles {
        name,
        items: Box::new(
            read.into_iter()
                .enumerate()
                .map(move |(i, r)| PuzzleItem::new(file.clone(), first_index + i, r)),
        ),
    })
}

/// Runs one task of a command: the registry command `command` with the options of the JSON
/// `options` (over `inputs` inputs in all) on `shard` of `file` (for a command of two inputs
/// also `second`, the shard of `second_file` at the same place; for generate the puzzle indices
/// `range`); `first_index` is the position of the shard's first item in its file. Returns the
/// entries in input order and the shard's share of the summary (JSON).
#[pyfunction]
#[pyo3(signature = (command, options, json, inputs = 1, file = None, shard = None, first_index = 0, second_file = None, second = None, range = None, r#box = None, latin = false))]
#[allow(clippy::too_many_arguments)]
pub fn run_shard(
    py: Python<'_>,
    command: &str,
    options: &str,
    json: bool,
    inputs: usize,
    file: Option<&str>,
    shard: Option<ShardArg>,
    first_index: usize,
    second_file: Option<&str>,
    second: Option<ShardArg>,
    range: Option<(u64, u64)>,
    r#box: Option<(usize, usize)>,
    latin: bool,
) -> PyResult<(Vec<Entry4>, String)> {
    let command = build(command, options, inputs)?;
    let read = read_options(r#box, latin, None)?;
    let mut sources = Vec::new();
    if let Some((start, stop)) = range {
        sources.push(Source::Range(start..stop));
    } else {
        let file = file.unwrap_or("-");
        sources.push(shard_source(
            &*command,
            0,
            file,
            shard.as_ref(),
            first_index,
            read,
        )?);
        if let Some(second_file) = second_file {
            sources.push(shard_source(
                &*command,
                1,
                second_file,
                second.as_ref(),
                first_index,
                read,
            )?);
        }
    }
    let (shard, ran) = py
        .detach(|| command.run_shard(sources, json, &Runner::new(Control::new())))
        .map_err(run_error)?;
    if !ran.complete {
        return Err(failure("the task stopped before its last item"));
    }
    let entries = shard
        .entries
        .into_iter()
        .map(|(line, key, status, text)| (line, key, status.word().to_string(), text))
        .collect();
    Ok((entries, shard.share.to_string()))
}

/// Where the client's records go.
enum Place {
    /// A resumable result file, through the library's recorder.
    File(Option<Recorder<'static>>),
    /// The caller's stream: the texts are handed back; only the tally is kept here.
    Stream(Tally),
}

/// The client's side of a command run on Dask: places the tasks' records in input order (in
/// `output`, a resumable result file opened as the command line opens `-o FILE`: `resume`
/// continues it, `force` discards a partial one; or, without `output`, handed back as text),
/// adds up their shares of the summary, and ends each input and the run.
#[pyclass(module = "sudokit")]
pub struct ShardRun {
    entry: &'static Entry,
    command: Box<dyn Command>,
    place: Place,
    summary: Box<dyn Summing>,
    json: bool,
}

fn status_of(word: &str) -> PyResult<Status> {
    Status::from_word(word).ok_or_else(|| value_error(format!("unknown status {word}")))
}

#[pymethods]
impl ShardRun {
    #[new]
    #[pyo3(signature = (command, options, json = false, output = None, resume = false, force = false, inputs = Vec::new()))]
    fn new(
        command: &str,
        options: &str,
        json: bool,
        output: Option<PathBuf>,
        resume: bool,
        force: bool,
        inputs: Vec<PathBuf>,
    ) -> PyResult<ShardRun> {
        let entry = entry(command)?;
        entry.check_inputs(inputs.len()).map_err(value_error)?;
        let command = build(command, options, inputs.len())?;
        let summary = command.summing();
        let mode = open_mode(resume, force)?;
        let place = match output {
            None if resume => return Err(value_error("resume needs an output file")),
            None => Place::Stream(Tally::default()),
            Some(_) if !entry.resumable => {
                return Err(value_error(format!(
                    "{} ends with tables: its output is a stream, not a resumable file",
                    entry.name
                )));
            }
            Some(output) => {
                let identity = command
                    .output_identity(json, &inputs)
                    .map_err(|e| run_error(e.into()))?;
                let (sink, old) =
                    Sink::open(Some(&output), entry.noun, &identity, mode).map_err(failure)?;
                Place::File(Some(Recorder::owning(sink, old, false)))
            }
        };
        Ok(ShardRun {
            entry,
            command,
            place,
            summary,
            json,
        })
    }

    /// How many items a command without input makes (the range its tasks cut), or None.
    fn generated(&self) -> Option<u64> {
        self.command.generated()
    }

    /// The options' notes (said before the run).
    fn notes(&self) -> Vec<String> {
        self.command.notes()
    }

    /// Places a task's result (the next in input order): its entries and its share of the
    /// summary. Returns the text the caller writes (empty when the records go to the file).
    fn push(&mut self, entries: Vec<Entry4>, share: &str) -> PyResult<String> {
        let share: Value = serde_json::from_str(share).map_err(value_error)?;
        self.summary
            .add_share(share)
            .map_err(|e| value_error(format!("a share of another command or options: {e}")))?;
        let mut text = String::new();
        match &mut self.place {
            Place::File(recorder) => {
                let recorder = recorder
                    .as_ref()
                    .ok_or_else(|| failure("the run is finished"))?;
                for (line, key, status, record) in entries {
                    recorder
                        .place(line, key, status_of(&status)?, &record)
                        .map_err(run_error)?;
                }
            }
            Place::Stream(tally) => {
                for (_, _, status, record) in entries {
                    tally.add(status_of(&status)?);
                    text.push_str(&record);
                }
            }
        }
        Ok(text)
    }

    /// The text written before the first record (a table's heading), or nothing.
    fn begin(&self) -> String {
        self.summary.begin(self.json)
    }

    /// Ends input `input`: returns the text written after its records (grade's and minimize's
    /// summary line with `json`), or nothing.
    fn end_input(&mut self, input: &str) -> String {
        self.summary.end_input(input, self.json)
    }

    /// The text that ends the run (the tables), `complete` when every task's result was
    /// pushed.
    #[pyo3(signature = (complete = true))]
    fn end(&self, complete: bool) -> String {
        self.summary.end(self.json, complete)
    }

    /// Ends the run (`complete`: every task's result was pushed): the output file is completed
    /// (or, for a stopped run, kept as a partial file to resume); returns the tally, the exit
    /// code and the notes.
    #[pyo3(signature = (complete = true))]
    fn finish(&mut self, complete: bool) -> PyResult<RunTally> {
        let noun = self.entry.noun;
        let report = match &mut self.place {
            Place::Stream(tally) => {
                let ran = Ran {
                    tally: *tally,
                    complete,
                };
                let stopped = (!complete).then(|| format!("stopped after {} {noun}", tally.total));
                Ok(report(stopped, ran, &*self.summary, noun))
            }
            Place::File(recorder) => {
                let recorder = recorder
                    .take()
                    .ok_or_else(|| failure("the run is finished"))?;
                let (tally, sink) = recorder.finish_owned(complete).map_err(run_error)?;
                let sink = sink.expect("an owning recorder gives its sink back");
                let ran = Ran { tally, complete };
                finish(sink, ran, &*self.summary, noun, || "stopped".to_string())
            }
        }
        .map_err(run_error)?;
        Ok(RunTally::of(report.ran, report.exit_code, report.notes))
    }
}
