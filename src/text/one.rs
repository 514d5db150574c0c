//! [`read_one`]: the one puzzle of a text, in any form, as a caller that takes a single
//! puzzle (a string in Python) reads it.

use super::{PuzzleReader, ReadOptions, ReadPuzzle, TextError, TextErrorKind};

/// The one puzzle of `text`, in any form; a grid written as n unspaced rows of n symbols
/// (`"1...\n..1.\n.1..\n...."`) is one puzzle, its rows joined into the puzzle line (read line
/// by line, it would be n puzzles).
///
/// # Errors
/// A puzzle that cannot be read, text with no puzzle ([`TextErrorKind::NoPuzzle`], at line 1)
/// or with more than one ([`TextErrorKind::MoreThanOne`], at the line of the second).
pub fn read_one(text: &str, options: ReadOptions) -> Result<ReadPuzzle, TextError> {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let unspaced_block = rows.len() > 1
        && rows
            .iter()
            .all(|r| r.chars().count() == rows.len() && !r.contains(char::is_whitespace));
    let joined = rows.concat();
    let text = if unspaced_block { &joined } else { text };
    let mut reader = PuzzleReader::new(text.as_bytes(), options);
    let first = reader
        .next()
        .unwrap_or(Err(TextError::new(1, 1, TextErrorKind::NoPuzzle)))?;
    match reader.next() {
        None => Ok(first),
        Some(next) => {
            let line = next.map_or_else(|e| e.line, |r| r.line);
            Err(TextError::new(line, 1, TextErrorKind::MoreThanOne))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> TextErrorKind {
        read_one(text, ReadOptions::default()).unwrap_err().kind
    }

    #[test]
    fn a_line_a_block_and_unspaced_rows_are_one_puzzle() {
        let line = read_one("1............1..", ReadOptions::default()).unwrap();
        let rows = read_one("1...\n....\n....\n.1..\n", ReadOptions::default()).unwrap();
        let block = read_one("1 . . .\n. . . .\n. . . .\n. 1 . .", ReadOptions::default());
        assert_eq!(line.grid, rows.grid);
        assert_eq!(line.grid, block.unwrap().grid);
    }

    #[test]
    fn no_puzzle_and_two_puzzles_are_errors_with_their_line() {
        assert_eq!(kind("# only a comment\n"), TextErrorKind::NoPuzzle);
        let two = read_one(
            "1...............\n\n.1..............\n",
            ReadOptions::default(),
        );
        let error = two.unwrap_err();
        assert_eq!((error.kind, error.line), (TextErrorKind::MoreThanOne, 3));
    }

    #[test]
    fn a_bad_puzzle_is_its_own_error() {
        assert!(matches!(kind("12"), TextErrorKind::Length { .. }));
    }
}
