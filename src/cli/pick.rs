//! The one puzzle a single-puzzle command works on (`export`, `decode`, `explain`, `render`): the
//! K-th of a file (`--index K`), or its only one.

use std::path::Path;

use anyhow::bail;
use sudokit::Grid;
use sudokit::jobs::item::{PuzzleItem, puzzles_until};
use sudokit::text::{ReadOptions, ReadPuzzle};

use super::stop;

/// The `index`-th puzzle (1-based) of `path`, or its only puzzle without `index`; `several`
/// says what to do when the file holds several puzzles and no `--index` picks one.
///
/// # Errors
/// `--index 0`, a file with fewer puzzles, several puzzles without `--index`, a puzzle that
/// cannot be read (with its line and column).
pub fn select_one(
    path: &Path,
    read: ReadOptions,
    index: Option<usize>,
    several: &str,
) -> anyhow::Result<ReadPuzzle> {
    if index == Some(0) {
        bail!("--index counts from 1");
    }
    let mut reader = puzzles_until(path, read, &stop::control().stop)?;
    let item: PuzzleItem = match index {
        Some(k) => {
            let mut seen = 0;
            loop {
                match reader.next() {
                    None => bail!("{} has {seen} puzzles, not {k}", path.display()),
                    Some(item) => {
                        seen += 1;
                        if seen == k {
                            break item;
                        }
                    }
                }
            }
        }
        None => {
            let Some(first) = reader.next() else {
                bail!("{} has no puzzle", path.display());
            };
            if reader.next().is_some() {
                bail!("{} has several puzzles: {several}", path.display());
            }
            first
        }
    };
    Ok(item
        .read_puzzle()
        .map_err(|e| anyhow::anyhow!("{}", e.located()))?
        .clone())
}

/// The `index`-th puzzle (1-based) of a file; a bad entry at that place is an error.
///
/// # Errors
/// `--index 0`, a file with fewer puzzles, the puzzle cannot be read.
pub fn nth_puzzle(path: &Path, read: ReadOptions, index: usize) -> anyhow::Result<Grid> {
    if index == 0 {
        bail!("--index counts from 1");
    }
    let mut seen = 0;
    for item in puzzles_until(path, read, &stop::control().stop)? {
        seen += 1;
        if seen == index {
            return Ok(item
                .read_puzzle()
                .map_err(|e| anyhow::anyhow!("{}", e.located()))?
                .grid
                .clone());
        }
    }
    bail!(
        "{} holds {seen} puzzles, so there is no puzzle {index}",
        path.display()
    )
}
