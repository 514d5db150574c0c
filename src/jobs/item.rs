//! The items jobs work on: puzzles read from a file ([`PuzzleItem`], read as they are needed by
//! [`puzzles`]), and the in-place report of an item that could not be handled ([`ItemError`]).
//!
//! An input without a single puzzle (empty, only blank and `#` comment lines, a closed standard
//! input) is an error for every command ([`InputError::Empty`]): nothing a user asked for is
//! silently done. A bad puzzle is not: it becomes an [`ItemError`] in its place, and the batch
//! goes on.
//!
//! # Examples
//! ```
//! use sudokit::jobs::item::PuzzleItem;
//! use sudokit::jobs::ItemError;
//! use sudokit::jobs::JobRecord;
//! use sudokit::text::{PuzzleReader, ReadOptions};
//! let mut read = PuzzleReader::new(&b"1.3.....4....2..\n12\n"[..], ReadOptions::default());
//! let first = PuzzleItem::new("in.txt", 0, read.next().unwrap());
//! assert!(first.read.is_ok());
//! let error = read.next().unwrap().unwrap_err();
//! let report = ItemError::read(&first.file, &error);
//! assert!(report.text().starts_with("error: in.txt:2:3: the line has 2"));
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::iter::Peekable;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use super::record::{ItemError, JobItem};
use crate::search::Cancel;
use crate::text::{PuzzleReader, ReadOptions, ReadPuzzle, TextError};

/// A puzzle read from an input, or the error that replaced it, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleItem {
    /// The input's name as the user gave it (`-` for standard input).
    pub file: Arc<str>,
    /// The 0-based position of the puzzle (or error) in its input.
    pub index: usize,
    /// The puzzle and its line, or why it could not be read.
    pub read: Result<ReadPuzzle, TextError>,
}

impl PuzzleItem {
    /// An item of the input `file`.
    pub fn new(
        file: impl Into<Arc<str>>,
        index: usize,
        read: Result<ReadPuzzle, TextError>,
    ) -> Self {
        PuzzleItem {
            file: file.into(),
            index,
            read,
        }
    }

    /// The puzzle, or its in-place error report.
    ///
    /// # Errors
    /// The [`ItemError`] of a puzzle that could not be read.
    pub fn read_puzzle(&self) -> Result<&ReadPuzzle, ItemError> {
        self.read
            .as_ref()
            .map_err(|e| ItemError::read(&self.file, e))
    }
}

impl JobItem for PuzzleItem {
    fn line(&self) -> usize {
        match &self.read {
            Ok(puzzle) => puzzle.line,
            Err(e) => e.line,
        }
    }

    fn key(&self) -> u64 {
        let mut hash = Fnv::new();
        hash.add(&(self.line() as u64).to_le_bytes());
        match &self.read {
            Ok(puzzle) => {
                let shape = puzzle.grid.shape();
                for dimension in [shape.order(), shape.box_rows(), shape.box_cols()] {
                    hash.add(&(dimension as u64).to_le_bytes());
                }
                hash.add(&[u8::from(shape.is_latin())]);
                // Regions: the map and the extra units' cells (a puzzle read with other
                // regions is another puzzle).
                if let Some(regions) = shape.regions() {
                    for region in regions.map().unwrap_or_default() {
                        hash.add(&region.to_le_bytes());
                    }
                    for unit in shape.units().skip(3 * shape.order()) {
                        for cell in shape.unit_cells(unit) {
                            hash.add(&(cell as u32).to_le_bytes());
                        }
                    }
                }
                for value in puzzle.grid.raw() {
                    hash.add(&value.to_le_bytes());
                }
            }
            Err(e) => {
                hash.add(&(e.column as u64).to_le_bytes());
                hash.add(e.kind.to_string().as_bytes());
            }
        }
        hash.finish()
    }
}

/// FNV-1a, 64 bits: the fingerprints of items and of written results (stable from run to run
/// and from machine to machine, unlike the standard library's hasher).
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Fnv {
    /// The empty hash.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Adds bytes.
    pub fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The hash.
    pub fn finish(self) -> u64 {
        self.0
    }

    /// The hash of `bytes`.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut hash = Fnv::new();
        hash.add(bytes);
        hash.finish()
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

/// An input that cannot be read at all.
#[derive(Debug, Error)]
pub enum InputError {
    /// The file cannot be opened.
    #[error("cannot open {}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Not a single puzzle in it.
    #[error(
        "{name}: no puzzles found (the input is empty or holds only blank and # comment lines)"
    )]
    Empty {
        /// The input (`standard input` for `-`).
        name: String,
    },
    /// A stop (a deadline or a signal) came before the first puzzle was read (a stream of
    /// blank lines, say).
    #[error("stopped (--timeout or a signal) before the first puzzle was read")]
    Stopped,
    /// Two inputs that cannot both be standard input.
    #[error("only one input can be standard input")]
    TwoStdin,
    /// Items of another kind than the command reads (a range for a command over puzzles).
    #[error("this command reads {0}")]
    Source(&'static str),
    /// A puzzle picked by an index of 0 (the index counts from 1).
    #[error("--index counts from 1")]
    IndexZero,
    /// A file with fewer puzzles than the index that picks one.
    #[error("{name} has {count} puzzles, not {index}")]
    NoSuchPuzzle {
        /// The input.
        name: String,
        /// How many puzzles it has.
        count: usize,
        /// The index asked for (1-based).
        index: usize,
    },
    /// A command of one puzzle given a file of several and no index.
    #[error("{name} has several puzzles: {pick}")]
    SeveralPuzzles {
        /// The input.
        name: String,
        /// How to pick one (`pick one with --index N`).
        pick: &'static str,
    },
    /// A name that is neither a file nor a puzzle (no puzzle at all in it).
    #[error("cannot open {0}: no such file")]
    NoSuchFile(String),
    /// A name that is neither a file nor a puzzle: why it is not a puzzle.
    #[error(
        "cannot open {name}: no such file, and not a puzzle ({}:{}: {})",
        .error.line, .error.column, .error.kind
    )]
    NotAPuzzle {
        /// The name given.
        name: String,
        /// Why it is not a puzzle.
        error: TextError,
    },
    /// The one puzzle a command works on cannot be read.
    #[error("{0}")]
    Puzzle(ItemError),
    /// A solver's answer that cannot be read, or does not fit its puzzle.
    #[error("{name}:{}:{}: {}", .error.line, .error.column, .error.kind)]
    Answer {
        /// The answer's file.
        name: String,
        /// Where and what.
        error: crate::format::AnswerError,
    },
}

