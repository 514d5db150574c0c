//! Reading SMT solvers' answers to the SMT-LIB 2 export: z3's and cvc5's output for
//! `(check-sat)` followed by `(get-value ...)` or `(get-model)`.
//!
//! The output is a sequence of S-expressions: the status `sat`, `unsat` or `unknown` (z3 also
//! says `timeout`), then for `sat` the values, either the `get-value` form
//! `((c_1_1 5) (c_1_2 3) ...)` or the `get-model` form `((define-fun c_1_1 () Int 5) ...)`
//! (older z3 versions open it with `model`) for the `int` encoding, `((x_1_1_5 true) (x_1_1_6
//! false) ...)` for the `bool` one (a given has no variable there and keeps its value). A negative number is `(- 5)`. `success` lines (of
//! `:print-success`) are skipped; an `(error "...")` after `unsat` or `unknown` is the
//! `get-value` the script asks for anyway, and is ignored; any other error is reported with its
//! place. A variable given two values (`(x_1_1_5 true)` and `(x_1_1_5 false)`, or a cell given
//! two numbers) is an error naming both places.
//!
//! # Complexity
//! Linear in the answer.
//!
//! # References
//! - C. Barrett, P. Fontaine, C. Tinelli, "The SMT-LIB Standard: Version 2.6", 2017, §4.2
//!   (responses to `check-sat`, `get-value` and `get-model`).

use std::collections::HashMap;
use std::io::BufRead;

use crate::format::entry::{
    AnswerError, AnswerReader, Claim, answer_error, answer_lines, claim_of_cells, single,
};
use crate::format::smt2::{parse_cell_name, parse_value_name};
use crate::grid::Grid;

/// An S-expression with the place (line, column) where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sexp {
    Atom(String, usize, usize),
    List(Vec<Sexp>, usize, usize),
}

impl Sexp {
    fn place(&self) -> (usize, usize) {
        match self {
            Sexp::Atom(_, line, column) | Sexp::List(_, line, column) => (*line, *column),
        }
    }

    fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(text, ..) => Some(text),
            Sexp::List(..) => None,
        }
    }
}

/// The top-level S-expressions of `lines`.
fn parse(lines: &[String]) -> Result<Vec<Sexp>, AnswerError> {
    // Open lists: their items so far and where they opened.
    let mut stack: Vec<(Vec<Sexp>, usize, usize)> = Vec::new();
    let mut top = Vec::new();
    let mut push = |stack: &mut Vec<(Vec<Sexp>, usize, usize)>, item: Sexp| match stack.last_mut() {
        Some((items, ..)) => items.push(item),
        None => top.push(item),
    };
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        let chars: Vec<char> = text.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let column = k + 1;
            match chars[k] {
                ';' => break,
                c if c.is_whitespace() => k += 1,
                '(' => {
                    stack.push((Vec::new(), line, column));
                    k += 1;
                }
                ')' => {
                    let Some((items, l, c)) = stack.pop() else {
                        return Err(answer_error(line, column, "')' without its '('"));
                    };
                    push(&mut stack, Sexp::List(items, l, c));
                    k += 1;
                }
                quote @ ('"' | '|') => {
                    let mut text = String::new();
                    k += 1;
                    loop {
                        match chars.get(k) {
                            None => {
                                return Err(answer_error(
                                    line,
                                    column,
                                    "a string or quoted symbol not closed on its line",
                                ));
                            }
                            Some(&c) if c == quote && chars.get(k + 1) == Some(&quote) => {
                                text.push(c);
                                k += 2;
                            }
                            Some(&c) if c == quote => {
                                k += 1;
                                break;
                            }
                            Some(&c) => {
                                text.push(c);
                                k += 1;
                            }
                        }
                    }
                    push(&mut stack, Sexp::Atom(text, line, column));
                }
                _ => {
                    let start = k;
                    while k < chars.len()
                        && !chars[k].is_whitespace()
                        && !matches!(chars[k], '(' | ')' | ';' | '"' | '|')
                    {
                        k += 1;
                    }
                    let word: String = chars[start..k].iter().collect();
                    push(&mut stack, Sexp::Atom(word, line, column));
                }
            }
        }
    }
    if let Some((_, line, column)) = stack.pop() {
        return Err(answer_error(
            line,
            column,
            "'(' not closed (truncated answer?)",
        ));
    }
    Ok(top)
}

/// An integer value: a numeral, or `(- numeral)`.
fn integer(value: &Sexp) -> Option<i64> {
    match value {
        Sexp::Atom(text, ..) => text.parse().ok(),
        Sexp::List(items, ..) => match items.as_slice() {
            [minus, number] if minus.atom() == Some("-") => integer(number).map(|k| -k),
            _ => None,
        },
    }
}

