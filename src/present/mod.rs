//! How results look, for every front end: a grid as a text record or inside JSON, the work
//! counters as JSON, times without float noise, the in-place report of a bad puzzle, and the
//! per-puzzle lines and per-file summaries of `solve`, `grade`, `crosscheck` and `generate`.
//!
//! The command line writes its batch output with these functions, and so do the Python package
//! and its Dask runner: a batch run anywhere prints the same lines, byte for byte. A front end
//! names its input file as the user gave it (`file`, the text of the path).
//!
//! # Examples
//! ```
//! use sudokit::present::{grid_record, read_error_line};
//! use sudokit::text::{PuzzleReader, ReadOptions};
//! let mut read = PuzzleReader::new(&b"1.3.....4....2..\n12\n"[..], ReadOptions::default());
//! let puzzle = read.next().unwrap().unwrap();
//! assert_eq!(grid_record(&puzzle.grid), "1.3.....4....2..\n");
//! let error = read.next().unwrap().unwrap_err();
//! assert!(read_error_line(false, "in.txt", &error).starts_with("error: in.txt:2:3: the line has 2"));
//! ```

pub mod count;
pub mod crosscheck;
pub mod decode;
pub mod generate;
pub mod grade;
pub mod solve;

use std::time::Duration;

use serde_json::{Value, json};

use crate::grid::Grid;
use crate::search::{Refutation, Stats};
use crate::text::{TextError, to_line, to_text};

/// A grid as written in a result: its puzzle line and a newline, or (above order 35) its grid
/// block followed by a blank line.
pub fn grid_record(grid: &Grid) -> String {
    match to_line(grid) {
        Some(line) => line + "\n",
        None => to_text(grid) + "\n",
    }
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
        "propagations": stats.propagations,
        "elapsed_us": micros(stats.elapsed),
    })
}

/// The JSON object of how a refutation is known: `{"kind": "search"}`, `{"kind": "proof",
/// "by": "cadical", "format": "drat", "checker": ...}` or `{"kind": "claim", "by": "minisat",
/// "reason": ...}`.
pub fn refutation_json(refutation: &Refutation) -> Value {
    match refutation {
        Refutation::Propagation | Refutation::Search => json!({"kind": refutation.kind()}),
        Refutation::Proof {
            by,
            format,
            checker,
        } => json!({"kind": "proof", "by": by, "format": format, "checker": checker}),
        Refutation::Claim { by, reason } => json!({"kind": "claim", "by": by, "reason": reason}),
    }
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

/// The text users see for a bad puzzle: `FILE:LINE:COLUMN: message`.
pub fn located(file: &str, error: &TextError) -> String {
    format!("{file}:{}:{}: {}", error.line, error.column, error.kind)
}

/// The JSON object of a bad puzzle.
pub fn read_error_json(file: &str, error: &TextError) -> Value {
    json!({
        "file": file,
        "line": error.line,
        "column": error.column,
        "status": "error",
        "error": error.kind.to_string(),
    })
}

/// The in-place report of a puzzle that could not be read: `error: FILE:LINE:COLUMN: message`,
/// or its JSON object, as one line.
pub fn read_error_line(json: bool, file: &str, error: &TextError) -> String {
    if json {
        json_line(&read_error_json(file, error))
    } else {
        format!("error: {}\n", located(file, error))
    }
}

/// The in-place report of a puzzle that was read but could not be handled (a backend that
/// cannot take it): `error: FILE:LINE:1: message`, or its JSON object, as one line.
pub fn failure_line(json: bool, file: &str, line: usize, error: &dyn std::fmt::Display) -> String {
    let message = format!("{file}:{line}:1: {error}");
    if json {
        json_line(&json!({"line": line, "status": "error", "error": message}))
    } else {
        format!("error: {message}\n")
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
    }

    #[test]
    fn bad_puzzles_are_reported_with_their_place() {
        let error = TextError::new(3, 5, crate::text::TextErrorKind::NotUtf8);
        assert_eq!(
            read_error_line(true, "a.txt", &error),
            "{\"column\":5,\"error\":\"the line is not valid UTF-8\",\"file\":\"a.txt\",\"line\":3,\"status\":\"error\"}\n"
        );
        assert_eq!(
            failure_line(false, "a.txt", 3, &"too large"),
            "error: a.txt:3:1: too large\n"
        );
    }
}
