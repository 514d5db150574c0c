//! `sudokit count FILE` / `sudokit count --box PxQ` / `--latin N`: exact solution counts, each
//! count split over all cores.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args as ClapArgs;
use sudokit::present;
use sudokit::solve::count_parallel;
use sudokit::text::ShapeSpec;
use sudokit::{Grid, Shape};

use super::batch::{self, Answer, Kind};
use super::input::{BoxArg, FormatArg, InputArgs};
use super::max_order::MaxNArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::SolverArgs;
use super::stop;

/// Arguments of `count`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Without FILE, counts the completions of the empty grid of --box PxQ or --latin N. Prints one line
per puzzle: the exact count, `at least N (limit)` when --limit stopped it, or
`at least N (unknown: time limit)` when a budget did, and `N (claimed by NAME, not checked)` when
an external solver's word that there is no other solution is all that stands behind it (a solver
whose refutation proof is checked, cadical say, gives a plain count). Exit 0 when every count is
exact or reached --limit, 1 when a budget stopped any count or one rests on an unchecked claim,
2 on bad input.

Examples:
  sudokit count --box 2x2            # 288
  sudokit count --latin 5            # 161280
  sudokit count --box 2x3            # 28200960
  sudokit count --limit 10 models/sudoku/9x9/easy.txt
  head -2 models/latin/partial.txt | sudokit count --latin 3 -")]
pub struct Args {
    /// Puzzle file (`-` for standard input); omit it to count the empty grid.
    file: Option<PathBuf>,
    /// Box shape PxQ: the empty grid to count, or the shape to read FILE with.
    #[arg(long = "box", value_name = "PxQ", conflicts_with = "latin")]
    box_shape: Option<BoxArg>,
    /// Latin square of order N: the empty square to count, or read FILE as Latin squares.
    #[arg(long, value_name = "N")]
    latin: Option<usize>,
    /// Input form of FILE.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// Stop counting at N solutions.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    max_n: MaxNArgs,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let solver = args.max_n.guard(args.solver.solver()?)?;
    let limits = args.solver.limits()?;
    let pool = super::solving::pool(args.solver.threads()?)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    if limit == 0 {
        bail!("--limit must be at least 1");
    }
    let parts = 64 * pool.current_num_threads();
    // --timeout: each count's budget ends at the deadline.
    let count = |grid: &Grid| {
        let limits = stop::clip(&limits);
        pool.install(|| count_parallel(&*solver, grid, limit, &limits, parts))
    };
    let Some(file) = &args.file else {
        let shape = match (args.box_shape, args.latin) {
            (Some(b), _) => Shape::sudoku(b.rows, b.cols)?,
            (None, Some(n)) => Shape::latin(n)?,
            (None, None) => {
                bail!("give a puzzle FILE, or --box PxQ / --latin N for the empty grid")
            }
        };
        if args.output.output.is_some() {
            bail!("-o and --resume go with a puzzle FILE");
        }
        let report = count(&Grid::empty(shape))?;
        let (text, answered) = present::count::record(&report, None, args.json);
        let mut out = io::BufWriter::new(io::stdout().lock());
        out.write_all(text.as_bytes())?;
        out.flush()?;
        // A count a budget stopped is a lower bound, and one resting on an unchecked claim is
        // a claim: neither is the answer asked for.
        return Ok(ExitCode::from(u8::from(!answered)));
    };
    let input = InputArgs {
        box_shape: args.box_shape,
        latin: args.latin.is_some(),
        format: args.format,
    };
    let options = input.read_options();
    let mut items = batch::puzzles(file, options)?;
    let sink = Sink::open_for(&args.output, Framing::Lines, "puzzles", Some(file))?;
    // --resume: the puzzles whose counts are already in the output, each checked.
    sink.skip_kept(&mut items, args.json, batch::line_of, |_, _| Ok(()))?;
    let latin_order = args
        .latin
        .filter(|_| input.shape_spec() == Some(ShapeSpec::Latin));
    let work = |item: batch::Item| match item {
        Err(e) => Answer::read_error(args.json, file, &e),
        Ok(record) => {
            let order = record.grid.shape().order();
            match latin_order {
                Some(n) if n != order => {
                    let message = format!("--latin {n} but the puzzle has order {order}");
                    Answer::failure(args.json, file, record.line, &message)
                }
                _ => match count(&record.grid) {
                    Ok(report) => {
                        let (text, answered) =
                            present::count::record(&report, Some(record.line), args.json);
                        // A lower bound or a claim is not the answer asked for.
                        let kind = if answered {
                            Kind::Positive
                        } else {
                            Kind::Negative
                        };
                        Answer::written(kind, record.line, |out| out.write_all(text.as_bytes()))
                    }
                    Err(e) => Answer::failure(args.json, file, record.line, &e),
                },
            }
        }
    };
    // One count at a time: each count is split over the cores.
    let Some(tally) = batch::answer_all(1, &mut items, sink, work)? else {
        return Ok(ExitCode::from(1));
    };
    tally.report_bad_input("puzzles");
    Ok(tally.exit_code())
}
