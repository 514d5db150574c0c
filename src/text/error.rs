//! Why a puzzle could not be read: [`TextErrorKind`], placed by [`Located`] as [`TextError`].

use thiserror::Error;

use super::lines::LineErrorKind;
use super::located::Located;
use crate::grid::Clash;
use crate::shape::ShapeError;

/// Why a puzzle could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextErrorKind {
    /// The input is not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// A puzzle line whose length is not n² (or not the n² of the requested shape).
    #[error("{}", length_message(*found, *expected))]
    Length {
        /// Symbols found.
        found: usize,
        /// Symbols the requested shape needs, if one was requested.
        expected: Option<usize>,
    },
    /// A puzzle line for an order the line alphabet cannot write.
    #[error(
        "a puzzle line of {order}×{order} needs values above Z = 35; write orders above 35 as grid blocks or JSON"
    )]
    LineOrderTooLarge {
        /// The order the length implies.
        order: usize,
    },
    /// A character that is not a value, `.` or `0`.
    #[error("{}", symbol_message(symbol))]
    BadSymbol {
        /// The offending symbol (a token in grid blocks).
        symbol: String,
    },
    /// A space that is not an ASCII space or tab (a no-break space pasted from a web page):
    /// it looks like a separator and is not one.
    #[error("'{}' ({}) is not a separator: separate values with ASCII spaces or tabs", ch.escape_unicode(), space_name(*ch))]
    UnicodeSpace {
        /// The character.
        ch: char,
    },
    /// A value larger than the order.
    #[error("value {value} is larger than the order {order}")]
    ValueTooLarge {
        /// The 1-based value.
        value: usize,
        /// The order n.
        order: usize,
    },
    /// Two givens repeat a value in a unit.
    #[error("clashing givens: {0}")]
    Clash(Clash),
    /// Two givens repeat a value in a box, while no row or column repeats one, in a file read
    /// with the shape inferred from its size: most likely a Latin square read without `--latin`.
    #[error(
        "clashing givens: {0} (no row or column repeats a value: if this is a Latin square, read it with --latin)"
    )]
    ClashInBoxOnly(Clash),
    /// The shape cannot be built.
    #[error("{0}")]
    Shape(ShapeError),
    /// The regions cannot be built for this grid (a map of another order, windows on an order
    /// that is not a square).
    #[error("{0}")]
    Regions(crate::shape::RegionError),
    /// `--box PxQ` that does not fit the size.
    #[error("boxes of {p}×{q} do not fit order {order} (p·q must equal n)")]
    BoxMismatch {
        /// Box rows.
        p: usize,
        /// Box columns.
        q: usize,
        /// The order of the input.
        order: usize,
    },
    /// A grid-block row with the wrong number of tokens.
    #[error("row {row} of the grid block has {found} values, the first row has {expected}")]
    RowLength {
        /// 1-based row of the block.
        row: usize,
        /// Tokens found.
        found: usize,
        /// Tokens expected.
        expected: usize,
    },
    /// A grid block with the wrong number of rows.
    #[error("the grid block has {found} rows, but its rows have {expected} values")]
    RowCount {
        /// Rows found.
        found: usize,
        /// Rows expected (the order).
        expected: usize,
    },
    /// A JSON object that does not describe a puzzle.
    #[error("JSON: {0}")]
    Json(String),
    /// Reading failed.
    #[error("read error: {0}")]
    Io(String),
    /// Text read as one puzzle that holds none.
    #[error("the text holds no puzzle")]
    NoPuzzle,
    /// Text read as one puzzle that holds more than one.
    #[error(
        "the text holds more than one puzzle (read a file of puzzles with the reader, or write one grid: one line, a block of rows, or n rows of n symbols)"
    )]
    MoreThanOne,
    /// A line longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES).
    #[error("the line is longer than {} MiB: not a puzzle (a binary file?); the rest of the input is not read", max >> 20)]
    LineTooLong {
        /// The limit in bytes.
        max: usize,
    },
}

/// The name of a Unicode space, for messages.
fn space_name(ch: char) -> String {
    let name = match ch {
        '\u{a0}' => "no-break space",
        '\u{2007}' => "figure space",
        '\u{202f}' => "narrow no-break space",
        '\u{3000}' => "ideographic space",
        '\u{85}' => "next line",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        _ => "a Unicode space",
    };
    format!("U+{:04X}, {name}", ch as u32)
}

fn length_message(found: usize, expected: Option<usize>) -> String {
    match expected {
        Some(e) => format!("the line has {found} symbols, the requested shape needs {e}"),
        None => format!(
            "the line has {found} symbols, which is not n² for any order n (16 for 4×4, 81 for 9×9, ...)"
        ),
    }
}

fn symbol_message(symbol: &str) -> String {
    let shown = symbol.escape_debug();
    match symbol.chars().next() {
        Some(c) if symbol.chars().count() == 1 && c.is_ascii_lowercase() => {
            format!("symbol '{shown}' is not a value: letters are upper case (A = 10, ..., Z = 35)")
        }
        Some(c) if symbol.chars().count() == 1 && c.is_whitespace() => {
            format!("'{shown}' inside a puzzle line: a puzzle line has no spaces")
        }
        _ => format!("symbol '{shown}' is not a value (values 1-9, A-Z; empty . or 0)"),
    }
}

/// A puzzle that could not be read, with its place: 1-based line and column (in characters).
pub type TextError = Located<TextErrorKind>;

impl From<LineErrorKind> for TextErrorKind {
    fn from(kind: LineErrorKind) -> TextErrorKind {
        match kind {
            LineErrorKind::NotUtf8 => TextErrorKind::NotUtf8,
            LineErrorKind::TooLong { max } => TextErrorKind::LineTooLong { max },
            LineErrorKind::Io(message) => TextErrorKind::Io(message),
        }
    }
}
