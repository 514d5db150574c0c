//! Reading and writing puzzles: the puzzle line, the grid block and JSON lines.
//!
//! The three forms (DESIGN.md §5, user side 1-based):
//! - **puzzle line**: n² symbols, row-major; `.` or `0` empty; values `1-9` then `A-Z` (A = 10),
//!   so orders up to 35. The shape comes from the length (see [`Shape::default_for_order`]) unless
//!   a [`ShapeSpec`] overrides it.
//! - **grid block**: n rows of n whitespace-separated tokens (decimal values, `0` or `.` empty,
//!   single letters `A-Z` also accepted); `|`, `-`, `+` and `=` separators are ignored; blocks are
//!   separated by blank lines. Any order up to [`MAX_ORDER`](crate::shape::MAX_ORDER).
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

pub mod block;
mod error;
pub mod json;
pub mod line;
pub mod lines;
pub mod located;
mod one;
mod reader;
mod rows;

use std::fmt;

use crate::grid::Grid;
use crate::shape::{RegionSpec, Shape};

pub use block::to_block;
pub use error::{TextError, TextErrorKind};
pub use json::{parse_json, to_json};
pub use line::{parse_line, push_line, to_line};
pub use lines::MAX_LINE_BYTES;
pub use located::Located;
pub use one::read_one;
pub use reader::{DeferredClashCheck, PuzzleReader, ReadPuzzle};
pub use rows::{RowsError, from_rows, to_rows};

/// The largest order a puzzle line can express (`Z` = 35).
pub const MAX_LINE_ORDER: usize = 35;

/// The symbols of values `1..=35` in a puzzle line.
pub const ALPHABET: &[u8; 35] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A shape chosen by the user (`--box PxQ`, `--latin`, `--regions FILE`, `--extra SET`) instead
/// of the one inferred from the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeSpec {
    /// Boxes of `p` rows × `q` columns.
    Box(usize, usize),
    /// A Latin square (no boxes), order from the size.
    Latin,
    /// Regions on top of the boxes `p×q` (or the default boxes of the order): a map that
    /// replaces them, extra units.
    Regions(Option<(usize, usize)>, RegionSpec),
}

impl ShapeSpec {
    /// The shape `--box PxQ` (`boxes`) or `--latin` asks for, the box first; `None` for
    /// neither (the shape is inferred from the size).
    pub fn of(boxes: Option<(usize, usize)>, latin: bool) -> Option<ShapeSpec> {
        match (boxes, latin) {
            (Some((p, q)), _) => Some(ShapeSpec::Box(p, q)),
            (None, true) => Some(ShapeSpec::Latin),
            (None, false) => None,
        }
    }

    /// `spec` with `regions` on top (nothing changes when `regions` is empty).
    ///
    /// # Errors
    /// [`ShapeError::LatinRegions`](crate::shape::ShapeError::LatinRegions): a Latin square
    /// takes no regions.
    pub fn with_regions(
        spec: Option<ShapeSpec>,
        regions: RegionSpec,
    ) -> Result<Option<ShapeSpec>, crate::shape::ShapeError> {
        if regions.is_empty() {
            return Ok(spec);
        }
        Ok(Some(match spec {
            None => ShapeSpec::Regions(None, regions),
            Some(ShapeSpec::Box(p, q)) => ShapeSpec::Regions(Some((p, q)), regions),
            Some(ShapeSpec::Regions(boxes, _)) => ShapeSpec::Regions(boxes, regions),
            Some(ShapeSpec::Latin) => return Err(crate::shape::ShapeError::LatinRegions),
        }))
    }

    /// The box sides this spec names, if any.
    pub fn boxes(self) -> Option<(usize, usize)> {
        match self {
            ShapeSpec::Box(p, q) | ShapeSpec::Regions(Some((p, q)), _) => Some((p, q)),
            _ => None,
        }
    }

    /// The regions this spec asks for (empty for boxes and Latin squares).
    pub fn regions(self) -> RegionSpec {
        match self {
            ShapeSpec::Regions(_, regions) => regions,
            _ => RegionSpec::default(),
        }
    }

    /// The box sides `(P, Q)` of the text `PxQ` (`2x3`; `×` or `X` also separate them), as
    /// `--box PxQ` and the options' `box` give them.
    ///
    /// # Errors
    /// Text that is not `PxQ` with two whole numbers of at least 1: the message says which.
    pub fn parse_box(text: &str) -> Result<(usize, usize), String> {
        let (p, q) = text
            .split_once(['x', 'X', '×'])
            .ok_or("expected PxQ, for example 2x3")?;
        let side = |s: &str, which: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("{which} in PxQ is not a number"))
        };
        let (p, q) = (side(p, "P")?, side(q, "Q")?);
        if p == 0 || q == 0 {
            return Err("box sides must be at least 1".to_string());
        }
        Ok((p, q))
    }

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
            ShapeSpec::Regions(boxes, regions) => {
                let base = match boxes {
                    Some((p, q)) => ShapeSpec::Box(p, q).shape_for(order)?,
                    None => Shape::default_for_order(order).map_err(TextErrorKind::Shape)?,
                };
                match regions.regions_for(order).map_err(TextErrorKind::Regions)? {
                    Some(regions) => base.with_regions(regions).map_err(TextErrorKind::Shape),
                    None => Ok(base),
                }
            }
        }
    }
}

