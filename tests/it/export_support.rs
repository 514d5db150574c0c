//! Test-only helpers for the encoder tests: an independent brute-force solution counter, a
//! SAT model enumerator (varisat with blocking clauses), a tiny exact-cover search, and
//! puzzle generators.

use std::collections::HashSet;

use sudokit::encode::Cnf;
use sudokit::encode::Model;
use sudokit::encode::cnf::VarMap;
use sudokit::format::dlx1::DlxProblem;
use sudokit::{Grid, Shape, verify};

/// Every solution of `puzzle` up to `limit`, by plain backtracking on the definition (each unit
/// a permutation); independent of every encoder.
pub fn brute_force_solutions(puzzle: &Grid, limit: usize) -> Vec<Grid> {
    let shape = puzzle.shape();
    let mut grid = puzzle.clone();
    let mut found = Vec::new();
    if puzzle.first_clash().is_none() {
        backtrack(shape, &mut grid, 0, limit, &mut found);
    }
    found
}

fn backtrack(shape: Shape, grid: &mut Grid, cell: usize, limit: usize, found: &mut Vec<Grid>) {
    if found.len() >= limit {
        return;
    }
    if cell == shape.cells() {
        found.push(grid.clone());
        return;
    }
    if grid.get(cell).is_some() {
        backtrack(shape, grid, cell + 1, limit, found);
        return;
    }
    for v in 0..shape.order() {
        if shape.peers(cell).all(|p| grid.get(p) != Some(v)) {
            grid.set(cell, Some(v));
            backtrack(shape, grid, cell + 1, limit, found);
            grid.set(cell, None);
        }
    }
}

/// The x variables of a map, as DIMACS numbers.
fn x_vars(map: &VarMap) -> Vec<usize> {
    let n = map.order();
    let mut vars = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                if let Some(var) = map.var(r, c, v) {
                    vars.push(var.to_dimacs());
                }
            }
        }
    }
    vars
}

/// The grids of the models of `cnf` projected on the x variables, up to `limit`, enumerated with
/// varisat and blocking clauses. Every model is decoded and verified (panics otherwise).
pub fn sat_solutions(cnf: &Cnf, map: &VarMap, puzzle: &Grid, limit: usize) -> Vec<Grid> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    for _ in 0..cnf.vars() {
        solver.new_var();
    }
    for clause in cnf.clauses() {
        let lits: Vec<varisat::Lit> = clause
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize))
            .collect();
        solver.add_clause(&lits);
    }
    let xs = x_vars(map);
    let mut grids = Vec::new();
    while grids.len() < limit && solver.solve().expect("varisat runs") {
        let lits = solver.model().expect("a model after SAT");
        let model = Model::from_lits(
            lits.iter()
                .map(|l| sudokit::encode::Lit::from_dimacs(l.to_dimacs() as i64)),
        );
        let grid = map.decode(puzzle, &model).expect("every model decodes");
        verify(puzzle, &grid).expect("every decoded model is a solution");
        grids.push(grid);
        let block: Vec<varisat::Lit> = xs
            .iter()
            .map(|&x| {
                let lit = varisat::Lit::from_dimacs(x as isize);
                if model.is_true(sudokit::encode::Var::from_dimacs(x)) {
                    !lit
                } else {
                    lit
                }
            })
            .collect();
        solver.add_clause(&block);
    }
    grids
}

/// Every exact cover of a DLX problem (primary items exactly once, secondary at most once), up
/// to `limit`, as lists of option indices: Knuth's Algorithm X without the links.
pub fn exact_covers(problem: &DlxProblem, limit: usize) -> Vec<Vec<usize>> {
    let items = problem.primary.len() + problem.secondary.len();
    let mut by_item: Vec<Vec<usize>> = vec![Vec::new(); items];
    for (o, option) in problem.options.iter().enumerate() {
        for &i in option {
            by_item[i].push(o);
        }
    }
    let mut covered = vec![false; items];
    let mut chosen = Vec::new();
    let mut found = Vec::new();
    search(
        problem,
        &by_item,
        &mut covered,
        &mut chosen,
        &mut found,
        limit,
    );
    found
}

fn search(
    problem: &DlxProblem,
    by_item: &[Vec<usize>],
    covered: &mut [bool],
    chosen: &mut Vec<usize>,
    found: &mut Vec<Vec<usize>>,
    limit: usize,
) {
    if found.len() >= limit {
        return;
    }
    let fits = |o: usize, covered: &[bool]| problem.options[o].iter().all(|&i| !covered[i]);
    // The uncovered primary item with the fewest fitting options.
    let best = (0..problem.primary.len())
        .filter(|&i| !covered[i])
        .min_by_key(|&i| by_item[i].iter().filter(|&&o| fits(o, covered)).count());
    let Some(item) = best else {
        found.push(chosen.clone());
        return;
    };
    for &o in &by_item[item] {
        if !fits(o, covered) {
            continue;
        }
        for &i in &problem.options[o] {
            covered[i] = true;
        }
        chosen.push(o);
        search(problem, by_item, covered, chosen, found, limit);
        chosen.pop();
        for &i in &problem.options[o] {
            covered[i] = false;
        }
    }
}

/// The complete grid `pattern(r, c) = (q·(r mod p) + ⌊r/p⌋ + c) mod n` of a p×q shape, with its
/// values relabelled by `relabel` (a permutation of 0..n).
pub fn pattern_solution(shape: Shape, relabel: &[usize]) -> Grid {
    let (n, p, q) = (shape.order(), shape.box_rows(), shape.box_cols());
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            let v = (q * (r % p) + r / p + c) % n;
            grid.set(shape.cell(r, c), Some(relabel[v]));
        }
    }
    grid
}

/// A puzzle from a solution: keep the cells whose `keep` flag is set, then set `extra`
/// `(cell, value)` givens that do not clash (they may make the puzzle unsatisfiable).
pub fn puzzle_from(solution: &Grid, keep: &[bool], extra: &[(usize, usize)]) -> Grid {
    let shape = solution.shape();
    let mut puzzle = Grid::empty(shape);
    for cell in 0..shape.cells() {
        if keep[cell % keep.len()] {
            puzzle.set(cell, solution.get(cell));
        }
    }
    for &(cell, v) in extra {
        let cell = cell % shape.cells();
        let v = v % shape.order();
        if puzzle.get(cell).is_none() && shape.peers(cell).all(|p| puzzle.get(p) != Some(v)) {
            puzzle.set(cell, Some(v));
        }
    }
    puzzle
}

/// The set of grids as puzzle lines (order-independent comparison).
pub fn as_set(grids: &[Grid]) -> HashSet<String> {
    grids.iter().map(sudokit::text::to_text).collect()
}
