//! `sudokit count FILE` / `sudokit count --box PxQ` / `--latin N`: exact solution counts, each
//! count split over all cores.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::census::{Method, json_count, methods_for};
use sudokit::solve::{CountReport, count_parallel};
use sudokit::text::ShapeSpec;
use sudokit::{Grid, Shape};

use super::batch::{self, Answer, Kind};
use super::input::{BoxArg, FormatArg, InputArgs};
use super::max_order::MaxNArgs;
use super::sink::{Framing, OutputArgs, Sink};
use super::solving::SolverArgs;
use super::stop;
use sudokit::present::stats_json;

/// Arguments of `count`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Without FILE, counts the completions of the empty grid of --box PxQ or --latin N, by symmetry
(--method auto, the default, picks the method; `--json` names it and the symmetries it used):
  band-classes   Felgenhauer–Jarvis, the default for 3×3: the first bands with the first box
                 fixed (times n!) in classes under column, stack and row permutations (416 for
                 3×3), merged by their column sets (44), whose completions are counted
  column-sets    boxes with a side of 2 or 3 (2×4 is counted as 4×2): the first band's column
                 sets up to symmetry, times the bands that have them and their completions
  reduced-latin  Latin squares (and 1×n boxes) to order 10: reduced squares (times n!(n−1)!)
                 by the cycle type of the second row
  enumerate      every completion, up to value relabelling (n! times those of the first row
                 1..n), by --backend; also what auto does with --limit, --node-limit or another
                 --backend, and for the shapes no method reaches (4×4 and up)
`sudokit count --box 3x3` prints 6670903752021072936960 in about a second. A symmetry count is
split into parts: --time-limit stops it with the parts counted as a lower bound and an estimate
of the time left; -o FILE keeps the parts in FILE.partial, --resume continues them, FILE gets the
count. Counts above 2^53 are JSON strings.

Prints one line per puzzle: the exact count, `at least N (limit)` when --limit stopped it, or
`at least N (unknown: time limit)` when a budget did. Exit 0 when every count is exact or
reached --limit, 1 when a budget stopped any count, 2 on bad input.

Examples:
  sudokit count --box 2x2            # 288
  sudokit count --box 2x4            # 29136487207403520
  sudokit count --latin 7            # 61479419904000
  sudokit count --latin 6 --json
  sudokit count --box 2x3 --method enumerate --backend dlx
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
    /// How to count the empty grid: auto, band-classes, column-sets, reduced-latin, enumerate.
    #[arg(long, value_name = "METHOD", default_value = "auto")]
    method: String,
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
        if let Some(method) = symmetry_method(&args, &shape)? {
            return super::census::run(
                &shape,
                method,
                stop::clip(&limits),
                args.json,
                &args.output,
                &pool,
            );
        }
        if args.output.output.is_some() {
            bail!("-o and --resume go with a puzzle FILE, or with a count by a symmetry method");
        }
        let report = count(&Grid::empty(shape))?;
        let mut out = io::BufWriter::new(io::stdout().lock());
        write_report(&mut out, &report, None, args.json)?;
        out.flush()?;
        // A count a budget stopped is a lower bound, not the answer asked for.
        return Ok(ExitCode::from(u8::from(stopped_by_budget(&report))));
    };
    if !matches!(args.method.as_str(), "auto" | "enumerate") {
        bail!(
            "--method {} counts the empty grid: give --box PxQ or --latin N without FILE",
            args.method
        );
    }
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
                        // A count a budget stopped is a lower bound: an unknown answer.
                        let kind = if stopped_by_budget(&report) {
                            Kind::Negative
                        } else {
                            Kind::Positive
                        };
                        Answer::written(kind, record.line, |out| {
                            write_report(out, &report, Some(record.line), args.json)
                        })
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

/// For the empty `shape`: `Some(method)` to count by symmetry (`Some(None)`: the shape's
/// default method), `None` to enumerate. `auto` enumerates when --limit, --node-limit or a
/// backend other than the default is given (an enumeration's options), or when no method
/// reaches the shape.
fn symmetry_method(args: &Args, shape: &Shape) -> anyhow::Result<Option<Option<Method>>> {
    let enumeration_options = args.limit.is_some()
        || args.solver.node_limit.is_some()
        || args.solver.spec()? != sudokit::solve::DEFAULT_BACKEND;
    match args.method.as_str() {
        "enumerate" => Ok(None),
        "auto" if enumeration_options || methods_for(shape).is_empty() => Ok(None),
        "auto" => Ok(Some(None)),
        name => {
            let method: Method = name.parse()?;
            if enumeration_options {
                bail!(
                    "--method {name} counts whole classes: --limit, --node-limit and --backend go \
                     with --method enumerate"
                );
            }
            Ok(Some(Some(method)))
        }
    }
}

/// A count that a time or node budget (or `--timeout`) cut short: `at least N (unknown: ...)`,
/// an unknown answer (exit 1). Reaching `--limit` is the answer asked for.
fn stopped_by_budget(report: &CountReport) -> bool {
    !report.hit_limit && report.stopped.is_some()
}

fn write_report(
    out: &mut impl Write,
    report: &CountReport,
    line: Option<usize>,
    json: bool,
) -> io::Result<()> {
    if json {
        let mut value = json!({
            "line": line,
            "count": json_count(u128::from(report.count)),
            "complete": report.complete(),
            "hit_limit": report.hit_limit,
            "stopped": report.stopped.map(|r| r.to_string()),
            "stats": stats_json(&report.stats),
        });
        if line.is_none() {
            // The empty grid: an enumeration up to relabelling (see `count_parallel`).
            value["method"] = json!("enumerate");
            value["symmetries"] =
                json!(["value relabelling: the first row fixed (orders 2 to 20), times n!"]);
        }
        return batch::write_json(out, &value);
    }
    match (report.hit_limit, report.stopped) {
        (true, _) => writeln!(out, "at least {} (limit)", report.count),
        (false, Some(reason)) => writeln!(out, "at least {} (unknown: {reason})", report.count),
        (false, None) => writeln!(out, "{}", report.count),
    }
}
