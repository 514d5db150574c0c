//! The library's command registry ([`sudokit::jobs::registry`]) from Python: keyword arguments
//! into a command's options (their serde form, from a dict: an unknown or mistyped keyword is
//! refused by name), checked by the command's job, and the two ways its records leave:
//!
//! - [`run`]: a command over files into its output (a resumable result file, or standard
//!   output), its tables and closing notes, and the exit code of the command line
//!   (`sudokit.run`);
//! - [`records`]: the records as objects (status, text, JSON), in input order
//!   (`sudokit.records`).
//!
//! [`commands`] and [`options`] give the registry itself (each option's kind, help and
//! default), from which `sudokit.dask` builds its command line. Dask's tasks run the same
//! commands ([`crate::dask`]).

use std::path::PathBuf;

use pyo3::prelude::*;
use serde_json::Value;
use sudokit::jobs::command::{Command, RecordOut, finish};
use sudokit::jobs::option_help::as_keywords;
use sudokit::jobs::registry::{self, Entry};
use sudokit::jobs::{Control, Form, OpenMode, OptionError, Ran, RunError, Runner, Sink};

use crate::errors::{failure, option_value_error, value_error};
use crate::interrupt::cancellable;
use crate::reading::{ExtraArg, MapArg, read_options, region_spec};

/// The registry's entry of `command`.
pub fn entry(command: &str) -> PyResult<&'static Entry> {
    registry::command(command).map_err(option_value_error)
}

/// An option the job refused, as an `OptionError` (a `SudokitError` and a `ValueError`) that names every option as Python spells it
/// (`time_limit`, not `--time-limit`: [`as_keywords`]).
pub fn option_error(error: OptionError) -> PyErr {
    let message = error.to_string();
    if let OptionError::Malformed(_) = error {
        let message = message.split(" at line ").next().unwrap_or(&message);
        return option_value_error(message.replace("unknown field", "unknown keyword argument"));
    }
    option_value_error(as_keywords(&message))
}

/// The command of `command` with the options of the JSON object `options`, over `inputs`
/// inputs.
pub fn build(command: &str, options: &str, inputs: usize) -> PyResult<Box<dyn Command>> {
    let options: Value = serde_json::from_str(options).map_err(value_error)?;
    entry(command)?.build(options, inputs).map_err(option_error)
}

/// The registry's commands: `(name, inputs, resumable, per_input, about, shardable)`, where
/// `inputs` is `none`, `one`, `two`, `one_or_more` or `one_or_none`, and `shardable` says
/// whether Dask may run it (`bench` times whole runs in one process).
#[pyfunction]
pub fn commands() -> Vec<(&'static str, String, bool, bool, &'static str, bool)> {
    registry::COMMANDS
        .iter()
        .map(|e| {
            // A unit variant serializes as its snake_case name.
            let inputs = serde_json::to_value(e.inputs).ok();
            let inputs = inputs.and_then(|v| v.as_str().map(str::to_string));
            let inputs = inputs.unwrap_or_default();
            (
                e.name,
                inputs,
                e.resumable,
                e.per_input,
                e.about,
                e.shardable,
            )
        })
        .collect()
}

/// The options of `command` (JSON): a list of objects with each option's `name`, `kind`
/// (`switch`, `integer`, `number`, `text`, `list`, `shape`), command-line `flag`, one-line
/// `help` and `default`: every keyword the command takes.
#[pyfunction]
pub fn options(command: &str) -> PyResult<String> {
    serde_json::to_string(&entry(command)?.options()).map_err(value_error)
}

/// How a run went, as `sudokit._results.RunTally` takes it: the library's tally (`total`,
/// `done`, `negative`, `unknown`, `errors`), whether every item was done, the command line's
/// exit code for it and the notes it prints on standard error.
pub type Tally = (usize, usize, usize, usize, usize, bool, u8, Vec<String>);

