//! The section "Each formalism, for the running example" of the course page: one open cell of
//! the running example, and on it the clauses of the CNF, the rows of the 0-1 program, one
//! exact-cover option with its items, and the neighbourhood of its vertex in the graph to
//! colour, each read off the instance the library builds.
//!
//! # Complexity
//! Dominated by rebuilding the running example's CNF (O(n⁴) clauses with pairwise AMO).

use std::fmt::Write as _;

use super::{fitted_cell, sudoku_figure};
use crate::encode::cnf::symbolic::constraint_kinds;
use crate::encode::cnf::{CnfOptions, encode};
use crate::encode::exact_cover::{ExactCover, Item};
use crate::encode::graph::precoloured;
use crate::encode::ilp::Ilp;
use crate::encode::{Cnf, Lit};
use crate::grid::Grid;
use crate::reduce::latin::carries_latin;
use crate::render::page;
use crate::render::svg::{Mark, SvgOptions, escape_xml, legend_html, symbol};

/// The cell the formalisms are shown on: the open carrying cell with the most options (at least
/// two, so that the exact cover shows a choice), else any open cell with the most, else the
/// first cell.
fn example_cell(m: usize, sudoku: &Grid) -> (usize, usize) {
    let shape = sudoku.shape();
    let cover = ExactCover::new(sudoku);
    let options = |(r, c): (usize, usize)| {
        (0..shape.order())
            .filter(|&d| cover.is_option(r, c, d))
            .count()
    };
    let open = |(r, c): &(usize, usize)| sudoku.at(*r, *c).is_none();
    let carrying = (0..m).flat_map(|i| (0..m).map(move |q| (i, m * q)));
    let best = |cells: Vec<(usize, usize)>| {
        cells
            .into_iter()
            .filter(open)
            .map(|rc| (options(rc), rc))
            .filter(|(k, _)| *k >= 2)
            .max_by_key(|(k, (r, c))| (*k, usize::MAX - r, usize::MAX - c))
            .map(|(_, rc)| rc)
    };
    let all = (0..shape.order()).flat_map(|r| (0..shape.order()).map(move |c| (r, c)));
    best(carrying.collect())
        .or_else(|| best(all.collect()))
        .or_else(|| {
            (0..m)
                .flat_map(|i| (0..m).map(move |q| (i, m * q)))
                .find(|rc| open(rc))
        })
        .unwrap_or((0, 0))
}

/// The section "Each formalism, for the running example".
pub fn formalisms_section(
    out: &mut String,
    m: usize,
    sudoku: &Grid,
    solution: Option<&Grid>,
    cnf: CnfOptions,
) {
    let shape = sudoku.shape();
    let n = shape.order();
    let (r, c) = example_cell(m, sudoku);
    let cover = ExactCover::new(sudoku);
    let digit = solution
        .and_then(|s| s.at(r, c))
        .or_else(|| (0..n).find(|&d| cover.is_option(r, c, d)))
        .unwrap_or(0);
    page::slide_start(out, "formalisms", "");
    page::heading(
        out,
        2,
        "formalisms-title",
        "Each formalism, for the running example",
    );
    let _ = write!(
        out,
        "<p>The Sudoku S becomes a formula, a 0-1 program, an exact-cover problem and a graph to \
         colour. Each is shown on the cell ({}, {}), which the square leaves open{}. The \
         variable x(r, c, d) means “cell (r, c) holds digit d”.</p>",
        r + 1,
        c + 1,
        if carries_latin(m, r, c) {
            " (a carrying cell)"
        } else {
            ""
        }
    );
    if n <= 36 {
        cnf_picture(out, sudoku, cnf, (r, c));
    }
    page::slide_end(out);
    if n <= 36 {
        constraints_slide(out, sudoku, cnf);
    }
    page::slide_start(out, "formalism-ilp-slide", "");
    ilp_picture(out, sudoku, (r, c));
    page::slide_end(out);
    cover_picture(out, sudoku, (r, c, digit));
    graph_picture(out, sudoku, (r, c));
}

fn x_name(r: usize, c: usize, v: usize) -> String {
    format!("x({},{},{})", r + 1, c + 1, v + 1)
}

/// Up to `max` terms joined by `sep`, then "…".
fn joined(terms: Vec<String>, sep: &str, max: usize) -> String {
    let k = terms.len();
    let mut shown = terms.into_iter().take(max).collect::<Vec<_>>().join(sep);
    if k > max {
        shown.push_str(sep);
        shown.push('…');
    }
    shown
}

