//! Running a library job from the command line: the command's registry entry says what it
//! reads and writes; the library opens the inputs, runs the job, places the records and ends
//! the summary ([`sudokit::jobs::command`]); here are only what a terminal adds: the run's stop
//! control (`--timeout`, signals), a progress line, and the notes on standard error.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sudokit::batch::Progress;
use sudokit::jobs::command::{self, Form, Summed, finish, groups, run_groups};
use sudokit::jobs::partial::OldResults;
use sudokit::jobs::recorder::Recorder;
use sudokit::jobs::registry;
use sudokit::jobs::run_identity::run_identity;
use sudokit::jobs::runner::Placed;
use sudokit::jobs::source::open_sources;
use sudokit::jobs::summary::NoSummary;
use sudokit::jobs::{Job, Ran, Runner, Sink};
use sudokit::text::ReadOptions;

use super::args::OutputArgs;
use super::stop;

/// A batch longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Runs the registry command of `job` over `inputs` (read with `read`) into `-o FILE`
/// (`output`, for a resumable command) or standard output, written in `form`; `runner` replaces
/// the default one (with a progress line on a terminal); `observe` sees each result made.
///
/// # Errors
/// An input that cannot be opened, an output that cannot be written or resumed.
pub fn command<J: Job>(
    job: &J,
    inputs: &[PathBuf],
    read: ReadOptions,
    output: Option<&OutputArgs>,
    form: Form,
    runner: Option<Runner>,
    observe: impl FnMut(Placed<J::Record>) + Send,
) -> anyhow::Result<ExitCode> {
    let entry = registry::command(job.name())?;
    for note in job.notes() {
        super::note!("sudokit: {note}");
    }
    let sources = open_sources(
        inputs,
        |i| job.read_options(read, i),
        |i| job.raw_input(i),
        &stop::control().stop,
    )?;
    let paths: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let (sink, old) = match output {
        Some(output) if entry.resumable => open(job, &paths, output, entry.noun, form.json)?,
        _ => (stdout(entry.noun), None),
    };
    let (runner, bar) = match runner {
        Some(runner) => (runner, None),
        None => with_progress_line(),
    };
    let result = run_groups(
        job,
        groups(entry.per_input, inputs, sources),
        &sink,
        old,
        &runner,
        form,
        observe,
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let (ran, summary) = result?;
    end(sink, ran, &Summed::new(summary), entry.noun)
}

/// [`command`] in its common form: records as text (or JSON with `json`), the default runner,
/// nothing observed.
///
/// # Errors
/// As [`command`].
pub fn plain<J: Job>(
    job: &J,
    inputs: &[PathBuf],
    read: ReadOptions,
    output: Option<&OutputArgs>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let form = Form { json, brief: false };
    command(job, inputs, read, output, form, None, |_| {})
}

/// Ends the output of a run and says how it went (see [`command::finish`]).
///
/// # Errors
/// The final flush or rename fails.
pub fn end(
    sink: Sink,
    ran: Ran,
    summary: &dyn command::Summing,
    noun: &str,
) -> anyhow::Result<ExitCode> {
    let report = finish(sink, ran, summary, noun, stop::why_stopped);
    stop::unwatch();
    let report = report?;
    for note in &report.notes {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(report.exit_code))
}

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

/// The runner of this run's stop control, with a progress line shown on a terminal once the
/// run is past [`PROGRESS_AFTER`] (cleared by the caller).
pub fn with_progress_line() -> (Runner, Option<ProgressBar>) {
    let runner = Runner::new(stop::control());
    if !std::io::stderr().is_terminal() {
        return (runner, None);
    }
    let bar = ProgressBar::hidden();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos} done, {per_sec}, {elapsed}")
            .expect("valid template"),
    );
    let shown = bar.clone();
    let runner = runner.with_progress(Arc::new(move |p: Progress| {
        if shown.is_hidden() && p.elapsed >= PROGRESS_AFTER {
            shown.set_draw_target(ProgressDrawTarget::stderr());
        }
        shown.set_position(p.done as u64);
    }));
    (runner, Some(bar))
}

/// Runs a job that is not a registry command (the course of `reduce latin --solve`) over
/// `items` into `sink`, continuing `old`, and ends the output.
///
/// # Errors
/// As [`command`].
pub fn unregistered<J: Job>(
    job: &J,
    items: impl Iterator<Item = J::Item> + Send,
    (sink, old): (Sink, Option<OldResults>),
    json: bool,
    observe: impl FnMut(Placed<J::Record>) + Send,
) -> anyhow::Result<ExitCode> {
    let (runner, bar) = with_progress_line();
    let recorder = Recorder::new(&sink, old, false);
    let done = runner.run(job, items, &recorder, json, observe);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let complete = done?;
    let tally = recorder.finish(complete)?;
    end(
        sink,
        Ran { tally, complete },
        &Summed::<_, J::Record>::new(NoSummary),
        "squares",
    )
}
