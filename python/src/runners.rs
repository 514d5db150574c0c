//! Each batch command on one shard, as a Dask task runs it: the library's job of the command
//! ([`sudokit::jobs`]) over the shard's puzzles on the library's batch driver, every record
//! written by the job, so the lines are those the command line prints; and the per-file
//! summaries, merged from the shards' partial sums in the client.

use std::sync::Arc;

use pyo3::prelude::*;
use sudokit::batch::{Batch, Finished};
use sudokit::crosscheck::Tally;
use sudokit::jobs::crosscheck::{CrosscheckCounts, CrosscheckJob, CrosscheckOptions};
use sudokit::jobs::generate::{GenerateJob, GenerateOptions};
use sudokit::jobs::grade::{GradeJob, GradeOptions, GradeSummary as FileSummary};
use sudokit::jobs::render::json_line;
use sudokit::jobs::solve::{SolveJob, SolveOptions};
use sudokit::jobs::{Control, ItemResult, Job, JobRecord, PuzzleItem, Status};
use sudokit::search::Cancel;

use crate::errors::{failure, value_error};
use crate::grading::{generate_options, parse_schemes};
use crate::puzzle::read_options;
use crate::shards::{Shard, Tail, items};

/// Registers the shard reader, the runners and the summaries.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<crate::shards::ShardReader>()?;
    m.add_function(wrap_pyfunction!(crate::shards::shards, m)?)?;
    m.add_function(wrap_pyfunction!(solve_shard, m)?)?;
    m.add_function(wrap_pyfunction!(grade_shard, m)?)?;
    m.add_class::<GradeSummary>()?;
    m.add_function(wrap_pyfunction!(crosscheck_shard, m)?)?;
    m.add_class::<CrosscheckSummary>()?;
    m.add_function(wrap_pyfunction!(generate_range, m)?)?;
    Ok(())
}


/// Runs `work` over the shard's items on `threads` threads, in order, handing each result to
/// `emit`; without the GIL.
fn run_shard<R: Send>(
    py: Python<'_>,
    file: &str,
    shard: &Shard<'_>,
    options: sudokit::text::ReadOptions,
    threads: usize,
    work: impl Fn(PuzzleItem) -> R + Sync + Send,
    emit: impl FnMut(R) + Send,
) -> PyResult<()> {
    let items = items(shard, options)?;
    let mut emit = emit;
    let file: Arc<str> = Arc::from(file);
    let items = items
        .enumerate()
        .map(move |(index, read)| PuzzleItem::new(file.clone(), index, read));
    let finished = py.detach(|| {
        Batch::new(threads).run(items, work, |r| {
            emit(r);
            Ok::<(), ()>(())
        })
    });
    match finished {
        Ok(Finished::Complete { .. }) => Ok(()),
        _ => Err(failure("the shard's batch stopped early")),
    }
}

