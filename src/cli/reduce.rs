//! `sudokit reduce latin FILE`: Latin square completion → Sudoku, one instance per input square.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use sudokit::reduce::latin::latin_to_sudoku;
use sudokit::text::{Format, ReadOptions, ShapeSpec, to_block, to_json, to_line};

use super::batch::{self, Tally};

/// Arguments of `reduce`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    source: Source,
}

/// The source problem of a reduction.
#[derive(Debug, Subcommand)]
enum Source {
    /// Partial Latin squares (one per line of m² symbols, or grid blocks) → Sudoku of order m².
    #[command(
        after_help = "The Sudoku has m×m boxes; its cells (i, m·q) for i < m carry the Latin \
square and every other cell is given by a fixed pattern, so it is completable exactly when the square \
is. Puzzle lines hold orders up to 35 (m ≤ 5); use --output block or --json for larger m.\n\nExamples:\n  \
sudokit reduce latin models/latin/partial.txt --to sudoku\n  \
sudokit generate-latin --order 4 --holes 9 | sudokit reduce latin - --to sudoku | sudokit info -"
    )]
    Latin(LatinArgs),
}

/// Arguments of `reduce latin`.
#[derive(Debug, ClapArgs)]
struct LatinArgs {
    /// Partial Latin squares (`-` for standard input).
    file: PathBuf,
    /// The target formalism.
    #[arg(long, value_enum, default_value_t = Target::Sudoku)]
    to: Target,
    /// Input form; `auto` decides from the first square.
    #[arg(long, value_enum, default_value_t = super::input::FormatArg::Auto)]
    format: super::input::FormatArg,
    /// How to write each Sudoku: a puzzle line (m ≤ 5), a grid block (any m), or JSON.
    #[arg(long, value_enum, default_value_t = Output::Line)]
    output: Output,
    /// Same as `--output json`.
    #[arg(long)]
    json: bool,
    /// Run the whole chain: reduce, solve the Sudoku, map the solution back, verify each level.
    #[arg(long)]
    solve: bool,
    /// Backend that solves the Sudoku (with --solve).
    #[arg(long, default_value = "native", requires = "solve")]
    backend: String,
    /// Also count Sudoku solutions up to this limit (with --solve): the reduction keeps counts.
    #[arg(long, requires = "solve")]
    count: Option<u64>,
    /// Seconds allowed to the solve step of each square (with --solve).
    #[arg(long, requires = "solve")]
    time_limit: Option<f64>,
    /// Search nodes allowed to the solve step of each square (with --solve).
    #[arg(long, value_name = "N", requires = "solve")]
    node_limit: Option<u64>,
    /// Write a self-contained HTML page of the chain (with --solve).
    #[arg(long, value_name = "FILE.html", requires = "solve")]
    report: Option<PathBuf>,
}

/// Output forms of `reduce latin --to sudoku`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Output {
    /// One puzzle line per square (orders up to 35).
    Line,
    /// One grid block per square, blocks separated by a blank line.
    Block,
    /// One JSON object per square.
    Json,
}

impl LatinArgs {
    fn chain_options(&self) -> anyhow::Result<super::latin_chain::ChainOptions> {
        let time = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(std::time::Duration::from_secs_f64(s)),
            Some(s) => anyhow::bail!("--time-limit must be a positive number of seconds, not {s}"),
        };
        if self.to != Target::Sudoku {
            anyhow::bail!("--solve runs the chain through the Sudoku; drop --to");
        }
        Ok(super::latin_chain::ChainOptions {
            backend: self.backend.clone(),
            count: self.count,
            time,
            nodes: self.node_limit,
            report: self.report.clone(),
            json: self.json || self.output == Output::Json,
        })
    }
}

/// Targets of the Latin-square reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Target {
    /// A Sudoku puzzle of order m².
    Sudoku,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.source {
        Source::Latin(latin) => run_latin(latin),
    }
}

fn latin_options(args: &LatinArgs) -> ReadOptions {
    ReadOptions {
        format: match args.format {
            super::input::FormatArg::Auto => Format::Auto,
            super::input::FormatArg::Line => Format::Line,
            super::input::FormatArg::Block => Format::Block,
            super::input::FormatArg::Json => Format::Json,
        },
        shape: Some(ShapeSpec::Latin),
        reject_clashes: true,
    }
}

fn run_latin(args: LatinArgs) -> anyhow::Result<ExitCode> {
    if args.solve {
        return super::latin_chain::run(&args.file, latin_options(&args), &args.chain_options()?);
    }
    let options = latin_options(&args);
    let output = if args.json { Output::Json } else { args.output };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut tally = Tally::default();
    for item in batch::puzzles(&args.file, options)? {
        tally.total += 1;
        let result = item
            .map_err(|e| batch::located(&args.file, &e))
            .and_then(|record| {
                latin_to_sudoku(&record.grid)
                    .map(|sudoku| (record, sudoku))
                    .map_err(|e| e.to_string())
            })
            .and_then(|(record, sudoku)| {
                let written = match output {
                    Output::Json => {
                        let mut value = to_json(&sudoku);
                        value["line"] = record.line.into();
                        value["latin_order"] = record.grid.shape().order().into();
                        value.to_string() + "\n"
                    }
                    Output::Block => to_block(&sudoku) + "\n",
                    Output::Line => to_line(&sudoku).map(|l| l + "\n").ok_or_else(|| {
                        format!(
                            "{}:{}:1: the Sudoku of order {} cannot be a puzzle line (values above Z = 35); \
                             use --output block or --json",
                            args.file.display(),
                            record.line,
                            sudoku.shape().order()
                        )
                    })?,
                };
                Ok(written)
            });
        match result {
            Err(message) => {
                tally.bad_input += 1;
                if output == Output::Json {
                    batch::write_json(
                        &mut out,
                        &serde_json::json!({"status": "error", "error": message}),
                    )?;
                } else {
                    writeln!(out, "error: {message}")?;
                }
            }
            Ok(written) => {
                debug_assert_eq!(args.to, Target::Sudoku);
                out.write_all(written.as_bytes())?;
            }
        }
    }
    out.flush()?;
    tally.require_some(&args.file)?;
    tally.report_bad_input("squares");
    Ok(tally.exit_code())
}
