//! Reading the answers of clasp and clingo: the pseudo-Boolean form (`s` and `v` lines, for the
//! OPB export; RoundingSat and Exact write the same), the answer-set form (`Answer: 1`, a line
//! of atoms, `SATISFIABLE`, for the ASP export), and the JSON both write with `--outf=2`.
//!
//! - **OPB**: `c` comment lines (clasp's `c Answer: 1` among them), one status line
//!   `s SATISFIABLE` / `s OPTIMUM FOUND` / `s UNSATISFIABLE` / `s UNKNOWN`, and `v` lines of
//!   literals `xK` (true) and `-xK` (false); variable K is x(r,c,v) of the OPB export. clasp
//!   prints the `v` lines of its last model only, whatever `-n`: to read every model of an
//!   enumeration of the OPB export, run it with `--outf=2`.
//! - **ASP**: each `Answer: K` line is followed by the atoms of that answer set; the `x(R,C,V)`
//!   atoms set the cells (other predicates are ignored). Every answer set is a model of the
//!   answer, read as soon as its line is. A status line `SATISFIABLE`, `OPTIMUM FOUND`,
//!   `UNSATISFIABLE` or `UNKNOWN` follows, and `Models : N` says the enumeration ran to its end
//!   (`Models : N+`: it stopped at the `-n` limit, and there may be more). Version, `Reading
//!   from`, `Solving...` and the statistics are skipped.
//! - **JSON** (`--outf=2`, both programs): the `Witnesses` of each call, each a `Value` list of
//!   signed OPB variables or of atoms; `Result`; `Models` with `More` (`no`: the enumeration is
//!   complete). It is read as a stream: each witness is handed on as soon as it is parsed.
//!
//! A variable or an atom outside the puzzle's order is an error (the answer is not for this
//! puzzle); a model that leaves a cell without a value, or gives it two, is not a grid.
//!
//! # Complexity
//! Linear in the answer; memory is one model.
//!
//! # References
//! - Potassco guide, clasp and clingo output (text and `--outf=2`); PB competition output
//!   format (`s`, `v` lines).

use std::cell::Cell;
use std::fmt;
use std::io::{BufRead, Read};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::format::entry::{AnswerError, AnswerReader, Claim, answer_error, claim_of_cells};
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

/// The claim of the true OPB variables (1-based) of a model.
fn opb_claim(puzzle: &Grid, vars: &[usize]) -> Claim {
    let n = puzzle.shape().order();
    claim_of_cells(
        puzzle,
        vars.iter().map(|&k| crate::encode::x_of_index(n, k - 1)),
    )
}

/// Reads a clasp or clingo answer to `puzzle`, handing each model and the final word to
/// `each`; see the module docs.
///
/// # Errors
/// [`AnswerError`] with the place of the first problem.
pub fn read_clasp(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    // The first character that is not a blank says JSON or text.
    let json = loop {
        let buffer = input
            .fill_buf()
            .map_err(|e| answer_error(1, 1, format!("read error: {e}")))?;
        match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => break buffer[i] == b'{',
            None if buffer.is_empty() => break false,
            None => {
                let len = buffer.len();
                input.consume(len);
            }
        }
    };
    if json {
        read_json(puzzle, input, each)
    } else {
        read_text(puzzle, input, each)
    }
}

fn read_text(
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

/// The 0-based cell and value of an atom `x(R,C,V)` of an order-`n` puzzle.
fn atom_cell(token: &str, n: usize) -> Result<(usize, usize, usize), String> {
    let numbers: Option<Vec<usize>> = token
        .strip_prefix("x(")
        .and_then(|rest| rest.strip_suffix(')'))
        .map(|inner| inner.split(',').map(|a| a.parse().ok()).collect())
        .unwrap_or(None);
    match numbers.as_deref() {
        Some(&[r, c, v]) if [r, c, v].iter().all(|&x| (1..=n).contains(&x)) => {
            Ok((r - 1, c - 1, v - 1))
        }
        Some(&[r, c, v]) => Err(format!(
            "x({r},{c},{v}) is outside the {n}×{n} grid: an answer to another puzzle?"
        )),
        _ => Err(format!(
            "'{token}' is not an atom x(R,C,V) with three numbers"
        )),
    }
}

/// What the JSON document says besides its witnesses, and the witnesses read so far.
#[derive(Default)]
struct JsonEnd {
    result: Option<String>,
    more: Option<String>,
    /// `"Models": {"Number": N}`: how many models clasp says it found.
    number: Option<u64>,
    /// The witnesses handed on.
    ledger: ModelLedger,
    /// The `Call` list was read.
    calls_read: bool,
    /// The callback asked to stop.
    stopped: bool,
}

/// The input of the JSON parser, counting the lines it has read (serde_json reads its input a
/// byte at a time), so that a witness can be named by its line.
struct LineCounting<'a> {
    input: &'a mut dyn BufRead,
    line: &'a Cell<usize>,
}

