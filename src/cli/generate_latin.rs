//! `sudokit generate-latin --order M --holes H`: the flags of the library's generate-latin job
//! ([`sudokit::jobs::generate_latin`]).

use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::jobs::generate_latin::{GenerateLatinJob, GenerateLatinOptions, LatinKind};
use sudokit::text::ReadOptions;

use super::args::{OutputArgs, ThreadsArg};
use super::runner;

/// Arguments of `generate-latin`.
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Kinds:\n  qwh      a random complete square (Jacobson–Matthews) with --holes cells emptied: \
always completable\n  partial  --givens random consistent givens: may have no completion\n\n\
Output: one line of m² symbols per square (read them back with --latin). Square i depends only \
on the seed and i, whatever the threads; -o FILE --resume finishes an interrupted run.\n\n\
Examples:\n  \
sudokit generate-latin --order 5 --holes 12 --count 3 --seed 7\n  \
sudokit generate-latin --order 6 --kind partial --givens 14 --count 10"
)]
pub struct Args {
    /// Order m of the squares.
    #[arg(long, value_name = "N")]
    order: usize,
    /// How the squares are made.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = LatinKind::Qwh)]
    kind: LatinKind,
    /// Cells emptied (qwh).
    #[arg(long, value_name = "N", required_if_eq("kind", "qwh"))]
    holes: Option<usize>,
    /// Givens placed (partial).
    #[arg(long, value_name = "N", required_if_eq("kind", "partial"))]
    givens: Option<usize>,
    /// How many squares.
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: u64,
    /// Base seed: square i comes from the random stream (seed, i).
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// One JSON object per square.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let job = GenerateLatinJob::new(GenerateLatinOptions {
        order: args.order,
        kind: args.kind,
        holes: args.holes,
        givens: args.givens,
        count: args.count,
        seed: args.seed,
        threads: args.threads.get(),
    })?;
    runner::plain(
        &job,
        &[],
        ReadOptions::default(),
        Some(&args.output),
        args.json,
    )
}
