//! Knuth's exact-cover input format (the format of `dlx1`): the writer for
//! [`crate::encode::exact_cover`], a reader, and the map from option lines back to `(r,c,v)`.
//!
//! The first non-comment line lists the items (primary items, then optionally `|` and secondary
//! items); each following line is one option, the names of the items it covers. A line starting
//! with `|` is a comment. Item names (DESIGN.md §5): cell `pRC`, row-value `rRV`, column-value
//! `cCV`, box-value `bBV`, with 1-based numbers written in base 36 (`1`–`9`, `A`–`Z`), one digit
//! each up to order 35 and two digits from order 36 (so 36 itself is written `10`). Names stay
//! within dlx1's 8 characters. A given appears as the single option of its cell. (DESIGN.md
//! says "two digits when n > 36"; with 1-based numbers the value 36 already needs two base-36
//! digits, so two digits start at n = 36.) Knuth's dlx1 also caps a solution at 500 options,
//! which limits it to orders with n² ≤ 500 (n ≤ 22); the files themselves have no such limit.
//!
//! # Complexity
//! Writing streams in O(n³); reading is linear in the file and keeps the problem in memory.
//!
//! # References
//! - D. E. Knuth, "Dancing links", 2000; `dlx1.w` (input format), The Art of Computer
//!   Programming, Volume 4B, 7.2.2.1.
//!
//! # Examples
//! ```
//! use sudokit::encode::exact_cover::ExactCover;
//! use sudokit::format::dlx1::{read_dlx, write_dlx};
//! use sudokit::text::parse_line;
//! let problem = ExactCover::new(&parse_line("1...............", None).unwrap());
//! let mut out = Vec::new();
//! write_dlx(&problem, &mut out).unwrap();
//! let text = String::from_utf8(out.clone()).unwrap();
//! assert!(text.contains("\np11 r11 c11 b11\n"));
//! let read = read_dlx(&out[..]).unwrap();
//! assert_eq!(read.primary.len(), 64);
//! ```

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use thiserror::Error;

use crate::text::lines::{LineErrorKind, LineReader};
use crate::text::located::{Located, token_column};

use crate::encode::exact_cover::{ExactCover, Item};
use crate::format::entry::{ExportFormat, digits};
use crate::grid::Grid;

const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Digits per number for order `n`: 1 up to 35, 2 from 36.
pub fn digits_for(n: usize) -> usize {
    if n <= 35 { 1 } else { 2 }
}

fn push_base36(out: &mut String, value: usize, width: usize) {
    for k in (0..width).rev() {
        out.push(DIGITS[value / 36usize.pow(k as u32) % 36] as char);
    }
}

/// The name of an item (0-based fields, 1-based in the name).
pub fn item_name(item: Item, n: usize) -> String {
    let width = digits_for(n);
    let (prefix, a, b) = match item {
        Item::Cell { r, c } => ('p', r, c),
        Item::RowValue { r, v } => ('r', r, v),
        Item::ColValue { c, v } => ('c', c, v),
        Item::BoxValue { b, v } => ('b', b, v),
        Item::ExtraValue { k, v } => ('e', k, v),
    };
    let mut s = String::with_capacity(1 + 2 * width);
    s.push(prefix);
    push_base36(&mut s, a + 1, width);
    push_base36(&mut s, b + 1, width);
    s
}

/// The item of a name in an order-`n` problem.
pub fn parse_item_name(name: &str, n: usize) -> Option<Item> {
    let width = digits_for(n);
    let bytes = name.as_bytes();
    if bytes.len() != 1 + 2 * width {
        return None;
    }
    let number = |s: &[u8]| -> Option<usize> {
        let mut x = 0;
        for &d in s {
            x = x * 36 + DIGITS.iter().position(|&e| e == d)?;
        }
        (1..=n).contains(&x).then(|| x - 1)
    };
    let a = number(&bytes[1..1 + width])?;
    let b = number(&bytes[1 + width..])?;
    Some(match bytes[0] {
        b'p' => Item::Cell { r: a, c: b },
        b'r' => Item::RowValue { r: a, v: b },
        b'c' => Item::ColValue { c: a, v: b },
        b'b' => Item::BoxValue { b: a, v: b },
        b'e' => Item::ExtraValue { k: a, v: b },
        _ => return None,
    })
}

/// Writes the problem in dlx1 form.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_dlx(problem: &ExactCover, out: impl Write) -> io::Result<()> {
    write_dlx_with_witnesses(problem, None, out)
}

