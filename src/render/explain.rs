//! The HTML page of an [`Explanation`]: one frame per step, each the grid with its candidates
//! before the step, the step's units and reason highlighted, the candidates it removes struck out
//! in red, and the sentence that says why (a probe with its chain, step by step).
//!
//! A frame's drawing: givens in bold black, cells already down to one candidate in blue, the
//! candidates of open cells small and grey at fixed places (value v at row ⌊(v−1)/k⌋, column
//! (v−1) mod k of a k×k pencil grid, k = ⌈√n⌉); the units the step works in are tinted blue, the
//! cells of its reason (the placed cell, the Hall set, the fish) yellow, and the cells it places
//! outlined in green. Values are written as a puzzle line writes them (A = 10).
//!
//! Each frame is a slide of the page ([`crate::render::page`]): in lecture mode (`L`) one frame
//! fills the screen and `←`/`→` step through the story, a probe's chain as sub-frames of its
//! own (`#step-K-J`, lecture only: the document lists the chain under the probe's frame), each
//! drawn on the candidates under the supposition; the drawing is fluid SVG. Frames are also
//! linked (previous, next, the list of steps) by anchors `#step-K`.
//!
//! # Complexity
//! O((steps + chain steps) · n³) output (every candidate of every frame and sub-frame).
//!
//! # Examples
//! ```
//! use sudokit::propagate::{Scheme, explain::explain};
//! use sudokit::render::explain::explain_page;
//! use sudokit::text::parse_line;
//! let story = explain(&parse_line("12.434.221.34321", None).unwrap(), Scheme::FC).unwrap();
//! let html = explain_page(&story, "FC on a 4×4");
//! assert_eq!(html.matches("<section class=\"slide frame\"").count(), story.steps.len() + 1);
//! ```

use std::fmt::Write as _;

use crate::grid::Grid;
use crate::propagate::Domains;
use crate::propagate::explain::{Deduction, Explanation, StepKind};
use crate::render::page;
use crate::render::svg::{box_borders, escape_xml, fluid_coordinates, symbol};

const CSS: &str = "\
.frame{margin:1.5em 0;padding-top:.5em;border-top:1px solid #ddd}\
body.lecture .frame{border-top:none}\
.steps{columns:3 18em;font-size:.92em}.steps li{break-inside:avoid}\
body.lecture .steps{columns:2 14em}.chain{font-size:.92em}\
body.lecture .chain{columns:2 16em;max-height:42vh;overflow:auto}\
.nav a{margin-right:1.2em}\
.cell{fill:#fff;stroke:#aaa;stroke-width:1}.cell.u{fill:#e3edfb}.cell.r{fill:#ffe27a}\
.placed{fill:none;stroke:#1d8a2e;stroke-width:3}\
.g{font-weight:bold;fill:#000}.f{fill:#1f4fb4}.c{fill:#666}.coord{fill:#666}.x{fill:#c21818;font-weight:bold}\
.strike{stroke:#c21818;stroke-width:1.5}\
text{font-family:sans-serif;text-anchor:middle;dominant-baseline:central}";

/// The self-contained HTML page of `story`; see the module docs.
pub fn explain_page(story: &Explanation, title: &str) -> String {
    let mut out = String::new();
    page::start(&mut out, title, CSS);
    explain_slides(&mut out, story, title);
    page::end(&mut out);
    out
}

