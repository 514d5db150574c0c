//! DIMACS CNF: the streaming writer, a CNF reader, and the readers of SAT solvers' answers.
//!
//! **Writing.** [`DimacsWriter`] is a [`ClauseSink`]: the encoder's clauses go straight to the
//! output through a 64 KiB buffer, one clause per line ending in ` 0`, after exactly
//! `p cnf V C`. The header needs the counts first, so [`write_cnf`] runs the encoder twice: once
//! into a [`Counter`], once into the writer (encoding is cheap next to formatting), and the
//! writer checks at [`DimacsWriter::finish`] that it wrote what the header announced (cadical
//! rejects a wrong count). Comments (`c`) come before the header: the shape, the encoding, the
//! x(r,c,v) numbering, and for `optimized` one `c map VAR R C V` line per variable.
//!
//! **Reading a CNF.** [`read_cnf`] accepts clauses spread over lines, comments anywhere and a
//! trailing `%` (SATLIB), and checks literals against `V` and the clause count against `C`.
//!
//! **Reading answers.** [`read_answer`] reads the SAT-competition form (`s SATISFIABLE`,
//! `v … 0` lines, `c` comments) or minisat's result file (`SAT` then the literals ending in 0,
//! or `UNSAT`, `INDET`). A missing `s` line, a model without its final 0 (a truncated file),
//! a token that is not a literal, a variable both true and false: every problem is a
//! [`DimacsError`] with line and column. picosat exits 0 after a parse error and writes no `s`
//! line, so never trust an exit code alone: read the answer. [`read_all_answers`] reads the
//! concatenated answers of `picosat --all`.
//!
//! # Complexity
//! Writing and reading are linear in the file; the writer holds 64 KiB, the CNF reader the
//! formula, the answer reader one line and the model.
//!
//! # References
//! - DIMACS CNF format, "Satisfiability Suggested Format", 1993.
//! - SAT competition output format (`s`, `v` lines), satcompetition.github.io.
//!
//! # Examples
//! ```
//! use sudokit::encode::cnf::{Amo, CnfOptions, Encoding};
//! use sudokit::format::dimacs::{read_answer, read_cnf, write_cnf, AnswerFormat};
//! use sudokit::text::parse_line;
//! let puzzle = parse_line("1.3.....4....2..", None).unwrap();
//! let mut file = Vec::new();
//! let written = write_cnf(&puzzle, CnfOptions::default(), &mut file).unwrap();
//! let cnf = read_cnf(&file[..]).unwrap();
//! assert_eq!(cnf.len(), written.size.clauses);
//! let answer = read_answer(&b"s UNSATISFIABLE\n"[..], AnswerFormat::Competition).unwrap();
//! assert!(answer.is_unsat());
//! let bad = read_answer(&b"s SATISFIABLE\nv 1 -2\n"[..], AnswerFormat::Competition).unwrap_err();
//! assert_eq!(bad.to_string(), "line 3, column 1: the model ends without its final 0 (truncated answer?)");
//! ```

use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::encode::cnf::{CnfOptions, Encoded, Encoding, Size, VarMap, encode};
use crate::encode::{ClauseSink, Cnf, Counter, Lit, Model, Var, x_of_index};
use crate::grid::Grid;

/// A streaming DIMACS CNF writer; see the module docs.
pub struct DimacsWriter<W: Write> {
    out: W,
    buffer: Vec<u8>,
    header: (usize, usize),
    vars: usize,
    clauses: usize,
    literals: usize,
    error: Option<io::Error>,
}

const BUFFER: usize = 1 << 16;

