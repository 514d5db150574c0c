//! `sudokit decode PUZZLE --from FORMAT ANSWER`: a solver's answer to an exported file, mapped
//! back to a grid and verified.
//!
//! Prints every model of the answer in order, each verified (the grid, or why it is not a
//! solution), then for an enumeration the count and what the solver says of the rest
//! ([`sudokit::jobs::decode`]); exits 0 when every model is a verified solution, 1 when one
//! is not or when there is none (`unsat`, `unknown`), 2 with `ANSWER:LINE:COLUMN: message`
//! when the answer cannot be read or does not fit the puzzle.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use sudokit::Grid;
use sudokit::encode::cnf::{CnfOptions, Encoding};
use sudokit::format::{Decoded, ExportOptions, decode_answers, find_reader};
use sudokit::jobs::decode;
use sudokit::text::{PuzzleReader, to_text};

use super::args::InputArgs;
use super::lists;
use super::pick::select_one;

/// Arguments of `decode`.
#[derive(Debug, ClapArgs)]
#[command(after_help = after_help())]
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
fn after_help() -> String {
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
        ..ExportOptions::default()
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut models, mut solutions) = (0usize, 0usize);
    let mut end = None;
    let mut written = Ok(());
    let read = decode_answers(
        &puzzle,
        reader,
        &options,
        &mut BufReader::with_capacity(1 << 16, file),
        &mut |decoded| {
            match &decoded {
                Decoded::Unsat | Decoded::Unknown => {
                    end = Some(decoded);
                    return false;
                }
                Decoded::Solution(_) => solutions += 1,
                Decoded::Invalid(grid, violation) if models == solutions => super::note!(
                    "sudokit: model {} decodes to a grid that is not a solution: {violation}{}\n{}",
                    models + 1,
                    index_hint(&args, grid).unwrap_or_else(|| encoding_hint(&args)),
                    to_text(grid)
                ),
                Decoded::NotAGrid(reason) if models == solutions => super::note!(
                    "sudokit: model {} is not a solution: {reason}{}",
                    models + 1,
                    encoding_hint(&args)
                ),
                _ => {}
            }
            models += 1;
            written = out.write_all(decode::model(&decoded, models, args.json).as_bytes());
            written.is_ok()
        },
    );
    written?;
    read.map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: {}",
            args.answer.display(),
            e.line,
            e.column,
            e.kind
        )
    })?;
    out.write_all(decode::summary(models, solutions, end.as_ref(), args.json).as_bytes())?;
    out.flush()?;
    Ok(ExitCode::from(u8::from(models == 0 || solutions < models)))
}

/// For a model that solves another puzzle of the file than the one picked: the `--index` the
/// answer was made for (the file is read again, once; not for standard input).
fn index_hint(args: &Args, grid: &Grid) -> Option<String> {
    if args.puzzle.as_os_str() == "-" {
        return None;
    }
    let file = File::open(&args.puzzle).ok()?;
    let reader = PuzzleReader::new(BufReader::new(file), args.input.read_options());
    decode::index_hint(
        grid,
        reader,
        &args.puzzle.display().to_string(),
        args.index.unwrap_or(1),
    )
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
