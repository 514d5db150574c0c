//! `sudokit decode PUZZLE --from FORMAT ANSWER`: the flags of the library's decode job
//! ([`sudokit::jobs::decode`]: every model of the answer in order, each verified, then the
//! count and what the solver says of the rest); exits 0 when every model is a verified
//! solution, 1 when one is not or when there is none (`unsat`, `unknown`), 2 with
//! `ANSWER:LINE:COLUMN: message` when the answer cannot be read or does not fit the puzzle.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::encode::cnf::Encoding;
use sudokit::jobs::decode::{DecodeJob, DecodeOptions};

use super::args::InputArgs;
use super::{lists, runner};

/// Arguments of `decode`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// Answer form (the solver's output; `--help` says which solver writes each).
    #[arg(long, value_name = "READER")]
    from: String,
    /// The solver's answer file.
    answer: PathBuf,
    /// CNF encoding of the exported file (only `optimized` numbers variables differently).
    #[arg(long, value_name = "ENCODING", default_value_t = Encoding::Extended)]
    encoding: Encoding,
    /// The N-th puzzle of the file (1-based), as given to `export --index`.
    #[arg(long, value_name = "N")]
    index: Option<usize>,
    #[command(flatten)]
    input: InputArgs,
    /// One JSON line per model, then a summary line with the count.
    #[arg(long)]
    json: bool,
}

/// The text after the options: what is printed, the solvers that enumerate (from the solver
/// table), exit codes, examples.
pub(super) fn after_help() -> String {
    let said = format!(
        "Every model of the answer is printed in order, each checked by the certificate verifier: \
         one for a solver asked for one solution, all of them for an enumeration (as the solver \
         table runs them: {}), followed by their count and what the \
         solver says of the rest. A solver's \"no other solution\" (and its unsat) is its claim: \
         decode has no proof to check.",
        lists::enumerating_solvers()
    );
    format!(
        "{}
Exit 0: every model is a verified solution; 1: unsat, unknown, or a model that is not a solution;
2: an answer that cannot be read or does not fit the puzzle (a variable, vertex or value outside
its order, a solution of the wrong size).

Examples:
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to cnf > p.cnf && picosat p.cnf > p.out; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from dimacs p.out
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to cnf --encoding optimized > p.cnf; minisat p.cnf p.out; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from minisat --encoding optimized p.out
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to lp > p.lp && glpsol --lp p.lp -o p.sol; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from glpsol p.sol",
        lists::wrap(&said, 0)
    )
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = DecodeJob::new(DecodeOptions {
        reader: args.from,
        encoding: args.encoding.to_string(),
        index: args.index,
        threads: None,
    })?;
    let inputs = [args.puzzle, args.answer];
    runner::plain(&job, &inputs, args.input.read_options(), None, args.json)
}
