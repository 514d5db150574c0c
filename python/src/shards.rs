//! Splitting a puzzle file into shards for a cluster, and reading a shard back as the whole
//! file's reader would.
//!
//! A **shard** is `(first_line, form, data, tail)`: the bytes of a run of whole puzzles (and
//! the blank and comment lines among them), the number of its first line in the file, the input
//! form the file's reader detected (so that a shard is read as the whole file is), and `tail`,
//! the error that ended the file's reading inside this shard (a line too long, a read error),
//! or None. The splitter runs the library's own reader over the file and cuts after every
//! `size` puzzles, so shards start where puzzles start, and a worker that reads a shard with
//! [`items`] gets exactly the records and errors, with their file lines and columns, that the
//! command line gets for those puzzles.
//!
//! The runners of each command on a shard are in [`crate::dask`].

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sudokit::text::lines::MAX_LINE_BYTES;
use sudokit::text::{PuzzleReader, ReadOptions, ReadPuzzle, TextError, TextErrorKind, TextLayout};

use crate::errors::{failure, value_error};
use crate::grid_input::read_options;

/// A shard as a task receives it: `(first_line, form, data, tail)`, borrowed from the
/// task's arguments.
pub struct Shard<'a> {
    /// The number of the shard's first line in the file.
    pub first: usize,
    /// The input form.
    pub form: &'a str,
    /// The bytes.
    pub data: &'a [u8],
    /// The error that ended the file's reading, if it did in this shard.
    pub tail: Option<Tail>,
}

/// The error that ended the reading: `(line, column, "too-long" | "io", message)`.
pub type Tail = (usize, usize, String, String);

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

/// The shards of a file, in order (see the module docs).
#[pyclass(module = "sudokit")]
pub struct ShardReader {
    state: Mutex<Splitter>,
}

struct Splitter {
    reader: PuzzleReader<Tee<BufReader<File>>>,
    taken: Arc<Mutex<Vec<u8>>>,
    size: usize,
    next_line: usize,
    done: bool,
}

impl Splitter {
    fn next_shard(&mut self) -> Option<(usize, String, Vec<u8>, Option<Tail>)> {
        if self.done {
            return None;
        }
        let form = self.reader.format().name().to_string();
        let mut puzzles = 0;
        let mut tail = None;
        while puzzles < self.size {
            match self.reader.next() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) if ends_reading(&e.kind) => {
                    tail = Some((e.line, e.column, e.kind));
                    self.done = true;
                    break;
                }
                Some(_) => puzzles += 1,
            }
        }
        let mut data = std::mem::take(&mut *lock(&self.taken));
        let tail = tail.map(|(line, column, kind)| {
            // The shard stops where the bad line starts.
            let cut = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            data.truncate(cut);
            let (what, message) = match kind {
                TextErrorKind::Io(message) => ("io", message),
                other => ("too-long", other.to_string()),
            };
            (line, column, what.to_string(), message)
        });
        if puzzles == 0 && tail.is_none() {
            return None;
        }
        let first = self.next_line;
        self.next_line += data.iter().filter(|&&b| b == b'\n').count();
        Some((first, form, data, tail))
    }
}

/// Whether a reading error ends the reader (the rest of the input is not read).
fn ends_reading(kind: &TextErrorKind) -> bool {
    matches!(
        kind,
        TextErrorKind::LineTooLong { .. } | TextErrorKind::Io(_)
    )
}

/// The shards of the file at `path`, `size` puzzles each.
#[pyfunction]
#[pyo3(signature = (path, size, r#box = None, latin = false, format = None))]
pub fn shards(
    path: std::path::PathBuf,
    size: usize,
    r#box: Option<(usize, usize)>,
    latin: bool,
    format: Option<&str>,
) -> PyResult<ShardReader> {
    if size == 0 {
        return Err(value_error("shards hold at least one puzzle"));
    }
    let file = File::open(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
    })?;
    let taken = Arc::new(Mutex::new(Vec::new()));
    let tee = Tee {
        inner: BufReader::with_capacity(1 << 16, file),
        taken: Arc::clone(&taken),
    };
    Ok(ShardReader {
        state: Mutex::new(Splitter {
            reader: PuzzleReader::new(tee, read_options(r#box, latin, format)?),
            taken,
            size,
            next_line: 1,
            done: false,
        }),
    })
}

#[pymethods]
impl ShardReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, pyo3::types::PyTuple>>> {
        let shard = py.detach(|| lock(&self.state).next_shard());
        let Some((first, form, data, tail)) = shard else {
            return Ok(None);
        };
        let tuple = (first, form, PyBytes::new(py, &data), tail).into_pyobject(py)?;
        Ok(Some(tuple))
    }
}

/// The records and errors of a shard, placed in the file as the whole file's reader places
/// them.
pub fn items<'a>(
    shard: &Shard<'a>,
    options: ReadOptions,
) -> PyResult<impl Iterator<Item = Result<ReadPuzzle, TextError>> + Send + 'a> {
    let Shard {
        first,
        form,
        data,
        ref tail,
    } = *shard;
    let format = form
        .parse::<TextLayout>()
        .map_err(|_| failure(format!("a shard of unknown form {form}")))?;
    let options = ReadOptions { format, ..options };
    let shift = first.saturating_sub(1);
    let tail = tail.as_ref().map(|(line, column, what, message)| {
        let kind = match what.as_str() {
            "io" => TextErrorKind::Io(message.clone()),
            _ => TextErrorKind::LineTooLong {
                max: MAX_LINE_BYTES,
            },
        };
        Err(TextError::new(*line, *column, kind))
    });
    let read = PuzzleReader::new(data, options).map(move |item| match item {
        Ok(puzzle) => Ok(ReadPuzzle {
            line: puzzle.line + shift,
            ..puzzle
        }),
        Err(e) => Err(TextError {
            line: e.line + shift,
            ..e
        }),
    });
    Ok(read.chain(tail))
}
