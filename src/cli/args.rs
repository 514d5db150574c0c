//! The argument groups the commands share, with one meaning and one placeholder each:
//! - input: `--box PxQ`, `--latin`, `--format FORMAT`, and the regions `--regions FILE`,
//!   `--extra SET` ([`RegionArgs`]);
//! - output: `-o FILE` (a result file: `FILE.partial` renamed when complete; `--resume`
//!   continues it, `--force` starts it again), `--resume`, `--force`;
//! - solving: `--backend BACKEND`, `--scheme SCHEME`, `--encoding ENCODING`, `--amo AMO`,
//!   `--time-limit SECONDS`, `--node-limit N`, `--threads N`, `--max-n N`,
//!   `--require-certificate`.
//!
//! Each group converts once into the library's options ([`SolverArgs::options`],
//! [`LimitArgs::options`]); the value enums are the library's own (`TextLayout`, `Shave`,
//! `GridSource` derive `clap::ValueEnum` with the feature `cli`). An argument's id is the
//! option's name in the library (`max_order` for `--max-n`), so [`with_flags`] spells the
//! options a library error names as this command line's flags.
//!
//! Placeholders: `<SECONDS>` for times, `<N>` for whole numbers, `<FILE>` for files, `<DIR>` for
//! directories, `<LIST>` for comma-separated lists, and the name of what a value is for the
//! rest (`<BACKEND>`, `<SCHEME>`, `<FORMAT>`, `<PxQ>`, ...); `tests/it/cli_help.rs` holds the
//! list.

use std::path::PathBuf;

use clap::{Arg, ArgMatches, Args, Command};
use sudokit::encode::cnf::{Amo, Encoding};
use sudokit::jobs::RunError;
use sudokit::jobs::census::EmptyGridError;
use sudokit::jobs::census_command::EmptyGridRunError;
use sudokit::jobs::solver_options::{RunOptions, SolverOptions};
use sudokit::jobs::{OpenMode, OptionError};
use sudokit::propagate::Scheme;
use sudokit::shape::{ExtraSet, RegionError, RegionSpec, Regions, parse_map};
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout};

/// How to read puzzle files.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Box shape PxQ (P rows, Q columns per box) instead of the one inferred from the size.
    #[arg(long = "box", value_name = "PxQ", conflicts_with = "latin", value_parser = ShapeSpec::parse_box)]
    pub box_shape: Option<(usize, usize)>,
    /// Read Latin squares (rows and columns only, no boxes).
    #[arg(long, conflicts_with_all = ["regions", "extra"])]
    pub latin: bool,
    /// Input form; `auto` decides from the first puzzle.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TextLayout::Auto)]
    pub format: TextLayout,
    #[command(flatten)]
    pub regions: RegionArgs,
}

impl InputArgs {
    /// The reader options these flags ask for.
    pub fn read_options(&self) -> ReadOptions {
        read_options(self.box_shape, self.latin, self.format, self.regions.spec())
    }
}

/// `--regions FILE` and `--extra SET`: a jigsaw map in place of the boxes, extra units.
#[derive(Debug, Clone, Default, Args)]
pub struct RegionArgs {
    /// A region map in place of the boxes (jigsaw): n lines of n labels, one label per region
    /// (the puzzle's symbols, letters, ...); `#` starts a comment line. Or the rows themselves,
    /// joined by commas (`--regions 1122,1122,3344,3344`), as an export's decode line writes them.
    #[arg(long, value_name = "FILE", value_parser = read_region_map)]
    pub regions: Option<&'static Regions>,
    /// Extra units every solution must hold each value once in: `diagonals` (X-Sudoku),
    /// `windows` (windoku: the (k-1)² windows of k×k cells of an order k²); may be repeated.
    #[arg(long, value_enum, value_name = "SET")]
    pub extra: Vec<ExtraSet>,
}

