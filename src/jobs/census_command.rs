//! `count` without input: the empty grid of a shape (`--box PxQ`, `--latin --order N`), counted
//! by a symmetry method ([`super::census`]) or, when the method or the options ask for it, by an
//! enumeration (one record). [`count_empty_grid`] is the run every front end makes, and
//! [`EmptyGridCommand`] is that run as the registry's `count` with no input, so the command line,
//! `sudokit.run("count", box=(3, 3))` and any caller of the registry write the same bytes.
//!
//! The shape comes from how the inputs would be read (`box`, `latin`) and the count's `order`;
//! the output is every command's ([`Sink`]): its identity is that of `count` with no input, and
//! which census the kept parts belong to is sealed in their keys ([`super::census_parts`]).
//! An enumeration is one record, placed by a [`Recorder`] like any other (kept by a resume
//! when final, `FILE` being the record).
//!
//! # Examples
//! ```
//! use sudokit::jobs::census_command::EmptyGridCommand;
//! use sudokit::jobs::count::{CountJob, CountOptions};
//! use sudokit::jobs::{Command, Control, Runner};
//! use sudokit::text::{ReadOptions, ShapeSpec};
//! use sudokit::jobs::solver_options::RunOptions;
//! let run = RunOptions { threads: Some(1), ..RunOptions::default() };
//! let job = CountJob::new(CountOptions { run, ..CountOptions::default() }).unwrap();
//! let command = EmptyGridCommand::new(job);
//! let read = ReadOptions { shape: Some(ShapeSpec::Box(2, 2)), ..ReadOptions::default() };
//! let mut text = String::new();
//! let ran = command.records(&[], read, &Runner::new(Control::new()), &mut |r| text += &r.text).unwrap();
//! assert_eq!((text.as_str(), ran.exit_code()), ("288\n", 0));
//! ```

use std::path::PathBuf;

use serde_json::{Value, json};

use super::census::{
    CensusRunError, EmptyGridCount, EmptyGridError, report_text, run_census, stop_note,
};
use super::command::{Command, Form, RecordOut, ShardResult, Summing};
use super::control::Control;
use super::count::{CountJob, empty_grid_shape};
use super::item::{Fnv, InputError};
use super::job::Job;
use super::options::OptionError;
use super::partial::OldResults;
use super::record::{JobRecord, Status};
use super::recorder::{Claim, Recorder, claim};
use super::run_error::RunError;
use super::run_identity::INPUTS;
use super::runner::{Ran, Runner};
use super::sink::Sink;
use super::tally::Tally;
use crate::census::{CensusOptions, CensusProgress, CensusReport, count_grids};
use crate::grid::Grid;
use crate::shape::Shape;
use crate::text::{ReadOptions, ShapeSpec};

/// Why the empty grid was not counted.
#[derive(Debug, thiserror::Error)]
pub enum EmptyGridRunError {
    /// The shape or the method (an unknown method, an enumeration out of reach).
    #[error(transparent)]
    Refused(#[from] EmptyGridError),
    /// The census, or its output.
    #[error(transparent)]
    Census(#[from] CensusRunError),
    /// The enumeration could not take the grid.
    #[error("{0}")]
    Count(String),
    /// The output of an enumeration.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl From<OptionError> for EmptyGridRunError {
    fn from(error: OptionError) -> Self {
        EmptyGridRunError::Refused(error.into())
    }
}

/// What a count of the empty grid adds up: the sentence a stopped census ends with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmptyGridSummary {
    /// See [`stop_note`].
    pub note: Option<String>,
}

impl Summing for EmptyGridSummary {
    fn add_share(&mut self, _share: Value) -> Result<(), serde_json::Error> {
        Err(serde::de::Error::custom(
            "the count of an empty grid runs in one process: it has no shares",
        ))
    }

    fn notes(&self) -> Vec<String> {
        self.note.iter().cloned().collect()
    }

    fn errors_in_notes(&self) -> bool {
        false
    }

