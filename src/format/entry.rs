//! What one entry of the format registry is: an export format ([`ExportFormat`]) or an answer
//! reader ([`AnswerReader`]), with the types they share ([`ExportOptions`], [`Claim`]) and the
//! helpers every entry uses (header comments, size estimates, reading an answer cell by cell).
//!
//! Each format's file defines its entry with these types; [`super::registry`] lists the entries.
//! The entries import this module and the registry imports the entries, so there is no circle.

use std::io::{self, BufRead, Write};

use crate::encode::cnf::CnfOptions;
use crate::grid::Grid;
use crate::text::Located;
use crate::verify::Violation;

/// The options of an export: the CNF encoding, and the SMT-LIB encoding, for the formats that
/// take one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportOptions {
    /// The encoding and at-most-one choice of `cnf`.
    pub cnf: CnfOptions,
    /// The encoding of `smt2`.
    pub smt: SmtEncoding,
}

impl ExportOptions {
    /// The options of an export to `format` named as users name them (`--encoding NAME`,
    /// `--amo NAME`): the CNF encoding and at-most-one for `cnf`, the SMT encoding for `smt2`;
    /// the defaults for what is not named.
    ///
    /// # Errors
    /// A name that is not known, or an option the format does not take.
    ///
    /// # Examples
    /// ```
    /// use sudokit::format::{find_format, ExportOptions, SmtEncoding};
    /// let smt2 = find_format("smt2").unwrap();
    /// let options = ExportOptions::named(smt2, Some("int"), None).unwrap();
    /// assert_eq!(options.smt, SmtEncoding::Int);
    /// assert!(ExportOptions::named(smt2, Some("optimized"), None).is_err());
    /// assert!(ExportOptions::named(find_format("lp").unwrap(), Some("int"), None).is_err());
    /// let cnf = find_format("cnf").unwrap();
    /// let spelt = ExportOptions::named(cnf, Some("minimal:sequential"), None).unwrap();
    /// assert_eq!(spelt, ExportOptions::named(cnf, Some("minimal"), Some("sequential")).unwrap());
    /// ```
    pub fn named(
        format: &ExportFormat,
        encoding: Option<&str>,
        amo: Option<&str>,
    ) -> Result<ExportOptions, String> {
        let mut options = ExportOptions::default();
        if format.takes_cnf_options {
            // The backend's spelling too: `minimal:sequential` is an encoding and an AMO.
            let (encoding, amo) = match encoding.and_then(|e| e.split_once(':')) {
                Some(_) if amo.is_some() => {
                    return Err(
                        "give the at-most-one encoding once: in --encoding ENC:AMO or \
                                in --amo"
                            .into(),
                    );
                }
                Some((encoding, spelt)) => (Some(encoding), Some(spelt)),
                None => (encoding, amo),
            };
            if let Some(name) = encoding {
                options.cnf.encoding = name.parse()?;
            }
            if let Some(name) = amo {
                options.cnf.amo = name.parse()?;
            }
            return Ok(options);
        }
        if amo.is_some() {
            return Err(format!(
                "--amo goes with --to cnf only, not with {}",
                format.name
            ));
        }
        match encoding {
            Some(name) if format.takes_smt_encoding => options.smt = name.parse()?,
            Some(_) => {
                return Err(format!(
                    "--encoding goes with --to cnf (minimal, efficient, extended, optimized) and \
                     --to smt2 (bool, int) only, not with {}",
                    format.name
                ));
            }
            None => {}
        }
        Ok(options)
    }
}

/// How the `smt2` export states the puzzle (`export --to smt2 --encoding NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SmtEncoding {
    /// One `Int` per cell in `1..n`, one `distinct` per unit (QF_LIA): the readable model, the
    /// one a person writes; slow to solve from 16×16 on.
    Int,
    /// One `Bool` per open cell and value with the clauses of the CNF export (`--encoding
    /// optimized`: the givens and the values their peers exclude are fixed), in QF_UF: the
    /// fastest for z3 and cvc5 (BENCHMARKS.md), the default.
    #[default]
    Bool,
}

impl SmtEncoding {
    /// Every encoding, the default first.
    pub const ALL: [SmtEncoding; 2] = [SmtEncoding::Bool, SmtEncoding::Int];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            SmtEncoding::Int => "int",
            SmtEncoding::Bool => "bool",
        }
    }
}

impl std::fmt::Display for SmtEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SmtEncoding {
    type Err = String;

