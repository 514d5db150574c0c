//! The words of an explanation: cells "(3,5)", lists of values and cells, and the removals of a
//! step grouped the shorter way ("removes 4 from (3,1), (3,8)" or "removes 2, 6 from (7,5)").
//! Everything users read is 1-based.

use crate::shape::Shape;

/// "(3,5)", 1-based.
pub fn cell_name(shape: Shape, cell: usize) -> String {
    format!("({},{})", shape.row_of(cell) + 1, shape.col_of(cell) + 1)
}

/// A list of 1-based values: "3, 8".
pub(super) fn values_text(values: impl IntoIterator<Item = usize>) -> String {
    let words: Vec<String> = values.into_iter().map(|v| (v + 1).to_string()).collect();
    words.join(", ")
}

/// "1, 2 and 3".
pub(super) fn and_list(words: impl IntoIterator<Item = String>) -> String {
    let words: Vec<String> = words.into_iter().collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

pub(super) fn cells_text(shape: Shape, cells: &[usize]) -> String {
    let words: Vec<String> = cells.iter().map(|&c| cell_name(shape, c)).collect();
    words.join(", ")
}

/// "removes 4 from (3,1), (3,8); 2 from (5,5)": the removals grouped by value, or by cell
/// ("removes 2, 6 from (7,5)") when that takes fewer groups.
pub(super) fn removals_text(shape: Shape, removed: &[(usize, usize)]) -> String {
    let mut values: Vec<usize> = removed.iter().map(|r| r.1).collect();
    values.sort_unstable();
    values.dedup();
    let mut cells: Vec<usize> = removed.iter().map(|r| r.0).collect();
    cells.sort_unstable();
    cells.dedup();
    let parts: Vec<String> = if cells.len() < values.len() {
        cells
            .iter()
            .map(|&c| {
                let of_cell = removed.iter().filter(|r| r.0 == c).map(|r| r.1);
                format!("{} from {}", values_text(of_cell), cell_name(shape, c))
            })
            .collect()
    } else {
        values
            .iter()
            .map(|&v| {
                let of_value: Vec<usize> =
                    removed.iter().filter(|r| r.1 == v).map(|r| r.0).collect();
                format!("{} from {}", v + 1, cells_text(shape, &of_value))
            })
            .collect()
    };
    format!("removes {}", parts.join("; "))
}
