//! `sudokit generate --box PxQ`: random complete grids and locally minimal well-posed puzzles,
//! of a chosen symmetry, number of givens and propagation difficulty, seeded and reproducible.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use sudokit::Shape;
use sudokit::batch::Finished;
use sudokit::generate::progress::{OnProgress, Progress};
use sudokit::generate::puzzle::{
    GenerateError, Generated, Generator, GridSource, Options, Symmetry, puzzle_rng,
};
use sudokit::propagate::Scheme;

use super::batch;
use super::grade::ShaveArg;
use super::input::BoxArg;
use super::sink::{Framing, OutputArgs, Sink};
use sudokit::present::generate::puzzle_json;
use sudokit::present::grid_record;

/// Arguments of `generate`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Each puzzle is made from a random complete grid by removing givens (or symmetric orbits of
givens) in random order while the puzzle stays well posed: the result is locally minimal (every
given is needed). With --scheme S a removal must also keep the puzzle search-free for S (the
puzzle is then minimal for that), with --not-scheme T the finished puzzle must not be search-free
for T, and with --givens K the removal stops at K givens (well posed, usually not minimal).
FCV, BCV and HACV shave once, as in Simonis' paper; --shave fixpoint (or FCV+, BCV+, HACV+)
repeats the shaving passes until one removes nothing.
Puzzle i of a run depends only on --seed and i: the output is the same for any --threads.

Output: one puzzle line per puzzle (grid blocks above order 35), in order; --json adds the
solution, the seed, the index (from 1), the number of givens and `attempts`, how many complete
grids were drawn to make the puzzle.

Examples:
  sudokit generate --box 3x3 --count 10 --seed 7
  sudokit generate --box 3x3 --symmetry rot180 --json
  sudokit generate --box 3x3 --scheme HACS --not-scheme HAC --count 5
  sudokit generate --box 4x4 --givens 120
  sudokit generate --box 5x5 --grid-only --grids pattern")]
pub struct Args {
    /// Box shape PxQ (P rows, Q columns per box).
    #[arg(long = "box", value_name = "PxQ")]
    box_shape: BoxArg,
    /// How many puzzles (or grids).
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Base random seed: puzzle i is drawn from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Symmetry of the givens: none, rot180, rot90, mirror, diagonal.
    #[arg(long, default_value = "none", value_name = "SYMMETRY")]
    symmetry: Symmetry,
    /// Stop removing givens at this many (well posed, usually not minimal).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// The puzzle must be search-free for this propagation scheme (e.g. HACS).
    #[arg(long, value_name = "SCHEME")]
    scheme: Option<Scheme>,
    /// The puzzle must not be search-free for this scheme (e.g. HAC).
    #[arg(long, value_name = "SCHEME")]
    not_scheme: Option<Scheme>,
    /// How the shaving schemes shave: `once` (the paper's single pass: FCV+ means FCV) or
    /// `fixpoint` (FCV means FCV+); without it, as named (FCV once, FCV+ to the fixpoint).
    #[arg(long, value_enum, value_name = "MODE")]
    shave: Option<ShaveArg>,
    /// Where complete grids come from.
    #[arg(long, value_enum, default_value_t = Grids::Search)]
    grids: Grids,
    /// Complete grids tried per puzzle before giving up (with --givens or --not-scheme).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    attempts: usize,
    /// Output the complete grids only (no givens removed).
    #[arg(long)]
    grid_only: bool,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores). Threads beyond the number of puzzles test the
    /// removals of one puzzle side by side (from 16×16 on); the puzzles are the same.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Do not sweep ahead for needed givens during the reduction (sweeps run from 24×24 on;
    /// without them it is slower, with the same puzzles: for comparisons).
    #[arg(long)]
    no_sweeps: bool,
    /// With --json: progress events of each reduction on standard error, one JSON object per
    /// line (`{"progress": {"index", "givens", "tested", "grid", "elapsed_s", "done"}}`), at
    /// most five a second. (On a terminal the progress line shows anyway.)
    #[arg(long, requires = "json")]
    progress: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// `--grids` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Grids {
    /// Randomized search: any grid can come out (not exactly uniform).
    Search,
    /// The pattern grid under random symmetries: O(n²), but uniform on one orbit only.
    Pattern,
}

