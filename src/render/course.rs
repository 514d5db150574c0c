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
//! **One story per square** ([`crate::reduce::story`]): a square with several completions says
//! so — how many different ones the levels found, which level found which, and (counted where
//! cheap) how many the square has, with its Sudoku's own count: the reduction keeps it.
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

use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::propagate::explain::{Ending, explain};
use crate::reduce::course::{Course, CourseVerdict, Evidence, Level, LevelAnswer, LevelRun};
use crate::reduce::formulas::size_formulas;
use crate::reduce::latin::carries_latin;
use crate::reduce::story::Story;
use crate::render::formalisms::{
    fitted_cell, formalisms_section, map_table, map_text, reduction_section, wrap,
};
use crate::render::page;
use crate::render::svg::{Mark, SvgOptions, escape_xml, legend_html, render, symbol};

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
            "Latin square completion is NP-complete. Each partial Latin square below is turned \
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

/// The story of the square's completions, in one paragraph.
pub fn completions_words(course: &Course, story: &Story) -> String {
    let mut words = match &course.verdict {
        CourseVerdict::Completed(_) if story.one_completion() => {
            "Every level that ran found a completion, and the same one: it is drawn here.".into()
        }
        CourseVerdict::Completed(_) => format!(
            "Every level that ran found a completion, each verified at its own level and mapped \
             back, but not the same one: the levels found {} different completions (the square \
             has several; each solver picks its own). The first one found is drawn here, with \
             its Sudoku solution; the table of levels says which level found which.",
            story.completions.len()
        ),
        CourseVerdict::NoCompletion => "No level found a completion: there is none.".into(),
        CourseVerdict::Unknown => "No level answered within the limits.".into(),
    };
    match (course.completions, course.count) {
        (Some(a), Some(b)) => {
            let _ = write!(
                words,
                " Counted separately, the square has {} and its Sudoku {}: the reduction keeps \
                 the number of solutions (completions and Sudoku solutions correspond one to \
                 one).",
                a.of("completion"),
                b.of("solution"),
            );
        }
        (Some(a), None) => {
            let _ = write!(words, " The square has {} (counted).", a.of("completion"));
        }
        (None, Some(b)) => {
            let _ = write!(
                words,
                " Its Sudoku has {} (counted), so the square as many completions: the \
                 reduction keeps the count.",
                b.of("solution")
            );
        }
        (None, None) => {}
    }
    words
}

