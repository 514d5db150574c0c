//! The levels of [`super::course`], one function each: build the instance, solve it with the
//! level's own solver, read the answer at that level, check it with the level's certificate,
//! and map it back down to the Latin square, verified at every level on the way.
//!
//! The answers read at each level:
//! - **CNF**: varisat's model of the formula itself ([`solve_cnf`]), checked against every
//!   clause; "unsatisfiable" is backed by a refutation that varisat's checker accepts, written as
//!   LRAT and DRAT ([`Sat::solve_with_proof`]);
//! - **0-1 ILP**: the 0-1 point the MIP solver returns ([`PointSolver::first_point`](crate::solve::mip::PointSolver::first_point)), checked against
//!   every equality row;
//! - **exact cover**: the options the dancing links chose (one per cell: the cell, its row, column
//!   and box value), checked to cover every item exactly once;
//! - **precolouring**: DSATUR's colour of every vertex, checked to be proper and to extend the
//!   precolouring.
//!
//! The DLX and DSATUR backends report their choices as a grid, cell by cell; the options, resp.
//! the colours, are read off that grid (option `(r,c,v)` for the value `v` chosen at `(r,c)`;
//! colour `v` for vertex `(r,c)`), which is a renaming, and then checked as exact cover and
//! colouring with the certificates of [`crate::reduce::encodings`].
//!
//! # Complexity
//! As [`super::course`].

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::reduce::course_data::{
    Count, Course, CourseError, CourseOptions, Evidence, Level, LevelAnswer, LevelRun,
};
use crate::reduce::encodings::{SudokuToCnf, SudokuToColouring, SudokuToExactCover, SudokuToIlp};
use crate::reduce::latin::{LatinToSudoku, as_latin_square};
use crate::reduce::reduction::{GRID_SIZE_NAMES, Reduction, ReductionError, grid_size};
use crate::search::{Limits, Stats};
use crate::solve::dlx::MAX_DLX_ORDER;
use crate::solve::mip::MIP_MAX_ORDER;
use crate::solve::registry::point_solver;
use crate::solve::sat::{CnfAnswer, Sat, solve_cnf};
use crate::solve::{SolveError, Solver, backend};
use crate::verify::verify;

/// Runs one level of `course` (whose square and Sudoku are built); see the module docs.
pub(crate) fn run_level(
    level: Level,
    course: &mut Course,
    options: &CourseOptions,
    label: &str,
) -> Result<LevelRun, CourseError> {
    match level {
        Level::Latin => latin_level(course, options),
        Level::Sudoku => sudoku_level(course, options),
        Level::Cnf => cnf_level(course, options, label),
        Level::Ilp => ilp_level(course, options),
        Level::ExactCover => exact_cover_level(course, options),
        Level::Colouring => colouring_level(course, options),
    }
}

fn check(level: Level) -> impl Fn(ReductionError) -> CourseError {
    move |source| CourseError::Check {
        level: level.title(),
        source,
    }
}

fn solve_error(level: Level) -> impl Fn(SolveError) -> CourseError {
    move |source| CourseError::Solve {
        level: level.title(),
        source,
    }
}

/// A level's run before its answer is known.
fn run_of(level: Level, instance: String, solver: String) -> LevelRun {
    LevelRun {
        level,
        instance,
        solver,
        names: GRID_SIZE_NAMES,
        size: Default::default(),
        predicted: None,
        answer: LevelAnswer::Skipped(String::new()),
        reduce_time: Duration::ZERO,
        solve_time: Duration::ZERO,
        check_time: Duration::ZERO,
        stats: Stats::default(),
    }
}

/// The answer of a grid backend's count report at the Latin or Sudoku level.
fn search_answer(report: &crate::search::CountReport, what: &'static str) -> Option<LevelAnswer> {
    match (report.solutions.first(), report.stopped) {
        (Some(_), _) => None,
        (None, Some(reason)) => Some(LevelAnswer::Unknown(reason)),
        (None, None) => Some(LevelAnswer::NoCompletion(Evidence::Search {
            what,
            nodes: report.stats.nodes,
        })),
    }
}

