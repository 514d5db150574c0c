//! `sudokit bench FILE... --backends a,b`: the flags of the registry's `bench`
//! ([`sudokit::jobs::bench`]: per backend and file, throughput and time percentiles).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::bench::BenchOptions;
use sudokit::jobs::{Form, Runner, registry};
use sudokit::solve;

use super::args::InputArgs;
use super::{runner, stop};

/// Arguments of `bench`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Solves every puzzle of every FILE with each backend (first solution, certificate checked) and
prints one row per backend and file: puzzles/s, median and p99 time per puzzle, guesses per
puzzle, % answered without guessing, and how many were solved within 0.1 s, 1 s and 10 s.

--threads defaults to 1 here, unlike every other command (all cores): a timing command, whose
per-puzzle times other threads on the same cores would disturb. --threads N solves N at a time.

Examples:
  sudokit bench models/sudoku/9x9/top95.txt --backends native,norvig,fc-mrv
  sudokit bench --first 5 --time-limit 10 models/sudoku/25x25/acs_general_40pct.txt
  sudokit bench --json models/sudoku/16x16/kr_16x16_sample.txt")]
pub struct Args {
    /// Puzzle files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Comma-separated backends (default native).
    #[arg(long, value_name = "LIST", default_value = solve::DEFAULT_BACKEND, value_delimiter = ',')]
    backends: Vec<String>,
    /// Use the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Time budget per puzzle in seconds (a puzzle that runs out counts as unknown).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    time_limit: f64,
    /// Search-node budget per puzzle (default: none).
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Puzzles solved at a time (default 1, for undisturbed timings; see below).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    input: InputArgs,
    /// Refuse puzzles above order N (default: the backend's own limit).
    #[arg(long, value_name = "N")]
    max_n: Option<usize>,
    /// One JSON object per backend and file.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let entry = registry::command("bench")?;
    let options = serde_json::to_value(BenchOptions {
        backends: args.backends,
        first: args.first,
        time_limit: args.time_limit,
        node_limit: args.node_limit,
        threads: args.threads,
        max_order: args.max_n,
    })?;
    let bench = entry.build(options, args.files.len())?;
    for note in bench.notes() {
        super::note!("sudokit: {note}");
    }
    let (sink, runs) = (runner::stdout(entry.noun), Runner::new(stop::control()));
    let (read, json) = (args.input.read_options(), args.json);
    let form = Form { json, brief: false };
    let (ran, summary) = bench.run(&args.files, read, &sink, None, &runs, form)?;
    runner::end(sink, ran, &*summary, entry.noun)
}
