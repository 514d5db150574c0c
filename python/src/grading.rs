//! `grade` (which of Simonis' propagation schemes solve a puzzle without search), `generate`
//! (locally minimal well-posed puzzles, seeded) and `minimize`.

use pyo3::prelude::*;
use serde_json::json;
use sudokit::grade::{FixpointVerdict, Grade as LibGrade};
use sudokit::jobs::generate::{GenerateJob, GenerateOptions};
use sudokit::jobs::grade::{GradeJob, GradeOptions};
use sudokit::jobs::minimize::{MinimizeJob, MinimizeOptions};
use sudokit::jobs::{ItemResult, Job, PuzzleItem};
use sudokit::propagate::Scheme;
use sudokit::text::ReadPuzzle;

use std::hash::Hash;

use pyo3::types::PyTuple;

use crate::errors::{failure, value_error};
use crate::grid_input::grid_of;
use crate::interrupt::cancellable;
use crate::jobs::{control_of, option_error, options_of_json};
use crate::puzzle::Puzzle;
use crate::values::{hash_with, reduce};

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

/// The grade of a puzzle: per scheme, search-free, open (candidates left) or refuted.
///
/// A value: equal to a grade with the same verdicts, hashable, picklable.
#[pyclass(module = "sudokit", frozen)]
pub struct Grade {
    grade: LibGrade,
    cells: usize,
}

#[pymethods]
impl Grade {
    /// Number of givens.
    #[getter]
    fn givens(&self) -> usize {
        self.grade.givens
    }

    /// The schemes that solve the puzzle without search, in the order asked.
    #[getter]
    fn search_free(&self) -> Vec<&'static str> {
        self.grade.search_free().iter().map(|s| s.name()).collect()
    }

    /// The weakest of them (no weaker scheme asked for is search-free).
    #[getter]
    fn weakest(&self) -> Vec<&'static str> {
        self.grade.weakest().iter().map(|s| s.name()).collect()
    }

    /// Whether some scheme proved that the puzzle has no solution.
    #[getter]
    fn refuted(&self) -> bool {
        self.grade.refuted()
    }

    /// Candidates left per scheme (n² when search-free, None when refuted).
    #[getter]
    fn candidates(&self) -> Vec<(&'static str, Option<usize>)> {
        self.grade
            .verdicts
            .iter()
            .map(|&(s, v)| {
                let left = match v {
                    FixpointVerdict::SearchFree => Some(self.cells),
                    FixpointVerdict::Open { candidates } => Some(candidates),
                    FixpointVerdict::Refuted => None,
                };
                (s.name(), left)
            })
            .collect()
    }

    /// The JSON object `sudokit grade --json` writes for the puzzle (at `line` of `file`).
    #[pyo3(signature = (file = "", line = 0))]
    fn to_json(&self, file: &str, line: usize) -> String {
        use sudokit::jobs::JobRecord;
        let schemes: Vec<Scheme> = self.grade.verdicts.iter().map(|&(s, _)| s).collect();
        sudokit::jobs::grade::GradeRecord {
            file: file.into(),
            line,
            cells: self.cells,
            grade: self.grade.clone(),
            schemes: schemes.into(),
            runs: Vec::new(),
        }
        .json()
        .to_string()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Grade>()
            .is_ok_and(|o| o.get().grade == self.grade && o.get().cells == self.cells)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        hash_with(|h| (self.grade.givens, self.cells, self.verdict_state()).hash(h))
    }

    /// Pickling: the givens, the cells and the verdicts as `(scheme, kind, candidates)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (self.grade.givens, self.cells, self.verdict_state());
        reduce(py, "_grade_from_state", state)
    }

    fn __repr__(&self) -> String {
        let list = |names: Vec<&str>| {
            let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
            format!("[{}]", quoted.join(", "))
        };
        format!(
            "Grade(givens={}, search_free={}, weakest={}, refuted={})",
            self.grade.givens,
            list(self.search_free()),
            list(self.weakest()),
            if self.grade.refuted() {
                "True"
            } else {
                "False"
            }
        )
    }
}

/// A verdict as plain data: `(scheme, "search-free" | "open" | "refuted", candidates)`.
type VerdictState = (&'static str, &'static str, Option<usize>);

impl Grade {
    fn verdict_state(&self) -> Vec<VerdictState> {
        self.grade
            .verdicts
            .iter()
            .map(|&(scheme, verdict)| match verdict {
                FixpointVerdict::SearchFree => (scheme.name(), "search-free", None),
                FixpointVerdict::Open { candidates } => (scheme.name(), "open", Some(candidates)),
                FixpointVerdict::Refuted => (scheme.name(), "refuted", None),
            })
            .collect()
    }
}

/// The inverse of `Grade.__reduce__`.
#[pyfunction]
pub fn _grade_from_state(
    givens: usize,
    cells: usize,
    verdicts: Vec<(String, String, Option<usize>)>,
) -> PyResult<Grade> {
    let verdicts = verdicts
        .into_iter()
        .map(|(name, kind, candidates)| {
            let scheme = name.parse::<Scheme>().map_err(value_error)?;
            let verdict = match (kind.as_str(), candidates) {
                ("search-free", None) => FixpointVerdict::SearchFree,
                ("open", Some(candidates)) => FixpointVerdict::Open { candidates },
                ("refuted", None) => FixpointVerdict::Refuted,
                _ => return Err(value_error(format!("not a verdict: {kind} {candidates:?}"))),
            };
            Ok((scheme, verdict))
        })
        .collect::<PyResult<_>>()?;
    Ok(Grade {
        grade: LibGrade { givens, verdicts },
        cells,
    })
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
///     A `Grade` (the search-free schemes, the weakest of them, candidates left per scheme).
///
/// Raises:
///     ValueError: an unknown scheme or shave mode. ParseError: text that is not a puzzle.
#[pyfunction]
#[pyo3(signature = (puzzle, schemes = None, shave = None))]
pub fn grade(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    schemes: Option<&Bound<'_, PyAny>>,
    shave: Option<&str>,
) -> PyResult<Grade> {
    let grid = grid_of(puzzle)?;
    let options: GradeOptions = options_of_json(
        &json!({"schemes": scheme_list(schemes)?, "shave": shave, "threads": 1}).to_string(),
    )?;
    let job = GradeJob::new(options).map_err(option_error)?;
    let item = PuzzleItem::new("-", 0, Ok(ReadPuzzle { line: 1, grid }));
    let result = cancellable(py, |cancel| job.run(item, &control_of(&cancel)))?;
    match result {
        ItemResult::Done(record) => Ok(Grade {
            grade: record.grade,
            cells: record.cells,
        }),
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
