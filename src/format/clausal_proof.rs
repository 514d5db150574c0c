//! Reading the refutation proofs SAT solvers write: DRAT (CaDiCaL, kissat, ...), RUP (picosat
//! `-r`) and FRAT (CryptoMiniSat), each as text or in its binary form.
//!
//! A proof is a sequence of steps over the formula's variables, handed one at a time to a
//! callback (the checker, [`crate::external`]), so a proof of any size is read in constant
//! memory beyond its longest clause:
//!
//! - **DRAT / RUP text**: one clause per line, literals ending in `0`; `d` before a clause
//!   deletes it; `c` lines (and picosat's `%RUPD...` header) are comments. RUP is DRAT without
//!   deletions.
//! - **DRAT binary**: `a` (0x61) or `d` (0x64), then each literal `l` as the unsigned LEB128
//!   variable-length number `2·|l| + (l < 0)`, then a 0 byte.
//! - **FRAT** (text or binary): steps `o` (an original clause), `a` (a lemma), `d` (a
//!   deletion), `f` (a clause left at the end), `r` (relocation), each with a clause id; `a`
//!   may carry hints after `l`. The lemmas and deletions are read as DRAT steps, the other
//!   steps are skipped: the hints are not needed to check the lemmas, and the original clauses
//!   are the formula sudokit wrote, not what the proof says they were.
//!
//! The binary forms are told from the text forms by their bytes: a binary proof holds a 0 byte
//! within its first steps, a text proof never does.
//!
//! # Complexity
//! Linear in the proof; memory is one clause.
//!
//! # References
//! - N. Wetzler, M. Heule, W. Hunt, "DRAT-trim: efficient checking and trimming using
//!   expressive clausal proofs", SAT 2014 (DRAT, its binary form).
//! - S. Baek, M. Carneiro, M. Heule, "A flexible proof format for SAT solver-elaborator
//!   communication", TACAS 2021 (FRAT).
//! - A. Van Gelder, "Verifying RUP proofs of propositional unsatisfiability", ISAIM 2008 (RUP).

use std::fmt;
use std::io::BufRead;
use std::str::FromStr;

use thiserror::Error;

/// The proof formats sudokit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProofFormat {
    /// DRAT: clause additions and deletions (text or binary).
    Drat,
    /// RUP: clause additions only (picosat `-r`).
    Rup,
    /// FRAT: DRAT with clause ids, original and final clauses and optional hints.
    Frat,
}

/// The names of the formats, for messages and the solver table.
pub const PROOF_FORMATS: &str = "drat, rup, frat";

impl ProofFormat {
    /// The format's name (`drat`, `rup`, `frat`).
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Rup => "rup",
            ProofFormat::Frat => "frat",
        }
    }
}

impl fmt::Display for ProofFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProofFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<ProofFormat, String> {
        match name {
            "drat" => Ok(ProofFormat::Drat),
            "rup" => Ok(ProofFormat::Rup),
            "frat" => Ok(ProofFormat::Frat),
            other => Err(format!(
                "unknown proof format {other} (known: {PROOF_FORMATS})"
            )),
        }
    }
}

/// One step of a proof, with the clause as DIMACS literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// A lemma: the clause is added (and must be implied).
    Add(&'a [i64]),
    /// The clause is deleted.
    Delete(&'a [i64]),
}

/// A proof that cannot be read: what is wrong, and where (a line of a text proof, a byte
/// offset of a binary one).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProofError {
    /// A text proof's line that is not a step.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A binary proof's byte that is not a step.
    #[error("byte {offset}: {message}")]
    Byte {
        /// 0-based offset.
        offset: u64,
        /// What is wrong.
        message: String,
    },
    /// The proof cannot be read.
    #[error("{0}")]
    Io(String),
    /// The callback stopped the reading.
    #[error("{0}")]
    Stopped(String),
}

/// The largest literal magnitude read (the DIMACS limit, 2³¹ − 1).
const MAX_LITERAL: u64 = i32::MAX as u64;