fn square_section(out: &mut String, index: usize, line: usize, course: &Course) {
    let (m, n) = (course.latin.shape().order(), course.sudoku.shape().order());
    let story = course.story();
    let shown = course.shown();
    let headline = match &course.verdict {
        CourseVerdict::Completed(_) => "every level finds a completion",
        CourseVerdict::NoCompletion => "no level finds a completion: there is none",
        CourseVerdict::Unknown => "undecided within the limits",
    };
    page::slide_start(out, &format!("square-{index}"), "square");
    page::heading(
        out,
        2,
        &format!("square-{index}-title"),
        &format!("Square {index} (input line {line}): {headline}"),
    );
    let _ = write!(
        out,
        "<p>Order m = {m}, {} givens; its Sudoku has order n = m² = {n} and {} givens \
         (n² − m² + {} = {}).</p>",
        course.latin.filled(),
        course.sudoku.filled(),
        course.latin.filled(),
        n * n - m * m + course.latin.filled()
    );
    page::paragraph(out, &completions_words(course, &story));
    let completion = shown.as_ref().map(|(c, _)| c);
    let latin_options = SvgOptions {
        cell: 96.0,
        title: Some(format!("square {index}: the partial Latin square")),
        coordinates: true,
        fluid: true,
        ..SvgOptions::default()
    };
    out.push_str(&legend_html(&latin_options, completion.is_some()));
    let latin_svg = render(&course.latin, completion, &latin_options);
    page::slide_figure(out, &wrap(m, &latin_svg), "");

    // Its Sudoku, solved with the solution the drawn completion maps to.
    let solution = shown.as_ref().map(|(_, s)| s);
    let shape = course.sudoku.shape();
    page::slide_start(out, &format!("square-{index}-sudoku"), "");
    page::heading(
        out,
        3,
        &format!("square-{index}-sudoku-title"),
        &format!("Square {index}: its Sudoku ({shape})"),
    );
    let _ = write!(
        out,
        "<p>The yellow cells carry the square: cell (i, j) of L is cell (i, m·(j − 1) + 1) of the \
         Sudoku, symbol s is digit m·(s − 1) + 1. Point at a yellow cell to read its cell and \
         symbol in L.{}</p>",
        if solution.is_some() {
            " The solution drawn in blue is the one the completion above maps to."
        } else {
            ""
        }
    );
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
    let sudoku_options = SvgOptions {
        cell: fitted_cell(n),
        highlight: carrying,
        highlight_meaning: "carrying cells: the square L".into(),
        title: Some(format!("square {index}: its Sudoku ({shape})")),
        coordinates: true,
        cell_titles: titles,
        heat_map: n > 36,
        fluid: true,
        ..SvgOptions::default()
    };
    out.push_str(&legend_html(&sudoku_options, solution.is_some()));
    let sudoku_svg = render(&course.sudoku, solution, &sudoku_options);
    page::slide_figure(out, &wrap(n, &sudoku_svg), "");

    for (i, run) in course.levels.iter().enumerate() {
        level_slide(out, index, course, &story, i, run);
    }

    page::slide_start(out, &format!("square-{index}-levels"), "");
    levels_table(out, index, course, &story);
    page::slide_end(out);
    // The lecture shows each level's sizes on its own slide.
    page::slide_start(out, &format!("square-{index}-sizes"), "document-only");
    sizes_table(out, index, course);
    page::slide_end(out);
    if let (Some((completion, solution)), true) = (&shown, m <= 6) {
        page::slide_start(out, &format!("square-{index}-map"), "");
        let _ = write!(
            out,
            "<p>The completion drawn, row by row: <code>{}</code>.</p>",
            escape_xml(&one_line(completion))
        );
        map_table(
            out,
            m,
            &course.sudoku,
            solution,
            "the completion drawn above",
        );
        page::slide_end(out);
    }
    if course.verdict == CourseVerdict::NoCompletion {
        why_not(out, index, course);
    }
}

/// One level of one square, for lecture mode: its sizes with their formulas, its solver and
/// answer, and the completion it maps back to, drawn.
fn level_slide(
    out: &mut String,
    index: usize,
    course: &Course,
    story: &Story,
    i: usize,
    run: &LevelRun,
) {
    let total = course.levels.len();
    page::slide_start(
        out,
        &format!("square-{index}-level-{}", run.level.name()),
        "lecture-only",
    );
    page::heading(
        out,
        3,
        &format!("square-{index}-level-{}-title", run.level.name()),
        &format!(
            "Square {index}, level {} of {total}: {}",
            i + 1,
            run.level.title()
        ),
    );
    let _ = write!(
        out,
        "<p>{} — solved by {}.</p>",
        escape_xml(&level_name(course, run)),
        escape_xml(&run.solver)
    );
    if !matches!(run.answer, LevelAnswer::Skipped(_)) {
        sizes_rows_table(out, course, std::slice::from_ref(run), "Its size", false);
    }
    let (_, answer, back) = answer_words(course, story, i, run);
    let _ = write!(
        out,
        "<p><b>Answer:</b> {}</p><p><b>Mapped back:</b> {}</p>",
        escape_xml(&answer),
        escape_xml(&back)
    );
    match &run.answer {
        LevelAnswer::Completed { completion, .. } => {
            let options = SvgOptions {
                cell: 96.0,
                title: Some(format!(
                    "square {index}: the completion of the {} level",
                    run.level.title()
                )),
                coordinates: true,
                fluid: true,
                ..SvgOptions::default()
            };
            let svg = render(&course.latin, Some(completion), &options);
            page::slide_figure(out, &svg, "");
        }
        _ => page::slide_end(out),
    }
}