/// The shape of order `order`: the spec's if given, else the default.
pub(crate) fn resolve_shape(order: usize, spec: Option<ShapeSpec>) -> Result<Shape, TextErrorKind> {
    match spec {
        Some(spec) => spec.shape_for(order),
        None => Shape::default_for_order(order).map_err(TextErrorKind::Shape),
    }
}

/// The input form of a file: how its puzzles are laid out. (With the feature `cli`, also the
/// command line's values of `--format`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum TextLayout {
    /// `{` → JSON lines; several tokens on a line → grid blocks; else puzzle lines.
    #[default]
    Auto,
    /// One puzzle line (n² symbols) per line.
    Line,
    /// Grid blocks of n rows of n tokens, separated by blank lines.
    Block,
    /// One JSON object per line.
    Json,
}

/// How to read a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The input form.
    pub format: TextLayout,
    /// A shape that overrides the inferred one.
    pub shape: Option<ShapeSpec>,
    /// Whether two givens repeating a value in a unit make the puzzle an error.
    pub reject_clashes: bool,
    /// With `reject_clashes`: leave the clash check of a puzzle line to the caller, which gets
    /// the puzzle with [`ReadPuzzle::deferred_clash_check`] set and asks
    /// [`ReadPuzzle::deferred_clash`] for the same error when it needs it. For a caller whose
    /// answer can prove the givens clash-free (a verified solution holds every given, and
    /// repeats no value in a unit), which then skips the check; `solve` does.
    pub defer_line_clashes: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: TextLayout::Auto,
            shape: None,
            reject_clashes: true,
            defer_line_clashes: false,
        }
    }
}

/// The puzzle line when the order allows one, else the grid block.
pub fn to_text(grid: &Grid) -> String {
    to_line(grid).unwrap_or_else(|| to_block(grid))
}

impl TextLayout {
    /// Every layout, in the order of [`TextLayout::NAMES`].
    pub const ALL: [TextLayout; 4] = [
        TextLayout::Auto,
        TextLayout::Line,
        TextLayout::Block,
        TextLayout::Json,
    ];

    /// The names the command line and Python accept (`--format`, `format=`).
    pub const NAMES: [&'static str; 4] = ["auto", "line", "block", "json"];

    /// The name of this layout, as [`FromStr`](std::str::FromStr) reads it.
    pub fn name(self) -> &'static str {
        match self {
            TextLayout::Auto => "auto",
            TextLayout::Line => "line",
            TextLayout::Block => "block",
            TextLayout::Json => "json",
        }
    }
}

/// A layout name that is not one of [`TextLayout::NAMES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown input form {0} (known: auto, line, block, json)")]
pub struct UnknownLayout(pub String);

impl std::str::FromStr for TextLayout {
    type Err = UnknownLayout;

    fn from_str(name: &str) -> Result<TextLayout, UnknownLayout> {
        TextLayout::ALL
            .into_iter()
            .find(|layout| layout.name() == name)
            .ok_or_else(|| UnknownLayout(name.to_string()))
    }
}

impl fmt::Display for TextLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TextLayout::Auto => "auto",
            TextLayout::Line => "line",
            TextLayout::Block => "grid block",
            TextLayout::Json => "JSON",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_sides_are_read_from_pxq() {
        assert_eq!(ShapeSpec::parse_box("2x3"), Ok((2, 3)));
        assert_eq!(ShapeSpec::parse_box(" 3 × 3 "), Ok((3, 3)));
        assert_eq!(ShapeSpec::parse_box("4X2"), Ok((4, 2)));
        for (bad, says) in [
            ("3", "expected PxQ"),
            ("ax3", "P in PxQ"),
            ("3x-1", "Q in PxQ"),
            ("0x3", "at least 1"),
        ] {
            let error = ShapeSpec::parse_box(bad).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn layout_names_round_trip() {
        for (layout, name) in TextLayout::ALL.into_iter().zip(TextLayout::NAMES) {
            assert_eq!(layout.name(), name);
            assert_eq!(name.parse::<TextLayout>(), Ok(layout));
        }
        let error = "grid".parse::<TextLayout>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown input form grid (known: auto, line, block, json)"
        );
    }

    fn read(text: &str, options: ReadOptions) -> Vec<Result<ReadPuzzle, TextError>> {
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
    fn the_detected_form_reads_a_later_part_alike() {
        let input = "# blocks\n1 2\n2 1\n\n1 .\n. .\n";
        let mut whole = PuzzleReader::new(input.as_bytes(), ReadOptions::default());
        assert_eq!(whole.format(), TextLayout::Auto);
        assert!(whole.next().unwrap().is_ok());
        assert_eq!(whole.format(), TextLayout::Block);
        let options = ReadOptions {
            format: whole.format(),
            ..ReadOptions::default()
        };
        let part: Vec<_> = PuzzleReader::new("1 .\n. .\n".as_bytes(), options).collect();
        assert_eq!(
            part,
            vec![whole.next().unwrap().map(|r| ReadPuzzle { line: 1, ..r })]
        );
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
