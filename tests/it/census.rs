//! `sudokit count --box PxQ` / `--latin N` by symmetry: the methods agree with plain
//! enumerations where those finish, name themselves and their symmetries, keep their parts for
//! `--resume`, and stop at a time limit with a lower bound. The published figures (9×9, 2×4,
//! Latin orders 7 and 8) are the release suite (`census_release`, run by `.ci/run`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sudokit::census::{CensusOptions, Method, count_grids, methods_for};
use sudokit::solve::{Dlx, Native, count_parallel};
use sudokit::{Grid, Limits, Shape};

use sudokit::jobs::census_parts::census_line;

use crate::census_resume::forged;
use crate::common::{assert_no_panic, run, s, stderr, stdout, temp_file};

fn json(out: &std::process::Output) -> Value {
    serde_json::from_str(stdout(out).trim()).expect("one JSON object")
}

fn count_line(args: &[&str]) -> String {
    let out = run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out).trim().to_string()
}

#[test]
fn the_symmetry_count_and_the_enumeration_agree_from_the_command_line() {
    for shape in [
        &["--box", "2x2"][..],
        &["--latin", "--order", "4"],
        &["--latin", "--order", "5"],
        &["--box", "1x4"],
    ] {
        let symmetry = count_line(&[&["count"][..], shape].concat());
        for backend in ["native", "dlx"] {
            let enumerated = count_line(
                &[
                    &["count"][..],
                    shape,
                    &["--method", "enumerate", "--backend", backend],
                ]
                .concat(),
            );
            assert_eq!(symmetry, enumerated, "{shape:?} {backend}");
        }
    }
    // Every method of the 2×2 grid, and of the 6×6 in both orientations.
    for method in ["column-sets", "band-classes"] {
        assert_eq!(
            count_line(&["count", "--box", "2x2", "--method", method]),
            "288"
        );
        for shape in ["2x3", "3x2"] {
            assert_eq!(
                count_line(&["count", "--box", shape, "--method", method]),
                "28200960"
            );
        }
    }
}

