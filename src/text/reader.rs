//! [`PuzzleReader`]: streams a file of puzzles in any of the three forms, one result per puzzle
//! in input order, carrying on after a bad puzzle.

use std::io::BufRead;
use std::ops::Range;

use super::block::{BlockRows, is_separator};
use super::json::parse_json_at;
use super::line::parse_line_at;
use super::lines::{LineErrorKind, LineReader};
use super::located::column_at;
use super::{ReadOptions, TextError, TextErrorKind, TextLayout, resolve_shape};
use crate::grid::{Clash, Grid};
use crate::search::Cancel;
use crate::shape::UnitKind;

/// A puzzle read from a file, with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadPuzzle {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub grid: Grid,
    /// The clash check of its givens, when the reader left it to the caller
    /// ([`ReadOptions::defer_line_clashes`]); see [`ReadPuzzle::deferred_clash`].
    pub deferred_clash_check: Option<DeferredClashCheck>,
}

impl ReadPuzzle {
    /// A puzzle whose clash check is done (or not asked for).
    pub fn new(line: usize, grid: Grid) -> ReadPuzzle {
        ReadPuzzle {
            line,
            grid,
            deferred_clash_check: None,
        }
    }

    /// The error the reader would have returned for this puzzle had it not left the clash
    /// check to its caller: `None` when the check was done (or not asked for), or the givens
    /// do not clash.
    ///
    /// # Complexity
    /// O(n²), as [`Grid::first_clash`].
    pub fn deferred_clash(&self) -> Option<TextError> {
        let check = self.deferred_clash_check?;
        line_clash_error(&self.grid, self.line, check.column, check.shape_inferred)
    }
}

/// What the error of a deferred clash check needs from the reading: where the line's first cell
/// is, and whether the shape was inferred (a clash only in a box then hints at `--latin`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeferredClashCheck {
    column: usize,
    shape_inferred: bool,
}

/// The clash error of a puzzle line whose first cell is at `column`: it points at the second
/// given's symbol.
fn line_clash_error(
    grid: &Grid,
    line: usize,
    column: usize,
    shape_inferred: bool,
) -> Option<TextError> {
    let clash = grid.first_clash()?;
    let offset = clash.second.row * grid.shape().order() + clash.second.col;
    Some(TextError {
        line,
        column: column + offset,
        kind: clash_kind(clash, shape_inferred),
    })
}

/// The error of a clash: with a hint towards `--latin` when only a box repeats a value (the
/// first clash is found in rows, then columns, then boxes) and the shape was inferred.
fn clash_kind(clash: Clash, shape_inferred: bool) -> TextErrorKind {
    if clash.unit.kind == UnitKind::Box && shape_inferred {
        TextErrorKind::ClashInBoxOnly(clash)
    } else {
        TextErrorKind::Clash(clash)
    }
}

/// A streaming reader of puzzles in any of the three forms; see the module docs.
///
/// Yields `Ok(ReadPuzzle)` or `Err(TextError)` for each puzzle in input order. An I/O error ends the
/// stream after it is reported.
pub struct PuzzleReader<R> {
    lines: LineReader<R>,
    options: ReadOptions,
    format: TextLayout,
    done: bool,
    /// The token that stops the reading (checked while skipping blank and comment lines).
    cancel: Option<Cancel>,
    /// Whether the token stopped the reading before the end of the input.
    stopped: bool,
}

/// A line as [`PuzzleReader::next_raw`] returns it: its number, the column of its first kept
/// character, and the bytes of its trimmed text in the line reader's current line.
type RawLine = (usize, usize, Range<usize>);

/// Whether a trimmed line is skipped between puzzles (and ends a grid block): blank, or a
/// comment.
fn skipped_line(text: &str) -> bool {
    text.is_empty() || text.starts_with('#')
}

