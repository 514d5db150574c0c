//! Soundness, the lattice, HAC completeness and search, on random small puzzles.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::hac::brute_force_supports;
use super::*;
use crate::grid::Grid;
use crate::search::{Limits, StopReason};
use crate::text::parse_line;

/// Every solution of `puzzle`, by plain backtracking on the definition (no propagator), up to
/// `cap`; `None` if there are more.
fn all_solutions(puzzle: &Grid, cap: usize) -> Option<Vec<Grid>> {
    fn walk(g: &mut Grid, cell: usize, out: &mut Vec<Grid>, cap: usize) -> bool {
        let shape = g.shape();
        if cell == shape.cells() {
            out.push(g.clone());
            return out.len() <= cap;
        }
        if g.get(cell).is_some() {
            return walk(g, cell + 1, out, cap);
        }
        for v in 0..shape.order() {
            if shape.peers(cell).all(|p| g.get(p) != Some(v)) {
                g.set(cell, Some(v));
                let go_on = walk(g, cell + 1, out, cap);
                g.set(cell, None);
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
    let mut g = puzzle.clone();
    let mut out = Vec::new();
    if puzzle.first_clash().is_some() {
        return Some(out);
    }
    walk(&mut g, 0, &mut out, cap).then_some(out)
}

/// A random complete grid of `shape` (random value order in a plain backtracker).
fn random_solution(shape: Shape, rng: &mut ChaCha8Rng) -> Grid {
    fn fill(g: &mut Grid, cell: usize, rng: &mut ChaCha8Rng) -> bool {
        let shape = g.shape();
        if cell == shape.cells() {
            return true;
        }
        let mut values: Vec<usize> = (0..shape.order()).collect();
        values.shuffle(rng);
        for v in values {
            if shape.peers(cell).all(|p| g.get(p) != Some(v)) {
                g.set(cell, Some(v));
                if fill(g, cell + 1, rng) {
                    return true;
                }
                g.set(cell, None);
            }
        }
        false
    }
    let mut g = Grid::empty(shape);
    assert!(fill(&mut g, 0, rng));
    g
}

/// A random puzzle: a random solution with each cell kept with probability `keep`, and sometimes
/// one cell changed to another value (so some puzzles have no solution).
fn random_puzzle(shape: Shape, keep: f64, rng: &mut ChaCha8Rng) -> Grid {
    let mut g = random_solution(shape, rng);
    for cell in 0..shape.cells() {
        if !rng.random_bool(keep) {
            g.set(cell, None);
        }
    }
    if rng.random_bool(0.2) {
        let cell = rng.random_range(0..shape.cells());
        g.set(cell, Some(rng.random_range(0..shape.order())));
    }
    g
}

fn small_shapes() -> Vec<Shape> {
    vec![
        Shape::sudoku(2, 2).unwrap(),
        Shape::sudoku(2, 3).unwrap(),
        Shape::sudoku(3, 2).unwrap(),
        Shape::latin(4).unwrap(),
        Shape::latin(5).unwrap(),
    ]
}

fn fixpoint(engine: &mut Propagator, puzzle: &Grid, scheme: Scheme) -> Option<Domains> {
    let mut d = Domains::from_puzzle(puzzle);
    engine.propagate(&mut d, scheme).ok().map(|()| d)
}

#[test]
fn no_scheme_removes_a_value_of_a_solution_and_search_counts_them_all() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    for round in 0..60 {
        for shape in small_shapes() {
            let keep = [0.25, 0.4, 0.55][round % 3];
            let puzzle = random_puzzle(shape, keep, &mut rng);
            let Some(solutions) = all_solutions(&puzzle, 300) else {
                continue;
            };
            checked += 1;
            let mut engine = Propagator::new(shape);
            for scheme in Scheme::EVERY {
                match fixpoint(&mut engine, &puzzle, scheme) {
                    None => assert!(
                        solutions.is_empty(),
                        "{scheme} refuted a puzzle with solutions: {puzzle:?}"
                    ),
                    Some(d) => {
                        for s in &solutions {
                            for (cell, v) in s.givens() {
                                assert!(
                                    d.contains(cell, v),
                                    "{scheme} removed value {} of cell {cell}: {puzzle:?}",
                                    v + 1
                                );
                            }
                        }
                        if solutions.len() == 1 && d.is_solved() {
                            assert_eq!(d.to_grid().as_ref(), Some(&solutions[0]));
                        }
                    }
                }
                let found = count_with_scheme(&puzzle, scheme, 1000, &Limits::none()).unwrap();
                assert!(found.complete());
                assert_eq!(found.count, solutions.len() as u64, "{scheme} {puzzle:?}");
                assert_eq!(found.solutions.len(), solutions.len().min(2));
                for s in &found.solutions {
                    assert!(solutions.contains(s));
                }
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} puzzles had a small solution set"
    );
}

/// Asserts the lattice on one puzzle: for every pair `a ⊑ b`, `b` keeps no candidate `a` removes.
fn assert_lattice(puzzle: &Grid, engine: &mut Propagator) {
    let results: Vec<Option<Domains>> = Scheme::EVERY
        .iter()
        .map(|&s| fixpoint(engine, puzzle, s))
        .collect();
    for (i, &a) in Scheme::EVERY.iter().enumerate() {
        for (j, &b) in Scheme::EVERY.iter().enumerate() {
            if i == j || !a.weaker_than(b) {
                continue;
            }
            match (&results[i], &results[j]) {
                (_, None) => {}
                (None, Some(_)) => panic!("{a} fails but the stronger {b} does not: {puzzle:?}"),
                (Some(da), Some(db)) => assert!(
                    db.is_subset_of(da),
                    "{b} keeps a candidate {a} removes: {puzzle:?}"
                ),
            }
        }
    }
}

#[test]
fn stronger_schemes_never_keep_more_candidates_on_random_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut shapes = small_shapes();
    shapes.push(Shape::sudoku(3, 3).unwrap());
    shapes.push(Shape::sudoku(2, 4).unwrap());
    for shape in shapes {
        let mut engine = Propagator::new(shape);
        for round in 0..25 {
            let keep = [0.2, 0.3, 0.4, 0.5, 0.6][round % 5];
            let puzzle = random_puzzle(shape, keep, &mut rng);
            assert_lattice(&puzzle, &mut engine);
        }
    }
}

#[test]
fn stronger_schemes_never_keep_more_candidates_on_the_models() {
    let root = env!("CARGO_MANIFEST_DIR");
    for file in ["models/sudoku/9x9/top95.txt", "models/sudoku/9x9/hard.txt"] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        // Every fifth puzzle keeps the debug-mode test quick; the release suite runs all.
        for line in text.lines().step_by(5) {
            let puzzle = parse_line(line, None).unwrap();
            let mut engine = Propagator::new(puzzle.shape());
            assert_lattice(&puzzle, &mut engine);
        }
    }
}

/// `k` random non-empty domains over the values `0..k`, sparser now and then so that Hall sets
/// appear.
fn random_domains(k: usize, rng: &mut ChaCha8Rng) -> Vec<u64> {
    let full = (1u64 << k) - 1;
    (0..k)
        .map(|_| {
            let mut dom = rng.random_range(1..=full);
            if rng.random_bool(0.5) {
                dom &= rng.random_range(1..=full);
            }
            if dom == 0 {
                1 << rng.random_range(0..k)
            } else {
                dom
            }
        })
        .collect()
}

#[test]
fn hac_keeps_exactly_the_supported_values_of_one_alldifferent() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut failures = 0;
    for _ in 0..3000 {
        let k = rng.random_range(1..=7usize);
        let shape = Shape::latin(k).unwrap();
        let domains = random_domains(k, &mut rng);
        let mut d = Domains::full(shape);
        for (i, &dom) in domains.iter().enumerate() {
            d.bits[i] = dom; // row 0, one word per cell
        }
        let mut engine = Propagator::new(shape);
        let got = engine.hac(&mut d, 0);
        match brute_force_supports(&domains) {
            None => {
                failures += 1;
                assert!(got.is_err(), "HAC missed a failure on {domains:?}");
            }
            Some(supported) => {
                got.unwrap();
                let kept: Vec<u64> = (0..k).map(|i| d.bits[i]).collect();
                assert_eq!(kept, supported, "domains {domains:?}");
            }
        }
    }
    assert!(failures > 50, "too few unsatisfiable cases ({failures})");
}

