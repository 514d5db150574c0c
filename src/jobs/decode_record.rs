//! The records of `decode` ([`DecodeRecord`]: a model, or the end of the answer) and what the
//! command adds up over them ([`DecodeSummary`]: the note on the first model that is not a
//! solution); how they are written is described in [`super::decode`].

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::record::{ItemResult, JobRecord, Status};
use super::record_text::{grid_json, grid_record};
use super::summary::Summary;
use crate::format::Decoded;

/// A record of `decode`: a model, or the end of the answer (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeRecord {
    /// A model.
    Model {
        /// Its number (from 1).
        number: usize,
        /// What it decodes to.
        decoded: Decoded,
        /// For the first model that is not a solution: what is wrong, and the likely cause.
        note: Option<String>,
    },
    /// The end of the answer.
    End {
        /// How many models.
        models: usize,
        /// How many of them are solutions.
        solutions: usize,
        /// The answer's final word: unsat, unknown, or none.
        end: Option<Decoded>,
    },
}

impl JobRecord for DecodeRecord {
    fn status(&self) -> Status {
        match self {
            DecodeRecord::Model {
                decoded: Decoded::Solution(_),
                ..
            } => Status::Done,
            DecodeRecord::End { models, .. } if *models > 0 => Status::Done,
            _ => Status::Negative,
        }
    }

    fn text(&self) -> String {
        match self {
            DecodeRecord::Model { decoded, .. } => model_text(decoded),
            DecodeRecord::End {
                models,
                solutions,
                end,
            } => end_text(*models, *solutions, end.as_ref()),
        }
    }

    fn json(&self) -> Value {
        match self {
            DecodeRecord::Model {
                number, decoded, ..
            } => model_json(decoded, *number),
            DecodeRecord::End {
                models,
                solutions,
                end,
            } => end_json(*models, *solutions, end.as_ref()),
        }
    }
}

/// What `decode` adds up: the note on the first model that is not a solution.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecodeSummary {
    /// The note, once a model that is not a solution was seen.
    pub note: Option<String>,
}

impl Summary<DecodeRecord> for DecodeSummary {
    fn add(&mut self, result: &ItemResult<DecodeRecord>) {
        if let ItemResult::Done(DecodeRecord::Model {
            note: Some(note), ..
        }) = result
        {
            self.note.get_or_insert_with(|| note.clone());
        }
    }

    fn merge(&mut self, share: DecodeSummary) {
        if self.note.is_none() {
            self.note = share.note;
        }
    }

    fn notes(&self) -> Vec<String> {
        self.note.iter().cloned().collect()
    }
}

/// A model as text: the solution's grid, or why it is not one.
fn model_text(decoded: &Decoded) -> String {
    match decoded {
        Decoded::Solution(grid) => grid_record(grid),
        Decoded::Invalid(_, violation) => format!("not a solution: {violation}\n"),
        Decoded::NotAGrid(why) => format!("not a grid: {why}\n"),
        Decoded::Unsat | Decoded::Unknown => String::new(),
    }
}

/// A model as JSON; `model` counts the models from 1.
fn model_json(decoded: &Decoded, model: usize) -> Value {
    match decoded {
        Decoded::Solution(grid) => {
            json!({"model": model, "status": "solution", "solution": grid_json(grid)})
        }
        Decoded::Invalid(grid, violation) => json!({
            "model": model,
            "status": "invalid",
            "grid": grid_json(grid),
            "reason": violation.to_string(),
        }),
        Decoded::NotAGrid(why) => json!({"model": model, "status": "not a grid", "reason": why}),
        Decoded::Unsat | Decoded::Unknown => json!({"model": model, "status": "none"}),
    }
}

/// How an answer ended, as text: after `models` models (`solutions` of them verified), with
/// the answer's final word (`Decoded::Unsat`: no other; `Decoded::Unknown`: the solver
/// stopped; `None`: nothing said of others). Empty for one model and no word.
fn end_text(models: usize, solutions: usize, end: Option<&Decoded>) -> String {
    match (models, end) {
        (0, Some(Decoded::Unsat)) => "unsat (claimed by the answer, not checked)\n".into(),
        (0, _) => "unknown\n".into(),
        (_, Some(Decoded::Unsat)) => format!(
            "{solutions} solution{} of {models}; the solver says there is no other (not checked)\n",
            plural(solutions)
        ),
        (_, Some(Decoded::Unknown)) => format!(
            "{solutions} solution{} of {models}; the solver stopped before it was done\n",
            plural(solutions)
        ),
        (1, _) => String::new(),
        (_, _) => format!(
            "{solutions} solution{} of {models}; the answer says nothing of others\n",
            plural(solutions)
        ),
    }
}

/// How an answer ended, as JSON (see [`end_text`]).
fn end_json(models: usize, solutions: usize, end: Option<&Decoded>) -> Value {
    let unsat = matches!(end, Some(Decoded::Unsat));
    let status = match (models, unsat) {
        (0, true) => "unsat",
        (0, false) => "unknown",
        _ => "end",
    };
    let end_word = match end {
        Some(Decoded::Unsat) => "no other",
        Some(Decoded::Unknown) => "stopped",
        _ => "none",
    };
    let mut value = json!({
        "status": status,
        "models": models,
        "solutions": solutions,
        "complete": unsat,
        "end": end_word,
    });
    if unsat {
        value["certified"] = false.into();
    }
    value
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_then_the_end() {
        let grid: crate::Grid = "1234341221434321".parse().unwrap();
        let solution = DecodeRecord::Model {
            number: 1,
            decoded: Decoded::Solution(grid),
            note: None,
        };
        assert_eq!(solution.text(), "1234341221434321\n");
        assert_eq!(solution.status(), Status::Done);
        let end = |models, end| DecodeRecord::End {
            models,
            solutions: models,
            end,
        };
        assert_eq!(end(1, None).text(), "", "one model: the grid alone");
        assert_eq!(
            end(2, Some(Decoded::Unsat)).text(),
            "2 solutions of 2; the solver says there is no other (not checked)\n"
        );
        let unsat = end(0, Some(Decoded::Unsat));
        assert_eq!(unsat.text(), "unsat (claimed by the answer, not checked)\n");
        assert_eq!(unsat.status(), Status::Negative);
        let line = end(2, Some(Decoded::Unsat)).written(true);
        assert!(
            line.contains("\"models\":2") && line.contains("\"certified\":false"),
            "{line}"
        );
        assert!(solution.written(true).contains("\"model\":1"));
    }
}
