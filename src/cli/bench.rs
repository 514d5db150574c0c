//! `sudokit bench FILE... --backends a,b`: per backend and file, throughput and time percentiles.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::bench::{self, BenchRow};
use sudokit::jobs::capped::capped;
use sudokit::jobs::item::puzzles_until;
use sudokit::jobs::record_text::{json_line, rounded};
use sudokit::jobs::{JobRecord, Tally, options};
use sudokit::solve;

use super::args::InputArgs;
use super::stop;

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
    let limits = options::limits(Some(args.time_limit), args.node_limit)?;
    if let Some(note) = options::threads_note(Some(args.threads)) {
        super::note!("sudokit: {note}");
    }
    let threads = options::threads(Some(args.threads))?;
    options::at_least_one("first", args.first)?;
    let solvers = args
        .backends
        .iter()
        .map(|name| Ok(capped(solve::backend(name)?, args.max_n)?))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if solvers.is_empty() {
        bail!("--backends names no backend");
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut tally = Tally::default();
    // The backend column fits the longest name (`sat:extended:sequential`).
    let width = solvers
        .iter()
        .map(|s| s.name().len())
        .max()
        .unwrap_or(0)
        .max(9);
    if !args.json {
        writeln!(
            out,
            "{:<32} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>10} {:>10} {:>10} {:>9} {:>7} {:>6} {:>6} {:>6}",
            "file",
            "backend",
            "puzzles",
            "solved",
            "unsat",
            "unknown",
            "puzzles/s",
            "median µs",
            "p99 µs",
            "guesses",
            "noguess",
            "≤0.1s",
            "≤1s",
            "≤10s"
        )?;
    }
    for file in &args.files {
        let mut grids = Vec::new();
        for item in puzzles_until(file, args.input.read_options(), &stop::control().stop)? {
            if args.first.is_some_and(|l| grids.len() >= l) {
                break;
            }
            match item.read_puzzle() {
                Ok(puzzle) => {
                    tally.add(sudokit::jobs::Status::Done);
                    grids.push(puzzle.grid.clone());
                }
                Err(e) => {
                    tally.add(e.status());
                    super::note!("{}", e.text().trim_end());
                }
            }
        }
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        for solver in &solvers {
            let row = bench::run(&**solver, &grids, &stop::control().limits(&limits), threads)
                .with_context(|| format!("{} on {}", solver.name(), file.display()))?;
            if args.json {
                let mut value = serde_json::to_value(&row)?;
                // Rates and times to a useful precision, without float noise.
                for (key, places) in [
                    ("puzzles_per_second", 1),
                    ("wall_seconds", 6),
                    ("median_us", 3),
                    ("p99_us", 3),
                    ("guesses_per_puzzle", 3),
                    ("no_guess_percent", 2),
                ] {
                    if let Some(x) = value.get(key).and_then(serde_json::Value::as_f64) {
                        value[key] = json!(rounded(x, places));
                    }
                }
                value["file"] = json!(file.display().to_string());
                out.write_all(json_line(&value).as_bytes())?;
            } else {
                write_row(&mut out, &name, &row, width)?;
            }
            out.flush()?;
        }
    }
    out.flush()?;
    if let Some(note) = tally.errors_note("puzzles") {
        super::note!("sudokit: {note}");
    }
    Ok(ExitCode::from(tally.exit_code()))
}

fn write_row(out: &mut impl Write, file: &str, row: &BenchRow, width: usize) -> io::Result<()> {
    writeln!(
        out,
        "{:<32} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>10.1} {:>10.1} {:>10.1} {:>9.2} {:>6.1}% {:>6} {:>6} {:>6}",
        file,
        row.backend,
        row.puzzles,
        row.solved,
        row.unsat,
        row.unknown,
        row.puzzles_per_second,
        row.median_us,
        row.p99_us,
        row.guesses_per_puzzle,
        row.no_guess_percent,
        row.within[0],
        row.within[1],
        row.within[2]
    )
}