/// Runs the range exhaustion of `BC` on `domains` (bitsets of values `0..64`) as one
/// `alldifferent`.
fn exhaust(domains: &[u64]) -> Result<Vec<u64>, Failure> {
    let mut ex = bounds::Exhaustion::new(domains.len(), 1);
    for (i, &dom) in domains.iter().enumerate() {
        ex.domain_mut(i)[0] = dom;
    }
    ex.filter(domains.len())?;
    Ok((0..domains.len()).map(|i| ex.domain(i)[0]).collect())
}

/// The bitset of the 1-based values `values`.
fn set(values: &[usize]) -> u64 {
    values.iter().map(|v| 1u64 << (v - 1)).sum()
}

#[test]
fn range_exhaustion_on_the_known_cases() {
    // A, B, C in 4..6 use up 4, 5, 6, interior values included.
    let full = set(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let abc = set(&[4, 5, 6]);
    let got = exhaust(&[abc, abc, abc, set(&[3, 4, 5, 8]), full]).unwrap();
    assert_eq!(got[3], set(&[3, 8]));
    assert_eq!(got[4], set(&[1, 2, 3, 7, 8, 9]));
    assert_eq!(got[..3], [abc, abc, abc]);
    // P, Q in {2, 4} use up 2 and 4 (the hull [2, 4] holds 3 values).
    let got = exhaust(&[set(&[2, 4]), set(&[2, 4]), set(&[4, 6])]).unwrap();
    assert_eq!(got[2], set(&[6]));
    // A fixed item is exhausted on its own; too few values fail.
    let got = exhaust(&[set(&[3]), set(&[1, 3]), set(&[3, 5, 7])]).unwrap();
    assert_eq!(got, vec![set(&[3]), set(&[1]), set(&[5, 7])]);
    assert!(exhaust(&[set(&[2, 4]), set(&[2, 4]), set(&[2, 4])]).is_err());
    assert!(exhaust(&[set(&[1, 9]), set(&[1, 9]), set(&[1, 9])]).is_err());
    // Where a Hall interval of the hulls exists, both rules agree: 5 and 6 leave the last cell.
    let got = exhaust(&[set(&[5, 6]), set(&[5, 6]), set(&[5, 6, 7, 8])]).unwrap();
    assert_eq!(got[2], set(&[7, 8]));
}

#[test]
fn range_exhaustion_is_sound_and_keeps_forward_checking() {
    // Against a brute-force matching oracle: every value some solution of the alldifferent uses
    // is kept, a failure means no solution, and fixed values leave the other items.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut pruned_beyond_fc, mut failures) = (0, 0);
    for _ in 0..4000 {
        let k = rng.random_range(1..=7usize);
        let domains = random_domains(k, &mut rng);
        let got = exhaust(&domains);
        match brute_force_supports(&domains) {
            None => failures += usize::from(got.is_err()),
            Some(supported) => {
                let kept = got.unwrap_or_else(|_| panic!("BC refuted a solvable {domains:?}"));
                for i in 0..k {
                    assert_eq!(
                        supported[i] & !kept[i],
                        0,
                        "removed a supported value: {domains:?}"
                    );
                    assert_eq!(kept[i] & !domains[i], 0);
                    if kept[i].count_ones() == 1 {
                        for j in (0..k).filter(|&j| j != i) {
                            assert_eq!(kept[j] & kept[i], 0, "FC missed: {domains:?}");
                        }
                    }
                }
                let fc_only = domains.iter().all(|&x| x.count_ones() > 1);
                if fc_only && kept != domains {
                    pruned_beyond_fc += 1;
                }
            }
        }
    }
    assert!(failures > 50, "too few refuted cases ({failures})");
    assert!(
        pruned_beyond_fc > 50,
        "too few exhausted sets ({pruned_beyond_fc})"
    );
}

#[test]
fn the_dual_variables_find_a_hidden_pair_in_neighbouring_places() {
    // One row: 2 and 6 fit only in the 7th and 8th cells. Every cell holds 1 and 9, so range
    // exhaustion on the cells sees one group and no exhausted prefix; on the dual variables,
    // the places of 2 and 6 lie in the range [7, 8] and use it up.
    let shape = Shape::latin(9).unwrap();
    let row = [
        set(&[1, 3, 4, 9]),
        set(&[1, 5, 7, 9]),
        set(&[1, 3, 8, 9]),
        set(&[1, 4, 5, 9]),
        set(&[1, 7, 8, 9]),
        set(&[1, 3, 5, 9]),
        set(&[1, 2, 6, 9]),
        set(&[1, 2, 6, 8, 9]),
        set(&[1, 4, 7, 9]),
    ];
    let mut d = Domains::full(shape);
    d.bits[..9].copy_from_slice(&row);
    let mut engine = Propagator::new(shape);
    engine.bounds(&mut d, 0).unwrap();
    assert_eq!(
        d.bits[..9],
        row,
        "nothing for range exhaustion on the cells"
    );
    engine.bounds_dual(&mut d, 0).unwrap();
    assert_eq!(d.bits[6], set(&[2, 6]));
    assert_eq!(d.bits[7], set(&[2, 6]));
    assert_eq!(d.bits[..6], row[..6]);
    assert_eq!(d.bits[8], row[8]);
}

#[test]
fn forward_checking_and_channeling_on_a_hand_made_case() {
    // 4×4, row 1 = 1 . . . and the 4 of row 1 can only go in column 4 (columns 2, 3 hold 4s).
    let puzzle = parse_line("1.........4..4..", None).unwrap();
    let mut engine = Propagator::new(puzzle.shape());
    let fc = fixpoint(&mut engine, &puzzle, Scheme::FC).unwrap();
    assert_eq!(fc.values(1).collect::<Vec<_>>(), vec![1, 2]);
    assert!(fc.contains(3, 3));
    assert_eq!(fc.value(3), None);
    let fci = fixpoint(&mut engine, &puzzle, Scheme::FCI).unwrap();
    assert_eq!(fci.value(3), Some(3), "the hidden single 4 at (1,4)");
}

#[test]
fn search_respects_budgets_and_limits() {
    let empty = Grid::empty(Shape::sudoku(3, 3).unwrap());
    let out = count_with_scheme(&empty, Scheme::FC, u64::MAX, &Limits::nodes(500)).unwrap();
    assert_eq!(out.stopped, Some(StopReason::NodeLimit));
    assert!(out.stats.nodes <= 500);
    assert!(out.count > 2 && out.solutions.len() == 2);
    let out = count_with_scheme(&empty, Scheme::FCI, 3, &Limits::none()).unwrap();
    assert!(out.hit_limit && out.stopped.is_none());
    assert_eq!((out.count, out.solutions.len()), (3, 2));
    let timed = count_with_scheme(
        &empty,
        Scheme::FC,
        u64::MAX,
        &Limits::time(std::time::Duration::from_millis(50)),
    )
    .unwrap();
    assert_eq!(timed.stopped, Some(StopReason::TimeLimit));
    let cancel = crate::search::Cancel::new();
    cancel.cancel();
    let cancelled = count_with_scheme(
        &empty,
        Scheme::FC,
        u64::MAX,
        &Limits::none().with_cancel(cancel),
    );
    assert_eq!(cancelled.unwrap().stopped, Some(StopReason::Cancelled));
    assert!(matches!(
        count_with_scheme(&empty, Scheme::FC, 0, &Limits::none()),
        Err(SearchError::ZeroLimit)
    ));
    // Clashing givens: no solution, and the search says so completely.
    let clash = parse_line("11..............", None).unwrap();
    let out = count_with_scheme(&clash, Scheme::HAC, 2, &Limits::none()).unwrap();
    assert!(out.complete() && out.solutions.is_empty());
}

#[test]
fn large_orders_use_several_words_per_cell() {
    // 10×10 Latin square is one word; order 70 needs two: propagate a diagonal-fixed Latin square.
    let shape = Shape::latin(70).unwrap();
    let mut g = Grid::empty(shape);
    for i in 0..70 {
        for j in 0..70 {
            if (i + j) % 3 != 0 {
                g.set(shape.cell(i, j), Some((i + j) % 70));
            }
        }
    }
    let mut engine = Propagator::new(shape);
    for scheme in [
        Scheme::FC,
        Scheme::FCI,
        Scheme::BC,
        Scheme::HAC,
        Scheme::HACC,
    ] {
        let d = fixpoint(&mut engine, &g, scheme).expect("completable");
        for i in 0..70 {
            for j in 0..70 {
                assert!(d.contains(shape.cell(i, j), (i + j) % 70), "{scheme}");
            }
        }
    }
    let out = count_with_scheme(&g, Scheme::HAC, 2, &Limits::none()).unwrap();
    assert!(out.stopped.is_none());
    assert!(!out.solutions.is_empty());
}

/// The X-wings at a fixpoint: `(value, line a, line b, cross 1, cross 2, by_rows)` where lines
/// `a` and `b` hold value in exactly the two crossing lines, and some other line can still
/// take it there (so the X-wing removes something).
fn xwings(d: &Domains) -> Vec<(usize, usize, usize, usize, usize, bool)> {
    let n = d.shape().order();
    let mut found = Vec::new();
    for by_rows in [true, false] {
        let cell = |line: usize, cross: usize| {
            if by_rows {
                line * n + cross
            } else {
                cross * n + line
            }
        };
        for v in 0..n {
            let places = |line: usize| -> Vec<usize> {
                (0..n).filter(|&x| d.contains(cell(line, x), v)).collect()
            };
            for a in 0..n {
                for b in a + 1..n {
                    let (pa, pb) = (places(a), places(b));
                    if pa.len() == 2 && pa == pb {
                        let removes = (0..n)
                            .filter(|&o| o != a && o != b)
                            .any(|o| pa.iter().any(|&x| d.contains(cell(o, x), v)));
                        if removes {
                            found.push((v, a, b, pa[0], pa[1], by_rows));
                        }
                    }
                }
            }
        }
    }
    found
}

#[test]
fn the_xwing_models_need_an_xwing_after_hac() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/models/sudoku/9x9/xwing.txt")).unwrap();
    for line in text.lines() {
        let puzzle = parse_line(line, None).unwrap();
        let mut engine = Propagator::new(puzzle.shape());
        let hacs3 = fixpoint(&mut engine, &puzzle, Scheme::HACS3).unwrap();
        assert!(!hacs3.is_solved(), "HAC with S and 3 is stuck: {line}");
        assert!(
            !xwings(&hacs3).is_empty(),
            "an X-wing is visible at the HACS3 fixpoint: {line}"
        );
        assert!(
            fixpoint(&mut engine, &puzzle, Scheme::HACC)
                .unwrap()
                .is_solved()
        );
    }
    let text =
        std::fs::read_to_string(format!("{root}/models/sudoku/9x9/hidden_singles.txt")).unwrap();
    for line in text.lines() {
        let puzzle = parse_line(line, None).unwrap();
        let mut engine = Propagator::new(puzzle.shape());
        assert!(
            !fixpoint(&mut engine, &puzzle, Scheme::FC)
                .unwrap()
                .is_solved()
        );
        assert!(
            fixpoint(&mut engine, &puzzle, Scheme::FCI)
                .unwrap()
                .is_solved()
        );
    }
}

