//! Reading a text input one line at a time, with a cap on the bytes one line may take: the one
//! line reader behind every file sudokit reads (puzzles, CNF, solver answers, graphs).
//!
//! A line ends at `\n` (a trailing `\r` is dropped too). A line longer than the cap is reported
//! as [`LineErrorKind::TooLong`] as soon as the cap is reached, and the reader stops there: a line
//! of that size is not a puzzle or an answer (a binary file, `/dev/zero`), and reading on to its
//! end could take for ever. A line that is not UTF-8 is reported with the column of its first bad
//! byte; the next line is read normally.
//!
//! # Complexity
//! Linear in the input; memory is one line (at most the cap).
//!
//! # Examples
//! ```
//! use sudokit::text::lines::{LineErrorKind, LineReader};
//! let mut lines = LineReader::with_cap(&b"ab\r\ncdefgh\n"[..], 4);
//! assert_eq!(lines.next_line().unwrap().unwrap(), (1, "ab"));
//! let error = lines.next_line().unwrap().unwrap_err();
//! assert_eq!((error.line, error.kind), (2, LineErrorKind::TooLong { max: 4 }));
//! assert!(lines.next_line().is_none());
//! ```

use std::io::{BufRead, ErrorKind};

use thiserror::Error;

use super::located::Located;

/// The longest line read (64 MiB): far above any puzzle (a JSON line with every given of a
/// 1024×1024 grid is about 15 MiB) or answer line.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Why a line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineErrorKind {
    /// The line is not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is longer than the cap.
    #[error("the line is longer than {} (a binary file?); the rest of the input is not read", human_bytes(*max))]
    TooLong {
        /// The cap in bytes.
        max: usize,
    },
    /// Reading failed.
    #[error("read error: {0}")]
    Io(String),
}

fn human_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// A line that could not be read, with its place.
pub type LineError = Located<LineErrorKind>;

/// A reader of lines with a cap; see the module docs.
pub struct LineReader<R> {
    input: R,
    line: usize,
    /// The line being read (its bytes, before they are checked to be UTF-8).
    buffer: Vec<u8>,
    /// The last line returned, once checked: the same allocation as `buffer`, handed back and
    /// forth, so reading a line allocates nothing once the longest line has been read.
    text: String,
    cap: usize,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input`, capped at [`MAX_LINE_BYTES`].
    pub fn new(input: R) -> LineReader<R> {
        LineReader::with_cap(input, MAX_LINE_BYTES)
    }

    /// Lines of `input`, capped at `cap` bytes.
    pub fn with_cap(input: R, cap: usize) -> LineReader<R> {
        LineReader {
            input,
            line: 0,
            buffer: Vec::new(),
            text: String::new(),
            cap,
            done: false,
        }
    }

    /// The number of the last line returned (0 before the first).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The next line without its ending, with its 1-based number; `None` at the end of the
    /// input (and after a line too long or a read error).
    pub fn next_line(&mut self) -> Option<Result<(usize, &str), LineError>> {
        if self.done {
            return None;
        }
        match self.fill() {
            Ok(false) => {
                self.done = true;
                None
            }
            Ok(true) => {
                self.line += 1;
                while matches!(self.buffer.last(), Some(b'\n' | b'\r')) {
                    self.buffer.pop();
                }
                match String::from_utf8(std::mem::take(&mut self.buffer)) {
                    Ok(text) => {
                        self.text = text;
                        Some(Ok((self.line, &self.text)))
                    }
                    Err(e) => {
                        let valid = e.utf8_error().valid_up_to();
                        self.buffer = e.into_bytes();
                        let column = String::from_utf8_lossy(&self.buffer[..valid])
                            .chars()
                            .count()
                            + 1;
                        Some(Err(Located::new(self.line, column, LineErrorKind::NotUtf8)))
                    }
                }
            }
            Err(kind) => {
                self.done = true;
                self.line += 1;
                Some(Err(Located::new(self.line, 1, kind)))
            }
        }
    }

    /// The last line [`LineReader::next_line`] returned without an error (empty after an
    /// error): the same text, for a caller that could not keep the borrow.
    pub fn current(&self) -> &str {
        &self.text
    }

    /// Reads one line (with its ending) into the buffer: `Ok(false)` at the end of the input.
    fn fill(&mut self) -> Result<bool, LineErrorKind> {
        if self.buffer.capacity() == 0 {
            // The last line's allocation, taken back.
            self.buffer = std::mem::take(&mut self.text).into_bytes();
        } else {
            self.text.clear();
        }
        self.buffer.clear();
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(LineErrorKind::Io(e.to_string())),
            };
            if available.is_empty() {
                return Ok(!self.buffer.is_empty());
            }
            let (take, complete) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if self.buffer.len() + take > self.cap + usize::from(complete) {
                self.buffer = Vec::new();
                return Err(LineErrorKind::TooLong { max: self.cap });
            }
            self.buffer.extend_from_slice(&available[..take]);
            self.input.consume(take);
            if complete {
                return Ok(true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_line_stops_at_the_cap() {
        let endless = std::io::BufReader::new(std::io::repeat(b'0'));
        let mut lines = LineReader::with_cap(endless, 1 << 16);
        let error = lines.next_line().unwrap().unwrap_err();
        assert_eq!(error.kind, LineErrorKind::TooLong { max: 1 << 16 });
        assert!(lines.next_line().is_none());
    }

    #[test]
    fn bad_utf8_names_its_column_and_reading_goes_on() {
        let mut lines = LineReader::new(&b"ab\xffc\nok"[..]);
        let error = lines.next_line().unwrap().unwrap_err();
        assert_eq!((error.line, error.column), (1, 3));
        assert_eq!(lines.next_line().unwrap().unwrap(), (2, "ok"));
        assert!(lines.next_line().is_none());
    }

    #[test]
    fn a_line_at_the_cap_is_read() {
        let mut lines = LineReader::with_cap(&b"abcd\nabcd"[..], 4);
        assert_eq!(lines.next_line().unwrap().unwrap(), (1, "abcd"));
        assert_eq!(lines.next_line().unwrap().unwrap(), (2, "abcd"));
    }
}
