//! `export --out-dir DIR` as a job: every puzzle of an input written in a solver's input format,
//! one file each, `DIR/STEM-K.EXT` (STEM the input's name without its extension, K the puzzle's
//! 1-based position, zero-padded to the digits of the input's line count so that the files sort
//! in input order: [`crate::format::provenance`]); `--to col` also writes the precolouring
//! beside each file. Every file names its source and the exact `decode` command in its comments.
//!
//! A record holds no text (the files are the output); a puzzle that cannot be read, is above the
//! size cap or cannot be written is an error said on standard error (the run's notes), and the
//! others are still written. With `index`, only that puzzle is written.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use thiserror::Error;

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::options::{self, OptionError};
use super::record::{ItemError, ItemResult, JobItem, JobRecord, Status};
use super::size_cap::{self, MaxSize};
use super::source::{Items, Source};
use super::summary::Summary;
use super::tally::Ran;
use super::target::{AtomicFile, TargetError};
use crate::format::provenance::{numbered_name, source_header};
use crate::format::{ExportFormat, ExportOptions, estimate_size, export, find_format};
use crate::text::ReadPuzzle;

/// The options of `export --out-dir`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExportBatchOptions {
    /// The format (`cnf`, `opb`, `smt2`, `lp`, `mps`, `dlx`, `col`, ...).
    pub to: String,
    /// The CNF encoding (`cnf`) or the SMT encoding (`smt2`).
    pub encoding: Option<String>,
    /// The at-most-one encoding (`cnf`).
    pub amo: Option<String>,
    /// The directory the files go to (made if missing).
    pub out_dir: PathBuf,
    /// Only the puzzle at this 1-based position.
    pub index: Option<usize>,
    /// Say each file's size (variables, clauses, bytes) on standard error.
    pub stats: bool,
    /// Refuse a file estimated above this size (`1G`, `500M`, `unlimited`).
    pub max_size: MaxSize,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl Default for ExportBatchOptions {
    fn default() -> Self {
        ExportBatchOptions {
            to: "cnf".to_string(),
            encoding: None,
            amo: None,
            out_dir: PathBuf::from("."),
            index: None,
            stats: false,
            max_size: MaxSize::default(),
            threads: None,
        }
    }
}

/// The `export --out-dir` job; see the module docs.
#[derive(Debug, Clone)]
pub struct ExportJob {
    options: ExportBatchOptions,
    to: &'static ExportFormat,
    export: ExportOptions,
    threads: usize,
}

/// A puzzle to export, with the line count of its input (for the files' numbers).
#[derive(Debug, Clone)]
pub struct ExportItem {
    /// The puzzle.
    pub puzzle: PuzzleItem,
    /// Lines in its input (999 999 for standard input, which cannot be read twice).
    pub lines: usize,
}

impl JobItem for ExportItem {
    fn line(&self) -> usize {
        self.puzzle.line()
    }

    fn key(&self) -> u64 {
        self.puzzle.key()
    }
}

impl ExportJob {
    /// The job, its options checked (and `out_dir` made).
    ///
    /// # Errors
    /// An unknown format or encoding; `index` of 0; a directory that cannot be made; `threads`
    /// of 0.
    pub fn new(options: ExportBatchOptions) -> Result<ExportJob, OptionError> {
        let to = find_format(&options.to).map_err(|e| OptionError::Invalid {
            option: "to",
            message: e.to_string(),
        })?;
        let export = ExportOptions::named(to, options.encoding.as_deref(), options.amo.as_deref())
            .map_err(|message| OptionError::Invalid {
                option: "encoding",
                message: message.to_string(),
            })?;
        if options.index == Some(0) {
            return Err(OptionError::Invalid {
                option: "index",
                message: "it counts from 1".into(),
            });
        }
        std::fs::create_dir_all(&options.out_dir).map_err(|source| OptionError::Directory {
            option: "out_dir",
            path: options.out_dir.clone(),
            source,
        })?;
        Ok(ExportJob {
            threads: options::threads(options.threads)?,
            to,
            export,
            options,
        })
    }