#[test]
fn the_papers_evidence_puzzles() {
    // models/sudoku/9x9/simonis_cases.txt: top100 line 31, royle17 line 1, top100 line 18.
    let root = env!("CARGO_MANIFEST_DIR");
    let text =
        std::fs::read_to_string(format!("{root}/models/sudoku/9x9/simonis_cases.txt")).unwrap();
    let puzzles: Vec<Grid> = text.lines().map(|l| parse_line(l, None).unwrap()).collect();
    let mut engine = Propagator::new(puzzles[0].shape());
    let mut left =
        |puzzle: &Grid, scheme: Scheme| fixpoint(&mut engine, puzzle, scheme).unwrap().total();
    assert_eq!(left(&puzzles[0], Scheme::BC), 81);
    assert!(left(&puzzles[0], Scheme::FCI) > 81);
    assert_eq!(left(&puzzles[1], Scheme::BCI), 81);
    assert!(left(&puzzles[1], Scheme::BC) > 81);
    assert_eq!(left(&puzzles[2], Scheme::FCV), 205);
    assert_eq!(left(&puzzles[2], Scheme::FCV_FIXPOINT), 81);
}

#[test]
fn the_trace_changes_nothing_and_replays_to_the_fixpoint() {
    use super::explain::explain;
    let models = [
        include_str!("../../models/sudoku/9x9/hidden_singles.txt"),
        include_str!("../../models/sudoku/9x9/xwing.txt"),
        include_str!("../../models/sudoku/9x9/simonis_cases.txt"),
    ];
    let puzzles: Vec<Grid> = models
        .iter()
        .flat_map(|text| text.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(8)
        .map(|l| parse_line(l, None).unwrap())
        .collect();
    for puzzle in &puzzles {
        for scheme in Scheme::EVERY {
            let mut plain = Domains::from_puzzle(puzzle);
            let plain_result = Propagator::new(puzzle.shape()).propagate(&mut plain, scheme);
            let mut traced = Domains::from_puzzle(puzzle);
            let mut engine = Propagator::new(puzzle.shape());
            engine.set_tracing(true);
            let traced_result = engine.propagate(&mut traced, scheme);
            assert_eq!(plain_result, traced_result, "{scheme}");
            let events = engine.take_events();
            if plain_result.is_err() {
                continue;
            }
            assert_eq!(plain, traced, "{scheme}");
            // Replaying the removals of the events, each once, gives the fixpoint.
            let mut replay = Domains::from_puzzle(puzzle);
            for event in &events {
                assert!(!event.failed);
                for &(cell, v) in &event.removed {
                    assert!(replay.remove(cell, v), "{scheme}: {event:?} removes twice");
                }
            }
            assert_eq!(replay, plain, "{scheme}");
            // The explanation accounts for every removal, each once.
            let story = explain(puzzle, scheme).expect("every step replays");
            let mut removed: Vec<(usize, usize)> =
                story.steps.iter().flat_map(|s| s.removed.clone()).collect();
            let mut expected: Vec<(usize, usize)> =
                events.iter().flat_map(|e| e.removed.clone()).collect();
            removed.sort_unstable();
            expected.sort_unstable();
            assert_eq!(removed, expected, "{scheme}");
        }
    }
}
