//! `sudokit decode PUZZLE --from FORMAT ANSWER`: a solver's answer to an exported file, mapped
//! back to a grid and verified.
//!
//! Prints the grid (puzzle line, or grid block above order 35) and exits 0 when it is a verified
//! solution; prints `unsat` or `unknown` and exits 1 when the solver found none or gave up;
//! exits 1 with the reason on standard error when the answer does not describe a solution;
//! exits 2 with `ANSWER:LINE:COLUMN: message` when the answer file is malformed.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use sudokit::encode::cnf::{CnfOptions, Encoding};
use sudokit::format::{Decoded, ExportOptions, decode_answer, find_reader};
use sudokit::text::to_text;

use super::args::InputArgs;
use super::pick::select_one;

/// Arguments of `decode`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Exit 0: a verified solution; 1: unsat, unknown, or the answer is not a solution; 2: malformed answer.

Examples:
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to cnf > p.cnf && picosat p.cnf > p.out; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from dimacs p.out
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to cnf --encoding optimized > p.cnf; minisat p.cnf p.out; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from minisat --encoding optimized p.out
  sudokit export models/sudoku/9x9/hard.txt --index 1 --to lp > p.lp && glpsol --lp p.lp -o p.sol; sudokit decode models/sudoku/9x9/hard.txt --index 1 --from glpsol p.sol")]
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
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let puzzle = select_one(
        &args.puzzle,
        args.input.read_options(),
        args.index,
        "pick one with --index N",
    )?
    .grid;
    let reader = find_reader(&args.from)?;
    let file = File::open(&args.answer)
        .with_context(|| format!("cannot open {}", args.answer.display()))?;
    let options = ExportOptions {
        cnf: CnfOptions {
            encoding: args.encoding,
            ..CnfOptions::default()
        },
    };
    let decoded =
        decode_answer(&puzzle, reader, &options, &mut BufReader::new(file)).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}:{}: {}",
                args.answer.display(),
                e.line,
                e.column,
                e.kind
            )
        })?;
    let mut out = io::stdout().lock();
    match decoded {
        Decoded::Solution(grid) => {
            write!(out, "{}", with_newline(to_text(&grid)))?;
            Ok(ExitCode::SUCCESS)
        }
        Decoded::Invalid(grid, violation) => {
            super::note!(
                "sudokit: the answer decodes to a grid that is not a solution: {violation}{}\n{}",
                encoding_hint(&args),
                to_text(&grid)
            );
            Ok(ExitCode::from(1))
        }
        Decoded::Unsat => {
            writeln!(out, "unsat")?;
            Ok(ExitCode::from(1))
        }
        Decoded::Unknown => {
            writeln!(out, "unknown")?;
            Ok(ExitCode::from(1))
        }
        Decoded::NotAGrid(reason) => {
            super::note!(
                "sudokit: the answer is not a solution: {reason}{}",
                encoding_hint(&args)
            );
            Ok(ExitCode::from(1))
        }
    }
}

/// For a SAT solver's answer that does not decode to a solution, the usual cause: the CNF was
/// written with another `--encoding` (its first comment line names it).
fn encoding_hint(args: &Args) -> String {
    if matches!(args.from.as_str(), "dimacs" | "minisat") {
        format!(
            " (decoded with --encoding {}: if the CNF was written with another encoding, give the same \
             --encoding here; the CNF's first comment line names it)",
            args.encoding
        )
    } else {
        String::new()
    }
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
