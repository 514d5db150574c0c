//! `sudokit count --box PxQ` / `--latin --order N` by a symmetry method: the library's census
//! job ([`sudokit::jobs::census`]) with a progress line on a terminal, its report printed or
//! written to `-o FILE`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudokit::Shape;
use sudokit::census::{CensusProgress, CensusReport, Method, Phase};
use sudokit::jobs::Control;
use sudokit::jobs::census::{run_census, stop_note};
use sudokit::jobs::count::CountJob;

use super::args::OutputArgs;

/// A census longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Counts the grids of `shape` by `method` (`None`: the shape's default) on the job's pool, and
/// prints the count (or its JSON object) on standard output or into `-o FILE`. Exit 0 for an
/// exact count, 1 for a lower bound (a time limit or a signal stopped it).
pub fn run(
    job: &CountJob,
    shape: &Shape,
    method: Option<Method>,
    control: &Control,
    json: bool,
    output: &OutputArgs,
) -> anyhow::Result<ExitCode> {
    let target = match &output.output {
        Some(path) if path.as_os_str() == "-" => bail!("-o takes a file name, not -"),
        Some(path) => Some((path.as_path(), output.mode())),
        None => None,
    };
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
    let render = |report: &CensusReport| {
        if json {
            format!("{}\n", report.to_json())
        } else {
            format!("{}\n", report.line())
        }
    };
    let limits = job.limits(control);
    let run = job
        .pool()
        .install(|| run_census(shape, method, limits, target, Some(&show), render))?;
    let report = run.report;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match target {
        Some(_) => {
            if let Some(partial) = run.kept_in {
                super::note!(
                    "sudokit: {} parts of {} counted so far, in {}; continue with --resume",
                    report.parts_done,
                    report.parts,
                    partial.display()
                );
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(render(&report).as_bytes())?;
            out.flush()?;
        }
    }
    if let Some(note) = stop_note(&report) {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(u8::from(!report.complete())))
}
