//! `sudokit generate --box PxQ`: the flags of the library's generate job
//! ([`sudokit::jobs::generate`]), with a progress bar on a terminal and, with `--progress`, the
//! reductions' progress as JSON lines on standard error.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudokit::generate::progress::GenerationProgress;
use sudokit::generate::puzzle::{GridSource, Symmetry};
use sudokit::grade::Difficulty;
use sudokit::jobs::generate::{GenerateJob, GenerateOptions, progress_event};
use sudokit::jobs::options::Shave;
use sudokit::jobs::{Form, Runner};
use sudokit::propagate::Scheme;
use sudokit::text::{ReadOptions, ShapeSpec};

use super::args::{OutputArgs, RegionArgs, ThreadsArg};
use super::{runner, stop};

/// Arguments of `generate`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Each puzzle is made from a random complete grid by removing givens (or symmetric orbits of
givens) in random order while the puzzle stays well posed: the result is locally minimal (every
given is needed). With --scheme S a removal must also keep the puzzle search-free for S (the
puzzle is then minimal for that), with --not-scheme T the finished puzzle must not be search-free
for T, and with --givens N the removal stops at N givens (well posed, usually not minimal).
--difficulty easy|medium|hard|expert stands for a --scheme and a --not-scheme: easy FCI
(singles), medium HAC, not FCI (subsets in a unit), hard HACS, not HAC (box-line interactions
too), expert not HACS (shaving or search); `sudokit grade` prints the same label.
FCV, BCV and HACV shave once, as in Simonis' paper; --shave fixpoint (or FCV+, BCV+, HACV+)
repeats the shaving passes until one removes nothing.
Puzzle i of a run depends only on --seed and i: the output is the same for any --threads.

Output: one puzzle line per puzzle (grid blocks above order 35), in order; --json adds the
solution, the seed, the index (from 1), the number of givens and `attempts`, how many complete
grids were drawn to make the puzzle. A puzzle no grid of --attempts gives is an error in place.

Examples:
  sudokit generate --box 3x3 --count 10 --seed 7
  sudokit generate --box 3x3 --symmetry rot180 --json
  sudokit generate --box 3x3 --scheme HACS --not-scheme HAC --count 5
  sudokit generate --box 3x3 --difficulty medium --count 3 --seed 2
  sudokit generate --box 4x4 --givens 120
  sudokit generate --box 5x5 --grid-only --grids pattern")]
#[command(mut_arg("threads", |arg| arg.help(
    "Worker threads (default: all cores). Threads beyond the number of puzzles test the \
     removals of one puzzle side by side (from 16×16 on); the puzzles are the same."
)))]
pub struct Args {
    /// Box shape PxQ (P rows, Q columns per box); with --regions, the default of the map's
    /// order when not given.
    #[arg(long = "box", value_name = "PxQ", value_parser = ShapeSpec::parse_box, required_unless_present = "regions")]
    box_shape: Option<(usize, usize)>,
    #[command(flatten)]
    regions: RegionArgs,
    /// How many puzzles (or grids).
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: u64,
    /// Base random seed: puzzle i is drawn from (seed, i).
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Symmetry of the givens: none, rot180, rot90, mirror, diagonal.
    #[arg(long, default_value = "none", value_name = "SYMMETRY")]
    symmetry: Symmetry,
    /// Stop removing givens at N (well posed, usually not minimal).
    #[arg(long, value_name = "N")]
    givens: Option<usize>,
    /// The puzzle must be search-free for this propagation scheme (e.g. HACS).
    #[arg(long, value_name = "SCHEME")]
    scheme: Option<Scheme>,
    /// The puzzle must not be search-free for this scheme (e.g. HAC).
    #[arg(long, value_name = "SCHEME")]
    not_scheme: Option<Scheme>,
    /// An everyday difficulty: easy, medium, hard or expert (Simonis' schemes FCI, HAC, HACS;
    /// see above). Instead of --scheme and --not-scheme.
    #[arg(long, value_name = "LEVEL", conflicts_with_all = ["scheme", "not_scheme"])]
    difficulty: Option<Difficulty>,
    /// How the shaving schemes shave: `once` (the paper's single pass: FCV+ means FCV) or
    /// `fixpoint` (FCV means FCV+); without it, as named (FCV once, FCV+ to the fixpoint).
    #[arg(long, value_enum, value_name = "MODE")]
    shave: Option<Shave>,
    /// Where complete grids come from.
    #[arg(long, value_enum, value_name = "SOURCE", default_value_t = GridSource::Search)]
    grids: GridSource,
    /// Complete grids tried per puzzle before giving up (with --givens or --not-scheme).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    attempts: usize,
    /// Output the complete grids only (no givens removed).
    #[arg(long)]
    grid_only: bool,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
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

/// A run longer than this shows a progress bar (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let map = args.regions.regions;
    let boxes = match (args.box_shape, map) {
        (Some(boxes), _) => boxes,
        (None, Some(map)) => {
            let shape = sudokit::Shape::default_for_order(map.order())?;
            (shape.box_rows(), shape.box_cols())
        }
        (None, None) => anyhow::bail!("give --box PxQ or --regions FILE"),
    };
    let job = GenerateJob::new(GenerateOptions {
        boxes,
        regions: map.and_then(|map| map.map_rows()),
        extra: args
            .regions
            .extra
            .iter()
            .map(|set| set.name().to_string())
            .collect(),
        count: args.count,
        seed: args.seed,
        symmetry: args.symmetry,
        givens: args.givens,
        scheme: args.scheme,
        not_scheme: args.not_scheme,
        difficulty: args.difficulty,
        shave: args.shave,
        grids: args.grids,
        attempts: args.attempts,
        grid_only: args.grid_only,
        sweeps: !args.no_sweeps,
        threads: args.threads.get(),
    })?;

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
    // The reductions' own progress: JSON events with --progress, else the bar's message (shown
    // on a terminal once the run is past PROGRESS_AFTER).
    let job = if args.progress {
        job.with_progress(Arc::new(|index: u64, p: &GenerationProgress| {
            super::note!("{}", progress_event(index, p));
        }))
    } else if terminal {
        let (bar, show) = (bar.clone(), show.clone());
        job.with_progress(Arc::new(move |index: u64, p: &GenerationProgress| {
            bar.set_message(format!("(puzzle {}: {p})", index + 1));
            show();
        }))
    } else {
        job
    };

    // Each puzzle is written whole, in index order: an interrupted run leaves a valid prefix,
    // and `-o FILE --resume` makes the puzzles after it (puzzle i depends only on the seed and
    // i, so the finished file is the one an uninterrupted run writes).
    let runner = Runner::new(stop::control()).with_progress({
        let bar = bar.clone();
        Arc::new(move |p: sudokit::batch::Progress| {
            bar.set_position(p.done as u64);
            show();
        })
    });
    let code = runner::command(
        &job,
        &[],
        ReadOptions::default(),
        Some(&args.output),
        Form {
            json: args.json,
            brief: false,
        },
        Some(runner),
        |_| {},
    );
    bar.finish_and_clear();
    code
}