/// The most solutions [`write_dlx_excluding`] rules out (witness names have three base-36 digits).
pub const MAX_EXCLUDED: usize = 36 * 36 * 36 - 1;

/// Writes `puzzle`'s exact cover with the grids of `excluded` ruled out.
///
/// Exact cover has no "at least one" constraint, so each excluded grid `k` gets a primary item
/// `xK` that one witness option must cover, and a secondary item `sK.RC` per open cell (written
/// `s` + K + R + C in base 36): the placement of grid `k`'s value in cell (r,c) covers `sK.RC`,
/// and so does the witness option `xK sK.RC`, which therefore says "cell (r,c) differs from grid
/// `k`". A grid equal to grid `k` leaves no witness for `xK`; any other grid has one per cell in
/// which it differs. The size grows by one item and one option per open cell and excluded grid.
/// `x` and `s` items are not read back by [`parse_item_name`] and are skipped by the answer
/// reader, as are witness options.
///
/// # Errors
/// I/O errors of `out`; [`io::ErrorKind::InvalidInput`] for more than [`MAX_EXCLUDED`] grids.
pub fn write_dlx_excluding(puzzle: &Grid, excluded: &[Grid], out: impl Write) -> io::Result<()> {
    if excluded.len() > MAX_EXCLUDED {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the exact cover rules out at most {MAX_EXCLUDED} solutions (it was asked for {})",
                excluded.len()
            ),
        ));
    }
    let exclusion = (!excluded.is_empty()).then_some((puzzle, excluded));
    write_dlx_with_witnesses(&ExactCover::new(puzzle), exclusion, out)
}

/// Appends ` xK`, the witness item of excluded grid `k` (0-based; three base-36 digits).
fn push_witness_name(line: &mut String, k: usize) {
    line.push_str(" x");
    push_base36(line, k + 1, 3);
}

/// Appends ` sKRC`, the secondary item "cell (r,c) holds excluded grid `k`'s value".
fn push_same_value_name(line: &mut String, k: usize, r: usize, c: usize, n: usize) {
    let width = digits_for(n);
    line.push_str(" s");
    push_base36(line, k + 1, 3);
    push_base36(line, r + 1, width);
    push_base36(line, c + 1, width);
}

/// Writes the problem; with `exclusion` = (the puzzle, the grids to rule out), the witness items
/// and options of [`write_dlx_excluding`].
fn write_dlx_with_witnesses(
    problem: &ExactCover,
    exclusion: Option<(&Grid, &[Grid])>,
    out: impl Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let shape = problem.shape();
    let n = shape.order();
    writeln!(
        out,
        "| sudokit exact cover: {shape}; items pRC (cell), rRV, cCV, bBV (unit-value), base 36, 1-based"
    )?;
    writeln!(
        out,
        "| one option per allowed (r,c,v); a given is its cell's only option"
    )?;
    writeln!(
        out,
        "| solve: miniexact -x -p FILE > ANSWER (or dlx1 m1 < FILE > ANSWER 2>&1)"
    )?;
    writeln!(
        out,
        "| decode: sudokit decode PUZZLE --from dlx ANSWER (PUZZLE: the puzzle file)"
    )?;
    let (puzzle, excluded) = match exclusion {
        Some((puzzle, excluded)) => (Some(puzzle), excluded),
        None => (None, &[][..]),
    };
    // The open cells, which alone can differ from an excluded grid.
    let open: Vec<(usize, usize)> = match puzzle {
        Some(puzzle) => (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| puzzle.get(shape.cell(r, c)).is_none())
            .collect(),
        None => Vec::new(),
    };
    if !excluded.is_empty() {
        writeln!(
            out,
            "| {} solutions ruled out: xK is covered by a witness 'xK sKRC', a cell (R,C) that differs \
             from solution K, whose value there covers sKRC",
            excluded.len()
        )?;
    }
    let mut line = String::new();
    for (i, item) in problem.items().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&item_name(item, n));
    }
    for k in 0..excluded.len() {
        push_witness_name(&mut line, k);
    }
    if !excluded.is_empty() {
        line.push_str(" |");
        for k in 0..excluded.len() {
            for &(r, c) in &open {
                push_same_value_name(&mut line, k, r, c, n);
            }
        }
    }
    writeln!(out, "{line}")?;
    for (r, c, v) in problem.options() {
        line.clear();
        for (i, item) in problem.option_items(r, c, v).into_iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&item_name(item, n));
        }
        if let Some(puzzle) = puzzle {
            let cell = shape.cell(r, c);
            if puzzle.get(cell).is_none() {
                for (k, grid) in excluded.iter().enumerate() {
                    if grid.get(cell) == Some(v) {
                        push_same_value_name(&mut line, k, r, c, n);
                    }
                }
            }
        }
        writeln!(out, "{line}")?;
    }
    for k in 0..excluded.len() {
        for &(r, c) in &open {
            line.clear();
            push_witness_name(&mut line, k);
            push_same_value_name(&mut line, k, r, c, n);
            writeln!(out, "{}", &line[1..])?;
        }
    }
    out.flush()
}

