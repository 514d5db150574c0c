//! The library's jobs ([`sudokit::jobs`]) from Python: keyword arguments into a job's options
//! (the options types' own serde, from a dict: an unknown or mistyped keyword is refused by
//! name), every option checked by the job itself, and the three ways a job's records leave:
//!
//! - [`run`]: a command over files into its output, through the library's driver and sink (a
//!   resumable result file, or standard output), with the closing notes and exit code of the
//!   command line (`sudokit.run`);
//! - [`records`]: the records as objects (status, text, JSON), in input order
//!   (`sudokit.records`);
//! - [`option_defaults`]: a command's options with their defaults, the table from which
//!   `python -m sudokit.dask` builds its command line.
//!
//! Dask's shards run the same jobs ([`crate::runners`]).

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sudokit::jobs::count::{CountJob, CountOptions};
use sudokit::jobs::crosscheck::{CrosscheckJob, CrosscheckOptions};
use sudokit::jobs::generate::{GenerateJob, GenerateOptions};
use sudokit::jobs::grade::{GradeJob, GradeOptions, summary_tables};
use sudokit::jobs::info::InfoJob;
use sudokit::jobs::item::puzzles;
use sudokit::jobs::minimize::{MinimizeJob, MinimizeOptions, MinimizeSummary, summary_table};
use sudokit::jobs::render::json_line;
use sudokit::jobs::run_identity::run_identity;
use sudokit::jobs::solve::{SolveJob, SolveOptions};
use sudokit::jobs::verify::{VerifyJob, pairs};
use sudokit::jobs::{
    Control, Driver, DriverError, ItemResult, Job, JobRecord, OpenMode, OptionError, Ran, Sink,
    Status, Tally,
};
use sudokit::text::ReadOptions;

use crate::errors::{failure, value_error};
use crate::interrupt::cancellable;
use crate::puzzle::read_options;

/// The options of `verify` and `info`, whose jobs take only a thread count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThreadsOptions {
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

/// The commands that run as jobs.
pub const COMMANDS: [&str; 8] = [
    "solve",
    "count",
    "grade",
    "crosscheck",
    "generate",
    "minimize",
    "verify",
    "info",
];

/// A JSON object's text as a job's options.
pub fn options_of_json<T: DeserializeOwned>(text: &str) -> PyResult<T> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        value_error(message.replace("unknown field", "unknown keyword argument"))
    })
}

/// An option the job refused, as a `ValueError` that names it as Python spells it
/// (`time_limit`, not `--time-limit`).
pub fn option_error(error: OptionError) -> PyErr {
    let message = error.to_string();
    match error.option() {
        Some(option) => {
            value_error(message.replace(&format!("--{option}"), &option.replace('-', "_")))
        }
        None => value_error(message),
    }
}

/// A job of any command, checked.
pub enum AnyJob {
    Solve(SolveJob),
    Count(CountJob),
    Grade(GradeJob),
    Crosscheck(CrosscheckJob),
    Generate(GenerateJob),
    Minimize(MinimizeJob),
    Verify(VerifyJob),
    Info(InfoJob),
}

/// Runs `$body` with `$job` bound to the job inside `$any`, whatever its type.
macro_rules! with_job {
    ($any:expr, $job:ident => $body:expr) => {
        match $any {
            AnyJob::Solve($job) => $body,
            AnyJob::Count($job) => $body,
            AnyJob::Grade($job) => $body,
            AnyJob::Crosscheck($job) => $body,
            AnyJob::Generate($job) => $body,
            AnyJob::Minimize($job) => $body,
            AnyJob::Verify($job) => $body,
            AnyJob::Info($job) => $body,
        }
    };
}
pub(crate) use with_job;

