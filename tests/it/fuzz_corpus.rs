//! The fuzz corpora, replayed on the stable toolchain: every stored input of every target in
//! `fuzz/corpus/<target>/` goes through the same driver the libFuzzer target runs
//! (`fuzz/drivers.rs`), so `cargo test` catches a reader regression without cargo-fuzz. The
//! crashing inputs the fuzzers found are kept below as named regression tests.

#[path = "../../fuzz/drivers.rs"]
mod drivers;

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common::repo;

#[test]
fn every_target_has_a_stored_corpus_and_replays_it_without_a_panic() {
    let mut failures = Vec::new();
    for (name, driver) in drivers::TARGETS {
        let dir = repo().join("fuzz/corpus").join(name);
        let entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("corpus entry").path())
            .collect();
        assert!(!entries.is_empty(), "{} holds no input", dir.display());
        assert!(
            entries.len() <= 1000,
            "{}: {} files; minimize it with -merge=1",
            dir.display(),
            entries.len()
        );
        for path in entries {
            let data = std::fs::read(&path).expect("corpus file");
            if catch_unwind(AssertUnwindSafe(|| driver(&data))).is_err() {
                failures.push(path.display().to_string());
            }
        }
    }
    assert!(failures.is_empty(), "inputs that panic: {failures:?}");
}

/// Found while writing the `json_puzzle` driver (then confirmed on the command line): `"box"`
/// sides whose product overflows made the puzzle-line length check multiply out of range (a panic
/// in debug builds, a wrong message in release).
#[test]
fn json_box_sides_whose_product_overflows() {
    drivers::json_puzzle(b"\0{\"box\":[4294967296,4294967296],\"grid\":\"12\"}");
    let e = sudokit::text::parse_json(r#"{"box":[4294967296,4294967296],"grid":"12"}"#, None)
        .unwrap_err();
    assert!(e.to_string().contains("the line has 2 symbols"), "{e}");
}

/// Found by the `glpsol_solution` target: a row of the column table holding one token indexed
/// past its fields (a panic); it is now a "column line without its value" error with its place.
#[test]
fn glpsol_column_row_with_one_token() {
    let report = b"Status:     INTEGER OPTIMAL\n\n   No. Column name       Activity\n------ ------------ -------------\n     1\n";
    drivers::glpsol_solution(report);
    let e = sudokit::format::mip_answer::read_glpsol(&report[..]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 5, column 7: a column line without its value"
    );
}
