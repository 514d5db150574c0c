//! `sudokit count FILE` / `sudokit count --box PxQ` / `--latin --order N`: the flags of the
//! library's count job ([`sudokit::jobs::count`]).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::count::{CountJob, CountOptions};
use sudokit::text::{ShapeSpec, TextLayout};

use super::args::{OutputArgs, RegionArgs, SolverArgs, read_options};
use super::{lists, runner};

/// Arguments of `count`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// Puzzle file (`-` for standard input); omit it to count the empty grid.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Box shape PxQ: the empty grid to count, or the shape to read FILE with.
    #[arg(long = "box", value_name = "PxQ", conflicts_with = "latin", value_parser = ShapeSpec::parse_box)]
    box_shape: Option<(usize, usize)>,
    /// Latin squares (no boxes): the empty square of --order N to count, or read FILE as Latin
    /// squares.
    #[arg(long, conflicts_with_all = ["regions", "extra"])]
    latin: bool,
    /// The order N of the empty grid to count; with FILE, every puzzle must have it.
    #[arg(long, value_name = "N")]
    order: Option<usize>,
    /// Input form of FILE.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TextLayout::Auto)]
    format: TextLayout,
    #[command(flatten)]
    regions: RegionArgs,
    /// Count at most N solutions (default: no limit).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// How to count the empty grid (the methods are described below).
    #[arg(long, value_name = "METHOD", default_value = "auto")]
    method: String,
    #[command(flatten)]
    solver: SolverArgs,
    /// One JSON object per puzzle.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// The text after the options: the methods, from the registry, how a count reads, examples.
pub(super) fn after_help() -> String {
    format!(
        "\
Without FILE, counts the completions of the empty grid of --box PxQ, or of --latin --order N (the
Latin square of order N), by --method (`--json` names the method and the symmetries it used):
{}`sudokit count --box 3x3` prints 6670903752021072936960 in about a second. A symmetry count is
split into parts: --time-limit stops it with the parts counted as a lower bound and an estimate
of the time left; -o FILE keeps the parts in FILE.partial, --resume continues them, FILE gets the
count. Counts above 2^53 are JSON strings.

Prints one line per puzzle: the exact count, `at least N (limit)` when the --limit given was
reached (never without --limit), `at least N (unknown: time limit)` (or node limit, cancelled)
when a budget or a stop cut it short, a lower bound, and `N (claimed by NAME, not checked)` when
an external solver's word that there is no other solution is all that stands behind it (a solver
whose refutation proof is checked, cadical say, gives a plain count). Counts are 128-bit, never
clamped. Exit 0 when every count is exact or reached --limit, 1 when a budget stopped any count
or one rests on an unchecked claim, 2 on bad input or a count refused as out of reach.

Examples:
  sudokit count --box 2x2                # 288
  sudokit count --box 2x4                # 29136487207403520
  sudokit count --latin --order 7        # 61479419904000
  sudokit count --latin --order 6 --json
  sudokit count --box 2x3 --method enumerate --backend dlx
  sudokit count --limit 10 models/sudoku/9x9/easy.txt
  head -2 models/latin/partial.txt | sudokit count --latin --order 3 -",
        lists::count_methods()
    )
}

/// The old spelling `count --latin N` (the order as the value of `--latin`), kept for one
/// release: rewritten to `count --latin --order N` with a note.
pub fn legacy_latin_order(mut argv: Vec<OsString>) -> Vec<OsString> {
    // The subcommand: the first word that is no global option or its value.
    let mut at = 1;
    while at < argv.len() {
        match argv[at].to_str() {
            Some("--timeout" | "--solvers") => at += 2,
            Some(word) if word.starts_with('-') => at += 1,
            _ => break,
        }
    }
    if argv.get(at).is_none_or(|word| word != "count") {
        return argv;
    }
    let count = at;
    let mut i = count + 1;
    while i + 1 < argv.len() {
        let is_order = argv[i + 1]
            .to_str()
            .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
        if argv[i] == "--latin" && is_order {
            super::note!(
                "sudokit: `count --latin N` is now `count --latin --order N` (the old spelling \
                 works until the next release)"
            );
            argv.insert(i + 1, OsString::from("--order"));
            i += 1;
        }
        i += 1;
    }
    argv
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (solver, run) = args.solver.options();
    let job = CountJob::new(CountOptions {
        solver,
        run,
        limit: args.limit,
        order: args.order,
        method: args.method.clone(),
        ..CountOptions::default()
    })?;
    let read = read_options(args.box_shape, args.latin, args.format, args.regions.spec());
    let Some(file) = &args.file else {
        let shape = sudokit::jobs::census_command::shape_of(&job, read)?;
        return super::census::run(&job, &shape, args.json, &args.output);
    };
    job.check_puzzle_method()?;
    runner::plain(
        &job,
        std::slice::from_ref(file),
        read,
        Some(&args.output),
        args.json,
    )
}