    fn from_str(name: &str) -> Result<SmtEncoding, String> {
        SmtEncoding::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| format!("unknown SMT encoding {name} (known: bool, int)"))
    }
}

/// A second file written beside an export (the `.given` precolouring of `col`).
#[derive(Debug, Clone, Copy)]
pub struct Companion {
    /// Its extension: the export's path with this extension.
    pub extension: &'static str,
    /// What it holds, in a few words.
    pub summary: &'static str,
    /// Writes it.
    pub write: fn(&Grid, &mut dyn Write) -> io::Result<()>,
}

/// One export format of the registry.
#[derive(Debug, Clone, Copy)]
pub struct ExportFormat {
    /// The name users type (`export --to NAME`).
    pub name: &'static str,
    /// Other names accepted for it (`ilp` for `lp`, ...).
    pub aliases: &'static [&'static str],
    /// The file extension.
    pub extension: &'static str,
    /// The mark that starts a comment line.
    pub comment: &'static str,
    /// What closes a comment line: empty for line comments, ` -->` for XML.
    pub comment_end: &'static str,
    /// Whether the file's first line must stay first (OPB's size line, the XML declaration):
    /// [`export`](super::export) then writes the header comments after it.
    pub first_line_fixed: bool,
    /// What the format is, in one line.
    pub summary: &'static str,
    /// Whether the CNF options apply.
    pub takes_cnf_options: bool,
    /// Whether the SMT-LIB encoding applies.
    pub takes_smt_encoding: bool,
    /// The answer readers of the solvers that read this format.
    pub answers: &'static [&'static str],
    /// A second file written beside the export, if any.
    pub companion: Option<Companion>,
    /// Writes the export and returns its size line (`--stats`) without the byte count.
    pub write: fn(&Grid, &ExportOptions, &mut dyn Write) -> io::Result<String>,
    /// Writes the export with one no-good per grid of a list (solutions found already), so that
    /// a solver reading the format counts solutions by solving again; `None` when the format
    /// has no way to rule out one solution (exact cover, graph colouring).
    pub exclude: Option<Exclude>,
    /// The size of the export's body in bytes, estimated before writing (an upper bound of the
    /// body, within a small factor, never an overflow); [`super::estimate_size`] adds the
    /// comments and is the bound of the whole file.
    pub estimate: fn(&Grid, &ExportOptions) -> u64,
}

/// Writes `puzzle` with one no-good per grid of `excluded`; see [`ExportFormat::exclude`].
pub type Exclude = fn(&Grid, &ExportOptions, &[Grid], &mut dyn Write) -> io::Result<()>;

/// The comment lines every newer writer starts with: what the file is, the puzzle (as a puzzle
/// line up to order 35), the encoding, the command that solves it and the `decode` command that
/// reads the answer. `PUZZLE` stands for the puzzle file (or `-` with the line on standard
/// input), `FILE` for the export and `ANSWER` for the solver's answer.
pub(crate) fn header_lines(
    puzzle: &Grid,
    what: &str,
    encoding: &str,
    solve: &str,
    reader: &str,
) -> Vec<String> {
    let mut lines = vec![format!(
        "sudokit {what}: {}, {} givens",
        puzzle.shape(),
        puzzle.filled()
    )];
    if let Some(line) = crate::text::to_line(puzzle) {
        lines.push(format!("puzzle {line}"));
    }
    lines.push(encoding.to_string());
    lines.push(format!("solve: {solve}"));
    lines.push(format!(
        "decode: sudokit decode PUZZLE --from {reader} ANSWER (PUZZLE: the puzzle file)"
    ));
    lines
}

/// An upper bound of the comment lines a writer puts before its body: the header of
/// [`header_lines`] (with the puzzle line up to order 35).
pub(crate) fn comments_bound(puzzle: &Grid) -> u128 {
    let shape = puzzle.shape();
    let puzzle_line = if shape.order() <= 35 {
        shape.cells() as u128 + 16
    } else {
        0
    };
    1024 + puzzle_line
}

/// An upper bound of the `given VERTEX VALUE` comment lines of the graph forms, one per given.
pub(crate) fn given_lines_bound(puzzle: &Grid) -> u128 {
    let shape = puzzle.shape();
    puzzle.filled() as u128 * (10 + digits(shape.cells() as u128) + digits(shape.order() as u128))
}

/// Decimal digits of `x` (at least 1), for size estimates.
pub(crate) fn digits(x: u128) -> u128 {
    x.checked_ilog10().map_or(1, |d| d as u128 + 1)
}

