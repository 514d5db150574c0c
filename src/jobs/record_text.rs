//! How records are written as text: the pieces every record is written with, a grid as a text
//! record or inside JSON, the work counters as JSON, times without float noise. The command
//! line, the Python package and its Dask runner write every record with these (through the
//! jobs), so a record reads the same, byte for byte, from every front end.
//!
//! # Examples
//! ```
//! use sudokit::jobs::record_text::{grid_record, micros};
//! let grid: sudokit::Grid = "1.3.....4....2..".parse().unwrap();
//! assert_eq!(grid_record(&grid), "1.3.....4....2..\n");
//! assert_eq!(micros(std::time::Duration::from_nanos(51_647)), 51.647);
//! ```

use std::time::Duration;

use serde_json::{Value, json};

use crate::grid::Grid;
use crate::search::{Refutation, Stats, StopReason};
use crate::text::{push_line, to_text};

/// A grid as written in a record: its puzzle line and a newline, or (above order 35) its grid
/// block followed by a blank line.
pub fn grid_record(grid: &Grid) -> String {
    let mut record = String::with_capacity(grid.raw().len() + 1);
    push_grid_record(grid, &mut record);
    record
}

/// Appends [`grid_record`] to `out` (a buffer a writer reuses).
pub fn push_grid_record(grid: &Grid, out: &mut String) {
    if !push_line(grid, out) {
        out.push_str(&to_text(grid));
    }
    out.push('\n');
}

/// A grid inside JSON: the puzzle line, or the grid block.
pub fn grid_json(grid: &Grid) -> Value {
    Value::String(to_text(grid))
}

/// One JSON line.
pub fn json_line(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// A duration in microseconds, to the nanosecond (`51.647`, not `51.647000000000006`).
pub fn micros(duration: Duration) -> f64 {
    duration.as_nanos() as f64 / 1e3
}

/// A duration in milliseconds, to the microsecond.
pub fn millis(duration: Duration) -> f64 {
    duration.as_micros() as f64 / 1e3
}

/// `x` rounded to `places` decimals, for JSON (`0.023982`, not `0.023982399999999997`).
pub fn rounded(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// The JSON object of the counters.
pub fn stats_json(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "guesses": stats.guesses,
        "backtracks": stats.backtracks,
        "propagations": stats.propagations,
        "elapsed_us": micros(stats.elapsed),
    })
}

/// The JSON object of how a refutation is known: `{"kind": "search"}`, `{"kind": "proof",
/// "by": "cadical", "format": "drat", "checker": ...}` or `{"kind": "claim", "by": "minisat",
/// "reason": ...}`, each with its `"text"` in words (`exhausted search`, ...).
pub fn refutation_json(refutation: &Refutation) -> Value {
    let mut value = match refutation {
        Refutation::Propagation | Refutation::Search => json!({"kind": refutation.kind()}),
        Refutation::Proof {
            by,
            format,
            checker,
        } => json!({"kind": "proof", "by": by, "format": format, "checker": checker}),
        Refutation::Claim { by, reason } => json!({"kind": "claim", "by": by, "reason": reason}),
    };
    value["text"] = refutation.to_string().into();
    value
}

/// Sets `"certified"` and `"refutation"` on a JSON result that rests on a refutation (`unsat`,
/// `unique`, an exact count).
pub fn add_refutation(value: &mut Value, refutation: &Refutation) {
    value["certified"] = refutation.is_certified().into();
    value["refutation"] = refutation_json(refutation);
}

/// A text record with a note after it: at the end of its line when it is one line, else on a
/// line of its own after the grid block (which keeps its blank line).
pub fn with_note(text: &str, note: &str) -> String {
    match text.strip_suffix('\n') {
        Some(line) if !line.contains('\n') => format!("{line} {note}\n"),
        _ => format!("{}\n{note}\n\n", text.trim_end_matches('\n')),
    }
}

/// The word of a stop reason in JSON: `time`, `nodes`, `cancelled`.
pub fn stop_word(stop: StopReason) -> &'static str {
    match stop {
        StopReason::TimeLimit => "time",
        StopReason::NodeLimit => "nodes",
        StopReason::Cancelled => "cancelled",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_carry_no_float_noise() {
        let d = Duration::from_nanos(51_647);
        assert_eq!(json!(micros(d)).to_string(), "51.647");
        assert_eq!(
            json!(millis(Duration::from_micros(1_234))).to_string(),
            "1.234"
        );
        assert_eq!(rounded(0.023_982_399_999_999_997, 6), 0.023_982);
    }
}
