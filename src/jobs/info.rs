//! `info` as a job: the shape, givens and clash of each puzzle of one or more files.
//!
//! A record is `line N: 9×9 (3×3 boxes), 17 givens, no clash` (`FILE: ` first when there are
//! several files); as JSON `{"line", "order", "box", "latin", "givens", "empty", "clash"}` (and
//! `"file"` with several files). Givens that clash are described, but count as bad input.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::item::{InputError, PuzzleItem, puzzles_until};
use super::job::{Control, ItemResult, Job, JobRecord, Status};
use super::options::{self, OptionError};
use crate::search::Cancel;
use crate::shape::Shape;
use crate::text::ReadOptions;

/// Why an `info` job cannot start.
#[derive(Debug, thiserror::Error)]
pub enum InfoError {
    /// An input that cannot be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A bad option.
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// The `info` job; see the module docs.
#[derive(Debug, Clone)]
pub struct InfoJob {
    /// Whether records name their file (there are several).
    pub name_files: bool,
    /// Worker threads.
    pub threads: usize,
}

impl InfoJob {
    /// The job over the puzzles of `files`, one after the other, read without refusing
    /// clashing givens (which `info` describes), on `threads` threads (default: all cores).
    /// Every file is opened (and checked to hold a puzzle) before any is read on; the job names
    /// the files in its records when there are several.
    ///
    /// The files are read until `stop` is set (a deadline or a signal), even in a stream of
    /// blank lines.
    ///
    /// # Errors
    /// A file that cannot be opened or holds no puzzle, a stop before the first puzzle;
    /// `threads` of 0.
    pub fn over(
        files: &[PathBuf],
        read: ReadOptions,
        threads: Option<usize>,
        stop: &Cancel,
    ) -> Result<(InfoJob, impl Iterator<Item = PuzzleItem> + Send + use<>), InfoError> {
        let threads = options::threads(threads)?;
        let read = ReadOptions {
            reject_clashes: false,
            ..read
        };
        let readers = files
            .iter()
            .map(|file| puzzles_until(file, read, stop))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((
            InfoJob {
                name_files: files.len() > 1,
                threads,
            },
            readers.into_iter().flatten(),
        ))
    }
}

impl Job for InfoJob {
    type Item = PuzzleItem;
    type Record = InfoRecord;

    fn name(&self) -> &'static str {
        "info"
    }

    fn identity(&self) -> Value {
        json!({ "name_files": self.name_files })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, _control: &Control) -> ItemResult<InfoRecord> {
        let record = match item.record() {
            Ok(record) => record,
            Err(error) => return ItemResult::Failed(error),
        };
        let grid = &record.grid;
        ItemResult::Done(InfoRecord {
            file: self.name_files.then(|| item.file.clone()),
            line: record.line,
            shape: grid.shape(),
            givens: grid.filled(),
            clash: grid.first_clash().map(|c| c.to_string()),
        })
    }
}

/// The description of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoRecord {
    /// Its file, when records name their file.
    pub file: Option<Arc<str>>,
    /// Its input line.
    pub line: usize,
    /// Its shape.
    pub shape: Shape,
    /// Its number of givens.
    pub givens: usize,
    /// The first clash of its givens, in words.
    pub clash: Option<String>,
}

impl JobRecord for InfoRecord {
    /// Clashing givens are bad input for every command: exit 2.
    fn status(&self) -> Status {
        if self.clash.is_some() {
            Status::Error
        } else {
            Status::Done
        }
    }

    fn text(&self) -> String {
        let clash = self
            .clash
            .as_ref()
            .map_or("no clash".to_string(), |c| format!("clash: {c}"));
        let file = self
            .file
            .as_ref()
            .map_or(String::new(), |f| format!("{f}: "));
        format!(
            "{file}line {}: {}, {} givens, {clash}\n",
            self.line, self.shape, self.givens
        )
    }

    fn json(&self) -> Value {
        let shape = self.shape;
        let mut value = json!({
            "line": self.line,
            "order": shape.order(),
            "box": (!shape.is_latin()).then(|| [shape.box_rows(), shape.box_cols()]),
            "latin": shape.is_latin(),
            "givens": self.givens,
            "empty": shape.cells() - self.givens,
            "clash": self.clash,
        });
        if let Some(file) = &self.file {
            value["file"] = json!(file.as_ref());
        }
        value
    }
}