    fn exit_code(&self, ran: &Ran) -> u8 {
        ran.exit_code()
    }
}

/// The shape of the empty grid `count` counts without input: the read options' `box`, `latin`
/// or regions (`regions`, `extra`), and the job's `order` (or the region map's).
///
/// # Errors
/// Neither given, or a shape that cannot be.
pub fn shape_of(job: &CountJob, read: ReadOptions) -> Result<Shape, OptionError> {
    let (boxes, latin, regions) = match read.shape {
        Some(ShapeSpec::Box(p, q)) => (Some((p, q)), false, None),
        Some(ShapeSpec::Latin) => (None, true, None),
        Some(ShapeSpec::Regions(boxes, regions)) => (boxes, false, Some(regions)),
        None => (None, false, None),
    };
    // A region map gives the order when neither --box nor --order does.
    let order = job
        .order()
        .or_else(|| regions.and_then(|r| r.map).map(|map| map.order()));
    let order = if boxes.is_some() { job.order() } else { order };
    let shape = empty_grid_shape(boxes, latin, order)?;
    let Some(regions) = regions else {
        return Ok(shape);
    };
    let invalid = |message: String| OptionError::Invalid {
        option: "regions",
        message,
    };
    match regions
        .regions_for(shape.order())
        .map_err(|e| invalid(e.to_string()))?
    {
        Some(regions) => shape
            .with_regions(regions)
            .map_err(|e| invalid(e.to_string())),
        None => Ok(shape),
    }
}

/// The identity of a resumable output of `count` without input (see
/// [`super::run_identity`]): the command, the job's options, no input, and the form `parts`
/// whatever `--json` says: a census's parts are the same in both forms (a resumed count writes
/// `FILE` in its own), and the enumeration's one record is keyed by its form.
pub fn empty_grid_identity(job: &CountJob) -> Value {
    json!({
        "command": job.name(),
        "options": job.identity(),
        "form": "parts",
        INPUTS: [],
    })
}

/// The key of the enumeration of the empty grid of `shape` written as JSON or text (its one
/// item).
fn enumeration_key(shape: &Shape, json: bool) -> u64 {
    let mut key = Fnv::new();
    key.add(b"empty grid ");
    key.add(shape.to_string().as_bytes());
    key.add(if json { b" json" } else { b" text" });
    key.finish()
}

/// Counts the empty grid of `shape` as `job` says (a census on the job's pool, or an
/// enumeration) into `sink`, continuing the `old` results of a resumed output; `progress` sees
/// a census's progress. Returns the run (one result: the count, `done` when exact) and its
/// summary; the sink stays open ([`super::command::finish`] ends it).
///
/// # Errors
/// See [`EmptyGridRunError`].
pub fn count_empty_grid(
    job: &CountJob,
    shape: &Shape,
    sink: &Sink,
    old: Option<OldResults>,
    control: &Control,
    json: bool,
    progress: Option<&(dyn Fn(&CensusProgress) + Sync)>,
) -> Result<(Ran, EmptyGridSummary), EmptyGridRunError> {
    let mut tally = Tally::default();
    match job.empty_grid_count(shape)? {
        EmptyGridCount::Census(method) => {
            let limits = job.limits(control);
            let report = job
                .pool()
                .install(|| run_census(shape, method, limits, sink, old, progress, json))?;
            tally.add(census_status(&report));
            let ran = Ran {
                tally,
                complete: report.complete(),
            };
            let note = stop_note(&report);
            Ok((ran, EmptyGridSummary { note }))
        }
        EmptyGridCount::Enumerate => {
            let recorder = Recorder::new(sink, old, false);
            let key = enumeration_key(shape, json);
            match claim(recorder.next_old(), 1, key) {
                Claim::Keep(entry) => recorder.keep(&entry)?,
                Claim::Redo { replaced } => {
                    let record =
                        job.count(&Grid::empty(*shape), None, control)
                            .map_err(|message| {
                                // A resumed output stays as it was.
                                sink.abandon();
                                EmptyGridRunError::Count(message)
                            })?;
                    let text = record.written(json);
                    recorder.record(1, key, record.status(), &text, replaced.as_deref())?;
                }
                Claim::Mismatch { line, .. } => {
                    let reason = "it counts another grid, or is written in the other form \
                                  (text or JSON)";
                    return Err(recorder.mismatch(line, reason.to_string()).into());
                }
            }
            let tally = recorder.finish(true)?;
            let ran = Ran {
                tally,
                complete: true,
            };
            Ok((ran, EmptyGridSummary::default()))
        }
    }
}

/// The status of a census's count: `done` when exact, `unknown` for a lower bound.
fn census_status(report: &CensusReport) -> Status {
    if report.complete() {
        Status::Done
    } else {
        Status::Unknown
    }
}

/// `count` without input, as a registry command; see the module docs.
pub struct EmptyGridCommand {
    job: CountJob,
}

impl EmptyGridCommand {
    /// The count of the empty grid by `job`.
    pub fn new(job: CountJob) -> EmptyGridCommand {
        EmptyGridCommand { job }
    }

    /// The job.
    pub fn job(&self) -> &CountJob {
        &self.job
    }
}

/// An error of the empty grid's count as a run's failure.
fn run_error(error: EmptyGridRunError) -> RunError {
    match error {
        EmptyGridRunError::Run(error) | EmptyGridRunError::Census(CensusRunError::Run(error)) => {
            error
        }
        other => RunError::Command(Box::new(other)),
    }
}

impl Command for EmptyGridCommand {
    fn notes(&self) -> Vec<String> {
        self.job.notes()
    }

