//! JSON lines: one object per line, `{"box":[p,q],"givens":[[r,c,v],...]}` (1-based),
//! `{"box":[p,q],"grid":"..."}` (a puzzle line), or with `"latin":true` / `"order":n` instead of
//! `"box"`. Regions: `"regions":["112...", ...]` (the n rows of a region map, as `--regions`
//! reads them) and `"extra":["diagonals","windows"]` (as `--extra`).

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::line::parse_line_at;
use super::{ShapeSpec, TextError, TextErrorKind, resolve_shape, to_line};
use crate::grid::Grid;
use crate::shape::{ExtraSet, MAX_ORDER, RegionSpec};

/// The JSON object of a puzzle, in the form `{"box":[p,q],"grid":"..."}` for orders up to 35 and
/// `{"box":[p,q],"givens":[[r,c,v],...]}` above (`"latin":true` and `"order"` for Latin squares).
pub fn to_json(grid: &Grid) -> serde_json::Value {
    let shape = grid.shape();
    let map = shape.regions().and_then(|regions| regions.map_rows());
    let extra = shape
        .regions()
        .and_then(|regions| regions.extra_sets())
        .filter(|sets| !sets.is_empty())
        .map(|sets| sets.iter().map(|set| set.name().to_string()).collect());
    let mut object = JsonPuzzle {
        r#box: (!shape.is_latin() && map.is_none()).then(|| [shape.box_rows(), shape.box_cols()]),
        latin: shape.is_latin().then_some(true),
        order: (shape.is_latin() || map.is_some()).then_some(shape.order()),
        regions: map,
        extra,
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

/// The JSON puzzle object, as written.
#[derive(Debug, Serialize)]
struct JsonPuzzle {
    #[serde(skip_serializing_if = "Option::is_none")]
    r#box: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latin: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    givens: Option<Vec<[usize; 3]>>,
}

/// The keys of a puzzle object.
const PUZZLE_KEYS: &str = "box, latin, order, regions, extra, grid, givens";

/// The JSON puzzle object, as read: the puzzle keys, and the keys that sudokit's own JSON output
/// puts beside a puzzle (`generate`, `minimize`, `reduce latin`), which are ignored so that output
/// can be read back as input. Any other key is an error: a misspelt `"Latin"` must not turn a
/// Latin square into a Sudoku.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "the output fields are read only to be ignored")]
struct JsonInput {
    #[serde(default)]
    r#box: Option<[usize; 2]>,
    #[serde(default)]
    latin: Option<bool>,
    #[serde(default)]
    order: Option<usize>,
    #[serde(default)]
    regions: Option<Vec<String>>,
    #[serde(default)]
    extra: Option<Vec<String>>,
    #[serde(default)]
    grid: Option<String>,
    #[serde(default)]
    givens: Option<Givens>,
    // sudokit's own output fields.
    #[serde(default)]
    line: Option<IgnoredAny>,
    #[serde(default)]
    file: Option<IgnoredAny>,
    #[serde(default)]
    status: Option<IgnoredAny>,
    #[serde(default)]
    index: Option<IgnoredAny>,
    #[serde(default)]
    seed: Option<IgnoredAny>,
    #[serde(default)]
    attempts: Option<IgnoredAny>,
    #[serde(default)]
    solution: Option<IgnoredAny>,
    #[serde(default)]
    before: Option<IgnoredAny>,
    #[serde(default)]
    after: Option<IgnoredAny>,
    #[serde(default)]
    removed: Option<IgnoredAny>,
    #[serde(default)]
    already_minimal: Option<IgnoredAny>,
    #[serde(default)]
    latin_order: Option<IgnoredAny>,
}

/// `"givens"` as read: the cells of a puzzle, or (beside a `"grid"`, in the output of
/// `generate`) their number, which is ignored. Read by hand rather than as an untagged enum, so
/// that an error inside the list keeps serde_json's message and column.
#[derive(Debug)]
enum Givens {
    Cells(Vec<[usize; 3]>),
    Count,
}

impl<'de> Deserialize<'de> for Givens {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Givens, D::Error> {
        struct GivensVisitor;
        impl<'de> serde::de::Visitor<'de> for GivensVisitor {
            type Value = Givens;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of [row, column, value] (1-based)")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Givens, A::Error> {
                let mut cells = Vec::new();
                while let Some(cell) = seq.next_element::<[usize; 3]>()? {
                    cells.push(cell);
                }
                Ok(Givens::Cells(cells))
            }

            fn visit_u64<E: serde::de::Error>(self, _count: u64) -> Result<Givens, E> {
                Ok(Givens::Count)
            }
        }
        deserializer.deserialize_any(GivensVisitor)
    }
}

/// serde_json's message for a JSON error, rewritten for users: no " at line L column C" (the place
/// is reported by the caller), unknown keys with the keys a puzzle has, and numbers too large for
/// their field as written in the input (serde_json shows them as floating point, `1e+20`).
fn json_message(error: &serde_json::Error, text: &str) -> String {
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or_default();
        return format!(
            "unknown key \"{key}\": a puzzle has {PUZZLE_KEYS} (keys of sudokit's own output are ignored)"
        );
    }
    let out_of_range = message.starts_with("invalid type: floating point")
        || message.starts_with("invalid value: integer");
    if out_of_range
        && message.ends_with("expected usize")
        && let Some(number) = number_ending_at(text, error.column())
    {
        return format!(
            "number {number} is not a whole number from 0 to {MAX_ORDER} (orders, box sides, rows, columns and values are at most {MAX_ORDER})"
        );
    }
    message.to_string()
}

