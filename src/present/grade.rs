//! The JSON of `grade`: one object per puzzle (search-free schemes, weakest, candidates left per
//! scheme, and with search times the runtime per scheme), then one summary object per file
//! (percent search-free per scheme, givens, the lattice, and the runtime table).

use serde_json::{Map, Value, json};

use super::millis;
use crate::grade::{Grade, Spread, Summary, Verdict};
use crate::propagate::Scheme;
use crate::search::{CountReport, StopReason};

/// The JSON object of one puzzle: `file`, `line`, the grade (`cells` is n², the candidates
/// left when search-free), and with `runs` (one search per scheme, in the order of `schemes`)
/// a `runtime` object.
pub fn puzzle_json(
    file: &str,
    line: usize,
    cells: usize,
    grade: &Grade,
    schemes: &[Scheme],
    runs: &[CountReport],
) -> Value {
    let names = |v: Vec<Scheme>| v.iter().map(|s| s.name()).collect::<Vec<_>>();
    let mut candidates = Map::new();
    for &(s, v) in &grade.verdicts {
        let left = match v {
            Verdict::SearchFree => json!(cells),
            Verdict::Open { candidates } => json!(candidates),
            Verdict::Refuted => Value::Null,
        };
        candidates.insert(s.name().to_string(), left);
    }
    let mut value = json!({
        "file": file,
        "line": line,
        "givens": grade.givens,
        "search_free": names(grade.search_free()),
        "weakest": names(grade.weakest()),
        "refuted": grade.refuted(),
        "candidates": candidates,
    });
    if !runs.is_empty() {
        let mut runtime = Map::new();
        for (s, run) in schemes.iter().zip(runs) {
            runtime.insert(
                s.name().to_string(),
                json!({
                    "ms": millis(run.stats.elapsed),
                    "nodes": run.stats.nodes,
                    "backtracks": run.stats.backtracks,
                    "propagations": run.stats.propagations,
                    "solutions": run.count,
                    "complete": run.stopped.is_none(),
                    "stopped": run.stopped.map(stop_name),
                }),
            );
        }
        value["runtime"] = Value::Object(runtime);
    }
    value
}

/// The word of a stop reason in JSON: `time`, `nodes`, `cancelled`.
pub fn stop_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::TimeLimit => "time",
        StopReason::NodeLimit => "nodes",
        StopReason::Cancelled => "cancelled",
    }
}

/// The summary object of a file: its `summary`, the `lattice` edges with the puzzles that
/// separate their two ends (as [`crate::grade::differences`] counts them), and with `runs`
/// (per scheme, the searches of every puzzle) the runtime table.
pub fn summary_json(
    file: &str,
    summary: &Summary,
    lattice: &[(Scheme, Scheme, usize)],
    runs: &[Vec<CountReport>],
) -> Value {
    let mut search_free = Map::new();
    for (i, s) in summary.schemes.iter().enumerate() {
        search_free.insert(s.name().to_string(), json!(summary.percent(i)));
    }
    let lattice: Vec<Value> = lattice
        .iter()
        .map(|(a, b, count)| json!({"weaker": a.name(), "stronger": b.name(), "differ": count}))
        .collect();
    let mut value = json!({
        "file": file,
        "puzzles": summary.puzzles,
        "givens": {
            "min": if summary.puzzles > 0 { summary.givens_min } else { 0 },
            "avg": super::rounded(summary.givens_avg(), 2),
            "max": summary.givens_max,
        },
        "search_free": search_free,
        "lattice": lattice,
    });
    if runs.iter().any(|r| !r.is_empty()) {
        let mut table = Map::new();
        for (s, sample) in summary.schemes.iter().zip(runs) {
            let (ms, nodes) = samples(sample);
            let spread = |x: Option<Spread>| {
                x.map(|x| {
                    json!({
                        "min": super::rounded(x.min, 3),
                        "avg": super::rounded(x.avg, 3),
                        "median": super::rounded(x.median, 3),
                        "max": super::rounded(x.max, 3),
                    })
                })
            };
            table.insert(
                s.name().to_string(),
                json!({
                    "ms": spread(Spread::of(&ms)),
                    "nodes": spread(Spread::of(&nodes)),
                    "unknown": sample.iter().filter(|r| r.stopped.is_some()).count(),
                }),
            );
        }
        value["runtime"] = Value::Object(table);
    }
    value
}

/// Milliseconds and nodes of a sample of searches.
pub fn samples(runs: &[CountReport]) -> (Vec<f64>, Vec<f64>) {
    (
        runs.iter()
            .map(|r| r.stats.elapsed.as_secs_f64() * 1e3)
            .collect(),
        runs.iter().map(|r| r.stats.nodes as f64).collect(),
    )
}