fn latin_level(course: &Course, options: &CourseOptions) -> Result<LevelRun, CourseError> {
    let solver = backend(&options.backend)?;
    let square = as_latin_square(&course.latin);
    let mut run = run_of(
        Level::Latin,
        "partial Latin square".into(),
        solver.name().into(),
    );
    run.size = grid_size(&square);
    let started = Instant::now();
    let report = solver
        .count(&square, 1, &options.limits)
        .map_err(solve_error(Level::Latin))?;
    run.solve_time = started.elapsed();
    run.stats = report.stats;
    run.answer = match search_answer(&report, "search tree") {
        Some(answer) => answer,
        None => {
            let started = Instant::now();
            let completion = report.solutions[0].clone();
            verify(&square, &completion).map_err(|v| check(Level::Latin)(v.into()))?;
            run.check_time = started.elapsed();
            LevelAnswer::Completed {
                witness: "a completion, verified".into(),
                sudoku_solution: None,
                completion,
            }
        }
    };
    Ok(run)
}

fn sudoku_level(course: &mut Course, options: &CourseOptions) -> Result<LevelRun, CourseError> {
    let solver = backend(&options.backend)?;
    let shape = course.sudoku.shape();
    let mut run = run_of(
        Level::Sudoku,
        format!("Sudoku {shape}"),
        solver.name().into(),
    );
    run.size = LatinToSudoku.size_of(&course.sudoku);
    run.predicted = Some(
        LatinToSudoku
            .target_size(&course.latin)
            .map_err(check(Level::Sudoku))?,
    );
    run.reduce_time = course.reduce_time;
    let started = Instant::now();
    let report = solver
        .count(
            &course.sudoku,
            options.count.unwrap_or(1).max(1),
            &options.limits,
        )
        .map_err(solve_error(Level::Sudoku))?;
    run.solve_time = started.elapsed();
    run.stats = report.stats;
    if options.count.is_some() {
        course.count = Some(Count {
            count: report.count,
            exact: report.complete(),
        });
    }
    run.answer = match search_answer(&report, "search tree") {
        Some(answer) => answer,
        None => {
            let started = Instant::now();
            let solution = report.solutions[0].clone();
            let (sudoku_solution, completion) =
                down_from_sudoku(course, solution).map_err(check(Level::Sudoku))?;
            run.check_time = started.elapsed();
            LevelAnswer::Completed {
                witness: "a solution, verified".into(),
                sudoku_solution: Some(sudoku_solution),
                completion,
            }
        }
    };
    Ok(run)
}

/// A Sudoku solution checked against the Sudoku and mapped back to a verified completion.
fn down_from_sudoku(course: &Course, solution: Grid) -> Result<(Grid, Grid), ReductionError> {
    LatinToSudoku.check_target(&course.sudoku, &solution)?;
    let completion = LatinToSudoku.back(&course.latin, &course.sudoku, &solution)?;
    Ok((solution, completion))
}

/// A target solution checked at its level, mapped back to the Sudoku (verified) and on to the
/// square (verified).
fn down<R>(
    reduction: &R,
    course: &Course,
    target: &R::Target,
    solution: &R::TargetSolution,
) -> Result<(Grid, Grid), ReductionError>
where
    R: Reduction<Source = Grid, SourceSolution = Grid>,
{
    reduction.check_target(target, solution)?;
    let sudoku_solution = reduction.back(&course.sudoku, target, solution)?;
    down_from_sudoku(course, sudoku_solution)
}

/// A level whose solver cannot take the order.
fn skipped(mut run: LevelRun, max: usize, order: usize) -> LevelRun {
    run.answer = LevelAnswer::Skipped(format!(
        "{} takes this instance up to order {max}, this Sudoku has order {order}",
        run.solver
    ));
    run
}

fn cnf_level(
    course: &Course,
    options: &CourseOptions,
    label: &str,
) -> Result<LevelRun, CourseError> {
    let to_cnf = SudokuToCnf {
        options: options.cnf,
    };
    let sat = Sat::new(options.cnf);
    let mut run = run_of(
        Level::Cnf,
        format!("CNF ({}, {} AMO)", options.cnf.encoding, options.cnf.amo),
        "varisat".into(),
    );
    let order = course.sudoku.shape().order();
    if order > sat.max_order() {
        let mut run = skipped(run, sat.max_order(), order);
        if let LevelAnswer::Skipped(why) = &mut run.answer {
            why.push_str(" (a linear at-most-one encoding, sequential or product, reaches 64)");
        }
        return Ok(run);
    }
    let target = measure(&mut run, &to_cnf, &course.sudoku)?;
    let started = Instant::now();
    let answer = solve_cnf(&target.cnf, &options.limits);
    run.solve_time = started.elapsed();
    run.stats.nodes = 1;
    run.answer = match answer {
        CnfAnswer::Sat(model) => {
            let started = Instant::now();
            let model = model.to_bools(target.cnf.vars());
            let witness = format!(
                "a model satisfying all {} clauses ({} of {} variables true)",
                run.size.constraints,
                model.iter().filter(|&&b| b).count(),
                run.size.variables
            );
            let mapped = down(&to_cnf, course, &target, &model);
            completed(&mut run, started, mapped, witness)?
        }
        CnfAnswer::Unknown(reason) => LevelAnswer::Unknown(reason),
        CnfAnswer::Unsat => LevelAnswer::NoCompletion(refutation(course, &sat, options, label)?),
    };
    Ok(run)
}

