//! `reduce_latin`: a partial Latin square reduced to Sudoku (the first step of the
//! NP-completeness chain), a `LatinReduction` value of `sudokit._results`, with what it does
//! with the library: the completion a solution gives, both grids side by side as SVG, and the
//! chain as an HTML report (the library's renderers). Each reduces the square again (a
//! function of it, quick beside a solve of its Sudoku).

use pyo3::prelude::*;
use sudokit::render::report::{ChainReport, ReportLevel, ReportTable};
use sudokit::render::svg::{SvgOptions, render};
use sudokit::{Grid, LatinReduction as LibReduction};

use crate::errors::failure;
use crate::grid_input::{candidate_of, grid_of};
use crate::puzzle::Puzzle;
use crate::values::result;

/// A reduction and the pictures of it.
struct Views {
    reduction: LibReduction,
}

impl Views {
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

/// The reduction of a square (a `Puzzle` or text).
fn views(square: &Bound<'_, PyAny>) -> PyResult<Views> {
    let reduction = sudokit::reduce_latin(&grid_of(square)?).map_err(failure)?;
    Ok(Views { reduction })
}

/// Reduces a partial Latin square (a `Puzzle` or text; its givens are read as a Latin square of
/// its order) to Sudoku: a `LatinReduction` of `sudokit._results` (the square, the Sudoku and
/// the sizes of both).
#[pyfunction]
pub fn reduce_latin<'py>(square: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let reduction = views(square)?.reduction;
    let sizes: Vec<(String, usize, usize, usize, usize)> = reduction
        .sizes()
        .iter()
        .map(|row| {
            let [a, b, c, d] = row.size.numbers();
            (row.level.clone(), a, b, c, d)
        })
        .collect();
    let fields = (
        Puzzle::new(reduction.square().clone()),
        Puzzle::new(reduction.sudoku().clone()),
        sizes,
    );
    result(square.py(), "LatinReduction", fields)
}

/// The completion of `square` that `solution` (a solution of its Sudoku) gives, verified.
#[pyfunction]
pub fn latin_back(square: &Bound<'_, PyAny>, solution: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    Ok(Puzzle::new(
        views(square)?.completion(&candidate_of(solution)?)?,
    ))
}

/// The chain of `square`'s reduction as a self-contained HTML page; with `solution` (of the
/// Sudoku), both verified solutions drawn too.
#[pyfunction]
#[pyo3(signature = (square, solution = None))]
pub fn latin_report(
    square: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let solution = solution.map(grid_of).transpose()?;
    Ok(views(square)?.chain_report(solution.as_ref())?.to_html())
}

/// Both grids of `square`'s reduction side by side, the cells of the Sudoku that carry the
/// square shaded; with `solution` (of the Sudoku), the solutions drawn in.
#[pyfunction]
#[pyo3(signature = (square, solution = None))]
pub fn latin_svg(
    square: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let views = views(square)?;
    let solution = solution.map(grid_of).transpose()?;
    let completion = solution.as_ref().map(|s| views.completion(s)).transpose()?;
    let square = render(
        views.reduction.square(),
        completion.as_ref(),
        &SvgOptions {
            caption: Some("Latin square L".into()),
            ..SvgOptions::default()
        },
    );
    let sudoku = render(
        views.reduction.sudoku(),
        solution.as_ref(),
        &SvgOptions {
            cell: 24.0,
            highlight: views.carriers(),
            caption: Some("its Sudoku".into()),
            ..SvgOptions::default()
        },
    );
    Ok(side_by_side(&[square, sudoku]))
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
