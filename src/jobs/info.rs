//! `info` as a job: the shape, givens and clash of each puzzle of one or more files.
//!
//! A record is `line N: 9×9 (3×3 boxes), 17 givens, no clash` (`FILE: ` first when there are
//! several files); as JSON `{"line", "order", "box", "latin", "givens", "empty", "clash"}` (and
//! `"file"` with several files). Givens that clash are described, but count as bad input.

use std::sync::Arc;

use serde_json::{Value, json};

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::options::{self, OptionError};
use super::record::{ItemResult, JobRecord, Status};
use super::source::{Items, Source, puzzles_of};
use super::summary::NoSummary;
use crate::shape::Shape;
use crate::text::ReadOptions;

/// The `info` job; see the module docs.
#[derive(Debug, Clone)]
pub struct InfoJob {
    /// Whether records name their file (there are several).
    pub name_files: bool,
    /// Worker threads.
    pub threads: usize,
}

impl InfoJob {
    /// The job on `threads` threads (default: all cores), naming the file in its records when
    /// `name_files` (there are several inputs).
    ///
    /// # Errors
    /// `threads` of 0.
    pub fn new(threads: Option<usize>, name_files: bool) -> Result<InfoJob, OptionError> {
        Ok(InfoJob {
            name_files,
            threads: options::threads(threads)?,
        })
    }
}

impl Job for InfoJob {
    type Item = PuzzleItem;
    type Record = InfoRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "info"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    fn read_options(&self, read: ReadOptions, _input: usize) -> ReadOptions {
        // A clash is described, not refused.
        ReadOptions {
            reject_clashes: false,
            ..read
        }
    }

    fn identity(&self) -> Value {
        json!({ "name_files": self.name_files })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, _control: &Control) -> ItemResult<InfoRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return ItemResult::Failed(error),
        };
        let grid = &puzzle.grid;
        ItemResult::Done(InfoRecord {
            file: self.name_files.then(|| item.file.clone()),
            line: puzzle.line,
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
            "box": (!shape.is_latin() && !shape.has_region_map())
                .then(|| [shape.box_rows(), shape.box_cols()]),
            "latin": shape.is_latin(),
            "givens": self.givens,
            "empty": shape.cells() - self.givens,
            "clash": self.clash,
        });
        if let Some(regions) = shape.regions() {
            value["regions"] = json!(regions.map_rows());
            value["extra"] = json!(
                regions
                    .extra_sets()
                    .unwrap_or_default()
                    .iter()
                    .map(|set| set.name())
                    .collect::<Vec<_>>()
            );
        }
        if let Some(file) = &self.file {
            value["file"] = json!(file.as_ref());
        }
        value
    }
}
