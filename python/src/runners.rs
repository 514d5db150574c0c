//! The jobs on a Dask cluster: a task runs the library's job of a command ([`crate::jobs`]) over
//! a shard of its input on the library's driver and returns its records as entries (input
//! line, item key, status, rendered text) and its share of the command's summary; the client
//! places the entries in input order with a [`RecordWriter`] (the library's driver and sink: a
//! resumable result file, continued by `resume`, or the caller's stream) and adds the shares
//! up in a [`ShardSummary`] (the library's summaries and tables).

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::prelude::*;
use serde_json::{Value, json};
use sudokit::jobs::crosscheck::CrosscheckSummary;
use sudokit::jobs::grade::{GradeSummary, summary_tables};
use sudokit::jobs::minimize::{MinimizeSummary, summary_table};
use sudokit::jobs::render::json_line;
use sudokit::jobs::verify::Pair;
use sudokit::jobs::{
    Control, Driver, ItemResult, Job, JobItem, JobRecord, OpenMode, PuzzleItem, Ran, Sink, Status,
    Tally,
};
use sudokit::text::ReadOptions;

use crate::errors::{failure, value_error};
use crate::jobs::{AnyJob, RunTally, with_job};
use crate::puzzle::read_options;
use crate::shards::{Shard, Tail, items};

/// Registers the shard reader, the shard runner, the writer and the summaries.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<crate::shards::ShardReader>()?;
    m.add_function(wrap_pyfunction!(crate::shards::shards, m)?)?;
    m.add_function(wrap_pyfunction!(run_shard, m)?)?;
    m.add_class::<RecordWriter>()?;
    m.add_class::<ShardSummary>()?;
    Ok(())
}

/// A record as a task returns it: `(input line, item key, status word, text)`.
pub type Entry = (usize, u64, String, String);

/// A job whose records keep the line and key of their item, so that the client can index them
/// in a resumable output.
struct Keyed<'a, J> {
    job: &'a J,
    json: bool,
}

/// The result of a [`Keyed`] job: the inner job's result (a record or an item error) with its
/// item's line and key.
struct KeyedRecord<R> {
    line: usize,
    key: u64,
    result: ItemResult<R>,
    json: bool,
}

impl<R: JobRecord> JobRecord for KeyedRecord<R> {
    fn status(&self) -> Status {
        self.result.status().unwrap_or(Status::Error)
    }

    fn text(&self) -> String {
        self.result.render(false)
    }

    fn json(&self) -> Value {
        Value::Null
    }

    fn render(&self, _json: bool) -> String {
        self.result.render(self.json)
    }
}

impl<J: Job> Job for Keyed<'_, J> {
    type Item = J::Item;
    type Record = KeyedRecord<J::Record>;

    fn name(&self) -> &'static str {
        self.job.name()
    }

    fn identity(&self) -> Value {
        self.job.identity()
    }

    fn workers(&self) -> usize {
        self.job.workers()
    }

    fn run(&self, item: J::Item, control: &Control) -> ItemResult<KeyedRecord<J::Record>> {
        let (line, key) = (item.line(), item.key());
        match self.job.run(item, control) {
            ItemResult::Cancelled => ItemResult::Cancelled,
            result => ItemResult::Done(KeyedRecord {
                line,
                key,
                result,
                json: self.json,
            }),
        }
    }
}

/// A shard's share of a command's summary, as JSON (see [`ShardSummary::add`]).
enum Share {
    None,
    Grade(GradeSummary),
    Crosscheck(CrosscheckSummary),
    Minimize(MinimizeSummary),
}

impl Share {
    fn of(job: &AnyJob) -> Share {
        match job {
            AnyJob::Grade(g) => Share::Grade(g.summary("")),
            AnyJob::Crosscheck(c) => Share::Crosscheck(c.summary()),
            AnyJob::Minimize(_) => Share::Minimize(MinimizeSummary::new("")),
            _ => Share::None,
        }
    }

