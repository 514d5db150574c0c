//! `sudokit solve FILE`: the flags of the library's solve job ([`sudokit::jobs::solve`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::solve::{SolveJob, SolveOptions};

use super::args::{InputArgs, OutputArgs, SolverArgs};
use super::runner;

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
  sudokit solve models/sudoku/9x9/top95.txt -o top95.solutions --resume

With --backend sat --proof DIR, every `unsat` answer, and with --unique every `unique` one, is
backed by a refutation proof: DIR/lineN.cnf (the formula; for `unique` it ends with the clause
that blocks the solution), DIR/lineN.varisat (varisat's proof), DIR/lineN.lrat (the same
refutation in LRAT, for lrat-check or cake_lpr) and DIR/lineN.drat (in DRAT, for drat-trim or
rate). The proof is checked in-process before the line is printed, which then ends with
` (proof: checked, DIR/lineN.varisat)`; JSON gets a \"proof\" object.")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    solver: SolverArgs,
    /// Decide uniqueness: count up to two solutions; print `multiple` when there are two.
    #[arg(long)]
    unique: bool,
    /// One JSON object per puzzle: status, solution, second (when multiple), stats, line.
    #[arg(long)]
    json: bool,
    /// With --backend sat: write each unsat (and, with --unique, unique) answer's proof to DIR
    /// and check it.
    #[arg(long = "proof", value_name = "DIR")]
    proof_dir: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (solver, run) = args.solver.options();
    let job = SolveJob::new(SolveOptions {
        solver,
        run,
        unique: args.unique,
        proof_dir: args.proof_dir.clone(),
        ..SolveOptions::default()
    })?;
    runner::plain(
        &job,
        std::slice::from_ref(&args.file),
        args.input.read_options(),
        Some(&args.output),
        args.json,
    )
}