    /// Writes one puzzle's file (and its companion); returns the size line.
    fn write(&self, item: &PuzzleItem, record: &ReadPuzzle, lines: usize) -> Result<Note, String> {
        let k = item.index + 1;
        let name = numbered_name(&stem(&item.file), k, lines, self.to.extension);
        let path = self.options.out_dir.join(name);
        let one = OneExport {
            file: &item.file,
            index: k,
            to: self.to,
            options: &self.export,
            cap: self.options.max_size,
        };
        let stats = one
            .write(record, Destination::File(&path))
            .map_err(|e| match &e {
                ExportError::Io(cause) => format!("{e}: {cause}"),
                _ => e.to_string(),
            })?;
        let stats = format!(
            "puzzle of line {} → {}: {stats}",
            record.line,
            path.display()
        );
        Ok(Note { path, stats })
    }
}

/// One puzzle's export, as `export` without `--out-dir` writes it (and the job, each file).
#[derive(Debug, Clone, Copy)]
pub struct OneExport<'a> {
    /// The input the puzzle is from, as its header names it.
    pub file: &'a str,
    /// The puzzle's 1-based position in it.
    pub index: usize,
    /// The format.
    pub to: &'static ExportFormat,
    /// Its encodings.
    pub options: &'a ExportOptions,
    /// The size cap.
    pub cap: MaxSize,
}

/// Where one export goes.
pub enum Destination<'a> {
    /// A stream (standard output).
    Stream(&'a mut dyn Write),
    /// A file written whole (a temporary file renamed when complete), with the format's
    /// companion beside it (`.given` beside a `.col`).
    File(&'a Path),
}

/// An export of one puzzle that failed.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The file would be above the size cap (the message says what would do).
    #[error("{0}")]
    TooLarge(String),

    /// The file cannot be written.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The stream cannot be written.
    #[error("cannot write the export")]
    Io(#[from] std::io::Error),
}

impl OneExport<'_> {
    /// Writes `record` (after checking its estimated size against the cap) with the header
    /// that names its source and the `decode` command; returns the size line (`--stats`).
    ///
    /// # Errors
    /// Above the cap; the destination cannot be written.
    pub fn write(&self, record: &ReadPuzzle, to: Destination<'_>) -> Result<String, ExportError> {
        check_size(record, self.to, self.options, self.cap).map_err(ExportError::TooLarge)?;
        let header = source_header(
            self.file,
            self.index,
            record.line,
            record.grid.shape(),
            self.to,
            self.options,
        );
        match to {
            Destination::Stream(out) => {
                let stats = export(&record.grid, self.to, self.options, &header, out)?;
                out.flush()?;
                Ok(stats)
            }
            Destination::File(path) => {
                let mut out = AtomicFile::create(path)?;
                let stats = export(&record.grid, self.to, self.options, &header, &mut out)?;
                out.commit()?;
                if let Some(companion) = self.to.companion {
                    let mut out = AtomicFile::create(&path.with_extension(companion.extension))?;
                    (companion.write)(&record.grid, &mut out)?;
                    out.commit()?;
                }
                Ok(stats)
            }
        }
    }
}

/// A file written, and its size line.
struct Note {
    path: PathBuf,
    stats: String,
}

/// The stem of the files for the input `file`.
fn stem(file: &str) -> String {
    if file == "-" {
        return "stdin".to_string();
    }
    Path::new(file)
        .file_stem()
        .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned())
}

/// The lines of `file` (999 999 for standard input, or an input that cannot be read again).
fn line_count(file: &str) -> usize {
    const UNKNOWN: usize = 999_999;
    if file == "-" {
        return UNKNOWN;
    }
    let Ok(opened) = std::fs::File::open(file) else {
        return UNKNOWN;
    };
    let mut reader = BufReader::new(opened);
    let (mut lines, mut last) = (0, b'\n');
    loop {
        let Ok(chunk) = reader.fill_buf() else {
            return UNKNOWN;
        };
        let Some(&end) = chunk.last() else { break };
        lines += chunk.iter().filter(|&&b| b == b'\n').count();
        last = end;
        let taken = chunk.len();
        reader.consume(taken);
    }
    lines + usize::from(last != b'\n')
}

