//! `sudokit verify PUZZLES SOLUTIONS`: the certificate check from the command line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::text::ReadOptions;
use sudokit::verify;

use super::batch::{self, Answer, Kind};
use super::input::InputArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::cores;

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
    let sink = Sink::open_for(&args.output, Framing::Lines, "pairs", Some(&args.puzzles))?;
    // The pairs, and the entries of the longer file that have no partner.
    let mut pairs = std::iter::from_fn(|| match (puzzles.next(), solutions.next()) {
        (None, None) => None,
        (Some(p), Some(s)) => Some(Pair::Both(p, s)),
        (Some(p), None) => Some(Pair::Unpaired(&args.solutions, &args.puzzles, p)),
        (None, Some(s)) => Some(Pair::Unpaired(&args.puzzles, &args.solutions, s)),
    });
    // --resume: the pairs whose results are already in the output, each checked.
    sink.skip_kept(&mut pairs, args.json, Pair::line, |_, _| Ok(()))?;
    let json = args.json;
    let work = |pair: Pair| -> Answer {
        let mut out = Vec::new();
        let (kind, line) = match pair {
            Pair::Unpaired(ended, other, item) => {
                let line = batch::line_of(&item);
                let message = format!(
                    "{} ended before {} (whose entry at line {line} has no partner)",
                    ended.display(),
                    other.display()
                );
                write_error(&mut out, json, &message);
                (Kind::Bad, line)
            }
            Pair::Both(puzzle, solution) => {
                let line = batch::line_of(&puzzle);
                let kind = match (&puzzle, &solution) {
                    (Err(e), _) => {
                        write_error(&mut out, json, &batch::located(&args.puzzles, e));
                        Kind::Bad
                    }
                    (_, Err(e)) => {
                        write_error(&mut out, json, &batch::located(&args.solutions, e));
                        Kind::Bad
                    }
                    (Ok(p), Ok(s)) => {
                        let verdict = verify(&p.grid, &s.grid);
                        if json {
                            let value = json!({
                                "puzzle_line": p.line,
                                "solution_line": s.line,
                                "valid": verdict.is_ok(),
                                "violation": verdict.as_ref().err().map(|v| v.to_string()),
                            });
                            batch::write_json(&mut out, &value).expect("to memory");
                        } else {
                            match &verdict {
                                Ok(()) => writeln!(out, "line {}: valid", p.line),
                                Err(v) => writeln!(out, "line {}: invalid: {v}", p.line),
                            }
                            .expect("to memory");
                        }
                        if verdict.is_ok() {
                            Kind::Positive
                        } else {
                            Kind::Negative
                        }
                    }
                };
                (kind, line)
            }
        };
        Answer::written(kind, line, |o| o.write_all(&out))
    };
    let Some(tally) = batch::answer_all(cores(), &mut pairs, sink, work)? else {
        return Ok(ExitCode::from(1));
    };
    tally.report_bad_input("pairs");
    Ok(tally.exit_code())
}

/// One step through the two files.
enum Pair<'a> {
    /// A puzzle and its candidate.
    Both(batch::Item, batch::Item),
    /// An entry of one file after the other (first path) ended.
    Unpaired(&'a Path, &'a Path, batch::Item),
}

impl Pair<'_> {
    /// The input line the pair's result stands for.
    fn line(&self) -> usize {
        match self {
            Pair::Both(puzzle, _) => batch::line_of(puzzle),
            Pair::Unpaired(_, _, item) => batch::line_of(item),
        }
    }
}

/// An error reported in place: `error: message`, or its JSON object.
fn write_error(out: &mut Vec<u8>, json: bool, message: &str) {
    if json {
        batch::write_json(out, &json!({"status": "error", "error": message})).expect("to memory");
    } else {
        writeln!(out, "error: {message}").expect("to memory");
    }
}
