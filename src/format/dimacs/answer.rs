//! Reading SAT solvers' answers: the SAT-competition form (`s`, `v` lines) and minisat's result
//! file.

use std::io::BufRead;

use super::{DimacsError, DimacsErrorKind, at, parse_literal, tokens};
use crate::encode::{Lit, Model, Var};
use crate::format::entry::{AnswerError, AnswerReader, Claim, ExportOptions};
use crate::format::model_ledger::ModelLedger;
use crate::grid::Grid;
use crate::text::lines::LineReader;

/// A SAT solver's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DimacsAnswer {
    /// Satisfiable, with the model.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, minisat's `INDET`).
    Unknown,
}

impl DimacsAnswer {
    /// Whether the answer is UNSAT.
    pub fn is_unsat(&self) -> bool {
        matches!(self, DimacsAnswer::Unsat)
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

/// Reads one solver answer; see the module docs. A second status line is an error (an
/// enumeration is read by [`read_all_answers`] or the `dimacs` answer reader).
///
/// # Errors
/// [`DimacsError`] with the place of the first problem.
pub fn read_answer(input: impl BufRead, format: AnswerFormat) -> Result<DimacsAnswer, DimacsError> {
    let mut first = None;
    let mut input = input;
    stream_answers(&mut input, format, Mode::One, false, &mut |answer, _, _| {
        first = Some(answer);
        true
    })?;
    Ok(first.expect("one answer or an error"))
}

/// Reads the models of an enumeration: `picosat --all` (several `s SATISFIABLE` + `v` blocks,
/// then `s SOLUTIONS k`, which is checked against the number of models) or `cryptominisat5
/// --maxsol N` (the models, then `s UNSATISFIABLE` when there are fewer than N). An
/// unsatisfiable formula gives no model.
///
/// # Errors
/// As [`read_answer`].
pub fn read_all_answers(input: impl BufRead) -> Result<Vec<DimacsAnswer>, DimacsError> {
    let mut models = Vec::new();
    let mut input = input;
    stream_answers(
        &mut input,
        AnswerFormat::Competition,
        Mode::Many,
        false,
        &mut |answer, _, _| {
            if matches!(answer, DimacsAnswer::Sat(_)) {
                models.push(answer);
            }
            true
        },
    )?;
    Ok(models)
}

/// Whether an answer may hold several models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    One,
    Many,
}

/// Whether a line is minisat's own log on its standard output (statistics, banners).
fn minisat_log(line: &str) -> bool {
    line.starts_with(['|', '='])
        || line.starts_with("WARNING")
        || line.starts_with("Solved by")
        || line.contains(" : ")
}

/// Reads the answers of `input` one by one, handing each to `each` with the line where it
/// starts (its status line) and the place where its model ended without its final 0 (`None`:
/// it has its 0, or it is a status); `each` returns `false` to stop. A last model without its 0 is an error unless `unterminated` allows it
/// (z3 -dimacs; the caller then checks it is whole).
fn stream_answers(
    input: &mut dyn BufRead,
    format: AnswerFormat,
    mode: Mode,
    unterminated: bool,
    each: &mut dyn FnMut(DimacsAnswer, usize, Option<(usize, usize)>) -> bool,
) -> Result<(), DimacsError> {
    let mut lines = LineReader::new(input);
    let mut answers = 0usize;
    let mut models = 0usize;
    // The model being read: Some(model) until its 0 is seen.
    let mut open: Option<Model> = None;
    // The line where the model being read starts.
    let mut model_line = 1;
    let mut closed = false;
    // A status that ends the answer was read (unsat, unknown, the count of an enumeration).
    let mut ended = false;
    let mut last = (1, 1);
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
                if answers == 0 && open.is_none() {
                    // minisat's standard output: its log, then its verdict without a model.
                    match trimmed {
                        "UNSATISFIABLE" => (Some("UNSAT"), None),
                        "INDETERMINATE" => (Some("INDET"), None),
                        "SATISFIABLE" => {
                            return Err(at(
                                line,
                                1,
                                DimacsErrorKind::OtherForm(
                                    "minisat's standard output, which has no model: give minisat an output file (minisat IN.cnf OUT) and read OUT with --from minisat",
                                ),
                            ));
                        }
                        _ if minisat_log(trimmed) => continue,
                        _ => (Some(trimmed), None),
                    }
                } else {
                    (None, Some(text))
                }
            }
        };
        if let Some(status) = status {
            if ended || (answers > 0 && mode == Mode::One) {
                return Err(at(line, 1, DimacsErrorKind::SecondStatus));
            }
            if open.is_some() && !closed {
                return Err(at(line, 1, DimacsErrorKind::Truncated));
            }
            if let Some(count) = status
                .strip_prefix("SOLUTIONS ")
                .filter(|_| mode == Mode::Many)
            {
                let count: usize = count
                    .trim()
                    .parse()
                    .map_err(|_| at(line, 3, DimacsErrorKind::BadStatus(status.into())))?;
                if count != models {
                    return Err(at(
                        line,
                        3,
                        DimacsErrorKind::BadStatus(format!(
                            "SOLUTIONS {count} after {models} models"
                        )),
                    ));
                }
                // picosat --all: the enumeration ran to its end.
                ended = true;
                answers += 1;
                if !each(DimacsAnswer::Unsat, line, None) {
                    return Ok(());
                }
                continue;
            }
            let answer = match status {
                "SATISFIABLE" | "SAT" => {
                    open = Some(Model::default());
                    model_line = line;
                    closed = false;
                    continue;
                }
                "UNSATISFIABLE" | "UNSAT" => DimacsAnswer::Unsat,
                "UNKNOWN" | "INDET" | "INDETERMINATE" => DimacsAnswer::Unknown,
                other => {
                    let column = text.find(other).map_or(1, |i| i + 1);
                    return Err(at(line, column, DimacsErrorKind::BadStatus(other.into())));
                }
            };
            ended = true;
            answers += 1;
            if !each(answer, line, None) {
                return Ok(());
            }
            continue;
        }
        let text = values.expect("a values line");
        let skip = usize::from(format == AnswerFormat::Competition);
        let Some(model) = open.as_mut() else {
            let kind = if answers == 0 {
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
            let model = open.take().expect("open model");
            answers += 1;
            models += 1;
            if !each(DimacsAnswer::Sat(model), model_line, None) {
                return Ok(());
            }
            closed = false;
        }
    }
    if let Some(model) = open {
        if !unterminated {
            return Err(at(last.0, last.1, DimacsErrorKind::Truncated));
        }
        // z3 -dimacs ends its model without the 0: the caller decides whether it is whole.
        each(DimacsAnswer::Sat(model), model_line, Some(last));
        return Ok(());
    }
    if answers == 0 {
        return Err(at(last.0, last.1, DimacsErrorKind::NoStatus));
    }
    Ok(())
}

