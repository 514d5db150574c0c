//! `sudokit render FILE [--solution S | --solve] -o out.svg`: a puzzle (and its verified solution)
//! as SVG, with a title, row and column numbers and a legend.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use sudokit::render::svg::{SvgOptions, render};
use sudokit::search::Answer;
use sudokit::text::ReadOptions;
use sudokit::verify;

use sudokit::jobs::target::write_or_print;

use super::args::InputArgs;
use sudokit::jobs::pick::nth_puzzle;

/// Arguments of `render`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Givens are bold, solution values blue, boxes outlined; the picture has a \
title, row and column numbers and a legend (--plain leaves them out). A solution, read with \
--solution or found with --solve, is verified before it is drawn. Grids above order 36 are drawn \
as a heat map (each cell coloured by its value) unless --cell is given.\n\n\
Exit codes: 0 drawn, 1 --solve found no solution (the puzzle is drawn alone), 2 bad input.\n\n\
Examples:\n  sudokit render models/sudoku/9x9/easy.txt -o easy.svg\n  \
sudokit render models/sudoku/9x9/easy.txt --solve --index 3 -o solved.svg\n  \
sudokit render models/sudoku/9x9/easy.txt --solution models/sudoku/9x9/easy.solutions.txt --index 3 -o s.svg"
)]
pub struct Args {
    /// Puzzle file (`-` for standard input).
    file: PathBuf,
    /// A file of solutions, paired with the puzzles by position.
    #[arg(long, value_name = "FILE", conflicts_with = "solve")]
    solution: Option<PathBuf>,
    /// Solve the puzzle (with --backend) and draw its verified solution.
    #[arg(long)]
    solve: bool,
    /// The backend --solve uses (default native).
    #[arg(long, value_name = "BACKEND", requires = "solve")]
    backend: Option<String>,
    /// Which puzzle of the file to draw (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    index: usize,
    /// Side of a cell in pixels (default 36, smaller for large grids).
    #[arg(long, value_name = "PIXELS")]
    cell: Option<f64>,
    /// The picture's title (default: which puzzle of which file, and its shape).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// No row and column numbers, no legend.
    #[arg(long)]
    plain: bool,
    /// Write the SVG to FILE (written whole; standard output if absent or `-`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.index == 0 {
        bail!("--index counts from 1");
    }
    if let Some(cell) = args.cell
        && !(cell.is_finite() && (4.0..=200.0).contains(&cell))
    {
        bail!("--cell must be between 4 and 200 pixels");
    }
    let options = args.input.read_options();
    let puzzle = nth_puzzle(
        &args.file,
        options,
        args.index,
        &super::stop::control().stop,
    )?;
    let mut caption = None;
    let solution = match (&args.solution, args.solve) {
        (Some(path), _) => {
            let lenient = ReadOptions {
                reject_clashes: false,
                ..options
            };
            let solution = nth_puzzle(path, lenient, args.index, &super::stop::control().stop)?;
            verify(&puzzle, &solution).with_context(|| {
                format!(
                    "solution {} of {} does not solve the puzzle",
                    args.index,
                    path.display()
                )
            })?;
            Some(solution)
        }
        (None, true) => {
            let spec = args
                .backend
                .clone()
                .unwrap_or_else(|| sudokit::solve::DEFAULT_BACKEND.to_string());
            let solver = sudokit::solve::backend(&spec)?;
            let limits = super::stop::control().limits(&sudokit::search::Limits::none());
            match solver.solve(&puzzle, &limits)?.answer {
                Answer::Solved(grid) => Some(grid),
                Answer::Unsat => {
                    caption = Some("no solution".to_string());
                    None
                }
                Answer::Unknown(reason) => {
                    caption = Some(format!("unknown ({reason})"));
                    None
                }
            }
        }
        (None, false) => None,
    };
    let n = puzzle.shape().order();
    let heat_map = args.cell.is_none() && n > 36;
    let cell = args.cell.unwrap_or(if n > 36 {
        (720.0 / n as f64).max(4.0)
    } else {
        36.0
    });
    let source = if args.file.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        args.file.display().to_string()
    };
    let title = args.title.clone().unwrap_or_else(|| {
        format!(
            "puzzle {} of {source}: {}, {} givens{}",
            args.index,
            puzzle.shape(),
            puzzle.filled(),
            if solution.is_some() { ", solved" } else { "" }
        )
    });
    let svg = render(
        &puzzle,
        solution.as_ref(),
        &SvgOptions {
            cell,
            title: Some(title),
            coordinates: !args.plain,
            legend: !args.plain,
            heat_map,
            caption: caption.clone(),
            ..SvgOptions::default()
        },
    );
    write_or_print(args.output.as_deref(), svg.as_bytes())?;
    if let Some(caption) = caption {
        super::note!("sudokit: {caption}: the puzzle is drawn alone");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
