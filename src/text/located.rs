//! An error with its place in a text input: 1-based line and column. Every reader of sudokit —
//! puzzles, CNF files, solver answers, graphs, exact-cover files — reports its errors as a
//! [`Located`] of its own kind of problem, so a user always reads `line L, column C: what`.
//!
//! Columns count characters (not bytes), from 1. A column is found by counting the characters
//! before a byte offset: [`column_at`] and [`token_column`] count from the start of the line
//! (for an error, once), [`Columns`] counts on from the last token asked for (for a reader that
//! needs the column of every token of a line: linear in the line, not quadratic).

use std::fmt;

/// A problem `kind` at `line`, `column` (both 1-based; the column counts characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<K> {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: K,
}

impl<K> Located<K> {
    /// `kind` at `line`, `column`.
    pub fn new(line: usize, column: usize, kind: K) -> Located<K> {
        Located { line, column, kind }
    }

    /// The same place with another kind of problem.
    pub fn map<L>(self, f: impl FnOnce(K) -> L) -> Located<L> {
        Located {
            line: self.line,
            column: self.column,
            kind: f(self.kind),
        }
    }
}

impl<K: fmt::Display> fmt::Display for Located<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl<K: fmt::Debug + fmt::Display> std::error::Error for Located<K> {}

/// The 1-based character column of byte `offset` in `text`.
pub fn column_at(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(offset, |before| before.chars().count())
        + 1
}

/// The 1-based character column of `token`, a slice of `text` (as `split_ascii_whitespace`
/// gives).
pub fn token_column(text: &str, token: &str) -> usize {
    column_at(text, token.as_ptr() as usize - text.as_ptr() as usize)
}

/// The columns of the tokens of one line, asked for left to right: each answer counts the
/// characters since the previous one, so a whole line costs one pass over it (a token asked
/// for out of order is counted from the start).
///
/// # Examples
/// ```
/// use sudokit::text::located::Columns;
/// let line = "v é 2 3";
/// let mut columns = Columns::new(line);
/// let tokens: Vec<usize> = line.split_ascii_whitespace().map(|t| columns.of(t)).collect();
/// assert_eq!(tokens, [1, 3, 5, 7]);
/// ```
#[derive(Debug, Clone)]
pub struct Columns<'a> {
    text: &'a str,
    /// The byte offset of the last token asked for, and its 0-based character column.
    byte: usize,
    column: usize,
}

impl<'a> Columns<'a> {
    /// The columns of `text`'s tokens.
    pub fn new(text: &'a str) -> Columns<'a> {
        Columns {
            text,
            byte: 0,
            column: 0,
        }
    }

    /// The 1-based character column of `token`, a slice of the text.
    pub fn of(&mut self, token: &str) -> usize {
        self.at(token.as_ptr() as usize - self.text.as_ptr() as usize)
    }

    /// The 1-based character column of byte `offset`.
    pub fn at(&mut self, offset: usize) -> usize {
        if offset < self.byte {
            self.byte = 0;
            self.column = 0;
        }
        let between = self
            .text
            .get(self.byte..offset)
            .map_or(0, |s| s.chars().count());
        self.column += between;
        self.byte = offset;
        self.column + 1
    }
}
