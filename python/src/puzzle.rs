//! `Puzzle` (a grid: shape and givens): its constructors, forms and pictures, and the
//! protocols of a value (equality, hash, pickling, `len`, rows, `p[r, c]`). The package gives it
//! the module's functions as methods (`p.solve()` is `sudokit.solve(p)`). `read(path)` and the
//! conversions from Python values (`grid_input`) are beside it.

use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::PyInt;
use sudokit::render::svg::{SvgOptions, render};
use sudokit::text::{self, ReadOptions};
use sudokit::{Grid, Shape as LibShape};

use crate::errors::{text_error, value_error};
use crate::reading::{ExtraArg, MapArg, read_options, region_spec, shape_spec};

/// What pickles a puzzle: its JSON form (which keeps the shape) and its line.
type State = (String, Option<usize>);

/// A puzzle: a shape and its givens (or a complete grid: a solution is a puzzle with every cell
/// given). Immutable.
#[pyclass(module = "sudokit", frozen)]
#[derive(Clone)]
pub struct Puzzle {
    pub grid: Grid,
    /// The line of the file the puzzle was read from, if any.
    pub line: Option<usize>,
}

impl Puzzle {
    pub fn new(grid: Grid) -> Puzzle {
        Puzzle { grid, line: None }
    }
}

