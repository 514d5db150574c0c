//! `sudokit solve FILE`: one answer per puzzle, in input order, solved on all cores.

use std::path::{Path, PathBuf};

use anyhow::Context;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Value, json};
use sudokit::encode::cnf::{Amo, Encoding};
use sudokit::present::{self, json_line, micros};
use sudokit::solve::sat::{ProofClaim, ProofReport, Sat};
use sudokit::solve::{Limits, SolveReport, Solver, UniqueReport};
use sudokit::text::Record;

use super::batch::{self, Answer, Item, Kind};
use super::input::InputArgs;
use super::max_order::MaxNArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::SolverArgs;
use super::stop;

/// Arguments of `solve`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Prints one line per puzzle, in input order: the solution as a puzzle line (a grid block and a blank
line above order 35), or `unsat`, `unknown (time limit)` / `unknown (node limit)`, and with
--unique also `multiple`. Givens that clash are bad input, like unreadable puzzles: reported
in place as `error: FILE:LINE:COLUMN: message`. Every solution is checked by the certificate
verifier before it is printed.

Exit codes: 0 every puzzle solved (and unique with --unique), 1 some puzzle unsat, unknown or (with
--unique) multiple, 2 bad input.

Examples:
  sudokit solve models/sudoku/9x9/top95.txt
  sudokit solve --unique --json models/sudoku/9x9/hard.txt
  sudokit solve --backend norvig --time-limit 1 models/sudoku/16x16/kr_16x16_sample.txt
  echo 1.3.....4....2.. | sudokit solve -
  sudokit solve --backend sat --unique --proof proofs models/sudoku/9x9/hard.txt

With --backend sat --proof DIR, every `unsat` answer, and with --unique every `unique` one, is
backed by a refutation proof: DIR/lineN.cnf (the formula; for `unique` it ends with the clause
that blocks the solution), DIR/lineN.varisat (varisat's proof), DIR/lineN.lrat (the same
refutation in LRAT, for lrat-check or cake_lpr) and DIR/lineN.drat (in DRAT, for drat-trim or
rate). The proof is checked in-process before the line is printed, which then ends with
` (proof: checked, DIR/lineN.varisat)`; JSON gets a \"proof\" object.")]
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
    /// CNF encoding of the sat backend: minimal, efficient, extended, optimized (default extended, as for export; optimized is the fastest).
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

/// `solve`'s options, checked before any work.
struct Config {
    solver: Box<dyn Solver>,
    /// The sat backend again, typed, when `--proof` asks for proofs.
    proofs: Option<(Sat, PathBuf)>,
    limits: Limits,
    threads: usize,
    unique: bool,
    json: bool,
}

impl Config {
    fn new(args: &Args) -> anyhow::Result<Config> {
        let spec = backend_spec(args)?;
        let solver = args
            .max_n
            .guard(args.solver.certified(sudokit::solve::backend(&spec)?))?;
        let proofs = match &args.proof {
            None => None,
            Some(dir) => {
                let sat: Sat = spec
                    .parse()
                    .map_err(|_| anyhow::anyhow!("--proof goes with --backend sat, not {spec}"))?;
                if dir.exists() && !dir.is_dir() {
                    anyhow::bail!(
                        "--proof {}: a file, not a directory (proofs go into a directory: give a new name or a directory)",
                        dir.display()
                    );
                }
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("--proof: cannot create {}", dir.display()))?;
                Some((sat, dir.clone()))
            }
        };
        Ok(Config {
            solver,
            proofs,
            limits: args.solver.limits()?,
            threads: args.solver.threads()?,
            unique: args.unique,
            json: args.json,
        })
    }

    /// The answer to one puzzle.
    fn answer(&self, file: &Path, record: &Record) -> Answer {
        // --timeout: the budget of each puzzle ends at the deadline.
        let limits = stop::clip(&self.limits);
        let (grid, line, json) = (&record.grid, record.line, self.json);
        let rendered = if let Some((sat, dir)) = &self.proofs {
            let stem = format!("line{line}");
            let done = if self.unique {
                sat.unique_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| (render_outcome(&r, line, json), p))
            } else {
                sat.solve_with_proof(grid, &limits, dir, &stem)
                    .map(|(r, p)| (render_answer(&r, line, json), p))
            };
            done.map(|((text, kind), proof)| (with_proof(text, proof.as_ref(), json), kind))
                .map_err(|e| e.to_string())
        } else if self.unique {
            self.solver
                .unique(grid, &limits)
                .map(|r| render_outcome(&r, line, json))
                .map_err(|e| e.to_string())
        } else {
            self.solver
                .solve(grid, &limits)
                .map(|r| render_answer(&r, line, json))
                .map_err(|e| e.to_string())
        };
        match rendered {
            Ok((text, kind)) => Answer { text, kind, line },
            Err(message) => Answer::failure(json, file, line, &message),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::new(&args)?;
    // Clashing givens are bad input (reported with line and column, exit 2), as everywhere; a
    // puzzle that is unsat only after search is answered `unsat`.
    let options = args.input.read_options();
    let framing = if args.json {
        Framing::Lines
    } else {
        Framing::Records
    };
    let mut items = batch::puzzles(&args.file, options)?;
    let sink = Sink::open_for(&args.output, framing, "puzzles", Some(&args.file))?;
    // --resume: the puzzles whose results are already in the output, each checked.
    sink.skip_kept(&mut items, args.json, batch::line_of, kept_solution_solves)?;
    let work = |item: Item| match item {
        Ok(record) => config.answer(&args.file, &record),
        Err(e) => Answer::read_error(args.json, &args.file, &e),
    };
    let Some(tally) = batch::answer_all(config.threads, &mut items, sink, work)? else {
        return Ok(ExitCode::from(1));
    };
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}

