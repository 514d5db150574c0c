//! The one puzzle a single-puzzle command works on (`export` to standard output, `decode`,
//! `explain`, `render`): the K-th of a file (`index`, 1-based), or its only one.
//!
//! Every front end picks it here, so a file with fewer puzzles, several puzzles and no index,
//! or an index of 0 is refused with the same [`InputError`] whoever asks.
//!
//! # Examples
//! ```
//! use std::path::Path;
//! use sudokit::jobs::pick::{nth_puzzle, select_one};
//! use sudokit::search::Cancel;
//! use sudokit::text::ReadOptions;
//! let file = Path::new("models/sudoku/9x9/easy.txt");
//! let read = ReadOptions::default();
//! let third = select_one(file, read, Some(3), "pick one with --index N", &Cancel::new()).unwrap();
//! assert_eq!(nth_puzzle(file, read, 3, &Cancel::new()).unwrap(), third.grid);
//! let several = select_one(file, read, None, "pick one with --index N", &Cancel::new());
//! assert!(several.unwrap_err().to_string().contains("has several puzzles"));
//! ```

use std::path::Path;

use super::item::{InputError, PuzzleItem, puzzles_until};
use crate::grid::Grid;
use crate::search::Cancel;
use crate::text::{PuzzleReader, ReadOptions, ReadPuzzle};

/// The `index`-th item (1-based) of `items`, the puzzles of the input `name`, or its only item
/// without `index`; `pick` says how to pick one when there are several and no index.
///
/// # Errors
/// An index of 0, fewer items than `index`, several items without `index`, no item.
pub fn pick(
    mut items: impl Iterator<Item = PuzzleItem>,
    name: &str,
    index: Option<usize>,
    pick: &'static str,
) -> Result<PuzzleItem, InputError> {
    match index {
        Some(0) => Err(InputError::IndexZero),
        Some(k) => {
            let mut seen = 0;
            for item in items.by_ref() {
                seen += 1;
                if seen == k {
                    return Ok(item);
                }
            }
            Err(InputError::NoSuchPuzzle {
                name: name.to_string(),
                count: seen,
                index: k,
            })
        }
        None => {
            let first = items.next().ok_or_else(|| InputError::Empty {
                name: name.to_string(),
            })?;
            if items.next().is_some() {
                return Err(InputError::SeveralPuzzles {
                    name: name.to_string(),
                    pick,
                });
            }
            Ok(first)
        }
    }
}

/// The `index`-th puzzle (1-based) of `path`, or its only puzzle without `index`, read with
/// `read` and stopped by `stop` (see [`pick`]); a bad entry at that place is an error.
///
/// # Errors
/// As [`pick`]; the file cannot be opened; the puzzle cannot be read (its line and column).
pub fn select_one(
    path: &Path,
    read: ReadOptions,
    index: Option<usize>,
    several: &'static str,
    stop: &Cancel,
) -> Result<ReadPuzzle, InputError> {
    if index == Some(0) {
        return Err(InputError::IndexZero);
    }
    let items = puzzles_until(path, read, stop)?;
    let item = pick(items, &path.display().to_string(), index, several)?;
    item.read_puzzle().cloned().map_err(InputError::Puzzle)
}

/// The grid of the `index`-th puzzle (1-based) of `path` (see [`select_one`]).
///
/// # Errors
/// As [`select_one`].
pub fn nth_puzzle(
    path: &Path,
    read: ReadOptions,
    index: usize,
    stop: &Cancel,
) -> Result<Grid, InputError> {
    Ok(select_one(path, read, Some(index), "", stop)?.grid)
}

/// The puzzle a command of one puzzle is given as `arg`: the `index`-th puzzle (1-based) of
/// the file of that name (`-`: standard input), or, when there is no such file, `arg` itself
/// read as a puzzle; with the words that name it (`puzzle 2 of FILE`, `the puzzle given`).
///
/// # Errors
/// As [`nth_puzzle`]; a name that is neither a file nor a puzzle.
pub fn file_or_puzzle(
    arg: &str,
    read: ReadOptions,
    index: usize,
    stop: &Cancel,
) -> Result<(Grid, String), InputError> {
    let path = Path::new(arg);
    if arg == "-" || path.exists() {
        let puzzle = nth_puzzle(path, read, index, stop)?;
        return Ok((puzzle, format!("puzzle {index} of {}", path.display())));
    }
    match PuzzleReader::new(arg.as_bytes(), read).next() {
        None => Err(InputError::NoSuchFile(arg.to_string())),
        Some(Err(error)) => Err(InputError::NotAPuzzle {
            name: arg.to_string(),
            error,
        }),
        Some(Ok(record)) => Ok((record.grid, "the puzzle given".to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn items(n: usize) -> impl Iterator<Item = PuzzleItem> {
        let file: Arc<str> = "f.txt".into();
        (0..n).map(move |i| {
            let grid = crate::text::parse_line("1.3.....4....2..", None).unwrap();
            PuzzleItem::new(file.clone(), i, Ok(ReadPuzzle::new(i + 1, grid)))
        })
    }

    #[test]
    fn the_index_picks_and_every_wrong_pick_is_said() {
        assert_eq!(pick(items(3), "f.txt", Some(2), "").unwrap().index, 1);
        assert_eq!(pick(items(1), "f.txt", None, "").unwrap().index, 0);
        let wrong = |n, index| pick(items(n), "f.txt", index, "pick one").unwrap_err();
        assert_eq!(wrong(3, Some(5)).to_string(), "f.txt has 3 puzzles, not 5");
        assert_eq!(
            wrong(2, None).to_string(),
            "f.txt has several puzzles: pick one"
        );
        assert_eq!(wrong(2, Some(0)).to_string(), "--index counts from 1");
        assert!(matches!(wrong(0, None), InputError::Empty { .. }));
    }

    #[test]
    fn a_name_is_a_file_or_a_puzzle() {
        let stop = Cancel::new();
        let read = ReadOptions::default();
        let (_, named) = file_or_puzzle("models/sudoku/9x9/xwing.txt", read, 2, &stop).unwrap();
        assert_eq!(named, "puzzle 2 of models/sudoku/9x9/xwing.txt");
        let (grid, named) = file_or_puzzle("1.3.....4....2..", read, 1, &stop).unwrap();
        assert_eq!((grid.filled(), named.as_str()), (4, "the puzzle given"));
        let wrong = file_or_puzzle("nosuch.txt", read, 1, &stop).unwrap_err();
        assert!(
            wrong
                .to_string()
                .starts_with("cannot open nosuch.txt: no such file, and not a puzzle (1:"),
            "{wrong}"
        );
    }
}