    fn read_options(&self, read: ReadOptions, _input: usize) -> ReadOptions {
        read
    }

    fn raw_input(&self, _input: usize) -> bool {
        false
    }

    fn output_identity(&self, _json: bool, _inputs: &[PathBuf]) -> Result<Value, InputError> {
        Ok(empty_grid_identity(&self.job))
    }

    fn run(
        &self,
        _inputs: &[PathBuf],
        read: ReadOptions,
        sink: &Sink,
        old: Option<OldResults>,
        runner: &Runner,
        form: Form,
    ) -> Result<(Ran, Box<dyn Summing>), RunError> {
        let shape = shape_of(&self.job, read).map_err(|e| run_error(e.into()))?;
        let (ran, summary) = count_empty_grid(
            &self.job,
            &shape,
            sink,
            old,
            runner.control(),
            form.json,
            None,
        )
        .map_err(run_error)?;
        Ok((ran, Box::new(summary)))
    }

    fn records(
        &self,
        _inputs: &[PathBuf],
        read: ReadOptions,
        runner: &Runner,
        emit: &mut (dyn FnMut(RecordOut) + Send),
    ) -> Result<Ran, RunError> {
        let shape = shape_of(&self.job, read).map_err(|e| run_error(e.into()))?;
        let way = self
            .job
            .empty_grid_count(&shape)
            .map_err(|e| run_error(e.into()))?;
        let (status, text, json, complete) = match way {
            EmptyGridCount::Census(method) => {
                let options = CensusOptions {
                    method,
                    limits: self.job.limits(runner.control()),
                    ..CensusOptions::default()
                };
                let report = self
                    .job
                    .pool()
                    .install(|| count_grids(&shape, &options))
                    .map_err(|e| run_error(CensusRunError::from(e).into()))?;
                (
                    census_status(&report),
                    report_text(&report, false),
                    report_text(&report, true),
                    report.complete(),
                )
            }
            EmptyGridCount::Enumerate => {
                let record = self
                    .job
                    .count(&Grid::empty(shape), None, runner.control())
                    .map_err(|e| run_error(EmptyGridRunError::Count(e)))?;
                (
                    record.status(),
                    record.written(false),
                    record.written(true),
                    true,
                )
            }
        };
        let mut tally = Tally::default();
        tally.add(status);
        emit(RecordOut {
            line: 1,
            key: enumeration_key(&shape, false),
            status,
            text,
            json,
            grids: Vec::new(),
        });
        Ok(Ran { tally, complete })
    }

    fn run_shard(
        &self,
        _sources: Vec<super::source::Source>,
        _json: bool,
        _runner: &Runner,
    ) -> Result<(ShardResult, Ran), RunError> {
        Err(RunError::Input(InputError::Source("input files")))
    }

    fn summing(&self) -> Box<dyn Summing> {
        Box::new(EmptyGridSummary::default())
    }

    fn generated(&self) -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::count::CountOptions;
    use crate::jobs::partial::{OpenMode, partial_path};

    #[test]
    fn an_enumeration_resumes_only_in_its_own_form() {
        let dir = std::env::temp_dir().join(format!("sudokit-empty-grid-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("four.txt");
        let job = CountJob::new(CountOptions {
            method: "enumerate".into(),
            run: crate::jobs::solver_options::RunOptions {
                threads: Some(1),
                ..Default::default()
            },
            ..CountOptions::default()
        })
        .unwrap();
        let shape = Shape::sudoku(2, 2).unwrap();
        let identity = empty_grid_identity(&job);
        let run = |mode, json| {
            let (sink, old) = Sink::open(Some(&file), "puzzles", &identity, mode).unwrap();
            let ran = count_empty_grid(&job, &shape, &sink, old, &Control::new(), json, None);
            (sink, ran)
        };
        // Counted, then killed before FILE was written: the record stays in FILE.partial.
        let (sink, ran) = run(OpenMode::Fresh, false);
        assert_eq!(ran.unwrap().0.exit_code(), 0);
        drop(sink);
        let partial = std::fs::read_to_string(partial_path(&file)).unwrap();
        assert_eq!(partial, "288\n");
        // Resumed as JSON: the record is text, refused.
        let (_, refused) = run(OpenMode::Resume, true);
        let refused = refused.unwrap_err().to_string();
        assert!(refused.contains("written in the other form"), "{refused}");
        assert_eq!(
            std::fs::read_to_string(partial_path(&file)).unwrap(),
            partial
        );
        // Resumed as text: kept, and FILE is the record.
        let (sink, ran) = run(OpenMode::Resume, false);
        let (ran, summary) = ran.unwrap();
        assert_eq!((ran.tally.done, summary.notes().len()), (1, 0));
        assert_eq!(sink.finish(true, String::new).unwrap(), None);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "288\n");
        assert!(!partial_path(&file).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