/// Reads a proof of `format` from `input`, handing each lemma and deletion to `step`, which may
/// stop the reading with an error message (a step the checker rejects, a limit).
///
/// # Errors
/// [`ProofError`] for a proof that cannot be read, or the callback's error as
/// [`ProofError::Stopped`].
pub fn read_proof(
    format: ProofFormat,
    input: &mut dyn BufRead,
    step: &mut dyn FnMut(Step<'_>) -> Result<(), String>,
) -> Result<(), ProofError> {
    let binary = {
        let head = input
            .fill_buf()
            .map_err(|e| ProofError::Io(e.to_string()))?;
        is_binary(head)
    };
    match (format, binary) {
        (ProofFormat::Drat | ProofFormat::Rup, false) => read_drat_text(input, step),
        (ProofFormat::Drat | ProofFormat::Rup, true) => read_drat_binary(input, step),
        (ProofFormat::Frat, false) => read_frat_text(input, step),
        (ProofFormat::Frat, true) => read_frat_binary(input, step),
    }
}

/// Whether the start of a proof is binary: a 0 byte in it (a text proof has none), or a first
/// byte `a` (no text DRAT step starts with it) that is not followed by a space (text FRAT).
fn is_binary(head: &[u8]) -> bool {
    let head = &head[..head.len().min(4096)];
    head.contains(&0) || (head.first() == Some(&b'a') && head.get(1).is_some_and(|&b| b != b' '))
}

/// Reads text lines, calling `line` with each line's number and text.
fn each_line(
    input: &mut dyn BufRead,
    mut line: impl FnMut(usize, &str) -> Result<(), ProofError>,
) -> Result<(), ProofError> {
    let mut buffer = String::new();
    let mut number = 0;
    loop {
        buffer.clear();
        let read = input
            .read_line(&mut buffer)
            .map_err(|e| ProofError::Io(format!("line {}: {e}", number + 1)))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        line(number, buffer.trim())?;
    }
}

/// A DIMACS literal of a text proof.
fn literal(token: &str, line: usize) -> Result<i64, ProofError> {
    token
        .parse::<i64>()
        .ok()
        .filter(|l| l.unsigned_abs() <= MAX_LITERAL)
        .ok_or_else(|| ProofError::Line {
            line,
            message: format!("'{token}' is not a literal"),
        })
}

/// The clause of a text step: literals up to the `0` that ends it (tokens after it are the
/// caller's: FRAT hints).
fn clause_of<'t>(
    tokens: &mut impl Iterator<Item = &'t str>,
    clause: &mut Vec<i64>,
    line: usize,
) -> Result<(), ProofError> {
    clause.clear();
    for token in tokens.by_ref() {
        match literal(token, line)? {
            0 => return Ok(()),
            l => clause.push(l),
        }
    }
    Err(ProofError::Line {
        line,
        message: "the clause does not end in 0".into(),
    })
}

fn stopped(message: String) -> ProofError {
    ProofError::Stopped(message)
}

