//! Reading and writing puzzles: the puzzle line, the grid block and JSON lines.
//!
//! The three forms (DESIGN.md §5, user side 1-based):
//! - **puzzle line**: n² symbols, row-major; `.` or `0` empty; values `1-9` then `A-Z` (A = 10),
//!   so orders up to 35. The shape comes from the length (see [`Shape::default_for_order`]) unless
//!   a [`ShapeSpec`] overrides it.
//! - **grid block**: n rows of n whitespace-separated tokens (decimal values, `0` or `.` empty,
//!   single letters `A-Z` also accepted); `|`, `-`, `+` and `=` separators are ignored; blocks are
//!   separated by blank lines. Any order up to [`MAX_ORDER`].
//! - **JSON lines**: one object per line, `{"box":[p,q],"givens":[[r,c,v],...]}` (1-based),
//!   `{"box":[p,q],"grid":"..."}` (a puzzle line), or with `"latin":true` / `"order":n` instead of
//!   `"box"`. Other fields are ignored, so the JSON lines sudokit writes read back as input.
//!
//! Blank lines and lines starting with `#` are skipped. Lines may end in CRLF; leading and trailing
//! spaces and tabs are ignored. [`PuzzleReader`] streams a file one line at a time, yields one
//! result per puzzle in input order, and after a bad puzzle carries on with the next one, so a
//! batch reports every bad line (line:column and why) and still processes the good ones.
//!
//! # Complexity
//! Reading and writing are O(n²) per puzzle; the reader keeps one line (or one grid block) in
//! memory.
//!
//! # Examples
//! ```
//! use sudokit::text::{parse_line, to_line, PuzzleReader, ReadOptions};
//! let grid = parse_line("1.3.....4....2..", None).unwrap();
//! assert_eq!(grid.shape().order(), 4);
//! assert_eq!(to_line(&grid).unwrap(), "1.3.....4....2..");
//!
//! let input = "1234341221434321\n# comment\n12\n";
//! let results: Vec<_> = PuzzleReader::new(input.as_bytes(), ReadOptions::default()).collect();
//! assert!(results[0].is_ok());
//! assert_eq!(
//!     results[1].as_ref().unwrap_err().to_string(),
//!     "line 3, column 3: the line has 2 symbols, which is not n² for any order n (16 for 4×4, 81 for 9×9, ...)"
//! );
//! ```

use std::fmt::{self, Write as _};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::grid::{Clash, Grid};
use crate::shape::{MAX_ORDER, Shape, ShapeError, order_from_cells};

/// The largest order a puzzle line can express (`Z` = 35).
pub const MAX_LINE_ORDER: usize = 35;

/// The longest line the reader keeps in memory (64 MiB): far above any puzzle (a JSON line with
/// every given of a 1024×1024 grid is about 15 MiB), so a huge line without a newline (a binary
/// file, a wrong file) costs bounded memory and is reported, not loaded.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// The symbols of values `1..=35` in a puzzle line.
pub const ALPHABET: &[u8; 35] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A shape chosen by the user (`--box PxQ`, `--latin`) instead of the one inferred from the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeSpec {
    /// Boxes of `p` rows × `q` columns.
    Box(usize, usize),
    /// A Latin square (no boxes), order from the size.
    Latin,
}

impl ShapeSpec {
    /// The shape of order `order` this spec asks for.
    ///
    /// # Errors
    /// [`TextErrorKind::BoxMismatch`] when `p·q ≠ order`; shape errors otherwise.
    pub fn shape_for(self, order: usize) -> Result<Shape, TextErrorKind> {
        match self {
            ShapeSpec::Latin => Shape::latin(order).map_err(TextErrorKind::Shape),
            ShapeSpec::Box(p, q) => {
                if p.checked_mul(q) != Some(order) {
                    return Err(TextErrorKind::BoxMismatch { p, q, order });
                }
                Shape::sudoku(p, q).map_err(TextErrorKind::Shape)
            }
        }
    }
}

/// The shape of order `order`: the spec's if given, else the default.
fn resolve_shape(order: usize, spec: Option<ShapeSpec>) -> Result<Shape, TextErrorKind> {
    match spec {
        Some(spec) => spec.shape_for(order),
        None => Shape::default_for_order(order).map_err(TextErrorKind::Shape),
    }
}

