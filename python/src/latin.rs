//! `reduce_latin`: a partial Latin square reduced to Sudoku (the first step of the
//! NP-completeness chain), with its pictures: both grids side by side as SVG, and the chain as
//! an HTML report (the library's renderers).

use pyo3::prelude::*;
use sudokit::render::report::{ChainReport, ReportLevel, ReportTable};
use sudokit::render::svg::{SvgOptions, escape_xml, render};
use sudokit::{Grid, LatinReduction as LibReduction};

use crate::errors::failure;
use crate::grid_input::{candidate_of, grid_of};
use crate::puzzle::Puzzle;
use crate::values::{grid_of_state, grid_state, hash_grid_with, reduce};

/// A partial Latin square L of order m reduced to a Sudoku of order m² with m×m boxes
/// (completable exactly when L is): `square`, `sudoku`, `back(solution)` (the completion of L
/// a solution of the Sudoku gives, verified), `sizes`, and pictures (`_repr_svg_`: both grids,
/// the cells that carry L shaded; `_repr_html_` / `report()`: the chain as a page).
///
/// A value: equal to the reduction of the same square (the reduction is a function of it),
/// hashable, picklable (the square; it is reduced again).
#[pyclass(module = "sudokit", frozen)]
pub struct LatinReduction {
    reduction: LibReduction,
}

impl LatinReduction {
    /// The cells of the Sudoku that carry the square.
    fn carriers(&self) -> Vec<usize> {
        let m = self.reduction.square().shape().order();
        let shape = self.reduction.sudoku().shape();
        (0..shape.cells())
            .filter(|&c| sudokit::reduce::latin::carries_latin(m, shape.row_of(c), shape.col_of(c)))
            .collect()
    }

    /// The completion a solution gives, verified as a completion of the square.
    fn completion(&self, solution: &Grid) -> PyResult<Grid> {
        let completion = self.reduction.back(solution).map_err(failure)?;
        sudokit::verify(self.reduction.square(), &completion)
            .map_err(|v| failure(format!("the completion is not a Latin square: {v}")))?;
        Ok(completion)
    }

    fn chain_report(&self, solution: Option<&Grid>) -> PyResult<ChainReport> {
        let square = self.reduction.square();
        let sudoku = self.reduction.sudoku();
        let (m, n) = (square.shape().order(), sudoku.shape().order());
        let mut report = ChainReport::new("Latin square completion → Sudoku");
        report.notes.push(format!(
            "The partial Latin square L of order {m} becomes a Sudoku of order {n} with {m}×{m} \
             boxes: the highlighted cells carry L, every other cell is given by a fixed pattern. \
             A solution of the Sudoku maps back to a completion of L."
        ));
        let mut latin = ReportLevel::new("Partial Latin square L", square)
            .fact("order m", m)
            .fact("givens", square.filled());
        let mut reduced = ReportLevel::new("The Sudoku of L", sudoku)
            .fact("order n = m²", n)
            .fact("givens = n² − m² + givens(L)", sudoku.filled());
        reduced.highlight = self.carriers();
        if let Some(solution) = solution {
            sudokit::verify(sudoku, solution)
                .map_err(|v| failure(format!("not a solution of the Sudoku: {v}")))?;
            let completion = self.completion(solution)?;
            reduced = reduced.fact("verify Sudoku solution", "valid");
            latin = latin.fact("verify completion", "valid");
            reduced.solution = Some(solution.clone());
            latin.solution = Some(completion);
        }
        report.tables.push(ReportTable {
            title: "Instance sizes".to_string(),
            header: ["level", "variables", "constraints", "entries", "fixed"]
                .map(String::from)
                .to_vec(),
            rows: self
                .reduction
                .sizes()
                .iter()
                .map(|row| {
                    let mut cells = vec![row.level.clone()];
                    cells.extend(
                        row.size
                            .numbers()
                            .iter()
                            .zip(row.names)
                            .map(|(k, name)| format!("{k} {name}")),
                    );
                    cells
                })
                .collect(),
            before_level: 0,
        });
        report.levels.push(latin);
        report.levels.push(reduced);
        Ok(report)
    }
}

/// The inverse of `LatinReduction.__reduce__`: the square reduced again.
#[pyfunction]
pub fn _latin_reduction_from_state(square: &str) -> PyResult<LatinReduction> {
    let reduction = sudokit::reduce_latin(&grid_of_state(square)?).map_err(failure)?;
    Ok(LatinReduction { reduction })
}