/// Opens a file, or standard input for `-`.
///
/// # Errors
/// [`InputError::Open`].
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, InputError> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(io::stdin())));
    }
    let file = File::open(path).map_err(|source| InputError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// How an input is named in messages: its path, or `standard input` for `-`.
pub fn input_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// The puzzles of an input, read as they are needed.
pub struct Puzzles {
    file: Arc<str>,
    reader: Peekable<PuzzleReader<Box<dyn BufRead + Send>>>,
    index: usize,
}

impl std::fmt::Debug for Puzzles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puzzles")
            .field("file", &self.file)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Iterator for Puzzles {
    type Item = PuzzleItem;

    fn next(&mut self) -> Option<PuzzleItem> {
        let read = self.reader.next()?;
        let item = PuzzleItem::new(self.file.clone(), self.index, read);
        self.index += 1;
        Some(item)
    }
}

/// A streaming reader of the puzzles of `path` (`-` for standard input). The first puzzle is
/// read here, the rest as they are needed.
///
/// # Errors
/// [`InputError::Open`]; [`InputError::Empty`] for an input without a single puzzle.
pub fn puzzles(path: &Path, options: ReadOptions) -> Result<Puzzles, InputError> {
    puzzles_until(path, options, &Cancel::new())
}

/// [`puzzles`], stopped by `stop`: once it is set the reading ends at the next look, even in a
/// stream of blank or comment lines, so a deadline or a signal is never held up by the input.
///
/// # Errors
/// As [`puzzles`], and [`InputError::Stopped`] when the stop came before the first puzzle.
pub fn puzzles_until(
    path: &Path,
    options: ReadOptions,
    stop: &Cancel,
) -> Result<Puzzles, InputError> {
    let mut reader = PuzzleReader::new(open(path)?, options)
        .with_cancel(stop.clone())
        .peekable();
    if reader.peek().is_none() {
        if stop.is_cancelled() {
            return Err(InputError::Stopped);
        }
        return Err(InputError::Empty {
            name: input_name(path),
        });
    }
    Ok(Puzzles {
        file: path.display().to_string().into(),
        reader,
        index: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::JobRecord;
    use crate::text::{TextErrorKind, parse_line};

    #[test]
    fn errors_are_reported_with_their_place() {
        let file: Arc<str> = "a.txt".into();
        let error = TextError::new(3, 5, TextErrorKind::NotUtf8);
        assert_eq!(
            ItemError::read(&file, &error).written(true),
            "{\"column\":5,\"error\":\"the line is not valid UTF-8\",\"file\":\"a.txt\",\"line\":3,\"status\":\"error\"}\n"
        );
        assert_eq!(
            ItemError::failed(&file, 3, "too large").text(),
            "error: a.txt:3:1: too large\n"
        );
    }

    #[test]
    fn keys_tell_items_apart() {
        let grid = parse_line("1.3.....4....2..", None).unwrap();
        let item = |line, grid: &crate::Grid| {
            PuzzleItem::new("x", 0, Ok(ReadPuzzle::new(line, grid.clone()))).key()
        };
        assert_eq!(item(1, &grid), item(1, &grid));
        assert_ne!(item(1, &grid), item(2, &grid));
        let other = parse_line("1.3.....4....3..", None).unwrap();
        assert_ne!(item(1, &grid), item(1, &other));
        // The same givens read with the diagonals, or with a region map, are other puzzles.
        use crate::shape::{ExtraSet, Regions};
        let x = Regions::from_parts(None, &[ExtraSet::Diagonals], 4).unwrap();
        let map = Regions::from_parts(Some("1122\n1122\n3434\n3434"), &[], 4).unwrap();
        for regions in [x, map] {
            let shape = grid.shape().with_regions(regions).unwrap();
            let mut with = crate::Grid::empty(shape);
            for (cell, v) in grid.givens() {
                with.set(cell, Some(v));
            }
            assert_ne!(item(1, &grid), item(1, &with), "{shape}");
        }
    }
}