/// The input form of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Decide from the first puzzle: `{` → JSON, several tokens on a line → grid block, else line.
    #[default]
    Auto,
    /// One puzzle line per line.
    Line,
    /// Grid blocks separated by blank lines.
    Block,
    /// JSON lines.
    Json,
}

/// How to read a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The input form.
    pub format: Format,
    /// A shape that overrides the inferred one.
    pub shape: Option<ShapeSpec>,
    /// Whether two givens repeating a value in a unit make the puzzle an error.
    pub reject_clashes: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: Format::Auto,
            shape: None,
            reject_clashes: true,
        }
    }
}

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
    /// The shape cannot be built.
    #[error("{0}")]
    Shape(ShapeError),
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
    /// A line longer than [`MAX_LINE_BYTES`].
    #[error("the line is longer than {} MiB: not a puzzle (a binary file?)", max >> 20)]
    LineTooLong {
        /// The limit in bytes.
        max: usize,
    },
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

/// A read error with its place: 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct TextError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What is wrong.
    pub kind: TextErrorKind,
}

/// A puzzle read from a file, with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub grid: Grid,
}

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

/// Parses one puzzle line (already stripped of its line ending). Columns count characters.
///
/// # Errors
/// Length, symbol, value-range and shape errors, placed on line 1.
pub fn parse_line(line: &str, spec: Option<ShapeSpec>) -> Result<Grid, TextError> {
    parse_line_at(line, spec, 1, 1)
}

/// [`parse_line`] for a line at `line_no`, whose first character is at column `first_column`.
fn parse_line_at(
    line: &str,
    spec: Option<ShapeSpec>,
    line_no: usize,
    first_column: usize,
) -> Result<Grid, TextError> {
    let err = |column: usize, kind| TextError {
        line: line_no,
        column: first_column + column,
        kind,
    };
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
    let mut grid = Grid::empty(shape);
    // ASCII without a bad symbol (the usual case): a byte per character, no decoding; a line
    // with anything else goes through the loop below, which names the error.
    if len == line.len() {
        let fast = line
            .bytes()
            .enumerate()
            .all(|(i, byte)| match line_symbol(char::from(byte)) {
                Ok(None) => true,
                Ok(Some(v)) if v < n => {
                    grid.set(i, Some(v));
                    true
                }
                _ => false,
            });
        if fast {
            return Ok(grid);
        }
    }
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
    bytes.extend(
        grid.raw()
            .iter()
            .map(|&v| ALPHABET.get(usize::from(v)).copied().unwrap_or(b'.')),
    );
    Some(String::from_utf8(bytes).expect("the line alphabet is ASCII"))
}

/// The grid block of a grid: n rows of n decimal tokens (`.` empty), right-aligned, no separators.
pub fn to_block(grid: &Grid) -> String {
    let n = grid.shape().order();
    let width = n.to_string().len();
    let mut out = String::with_capacity(grid.raw().len() * (width + 1));
    for row in grid.raw().chunks(n) {
        for (i, &v) in row.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            if v == crate::grid::EMPTY {
                let _ = write!(out, "{:>width$}", ".");
            } else {
                let _ = write!(out, "{:>width$}", v + 1);
            }
        }
        out.push('\n');
    }
    out
}

/// The puzzle line when the order allows one, else the grid block.
pub fn to_text(grid: &Grid) -> String {
    to_line(grid).unwrap_or_else(|| to_block(grid))
}

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

fn parse_json_at(text: &str, spec: Option<ShapeSpec>, line: usize) -> Result<Grid, TextError> {
    let at = |column: usize, kind| TextError { line, column, kind };
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

/// The symbol of a grid-block token: `Ok(None)` empty, `Ok(Some(v))` 0-based value.
fn block_token(token: &str, order_hint: usize) -> Result<Option<usize>, TextErrorKind> {
    if token == "." || token == "0" {
        return Ok(None);
    }
    let value = if token.bytes().all(|b| b.is_ascii_digit()) {
        // Leading zeros and huge numbers: value too large, never an overflow.
        token.parse::<usize>().unwrap_or(usize::MAX)
    } else if token.len() == 1 && token.as_bytes()[0].is_ascii_uppercase() {
        (token.as_bytes()[0] - b'A') as usize + 10
    } else {
        return Err(TextErrorKind::BadSymbol {
            symbol: token.to_string(),
        });
    };
    if value == 0 {
        return Ok(None);
    }
    if value > order_hint {
        return Err(TextErrorKind::ValueTooLarge {
            value,
            order: order_hint,
        });
    }
    Ok(Some(value - 1))
}

/// Whether a grid-block line is only a separator (`---+---`, `|`, `===`).
fn is_separator(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '|' | '=') || c.is_whitespace())
}

