//! The puzzle line: n² symbols, row-major; `.` or `0` empty; values `1-9` then `A-Z` (A = 10),
//! so orders up to [`MAX_LINE_ORDER`].

use super::{ALPHABET, MAX_LINE_ORDER, ShapeSpec, TextError, TextErrorKind, resolve_shape};
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

/// The raw cell of each byte of a puzzle line ([`line_symbol`] as a table): a 0-based value,
/// [`EMPTY`] for `.` and `0`, and for any other byte a code no grid holds.
static LINE_CELLS: [u16; 256] = {
    let mut cells = [NOT_A_CELL; 256];
    let mut byte = 0;
    while byte < 256 {
        cells[byte] = match byte as u8 {
            b'.' | b'0' => EMPTY,
            b @ b'1'..=b'9' => (b - b'1') as u16,
            b @ b'A'..=b'Z' => (b - b'A') as u16 + 9,
            _ => NOT_A_CELL,
        };
        byte += 1;
    }
    cells
};

/// [`LINE_CELLS`]' code of a byte that is not a symbol (above every order a line can write).
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
    // table, checked in one pass; a line with anything else goes through the loop below, which
    // names the error.
    if len == line.len() {
        let cells = line.bytes().map(|byte| LINE_CELLS[usize::from(byte)]);
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
    if grid.shape().order() > MAX_LINE_ORDER {
        return None;
    }
    // One byte more: callers usually append a line ending.
    let mut bytes = Vec::with_capacity(grid.raw().len() + 1);
    // A value is below 35; EMPTY (any larger code) becomes the table's last symbol, `.`.
    let last = LINE_SYMBOLS.len() - 1;
    bytes.extend(
        grid.raw()
            .iter()
            .map(|&v| LINE_SYMBOLS[usize::from(v).min(last)]),
    );
    Some(String::from_utf8(bytes).expect("the line alphabet is ASCII"))
}

/// The symbol of each value of a puzzle line ([`ALPHABET`]), then `.` for an empty cell.
const LINE_SYMBOLS: [u8; 36] = {
    let mut symbols = [b'.'; 36];
    let mut v = 0;
    while v < ALPHABET.len() {
        symbols[v] = ALPHABET[v];
        v += 1;
    }
    symbols
};
