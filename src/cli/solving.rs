//! Options shared by the commands that run a backend (`solve`, `count`, `bench`): the backend,
//! the per-puzzle limits, the threads, and the ordered parallel batch with a progress line.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use sudokit::batch::{Batch, Finished, Progress};
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
    /// Search-node budget per puzzle; a puzzle that runs out is `unknown`. What a node is
    /// depends on the backend: a guess for the search backends, an LP relaxation for mip and
    /// highs (one takes about a second on a 25×25), a solver call for sat.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl SolverArgs {
    /// The backend spec, with `--scheme` folded in (`--backend cp --scheme S` is `cp:S`).
    pub fn spec(&self) -> anyhow::Result<String> {
        match (&self.scheme, self.backend.as_str()) {
            (None, spec) => Ok(spec.to_string()),
            (Some(scheme), "cp") => Ok(format!("cp:{scheme}")),
            (Some(_), other) => bail!("--scheme goes with --backend cp, not {other}"),
        }
    }

    /// The backend, built by the registry (one route for every spec).
    pub fn solver(&self) -> anyhow::Result<Box<dyn Solver>> {
        Ok(solve::backend(&self.spec()?)?)
    }

    /// The per-puzzle limits.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        Ok(Limits {
            time: self
                .time_limit
                .map(|s| seconds("--time-limit", s))
                .transpose()?,
            nodes: at_least_one("--node-limit", self.node_limit)?,
            cancel: None,
        })
    }

    /// The worker threads asked for (see [`threads`]).
    pub fn threads(&self) -> anyhow::Result<usize> {
        threads(self.threads)
    }
}

/// A number of seconds given on the command line: finite and positive; one too large for a
/// [`Duration`] is as good as no limit (the largest duration).
pub fn seconds(flag: &str, value: f64) -> anyhow::Result<Duration> {
    if !(value.is_finite() && value > 0.0) {
        bail!("{flag} must be a positive number of seconds, not {value}");
    }
    Ok(Duration::try_from_secs_f64(value).unwrap_or(Duration::MAX))
}

/// A count given on the command line that must be at least 1 (`--limit`, `--node-limit`,
/// `--max-n`, `--threads`): one rule for every such flag.
pub fn at_least_one(flag: &str, value: Option<u64>) -> anyhow::Result<Option<u64>> {
    match value {
        Some(0) => bail!("{flag} must be at least 1"),
        other => Ok(other),
    }
}

/// The most worker threads a command starts: a few per core. More only cost memory and start-up
/// time (`--threads 10000` on one puzzle once took two minutes).
pub fn max_threads() -> usize {
    4 * cores()
}

/// The cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads N`, checked: at least 1, at most [`max_threads`] (said on standard error when
/// capped); all cores by default.
pub fn threads(requested: Option<usize>) -> anyhow::Result<usize> {
    match requested {
        None => Ok(cores()),
        Some(0) => bail!("--threads must be at least 1"),
        // Up to 4 threads never exceed the cap: no need to ask how many cores there are.
        Some(n) if n > 4 && n > max_threads() => {
            super::note!(
                "sudokit: --threads {n} is more than 4 per core; using {} ({} cores)",
                max_threads(),
                cores()
            );
            Ok(max_threads())
        }
        Some(n) => Ok(n),
    }
}

/// A rayon pool of `threads` threads, for the commands that split one job over the cores.
pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// The library's batch driver on `threads` threads, stopped by a signal or the `--timeout`
/// deadline.
pub fn batch(threads: usize) -> Batch {
    let batch = Batch::new(threads).with_cancel(super::stop::batch_cancel());
    match super::stop::deadline() {
        Some(deadline) => batch.with_deadline(deadline),
        None => batch,
    }
}

/// A batch longer than this shows a progress line (when standard error is a terminal).
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// Runs `work` over every item on `threads` threads with the library's batch driver
/// ([`sudokit::batch`]), and hands the results to `emit` in input order, each as soon as it is
/// settled. `emit` may fail (a closed pipe), which stops the batch. A progress line counts the
/// results on a terminal once the batch has run [`PROGRESS_AFTER`].
///
/// Returns `false` when the `--timeout` deadline stopped the batch: no item starts after it, and
/// the results emitted are a prefix. The caller also checks that `items` is exhausted.
pub fn ordered_batch<I, X, T>(
    threads: usize,
    items: I,
    work: impl Fn(X) -> T + Sync,
    mut emit: impl FnMut(T) -> anyhow::Result<()> + Send,
) -> anyhow::Result<bool>
where
    I: Iterator<Item = X> + Send,
    X: Send,
    T: Send,
{
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pos} done, {per_sec}, {elapsed}")
                .expect("valid template"),
        );
        bar
    });
    let mut batch = batch(threads);
    if let Some(bar) = &bar {
        let bar = bar.clone();
        batch = batch.with_progress(Arc::new(move |p: Progress| {
            if bar.is_hidden() && p.elapsed >= PROGRESS_AFTER {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_position(p.done as u64);
        }));
    }
    let finished = batch.run(items, work, &mut emit)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    std::io::stderr().flush().ok();
    Ok(matches!(finished, Finished::Complete { .. }))
}
