//! `sudokit count --box PxQ` / `--latin N` by a symmetry method: runs the library's census
//! ([`sudokit::census`]) with a progress line on a terminal, the resume file of `-o FILE`, and
//! prints its report.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudokit::Shape;
use sudokit::census::{CensusOptions, Checkpoint, Method, Phase, Progress, count_grids};
use sudokit::search::Limits;

use super::sink::{OutputArgs, partial_path};

/// A census longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Counts the grids of `shape` by `method` (`None`: the shape's default) on the current rayon
/// pool, and prints the count (or its JSON object) on standard output or into `-o FILE`.
/// Exit 0 for an exact count, 1 for a lower bound (a time limit or a signal stopped it).
pub fn run(
    shape: &Shape,
    method: Option<Method>,
    limits: Limits,
    json: bool,
    output: &OutputArgs,
    pool: &rayon::ThreadPool,
) -> anyhow::Result<ExitCode> {
    let checkpoint = match &output.output {
        None if output.resume => {
            bail!("--resume needs -o FILE: the parts to continue are read from FILE.partial")
        }
        None => None,
        Some(path) if path.as_os_str() == "-" => bail!("-o takes a file name, not -"),
        Some(path) => Some(Checkpoint::new(partial_path(path), output.resume)),
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
    let show = |p: &Progress| {
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
    let options = CensusOptions {
        method,
        limits,
        progress: Some(&show),
        checkpoint: checkpoint.as_ref(),
    };
    let report = pool.install(|| count_grids(shape, &options))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let text = if json {
        format!("{}\n", report.to_json())
    } else {
        format!("{}\n", report.line())
    };
    match (&output.output, checkpoint) {
        (Some(path), Some(checkpoint)) if report.complete() => {
            write_whole(path, &text)?;
            checkpoint.remove()?;
        }
        (Some(_), Some(checkpoint)) if report.parts > 0 => {
            super::note!(
                "sudokit: {} parts of {} counted so far, in {}; continue with --resume",
                report.parts_done,
                report.parts,
                checkpoint.path().display()
            );
        }
        (Some(_), Some(_)) => {}
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    if let Some(reason) = report.stopped {
        let estimate = match report.remaining_estimate() {
            Some(left) => format!(
                "; the {} parts left would take about {} at this rate",
                report.parts - report.parts_done,
                duration_words(left)
            ),
            None => String::new(),
        };
        let progress = if report.parts == 0 {
            "while preparing the parts".to_string()
        } else {
            format!("after {} of {} parts", report.parts_done, report.parts)
        };
        super::note!(
            "sudokit: stopped ({reason}) {progress}: the count is a lower bound{estimate}"
        );
    }
    Ok(ExitCode::from(u8::from(!report.complete())))
}

/// Writes `text` to `path` through a temporary file, so that `path` never holds half a result.
fn write_whole(path: &Path, text: &str) -> anyhow::Result<()> {
    let temporary = {
        let mut name = path.as_os_str().to_owned();
        name.push(".tmp");
        std::path::PathBuf::from(name)
    };
    std::fs::write(&temporary, text)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `3 h 20 min`, `12 min`, `40 s`.
fn duration_words(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=119 => format!("{s} s"),
        120..=7199 => format!("{} min", s / 60),
        7200..=172_799 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} days", s / 86_400),
    }
}