/// The tokens of a grid-block row with their 1-based character columns (`|` separates too).
fn block_tokens(line: &str, first_column: usize) -> Vec<(usize, &str)> {
    let mut tokens = Vec::new();
    let mut start = None;
    let mut start_column = 0;
    for (column, (i, ch)) in (first_column..).zip(line.char_indices()) {
        let boundary = ch.is_whitespace() || ch == '|';
        match (boundary, start) {
            (false, None) => {
                start = Some(i);
                start_column = column;
            }
            (true, Some(s)) => {
                tokens.push((start_column, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push((start_column, &line[s..]));
    }
    tokens
}

/// One grid-block row: its line, and `(column, value)` per token.
type BlockRow = (usize, Vec<(usize, Option<usize>)>);

/// The rows of a grid block read so far.
#[derive(Default)]
struct BlockRows {
    order: usize,
    rows: Vec<BlockRow>,
}

impl BlockRows {
    /// Adds one content line of the block (separator lines are skipped).
    fn push(&mut self, (line, col, text): (usize, usize, String)) -> Result<(), TextError> {
        if is_separator(&text) {
            return Ok(());
        }
        let tokens = block_tokens(&text, col);
        if self.rows.is_empty() {
            self.order = tokens.len();
            if self.order > MAX_ORDER {
                return Err(TextError {
                    line,
                    column: tokens[MAX_ORDER].0,
                    kind: TextErrorKind::Shape(ShapeError::TooLarge { order: self.order }),
                });
            }
        }
        let order = self.order;
        if tokens.len() != order {
            let column = tokens
                .get(order)
                .map_or(col + text.chars().count(), |t| t.0);
            return Err(TextError {
                line,
                column,
                kind: TextErrorKind::RowLength {
                    row: self.rows.len() + 1,
                    found: tokens.len(),
                    expected: order,
                },
            });
        }
        if self.rows.len() == order {
            return Err(TextError {
                line,
                column: col,
                kind: TextErrorKind::RowCount {
                    found: order + 1,
                    expected: order,
                },
            });
        }
        let mut values = Vec::with_capacity(order);
        for (column, token) in tokens {
            let value =
                block_token(token, order).map_err(|kind| TextError { line, column, kind })?;
            values.push((column, value));
        }
        self.rows.push((line, values));
        Ok(())
    }
}

/// A streaming reader of puzzles in any of the three forms; see the module docs.
///
/// Yields `Ok(Record)` or `Err(TextError)` for each puzzle in input order. An I/O error ends the
/// stream after it is reported.
pub struct PuzzleReader<R> {
    input: R,
    options: ReadOptions,
    format: Format,
    line_no: usize,
    buffer: Vec<u8>,
    /// A content line read ahead (line number, trimmed text start column, text).
    pending: Option<(usize, usize, String)>,
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReadOptions) -> PuzzleReader<R> {
        PuzzleReader {
            input,
            format: options.format,
            options,
            line_no: 0,
            buffer: Vec::new(),
            pending: None,
            done: false,
        }
    }

    /// The next raw line: `(line number, column of first kept char, trimmed text)`, `None` at the
    /// end. Comments are returned too (the caller decides); only the line ending is removed.
    fn next_raw(&mut self) -> Option<Result<(usize, usize, String), TextError>> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(p));
        }
        match self.read_line_capped() {
            Ok(None) => None,
            Ok(Some(true)) => {
                self.line_no += 1;
                Some(Err(TextError {
                    line: self.line_no,
                    column: 1,
                    kind: TextErrorKind::LineTooLong {
                        max: MAX_LINE_BYTES,
                    },
                }))
            }
            Ok(Some(false)) => {
                self.line_no += 1;
                let line = self.line_no;
                while matches!(self.buffer.last(), Some(b'\n' | b'\r')) {
                    self.buffer.pop();
                }
                match std::str::from_utf8(&self.buffer) {
                    Ok(text) => {
                        let lead = text.len() - text.trim_start_matches([' ', '\t']).len();
                        let trimmed = text.trim_matches([' ', '\t', '\u{feff}']);
                        let column = text[..lead].chars().count() + 1;
                        Some(Ok((line, column, trimmed.to_string())))
                    }
                    Err(e) => {
                        let column = String::from_utf8_lossy(&self.buffer[..e.valid_up_to()])
                            .chars()
                            .count()
                            + 1;
                        Some(Err(TextError {
                            line,
                            column,
                            kind: TextErrorKind::NotUtf8,
                        }))
                    }
                }
            }
            Err(e) => {
                self.done = true;
                Some(Err(TextError {
                    line: self.line_no + 1,
                    column: 1,
                    kind: TextErrorKind::Io(e.to_string()),
                }))
            }
        }
    }

    /// Reads one line into `buffer` (with its ending): `None` at the end of the input,
    /// `Some(true)` when the line was longer than [`MAX_LINE_BYTES`] (then skipped to its end,
    /// holding at most that much).
    fn read_line_capped(&mut self) -> std::io::Result<Option<bool>> {
        self.buffer.clear();
        let mut any = false;
        let mut too_long = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(any.then_some(too_long));
            }
            any = true;
            let (take, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if !too_long {
                if self.buffer.len() + take > MAX_LINE_BYTES {
                    too_long = true;
                    self.buffer = Vec::new();
                } else {
                    self.buffer.extend_from_slice(&available[..take]);
                }
            }
            self.input.consume(take);
            if done {
                return Ok(Some(too_long));
            }
        }
    }

    /// The next line that is not blank and not a comment.
    fn next_content(&mut self) -> Option<Result<(usize, usize, String), TextError>> {
        loop {
            match self.next_raw()? {
                Ok((_, _, text)) if text.is_empty() || text.starts_with('#') => continue,
                other => return Some(other),
            }
        }
    }

    fn detect(text: &str) -> Format {
        if text.starts_with('{') {
            Format::Json
        } else if text.split_whitespace().nth(1).is_some() || is_separator(text) {
            Format::Block
        } else {
            Format::Line
        }
    }

    /// Reads one grid block starting at the given first row; on an error, skips the rest of the
    /// block so the next puzzle starts cleanly.
    fn read_block(&mut self, first: (usize, usize, String)) -> Result<Grid, TextError> {
        let (first_line, first_col) = (first.0, first.1);
        let mut block = BlockRows::default();
        let mut failure = block.push(first).err();
        let mut last_line = first_line;
        // The block ends at a blank line, a comment or the end of the input.
        while let Some(next) = self.next_raw() {
            match next {
                Err(e) => {
                    failure.get_or_insert(e);
                    if self.done {
                        break;
                    }
                }
                Ok((_, _, text)) if text.is_empty() || text.starts_with('#') => break,
                Ok(row) => {
                    last_line = row.0;
                    if failure.is_none() {
                        failure = block.push(row).err();
                    }
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let order = block.order;
        if block.rows.len() != order {
            return Err(TextError {
                line: last_line + 1,
                column: 1,
                kind: TextErrorKind::RowCount {
                    found: block.rows.len(),
                    expected: order,
                },
            });
        }
        let shape = resolve_shape(order, self.options.shape).map_err(|kind| TextError {
            line: first_line,
            column: first_col,
            kind,
        })?;
        let mut grid = Grid::empty(shape);
        for (r, (_, values)) in block.rows.iter().enumerate() {
            for (c, (_, v)) in values.iter().enumerate() {
                grid.set(shape.cell(r, c), *v);
            }
        }
        if self.options.reject_clashes
            && let Some(clash) = grid.first_clash()
        {
            let (line, values) = &block.rows[clash.second.row];
            return Err(TextError {
                line: *line,
                column: values[clash.second.col].0,
                kind: TextErrorKind::Clash(clash),
            });
        }
        Ok(grid)
    }

    /// The clash check for single-line forms: the error points at the second given's symbol.
    fn check_line_clash(&self, grid: Grid, line: usize, column: usize) -> Result<Grid, TextError> {
        if !self.options.reject_clashes {
            return Ok(grid);
        }
        match grid.first_clash() {
            None => Ok(grid),
            Some(clash) => {
                let n = grid.shape().order();
                let offset = clash.second.row * n + clash.second.col;
                Err(TextError {
                    line,
                    column: column + offset,
                    kind: TextErrorKind::Clash(clash),
                })
            }
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Record, TextError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (line, column, text) = match self.next_content()? {
            Ok(content) => content,
            Err(e) => return Some(Err(e)),
        };
        if self.format == Format::Auto {
            self.format = Self::detect(&text);
        }
        let result = match self.format {
            Format::Line => parse_line_at(&text, self.options.shape, line, column)
                .and_then(|g| self.check_line_clash(g, line, column)),
            Format::Json => parse_json_at(&text, self.options.shape, line).and_then(|g| {
                self.check_line_clash(g, line, column).map_err(|mut e| {
                    // A JSON clash cannot be placed on a symbol of the line.
                    e.column = column;
                    e
                })
            }),
            Format::Block | Format::Auto => self.read_block((line, column, text)),
        };
        Some(result.map(|grid| Record { line, grid }))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Auto => "auto",
            Format::Line => "line",
            Format::Block => "grid block",
            Format::Json => "JSON",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, options: ReadOptions) -> Vec<Result<Record, TextError>> {
        PuzzleReader::new(text.as_bytes(), options).collect()
    }

    #[test]
    fn lines_with_errors_and_good_ones_in_order() {
        let input = "1...\n\n1..2..3..4......\n12.4\n# x\n4..\n";
        let out = read(input, ReadOptions::default());
        assert_eq!(out.len(), 4);
        assert_eq!(
            out[0].as_ref().unwrap().grid.shape(),
            Shape::sudoku(1, 2).unwrap()
        );
        assert!(out[1].is_ok());
        assert_eq!(out[1].as_ref().unwrap().line, 3);
        let e = out[2].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (4, 4));
        assert!(matches!(
            e.kind,
            TextErrorKind::ValueTooLarge { value: 4, order: 2 }
        ));
        let e = out[3].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (6, 4));
    }

    #[test]
    fn clash_points_at_the_second_given() {
        let out = read("1..1............\n", ReadOptions::default());
        let e = out[0].as_ref().unwrap_err();
        assert_eq!(e.column, 4);
        assert_eq!(
            e.to_string(),
            "line 1, column 4: clashing givens: row 1 has 1 twice: at (1,1) and (1,4)"
        );
        let lenient = ReadOptions {
            reject_clashes: false,
            ..ReadOptions::default()
        };
        assert!(read("1..1............\n", lenient)[0].is_ok());
    }

    #[test]
    fn grid_blocks_with_separators() {
        let input = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 .\n\n. . . .\n. . . .\n. . . .\n. . . 4\n";
        let out = read(input, ReadOptions::default());
        assert_eq!(out.len(), 2);
        let g = &out[0].as_ref().unwrap().grid;
        assert_eq!(to_line(g).unwrap(), "123434122143432.");
        assert_eq!(out[1].as_ref().unwrap().line, 7);
    }

    #[test]
    fn grid_block_short_row() {
        let out = read("1 2 3 4\n3 4 1\n. . . .\n. . . .\n", ReadOptions::default());
        let e = out[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert!(matches!(
            e.kind,
            TextErrorKind::RowLength {
                row: 2,
                found: 3,
                expected: 4
            }
        ));
    }

    #[test]
    fn json_forms() {
        let g = parse_json(r#"{"box":[2,3],"givens":[[1,1,6],[6,6,1]]}"#, None).unwrap();
        assert_eq!(g.shape(), Shape::sudoku(2, 3).unwrap());
        assert_eq!(g.at(0, 0), Some(5));
        let g = parse_json(r#"{"latin":true,"grid":"12.."}"#, None).unwrap();
        assert!(g.shape().is_latin());
        let e = parse_json(r#"{"box":[2,"x"],"grid":"12.."}"#, None).unwrap_err();
        assert!(matches!(e.kind, TextErrorKind::Json(_)), "{e}");
        let back = to_json(&g);
        let again = parse_json(&back.to_string(), None).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn box_spec_must_fit() {
        let e = parse_line(
            "....................................",
            Some(ShapeSpec::Box(2, 2)),
        )
        .unwrap_err();
        assert!(matches!(e.kind, TextErrorKind::BoxMismatch { .. }));
        let g = parse_line(
            "....................................",
            Some(ShapeSpec::Box(3, 2)),
        )
        .unwrap();
        assert_eq!(g.shape().box_rows(), 3);
    }
}
