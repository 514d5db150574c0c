//! Reading the JSON that clasp and clingo write with `--outf=2` ([the form](super)): a stream
//! parser over the document, its `Call` list, each call's `Witnesses`, handing each witness on
//! as soon as it is parsed, then `Result` and `Models` checked against the witnesses read.

use std::cell::Cell;
use std::fmt;
use std::io::{BufRead, Read};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{atom_cell, opb_claim};
use crate::format::entry::{AnswerError, Claim, answer_error, claim_of_cells};
use crate::format::model_ledger::ModelLedger;
use crate::grid::Grid;

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

/// Reads a JSON answer; see [`super::read_clasp`].
pub(super) fn read_json(
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
