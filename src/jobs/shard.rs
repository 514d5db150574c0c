//! A command's run cut into tasks for a cluster (Dask): the inputs split into **shards** of
//! whole puzzles, each shard read back exactly as the whole input's reader reads those puzzles,
//! the **tasks** of a run in input order ([`tasks`]), and one task run on a worker
//! ([`run_task`]). The client that places the tasks' results is [`super::assembly`].
//!
//! A [`Shard`] is the bytes of a run of whole puzzles (and the blank and comment lines among
//! them), the number of its first line in its input, the input form the input's reader
//! detected (so that a shard is read as the whole input is), and the error that ended the
//! input's reading inside it (a line too long, a read error), if one did. The splitter runs the
//! library's own reader over the input and cuts after every `size` puzzles, so a worker gets
//! exactly the records and errors, with their lines and columns, that a run over the whole input
//! gets for those puzzles.
//!
//! A [`Task`] is what one worker runs: a shard of an input (of each of the two inputs of
//! verify, at the same place), or a range of the items of a command without input (generate's
//! puzzle indices); it travels as bytes ([`Task::to_bytes`]). The settings every task of a run
//! shares (the command, its options, the output form, the box shape) are a [`Plan`].
//!
//! # Examples
//! ```
//! use std::path::PathBuf;
//! use sudokit::jobs::shard::{Plan, Step, run_task, tasks};
//! let plan = Plan { command: "solve".into(), inputs: 1, ..Plan::default() };
//! let (entry, command) = plan.command().unwrap();
//! let inputs = [PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt")];
//! let mut records = 0;
//! for step in tasks(entry, &*command, &inputs, plan.read().unwrap(), 2, 50) {
//!     if let Step::Task(task) = step.unwrap() {
//!         records += run_task(&plan, &task.to_bytes()).unwrap().entries.len();
//!     }
//! }
//! assert!(records > 2);
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use super::command::{Command, ShardResult};
use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::options::OptionError;
use super::registry::{self, Entry, Inputs, RegistryError};
use super::run_error::RunError;
use super::runner::Runner;
use super::source::Source;
use crate::text::lines::MAX_LINE_BYTES;
use crate::text::{
    PuzzleReader, ReadOptions, ReadPuzzle, ShapeSpec, TextError, TextErrorKind, TextLayout,
};

/// A run of whole puzzles of an input (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shard {
    /// The number of its first line in the input (0 for an empty shard).
    pub first: usize,
    /// The input form the input's reader detected.
    pub form: TextLayout,
    /// The error that ended the input's reading in this shard, if one did.
    pub tail: Option<TextError>,
    /// The bytes.
    pub data: Vec<u8>,
}

impl Shard {
    /// The puzzles and errors of the shard, placed in the input as the whole input's reader
    /// places them (`read`'s form is the shard's).
    pub fn items(&self, read: ReadOptions) -> impl Iterator<Item = Result<ReadPuzzle, TextError>> {
        let shift = self.first.saturating_sub(1);
        let read = ReadOptions {
            format: self.form,
            ..read
        };
        PuzzleReader::new(&self.data[..], read)
            .map(move |item| match item {
                Ok(puzzle) => Ok(ReadPuzzle {
                    line: puzzle.line + shift,
                    ..puzzle
                }),
                Err(e) => Err(TextError {
                    line: e.line + shift,
                    ..e
                }),
            })
            .chain(self.tail.clone().map(Err))
    }

    /// The shard as the source of input `name`, its first puzzle the `first_index`-th of the
    /// input.
    pub fn source(&self, name: &str, first_index: usize, read: ReadOptions) -> Source {
        let name: Arc<str> = Arc::from(name);
        let items: Vec<PuzzleItem> = self
            .items(read)
            .enumerate()
            .map(|(i, r)| PuzzleItem::new(name.clone(), first_index + i, r))
            .collect();
        Source::Puzzles {
            name,
            items: Box::new(items.into_iter()),
        }
    }
}

