//! `decode` as a job: a solver's answer to an exported file, mapped back to the puzzle it was
//! made for, every model verified, in the order of the answer, then what the answer says of the
//! rest.
//!
//! # Inputs and options
//! Two inputs: a puzzle file, and the solver's answer ([`Job::raw_input`]: the answer is read
//! whole by the job, not as puzzles). The options ([`DecodeOptions`]) name the answer form
//! (`reader`, the command line's `--from`: a reader of [`crate::format::READERS`] or an alias;
//! default `dimacs`), the CNF `encoding` the file was exported with (only `optimized` numbers
//! the variables differently), and the `index` (1-based) of the puzzle of the file the answer
//! is to (default: the file's only puzzle). The puzzle is picked as every single-puzzle
//! command picks it ([`super::pick`]); an answer that cannot be read, or does not fit the
//! puzzle, fails the run with its place (`ANSWER:LINE:COLUMN: message`), before any record is
//! written: an answer is taken whole or not at all.
//!
//! # Records
//! One record per model (the items are the answer's models, read before the run), then one
//! that ends the answer:
//! - a model: text, the solution's grid, or `not a solution: ...` / `not a grid: ...`; JSON,
//!   `{"model", "status", "solution"}` or with the `grid` and `reason`. A solution is `done`,
//!   anything else `negative` (exit 1);
//! - the end: text, for an answer of several models or one that says its enumeration ended, the
//!   count (`2 solutions of 2; the solver says there is no other (not checked)`); an answer
//!   without a model says `unsat (claimed by the answer, not checked)` or `unknown`, and is
//!   `negative`. JSON: always a line with the count (`"models"`, `"solutions"`, `"complete"`,
//!   `"end"`). A solver's "no other solution" is its claim: `decode` reads an answer and has no
//!   proof to check.
//!
//! The first model that is not a solution is explained in a note (the summary's,
//! [`DecodeSummary`]): the grid, and the likely cause: the answer solves another puzzle of the
//! same file (the `--index` it was made for, found by [`puzzles_solved_by`]), or, for a SAT
//! answer, a CNF written with another encoding.
//!
//! # On Dask
//! A Dask task gets a shard of each input; the answer's shard (read as puzzles) is not used:
//! the task that holds the picked puzzle reads the answer whole from its file, the others make
//! nothing. A shard cannot tell that the file has fewer puzzles than `index` (no task then makes
//! a record); several puzzles without an `index` are refused by every task that sees a second
//! one.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
pub use super::decode_record::{DecodeRecord, DecodeSummary};
use super::item::{Fnv, InputError, PuzzleItem, open};
use super::job::Job;
use super::options::{self, OptionError};
use super::pick::pick;
use super::record::{ItemResult, JobItem};
use super::source::{Items, Source};
use crate::encode::cnf::{CnfOptions, Encoding};
use crate::format::{AnswerReader, Decoded, ExportOptions, decode_answers, find_reader};
use crate::grid::Grid;
use crate::text::{PuzzleReader, ReadOptions, ShapeSpec, to_text};
use crate::verify::verify;

/// What a file of several puzzles without an index is told.
const PICK: &str = "pick one with --index N";

/// The options of `decode`; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DecodeOptions {
    /// The answer form: a reader's name or alias (the command line's `--from`).
    pub reader: String,
    /// The CNF encoding the file was exported with (`minimal`, `efficient`, `extended`,
    /// `optimized`).
    pub encoding: String,
    /// The puzzle of the file (1-based), as given to `export --index`; none: the only one.
    pub index: Option<usize>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            reader: "dimacs".to_string(),
            encoding: Encoding::default().name().to_string(),
            index: None,
            threads: None,
        }
    }
}

/// The `decode` job; see the module docs.
#[derive(Debug, Clone)]
pub struct DecodeJob {
    reader: &'static AnswerReader,
    encoding: Encoding,
    index: Option<usize>,
    threads: usize,
}