#[test]
fn the_json_names_the_method_and_its_symmetries() {
    let out = run(&["count", "--box", "2x4", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    // Above 2^53: a string.
    assert_eq!(v["count"], "29136487207403520");
    assert_eq!(v["complete"], true);
    assert_eq!(v["method"], "column-sets");
    let symmetries: Vec<&str> = v["symmetries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(symmetries[0].starts_with("transposition"), "{symmetries:?}");
    assert!(symmetries.iter().any(|s| s.contains("value relabelling")));
    assert_eq!(v["facts"]["configurations"], 42_875);
    assert_eq!(v["parts"], v["parts_done"]);

    let v = json(&run(&["count", "--latin", "--order", "7", "--json"], b""));
    assert_eq!(v["count"], 61_479_419_904_000u64);
    assert_eq!(v["method"], "reduced-latin");
    assert_eq!(v["facts"]["reduced_squares"], 16_942_080);
    assert_eq!(v["facts"]["row_pair_classes"], 4);

    // An enumeration says so too.
    let v = json(&run(
        &["count", "--box", "2x2", "--method", "enumerate", "--json"],
        b"",
    ));
    assert_eq!(
        (v["count"].as_u64(), v["method"].as_str()),
        (Some(288), Some("enumerate"))
    );
}

#[test]
fn the_first_bands_add_up_whichever_method_counts_them() {
    // The band classes' sizes add up to the bands with the first box fixed; the column-set
    // classes weigh every first band once: n! times as many.
    let bands = json(&run(
        &[
            "count",
            "--box",
            "3x2",
            "--method",
            "band-classes",
            "--json",
        ],
        b"",
    ));
    let sets = json(&run(
        &["count", "--box", "3x2", "--method", "column-sets", "--json"],
        b"",
    ));
    let fixed = bands["facts"]["first_bands"].as_u64().unwrap();
    assert_eq!(fixed, 640);
    assert_eq!(sets["facts"]["first_bands"].as_u64(), Some(720 * fixed));
    assert_eq!(bands["count"], sets["count"]);
}

#[test]
fn minus_o_keeps_the_parts_and_resume_continues_them() {
    let dir = temp_file("census-keep", b"").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("latin6.txt");
    let partial = dir.join("latin6.txt.partial");
    let out = run(
        &["count", "--latin", "--order", "6", "-o", s(&out_file)],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "812851200\n");
    assert!(!partial.exists());

    // A partial file holding one part (counted as 0 here, to show it is kept).
    let parts = json(&run(&["count", "--latin", "--order", "6", "--json"], b""))["parts"]
        .as_u64()
        .unwrap() as usize;
    let census = census_line("6×6 Latin square", "reduced-latin", parts);
    forged(&out_file, Some(6), &census, &[(0, 0)], None);
    let out = run(
        &[
            "count",
            "--latin",
            "--order",
            "6",
            "-o",
            s(&out_file),
            "--resume",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(v["parts_resumed"], 1);
    assert!(v["count"].as_u64().unwrap() < 812_851_200);
    assert!(!partial.exists());

    // The parts of another count are refused: another order is another run.
    forged(&out_file, Some(6), &census, &[(0, 0)], None);
    let out = run(
        &[
            "count",
            "--latin",
            "--order",
            "5",
            "-o",
            s(&out_file),
            "--resume",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds the results of another run (order: 5 here, 6 in the file)"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_empty_grid_enumerated_into_a_file_is_one_record() {
    let dir = temp_file("census-enumerate", b"").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("four.txt");
    let args = [
        "count",
        "--box",
        "2x2",
        "--method",
        "enumerate",
        "-o",
        s(&file),
    ];
    let out = run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "288\n");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "partial files left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_limit_leaves_a_lower_bound() {
    let started = Instant::now();
    let out = run(
        &["count", "--latin", "--order", "9", "--time-limit", "0.5"],
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("at least "), "{}", stdout(&out));
    assert!(stdout(&out).trim_end().ends_with("(unknown: time limit)"));
    assert!(
        stderr(&out).contains("the count is a lower bound"),
        "{}",
        stderr(&out)
    );
    // A wide margin: the limit is honoured, not timed.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn bad_method_requests_are_refused() {
    for (args, message) in [
        (
            &[
                "count",
                "--latin",
                "--order",
                "5",
                "--method",
                "band-classes",
            ][..],
            "--method band-classes does not count the grids of 5×5 Latin square (reduced-latin does)",
        ),
        (
            &["count", "--box", "2x2", "--method", "rows"][..],
            "unknown counting method \"rows\"",
        ),
        (
            &[
                "count",
                "--box",
                "2x2",
                "--method",
                "column-sets",
                "--limit",
                "3",
            ][..],
            "--method column-sets counts whole classes: --limit, --node-limit and --backend go with --method enumerate",
        ),
        (
            &[
                "count",
                "--method",
                "column-sets",
                "models/sudoku/4x4/kr_4x4_sample.txt",
            ][..],
            "--method column-sets counts the empty grid: give --box PxQ or --latin --order N without FILE",
        ),
        (
            &["count", "--box", "4x4", "--method", "column-sets"][..],
            "--method column-sets does not count the grids of 16×16 (4×4 boxes)",
        ),
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    // No method reaches 4×4 boxes: auto enumerates them up to a limit, and refuses to without
    // one, a time limit or not (the enumeration could not finish).
    let out = run(
        &["count", "--box", "4x4", "--time-limit", "0.2", "--json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of reach"), "{}", stderr(&out));
    let out = run(&["count", "--box", "4x4", "--limit", "1000", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["method"], "enumerate");
    assert_eq!(json(&out)["hit_limit"], true);
}

/// Release suite: `cargo test --release --test it -- --ignored census_release`. The figures the
/// sources cite, by every method that reaches them, and the orders where an enumeration up to
/// relabelling still finishes.
#[test]
#[ignore = "release suite: the published counts (run by .ci/run)"]
fn census_release_counts_the_published_figures() {
    let count = |shape: Shape, method: Method| {
        let options = CensusOptions {
            method: Some(method),
            ..CensusOptions::default()
        };
        let report = count_grids(&shape, &options).unwrap();
        assert!(report.complete());
        report
    };
    // 9×9: Felgenhauer and Jarvis, cited by Simonis and by Takano et al.
    let nine = Shape::sudoku(3, 3).unwrap();
    let bands = count(nine, Method::BandClasses);
    assert_eq!(bands.count, 6_670_903_752_021_072_936_960);
    assert_eq!(bands.fact("first_bands"), Some(2_612_736));
    assert_eq!(bands.fact("band_classes"), Some(416));
    assert_eq!(bands.fact("column_set_classes"), Some(44));
    let sets = count(nine, Method::ColumnSets);
    assert_eq!(sets.count, bands.count);
    assert_eq!(sets.fact("configuration_classes"), Some(44));
    assert_eq!(sets.fact("first_bands"), Some(362_880 * 2_612_736));
    // 2×4 boxes, both orientations, both methods.
    for shape in [Shape::sudoku(2, 4).unwrap(), Shape::sudoku(4, 2).unwrap()] {
        for method in methods_for(&shape) {
            assert_eq!(
                count(shape, method).count,
                29_136_487_207_403_520,
                "{shape} {method}"
            );
        }
    }
    // Latin squares of orders 7 and 8 (McKay and Wanless), and 16 942 080 reduced of order 7.
    let seven = count(Shape::latin(7).unwrap(), Method::ReducedLatin);
    assert_eq!(seven.count, 61_479_419_904_000);
    assert_eq!(seven.fact("reduced_squares"), Some(16_942_080));
    let eight = count(Shape::latin(8).unwrap(), Method::ReducedLatin);
    assert_eq!(eight.count, 108_776_032_459_082_956_800);
    assert_eq!(eight.fact("reduced_squares"), Some(535_281_401_856));
    // Where an enumeration finishes, it agrees: the 6×6 grids and the Latin squares of order
    // 6, enumerated by dlx and native up to relabelling (6! times the completions of a fixed
    // first row; `dlx_colour_release` enumerates every 6×6 grid plainly).
    for shape in [Shape::sudoku(2, 3).unwrap(), Shape::latin(6).unwrap()] {
        let empty = Grid::empty(shape);
        for solver in [&Dlx as &dyn sudokit::solve::Solver, &Native] {
            let enumerated = count_parallel(solver, &empty, u64::MAX, &Limits::none(), 64).unwrap();
            assert!(enumerated.complete());
            for method in methods_for(&shape) {
                assert_eq!(
                    count(shape, method).count,
                    u128::from(enumerated.count),
                    "{shape}"
                );
            }
        }
    }
}
