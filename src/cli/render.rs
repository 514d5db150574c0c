//! `sudokit render FILE [--solution S] -o out.svg`: a puzzle (and its solution) as SVG.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use sudokit::render::svg::{SvgOptions, render};
use sudokit::text::ReadOptions;
use sudokit::verify;

use super::input::{InputArgs, nth_puzzle};
use super::output::write_or_print;

/// Arguments of `render`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Givens are bold, solution values blue, boxes outlined. A solution is \
verified before it is drawn.\n\nExamples:\n  sudokit render models/sudoku/9x9/easy.txt -o easy.svg\n  \
sudokit render models/sudoku/9x9/easy.txt --solution models/sudoku/9x9/easy.solutions.txt --index 3 -o s.svg"
)]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    /// A file of solutions, paired with the puzzles by position.
    #[arg(long)]
    solution: Option<PathBuf>,
    /// Which puzzle of the file to draw (1-based).
    #[arg(long, default_value_t = 1)]
    index: usize,
    /// Side of a cell in pixels.
    #[arg(long, default_value_t = 36.0)]
    cell: f64,
    /// Output SVG file (standard output if absent or `-`).
    #[arg(short, long)]
    output: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.index == 0 {
        bail!("--index counts from 1");
    }
    if !(args.cell.is_finite() && (4.0..=200.0).contains(&args.cell)) {
        bail!("--cell must be between 4 and 200 pixels");
    }
    let options = args.input.read_options();
    let puzzle = nth_puzzle(&args.file, options, args.index)?;
    let solution = match &args.solution {
        None => None,
        Some(path) => {
            let lenient = ReadOptions {
                reject_clashes: false,
                ..options
            };
            let solution = nth_puzzle(path, lenient, args.index)?;
            verify(&puzzle, &solution).with_context(|| {
                format!(
                    "solution {} of {} does not solve the puzzle",
                    args.index,
                    path.display()
                )
            })?;
            Some(solution)
        }
    };
    let svg = render(
        &puzzle,
        solution.as_ref(),
        &SvgOptions {
            cell: args.cell,
            ..SvgOptions::default()
        },
    );
    write_or_print(args.output.as_deref(), svg.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