    fn add<R: 'static>(&mut self, result: &ItemResult<R>) {
        let any = result as &dyn std::any::Any;
        match self {
            Share::None => {}
            Share::Grade(s) => s.add(any.downcast_ref().expect("grade records")),
            Share::Crosscheck(s) => s.add(any.downcast_ref().expect("cross-check records")),
            Share::Minimize(s) => s.add(any.downcast_ref().expect("minimize records")),
        }
    }

    /// The share as JSON text (`None` for commands without a summary).
    fn to_json(&self) -> Option<String> {
        let value = match self {
            Share::None => return None,
            Share::Grade(g) => {
                let s = &g.summary;
                json!({
                    "puzzles": s.puzzles,
                    "givens": [s.givens_min, s.givens_max, s.givens_sum],
                    "search_free": s.search_free,
                    "lattice": g.lattice.iter().map(|e| e.2).collect::<Vec<_>>(),
                    "runs": g.runs,
                    "errors": g.errors,
                })
            }
            Share::Crosscheck(c) => json!({
                "tallies": c.tallies.iter().map(|t| (t.agreed, t.disagreed, t.unknown, t.skipped, t.time.as_nanos() as u64)).collect::<Vec<_>>(),
                "counts": c.counts,
            }),
            Share::Minimize(m) => serde_json::to_value(m).unwrap_or_default(),
        };
        Some(value.to_string())
    }
}

