//! `grade` (which of Simonis' propagation schemes solve a puzzle without search), `generate`
//! (locally minimal well-posed puzzles, seeded) and `minimize`.

use pyo3::prelude::*;
use sudokit::generate::puzzle::{
    GridSource, Options, Symmetry, minimize as minimize_puzzle, puzzle_rng,
};
use sudokit::grade::{Grade as LibGrade, Grader, Verdict};
use sudokit::propagate::{Scheme, Shaving};

use crate::errors::{failure, value_error};
use crate::interrupt::detached;
use crate::puzzle::{Puzzle, grid_of};

/// The schemes a list names (`"all"`, `"paper"`, `"FC,HAC"` or a list of names), shaved as
/// `shave` says (`once`, `fixpoint`, or None: as named), repeats dropped.
pub fn parse_schemes(schemes: &str, shave: Option<&str>) -> PyResult<Vec<Scheme>> {
    let shaving = match shave {
        None => None,
        Some("once") => Some(Shaving::Once),
        Some("fixpoint") => Some(Shaving::Fixpoint),
        Some(other) => {
            return Err(value_error(format!(
                "shave must be once or fixpoint, not {other}"
            )));
        }
    };
    let mut out: Vec<Scheme> = Vec::new();
    for scheme in Scheme::parse_list(schemes).map_err(value_error)? {
        let scheme = shaving.map_or(scheme, |mode| scheme.with_shaving(mode));
        if !out.contains(&scheme) {
            out.push(scheme);
        }
    }
    Ok(out)
}

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
                    Verdict::SearchFree => Some(self.cells),
                    Verdict::Open { candidates } => Some(candidates),
                    Verdict::Refuted => None,
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

/// Which propagation schemes (Simonis 2005) solve `puzzle` without search: `schemes` is
/// `"all"` (the eighteen, default), `"paper"` (the fifteen), or names (`"FC,HAC"` or a list);
/// `shave` is `once` or `fixpoint` for the shaving schemes.
#[pyfunction]
#[pyo3(signature = (puzzle, schemes = None, shave = None))]
pub fn grade(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    schemes: Option<&Bound<'_, PyAny>>,
    shave: Option<&str>,
) -> PyResult<Grade> {
    let grid = grid_of(puzzle)?;
    let schemes = parse_schemes(&scheme_list(schemes)?, shave)?;
    let cells = grid.shape().cells();
    let grade = detached(py, move || Grader::new(grid.shape()).grade(&grid, &schemes))?;
    Ok(Grade { grade, cells })
}

/// Every scheme name, weakest first (the eighteen of `"all"`).
#[pyfunction]
pub fn schemes() -> Vec<&'static str> {
    Scheme::EVERY.iter().map(|s| s.name()).collect()
}

/// The generation options of the keyword arguments.
#[allow(clippy::too_many_arguments)]
pub fn generate_options(
    symmetry: &str,
    givens: Option<usize>,
    scheme: Option<&str>,
    not_scheme: Option<&str>,
    shave: Option<&str>,
    grids: &str,
    attempts: usize,
) -> PyResult<Options> {
    let one = |name: Option<&str>| -> PyResult<Option<Scheme>> {
        name.map(|n| -> PyResult<Scheme> {
            let list = parse_schemes(n, shave)?;
            match list.as_slice() {
                [one] => Ok(*one),
                _ => Err(value_error(format!("{n} names more than one scheme"))),
            }
        })
        .transpose()
    };
    Ok(Options {
        symmetry: symmetry.parse::<Symmetry>().map_err(value_error)?,
        givens,
        scheme: one(scheme)?,
        not_scheme: one(not_scheme)?,
        source: match grids {
            "search" => GridSource::Search,
            "pattern" => GridSource::Pattern,
            other => {
                return Err(value_error(format!(
                    "grids must be search or pattern, not {other}"
                )));
            }
        },
        attempts,
        ..Options::default()
    })
}

/// A locally minimal well-posed puzzle with `box=(p, q)` boxes, drawn from `(seed, index)`
/// exactly as `sudokit generate --seed SEED` draws its puzzle number `index`: `symmetry` of
/// the givens (`none`, `rot180`, `rot90`, `mirror`, `diagonal`), `givens` to stop at, a
/// `scheme` that must solve it search-free, a `not_scheme` that must not.
#[pyfunction]
#[pyo3(signature = (r#box = (3, 3), seed = 1, index = 0, symmetry = "none", givens = None, scheme = None, not_scheme = None, shave = None, grids = "search", attempts = 1000))]
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
    shave: Option<&str>,
    grids: &str,
    attempts: usize,
) -> PyResult<Puzzle> {
    let shape = sudokit::Shape::sudoku(r#box.0, r#box.1).map_err(value_error)?;
    let options = generate_options(symmetry, givens, scheme, not_scheme, shave, grids, attempts)?;
    let mut generator =
        sudokit::generate::puzzle::Generator::new(shape, options).map_err(value_error)?;
    let made =
        detached(py, move || generator.generate(&mut puzzle_rng(seed, index)))?.map_err(failure)?;
    Ok(Puzzle::new(made.puzzle))
}

/// The puzzle with redundant givens removed until every given is needed (it must be well
/// posed); in cell order, or in the random order of `seed`.
#[pyfunction]
#[pyo3(signature = (puzzle, seed = None))]
pub fn minimize(py: Python<'_>, puzzle: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<Puzzle> {
    let grid = grid_of(puzzle)?;
    let reduced = detached(py, move || {
        let mut rng = seed.map(|s| puzzle_rng(s, 0));
        minimize_puzzle(&grid, rng.as_mut().map(|r| r as &mut dyn rand::Rng))
    })?
    .map_err(failure)?;
    Ok(Puzzle::new(reduced.puzzle))
}
