//! The pictures of one Latin-square reduction (the first step of the NP-completeness chain):
//! the square and its Sudoku side by side as SVG, the cells of the Sudoku that carry the square
//! shaded, and the chain as an HTML report ([`ChainReport`]); with a solution of the Sudoku,
//! the completion of the square it gives, verified.
//!
//! # Complexity
//! Linear in the Sudoku's m⁴ cells (drawing, the verifier, the way back).

use thiserror::Error;

use crate::grid::Grid;
use crate::reduce::latin::{LatinReduction, LatinReductionError, carries_latin};
use crate::render::report::{ChainReport, ReportLevel, ReportTable};
use crate::render::svg::{SvgOptions, render};
use crate::verify::{Violation, verify};

/// Why a solution of a reduction's Sudoku cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LatinViewError {
    /// The grid does not solve the Sudoku.
    #[error("not a solution of the Sudoku: {0}")]
    NotASolution(Violation),
    /// The way back refused the grid.
    #[error(transparent)]
    Back(#[from] LatinReductionError),
    /// The way back gave a grid that does not complete the square.
    #[error("the completion is not a Latin square: {0}")]
    NotACompletion(Violation),
}

/// The cells of the Sudoku that carry the square.
pub fn carriers(reduction: &LatinReduction) -> Vec<usize> {
    let m = reduction.square().shape().order();
    let shape = reduction.sudoku().shape();
    (0..shape.cells())
        .filter(|&c| carries_latin(m, shape.row_of(c), shape.col_of(c)))
        .collect()
}

/// The completion of the square a solution of the Sudoku gives, verified as a completion of it.
///
/// # Errors
/// A grid the way back refuses, or whose completion is not one of the square.
pub fn completion(reduction: &LatinReduction, solution: &Grid) -> Result<Grid, LatinViewError> {
    let completion = reduction.back(solution)?;
    verify(reduction.square(), &completion).map_err(LatinViewError::NotACompletion)?;
    Ok(completion)
}

/// The chain of `reduction` as a report (both grids, their facts and sizes); with `solution`
/// (of the Sudoku), both solutions drawn, each verified.
///
/// # Errors
/// A `solution` that does not solve the Sudoku, or whose completion is not one of the square.
pub fn chain_report(
    reduction: &LatinReduction,
    solution: Option<&Grid>,
) -> Result<ChainReport, LatinViewError> {
    let square = reduction.square();
    let sudoku = reduction.sudoku();
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
    reduced.highlight = carriers(reduction);
    if let Some(solution) = solution {
        verify(sudoku, solution).map_err(LatinViewError::NotASolution)?;
        let completion = completion(reduction, solution)?;
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
        rows: reduction
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

/// Both grids side by side, the cells of the Sudoku that carry the square shaded; with
/// `solution` (of the Sudoku), it and the completion it gives drawn in.
///
/// # Errors
/// As [`completion`].
pub fn side_by_side_svg(
    reduction: &LatinReduction,
    solution: Option<&Grid>,
) -> Result<String, LatinViewError> {
    let completion = solution.map(|s| completion(reduction, s)).transpose()?;
    let square = render(
        reduction.square(),
        completion.as_ref(),
        &SvgOptions {
            caption: Some("Latin square L".into()),
            ..SvgOptions::default()
        },
    );
    let sudoku = render(
        reduction.sudoku(),
        solution,
        &SvgOptions {
            cell: 24.0,
            highlight: carriers(reduction),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pictures_of_a_reduction_check_the_solution_they_draw() {
        let square: Grid = "1...".parse().unwrap();
        let reduction = LatinReduction::new(&square).unwrap();
        assert_eq!(carriers(&reduction).len(), 4);
        let answer = reduction.sudoku().solve().unwrap();
        let solution = answer.solution().unwrap();
        let report = chain_report(&reduction, Some(solution)).unwrap().to_html();
        assert!(report.contains("verify completion"));
        let svg = side_by_side_svg(&reduction, Some(solution)).unwrap();
        assert_eq!(svg.matches("<svg").count(), 3);
        // Two cells of the first row swapped: the row is still a permutation, the columns not.
        let mut wrong = solution.clone();
        let (a, b) = (solution.raw()[0], solution.raw()[1]);
        wrong.set(0, Some(usize::from(b)));
        wrong.set(1, Some(usize::from(a)));
        assert!(matches!(
            chain_report(&reduction, Some(&wrong)),
            Err(LatinViewError::NotASolution(_))
        ));
    }
}
