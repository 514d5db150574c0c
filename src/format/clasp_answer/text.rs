//! Reading the text answers of clasp and clingo ([the forms](super)): the pseudo-Boolean form
//! (`s` and `v` lines, for the OPB export) and the answer-set form (`Answer: K` lines, each
//! followed by its atoms, a status word, `Models : N`), line by line.

use std::io::BufRead;

use super::{atom_cell, opb_claim};
use crate::format::entry::{AnswerError, Claim, answer_error, claim_of_cells};
use crate::format::model_ledger::ModelLedger;
use crate::grid::Grid;
use crate::text::lines::LineReader;
use crate::text::located::{Columns, token_column};

/// What the status line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Sat,
    Unsat,
    Unknown,
}

fn status(word: &str) -> Option<Status> {
    match word {
        "SATISFIABLE" | "OPTIMUM FOUND" => Some(Status::Sat),
        "UNSATISFIABLE" => Some(Status::Unsat),
        "UNKNOWN" | "INTERRUPTED" => Some(Status::Unknown),
        _ => None,
    }
}

/// Reads a text answer; see [`super::read_clasp`].
pub(super) fn read_text(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    let n = puzzle.shape().order();
    let mut lines = LineReader::new(input);
    // The status and the place of its word.
    let mut found: Option<(Status, usize, usize)> = None;
    // The OPB model being read (its true variables), and whether any `v` line was seen.
    let mut opb: Option<Vec<usize>> = None;
    // The sign each OPB variable was given (0: none yet, 1: true, 2: false).
    let mut signs: Vec<u8> = Vec::new();
    let mut atoms_next = false;
    let mut ledger = ModelLedger::new();
    // `Models : N` without `+`: the enumeration ran to its end; the count and its place.
    let mut exhausted = false;
    let mut claimed: Option<(u64, usize, usize)> = None;
    let mut last = 0;
    while let Some(next) = lines.next_line() {
        let (line, text) = next.map_err(|e| e.map(|kind| kind.to_string()))?;
        last = line;
        if atoms_next {
            atoms_next = false;
            let claim = asp_claim(puzzle, text, line)?;
            ledger.model(&claim, line, 1)?;
            if !each(claim) {
                return Ok(());
            }
            continue;
        }
        let trimmed = text.trim();
        if let Some(rest) = trimmed.strip_prefix("s ") {
            let word = rest.trim();
            let status = status(word).ok_or_else(|| {
                answer_error(
                    line,
                    token_column(text, rest.trim_start()),
                    format!("unknown status '{word}'"),
                )
            })?;
            found.get_or_insert((status, line, token_column(text, rest.trim_start())));
        } else if let Some(rest) = trimmed.strip_prefix("v ").or(trimmed.strip_prefix("v\t")) {
            let vars = opb.get_or_insert_with(Vec::new);
            if signs.is_empty() {
                signs = vec![0; n * n * n + 1];
            }
            let mut columns = Columns::new(text);
            for token in rest.split_ascii_whitespace() {
                let (negative, name) = match token.strip_prefix('-') {
                    Some(name) => (true, name),
                    None => (false, token),
                };
                let number = name
                    .strip_prefix('x')
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|&k| k > 0);
                match number {
                    Some(k) if k > n * n * n => {
                        return Err(answer_error(
                            line,
                            columns.of(token),
                            format!(
                                "x{k} is not a variable of the {n}×{n} grid (at most x{}): an answer to another puzzle?",
                                n * n * n
                            ),
                        ));
                    }
                    Some(k) => {
                        let sign = if negative { 2 } else { 1 };
                        if signs[k] == 3 - sign {
                            return Err(answer_error(
                                line,
                                columns.of(token),
                                format!("x{k} is both true and false"),
                            ));
                        }
                        signs[k] = sign;
                        if !negative {
                            vars.push(k);
                        }
                    }
                    None if token == "0" => {}
                    None => {
                        return Err(answer_error(
                            line,
                            columns.of(token),
                            format!("'{token}' is not a literal xK or -xK"),
                        ));
                    }
                }
            }
        } else if trimmed.starts_with("Answer:") {
            atoms_next = true;
        } else if let Some(count) = trimmed
            .trim_start_matches("c ")
            .strip_prefix("Models")
            .and_then(|rest| rest.trim_start().strip_prefix(':'))
        {
            let said = count.trim();
            exhausted = !said.ends_with('+');
            let number = said.trim_end_matches('+');
            if let Ok(count) = number.parse::<u64>() {
                claimed = Some((count, line, token_column(text, number)));
            }
        } else if let Some(status) = status(trimmed) {
            found.get_or_insert((status, line, token_column(text, trimmed)));
        }
    }
    let end = last + 1;
    let Some((status, status_line, status_column)) = found else {
        if atoms_next {
            return Err(answer_error(
                end,
                1,
                "'Answer:' without its atoms (truncated answer?)",
            ));
        }
        return Err(answer_error(
            end,
            1,
            "no status line (SATISFIABLE, UNSATISFIABLE, UNKNOWN, or 's ...' for OPB): \
             empty or truncated answer?",
        ));
    };
    // clasp's OPB form prints its last model only: its `Models : N` counts the others too.
    if let Some(vars) = opb {
        if ledger.models() > 0 {
            return Err(answer_error(end, 1, "'v' lines in an answer-set answer"));
        }
        ledger.unsat_verdict("UNSATISFIABLE", status_line, status_column)?;
        let claim = opb_claim(puzzle, &vars);
        ledger.model(&claim, end, 1)?;
        if !each(claim) {
            return Ok(());
        }
        exhausted = false;
    } else if let Some((number, line, column)) = claimed {
        // Every answer set is printed: `Models : N` (or `N+`) is how many.
        ledger.claimed_count(number, "'Models'", line, column)?;
    }
    let models = ledger.models();
    match status {
        Status::Unsat => {
            ledger.unsat_verdict("UNSATISFIABLE", status_line, status_column)?;
            each(Claim::Unsat);
        }
        Status::Unknown => {
            each(Claim::Unknown);
        }
        Status::Sat if models == 0 => {
            return Err(answer_error(
                end,
                1,
                "a satisfiable answer without its model ('v' lines or an 'Answer:' line)",
            ));
        }
        Status::Sat if exhausted => {
            each(Claim::Unsat);
        }
        Status::Sat => {}
    }
    Ok(())
}

/// The claim of an answer-set line: its `x(R,C,V)` atoms (other atoms skipped).
fn asp_claim(puzzle: &Grid, text: &str, line: usize) -> Result<Claim, AnswerError> {
    let n = puzzle.shape().order();
    let mut cells = Vec::new();
    let mut columns = Columns::new(text);
    for token in text.split_ascii_whitespace() {
        if !token.starts_with("x(") {
            continue;
        }
        let cell = atom_cell(token, n).map_err(|why| answer_error(line, columns.of(token), why))?;
        cells.push(cell);
    }
    Ok(claim_of_cells(puzzle, cells))
}