/// Reduces a partial Latin square (a `Puzzle` or text; its givens are read as a Latin square of
/// its order) to Sudoku.
#[pyfunction]
pub fn reduce_latin(square: &Bound<'_, PyAny>) -> PyResult<LatinReduction> {
    let grid = grid_of(square)?;
    let reduction = sudokit::reduce_latin(&grid).map_err(failure)?;
    Ok(LatinReduction { reduction })
}

#[pymethods]
impl LatinReduction {
    /// The partial Latin square.
    #[getter]
    fn square(&self) -> Puzzle {
        Puzzle::new(self.reduction.square().clone())
    }

    /// The Sudoku of order m².
    #[getter]
    fn sudoku(&self) -> Puzzle {
        Puzzle::new(self.reduction.sudoku().clone())
    }

    /// The completion of the square that `solution` (a solution of the Sudoku) gives, verified.
    fn back(&self, solution: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
        Ok(Puzzle::new(self.completion(&candidate_of(solution)?)?))
    }

    /// The sizes of the square and of the Sudoku: one tuple per level, `(level, cells, units,
    /// cell–unit incidences, givens)`.
    #[getter]
    fn sizes(&self) -> Vec<(String, usize, usize, usize, usize)> {
        self.reduction
            .sizes()
            .iter()
            .map(|row| {
                let [a, b, c, d] = row.size.numbers();
                (row.level.clone(), a, b, c, d)
            })
            .collect()
    }

    /// The chain as a self-contained HTML page; with `solution` (of the Sudoku), both verified
    /// solutions drawn too.
    #[pyo3(signature = (solution = None))]
    fn report(&self, solution: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let solution = solution.map(grid_of).transpose()?;
        Ok(self.chain_report(solution.as_ref())?.to_html())
    }

    /// The report inside an iframe, so that its styles stay out of the notebook's page.
    fn _repr_html_(&self) -> PyResult<String> {
        let page = self.chain_report(None)?.to_html();
        let side = 36 * self.reduction.sudoku().shape().order();
        Ok(format!(
            "<iframe srcdoc=\"{}\" style=\"width:100%;height:{}px;border:0\"></iframe>",
            escape_xml(&page),
            side + 520
        ))
    }

    /// Both grids side by side, the cells of the Sudoku that carry the square shaded.
    #[pyo3(signature = (solution = None))]
    fn svg(&self, solution: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let solution = solution.map(grid_of).transpose()?;
        let completion = solution.as_ref().map(|s| self.completion(s)).transpose()?;
        let square = render(
            self.reduction.square(),
            completion.as_ref(),
            &SvgOptions {
                caption: Some("Latin square L".into()),
                ..SvgOptions::default()
            },
        );
        let sudoku = render(
            self.reduction.sudoku(),
            solution.as_ref(),
            &SvgOptions {
                cell: 24.0,
                highlight: self.carriers(),
                caption: Some("its Sudoku".into()),
                ..SvgOptions::default()
            },
        );
        Ok(side_by_side(&[square, sudoku]))
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(None)
    }

    /// Equal when the squares (and so the Sudokus) are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<LatinReduction>().is_ok_and(|o| {
            let o = &o.get().reduction;
            o.square() == self.reduction.square() && o.sudoku() == self.reduction.sudoku()
        })
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        hash_grid_with(self.reduction.square(), |_| ())
    }

    /// Pickling: the square.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        reduce(
            py,
            "_latin_reduction_from_state",
            (grid_state(self.reduction.square()),),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<LatinReduction: order {} square, {} givens → {}>",
            self.reduction.square().shape().order(),
            self.reduction.square().filled(),
            self.reduction.sudoku().shape()
        )
    }
}

/// SVG documents placed in a row, 16 units apart, in one document.
fn side_by_side(pictures: &[String]) -> String {
    let size = |svg: &str, attribute: &str| -> f64 {
        let key = format!("{attribute}=\"");
        svg.find(&key)
            .and_then(|i| {
                let rest = &svg[i + key.len()..];
                rest[..rest.find('"')?].parse().ok()
            })
            .unwrap_or(0.0)
    };
    let (mut x, mut height, mut inner) = (0.0, 0.0f64, String::new());
    for svg in pictures {
        inner.push_str(&svg.replacen("<svg ", &format!("<svg x=\"{x}\" "), 1));
        x += size(svg, "width") + 16.0;
        height = height.max(size(svg, "height"));
    }
    let width = (x - 16.0f64).max(0.0);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">{inner}</svg>"
    )
}
