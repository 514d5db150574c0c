//! `sudokit count --box PxQ` / `--latin --order N` (no FILE): the library's count of the empty
//! grid ([`sudokit::jobs::census_command`]: a census by symmetry, or an enumeration) into
//! standard output or `-o FILE`, with a progress line on a terminal and the notes on standard
//! error.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudokit::Shape;
use sudokit::census::{CensusProgress, Phase};
use sudokit::jobs::Sink;
use sudokit::jobs::census_command::{count_empty_grid, empty_grid_identity};
use sudokit::jobs::command::finish;
use sudokit::jobs::count::CountJob;

use super::args::OutputArgs;
use super::stop;

/// A census longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Counts the empty grid of `shape` as `job` says, into standard output or `-o FILE`: the count
/// (or its JSON object with `json`). Exit 0 for an exact count, 1 for a lower bound (a time
/// limit or a signal stopped it).
pub fn run(
    job: &CountJob,
    shape: &Shape,
    json: bool,
    output: &OutputArgs,
) -> anyhow::Result<ExitCode> {
    let identity = empty_grid_identity(job);
    let (sink, old) = Sink::open(
        output.output.as_deref(),
        "puzzles",
        &identity,
        output.mode(),
    )?;
    stop::watch(sink.handle());
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg} {pos}/{len} parts, {elapsed}, about {eta} left",
            )
            .expect("valid template"),
        );
        bar.set_message(format!("counting the grids of {shape}:"));
        bar
    });
    let show = |p: &CensusProgress| {
        if let Some(bar) = &bar {
            if bar.is_hidden() && p.elapsed >= PROGRESS_AFTER {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            if p.phase == Phase::Counting {
                bar.set_length(p.parts as u64);
                bar.set_position(p.parts_done as u64);
            }
        }
    };
    let counted = count_empty_grid(job, shape, &sink, old, &stop::control(), json, Some(&show));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let (ran, summary) = counted?;
    let report = finish(sink, ran, &summary, "puzzles", stop::why_stopped);
    stop::unwatch();
    let report = report?;
    for note in &report.notes {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(report.exit_code))
}
