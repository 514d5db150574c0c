//! The levels of one square on the course page: a slide per level for lecture mode (its sizes,
//! solver, answer and the completion it maps back to, or the square with its minimal conflict
//! marked when the level finds none), the table of levels (with `data-level`
//! and `data-verdict` for tools that read the page) and the table of sizes, each measured count
//! beside its formula.

use std::fmt::Write as _;

use super::no_completion::{evidence_words, refuted_square};
use super::{ms, one_line};
use crate::reduce::course::{Course, Level, LevelAnswer, LevelRun};
use crate::reduce::distinct_completions::DistinctCompletions;
use crate::reduce::formulas::size_formulas;
use crate::render::page;
use crate::render::svg::{SvgOptions, escape_xml, render};

/// One level of one square, for lecture mode: its sizes with their formulas, its solver and
/// answer, and the completion it maps back to, drawn.
pub(super) fn level_slide(
    out: &mut String,
    index: usize,
    course: &Course,
    distinct: &DistinctCompletions,
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
    let (_, answer, back) = answer_words(course, distinct, i, run);
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
        LevelAnswer::NoCompletion(_) => refuted_square(out, index, course, run.level.title()),
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
    distinct: &DistinctCompletions,
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
                distinct.relation(i).unwrap_or_default()
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

/// The table of levels of square `index`, with its heading.
pub(super) fn levels_table(
    out: &mut String,
    index: usize,
    course: &Course,
    distinct: &DistinctCompletions,
) {
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
        let (verdict, answer, back) = answer_words(course, distinct, i, run);
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
pub(super) fn sizes_table(out: &mut String, index: usize, course: &Course) {
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
