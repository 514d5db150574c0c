//! The result of `solve` for one puzzle: its record (the solution, `unsat`, `unknown (...)`,
//! with uniqueness also `multiple`) or its JSON line (status, solution, second, stats, line).

use serde_json::json;

use super::{grid_json, grid_record, json_line, stats_json};
use crate::search::{Answer, Outcome, Stats};

/// The text of a search for one solution, and whether it found one.
pub fn answer(answer: &Answer, stats: &Stats, line: usize, json: bool) -> (String, bool) {
    let solved = matches!(answer, Answer::Solved(_));
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match answer {
            Answer::Solved(g) => {
                value["status"] = "solved".into();
                value["solution"] = grid_json(g);
            }
            Answer::Unsat => value["status"] = "unsat".into(),
            Answer::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match answer {
            Answer::Solved(g) => grid_record(g),
            Answer::Unsat => "unsat\n".to_string(),
            Answer::Unknown(reason) => format!("unknown ({reason})\n"),
        }
    };
    (text, solved)
}

/// The text of a uniqueness test, and whether the puzzle is well posed.
pub fn outcome(outcome: &Outcome, stats: &Stats, line: usize, json: bool) -> (String, bool) {
    let unique = matches!(outcome, Outcome::Unique(_));
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match outcome {
            Outcome::Unique(g) => {
                value["status"] = "unique".into();
                value["solution"] = grid_json(g);
            }
            Outcome::Multiple(a, b) => {
                value["status"] = "multiple".into();
                value["solution"] = grid_json(a);
                value["second"] = grid_json(b);
            }
            Outcome::Unsat => value["status"] = "unsat".into(),
            Outcome::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match outcome {
            Outcome::Unique(g) => grid_record(g),
            Outcome::Multiple(..) => "multiple\n".to_string(),
            Outcome::Unsat => "unsat\n".to_string(),
            Outcome::Unknown(reason) => format!("unknown ({reason})\n"),
        }
    };
    (text, unique)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::StopReason;

    #[test]
    fn records_and_json_lines() {
        let stats = Stats::default();
        assert_eq!(
            answer(&Answer::Unsat, &stats, 4, false),
            ("unsat\n".into(), false)
        );
        let (text, unique) = outcome(&Outcome::Unknown(StopReason::TimeLimit), &stats, 4, true);
        assert!(!unique);
        assert!(text.contains("\"reason\":\"time limit\"") && text.ends_with("}\n"));
    }
}
