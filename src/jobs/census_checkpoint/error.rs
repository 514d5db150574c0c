//! The errors of a census resume file: a path that is not a regular file, a file another
//! process holds, parts a new run would discard, a file of another kind or format, another
//! census's file, a line changed after it was written.

use std::path::PathBuf;

use thiserror::Error;

use crate::jobs::partial::PartialError;
use crate::jobs::target::TargetError;

/// What went wrong with a resume file.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file could not be created, read or written.
    #[error(transparent)]
    File(#[from] TargetError),
    /// The path is not a regular file.
    #[error(
        "{} is {kind}, not a census resume file: remove it, or count into another file",
        path.display()
    )]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is (`a directory`).
        kind: &'static str,
    },
    /// Another process holds the file (a count or a batch command on the same `-o`).
    #[error(transparent)]
    Busy(PartialError),
    /// A new run found parts it would discard.
    #[error(
        "{} holds {} of an interrupted count: continue it with --resume, or start again with \
         --force (or remove it)",
        path.display(),
        match parts { 1 => "1 part".to_string(), n => format!("{n} parts") }
    )]
    Leftover {
        /// The file.
        path: PathBuf,
        /// Part lines in it.
        parts: usize,
    },
    /// The file holds the results of a batch command.
    #[error(
        "{} holds the results of a batch {} run, not a census: count into another file, or \
         discard them with --force",
        path.display(),
        command.as_deref().map_or("command".to_string(), |c| format!("`{c}`"))
    )]
    BatchResults {
        /// The file.
        path: PathBuf,
        /// The command its index names.
        command: Option<String>,
    },
    /// The file is in another format of census resume file.
    #[error(
        "{} is a census resume file of {found}, which this sudokit does not resume (it writes \
         format 2): start again with --force",
        path.display()
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// The format found.
        found: String,
    },
    /// The file is not a resume file at all.
    #[error(
        "{} is not a census resume file (its first line is not a census header): count into \
         another file, or discard it with --force",
        path.display()
    )]
    Unknown {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another census.
    #[error(
        "{}: written by a count of {found}, not of {expected}; start again with --force",
        path.display()
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The census the file names.
        found: String,
        /// The census asked for.
        expected: String,
    },
    /// A line is not a part of this census, or not as it was written.
    #[error("{}:{line}: {reason}; start again with --force", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}