/// The `(name, value)` pairs of a `get-value` or `get-model` response.
fn assignments(items: &[Sexp]) -> Result<Vec<(&Sexp, &Sexp)>, AnswerError> {
    let mut pairs = Vec::new();
    for item in items {
        match item {
            Sexp::Atom(word, ..) if word == "model" => {}
            Sexp::List(inner, ..) => match inner.as_slice() {
                [name, value] => pairs.push((name, value)),
                [head, name, _, _, value] if head.atom() == Some("define-fun") => {
                    pairs.push((name, value))
                }
                _ => {
                    let (line, column) = item.place();
                    return Err(answer_error(
                        line,
                        column,
                        "expected (NAME VALUE) or (define-fun NAME () Int VALUE)",
                    ));
                }
            },
            Sexp::Atom(word, line, column) => {
                return Err(answer_error(
                    *line,
                    *column,
                    format!("expected (NAME VALUE), not '{word}'"),
                ));
            }
        }
    }
    Ok(pairs)
}

/// Whether two values are the same (their places aside).
fn same_value(a: &Sexp, b: &Sexp) -> bool {
    match (a, b) {
        (Sexp::Atom(x, ..), Sexp::Atom(y, ..)) => x == y,
        (Sexp::List(x, ..), Sexp::List(y, ..)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        _ => false,
    }
}

/// A value as written (`true`, `5`, `(- 5)`), for messages.
fn show(value: &Sexp) -> String {
    match value {
        Sexp::Atom(text, ..) => text.clone(),
        Sexp::List(items, ..) => {
            let inner: Vec<String> = items.iter().map(show).collect();
            format!("({})", inner.join(" "))
        }
    }
}

/// Reads an SMT solver's answer to `puzzle`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_smt2(puzzle: &Grid, input: &mut dyn BufRead) -> Result<Claim, AnswerError> {
    let lines = answer_lines(input)?;
    let items = parse(&lines)?;
    let n = puzzle.shape().order();
    let mut status: Option<&str> = None;
    let mut values: Option<&[Sexp]> = None;
    for item in &items {
        let (line, column) = item.place();
        match item {
            Sexp::Atom(word, ..) if word == "success" => {}
            Sexp::Atom(word, ..) if status.is_none() => match word.as_str() {
                "sat" | "unsat" | "unknown" | "timeout" => status = Some(word),
                other => {
                    return Err(answer_error(
                        line,
                        column,
                        format!("expected sat, unsat or unknown, not '{other}'"),
                    ));
                }
            },
            Sexp::List(inner, ..) if inner.first().and_then(Sexp::atom) == Some("error") => {
                if status.is_none() || status == Some("sat") {
                    let message = inner.get(1).and_then(Sexp::atom).unwrap_or("");
                    return Err(answer_error(
                        line,
                        column,
                        format!("the solver reports an error: {message}"),
                    ));
                }
            }
            Sexp::List(inner, ..) if status == Some("sat") && values.is_none() => {
                values = Some(inner);
            }
            _ if status.is_some() => {}
            _ => {
                return Err(answer_error(line, column, "expected sat, unsat or unknown"));
            }
        }
    }
    let end = lines.len() + 1;
    match status {
        None => Err(answer_error(
            end,
            1,
            "no sat, unsat or unknown (empty or truncated answer?)",
        )),
        Some("unsat") => Ok(Claim::Unsat),
        Some("unknown" | "timeout") => Ok(Claim::Unknown),
        _ => {
            let Some(values) = values else {
                return Err(answer_error(
                    end,
                    1,
                    "sat without the values of get-value or get-model",
                ));
            };
            let mut cells = Vec::new();
            // The `bool` encoding names cell values; a given has no variable and keeps its value.
            let mut booleans = false;
            // Each variable's value as first given, with its place: a variable given two
            // values is refused.
            let mut given: HashMap<&str, (&Sexp, usize, usize)> = HashMap::new();
            for (name, value) in assignments(values)? {
                let Some(name) = name.atom() else { continue };
                let (line, column) = value.place();
                if let Some(&(first, first_line, first_column)) = given.get(name) {
                    if !same_value(first, value) {
                        return Err(answer_error(
                            line,
                            column,
                            format!(
                                "{name} is given two values: {} here, {} at line {first_line}, \
                                 column {first_column}",
                                show(value),
                                show(first)
                            ),
                        ));
                    }
                    continue;
                }
                given.insert(name, (value, line, column));
                if name.starts_with("x_") {
                    let (line, column) = value.place();
                    let Some((r, c, v)) = parse_value_name(name, n) else {
                        return Err(answer_error(
                            line,
                            column,
                            format!(
                                "{name} is not a value of a cell of the {n}×{n} grid: an answer to another puzzle?"
                            ),
                        ));
                    };
                    booleans = true;
                    match value.atom() {
                        Some("true") => cells.push((r, c, v)),
                        Some("false") => {}
                        _ => {
                            return Err(answer_error(
                                line,
                                column,
                                format!("the value of {name} is not true or false"),
                            ));
                        }
                    }
                    continue;
                }
                let Some((r, c)) = parse_cell_name(name, n) else {
                    if name.starts_with("c_") {
                        let (line, column) = value.place();
                        return Err(answer_error(
                            line,
                            column,
                            format!(
                                "{name} is not a cell of the {n}×{n} grid: an answer to another puzzle?"
                            ),
                        ));
                    }
                    continue;
                };
                let Some(v) = integer(value) else {
                    let (line, column) = value.place();
                    return Err(answer_error(
                        line,
                        column,
                        format!("the value of {name} is not an integer"),
                    ));
                };
                if v < 1 || v > n as i64 {
                    let (line, column) = value.place();
                    return Err(answer_error(
                        line,
                        column,
                        format!(
                            "{name} = {v} is not a value of the {n}×{n} grid: an answer to another puzzle?"
                        ),
                    ));
                }
                cells.push((r, c, v as usize - 1));
            }
            if booleans {
                let shape = puzzle.shape();
                cells.extend((0..shape.cells()).filter_map(|cell| {
                    let v = puzzle.get(cell)?;
                    Some((shape.row_of(cell), shape.col_of(cell), v))
                }));
            }
            Ok(claim_of_cells(puzzle, cells))
        }
    }
}

