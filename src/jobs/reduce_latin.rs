//! `reduce latin` as a job: each partial Latin square reduced to its Sudoku of order m² (and on
//! to the Sudoku's file in an export format: DIMACS CNF, CPLEX LP, dlx1 exact cover, DIMACS
//! `.col`, ...), one target instance per square, in input order.
//!
//! With `to = "sudoku"` a record is the Sudoku as a puzzle line, a grid block or a JSON object
//! (`form`); an error is reported in place. Another target is a whole file per square, which
//! begins with its own comment line `sudokit reduce latin: square K (line L of FILE) ...`, so
//! one square gives a valid file and several are split at those lines; an error then goes to
//! standard error (the run's notes), so the output stays a sequence of valid files. With
//! `out_dir`, each square's instance is written to `DIR/STEM-K.EXT` (STEM the input's name
//! without its extension, K the square's 1-based position) and the record is empty.
//!
//! # References
//! - C. J. Colbourn, *The complexity of completing partial Latin squares*, Discrete Applied
//!   Mathematics 8 (1984); T. Yato and T. Seta, *Complexity and completeness of finding another
//!   solution and its application to puzzles*, IEICE Trans. Fundamentals E86-A (2003) (the
//!   reduction; see [`crate::reduce::latin`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::{InputError, PuzzleItem};
use super::job::Job;
use super::options::{self, Opt, OptionError, as_text, said};
use super::record::{ItemError, ItemResult, JobRecord, Status};
use super::record_text::json_line;
use super::source::{Items, Source, puzzles_of};
use super::summary::Summary;
use super::target::{AtomicFile, TargetError};
use crate::encode::cnf::{Amo, CnfOptions, Encoding};
use crate::format::{ExportFormat, ExportOptions, export, find_format};
use crate::grid::Grid;
use crate::reduce::latin::latin_to_sudoku;
use crate::text::{ReadOptions, ReadPuzzle, ShapeSpec, to_block, to_json, to_line};

/// How each Sudoku of `to = "sudoku"` is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum SudokuForm {
    /// One puzzle line per square (orders up to 35).
    #[default]
    Line,
    /// One grid block per square, blocks separated by a blank line.
    Block,
    /// One JSON object per square.
    Json,
}

/// The options of `reduce latin`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReduceLatinOptions {
    /// The target: `sudoku`, or the Sudoku's file in any export format (`cnf`, `lp`/`ilp`,
    /// `dlx`/`exact-cover`, `col`/`colouring`, `mps`, `hgr`, `dzn`).
    pub to: String,
    /// The form of each Sudoku (`to = "sudoku"` only).
    pub form: SudokuForm,
    /// The CNF encoding (`to = "cnf"` only; default extended).
    #[serde(with = "as_text::option")]
    pub encoding: Option<Encoding>,
    /// The at-most-one encoding (`to = "cnf"` only; default pairwise).
    #[serde(with = "as_text::option")]
    pub amo: Option<Amo>,
    /// Write one file per square into this directory (made if missing).
    pub out_dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl Default for ReduceLatinOptions {
    fn default() -> Self {
        ReduceLatinOptions {
            to: "sudoku".to_string(),
            form: SudokuForm::Line,
            encoding: None,
            amo: None,
            out_dir: None,
            threads: None,
        }
    }
}

/// The target of the reduction: the Sudoku itself, or its file in an export format.
#[derive(Debug, Clone, Copy)]
enum ReductionTarget {
    Sudoku(SudokuForm),
    File(&'static ExportFormat),
}

impl ReductionTarget {
    /// The extension of the files `out_dir` holds.
    fn extension(self) -> &'static str {
        match self {
            ReductionTarget::Sudoku(SudokuForm::Json) => "json",
            ReductionTarget::Sudoku(_) => "txt",
            ReductionTarget::File(format) => format.extension,
        }
    }
}

/// The `reduce latin` job; see the module docs.
#[derive(Debug, Clone)]
pub struct ReduceLatinJob {
    options: ReduceLatinOptions,
    target: ReductionTarget,
    export: ExportOptions,
    threads: usize,
}