impl<W: Write> DimacsWriter<W> {
    /// Writes `comments` (one `c` line each) and the header `p cnf vars clauses`.
    pub fn new(mut out: W, comments: &[String], vars: usize, clauses: usize) -> DimacsWriter<W> {
        let mut buffer = Vec::with_capacity(BUFFER + 64);
        for comment in comments {
            for line in comment.lines() {
                buffer.extend_from_slice(b"c ");
                buffer.extend_from_slice(line.as_bytes());
                buffer.push(b'\n');
            }
        }
        let _ = writeln!(buffer, "p cnf {vars} {clauses}");
        let error = out.write_all(&buffer).err();
        buffer.clear();
        DimacsWriter {
            out,
            buffer,
            header: (vars, clauses),
            vars: 0,
            clauses: 0,
            literals: 0,
            error,
        }
    }

    fn flush_buffer(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buffer)
        {
            self.error = Some(e);
        }
        self.buffer.clear();
    }

    /// Flushes, checks the counts against the header, and returns the output.
    ///
    /// # Errors
    /// The first I/O error met, or [`io::ErrorKind::InvalidData`] when the clauses or variables
    /// written differ from the header.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush_buffer();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if (self.vars, self.clauses) != self.header {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "wrote {} variables and {} clauses under the header p cnf {} {}",
                    self.vars, self.clauses, self.header.0, self.header.1
                ),
            ));
        }
        self.out.flush()?;
        Ok(self.out)
    }

    /// Literal occurrences written so far.
    pub fn literals(&self) -> usize {
        self.literals
    }
}

/// Appends the decimal form of `x` (no allocation).
#[inline]
fn push_int(buffer: &mut Vec<u8>, x: i64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut m = x.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if x < 0 {
        buffer.push(b'-');
    }
    buffer.extend_from_slice(&digits[i..]);
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_index(self.vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        for &l in clause {
            push_int(&mut self.buffer, l.to_dimacs());
            self.buffer.push(b' ');
        }
        self.buffer.extend_from_slice(b"0\n");
        self.clauses += 1;
        self.literals += clause.len();
        if self.buffer.len() >= BUFFER {
            self.flush_buffer();
        }
    }
}

/// What [`write_cnf`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CnfWritten {
    /// Variables, clauses, literals.
    pub size: Size,
    /// The variable map and the encoder's notes.
    pub encoded: Encoded,
}

/// The comment lines that describe an encoded puzzle.
pub fn cnf_comments(puzzle: &Grid, options: CnfOptions, encoded: &Encoded) -> Vec<String> {
    let shape = puzzle.shape();
    let n = shape.order();
    let mut comments = vec![
        format!(
            "sudokit CNF: {shape}, {} givens, encoding {}, at-most-one {}",
            puzzle.filled(),
            options.encoding,
            options.amo
        ),
        "x(r,c,v) means cell (r,c) holds v; r, c, v are 1-based".to_string(),
    ];
    match &encoded.map {
        VarMap::Direct { first, .. } => comments.push(format!(
            "x(r,c,v) = {}(r-1)*{} + (c-1)*{n} + v; variables above {} are auxiliary",
            if *first == 0 {
                String::new()
            } else {
                format!("{first} + ")
            },
            n * n,
            first + n * n * n
        )),
        VarMap::Sparse { slots, .. } => {
            comments.push(format!(
                "optimized (Kwon & Jain): {} open x variables numbered 1..; givens and the values \
                 their peers exclude are fixed; each line 'map VAR R C V' names one",
                encoded.map.x_vars()
            ));
            if encoded.dropped_box_pairs > 0 {
                comments.push(format!(
                    "{} box pairs that repeat a row or column pair are left out",
                    encoded.dropped_box_pairs
                ));
            }
            for (i, &slot) in slots.iter().enumerate().filter(|(_, s)| **s != 0) {
                let (r, c, v) = x_of_index(n, i);
                comments.push(format!("map {slot} {} {} {}", r + 1, c + 1, v + 1));
            }
        }
    }
    if encoded.trivially_unsat {
        comments.push("the givens leave no solution: the formula has an empty clause".into());
    }
    comments
}

