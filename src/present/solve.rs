//! The result of `solve` for one puzzle: its record (the solution, `unsat`, `unknown (...)`,
//! with uniqueness also `multiple`) or its JSON line (status, solution, second, stats, line).
//!
//! An `unsat` (and a `unique`) says how it is known when another program's word is behind it:
//! `unsat (checked: cadical's DRAT proof)`, or `unsat (claimed by minisat, not checked)`; the
//! JSON line has `"certified"` and `"refutation"` ([`super::add_refutation`]). A result that
//! rests on a claim nothing checked does not count as the answer asked for.

use serde_json::json;

use super::{add_refutation, grid_json, grid_record, json_line, stats_json, with_note};
use crate::search::{Answer, Outcome, Refutation, Stats};

/// The text of a search for one solution, and whether it found one.
pub fn answer(
    answer: &Answer,
    refutation: &Refutation,
    stats: &Stats,
    line: usize,
    json: bool,
) -> (String, bool) {
    let solved = matches!(answer, Answer::Solved(_));
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match answer {
            Answer::Solved(g) => {
                value["status"] = "solved".into();
                value["solution"] = grid_json(g);
            }
            Answer::Unsat => {
                value["status"] = "unsat".into();
                add_refutation(&mut value, refutation);
            }
            Answer::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match answer {
            Answer::Solved(g) => grid_record(g),
            Answer::Unsat => match refutation.note() {
                Some(note) => format!("unsat {note}\n"),
                None => "unsat\n".to_string(),
            },
            Answer::Unknown(reason) => format!("unknown ({reason})\n"),
        }
    };
    (text, solved)
}

/// The text of a uniqueness test, and whether the puzzle is well posed (known so: a `unique`
/// resting on a claim nothing checked is not).
pub fn outcome(
    outcome: &Outcome,
    refutation: &Refutation,
    stats: &Stats,
    line: usize,
    json: bool,
) -> (String, bool) {
    let unique = matches!(outcome, Outcome::Unique(_)) && refutation.is_certified();
    let text = if json {
        let mut value = json!({"line": line, "stats": stats_json(stats)});
        match outcome {
            Outcome::Unique(g) => {
                value["status"] = "unique".into();
                value["solution"] = grid_json(g);
                add_refutation(&mut value, refutation);
            }
            Outcome::Multiple(a, b) => {
                value["status"] = "multiple".into();
                value["solution"] = grid_json(a);
                value["second"] = grid_json(b);
            }
            Outcome::Unsat => {
                value["status"] = "unsat".into();
                add_refutation(&mut value, refutation);
            }
            Outcome::Unknown(reason) => {
                value["status"] = "unknown".into();
                value["reason"] = reason.to_string().into();
            }
        }
        json_line(&value)
    } else {
        match outcome {
            // A uniqueness resting on a claim says so; a checked one reads like sudokit's own.
            Outcome::Unique(g) => match refutation.note() {
                Some(note) if !refutation.is_certified() => with_note(
                    &grid_record(g),
                    &format!("(unique: {})", &note[1..note.len() - 1]),
                ),
                _ => grid_record(g),
            },
            Outcome::Multiple(..) => "multiple\n".to_string(),
            Outcome::Unsat => match refutation.note() {
                Some(note) => format!("unsat {note}\n"),
                None => "unsat\n".to_string(),
            },
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
        let search = Refutation::Search;
        assert_eq!(
            answer(&Answer::Unsat, &search, &stats, 4, false),
            ("unsat\n".into(), false)
        );
        let (text, unique) = outcome(
            &Outcome::Unknown(StopReason::TimeLimit),
            &search,
            &stats,
            4,
            true,
        );
        assert!(!unique);
        assert!(text.contains("\"reason\":\"time limit\"") && text.ends_with("}\n"));
    }

    #[test]
    fn a_claim_is_shown_as_one() {
        let stats = Stats::default();
        let claim = Refutation::Claim {
            by: "minisat".into(),
            reason: "minisat writes no proof".into(),
        };
        assert_eq!(
            answer(&Answer::Unsat, &claim, &stats, 1, false).0,
            "unsat (claimed by minisat, not checked)\n"
        );
        let (text, _) = answer(&Answer::Unsat, &claim, &stats, 1, true);
        assert!(text.contains("\"certified\":false"), "{text}");
        assert!(
            text.contains("\"reason\":\"minisat writes no proof\""),
            "{text}"
        );
        let grid: crate::Grid = "1234341221434321".parse().unwrap();
        let (text, unique) = outcome(&Outcome::Unique(grid), &claim, &stats, 1, false);
        assert_eq!(
            text,
            "1234341221434321 (unique: claimed by minisat, not checked)\n"
        );
        assert!(!unique, "a claimed uniqueness is not the answer asked for");
        let proof = Refutation::Proof {
            by: "cadical".into(),
            format: "drat".into(),
            checker: "dratify".into(),
        };
        assert_eq!(
            answer(&Answer::Unsat, &proof, &stats, 1, false).0,
            "unsat (checked: cadical's DRAT proof)\n"
        );
    }
}