/// The items of a task: a shard of puzzles, a shard of puzzles with a shard of candidates
/// (verify), or a range of generated puzzles.
enum TaskItems<'a> {
    Puzzles(Box<dyn Iterator<Item = PuzzleItem> + Send + 'a>),
    Pairs(Box<dyn Iterator<Item = Pair> + Send + 'a>),
    Generated(std::ops::Range<u64>),
}

/// A shard as Python passes it: `(first_line, form, data, tail)`.
type ShardArg = (usize, String, Vec<u8>, Option<Tail>);

fn shard_items(
    file: &str,
    shard: &ShardArg,
    first_index: usize,
    read: ReadOptions,
) -> PyResult<Box<dyn Iterator<Item = PuzzleItem> + Send>> {
    let (first, form, data, tail) = shard;
    let shard = Shard {
        first: *first,
        form,
        data,
        tail: tail.clone(),
    };
    let read: Vec<_> = items(&shard, read)?.collect();
    let file: Arc<str> = Arc::from(file);
    Ok(Box::new(read.into_iter().enumerate().map(move |(i, r)| {
        PuzzleItem::new(file.clone(), first_index + i, r)
    })))
}

/// Runs one task of a command: the job of `command` with the options of the JSON `options`
/// over `shard` of `file` (for verify also `candidates`, a shard of `candidate_file`; for
/// generate the puzzles `range`); `first_index` is the position of the shard's first item in
/// its file (shards are cut every so many items). Returns the entries in input order and the shard's share of
/// the summary (JSON, or None).
#[pyfunction]
#[pyo3(signature = (command, options, json, file = None, shard = None, first_index = 0, candidate_file = None, candidates = None, range = None, r#box = None, latin = false, name_files = false))]
#[allow(clippy::too_many_arguments)]
pub fn run_shard(
    py: Python<'_>,
    command: &str,
    options: &str,
    json: bool,
    file: Option<&str>,
    shard: Option<ShardArg>,
    first_index: usize,
    candidate_file: Option<&str>,
    candidates: Option<ShardArg>,
    range: Option<(u64, u64)>,
    r#box: Option<(usize, usize)>,
    latin: bool,
    name_files: bool,
) -> PyResult<(Vec<Entry>, Option<String>)> {
    let job = AnyJob::new(command, options, name_files)?;
    let read = read_options(r#box, latin, None)?;
    let candidate_read = ReadOptions {
        reject_clashes: false,
        ..read
    };
    let file = file.unwrap_or("-");
    let task_items = match &job {
        AnyJob::Generate(_) => {
            let (start, stop) = range.ok_or_else(|| value_error("generate takes a range"))?;
            TaskItems::Generated(start..stop)
        }
        AnyJob::Verify(_) => {
            let (puzzle_file, candidate_file) = (file, candidate_file.unwrap_or("-"));
            let mut left = match &shard {
                Some(s) => shard_items(puzzle_file, s, first_index, read)?,
                None => Box::new(std::iter::empty()),
            };
            let mut right = match &candidates {
                Some(s) => shard_items(candidate_file, s, first_index, candidate_read)?,
                None => Box::new(std::iter::empty()),
            };
            let (puzzle_name, candidate_name): (Arc<str>, Arc<str>) =
                (Arc::from(puzzle_file), Arc::from(candidate_file));
            TaskItems::Pairs(Box::new(std::iter::from_fn(move || {
                match (left.next(), right.next()) {
                    (None, None) => None,
                    (Some(p), Some(s)) => Some(Pair::Both(p, s)),
                    (Some(p), None) => Some(Pair::Unpaired {
                        ended: candidate_name.clone(),
                        item: p,
                    }),
                    (None, Some(s)) => Some(Pair::Unpaired {
                        ended: puzzle_name.clone(),
                        item: s,
                    }),
                }
            })))
        }
        AnyJob::Info(_) => {
            let shard = shard
                .as_ref()
                .ok_or_else(|| value_error("a task needs a shard"))?;
            let read = ReadOptions {
                reject_clashes: false,
                ..read
            };
            TaskItems::Puzzles(shard_items(file, shard, first_index, read)?)
        }
        _ => {
            let shard = shard
                .as_ref()
                .ok_or_else(|| value_error("a task needs a shard"))?;
            TaskItems::Puzzles(shard_items(file, shard, first_index, read)?)
        }
    };
    let mut share = Share::of(&job);
    let mut entries = Vec::new();
    let ran = py.detach(|| {
        let driver = Driver::new(Control::new());
        macro_rules! go {
            ($j:expr, $it:expr) => {
                driver.collect(&Keyed { job: $j, json }, $it, |result| {
                    if let ItemResult::Done(keyed) = result {
                        share.add(&keyed.result);
                        entries.push((
                            keyed.line,
                            keyed.key,
                            keyed.status().word().to_string(),
                            keyed.result.render(json),
                        ));
                    }
                })
            };
        }
        match (&job, task_items) {
            (AnyJob::Solve(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Count(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Grade(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Crosscheck(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Minimize(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Info(j), TaskItems::Puzzles(it)) => go!(j, it),
            (AnyJob::Verify(j), TaskItems::Pairs(it)) => go!(j, it),
            (AnyJob::Generate(j), TaskItems::Generated(it)) => go!(j, it),
            _ => unreachable!("each job gets its own kind of items"),
        }
    });
    let ran = ran.map_err(failure)?;
    if !ran.complete {
        return Err(failure("the task stopped before its last item"));
    }
    Ok((entries, share.to_json()))
}

/// An entry replayed through the driver on the client: its record is the task's text.
struct Replayed {
    line: usize,
    key: u64,
    status: Status,
    text: String,
}

impl JobItem for Replayed {
    fn line(&self) -> usize {
        self.line
    }

    fn key(&self) -> u64 {
        self.key
    }
}

impl JobRecord for Replayed {
    fn status(&self) -> Status {
        self.status
    }

    fn text(&self) -> String {
        self.text.clone()
    }

    fn json(&self) -> Value {
        Value::Null
    }

    fn render(&self, _json: bool) -> String {
        self.text.clone()
    }
}

/// The job that places the tasks' records: the real job's name and identity (so a resumed
/// output is one of the same command and options), each record as the task rendered it.
struct Replay {
    name: &'static str,
    identity: Value,
}

impl Job for Replay {
    type Item = Replayed;
    type Record = Replayed;

    fn name(&self) -> &'static str {
        self.name
    }

    fn identity(&self) -> Value {
        self.identity.clone()
    }

    fn workers(&self) -> usize {
        1
    }

    fn run(&self, item: Replayed, _control: &Control) -> ItemResult<Replayed> {
        ItemResult::Done(item)
    }
}

type Placed = Result<(Ran, Sink), sudokit::jobs::DriverError>;

/// Where the records go: a resumable result file (the library's driver on a thread of its own,
/// fed in input order), or the caller's stream (the texts handed back).
enum Place {
    File {
        send: Option<mpsc::Sender<Replayed>>,
        thread: Option<JoinHandle<Placed>>,
    },
    Stream {
        tally: Tally,
    },
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Places the records of a command's tasks in input order: in `output` (a resumable result
/// file, opened as the command line opens `-o FILE`: `resume` continues it, `force` discards a
/// partial one) or, without `output`, back to the caller as text; counts them in the library's
/// tally.
#[pyclass(module = "sudokit")]
pub struct RecordWriter {
    place: Mutex<Place>,
    what: &'static str,
}

fn status_of(word: &str) -> PyResult<Status> {
    Status::from_word(word).ok_or_else(|| value_error(format!("unknown status {word}")))
}

#[pymethods]
impl RecordWriter {
    #[new]
    #[pyo3(signature = (command, options, json = false, output = None, resume = false, force = false, name_files = false, inputs = Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        command: &str,
        options: &str,
        json: bool,
        output: Option<std::path::PathBuf>,
        resume: bool,
        force: bool,
        name_files: bool,
        inputs: Vec<std::path::PathBuf>,
    ) -> PyResult<RecordWriter> {
        let job = AnyJob::new(command, options, name_files)?;
        let what = job.what();
        let Some(output) = output else {
            if resume {
                return Err(value_error("resume needs an output file"));
            }
            return Ok(RecordWriter {
                place: Mutex::new(Place::Stream {
                    tally: Tally::default(),
                }),
                what,
            });
        };
        if !job.resumable() {
            return Err(value_error(format!(
                "{command} ends with tables: its output is a stream, not a resumable file"
            )));
        }
        let mode = match (resume, force) {
            (true, true) => return Err(value_error("resume and force do not go together")),
            (true, false) => OpenMode::Resume,
            (false, true) => OpenMode::Force,
            (false, false) => OpenMode::Fresh,
        };
        let (sink, old) =
            Sink::open(Some(&output), what, &job.output_identity(json, &inputs)?, mode)
                .map_err(failure)?;
        let replay = Replay {
            name: with_job!(&job, j => j.name()),
            identity: with_job!(&job, j => j.identity()),
        };
        let (send, receive) = mpsc::channel::<Replayed>();
        let thread = std::thread::spawn(move || -> Placed {
            let ran = Driver::new(Control::new()).run(
                &replay,
                receive.into_iter(),
                &sink,
                old,
                json,
                false,
                |_| {},
            )?;
            Ok((ran, sink))
        });
        Ok(RecordWriter {
            place: Mutex::new(Place::File {
                send: Some(send),
                thread: Some(thread),
            }),
            what,
        })
    }

    /// Places a task's entries (the next ones in input order); returns the text the caller
    /// writes (empty when the records go to the output file).
    fn push(&self, entries: Vec<Entry>) -> PyResult<String> {
        let mut place = lock(&self.place);
        match &mut *place {
            Place::File { send, .. } => {
                let Some(send) = send else {
                    return Err(failure("the writer is finished"));
                };
                for (line, key, status, text) in entries {
                    let status = status_of(&status)?;
                    // A closed channel means the driver stopped (a resumed output that does not
                    // fit): `finish` reports why.
                    let _ = send.send(Replayed {
                        line,
                        key,
                        status,
                        text,
                    });
                }
                Ok(String::new())
            }
            Place::Stream { tally } => {
                let mut text = String::new();
                for (_, _, status, record) in entries {
                    tally.add(status_of(&status)?);
                    text.push_str(&record);
                }
                Ok(text)
            }
        }
    }

    /// Ends the run (`complete`: every task's entries were pushed): the output file is
    /// completed (or, for a stopped run, kept as a partial file to resume); returns the tally.
    #[pyo3(signature = (complete = true))]
    fn finish(&self, py: Python<'_>, complete: bool) -> PyResult<RunTally> {
        let mut place = lock(&self.place);
        let (ran, sink) = match &mut *place {
            Place::Stream { tally } => {
                let ran = Ran {
                    tally: *tally,
                    complete,
                };
                let mut notes = Vec::new();
                notes.extend(ran.tally.errors_note(self.what));
                return Ok(RunTally::of(ran, notes));
            }
            Place::File { send, thread } => {
                drop(send.take());
                let Some(thread) = thread.take() else {
                    return Err(failure("the writer is finished"));
                };
                let placed = py
                    .detach(|| thread.join())
                    .map_err(|_| failure("internal error: the writer's thread panicked"))?;
                placed.map_err(|e| match e {
                    sudokit::jobs::DriverError::Io(e) => pyo3::exceptions::PyOSError::new_err(
                        format!("cannot write the output: {e}"),
                    ),
                    other => failure(other),
                })?
            }
        };
        let ran = Ran {
            tally: ran.tally,
            complete: ran.complete && complete,
        };
        let mut notes = Vec::new();
        notes.extend(
            sink.finish(ran.complete, || "stopped".to_string())
                .map_err(failure)?,
        );
        notes.extend(ran.tally.errors_note(self.what));
        Ok(RunTally::of(ran, notes))
    }
}

impl Drop for RecordWriter {
    fn drop(&mut self) {
        // A writer dropped unfinished (an error in the client) stops its driver thread.
        if let Place::File { send, thread } = &mut *lock(&self.place) {
            drop(send.take());
            if let Some(thread) = thread.take() {
                let _ = thread.join();
            }
        }
    }
}

/// A command's summary, added up from its tasks' shares: the summary lines and tables grade,
/// cross-check and minimize end with (the library's), file by file.
#[pyclass(module = "sudokit")]
pub struct ShardSummary {
    job: AnyJob,
    json: bool,
    current: Share,
    grades: Vec<GradeSummary>,
    tables: Vec<MinimizeSummary>,
}

#[pymethods]
impl ShardSummary {
    #[new]
    #[pyo3(signature = (command, options, json = false))]
    fn new(command: &str, options: &str, json: bool) -> PyResult<ShardSummary> {
        let job = AnyJob::new(command, options, false)?;
        let current = Share::of(&job);
        Ok(ShardSummary {
            job,
            json,
            current,
            grades: Vec::new(),
            tables: Vec::new(),
        })
    }

    /// Adds a task's share (the JSON `run_shard` returned).
    fn add(&mut self, share: &str) -> PyResult<()> {
        let v: Value = serde_json::from_str(share).map_err(value_error)?;
        let bad = || value_error("a share of another command or options");
        match &mut self.current {
            Share::None => {}
            Share::Grade(total) => {
                let mut g = GradeSummary::new("", &total.summary.schemes);
                let s = &mut g.summary;
                s.puzzles = serde_json::from_value(v["puzzles"].clone()).map_err(|_| bad())?;
                let [min, max, sum]: [usize; 3] =
                    serde_json::from_value(v["givens"].clone()).map_err(|_| bad())?;
                (s.givens_min, s.givens_max, s.givens_sum) = (min, max, sum);
                s.search_free =
                    serde_json::from_value(v["search_free"].clone()).map_err(|_| bad())?;
                let edges: Vec<usize> =
                    serde_json::from_value(v["lattice"].clone()).map_err(|_| bad())?;
                if edges.len() != g.lattice.len()
                    || s.search_free.len() != total.summary.search_free.len()
                {
                    return Err(bad());
                }
                for (edge, k) in g.lattice.iter_mut().zip(edges) {
                    edge.2 = k;
                }
                g.runs = serde_json::from_value(v["runs"].clone()).map_err(|_| bad())?;
                g.errors = serde_json::from_value(v["errors"].clone()).map_err(|_| bad())?;
                total.merge(&g);
            }
            Share::Crosscheck(total) => {
                let rows: Vec<(usize, usize, usize, usize, u64)> =
                    serde_json::from_value(v["tallies"].clone()).map_err(|_| bad())?;
                if rows.len() != total.tallies.len() {
                    return Err(bad());
                }
                let mut c = total.clone();
                for (t, (agreed, disagreed, unknown, skipped, nanos)) in
                    c.tallies.iter_mut().zip(rows)
                {
                    (t.agreed, t.disagreed, t.unknown, t.skipped) =
                        (agreed, disagreed, unknown, skipped);
                    t.time = Duration::from_nanos(nanos);
                }
                c.counts = serde_json::from_value(v["counts"].clone()).map_err(|_| bad())?;
                // `c` holds only the share now (every tally and count replaced).
                total.merge(&c);
            }
            Share::Minimize(total) => {
                let m: MinimizeSummary = serde_json::from_value(v).map_err(|_| bad())?;
                total.merge(&m);
            }
        }
        Ok(())
    }

    /// Ends the summary of `file`: returns its summary line (grade and minimize with `json`),
    /// or nothing; the file's figures are kept for the tables.
    fn end_file(&mut self, file: &str) -> String {
        let next = Share::of(&self.job);
        match std::mem::replace(&mut self.current, next) {
            Share::Grade(mut g) => {
                g.file = file.to_string();
                let line = if self.json {
                    json_line(&g.json())
                } else {
                    String::new()
                };
                self.grades.push(g);
                line
            }
            Share::Minimize(mut m) => {
                m.file = file.to_string();
                let line = if self.json {
                    json_line(&m.json())
                } else {
                    String::new()
                };
                self.tables.push(m);
                line
            }
            other => {
                self.current = other;
                String::new()
            }
        }
    }

    /// The tables that end the run (grade and minimize without `json`; cross-check's table or
    /// its JSON line).
    fn end(&self) -> String {
        match (&self.job, &self.current) {
            (AnyJob::Grade(g), _) if !self.json => {
                summary_tables(g.schemes(), &self.grades, g.runtime())
            }
            (AnyJob::Minimize(_), _) if !self.json => summary_table(&self.tables),
            (_, Share::Crosscheck(c)) if self.json => json_line(&c.json()),
            (_, Share::Crosscheck(c)) => c.text(),
            _ => String::new(),
        }
    }

    /// The notes the command line prints at the end (cross-check: the options' notes and the
    /// disagreements).
    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let AnyJob::Crosscheck(c) = &self.job {
            notes.extend(c.notes().iter().cloned());
        }
        if let Share::Crosscheck(c) = &self.current {
            notes.extend(c.disagreements_note());
        }
        notes
    }
}