impl ReduceLatinJob {
    /// The job, its options checked (and `out_dir` made).
    ///
    /// # Errors
    /// An unknown target; `encoding` or `amo` with a target that is not a CNF; a form other
    /// than `line` with a file target; a directory that cannot be made; `threads` of 0.
    pub fn new(options: ReduceLatinOptions) -> Result<ReduceLatinJob, OptionError> {
        let target = match options.to.as_str() {
            "sudoku" => ReductionTarget::Sudoku(options.form),
            name => ReductionTarget::File(find_format(name).map_err(|e| OptionError::Invalid {
                option: "to",
                message: e.to_string(),
            })?),
        };
        let takes_cnf = matches!(target, ReductionTarget::File(f) if f.takes_cnf_options);
        if !takes_cnf && (options.encoding.is_some() || options.amo.is_some()) {
            return Err(OptionError::Conflict(said!(
                Opt("encoding"),
                " and ",
                Opt("amo"),
                " apply to ",
                Opt("to"),
                " cnf only",
            )));
        }
        if matches!(target, ReductionTarget::File(_)) && options.form != SudokuForm::Line {
            return Err(OptionError::Conflict(said!(
                Opt("form"),
                " and ",
                Opt("json"),
                " choose the form of ",
                Opt("to"),
                " sudoku only",
            )));
        }
        if let Some(dir) = &options.out_dir {
            std::fs::create_dir_all(dir).map_err(|source| OptionError::Directory {
                option: "out_dir",
                path: dir.clone(),
                source,
            })?;
        }
        let export = ExportOptions {
            cnf: CnfOptions {
                encoding: options.encoding.unwrap_or_default(),
                amo: options.amo.unwrap_or_default(),
            },
            ..ExportOptions::default()
        };
        Ok(ReduceLatinJob {
            threads: options::threads(options.threads)?,
            target,
            export,
            options,
        })
    }

    /// Whether an error is a record in place (Sudoku lines on the output) rather than a note
    /// (files, whose sequence must stay valid).
    fn errors_in_place(&self) -> bool {
        matches!(self.target, ReductionTarget::Sudoku(_)) && self.options.out_dir.is_none()
    }

    /// An item that cannot be reduced or written: in place, or as a note.
    fn failed(&self, error: ItemError) -> ItemResult<ReducedRecord> {
        if self.errors_in_place() {
            return ItemResult::Failed(error);
        }
        ItemResult::Done(ReducedRecord {
            status: Status::Error,
            text: String::new(),
            json: None,
            note: Some(error.text().trim_end().to_string()),
        })
    }

    /// The instance of one square, and the Sudoku's JSON object (`to = "sudoku"`).
    fn instance(
        &self,
        item: &PuzzleItem,
        puzzle: &ReadPuzzle,
    ) -> Result<(Vec<u8>, Option<Value>), String> {
        let sudoku = latin_to_sudoku(&puzzle.grid).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        write_instance(
            Path::new(&*item.file),
            self.target,
            &self.export,
            item.index + 1,
            puzzle,
            &sudoku,
            &mut out,
        )?;
        let json =
            matches!(self.target, ReductionTarget::Sudoku(_)).then(|| sudoku_json(&sudoku, puzzle));
        Ok((out, json))
    }
}

/// The stem of the files `out_dir` holds for the input `file`.
fn stem(file: &str) -> String {
    if file == "-" {
        return "stdin".to_string();
    }
    Path::new(file)
        .file_stem()
        .map_or("squares".into(), |s| s.to_string_lossy().into_owned())
}

/// The Sudoku of a square as a JSON object: the puzzle's JSON form with the square's `line`
/// and `latin_order`.
fn sudoku_json(sudoku: &Grid, puzzle: &ReadPuzzle) -> Value {
    let mut value = to_json(sudoku);
    value["line"] = puzzle.line.into();
    value["latin_order"] = puzzle.grid.shape().order().into();
    value
}

/// One square's instance (its text), or the error that goes to standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReducedRecord {
    /// How it counts.
    pub status: Status,
    /// The instance as written (empty with `out_dir`, or for an error noted apart).
    pub text: String,
    /// The Sudoku's JSON object (`to = "sudoku"`, without `out_dir`).
    pub json: Option<Value>,
    /// An error for standard error (file targets).
    pub note: Option<String>,
}

impl JobRecord for ReducedRecord {
    fn status(&self) -> Status {
        self.status
    }

    fn text(&self) -> String {
        self.text.clone()
    }

    fn json(&self) -> Value {
        self.json.clone().unwrap_or_else(|| json!(self.text))
    }

    /// A Sudoku as JSON when asked; a file target's instance (or an `out_dir` run's empty
    /// record) as it is.
    fn written(&self, json: bool) -> String {
        match &self.json {
            Some(value) if json => json_line(value),
            _ => self.text.clone(),
        }
    }
}

