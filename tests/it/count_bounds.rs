//! How `sudokit count` of an empty grid ends: an exact count, the limit given (`(limit)`, exit
//! 0), a lower bound with the reason a budget or a stop gives (exit 1), or a refusal before any
//! search for the shapes whose enumeration could not finish (exit 2). No count is clamped at
//! 64 bits: the empty grid's is `n!` times the completions of its first row.

use serde_json::Value;

use crate::common::{assert_no_panic, run, stderr, stdout};

/// The empty grids no symmetry method reaches, which printed
/// `at least 18446744073709551615 (limit)` (exit 0) without any `--limit`.
const OUT_OF_REACH: [&[&str]; 6] = [
    &["--box", "4x4"],
    &["--latin", "--order", "17"],
    &["--latin", "--order", "18"],
    &["--latin", "--order", "19"],
    &["--latin", "--order", "20"],
    &["--box", "4x5"],
];

#[test]
fn the_empty_grids_no_method_reaches_are_refused_before_any_search() {
    for shape in OUT_OF_REACH {
        for extra in [
            &[][..],
            &["--time-limit", "30"],
            &["--json"],
            &["--node-limit", "1000"],
        ] {
            let args = [&["count"][..], shape, extra].concat();
            let out = run(&args, b"");
            assert_no_panic(&out);
            let error = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {error}");
            assert_eq!(stdout(&out), "", "{args:?}");
            assert!(!error.contains("(limit)"), "{args:?}: {error}");
            for words in [
                "out of reach",
                "the grids number more than 10^",
                "--limit N",
            ] {
                assert!(error.contains(words), "{args:?}: {error}");
            }
        }
    }
    // The figures: 16×16 grids of 4×4 boxes number more than 10^55 (about 6·10^98 by
    // estimate), the Latin squares of order 17 more than 10^139.
    let sixteen = stderr(&run(&["count", "--box", "4x4"], b""));
    assert!(sixteen.contains("more than 10^55,"), "{sixteen}");
    assert!(
        sixteen.contains("no symmetry method counts it"),
        "{sixteen}"
    );
    let seventeen = stderr(&run(&["count", "--latin", "--order", "17"], b""));
    assert!(seventeen.contains("more than 10^139,"), "{seventeen}");
}

#[test]
fn an_enumeration_a_method_would_do_better_is_refused_with_the_method_named() {
    let out = run(
        &[
            "count",
            "--latin",
            "--order",
            "9",
            "--method",
            "enumerate",
            "--time-limit",
            "30",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("count it by symmetry (--method auto)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_limit_given_is_the_only_limit_and_counts_past_64_bits_are_not_clamped() {
    // 16! · 3 completions of the first row reach 5·10^13.
    let out = run(&["count", "--box", "4x4", "--limit", "50000000000000"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "at least 50000000000000 (limit)\n");
    // The largest limit: 8 completions of order 20 are 8 · 20! ≈ 1.9·10^19 ≥ 2^64 − 1.
    let max = u64::MAX.to_string();
    let out = run(
        &[
            "count", "--latin", "--order", "20", "--limit", &max, "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (&json["hit_limit"], &json["count"], &json["complete"]),
        (&Value::Bool(true), &Value::from(max), &Value::Bool(false))
    );
    // A puzzle file's empty grid is refused the same without a limit, counted with one.
    let empty = format!("{}\n", ".".repeat(256));
    let out = run(&["count", "--box", "4x4", "-"], empty.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).contains("out of reach"), "{}", stdout(&out));
    let out = run(
        &["count", "--box", "4x4", "--limit", "5", "-"],
        empty.as_bytes(),
    );
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(0), "at least 5 (limit)\n".to_string())
    );
}

#[test]
fn a_count_a_budget_stops_is_a_lower_bound_with_its_reason_and_exit_1() {
    // The 9×9 enumeration (1.8·10^16 completions of the first row) cannot end in a second.
    let out = run(
        &[
            "count",
            "--box",
            "3x3",
            "--method",
            "enumerate",
            "--time-limit",
            "1",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["hit_limit"], false);
    assert_eq!(json["complete"], false);
    assert_eq!(json["stopped"], "time limit");
    // A multiple of 9!: the completions of the first row, relabelled.
    let count = sudokit::census::count_from_json(&json["count"]).unwrap();
    assert_eq!(count % 362_880, 0, "{count}");
    // The same in words, and for a symmetry count stopped (the Latin squares of order 9 take
    // months).
    for args in [
        &[
            "count",
            "--box",
            "3x3",
            "--method",
            "enumerate",
            "--time-limit",
            "1",
        ][..],
        &["count", "--latin", "--order", "9", "--time-limit", "1"],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let line = stdout(&out);
        assert!(
            line.starts_with("at least ") && line.ends_with(" (unknown: time limit)\n"),
            "{args:?}: {line}"
        );
    }
}