fn cnf_picture(out: &mut String, sudoku: &Grid, options: CnfOptions, (r, c): (usize, usize)) {
    let shape = sudoku.shape();
    let n = shape.order();
    let mut cnf = Cnf::new();
    let encoded = encode(sudoku, options, &mut cnf);
    let mut of_var = vec![None; cnf.vars()];
    for (rr, cc, v) in (0..n).flat_map(|a| (0..n).flat_map(move |b| (0..n).map(move |v| (a, b, v))))
    {
        if let Some(var) = encoded.map.var(rr, cc, v) {
            of_var[var.index()] = Some((rr, cc, v));
        }
    }
    let lit_text = |l: Lit| match of_var.get(l.var().index()).copied().flatten() {
        Some((a, b, v)) if l.is_negative() => format!("¬{}", x_name(a, b, v)),
        Some((a, b, v)) => x_name(a, b, v),
        None => format!("y{}", l.var().index() + 1),
    };
    let own: Vec<&[Lit]> = cnf
        .clauses()
        .filter(|clause| {
            clause.iter().all(|l| {
                matches!(of_var.get(l.var().index()).copied().flatten(), Some((a, b, _)) if (a, b) == (r, c))
            })
        })
        .collect();
    let at_least = own.iter().find(|cl| cl.iter().all(|l| !l.is_negative()));
    let at_most: Vec<&&[Lit]> = own
        .iter()
        .filter(|cl| cl.iter().all(|l| l.is_negative()))
        .collect();
    let given = cnf
        .clauses()
        .find(|cl| cl.len() == 1 && !cl[0].is_negative());
    let _ = write!(
        out,
        "<h3 id=\"formalism-cnf\">CNF ({}, {} AMO): {} variables, {} clauses</h3><ul>",
        options.encoding,
        options.amo,
        cnf.vars(),
        cnf.len()
    );
    if let Some(clause) = at_least {
        let _ = write!(
            out,
            "<li>Cell ({}, {}) holds a digit: <code>{}</code></li>",
            r + 1,
            c + 1,
            escape_xml(&joined(
                clause.iter().map(|&l| lit_text(l)).collect(),
                " ∨ ",
                9
            ))
        );
    }
    if !at_most.is_empty() {
        let shown: Vec<String> = at_most
            .iter()
            .take(3)
            .map(|cl| {
                let text = cl.iter().map(|&l| lit_text(l)).collect::<Vec<_>>();
                format!("<code>{}</code>", escape_xml(&text.join(" ∨ ")))
            })
            .collect();
        let _ = write!(
            out,
            "<li>At most one digit, one clause per pair: {}{}</li>",
            shown.join(", "),
            if at_most.len() > 3 {
                format!(" … ({} clauses in all)", at_most.len())
            } else {
                String::new()
            }
        );
    }
    if let Some(clause) = given {
        let _ = write!(
            out,
            "<li>A given is a unit clause: <code>{}</code>; in the DIMACS file, <code>{} 0</code></li>",
            escape_xml(&lit_text(clause[0])),
            clause[0].to_dimacs()
        );
    }
    out.push_str("</ul>");
}

/// The CNF constraint by constraint: each kind of constraint the encoder writes, how many
/// constraints and clauses of it, and the first one written out with x(r, c, d) (the clauses
/// `export --to cnf --symbolic` lists).
fn constraints_slide(out: &mut String, sudoku: &Grid, options: CnfOptions) {
    page::slide_start(out, "formalism-cnf-constraints", "");
    page::heading(
        out,
        3,
        "formalism-cnf-constraints-title",
        "The CNF, constraint by constraint",
    );
    let _ = write!(
        out,
        "<p>Every clause of the formula ({} encoding, {} AMO) belongs to a constraint; each \
         kind with its first constraint written out (∨ is or, ¬ is not). <code>sudokit export \
         --to cnf --symbolic</code> lists every clause this way.</p><table \
         class=\"constraints\"><thead><tr><th>the first constraint of its kind</th><th \
         class=\"num\">constraints</th><th class=\"num\">clauses</th><th>its clauses</th></tr>\
         </thead><tbody>",
        options.encoding, options.amo
    );
    for kind in constraint_kinds(sudoku, options) {
        let clauses = kind.first_clauses.iter().take(2).map(|clause| {
            let terms = clause.split(" ∨ ").map(str::to_string).collect();
            format!("<code>{}</code>", escape_xml(&joined(terms, " ∨ ", 9)))
        });
        let more = kind.first_clauses.len().saturating_sub(2);
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}{}</td></tr>",
            escape_xml(&kind.first),
            kind.constraints,
            kind.clauses,
            clauses.collect::<Vec<_>>().join("<br>"),
            if more > 0 {
                format!("<br>… and {more} more")
            } else {
                String::new()
            }
        );
    }
    out.push_str("</tbody></table>");
    page::slide_end(out);
}

