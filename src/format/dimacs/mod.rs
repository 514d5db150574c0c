//! DIMACS CNF: the streaming writer, a CNF reader, and the readers of SAT solvers' answers.
//!
//! **Writing.** [`DimacsWriter`] is a [`ClauseSink`](crate::encode::ClauseSink): the encoder's clauses go straight to the
//! output through a 64 KiB buffer, one clause per line ending in ` 0`, after exactly
//! `p cnf V C`. The header needs the counts first, so [`write_cnf`] runs the encoder twice: once
//! into a [`Counter`](crate::encode::Counter), once into the writer (encoding is cheap next to formatting), and the
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

mod answer;
mod read;
mod write;

use thiserror::Error;

use crate::text::lines::LineErrorKind;
use crate::text::located::{Columns, Located};

pub use answer::{
    AnswerFormat, COMPETITION_READER, DimacsAnswer, MINISAT_READER, read_all_answers, read_answer,
};
pub use read::read_cnf;
pub use write::{
    CnfWritten, DimacsWriter, FORMAT, cnf_comments, formula_excluding, var_map, write_cnf,
    write_cnf_excluding, write_formula,
};

/// A DIMACS file or answer that cannot be read: what is wrong, with its place.
pub type DimacsError = Located<DimacsErrorKind>;

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
    /// An answer of the other form (minisat's result file read as SAT-competition lines, or
    /// the reverse): says which `--from` reads it.
    #[error("this looks like {0}")]
    OtherForm(&'static str),
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
    /// The line could not be read.
    #[error(transparent)]
    Line(#[from] LineErrorKind),
}

pub(super) fn at(line: usize, column: usize, kind: DimacsErrorKind) -> DimacsError {
    DimacsError::new(line, column, kind)
}

/// Whitespace-separated tokens of a line with their 1-based character columns (counted on from
/// token to token: linear in the line).
pub(super) fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut columns = Columns::new(text);
    text.split_ascii_whitespace()
        .map(move |t| (columns.of(t), t))
}

/// A DIMACS literal: a nonzero integer within ±(2³¹ − 1), or 0 (the end of a clause).
pub(super) fn parse_literal(token: &str) -> Option<i64> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 10 {
        return None;
    }
    let value: i64 = token.parse().ok()?;
    (value.unsigned_abs() < i32::MAX as u64).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    use crate::encode::cnf::Amo;
    use crate::encode::cnf::{CnfOptions, Encoding};
    use crate::encode::{ClauseSink, Lit, Model, Var};
    use crate::text::parse_line;

    fn answer(text: &str, format: AnswerFormat) -> Result<DimacsAnswer, DimacsError> {
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
        let DimacsAnswer::Sat(m) = a else {
            panic!("sat")
        };
        assert_eq!(m.value(Var::from_dimacs(2)), Some(false));
        assert_eq!(m.value(Var::from_dimacs(3)), Some(true));
        assert_eq!(
            answer("SAT\n1 -2 0\n", AnswerFormat::Minisat).unwrap(),
            DimacsAnswer::Sat(Model::from_lits([
                Lit::from_dimacs(1),
                Lit::from_dimacs(-2)
            ]))
        );
        assert_eq!(
            answer("UNSAT\n", AnswerFormat::Minisat).unwrap(),
            DimacsAnswer::Unsat
        );
        assert_eq!(
            answer("INDET\n", AnswerFormat::Minisat).unwrap(),
            DimacsAnswer::Unknown
        );
        assert_eq!(
            answer("s UNKNOWN\n", AnswerFormat::Competition).unwrap(),
            DimacsAnswer::Unknown
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