impl AnyJob {
    /// The job of `command` with the options of a JSON object (`name_files`: whether `info`'s
    /// records name their file).
    pub fn new(command: &str, options: &str, name_files: bool) -> PyResult<AnyJob> {
        Ok(match command {
            "solve" => AnyJob::Solve(
                SolveJob::new(options_of_json::<SolveOptions>(options)?).map_err(option_error)?,
            ),
            "count" => {
                let job = CountJob::new(options_of_json::<CountOptions>(options)?)
                    .map_err(option_error)?;
                job.check_puzzle_method().map_err(option_error)?;
                AnyJob::Count(job)
            }
            "grade" => AnyJob::Grade(
                GradeJob::new(options_of_json::<GradeOptions>(options)?).map_err(option_error)?,
            ),
            "crosscheck" => AnyJob::Crosscheck(
                CrosscheckJob::new(options_of_json::<CrosscheckOptions>(options)?)
                    .map_err(option_error)?,
            ),
            "generate" => AnyJob::Generate(
                GenerateJob::new(options_of_json::<GenerateOptions>(options)?)
                    .map_err(option_error)?,
            ),
            "minimize" => AnyJob::Minimize(
                MinimizeJob::new(options_of_json::<MinimizeOptions>(options)?)
                    .map_err(option_error)?,
            ),
            "verify" => AnyJob::Verify(
                VerifyJob::new(options_of_json::<ThreadsOptions>(options)?.threads)
                    .map_err(option_error)?,
            ),
            "info" => AnyJob::Info(InfoJob {
                name_files,
                threads: sudokit::jobs::options::threads(
                    options_of_json::<ThreadsOptions>(options)?.threads,
                )
                .map_err(option_error)?,
            }),
            other => {
                return Err(value_error(format!(
                    "unknown command {other} (known: {})",
                    COMMANDS.join(", ")
                )));
            }
        })
    }

    /// What the command's items are called in its notes.
    pub fn what(&self) -> &'static str {
        match self {
            AnyJob::Verify(_) => "pairs",
            _ => "puzzles",
        }
    }

    /// Whether the command line writes this command's records to a resumable `-o FILE`
    /// (grade, cross-check and minimize end with tables instead).
    pub fn resumable(&self) -> bool {
        !matches!(
            self,
            AnyJob::Grade(_) | AnyJob::Crosscheck(_) | AnyJob::Minimize(_)
        )
    }

    /// The identity of a resumable output of this job over `inputs`, as the command line
    /// writes it (see `sudokit::jobs::run_identity`).
    pub fn output_identity(&self, json: bool, inputs: &[PathBuf]) -> PyResult<Value> {
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        with_job!(self, job => run_identity(job.name(), job.identity(), json, &inputs))
            .map_err(input_error)
    }
}

/// The JSON text of `command`'s options with their defaults: every keyword the command takes.
#[pyfunction]
pub fn option_defaults(command: &str) -> PyResult<String> {
    let value = match command {
        "solve" => serde_json::to_value(SolveOptions::default()),
        "count" => serde_json::to_value(CountOptions::default()),
        "grade" => serde_json::to_value(GradeOptions::default()),
        "crosscheck" => serde_json::to_value(CrosscheckOptions::default()),
        "generate" => serde_json::to_value(GenerateOptions::default()),
        "minimize" => serde_json::to_value(MinimizeOptions::default()),
        "verify" | "info" => serde_json::to_value(ThreadsOptions::default()),
        other => {
            return Err(value_error(format!(
                "unknown command {other} (known: {})",
                COMMANDS.join(", ")
            )));
        }
    }
    .map_err(failure)?;
    Ok(value.to_string())
}

/// The JSON text of keyword arguments, checked against `command`'s options (the job is built,
/// so every value is checked too).
#[pyfunction]
#[pyo3(signature = (command, **options))]
pub fn check_options(
    py: Python<'_>,
    command: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let text = options_json(py, options)?;
    AnyJob::new(command, &text, false)?;
    Ok(text)
}

/// The JSON text of a dict (`{}` for none).
pub fn options_json(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    match options {
        None => Ok("{}".to_string()),
        Some(dict) => py
            .import("json")?
            .call_method1("dumps", (dict,))
            .map_err(|e| value_error(format!("options must be JSON values: {e}")))?
            .extract(),
    }
}

/// How a run went: the library's [`Tally`], whether every item was done, the exit code of the
/// command line for it, and the notes it prints on standard error.
#[pyclass(module = "sudokit", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct RunTally {
    /// Records written (or kept by a resumed run).
    pub total: usize,
    /// Records that are the answer asked for.
    pub done: usize,
    /// Final negative answers (unsat, multiple with `unique`, invalid, disagreements).
    pub negative: usize,
    /// Records without an answer (a budget ran out).
    pub unknown: usize,
    /// Items reported in place as errors (bad input).
    pub errors: usize,
    /// Whether every item was done (not stopped).
    pub complete: bool,
    /// The command line's exit code: 2 bad input, 1 a negative or unknown answer (or a stop),
    /// 0 otherwise.
    pub exit_code: u8,
    /// The notes the command line prints on standard error.
    pub notes: Vec<String>,
}

