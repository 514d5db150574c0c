//! `sudokit info FILE...`: the flags of the library's info job ([`sudokit::jobs::info`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::info::InfoJob;

use super::args::{InputArgs, OutputArgs, ThreadsArg};
use super::runner;

/// Arguments of `info`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Examples:\n  sudokit info models/sudoku/9x9/top95.txt\n  sudokit info --json --latin models/latin/partial.txt\n  sudokit info models/sudoku/9x9/easy.txt models/sudoku/9x9/hard.txt\n\nWith several files, each line starts with FILE: and each JSON object has \"file\".\n\nA puzzle whose givens clash is described with its clash (`clash: row 1 has 1 twice: at (1,1)\nand (1,2)`) and, as for every command, counts as bad input.\n\nExit codes: 0 every puzzle read and free of clashes, 2 some puzzle unreadable or clashing."
)]
pub struct Args {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = InfoJob::new(args.threads.get(), args.files.len() > 1)?;
    runner::plain(
        &job,
        &args.files,
        args.input.read_options(),
        Some(&args.output),
        args.json,
    )
}