/// The `smt2` answer reader.
pub const SMT2_READER: AnswerReader = AnswerReader {
    name: "smt2",
    format: "smt2",
    summary: "z3's or cvc5's output: sat/unsat/unknown, then get-value pairs or a get-model model",
    read: |puzzle, _, input, each| single(read_smt2(puzzle, input), each),
};

#[cfg(test)]
mod tests {
    #[test]
    fn boolean_values_of_the_bool_encoding() {
        let puzzle = crate::text::parse_line("1...", None).unwrap();
        let read = |text: &str| read_smt2(&puzzle, &mut text.as_bytes());
        let text = "sat\n((x_1_2_2 true) (x_1_2_1 false) (x_2_1_2 true) (x_2_2_1 true))\n";
        let Ok(Claim::Grid(grid)) = read(text) else {
            panic!("{:?}", read(text))
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        let error = read("sat\n((x_1_2_3 true))\n").unwrap_err().to_string();
        assert!(
            error.contains("x_1_2_3 is not a value of a cell of the 2×2 grid"),
            "{error}"
        );
        let error = read("sat\n((x_1_2_2 1))\n").unwrap_err().to_string();
        assert!(error.contains("not true or false"), "{error}");
    }

    use super::*;
    use crate::text::parse_line;

    fn read(text: &str) -> Result<Claim, AnswerError> {
        read_smt2(&parse_line("1...", None).unwrap(), &mut text.as_bytes())
    }

    #[test]
    fn get_value_and_get_model_forms() {
        let z3 = "sat\n((c_1_1 1)\n (c_1_2 2)\n (c_2_1 2)\n (c_2_2 1))\n";
        let cvc5 = "sat\n(\n(define-fun c_1_1 () Int 1)\n(define-fun c_1_2 () Int 2)\n\
            (define-fun c_2_1 () Int 2)\n(define-fun c_2_2 () Int 1)\n)\n";
        let old_z3 = "sat\n(model\n  (define-fun c_2_2 () Int\n    1)\n  (define-fun c_1_1 () Int 1) \
            (define-fun c_1_2 () Int 2) (define-fun c_2_1 () Int 2))\n";
        for text in [z3, cvc5, old_z3] {
            let Claim::Grid(grid) = read(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(crate::text::to_text(&grid), "1221");
        }
        assert!(
            matches!(read("sat\n((c_1_1 1) (c_1_2 (- 2)) (c_2_1 2) (c_2_2 1))\n"),
            Err(e) if e.to_string().contains("c_1_2 = -2 is not a value of the 2×2 grid"))
        );
        assert!(matches!(read("sat\n((c_1_1 1) (c_1_2 2) (c_2_1 2))\n"),
            Ok(Claim::NotAGrid(why)) if why.contains("(2,2)")));
    }

    #[test]
    fn unsat_with_the_error_of_get_value_and_unknown() {
        let z3 = "unsat\n(error \"line 11 column 24: model is not available\")\n";
        assert_eq!(read(z3).unwrap(), Claim::Unsat);
        assert_eq!(read("unknown\n").unwrap(), Claim::Unknown);
        assert_eq!(read("timeout\n").unwrap(), Claim::Unknown);
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no sat"),
            ("sat\n((c_1_1 1)\n", "line 2, column 1: '(' not closed"),
            (
                "maybe\n",
                "line 1, column 1: expected sat, unsat or unknown, not 'maybe'",
            ),
            (
                "(error \"bad logic\")\n",
                "line 1, column 1: the solver reports an error: bad logic",
            ),
            (
                "sat\n((c_1_1 one))\n",
                "line 2, column 9: the value of c_1_1 is not an integer",
            ),
            ("sat\n)\n", "line 2, column 1: ')' without its '('"),
            (
                "sat\n((x_1_2_2 true)\n (x_1_2_2 false))\n",
                "line 3, column 11: x_1_2_2 is given two values: false here, true at line 2, \
                 column 11",
            ),
            (
                "sat\n((c_1_1 1) (c_1_1 (- 2)))\n",
                "line 2, column 19: c_1_1 is given two values: (- 2) here, 1 at line 2, column 9",
            ),
        ];
        for (text, message) in cases {
            let error = read(text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
