//! `sudokit verify PUZZLES SOLUTIONS`: the flags of the library's verify job
//! ([`sudokit::jobs::verify`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::verify::VerifyJob;

use super::args::{InputArgs, OutputArgs, ThreadsArg};
use super::runner;

/// Arguments of `verify`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Pairs the n-th puzzle with the n-th solution. Exit 0 if every solution is valid, \
1 if any is not, 2 on bad input.\n\nExamples:\n  sudokit verify models/sudoku/9x9/easy.txt \
models/sudoku/9x9/easy.solutions.txt\n  sudokit solve models/sudoku/9x9/hard.txt | sudokit verify \
models/sudoku/9x9/hard.txt -"
)]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    puzzles: PathBuf,
    /// Candidate solutions, one per puzzle, in the same order (`-` for standard input).
    solutions: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    /// One JSON object per pair.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = VerifyJob::new(args.threads.get())?;
    runner::plain(
        &job,
        &[args.puzzles.clone(), args.solutions.clone()],
        args.input.read_options(),
        Some(&args.output),
        args.json,
    )
}
