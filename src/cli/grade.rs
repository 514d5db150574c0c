//! `sudokit grade FILE...`: the flags of the library's grade job ([`sudokit::jobs::grade`]), one
//! run per file, then the tables.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::grade::{DEFAULT_TIME_LIMIT, GradeJob, GradeOptions};
use sudokit::jobs::options::Shave;
use sudokit::jobs::runner::Placed;
use sudokit::jobs::{Form, Job};

use super::args::{InputArgs, LimitArgs, time_limit_help};
use super::{lists, runner};

/// Arguments of `grade`.
#[derive(Debug, ClapArgs)]
#[command(mut_arg(
    "time_limit",
    time_limit_help("puzzle and scheme for --runtime", DEFAULT_TIME_LIMIT)
))]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Comma-separated schemes to run (`paper` for the paper's, `all` for every one).
    #[arg(long, default_value = "all", value_name = "LIST")]
    schemes: String,
    /// How the shaving schemes shave: `once` (the paper's single pass: FCV+ means FCV) or
    /// `fixpoint` (FCV means FCV+); without it, as named (FCV once, FCV+ to the fixpoint).
    #[arg(long, value_enum, value_name = "MODE")]
    shave: Option<Shave>,
    /// One JSON object per puzzle, then one summary object per file.
    #[arg(long)]
    json: bool,
    /// Only the tables (no line per puzzle); ignored with --json.
    #[arg(long)]
    summary: bool,
    /// Also search each puzzle with each scheme (up to 2 solutions: proves uniqueness) and
    /// print the search-time table.
    #[arg(long)]
    runtime: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    input: InputArgs,
}

/// The text after the options: the schemes, from the registry, and examples.
pub(super) fn after_help() -> String {
    format!(
        "{}\
A puzzle is search-free for a scheme when the scheme's fixpoint leaves one candidate per cell.

Examples:
  sudokit grade models/sudoku/9x9/top95.txt --summary
  sudokit grade --schemes FC,FCI,HAC,HACC models/sudoku/9x9/xwing.txt
  sudokit grade --json --runtime --schemes HAC,HACS models/sudoku/9x9/hard.txt",
        lists::scheme_groups()
    )
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = GradeJob::new(GradeOptions {
        schemes: args.schemes.clone(),
        shave: args.shave,
        runtime: args.runtime,
        run: args.limits.options(),
        ..GradeOptions::default()
    })?;
    // Each puzzle's line is written whole, in input order, as the batch streams through the
    // input: an interruption leaves a valid prefix and says how far it got. The tables at the
    // end keep running sums per file.
    per_file(
        &job,
        &args.files,
        &args.input,
        args.json,
        args.summary,
        |_| {},
    )
}

/// Runs `job` over `files`, one run per file, then its tables (`grade`, `minimize`): a record
/// per line as text, or only the tables with `summary`, or JSON with `json`; `observe` sees
/// each result made.
///
/// # Errors
/// As [`runner::command`].
pub(super) fn per_file<J: Job>(
    job: &J,
    files: &[PathBuf],
    input: &InputArgs,
    json: bool,
    summary: bool,
    observe: impl FnMut(Placed<J::Record>) + Send,
) -> anyhow::Result<ExitCode> {
    let form = Form {
        json,
        brief: summary && !json,
    };
    runner::command(job, files, input.read_options(), None, form, None, observe)
}
