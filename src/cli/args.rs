//! The argument groups the commands share, with one meaning and one placeholder each:
//! - input: `--box PxQ`, `--latin`, `--format FORMAT`;
//! - output: `-o FILE` (a result file: `FILE.partial` renamed when complete; `--resume`
//!   continues it, `--force` starts it again), `--resume`, `--force`;
//! - solving: `--backend BACKEND`, `--scheme SCHEME`, `--time-limit SECONDS`, `--node-limit N`,
//!   `--threads N`, `--max-n N`, `--require-certificate`.
//!
//! Placeholders: `<SECONDS>` for times, `<N>` for whole numbers, `<FILE>` for files, `<DIR>` for
//! directories, `<LIST>` for comma-separated lists, and the name of what a value is for the
//! rest (`<BACKEND>`, `<SCHEME>`, `<FORMAT>`, `<PxQ>`, ...); `tests/it/cli_help.rs` holds the
//! list.

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use sudokit::jobs::OpenMode;
use sudokit::text::{ReadOptions, ShapeSpec, TextLayout};

/// How to read puzzle files.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Box shape PxQ (P rows, Q columns per box) instead of the one inferred from the size.
    #[arg(long = "box", value_name = "PxQ", conflicts_with = "latin")]
    pub box_shape: Option<BoxArg>,
    /// Read Latin squares (rows and columns only, no boxes).
    #[arg(long)]
    pub latin: bool,
    /// Input form; `auto` decides from the first puzzle.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// `{` → JSON lines; several tokens on a line → grid blocks; else puzzle lines.
    Auto,
    /// One puzzle line (n² symbols) per line.
    Line,
    /// Grid blocks of n rows of n tokens, separated by blank lines.
    Block,
    /// One JSON object per line.
    Json,
}

/// A `PxQ` box shape.
#[derive(Debug, Clone, Copy)]
pub struct BoxArg {
    pub rows: usize,
    pub cols: usize,
}

impl FromStr for BoxArg {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<BoxArg> {
        let (p, q) = s
            .split_once(['x', 'X', '×'])
            .context("expected PxQ, for example 2x3")?;
        let rows: usize = p.trim().parse().context("P in PxQ is not a number")?;
        let cols: usize = q.trim().parse().context("Q in PxQ is not a number")?;
        if rows == 0 || cols == 0 {
            bail!("box sides must be at least 1");
        }
        Ok(BoxArg { rows, cols })
    }
}

impl From<FormatArg> for TextLayout {
    fn from(format: FormatArg) -> TextLayout {
        match format {
            FormatArg::Auto => TextLayout::Auto,
            FormatArg::Line => TextLayout::Line,
            FormatArg::Block => TextLayout::Block,
            FormatArg::Json => TextLayout::Json,
        }
    }
}

impl InputArgs {
    /// The reader options these flags ask for.
    pub fn read_options(&self) -> ReadOptions {
        read_options(self.box_shape, self.latin, self.format)
    }
}

/// The reader options of `--box`, `--latin` and `--format`.
pub fn read_options(box_shape: Option<BoxArg>, latin: bool, format: FormatArg) -> ReadOptions {
    let shape = match (box_shape, latin) {
        (Some(b), _) => Some(ShapeSpec::Box(b.rows, b.cols)),
        (None, true) => Some(ShapeSpec::Latin),
        (None, false) => None,
    };
    ReadOptions {
        format: format.into(),
        shape,
        reject_clashes: true,
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
        if self.resume {
            OpenMode::Resume
        } else if self.force {
            OpenMode::Force
        } else {
            OpenMode::Fresh
        }
    }
}

/// `--time-limit` and `--node-limit` of the commands without a default budget.
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

/// `--backend`, `--scheme`, the limits, `--threads` and `--max-n`: the commands that run one
/// backend (`solve`, `count`).
#[derive(Debug, Clone, Args)]
pub struct SolverArgs {
    /// Backend (default native; `--help` says what each is and takes).
    #[arg(long, value_name = "BACKEND", default_value = sudokit::solve::DEFAULT_BACKEND)]
    pub backend: String,
    /// Propagation scheme of the cp backend (default HAC).
    #[arg(long, value_name = "SCHEME")]
    pub scheme: Option<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Refuse puzzles above order N (answered in place as an error, exit 2); default: the
    /// backend's own limit.
    #[arg(long, value_name = "N")]
    pub max_n: Option<usize>,
    /// Refuse an answer that rests on an external solver's unchecked word: an `unsat`, a
    /// `unique` or an exact count without a checked refutation proof becomes an error.
    #[arg(long)]
    pub require_certificate: bool,
}
