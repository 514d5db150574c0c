//! `sudokit solve FILE`: one answer per puzzle, in input order, solved on all cores.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Value, json};
use sudokit::Grid;
use sudokit::encode::cnf::{Amo, Encoding};
use sudokit::solve::sat::{ProofClaim, ProofReport, Sat};
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
  echo 1.3.....4....2.. | sudokit solve -
  sudokit solve --backend sat --unique --proof proofs models/sudoku/9x9/top95.txt

With --backend sat --proof DIR, every `unsat` answer, and with --unique every `unique` one, is
backed by a refutation proof: DIR/lineN.cnf (the formula; for `unique` it ends with the clause
that blocks the solution), DIR/lineN.varisat (varisat's proof) and DIR/lineN.lrat (the same
refutation in LRAT, for lrat-check or cake_lpr). The proof is checked in-process before the line
is printed, which then ends with ` (proof: checked, DIR/lineN.varisat)`; JSON gets a \"proof\"
object.")]
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
    /// CNF encoding of the sat backend: minimal, efficient, extended, optimized (default optimized).
    #[arg(long, value_name = "ENCODING")]
    encoding: Option<Encoding>,
    /// At-most-one encoding of the sat backend: pairwise, sequential, product, bimander
    /// (default pairwise).
    #[arg(long, value_name = "AMO")]
    amo: Option<Amo>,
    /// With --backend sat: write each unsat (and, with --unique, unique) answer's proof to DIR
    /// and check it.
    #[arg(long, value_name = "DIR")]
    proof: Option<PathBuf>,
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
    let mut solver = args.solver.solver()?;
    let sat = sat_variant(&args)?;
    if let Some(sat) = &sat {
        solver = Box::new(sudokit::solve::Verified(sat.clone()));
    }
    let solver = args.max_n.guard(solver)?;
    let proof_dir = args.proof.as_deref();
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
        if let (Some(sat), Some(dir)) = (&sat, proof_dir) {
            let stem = format!("line{line}");
            let done = if unique {
                sat.unique_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| (render_outcome(&r.outcome, &r.stats, line, json), p))
            } else {
                sat.solve_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| (render_answer(&r.answer, &r.stats, line, json), p))
            };
            return match done {
                Err(e) => fail(e.to_string()),
                Ok(((text, kind), proof)) => (with_proof(text, proof.as_ref(), json), kind),
            };
        }
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
        let line = batch::line_of(&item);
        let (text, kind) = work(item);
        (text, kind, line)
    };
    let mut tally = Tally::default();
    let finished = ordered_batch(&pool, items.by_ref(), answer, |(text, kind, line)| {
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
    let complete = finished && items.next().is_none();
    if !sink.finish(complete)? {
        return Ok(ExitCode::from(1));
    }
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

/// The sat backend that --encoding, --amo or --proof ask for, if any: the --backend spec
/// (`sat`, `sat:ENCODING[:AMO]`) with the flags on top.
fn sat_variant(args: &Args) -> anyhow::Result<Option<Sat>> {
    if args.encoding.is_none() && args.amo.is_none() && args.proof.is_none() {
        return Ok(None);
    }
    let backend = &args.solver.backend;
    let Ok(base) = backend.parse::<Sat>() else {
        anyhow::bail!("--encoding, --amo and --proof go with --backend sat, not {backend}");
    };
    let mut options = base.options();
    options.encoding = args.encoding.unwrap_or(options.encoding);
    options.amo = args.amo.unwrap_or(options.amo);
    Ok(Some(Sat::new(options)))
}

/// Adds a checked proof to a rendered answer: ` (proof: checked, FILE)` at the end of the
/// answer's line (on a line of its own after a grid block), or a "proof" object in JSON.
fn with_proof(text: String, proof: Option<&ProofReport>, json: bool) -> String {
    let Some(proof) = proof else {
        return text;
    };
    if json {
        let mut value: Value = serde_json::from_str(&text).expect("rendered JSON parses");
        value["proof"] = json!({
            "status": "checked",
            "claim": match proof.claim {
                ProofClaim::Unsat => "unsat",
                ProofClaim::Unique => "unique",
            },
            "cnf": proof.cnf.display().to_string(),
            "proof": proof.proof.display().to_string(),
            "lrat": proof.lrat.display().to_string(),
            "solve_us": proof.solve_time.as_secs_f64() * 1e6,
            "check_us": proof.check_time.as_secs_f64() * 1e6,
            "elapsed_us": proof.total_time.as_secs_f64() * 1e6,
        });
        return json_line(&value);
    }
    let note = format!("(proof: checked, {})", proof.proof.display());
    match text.strip_suffix('\n') {
        Some(line) if !line.contains('\n') => format!("{line} {note}\n"),
        _ => format!(
            "{}{note}\n\n",
            text.trim_end_matches('\n').to_string() + "\n"
        ),
    }
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