/// A reader that keeps a copy of every byte its consumer takes.
struct Tee<R> {
    inner: R,
    taken: Arc<Mutex<Vec<u8>>>,
}

impl<R: BufRead> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        lock(&self.taken).extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tee<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if let Ok(buffer) = self.inner.fill_buf() {
            lock(&self.taken).extend_from_slice(&buffer[..amount.min(buffer.len())]);
        }
        self.inner.consume(amount);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The shards of an input, in order, `size` puzzles each.
pub struct Splitter {
    reader: PuzzleReader<Tee<BufReader<File>>>,
    taken: Arc<Mutex<Vec<u8>>>,
    size: usize,
    next_line: usize,
    done: bool,
}

impl std::fmt::Debug for Splitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Splitter(line {})", self.next_line)
    }
}

impl Splitter {
    /// The shards of the file at `path` (at least one puzzle each), read as `read` says.
    ///
    /// # Errors
    /// A file that cannot be opened.
    pub fn open(
        path: &std::path::Path,
        size: usize,
        read: ReadOptions,
    ) -> Result<Splitter, InputError> {
        let file = File::open(path).map_err(|source| InputError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let taken = Arc::new(Mutex::new(Vec::new()));
        let tee = Tee {
            inner: BufReader::with_capacity(1 << 16, file),
            taken: Arc::clone(&taken),
        };
        Ok(Splitter {
            reader: PuzzleReader::new(tee, read),
            taken,
            size: size.max(1),
            next_line: 1,
            done: false,
        })
    }
}

/// Whether a reading error ends the reader (the rest of the input is not read).
fn ends_reading(kind: &TextErrorKind) -> bool {
    matches!(
        kind,
        TextErrorKind::LineTooLong { .. } | TextErrorKind::Io(_)
    )
}

impl Iterator for Splitter {
    type Item = Shard;

    fn next(&mut self) -> Option<Shard> {
        if self.done {
            return None;
        }
        let form = self.reader.format();
        let mut puzzles = 0;
        let mut tail = None;
        while puzzles < self.size {
            match self.reader.next() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) if ends_reading(&e.kind) => {
                    tail = Some(e);
                    self.done = true;
                    break;
                }
                Some(_) => puzzles += 1,
            }
        }
        let mut data = std::mem::take(&mut *lock(&self.taken));
        if tail.is_some() {
            // The shard stops where the bad line starts.
            let cut = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            data.truncate(cut);
        }
        if puzzles == 0 && tail.is_none() {
            return None;
        }
        let first = self.next_line;
        self.next_line += data.iter().filter(|&&b| b == b'\n').count();
        Some(Shard {
            first,
            form,
            tail,
            data,
        })
    }
}

/// What a worker runs (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Task {
    /// The position of the first puzzle of the shards in their inputs.
    pub first_index: usize,
    /// The items of a command without input.
    pub range: Option<Range<u64>>,
    /// Each input's name and shard (an empty shard where the input has ended).
    pub shards: Vec<(String, Shard)>,
}

/// The error that ended an input's reading, as a task carries it: `io` holds a read error's
/// message; without it, a line too long.
#[derive(Debug, Serialize, Deserialize)]
struct TailHead {
    line: usize,
    column: usize,
    io: Option<String>,
}

/// A shard's header in a task's bytes.
#[derive(Debug, Serialize, Deserialize)]
struct ShardHead {
    name: String,
    first: usize,
    form: String,
    tail: Option<TailHead>,
    len: usize,
}

/// A task's header: a JSON line before the shards' bytes.
#[derive(Debug, Serialize, Deserialize)]
struct TaskHead {
    first_index: usize,
    range: Option<(u64, u64)>,
    shards: Vec<ShardHead>,
}

/// Task bytes that are not a task.
#[derive(Debug, Error)]
#[error("not a task of this version of sudokit: {0}")]
pub struct TaskBytesError(String);

