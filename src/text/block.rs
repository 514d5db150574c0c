//! The grid block: n rows of n whitespace-separated tokens (decimal values, `0` or `.` empty,
//! single letters `A-Z` also accepted); `|`, `-`, `+` and `=` separators are ignored; blocks are
//! separated by blank lines. Any order up to [`MAX_ORDER`].

use std::fmt::Write as _;

use super::{TextError, TextErrorKind};
use crate::grid::Grid;
use crate::shape::{MAX_ORDER, ShapeError};

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
pub(super) fn is_separator(line: &str) -> bool {
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
pub(super) struct BlockRows {
    pub(super) order: usize,
    pub(super) rows: Vec<BlockRow>,
}

impl BlockRows {
    /// Adds one content line of the block (separator lines are skipped).
    pub(super) fn push(
        &mut self,
        (line, col, text): (usize, usize, &str),
    ) -> Result<(), TextError> {
        if is_separator(text) {
            return Ok(());
        }
        let tokens = block_tokens(text, col);
        if self.rows.is_empty() {
            self.order = tokens.len();
            if self.order > MAX_ORDER {
                return Err(TextError::new(
                    line,
                    tokens[MAX_ORDER].0,
                    TextErrorKind::Shape(ShapeError::TooLarge { order: self.order }),
                ));
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
                block_token(token, order).map_err(|kind| TextError::new(line, column, kind))?;
            values.push((column, value));
        }
        self.rows.push((line, values));
        Ok(())
    }
}
