//! Running a library job from the command line: the sink of `-o FILE` (or standard output), the
//! library's driver under the run's stop control, a progress line on a terminal, and the closing
//! notes and exit code. Every batch command goes through here.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;

use sudokit::batch::Progress;
use sudokit::jobs::partial::OldResults;
use sudokit::jobs::run_identity::run_identity;
use sudokit::jobs::{Driver, ItemResult, Job, Ran, Sink};

use super::args::OutputArgs;
use super::stop;

/// A batch longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Opens the output of a per-item command over `inputs`: `-o FILE` (resumable) or standard
/// output. A resumed run continues only the same command, options, form and inputs (see
/// [`sudokit::jobs::run_identity`]).
///
/// # Errors
/// The sink's ([`sudokit::jobs::SinkError`]); an input that cannot be read.
pub fn open<J: Job>(
    job: &J,
    inputs: &[&Path],
    output: &OutputArgs,
    what: &'static str,
    json: bool,
) -> anyhow::Result<(Sink, Option<OldResults>)> {
    // Only a file output is resumable: the inputs are read for their identity only then.
    let inputs = if output.output.is_some() { inputs } else { &[] };
    let identity = run_identity(job.name(), job.identity(), json, inputs)?;
    let (sink, old) = Sink::open(output.output.as_deref(), what, &identity, output.mode())?;
    stop::watch(sink.handle());
    Ok((sink, old))
}

/// Standard output for a command with closing tables (no `-o FILE --resume`).
pub fn stdout(what: &'static str) -> Sink {
    let sink = Sink::stdout(what, false);
    stop::watch(sink.handle());
    sink
}

/// Runs `job` over `items` into `sink` with the library's driver (see
/// [`Driver::run`](sudokit::jobs::Driver::run)), with a progress line on a terminal.
///
/// # Errors
/// The driver's: a write that fails (a closed pipe is a normal end), a resumed output that does
/// not fit the input.
pub fn drive<J: Job>(
    job: &J,
    items: impl Iterator<Item = J::Item> + Send,
    sink: &Sink,
    old: Option<OldResults>,
    json: bool,
    brief: bool,
    observe: impl FnMut(ItemResult<J::Record>) + Send,
) -> anyhow::Result<Ran> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pos} done, {per_sec}, {elapsed}")
                .expect("valid template"),
        );
        bar
    });
    let mut driver = Driver::new(stop::control());
    if let Some(bar) = &bar {
        let bar = bar.clone();
        driver = driver.with_progress(Arc::new(move |p: Progress| {
            if bar.is_hidden() && p.elapsed >= PROGRESS_AFTER {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_position(p.done as u64);
        }));
    }
    let ran = driver.run(job, items, sink, old, json, brief, observe);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(ran?)
}

/// Ends the output: a stopped run says how far it got (exit 1); a complete one notes the items
/// that gave an error and exits with the tally's code.
///
/// # Errors
/// The final flush or rename fails.
pub fn finish(sink: Sink, ran: Ran, what: &str) -> anyhow::Result<ExitCode> {
    let summary = sink.finish(ran.complete, stop::why_stopped);
    stop::unwatch();
    if let Some(summary) = summary? {
        super::note!("sudokit: {summary}");
        return Ok(ExitCode::from(1));
    }
    if let Some(note) = ran.tally.errors_note(what) {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(ran.exit_code()))
}

/// A per-item command over `inputs`, whole: open the output, run the job, finish.
///
/// # Errors
/// As [`open`], [`drive`] and [`finish`].
pub fn per_item<J: Job>(
    job: &J,
    inputs: &[&Path],
    items: impl Iterator<Item = J::Item> + Send,
    output: &OutputArgs,
    what: &'static str,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (sink, old) = open(job, inputs, output, what, json)?;
    let ran = drive(job, items, &sink, old, json, false, |_| {})?;
    finish(sink, ran, what)
}
