//! `sudokit reduce latin FILE --solve [--levels ...]`: each square through every chosen level of
//! the chain (the library's `reduce::course`), printed level by level, as JSON lines, and drawn as
//! the course page (`render::course`) with `--report`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudokit::jobs::PuzzleItem;
use sudokit::jobs::course::{course_json, course_status, course_text};
use sudokit::reduce::course::{CourseOptions, run_course};
use sudokit::render::course::CoursePage;
use sudokit::text::ReadOptions;

use super::stop::puzzles;
use sudokit::jobs::render::json_line;
use sudokit::jobs::target::AtomicFile;
use sudokit::jobs::{ItemError, ItemResult};

use super::runner as driver;
use super::squares::{SquareJob, Written};

/// What `--solve` was asked to do.
pub struct CourseRequest {
    pub options: CourseOptions,
    pub report: Option<PathBuf>,
    pub json: bool,
    pub threads: usize,
}

pub fn run(file: &Path, read: ReadOptions, run: &CourseRequest) -> anyhow::Result<ExitCode> {
    // Each square's result is written whole, in input order: an interruption leaves a valid
    // prefix and says how far it got.
    let items = puzzles(file, read)?;
    // The --report file is opened before any work, so an unwritable path is an error at once.
    let mut report_file = run.report.as_deref().map(AtomicFile::create).transpose()?;
    let sink = driver::stdout("squares");
    let mut page = CoursePage::new("Latin square completion through every formalism");
    let job = SquareJob {
        name: "reduce latin --solve",
        identity: serde_json::Value::Null,
        threads: run.threads,
        work: |item: PuzzleItem, control: &sudokit::jobs::Control| {
            let index = item.index + 1;
            let record = match item.record() {
                Ok(record) => record,
                Err(e) => return ItemResult::Failed(e),
            };
            let mut options = run.options.clone();
            options.limits = control.limits(&options.limits);
            let course = match run_course(&record.grid, &options, &format!("square{index}")) {
                Ok(course) => course,
                Err(e) => return ItemResult::Failed(ItemError::failed(&item.file, record.line, e)),
            };
            // A square with no completion is the negative answer; an undecided one, unknown.
            let status = course_status(&course);
            let text = if run.json {
                json_line(&course_json(&course, record.line))
            } else {
                course_text(&course, index, record.line)
            };
            ItemResult::Done(Written {
                status,
                text,
                extra: Some((index, record.line, course)),
            })
        },
    };
    let code = driver::squares(&job, items, (sink, None), run.json, |placed| {
        if let (ItemResult::Done(done), Some(_)) = (placed.result, &run.report)
            && let Some((index, line, course)) = done.extra
        {
            page.push(index, line, course);
        }
    })?;
    if super::stop::control().stopped() {
        return Ok(code);
    }
    if let (Some(mut report), Some(path)) = (report_file.take(), &run.report) {
        report.write_all(page.to_html().as_bytes())?;
        report.commit()?;
        super::note!("sudokit: report written to {}", path.display());
    }
    Ok(code)
}
