//! The format registry: every form a puzzle can be exported to, and every solver answer that can
//! be read back.
//!
//! An [`ExportFormat`] names a file format (`cnf`, `lp`, ...), its extension and comment mark,
//! its writer, and an estimate of its size before anything is written. An [`AnswerReader`]
//! names a solver's answer form (`minisat`, `glpsol`, ...) and maps an answer back to a grid;
//! [`decode_answer`] runs it and puts every grid through the certificate verifier. Each entry is
//! a constant in its format's own file, so a new format is one file and one line of the tables
//! below; the `export`, `decode` and `reduce latin` commands, the cross-check of external tools
//! and the Python package all read these tables.
//!
//! # Examples
//! ```
//! use sudokit::format::{export, find_format, ExportOptions};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1.3.....4....2..", None).unwrap();
//! let mut out = Vec::new();
//! let stats = export(&puzzle, find_format("cnf").unwrap(), &ExportOptions::default(), &[], &mut out).unwrap();
//! assert!(stats.starts_with("cnf extended/pairwise: 64 variables"));
//! assert!(String::from_utf8(out).unwrap().contains("p cnf 64 "));
//! ```

use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::encode::cnf::CnfOptions;
use crate::grid::Grid;
use crate::text::Located;
use crate::verify::{Violation, verify};

/// The options of an export: the CNF encoding, for the formats that take one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportOptions {
    /// The encoding and at-most-one choice of `cnf`.
    pub cnf: CnfOptions,
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
    /// [`export`] then writes the header comments after it.
    pub first_line_fixed: bool,
    /// What the format is, in one line.
    pub summary: &'static str,
    /// Whether the CNF options apply.
    pub takes_cnf_options: bool,
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
    /// The size of the export in bytes, estimated before writing (within a small factor, never
    /// an overflow).
    pub estimate: fn(&Grid, &ExportOptions) -> u64,
}

/// Writes `puzzle` with one no-good per grid of `excluded`; see [`ExportFormat::exclude`].
pub type Exclude = fn(&Grid, &ExportOptions, &[Grid], &mut dyn Write) -> io::Result<()>;

/// The export formats, in the order of the help text.
pub const FORMATS: &[&ExportFormat] = &[
    &super::dimacs::FORMAT,
    &super::opb::FORMAT,
    &super::smt2::FORMAT,
    &super::asp::FORMAT,
    &super::lp::FORMAT,
    &super::mps::FORMAT,
    &super::mzn::FORMAT,
    &super::minizinc::FORMAT,
    &super::dlx::FORMAT,
    &super::col::FORMAT,
    &super::graphml::FORMAT,
    &super::edge_list::FORMAT,
    &super::hgr::FORMAT,
];

/// A format name that the registry does not know.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} {name} (known: {known})")]
pub struct UnknownFormat {
    /// "export format" or "answer form".
    pub what: &'static str,
    /// The name asked for.
    pub name: String,
    /// The names known.
    pub known: String,
}

/// The export format called `name` (or one of its aliases).
///
/// # Errors
/// [`UnknownFormat`] naming the known formats.
pub fn find_format(name: &str) -> Result<&'static ExportFormat, UnknownFormat> {
    FORMATS
        .iter()
        .copied()
        .find(|f| f.name == name || f.aliases.contains(&name))
        .ok_or_else(|| UnknownFormat {
            what: "export format",
            name: name.to_string(),
            known: FORMATS
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Writes `puzzle` in `format` to `out`, after `header` (each line behind the format's comment
/// mark, after the first line when the format fixes it), and returns the size line with the
/// byte count.
///
/// # Errors
/// I/O errors of `out`.
pub fn export(
    puzzle: &Grid,
    format: &ExportFormat,
    options: &ExportOptions,
    header: &[String],
    out: &mut dyn Write,
) -> io::Result<String> {
    let mut comments = Vec::new();
    for line in header.iter().flat_map(|h| h.lines()) {
        // `--` may not appear inside an XML comment.
        let line = if format.comment_end.is_empty() {
            line.to_string()
        } else {
            line.replace("--", "- -")
        };
        comments.extend_from_slice(
            format!("{} {line}{}\n", format.comment, format.comment_end).as_bytes(),
        );
    }
    let mut counting = Counting {
        inner: out,
        bytes: 0,
        pending: Vec::new(),
    };
    if format.first_line_fixed {
        counting.pending = comments;
    } else {
        counting.write_all(&comments)?;
    }
    let stats = (format.write)(puzzle, options, &mut counting)?;
    let rest = std::mem::take(&mut counting.pending);
    counting.write_all(&rest)?;
    counting.flush()?;
    Ok(format!("{stats}, {} bytes", counting.bytes))
}

/// Writes `puzzle` in `format` with one no-good per grid of `excluded` (solutions already
/// found), for counting with a solver that reads the format.
///
/// # Errors
/// I/O errors of `out`; [`io::ErrorKind::Unsupported`] when the format has no no-good.
pub fn export_excluding(
    puzzle: &Grid,
    format: &ExportFormat,
    options: &ExportOptions,
    excluded: &[Grid],
    out: &mut dyn Write,
) -> io::Result<()> {
    match format.exclude {
        Some(exclude) => exclude(puzzle, options, excluded, out),
        None if excluded.is_empty() => (format.write)(puzzle, options, out).map(|_| ()),
        None => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("the {} format cannot rule out a solution", format.name),
        )),
    }
}

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

/// A writer that counts the bytes it passes on, and writes `pending` after the first line.
struct Counting<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
    pending: Vec<u8>,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.pending.is_empty()
            && let Some(end) = buf.iter().position(|&b| b == b'\n')
        {
            self.inner.write_all(&buf[..=end])?;
            let pending = std::mem::take(&mut self.pending);
            self.inner.write_all(&pending)?;
            self.bytes += (end + 1 + pending.len()) as u64;
            return Ok(end + 1);
        }
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
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

/// What a solver's answer says about the puzzle, before verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A grid (to be verified).
    Grid(Grid),
    /// The solver found no solution.
    Unsat,
    /// The solver gave up.
    Unknown,
    /// The answer does not describe a grid (a cell with no value or two values, ...).
    NotAGrid(String),
}

