//! The course demonstration: one partial Latin square carried through **every** level of the
//! chain — the square itself, its Sudoku, and the Sudoku's CNF, 0-1 ILP, exact cover and
//! precoloured graph — each level solved by its own solver, its answer checked with that
//! level's certificate, mapped back down to the square, and verified there.
//!
//! | level | instance | solver | answer read at the level | evidence of "no" |
//! |---|---|---|---|---|
//! | [`Level::Latin`] | the partial square | a backend (`native` by default) | a completion | the search tree |
//! | [`Level::Sudoku`] | its Sudoku ([`super::latin`]) | the same backend | a Sudoku solution | the search tree |
//! | [`Level::Cnf`] | [`SudokuToCnf`](super::encodings::SudokuToCnf) | varisat | a model, checked against every clause | an LRAT refutation, checked |
//! | [`Level::Ilp`] | [`SudokuToIlp`](super::encodings::SudokuToIlp) | microlp (or HiGHS) | a 0-1 point, checked against every row | the branch-and-bound tree, or the substitution of the givens |
//! | [`Level::ExactCover`] | [`SudokuToExactCover`](super::encodings::SudokuToExactCover) | dancing links (DLX) | the chosen options, each item covered once | the DLX search tree |
//! | [`Level::Colouring`] | [`SudokuToColouring`](super::encodings::SudokuToColouring) | DSATUR backtracking | a colouring, proper and extending the precolouring | the search tree |
//!
//! [`run_course`] runs the chosen levels (see [`super::levels`] for each) and requires them to
//! agree: a "yes" at one level and a "no" at another is a [`CourseError::Disagreement`] (a solver
//! bug), never a report. For a square with no completion it can also look for a **minimal
//! conflict** ([`super::conflict`]): a subset of the givens that already has no completion, none
//! of which can be dropped.
//!
//! # Complexity
//! Each level costs its reduction (polynomial, see [`super::encodings`]) plus its solver
//! (exponential in the worst case); the back-maps and checks are linear in the targets.
//!
//! # Examples
//! ```
//! use sudokit::reduce::course::{CourseOptions, Level, CourseVerdict, run_course};
//! use sudokit::text::{ShapeSpec, parse_line};
//! let square = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
//! let course = run_course(&square, &CourseOptions::default(), "square1").unwrap();
//! assert_eq!(course.levels.len(), Level::ALL.len());
//! assert!(matches!(course.verdict, CourseVerdict::Completed(_)));
//! let none = parse_line("12...3...", Some(ShapeSpec::Latin)).unwrap();
//! let course = run_course(&none, &CourseOptions::default(), "square2").unwrap();
//! assert_eq!(course.verdict, CourseVerdict::NoCompletion);
//! assert_eq!(course.conflict.unwrap().givens.filled(), 3);
//! ```

pub use crate::reduce::course_data::{
    Count, Course, CourseError, CourseOptions, CourseVerdict, Evidence, Level, LevelAnswer,
    LevelRun, count_sentence,
};

use crate::grid::Grid;
use crate::reduce::conflict::minimal_conflict;
use crate::reduce::latin::{as_latin_square, latin_to_sudoku};
use crate::search::Limits;
use crate::solve::Solver;

/// The counts made when none is asked for ([`CourseOptions::count`] is `None`): up to this many
/// solutions, within this many search nodes for each count.
pub const CHEAP_COUNT: (u64, u64) = (100, 20_000);
use crate::reduce::levels::run_level;

/// Carries `latin` through the levels of `options`; see the module docs. `label` names the
/// proof files of the CNF level (`LABEL.cnf`, `LABEL.lrat`, ...).
///
/// # Errors
/// [`CourseError`]: the square is too large, a backend is unknown or fails, a check fails at
/// some level (a wrong answer is never reported), or the levels disagree.
pub fn run_course(
    latin: &Grid,
    options: &CourseOptions,
    label: &str,
) -> Result<Course, CourseError> {
    let started = std::time::Instant::now();
    let sudoku = latin_to_sudoku(latin)?;
    let reduce_time = started.elapsed();
    let mut course = Course {
        latin: latin.clone(),
        sudoku,
        reduce_time,
        levels: Vec::new(),
        verdict: CourseVerdict::Unknown,
        count: None,
        completions: None,
        conflict: None,
        cnf: options.cnf,
    };
    for &level in &options.levels {
        let run = run_level(level, &mut course, options, label)?;
        course.levels.push(run);
    }
    let yes = course
        .levels
        .iter()
        .find(|l| matches!(l.answer, LevelAnswer::Completed { .. }));
    let no = course
        .levels
        .iter()
        .find(|l| matches!(l.answer, LevelAnswer::NoCompletion(_)));
    course.verdict = match (yes, no) {
        (Some(y), Some(n)) => {
            return Err(CourseError::Disagreement {
                yes: y.level.title(),
                no: n.level.title(),
            });
        }
        (Some(run), None) => match &run.answer {
            LevelAnswer::Completed { completion, .. } => {
                CourseVerdict::Completed(completion.clone())
            }
            _ => unreachable!("found as completed"),
        },
        (None, Some(_)) => CourseVerdict::NoCompletion,
        (None, None) => CourseVerdict::Unknown,
    };
    if matches!(course.verdict, CourseVerdict::Completed(_)) {
        count_both(&mut course, options)?;
    }
    if course.verdict == CourseVerdict::NoCompletion
        && latin.shape().order() <= options.conflict_max_order
    {
        let solver = crate::solve::backend(&options.backend)?;
        course.conflict =
            minimal_conflict(latin, solver.as_ref(), &options.limits).map_err(|source| {
                CourseError::Solve {
                    level: "minimal conflict",
                    source,
                }
            })?;
    }
    Ok(course)
}

/// Counts the square's completions and (if its level ran) the Sudoku's solutions, where cheap
/// or up to the asked limit, and checks that the counts agree.
fn count_both(course: &mut Course, options: &CourseOptions) -> Result<(), CourseError> {
    let solver = crate::solve::backend(&options.backend)?;
    let (limit, limits) = match options.count {
        Some(limit) => (limit, options.limits.clone()),
        None => (
            CHEAP_COUNT.0,
            Limits {
                nodes: Some(CHEAP_COUNT.1),
                ..options.limits.clone()
            },
        ),
    };
    let count = |solver: &dyn Solver, grid: &Grid| -> Result<Option<Count>, CourseError> {
        let report = solver
            .count(grid, limit.max(1), &limits)
            .map_err(|source| CourseError::Solve {
                level: "count",
                source,
            })?;
        Ok((report.count > 0 || report.complete()).then_some(Count {
            count: report.count,
            exact: report.complete(),
        }))
    };
    course.completions = count(solver.as_ref(), &as_latin_square(&course.latin))?;
    if course.count.is_none() && course.level(Level::Sudoku).is_some() {
        course.count = count(solver.as_ref(), &course.sudoku)?;
    }
    if let (Some(a), Some(b)) = (course.completions, course.count) {
        let differ = (a.exact && b.exact && a.count != b.count)
            || (a.exact && a.count < b.count)
            || (b.exact && b.count < a.count);
        if differ {
            return Err(CourseError::CountsDiffer {
                completions: a.words(),
                solutions: b.words(),
            });
        }
    }
    Ok(())
}
