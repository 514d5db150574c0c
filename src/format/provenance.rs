//! Where an exported file comes from: the comment lines that name the input file, the puzzle's
//! index and line, and the exact `decode` command (with `--index`) that reads a solver's answer
//! back; and the names of numbered exports (`top95-01.cnf` ... `top95-95.cnf`), zero-padded so
//! that they sort in input order.
//!
//! # Examples
//! ```
//! use sudokit::format::provenance::{numbered_name, source_header};
//! use sudokit::format::{ExportOptions, find_format};
//! let cnf = find_format("cnf").unwrap();
//! let shape = sudokit::Shape::sudoku(3, 3).unwrap();
//! let lines = source_header("models/sudoku/9x9/top95.txt", 3, 3, shape, cnf, &ExportOptions::default());
//! assert_eq!(lines[0], "source: models/sudoku/9x9/top95.txt, puzzle 3 (line 3)");
//! assert_eq!(
//!     lines[1],
//!     "decode exactly: sudokit decode models/sudoku/9x9/top95.txt --index 3 --from minisat ANSWER"
//! );
//! assert_eq!(numbered_name("top95", 7, 95, "cnf"), "top95-07.cnf");
//! ```

use super::entry::{ExportFormat, ExportOptions};
use crate::encode::cnf::Encoding;
use crate::shape::Shape;

/// The comment lines naming the source of puzzle `index` (1-based, its position in the file) on
/// input line `line` of `file` (`-` for standard input), and the `decode` command that reads an
/// answer to the export back: the first answer reader of the format (`minisat` for CNF), with
/// `--encoding` when the CNF numbering depends on it, and the regions of `shape` as the flags
/// that read them ([`region_flags`]).
pub fn source_header(
    file: &str,
    index: usize,
    line: usize,
    shape: Shape,
    format: &ExportFormat,
    options: &ExportOptions,
) -> Vec<String> {
    let reader = if format.answers.contains(&"minisat") {
        "minisat"
    } else {
        format.answers.first().copied().unwrap_or(format.name)
    };
    let encoding = if format.takes_cnf_options && options.cnf.encoding == Encoding::Optimized {
        " --encoding optimized"
    } else {
        ""
    };
    let file = if file.contains(char::is_whitespace) {
        format!("'{file}'")
    } else {
        file.to_string()
    };
    vec![
        format!("source: {file}, puzzle {index} (line {line})"),
        format!(
            "decode exactly: sudokit decode {file} --index {index} --from {reader}{encoding}{} ANSWER",
            region_flags(shape)
        ),
    ]
}

/// The flags that read `shape`'s regions again, each after a space: `--regions ROWS` (the map's
/// rows joined by commas, which `--regions` reads in place of a file, for orders up to 35;
/// `--regions FILE` above) and `--extra SET` per extra set; empty without regions.
pub fn region_flags(shape: Shape) -> String {
    let Some(regions) = shape.regions() else {
        return String::new();
    };
    let mut flags = String::new();
    if let Some(rows) = regions.map_rows() {
        if shape.order() <= 35 {
            flags.push_str(&format!(" --regions {}", rows.join(",")));
        } else {
            flags.push_str(" --regions FILE");
        }
    }
    for set in regions.extra_sets().unwrap_or_default() {
        flags.push_str(&format!(" --extra {}", set.name()));
    }
    flags
}

/// The name of export `k` of `count`: `STEM-K.EXT` with `K` zero-padded to the digits of
/// `count`, so that a directory listing sorts in input order.
pub fn numbered_name(stem: &str, k: usize, count: usize, extension: &str) -> String {
    let width = count.max(1).to_string().len();
    format!("{stem}-{k:0width$}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::cnf::CnfOptions;
    use crate::format::find_format;

    #[test]
    fn names_sort_in_input_order() {
        let names: Vec<String> = (1..=12).map(|k| numbered_name("p", k, 12, "lp")).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(numbered_name("p", 3, 9, "lp"), "p-3.lp");
        assert_eq!(numbered_name("p", 3, 1000, "lp"), "p-0003.lp");
    }

    #[test]
    fn the_decode_command_carries_the_index_and_the_encoding() {
        let lp = find_format("lp").unwrap();
        let shape = Shape::sudoku(3, 3).unwrap();
        let lines = source_header("my puzzles.txt", 2, 5, shape, lp, &ExportOptions::default());
        assert_eq!(lines[0], "source: 'my puzzles.txt', puzzle 2 (line 5)");
        assert!(
            lines[1].ends_with("--index 2 --from glpsol ANSWER"),
            "{}",
            lines[1]
        );
        let optimized = ExportOptions {
            cnf: CnfOptions {
                encoding: Encoding::Optimized,
                ..CnfOptions::default()
            },
            ..ExportOptions::default()
        };
        let cnf = find_format("cnf").unwrap();
        let lines = source_header("a.txt", 1, 1, Shape::sudoku(3, 3).unwrap(), cnf, &optimized);
        assert!(lines[1].ends_with("--from minisat --encoding optimized ANSWER"));
    }
}