/// A DIMACS answer of `format` to `puzzle` exported as CNF with `options`, claim by claim.
fn claims(
    puzzle: &Grid,
    options: &ExportOptions,
    input: &mut dyn BufRead,
    format: AnswerFormat,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    let map = super::var_map(puzzle, options.cnf.encoding);
    let mut truncated = None;
    let mut ledger = ModelLedger::new();
    let mut refused = None;
    stream_answers(
        input,
        format,
        Mode::Many,
        true,
        &mut |answer, line, unterminated| {
            let claim = match answer {
                DimacsAnswer::Unsat => Claim::Unsat,
                DimacsAnswer::Unknown => Claim::Unknown,
                DimacsAnswer::Sat(model) => {
                    // A model without its final 0 is whole when it sets every variable of the
                    // puzzle's variables (z3 -dimacs); else the answer was cut short.
                    if let Some(end) = unterminated
                        && (1..=map.x_vars()).any(|v| model.value(Var::from_dimacs(v)).is_none())
                    {
                        truncated = Some(end);
                        return false;
                    }
                    let claim = match map.decode(puzzle, &model) {
                        Ok(grid) => Claim::Grid(grid),
                        Err(e) => Claim::NotAGrid(e.to_string()),
                    };
                    if let Err(error) = ledger.model(&claim, line, 1) {
                        refused = Some(error);
                        return false;
                    }
                    claim
                }
            };
            each(claim)
        },
    )
    .map_err(|e| e.map(|kind| kind.to_string()))?;
    if let Some(error) = refused {
        return Err(error);
    }
    if let Some((line, column)) = truncated {
        return Err(AnswerError::new(
            line,
            column,
            format!(
                "{} (a model without its 0, as z3 -dimacs writes, is read when it sets every variable)",
                DimacsErrorKind::Truncated
            ),
        ));
    }
    Ok(())
}

/// The `dimacs` answer reader: SAT-competition `s` and `v` lines, one model or an enumeration.
pub const COMPETITION_READER: AnswerReader = AnswerReader {
    name: "dimacs",
    format: "cnf",
    summary: "SAT-competition 's'/'v' lines (picosat, cadical, kissat, cryptominisat, glucose, z3 -dimacs; every model of picosat --all or cryptominisat5 --maxsol N)",
    read: |puzzle, options, input, each| {
        claims(puzzle, options, input, AnswerFormat::Competition, each)
    },
};

/// The `minisat` answer reader: minisat's result file.
pub const MINISAT_READER: AnswerReader = AnswerReader {
    name: "minisat",
    format: "cnf",
    summary: "minisat's result file (minisat IN.cnf OUT): SAT and the literals, UNSAT or INDET",
    read: |puzzle, options, input, each| {
        claims(puzzle, options, input, AnswerFormat::Minisat, each)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    fn claims_of(text: &str) -> Result<Vec<Claim>, AnswerError> {
        let puzzle = parse_line("1...", None).unwrap();
        let mut all = Vec::new();
        (COMPETITION_READER.read)(
            &puzzle,
            &ExportOptions::default(),
            &mut text.as_bytes(),
            &mut |claim| {
                all.push(claim);
                true
            },
        )?;
        Ok(all)
    }

    #[test]
    fn a_model_given_twice_is_refused_naming_both_lines() {
        let model = "s SATISFIABLE\nv 1 -2 -3 4 -5 6 7 -8 0\n";
        let other = "s SATISFIABLE\nv 1 -2 -3 4 -5 6 7 -8\nv 0\n";
        let twice = format!("c all\n{model}{other}s SOLUTIONS 2\n");
        assert_eq!(
            claims_of(&twice).unwrap_err().to_string(),
            "line 4, column 1: model 2 repeats model 1 (line 2): the same solution given twice"
        );
        // Once, and the count of picosat --all: read.
        let once = format!("{model}s SOLUTIONS 1\n");
        assert_eq!(claims_of(&once).unwrap().len(), 2);
    }
}
