//! Reading a DIMACS CNF file into memory.

use std::io::BufRead;

use super::{DimacsError, DimacsErrorKind, at, parse_literal, tokens};
use crate::encode::{ClauseSink, Cnf, Lit};
use crate::text::lines::LineReader;

/// Reads a DIMACS CNF file into memory; see the module docs.
///
/// # Errors
/// [`DimacsError`] with the place of the first problem.
pub fn read_cnf(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let mut lines = LineReader::new(input);
    let mut header: Option<(usize, usize)> = None;
    let mut cnf = Cnf::new();
    let mut clause: Vec<Lit> = Vec::new();
    let mut last = (0, 0);
    while let Some(next) = lines.next_line() {
        let (line, text) = next.map_err(|e| e.map(DimacsErrorKind::from))?;
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