/// `3.2 GiB`-style text (powers of 1024, one decimal).
pub fn human_size(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// What a solver's answer says about the puzzle, before verification: one claim per model,
/// then (when the solver says it) what it says of the rest.
///
/// An answer is a sequence of claims: each model it prints ([`Claim::Grid`], or
/// [`Claim::NotAGrid`] for a model that is not a grid), in order, then [`Claim::Unsat`] when the
/// solver says there is no other solution (no solution at all when no model came first: `unsat`;
/// after models: its enumeration ran to the end) or [`Claim::Unknown`] when it gave up. An
/// answer that ends after its models says nothing of others (a solver asked for one model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A grid (to be verified).
    Grid(Grid),
    /// The solver says there is no solution other than the models before this claim.
    Unsat,
    /// The solver gave up.
    Unknown,
    /// The model does not describe a grid (a cell with no value or two values, ...).
    NotAGrid(String),
}

/// A solver's answer mapped back to the puzzle and checked: one per [`Claim`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// A solution, verified.
    Solution(Grid),
    /// The solver says there is no solution other than the models before this one.
    Unsat,
    /// The solver gave up.
    Unknown,
    /// The model describes a grid that is not a solution: what the verifier found.
    Invalid(Grid, Violation),
    /// The model does not describe a grid.
    NotAGrid(String),
}

/// Reads an answer to a puzzle (exported with the options), handing each [`Claim`] to the
/// callback as soon as it is read, in the order of the answer; the callback returns `false` to
/// stop the reading (a count limit reached), which is no error.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem: an answer that cannot be read, or that
/// does not fit the puzzle (a variable, vertex or value outside its order, a model of the wrong
/// size). A model that fits the puzzle but is not a grid is a [`Claim::NotAGrid`], not an
/// error.
pub type ReadAnswer = fn(
    &Grid,
    &ExportOptions,
    &mut dyn BufRead,
    &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError>;

/// One answer reader of the registry.
#[derive(Debug, Clone, Copy)]
pub struct AnswerReader {
    /// The name users type (`decode --from NAME`).
    pub name: &'static str,
    /// The export format whose answers it reads (the main one, when several formats share
    /// the reader).
    pub format: &'static str,
    /// Which solvers write this answer, in one line.
    pub summary: &'static str,
    /// Reads an answer, claim by claim.
    pub read: ReadAnswer,
}

/// The one claim of an answer that holds one model or one status, handed on.
///
/// # Errors
/// The reader's error.
pub(crate) fn single(
    claim: Result<Claim, AnswerError>,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    each(claim?);
    Ok(())
}

/// An answer that cannot be read: what is wrong, with its place.
pub type AnswerError = Located<String>;

/// Every line of an answer (through the capped line reader), for the readers that look ahead.
pub(crate) fn answer_lines(input: &mut dyn BufRead) -> Result<Vec<String>, AnswerError> {
    let mut lines = crate::text::lines::LineReader::new(input);
    let mut all = Vec::new();
    while let Some(next) = lines.next_line() {
        let (_, line) = next.map_err(|e| e.map(|kind| kind.to_string()))?;
        all.push(line.to_string());
    }
    Ok(all)
}

/// An answer error at 1-based `line` and `column`.
pub(crate) fn answer_error(line: usize, column: usize, what: impl Into<String>) -> AnswerError {
    Located::new(line, column, what.into())
}

/// The claim of an answer that sets values cell by cell: `(r, c, v)` 0-based, in any order. A
/// cell set twice to different values, or not at all, makes it [`Claim::NotAGrid`].
pub(crate) fn claim_of_cells(
    puzzle: &Grid,
    cells: impl IntoIterator<Item = (usize, usize, usize)>,
) -> Claim {
    let shape = puzzle.shape();
    let mut grid = Grid::empty(shape);
    for (r, c, v) in cells {
        let cell = shape.cell(r, c);
        match grid.get(cell) {
            Some(w) if w != v => {
                return Claim::NotAGrid(format!(
                    "the answer sets two values of cell {}: {} and {}",
                    grid.cell_ref(cell),
                    w.min(v) + 1,
                    w.max(v) + 1
                ));
            }
            _ => grid.set(cell, Some(v)),
        }
    }
    match (0..shape.cells()).find(|&cell| grid.get(cell).is_none()) {
        Some(cell) => Claim::NotAGrid(format!(
            "the answer sets no value of cell {}",
            grid.cell_ref(cell)
        )),
        None => Claim::Grid(grid),
    }
}