/// The number literal that ends at byte column `column` (1-based, as serde_json counts) of
/// `text`.
fn number_ending_at(text: &str, column: usize) -> Option<&str> {
    let end = column.min(text.len());
    let head = text.get(..end)?;
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))
        .map_or(0, |i| i + 1);
    let number = &head[start..];
    (!number.is_empty()).then_some(number)
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
    let object: JsonInput = serde_json::from_str(text).map_err(|e| {
        at(
            e.column().max(1),
            TextErrorKind::Json(json_message(&e, text)),
        )
    })?;
    let json_err = |m: &str| at(1, TextErrorKind::Json(m.to_string()));
    let own = match (object.r#box, object.latin) {
        (Some(_), Some(true)) => return Err(json_err("\"box\" and \"latin\":true contradict")),
        (Some([p, q]), _) => Some(ShapeSpec::Box(p, q)),
        (None, Some(true)) => Some(ShapeSpec::Latin),
        (None, _) => None,
    };
    // The object's own regions, on its own shape; the flags' regions apply when it has none.
    let key_column = |key: &str| text.find(key).map_or(1, |i| text[..i].chars().count() + 1);
    let own_regions = object_regions(&object).map_err(|k| at(key_column("\"regions\""), k))?;
    let (spec, own) = if own_regions.is_empty() {
        (spec, own)
    } else {
        let with = ShapeSpec::with_regions(own, own_regions)
            .map_err(|e| at(key_column("\"latin\""), TextErrorKind::Shape(e)))?;
        let flag_regions = spec.map(ShapeSpec::regions).unwrap_or_default();
        if !flag_regions.is_empty() && flag_regions != own_regions {
            return Err(at(
                key_column("\"regions\""),
                TextErrorKind::Json(
                    "--regions/--extra contradict the puzzle's own \"regions\"/\"extra\"; drop the flags or the keys".to_string(),
                ),
            ));
        }
        // A box flag still applies under the object's regions unless the object names its box.
        let spec = match (spec.and_then(ShapeSpec::boxes), object.r#box) {
            (Some((p, q)), None) => {
                ShapeSpec::with_regions(Some(ShapeSpec::Box(p, q)), own_regions)
                    .map_err(|e| at(1, TextErrorKind::Shape(e)))?
            }
            _ => with,
        };
        (spec, with)
    };
    // A shape flag that contradicts the puzzle's own shape is an error naming both, never
    // silently overridden in either direction.
    let flag_contradicts = match (spec, own) {
        (Some(flag), Some(own)) => flag != own,
        (Some(ShapeSpec::Latin), None) => object.latin == Some(false),
        _ => false,
    };
    if flag_contradicts {
        let flag = match spec {
            Some(ShapeSpec::Box(p, q) | ShapeSpec::Regions(Some((p, q)), _)) => {
                format!("--box {p}x{q}")
            }
            Some(ShapeSpec::Regions(None, _)) => "--regions/--extra".to_string(),
            _ => "--latin".to_string(),
        };
        let (key, stated) = match own {
            Some(ShapeSpec::Box(p, q) | ShapeSpec::Regions(Some((p, q)), _)) => {
                ("\"box\"", format!("\"box\":[{p},{q}]"))
            }
            Some(ShapeSpec::Regions(None, _)) => ("\"regions\"", "\"regions\"".to_string()),
            Some(ShapeSpec::Latin) => ("\"latin\"", "\"latin\":true".to_string()),
            None => ("\"latin\"", "\"latin\":false".to_string()),
        };
        let column = text.find(key).map_or(1, |i| text[..i].chars().count() + 1);
        return Err(at(
            column,
            TextErrorKind::Json(format!(
                "{flag} contradicts the puzzle's own shape ({stated}); drop the flag or the key"
            )),
        ));
    }
    let object_spec = own.or(spec);
    let givens = match object.givens {
        Some(Givens::Count) if object.grid.is_some() => None,
        Some(Givens::Count) => {
            return Err(json_err(
                "\"givens\" must be a list of [row, column, value] (1-based)",
            ));
        }
        Some(Givens::Cells(cells)) => Some(cells),
        None => None,
    };
    match (object.grid, givens) {
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
                (None, Some(ShapeSpec::Box(p, q) | ShapeSpec::Regions(Some((p, q)), _))) => {
                    match p.checked_mul(q) {
                        Some(n) => n,
                        None => {
                            return Err(json_err(&format!(
                                "boxes of {p}×{q} make an order larger than the maximum {MAX_ORDER}"
                            )));
                        }
                    }
                }
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
                if grid.get(cell).is_some() {
                    return Err(json_err(&format!("cell ({r},{c}) is given twice")));
                }
                grid.set(cell, Some(v - 1));
            }
            Ok(grid)
        }
    }
}