/// Encodes `puzzle` and streams it as DIMACS CNF to `out`; see the module docs.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_cnf(puzzle: &Grid, options: CnfOptions, out: impl Write) -> io::Result<CnfWritten> {
    let mut counter = Counter::default();
    let encoded = encode(puzzle, options, &mut counter);
    let comments = cnf_comments(puzzle, options, &encoded);
    let mut writer = DimacsWriter::new(out, &comments, counter.vars, counter.clauses);
    let again = encode(puzzle, options, &mut writer);
    debug_assert_eq!(again, encoded);
    writer.finish()?;
    Ok(CnfWritten {
        size: Size {
            vars: counter.vars,
            clauses: counter.clauses,
            literals: counter.literals,
        },
        encoded,
    })
}

/// Writes an in-memory formula.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_formula(cnf: &Cnf, comments: &[String], out: impl Write) -> io::Result<()> {
    let mut writer = DimacsWriter::new(out, comments, cnf.vars(), cnf.len());
    cnf.replay(&mut writer);
    writer.finish().map(|_| ())
}

/// The variable map `encoding` gives `puzzle`, without writing the clauses (for decoding).
pub fn var_map(puzzle: &Grid, encoding: Encoding) -> VarMap {
    let mut counter = Counter::default();
    encode(
        puzzle,
        CnfOptions {
            encoding,
            ..CnfOptions::default()
        },
        &mut counter,
    )
    .map
}

/// A DIMACS file or answer that cannot be read, with its place.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct DimacsError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (bytes).
    pub column: usize,
    /// What is wrong.
    pub kind: DimacsErrorKind,
}

/// What is wrong in a DIMACS file or answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DimacsErrorKind {
    /// Clauses before any `p cnf` line.
    #[error("a clause before the 'p cnf V C' header")]
    MissingHeader,
    /// The header is not `p cnf V C`.
    #[error("the header is not 'p cnf V C': {0}")]
    BadHeader(String),
    /// A second header.
    #[error("a second 'p' line")]
    SecondHeader,
    /// A token that is not an integer literal.
    #[error("'{0}' is not a literal")]
    BadToken(String),
    /// A literal beyond the header's variable count.
    #[error("literal {literal} is beyond the {vars} variables of the header")]
    VarOutOfRange {
        /// The literal.
        literal: i64,
        /// The header's V.
        vars: usize,
    },
    /// The clause count differs from the header.
    #[error("the header announces {expected} clauses, the file has {found}")]
    ClauseCount {
        /// The header's C.
        expected: usize,
        /// Clauses read.
        found: usize,
    },
    /// The last clause has no terminating 0.
    #[error("the last clause has no terminating 0 (truncated file?)")]
    Unterminated,
    /// The input is empty or has no header.
    #[error("no 'p cnf V C' header (empty or truncated file?)")]
    NoHeader,
    /// An answer without a status line.
    #[error(
        "no status line ('s SATISFIABLE', 's UNSATISFIABLE' or minisat's SAT/UNSAT): empty or truncated answer?"
    )]
    NoStatus,
    /// A status that is not one of the known ones.
    #[error("unknown status '{0}'")]
    BadStatus(String),
    /// A line that is not part of an answer.
    #[error("not an answer line: '{0}' (expected c, s or v lines)")]
    BadLine(String),
    /// Values before the status.
    #[error("a model line before the status line")]
    ValuesBeforeStatus,
    /// Values after an UNSAT or UNKNOWN status.
    #[error("model values after a status without a model")]
    ValuesWithoutModel,
    /// A second status line.
    #[error("a second status line")]
    SecondStatus,
    /// A SAT answer whose model does not end in 0.
    #[error("the model ends without its final 0 (truncated answer?)")]
    Truncated,
    /// Literals after the final 0.
    #[error("literal after the model's final 0")]
    AfterEnd,
    /// A variable set both ways.
    #[error("variable {0} is both true and false")]
    Contradiction(usize),
    /// The input is not UTF-8 or could not be read.
    #[error("read error: {0}")]
    Io(String),
}

fn at(line: usize, column: usize, kind: DimacsErrorKind) -> DimacsError {
    DimacsError { line, column, kind }
}