impl Task {
    /// The task as bytes: a JSON header line, then each shard's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let head = TaskHead {
            first_index: self.first_index,
            range: self.range.as_ref().map(|r| (r.start, r.end)),
            shards: self
                .shards
                .iter()
                .map(|(name, s)| ShardHead {
                    name: name.clone(),
                    first: s.first,
                    form: s.form.name().to_string(),
                    tail: s.tail.as_ref().map(|t| TailHead {
                        line: t.line,
                        column: t.column,
                        io: match &t.kind {
                            TextErrorKind::Io(message) => Some(message.clone()),
                            _ => None,
                        },
                    }),
                    len: s.data.len(),
                })
                .collect(),
        };
        let mut bytes = serde_json::to_vec(&head).expect("a task header serializes");
        bytes.push(b'\n');
        for (_, shard) in &self.shards {
            bytes.extend_from_slice(&shard.data);
        }
        bytes
    }

    /// A task from its bytes ([`Task::to_bytes`]).
    ///
    /// # Errors
    /// Bytes that are not a task.
    pub fn from_bytes(bytes: &[u8]) -> Result<Task, TaskBytesError> {
        let bad = |e: &dyn std::fmt::Display| TaskBytesError(e.to_string());
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| bad(&"no header"))?;
        let head: TaskHead = serde_json::from_slice(&bytes[..end]).map_err(|e| bad(&e))?;
        let mut data = &bytes[end + 1..];
        let mut shards = Vec::with_capacity(head.shards.len());
        for s in head.shards {
            if s.len > data.len() {
                return Err(bad(&"a shard longer than the task"));
            }
            let (mine, rest) = data.split_at(s.len);
            data = rest;
            let tail = s.tail.map(|t| {
                let kind = match t.io {
                    Some(message) => TextErrorKind::Io(message),
                    None => TextErrorKind::LineTooLong {
                        max: MAX_LINE_BYTES,
                    },
                };
                TextError::new(t.line, t.column, kind)
            });
            let form = s.form.parse().map_err(|e| bad(&e))?;
            shards.push((
                s.name,
                Shard {
                    first: s.first,
                    form,
                    tail,
                    data: mine.to_vec(),
                },
            ));
        }
        Ok(Task {
            first_index: head.first_index,
            range: head.range.map(|(a, b)| a..b),
            shards,
        })
    }

    /// The task's sources, input `i` read as `read(i)`.
    pub fn sources(&self, read: impl Fn(usize) -> ReadOptions) -> Vec<Source> {
        if let Some(range) = &self.range {
            return vec![Source::Range(range.clone())];
        }
        self.shards
            .iter()
            .enumerate()
            .map(|(i, (name, shard))| shard.source(name, self.first_index, read(i)))
            .collect()
    }
}

/// The settings every task of a run shares.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Plan {
    /// The registry's name of the command.
    pub command: String,
    /// Its options (their serde form; missing ones take their defaults).
    pub options: Value,
    /// Whether the records are written as JSON.
    pub json: bool,
    /// How many inputs the run has.
    pub inputs: usize,
    /// The box shape the inputs are read with (`--box PxQ`).
    pub r#box: Option<(usize, usize)>,
    /// Whether the inputs are read as Latin squares (`--latin`).
    pub latin: bool,
    /// The rows of the region map the inputs are read with (`--regions`).
    pub regions: Option<Vec<String>>,
    /// The extra units the inputs are read with (`--extra`: `diagonals`, `windows`).
    pub extra: Vec<String>,
}