/// A record as `sudokit._results.Record` takes it: its status, text and JSON line.
pub type RecordFields = (&'static str, String, String);

/// The [`Tally`] of a run that ended with `exit_code`.
pub fn tally(ran: Ran, exit_code: u8, notes: Vec<String>) -> Tally {
    let t = ran.tally;
    let (total, done, negative, unknown, errors) =
        (t.total, t.done, t.negative, t.unknown, t.errors);
    (
        total,
        done,
        negative,
        unknown,
        errors,
        ran.complete,
        exit_code,
        notes,
    )
}

/// A control stopped by `cancel` (Ctrl-C in Python).
pub fn control_of(cancel: &sudokit::search::Cancel) -> Control {
    Control {
        stop: cancel.clone(),
        abort: cancel.clone(),
        deadline: None,
    }
}

/// A run's failure as a Python exception: an input or output that cannot be opened or
/// written is an `OSError`, the rest (a resumed output that does not fit) a `SudokitError`.
pub fn run_error(error: RunError) -> PyErr {
    match error {
        RunError::Io(e) => {
            pyo3::exceptions::PyOSError::new_err(format!("cannot write the output: {e}"))
        }
        RunError::Input(e) => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        other => failure(other),
    }
}

/// The command of `command` over `inputs`, checked: the registry's entry, the number of
/// inputs, the options.
pub fn checked(
    command: &str,
    inputs: usize,
    options: &str,
) -> PyResult<(&'static Entry, Box<dyn Command>)> {
    let entry = entry(command)?;
    entry.check_inputs(inputs).map_err(value_error)?;
    Ok((entry, build(command, options, inputs)?))
}

/// A Python callable that takes text (`sys.stdout.write`, a file's `write`) as a writer.
struct Writer(Py<PyAny>);

impl std::io::Write for Writer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(bytes);
        let written = Python::attach(|py| self.0.call1(py, (text,)).map(|_| bytes.len()));
        written.map_err(std::io::Error::other)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `sudokit COMMAND INPUTS... [-o OUTPUT [--resume|--force]]`: the command's records written
/// through the library's sink (the resumable result file `output`, or `write`, else standard
/// output) in input order, then its tables, as the command line writes them.
#[pyfunction]
#[pyo3(signature = (command, inputs, options = "{}", json = false, output = None, resume = false, force = false, r#box = None, latin = false, format = None, regions = None, extra = None, write = None))]
#[allow(clippy::too_many_arguments)]
pub fn run(
    py: Python<'_>,
    command: &str,
    inputs: Vec<PathBuf>,
    options: &str,
    json: bool,
    output: Option<PathBuf>,
    resume: bool,
    force: bool,
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
    regions: Option<MapArg>,
    extra: Option<ExtraArg>,
    write: Option<Py<PyAny>>,
) -> PyResult<Tally> {
    let (entry, command) = checked(command, inputs.len(), options)?;
    let read = read_options(r#box, latin, format, region_spec(regions, extra)?)?;
    let mode = OpenMode::of(resume, force).map_err(value_error)?;
    entry
        .check_output(resume || output.is_some())
        .map_err(value_error)?;
    let mut notes = command.notes();
    let identity = command
        .output_identity(json, if output.is_some() { &inputs } else { &[] })
        .map_err(|e| run_error(e.into()))?;
    let (sink, old) = match (&output, write) {
        (None, Some(write)) => (
            Sink::writer(Box::new(Writer(write)), entry.noun, false),
            None,
        ),
        _ => Sink::open(output.as_deref(), entry.noun, &identity, mode).map_err(failure)?,
    };
    let form = Form { json, brief: false };
    let (ran, summary, sink) = cancellable(py, |cancel| {
        let runner = Runner::new(control_of(&cancel));
        command
            .run(&inputs, read, &sink, old, &runner, form)
            .map(|(ran, summary)| (ran, summary, sink))
    })?
    .map_err(run_error)?;
    let report = finish(sink, ran, &*summary, entry.noun, || {
        "interrupted".to_string()
    })
    .map_err(run_error)?;
    notes.extend(report.notes);
    Ok(tally(report.ran, report.exit_code, notes))
}

/// The records of `command` over its inputs, as objects, in input order (no tables, no
/// output file); Ctrl-C stops the run (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (command, inputs, options = "{}", r#box = None, latin = false, format = None, regions = None, extra = None))]
#[allow(clippy::too_many_arguments)]
pub fn records(
    py: Python<'_>,
    command: &str,
    inputs: Vec<PathBuf>,
    options: &str,
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
    regions: Option<MapArg>,
    extra: Option<ExtraArg>,
) -> PyResult<(Vec<RecordFields>, Tally)> {
    let (_, command) = checked(command, inputs.len(), options)?;
    let read = read_options(r#box, latin, format, region_spec(regions, extra)?)?;
    let (out, ran) = cancellable(py, |cancel| {
        let runner = Runner::new(control_of(&cancel));
        let mut out = Vec::new();
        let ran = command.records(&inputs, read, &runner, &mut |r: RecordOut| {
            out.push((r.status.word(), r.text, r.json));
        });
        ran.map(|ran| (out, ran))
    })?
    .map_err(run_error)?;
    Ok((out, tally(ran, ran.exit_code(), Vec::new())))
}