fn ilp_picture(out: &mut String, sudoku: &Grid, (r, c): (usize, usize)) {
    let ilp = Ilp::new(sudoku);
    let rows: Vec<_> = ilp.rows().collect();
    let text = |name: &str| {
        rows.iter().find(|row| row.name() == name).map(|row| {
            let terms = row
                .vars
                .iter()
                .map(|&(a, b, v)| format!("x_{}_{}_{}", a + 1, b + 1, v + 1))
                .collect();
            format!("{name}: {} = 1", joined(terms, " + ", 9))
        })
    };
    let _ = write!(
        out,
        "<h3 id=\"formalism-ilp\">0-1 integer program: {} variables, {} equality rows</h3><ul>",
        ilp.var_count(),
        ilp.row_count()
    );
    if let Some(row) = text(&format!("cell_{}_{}", r + 1, c + 1)) {
        let _ = write!(
            out,
            "<li>Cell ({}, {}) takes exactly one digit: <code>{}</code></li>",
            r + 1,
            c + 1,
            escape_xml(&row)
        );
    }
    if let Some(row) = text(&format!("row_{}_1", r + 1)) {
        let _ = write!(
            out,
            "<li>Row {} holds the digit 1 exactly once: <code>{}</code></li>",
            r + 1,
            escape_xml(&row)
        );
    }
    if let Some(row) = rows.iter().find(|row| row.name().starts_with("given_")) {
        let (a, b, v) = row.vars[0];
        let _ = write!(
            out,
            "<li>A given fixes its variable: <code>{}: x_{}_{}_{} = 1</code></li>",
            row.name(),
            a + 1,
            b + 1,
            v + 1
        );
    }
    out.push_str("</ul>");
}

fn cover_picture(out: &mut String, sudoku: &Grid, (r, c, v): (usize, usize, usize)) {
    let shape = sudoku.shape();
    let cover = ExactCover::new(sudoku);
    let options_of_cell = (0..shape.order())
        .filter(|&d| cover.is_option(r, c, d))
        .count();
    let items = cover.option_items(r, c, v);
    let words: Vec<String> = items
        .iter()
        .map(|item| match *item {
            Item::Cell { r, c } => format!("cell ({},{}) is filled", r + 1, c + 1),
            Item::RowValue { r, v } => format!("row {} holds {}", r + 1, symbol(shape.order(), v)),
            Item::ColValue { c, v } => {
                format!("column {} holds {}", c + 1, symbol(shape.order(), v))
            }
            Item::BoxValue { b, v } => format!(
                "{} {} holds {}",
                shape.box_kind().name(),
                b + 1,
                symbol(shape.order(), v)
            ),
            Item::ExtraValue { k, v } => format!(
                "{} holds {}",
                shape.unit(3 * shape.order() + k),
                symbol(shape.order(), v)
            ),
        })
        .collect();
    let n = shape.order();
    page::slide_start(out, "formalism-cover-slide", "");
    let _ = write!(
        out,
        "<h3 id=\"formalism-cover\">Exact cover: {} items, one option per allowed (cell, digit)</h3>\
         <p>Cell ({}, {}) has {}: it may take one of several digits. The option “({}, {}) = {}” \
         covers {} items: <b>{}</b>. A solution picks options that cover every item exactly \
         once.</p>",
        cover.item_count(),
        r + 1,
        c + 1,
        if options_of_cell == 1 {
            "1 option".to_string()
        } else {
            format!("{options_of_cell} options")
        },
        r + 1,
        c + 1,
        symbol(n, v),
        items.len(),
        escape_xml(&words.join("; "))
    );
    let (row, col, boxed) = (
        (0..shape.order())
            .map(|j| shape.cell(r, j))
            .collect::<Vec<_>>(),
        (0..shape.order())
            .map(|i| shape.cell(i, c))
            .collect::<Vec<_>>(),
        {
            let b = shape.box_of(r, c);
            (0..shape.order())
                .map(|i| shape.box_cell(b, i))
                .collect::<Vec<_>>()
        },
    );
    let options = SvgOptions {
        cell: fitted_cell(shape.order()),
        highlight: vec![shape.cell(r, c)],
        highlight_meaning: "the option's cell".into(),
        marks: vec![
            Mark {
                cells: boxed,
                fill: "#e2f0d9".into(),
                meaning: format!("its box must hold {} once", symbol(n, v)),
            },
            Mark {
                cells: col,
                fill: "#dbe7f7".into(),
                meaning: format!("its column must hold {} once", symbol(n, v)),
            },
            Mark {
                cells: row,
                fill: "#f3dede".into(),
                meaning: format!("its row must hold {} once", symbol(n, v)),
            },
        ],
        title: Some("one exact-cover option and its items".into()),
        heat_map: shape.order() > 36,
        fluid: true,
        ..SvgOptions::default()
    };
    out.push_str(&legend_html(&options, false));
    // Lecture mode zooms a large grid onto the band of the option's cell.
    let band = (r / shape.box_rows() + 1) * shape.box_rows();
    page::slide_figure(out, &sudoku_figure(sudoku, None, &options, band), "");
}

