//! JSON lines: one object per line, `{"box":[p,q],"givens":[[r,c,v],...]}` (1-based),
//! `{"box":[p,q],"grid":"..."}` (a puzzle line), or with `"latin":true` / `"order":n` instead of
//! `"box"`.

use serde::{Deserialize, Serialize};

use super::line::parse_line_at;
use super::{ShapeSpec, TextError, TextErrorKind, resolve_shape, to_line};
use crate::grid::Grid;

/// The JSON object of a puzzle, in the form `{"box":[p,q],"grid":"..."}` for orders up to 35 and
/// `{"box":[p,q],"givens":[[r,c,v],...]}` above (`"latin":true` and `"order"` for Latin squares).
pub fn to_json(grid: &Grid) -> serde_json::Value {
    let shape = grid.shape();
    let mut object = JsonPuzzle {
        r#box: (!shape.is_latin()).then(|| [shape.box_rows(), shape.box_cols()]),
        latin: shape.is_latin().then_some(true),
        order: shape.is_latin().then_some(shape.order()),
        grid: None,
        givens: None,
    };
    match to_line(grid) {
        Some(line) => object.grid = Some(line),
        None => {
            object.givens = Some(
                grid.givens()
                    .map(|(cell, v)| [shape.row_of(cell) + 1, shape.col_of(cell) + 1, v + 1])
                    .collect(),
            )
        }
    }
    serde_json::to_value(object).expect("plain data serializes")
}

/// The JSON puzzle object, as read and written. Other fields (such as the `"line"` or `"status"`
/// that sudokit's own JSON output carries) are ignored, so output can be read back as input.
#[derive(Debug, Serialize, Deserialize)]
struct JsonPuzzle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    r#box: Option<[usize; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    latin: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    order: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    givens: Option<Vec<[usize; 3]>>,
}

/// Parses one JSON puzzle object (one line of a JSON-lines file).
///
/// # Errors
/// JSON syntax and type errors (with the column), missing or contradictory shape fields, and
/// out-of-range givens.
pub fn parse_json(text: &str, spec: Option<ShapeSpec>) -> Result<Grid, TextError> {
    parse_json_at(text, spec, 1)
}

pub(super) fn parse_json_at(
    text: &str,
    spec: Option<ShapeSpec>,
    line: usize,
) -> Result<Grid, TextError> {
    let at = |column: usize, kind| TextError::new(line, column, kind);
    let object: JsonPuzzle = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the place is reported by us.
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m)
            .to_string();
        at(e.column().max(1), TextErrorKind::Json(message))
    })?;
    let json_err = |m: &str| at(1, TextErrorKind::Json(m.to_string()));
    let object_spec = match (object.r#box, object.latin) {
        (Some(_), Some(true)) => return Err(json_err("\"box\" and \"latin\":true contradict")),
        (Some([p, q]), _) => Some(ShapeSpec::Box(p, q)),
        (None, Some(true)) => Some(ShapeSpec::Latin),
        (None, _) => spec,
    };
    match (object.grid, object.givens) {
        (Some(_), Some(_)) => Err(json_err("give either \"grid\" or \"givens\", not both")),
        (None, None) => Err(json_err("a puzzle needs \"grid\" or \"givens\"")),
        (Some(grid), None) => {
            let grid_column = text
                .find(&grid)
                .map_or(1, |i| text[..i].chars().count() + 1);
            let grid = parse_line_at(&grid, object_spec, line, grid_column)?;
            if let Some(order) = object.order.filter(|&o| o != grid.shape().order()) {
                return Err(json_err(&format!(
                    "\"order\" is {order} but \"grid\" has {} cells",
                    grid.shape().cells()
                )));
            }
            Ok(grid)
        }
        (None, Some(givens)) => {
            let order = match (object.order, object_spec) {
                (Some(n), _) => n,
                (None, Some(ShapeSpec::Box(p, q))) => p.saturating_mul(q),
                (None, _) => {
                    return Err(json_err(
                        "\"givens\" needs the shape: \"box\":[p,q], or \"order\":n",
                    ));
                }
            };
            let shape = resolve_shape(order, object_spec).map_err(|k| at(1, k))?;
            let mut grid = Grid::empty(shape);
            for [r, c, v] in givens {
                if r == 0 || c == 0 || r > order || c > order {
                    return Err(json_err(&format!(
                        "given [{r},{c},{v}]: row and column must be in 1..={order}"
                    )));
                }
                if v == 0 || v > order {
                    return Err(json_err(&format!(
                        "given [{r},{c},{v}]: value must be in 1..={order}"
                    )));
                }
                let cell = shape.cell(r - 1, c - 1);
                if grid.get(cell).is_some_and(|old| old != v - 1) {
                    return Err(json_err(&format!("cell ({r},{c}) is given twice")));
                }
                grid.set(cell, Some(v - 1));
            }
            Ok(grid)
        }
    }
}
