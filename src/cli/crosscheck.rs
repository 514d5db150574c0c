//! `sudokit crosscheck FILE`: the flags of the library's crosscheck job
//! ([`sudokit::jobs::crosscheck`]), then its summary table.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::crosscheck::{CrosscheckJob, CrosscheckOptions, DEFAULT_TIME_LIMIT};

use super::args::{InputArgs, LimitArgs, time_limit_help};
use super::runner;

/// Arguments of `crosscheck`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Runs every backend on every puzzle (count up to --limit, 2 = uniqueness), verifies every solution
with the certificate verifier, and compares the answers as claims on the number of solutions: a
complete count k claims exactly k, a count that reached the limit claims at least the limit, a
run stopped by a budget claims at least what it found (unknown). The claims must share a value.
Prints one row per puzzle, the puzzle and every answer when they disagree, and a summary table
per backend (agreed, disagreed, unknown, skipped, mean time).

Default backends: every exact backend compiled in (the heuristic grasp only when named, since it
cannot settle a count; the external solvers only with --external). --external adds every solver
of the solver table found here (`sudokit solvers` lists them: SAT solvers on the CNF, clasp on
OPB, clingo on ASP, z3 and cvc5 on SMT-LIB, glpsol, cbc, lp_solve, HiGHS and SCIP on LP/MPS,
miniexact and dlx1 on the exact cover, MiniZinc), each run on the exported puzzle and run again
with the solutions found ruled out to count; --external z3,clasp picks some (put it after FILE,
or write --external=z3,clasp).
--inject-fault BACKEND:grid|unsat adds a deliberately wrong copy of a backend, to see the checks
catch it.

Exit codes: 0 all answers agree, 1 some disagreement (or --timeout stopped the batch), 2 bad
input.

Examples:
  sudokit crosscheck models/sudoku/9x9/hard.txt --backends native,dlx,sat,colour
  sudokit crosscheck models/sudoku/4x4/kr_4x4_sample.txt --external --json
  sudokit crosscheck models/sudoku/9x9/hard.txt --backends native --external=z3,clasp,minisat
  sudokit crosscheck models/sudoku/9x9/easy.txt --backends native,norvig --inject-fault native:unsat")]
#[command(mut_arg(
    "time_limit",
    time_limit_help("backend and puzzle", DEFAULT_TIME_LIMIT)
))]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    input: InputArgs,
    /// Comma-separated backends (default: every exact backend compiled in).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    backends: Vec<String>,
    /// Also run the external solvers of the solver table: every one found, or those named
    /// (--external z3,clasp).
    #[arg(long, value_name = "LIST", num_args = 0..=1, value_delimiter = ',')]
    external: Option<Vec<String>>,
    /// Count at most N solutions (2 decides uniqueness).
    #[arg(long, value_name = "N", default_value_t = 2)]
    limit: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// Add a deliberately faulty copy of a backend: BACKEND:grid (corrupted solutions) or
    /// BACKEND:unsat (claims no solution). Repeatable.
    #[arg(long, value_name = "BACKEND:FAULT")]
    inject_fault: Vec<String>,
    /// One JSON object per puzzle, then one with the summary.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = CrosscheckJob::new(CrosscheckOptions {
        backends: args.backends.clone(),
        external: args.external.clone(),
        limit: args.limit,
        run: args.limits.options(),
        inject_fault: args.inject_fault.clone(),
        ..CrosscheckOptions::default()
    })?;
    // Each row is written whole, in input order: an interruption leaves a valid prefix and says
    // how far it got; the summary covers the puzzles checked.
    runner::plain(
        &job,
        std::slice::from_ref(&args.file),
        args.input.read_options(),
        None,
        args.json,
    )
}
