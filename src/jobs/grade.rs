//! `grade` as a job: which of Simonis' propagation schemes solve each puzzle without search (and,
//! with `runtime`, how long a search on each scheme takes); and the per-file summaries
//! ([`GradeSummary`]: percent search-free per scheme, givens, the lattice of schemes found to
//! differ, the runtime table), which add up over the shards of a file.
//!
//! A record is `FILE:LINE: 24 givens; weakest: FCI; search-free: FCI BC ...` (`; refuted (no
//! solution)` when a scheme proved there is none), then `; difficulty: easy` (the label of
//! [`Difficulty`], when the schemes graded decide it); as JSON `{"file", "line", "givens",
//! "search_free", "weakest", "refuted", "difficulty", "candidates", "runtime"}`.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::options::{self, OptionError, Shave, as_text};
use super::pool::Pool;
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::{millis, rounded, stop_word};
use super::solver_options::{NoOtherKeys, RunOptions};
use super::source::{Items, Source, puzzles_of};
use super::summary::{InputSummary, PerInput};
use crate::grade::{Difficulty, FixpointVerdict, Grade, Grader, Spread, Summary, differences};
use crate::propagate::{Scheme, Searcher};
use crate::search::{CountReport, Limits};
use crate::shape::Shape;

/// The options of `grade`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GradeOptions {
    /// The schemes (`all`, `paper`, or names: `FC,HAC`).
    pub schemes: String,
    /// How the shaving schemes shave.
    #[serde(with = "as_text::option")]
    pub shave: Option<Shave>,
    /// Also search each puzzle with each scheme (up to 2 solutions), timed.
    pub runtime: bool,
    /// The budgets per puzzle and scheme of the searches (default: [`DEFAULT_TIME_LIMIT`]
    /// seconds), and the worker threads; flattened, their keys are this type's.
    #[serde(flatten)]
    pub run: RunOptions,
    /// No other key.
    #[serde(flatten)]
    pub others: NoOtherKeys,
}

impl Default for GradeOptions {
    fn default() -> Self {
        GradeOptions {
            schemes: "all".to_string(),
            shave: None,
            runtime: false,
            run: RunOptions {
                time_limit: Some(DEFAULT_TIME_LIMIT),
                ..RunOptions::default()
            },
            others: NoOtherKeys,
        }
    }
}

/// The default time budget of a search per puzzle and scheme (`--runtime`), in seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;

/// The `grade` job; see the module docs.
pub struct GradeJob {
    schemes: Arc<[Scheme]>,
    runtime: bool,
    limits: Limits,
    threads: usize,
    graders: Pool<(Shape, Grader)>,
    searchers: Pool<(Shape, Searcher)>,
}

impl std::fmt::Debug for GradeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GradeJob")
            .field("schemes", &self.schemes)
            .field("runtime", &self.runtime)
            .finish_non_exhaustive()
    }
}

impl GradeJob {
    /// Checks `options`.
    ///
    /// # Errors
    /// An unknown scheme, bad limits.
    pub fn new(options: GradeOptions) -> Result<GradeJob, OptionError> {
        Ok(GradeJob {
            schemes: options::schemes(&options.schemes, options.shave)?.into(),
            runtime: options.runtime,
            limits: options.run.limits(Some(DEFAULT_TIME_LIMIT))?,
            threads: options.run.threads()?,
            graders: Pool::default(),
            searchers: Pool::default(),
        })
    }

    /// The schemes, in the order of the records.
    pub fn schemes(&self) -> &[Scheme] {
        &self.schemes
    }

    /// Whether the records carry search times.
    pub fn runtime(&self) -> bool {
        self.runtime
    }
}

impl Job for GradeJob {
    type Item = PuzzleItem;
    type Record = GradeRecord;

    type Summary = PerInput<GradeSummary>;

