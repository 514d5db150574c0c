//! The course page: partial Latin squares carried through every level of the chain
//! ([`crate::reduce::course`]), drawn as one self-contained HTML page a teacher can project or
//! print.
//!
//! The page has, in order: a short introduction and a table of contents; **the reduction**,
//! explained on the running example (the first square with a completion, else the first square):
//! the map 1-based, the fixed pattern and why it forces the carrying cells (on the grid), the
//! "yes ⇔ yes" argument both ways, and the map cell by cell; **each formalism** on the running
//! example ([`super::formalisms`]); then **one section per square** (anchor `#square-K`): the
//! partial square and its completion, the Sudoku with the carrying cells highlighted (point at
//! one to read its place and symbol in the square), and the table of levels — instance, size
//! (measured, and the reduction's formula), solver, the answer read at that level, the
//! completion it maps back to, times. A square with no completion gets the evidence of every
//! level (the checked refutation's size, the search trees) and, when found, a minimal conflict
//! drawn on the square.
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

use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::propagate::explain::{Ending, explain};
use crate::reduce::course::{Answer, Course, Evidence, Level, LevelRun, Verdict};
use crate::reduce::latin::carries_latin;
use crate::render::formalisms::{
    fitted_cell, formalisms_section, map_table, map_text, reduction_section, wrap,
};
use crate::render::page;
use crate::render::svg::{Mark, SvgOptions, escape_xml, render};