impl RunTally {
    /// The tally of a run.
    pub fn of(ran: Ran, notes: Vec<String>) -> RunTally {
        let t = ran.tally;
        RunTally {
            total: t.total,
            done: t.done,
            negative: t.negative,
            unknown: t.unknown,
            errors: t.errors,
            complete: ran.complete,
            exit_code: ran.exit_code(),
            notes,
        }
    }
}

#[pymethods]
impl RunTally {
    /// Sums the tallies of runs (files, shards) of one command.
    #[staticmethod]
    fn merged(tallies: Vec<PyRef<'_, RunTally>>) -> RunTally {
        let mut tally = Tally::default();
        let mut complete = true;
        let mut notes = Vec::new();
        for t in tallies.iter() {
            tally.merge(&Tally {
                total: t.total,
                done: t.done,
                negative: t.negative,
                unknown: t.unknown,
                errors: t.errors,
            });
            complete &= t.complete;
            notes.extend(t.notes.iter().cloned());
        }
        RunTally::of(Ran { tally, complete }, notes)
    }

    fn __repr__(&self) -> String {
        format!(
            "RunTally(total={}, done={}, negative={}, unknown={}, errors={}, complete={}, exit_code={})",
            self.total,
            self.done,
            self.negative,
            self.unknown,
            self.errors,
            if self.complete { "True" } else { "False" },
            self.exit_code
        )
    }
}

/// A record of a job: its status (`done`, `negative`, `unknown`, `error`), its text (whole
/// lines, as the command line prints it) and its JSON object (as `--json` prints it).
#[pyclass(module = "sudokit", frozen)]
pub struct Record {
    status: Status,
    text: String,
    json: String,
}

impl Record {
    fn of<R: JobRecord>(result: &ItemResult<R>) -> Option<Record> {
        Some(Record {
            status: result.status()?,
            text: result.render(false),
            json: result.render(true),
        })
    }
}

#[pymethods]
impl Record {
    /// `done`, `negative`, `unknown` or `error`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status.word()
    }

    /// The record as text, as the command line prints it (whole lines).
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The record's JSON line, as `--json` prints it (ending in a newline).
    #[getter]
    fn json_line(&self) -> &str {
        &self.json
    }

    /// The record's JSON object, as a dict.
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?
            .call_method1("loads", (self.json.as_str(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(status={:?}, text={:?})",
            self.status.word(),
            self.text
        )
    }
}

/// A control stopped by `cancel` (Ctrl-C in Python).
pub fn control_of(cancel: &sudokit::search::Cancel) -> Control {
    Control {
        stop: cancel.clone(),
        abort: cancel.clone(),
        deadline: None,
    }
}

/// The inputs a command reads: none (generate), two (verify), one (solve, count,
/// cross-check), or one or more (grade, minimize, info).
fn check_inputs(command: &str, inputs: &[PathBuf]) -> PyResult<()> {
    let fits = match command {
        "generate" => inputs.is_empty(),
        "verify" => inputs.len() == 2,
        "solve" | "count" | "crosscheck" => inputs.len() == 1,
        _ => !inputs.is_empty(),
    };
    if fits {
        return Ok(());
    }
    let wanted = match command {
        "generate" => "no input file",
        "verify" => "two input files (puzzles, candidate solutions)",
        "solve" | "count" | "crosscheck" => "one input file",
        _ => "one or more input files",
    };
    Err(value_error(format!(
        "{command} takes {wanted}, not {}",
        inputs.len()
    )))
}

fn input_error(error: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyOSError::new_err(error.to_string())
}

fn driver_error(error: DriverError) -> PyErr {
    match error {
        DriverError::Io(e) => input_error(format!("cannot write the output: {e}")),
        DriverError::Partial(e) => failure(e),
    }
}

