//! The result of `count` for one puzzle (or an empty grid): its line (`N`, `at least N (limit)`,
//! `at least N (unknown: time limit)`, or `N (claimed by NAME, not checked)` for an exact count
//! that rests on another program's unchecked claim) or its JSON line.

use serde_json::json;

use super::{add_refutation, json_line, stats_json};
use crate::search::CountReport;

/// The text of a count, and whether it is the answer asked for: exact and certified, or
/// stopped by the count limit. A count a budget stopped is a lower bound, and an exact count
/// that rests on a claim nothing checked is a claim: neither is.
pub fn record(report: &CountReport, line: Option<usize>, json: bool) -> (String, bool) {
    let stopped_by_budget = !report.hit_limit && report.stopped.is_some();
    let answered = !stopped_by_budget && !report.rests_on_claim();
    if json {
        let mut value = json!({
            "line": line,
            "count": report.count,
            "complete": report.complete(),
            "hit_limit": report.hit_limit,
            "stopped": report.stopped.map(|r| r.to_string()),
            "stats": stats_json(&report.stats),
        });
        if report.complete() {
            add_refutation(&mut value, &report.refutation);
        }
        return (json_line(&value), answered);
    }
    let text = match (report.hit_limit, report.stopped) {
        (true, _) => format!("at least {} (limit)\n", report.count),
        (false, Some(reason)) => format!("at least {} (unknown: {reason})\n", report.count),
        (false, None) => match report.refutation.note() {
            Some(note) if report.rests_on_claim() => format!("{} {note}\n", report.count),
            _ => format!("{}\n", report.count),
        },
    };
    (text, answered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Refutation, StopReason};

    #[test]
    fn counts_bounds_and_claims() {
        let exact = CountReport {
            count: 2,
            ..CountReport::default()
        };
        assert_eq!(record(&exact, None, false), ("2\n".into(), true));
        let stopped = CountReport {
            count: 1,
            stopped: Some(StopReason::TimeLimit),
            ..CountReport::default()
        };
        assert_eq!(
            record(&stopped, None, false),
            ("at least 1 (unknown: time limit)\n".into(), false)
        );
        let claimed = CountReport {
            refutation: Refutation::Claim {
                by: "minisat".into(),
                reason: "no proof".into(),
            },
            ..CountReport::default()
        };
        assert_eq!(
            record(&claimed, Some(3), false),
            ("0 (claimed by minisat, not checked)\n".into(), false)
        );
        let (text, answered) = record(&claimed, Some(3), true);
        assert!(!answered);
        assert!(text.contains("\"certified\":false"), "{text}");
    }
}