/// An exact-cover problem as read: item names and options as item indices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DlxProblem {
    /// Primary item names.
    pub primary: Vec<String>,
    /// Secondary item names (after `|` on the item line).
    pub secondary: Vec<String>,
    /// Options: indices into `primary` followed by `secondary` (secondary = primary.len() + i).
    pub options: Vec<Vec<usize>>,
}

impl DlxProblem {
    /// The name of item `i` (primary, then secondary).
    pub fn name(&self, i: usize) -> &str {
        if i < self.primary.len() {
            &self.primary[i]
        } else {
            &self.secondary[i - self.primary.len()]
        }
    }

    /// The `(r, c, v)` (0-based) of an option of a Sudoku problem of order `n`: the cell of its
    /// `p` item and the value of its `r` item; `None` if the option has no such items.
    pub fn sudoku_option(&self, option: usize, n: usize) -> Option<(usize, usize, usize)> {
        let mut cell = None;
        let mut value = None;
        for &i in &self.options[option] {
            match parse_item_name(self.name(i), n)? {
                Item::Cell { r, c } => cell = Some((r, c)),
                Item::RowValue { v, .. } => value = Some(v),
                _ => {}
            }
        }
        let (r, c) = cell?;
        Some((r, c, value?))
    }
}

/// A DLX file that cannot be read: what is wrong, with its place.
pub type DlxError = Located<DlxErrorKind>;

/// What is wrong in a DLX file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DlxErrorKind {
    /// No item line.
    #[error("no item line (empty file?)")]
    NoItems,
    /// An item declared twice.
    #[error("item '{0}' is declared twice")]
    DuplicateItem(String),
    /// An option naming an unknown item.
    #[error("'{0}' is not an item")]
    UnknownItem(String),
    /// An option naming an item twice.
    #[error("the option names '{0}' twice")]
    RepeatedInOption(String),
    /// A second `|` on the item line.
    #[error("a second '|' on the item line")]
    SecondBar,
    /// The line could not be read.
    #[error(transparent)]
    Line(#[from] LineErrorKind),
}

/// Reads a DLX file; see the module docs.
///
/// # Errors
/// [`DlxError`] with the place of the first problem.
pub fn read_dlx(input: impl BufRead) -> Result<DlxProblem, DlxError> {
    let mut problem = DlxProblem::default();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut have_items = false;
    let mut last_line = 0;
    let mut lines = LineReader::new(input);
    while let Some(next) = lines.next_line() {
        let (line_no, line) = next.map_err(|e| e.map(DlxErrorKind::from))?;
        last_line = line_no;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('|') {
            continue;
        }
        let at = |token: &str, kind| DlxError::new(line_no, token_column(line, token), kind);
        if !have_items {
            have_items = true;
            let mut secondary = false;
            let mut names = Vec::new();
            for token in line.split_ascii_whitespace() {
                if token == "|" {
                    if secondary {
                        return Err(at(token, DlxErrorKind::SecondBar));
                    }
                    secondary = true;
                    continue;
                }
                if index.insert(token.to_string(), names.len()).is_some() {
                    return Err(at(token, DlxErrorKind::DuplicateItem(token.into())));
                }
                names.push((token.to_string(), secondary));
            }
            problem.primary = names.iter().filter(|n| !n.1).map(|n| n.0.clone()).collect();
            problem.secondary = names.iter().filter(|n| n.1).map(|n| n.0.clone()).collect();
            // Re-index: primary first, then secondary.
            index.clear();
            for (k, name) in problem.primary.iter().chain(&problem.secondary).enumerate() {
                index.insert(name.clone(), k);
            }
            continue;
        }
        let mut option = Vec::new();
        for token in line.split_ascii_whitespace() {
            // dlx1 allows colour suffixes on secondary items (`item:colour`).
            let name = token.split(':').next().unwrap_or(token);
            let &k = index
                .get(name)
                .ok_or_else(|| at(token, DlxErrorKind::UnknownItem(name.into())))?;
            if option.contains(&k) {
                return Err(at(token, DlxErrorKind::RepeatedInOption(name.into())));
            }
            option.push(k);
        }
        problem.options.push(option);
    }
    if !have_items {
        return Err(DlxError::new(last_line.max(1), 1, DlxErrorKind::NoItems));
    }
    Ok(problem)
}