fn read_drat_text(
    input: &mut dyn BufRead,
    step: &mut dyn FnMut(Step<'_>) -> Result<(), String>,
) -> Result<(), ProofError> {
    let mut clause = Vec::new();
    each_line(input, |number, text| {
        if text.is_empty() || text.starts_with('c') || text.starts_with('%') {
            return Ok(());
        }
        let (delete, rest) = match text.strip_prefix('d') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut tokens = rest.split_ascii_whitespace();
        clause_of(&mut tokens, &mut clause, number)?;
        if let Some(extra) = tokens.next() {
            return Err(ProofError::Line {
                line: number,
                message: format!("'{extra}' after the clause's 0 (one step per line)"),
            });
        }
        step(if delete {
            Step::Delete(&clause)
        } else {
            Step::Add(&clause)
        })
        .map_err(stopped)
    })
}

fn read_frat_text(
    input: &mut dyn BufRead,
    step: &mut dyn FnMut(Step<'_>) -> Result<(), String>,
) -> Result<(), ProofError> {
    let mut clause = Vec::new();
    each_line(input, |number, text| {
        if text.is_empty() || text.starts_with('c') {
            return Ok(());
        }
        let mut tokens = text.split_ascii_whitespace();
        let kind = tokens.next().unwrap_or("");
        if !matches!(kind, "a" | "d" | "o" | "f" | "r") {
            return Err(ProofError::Line {
                line: number,
                message: format!("'{kind}' is not a FRAT step (a, d, o, f or r)"),
            });
        }
        if kind == "r" {
            return Ok(());
        }
        let id = tokens.next().unwrap_or("");
        if id.parse::<u64>().is_err() {
            return Err(ProofError::Line {
                line: number,
                message: format!("'{id}' is not a clause id"),
            });
        }
        clause_of(&mut tokens, &mut clause, number)?;
        match kind {
            "a" => step(Step::Add(&clause)).map_err(stopped),
            "d" => step(Step::Delete(&clause)).map_err(stopped),
            _ => Ok(()),
        }
    })
}

/// A binary proof's bytes with their offset.
struct Bytes<'a> {
    input: &'a mut dyn BufRead,
    offset: u64,
}

impl Bytes<'_> {
    fn next(&mut self) -> Result<Option<u8>, ProofError> {
        let buffer = self
            .input
            .fill_buf()
            .map_err(|e| ProofError::Io(format!("byte {}: {e}", self.offset)))?;
        let Some(&byte) = buffer.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        self.offset += 1;
        Ok(Some(byte))
    }

    fn error(&self, message: impl Into<String>) -> ProofError {
        ProofError::Byte {
            offset: self.offset,
            message: message.into(),
        }
    }

    /// An unsigned LEB128 number.
    fn number(&mut self) -> Result<u64, ProofError> {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let byte = self
                .next()?
                .ok_or_else(|| self.error("the proof ends inside a number (truncated?)"))?;
            if shift > 35 {
                return Err(self.error("a number beyond 2^35"));
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// Literals `2·|l| + sign` up to a 0.
    fn clause(&mut self, clause: &mut Vec<i64>) -> Result<(), ProofError> {
        clause.clear();
        loop {
            match self.number()? {
                0 => return Ok(()),
                1 => return Err(self.error("1 is not a literal (-0)")),
                code => {
                    let magnitude = code >> 1;
                    if magnitude > MAX_LITERAL {
                        return Err(self.error(format!("literal {magnitude} is too large")));
                    }
                    let magnitude = magnitude as i64;
                    clause.push(if code & 1 == 1 { -magnitude } else { magnitude });
                }
            }
        }
    }
}

fn read_drat_binary(
    input: &mut dyn BufRead,
    step: &mut dyn FnMut(Step<'_>) -> Result<(), String>,
) -> Result<(), ProofError> {
    let mut bytes = Bytes { input, offset: 0 };
    let mut clause = Vec::new();
    while let Some(kind) = bytes.next()? {
        match kind {
            b'a' => {
                bytes.clause(&mut clause)?;
                step(Step::Add(&clause)).map_err(stopped)?;
            }
            b'd' => {
                bytes.clause(&mut clause)?;
                step(Step::Delete(&clause)).map_err(stopped)?;
            }
            other => {
                return Err(bytes.error(format!(
                    "byte {other:#04x} does not start a binary DRAT step ('a' or 'd')"
                )));
            }
        }
    }
    Ok(())
}

fn read_frat_binary(
    input: &mut dyn BufRead,
    step: &mut dyn FnMut(Step<'_>) -> Result<(), String>,
) -> Result<(), ProofError> {
    let mut bytes = Bytes { input, offset: 0 };
    let mut clause = Vec::new();
    let mut hints = Vec::new();
    while let Some(kind) = bytes.next()? {
        match kind {
            b'a' | b'd' | b'o' | b'f' => {
                bytes.number()?;
                bytes.clause(&mut clause)?;
                if kind == b'a' {
                    // Optional hints: `l`, then signed ids up to a 0.
                    let hinted = bytes
                        .input
                        .fill_buf()
                        .map_err(|e| ProofError::Io(e.to_string()))?;
                    if hinted.first() == Some(&b'l') {
                        bytes.next()?;
                        bytes.clause(&mut hints)?;
                    }
                    step(Step::Add(&clause)).map_err(stopped)?;
                } else if kind == b'd' {
                    step(Step::Delete(&clause)).map_err(stopped)?;
                }
            }
            b'r' => {
                // Relocation: pairs of ids up to a 0.
                while bytes.number()? != 0 {}
            }
            other => {
                return Err(bytes.error(format!(
                    "byte {other:#04x} does not start a binary FRAT step (a, d, o, f or r)"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(format: ProofFormat, bytes: &[u8]) -> Result<Vec<(bool, Vec<i64>)>, ProofError> {
        let mut all = Vec::new();
        read_proof(format, &mut &bytes[..], &mut |s| {
            all.push(match s {
                Step::Add(c) => (true, c.to_vec()),
                Step::Delete(c) => (false, c.to_vec()),
            });
            Ok(())
        })?;
        Ok(all)
    }

    #[test]
    fn text_and_binary_drat_read_alike() {
        let text = b"c a comment\n1 -2 0\nd 1 -2 0\n0\n";
        // 1 -> 2, -2 -> 5; binary: a 02 05 00, d 02 05 00, a 00.
        let binary = [b'a', 2, 5, 0, b'd', 2, 5, 0, b'a', 0];
        let expected = vec![(true, vec![1, -2]), (false, vec![1, -2]), (true, vec![])];
        assert_eq!(steps(ProofFormat::Drat, text).unwrap(), expected);
        assert_eq!(steps(ProofFormat::Drat, &binary).unwrap(), expected);
        // A literal above 63 takes two bytes: 100 -> 200 = 0xc8 0x01.
        let wide = [b'a', 0xc8, 0x01, 0];
        assert_eq!(
            steps(ProofFormat::Drat, &wide).unwrap(),
            vec![(true, vec![100])]
        );
    }

    #[test]
    fn frat_keeps_lemmas_and_deletions_only() {
        let text = b"o 1 1 2 0\no 2 -1 0\na 3 2 0 l 1 2 0\nd 1 1 2 0\nf 3 2 0\nf 2 -1 0\n";
        assert_eq!(
            steps(ProofFormat::Frat, text).unwrap(),
            vec![(true, vec![2]), (false, vec![1, 2])]
        );
        // Binary: o 1 [1 2] 0, a 3 [2] 0 l [1 2] 0, d 1 [1 2] 0.
        let binary = [
            b'o', 1, 2, 4, 0, b'a', 3, 4, 0, b'l', 2, 4, 0, b'd', 1, 2, 4, 0,
        ];
        assert_eq!(
            steps(ProofFormat::Frat, &binary).unwrap(),
            vec![(true, vec![2]), (false, vec![1, 2])]
        );
    }

    #[test]
    fn malformed_proofs_are_located() {
        let error = steps(ProofFormat::Drat, b"1 2 0\n1 x 0\n").unwrap_err();
        assert_eq!(error.to_string(), "line 2: 'x' is not a literal");
        let error = steps(ProofFormat::Drat, b"1 2\n").unwrap_err();
        assert!(error.to_string().contains("does not end in 0"), "{error}");
        let error = steps(ProofFormat::Drat, &[b'a', 2, 0x80]).unwrap_err();
        assert!(error.to_string().contains("truncated"), "{error}");
        let error = steps(ProofFormat::Frat, b"q 1 0\n").unwrap_err();
        assert!(error.to_string().contains("not a FRAT step"), "{error}");
        assert!("kissat".parse::<ProofFormat>().is_err());
    }
}
