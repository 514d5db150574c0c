//! The words of an explanation: cells "(3,5)", values as the puzzle line writes them ("7", and
//! from order 10 on the letters: "A" is 10, as in a puzzle line), lists, units, and the removals
//! of a step grouped the shorter way ("removes 4 from (3,1), (3,8)" or "removes 2, 6 from
//! (7,5)"). Everything users read is 1-based.

use crate::shape::Shape;
use crate::text::ALPHABET;

/// "(3,5)", 1-based.
pub fn cell_name(shape: Shape, cell: usize) -> String {
    format!("({},{})", shape.row_of(cell) + 1, shape.col_of(cell) + 1)
}

/// The symbol of value `v` (0-based) in a grid of order `n`: `1`–`9`, then `A` = 10 up to
/// `Z` = 35, as in a puzzle line; decimal above order 35.
pub fn symbol(n: usize, v: usize) -> String {
    match ALPHABET.get(v) {
        Some(&ch) if n <= ALPHABET.len() => (ch as char).to_string(),
        _ => (v + 1).to_string(),
    }
}

/// "value" for a Sudoku, "symbol" for a Latin square (with an "s" for several).
pub(super) fn value_word(shape: Shape, count: usize) -> &'static str {
    match (shape.is_latin(), count == 1) {
        (true, true) => "symbol",
        (true, false) => "symbols",
        (false, true) => "value",
        (false, false) => "values",
    }
}

/// A list of values: "3, 8".
pub(super) fn values_text(shape: Shape, values: impl IntoIterator<Item = usize>) -> String {
    let n = shape.order();
    let words: Vec<String> = values.into_iter().map(|v| symbol(n, v)).collect();
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

/// "(1,1), (2,3)".
pub(super) fn cells_text(shape: Shape, cells: &[usize]) -> String {
    let words: Vec<String> = cells.iter().map(|&c| cell_name(shape, c)).collect();
    words.join(", ")
}

/// "rows 1 and 2", "column 4", "boxes 1, 2 and 3": units of one kind, named together.
pub(super) fn units_text(shape: Shape, units: &[usize]) -> String {
    let Some(&first) = units.first() else {
        return "no unit".into();
    };
    let word = shape.unit(first).to_string();
    let kind = word.split(' ').next().unwrap_or("unit");
    if units.len() == 1 {
        return word;
    }
    let plural = match kind {
        "row" => "rows",
        "column" => "columns",
        _ => "boxes",
    };
    let numbers = units
        .iter()
        .map(|&u| (shape.unit(u).number + 1).to_string());
    format!("{plural} {}", and_list(numbers))
}

/// "k things" with the plural when k ≠ 1.
pub(super) fn count(k: usize, word: &str) -> String {
    if k == 1 {
        format!("1 {word}")
    } else if let Some(stem) = word.strip_suffix('x') {
        format!("{k} {stem}xes")
    } else {
        format!("{k} {word}s")
    }
}

/// "removes 4 from (3,1), (3,8); 2, 6 from (7,5)": the removals grouped by value, values with
/// the same cells together; "removes nothing" when empty.
pub(super) fn removals_text(shape: Shape, removed: &[(usize, usize)]) -> String {
    if removed.is_empty() {
        return "removes nothing".into();
    }
    let mut values: Vec<usize> = removed.iter().map(|r| r.1).collect();
    values.sort_unstable();
    values.dedup();
    // (cells, values with exactly those cells), in order of the smallest value.
    let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for v in values {
        let mut cells: Vec<usize> = removed.iter().filter(|r| r.1 == v).map(|r| r.0).collect();
        cells.sort_unstable();
        match groups.iter_mut().find(|(c, _)| *c == cells) {
            Some((_, vs)) => vs.push(v),
            None => groups.push((cells, vec![v])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(cells, vs)| {
            format!(
                "{} from {}",
                values_text(shape, vs.iter().copied()),
                cells_text(shape, cells)
            )
        })
        .collect();
    format!("removes {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_follow_the_puzzle_line() {
        assert_eq!(symbol(9, 8), "9");
        assert_eq!(symbol(16, 9), "A");
        assert_eq!(symbol(25, 24), "P");
        assert_eq!(symbol(36, 9), "10");
        let shape = Shape::sudoku(2, 2).unwrap();
        assert_eq!(units_text(shape, &[0, 1]), "rows 1 and 2");
        assert_eq!(units_text(shape, &[8, 9, 11]), "boxes 1, 2 and 4");
        assert_eq!(count(1, "option"), "1 option");
        assert_eq!(count(3, "box"), "3 boxes");
        assert_eq!(
            removals_text(shape, &[(0, 1), (5, 1)]),
            "removes 2 from (1,1), (2,2)"
        );
        assert_eq!(
            removals_text(shape, &[(0, 0), (1, 0), (2, 1), (2, 3), (3, 1)]),
            "removes 1 from (1,1), (1,2); 2 from (1,3), (1,4); 4 from (1,3)"
        );
    }
}
