//! Reading SAT solvers' answers: the SAT-competition form (`s`, `v` lines) and minisat's result
//! file.

use std::io::BufRead;

use super::{DimacsError, DimacsErrorKind, at, parse_literal, tokens};
use crate::encode::{Lit, Model};
use crate::format::entry::{AnswerError, AnswerReader, Claim, ExportOptions};
use crate::grid::Grid;
use crate::text::lines::LineReader;

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
    let mut lines = LineReader::new(input);
    let mut answers: Vec<Answer> = Vec::new();
    // The model being read: Some(model) until its 0 is seen.
    let mut open: Option<Model> = None;
    let mut closed = false;
    let mut last = (1, 1);
    let mut solutions_line: Option<(usize, usize, usize)> = None;
    while let Some(next) = lines.next_line() {
        let (line, text) = next.map_err(|e| e.map(DimacsErrorKind::from))?;
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
                    "SAT" | "UNSAT" | "INDET" => {
                        return Err(at(
                            line,
                            1,
                            DimacsErrorKind::OtherForm(
                                "minisat's result file (SAT, UNSAT or INDET first): read it with --from minisat",
                            ),
                        ));
                    }
                    _ => {
                        return Err(at(line, 1, DimacsErrorKind::BadLine(trimmed.to_string())));
                    }
                }
            }
            AnswerFormat::Minisat => {
                if ["s ", "v ", "c "].iter().any(|p| trimmed.starts_with(p)) {
                    return Err(at(
                        line,
                        1,
                        DimacsErrorKind::OtherForm(
                            "a SAT-competition answer ('s' and 'v' lines): read it with --from dimacs",
                        ),
                    ));
                }
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

/// A DIMACS answer of `format` to `puzzle` exported as CNF with `options`, as a claim.
fn claim(
    puzzle: &Grid,
    options: &ExportOptions,
    input: &mut dyn BufRead,
    format: AnswerFormat,
) -> Result<Claim, AnswerError> {
    let answer = read_answer(input, format).map_err(|e| e.map(|kind| kind.to_string()))?;
    Ok(match answer {
        Answer::Unsat => Claim::Unsat,
        Answer::Unknown => Claim::Unknown,
        Answer::Sat(model) => {
            let map = super::var_map(puzzle, options.cnf.encoding);
            match map.decode(puzzle, &model) {
                Ok(grid) => Claim::Grid(grid),
                Err(e) => Claim::NotAGrid(e.to_string()),
            }
        }
    })
}

/// The `dimacs` answer reader: SAT-competition `s` and `v` lines.
pub const COMPETITION_READER: AnswerReader = AnswerReader {
    name: "dimacs",
    format: "cnf",
    summary: "SAT-competition 's'/'v' lines (picosat, cadical, kissat, cryptominisat, glucose, ...)",
    read: |puzzle, options, input| claim(puzzle, options, input, AnswerFormat::Competition),
};

/// The `minisat` answer reader: minisat's result file.
pub const MINISAT_READER: AnswerReader = AnswerReader {
    name: "minisat",
    format: "cnf",
    summary: "minisat's result file (minisat IN.cnf OUT): SAT and the literals, UNSAT or INDET",
    read: |puzzle, options, input| claim(puzzle, options, input, AnswerFormat::Minisat),
};