/// Refuses a file estimated above the cap.
///
/// # Errors
/// The estimate is above `cap` (the message says what would do).
pub fn check_size(
    record: &ReadPuzzle,
    to: &ExportFormat,
    options: &ExportOptions,
    cap: MaxSize,
) -> Result<(), String> {
    let estimate = estimate_size(&record.grid, to, options);
    let n = record.grid.shape().order();
    let what = if to.takes_cnf_options {
        let cnf = options.cnf;
        format!(
            "the CNF ({}/{}) of the {n}×{n} puzzle on line {}",
            cnf.encoding, cnf.amo, record.line
        )
    } else {
        format!(
            "the {} file of the {n}×{n} puzzle on line {}",
            to.extension, record.line
        )
    };
    size_cap::check(estimate, cap, &what).map_err(|e| e.to_string())
}

/// One puzzle's file, or the error said on standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedRecord {
    /// How it counts.
    pub status: Status,
    /// The file written.
    pub path: Option<PathBuf>,
    /// What standard error gets: the size line (with `stats`) or the error.
    pub note: Option<String>,
}

impl JobRecord for ExportedRecord {
    fn status(&self) -> Status {
        self.status
    }

    /// The files are the output: a record writes nothing.
    fn text(&self) -> String {
        String::new()
    }

    fn json(&self) -> Value {
        json!({"status": self.status.word(), "file": self.path, "note": self.note})
    }

    fn written(&self, _json: bool) -> String {
        String::new()
    }
}

/// The notes of an export (errors, sizes) and whether `index` found its puzzle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportSummary {
    /// The notes, in input order.
    pub notes: Vec<String>,
    /// Puzzles seen.
    pub seen: usize,
    /// The puzzle asked for.
    pub index: Option<usize>,
}

impl Summary<ExportedRecord> for ExportSummary {
    fn add(&mut self, result: &ItemResult<ExportedRecord>) {
        self.seen += 1;
        if let ItemResult::Done(record) = result {
            self.notes.extend(record.note.clone());
        }
    }

    fn merge(&mut self, share: ExportSummary) {
        self.notes.extend(share.notes);
        self.seen += share.seen;
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = self.notes.clone();
        if let (Some(k), 0) = (self.index, self.seen) {
            notes.push(format!("the input has fewer than {k} puzzles"));
        }
        notes
    }

    /// The files are the output: every error is a note.
    fn errors_in_notes(&self) -> bool {
        true
    }

    fn exit_code(&self, ran: &Ran) -> u8 {
        if self.index.is_some() && self.seen == 0 {
            2
        } else {
            ran.exit_code()
        }
    }
}

impl Job for ExportJob {
    type Item = ExportItem;
    type Record = ExportedRecord;
    type Summary = ExportSummary;

    fn name(&self) -> &'static str {
        "export"
    }

    fn identity(&self) -> Value {
        json!({"to": self.options.to, "encoding": self.options.encoding, "amo": self.options.amo})
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn summary(&self) -> ExportSummary {
        ExportSummary {
            index: self.options.index,
            ..ExportSummary::default()
        }
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<ExportItem>, InputError> {
        let mut streams = Vec::with_capacity(sources.len());
        for source in sources {
            let Source::Puzzles { name, items } = source else {
                return Err(InputError::Source("puzzles"));
            };
            let lines = line_count(&name);
            let index = self.options.index;
            streams.push(
                items
                    .filter(move |p| index.is_none_or(|k| p.index + 1 == k))
                    .map(move |puzzle| ExportItem { puzzle, lines }),
            );
        }
        Ok(Box::new(streams.into_iter().flatten()))
    }

    /// An error is a record too, said on standard error: the output stays the files.
    fn run(&self, item: ExportItem, _control: &Control) -> ItemResult<ExportedRecord> {
        let failed = |error: ItemError| {
            ItemResult::Done(ExportedRecord {
                status: Status::Error,
                path: None,
                note: Some(error.text().trim_end().to_string()),
            })
        };
        let record = match item.puzzle.read_puzzle() {
            Ok(record) => record,
            Err(error) => return failed(error),
        };
        match self.write(&item.puzzle, record, item.lines) {
            Ok(note) => ItemResult::Done(ExportedRecord {
                status: Status::Done,
                note: self.options.stats.then_some(note.stats),
                path: Some(note.path),
            }),
            Err(message) => failed(ItemError::failed(&item.puzzle.file, record.line, message)),
        }
    }
}