/// "Sudoku 9×9, 3×3 boxes", "CNF (extended, pairwise AMO)", "exact cover (...)".
fn level_name(course: &Course, run: &LevelRun) -> String {
    match run.level {
        Level::Sudoku => {
            let shape = course.sudoku.shape();
            let (n, p) = (shape.order(), shape.box_rows());
            format!("Sudoku {n}×{n}, {p}×{p} boxes")
        }
        _ if run.instance == run.level.title() => run.instance.clone(),
        Level::Latin | Level::Cnf | Level::Ilp => run.instance.clone(),
        _ => format!("{} ({})", run.level.title(), run.instance),
    }
}

/// The verdict word, the answer at the level, and what it maps back to (with how its
/// completion relates to the first).
fn answer_words(
    course: &Course,
    story: &Story,
    i: usize,
    run: &LevelRun,
) -> (&'static str, String, String) {
    let _ = course;
    match &run.answer {
        LevelAnswer::Completed {
            witness,
            completion,
            ..
        } => (
            "yes",
            format!("yes: {witness}"),
            format!(
                "completion {}: valid; {}",
                one_line(completion),
                story.relation(i).unwrap_or_default()
            ),
        ),
        LevelAnswer::NoCompletion(evidence) => (
            "no",
            format!("no: {}", evidence_words(evidence)),
            "nothing to map back".into(),
        ),
        LevelAnswer::Unknown(reason) => ("unknown", format!("unknown: {reason}"), "—".into()),
        LevelAnswer::Skipped(why) => ("skipped", format!("not run: {why}"), "—".into()),
    }
}

fn levels_table(out: &mut String, index: usize, course: &Course, story: &Story) {
    page::heading(
        out,
        3,
        &format!("square-{index}-levels-title"),
        &format!("Every level of square {index}"),
    );
    let _ = write!(
        out,
        "<table class=\"levels\" id=\"square-{index}-levels-table\"><caption>Every level of \
         square {index}: its solver, its answer, and the completion it maps back to</caption>\
         <thead><tr><th>level</th><th>solved by</th><th>answer at this level</th>\
         <th>mapped back to L and verified</th>\
         <th class=\"num\">build / solve / check (ms)</th></tr></thead><tbody>"
    );
    for (i, run) in course.levels.iter().enumerate() {
        let (verdict, answer, back) = answer_words(course, story, i, run);
        let skipped = matches!(run.answer, LevelAnswer::Skipped(_));
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
            "<tr data-level=\"{}\" data-verdict=\"{verdict}\"><td>{}</td><td>{}</td>\
             <td class=\"answer\">{}</td><td>{}</td><td class=\"num\">{} / {} / {}</td></tr>",
            run.level.name(),
            escape_xml(&level_name(course, run)),
            escape_xml(&run.solver),
            escape_xml(&answer),
            escape_xml(&back),
            build,
            solve,
            check
        );
    }
    out.push_str("</tbody></table>\n");
}

/// The table of sizes: every measured count of every level beside its formula.
fn sizes_table(out: &mut String, index: usize, course: &Course) {
    let runs: Vec<LevelRun> = course
        .levels
        .iter()
        .filter(|r| !matches!(r.answer, LevelAnswer::Skipped(_)))
        .cloned()
        .collect();
    sizes_rows_table(
        out,
        course,
        &runs,
        &format!(
            "The size of every level of square {index}: each count measured on the instance, \
             beside its formula (polynomial in n)"
        ),
        true,
    );
}