/// How many blank or comment lines are skipped between two looks at the stop token.
const SKIPPED_BETWEEN_CHECKS: usize = 4096;

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReadOptions) -> PuzzleReader<R> {
        PuzzleReader {
            lines: LineReader::new(input),
            format: options.format,
            options,
            done: false,
            cancel: None,
            stopped: false,
        }
    }

    /// This reader, stopped by `cancel`: once it is set, the reader ends (as at the end of the
    /// input) at the next look, made every few thousand blank or comment lines skipped, so a
    /// stream of blank lines cannot hold a command past its deadline or a signal (a puzzle
    /// line that comes next is still read: the batch decides whether to work on it).
    pub fn with_cancel(mut self, cancel: Cancel) -> PuzzleReader<R> {
        self.cancel = Some(cancel);
        self
    }

    /// Whether the stop token ended the reading before the end of the input.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The input form: as given in the options, or, once the first puzzle is read, the one
    /// detected from it. A reader over a part of the same input (a shard of a file, starting at
    /// a puzzle) must be given this form, so that it reads the part as this reader does.
    pub fn format(&self) -> TextLayout {
        self.format
    }

    /// The next raw line: `(line number, column of first kept char, trimmed text's bytes in
    /// [`PuzzleReader::text`])`, `None` at the end. Comments are returned too (the caller
    /// decides); only the line ending is removed. The line is not copied.
    fn next_raw(&mut self) -> Option<Result<RawLine, TextError>> {
        match self.lines.next_line()? {
            Ok((line, text)) => {
                let lead = text.len() - text.trim_start_matches([' ', '\t']).len();
                let trimmed = text.trim_matches([' ', '\t', '\u{feff}']);
                // A no-break space (or another non-ASCII space) in a puzzle looks like a
                // separator and is not one: say which character, and where. (An ASCII line,
                // the usual case, is told apart in one vectorised pass.)
                if !trimmed.starts_with('#')
                    && !text.is_ascii()
                    && let Some((at, ch)) = text
                        .char_indices()
                        .find(|(_, c)| c.is_whitespace() && !c.is_ascii())
                {
                    let kind = TextErrorKind::UnicodeSpace { ch };
                    return Some(Err(TextError::new(line, column_at(text, at), kind)));
                }
                let start = trimmed.as_ptr() as usize - text.as_ptr() as usize;
                let column = column_at(text, lead);
                Some(Ok((line, column, start..start + trimmed.len())))
            }
            Err(error) => {
                self.done = !matches!(error.kind, LineErrorKind::NotUtf8);
                Some(Err(error.map(TextErrorKind::from)))
            }
        }
    }

    /// The trimmed text of the line [`PuzzleReader::next_raw`] returned last as `bytes`.
    fn text(&self, bytes: &Range<usize>) -> &str {
        &self.lines.current()[bytes.clone()]
    }

    /// The next line that is not blank and not a comment (`None` at the end, or when the stop
    /// token is set).
    fn next_content(&mut self) -> Option<Result<RawLine, TextError>> {
        let mut skipped = 0usize;
        loop {
            // Only a run of skipped lines looks at the token: a puzzle that comes next is
            // always read (the batch decides whether to work on it).
            if skipped > 0
                && skipped.is_multiple_of(SKIPPED_BETWEEN_CHECKS)
                && self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
            {
                self.stopped = true;
                self.done = true;
                return None;
            }
            match self.next_raw()? {
                Ok((_, _, ref text)) if skipped_line(self.text(text)) => skipped += 1,
                other => return Some(other),
            }
        }
    }

    fn detect(text: &str) -> TextLayout {
        if text.starts_with('{') {
            TextLayout::Json
        } else if text.split_whitespace().nth(1).is_some() || is_separator(text) {
            TextLayout::Block
        } else {
            TextLayout::Line
        }
    }

    /// Reads one grid block starting at the given first row; on an error, skips the rest of the
    /// block so the next puzzle starts cleanly.
    fn read_block(&mut self, first: (usize, usize, &str)) -> Result<Grid, TextError> {
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
                Ok((_, _, ref text)) if skipped_line(self.text(text)) => break,
                Ok((line, column, text)) => {
                    last_line = line;
                    if failure.is_none() {
                        failure = block.push((line, column, self.text(&text))).err();
                    }
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let order = block.order;
        if block.rows.len() != order {
            return Err(TextError::new(
                last_line + 1,
                1,
                TextErrorKind::RowCount {
                    found: block.rows.len(),
                    expected: order,
                },
            ));
        }
        let shape = resolve_shape(order, self.options.shape)
            .map_err(|kind| TextError::new(first_line, first_col, kind))?;
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
            return Err(TextError::new(
                *line,
                values[clash.second.col].0,
                self.clash_kind(clash),
            ));
        }
        Ok(grid)
    }

    /// The clash check for single-line forms: the error points at the second given's symbol.
    fn check_line_clash(&self, grid: Grid, line: usize, column: usize) -> Result<Grid, TextError> {
        if !self.options.reject_clashes {
            return Ok(grid);
        }
        match line_clash_error(&grid, line, column, self.options.shape.is_none()) {
            None => Ok(grid),
            Some(error) => Err(error),
        }
    }

    /// The error of a clash (see [`clash_kind`]).
    fn clash_kind(&self, clash: Clash) -> TextErrorKind {
        clash_kind(clash, self.options.shape.is_none())
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<ReadPuzzle, TextError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (line, column, bytes) = match self.next_content()? {
            Ok(content) => content,
            Err(e) => return Some(Err(e)),
        };
        let text = &self.lines.current()[bytes];
        if self.format == TextLayout::Auto {
            self.format = Self::detect(text);
        }
        // A puzzle line's clash check left to the caller, when it asked for that.
        let mut deferred = None;
        let result = match self.format {
            TextLayout::Line if self.options.reject_clashes && self.options.defer_line_clashes => {
                deferred = Some(DeferredClashCheck {
                    column,
                    shape_inferred: self.options.shape.is_none(),
                });
                parse_line_at(text, self.options.shape, line, column)
            }
            TextLayout::Line => parse_line_at(text, self.options.shape, line, column)
                .and_then(|g| self.check_line_clash(g, line, column)),
            TextLayout::Json => parse_json_at(text, self.options.shape, line).and_then(|g| {
                self.check_line_clash(g, line, column).map_err(|mut e| {
                    // A JSON clash cannot be placed on a symbol of the line.
                    e.column = column;
                    e
                })
            }),
            TextLayout::Block | TextLayout::Auto => {
                // The block's first row is kept while its other rows are read.
                let first = text.to_owned();
                self.read_block((line, column, &first))
            }
        };
        Some(result.map(|grid| ReadPuzzle {
            line,
            grid,
            deferred_clash_check: deferred,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deferred_clash_check_gives_the_eager_error() {
        let text = "1.3.....4....2..\n  11..............\n1...1...........\n";
        let eager: Vec<_> = PuzzleReader::new(text.as_bytes(), ReadOptions::default()).collect();
        let options = ReadOptions {
            defer_line_clashes: true,
            ..ReadOptions::default()
        };
        let deferred: Vec<_> = PuzzleReader::new(text.as_bytes(), options).collect();
        assert_eq!(eager.len(), 3);
        assert!(eager[0].is_ok());
        for (eager, deferred) in eager.iter().zip(&deferred) {
            let puzzle = deferred
                .as_ref()
                .expect("the clash is not checked while reading");
            assert!(puzzle.deferred_clash_check.is_some());
            assert_eq!(eager.as_ref().err(), puzzle.deferred_clash().as_ref());
        }
        // The second line's clash is named at its own column (after two spaces).
        let error = eager[1].as_ref().unwrap_err();
        assert_eq!((error.line, error.column), (2, 4));
        // Not asked to reject clashes: nothing is deferred.
        let lenient = ReadOptions {
            reject_clashes: false,
            defer_line_clashes: true,
            ..ReadOptions::default()
        };
        let read = PuzzleReader::new(text.as_bytes(), lenient)
            .nth(1)
            .unwrap()
            .unwrap();
        assert_eq!(read.deferred_clash_check, None);
    }

    #[test]
    fn a_no_break_space_is_named_with_its_column() {
        for (text, column) in [
            ("1.3.\u{a0}....4....2..\n", 5),
            ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2\u{a0}1\n", 6),
        ] {
            let mut reader = PuzzleReader::new(text.as_bytes(), ReadOptions::default());
            let error = reader.next().unwrap().unwrap_err();
            assert_eq!(error.column, column, "{text:?}");
            assert!(
                error
                    .to_string()
                    .contains("'\\u{a0}' (U+00A0, no-break space) is not a separator"),
                "{error}"
            );
        }
        // In a comment it is only text.
        let mut reader = PuzzleReader::new(&b"# a\xc2\xa0b\n1...\n"[..], ReadOptions::default());
        assert!(reader.next().unwrap().is_ok());
    }

    #[test]
    fn the_stop_token_ends_a_stream_of_blank_lines() {
        let cancel = Cancel::new();
        cancel.cancel();
        let endless = std::io::BufReader::new(std::io::repeat(b'\n'));
        let mut reader = PuzzleReader::new(endless, ReadOptions::default()).with_cancel(cancel);
        assert!(reader.next().is_none());
        assert!(reader.stopped());
        let mut reader = PuzzleReader::new(&b"\n\n1...\n"[..], ReadOptions::default())
            .with_cancel(Cancel::new());
        assert!(reader.next().unwrap().is_ok());
        assert!(reader.next().is_none() && !reader.stopped());
        // A stop only cuts a run of skipped lines: the puzzle that comes next is read.
        let stopped = Cancel::new();
        stopped.cancel();
        let mut reader =
            PuzzleReader::new(&b"1...\n"[..], ReadOptions::default()).with_cancel(stopped);
        assert!(reader.next().unwrap().is_ok());
    }
}
