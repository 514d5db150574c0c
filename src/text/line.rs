//! The puzzle line: n² symbols, row-major; `.` or `0` empty; values `1-9` then `A-Z` (A = 10),
//! so orders up to [`MAX_LINE_ORDER`].

use super::{MAX_LINE_ORDER, ShapeSpec, TextError, TextErrorKind, resolve_shape};
use crate::grid::{EMPTY, Grid};
use crate::shape::order_from_cells;

/// The 0-based value of a puzzle-line symbol: `Ok(None)` for empty, `Err(())` if not a symbol.
#[inline]
fn line_symbol(ch: char) -> Result<Option<usize>, ()> {
    match ch {
        '.' | '0' => Ok(None),
        '1'..='9' => Ok(Some(ch as usize - '1' as usize)),
        'A'..='Z' => Ok(Some(ch as usize - 'A' as usize + 9)),
        _ => Err(()),
    }
}

/// The raw cell of a byte of a puzzle line ([`line_symbol`] on bytes): a 0-based value,
/// [`EMPTY`] for `.` and `0`, and for any other byte a code no grid holds. By comparisons and
/// selects, not a table, so a line is read with vector instructions.
#[inline(always)]
fn line_cell(byte: u8) -> u16 {
    let digit = byte.wrapping_sub(b'1');
    let letter = byte.wrapping_sub(b'A');
    if digit < 9 {
        u16::from(digit)
    } else if letter < 26 {
        u16::from(letter) + 9
    } else if byte == b'.' || byte == b'0' {
        EMPTY
    } else {
        NOT_A_CELL
    }
}

/// [`line_cell`]'s code of a byte that is not a symbol (above every order a line can write).
const NOT_A_CELL: u16 = EMPTY - 1;

/// Parses one puzzle line (already stripped of its line ending). Columns count characters.
///
/// # Errors
/// Length, symbol, value-range and shape errors, placed on line 1.
pub fn parse_line(line: &str, spec: Option<ShapeSpec>) -> Result<Grid, TextError> {
    parse_line_at(line, spec, 1, 1)
}

/// [`parse_line`] for a line at `line_no`, whose first character is at column `first_column`.
pub(super) fn parse_line_at(
    line: &str,
    spec: Option<ShapeSpec>,
    line_no: usize,
    first_column: usize,
) -> Result<Grid, TextError> {
    let err = |column: usize, kind| TextError::new(line_no, first_column + column, kind);
    // Columns count characters; for an ASCII line (the usual case) those are its bytes.
    let len = if line.is_ascii() {
        line.len()
    } else {
        line.chars().count()
    };
    let order = order_from_cells(len);
    let shape = match (order, spec) {
        (Some(n), _) if n > MAX_LINE_ORDER => {
            return Err(err(0, TextErrorKind::LineOrderTooLarge { order: n }));
        }
        (Some(n), spec) => resolve_shape(n, spec).map_err(|k| err(len, k))?,
        // Checked: a JSON `"box"` can hold any two numbers.
        (None, Some(ShapeSpec::Box(p, q)))
            if p.checked_mul(q).is_some_and(|n| n <= MAX_LINE_ORDER) =>
        {
            let needed = (p * q) * (p * q);
            return Err(err(
                len.min(needed),
                TextErrorKind::Length {
                    found: len,
                    expected: Some(needed),
                },
            ));
        }
        (None, _) => {
            // Name a bad symbol first if there is one: "12x4" is a typo, not a length problem.
            if let Some((i, ch)) = line
                .chars()
                .enumerate()
                .find(|(_, c)| line_symbol(*c).is_err())
            {
                return Err(err(i, TextErrorKind::BadSymbol { symbol: ch.into() }));
            }
            return Err(err(
                len,
                TextErrorKind::Length {
                    found: len,
                    expected: None,
                },
            ));
        }
    };
    let n = shape.order();
    // ASCII without a bad symbol (the usual case): a byte per character, each looked up in a
    // vector pass, checked in another; a line with anything else goes through the loop below, which
    // names the error.
    if len == line.len() {
        let cells = line.as_bytes().iter().map(|&byte| line_cell(byte));
        if let Some(grid) = Grid::from_raw(shape, cells.collect()) {
            return Ok(grid);
        }
    }
    let mut grid = Grid::empty(shape);
    for (i, ch) in line.chars().enumerate() {
        match line_symbol(ch) {
            Ok(None) => {}
            Ok(Some(v)) if v < n => grid.set(i, Some(v)),
            Ok(Some(v)) => {
                return Err(err(
                    i,
                    TextErrorKind::ValueTooLarge {
                        value: v + 1,
                        order: n,
                    },
                ));
            }
            Err(()) => return Err(err(i, TextErrorKind::BadSymbol { symbol: ch.into() })),
        }
    }
    Ok(grid)
}

/// The puzzle line of a grid, or `None` when the order is above [`MAX_LINE_ORDER`].
pub fn to_line(grid: &Grid) -> Option<String> {
    // One byte more: callers usually append a line ending.
    let mut line = String::with_capacity(grid.raw().len() + 1);
    push_line(grid, &mut line).then_some(line)
}

/// Appends the puzzle line of a grid to `out` (a buffer a writer reuses); `false`, appending
/// nothing, when the order is above [`MAX_LINE_ORDER`].
pub fn push_line(grid: &Grid, out: &mut String) -> bool {
    if grid.shape().order() > MAX_LINE_ORDER {
        return false;
    }
    let mut chunk = [0u8; 128];
    for cells in grid.raw().chunks(chunk.len()) {
        let symbols = &mut chunk[..cells.len()];
        for (symbol, &v) in symbols.iter_mut().zip(cells) {
            *symbol = line_symbol_of(v);
        }
        out.push_str(std::str::from_utf8(symbols).expect("the line alphabet is ASCII"));
    }
    true
}

/// The symbol of a raw cell on a puzzle line ([`super::ALPHABET`], `.` for an empty cell), by
/// arithmetic rather than a table, so a line is written with vector instructions: `1`–`9` then
/// `A`–`Z` (7 codes past `9`). A value is below 35; EMPTY (any larger code) is `.`.
#[inline(always)]
fn line_symbol_of(v: u16) -> u8 {
    // (The narrowing keeps 35 and above apart: min first.)
    let d = v.min(35) as u8;
    let symbol = b'1' + d + if d >= 9 { 7 } else { 0 };
    if d == 35 { b'.' } else { symbol }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::EMPTY;
    use crate::text::ALPHABET;

    #[test]
    fn every_byte_reads_as_its_symbol_or_as_no_cell() {
        for byte in 0..=u8::MAX {
            let expected = match line_symbol(char::from(byte)) {
                Ok(Some(v)) => v as u16,
                Ok(None) => EMPTY,
                Err(()) => NOT_A_CELL,
            };
            // (A byte above 127 is not a character of its own; none of them is a symbol.)
            assert_eq!(line_cell(byte), expected, "byte {byte}");
        }
    }

    #[test]
    fn a_cell_is_written_with_the_alphabet_and_an_empty_cell_as_a_dot() {
        for (v, &symbol) in ALPHABET.iter().enumerate() {
            assert_eq!(line_symbol_of(v as u16), symbol, "value {v}");
        }
        for code in [35, 36, 255, 256, 291, EMPTY - 1, EMPTY] {
            assert_eq!(line_symbol_of(code), b'.', "code {code}");
        }
    }
}
