//! `sudokit reduce latin FILE --solve [--levels ...]`: each square through every chosen level of
//! the chain (the library's `reduce::course`), printed level by level, as JSON lines, and drawn as
//! the course page (`render::course`) with `--report`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudokit::jobs::ItemResult;
use sudokit::jobs::course::CourseJob;
use sudokit::jobs::item::puzzles_until;
use sudokit::jobs::target::AtomicFile;
use sudokit::reduce::course::CourseOptions;
use sudokit::render::course::CoursePage;
use sudokit::render::figures::write_figures;
use sudokit::text::ReadOptions;

use super::runner;
use super::stop;

/// What `--solve` was asked to do.
pub struct CourseRequest {
    pub options: CourseOptions,
    pub report: Option<PathBuf>,
    pub svg_dir: Option<PathBuf>,
    pub json: bool,
    pub threads: usize,
}

pub fn run(file: &Path, read: ReadOptions, run: &CourseRequest) -> anyhow::Result<ExitCode> {
    // Each square's result is written whole, in input order: an interruption leaves a valid
    // prefix and says how far it got.
    let items = puzzles_until(file, read, &stop::control().stop)?;
    // The --report file is opened before any work, so an unwritable path is an error at once.
    let mut report_file = run.report.as_deref().map(AtomicFile::create).transpose()?;
    let mut page = CoursePage::new("Latin square completion through every formalism");
    let job = CourseJob {
        options: run.options.clone(),
        threads: run.threads,
    };
    let sink = runner::stdout("squares");
    let code = runner::unregistered(&job, items, (sink, None), run.json, |placed| {
        if let ItemResult::Done(done) = placed.result
            && (run.report.is_some() || run.svg_dir.is_some())
        {
            page.push(done.index, done.line, done.course);
        }
    })?;
    if stop::control().stopped() {
        return Ok(code);
    }
    if run.report.is_none() && run.svg_dir.is_none() {
        return Ok(code);
    }
    let html = page.to_html();
    if let (Some(mut report), Some(path)) = (report_file.take(), &run.report) {
        report.write_all(html.as_bytes())?;
        report.commit()?;
        super::note!("sudokit: report written to {}", path.display());
    }
    if let Some(dir) = &run.svg_dir {
        let written = write_figures(dir, &html)?;
        super::note!("sudokit: {}", written.describe(dir));
    }
    Ok(code)
}
