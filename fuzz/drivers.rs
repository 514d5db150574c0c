//! What each fuzz target does with its input: one function per reader, shared by the libFuzzer
//! targets (`fuzz/fuzz_targets/*.rs`) and by the stable corpus replay (`tests/it/fuzz_corpus.rs`),
//! so `cargo test` runs every stored input through exactly the code the fuzzer exercised.
//!
//! Each driver feeds arbitrary bytes to a reader and checks what must hold for any input: no
//! panic (the harness reports it), no allocation out of proportion to the input (libFuzzer's
//! `-malloc_limit_mb`), and for puzzles read, a round trip through every written form. Answers
//! are decoded against a puzzle and checked by the certificate verifier, as `decode` does. Errors are fine: they are the reader's answer to bad input,
//! and their text (which users see) is rendered too.

#![allow(dead_code)]

use sudokit::Grid;
use sudokit::encode::cnf::Encoding;
use sudokit::encode::ilp::{self, IlpStatus};
use sudokit::format::dimacs::{self, AnswerFormat, DimacsAnswer};
use sudokit::format::{col, dlx1, hgr, mip_answer};
use sudokit::text::{self, PuzzleReader, ReadOptions, ShapeSpec, TextLayout};

/// A driver: feeds one input to one reader.
pub type Driver = fn(&[u8]);

/// Every fuzz target by name, with its driver.
pub const TARGETS: &[(&str, Driver)] = &[
    ("puzzle_line", puzzle_line),
    ("grid_block", grid_block),
    ("json_puzzle", json_puzzle),
    ("latin_partial", latin_partial),
    ("dimacs_cnf", dimacs_cnf),
    ("sat_answer", sat_answer),
    ("minisat_answer", minisat_answer),
    ("glpsol_solution", glpsol_solution),
    ("cbc_solution", cbc_solution),
    ("exact_cover", exact_cover),
    ("graph_col", graph_col),
    ("hypergraph", hypergraph),
];

/// The puzzle the answer readers decode against: a 4×4 with a unique solution.
const PUZZLE: &str = "1.3.....4....2..";

/// A shape override chosen by the first byte, so the fuzzer explores `--box` and `--latin` too.
fn spec_of(data: &[u8]) -> (Option<ShapeSpec>, &[u8]) {
    match data.split_first() {
        None => (None, data),
        Some((&b, rest)) => match b % 4 {
            0 => (None, rest),
            1 => (Some(ShapeSpec::Latin), rest),
            2 => (
                Some(ShapeSpec::Box(
                    1 + (b as usize >> 2) % 8,
                    1 + (b as usize >> 5),
                )),
                rest,
            ),
            _ => (None, data),
        },
    }
}

/// The largest order whose grids are written back and re-read: a few bytes of JSON can declare a
/// 1024×1024 square (a legitimate 1 MiB grid), and writing and re-reading a million cells on every
/// such input would cut the executions per second a hundredfold without testing more code.
const ROUND_TRIP_MAX_ORDER: usize = 64;

/// A grid that was read writes back to text that reads as the same grid.
fn round_trip(grid: &Grid) {
    let shape = grid.shape();
    if shape.order() > ROUND_TRIP_MAX_ORDER {
        return;
    }
    let spec = if shape.is_latin() {
        Some(ShapeSpec::Latin)
    } else {
        Some(ShapeSpec::Box(shape.box_rows(), shape.box_cols()))
    };
    let written = text::to_text(grid);
    let options = ReadOptions {
        format: TextLayout::Auto,
        shape: spec,
        reject_clashes: false,
        defer_line_clashes: false,
    };
    let back: Vec<_> = PuzzleReader::new(written.as_bytes(), options).collect();
    assert_eq!(back.len(), 1, "one puzzle written, one read back");
    let back = back
        .into_iter()
        .next()
        .unwrap()
        .expect("written text reads back");
    assert_eq!(&back.grid, grid, "round trip changed the grid");
    let json = text::to_json(grid).to_string();
    let again = text::parse_json(&json, None).expect("written JSON reads back");
    assert_eq!(&again, grid, "JSON round trip changed the grid");
}