fn graph_picture(out: &mut String, sudoku: &Grid, (r, c): (usize, usize)) {
    let shape = sudoku.shape();
    let n = shape.order();
    let graph = precoloured(sudoku);
    let vertex = shape.cell(r, c);
    let neighbours: Vec<usize> = graph
        .graph
        .neighbors(petgraph::graph::NodeIndex::new(vertex))
        .map(|x| x.index())
        .collect();
    page::slide_start(out, "formalism-graph-slide", "");
    let _ = write!(
        out,
        "<h3 id=\"formalism-graph\">Graph precolouring: {} vertices, {} edges, {} colours</h3>\
         <p>One vertex per cell, an edge between two cells of a common row, column or box; \
         colour d means digit d. Vertex ({}, {}) has {} neighbours (drawn in the picture, with \
         their precoloured colours): its colour must differ from all of them.</p>",
        graph.graph.node_count(),
        graph.graph.edge_count(),
        graph.colours,
        r + 1,
        c + 1,
        neighbours.len()
    );
    // From order 36 the vertices' labels would be under 14 pixels on a projected slide.
    if n >= 36 {
        page::slide_end(out);
        return;
    }
    // User units: the picture is fluid. Circles nearly touch, so that their labels stay large.
    let step = 40.0;
    let radius = step * 0.45;
    let side = step * n as f64 + 8.0;
    let centre = |cell: usize| {
        (
            4.0 + (shape.col_of(cell) as f64 + 0.5) * step,
            4.0 + (shape.row_of(cell) as f64 + 0.5) * step,
        )
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" role=\"img\" \
         class=\"grid-picture\"><title>the neighbourhood of vertex ({}, {})</title>",
        r + 1,
        c + 1
    );
    let (x0, y0) = centre(vertex);
    let middle = side / 2.0;
    for &w in &neighbours {
        // An arc bowed towards the middle of the grid, so that edges along a row or a column
        // do not lie on top of each other.
        let (x, y) = centre(w);
        let (mx, my) = ((x0 + x) / 2.0, (y0 + y) / 2.0);
        let (dx, dy) = (x - x0, y - y0);
        let (mut px, mut py) = (-dy * 0.25, dx * 0.25);
        if (mx + px - middle).abs() + (my + py - middle).abs()
            > (mx - px - middle).abs() + (my - py - middle).abs()
        {
            (px, py) = (-px, -py);
        }
        let _ = write!(
            svg,
            "<path d=\"M{x0:.1},{y0:.1} Q{:.1},{:.1} {x:.1},{y:.1}\" fill=\"none\" \
             stroke=\"#7a9cc6\" stroke-width=\"1.2\"/>",
            mx + px,
            my + py
        );
    }
    for cell in 0..shape.cells() {
        let (x, y) = centre(cell);
        let (fill, label) = if cell == vertex {
            ("#e8a33d", "?".to_string())
        } else if neighbours.contains(&cell) {
            (
                "#cfe0f7",
                sudoku.get(cell).map_or(String::new(), |v| symbol(n, v)),
            )
        } else {
            ("#f2f2f2", String::new())
        };
        let _ = write!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{radius:.1}\" fill=\"{fill}\" stroke=\"#888\"/>"
        );
        if !label.is_empty() {
            let _ = write!(
                svg,
                "<text class=\"digit\" x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{:.1}\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\" \
                 font-family=\"sans-serif\">{label}</text>",
                radius * 1.2
            );
        }
    }
    svg.push_str("</svg>");
    let _ = write!(
        out,
        "<p>Orange: vertex ({}, {}); blue: its {} neighbours, with their precolours; grey: the \
         other vertices.</p>",
        r + 1,
        c + 1,
        neighbours.len()
    );
    page::slide_figure(out, &svg, "");
}