impl RegionArgs {
    /// The regions asked for (empty when neither flag is given).
    pub fn spec(&self) -> RegionSpec {
        RegionSpec {
            map: self.regions,
            diagonals: self.extra.contains(&ExtraSet::Diagonals),
            windows: self.extra.contains(&ExtraSet::Windows),
        }
    }
}

/// Reads the region map FILE (`--regions`): its errors name `FILE:LINE:COLUMN`. A value with
/// commas and no `/` that is no file is the map's rows (its errors name the row as the line).
fn read_region_map(path: &str) -> Result<&'static Regions, String> {
    let inline = path.contains(',') && !path.contains('/') && !std::path::Path::new(path).exists();
    let text = if inline {
        path.replace(',', "\n")
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
    };
    let path = if inline { "--regions" } else { path };
    let located = |e: RegionError| match e {
        RegionError::RowLength { .. }
        | RegionError::NoRegion { .. }
        | RegionError::TooManyRegions { .. }
        | RegionError::RegionSize { .. } => format!("{path}:{e}"),
        other => format!("{path}: {other}"),
    };
    let map = parse_map(&text, None).map_err(located)?;
    let order = (1..=map.len()).find(|n| n * n >= map.len()).unwrap_or(0);
    Regions::new(order, Some(map), Vec::new()).map_err(located)
}

/// The reader options of `--box`, `--latin`, `--format` and the regions.
pub fn read_options(
    box_shape: Option<(usize, usize)>,
    latin: bool,
    format: TextLayout,
    regions: RegionSpec,
) -> ReadOptions {
    let spec = ShapeSpec::of(box_shape, latin);
    // `--latin` conflicts with the region flags (clap refuses both), so this keeps the spec.
    let shape = ShapeSpec::with_regions(spec, regions).unwrap_or(spec);
    ReadOptions {
        format,
        shape,
        ..ReadOptions::default()
    }
}

/// `-o FILE`, `--resume`, `--force`.
#[derive(Debug, Clone, Default, Args)]
pub struct OutputArgs {
    /// Write the results to FILE instead of standard output: through FILE.partial (locked,
    /// renamed to FILE when complete), so a stopped run can be continued with --resume.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Continue the run that left FILE.partial: keep its finished results, redo its unknown
    /// and error ones, and do the rest.
    #[arg(long, requires = "output", conflicts_with = "force")]
    pub resume: bool,
    /// Start again even though FILE.partial holds the results of an interrupted run (they are
    /// discarded).
    #[arg(long, requires = "output")]
    pub force: bool,
}

impl OutputArgs {
    /// How the output is opened.
    pub fn mode(&self) -> OpenMode {
        // clap refuses --resume with --force; were both given, resuming keeps the results.
        OpenMode::of(self.resume, self.force).unwrap_or(OpenMode::Resume)
    }
}

/// `--time-limit`, `--node-limit` and `--threads`: the library's [`RunOptions`]. A command
/// whose job has a default time limit says so in its own help (`time_limit_help`).
#[derive(Debug, Clone, Default, Args)]
pub struct LimitArgs {
    /// Time budget per puzzle in seconds (e.g. 0.5; default: none); a puzzle that runs out is
    /// `unknown`.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Search-node budget per puzzle (default: none); a puzzle that runs out is `unknown`.
    /// What a node is depends on the backend: a guess for the search backends, an LP relaxation
    /// for mip and highs (one takes about a second on a 25×25), a solver call for sat.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

impl LimitArgs {
    /// The library's options (after the note on capped threads).
    pub fn options(&self) -> RunOptions {
        RunOptions {
            time_limit: self.time_limit,
            node_limit: self.node_limit,
            threads: self.threads.get(),
        }
    }
}

/// The help of `--time-limit` on a command whose job has a default budget of `default` seconds
/// per `per` (for `#[command(mut_arg("time_limit", ...))]`).
pub fn time_limit_help(per: &str, default: f64) -> impl FnOnce(Arg) -> Arg {
    let help = format!("Time budget per {per}, in seconds [default: {default}]");
    move |arg| arg.help(help)
}

/// `--threads N`: one meaning and one default on every command that runs work in parallel.
#[derive(Debug, Clone, Default, Args)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores; at most 4 per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    /// The threads asked for, after saying on standard error when they are capped.
    pub fn get(&self) -> Option<usize> {
        if let Some(note) = sudokit::jobs::options::threads_note(self.threads) {
            super::note!("sudokit: {note}");
        }
        self.threads
    }
}