#[pymethods]
impl Puzzle {
    /// `Puzzle(text, box=None, latin=False, allow_clashes=False, regions=None, extra=None)`
    /// (or `Puzzle.parse`): the first puzzle of `text`: a puzzle line, a grid block or a JSON
    /// object. The shape comes from the size unless `box=(p, q)` or `latin=True` says
    /// otherwise; `regions` (a region map: its text or its rows) replaces the boxes and
    /// `extra` (`"diagonals"`, `"windows"`, or a list) adds units. Raises `ParseError` (with
    /// line and column) when the text is not a puzzle or its givens clash. With
    /// `allow_clashes=True` givens that repeat a value in a unit are kept (a candidate to
    /// `verify`, say).
    #[new]
    #[pyo3(signature = (text, r#box = None, latin = false, allow_clashes = false, regions = None, extra = None))]
    fn parse(
        text: &str,
        r#box: Option<(usize, usize)>,
        latin: bool,
        allow_clashes: bool,
        regions: Option<MapArg>,
        extra: Option<ExtraArg>,
    ) -> PyResult<Puzzle> {
        let options = ReadOptions {
            reject_clashes: !allow_clashes,
            ..read_options(r#box, latin, None, region_spec(regions, extra)?)?
        };
        let read = text::read_one(text, options).map_err(|e| text_error(None, &e))?;
        Ok(Puzzle::new(read.grid))
    }

    /// A puzzle from a list of rows of values (0 or None for an empty cell, 1..n given), with
    /// `box`, `latin`, `regions` and `extra` as `Puzzle()` takes them.
    #[staticmethod]
    #[pyo3(signature = (rows, r#box = None, latin = false, regions = None, extra = None))]
    fn from_grid(
        rows: Vec<Vec<Option<usize>>>,
        r#box: Option<(usize, usize)>,
        latin: bool,
        regions: Option<MapArg>,
        extra: Option<ExtraArg>,
    ) -> PyResult<Puzzle> {
        let spec = shape_spec(r#box, latin, region_spec(regions, extra)?)?;
        let grid = text::from_rows(&rows, spec).map_err(value_error)?;
        Ok(Puzzle::new(grid))
    }

    /// The shape: a `Shape` of `sudokit._results` (order, boxes, its words).
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let shape = self.grid.shape();
        let r#box = (!shape.is_latin() && !shape.has_region_map())
            .then(|| (shape.box_rows(), shape.box_cols()));
        let regions = shape.regions();
        let map = regions.and_then(|r| r.map_rows());
        let extra: Vec<&str> = regions
            .and_then(|r| r.extra_sets())
            .unwrap_or_default()
            .iter()
            .map(|set| set.name())
            .collect();
        crate::values::result(
            py,
            "Shape",
            (shape.order(), r#box, shape.to_string(), map, extra),
        )
    }

    /// The order n.
    #[getter]
    fn order(&self) -> usize {
        self.grid.shape().order()
    }

    /// The givens as `(row, column, value)` triples, 1-based (as in the JSON form).
    #[getter]
    fn givens(&self) -> Vec<(usize, usize, usize)> {
        let shape = self.grid.shape();
        self.grid
            .givens()
            .map(|(cell, v)| (shape.row_of(cell) + 1, shape.col_of(cell) + 1, v + 1))
            .collect()
    }

    /// Whether every cell is given (a solution).
    #[getter]
    fn complete(&self) -> bool {
        self.grid.is_complete()
    }

    /// The line of the file the puzzle was read from (None for a puzzle made otherwise).
    #[getter]
    fn line(&self) -> Option<usize> {
        self.line
    }

    /// The puzzle line (`.` for an empty cell); orders above 35 have none (ValueError).
    fn to_line(&self) -> PyResult<String> {
        text::to_line(&self.grid).ok_or_else(|| {
            value_error("a puzzle line writes orders up to 35; use to_block() or to_json()")
        })
    }

    /// The rows of values, 0 for an empty cell.
    fn to_grid(&self) -> Vec<Vec<usize>> {
        let rows = text::to_rows(&self.grid).into_iter();
        rows.map(|row| row.into_iter().map(|v| v.unwrap_or(0)).collect())
            .collect()
    }

    /// The grid block (rows of values, `.` for an empty cell).
    fn to_block(&self) -> String {
        text::to_block(&self.grid)
    }

    /// The JSON object, as one line (`{"box":[p,q],"grid":"..."}` or with `"givens"`).
    fn to_json(&self) -> String {
        text::to_json(&self.grid).to_string()
    }

    /// The picture (SVG): the givens in black and, with `solution`, its values in blue;
    /// `highlight` lists cells (row, column), 0-based, to shade.
    #[pyo3(signature = (solution = None, cell = 36.0, highlight = None, caption = None))]
    fn svg(
        &self,
        solution: Option<PyRef<'_, Puzzle>>,
        cell: f64,
        highlight: Option<Vec<(usize, usize)>>,
        caption: Option<String>,
    ) -> PyResult<String> {
        if !(cell.is_finite() && (4.0..=200.0).contains(&cell)) {
            return Err(value_error(format!(
                "cell must be between 4 and 200 pixels, not {cell}"
            )));
        }
        let shape = self.grid.shape();
        let options = SvgOptions {
            cell,
            highlight: highlight
                .unwrap_or_default()
                .into_iter()
                .filter(|&(r, c)| r < shape.order() && c < shape.order())
                .map(|(r, c)| shape.cell(r, c))
                .collect(),
            caption,
            ..SvgOptions::default()
        };
        Ok(render(
            &self.grid,
            solution.as_ref().map(|s| &s.grid),
            &options,
        ))
    }

    fn _repr_svg_(&self) -> String {
        render(&self.grid, None, &SvgOptions::default())
    }

    fn __str__(&self) -> String {
        text::to_text(&self.grid)
    }

    fn __repr__(&self) -> String {
        let shape = self.grid.shape();
        let Some(line) = text::to_line(&self.grid) else {
            return format!("<Puzzle {shape}, {} givens>", self.grid.filled());
        };
        if let Some(regions) = shape.regions() {
            let mut words = Vec::new();
            if let Some(rows) = regions.map_rows() {
                words.push(format!("regions={rows:?}"));
            } else {
                words.push(format!("box=({}, {})", shape.box_rows(), shape.box_cols()));
            }
            match regions.extra_sets() {
                Some(sets) if !sets.is_empty() => {
                    let names: Vec<&str> = sets.iter().map(|set| set.name()).collect();
                    words.push(format!("extra={names:?}"));
                }
                _ => {}
            }
            format!("Puzzle.parse({line:?}, {})", words.join(", "))
        } else if shape.is_latin() {
            format!("Puzzle.parse({line:?}, latin=True)")
        } else if LibShape::default_for_order(shape.order()) == Ok(shape) {
            format!("Puzzle.parse({line:?})")
        } else {
            format!(
                "Puzzle.parse({line:?}, box=({}, {}))",
                shape.box_rows(),
                shape.box_cols()
            )
        }
    }

    /// The number of rows, n (as `len(list(p))`; a NumPy grid's `len` is its rows too).
    fn __len__(&self) -> usize {
        self.grid.shape().order()
    }

    /// The rows, top to bottom, each a list of n values (1..n, None for an empty cell).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        let rows = text::to_rows(&self.grid);
        pyo3::types::PyList::new(py, rows)?.try_iter()
    }

    /// `p[row, col]`: the value (1..n) of the cell, or None when it is empty; row and column
    /// are 0-based (negative from the end). IndexError outside the grid, TypeError for
    /// anything but a pair of integers.
    fn __getitem__(&self, index: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let n = self.grid.shape().order() as isize;
        let Ok((r, c)) = index.extract::<(Bound<'_, PyInt>, Bound<'_, PyInt>)>() else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "a puzzle is indexed by p[row, col] (two integers, 0-based), not {}",
                index.repr()?
            )));
        };
        let place = |k: Bound<'_, PyInt>, what: &str| match k
            .extract::<isize>()
            .map(|i| if i < 0 { i + n } else { i })
        {
            Ok(at) if (0..n).contains(&at) => Ok(at as usize),
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "{what} {k} is outside the grid (0..{n})"
            ))),
        };
        Ok(self
            .grid
            .at(place(r, "row")?, place(c, "column")?)
            .map(|v| v + 1))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Puzzle>()
            .is_ok_and(|o| o.get().grid == self.grid)
    }

    /// A hash of the shape and the cells.
    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        (self.grid.shape(), self.grid.raw()).hash(&mut hasher);
        hasher.finish()
    }

    /// Pickling: the JSON form (which keeps the shape) and the line.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, State)> {
        let rebuild = py
            .import("sudokit._native")?
            .getattr("_puzzle_from_state")?;
        Ok((rebuild, (self.to_json(), self.line)))
    }
}

/// The inverse of `Puzzle.__reduce__`.
#[pyfunction]
pub fn _puzzle_from_state(json: &str, line: Option<usize>) -> PyResult<Puzzle> {
    let grid = text::parse_json(json, None).map_err(|e| text_error(None, &e))?;
    Ok(Puzzle { grid, line })
}
