//! The frame every HTML page of sudokit shares: a self-contained document (inline CSS and SVG, no
//! script, no network) with a screen and a print stylesheet.
//!
//! The screen style keeps text to a readable measure and lets wide drawings scroll inside their
//! own box; the print style drops navigation, prints links' targets nowhere, starts each square
//! or frame on a fresh page when it would be cut, and keeps the colours of the drawings.
//!
//! # Complexity
//! Constant work besides copying the given text.

use std::fmt::Write as _;

use crate::render::svg::escape_xml;

/// The CSS shared by every page.
const BASE_CSS: &str = "\
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1.5em;\
line-height:1.45;color:#111}\
h1{font-size:1.7em;margin-bottom:.3em}h2{margin-top:1.6em}h3{margin-top:1.2em}\
p,li{max-width:52em}\
nav.toc{background:#f4f4f4;padding:.5em 1em;border-radius:6px}nav.toc a{margin-right:1em}\
table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f0f0f0}.num{text-align:right;font-variant-numeric:tabular-nums}\
.ok{color:#176117;font-weight:600}.no{color:#8a1c1c;font-weight:600}.unk{color:#8a6d00}\
figure{display:inline-block;vertical-align:top;margin:0 1.5em 1.5em 0}\
figcaption{font-size:.9em;color:#333;max-width:36em}\
.scroll{max-width:100%;overflow:auto}\
.zoom{resize:both;overflow:auto;border:1px solid #ccc;width:640px;height:640px;max-width:100%}\
.zoom svg{width:100%;height:100%}\
code,pre{font-family:ui-monospace,monospace;font-size:.92em}\
pre{background:#f6f6f6;padding:.5em .8em;overflow:auto}\
.legend span{display:inline-block;margin-right:1.2em}\
.swatch{display:inline-block;width:1em;height:1em;border:1px solid #888;vertical-align:-.15em;\
margin-right:.3em}\
a.anchor{color:inherit;text-decoration:none}a.anchor:hover::after{content:' #';color:#888}\
@media print{body{max-width:none;margin:0;font-size:11pt}nav,.nav{display:none}\
section{break-inside:avoid-page}h2,h3{break-after:avoid}.zoom{resize:none;width:16cm;height:16cm}\
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";

/// Writes the start of a page: doctype, head (title, the shared CSS and `css`), body, and the
/// `<h1>` heading.
pub fn start(out: &mut String, title: &str, css: &str) {
    let title = escape_xml(title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{BASE_CSS}{css}</style></head><body>\n<h1 id=\"top\">{title}</h1>\n"
    );
}

/// Writes the end of a page.
pub fn end(out: &mut String) {
    out.push_str("</body></html>\n");
}

/// Writes one paragraph of plain text (escaped).
pub fn paragraph(out: &mut String, text: &str) {
    let _ = writeln!(out, "<p>{}</p>", escape_xml(text));
}

/// A heading with an anchor of its own: `<hK id="ID"><a class="anchor" href="#ID">text</a></hK>`.
pub fn heading(out: &mut String, level: u8, id: &str, text: &str) {
    let _ = writeln!(
        out,
        "<h{level} id=\"{id}\"><a class=\"anchor\" href=\"#{id}\">{}</a></h{level}>",
        escape_xml(text)
    );
}
