//! The commands on a Dask cluster, the Rust half of `sudokit.dask`: the library's run cut into
//! tasks ([`sudokit::jobs::shard`]) and placed by its client ([`sudokit::jobs::assembly`]).
//! A [`DaskRun`] is the client's side: it checks the command and its options, yields the
//! run's steps in input order (a task's bytes, or the name of an input that ends), places each
//! task's result (the records in a resumable result file, or their text handed back), and ends
//! each input and the run as the command line does; [`run_task`] is what a worker runs.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sudokit::jobs::OpenMode;
use sudokit::jobs::assembly::Assembly;
use sudokit::jobs::item::InputError;
use sudokit::jobs::shard::{self, Plan, Step, TaskError};

use crate::errors::{failure, option_value_error, value_error};
use crate::jobs::{Tally, option_error, run_error, tally};

/// A run's failure as a Python exception: options and inputs that do not fit are a
/// `ValueError`, an input or output that cannot be read or written an `OSError`.
fn task_error(error: TaskError) -> PyErr {
    match error {
        TaskError::Registry(_) | TaskError::Shape => option_value_error(error),
        TaskError::Option(e) => option_error(e),
        TaskError::Run(e) => run_error(e),
        other => failure(other),
    }
}

/// An input that cannot be split: `ValueError` for one without a puzzle, else `OSError`.
fn input_error(error: InputError) -> PyErr {
    match error {
        InputError::Empty { .. } => value_error(error),
        other => pyo3::exceptions::PyOSError::new_err(other.to_string()),
    }
}

/// Runs one task on a worker: `plan` is the run's plan (JSON, [`DaskRun::plan`]), `task` the
/// task's bytes; returns the task's result (JSON: its records and its share of the summary).
#[pyfunction]
pub fn run_task(py: Python<'_>, plan: &str, task: &[u8]) -> PyResult<String> {
    let plan: Plan = serde_json::from_str(plan).map_err(value_error)?;
    let result = py
        .detach(|| shard::run_task(&plan, task))
        .map_err(task_error)?;
    serde_json::to_string(&result).map_err(failure)
}

type Steps = Box<dyn Iterator<Item = Result<Step, InputError>> + Send>;

/// The client's side of a command run on Dask (see the module docs). Iterating it gives the
/// run's steps: `bytes` (a task for [`run_task`]) or `str` (the name of an input whose tasks
/// are all given: end it with `end_input` after their results).
#[pyclass(module = "sudokit")]
pub struct DaskRun {
    run: Assembly,
    plan: String,
    steps: Mutex<Steps>,
}

#[pymethods]
impl DaskRun {
    #[new]
    #[pyo3(signature = (command, inputs, options = "{}", json = false, output = None, resume = false, force = false, r#box = None, latin = false, shard_size = 2000, chunk = 50, regions = None, extra = Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        command: &str,
        inputs: Vec<PathBuf>,
        options: &str,
        json: bool,
        output: Option<PathBuf>,
        resume: bool,
        force: bool,
        r#box: Option<(usize, usize)>,
        latin: bool,
        shard_size: usize,
        chunk: u64,
        regions: Option<Vec<String>>,
        extra: Vec<String>,
    ) -> PyResult<DaskRun> {
        if shard_size == 0 || chunk == 0 {
            return Err(value_error("shard_size and chunk must be at least 1"));
        }
        let plan = Plan {
            command: command.to_string(),
            options: serde_json::from_str(options).map_err(value_error)?,
            json,
            inputs: inputs.len(),
            r#box,
            latin,
            regions,
            extra,
        };
        let mode = OpenMode::of(resume, force).map_err(value_error)?;
        let run = Assembly::open(&plan, &inputs, output.as_deref(), mode).map_err(task_error)?;
        let steps = run.tasks(&inputs, shard_size, chunk).map_err(task_error)?;
        Ok(DaskRun {
            run,
            plan: serde_json::to_string(&plan).map_err(failure)?,
            steps: Mutex::new(Box::new(steps)),
        })
    }

    /// The plan every task of the run shares (JSON), the first argument of [`run_task`].
    #[getter]
    fn plan(&self) -> &str {
        &self.plan
    }

    /// The options' notes (said before the run).
    fn notes(&self) -> Vec<String> {
        self.run.notes()
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let step = py.detach(|| {
            self.steps
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .next()
        });
        Ok(match step.transpose().map_err(input_error)? {
            None => None,
            Some(Step::Task(task)) => Some(PyBytes::new(py, &task.to_bytes()).into_any()),
            Some(Step::EndInput(name)) => Some(name.into_pyobject(py)?.into_any()),
        })
    }

    /// The text written before the first record (a table's heading), or nothing.
    fn begin(&self) -> String {
        self.run.begin()
    }

    /// Places a task's result (the next in input order; JSON, as [`run_task`] returns it).
    /// Returns the text the caller writes (empty when the records go to the file).
    fn push(&mut self, result: &str) -> PyResult<String> {
        let result = serde_json::from_str(result).map_err(value_error)?;
        self.run.push(result).map_err(task_error)
    }

    /// Ends input `input`: returns the text written after its records (grade's and minimize's
    /// summary line), or nothing. `ValueError` for an input without a puzzle.
    fn end_input(&mut self, input: &str) -> PyResult<String> {
        self.run.end_input(input).map_err(input_error)
    }

    /// The text that ends the run (the tables), `complete` when every task's result was
    /// pushed.
    #[pyo3(signature = (complete = true))]
    fn end(&self, complete: bool) -> String {
        self.run.end(complete)
    }

    /// Ends the run (`complete`: every task's result was pushed): the output file is completed
    /// (or, for a stopped run, kept as a partial file to resume); returns the tally, the exit
    /// code and the notes.
    #[pyo3(signature = (complete = true))]
    fn finish(&mut self, complete: bool) -> PyResult<Tally> {
        let report = self.run.finish(complete).map_err(task_error)?;
        Ok(tally(report.ran, report.exit_code, report.notes))
    }
}