    fn name(&self) -> &'static str {
        "grade"
    }

    fn summary(&self) -> PerInput<GradeSummary> {
        let mut empty = GradeSummary::new("", &self.schemes);
        empty.runtime = self.runtime;
        PerInput::new(empty)
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn identity(&self) -> Value {
        json!({
            "schemes": self.schemes.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "runtime": self.runtime,
        })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, control: &Control) -> ItemResult<GradeRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        let shape = puzzle.grid.shape();
        let mut grader = self
            .graders
            .take(|(s, _)| *s == shape)
            .unwrap_or_else(|| (shape, Grader::new(shape)));
        let grade = grader.1.grade(&puzzle.grid, &self.schemes);
        self.graders.give(grader);
        let mut runs = Vec::new();
        if self.runtime {
            let mut searcher = self
                .searchers
                .take(|(s, _)| *s == shape)
                .unwrap_or_else(|| (shape, Searcher::new(shape)));
            for &scheme in self.schemes.iter() {
                match searcher
                    .1
                    .run(&puzzle.grid, scheme, 2, &control.limits(&self.limits))
                {
                    Ok(mut run) => {
                        // The tables use the statistics only.
                        run.solutions.clear();
                        runs.push(run);
                    }
                    Err(e) => {
                        self.searchers.give(searcher);
                        return ItemResult::Failed(ItemError::failed(
                            &item.file,
                            puzzle.line,
                            format!("{scheme}: {e}"),
                        ));
                    }
                }
            }
            self.searchers.give(searcher);
        }
        ItemResult::Done(GradeRecord {
            file: item.file.clone(),
            line: puzzle.line,
            cells: shape.cells(),
            grade,
            schemes: Arc::clone(&self.schemes),
            runs,
        })
    }
}

/// The grade of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct GradeRecord {
    /// Its file.
    pub file: Arc<str>,
    /// Its input line.
    pub line: usize,
    /// n², the candidates left when search-free.
    pub cells: usize,
    /// The verdict of each scheme.
    pub grade: Grade,
    /// The schemes, in order.
    pub schemes: Arc<[Scheme]>,
    /// With `runtime`: one search per scheme, in order (statistics only).
    pub runs: Vec<CountReport>,
}

fn names(schemes: &[Scheme]) -> String {
    if schemes.is_empty() {
        "none".to_string()
    } else {
        schemes
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl JobRecord for GradeRecord {
    fn status(&self) -> Status {
        Status::Done
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{}:{}: {} givens; weakest: {}; search-free: {}",
            self.file,
            self.line,
            self.grade.givens,
            names(&self.grade.weakest()),
            names(&self.grade.search_free()),
        );
        if self.grade.refuted() {
            text.push_str("; refuted (no solution)");
        }
        if let Some(label) = Difficulty::of(&self.grade) {
            let _ = write!(text, "; difficulty: {label}");
        }
        text.push('\n');
        text
    }

    fn json(&self) -> Value {
        let list = |v: Vec<Scheme>| v.iter().map(|s| s.name()).collect::<Vec<_>>();
        let mut candidates = Map::new();
        for &(s, v) in &self.grade.verdicts {
            let left = match v {
                FixpointVerdict::SearchFree => json!(self.cells),
                FixpointVerdict::Open { candidates } => json!(candidates),
                FixpointVerdict::Refuted => Value::Null,
            };
            candidates.insert(s.name().to_string(), left);
        }
        let mut value = json!({
            "file": self.file.as_ref(),
            "line": self.line,
            "givens": self.grade.givens,
            "search_free": list(self.grade.search_free()),
            "weakest": list(self.grade.weakest()),
            "refuted": self.grade.refuted(),
            "difficulty": Difficulty::of(&self.grade).map(Difficulty::name),
            "candidates": candidates,
        });
        if !self.runs.is_empty() {
            let mut runtime = Map::new();
            for (s, run) in self.schemes.iter().zip(&self.runs) {
                runtime.insert(
                    s.name().to_string(),
                    json!({
                        "ms": millis(run.stats.elapsed),
                        "nodes": run.stats.nodes,
                        "backtracks": run.stats.backtracks,
                        "propagations": run.stats.propagations,
                        "solutions": run.count,
                        "complete": run.stopped.is_none(),
                        "stopped": run.stopped.map(stop_word),
                    }),
                );
            }
            value["runtime"] = Value::Object(runtime);
        }
        value
    }
}

/// One timed search of the runtime table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunSample {
    /// Milliseconds.
    pub ms: f64,
    /// Search nodes.
    pub nodes: f64,
    /// Whether a budget stopped it.
    pub stopped: bool,
}

