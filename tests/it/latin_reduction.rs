//! Latin square completion → Sudoku keeps solvability and solution counts: exhaustively for m = 2
//! (and m = 3 in the release suite), on random squares of orders 4 to 7.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::generate::latin::{quasigroup_with_holes, random_partial};
use sudokit::reduce::latin::{latin_to_sudoku, latin_to_sudoku_solution, sudoku_to_latin};
use sudokit::solve::{Limits, Solver, backend};
use sudokit::{Grid, Shape};

const LIMIT: u64 = 2_000;

/// Counts the completions of `latin` directly, and the solutions of its Sudoku with two
/// backends; all three must agree, and every solution must map back to a verified completion.
fn check(latin: &Grid, direct: &dyn Solver, first: &dyn Solver, second: &dyn Solver) -> u64 {
    let sudoku = latin_to_sudoku(latin).unwrap();
    let m = latin.shape().order();
    assert_eq!(sudoku.filled(), m.pow(4) - m * m + latin.filled());
    let limits = Limits::none();
    let on_latin = direct.count(latin, LIMIT, &limits).unwrap();
    let on_sudoku = first.count(&sudoku, LIMIT, &limits).unwrap();
    let again = second.count(&sudoku, LIMIT, &limits).unwrap();
    assert_eq!(on_latin.count, on_sudoku.count, "{latin:?}");
    assert_eq!(on_sudoku.count, again.count);
    assert_eq!(on_latin.hit_limit, on_sudoku.hit_limit);
    for solution in &on_sudoku.solutions {
        let completion = sudoku_to_latin(latin, solution).expect("maps back and verifies");
        assert_eq!(
            &latin_to_sudoku_solution(latin, &completion).unwrap(),
            solution
        );
    }
    on_latin.count
}

/// Every grid of order m whose cells are empty or hold a value, without clashing givens.
fn all_partial_squares(m: usize) -> Vec<Grid> {
    let shape = Shape::latin(m).unwrap();
    let cells = m * m;
    let mut out = Vec::new();
    let total = (m + 1).pow(cells as u32);
    for code in 0..total {
        let mut rest = code;
        let mut grid = Grid::empty(shape);
        for cell in 0..cells {
            let digit = rest % (m + 1);
            rest /= m + 1;
            grid.set(cell, (digit > 0).then(|| digit - 1));
        }
        if grid.first_clash().is_none() {
            out.push(grid);
        }
    }
    out
}

fn backends() -> (Box<dyn Solver>, Box<dyn Solver>, Box<dyn Solver>) {
    (
        backend("native").unwrap(),
        backend("native").unwrap(),
        backend("fc-mrv").unwrap(),
    )
}

#[test]
fn every_partial_latin_square_of_order_2() {
    let (direct, first, second) = backends();
    let squares = all_partial_squares(2);
    let mut completable = 0;
    for latin in &squares {
        if check(latin, direct.as_ref(), first.as_ref(), second.as_ref()) > 0 {
            completable += 1;
        }
    }
    // 35 of the 81 grids have no clashing givens. The two Latin squares of order 2 differ in every
    // cell, so the completable ones are the 2·2⁴ subsets of their cells less the shared empty grid:
    // 31. The other 4 put two different values on a diagonal, like "1 . / . 2".
    assert_eq!(squares.len(), 35);
    assert_eq!(completable, 31);
}

#[test]
#[ignore = "release suite: every partial Latin square of order 3 (run by .ci/run)"]
fn every_partial_latin_square_of_order_3() {
    let (direct, first, second) = backends();
    let squares = all_partial_squares(3);
    let completable = squares
        .iter()
        .filter(|l| check(l, direct.as_ref(), first.as_ref(), second.as_ref()) > 0)
        .count();
    eprintln!(
        "order 3: {} consistent partial squares, {completable} completable",
        squares.len()
    );
    assert!(completable < squares.len());
}

fn random_squares(m: usize, each: usize, seed: u64) -> Vec<Grid> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for i in 0..each {
        out.push(quasigroup_with_holes(m, (m * m * 2 / 5).max(1) + i % m, &mut rng).unwrap());
        out.push(random_partial(m, m * m / 3 + i % m, &mut rng).unwrap());
    }
    out
}

#[test]
fn random_squares_of_orders_4_and_5() {
    let (direct, first, second) = backends();
    for m in [4, 5] {
        for latin in random_squares(m, 10, m as u64) {
            check(&latin, direct.as_ref(), first.as_ref(), second.as_ref());
        }
    }
}

#[test]
#[ignore = "release suite: 200 random squares of each order 4 to 7 (run by .ci/run)"]
fn two_hundred_random_squares_of_orders_4_to_7() {
    let (direct, first, second) = backends();
    for m in 4..=7 {
        let squares = random_squares(m, 100, 100 + m as u64);
        assert_eq!(squares.len(), 200);
        let completable = squares
            .iter()
            .filter(|l| check(l, direct.as_ref(), first.as_ref(), second.as_ref()) > 0)
            .count();
        eprintln!("order {m}: 200 squares, {completable} completable");
    }
}
