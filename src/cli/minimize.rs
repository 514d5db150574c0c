//! `sudokit minimize FILE...`: the flags of the library's minimize job
//! ([`sudokit::jobs::minimize`]), one run per file, then the table.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args as ClapArgs;
use sudokit::generate::progress::{GenerationProgress, OnProgress};
use sudokit::jobs::ItemResult;
use sudokit::jobs::minimize::{MinimizeJob, MinimizeOptions};
use sudokit::jobs::record_text::grid_record;
use sudokit::jobs::target::AtomicFile;

use super::args::{InputArgs, ThreadsArg};
use super::grade::per_file;

/// Arguments of `minimize`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Each well-posed puzzle loses givens by committed choice (in cell order, or a random order with
--seed): a given is removed when the puzzle stays well posed without it. One pass leaves the
puzzle locally minimal (every remaining given is needed), and the solution never changes.
A puzzle with no solution or several is reported on its line and left out of the table.

Exit codes: 0 every puzzle reduced, 1 some puzzle not well posed, 2 unreadable input.

Examples:
  sudokit minimize models/sudoku/9x9/easy.txt
  sudokit minimize --summary --seed 3 models/sudoku/9x9/easy.txt --reduced reduced.txt
  sudokit minimize --json models/sudoku/4x4/kr_4x4_sample.txt")]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Remove givens in a random order drawn from this seed (puzzle i of a file from (seed, i))
    /// instead of cell order.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// One JSON object per puzzle, then one summary object per file.
    #[arg(long)]
    json: bool,
    /// Only the table (no line per puzzle); ignored with --json.
    #[arg(long)]
    summary: bool,
    /// Also write the reduced puzzles to FILE, one per well-posed input puzzle, in order.
    #[arg(long, value_name = "FILE")]
    reduced: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = MinimizeJob::new(MinimizeOptions {
        seed: args.seed,
        threads: args.threads.get(),
    })?;
    let job = if std::io::stderr().is_terminal() {
        job.with_progress(Arc::new(progress_line))
    } else {
        job
    };
    let mut reduced = args
        .reduced
        .as_ref()
        .map(|p| AtomicFile::create(p))
        .transpose()?;
    let mut written: std::io::Result<()> = Ok(());
    // Each puzzle's line is written whole, in input order: an interruption leaves a valid
    // prefix and says how far it got.
    let code = per_file(
        &job,
        &args.files,
        &args.input,
        args.json,
        args.summary,
        |placed| {
            if let (ItemResult::Done(record), Some(file)) = (&placed.result, reduced.as_mut())
                && let Some(m) = record.reduced()
                && written.is_ok()
            {
                written = file.write_all(grid_record(&m.puzzle).as_bytes());
            }
        },
    )?;
    written?;
    if !super::stop::control().stopped()
        && let Some(file) = reduced
    {
        // The reduced-puzzle file is written only when the run completed (its temporary file
        // is removed otherwise).
        file.commit()?;
    }
    Ok(code)
}

fn progress_line(file: &str, line: usize) -> Option<OnProgress> {
    let name = file.to_string();
    Some(OnProgress::new(move |p: &GenerationProgress| {
        if p.elapsed.as_secs_f64() < 2.0 {
            return;
        }
        if p.done {
            eprint!("\r\x1b[K");
        } else {
            eprint!("\r\x1b[Kminimize {name}:{line}: {p}");
        }
    }))
}