/// Reads lines with their 1-based numbers; yields `(line, text)` or an I/O/UTF-8 error.
struct Lines<R> {
    input: R,
    line: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Lines<R> {
        Lines {
            input,
            line: 0,
            buffer: Vec::new(),
        }
    }

    fn next_line(&mut self) -> Option<Result<(usize, &str), DimacsError>> {
        self.buffer.clear();
        match self.input.read_until(b'\n', &mut self.buffer) {
            Ok(0) => None,
            Ok(_) => {
                self.line += 1;
                while matches!(self.buffer.last(), Some(b'\n' | b'\r')) {
                    self.buffer.pop();
                }
                match std::str::from_utf8(&self.buffer) {
                    Ok(text) => Some(Ok((self.line, text))),
                    Err(e) => Some(Err(at(
                        self.line,
                        e.valid_up_to() + 1,
                        DimacsErrorKind::Io("not UTF-8".into()),
                    ))),
                }
            }
            Err(e) => Some(Err(at(
                self.line + 1,
                1,
                DimacsErrorKind::Io(e.to_string()),
            ))),
        }
    }
}

/// Whitespace-separated tokens of a line with their 1-based byte columns.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_ascii_whitespace()
        .map(move |t| (t.as_ptr() as usize - text.as_ptr() as usize + 1, t))
}

fn parse_literal(token: &str) -> Option<i64> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 10 {
        return None;
    }
    let value: i64 = token.parse().ok()?;
    (value.unsigned_abs() < i32::MAX as u64).then_some(value)
}

/// Reads a DIMACS CNF file into memory; see the module docs.
///
/// # Errors
/// [`DimacsError`] with the place of the first problem.
pub fn read_cnf(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let mut lines = Lines::new(input);
    let mut header: Option<(usize, usize)> = None;
    let mut cnf = Cnf::new();
    let mut clause: Vec<Lit> = Vec::new();
    let mut last = (0, 0);
    while let Some(next) = lines.next_line() {
        let (line, text) = next?;
        last = (line, text.len() + 1);
        let trimmed = text.trim_start();
        if trimmed.starts_with('c') || trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with('%') {
            break;
        }
        if trimmed.starts_with('p') {
            if header.is_some() {
                return Err(at(line, 1, DimacsErrorKind::SecondHeader));
            }
            let fields: Vec<&str> = trimmed.split_ascii_whitespace().collect();
            let parsed = match fields.as_slice() {
                ["p", "cnf", v, c] => v.parse::<usize>().ok().zip(c.parse::<usize>().ok()),
                _ => None,
            };
            let (vars, clauses) = parsed
                .filter(|(v, _)| *v < i32::MAX as usize)
                .ok_or_else(|| at(line, 1, DimacsErrorKind::BadHeader(trimmed.to_string())))?;
            header = Some((vars, clauses));
            cnf = Cnf::with_vars(vars);
            continue;
        }
        for (column, token) in tokens(text) {
            let Some((vars, _)) = header else {
                return Err(at(line, column, DimacsErrorKind::MissingHeader));
            };
            let literal = parse_literal(token)
                .ok_or_else(|| at(line, column, DimacsErrorKind::BadToken(token.to_string())))?;
            if literal == 0 {
                cnf.add_clause(&clause);
                clause.clear();
            } else if literal.unsigned_abs() as usize > vars {
                return Err(at(
                    line,
                    column,
                    DimacsErrorKind::VarOutOfRange { literal, vars },
                ));
            } else {
                clause.push(Lit::from_dimacs(literal));
            }
        }
    }
    let Some((_, expected)) = header else {
        return Err(at(last.0.max(1), 1, DimacsErrorKind::NoHeader));
    };
    if !clause.is_empty() {
        return Err(at(last.0, last.1, DimacsErrorKind::Unterminated));
    }
    if cnf.len() != expected {
        return Err(at(
            last.0,
            last.1,
            DimacsErrorKind::ClauseCount {
                expected,
                found: cnf.len(),
            },
        ));
    }
    Ok(cnf)
}

