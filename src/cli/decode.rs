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
use clap::{Args as ClapArgs, ValueEnum};
use sudokit::encode::cnf::Encoding;
use sudokit::encode::ilp::{self, IlpStatus};
use sudokit::format::dimacs::{self, Answer, AnswerFormat};
use sudokit::format::mip_answer;
use sudokit::text::to_text;
use sudokit::{Grid, verify};

use super::input::InputArgs;

/// Arguments of `decode`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Answer forms: dimacs = SAT-competition 's'/'v' lines (picosat, cadical, kissat, ...);
minisat = minisat's result file; glpsol = the report of 'glpsol --lp FILE -o ANSWER';
cbc = the file of 'cbc FILE solve solu ANSWER'.
Exit 0: a verified solution; 1: unsat, unknown, or the answer is not a solution; 2: malformed answer.

Examples:
  sudokit export p.txt --to cnf > p.cnf && picosat p.cnf > p.out; sudokit decode p.txt --from dimacs p.out
  sudokit export p.txt --to cnf --encoding optimized > p.cnf && minisat p.cnf p.out
  sudokit decode p.txt --from minisat --encoding optimized p.out
  sudokit export p.txt --to lp > p.lp && glpsol --lp p.lp -o p.sol; sudokit decode p.txt --from glpsol p.sol")]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// Answer form.
    #[arg(long, value_enum)]
    from: From,
    /// The solver's answer file.
    answer: PathBuf,
    /// CNF encoding of the exported file (only `optimized` numbers variables differently).
    #[arg(long, default_value_t = Encoding::Extended)]
    encoding: Encoding,
    /// The K-th puzzle of the file (1-based), as given to `export --index`.
    #[arg(long, value_name = "K")]
    index: Option<usize>,
    #[command(flatten)]
    input: InputArgs,
}

/// `--from` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// SAT-competition output (`s` and `v` lines).
    Dimacs,
    /// minisat's result file.
    Minisat,
    /// glpsol's printable report (`-o`).
    Glpsol,
    /// cbc's solution file (`solu`).
    Cbc,
}

/// What the answer says about the puzzle.
enum Verdict {
    Grid(Grid),
    NoSolution(&'static str),
    NotASolution(String),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.index == Some(0) {
        anyhow::bail!("--index counts from 1");
    }
    let reader = super::batch::puzzles(&args.puzzle, args.input.read_options())?;
    let puzzle = super::export::select_one(&args.puzzle, reader, args.index)?.grid;
    let file = File::open(&args.answer)
        .with_context(|| format!("cannot open {}", args.answer.display()))?;
    let input = BufReader::new(file);
    let located = |line: usize, column: usize, message: String| {
        anyhow::anyhow!("{}:{line}:{column}: {message}", args.answer.display())
    };
    let verdict = match args.from {
        From::Dimacs | From::Minisat => {
            let format = if args.from == From::Dimacs {
                AnswerFormat::Competition
            } else {
                AnswerFormat::Minisat
            };
            let answer = dimacs::read_answer(input, format)
                .map_err(|e| located(e.line, e.column, e.kind.to_string()))?;
            match answer {
                Answer::Unsat => Verdict::NoSolution("unsat"),
                Answer::Unknown => Verdict::NoSolution("unknown"),
                Answer::Sat(model) => {
                    let map = dimacs::var_map(&puzzle, args.encoding);
                    match map.decode(&puzzle, &model) {
                        Ok(grid) => Verdict::Grid(grid),
                        Err(e) => Verdict::NotASolution(e.to_string()),
                    }
                }
            }
        }
        From::Glpsol | From::Cbc => {
            let solution = if args.from == From::Glpsol {
                mip_answer::read_glpsol(input)
            } else {
                mip_answer::read_cbc(input)
            }
            .map_err(|e| located(e.line, e.column, e.kind.to_string()))?;
            match solution.status {
                IlpStatus::Infeasible => Verdict::NoSolution("unsat"),
                IlpStatus::Unknown => Verdict::NoSolution("unknown"),
                IlpStatus::Optimal => match ilp::decode(&puzzle, &solution) {
                    Ok(grid) => Verdict::Grid(grid),
                    Err(e) => Verdict::NotASolution(e.to_string()),
                },
            }
        }
    };
    let mut out = io::stdout().lock();
    match verdict {
        Verdict::Grid(grid) => match verify(&puzzle, &grid) {
            Ok(()) => {
                write!(out, "{}", with_newline(to_text(&grid)))?;
                Ok(ExitCode::SUCCESS)
            }
            Err(violation) => {
                eprintln!(
                    "sudokit: the answer decodes to a grid that is not a solution: {violation}\n{}",
                    to_text(&grid)
                );
                Ok(ExitCode::from(1))
            }
        },
        Verdict::NoSolution(word) => {
            writeln!(out, "{word}")?;
            Ok(ExitCode::from(1))
        }
        Verdict::NotASolution(reason) => {
            eprintln!("sudokit: the answer is not a solution: {reason}");
            Ok(ExitCode::from(1))
        }
    }
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