/// `--resume`'s own check of a kept result: a solution in it solves its puzzle.
fn kept_solution_solves(text: &str, item: &Item) -> Result<(), String> {
    let Ok(record) = item else {
        return Ok(());
    };
    let solution = if text.starts_with('{') {
        let value: Value = serde_json::from_str(text.trim_end()).map_err(|e| e.to_string())?;
        match value.get("solution").and_then(Value::as_str) {
            Some(grid) => grid.to_string(),
            None => return Ok(()),
        }
    } else {
        let first = text.lines().next().unwrap_or("");
        let words = ["unsat", "multiple", "unknown", "error:"];
        if words.iter().any(|w| first.starts_with(w)) {
            return Ok(());
        }
        // The grid, without a proof note or a claim's (a grid line has no space).
        text.split(" (").next().unwrap_or(text).to_string()
    };
    let grid = solution
        .parse::<sudokit::Grid>()
        .map_err(|e| format!("its solution cannot be read: {e}"))?;
    sudokit::verify(&record.grid, &grid).map_err(|v| format!("its solution is wrong: {v}"))
}

/// The backend spec `--backend` names, with `--scheme`, `--encoding` and `--amo` folded in
/// (`cp:SCHEME`, `sat:ENCODING:AMO`): one spec, built by the registry. A flag that contradicts
/// the spec is refused.
fn backend_spec(args: &Args) -> anyhow::Result<String> {
    let spec = args.solver.spec()?;
    if args.encoding.is_none() && args.amo.is_none() {
        return Ok(spec);
    }
    let Ok(base) = spec.parse::<Sat>() else {
        anyhow::bail!("--encoding and --amo go with --backend sat, not {spec}");
    };
    let named: Vec<&str> = spec.split(':').skip(1).collect();
    let mut options = base.options();
    if let Some(encoding) = args.encoding {
        if let Some(&given) = named.first().filter(|&&e| e != encoding.name()) {
            anyhow::bail!(
                "--backend {spec} names the encoding {given}; --encoding {encoding} contradicts it"
            );
        }
        options.encoding = encoding;
    }
    if let Some(amo) = args.amo {
        if let Some(&given) = named.get(1).filter(|&&a| a != amo.name()) {
            anyhow::bail!(
                "--backend {spec} names the at-most-one encoding {given}; --amo {amo} contradicts it"
            );
        }
        options.amo = amo;
    }
    Ok(Sat::new(options).name().to_string())
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
            "drat": proof.drat.display().to_string(),
            "solve_us": micros(proof.solve_time),
            "check_us": micros(proof.check_time),
            "elapsed_us": micros(proof.total_time),
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

fn render_answer(report: &SolveReport, line: usize, json: bool) -> (String, Kind) {
    kinded(present::solve::answer(
        &report.answer,
        &report.refutation,
        &report.stats,
        line,
        json,
    ))
}

fn render_outcome(report: &UniqueReport, line: usize, json: bool) -> (String, Kind) {
    kinded(present::solve::outcome(
        &report.outcome,
        &report.refutation,
        &report.stats,
        line,
        json,
    ))
}

/// A rendered result with how it counts: the answer asked for, or a negative one.
fn kinded((text, positive): (String, bool)) -> (String, Kind) {
    (
        text,
        if positive {
            Kind::Positive
        } else {
            Kind::Negative
        },
    )
}