/// Writes, checks and measures the refutation of the CNF (in `options.proof_dir`, or in a
/// temporary directory removed afterwards).
fn refutation(
    course: &Course,
    sat: &Sat,
    options: &CourseOptions,
    label: &str,
) -> Result<Evidence, CourseError> {
    static TEMPORARY: AtomicUsize = AtomicUsize::new(0);
    let (dir, keep) = match &options.proof_dir {
        Some(dir) => (dir.clone(), true),
        None => {
            let unique = TEMPORARY.fetch_add(1, Ordering::Relaxed);
            let name = format!("sudokit-course-proof-{}-{unique}", std::process::id());
            (std::env::temp_dir().join(name), false)
        }
    };
    let started = Instant::now();
    let proved = sat.solve_with_proof(&course.sudoku, &options.limits, &dir, label);
    let evidence = match proved {
        Ok((_, Some(proof))) => {
            let lrat = std::fs::read_to_string(&proof.lrat).unwrap_or_default();
            let drat = std::fs::read_to_string(&proof.drat).unwrap_or_default();
            Ok(Evidence::Proof {
                // Addition lines ("ID CLAUSE 0 HINTS 0"), not deletions ("ID d IDS 0").
                lrat_steps: lrat
                    .lines()
                    .filter(|l| l.split_whitespace().nth(1).is_some_and(|t| t != "d"))
                    .count(),
                lrat_bytes: lrat.len() as u64,
                drat_lemmas: drat
                    .lines()
                    .filter(|l| !l.starts_with('d') && !l.trim().is_empty())
                    .count(),
                lrat: keep.then(|| proof.lrat.clone()),
                time: started.elapsed(),
            })
        }
        Ok((_, None)) => Ok(Evidence::Missing),
        Err(e) => Err(CourseError::Proof(e.to_string())),
    };
    if !keep {
        remove_proof_files(&dir);
    }
    evidence
}