fn sizes_rows_table(
    out: &mut String,
    course: &Course,
    runs: &[LevelRun],
    caption: &str,
    with_level: bool,
) {
    let level_head = if with_level { "<th>level</th>" } else { "" };
    let _ = write!(
        out,
        "<table class=\"sizes\"><caption>{}</caption><thead><tr>{level_head}<th>counts</th>\
         <th class=\"num\">measured</th><th>formula</th><th class=\"num\">formula's value</th>\
         </tr></thead><tbody>",
        escape_xml(caption)
    );
    let columns = if with_level { 5 } else { 4 };
    for run in runs {
        let formulas = size_formulas(run.level, &course.latin, course.cnf);
        let measured = run.size.numbers();
        for (k, (count, name)) in measured.iter().zip(run.names).enumerate() {
            let level_cell = match (with_level, k) {
                (true, 0) => format!("<td rowspan=\"4\">{}</td>", escape_xml(run.level.title())),
                _ => String::new(),
            };
            let (formula, value) = match &formulas {
                Some(f) => {
                    let f = &f.formulas[k];
                    let mark = if f.value == *count {
                        String::new()
                    } else {
                        " (differs!)".into()
                    };
                    (escape_xml(&f.text), format!("{}{mark}", f.value))
                }
                None => (
                    "measured only: the optimized encoding drops what the givens settle".into(),
                    "—".into(),
                ),
            };
            let _ = write!(
                out,
                "<tr{}>{level_cell}<td>{}</td><td class=\"num\">{count}</td>\
                 <td class=\"formula\">{formula}</td><td class=\"num\">{value}</td></tr>",
                if k == 0 { " class=\"first\"" } else { "" },
                escape_xml(name),
            );
        }
        if let Some(f) = &formulas {
            let _ = write!(
                out,
                "<tr><td colspan=\"{columns}\" class=\"letters\">where {}</td></tr>",
                escape_xml(&f.letters)
            );
        }
    }
    out.push_str("</tbody></table>\n");
}

/// The contradiction that propagation alone reaches on the square, step by step, with the
/// weakest of forward checking, channeling, range exhaustion and hyper-arc consistency that
/// reaches one (short stories only).
fn propagation_story(out: &mut String, latin: &Grid) {
    let schemes = [
        (Scheme::FC, "forward checking"),
        (Scheme::FCI, "forward checking and hidden singles"),
        (Scheme::BC, "the sets of cells of a row or column"),
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
            "<p>Reasoning alone finds the contradiction, without trying anything ({words}, \
             {scheme}):</p><ol>"
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
    page::slide_start(out, &format!("square-{index}-why"), "");
    page::heading(
        out,
        3,
        &format!("square-{index}-why-title"),
        "Why there is no completion",
    );
    out.push_str("<ul>");
    for run in &course.levels {
        if let LevelAnswer::NoCompletion(evidence) = &run.answer {
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
    page::slide_end(out);
    let Some(conflict) = &course.conflict else {
        return;
    };
    page::slide_start(out, &format!("square-{index}-conflict"), "");
    page::heading(
        out,
        3,
        &format!("square-{index}-conflict-title"),
        "A minimal conflict, and its Hall violation",
    );
    let cells: Vec<usize> = conflict.givens.givens().map(|(c, _)| c).collect();
    let _ = write!(
        out,
        "<p><b>A minimal conflict</b> (red): the givens {} alone already have no completion, and \
         dropping any one of them leaves a square that completes (found by deleting givens one \
         at a time while no completion remains; {} solves).</p>",
        escape_xml(&conflict.describe()),
        conflict.solves
    );
    match conflict.why() {
        Some(story) => {
            let last = story
                .steps
                .last()
                .map(|s| s.text.clone())
                .unwrap_or_default();
            let _ = write!(
                out,
                "<p><b>Why:</b> {} ({}, replayed step by step).</p>",
                escape_xml(last.trim_start_matches("Contradiction: ")),
                story.scheme
            );
        }
        None => out.push_str(
            "<p><b>Why:</b> no single row, column or symbol shows a Hall violation of these \
             givens; only the search of the solvers above proves that they have no \
             completion.</p>",
        ),
    }
    let options = SvgOptions {
        cell: 96.0,
        marks: vec![Mark {
            cells,
            fill: "#f4b6b6".into(),
            meaning: "a minimal conflict".into(),
        }],
        title: Some(format!("square {index}: a minimal conflict")),
        coordinates: true,
        fluid: true,
        ..SvgOptions::default()
    };
    out.push_str(&legend_html(&options, false));
    let svg = render(&course.latin, None, &options);
    page::slide_figure(out, &svg, "");
}
