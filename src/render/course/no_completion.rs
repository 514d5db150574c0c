//! Why a square has no completion, on the course page: the evidence of every level that says
//! no (the checked refutation, the search trees), the contradiction propagation alone reaches,
//! and a minimal conflict drawn with its Hall violation.

use std::fmt::Write as _;

use super::ms;
use crate::grid::Grid;
use crate::propagate::Scheme;
use crate::propagate::explain::{Ending, Explanation, explain};
use crate::reduce::course::{Course, Evidence, LevelAnswer};
use crate::render::page;
use crate::render::svg::{Mark, SvgOptions, escape_xml, legend_html, render};

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

/// The steps of `story` as an ordered list, each sentence escaped.
fn chain_list(out: &mut String, story: &Explanation) {
    out.push_str("<ol class=\"chain\">");
    for step in &story.steps {
        let _ = write!(out, "<li>{}.</li>", escape_xml(&step.text));
    }
    out.push_str("</ol>");
}

/// The slides "Why there is no completion" and, when found, "A minimal conflict" of square
/// `index`.
///
/// One contradiction is told per square: when the minimal conflict's givens are refuted by
/// propagation ([`crate::reduce::conflict::Conflict::why`]), its chain (replay-checked) is the
/// story of both slides and the Hall violation they name, which is also the one the text output
/// prints; otherwise the first slide tells the propagation story of the whole square.
pub(super) fn why_not(out: &mut String, index: usize, course: &Course) {
    let chain = course.conflict.as_ref().and_then(|c| c.why());
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
                escape_xml(run.solver.as_str()),
                escape_xml(&evidence_words(evidence))
            );
        }
    }
    out.push_str("</ul>");
    match &chain {
        Some(story) => {
            let _ = write!(
                out,
                "<p>Reasoning alone finds the contradiction, without trying anything: {} steps \
                 of {} on the givens of the minimal conflict (the next slide) reach a Hall \
                 violation: {}.</p>",
                story.steps.len(),
                story.scheme,
                escape_xml(&violation(story))
            );
        }
        None => propagation_story(out, &course.latin),
    }
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
    let _ = write!(
        out,
        "<p><b>A minimal conflict</b>: the givens {} alone have no completion; without any one \
         of them the rest completes (found by deleting givens while no completion remains, {} \
         solves).</p>",
        escape_xml(&conflict.describe()),
        conflict.solves
    );
    let mut marks = Vec::new();
    let mut found = conflict.givens.clone();
    match &chain {
        Some(story) => {
            let _ = write!(
                out,
                "<p><b>Why</b>, step by step ({}, each step replayed by the checker):</p>",
                story.scheme
            );
            chain_list(out, story);
            for step in &story.steps {
                for &(cell, value) in &step.placed {
                    if found.get(cell).is_none() {
                        found.set(cell, Some(value));
                    }
                }
            }
            if let Some(last) = story.steps.last() {
                marks.push(Mark {
                    cells: last.cells.clone(),
                    fill: "#f7d774".into(),
                    meaning: "the Hall violation".into(),
                });
            }
        }
        None => out.push_str(
            "<p><b>Why:</b> no single row, column or symbol shows a Hall violation of these \
             givens; only the search of the solvers of every level proves that they have no \
             completion.</p>",
        ),
    }
    let options = SvgOptions {
        cell: 96.0,
        marks,
        title: Some(format!("square {index}: a minimal conflict")),
        coordinates: true,
        fluid: true,
        ..SvgOptions::default()
    };
    let solved = found != conflict.givens;
    out.push_str(&legend_html(&options, solved));
    let svg = render(&conflict.givens, solved.then_some(&found), &options);
    page::slide_figure(out, &svg, "");
}

/// The figure of a level that finds no completion: the square, its minimal conflict's givens
/// marked (the ones the conflict slide explains), its legend under it.
pub(super) fn refuted_square(out: &mut String, index: usize, course: &Course, level: &str) {
    let marks = course.conflict.iter().map(|conflict| Mark {
        cells: conflict.givens.givens().map(|(cell, _)| cell).collect(),
        fill: "#f4b6b6".into(),
        meaning: "the givens of the minimal conflict".into(),
    });
    let options = SvgOptions {
        cell: 96.0,
        marks: marks.collect(),
        title: Some(format!(
            "square {index}: no completion at the {level} level"
        )),
        coordinates: true,
        fluid: true,
        ..SvgOptions::default()
    };
    let figure = format!(
        "{}{}",
        render(&course.latin, None, &options),
        legend_html(&options, false)
    );
    page::slide_figure(out, &figure, "");
}

/// The Hall violation a refutation ends on, in words.
fn violation(story: &Explanation) -> String {
    story
        .steps
        .last()
        .map(|s| s.text.trim_start_matches("Contradiction: ").to_string())
        .unwrap_or_default()
}