/// The slides of `story` (an introduction, then one frame per step and the end), for a page or
/// a notebook cell.
pub fn explain_slides(out: &mut String, story: &Explanation, title: &str) {
    let shape = story.puzzle.shape();
    page::slide_start(out, "story", "");
    page::heading(out, 2, "story-title", title);
    page::paragraph(
        out,
        &format!(
            "The puzzle ({shape}, {} givens) under the propagation scheme {}, step by step, \
             easiest rule first; every step was replayed from its rule before this page was \
             written. Each frame shows the candidates before the step: the units it works in \
             are tinted blue, the cells of its reason yellow, the candidates it removes are \
             struck out in red, and the cells it places are outlined in green.",
            story.puzzle.filled(),
            story.scheme
        ),
    );
    page::paragraph(out, &format!("{}.", story.ending_text()));
    legend(out);
    out.push_str("<nav class=\"toc\"><ol class=\"steps\">");
    for (i, step) in story.steps.iter().enumerate() {
        let _ = write!(
            out,
            "<li><a href=\"#step-{}\">{}</a></li>",
            i + 1,
            escape_xml(&short(step, shape))
        );
    }
    out.push_str("<li><a href=\"#end\">the end</a></li></ol></nav>");
    page::slide_end(out);
    let total = story.steps.len();
    let mut k = 0;
    story.frames(|step, before| {
        k += 1;
        let id = if step.is_some() {
            format!("step-{k}")
        } else {
            "end".into()
        };
        page::slide_start(out, &id, "frame");
        match step {
            Some(step) => {
                page::heading(
                    out,
                    2,
                    &format!("{id}-title"),
                    &format!("Step {k} of {total}: {}", step.name),
                );
                page::paragraph(out, &format!("{}.", step.text));
                chain(out, step);
            }
            None => {
                page::heading(out, 2, "end-title", "The end");
                page::paragraph(out, &format!("{}.", story.ending_text()));
            }
        }
        out.push_str("<p class=\"nav\">");
        if k > 1 {
            let _ = write!(out, "<a href=\"#step-{}\">previous</a>", k - 1);
        }
        if step.is_some() {
            let next = if k < total {
                format!("#step-{}", k + 1)
            } else {
                "#end".into()
            };
            let _ = write!(out, "<a href=\"{next}\">next</a>");
        }
        out.push_str("<a href=\"#story\">the list of steps</a></p>");
        page::slide_figure(out, &frame_svg(&story.puzzle, before, step), "");
        if let Some(step) = step {
            chain_frames(out, &story.puzzle, before, step, k);
        }
    });
}

/// The sub-frames of probe step `k` for lecture mode: one per step of its chain, each drawn on
/// the candidates the supposition and the chain's earlier steps leave (the trial's cell down to
/// the value tried), so that a class steps through the refutation on the grid.
fn chain_frames(out: &mut String, puzzle: &Grid, before: &Domains, step: &Deduction, k: usize) {
    let chain = step.chain();
    let mut d = before.clone();
    for (j, sub) in chain.iter().enumerate() {
        let id = format!("step-{k}-{}", j + 1);
        page::slide_start(out, &id, "frame lecture-only");
        let title = format!("Step {k}, {} of {}: {}", j + 1, chain.len(), sub.name);
        page::heading(out, 2, &format!("{id}-title"), &title);
        page::paragraph(out, &format!("{}.", sub.text));
        page::slide_figure(out, &frame_svg(puzzle, &d, Some(sub)), "");
        for &(cell, v) in &sub.removed {
            d.remove(cell, v);
        }
        for &(cell, v) in &sub.placed {
            let others: Vec<usize> = d.values(cell).filter(|&w| w != v).collect();
            for w in others {
                d.remove(cell, w);
            }
        }
    }
}

/// A probe's chain as a numbered list.
fn chain(out: &mut String, step: &Deduction) {
    let steps = step.chain();
    if steps.is_empty() {
        return;
    }
    out.push_str("<ol class=\"chain\">");
    for s in steps {
        let _ = write!(out, "<li>{}.</li>", escape_xml(&s.text));
    }
    out.push_str("</ol>");
}

/// "12. hidden single (3,5) = 7" for the list of steps.
fn short(step: &Deduction, shape: crate::shape::Shape) -> String {
    let name = crate::propagate::explain::cell_name;
    let n = shape.order();
    match (step.kind, step.placed.first()) {
        (StepKind::Givens, _) => format!("givens: {} placed", step.placed.len()),
        (_, Some(&(cell, v))) => format!("{}: {} = {}", step.name, name(shape, cell), symbol(n, v)),
        _ => format!(
            "{} (−{} candidate{})",
            step.name,
            step.removed.len(),
            if step.removed.len() == 1 { "" } else { "s" }
        ),
    }
}

fn legend(out: &mut String) {
    out.push_str(
        "<p class=\"legend\"><span><b>5</b> given</span>\
         <span><b style=\"color:#1f4fb4\">5</b> down to one candidate</span>\
         <span><span class=\"swatch\" style=\"background:#e3edfb\"></span>the step's units</span>\
         <span><span class=\"swatch\" style=\"background:#ffe27a\"></span>its reason</span>\
         <span><b style=\"color:#c21818\">5</b> removed by the step</span>\
         <span><span class=\"swatch\" style=\"border:2px solid #1d8a2e\"></span>placed by the \
         step</span></p>\n",
    );
}