/// A SAT solver's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the model.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, minisat's `INDET`).
    Unknown,
}

impl Answer {
    /// Whether the answer is UNSAT.
    pub fn is_unsat(&self) -> bool {
        matches!(self, Answer::Unsat)
    }
}

/// Which answer form to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerFormat {
    /// SAT-competition `s` / `v` lines (picosat, cadical, kissat, cryptominisat, ...).
    Competition,
    /// minisat's result file: `SAT` + literals ending in 0, `UNSAT` or `INDET`.
    Minisat,
}

/// Reads one solver answer; see the module docs.
///
/// # Errors
/// [`DimacsError`] with the place of the first problem.
pub fn read_answer(input: impl BufRead, format: AnswerFormat) -> Result<Answer, DimacsError> {
    let mut answers = read_answers(input, format, false)?;
    Ok(answers.pop().expect("one answer or an error"))
}

/// Reads the answers of `picosat --all` (several `s SATISFIABLE` + `v` blocks, then
/// `s SOLUTIONS k`, which is checked against the number of models). An unsatisfiable formula
/// gives only `s SOLUTIONS 0`: no answer.
///
/// # Errors
/// As [`read_answer`].
pub fn read_all_answers(input: impl BufRead) -> Result<Vec<Answer>, DimacsError> {
    read_answers(input, AnswerFormat::Competition, true)
}