impl DecodeJob {
    /// The job, its options checked.
    ///
    /// # Errors
    /// An unknown reader or encoding; `index` or `threads` of 0.
    pub fn new(options: DecodeOptions) -> Result<DecodeJob, OptionError> {
        let reader = find_reader(&options.reader).map_err(|e| OptionError::Invalid {
            option: "from",
            message: e.to_string(),
        })?;
        let encoding = options
            .encoding
            .parse()
            .map_err(|message| OptionError::Invalid {
                option: "encoding",
                message,
            })?;
        if options.index == Some(0) {
            return Err(OptionError::Invalid {
                option: "index",
                message: "it counts from 1".into(),
            });
        }
        Ok(DecodeJob {
            reader,
            encoding,
            index: options.index,
            threads: options::threads(options.threads)?,
        })
    }

    /// Every result of the answer at `path` to `puzzle`, verified, and its final word (unsat or
    /// unknown), if it says one.
    fn decode(
        &self,
        puzzle: &Grid,
        name: &str,
        path: &Path,
    ) -> Result<(Vec<Decoded>, Option<Decoded>), InputError> {
        let options = ExportOptions {
            cnf: CnfOptions {
                encoding: self.encoding,
                ..CnfOptions::default()
            },
            ..ExportOptions::default()
        };
        let mut input = open(path)?;
        let (mut models, mut end) = (Vec::new(), None);
        decode_answers(puzzle, self.reader, &options, &mut input, &mut |decoded| {
            if matches!(decoded, Decoded::Unsat | Decoded::Unknown) {
                end = Some(decoded);
                return false;
            }
            models.push(decoded);
            true
        })
        .map_err(|error| InputError::Answer {
            name: name.to_string(),
            error,
        })?;
        Ok((models, end))
    }

    /// The note on the first model that is not a solution: the grid, and the likely cause.
    fn note(&self, number: usize, decoded: &Decoded, file: &str) -> Option<String> {
        match decoded {
            Decoded::Invalid(grid, violation) => Some(format!(
                "model {number} decodes to a grid that is not a solution: {violation}{}\n{}",
                self.index_hint(grid, file)
                    .unwrap_or_else(|| self.encoding_hint()),
                to_text(grid)
            )),
            Decoded::NotAGrid(reason) => Some(format!(
                "model {number} is not a solution: {reason}{}",
                self.encoding_hint()
            )),
            _ => None,
        }
    }

    /// For a model that solves another puzzle of the file than the one picked: the index the
    /// answer was made for (the file is read again, once, as puzzles of the grid's shape; not
    /// standard input).
    fn index_hint(&self, grid: &Grid, file: &str) -> Option<String> {
        if file == "-" {
            return None;
        }
        let shape = grid.shape();
        let spec = if shape.is_latin() {
            ShapeSpec::Latin
        } else {
            ShapeSpec::Box(shape.box_rows(), shape.box_cols())
        };
        let regions = shape.regions().map(crate::shape::RegionSpec::of);
        let read = ReadOptions {
            shape: ShapeSpec::with_regions(Some(spec), regions.unwrap_or_default())
                .unwrap_or(Some(spec)),
            ..ReadOptions::default()
        };
        let reader = PuzzleReader::new(BufReader::new(std::fs::File::open(file).ok()?), read);
        index_hint(grid, reader, file, self.index.unwrap_or(1))
    }

    /// For a SAT solver's answer that does not decode to a solution, the usual cause: the CNF
    /// was written with another encoding (its first comment line names it).
    fn encoding_hint(&self) -> String {
        if matches!(self.reader.name, "dimacs" | "minisat") {
            format!(
                " (decoded with --encoding {}: if the CNF was written with another encoding, give \
                 the same --encoding here; the CNF's first comment line names it)",
                self.encoding.name()
            )
        } else {
            String::new()
        }
    }
}

