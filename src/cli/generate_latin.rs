//! `sudokit generate-latin --order M --holes H`: random partial Latin squares to reduce and solve.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args as ClapArgs, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::generate::latin::{quasigroup_with_holes, random_partial};
use sudokit::text::{to_json, to_text};

use sudokit::jobs::target::write_or_print;

/// Arguments of `generate-latin`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Kinds:\n  qwh      a random complete square (Jacobson–Matthews) with --holes cells emptied: \
always completable\n  partial  --givens random consistent givens: may have no completion\n\n\
Output: one line of m² symbols per square (read them back with --latin).\n\nExamples:\n  \
sudokit generate-latin --order 5 --holes 12 --count 3 --seed 7\n  \
sudokit generate-latin --order 6 --kind partial --givens 14 --count 10"
)]
pub struct Args {
    /// Order N of the squares.
    #[arg(long, value_name = "N")]
    order: usize,
    /// Which kind of square.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = Kind::Qwh)]
    kind: Kind,
    /// Cells to empty (kind qwh).
    #[arg(long, value_name = "N", required_if_eq("kind", "qwh"))]
    holes: Option<usize>,
    /// Givens to place (kind partial).
    #[arg(long, value_name = "N", required_if_eq("kind", "partial"))]
    givens: Option<usize>,
    /// How many squares.
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: usize,
    /// Random seed: the same seed gives the same squares.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// One JSON object per square instead of lines.
    #[arg(long)]
    json: bool,
    /// Write the squares to FILE (written whole; standard output if absent or `-`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The kinds of partial Latin square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Kind {
    /// Quasigroup with holes (completable).
    Qwh,
    /// Random consistent givens (maybe not completable).
    Partial,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.kind == Kind::Qwh && args.givens.is_some() {
        bail!("--givens goes with --kind partial; use --holes with qwh");
    }
    if args.kind == Kind::Partial && args.holes.is_some() {
        bail!("--holes goes with --kind qwh; use --givens with partial");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut text = String::new();
    for _ in 0..args.count {
        let square = match args.kind {
            Kind::Qwh => quasigroup_with_holes(args.order, args.holes.unwrap_or(0), &mut rng)?,
            Kind::Partial => random_partial(args.order, args.givens.unwrap_or(0), &mut rng)?,
        };
        if args.json {
            let _ = writeln!(text, "{}", to_json(&square));
        } else {
            // Orders above 35 come out as grid blocks, which a blank line separates.
            let written = to_text(&square);
            text.push_str(&written);
            text.push('\n');
            if written.ends_with('\n') {
                text.pop();
                text.push('\n');
                text.push('\n');
            }
        }
    }
    write_or_print(args.output.as_deref(), text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
