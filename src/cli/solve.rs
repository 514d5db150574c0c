//! `sudokit solve FILE`: one answer per puzzle, in input order, solved on all cores.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Value, json};
use sudokit::Grid;
use sudokit::solve::{Answer, Outcome, Stats};
use sudokit::text;

use super::batch::{self, Item, Tally};
use super::input::InputArgs;
use super::max_order::MaxNArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::{SolverArgs, ordered_batch};
use super::stop;

/// Arguments of `solve`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Prints one line per puzzle, in input order: the solution as a puzzle line (a grid block and a blank
line above order 35), or `unsat`, `unknown (time limit)` / `unknown (node limit)`, and with
--unique also `multiple`. Puzzles whose givens clash are `unsat`. Unreadable puzzles are reported
in place as `error: FILE:LINE:COLUMN: message`. Every solution is checked by the certificate
verifier before it is printed.

Exit codes: 0 every puzzle solved (and unique with --unique), 1 some puzzle unsat, unknown or (with
--unique) multiple, 2 bad input.

Examples:
  sudokit solve models/sudoku/9x9/top95.txt
  sudokit solve --unique --json models/sudoku/9x9/hard.txt
  sudokit solve --backend norvig --time-limit 1 models/sudoku/16x16/kr_16x16_sample.txt
  echo 1.3.....4....2.. | sudokit solve -")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    max_n: MaxNArgs,
    /// Decide uniqueness: count up to two solutions; print `multiple` when there are two.
    #[arg(long)]
    unique: bool,
    /// One JSON object per puzzle: status, solution, second (when multiple), stats, line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// What a puzzle's line counts as in the tally.
enum Kind {
    Positive,
    Negative,
    Bad,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let solver = args.max_n.guard(args.solver.solver()?)?;
    let limits = args.solver.limits()?;
    let pool = args.solver.pool()?;
    // Clashing givens are bad input (reported with line and column, exit 2), as everywhere; a
    // puzzle that is unsat only after search is answered `unsat`.
    let options = args.input.read_options();
    let framing = if args.json {
        Framing::Lines
    } else {
        Framing::Records
    };
    let sink = Sink::open(&args.output, framing, "puzzles")?;
    let mut items = batch::puzzles(&args.file, options)?;
    // --resume: the puzzles whose results are already in the output.
    items.by_ref().take(sink.skip()).for_each(drop);
    let (file, json, unique) = (&args.file, args.json, args.unique);
    let work = |item: Item| -> (String, Kind) {
        let record = match item {
            Ok(record) => record,
            Err(e) => {
                let text = if json {
                    json_line(&batch::error_json(file, &e))
                } else {
                    format!("error: {}\n", batch::located(file, &e))
                };
                return (text, Kind::Bad);
            }
        };
        // --timeout: the budget of each puzzle ends at the deadline.
        let limits = stop::clip(&limits);
        let line = record.line;
        let fail = |message: String| {
            let text = if json {
                json_line(&json!({"line": line, "status": "error", "error": message}))
            } else {
                format!("error: {}:{line}:1: {message}\n", file.display())
            };
            (text, Kind::Bad)
        };
        let grid = &record.grid;
        if unique {
            match solver.unique(grid, &limits) {
                Err(e) => fail(e.to_string()),
                Ok(report) => render_outcome(&report.outcome, &report.stats, line, json),
            }
        } else {
            match solver.solve(grid, &limits) {
                Err(e) => fail(e.to_string()),
                Ok(report) => render_answer(&report.answer, &report.stats, line, json),
            }
        }
    };
    let answer = |item: Item| -> (String, Kind, usize) {
        let line = match &item {
            Ok(record) => record.line,
            Err(e) => e.line,
        };
        let (text, kind) = work(item);
        (text, kind, line)
    };
    let mut tally = Tally::default();
    ordered_batch(&pool, items.by_ref(), answer, |(text, kind, line)| {
        tally.total += 1;
        match kind {
            Kind::Positive => {}
            Kind::Negative => tally.negative += 1,
            Kind::Bad => tally.bad_input += 1,
        }
        sink.write(&text, line)?;
        Ok(())
    })?;
    // The input is exhausted unless --timeout stopped the batch.
    let complete = items.next().is_none();
    if !sink.finish(complete)? {
        return Ok(ExitCode::from(1));
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

fn json_line(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// A solution as printed: a puzzle line, or a grid block followed by a blank line.
fn grid_text(grid: &Grid) -> String {
    match text::to_line(grid) {
        Some(line) => line + "\n",
        None => text::to_block(grid) + "\n",
    }
}

/// A solution inside JSON: the puzzle line, or the grid block.
fn grid_json(grid: &Grid) -> Value {
    Value::String(text::to_text(grid))
}

/// The JSON object of the counters.
pub fn stats_json(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "guesses": stats.guesses,
        "propagations": stats.propagations,
        "elapsed_us": stats.elapsed.as_secs_f64() * 1e6,
    })
}

fn render_answer(answer: &Answer, stats: &Stats, line: usize, json: bool) -> (String, Kind) {
    let kind = match answer {
        Answer::Solved(_) => Kind::Positive,
        _ => Kind::Negative,
    };
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match answer {
            Answer::Solved(g) => {
                value["status"] = "solved".into();
                value["solution"] = grid_json(g);
            }
            Answer::Unsat => value["status"] = "unsat".into(),
            Answer::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match answer {
            Answer::Solved(g) => grid_text(g),
            Answer::Unsat => "unsat\n".to_string(),
            Answer::Unknown(reason) => format!("unknown ({reason})\n"),
        }
    };
    (text, kind)
}

fn render_outcome(outcome: &Outcome, stats: &Stats, line: usize, json: bool) -> (String, Kind) {
    let kind = match outcome {
        Outcome::Unique(_) => Kind::Positive,
        _ => Kind::Negative,
    };
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match outcome {
            Outcome::Unique(g) => {
                value["status"] = "unique".into();
                value["solution"] = grid_json(g);
            }
            Outcome::Multiple(a, b) => {
                value["status"] = "multiple".into();
                value["solution"] = grid_json(a);
                value["second"] = grid_json(b);
            }
            Outcome::Unsat => value["status"] = "unsat".into(),
            Outcome::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match outcome {
            Outcome::Unique(g) => grid_text(g),
            Outcome::Multiple(..) => "multiple\n".to_string(),
            Outcome::Unsat => "unsat\n".to_string(),
            Outcome::Unknown(reason) => format!("unknown ({reason})\n"),
        }
    };
    (text, kind)
}
