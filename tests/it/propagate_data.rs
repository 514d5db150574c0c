//! The lattice and soundness of the schemes on samples of the public collections (`models/`;
//! release mode: `cargo test --release -- --ignored propagate_data`). Each puzzle's unique
//! solution is found by search (and verified); every scheme's fixpoint must keep it, and a
//! stronger scheme must keep no candidate a weaker one removes. The grades of the data set
//! `top100.txt` (whole, in `models/`) are compared with those of an independent implementation
//! of Simonis' model.

use sudokit::grade::{Grader, Summary};
use sudokit::propagate::{Domains, Propagator, Scheme, count_with_scheme};
use sudokit::search::Limits;
use sudokit::text::parse_line;

use crate::common::path;

/// Checks every puzzle of `models/sudoku/9x9/NAME`.
fn check_file(name: &str) {
    let text = std::fs::read_to_string(path(&format!("models/sudoku/9x9/{name}"))).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let puzzle = parse_line(line, None).unwrap();
        let solution = count_with_scheme(&puzzle, Scheme::HACS, 2, &Limits::none()).unwrap();
        assert_eq!(solution.count, 1, "{name}: {line} is well posed");
        let solution = &solution.solutions[0];
        let mut engine = Propagator::new(puzzle.shape());
        let fixpoints: Vec<Domains> = Scheme::EVERY
            .iter()
            .map(|&s| {
                let mut d = Domains::from_puzzle(&puzzle);
                engine
                    .propagate(&mut d, s)
                    .expect("a solvable puzzle is not refuted");
                for (cell, v) in solution.givens() {
                    assert!(d.contains(cell, v), "{s} removed a solution value: {line}");
                }
                d
            })
            .collect();
        for (i, a) in Scheme::EVERY.iter().enumerate() {
            for (j, b) in Scheme::EVERY.iter().enumerate() {
                if i != j && a.weaker_than(*b) {
                    assert!(
                        fixpoints[j].is_subset_of(&fixpoints[i]),
                        "{b} keeps a candidate {a} removes: {line}"
                    );
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
#[ignore = "samples of the collections, release mode"]
fn propagate_data_lattice_and_soundness_on_top1465() {
    check_file("top1465_sample.txt");
}

#[test]
#[ignore = "samples of the collections, release mode"]
fn propagate_data_lattice_and_soundness_on_royle17() {
    check_file("royle17_sample.txt");
}

#[test]
#[ignore = "samples of the collections, release mode"]
fn propagate_data_lattice_and_soundness_on_the_forum_hardest() {
    check_file("forum_hardest_1106_sample.txt");
    check_file("forum_hardest_11plus_sample.txt");
}

#[test]
#[ignore = "samples of the collections, release mode"]
fn propagate_data_grades_top100_as_the_papers_model() {
    // Puzzles search-free per scheme (of 100), in the order of Scheme::EVERY, as an independent
    // implementation of the paper's model (ECLiPSe's ic_global alldifferent for BC, the dual
    // variables' alldifferent for BCI, one shaving pass for V) grades them; the + schemes shave
    // to the fixpoint.
    let expected = [
        0, 0, 2, 5, 5, 14, 10, 14, 14, 14, 14, 14, 4, 93, 100, 18, 99, 100,
    ];
    let text = std::fs::read_to_string(path("models/sudoku/9x9/top100.txt")).unwrap();
    let mut summary = Summary::new(&Scheme::EVERY);
    let mut grader = None;
    for line in text.lines() {
        let puzzle = parse_line(line, None).unwrap();
        let grader = grader.get_or_insert_with(|| Grader::new(puzzle.shape()));
        summary.add(&grader.grade(&puzzle, &Scheme::EVERY));
    }
    assert_eq!(summary.puzzles, 100);
    for (i, s) in Scheme::EVERY.iter().enumerate() {
        assert_eq!(summary.search_free[i], expected[i], "{s}");
    }
}
