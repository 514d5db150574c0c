//! The errors of a resumable output: another run holding it, results a new run would destroy,
//! nothing to resume, no index, another run's results, results changed after they were written,
//! results that do not answer the input, a file operation that failed.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::jobs::target::TargetError;

/// Why a resumable output cannot be opened, continued or finished.
#[derive(Debug, Error)]
pub enum PartialError {
    /// Another process holds the lock.
    #[error(
        "another sudokit run{} is writing {}: wait for it to end, or write to another file",
        pid.map_or(String::new(), |p| format!(" (process {p})")),
        partial.display()
    )]
    Busy {
        /// The partial file.
        partial: PathBuf,
        /// The other run's process id, as its index says.
        pid: Option<u32>,
    },
    /// A run without `--resume` found results it would destroy.
    #[error(
        "{} holds {} of an interrupted run: continue it with --resume, or start again with \
         --force (or remove it)",
        partial.display(),
        match results { Some(1) => "1 result".to_string(), Some(n) => format!("{n} results"), None => "the output".to_string() }
    )]
    Leftover {
        /// The partial file.
        partial: PathBuf,
        /// How many results its index lists (`None`: none whole, or no index).
        results: Option<usize>,
    },
    /// `--resume` of a file that is complete.
    #[error("{} is complete (there is no {}): nothing to resume", file.display(), partial.display())]
    Complete {
        /// The finished file.
        file: PathBuf,
        /// The partial file that is not there.
        partial: PathBuf,
    },
    /// `--resume` without an index.
    #[error(
        "{} has no index of its results ({} is missing, not an index, or written by another \
         version): it cannot be resumed; start again with --force",
        partial.display(),
        index.display()
    )]
    NoIndex {
        /// The partial file.
        partial: PathBuf,
        /// Its index.
        index: PathBuf,
    },
    /// `--resume` of another command's, other options' or another input's results.
    #[error(
        "{} holds the results of another run ({differences}); start again with --force",
        partial.display()
    )]
    OtherRun {
        /// The partial file.
        partial: PathBuf,
        /// What differs.
        differences: String,
    },
    /// The partial file does not match its index.
    #[error(
        "{} was changed after it was written ({reason}); start again with --force",
        partial.display()
    )]
    Damaged {
        /// The partial file.
        partial: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// A kept result does not answer the item at its place.
    #[error(
        "{}: result {result} does not answer input line {line} ({reason}); start again with --force",
        partial.display()
    )]
    Mismatch {
        /// The partial file.
        partial: PathBuf,
        /// The result's position (1-based).
        result: usize,
        /// The input line of the item at that place.
        line: usize,
        /// How it differs.
        reason: String,
    },
    /// More results than the input has items.
    #[error(
        "{} holds {results} results but the input has only {items} items; start again with --force",
        partial.display()
    )]
    TooMany {
        /// The partial file.
        partial: PathBuf,
        /// Results in it.
        results: usize,
        /// Items in the input.
        items: usize,
    },
    /// A file of the run's own (`FILE.partial`, its index, the merged files) that is a
    /// directory or a special file (a FIFO, a device).
    #[error(
        "{} is {kind}, not a file sudokit keeps results in: remove it, or write to another file",
        path.display()
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is: `a directory`, `a special file`.
        kind: &'static str,
    },
    /// A file operation failed, or a file of the run's own is a symbolic link.
    #[error(transparent)]
    File(#[from] TargetError),
}

/// A file operation on `path` that failed, as a [`PartialError::File`].
pub(super) fn io_error(action: &str, path: &Path) -> impl FnOnce(io::Error) -> PartialError {
    let path = path.to_path_buf();
    let action = action.to_string();
    move |source| PartialError::File(TargetError::io(action, &path, source))
}
