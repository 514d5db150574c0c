//! One square's part of the course page: its headline and givens, the distinct
//! completions the levels found, the square and its Sudoku drawn (the completion found, the solution it maps to),
//! then its levels ([`super::levels`]), the map of the completion cell by cell and, for a
//! square with no completion, why ([`super::no_completion`]).

use std::fmt::Write as _;

use super::levels::{level_slide, levels_table, sizes_table};
use super::no_completion::why_not;
use super::one_line;
use crate::reduce::course::{Course, CourseVerdict, count_sentence};
use crate::reduce::distinct_completions::DistinctCompletions;
use crate::reduce::latin::carries_latin;
use crate::render::formalisms::{
    fitted_cell, map_slide_class, map_table, map_text, sudoku_figure, wrap,
};
use crate::render::page;
use crate::render::svg::{SvgOptions, escape_xml, legend_html, render};

/// The distinct completions the levels found, in one paragraph.
pub fn completions_words(course: &Course, distinct: &DistinctCompletions) -> String {
    let mut words = match &course.verdict {
        CourseVerdict::Completed(_) if distinct.one_completion() => {
            "Every level that ran found a completion, and the same one: it is drawn here.".into()
        }
        CourseVerdict::Completed(_) => format!(
            "Every level that ran found a completion, each verified at its own level and mapped \
             back, but not the same one: the levels found {} different completions (the square \
             has several; each solver picks its own). The first one found is drawn here, with \
             its Sudoku solution; the table of levels says which level found which.",
            distinct.completions.len()
        ),
        CourseVerdict::NoCompletion => "No level found a completion: there is none.".into(),
        CourseVerdict::Unknown => "No level answered within the limits.".into(),
    };
    if let Some(sentence) = count_sentence(course.completions, course.count) {
        // The sentence with a capital: "The square has ...", "Its Sudoku has ...".
        let mut letters = sentence.chars();
        let first = letters.next().map(|c| c.to_ascii_uppercase());
        let _ = write!(
            words,
            " {}{}.",
            first.map(String::from).unwrap_or_default(),
            letters.as_str()
        );
    }
    words
}

/// The part of square `index` (1-based, from input line `line`): every slide of it.
pub(super) fn square_section(out: &mut String, index: usize, line: usize, course: &Course) {
    let (m, n) = (course.latin.shape().order(), course.sudoku.shape().order());
    let distinct = course.distinct_completions();
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
    page::paragraph(out, &completions_words(course, &distinct));
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
            " The digits filled in (see the legend) are the solution that the completion of L maps to."
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
    let figure = sudoku_figure(&course.sudoku, solution, &sudoku_options, m);
    page::slide_figure(out, &figure, "");

    for (i, run) in course.levels.iter().enumerate() {
        level_slide(out, index, course, &distinct, i, run);
    }

    page::slide_start(out, &format!("square-{index}-levels"), "");
    levels_table(out, index, course, &distinct);
    page::slide_end(out);
    // The lecture shows each level's sizes on its own slide.
    page::slide_start(out, &format!("square-{index}-sizes"), "document-only");
    sizes_table(out, index, course);
    page::slide_end(out);
    if let (Some((completion, solution)), true) = (&shown, m <= 6) {
        page::slide_start(out, &format!("square-{index}-map"), map_slide_class(m));
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
            "the completion of L drawn on this square's first slide",
        );
        page::slide_end(out);
    }
    if course.verdict == CourseVerdict::NoCompletion {
        why_not(out, index, course);
    }
}
