//! An error with its place in a text input: 1-based line and column. Every reader of sudokit —
//! puzzles, CNF files, solver answers, graphs, exact-cover files — reports its errors as a
//! [`Located`] of its own kind of problem, so a user always reads `line L, column C: what`.
//!
//! Columns count characters (not bytes), from 1.

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
