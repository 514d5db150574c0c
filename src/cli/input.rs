//! The input options every command that reads puzzles shares: `--box`, `--latin`, `--format`.

use std::str::FromStr;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use sudokit::text::{Format, ReadOptions, ShapeSpec};

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
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
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

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Auto => Format::Auto,
            FormatArg::Line => Format::Line,
            FormatArg::Block => Format::Block,
            FormatArg::Json => Format::Json,
        }
    }
}

impl InputArgs {
    /// The reader options these flags ask for.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format.into(),
            shape: self.shape_spec(),
            reject_clashes: true,
        }
    }

    /// The shape override, if any.
    pub fn shape_spec(&self) -> Option<ShapeSpec> {
        match (self.box_shape, self.latin) {
            (Some(b), _) => Some(ShapeSpec::Box(b.rows, b.cols)),
            (None, true) => Some(ShapeSpec::Latin),
            (None, false) => None,
        }
    }
}

/// The `index`-th puzzle (1-based) of a file; a bad entry before it is an error.
pub fn nth_puzzle(
    path: &std::path::Path,
    options: ReadOptions,
    index: usize,
) -> anyhow::Result<sudokit::Grid> {
    let mut reader = super::batch::puzzles(path, options)?;
    let mut seen = 0;
    for item in reader.by_ref() {
        seen += 1;
        if seen == index {
            return item
                .map(|record| record.grid)
                .map_err(|e| anyhow::anyhow!(super::batch::located(path, &e)));
        }
    }
    bail!(
        "{} holds {seen} puzzles, so there is no puzzle {index}",
        path.display()
    )
}