impl Read for LineCounting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        let newlines = buf[..n].iter().filter(|&&b| b == b'\n').count();
        self.line.set(self.line.get() + newlines);
        Ok(n)
    }
}

/// The marker of a stop the callback asked for, carried out of serde as an error.
const STOP: &str = "sudokit: stop reading";

fn read_json(
    puzzle: &Grid,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(Claim) -> bool,
) -> Result<(), AnswerError> {
    let mut end = JsonEnd::default();
    let line = Cell::new(1);
    let mut deserializer =
        serde_json::Deserializer::from_reader(LineCounting { input, line: &line });
    let read = Document {
        puzzle,
        each: &mut *each,
        end: &mut end,
        line: &line,
    }
    .deserialize(&mut deserializer);
    if end.stopped {
        return Ok(());
    }
    read.map_err(|e| {
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        answer_error(e.line().max(1), e.column().max(1), message)
    })?;
    // clasp writes "Call" before "Result" and "Models": these checks are made, and placed,
    // as those are read; here for a document in another order.
    if let Some(message) = end
        .number
        .and_then(|number| end.ledger.count_differs(number, "\"Models\": \"Number\""))
    {
        return Err(answer_error(1, 1, message));
    }
    match end.result.as_deref() {
        Some("UNSATISFIABLE") => {
            if let Some(message) = end.ledger.unsat_after_models("\"Result\": UNSATISFIABLE") {
                return Err(answer_error(1, 1, message));
            }
            each(Claim::Unsat);
        }
        Some("UNKNOWN" | "INTERRUPTED") => {
            each(Claim::Unknown);
        }
        Some("SATISFIABLE" | "OPTIMUM FOUND") if end.ledger.models() == 0 => {
            return Err(answer_error(
                1,
                1,
                "\"Result\" is SATISFIABLE, but no witness",
            ));
        }
        Some("SATISFIABLE" | "OPTIMUM FOUND") => {
            if end.more.as_deref() == Some("no") {
                each(Claim::Unsat);
            }
        }
        Some(other) => {
            return Err(answer_error(1, 1, format!("unknown \"Result\" {other:?}")));
        }
        None => {
            return Err(answer_error(
                1,
                1,
                "no \"Result\" in clasp's JSON (truncated answer?)",
            ));
        }
    }
    Ok(())
}

/// The top-level JSON object of `--outf=2`.
struct Document<'a, 'b> {
    puzzle: &'a Grid,
    each: &'b mut dyn FnMut(Claim) -> bool,
    end: &'b mut JsonEnd,
    line: &'b Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Document<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Document<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("clasp's JSON output (--outf=2)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "Call" => {
                    map.next_value_seed(Calls {
                        puzzle: self.puzzle,
                        each: &mut *self.each,
                        end: &mut *self.end,
                        line: self.line,
                    })?;
                    self.end.calls_read = true;
                }
                "Result" => {
                    let result: String = map.next_value()?;
                    if result == "UNSATISFIABLE"
                        && let Some(message) = self
                            .end
                            .ledger
                            .unsat_after_models("\"Result\": UNSATISFIABLE")
                    {
                        return Err(de::Error::custom(message));
                    }
                    self.end.result = Some(result);
                }
                "Models" => {
                    let models: serde_json::Value = map.next_value()?;
                    self.end.more = models
                        .get("More")
                        .and_then(|m| m.as_str())
                        .map(str::to_string);
                    self.end.number = models.get("Number").and_then(serde_json::Value::as_u64);
                    if self.end.calls_read
                        && let Some(message) = self.end.number.and_then(|number| {
                            self.end
                                .ledger
                                .count_differs(number, "\"Models\": \"Number\"")
                        })
                    {
                        return Err(de::Error::custom(message));
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `Call` list (one per solve call), each with its `Witnesses`.
struct Calls<'a, 'b> {
    puzzle: &'a Grid,
    each: &'b mut dyn FnMut(Claim) -> bool,
    end: &'b mut JsonEnd,
    line: &'b Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Calls<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Calls<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of calls")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Call {
                puzzle: self.puzzle,
                each: &mut *self.each,
                end: &mut *self.end,
                line: self.line,
            })?
            .is_some()
        {}
        Ok(())
    }
}