/// Runs one per-file step of a command over the inputs, calling `each` with the job's items of
/// each input in turn (one step for verify and info, which read their inputs together).
fn for_each_input<F>(
    job: &AnyJob,
    inputs: &[PathBuf],
    read: ReadOptions,
    stop: &sudokit::search::Cancel,
    mut each: F,
) -> PyResult<()>
where
    F: FnMut(&Path, Items) -> PyResult<bool>,
{
    match job {
        AnyJob::Generate(generate) => {
            each(Path::new("-"), Items::Generated(generate.items()))?;
        }
        AnyJob::Verify(_) => {
            let pairs = pairs(&inputs[0], &inputs[1], read, stop).map_err(input_error)?;
            each(&inputs[0], Items::Pairs(Box::new(pairs)))?;
        }
        AnyJob::Info(_) => {
            let (_, items) = InfoJob::over(inputs, read, Some(1), stop).map_err(input_error)?;
            each(&inputs[0], Items::Puzzles(Box::new(items)))?;
        }
        _ => {
            for input in inputs {
                let items = puzzles(input, read).map_err(input_error)?;
                if !each(input, Items::Puzzles(Box::new(items)))? {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// The items of one input.
pub enum Items {
    Puzzles(Box<dyn Iterator<Item = sudokit::jobs::PuzzleItem> + Send>),
    Pairs(Box<dyn Iterator<Item = sudokit::jobs::verify::Pair> + Send>),
    Generated(std::ops::Range<u64>),
}

/// Runs `$job` over `$items` with `$call(job, items)`; the item type must be the job's.
macro_rules! over_items {
    ($any:expr, $items:expr, |$job:ident, $it:ident| $body:expr) => {
        match ($any, $items) {
            (AnyJob::Solve($job), Items::Puzzles($it)) => $body,
            (AnyJob::Count($job), Items::Puzzles($it)) => $body,
            (AnyJob::Grade($job), Items::Puzzles($it)) => $body,
            (AnyJob::Crosscheck($job), Items::Puzzles($it)) => $body,
            (AnyJob::Minimize($job), Items::Puzzles($it)) => $body,
            (AnyJob::Info($job), Items::Puzzles($it)) => $body,
            (AnyJob::Verify($job), Items::Pairs($it)) => $body,
            (AnyJob::Generate($job), Items::Generated($it)) => $body,
            _ => unreachable!("each job gets its own kind of items"),
        }
    };
}

/// The running summary of a command that ends with tables.
enum Summary {
    None,
    Grade(Vec<sudokit::jobs::grade::GradeSummary>),
    Crosscheck(Box<sudokit::jobs::crosscheck::CrosscheckSummary>),
    Minimize(Vec<MinimizeSummary>),
}

/// `sudokit COMMAND INPUTS... [-o OUTPUT [--resume|--force]]`: the command's records written
/// through the library's sink (standard output, or the resumable result file `output`) in
/// input order, then its tables, as the command line writes them.
#[pyfunction]
#[pyo3(signature = (command, inputs, options = "{}", json = false, output = None, resume = false, force = false, r#box = None, latin = false, format = None))]
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
) -> PyResult<RunTally> {
    check_inputs(command, &inputs)?;
    let job = AnyJob::new(command, options, inputs.len() > 1)?;
    let read = read_options(r#box, latin, format)?;
    let mode = match (resume, force) {
        (true, true) => return Err(value_error("resume and force do not go together")),
        (true, false) => OpenMode::Resume,
        (false, true) => OpenMode::Force,
        (false, false) => OpenMode::Fresh,
    };
    if !job.resumable() && (resume || output.is_some()) {
        return Err(value_error(format!(
            "{command} writes to standard output (its tables end the run): no output or resume"
        )));
    }
    let mut notes = Vec::new();
    if let AnyJob::Crosscheck(check) = &job {
        notes.extend(check.notes().iter().cloned());
    }
    let (sink, old) = Sink::open(
        output.as_deref(),
        job.what(),
        &job.output_identity(json, if output.is_some() { &inputs } else { &[] })?,
        mode,
    )
    .map_err(failure)?;
    let mut old = old;
    let mut summary = match &job {
        AnyJob::Grade(_) => Summary::Grade(Vec::new()),
        AnyJob::Crosscheck(check) => Summary::Crosscheck(Box::new(check.summary())),
        AnyJob::Minimize(_) => Summary::Minimize(Vec::new()),
        _ => Summary::None,
    };
    let (ran, sink) = cancellable(py, |cancel| -> PyResult<(Ran, Sink)> {
        let driver = Driver::new(control_of(&cancel));
        let mut tally = Tally::default();
        let mut complete = true;
        for_each_input(&job, &inputs, read, &cancel, |input, items| {
            let file = input.display().to_string();
            let ran = over_items!(&job, items, |j, it| {
                let mut grade = matches!(summary, Summary::Grade(_)).then(|| match &job {
                    AnyJob::Grade(g) => g.summary(&file),
                    _ => unreachable!(),
                });
                let mut table =
                    matches!(summary, Summary::Minimize(_)).then(|| MinimizeSummary::new(&file));
                let mut check = match &job {
                    AnyJob::Crosscheck(c) => Some(c.summary()),
                    _ => None,
                };
                let ran = driver
                    .run(j, it, &sink, old.take(), json, false, |result| {
                        observe(&result, &mut grade, &mut table, &mut check)
                    })
                    .map_err(driver_error)?;
                if let Some(g) = grade {
                    if json {
                        sink.write_extra(&json_line(&g.json()))
                            .map_err(input_error)?;
                    }
                    if let Summary::Grade(files) = &mut summary {
                        files.push(g);
                    }
                }
                if let (Some(c), Summary::Crosscheck(total)) = (check, &mut summary) {
                    total.merge(&c);
                }
                if let Some(t) = table {
                    if json {
                        sink.write_extra(&json_line(&t.json()))
                            .map_err(input_error)?;
                    }
                    if let Summary::Minimize(tables) = &mut summary {
                        tables.push(t);
                    }
                }
                ran
            });
            tally.merge(&ran.tally);
            complete &= ran.complete;
            Ok(ran.complete)
        })?;
        let extra = match (&summary, &job) {
            (Summary::Grade(files), AnyJob::Grade(g)) if complete && !json => {
                summary_tables(g.schemes(), files, g.runtime())
            }
            (Summary::Minimize(tables), _) if complete && !json => summary_table(tables),
            (Summary::Crosscheck(s), _) if json => json_line(&s.json()),
            (Summary::Crosscheck(s), _) => s.text(),
            _ => String::new(),
        };
        if !extra.is_empty() {
            sink.write_extra(&extra).map_err(input_error)?;
        }
        Ok((Ran { tally, complete }, sink))
    })??;
    let stopped = sink
        .finish(ran.complete, || "interrupted".to_string())
        .map_err(failure)?;
    notes.extend(stopped);
    if let Some(note) = ran.tally.errors_note(job.what()) {
        notes.push(note);
    }
    if let Summary::Crosscheck(s) = &summary
        && let Some(note) = s.disagreements_note()
    {
        notes.push(note);
    }
    Ok(RunTally::of(ran, notes))
}

/// Feeds one result to the summaries being kept.
fn observe<R: 'static>(
    result: &ItemResult<R>,
    grade: &mut Option<sudokit::jobs::grade::GradeSummary>,
    table: &mut Option<MinimizeSummary>,
    check: &mut Option<sudokit::jobs::crosscheck::CrosscheckSummary>,
) {
    let any = result as &dyn std::any::Any;
    if let (Some(g), Some(r)) = (grade.as_mut(), any.downcast_ref()) {
        g.add(r);
    }
    if let (Some(t), Some(r)) = (table.as_mut(), any.downcast_ref()) {
        t.add(r);
    }
    if let (Some(c), Some(r)) = (check.as_mut(), any.downcast_ref()) {
        c.add(r);
    }
}

/// The records of `command` over its inputs, as objects, in input order (no tables, no
/// output file); Ctrl-C stops the run (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (command, inputs, options = "{}", r#box = None, latin = false, format = None))]
pub fn records(
    py: Python<'_>,
    command: &str,
    inputs: Vec<PathBuf>,
    options: &str,
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
) -> PyResult<(Vec<Record>, RunTally)> {
    check_inputs(command, &inputs)?;
    let job = AnyJob::new(command, options, inputs.len() > 1)?;
    let read = read_options(r#box, latin, format)?;
    cancellable(py, |cancel| -> PyResult<(Vec<Record>, RunTally)> {
        let driver = Driver::new(control_of(&cancel));
        let mut out = Vec::new();
        let mut tally = Tally::default();
        let mut complete = true;
        for_each_input(&job, &inputs, read, &cancel, |_, items| {
            let ran = over_items!(&job, items, |j, it| driver
                .collect(j, it, |result| out.extend(Record::of(&result)))
                .map_err(driver_error)?);
            tally.merge(&ran.tally);
            complete &= ran.complete;
            Ok(ran.complete)
        })?;
        Ok((out, RunTally::of(Ran { tally, complete }, Vec::new())))
    })?
}