/// The summary of one file (or of a shard of it; [`GradeSummary::merge`] adds them up).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GradeSummary {
    /// The file.
    pub file: String,
    /// Puzzles, givens and search-free counts per scheme.
    pub summary: Summary,
    /// The lattice edges among the schemes, with the puzzles search-free for the stronger only.
    pub lattice: Vec<(Scheme, Scheme, usize)>,
    /// Per scheme, the timed searches (with `runtime`).
    pub runs: Vec<Vec<RunSample>>,
    /// Puzzles that gave an error.
    pub errors: usize,
    /// Whether the closing tables include the search times (`runtime`).
    pub runtime: bool,
}

impl GradeSummary {
    /// An empty summary of `file` for `schemes`.
    pub fn new(file: &str, schemes: &[Scheme]) -> GradeSummary {
        GradeSummary {
            file: file.to_string(),
            summary: Summary::new(schemes),
            lattice: differences(schemes, std::iter::empty()),
            runs: vec![Vec::new(); schemes.len()],
            errors: 0,
            runtime: false,
        }
    }

    /// Adds a result.
    pub fn add(&mut self, result: &ItemResult<GradeRecord>) {
        let record = match result {
            ItemResult::Done(record) => record,
            ItemResult::Failed(_) => {
                self.errors += 1;
                return;
            }
            ItemResult::Cancelled => return,
        };
        self.summary.add(&record.grade);
        for (a, b, count) in &mut self.lattice {
            if record.grade.is_search_free(*b) && !record.grade.is_search_free(*a) {
                *count += 1;
            }
        }
        for (samples, run) in self.runs.iter_mut().zip(&record.runs) {
            samples.push(RunSample {
                ms: run.stats.elapsed.as_secs_f64() * 1e3,
                nodes: run.stats.nodes as f64,
                stopped: run.stopped.is_some(),
            });
        }
    }

    /// Adds the summary of another shard of the same file (same schemes).
    pub fn merge(&mut self, other: &GradeSummary) {
        let (s, o) = (&mut self.summary, &other.summary);
        s.puzzles += o.puzzles;
        s.givens_min = s.givens_min.min(o.givens_min);
        s.givens_max = s.givens_max.max(o.givens_max);
        s.givens_sum += o.givens_sum;
        for (total, k) in s.search_free.iter_mut().zip(&o.search_free) {
            *total += k;
        }
        for (edge, other) in self.lattice.iter_mut().zip(&other.lattice) {
            edge.2 += other.2;
        }
        for (mine, theirs) in self.runs.iter_mut().zip(&other.runs) {
            mine.extend_from_slice(theirs);
        }
        self.errors += other.errors;
    }

    /// The summary object of the file: `{"file", "puzzles", "givens", "search_free",
    /// "lattice", "runtime"}`.
    pub fn json(&self) -> Value {
        let summary = &self.summary;
        let mut search_free = Map::new();
        for (i, s) in summary.schemes.iter().enumerate() {
            search_free.insert(s.name().to_string(), json!(summary.percent(i)));
        }
        let lattice: Vec<Value> = self
            .lattice
            .iter()
            .map(|(a, b, count)| json!({"weaker": a.name(), "stronger": b.name(), "differ": count}))
            .collect();
        let mut value = json!({
            "file": self.file,
            "puzzles": summary.puzzles,
            "givens": {
                "min": if summary.puzzles > 0 { summary.givens_min } else { 0 },
                "avg": rounded(summary.givens_avg(), 2),
                "max": summary.givens_max,
            },
            "search_free": search_free,
            "lattice": lattice,
        });
        if self.runs.iter().any(|r| !r.is_empty()) {
            let mut table = Map::new();
            for (s, sample) in summary.schemes.iter().zip(&self.runs) {
                let (ms, nodes) = samples(sample);
                let spread = |x: Option<Spread>| {
                    x.map(|x| {
                        json!({
                            "min": rounded(x.min, 3),
                            "avg": rounded(x.avg, 3),
                            "median": rounded(x.median, 3),
                            "max": rounded(x.max, 3),
                        })
                    })
                };
                table.insert(
                    s.name().to_string(),
                    json!({
                        "ms": spread(Spread::of(&ms)),
                        "nodes": spread(Spread::of(&nodes)),
                        "unknown": sample.iter().filter(|r| r.stopped).count(),
                    }),
                );
            }
            value["runtime"] = Value::Object(table);
        }
        value
    }
}

