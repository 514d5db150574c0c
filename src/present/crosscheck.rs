//! The output of `crosscheck`: one row per puzzle (the puzzle and every answer when they
//! disagree), or its JSON line, and the summary table per participant, or its JSON line.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{micros, millis};
use crate::crosscheck::{PuzzleCheck, Run, Standing, Tally, Verdict};
use crate::text;

/// The consensus when some decisive run supports it (a count that only unknown runs contain is
/// no answer).
pub fn supported_consensus(check: &PuzzleCheck) -> Option<u64> {
    check
        .consensus
        .filter(|_| check.standings.contains(&Standing::Agreed))
}

/// The consensus in words: `unsat`, `unique`, `multiple`, `solvable`, `k solutions`, `≥k
/// solutions` or `undecided`.
pub fn consensus_word(check: &PuzzleCheck, limit: u64) -> String {
    match supported_consensus(check) {
        None => "undecided".to_string(),
        Some(0) => "unsat".to_string(),
        Some(1) if limit >= 2 => "unique".to_string(),
        Some(k) if k >= limit => {
            if limit == 2 {
                "multiple".to_string()
            } else if limit == 1 {
                "solvable".to_string()
            } else {
                format!("≥{k} solutions")
            }
        }
        Some(k) => format!("{k} solutions"),
    }
}

fn run_millis(run: &Run) -> f64 {
    run.elapsed.as_secs_f64() * 1e3
}

/// The row of one puzzle (`puzzle` is its text): `line L: WORD: k agreed` when the answers
/// agree (with the participants that ended unknown or were skipped named:
/// `, 1 unknown (ext:cvc5)`), else the puzzle and every answer.
pub fn puzzle_text(
    file: &str,
    line: usize,
    puzzle: &str,
    check: &PuzzleCheck,
    limit: u64,
) -> String {
    let count = |s: Standing| check.standings.iter().filter(|&&x| x == s).count();
    if check.agreed() {
        let word = consensus_word(check, limit);
        let mut text = format!("line {line}: {word}: {} agreed", count(Standing::Agreed));
        for (what, standing) in [
            ("unknown", Standing::Unknown),
            ("skipped", Standing::Skipped),
        ] {
            if count(standing) > 0 {
                let names: Vec<&str> = check
                    .runs
                    .iter()
                    .zip(&check.standings)
                    .filter(|(_, s)| **s == standing)
                    .map(|(run, _)| run.name.as_str())
                    .collect();
                text += &format!(", {} {what} ({})", count(standing), names.join(", "));
            }
        }
        return text + "\n";
    }
    let mut text = format!(
        "line {line}: DISAGREEMENT ({} agreed on {}, {} disagreed)\n  {file}:{line}: {}\n",
        count(Standing::Agreed),
        consensus_word(check, limit),
        count(Standing::Disagreed),
        puzzle.replace('\n', "\n  ")
    );
    for (run, standing) in check.runs.iter().zip(&check.standings) {
        let mark = if *standing == Standing::Disagreed {
            "  <-- disagrees"
        } else {
            ""
        };
        text += &format!(
            "  {}: {} ({:.3} ms){mark}\n",
            run.name,
            run.verdict.describe(limit),
            run_millis(run)
        );
        if let Verdict::Counted { solutions, .. } = &run.verdict {
            for s in solutions {
                text += &format!("    solution {}\n", text::to_text(s).replace('\n', " / "));
            }
        }
    }
    text
}

/// The JSON object of one puzzle.
pub fn puzzle_json(line: usize, puzzle: &str, check: &PuzzleCheck, limit: u64) -> Value {
    let runs: Vec<Value> = check
        .runs
        .iter()
        .zip(&check.standings)
        .map(|(run, standing)| {
            let mut value = json!({
                "backend": run.name,
                "answer": run.verdict.describe(limit),
                "standing": standing_word(*standing),
                "elapsed_us": micros(run.elapsed),
            });
            if let Verdict::Counted {
                count,
                exact,
                solutions,
                ..
            } = &run.verdict
            {
                value["count"] = json!(count);
                value["exact"] = json!(exact);
                value["solutions"] = solutions.iter().map(text::to_text).collect();
            }
            value
        })
        .collect();
    json!({
        "line": line,
        "puzzle": puzzle,
        "status": if check.agreed() { "agreed" } else { "disagreed" },
        "consensus": supported_consensus(check),
        "answer": consensus_word(check, limit),
        "runs": runs,
    })
}

/// A standing in words.
pub fn standing_word(standing: Standing) -> &'static str {
    match standing {
        Standing::Agreed => "agreed",
        Standing::Disagreed => "disagreed",
        Standing::Unknown => "unknown",
        Standing::Skipped => "skipped",
    }
}

/// The counts of a finished cross-check, for its summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Puzzles checked (read and run).
    pub checked: usize,
    /// Puzzles that could not be read.
    pub errors: usize,
    /// Puzzles whose answers disagree.
    pub disagreements: usize,
    /// Puzzles whose answers agree but settle nothing.
    pub undecided: usize,
}

/// The summary JSON line: `{"summary": {"puzzles", "errors", "disagreements", "undecided",
/// "backends": [...]}}`.
pub fn summary_json(tallies: &[Tally], counts: Counts) -> Value {
    let rows: Vec<Value> = tallies.iter().map(tally_json).collect();
    json!({"summary": {
        "puzzles": counts.checked, "errors": counts.errors,
        "disagreements": counts.disagreements, "undecided": counts.undecided,
        "backends": rows,
    }})
}

fn tally_json(tally: &Tally) -> Value {
    json!({
        "backend": tally.name,
        "agreed": tally.agreed,
        "disagreed": tally.disagreed,
        "unknown": tally.unknown,
        "skipped": tally.skipped,
        "mean_ms": millis(tally.mean()),
        "total_s": super::rounded(tally.time.as_secs_f64(), 6),
    })
}

/// The summary table: a blank line, the totals, and one row per participant.
pub fn summary_text(tallies: &[Tally], counts: Counts) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{} puzzles: {} agreed, {} with disagreements, {} undecided",
        counts.checked,
        counts.checked - counts.disagreements - counts.undecided,
        counts.disagreements,
        counts.undecided
    );
    let width = tallies
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let _ = writeln!(
        out,
        "{:<width$} {:>7} {:>9} {:>7} {:>7} {:>10} {:>10}",
        "backend", "agreed", "disagreed", "unknown", "skipped", "mean ms", "total s"
    );
    for t in tallies {
        let _ = writeln!(
            out,
            "{:<width$} {:>7} {:>9} {:>7} {:>7} {:>10.3} {:>10.2}",
            t.name,
            t.agreed,
            t.disagreed,
            t.unknown,
            t.skipped,
            t.mean().as_secs_f64() * 1e3,
            t.time.as_secs_f64()
        );
    }
    out
}