/// A run longer than this shows a progress bar (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shape = Shape::sudoku(args.box_shape.rows, args.box_shape.cols).context("--box")?;
    if args.grid_only
        && (args.givens.is_some()
            || args.scheme.is_some()
            || args.not_scheme.is_some()
            || args.symmetry != Symmetry::None)
    {
        bail!(
            "--grid-only makes complete grids: it takes no --givens, --scheme, --not-scheme or --symmetry"
        );
    }
    let threads = super::solving::threads(args.threads)?;
    let mut options = Options {
        symmetry: args.symmetry,
        givens: args.givens,
        scheme: args.scheme.map(|s| ShaveArg::apply(args.shave, s)),
        not_scheme: args.not_scheme.map(|s| ShaveArg::apply(args.shave, s)),
        source: match args.grids {
            Grids::Search => GridSource::Search,
            Grids::Pattern => GridSource::Pattern,
        },
        attempts: args.attempts,
        lanes: 1,
        sweeps: !args.no_sweeps,
        // A signal or the --timeout deadline stops the puzzles in flight between two tests.
        cancel: Some(super::stop::batch_cancel()),
        ..Options::default()
    };
    // Checks the shape and the target before any work.
    Generator::new(shape, options.clone())?;
    // Threads that no puzzle of the batch keeps busy test removals side by side within one
    // puzzle (the puzzles do not depend on it).
    let busy = args.count.clamp(1, threads as u64) as usize;
    options.lanes = threads / busy;

    let terminal = io::stderr().is_terminal();
    let bar = ProgressBar::with_draw_target(Some(args.count), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{wide_bar} {pos}/{len} puzzles, {per_sec}, eta {eta} {msg}")
            .expect("valid template"),
    );
    let start = Instant::now();
    let show = {
        let bar = bar.clone();
        move || {
            if terminal && bar.is_hidden() && start.elapsed() > PROGRESS_AFTER {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    };
    // The reduction's own progress: JSON events with --progress, else the bar's message (shown
    // on a terminal once the run is past PROGRESS_AFTER).
    let json_events = args.progress;
    let progress_of = |index: u64| -> Option<OnProgress> {
        if json_events {
            return Some(OnProgress::new(move |p: &Progress| {
                super::note!("{}", json!({"progress": progress_json(p, index)}));
            }));
        }
        let (bar, show) = (bar.clone(), show.clone());
        terminal.then(|| {
            OnProgress::new(move |p: &Progress| {
                bar.set_message(format!(
                    "(puzzle {}: {} givens left, {} removals tested, {:.1} s)",
                    index + 1,
                    p.givens,
                    p.tested,
                    p.elapsed.as_secs_f64()
                ));
                show();
            })
        })
    };

    // Each puzzle is written whole and flushed, in index order: an interrupted run leaves a
    // valid prefix, and `-o FILE --resume` makes the puzzles after it (puzzle i depends only on
    // the seed and i, so the finished file is the one an uninterrupted run writes).
    let framing = if args.json {
        Framing::Lines
    } else {
        Framing::Records
    };
    let sink = Sink::open_for(&args.output, framing, "puzzles", None)?;
    let mut indices = 0..args.count;
    // --resume: the puzzles already made, each checked (the run record holds the seed and the
    // options, so the same indices make the same puzzles).
    sink.skip_kept(
        &mut indices,
        args.json,
        |&index| index as usize + 1,
        |text, &index| kept_puzzle_fits(text, index, shape, args.json),
    )?;
    let first = indices.start;
    bar.set_position(first);
    thread_local! {
        /// Each worker's generator (a search engine and its scratch space).
        static GENERATOR: std::cell::RefCell<Option<Generator>> = const { std::cell::RefCell::new(None) };
    }
    let work = |index: u64| -> anyhow::Result<Generated> {
        GENERATOR.with_borrow_mut(|slot| {
            let generator = slot.get_or_insert_with(|| {
                Generator::new(shape, options.clone()).expect("checked above")
            });
            generator.set_progress(progress_of(index));
            let mut rng = puzzle_rng(args.seed, index);
            let result = if args.grid_only {
                generator.complete_grid(&mut rng).map(|grid| Generated {
                    puzzle: grid.clone(),
                    solution: grid,
                    attempts: 1,
                })
            } else {
                generator.generate(&mut rng)
            };
            result.with_context(|| format!("puzzle {index}"))
        })
    };
    let mut index = first;
    // A puzzle the stop cancelled is not written, nor any after it: the output stays a prefix.
    let mut cut = false;
    let finished = super::solving::batch(busy).run(indices.by_ref(), work, |result| {
        if cut {
            return anyhow::Ok(());
        }
        let generated = match result {
            Err(e) if matches!(e.downcast_ref(), Some(GenerateError::Cancelled)) => {
                cut = true;
                return Ok(());
            }
            other => other?,
        };
        let text = if args.json {
            let mut line = Vec::new();
            batch::write_json(&mut line, &puzzle_json(&generated, args.seed, index))?;
            String::from_utf8(line).expect("JSON is UTF-8")
        } else {
            grid_record(&generated.puzzle)
        };
        sink.write(&text, index as usize + 1)?;
        index += 1;
        bar.inc(1);
        show();
        anyhow::Ok(())
    })?;
    bar.finish_and_clear();
    let complete =
        !cut && matches!(finished, Finished::Complete { .. }) && indices.next().is_none();
    if !sink.finish(complete)? {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--resume`'s own check of a kept puzzle: JSON names its index, and the puzzle has the shape
/// asked for.
fn kept_puzzle_fits(text: &str, index: u64, shape: Shape, json: bool) -> Result<(), String> {
    let grid = if json {
        let value: serde_json::Value =
            serde_json::from_str(text.trim_end()).map_err(|e| e.to_string())?;
        if value.get("index").and_then(serde_json::Value::as_u64) != Some(index + 1) {
            return Err(format!("it is not puzzle {}", index + 1));
        }
        sudokit::text::parse_json(text.trim_end(), None).map_err(|e| e.to_string())?
    } else {
        text.parse::<sudokit::Grid>().map_err(|e| e.to_string())?
    };
    if grid.shape() != shape {
        return Err(format!("it is a {} puzzle", grid.shape()));
    }
    Ok(())
}

/// The fields of a progress event.
fn progress_json(p: &Progress, index: u64) -> serde_json::Value {
    json!({
        "index": index + 1,
        "givens": p.givens,
        "tested": p.tested,
        "grid": p.grid,
        "elapsed_s": sudokit::present::rounded(p.elapsed.as_secs_f64(), 6),
        "done": p.done,
    })
}
