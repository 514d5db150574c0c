//! `sudokit verify PUZZLES SOLUTIONS`: the certificate check from the command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::text::ReadOptions;
use sudokit::verify;

use super::batch::{self, Tally};
use super::input::InputArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::stop;

/// Arguments of `verify`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Pairs the n-th puzzle with the n-th solution. Exit 0 if every solution is valid, \
1 if any is not, 2 on bad input.\n\nExamples:\n  sudokit verify models/sudoku/9x9/top95.txt \
models/sudoku/9x9/top95.solutions.txt\n  sudokit solve puzzles.txt | sudokit verify puzzles.txt -"
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
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.puzzles.as_os_str() == "-" && args.solutions.as_os_str() == "-" {
        anyhow::bail!("only one of PUZZLES and SOLUTIONS can be standard input");
    }
    let options = args.input.read_options();
    let mut puzzles = batch::puzzles(&args.puzzles, options)?;
    // A repeated value in a candidate is what verification reports, not unreadable input.
    let candidate_options = ReadOptions {
        reject_clashes: false,
        ..options
    };
    let mut solutions = batch::puzzles(&args.solutions, candidate_options)?;
    // One result per pair, written whole and flushed: an interruption leaves a valid prefix.
    let sink = Sink::open(&args.output, Framing::Lines, "pairs")?;
    let sink_skipped = sink.skip();
    // --resume: the pairs whose results are already in the output.
    for _ in 0..sink.skip() {
        puzzles.next();
        solutions.next();
    }
    let mut tally = Tally::default();
    let mut out = Vec::new();
    let mut complete = true;
    loop {
        if stop::expired() {
            // --timeout: complete only if nothing was left.
            complete = puzzles.next().is_none() && solutions.next().is_none();
            break;
        }
        out.clear();
        let (puzzle, solution) = match (puzzles.next(), solutions.next()) {
            (None, None) => break,
            (Some(p), Some(s)) => (p, s),
            (p, s) => {
                // One file ended first: every unpaired entry is reported, then the mismatch.
                tally.total += 1;
                tally.bad_input += 1;
                let (file, other, line) = match (&p, &s) {
                    (Some(item), None) => (&args.solutions, &args.puzzles, batch::line_of(item)),
                    (None, Some(item)) => (&args.puzzles, &args.solutions, batch::line_of(item)),
                    _ => unreachable!("both ended or both present"),
                };
                let message = format!(
                    "{} ended before {} (whose entry at line {line} has no partner)",
                    file.display(),
                    other.display()
                );
                if args.json {
                    batch::write_json(&mut out, &json!({"status": "error", "error": message}))?;
                } else {
                    writeln!(out, "error: {message}")?;
                }
                sink.write(&String::from_utf8_lossy(&out), line)?;
                continue;
            }
        };
        let line = batch::line_of(&puzzle);
        tally.total += 1;
        let report = match (&puzzle, &solution) {
            (Err(e), _) => Err(batch::located(&args.puzzles, e)),
            (_, Err(e)) => Err(batch::located(&args.solutions, e)),
            (Ok(p), Ok(s)) => Ok((p, s, verify(&p.grid, &s.grid))),
        };
        match report {
            Err(message) => {
                tally.bad_input += 1;
                if args.json {
                    batch::write_json(&mut out, &json!({"status": "error", "error": message}))?;
                } else {
                    writeln!(out, "error: {message}")?;
                }
            }
            Ok((p, s, verdict)) => {
                if verdict.is_err() {
                    tally.negative += 1;
                }
                if args.json {
                    let value = json!({
                        "puzzle_line": p.line,
                        "solution_line": s.line,
                        "valid": verdict.is_ok(),
                        "violation": verdict.as_ref().err().map(|v| v.to_string()),
                    });
                    batch::write_json(&mut out, &value)?;
                } else {
                    match verdict {
                        Ok(()) => writeln!(out, "line {}: valid", p.line)?,
                        Err(v) => writeln!(out, "line {}: invalid: {v}", p.line)?,
                    }
                }
            }
        }
        sink.write(&String::from_utf8_lossy(&out), line)?;
    }
    if !sink.finish(complete)? {
        return Ok(ExitCode::from(1));
    }
    if sink_skipped == 0 {
        tally.require_some(&args.puzzles)?;
    }
    tally.report_bad_input("pairs");
    Ok(tally.exit_code())
}
