//! The course page: partial Latin squares carried through every level of the chain
//! ([`crate::reduce::course`]), drawn as one self-contained HTML page a teacher can read,
//! project (lecture mode, [`crate::render::page`]) or print.
//!
//! The page is a sequence of slides, in order: an introduction; **the reduction**, explained on
//! the running example (the first square with a completion, else the first square): the map
//! 1-based, the fixed pattern and why it forces the carrying cells (on the grid, with the
//! solution of the completion shown), the "yes ⇔ yes" argument both ways, and the map cell by
//! cell; **each formalism** on the running example ([`super::formalisms`]); then for **each
//! square** (anchor `#square-K`): the partial square and the completion drawn (the first one
//! found), its Sudoku solved with the solution that completion maps to (point at a carrying cell
//! to read its place and symbol in the square), **one slide per level** in lecture mode (the
//! level's sizes with their formulas, its solver, its answer, the completion it maps back to —
//! the same as the first, or another one — drawn), the table of levels, the table of sizes
//! (each measured count beside its formula), and the map of the completion cell by cell.
//!
//! **The distinct completions of a square** ([`crate::reduce::distinct_completions`]): a square
//! with several completions says so — how many different ones the levels found, which level
//! found which, and (counted where cheap) how many the square has, with its Sudoku's own count:
//! the reduction keeps it.
//!
//! A square with no completion gets the evidence of every level (the checked refutation's size,
//! the search trees), the contradiction that propagation alone reaches on the square, and, when
//! found, a minimal conflict drawn on the square with its **Hall violation** named (k cells that
//! can take only k − 1 symbols, a symbol with no place, ...).
//!
//! Every row of the table of levels carries `data-level` and `data-verdict` (`yes`, `no`,
//! `unknown`, `skipped`) for tools that read the page. Grids above order 36 are drawn as heat maps
//! in a box the reader can resize.
//!
//! # Complexity
//! Linear in the drawings (O(n²) per grid) plus the running example's instances.
//!
//! # Examples
//! ```
//! use sudokit::reduce::course::{CourseOptions, run_course};
//! use sudokit::render::course::CoursePage;
//! use sudokit::text::{ShapeSpec, parse_line};
//! let square = parse_line("1.......3", Some(ShapeSpec::Latin)).unwrap();
//! let mut page = CoursePage::new("The course example");
//! page.push(1, 2, run_course(&square, &CourseOptions::default(), "square1").unwrap());
//! let html = page.to_html();
//! assert!(html.contains("id=\"square-1\"") && html.contains("data-level=\"cnf\" data-verdict=\"yes\""));
//! ```

use std::fmt::Write as _;
use std::time::Duration;

mod levels;
mod no_completion;
mod square;

pub use self::no_completion::evidence_words;
pub use self::square::completions_words;
use self::square::square_section;
use crate::grid::Grid;
use crate::reduce::course::{Course, CourseVerdict};
use crate::render::formalisms::{formalisms_section, reduction_section};
use crate::render::page;
use crate::render::svg::symbol;

const CSS: &str = "\
.levels td{font-size:.93em}.levels tr[data-verdict=yes] td.answer{background:#eef7ee}\
.levels tr[data-verdict=no] td.answer{background:#fbeeee}\
.sizes td{font-size:.93em}.sizes td.formula{font-family:ui-monospace,monospace}\
.sizes tr.first td{border-top:2px solid #888}.letters{font-size:.85em;color:#444}\
.map{font-size:.9em}\
section.square{border-top:2px solid #ccc;margin-top:2em}\
body.lecture section.square{border-top:none;margin-top:0}";

/// The course page being built: squares in input order.
#[derive(Debug, Clone)]
pub struct CoursePage {
    title: String,
    squares: Vec<(usize, usize, Course)>,
}

impl CoursePage {
    /// A page with no square yet.
    pub fn new(title: &str) -> CoursePage {
        CoursePage {
            title: title.to_string(),
            squares: Vec::new(),
        }
    }

    /// Adds square `index` (1-based), read from input line `line`.
    pub fn push(&mut self, index: usize, line: usize, course: Course) {
        self.squares.push((index, line, course));
    }

    /// The self-contained HTML page; see the module docs.
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        page::start(&mut out, &self.title, CSS);
        page::slide_start(&mut out, "intro", "");
        page::heading(&mut out, 2, "intro-title", &self.title);
        page::paragraph(
            &mut out,
            "Latin square completion is NP-complete. Each partial Latin square of this page is turned \
             into a Sudoku, and the Sudoku into a CNF formula, a 0-1 integer program, an \
             exact-cover problem and a graph to colour; each instance has a size polynomial in \
             the square's (the formulas are beside each count). Every level is solved by its \
             own solver; each answer is checked with that level's own certificate, mapped back \
             down the chain and verified again, so every level must give the same answer.",
        );
        out.push_str("<nav class=\"toc\"><a href=\"#reduction\">The reduction</a>");
        out.push_str("<a href=\"#formalisms\">Each formalism</a>");
        for (index, _, course) in &self.squares {
            let _ = write!(
                out,
                "<a href=\"#square-{index}\">Square {index}: {}</a>",
                verdict_words(&course.verdict)
            );
        }
        out.push_str("</nav>");
        page::slide_end(&mut out);
        let example = self
            .squares
            .iter()
            .find(|(_, _, c)| matches!(c.verdict, CourseVerdict::Completed(_)))
            .or(self.squares.first());
        if let Some((_, _, course)) = example {
            let shown = course.shown();
            let solution = shown.as_ref().map(|(_, s)| s);
            reduction_section(&mut out, &course.latin, &course.sudoku, solution);
            formalisms_section(
                &mut out,
                course.latin.shape().order(),
                &course.sudoku,
                solution,
                course.cnf,
            );
        }
        for (index, line, course) in &self.squares {
            square_section(&mut out, *index, *line, course);
        }
        page::end(&mut out);
        out
    }
}

/// "completed", "no completion", "undecided".
fn verdict_words(verdict: &CourseVerdict) -> &'static str {
    match verdict {
        CourseVerdict::Completed(_) => "completed",
        CourseVerdict::NoCompletion => "no completion",
        CourseVerdict::Unknown => "undecided",
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// A grid on one line, row by row: "132 / 321 / 213" (symbols as a puzzle line writes them,
/// separated by spaces above order 35; "." for an empty cell).
pub fn one_line(grid: &Grid) -> String {
    let n = grid.shape().order();
    let rows: Vec<String> = (0..n)
        .map(|r| {
            let values = (0..n).map(|c| grid.at(r, c).map_or(".".into(), |v| symbol(n, v)));
            if n <= 35 {
                values.collect::<String>()
            } else {
                values.collect::<Vec<_>>().join(" ")
            }
        })
        .collect();
    rows.join(" / ")
}