/// The regions an object states with `"regions"` and `"extra"` (empty when it states none).
fn object_regions(object: &JsonInput) -> Result<RegionSpec, TextErrorKind> {
    let map = object.regions.as_ref().map(|rows| rows.join("\n"));
    let extras = object
        .extra
        .iter()
        .flatten()
        .map(|name| name.parse::<ExtraSet>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(TextErrorKind::Regions)?;
    RegionSpec::new(map.as_deref(), &extras).map_err(TextErrorKind::Regions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_flag_that_contradicts_the_puzzle_is_an_error_naming_both() {
        let latin = r#"{"latin":true,"order":4,"givens":[[1,1,1]]}"#;
        let error = parse_json(latin, Some(ShapeSpec::Box(2, 2))).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1, column 2: JSON: --box 2x2 contradicts the puzzle's own shape (\"latin\":true); drop the flag or the key"
        );
        let boxed = r#"{"box":[2,2],"givens":[[1,1,1]]}"#;
        let error = parse_json(boxed, Some(ShapeSpec::Latin)).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("--latin contradicts the puzzle's own shape (\"box\":[2,2])")
        );
        assert!(parse_json(boxed, Some(ShapeSpec::Box(1, 4))).is_err());
        // Agreeing flags, and flags for a puzzle that states no shape, are fine.
        assert!(parse_json(boxed, Some(ShapeSpec::Box(2, 2))).is_ok());
        assert!(parse_json(latin, Some(ShapeSpec::Latin)).is_ok());
        let plain = r#"{"order":4,"givens":[[1,1,1]]}"#;
        assert!(
            parse_json(plain, Some(ShapeSpec::Latin))
                .unwrap()
                .shape()
                .is_latin()
        );
    }
}