/// One call: its `Witnesses` are read one by one.
struct Call<'a, 'b> {
    puzzle: &'a Grid,
    each: &'b mut dyn FnMut(Claim) -> bool,
    end: &'b mut JsonEnd,
    line: &'b Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Call<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Call<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a call object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "Witnesses" {
                map.next_value_seed(Witnesses {
                    puzzle: self.puzzle,
                    each: &mut *self.each,
                    end: &mut *self.end,
                    line: self.line,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The witnesses of a call.
struct Witnesses<'a, 'b> {
    puzzle: &'a Grid,
    each: &'b mut dyn FnMut(Claim) -> bool,
    end: &'b mut JsonEnd,
    line: &'b Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Witnesses<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

/// One witness as written: its `Value` list (signed OPB variables, or atoms).
#[derive(serde::Deserialize)]
struct Witness {
    #[serde(rename = "Value", default)]
    value: Vec<serde_json::Value>,
}

impl<'de> Visitor<'de> for Witnesses<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of witnesses")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let n = self.puzzle.shape().order();
        // The sign each variable was given in the witness (0: none yet, 1: true, 2: false).
        let mut signs: Vec<u8> = Vec::new();
        while let Some(witness) = seq.next_element::<Witness>()? {
            let mut vars = Vec::new();
            let mut cells = Vec::new();
            signs.clear();
            for item in &witness.value {
                match item {
                    serde_json::Value::Number(k) => {
                        let k = k
                            .as_i64()
                            .ok_or_else(|| de::Error::custom(format!("{k} is not a literal")))?;
                        if k.unsigned_abs() as usize > n * n * n || k == 0 {
                            return Err(de::Error::custom(format!(
                                "{k} is not a literal of the {n}×{n} grid's variables 1..={}: an answer to another puzzle?",
                                n * n * n
                            )));
                        }
                        if signs.is_empty() {
                            signs.resize(n * n * n + 1, 0);
                        }
                        let (var, sign) = (k.unsigned_abs() as usize, if k > 0 { 1 } else { 2 });
                        if signs[var] == 3 - sign {
                            return Err(de::Error::custom(format!(
                                "variable {var} is both true and false in a witness"
                            )));
                        }
                        signs[var] = sign;
                        if k > 0 {
                            vars.push(var);
                        }
                    }
                    serde_json::Value::String(atom) if atom.starts_with("x(") => {
                        cells.push(atom_cell(atom, n).map_err(de::Error::custom)?);
                    }
                    serde_json::Value::String(_) => {}
                    other => {
                        return Err(de::Error::custom(format!(
                            "{other} is neither a literal nor an atom"
                        )));
                    }
                }
            }
            let claim = if cells.is_empty() {
                opb_claim(self.puzzle, &vars)
            } else {
                claim_of_cells(self.puzzle, cells)
            };
            self.end
                .ledger
                .record(&claim, self.line.get())
                .map_err(de::Error::custom)?;
            if !(self.each)(claim) {
                self.end.stopped = true;
                return Err(de::Error::custom(STOP));
            }
        }
        Ok(())
    }
}

/// The `clasp` answer reader.
pub const CLASP_READER: AnswerReader = AnswerReader {
    name: "clasp",
    format: "opb",
    summary: "clasp or clingo output: 's'/'v' lines for OPB (also RoundingSat, Exact), answer sets of x(R,C,V) for ASP (every model of -n 0), or the JSON of --outf=2",
    read: |puzzle, _, input, each| read_clasp(puzzle, input, each),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    /// Every claim of an answer.
    fn read_all(puzzle: &str, text: &str) -> Result<Vec<Claim>, AnswerError> {
        let mut claims = Vec::new();
        read_clasp(
            &parse_line(puzzle, None).unwrap(),
            &mut text.as_bytes(),
            &mut |c| {
                claims.push(c);
                true
            },
        )?;
        Ok(claims)
    }

    fn read(puzzle: &str, text: &str) -> Result<Claim, AnswerError> {
        Ok(read_all(puzzle, text)?.remove(0))
    }

    const OPB: &str = "c clasp version 3.3.5\nc Reading from p.opb\nc Solving...\nc Answer: 1\n\
        v x1 -x2 -x3 -x4 -x5 -x6 x7 -x8 -x9 -x10 -x11 x12 -x13 x14 -x15 -x16\ns SATISFIABLE\n\
        c Models : 1\n";

    #[test]
    fn opb_answers_decode_to_cells() {
        // 1×2 boxes: order 2, variables x1..x8, so x12 is outside: not an answer to it.
        let error = read("1...", OPB).unwrap_err().to_string();
        assert!(
            error.starts_with("line 5, column 33: x9 is not a variable"),
            "{error}"
        );
        let two = "c\nv x1 -x2 -x3 x4\nv -x5 x6 x7 -x8\ns SATISFIABLE\n";
        let Claim::Grid(grid) = read("1...", two).unwrap() else {
            panic!()
        };
        assert_eq!(crate::text::to_text(&grid), "1221");
        assert_eq!(read("1...", "s UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        assert_eq!(read("1...", "s UNKNOWN\n").unwrap(), Claim::Unknown);
    }

    #[test]
    fn answer_sets_decode_to_cells_one_by_one() {
        let text = "clingo version 5.4.1\nReading from p.asp\nSolving...\nAnswer: 1\n\
            x(1,1,1) x(1,2,2) done x(2,1,2) x(2,2,1)\nSATISFIABLE\n\nModels       : 1+\n";
        let claims = read_all("1...", text).unwrap();
        assert_eq!(claims.len(), 1, "one model, and nothing said of others");
        let Claim::Grid(grid) = &claims[0] else {
            panic!()
        };
        assert_eq!(crate::text::to_text(grid), "1221");
        let partial = text.replace(" x(2,2,1)", "");
        assert!(
            matches!(read("1...", &partial), Ok(Claim::NotAGrid(why)) if why.contains("(2,2)"))
        );
        assert_eq!(read("1...", "UNSATISFIABLE\n").unwrap(), Claim::Unsat);
        // An enumeration that ran to its end: the models, then "no other".
        let all = "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nAnswer: 2\nx(1,1,2) x(1,2,1) x(2,1,1) x(2,2,2)\nSATISFIABLE\n\nModels       : 2\n";
        let claims = read_all("....", all).unwrap();
        assert_eq!(claims.len(), 3);
        assert_eq!(claims[2], Claim::Unsat);
        // Stopping after the first model reads no further.
        let mut seen = 0;
        read_clasp(
            &parse_line("....", None).unwrap(),
            &mut all.as_bytes(),
            &mut |_| {
                seen += 1;
                false
            },
        )
        .unwrap();
        assert_eq!(seen, 1);
    }

    #[test]
    fn contradictory_answers_are_refused_with_their_places() {
        // 1... is of order 2: xK is x(r,c,v) numbered from 1 in that order, x1 = x(1,1,1).
        let cases = [
            // The OPB form: a model, then unsatisfiable.
            (
                "v x1 -x2 -x3 x4 -x5 x6 x7 -x8\ns UNSATISFIABLE\n",
                "line 2, column 3: UNSATISFIABLE after 1 model: the answer contradicts itself",
            ),
            // A variable set both ways.
            (
                "s SATISFIABLE\nv x1 -x2 -x3 x4\nv -x1 x6 x7 -x8\n",
                "line 3, column 3: x1 is both true and false",
            ),
            // Answer sets: the same one twice, a count that differs, unsatisfiable after one.
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nAnswer: 2\n\
                 x(2,2,1) x(1,1,1) x(1,2,2) x(2,1,2)\nSATISFIABLE\n",
                "line 4, column 1: model 2 repeats model 1 (line 2): the same solution given \
                 twice",
            ),
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nSATISFIABLE\n\n\
                 Models       : 3\n",
                "line 5, column 16: 'Models' says 3 models, the answer gives 1",
            ),
            (
                "Answer: 1\nx(1,1,1) x(1,2,2) x(2,1,2) x(2,2,1)\nUNSATISFIABLE\n",
                "line 3, column 1: UNSATISFIABLE after 1 model: the answer contradicts itself",
            ),
            // JSON: a witness twice, a number of models that differs, unsatisfiable with a
            // witness, a variable both ways.
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]},\n\
                 {\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}], \"Result\": \"SATISFIABLE\"}\n",
                "line 4, column 1: model 2 repeats model 1 (line 2): the same solution given \
                 twice",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}],\n\
                 \"Result\": \"SATISFIABLE\",\n\"Models\": {\"Number\": 5, \"More\": \"no\"}}\n",
                "line 5, column 38: \"Models\": \"Number\" says 5 models, the answer gives 1",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -3, 4, -5, 6, 7, -8]}\n]}],\n\
                 \"Result\": \"UNSATISFIABLE\"}\n",
                "line 4, column 26: \"Result\": UNSATISFIABLE after 1 model: the answer \
                 contradicts itself",
            ),
            (
                "{\"Call\": [{\"Witnesses\": [\n{\"Value\": [1, -2, -1]}]}]}\n",
                "line 2, column 23: variable 1 is both true and false in a witness",
            ),
        ];
        for (text, message) in cases {
            let error = read_all("1...", text).unwrap_err().to_string();
            assert_eq!(error, message, "{text}");
        }
    }

    #[test]
    fn json_witnesses_are_models() {
        let json = r#"{
  "Solver": "clingo version 5.4.1",
  "Call": [
    {
      "Witnesses": [
        { "Value": [ "x(1,1,1)", "x(1,2,2)", "x(2,1,2)", "x(2,2,1)" ] },
        { "Value": [ "x(1,1,2)", "x(1,2,1)", "x(2,1,1)", "x(2,2,2)" ] }
      ]
    }
  ],
  "Result": "SATISFIABLE",
  "Models": { "Number": 2, "More": "no" }
}"#;
        let claims = read_all("....", json).unwrap();
        assert_eq!(claims.len(), 3);
        assert!(matches!(claims[0], Claim::Grid(_)) && matches!(claims[1], Claim::Grid(_)));
        assert_eq!(claims[2], Claim::Unsat);
        let opb = r#"{"Call": [{"Witnesses": [{"Value": [1, -2, -3, 4, -5, 6, 7, -8]}]}], "Result": "SATISFIABLE", "Models": {"Number": 1, "More": "yes"}}"#;
        let claims = read_all("1...", opb).unwrap();
        assert_eq!(claims.len(), 1);
        let unsat =
            r#"{"Call": [{}], "Result": "UNSATISFIABLE", "Models": {"Number": 0, "More": "no"}}"#;
        assert_eq!(read_all("1...", unsat).unwrap(), vec![Claim::Unsat]);
        let error = read("1...", r#"{"Call": [{"Witnesses": [{"Value": [1, 99]}]}]}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("99 is not a literal"), "{error}");
        let error = read("1...", "{\"Call\": [").unwrap_err().to_string();
        assert!(error.starts_with("line 1"), "{error}");
    }

    #[test]
    fn errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no status line"),
            ("s MAYBE\n", "line 1, column 3: unknown status 'MAYBE'"),
            (
                "v x1 y2\ns SATISFIABLE\n",
                "line 1, column 6: 'y2' is not a literal",
            ),
            (
                "Answer: 1\nx(1,1)\nSATISFIABLE\n",
                "line 2, column 1: 'x(1,1)' is not an atom",
            ),
            (
                "Answer: 1\nx(1,1,3)\nSATISFIABLE\n",
                "line 2, column 1: x(1,1,3) is outside the 2×2 grid",
            ),
            (
                "SATISFIABLE\n",
                "line 2, column 1: a satisfiable answer without its model",
            ),
        ];
        for (text, message) in cases {
            let error = read("1...", text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