impl InputSummary<GradeRecord> for GradeSummary {
    fn add(&mut self, result: &ItemResult<GradeRecord>) {
        GradeSummary::add(self, result);
    }

    fn merge(&mut self, other: &GradeSummary) {
        GradeSummary::merge(self, other);
    }

    fn name(&mut self, input: &str) {
        self.file = input.to_string();
    }

    fn json(&self) -> Value {
        GradeSummary::json(self)
    }

    fn tables(inputs: &[GradeSummary]) -> String {
        let Some(first) = inputs.first() else {
            return String::new();
        };
        summary_tables(&first.summary.schemes, inputs, first.runtime)
    }
}

/// Milliseconds and nodes of a sample of searches.
fn samples(runs: &[RunSample]) -> (Vec<f64>, Vec<f64>) {
    (
        runs.iter().map(|r| r.ms).collect(),
        runs.iter().map(|r| r.nodes).collect(),
    )
}

/// The closing tables of the files: search-free percentages per file and scheme, the lattice
/// over all files, and with `runtime` the search-time table of each file. Empty when no puzzle
/// was graded (tables of nothing say nothing).
pub fn summary_tables(schemes: &[Scheme], files: &[GradeSummary], runtime: bool) -> String {
    let mut out = String::new();
    if files.iter().all(|f| f.summary.puzzles == 0) {
        return out;
    }
    let width = files.iter().map(|f| f.file.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Search-free puzzles (% of each file) per scheme; givens min/avg/max:"
    );
    let _ = write!(out, "{:<width$} {:>7} {:>14}", "file", "puzzles", "givens");
    for s in schemes {
        let _ = write!(out, " {:>6}", s.name());
    }
    let _ = writeln!(out);
    for file in files {
        let summary = &file.summary;
        let givens = if summary.puzzles == 0 {
            "-".to_string()
        } else {
            format!(
                "{}/{:.1}/{}",
                summary.givens_min,
                summary.givens_avg(),
                summary.givens_max
            )
        };
        let _ = write!(
            out,
            "{:<width$} {:>7} {givens:>14}",
            file.file, summary.puzzles
        );
        for i in 0..schemes.len() {
            let _ = write!(out, " {:>6.1}", summary.percent(i));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Lattice (weaker ⊏ stronger, covering pairs among the chosen schemes): puzzles search-free for the stronger only"
    );
    let mut edges = differences(schemes, std::iter::empty());
    for file in files {
        for (edge, other) in edges.iter_mut().zip(&file.lattice) {
            edge.2 += other.2;
        }
    }
    for (a, b, count) in &edges {
        let note = if *count == 0 {
            "  (no difference found)"
        } else {
            ""
        };
        let _ = writeln!(out, "  {:<6} ⊏ {:<6} {count:>7}{note}", a.name(), b.name());
    }
    if runtime {
        for file in files {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "Search time per puzzle (ms; search for up to 2 solutions) and nodes: {}",
                file.file
            );
            let _ = writeln!(
                out,
                "{:<7} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>8}",
                "scheme", "min", "median", "avg", "max", "avg nodes", "max nodes", "unknown"
            );
            for (s, sample) in schemes.iter().zip(&file.runs) {
                let (ms, nodes) = samples(sample);
                let (Some(t), Some(k)) = (Spread::of(&ms), Spread::of(&nodes)) else {
                    continue;
                };
                let _ = writeln!(
                    out,
                    "{:<7} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>10.1} {:>10.0} {:>8}",
                    s.name(),
                    t.min,
                    t.median,
                    t.avg,
                    t.max,
                    k.avg,
                    k.max,
                    sample.iter().filter(|r| r.stopped).count()
                );
            }
        }
    }
    out
}