/// The puzzle of a Dask task's shard the answer is to (none when the shard does not hold it).
///
/// # Errors
/// A second puzzle in the file when no index picks one.
fn shard_pick(
    items: Items<PuzzleItem>,
    name: &str,
    index: Option<usize>,
) -> Result<Option<PuzzleItem>, InputError> {
    let mut found = None;
    for item in items {
        match index {
            None if item.index > 0 => {
                return Err(InputError::SeveralPuzzles {
                    name: name.to_string(),
                    pick: PICK,
                });
            }
            None => found = Some(item),
            Some(k) if item.index + 1 == k => return Ok(Some(item)),
            Some(_) => {}
        }
    }
    Ok(found)
}

/// One result of an answer, to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeItem {
    /// A model of the answer, verified.
    Model {
        /// The puzzle file's name.
        file: Arc<str>,
        /// The puzzle's line in it.
        line: usize,
        /// The model's number (from 1).
        number: usize,
        /// What it decodes to.
        decoded: Decoded,
        /// Whether it is the first that is not a solution (its record carries the note).
        first_bad: bool,
    },
    /// The end of the answer.
    End {
        /// The puzzle's line.
        line: usize,
        /// How many models.
        models: usize,
        /// How many of them are solutions.
        solutions: usize,
        /// The answer's final word: unsat (no other), unknown (stopped), or none.
        end: Option<Decoded>,
    },
}

impl JobItem for DecodeItem {
    fn line(&self) -> usize {
        match self {
            DecodeItem::Model { line, .. } | DecodeItem::End { line, .. } => *line,
        }
    }

    fn key(&self) -> u64 {
        let mut hash = Fnv::new();
        match self {
            DecodeItem::Model {
                number, decoded, ..
            } => {
                hash.add(&(*number as u64).to_le_bytes());
                if let Decoded::Solution(grid) | Decoded::Invalid(grid, _) = decoded {
                    hash.add(to_text(grid).as_bytes());
                }
            }
            DecodeItem::End {
                models, solutions, ..
            } => {
                hash.add(b"end");
                hash.add(&(*models as u64).to_le_bytes());
                hash.add(&(*solutions as u64).to_le_bytes());
            }
        }
        hash.finish()
    }
}

impl Job for DecodeJob {
    type Item = DecodeItem;
    type Record = DecodeRecord;
    type Summary = DecodeSummary;

    fn name(&self) -> &'static str {
        "decode"
    }

    fn identity(&self) -> Value {
        json!({"reader": self.reader.name, "encoding": self.encoding.name(), "index": self.index})
    }

    fn workers(&self) -> usize {
        self.threads
    }

    fn summary(&self) -> DecodeSummary {
        DecodeSummary::default()
    }

    fn raw_input(&self, input: usize) -> bool {
        input == 1
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<DecodeItem>, InputError> {
        const READS: &str = "a puzzle file and a solver's answer";
        let Ok([Source::Puzzles { name, items }, answer]) = <[Source; 2]>::try_from(sources) else {
            return Err(InputError::Source(READS));
        };
        let (answer_name, answer_path, picked) = match answer {
            Source::File { name: answer, path } => {
                (answer, path, Some(pick(items, &name, self.index, PICK)?))
            }
            // A Dask task: the shard of the answer is not used (see the module docs).
            Source::Puzzles { name: answer, .. } => {
                let path = PathBuf::from(&*answer);
                (answer, path, shard_pick(items, &name, self.index)?)
            }
            Source::Range(_) => return Err(InputError::Source(READS)),
        };
        let Some(picked) = picked else {
            return Ok(Box::new(std::iter::empty()));
        };
        let puzzle = picked.read_puzzle().map_err(InputError::Puzzle)?;
        let (decoded, end) = self.decode(&puzzle.grid, &answer_name, &answer_path)?;
        let (models, line) = (decoded.len(), puzzle.line);
        let solutions = decoded
            .iter()
            .filter(|d| matches!(d, Decoded::Solution(_)))
            .count();
        let first_bad = decoded
            .iter()
            .position(|d| !matches!(d, Decoded::Solution(_)));
        let file = picked.file.clone();
        let items = decoded
            .into_iter()
            .enumerate()
            .map(move |(i, decoded)| DecodeItem::Model {
                file: file.clone(),
                line,
                number: i + 1,
                decoded,
                first_bad: first_bad == Some(i),
            });
        let end = DecodeItem::End {
            line,
            models,
            solutions,
            end,
        };
        Ok(Box::new(items.chain(std::iter::once(end))))
    }

    fn run(&self, item: DecodeItem, _control: &Control) -> ItemResult<DecodeRecord> {
        ItemResult::Done(match item {
            DecodeItem::Model {
                file,
                number,
                decoded,
                first_bad,
                ..
            } => DecodeRecord::Model {
                note: if first_bad {
                    self.note(number, &decoded, &file)
                } else {
                    None
                },
                number,
                decoded,
            },
            DecodeItem::End {
                models,
                solutions,
                end,
                ..
            } => DecodeRecord::End {
                models,
                solutions,
                end,
            },
        })
    }
}

