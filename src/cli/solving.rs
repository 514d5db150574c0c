//! Options shared by the commands that run a backend (`solve`, `count`, `bench`): the backend,
//! the per-puzzle limits, the thread pool, and the ordered parallel batch with a progress bar.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sudokit::solve::{self, Limits, Solver};

/// `--backend`, `--time-limit`, `--node-limit`, `--threads`.
#[derive(Debug, Clone, Args)]
pub struct SolverArgs {
    /// Backend: native (default), backtrack, fc-mrv, bitwise, norvig, cp, dlx, colour
    /// (colour:dsatur, colour:graph: plain DSATUR per unit, per edge), sat (sat:ENCODING:AMO),
    /// grasp (heuristic; `grasp:pre=FCI,alpha=2,seed=0,plateau=1000,nodes=1000000` sets its
    /// options).
    #[arg(long, default_value = solve::DEFAULT_BACKEND)]
    pub backend: String,
    /// Propagation scheme of the cp backend (FC, FCI, BC, BCI, HAC, HACS, ..., HACV; default HAC).
    #[arg(long, value_name = "SCHEME")]
    pub scheme: Option<String>,
    /// Time budget per puzzle in seconds (e.g. 0.5); a puzzle that runs out is `unknown`.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Search-node budget per puzzle; a puzzle that runs out is `unknown`.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl SolverArgs {
    /// The backend, with the registry's message for a bad name.
    pub fn solver(&self) -> anyhow::Result<Box<dyn Solver>> {
        match (&self.scheme, self.backend.as_str()) {
            (Some(scheme), "cp") => {
                let scheme: sudokit::propagate::Scheme = scheme.parse()?;
                Ok(Box::new(solve::Verified(solve::Cp { scheme })))
            }
            (Some(_), other) => bail!("--scheme goes with --backend cp, not {other}"),
            (None, name) => Ok(solve::backend(name)?),
        }
    }

    /// The per-puzzle limits.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        let time = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => bail!("--time-limit must be a positive number of seconds, not {s}"),
        };
        Ok(Limits {
            time,
            nodes: self.node_limit,
            cancel: None,
        })
    }

    /// A rayon pool with the requested number of threads.
    pub fn pool(&self) -> anyhow::Result<rayon::ThreadPool> {
        let mut builder = rayon::ThreadPoolBuilder::new();
        match self.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(n) => builder = builder.num_threads(n),
            None => {}
        }
        builder.build().context("cannot start the worker threads")
    }
}

/// Puzzles handled per parallel chunk: large enough to keep the cores busy, small enough that
/// output starts at once and memory stays bounded.
const CHUNK: usize = 512;

/// A batch above this many puzzles shows a progress bar (when standard error is a terminal).
const PROGRESS_AFTER: u64 = 2000;

/// Runs `work` over every item on `pool`, chunk by chunk, and hands the results to `emit` in
/// input order. `emit` may fail (a closed pipe), which stops the batch. The items are usually
/// the puzzles read ([`super::batch::Item`]), possibly numbered.
///
/// Returns `false` when the `--timeout` deadline stopped the batch: no item starts after it,
/// and the results emitted are those before the first item not started (a prefix). The caller
/// also checks that `items` is exhausted.
pub fn ordered_batch<I, X, T>(
    pool: &rayon::ThreadPool,
    items: I,
    work: impl Fn(X) -> T + Sync,
    mut emit: impl FnMut(T) -> anyhow::Result<()>,
) -> anyhow::Result<bool>
where
    I: Iterator<Item = X>,
    X: Send,
    T: Send,
{
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pos} puzzles, {per_sec}, {elapsed}")
                .expect("valid template"),
        );
        bar
    });
    let mut items = items.peekable();
    let mut done: u64 = 0;
    let mut finished = true;
    // --timeout: no new chunk once the deadline has passed (the caller sees the input left).
    'chunks: while items.peek().is_some() {
        if super::stop::expired() {
            finished = false;
            break;
        }
        let chunk: Vec<X> = items.by_ref().take(CHUNK).collect();
        let results: Vec<Option<T>> = pool.install(|| {
            chunk
                .into_par_iter()
                .map(|item| (!super::stop::expired()).then(|| work(item)))
                .collect()
        });
        for result in results {
            match result {
                Some(result) => emit(result)?,
                None => {
                    finished = false;
                    break 'chunks;
                }
            }
        }
        done += CHUNK as u64;
        if let Some(bar) = &progress {
            if done >= PROGRESS_AFTER && bar.is_hidden() {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            bar.set_position(done);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    std::io::stderr().flush().ok();
    Ok(finished)
}
