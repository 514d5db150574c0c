//! `grade` (which of Simonis' propagation schemes solve a puzzle without search: the grade
//! job's record, made a `Grade` value in `sudokit._results`), `generate` (locally minimal
//! well-posed puzzles, seeded) and `minimize`.

use pyo3::prelude::*;
use serde_json::json;
use sudokit::jobs::generate::{GenerateJob, GenerateOptions};
use sudokit::jobs::grade::{GradeJob, GradeOptions};
use sudokit::jobs::minimize::{MinimizeJob, MinimizeOptions};
use sudokit::jobs::{ItemResult, Job, JobRecord, PuzzleItem};
use sudokit::propagate::Scheme;
use sudokit::text::ReadPuzzle;

use crate::errors::failure;
use crate::grid_input::grid_of;
use crate::interrupt::cancellable;
use crate::jobs::{control_of, option_error, options_of_json};
use crate::puzzle::Puzzle;
use crate::values::{record_dict, result};

/// A scheme list from Python: a string or a list of names.
pub fn scheme_list(schemes: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    match schemes {
        None => Ok("all".to_string()),
        Some(value) => match value.extract::<String>() {
            Ok(text) => Ok(text),
            Err(_) => Ok(value.extract::<Vec<String>>()?.join(",")),
        },
    }
}

/// Which propagation schemes (Simonis 2005) solve `puzzle` without search: the grade job of
/// `sudokit grade` on one puzzle.
///
/// Args:
///     puzzle: a `Puzzle`, or its text.
///     schemes: `"all"` (the eighteen, default), `"paper"` (the fifteen), or names (`"FC,HAC"`
///         or a list).
///     shave: `"once"` or `"fixpoint"` for the shaving schemes (None: as named).
///
/// Returns:
///     A `Grade` (the search-free schemes, the weakest of them, the difficulty, candidates left
///     per scheme in the order asked).
///
/// Raises:
///     ValueError: an unknown scheme or shave mode. ParseError: text that is not a puzzle.
#[pyfunction]
#[pyo3(signature = (puzzle, schemes = None, shave = None))]
pub fn grade<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    schemes: Option<&Bound<'py, PyAny>>,
    shave: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let options: GradeOptions = options_of_json(
        &json!({"schemes": scheme_list(schemes)?, "shave": shave, "threads": 1}).to_string(),
    )?;
    let job = GradeJob::new(options).map_err(option_error)?;
    let item = PuzzleItem::new("-", 0, Ok(ReadPuzzle { line: 1, grid }));
    match cancellable(py, |cancel| job.run(item, &control_of(&cancel)))? {
        ItemResult::Done(record) => {
            let order: Vec<&str> = record.schemes.iter().map(|s| s.name()).collect();
            let json = record.json();
            result(
                py,
                "Grade",
                (record_dict(py, &json)?, order, json.to_string()),
            )
        }
        ItemResult::Failed(e) => Err(failure(e.message)),
        ItemResult::Cancelled => Err(failure("the grading was stopped")),
    }
}

/// Every scheme name, weakest first (the eighteen of `"all"`).
#[pyfunction]
pub fn schemes() -> Vec<&'static str> {
    Scheme::EVERY.iter().map(|s| s.name()).collect()
}

/// A locally minimal well-posed puzzle with `box=(p, q)` boxes, drawn from `(seed, index)`
/// exactly as `sudokit generate --seed SEED` draws its puzzle number `index` (the generate
/// job's own draw).
///
/// Args:
///     box: the box shape `(p, q)`.
///     seed, index: the draw.
///     symmetry: of the givens (`none`, `rot180`, `rot90`, `mirror`, `diagonal`).
///     givens: stop removing givens at this many.
///     scheme: a scheme that must solve it search-free; `not_scheme` one that must not.
///     difficulty: an everyday label (`easy`, `medium`, `hard`, `expert`), which stands for a
///         scheme and a not_scheme.
///     shave: how the shaving schemes shave (`once`, `fixpoint`).
///     grids: where complete grids come from (`search`, `pattern`).
///     attempts: complete grids tried before giving up (default: the job's, as the command
///         line's).
///
/// Returns:
///     The `Puzzle`.
///
/// Raises:
///     ValueError: a bad option. SudokitError: no puzzle within `attempts`.
///     KeyboardInterrupt: Ctrl-C.
#[pyfunction]
#[pyo3(signature = (r#box = (3, 3), seed = 1, index = 0, symmetry = "none", givens = None, scheme = None, not_scheme = None, difficulty = None, shave = None, grids = "search", attempts = None))]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    r#box: (usize, usize),
    seed: u64,
    index: u64,
    symmetry: &str,
    givens: Option<usize>,
    scheme: Option<&str>,
    not_scheme: Option<&str>,
    difficulty: Option<&str>,
    shave: Option<&str>,
    grids: &str,
    attempts: Option<usize>,
) -> PyResult<Puzzle> {
    let mut options = json!({
        "box": r#box,
        "count": index.saturating_add(1),
        "seed": seed,
        "symmetry": symmetry,
        "givens": givens,
        "scheme": scheme,
        "not_scheme": not_scheme,
        "difficulty": difficulty,
        "shave": shave,
        "grids": grids,
        "threads": 1,
    });
    // The job's own default when not given (one place for it).
    if let Some(attempts) = attempts {
        options["attempts"] = attempts.into();
    }
    let options: GenerateOptions = options_of_json(&options.to_string())?;
    let job = GenerateJob::new(options).map_err(option_error)?;
    let made = cancellable(py, |cancel| job.make(index, &cancel))?.map_err(failure)?;
    Ok(Puzzle::new(made.generated.puzzle))
}

/// The puzzle with redundant givens removed until every given is needed (the minimize job of
/// `sudokit minimize` on one puzzle).
///
/// Args:
///     puzzle: a well-posed `Puzzle`, or its text.
///     seed: remove givens in the random order of this seed (None: cell order).
///
/// Returns:
///     The locally minimal `Puzzle`.
///
/// Raises:
///     SudokitError: a puzzle that is not well posed. ParseError: text that is not a puzzle.
///     KeyboardInterrupt: Ctrl-C.
#[pyfunction]
#[pyo3(signature = (puzzle, seed = None))]
pub fn minimize(py: Python<'_>, puzzle: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<Puzzle> {
    let grid = grid_of(puzzle)?;
    let job = MinimizeJob::new(MinimizeOptions {
        seed,
        threads: Some(1),
    })
    .map_err(option_error)?;
    let item = PuzzleItem::new("-", 0, Ok(ReadPuzzle { line: 1, grid }));
    match cancellable(py, |cancel| job.run(item, &control_of(&cancel)))? {
        ItemResult::Done(record) => match record.result {
            Ok(reduced) => Ok(Puzzle::new(reduced.puzzle)),
            Err(e) => Err(failure(e)),
        },
        ItemResult::Failed(e) => Err(failure(e.message)),
        ItemResult::Cancelled => Err(failure("the reduction was stopped")),
    }
}