/// The `dlx` entry of the format registry.
pub const FORMAT: ExportFormat = ExportFormat {
    name: "dlx",
    aliases: &["exact-cover"],
    extension: "dlx",
    comment: "|",
    comment_end: "",
    first_line_fixed: false,
    summary: "Knuth's exact-cover input (dlx1): items and options",
    takes_cnf_options: false,
    takes_smt_encoding: false,
    answers: &["dlx"],
    companion: None,
    write: |puzzle, _, out| {
        let problem = ExactCover::new(puzzle);
        write_dlx(&problem, out)?;
        Ok(format!(
            "dlx: {} items, {} options",
            problem.item_count(),
            problem.options().count()
        ))
    },
    exclude: Some(|puzzle, _, excluded, out| write_dlx_excluding(puzzle, excluded, out)),
    estimate: |puzzle, _| {
        let shape = puzzle.shape();
        let n = shape.order() as u128;
        let cells = n * n;
        let kinds = (shape.unit_count() as u128).div_ceil(n) + 1;
        let item = 2 + 2 * digits(n);
        // The item line, then n options per open cell and one per given.
        let filled = puzzle.filled() as u128;
        let options = (cells - filled) * n + filled;
        u64::try_from(kinds * cells * item + options * kinds * item).unwrap_or(u64::MAX)
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn names_are_short_and_parse_back() {
        for n in [4, 9, 16, 35, 36, 64] {
            let shape = Shape::default_for_order(n).unwrap();
            let problem = ExactCover::new(&Grid::empty(shape));
            for item in problem.items() {
                let name = item_name(item, n);
                assert!(name.len() <= 8);
                assert_eq!(parse_item_name(&name, n), Some(item), "{name}");
            }
        }
        assert_eq!(item_name(Item::Cell { r: 35, c: 0 }, 36), "p1001");
        assert_eq!(item_name(Item::BoxValue { b: 8, v: 9 }, 16), "b9A");
        assert_eq!(parse_item_name("pZZ", 16), None);
    }

    #[test]
    fn reading_errors_have_places() {
        let cases = [
            ("", "line 1, column 1: no item line (empty file?)"),
            ("a b a\n", "line 1, column 5: item 'a' is declared twice"),
            ("a b\na x\n", "line 2, column 3: 'x' is not an item"),
            ("a b\nb b\n", "line 2, column 3: the option names 'b' twice"),
            (
                "a | b | c\n",
                "line 1, column 7: a second '|' on the item line",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(read_dlx(text.as_bytes()).unwrap_err().to_string(), message);
        }
        let p = read_dlx(&b"| c\na b | s\na s:1\nb\n"[..]).unwrap();
        assert_eq!(p.options, vec![vec![0, 2], vec![1]]);
        assert_eq!(p.name(2), "s");
    }

    #[test]
    fn excluded_grids_get_witness_items() {
        let puzzle = crate::text::parse_line("12..............", None).unwrap();
        let solution = crate::text::parse_line("1234341221434321", None).unwrap();
        let mut out = Vec::new();
        write_dlx_excluding(&puzzle, std::slice::from_ref(&solution), &mut out).unwrap();
        let problem = read_dlx(&out[..]).unwrap();
        assert_eq!(problem.primary.last().map(String::as_str), Some("x001"));
        // One secondary item and one witness option per open cell.
        assert_eq!(problem.secondary.len(), 14);
        let plain = ExactCover::new(&puzzle).options().count();
        assert_eq!(problem.options.len(), plain + 14);
        // The placements of the excluded grid's values cover their cell's secondary item.
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\np13 r13 c33 b23 s00113\n"), "{text}");
        assert!(text.contains("\nx001 s00113\n"));
        let many = vec![solution; MAX_EXCLUDED + 1];
        assert!(write_dlx_excluding(&puzzle, &many, &mut Vec::new()).is_err());
    }
}