const CSS: &str = "\
.levels td{font-size:.93em}.levels tr[data-verdict=yes] td.answer{background:#eef7ee}\
.levels tr[data-verdict=no] td.answer{background:#fbeeee}\
.map{font-size:.9em}.map caption{text-align:left;font-weight:600;padding:.3em 0}\
section.square{border-top:2px solid #ccc;margin-top:2em}";

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
        page::paragraph(
            &mut out,
            "Latin square completion is NP-complete. Each partial Latin square below is turned \
             into a Sudoku, and the Sudoku into a CNF formula, a 0-1 integer program, an \
             exact-cover problem and a graph to colour. Every level is solved by its own solver; \
             each answer is checked with that level's own certificate, mapped back down the \
             chain and verified again, so every level must give the same answer.",
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
        out.push_str("</nav>\n");
        let example = self
            .squares
            .iter()
            .find(|(_, _, c)| matches!(c.verdict, Verdict::Completed(_)))
            .or(self.squares.first());
        if let Some((_, _, course)) = example {
            let solution = sudoku_solution(course);
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

/// "a completion at every level", "no completion", "undecided".
fn verdict_words(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Completed(_) => "completed",
        Verdict::NoCompletion => "no completion",
        Verdict::Unknown => "undecided",
    }
}

/// The Sudoku solution of the first level that found one.
fn sudoku_solution(course: &Course) -> Option<&Grid> {
    course.levels.iter().find_map(|l| match &l.answer {
        Answer::Completed {
            sudoku_solution: Some(s),
            ..
        } => Some(s),
        _ => None,
    })
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// A grid on one line, row by row: "132 / 321 / 213" (values separated by spaces from order 10
/// on, "." for an empty cell).
pub fn one_line(grid: &Grid) -> String {
    let n = grid.shape().order();
    let rows: Vec<String> = (0..n)
        .map(|r| {
            let values = (0..n).map(|c| grid.at(r, c).map_or(".".into(), |v| (v + 1).to_string()));
            if n <= 9 {
                values.collect::<String>()
            } else {
                values.collect::<Vec<_>>().join(" ")
            }
        })
        .collect();
    rows.join(" / ")
}

fn square_section(out: &mut String, index: usize, line: usize, course: &Course) {
    let (m, n) = (course.latin.shape().order(), course.sudoku.shape().order());
    let _ = write!(out, "<section class=\"square\" id=\"square-{index}\">");
    let headline = match &course.verdict {
        Verdict::Completed(_) => "every level finds a completion",
        Verdict::NoCompletion => "no level finds a completion: there is none",
        Verdict::Unknown => "undecided within the limits",
    };
    page::heading(
        out,
        2,
        &format!("square-{index}-title"),
        &format!("Square {index} (input line {line}): {headline}"),
    );
    let completion = match &course.verdict {
        Verdict::Completed(grid) => Some(grid),
        _ => None,
    };
    let _ = write!(
        out,
        "<p>Order m = {m}, {} givens; its Sudoku has order n = {n} and {} givens \
         (n² − m² + {} = {}).</p>",
        course.latin.filled(),
        course.sudoku.filled(),
        course.latin.filled(),
        n * n - m * m + course.latin.filled()
    );
    let latin_svg = render(
        &course.latin,
        completion,
        &SvgOptions {
            cell: (320.0 / m as f64).clamp(18.0, 48.0),
            title: Some(format!("square {index}: the partial Latin square")),
            coordinates: true,
            legend: true,
            ..SvgOptions::default()
        },
    );
    let _ = write!(
        out,
        "<figure>{}<figcaption>The partial Latin square L{}.</figcaption></figure>",
        wrap(m, &latin_svg),
        if completion.is_some() {
            " and its completion"
        } else {
            ""
        }
    );
    let solution = sudoku_solution(course);
    let shape = course.sudoku.shape();
    let carrying: Vec<usize> = (0..shape.cells())
        .filter(|&c| carries_latin(m, shape.row_of(c), shape.col_of(c)))
        .collect();
    let titles = carrying
        .iter()
        .map(|&c| {
            let digit = course
                .sudoku
                .get(c)
                .or_else(|| solution.and_then(|s| s.get(c)));
            (c, map_text(m, (shape.row_of(c), shape.col_of(c)), digit))
        })
        .collect();
    let sudoku_svg = render(
        &course.sudoku,
        solution,
        &SvgOptions {
            cell: fitted_cell(n),
            highlight: carrying,
            highlight_meaning: "carrying cells: the square L".into(),
            title: Some(format!("square {index}: its Sudoku ({shape})")),
            coordinates: true,
            legend: true,
            cell_titles: titles,
            heat_map: n > 36,
            ..SvgOptions::default()
        },
    );
    let _ = write!(
        out,
        "<figure>{}<figcaption>Its Sudoku{}; point at a carrying cell to read its cell and \
         symbol in L.</figcaption></figure>",
        wrap(n, &sudoku_svg),
        if solution.is_some() { ", solved" } else { "" }
    );
    levels_table(out, index, course);
    if let Some((count, stopped)) = course.count {
        let _ = write!(
            out,
            "<p>Sudoku solutions counted: {}{count}, so L has {}{count} completions (the \
             reduction keeps the count).</p>",
            if stopped { "at least " } else { "" },
            if stopped { "at least " } else { "" }
        );
    }
    if let (Some(completion), Some(solution)) = (completion, solution) {
        let _ = write!(
            out,
            "<p>The completion, row by row: <code>{}</code>.</p>",
            escape_xml(&one_line(completion))
        );
        map_table(out, m, &course.sudoku, solution);
    }
    if course.verdict == Verdict::NoCompletion {
        why_not(out, index, course);
    }
    out.push_str("</section>\n");
}

fn levels_table(out: &mut String, index: usize, course: &Course) {
    let _ = write!(
        out,
        "<table class=\"levels\" id=\"square-{index}-levels\"><caption>Every level of square \
         {index}</caption><tr><th>level</th><th>instance size</th><th>size formula</th>\
         <th>solved by</th><th>answer at this level</th><th>mapped back to L and verified</th>\
         <th class=\"num\">build / solve / check (ms)</th></tr>"
    );
    for run in &course.levels {
        level_row(out, course, run);
    }
    out.push_str("</table>\n");
}

fn level_row(out: &mut String, course: &Course, run: &LevelRun) {
    let (verdict, answer, back) = match &run.answer {
        Answer::Completed {
            witness,
            completion,
            ..
        } => (
            "yes",
            format!("yes: {witness}"),
            format!("completion {}: valid", one_line(completion)),
        ),
        Answer::NoCompletion(evidence) => (
            "no",
            format!("no: {}", evidence_words(evidence)),
            "nothing to map back".into(),
        ),
        Answer::Unknown(reason) => ("unknown", format!("unknown: {reason}"), "—".into()),
        Answer::Skipped(why) => ("skipped", format!("not run: {why}"), "—".into()),
    };
    let size = if matches!(run.answer, Answer::Skipped(_)) {
        "—".into()
    } else {
        run.size
            .numbers()
            .iter()
            .zip(run.names)
            .map(|(k, name)| format!("{k} {name}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let formula = match run.predicted {
        None if run.level == Level::Latin => "the source".to_string(),
        None => "—".into(),
        Some(p) if p == run.size => "as predicted".into(),
        Some(p) => format!("predicted {}: differs", p.describe(&run.names)),
    };
    let level = match run.level {
        Level::Sudoku => {
            let shape = course.sudoku.shape();
            let (n, p) = (shape.order(), shape.box_rows());
            format!("Sudoku {n}×{n}, {p}×{p} boxes")
        }
        Level::Latin | Level::Cnf | Level::Ilp => run.instance.clone(),
        _ => format!("{} ({})", run.level.title(), run.instance),
    };
    let skipped = matches!(run.answer, Answer::Skipped(_));
    let build = if run.level == Level::Latin || skipped {
        "—".to_string()
    } else {
        ms(run.reduce_time)
    };
    let (solve, check) = if skipped {
        ("—".to_string(), "—".to_string())
    } else {
        (ms(run.solve_time), ms(run.check_time))
    };
    let _ = write!(
        out,
        "<tr data-level=\"{}\" data-verdict=\"{verdict}\"><td>{}</td><td>{}</td><td>{}</td>\
         <td>{}</td><td class=\"answer\">{}</td><td>{}</td><td class=\"num\">{} / {} / {}</td></tr>",
        run.level.name(),
        escape_xml(&level),
        escape_xml(&size),
        escape_xml(&formula),
        escape_xml(&run.solver),
        escape_xml(&answer),
        escape_xml(&back),
        build,
        solve,
        check
    );
}

/// The contradiction that propagation alone reaches on the square, step by step, with the
/// weakest of forward checking, channeling and hyper-arc consistency that reaches one (short
/// stories only).
fn propagation_story(out: &mut String, latin: &Grid) {
    let schemes = [
        (Scheme::FC, "forward checking"),
        (Scheme::FCI, "forward checking and hidden singles"),
        (Scheme::HAC, "Hall sets of each row and column"),
    ];
    for (scheme, words) in schemes {
        let Ok(story) = explain(latin, scheme) else {
            continue;
        };
        if story.ending != Ending::Contradiction || story.steps.len() > 30 {
            continue;
        }
        let _ = write!(
            out,
            "<p>Reasoning alone finds the contradiction, without trying anything ({words}):</p><ol>"
        );
        for step in &story.steps {
            let _ = write!(out, "<li>{}.</li>", escape_xml(&step.text));
        }
        out.push_str("</ol>");
        return;
    }
}

/// The evidence of a "no" in words.
pub fn evidence_words(evidence: &Evidence) -> String {
    match evidence {
        Evidence::Proof {
            lrat_steps,
            lrat_bytes,
            drat_lemmas,
            time,
            ..
        } => format!(
            "unsatisfiable; the refutation was checked by varisat's proof checker: \
             {lrat_steps} clauses derived (LRAT, {lrat_bytes} bytes; DRAT: {drat_lemmas} lemmas), \
             written and checked in {} ms",
            ms(*time)
        ),
        Evidence::Search { what, nodes } => {
            if *nodes <= 1 {
                format!("settled before any choice (a {what} of one node)")
            } else {
                format!("a {what} of {nodes} nodes explored to the end")
            }
        }
        Evidence::Presolve => {
            "infeasible once the givens are substituted (no solver run needed)".into()
        }
        Evidence::Missing => "no proof object (a limit stopped the proof run)".into(),
    }
}

fn why_not(out: &mut String, index: usize, course: &Course) {
    page::heading(
        out,
        3,
        &format!("square-{index}-why"),
        "Why there is no completion",
    );
    out.push_str("<ul>");
    for run in &course.levels {
        if let Answer::NoCompletion(evidence) = &run.answer {
            let _ = write!(
                out,
                "<li><b>{}</b>, {}: {}</li>",
                escape_xml(run.level.title()),
                escape_xml(&run.solver),
                escape_xml(&evidence_words(evidence))
            );
        }
    }
    out.push_str("</ul>");
    propagation_story(out, &course.latin);
    let Some(conflict) = &course.conflict else {
        return;
    };
    let shape = course.latin.shape();
    let cells: Vec<usize> = conflict.givens.givens().map(|(c, _)| c).collect();

    let svg = render(
        &course.latin,
        None,
        &SvgOptions {
            cell: (320.0 / shape.order() as f64).clamp(18.0, 48.0),
            marks: vec![Mark {
                cells,
                fill: "#f4b6b6".into(),
                meaning: "a minimal conflict".into(),
            }],
            title: Some(format!("square {index}: a minimal conflict")),
            coordinates: true,
            legend: true,
            ..SvgOptions::default()
        },
    );
    let _ = write!(
        out,
        "<figure>{}<figcaption>A minimal conflict: the givens {} alone already have no \
         completion, and dropping any one of them leaves a square that completes (found by \
         deleting givens one at a time while no completion remains; {} solves).</figcaption>\
         </figure>",
        wrap(shape.order(), &svg),
        escape_xml(&conflict.describe()),
        conflict.solves
    );
}