/// Why a plan or a task cannot run.
#[derive(Debug, Error)]
pub enum TaskError {
    /// An unknown command, or inputs it does not take.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// Options the command refuses.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// Both a box shape and Latin squares, or Latin squares and regions.
    #[error("box and latin do not go together, nor latin and regions/extra")]
    Shape,
    /// A region map or an extra set that cannot be.
    #[error("{0}")]
    Regions(#[from] crate::shape::RegionError),
    /// Task bytes that are not a task.
    #[error(transparent)]
    Bytes(#[from] TaskBytesError),
    /// The run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The task stopped before its last item.
    #[error("the task stopped before its last item")]
    Stopped,
    /// A task's share of the summary that is not the command's.
    #[error("a share of another command or options: {0}")]
    Share(#[from] serde_json::Error),
    /// A result handed over after the run was finished.
    #[error("the run is finished")]
    Finished,
}

impl Plan {
    /// The plan's command (its registry entry, and the command with its options), its
    /// options and inputs checked.
    ///
    /// # Errors
    /// An unknown command, a run that is whole, in one process (`bench`, the census), inputs
    /// it does not take, options it refuses.
    pub fn command(&self) -> Result<(&'static Entry, Box<dyn Command>), TaskError> {
        let entry = registry::command(&self.command)?;
        entry.check_shardable(self.inputs)?;
        entry.check_inputs(self.inputs)?;
        let options = if self.options.is_null() {
            Value::Object(Default::default())
        } else {
            self.options.clone()
        };
        Ok((entry, entry.build(options, self.inputs)?))
    }

    /// How the inputs are read (before the command's own changes, [`Command::read_options`]).
    ///
    /// # Errors
    /// Both a box shape and Latin squares.
    pub fn read(&self) -> Result<ReadOptions, TaskError> {
        let shape = match (self.r#box, self.latin) {
            (Some(_), true) => return Err(TaskError::Shape),
            (Some((p, q)), false) => Some(ShapeSpec::Box(p, q)),
            (None, true) => Some(ShapeSpec::Latin),
            (None, false) => None,
        };
        let extras = self
            .extra
            .iter()
            .map(|name| name.parse::<crate::shape::ExtraSet>())
            .collect::<Result<Vec<_>, _>>()?;
        let map = self.regions.as_ref().map(|rows| rows.join("\n"));
        let regions = crate::shape::RegionSpec::new(map.as_deref(), &extras)?;
        let shape = ShapeSpec::with_regions(shape, regions).map_err(|_| TaskError::Shape)?;
        Ok(ReadOptions {
            shape,
            ..ReadOptions::default()
        })
    }
}

/// A step of a run on a cluster, in input order: a task, or the end of an input (after its
/// last task's results the client ends it: see [`super::assembly::Assembly::end_input`]).
#[derive(Debug)]
pub enum Step {
    /// A task.
    Task(Task),
    /// The end of the input of this name.
    EndInput(String),
}

/// The steps of `command`'s run over `inputs` (read as `read`, before the command's own
/// changes): for a command without input, its items cut into ranges of `chunk`; for a command
/// of two inputs, their shards side by side, then the end of the first; otherwise each input's
/// shards, then its end. Shards hold `size` puzzles.
pub fn tasks(
    entry: &Entry,
    command: &dyn Command,
    inputs: &[PathBuf],
    read: ReadOptions,
    size: usize,
    chunk: u64,
) -> Box<dyn Iterator<Item = Result<Step, InputError>> + Send> {
    let size = size.max(1);
    if let Some(count) = command.generated() {
        let chunk = chunk.max(1);
        return Box::new((0..count.div_ceil(chunk)).map(move |k| {
            Ok(Step::Task(Task {
                range: Some(k * chunk..((k + 1) * chunk).min(count)),
                ..Task::default()
            }))
        }));
    }
    let reads: Vec<ReadOptions> = (0..inputs.len())
        .map(|i| command.read_options(read, i))
        .collect();
    let name = |i: usize| inputs[i].display().to_string();
    if entry.inputs == Inputs::Two && inputs.len() == 2 {
        let (first, second) = (name(0), name(1));
        let split = |i: usize| Splitter::open(&inputs[i], size, reads[i]);
        let (left, right) = match (split(0), split(1)) {
            (Ok(left), Ok(right)) => (left, right),
            (Err(e), _) | (_, Err(e)) => return Box::new(std::iter::once(Err(e))),
        };
        let mut left = left.fuse();
        let mut right = right.fuse();
        let mut k = 0;
        let pairs = std::iter::from_fn(move || {
            let (a, b) = (left.next(), right.next());
            if a.is_none() && b.is_none() {
                return None;
            }
            k += 1;
            Some(Ok(Step::Task(Task {
                first_index: (k - 1) * size,
                range: None,
                shards: vec![
                    (first.clone(), a.unwrap_or_default()),
                    (second.clone(), b.unwrap_or_default()),
                ],
            })))
        });
        return Box::new(pairs.chain(std::iter::once(Ok(Step::EndInput(name(0))))));
    }
    let files: Vec<(PathBuf, String, ReadOptions)> = (0..inputs.len())
        .map(|i| (inputs[i].clone(), name(i), reads[i]))
        .collect();
    Box::new(files.into_iter().flat_map(move |(path, name, read)| {
        let steps: Box<dyn Iterator<Item = _> + Send> = match Splitter::open(&path, size, read) {
            Err(e) => Box::new(std::iter::once(Err(e))),
            Ok(splitter) => {
                let file = name.clone();
                Box::new(
                    splitter
                        .enumerate()
                        .map(move |(k, shard)| {
                            Ok(Step::Task(Task {
                                first_index: k * size,
                                range: None,
                                shards: vec![(file.clone(), shard)],
                            }))
                        })
                        .chain(std::iter::once(Ok(Step::EndInput(name)))),
                )
            }
        };
        steps
    }))
}

/// Runs one task of `plan` (its bytes, [`Task::to_bytes`]) on this machine: the records of
/// its shards or range, in input order with their keys, and its share of the summary.
///
/// # Errors
/// A plan that does not build, bytes that are not a task, a run that fails or stops.
pub fn run_task(plan: &Plan, task: &[u8]) -> Result<ShardResult, TaskError> {
    let (_, command) = plan.command()?;
    let read = plan.read()?;
    let task = Task::from_bytes(task)?;
    let sources = task.sources(|i| command.read_options(read, i));
    let (result, ran) = command.run_shard(sources, plan.json, &Runner::new(Control::new()))?;
    if !ran.complete {
        return Err(TaskError::Stopped);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_comes_back_from_its_bytes() {
        let task = Task {
            first_index: 4,
            range: None,
            shards: vec![
                (
                    "a.txt".into(),
                    Shard {
                        first: 7,
                        form: TextLayout::Line,
                        tail: Some(TextError::new(9, 1, TextErrorKind::Io("gone".into()))),
                        data: b"1...\n..2.\n".to_vec(),
                    },
                ),
                ("b.txt".into(), Shard::default()),
            ],
        };
        assert_eq!(Task::from_bytes(&task.to_bytes()).unwrap(), task);
        assert!(Task::from_bytes(b"{}").is_err());
        let ranged = Task {
            range: Some(3..9),
            ..Task::default()
        };
        assert_eq!(Task::from_bytes(&ranged.to_bytes()).unwrap(), ranged);
    }

    #[test]
    fn shards_read_as_the_whole_file_reads() {
        let path = std::path::Path::new("models/sudoku/9x9/easy.txt");
        let whole: Vec<_> = PuzzleReader::new(
            BufReader::new(File::open(path).unwrap()),
            ReadOptions::default(),
        )
        .collect();
        let shards: Vec<Shard> = Splitter::open(path, 3, ReadOptions::default())
            .unwrap()
            .collect();
        assert!(shards.len() > 1);
        let read: Vec<_> = shards
            .iter()
            .flat_map(|s| s.items(ReadOptions::default()).collect::<Vec<_>>())
            .collect();
        assert_eq!(read, whole);
    }
}