/// `sudokit solve` on a shard: `(text, puzzles, bad, negative)`.
#[pyfunction]
#[pyo3(signature = (file, first_line, form, data, tail, backend = "native", unique = false, json = false, time_limit = None, node_limit = None, threads = 1, r#box = None, latin = false))]
#[allow(clippy::too_many_arguments)]
pub fn solve_shard(
    py: Python<'_>,
    file: &str,
    first_line: usize,
    form: &str,
    data: &[u8],
    tail: Option<Tail>,
    backend: &str,
    unique: bool,
    json: bool,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: usize,
    r#box: Option<(usize, usize)>,
    latin: bool,
) -> PyResult<(String, usize, usize, usize)> {
    let job = SolveJob::new(SolveOptions {
        backend: backend.to_string(),
        unique,
        time_limit,
        node_limit,
        threads: Some(threads),
        ..SolveOptions::default()
    })
    .map_err(value_error)?;
    let control = Control::new();
    let (mut text, mut total, mut bad, mut negative) = (String::new(), 0, 0, 0);
    let work = |item: PuzzleItem| {
        let result = job.run(item, &control);
        (result.render(json), result.status())
    };
    let emit = |(line, status): (String, Option<Status>)| {
        total += 1;
        match status {
            Some(Status::Error) | None => bad += 1,
            Some(Status::Negative | Status::Unknown) => negative += 1,
            Some(Status::Done) => {}
        }
        text.push_str(&line);
    };
    run_shard(
        py,
        file,
        &Shard {
            first: first_line,
            form,
            data,
            tail,
        },
        read_options(r#box, latin, None)?,
        threads,
        work,
        emit,
    )?;
    Ok((text, total, bad, negative))
}

/// A shard's share of a file's grade summary: `(puzzles, givens min, givens max, givens sum,
/// search-free per scheme, puzzles per lattice edge, bad puzzles)`.
type GradeSums = (usize, usize, usize, usize, Vec<usize>, Vec<usize>, usize);

/// `sudokit grade --json` on a shard: `(text, sums)`.
#[pyfunction]
#[pyo3(signature = (file, first_line, form, data, tail, schemes = "all", shave = None, threads = 1, r#box = None, latin = false))]
#[allow(clippy::too_many_arguments)]
pub fn grade_shard(
    py: Python<'_>,
    file: &str,
    first_line: usize,
    form: &str,
    data: &[u8],
    tail: Option<Tail>,
    schemes: &str,
    shave: Option<&str>,
    threads: usize,
    r#box: Option<(usize, usize)>,
    latin: bool,
) -> PyResult<(String, GradeSums)> {
    let job = GradeJob::new(GradeOptions {
        schemes: schemes.to_string(),
        shave: shave.map(|s| s.parse()).transpose().map_err(value_error)?,
        threads: Some(threads),
        ..GradeOptions::default()
    })
    .map_err(value_error)?;
    let control = Control::new();
    let mut summary = job.summary(file);
    let mut text = String::new();
    let work = |item: PuzzleItem| job.run(item, &control);
    let emit = |result: ItemResult<sudokit::jobs::grade::GradeRecord>| {
        text.push_str(&result.render(true));
        summary.add(&result);
    };
    run_shard(
        py,
        file,
        &Shard {
            first: first_line,
            form,
            data,
            tail,
        },
        read_options(r#box, latin, None)?,
        threads,
        work,
        emit,
    )?;
    let edges = summary.lattice.iter().map(|e| e.2).collect();
    let sums = &summary.summary;
    Ok((
        text,
        (
            sums.puzzles,
            sums.givens_min,
            sums.givens_max,
            sums.givens_sum,
            sums.search_free.clone(),
            edges,
            summary.errors,
        ),
    ))
}

/// A file's grade summary, merged from its shards' sums.
#[pyclass(module = "sudokit")]
pub struct GradeSummary {
    summary: FileSummary,
}

#[pymethods]
impl GradeSummary {
    #[new]
    #[pyo3(signature = (schemes = "all", shave = None))]
    fn new(schemes: &str, shave: Option<&str>) -> PyResult<GradeSummary> {
        let schemes = parse_schemes(schemes, shave)?;
        Ok(GradeSummary {
            summary: FileSummary::new("", &schemes),
        })
    }

    /// Adds a shard's sums.
    fn add(&mut self, sums: GradeSums) -> PyResult<()> {
        let (puzzles, min, max, sum, free, edges, bad) = sums;
        let mut shard = FileSummary::new("", &self.summary.summary.schemes);
        if free.len() != shard.summary.schemes.len() || edges.len() != shard.lattice.len() {
            return Err(value_error("the sums are of other schemes"));
        }
        let s = &mut shard.summary;
        s.puzzles = puzzles;
        s.givens_min = min;
        s.givens_max = max;
        s.givens_sum = sum;
        s.search_free = free;
        for (edge, k) in shard.lattice.iter_mut().zip(edges) {
            edge.2 = k;
        }
        shard.errors = bad;
        self.summary.merge(&shard);
        Ok(())
    }

    /// Puzzles graded.
    #[getter]
    fn puzzles(&self) -> usize {
        self.summary.summary.puzzles
    }

    /// Puzzles that could not be read.
    #[getter]
    fn bad(&self) -> usize {
        self.summary.errors
    }

    /// The summary line of `file`, as `sudokit grade --json` writes it.
    fn json_line(&self, file: &str) -> String {
        let mut summary = self.summary.clone();
        summary.file = file.to_string();
        json_line(&summary.json())
    }
}

/// The cross-check job of the backends named (default: the library's default participants).
fn crosscheck_job(
    backends: Option<Vec<String>>,
    limit: u64,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    threads: usize,
) -> PyResult<CrosscheckJob> {
    let defaults = CrosscheckOptions::default();
    CrosscheckJob::new(CrosscheckOptions {
        backends: backends.unwrap_or_default(),
        limit,
        time_limit: time_limit.unwrap_or(defaults.time_limit),
        node_limit,
        threads: Some(threads),
        ..defaults
    })
    .map_err(value_error)
}

/// A shard's share of a cross-check's summary: per participant `(agreed, disagreed, unknown,
/// skipped, nanoseconds)`, and `(puzzles, bad, disagreements, undecided)`.
type CheckSums = (
    Vec<(usize, usize, usize, usize, u64)>,
    (usize, usize, usize, usize),
);

/// `sudokit crosscheck` on a shard: `(text, sums)`.
#[pyfunction]
#[pyo3(signature = (file, first_line, form, data, tail, backends = None, limit = 2, time_limit = 10.0, node_limit = None, json = false, threads = 1, r#box = None, latin = false))]
#[allow(clippy::too_many_arguments)]
pub fn crosscheck_shard(
    py: Python<'_>,
    file: &str,
    first_line: usize,
    form: &str,
    data: &[u8],
    tail: Option<Tail>,
    backends: Option<Vec<String>>,
    limit: u64,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    json: bool,
    threads: usize,
    r#box: Option<(usize, usize)>,
    latin: bool,
) -> PyResult<(String, CheckSums)> {
    let job = crosscheck_job(backends, limit, time_limit, node_limit, threads)?;
    let control = Control::new();
    let mut summary = job.summary();
    let mut text = String::new();
    let work = |item: PuzzleItem| job.run(item, &control);
    let emit = |result: ItemResult<sudokit::jobs::crosscheck::CrosscheckRecord>| {
        text.push_str(&result.render(json));
        summary.add(&result);
    };
    run_shard(
        py,
        file,
        &Shard {
            first: first_line,
            form,
            data,
            tail,
        },
        read_options(r#box, latin, None)?,
        threads,
        work,
        emit,
    )?;
    let rows = summary
        .tallies
        .iter()
        .map(|t| {
            (
                t.agreed,
                t.disagreed,
                t.unknown,
                t.skipped,
                t.time.as_nanos() as u64,
            )
        })
        .collect();
    let c = summary.counts;
    let total = c.checked + c.errors;
    Ok((text, (rows, (total, c.errors, c.disagreements, c.undecided))))
}

/// A cross-check's summary, merged from its shards' sums.
#[pyclass(module = "sudokit")]
pub struct CrosscheckSummary {
    summary: sudokit::jobs::crosscheck::CrosscheckSummary,
}

#[pymethods]
impl CrosscheckSummary {
    #[new]
    #[pyo3(signature = (backends = None))]
    fn new(backends: Option<Vec<String>>) -> PyResult<CrosscheckSummary> {
        Ok(CrosscheckSummary {
            summary: crosscheck_job(backends, 2, None, None, 1)?.summary(),
        })
    }

    /// Adds a shard's sums.
    fn add(&mut self, sums: CheckSums) -> PyResult<()> {
        let (rows, (total, bad, disagreements, undecided)) = sums;
        if rows.len() != self.summary.tallies.len() {
            return Err(value_error("the sums are of other backends"));
        }
        let tallies = self
            .summary
            .tallies
            .iter()
            .zip(rows)
            .map(|(t, (agreed, disagreed, unknown, skipped, nanos))| Tally {
                name: t.name.clone(),
                agreed,
                disagreed,
                unknown,
                skipped,
                time: std::time::Duration::from_nanos(nanos),
            })
            .collect();
        self.summary
            .merge(&sudokit::jobs::crosscheck::CrosscheckSummary {
                tallies,
                counts: CrosscheckCounts {
                    checked: total - bad,
                    errors: bad,
                    disagreements,
                    undecided,
                },
            });
        Ok(())
    }

    /// `(puzzles, bad, disagreements, undecided)`.
    #[getter]
    fn counts(&self) -> (usize, usize, usize, usize) {
        let c = self.summary.counts;
        (c.checked + c.errors, c.errors, c.disagreements, c.undecided)
    }

    /// The summary as `sudokit crosscheck` writes it (the table, or with `json` its line).
    #[pyo3(signature = (json = false))]
    fn text(&self, json: bool) -> String {
        if json {
            json_line(&self.summary.json())
        } else {
            self.summary.text()
        }
    }
}

/// `sudokit generate` for the puzzles `start..stop` of a run seeded with `seed`: their lines
/// (puzzle lines, or with `json` the JSON objects).
#[pyfunction]
#[pyo3(signature = (r#box, seed, start, stop, json = false, grid_only = false, symmetry = "none", givens = None, scheme = None, not_scheme = None, shave = None, grids = "search", attempts = 1000, threads = 1))]
#[allow(clippy::too_many_arguments)]
pub fn generate_range(
    py: Python<'_>,
    r#box: (usize, usize),
    seed: u64,
    start: u64,
    stop: u64,
    json: bool,
    grid_only: bool,
    symmetry: &str,
    givens: Option<usize>,
    scheme: Option<&str>,
    not_scheme: Option<&str>,
    shave: Option<&str>,
    grids: &str,
    attempts: usize,
    threads: usize,
) -> PyResult<String> {
    let base = generate_options(symmetry, givens, scheme, not_scheme, shave, grids, attempts)?;
    let job = GenerateJob::new(GenerateOptions {
        boxes: r#box,
        count: stop,
        seed,
        symmetry: base.symmetry,
        givens: base.givens,
        scheme: base.scheme,
        not_scheme: base.not_scheme,
        grids: base.source,
        attempts: base.attempts,
        grid_only,
        threads: Some(threads),
        ..GenerateOptions::default()
    })
    .map_err(value_error)?;
    let cancel = Cancel::new();
    let work = |index: u64| -> Result<String, String> {
        job.make(index, &cancel)
            .map(|record| record.render(json))
            .map_err(|e| format!("puzzle {index}: {e}"))
    };
    let mut text = String::new();
    let finished = py.detach(|| {
        Batch::new(threads).run(start..stop, work, |made: Result<String, String>| {
            text.push_str(&made?);
            Ok::<(), String>(())
        })
    });
    match finished {
        Ok(Finished::Complete { .. }) => Ok(text),
        Ok(_) => Err(failure("the batch stopped early")),
        Err(message) => Err(failure(message)),
    }
}
