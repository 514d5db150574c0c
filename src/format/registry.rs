//! The format registry: every form a puzzle can be exported to, and every solver answer that can
//! be read back.
//!
//! An [`ExportFormat`] names a file format (`cnf`, `lp`, ...), its extension and comment mark,
//! its writer, and an estimate of its size before anything is written. An [`AnswerReader`]
//! names a solver's answer form (`minisat`, `glpsol`, ...) and maps an answer back to a grid;
//! [`decode_answer`] runs it and puts every grid through the certificate verifier. Each entry is
//! a constant in its format's own file (its type in [`super::entry`]), so a new format is one
//! file and one line of the tables below; the `export`, `decode` and `reduce latin` commands, the cross-check of external tools
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

use super::entry::{
    AnswerError, AnswerReader, Claim, Decoded, ExportFormat, ExportOptions, comments_bound,
};
use crate::grid::Grid;
use crate::verify::verify;

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
    &super::dlx1::FORMAT,
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

/// An upper bound of the size in bytes of `puzzle` exported in `format` with `options` (and no
/// extra header), known before anything is written: the format's estimate of its body plus a
/// bound of its comments. `export --max-size` refuses an export above it.
pub fn estimate_size(puzzle: &Grid, format: &ExportFormat, options: &ExportOptions) -> u64 {
    let body = (format.estimate)(puzzle, options);
    body.saturating_add(u64::try_from(comments_bound(puzzle)).unwrap_or(u64::MAX))
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
    &super::dlx1_answer::DLX_READER,
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

/// Reads a solver's answer to `puzzle` (exported with `options`) with `reader`, verifies every
/// grid it describes, and hands each result to `each` as soon as it is read (the models of an
/// enumeration one at a time, then what the solver says of the rest; see [`Claim`]). `each`
/// returns `false` to stop the reading.
///
/// # Errors
/// [`AnswerError`] when the answer cannot be read or does not fit the puzzle (with its line
/// and column); the results handed on before it stand.
pub fn decode_answers(
    puzzle: &Grid,
    reader: &AnswerReader,
    options: &ExportOptions,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Decoded) -> bool,
) -> Result<(), AnswerError> {
    (reader.read)(puzzle, options, input, &mut |claim| {
        each(verified(puzzle, claim))
    })
}

/// The first result of a solver's answer (its model, or its verdict), verified: what a solver
/// asked for one solution answers. The rest of the answer is not read.
///
/// # Errors
/// [`AnswerError`] when the answer cannot be read, does not fit the puzzle, or is empty.
pub fn decode_answer(
    puzzle: &Grid,
    reader: &AnswerReader,
    options: &ExportOptions,
    input: &mut dyn BufRead,
) -> Result<Decoded, AnswerError> {
    let mut first = None;
    decode_answers(puzzle, reader, options, input, &mut |decoded| {
        first = Some(decoded);
        false
    })?;
    first.ok_or_else(|| {
        crate::text::Located::new(
            1,
            1,
            "an answer without a model or a status (empty or truncated?)".to_string(),
        )
    })
}

/// A claim with its grid through the certificate verifier.
fn verified(puzzle: &Grid, claim: Claim) -> Decoded {
    match claim {
        Claim::Grid(grid) => match verify(puzzle, &grid) {
            Ok(()) => Decoded::Solution(grid),
            Err(violation) => Decoded::Invalid(grid, violation),
        },
        Claim::Unsat => Decoded::Unsat,
        Claim::Unknown => Decoded::Unknown,
        Claim::NotAGrid(reason) => Decoded::NotAGrid(reason),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A grid of `shape` with its first `givens` cells (row-major) given from the pattern
    /// solution.
    fn partial(shape: crate::Shape, givens: usize) -> Grid {
        let n = shape.order();
        let (p, q) = (shape.box_rows(), shape.box_cols());
        let mut grid = Grid::empty(shape);
        for cell in 0..givens.min(shape.cells()) {
            let (r, c) = (shape.row_of(cell), shape.col_of(cell));
            let value = if shape.is_latin() {
                (r + c) % n
            } else {
                (q * (r % p) + r / p + c) % n
            };
            grid.set(cell, Some(value));
        }
        grid
    }

    /// A writer that counts bytes and keeps none.
    struct Count(u64);
    impl Write for Count {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn real_size(puzzle: &Grid, format: &ExportFormat, options: &ExportOptions) -> u64 {
        let mut count = Count(0);
        export(puzzle, format, options, &[], &mut count).unwrap();
        count.0
    }

    #[test]
    fn estimates_are_upper_bounds_within_a_small_factor() {
        use crate::encode::cnf::{CnfOptions, Encoding};
        use crate::format::entry::SmtEncoding;
        let shapes = [
            crate::Shape::sudoku(2, 2).unwrap(),
            crate::Shape::sudoku(2, 3).unwrap(),
            crate::Shape::sudoku(3, 3).unwrap(),
            crate::Shape::latin(7).unwrap(),
            crate::Shape::sudoku(4, 4).unwrap(),
            crate::Shape::sudoku(5, 5).unwrap(),
        ];
        for shape in shapes {
            for givens in [0, shape.cells() / 2, shape.cells()] {
                let puzzle = partial(shape, givens);
                for format in FORMATS {
                    for encoding in [Encoding::Extended, Encoding::Optimized] {
                        // Both SMT encodings: bool with the first CNF encoding, int with the other.
                        let smt = if encoding == Encoding::Extended {
                            SmtEncoding::Bool
                        } else {
                            SmtEncoding::Int
                        };
                        let options = ExportOptions {
                            cnf: CnfOptions {
                                encoding,
                                ..CnfOptions::default()
                            },
                            smt,
                        };
                        let estimate = estimate_size(&puzzle, format, &options);
                        let real = real_size(&puzzle, format, &options);
                        // The optimized CNF is bounded by the extended one, which the givens
                        // do not shrink as much.
                        let tight = !(format.takes_cnf_options && encoding == Encoding::Optimized
                            || format.takes_smt_encoding && smt == SmtEncoding::Bool);
                        assert!(
                            real <= estimate && (!tight || estimate <= 8 * real + 4096),
                            "{} {shape} {givens} givens {encoding}: estimate {estimate}, real {real}",
                            format.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn estimates_bound_the_graph_exports_of_large_orders() {
        // An hgr of a full 1024×1024 grid was once estimated at 30 MiB and is 40 MiB.
        for (m, formats) in [
            (
                8,
                &[
                    "col", "graphml", "edges", "hgr", "dlx", "mzn", "dzn", "smt2", "asp",
                ][..],
            ),
            (32, &["hgr"][..]),
        ] {
            let shape = crate::Shape::sudoku(m, m).unwrap();
            // Half-filled grids too at order 64 (a bound by what is left open, not by the
            // empty grid); the order-1024 hgr only empty and full (each export is 40 MiB).
            let fills = if m == 8 {
                vec![0, shape.cells() / 2, shape.cells()]
            } else {
                vec![0, shape.cells()]
            };
            for givens in fills {
                let puzzle = partial(shape, givens);
                for name in formats {
                    let format = find_format(name).unwrap();
                    let options = ExportOptions::default();
                    let estimate = estimate_size(&puzzle, format, &options);
                    let real = real_size(&puzzle, format, &options);
                    assert!(
                        real <= estimate && estimate <= 8 * real + 4096,
                        "{name} {shape} {givens} givens: estimate {estimate}, real {real}"
                    );
                }
            }
        }
    }
}