/// A solver's answer mapped back to the puzzle and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// A solution, verified.
    Solution(Grid),
    /// The solver found no solution.
    Unsat,
    /// The solver gave up.
    Unknown,
    /// The answer describes a grid that is not a solution: what the verifier found.
    Invalid(Grid, Violation),
    /// The answer does not describe a grid.
    NotAGrid(String),
}

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
    /// Reads an answer to `puzzle` exported with the options.
    pub read: fn(&Grid, &ExportOptions, &mut dyn BufRead) -> Result<Claim, AnswerError>,
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

/// The answer readers, in the order of the help text.
pub const READERS: &[&AnswerReader] = &[
    &super::dimacs::COMPETITION_READER,
    &super::dimacs::MINISAT_READER,
    &super::clasp_answer::CLASP_READER,
    &super::smt2_answer::SMT2_READER,
    &super::mip_answer::GLPSOL_READER,
    &super::mip_answer::CBC_READER,
    &super::lp_solve_answer::LP_SOLVE_READER,
    &super::highs_answer::HIGHS_READER,
    &super::scip_answer::SCIP_READER,
    &super::minizinc_answer::MINIZINC_READER,
    &super::dlx_answer::DLX_READER,
    &super::colouring_answer::COLOURING_READER,
];

/// Other names of answer readers (`clingo` for `clasp`): `(alias, reader)`.
pub const READER_ALIASES: &[(&str, &str)] =
    &[("clingo", "clasp"), ("z3", "smt2"), ("cvc5", "smt2")];

/// The answer reader called `name`.
///
/// # Errors
/// [`UnknownFormat`] naming the known readers.
pub fn find_reader(name: &str) -> Result<&'static AnswerReader, UnknownFormat> {
    let name = READER_ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, reader)| reader);
    READERS
        .iter()
        .copied()
        .find(|r| r.name == name)
        .ok_or_else(|| UnknownFormat {
            what: "answer form",
            name: name.to_string(),
            known: READERS
                .iter()
                .map(|r| r.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Reads a solver's answer to `puzzle` (exported with `options`) with `reader`, and verifies
/// the grid it describes.
///
/// # Errors
/// [`AnswerError`] when the answer cannot be read (with its line and column).
pub fn decode_answer(
    puzzle: &Grid,
    reader: &AnswerReader,
    options: &ExportOptions,
    input: &mut dyn BufRead,
) -> Result<Decoded, AnswerError> {
    Ok(match (reader.read)(puzzle, options, input)? {
        Claim::Grid(grid) => match verify(puzzle, &grid) {
            Ok(()) => Decoded::Solution(grid),
            Err(violation) => Decoded::Invalid(grid, violation),
        },
        Claim::Unsat => Decoded::Unsat,
        Claim::Unknown => Decoded::Unknown,
        Claim::NotAGrid(reason) => Decoded::NotAGrid(reason),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    #[test]
    fn every_name_is_found_and_every_reader_answers_a_known_format() {
        for format in FORMATS {
            assert_eq!(find_format(format.name).unwrap().name, format.name);
            for alias in format.aliases {
                assert_eq!(find_format(alias).unwrap().name, format.name);
            }
            for reader in format.answers {
                assert!(find_reader(reader).is_ok(), "{reader}");
            }
        }
        for reader in READERS {
            let format = find_format(reader.format).unwrap();
            assert!(format.answers.contains(&reader.name), "{}", reader.name);
        }
        let error = find_format("xml").unwrap_err().to_string();
        assert!(
            error.contains("unknown export format xml (known: cnf, opb"),
            "{error}"
        );
    }

    #[test]
    fn estimates_are_within_a_small_factor_of_the_real_size() {
        for line in [
            "1.3.....4....2..",
            "...........................1...2..........3",
        ] {
            let puzzle = match parse_line(line, None) {
                Ok(p) => p,
                Err(_) => continue,
            };
            for format in FORMATS {
                let mut out = Vec::new();
                export(&puzzle, format, &ExportOptions::default(), &[], &mut out).unwrap();
                let estimate = (format.estimate)(&puzzle, &ExportOptions::default()) as f64;
                let real = out.len() as f64;
                assert!(
                    estimate > real / 4.0 && estimate < real * 4.0,
                    "{}: estimate {estimate}, real {real}",
                    format.name
                );
            }
        }
    }
}
