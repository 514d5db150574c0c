//! Where a job's items come from: [`Source`]s, each the puzzles of one input (a whole file, or
//! the shard of it a Dask task was given), a file the job reads itself (decode's answer), or a
//! range of generated items, which each job turns into its own items ([`Job::items`](super::Job::items): puzzles one after the other, pairs
//! of puzzle and candidate for verify, indices for generate). The command line and Python open
//! the inputs with [`open_inputs`]; a Dask task builds its sources from its shard.
//!
//! # Examples
//! ```
//! use std::path::PathBuf;
//! use sudokit::jobs::source::{open_inputs, puzzles_of};
//! use sudokit::search::Cancel;
//! use sudokit::text::ReadOptions;
//! let inputs = [PathBuf::from("models/sudoku/4x4/kr_4x4_sample.txt")];
//! let sources = open_inputs(&inputs, |_| ReadOptions::default(), &Cancel::new()).unwrap();
//! assert!(puzzles_of(sources).unwrap().count() > 0);
//! ```

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use super::item::{InputError, PuzzleItem, puzzles_until};
use crate::search::Cancel;
use crate::text::ReadOptions;

/// A job's items, streamed.
pub type Items<T> = Box<dyn Iterator<Item = T> + Send>;

/// One input of a job.
pub enum Source {
    /// The puzzles of an input (or of a shard of it), in input order.
    Puzzles {
        /// The input's name, as its records name it.
        name: Arc<str>,
        /// The puzzles.
        items: Items<PuzzleItem>,
    },
    /// A file the job reads itself, whole (a solver's answer: see [`Job::raw_input`]).
    ///
    /// [`Job::raw_input`]: super::Job::raw_input
    File {
        /// The input's name, as messages name it.
        name: Arc<str>,
        /// The file (`-` for standard input).
        path: PathBuf,
    },
    /// Generated items `start..end` (generate's puzzle indices).
    Range(Range<u64>),
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Puzzles { name, .. } => write!(f, "Source::Puzzles({name})"),
            Source::File { name, .. } => write!(f, "Source::File({name})"),
            Source::Range(range) => write!(f, "Source::Range({range:?})"),
        }
    }
}

/// Opens `inputs` (`-` is standard input, at most once) as puzzle sources, input `i` read with
/// `read(i)`, stopping at `stop` while skipping blank lines.
///
/// # Errors
/// An input that cannot be opened or holds no puzzle; standard input named twice; a stop
/// before the first puzzle.
pub fn open_inputs(
    inputs: &[PathBuf],
    read: impl Fn(usize) -> ReadOptions,
    stop: &Cancel,
) -> Result<Vec<Source>, InputError> {
    open_sources(inputs, read, |_| false, stop)
}

/// [`open_inputs`], but the inputs `raw(i)` names are [`Source::File`]s the job reads itself
/// (opened only when it reads them).
///
/// # Errors
/// As [`open_inputs`].
pub fn open_sources(
    inputs: &[PathBuf],
    read: impl Fn(usize) -> ReadOptions,
    raw: impl Fn(usize) -> bool,
    stop: &Cancel,
) -> Result<Vec<Source>, InputError> {
    if inputs.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(InputError::TwoStdin);
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let name: Arc<str> = path.display().to_string().into();
            if raw(i) {
                return Ok(Source::File {
                    name,
                    path: path.clone(),
                });
            }
            let puzzles = puzzles_until(path, read(i), stop)?;
            Ok(Source::Puzzles {
                name,
                items: Box::new(puzzles),
            })
        })
        .collect()
}

/// The puzzles of `sources`, one input after the other (the items of a job over puzzles).
///
/// # Errors
/// A range or a raw file among the sources ([`InputError::Source`]).
pub fn puzzles_of(sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
    let mut streams = Vec::with_capacity(sources.len());
    for source in sources {
        match source {
            Source::Puzzles { items, .. } => streams.push(items),
            Source::File { .. } | Source::Range(_) => return Err(InputError::Source("puzzles")),
        }
    }
    Ok(Box::new(streams.into_iter().flatten()))
}