fn read_answers(
    input: impl BufRead,
    format: AnswerFormat,
    many: bool,
) -> Result<Vec<Answer>, DimacsError> {
    let mut lines = Lines::new(input);
    let mut answers: Vec<Answer> = Vec::new();
    // The model being read: Some(model) until its 0 is seen.
    let mut open: Option<Model> = None;
    let mut closed = false;
    let mut last = (1, 1);
    let mut solutions_line: Option<(usize, usize, usize)> = None;
    while let Some(next) = lines.next_line() {
        let (line, text) = next?;
        last = (line + 1, 1);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        let (status, values) = match format {
            AnswerFormat::Competition => {
                let mut parts = trimmed.splitn(2, |c: char| c.is_ascii_whitespace());
                let head = parts.next().unwrap_or("");
                let rest = parts.next().unwrap_or("").trim();
                match head {
                    "c" => continue,
                    "s" => (Some(rest), None),
                    "v" => (None, Some(text)),
                    _ => {
                        return Err(at(line, 1, DimacsErrorKind::BadLine(trimmed.to_string())));
                    }
                }
            }
            AnswerFormat::Minisat => {
                if answers.is_empty() && open.is_none() {
                    (Some(trimmed), None)
                } else {
                    (None, Some(text))
                }
            }
        };
        if let Some(status) = status {
            if let Some(count) = status.strip_prefix("SOLUTIONS ").filter(|_| many) {
                let count = count
                    .trim()
                    .parse()
                    .map_err(|_| at(line, 3, DimacsErrorKind::BadStatus(status.into())))?;
                solutions_line = Some((line, 3, count));
                continue;
            }
            if !answers.is_empty() && !many {
                return Err(at(line, 1, DimacsErrorKind::SecondStatus));
            }
            if open.is_some() && !closed {
                return Err(at(line, 1, DimacsErrorKind::Truncated));
            }
            let answer = match status {
                "SATISFIABLE" | "SAT" => {
                    open = Some(Model::default());
                    closed = false;
                    continue;
                }
                "UNSATISFIABLE" | "UNSAT" => Answer::Unsat,
                "UNKNOWN" | "INDET" | "INDETERMINATE" => Answer::Unknown,
                other => {
                    let column = text.find(other).map_or(1, |i| i + 1);
                    return Err(at(line, column, DimacsErrorKind::BadStatus(other.into())));
                }
            };
            answers.push(answer);
            continue;
        }
        let text = values.expect("a values line");
        let skip = if format == AnswerFormat::Competition {
            1
        } else {
            0
        };
        let Some(model) = open.as_mut() else {
            let kind = if answers.is_empty() {
                DimacsErrorKind::ValuesBeforeStatus
            } else {
                DimacsErrorKind::ValuesWithoutModel
            };
            return Err(at(line, 1, kind));
        };
        for (column, token) in tokens(text).skip(skip) {
            if closed {
                return Err(at(line, column, DimacsErrorKind::AfterEnd));
            }
            let literal = parse_literal(token)
                .ok_or_else(|| at(line, column, DimacsErrorKind::BadToken(token.to_string())))?;
            if literal == 0 {
                closed = true;
                continue;
            }
            let lit = Lit::from_dimacs(literal);
            if model.value(lit.var()) == Some(lit.is_negative()) {
                return Err(at(
                    line,
                    column,
                    DimacsErrorKind::Contradiction(lit.var().to_dimacs()),
                ));
            }
            model.set(lit);
        }
        if closed {
            answers.push(Answer::Sat(open.take().expect("open model")));
            if many {
                closed = false;
            }
        }
    }
    if open.is_some() {
        return Err(at(last.0, last.1, DimacsErrorKind::Truncated));
    }
    if answers.is_empty() && !matches!(solutions_line, Some((_, _, 0))) {
        return Err(at(last.0, last.1, DimacsErrorKind::NoStatus));
    }
    if let Some((line, column, count)) = solutions_line {
        let models = answers
            .iter()
            .filter(|a| matches!(a, Answer::Sat(_)))
            .count();
        if models != count {
            return Err(at(
                line,
                column,
                DimacsErrorKind::BadStatus(format!("SOLUTIONS {count} after {models} models")),
            ));
        }
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::cnf::Amo;
    use crate::text::parse_line;

    fn answer(text: &str, format: AnswerFormat) -> Result<Answer, DimacsError> {
        read_answer(text.as_bytes(), format)
    }

    #[test]
    fn the_header_and_clause_lines_are_exact() {
        let puzzle = parse_line("1...............", None).unwrap();
        let mut out = Vec::new();
        let written = write_cnf(
            &puzzle,
            CnfOptions {
                encoding: Encoding::Minimal,
                amo: Amo::Pairwise,
            },
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('c')).collect();
        assert_eq!(
            body[0],
            format!("p cnf 64 {}", written.size.clauses),
            "exact header"
        );
        assert_eq!(body.len(), written.size.clauses + 1);
        assert!(body[1..].iter().all(|l| l.ends_with(" 0") || *l == "0"));
        assert_eq!(body[1], "1 2 3 4 0");
        assert_eq!(*body.last().unwrap(), "1 0", "the given is a unit clause");
    }

    #[test]
    fn a_writer_that_writes_less_than_its_header_fails() {
        let mut w = DimacsWriter::new(Vec::new(), &[], 2, 2);
        w.new_var();
        w.new_var();
        w.add_clause(&[Lit::from_dimacs(1)]);
        let e = w.finish().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn cnf_reading_errors_have_places() {
        let cases = [
            (
                "1 2 0\n",
                "line 1, column 1: a clause before the 'p cnf V C' header",
            ),
            (
                "p cnf 2\n",
                "line 1, column 1: the header is not 'p cnf V C': p cnf 2",
            ),
            (
                "p cnf 2 1\n1 x 0\n",
                "line 2, column 3: 'x' is not a literal",
            ),
            (
                "p cnf 2 1\n1 3 0\n",
                "line 2, column 3: literal 3 is beyond the 2 variables of the header",
            ),
            (
                "p cnf 2 2\n1 2 0\n",
                "line 2, column 6: the header announces 2 clauses, the file has 1",
            ),
            (
                "p cnf 2 1\n1 2",
                "line 2, column 4: the last clause has no terminating 0 (truncated file?)",
            ),
            (
                "",
                "line 1, column 1: no 'p cnf V C' header (empty or truncated file?)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                read_cnf(text.as_bytes()).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
        let cnf = read_cnf(&b"c x\np cnf 3 2\n1 -2\n 3 0 -1 0\n%\n0\n"[..]).unwrap();
        assert_eq!(cnf.len(), 2);
        assert_eq!(cnf.clause(0).len(), 3);
    }

    #[test]
    fn answers_in_both_forms() {
        let a = answer(
            "c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n",
            AnswerFormat::Competition,
        )
        .unwrap();
        let Answer::Sat(m) = a else { panic!("sat") };
        assert_eq!(m.value(Var::from_dimacs(2)), Some(false));
        assert_eq!(m.value(Var::from_dimacs(3)), Some(true));
        assert_eq!(
            answer("SAT\n1 -2 0\n", AnswerFormat::Minisat).unwrap(),
            Answer::Sat(Model::from_lits([
                Lit::from_dimacs(1),
                Lit::from_dimacs(-2)
            ]))
        );
        assert_eq!(
            answer("UNSAT\n", AnswerFormat::Minisat).unwrap(),
            Answer::Unsat
        );
        assert_eq!(
            answer("INDET\n", AnswerFormat::Minisat).unwrap(),
            Answer::Unknown
        );
        assert_eq!(
            answer("s UNKNOWN\n", AnswerFormat::Competition).unwrap(),
            Answer::Unknown
        );
    }

    #[test]
    fn malformed_answers_are_located() {
        let cases = [
            (
                "",
                AnswerFormat::Competition,
                "line 1, column 1: no status line",
            ),
            (
                "bad.cnf:2: expected number\n",
                AnswerFormat::Competition,
                "line 1, column 1: not an answer line",
            ),
            (
                "v 1 0\n",
                AnswerFormat::Competition,
                "line 1, column 1: a model line before",
            ),
            (
                "s SATISFIABLE\nv 1 y 0\n",
                AnswerFormat::Competition,
                "line 2, column 5: 'y' is not a literal",
            ),
            (
                "s SATISFIABLE\nv 1 -1 0\n",
                AnswerFormat::Competition,
                "line 2, column 5: variable 1 is both true and false",
            ),
            (
                "s SATISFIABLE\nv 1 0 2\n",
                AnswerFormat::Competition,
                "line 2, column 7: literal after the model's final 0",
            ),
            (
                "s MAYBE\n",
                AnswerFormat::Competition,
                "line 1, column 3: unknown status 'MAYBE'",
            ),
            (
                "s UNSATISFIABLE\ns UNSATISFIABLE\n",
                AnswerFormat::Competition,
                "line 2, column 1: a second status line",
            ),
            (
                "SAT\n1 2",
                AnswerFormat::Minisat,
                "line 3, column 1: the model ends without",
            ),
            (
                "YES\n",
                AnswerFormat::Minisat,
                "line 1, column 1: unknown status 'YES'",
            ),
            (
                "UNSAT\n1 0\n",
                AnswerFormat::Minisat,
                "line 2, column 1: model values after a status without a model",
            ),
        ];
        for (text, format, prefix) in cases {
            let message = answer(text, format).unwrap_err().to_string();
            assert!(message.starts_with(prefix), "{text:?}: {message}");
        }
    }

    #[test]
    fn all_answers_of_picosat() {
        let text = "s SATISFIABLE\nv 1 2 0\ns SATISFIABLE\nv -1 2 0\ns SOLUTIONS 2\n";
        let answers = read_all_answers(text.as_bytes()).unwrap();
        assert_eq!(answers.len(), 2);
        assert!(
            read_all_answers(&b"s SOLUTIONS 0\n"[..])
                .unwrap()
                .is_empty()
        );
        assert!(read_all_answers(&b""[..]).is_err());
        let wrong = "s SATISFIABLE\nv 1 2 0\ns SOLUTIONS 2\n";
        assert!(read_all_answers(wrong.as_bytes()).is_err());
    }
}