/// The errors of file targets, said at the end of the run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReduceNotes {
    /// The errors, in input order.
    pub notes: Vec<String>,
}

impl Summary<ReducedRecord> for ReduceNotes {
    fn add(&mut self, result: &ItemResult<ReducedRecord>) {
        if let ItemResult::Done(record) = result {
            self.notes.extend(record.note.clone());
        }
    }

    fn merge(&mut self, share: ReduceNotes) {
        self.notes.extend(share.notes);
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// Its notes are the errors of file targets (none when the errors are in place).
    fn errors_in_notes(&self) -> bool {
        !self.notes.is_empty()
    }
}

impl Job for ReduceLatinJob {
    type Item = PuzzleItem;
    type Record = ReducedRecord;

    type Summary = ReduceNotes;

    fn name(&self) -> &'static str {
        "reduce-latin"
    }

    fn summary(&self) -> ReduceNotes {
        ReduceNotes::default()
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<PuzzleItem>, InputError> {
        puzzles_of(sources)
    }

    /// The inputs are read as Latin squares.
    fn read_options(&self, read: ReadOptions, _input: usize) -> ReadOptions {
        ReadOptions {
            shape: Some(ShapeSpec::Latin),
            ..read
        }
    }

    fn identity(&self) -> Value {
        let form = format!("{:?}", self.options.form);
        json!({
            "to": self.options.to,
            "form": form,
            "encoding": self.export.cnf.encoding.name(),
            "amo": self.export.cnf.amo.name(),
        })
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn run(&self, item: PuzzleItem, _control: &Control) -> ItemResult<ReducedRecord> {
        let puzzle = match item.read_puzzle() {
            Ok(puzzle) => puzzle,
            Err(e) => return self.failed(e),
        };
        let (text, json) = match self.instance(&item, puzzle) {
            Ok(instance) => instance,
            Err(message) => {
                return self.failed(ItemError::failed(&item.file, puzzle.line, message));
            }
        };
        let Some(dir) = &self.options.out_dir else {
            return ItemResult::Done(ReducedRecord {
                status: Status::Done,
                text: String::from_utf8_lossy(&text).into_owned(),
                json,
                note: None,
            });
        };
        let name = format!(
            "{}-{}.{}",
            stem(&item.file),
            item.index + 1,
            self.target.extension()
        );
        let path: PathBuf = dir.join(name);
        let saved = AtomicFile::create(&path).and_then(|mut file| {
            file.write_all(&text)
                .map_err(|e| TargetError::io("write", &path, e))?;
            file.commit()
        });
        match saved {
            Ok(()) => ItemResult::Done(ReducedRecord {
                status: Status::Done,
                text: String::new(),
                json: None,
                note: None,
            }),
            Err(e) => self.failed(ItemError::failed(&item.file, puzzle.line, error_chain(&e))),
        }
    }
}

/// An error with its causes: `cannot write x: No space left on device`.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Writes the target instance of one square (the `k`-th of `file`).
///
/// # Errors
/// A square that cannot be written in the asked form, or a write that fails.
fn write_instance(
    file: &Path,
    target: ReductionTarget,
    options: &ExportOptions,
    k: usize,
    puzzle: &ReadPuzzle,
    sudoku: &Grid,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let latin = &puzzle.grid;
    let m = latin.shape().order();
    let header = format!(
        "sudokit reduce latin: square {k} (line {} of {}), order {m}, {} givens{}\n\
         the Sudoku of order {} ({m}×{m} boxes) whose cell (i, {m}·(j − 1) + 1) carries cell (i, j) \
         of the square (1-based, i, j ≤ {m}; symbol s is digit {m}·(s − 1) + 1)",
        puzzle.line,
        file.display(),
        latin.filled(),
        to_line(latin).map_or(String::new(), |l| format!(": {l}")),
        m * m,
    );
    match target {
        ReductionTarget::Sudoku(form) => {
            let text = match form {
                SudokuForm::Json => json_line(&sudoku_json(sudoku, puzzle)),
                SudokuForm::Block => to_block(sudoku) + "\n",
                SudokuForm::Line => match to_line(sudoku) {
                    Some(line) => line + "\n",
                    None => {
                        return Err(format!(
                            "the Sudoku of order {} cannot be a puzzle line (values above Z = \
                             35); use --form block or --json",
                            sudoku.shape().order()
                        ));
                    }
                },
            };
            out.extend_from_slice(text.as_bytes());
        }
        ReductionTarget::File(format) => {
            export(sudoku, format, options, &[header], out).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