/// `--backend`, `--scheme`, `--encoding`, `--amo`, `--max-n`, `--require-certificate` and the
/// limits: the library's [`SolverOptions`] and [`RunOptions`], for the commands that run one
/// backend (`solve`, `count`).
#[derive(Debug, Clone, Args)]
pub struct SolverArgs {
    /// Backend (default native; `--help` says what each is and takes).
    #[arg(long, value_name = "BACKEND", default_value = sudokit::solve::DEFAULT_BACKEND)]
    pub backend: String,
    /// Propagation scheme of the cp backend (default HAC).
    #[arg(long, value_name = "SCHEME")]
    pub scheme: Option<Scheme>,
    /// CNF encoding of the sat backend (default extended).
    #[arg(long, value_name = "ENCODING")]
    pub encoding: Option<Encoding>,
    /// At-most-one encoding of the sat backend (default pairwise).
    #[arg(long, value_name = "AMO")]
    pub amo: Option<Amo>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Refuse puzzles above order N (answered in place as an error, exit 2); default: the
    /// backend's own limit.
    #[arg(long = "max-n", value_name = "N")]
    pub max_order: Option<usize>,
    /// Refuse an answer that rests on an external solver's unchecked word: an `unsat`, a
    /// `unique` or an exact count without a checked refutation proof becomes an error.
    #[arg(long)]
    pub require_certificate: bool,
}

impl SolverArgs {
    /// The library's options: the backend's, and the limits'.
    pub fn options(&self) -> (SolverOptions, RunOptions) {
        let solver = SolverOptions {
            backend: self.backend.clone(),
            scheme: self.scheme,
            encoding: self.encoding,
            amo: self.amo,
            max_order: self.max_order,
            require_certificate: self.require_certificate,
        };
        (solver, self.limits.options())
    }
}

/// The option error `cause` is, or the census's wrapping of one (transparent: a chain of causes
/// shows only the wrapper).
fn option_error<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a OptionError> {
    if let Some(RunError::Command(inner)) = cause.downcast_ref() {
        return option_error(inner.as_ref());
    }
    match (cause.downcast_ref(), cause.downcast_ref()) {
        (Some(EmptyGridError::Option(option)), _) => Some(option),
        (_, Some(EmptyGridRunError::Refused(EmptyGridError::Option(option)))) => Some(option),
        _ => cause.downcast_ref::<OptionError>(),
    }
}

/// `error` with every option an [`OptionError`] in it names spelled as the flag of the
/// subcommand `matches` ran (the argument whose id is the option's name: `max_order` is
/// `--max-n`), or as the name with dashes when no argument has that id (`--time-limit`).
pub fn with_flags(error: anyhow::Error, command: &Command, matches: &ArgMatches) -> anyhow::Error {
    if !error.chain().any(|cause| option_error(cause).is_some()) {
        return error;
    }
    let (mut command, mut matches) = (command, matches);
    while let Some((name, sub)) = matches.subcommand() {
        let Some(found) = command.find_subcommand(name) else {
            break;
        };
        (command, matches) = (found, sub);
    }
    let flag = |name: &str| {
        let long = command
            .get_arguments()
            .find(|arg| arg.get_id() == name)
            .and_then(Arg::get_long);
        format!(
            "--{}",
            long.map_or_else(|| name.replace('_', "-"), str::to_string)
        )
    };
    let text: Vec<String> = error
        .chain()
        .map(|cause| match option_error(cause) {
            Some(option) => option.spelled(&flag),
            None => cause.to_string(),
        })
        .collect();
    anyhow::Error::msg(text.join(": "))
}