/// The drawing of one frame: candidates of `d`, highlighted for `step`.
fn frame_svg(puzzle: &Grid, d: &Domains, step: Option<&Deduction>) -> String {
    let shape = puzzle.shape();
    let n = shape.order();
    let k = (1..=n).find(|k| k * k >= n).unwrap_or(1);
    // User units: the picture is fluid, the page sizes it.
    let cell = 48.0;
    let (label, coordinate_font) = fluid_coordinates(n, cell);
    let margin = 4.0;
    let side = cell * n as f64;
    let (width, height) = (side + 2.0 * margin + label, side + 2.0 * margin + label);
    let mut unit_cell = vec![false; shape.cells()];
    let mut reason = vec![false; shape.cells()];
    let mut struck = vec![false; shape.cells() * n];
    if let Some(step) = step {
        for &u in &step.units {
            for c in shape.unit_cells(shape.unit(u)) {
                unit_cell[c] = true;
            }
        }
        for &c in &step.cells {
            reason[c] = true;
        }
        for &(c, v) in &step.removed {
            struck[c * n + v] = true;
        }
    }
    let mut out = String::with_capacity(shape.cells() * 200);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
         class=\"grid-picture\"><title>candidates{}</title>",
        step.map_or(String::new(), |s| format!(": {}", escape_xml(&s.name)))
    );
    let (x0, y0) = (margin + label, margin + label);
    for i in 0..n {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{:.0}\" class=\"coord\">{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"{:.0}\" class=\"coord\">{}</text>",
            x0 + (i as f64 + 0.5) * cell,
            margin + label / 2.0,
            coordinate_font,
            i + 1,
            margin + label / 2.0,
            y0 + (i as f64 + 0.5) * cell,
            coordinate_font,
            i + 1
        );
    }
    let small = cell / k as f64;
    for c in 0..shape.cells() {
        let (x, y) = (
            x0 + shape.col_of(c) as f64 * cell,
            y0 + shape.row_of(c) as f64 * cell,
        );
        let class = if reason[c] {
            "cell r"
        } else if unit_cell[c] {
            "cell u"
        } else {
            "cell"
        };
        let _ = write!(
            out,
            "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\"/>"
        );
        let count = d.count(c);
        if count == 1 && !struck[c * n..(c + 1) * n].contains(&true) {
            let v = d.min(c).unwrap_or(0);
            let class = if puzzle.get(c).is_some() { "g" } else { "f" };
            let text = symbol(n, v);
            let _ = write!(
                out,
                "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{:.0}\">{text}</text>",
                x + cell / 2.0,
                y + cell / 2.0,
                cell * 0.6 / (text.len() as f64).sqrt(),
            );
            continue;
        }
        for v in d.values(c) {
            let (cx, cy) = (
                x + ((v % k) as f64 + 0.5) * small,
                y + ((v / k) as f64 + 0.5) * small,
            );
            let text = symbol(n, v);
            let font = small * 0.8 / (text.len() as f64).sqrt();
            let class = if struck[c * n + v] { "x" } else { "c" };
            let _ = write!(
                out,
                "<text class=\"{class}\" x=\"{cx:.1}\" y=\"{cy:.1}\" font-size=\"{font:.1}\">{text}</text>",
            );
            if struck[c * n + v] {
                let h = small * 0.38;
                let _ = write!(
                    out,
                    "<line class=\"strike\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                    cx - h,
                    cy + h,
                    cx + h,
                    cy - h
                );
            }
        }
    }
    // Box borders, the frame, and the cells the step leaves with one candidate.
    box_borders(&mut out, shape, (x0, y0), cell, shape.order(), 2.5);
    let _ = write!(
        out,
        "<rect class=\"grid-frame\" x=\"{x0}\" y=\"{y0}\" width=\"{side}\" height=\"{side}\" fill=\"none\" stroke=\"#000\" stroke-width=\"3\"/>"
    );
    if let Some(step) = step {
        for &(c, _) in &step.placed {
            let _ = write!(
                out,
                "<rect class=\"placed\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                x0 + shape.col_of(c) as f64 * cell + 2.0,
                y0 + shape.row_of(c) as f64 * cell + 2.0,
                cell - 4.0,
                cell - 4.0
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