/// Reads every puzzle of `data` with `options`; every grid read must round-trip. Read again
/// with the clash check of puzzle lines left to the caller, every item must be the same: the
/// same puzzle, or the same error (from `ReadPuzzle::deferred_clash` for a deferred clash).
fn read_all(data: &[u8], options: ReadOptions) {
    let deferring = ReadOptions {
        defer_line_clashes: true,
        ..options
    };
    let mut deferred = PuzzleReader::new(data, deferring);
    for item in PuzzleReader::new(data, options) {
        let again = deferred.next().expect("as many items when deferring");
        let again = match again {
            Ok(puzzle) => match puzzle.deferred_clash() {
                Some(error) => Err(error),
                None => Ok(puzzle.grid),
            },
            Err(error) => Err(error),
        };
        assert_eq!(
            item.as_ref().map(|r| &r.grid),
            again.as_ref(),
            "deferring changed an item"
        );
        match item {
            Ok(record) => round_trip(&record.grid),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    assert!(deferred.next().is_none(), "as many items when deferring");
}

/// One puzzle line (`parse_line`), with a shape override from the first byte.
pub fn puzzle_line(data: &[u8]) {
    let (spec, rest) = spec_of(data);
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    match text::parse_line(line, spec) {
        Ok(grid) => round_trip(&grid),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Grid blocks (`PuzzleReader` with `TextLayout::Block`).
pub fn grid_block(data: &[u8]) {
    let (shape, rest) = spec_of(data);
    read_all(
        rest,
        ReadOptions {
            format: TextLayout::Block,
            shape,
            reject_clashes: true,
            defer_line_clashes: false,
        },
    );
}

/// One JSON puzzle object (`parse_json`), then the same bytes as a JSON-lines file.
pub fn json_puzzle(data: &[u8]) {
    let (spec, rest) = spec_of(data);
    if let Ok(line) = std::str::from_utf8(rest) {
        match text::parse_json(line, spec) {
            Ok(grid) => round_trip(&grid),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    read_all(
        rest,
        ReadOptions {
            format: TextLayout::Json,
            shape: spec,
            reject_clashes: true,
            defer_line_clashes: false,
        },
    );
}

/// Partial Latin squares (`--latin`, any form detected from the input).
pub fn latin_partial(data: &[u8]) {
    read_all(
        data,
        ReadOptions {
            format: TextLayout::Auto,
            shape: Some(ShapeSpec::Latin),
            reject_clashes: data.first().is_some_and(|b| b % 2 == 0),
            defer_line_clashes: false,
        },
    );
}

/// A DIMACS CNF file (`read_cnf`).
pub fn dimacs_cnf(data: &[u8]) {
    match dimacs::read_cnf(data) {
        Ok(cnf) => {
            let _ = cnf.len();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A SAT answer mapped back to the puzzle and checked, as `decode` does.
fn decode_sat(answer: DimacsAnswer) {
    let DimacsAnswer::Sat(model) = answer else {
        return;
    };
    let puzzle = text::parse_line(PUZZLE, None).unwrap();
    for encoding in Encoding::ALL {
        let map = dimacs::var_map(&puzzle, encoding);
        // A decoded grid need not be a solution (`decode` reports that); it must not panic.
        if let Ok(grid) = map.decode(&puzzle, &model) {
            let _ = sudokit::verify(&puzzle, &grid);
        }
    }
}

/// SAT-competition answers (`read_answer` and `read_all_answers`).
pub fn sat_answer(data: &[u8]) {
    match dimacs::read_answer(data, AnswerFormat::Competition) {
        Ok(answer) => decode_sat(answer),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match dimacs::read_all_answers(data) {
        Ok(answers) => answers.into_iter().for_each(decode_sat),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// minisat result files.
pub fn minisat_answer(data: &[u8]) {
    match dimacs::read_answer(data, AnswerFormat::Minisat) {
        Ok(answer) => decode_sat(answer),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A MIP solution mapped back to the puzzle and checked, as `decode` does.
fn decode_mip(read: Result<ilp::IlpSolution, mip_answer::MipAnswerError>) {
    match read {
        Ok(solution) => {
            if solution.status == IlpStatus::Optimal {
                let puzzle = text::parse_line(PUZZLE, None).unwrap();
                if let Ok(grid) = ilp::decode(&puzzle, &solution) {
                    let _ = sudokit::verify(&puzzle, &grid);
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// glpsol's printable solution report (`read_glpsol`).
pub fn glpsol_solution(data: &[u8]) {
    decode_mip(mip_answer::read_glpsol(data));
}

/// cbc's solution file (`read_cbc`).
pub fn cbc_solution(data: &[u8]) {
    decode_mip(mip_answer::read_cbc(data));
}

/// The exact-cover problem file (`read_dlx`).
pub fn exact_cover(data: &[u8]) {
    if let Err(e) = dlx1::read_dlx(data) {
        let _ = e.to_string();
    }
}

/// DIMACS graph colouring files (`read_col`).
pub fn graph_col(data: &[u8]) {
    if let Err(e) = col::read_col(data) {
        let _ = e.to_string();
    }
}

/// hMETIS hypergraphs (`read_hgr`).
pub fn hypergraph(data: &[u8]) {
    if let Err(e) = hgr::read_hgr(data) {
        let _ = e.to_string();
    }
}
