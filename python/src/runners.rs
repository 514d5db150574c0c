//! Each batch command on one shard, as a Dask task runs it: the library's batch driver over
//! the shard's puzzles, every result written by the library's [`sudokit::present`] functions,
//! so the lines are those the command line prints; and the per-file summaries, merged from the
//! shards' partial sums in the client.

use pyo3::prelude::*;
use sudokit::batch::{Batch, Finished};
use sudokit::crosscheck::{self, Participant, Tally};
use sudokit::generate::puzzle::{Generated, Generator, puzzle_rng};
use sudokit::grade::{Grade, Grader, Summary, differences};
use sudokit::present::{self, crosscheck::Counts};
use sudokit::propagate::Scheme;
use sudokit::solve::registry;
use sudokit::text::{Record, TextError};

use crate::errors::{failure, value_error};
use crate::grading::{generate_options, parse_schemes};
use crate::puzzle::read_options;
use crate::shards::{Shard, Tail, items};
use crate::solving::{limits, solver};

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

type Item = Result<Record, TextError>;

/// Engines lent to the worker threads of one call: a thread takes one that fits, or makes one,
/// and gives it back when done.
struct Pool<T>(std::sync::Mutex<Vec<T>>);

impl<T> Default for Pool<T> {
    fn default() -> Pool<T> {
        Pool(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T> Pool<T> {
    fn take(&self, fits: impl Fn(&T) -> bool) -> Option<T> {
        let mut free = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = free.iter().position(fits)?;
        Some(free.swap_remove(at))
    }

    fn give(&self, engine: T) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(engine);
    }
}

/// Runs `work` over the shard's items on `threads` threads, in order, handing each result to
/// `emit`; without the GIL.
fn run_shard<R: Send>(
    py: Python<'_>,
    shard: &Shard<'_>,
    options: sudokit::text::ReadOptions,
    threads: usize,
    work: impl Fn(Item) -> R + Sync + Send,
    emit: impl FnMut(R) + Send,
) -> PyResult<()> {
    let items = items(shard, options)?;
    let mut emit = emit;
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
    let solver = solver(backend)?;
    let limits = limits(time_limit, node_limit)?;
    let (mut text, mut total, mut bad, mut negative) = (String::new(), 0, 0, 0);
    let work = |item: Item| -> (String, Option<bool>) {
        let record = match item {
            Err(e) => return (present::read_error_line(json, file, &e), None),
            Ok(record) => record,
        };
        let (grid, line) = (&record.grid, record.line);
        let answered = if unique {
            solver
                .unique(grid, &limits)
                .map(|r| present::solve::outcome(&r.outcome, &r.refutation, &r.stats, line, json))
        } else {
            solver
                .solve(grid, &limits)
                .map(|r| present::solve::answer(&r.answer, &r.refutation, &r.stats, line, json))
        };
        match answered {
            Ok((text, positive)) => (text, Some(positive)),
            Err(e) => (present::failure_line(json, file, line, &e), None),
        }
    };
    let emit = |(line, positive): (String, Option<bool>)| {
        total += 1;
        match positive {
            None => bad += 1,
            Some(false) => negative += 1,
            Some(true) => {}
        }
        text.push_str(&line);
    };
    run_shard(
        py,
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
    let schemes = parse_schemes(schemes, shave)?;
    let mut summary = Summary::new(&schemes);
    let mut lattice = differences(&schemes, std::iter::empty());
    let (mut text, mut bad) = (String::new(), 0);
    // Graders, one per shape met, lent to the worker threads.
    let graders: Pool<(sudokit::Shape, Grader)> = Pool::default();
    let work = |item: Item| -> (String, Option<Grade>) {
        let record = match item {
            Err(e) => return (present::read_error_line(true, file, &e), None),
            Ok(record) => record,
        };
        let shape = record.grid.shape();
        let mut grader = graders
            .take(|(s, _)| *s == shape)
            .unwrap_or_else(|| (shape, Grader::new(shape)));
        let grade = grader.1.grade(&record.grid, &schemes);
        graders.give(grader);
        let value =
            present::grade::puzzle_json(file, record.line, shape.cells(), &grade, &schemes, &[]);
        (present::json_line(&value), Some(grade))
    };
    let emit = |(line, grade): (String, Option<Grade>)| {
        text.push_str(&line);
        match grade {
            None => bad += 1,
            Some(grade) => {
                summary.add(&grade);
                for (a, b, count) in &mut lattice {
                    if grade.is_search_free(*b) && !grade.is_search_free(*a) {
                        *count += 1;
                    }
                }
            }
        }
    };
    run_shard(
        py,
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
    let edges = lattice.iter().map(|e| e.2).collect();
    Ok((
        text,
        (
            summary.puzzles,
            summary.givens_min,
            summary.givens_max,
            summary.givens_sum,
            summary.search_free,
            edges,
            bad,
        ),
    ))
}

/// A file's grade summary, merged from its shards' sums.
#[pyclass(module = "sudokit")]
pub struct GradeSummary {
    schemes: Vec<Scheme>,
    summary: Summary,
    lattice: Vec<(Scheme, Scheme, usize)>,
    bad: usize,
}

#[pymethods]
impl GradeSummary {
    #[new]
    #[pyo3(signature = (schemes = "all", shave = None))]
    fn new(schemes: &str, shave: Option<&str>) -> PyResult<GradeSummary> {
        let schemes = parse_schemes(schemes, shave)?;
        Ok(GradeSummary {
            summary: Summary::new(&schemes),
            lattice: differences(&schemes, std::iter::empty()),
            schemes,
            bad: 0,
        })
    }

    /// Adds a shard's sums.
    fn add(&mut self, sums: GradeSums) -> PyResult<()> {
        let (puzzles, min, max, sum, free, edges, bad) = sums;
        if free.len() != self.schemes.len() || edges.len() != self.lattice.len() {
            return Err(value_error("the sums are of other schemes"));
        }
        let s = &mut self.summary;
        s.puzzles += puzzles;
        s.givens_min = s.givens_min.min(min);
        s.givens_max = s.givens_max.max(max);
        s.givens_sum += sum;
        for (total, k) in s.search_free.iter_mut().zip(free) {
            *total += k;
        }
        for (edge, k) in self.lattice.iter_mut().zip(edges) {
            edge.2 += k;
        }
        self.bad += bad;
        Ok(())
    }

    /// Puzzles graded.
    #[getter]
    fn puzzles(&self) -> usize {
        self.summary.puzzles
    }

    /// Puzzles that could not be read.
    #[getter]
    fn bad(&self) -> usize {
        self.bad
    }

    /// The summary line of `file`, as `sudokit grade --json` writes it.
    fn json_line(&self, file: &str) -> String {
        present::json_line(&present::grade::summary_json(
            file,
            &self.summary,
            &self.lattice,
            &[],
        ))
    }
}

/// The participants of a cross-check: the backends named, or every complete backend built.
fn participants(backends: Option<Vec<String>>) -> PyResult<Vec<Participant>> {
    let names: Vec<String> = match backends {
        Some(names) if !names.is_empty() => names,
        _ => registry::ENTRIES
            .iter()
            .filter(|e| e.is_built() && e.capabilities.complete)
            .map(|e| e.family.to_string())
            .collect(),
    };
    names
        .iter()
        .map(|n| Participant::backend(n).map_err(value_error))
        .collect()
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
    if limit == 0 {
        return Err(value_error("limit must be at least 1"));
    }
    let participants = participants(backends)?;
    let limits = limits(time_limit, node_limit)?;
    let mut tallies = crosscheck::tallies(&participants);
    let mut counts = (0, 0, 0, 0);
    let mut text = String::new();
    let work = |item: Item| match item {
        Err(e) => Err(present::read_error_line(json, file, &e)),
        Ok(record) => Ok((
            record.line,
            sudokit::text::to_text(&record.grid),
            crosscheck::check(&record.grid, &participants, limit, &limits),
        )),
    };
    let emit = |row: Result<(usize, String, crosscheck::PuzzleCheck), String>| {
        counts.0 += 1;
        match row {
            Err(line) => {
                counts.1 += 1;
                text.push_str(&line);
            }
            Ok((line, puzzle, check)) => {
                for ((tally, run), standing) in
                    tallies.iter_mut().zip(&check.runs).zip(&check.standings)
                {
                    tally.add(run, *standing);
                }
                if !check.agreed() {
                    counts.2 += 1;
                } else if !check.decided() {
                    counts.3 += 1;
                }
                text.push_str(&if json {
                    present::json_line(&present::crosscheck::puzzle_json(
                        line, &puzzle, &check, limit,
                    ))
                } else {
                    present::crosscheck::puzzle_text(file, line, &puzzle, &check, limit)
                });
            }
        }
    };
    run_shard(
        py,
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
    let rows = tallies
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
    Ok((text, (rows, counts)))
}

/// A cross-check's summary, merged from its shards' sums.
#[pyclass(module = "sudokit")]
pub struct CrosscheckSummary {
    tallies: Vec<Tally>,
    counts: (usize, usize, usize, usize),
}

#[pymethods]
impl CrosscheckSummary {
    #[new]
    #[pyo3(signature = (backends = None))]
    fn new(backends: Option<Vec<String>>) -> PyResult<CrosscheckSummary> {
        Ok(CrosscheckSummary {
            tallies: crosscheck::tallies(&participants(backends)?),
            counts: (0, 0, 0, 0),
        })
    }

    /// Adds a shard's sums.
    fn add(&mut self, sums: CheckSums) -> PyResult<()> {
        let (rows, counts) = sums;
        if rows.len() != self.tallies.len() {
            return Err(value_error("the sums are of other backends"));
        }
        for (tally, (agreed, disagreed, unknown, skipped, nanos)) in
            self.tallies.iter_mut().zip(rows)
        {
            tally.agreed += agreed;
            tally.disagreed += disagreed;
            tally.unknown += unknown;
            tally.skipped += skipped;
            tally.time += std::time::Duration::from_nanos(nanos);
        }
        self.counts.0 += counts.0;
        self.counts.1 += counts.1;
        self.counts.2 += counts.2;
        self.counts.3 += counts.3;
        Ok(())
    }

    /// `(puzzles, bad, disagreements, undecided)`.
    #[getter]
    fn counts(&self) -> (usize, usize, usize, usize) {
        self.counts
    }

    /// The summary as `sudokit crosscheck` writes it (the table, or with `json` its line).
    #[pyo3(signature = (json = false))]
    fn text(&self, json: bool) -> String {
        let (total, bad, disagreements, undecided) = self.counts;
        let counts = Counts {
            checked: total - bad,
            errors: bad,
            disagreements,
            undecided,
        };
        if json {
            present::json_line(&present::crosscheck::summary_json(&self.tallies, counts))
        } else {
            present::crosscheck::summary_text(&self.tallies, counts)
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
    let shape = sudokit::Shape::sudoku(r#box.0, r#box.1).map_err(value_error)?;
    let options = generate_options(symmetry, givens, scheme, not_scheme, shave, grids, attempts)?;
    Generator::new(shape, options.clone()).map_err(value_error)?;
    // Generators (a search engine and its scratch space each), lent to the worker threads.
    let generators: Pool<Generator> = Pool::default();
    let work = |index: u64| -> Result<(u64, Generated), String> {
        let mut generator = match generators.take(|_| true) {
            Some(generator) => generator,
            None => Generator::new(shape, options.clone()).map_err(|e| e.to_string())?,
        };
        {
            let mut rng = puzzle_rng(seed, index);
            let made = if grid_only {
                generator.complete_grid(&mut rng).map(|grid| Generated {
                    puzzle: grid.clone(),
                    solution: grid,
                    attempts: 1,
                })
            } else {
                generator.generate(&mut rng)
            };
            let made = made
                .map(|m| (index, m))
                .map_err(|e| format!("puzzle {index}: {e}"));
            generators.give(generator);
            made
        }
    };
    let mut text = String::new();
    let finished = py.detach(|| {
        Batch::new(threads).run(
            start..stop,
            work,
            |made: Result<(u64, Generated), String>| {
                let (index, made) = made?;
                text.push_str(&if json {
                    present::json_line(&present::generate::puzzle_json(&made, seed, index))
                } else {
                    present::grid_record(&made.puzzle)
                });
                Ok::<(), String>(())
            },
        )
    });
    match finished {
        Ok(Finished::Complete { .. }) => Ok(text),
        Ok(_) => Err(failure("the batch stopped early")),
        Err(message) => Err(failure(message)),
    }
}