fn remove_proof_files(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

fn ilp_level(course: &Course, options: &CourseOptions) -> Result<LevelRun, CourseError> {
    // The registry names the MIP backend; nothing here knows which ones there are.
    let point_solver = point_solver(&options.mip).map_err(|e| {
        solve_error(Level::Ilp)(SolveError::Backend {
            backend: options.mip.clone(),
            message: e.to_string(),
        })
    })?;
    let mut run = run_of(Level::Ilp, "0-1 ILP".into(), point_solver.program().into());
    let order = course.sudoku.shape().order();
    if order > MIP_MAX_ORDER {
        return Ok(skipped(run, MIP_MAX_ORDER, order));
    }
    let target = measure(&mut run, &SudokuToIlp, &course.sudoku)?;
    let started = Instant::now();
    let report = point_solver
        .first_point(&course.sudoku, &options.limits)
        .map_err(solve_error(Level::Ilp))?;
    run.solve_time = started.elapsed();
    run.stats = report.stats;
    run.answer = match (report.point, report.stopped, report.presolved) {
        (Some(point), _, _) => {
            let started = Instant::now();
            let ones = point.values.iter().filter(|(_, x)| *x == 1.0).count();
            let witness = format!(
                "a 0-1 point meeting all {} rows ({ones} of {} variables at 1)",
                run.size.constraints, run.size.variables
            );
            let mapped = down(&SudokuToIlp, course, &target, &point);
            completed(&mut run, started, mapped, witness)?
        }
        (None, Some(reason), _) => LevelAnswer::Unknown(reason),
        (None, None, true) => LevelAnswer::NoCompletion(Evidence::Presolve),
        (None, None, false) => LevelAnswer::NoCompletion(Evidence::Search {
            what: "branch-and-bound tree",
            nodes: run.stats.nodes,
        }),
    };
    Ok(run)
}

fn exact_cover_level(course: &Course, options: &CourseOptions) -> Result<LevelRun, CourseError> {
    let level = Level::ExactCover;
    let solver = backend("dlx")?;
    let name = format!("dancing links ({})", solver.name());
    let mut run = run_of(level, "exact cover".into(), name);
    let order = course.sudoku.shape().order();
    if order > MAX_DLX_ORDER {
        return Ok(skipped(run, MAX_DLX_ORDER, order));
    }
    let target = measure(&mut run, &SudokuToExactCover, &course.sudoku)?;
    let report = solve_grid(&mut run, solver.as_ref(), &course.sudoku, &options.limits)?;
    run.answer = match search_answer(&report, "DLX search tree") {
        Some(answer) => answer,
        None => {
            let started = Instant::now();
            let (grid, shape) = (&report.solutions[0], course.sudoku.shape());
            let chosen: Vec<(usize, usize, usize)> = (0..shape.cells())
                .filter_map(|c| Some((shape.row_of(c), shape.col_of(c), grid.get(c)?)))
                .collect();
            let witness = format!(
                "{} options covering each of the {} items once",
                chosen.len(),
                run.size.constraints
            );
            let mapped = down(&SudokuToExactCover, course, &target, &chosen);
            completed(&mut run, started, mapped, witness)?
        }
    };
    Ok(run)
}

fn colouring_level(course: &Course, options: &CourseOptions) -> Result<LevelRun, CourseError> {
    let level = Level::Colouring;
    let solver = backend("colour")?;
    let name = format!("DSATUR ({})", solver.name());
    let mut run = run_of(level, "precoloured Sudoku graph".into(), name);
    let order = course.sudoku.shape().order();
    if order > solver.max_order() {
        return Ok(skipped(run, solver.max_order(), order));
    }
    let target = measure(&mut run, &SudokuToColouring, &course.sudoku)?;
    let report = solve_grid(&mut run, solver.as_ref(), &course.sudoku, &options.limits)?;
    run.answer = match search_answer(&report, "DSATUR search tree") {
        Some(answer) => answer,
        None => {
            let started = Instant::now();
            let grid = &report.solutions[0];
            let colours: Vec<usize> = (0..course.sudoku.shape().cells())
                .map(|c| grid.get(c).unwrap_or(usize::MAX))
                .collect();
            let witness = format!(
                "a proper colouring of the {} vertices with {} colours, extending the {} \
                 precoloured ones",
                run.size.variables, order, run.size.fixed
            );
            let mapped = down(&SudokuToColouring, course, &target, &colours);
            completed(&mut run, started, mapped, witness)?
        }
    };
    Ok(run)
}

/// Builds a level's instance from the Sudoku, timed, with its measured and predicted sizes.
fn measure<R>(run: &mut LevelRun, reduction: &R, sudoku: &Grid) -> Result<R::Target, CourseError>
where
    R: Reduction<Source = Grid>,
{
    let started = Instant::now();
    let target = reduction.reduce(sudoku).map_err(check(run.level))?;
    run.reduce_time = started.elapsed();
    run.names = reduction.size_names();
    run.size = reduction.size_of(&target);
    run.predicted = Some(reduction.target_size(sudoku).map_err(check(run.level))?);
    Ok(target)
}

/// Runs a grid backend for one solution, timed.
fn solve_grid(
    run: &mut LevelRun,
    solver: &dyn Solver,
    puzzle: &Grid,
    limits: &Limits,
) -> Result<crate::search::CountReport, CourseError> {
    let started = Instant::now();
    let report = solver
        .count(puzzle, 1, limits)
        .map_err(solve_error(run.level))?;
    run.solve_time = started.elapsed();
    run.stats = report.stats;
    Ok(report)
}

/// A mapped-back answer: the completion, or the check that failed.
fn completed(
    run: &mut LevelRun,
    started: Instant,
    mapped: Result<(Grid, Grid), ReductionError>,
    witness: String,
) -> Result<LevelAnswer, CourseError> {
    let (sudoku_solution, completion) = mapped.map_err(check(run.level))?;
    run.check_time = started.elapsed();
    Ok(LevelAnswer::Completed {
        witness,
        sudoku_solution: Some(sudoku_solution),
        completion,
    })
}