/// The puzzles of a file that `grid` solves, as `(index, line)` (both 1-based), at most `limit`
/// of them, in file order.
///
/// A model that decodes to a grid that is not a solution of the puzzle it was decoded against
/// is most often an answer to another puzzle of the same file, exported with another `--index`:
/// this finds that puzzle so that the message can name the right `--index`. Unreadable puzzles
/// and puzzles of another shape are skipped.
///
/// # Complexity
/// One pass over the file: O(n²) per puzzle of the grid's shape (the verifier).
pub fn puzzles_solved_by<R: BufRead>(
    grid: &Grid,
    puzzles: PuzzleReader<R>,
    limit: usize,
) -> Vec<(usize, usize)> {
    puzzles
        .enumerate()
        .filter_map(|(i, record)| {
            let record = record.ok()?;
            (record.grid.shape() == grid.shape() && verify(&record.grid, grid).is_ok())
                .then_some((i + 1, record.line))
        })
        .take(limit)
        .collect()
}

/// The hint for a model that is not a solution of puzzle `picked` of `file` but solves another
/// puzzle of it (found by [`puzzles_solved_by`]): the `--index` the answer was made for.
pub fn index_hint<R: BufRead>(
    grid: &Grid,
    puzzles: PuzzleReader<R>,
    file: &str,
    picked: usize,
) -> Option<String> {
    let &(index, line) = puzzles_solved_by(grid, puzzles, 1).first()?;
    Some(format!(
        " (it solves puzzle {index}, line {line}, of {file}: the answer was made for --index \
         {index}, not {picked})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_are_checked() {
        let with = |f: &dyn Fn(&mut DecodeOptions)| {
            let mut options = DecodeOptions::default();
            f(&mut options);
            DecodeJob::new(options).err().map(|e| e.to_string())
        };
        assert_eq!(with(&|_| {}), None);
        assert!(
            with(&|o| o.reader = "nosuch".into())
                .unwrap()
                .contains("answer form")
        );
        assert!(
            with(&|o| o.encoding = "nosuch".into())
                .unwrap()
                .contains("extended")
        );
        assert!(
            with(&|o| o.index = Some(0))
                .unwrap()
                .contains("counts from 1")
        );
    }

    #[test]
    fn the_puzzle_an_answer_solves_is_found_by_its_index_and_line() {
        let file = "# two puzzles\n1.3.....4....2..\n\n.2........1.4...\n";
        let read = || PuzzleReader::new(file.as_bytes(), crate::text::ReadOptions::default());
        let first: crate::Grid = "1432231441233241".parse().unwrap();
        assert_eq!(puzzles_solved_by(&first, read(), 5), vec![(1, 2)]);
        let second: crate::Grid = "1243342123144132".parse().unwrap();
        assert_eq!(puzzles_solved_by(&second, read(), 5), vec![(2, 4)]);
        let other: crate::Grid = "4321123421433412".parse().unwrap();
        assert_eq!(
            puzzles_solved_by(&other, read(), 5),
            Vec::<(usize, usize)>::new()
        );
    }
}
