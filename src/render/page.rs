//! The frame every HTML page of sudokit shares: a self-contained document (inline CSS, SVG and
//! script, no network) that reads as a document, projects as a **lecture**, and prints.
//!
//! A page is a sequence of **slides** (`<section class="slide">`, [`slide_start`]), each a text
//! column and, if it has one, a figure. Three ways to show it:
//! - **document** (the default, and without script): the slides one after the other, figures at
//!   a readable width; `←` and `→` move from slide to slide;
//! - **lecture** (press `L`, or open the page with `#lecture`, or `#lecture/K` at its K-th
//!   slide; `Esc` leaves): one slide at a time, filling the screen — the figure as tall as the
//!   window, on the left, the text on the right in a large font, tables at 18 pixels or more —
//!   and `←`/`→` (also `PageUp`/`PageDown`, space, `Home`, `End`) step through the slides. A
//!   corner shows the slide's place among the slides this mode shows (`5 / 30`), and the
//!   address follows it (`#lecture/5`), so a reload or a copied link opens the same slide.
//!   Slides marked lecture-only (one level of a chain at a time) appear only here, and parts
//!   marked document-only (a table that the lecture shows level by level) only in the document;
//! - **print**: figures at 15 cm, no navigation, and tables kept whole with their captions and
//!   headers (`break-inside: avoid`, a caption or heading never left alone at a page foot, the
//!   header row repeated if a table must break).
//!
//! The figures are fluid SVG (a `viewBox`, no pixel size; [`crate::render::svg::SvgOptions`]):
//! at 1280×720 a grid of order up to 25 fills more than half the width of the screen in lecture
//! mode, with digits above 14 pixels (checked in a real browser by the `report_browser` tests).
//!
//! # Complexity
//! Constant work besides copying the given text.

use std::fmt::Write as _;

use crate::render::svg::escape_xml;

/// The CSS shared by every page: document, lecture and print.
const BASE_CSS: &str = "\
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1.5em;\
line-height:1.45;color:#111}\
h1{font-size:1.7em;margin-bottom:.3em}h2{margin-top:1.6em}h3{margin-top:1.2em}\
p,li{max-width:52em}\
nav.toc{background:#f4f4f4;padding:.5em 1em;border-radius:6px}nav.toc a{margin-right:1em}\
table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f0f0f0}.num{text-align:right;font-variant-numeric:tabular-nums}\
caption{text-align:left;font-weight:600;padding:.3em 0}\
.ok{color:#176117;font-weight:600}.no{color:#8a1c1c;font-weight:600}.unk{color:#8a6d00}\
.slide{margin:0 0 1.5em 0}\
.slide .figure svg{display:block;width:min(100%,44rem);height:auto}\
.slide .figure.small svg{width:min(100%,24rem)}\
.zoom{resize:both;overflow:auto;border:1px solid #ccc;width:640px;height:640px;max-width:100%}\
.zoom svg{width:100%;height:100%}\
code,pre{font-family:ui-monospace,monospace;font-size:.92em}\
pre{background:#f6f6f6;padding:.5em .8em;overflow:auto}\
.legend span{display:inline-block;margin-right:1.2em}\
.swatch{display:inline-block;width:1em;height:1em;border:1px solid #888;vertical-align:-.15em;\
margin-right:.3em}\
a.anchor{color:inherit;text-decoration:none}a.anchor:hover::after{content:' #';color:#888}\
.lecture-hint{background:#eef4fb;padding:.4em .8em;border-radius:6px}\
body:not(.lecture) .lecture-only{display:none}body.lecture .document-only{display:none}\
#slide-counter{display:none}\
body.lecture{margin:0;padding:0;max-width:none;overflow:hidden}\
body.lecture>:not(.slide):not(#slide-counter){display:none}\
body.lecture .slide{display:none}\
body.lecture .slide.current{display:flex;flex-direction:row;align-items:flex-start;gap:2vw;\
height:100vh;box-sizing:border-box;padding:4px 2vw;margin:0;overflow:hidden}\
body.lecture .slide .text{flex:1 1 0;min-width:0;max-height:calc(100vh - 16px);overflow:auto;\
font-size:clamp(15px,1.45vw,28px);padding-top:8px}\
body.lecture .slide .text p,body.lecture .slide .text li{max-width:none}\
body.lecture .slide .text p{margin:.5em 0}\
body.lecture .slide table{font-size:max(18px,.85em)}\
body.lecture .slide td,body.lecture .slide th{font-size:max(18px,1em);padding:.15em .4em;\
line-height:1.3}\
body.lecture .slide .figure{flex:0 0 auto;order:-1}\
body.lecture .zoom{resize:none;overflow:visible;border:0;width:auto;height:auto}\
body.lecture .slide.current:has(.band){flex-direction:column;gap:1vh}\
body.lecture .slide .figure .band svg{width:calc(96vw - 8px);height:auto;max-width:none;\
max-height:55vh}\
body.lecture .slide .figure svg{height:calc(100vh - 8px);width:auto;max-width:66vw}\
body.lecture .slide .figure.wide svg{height:auto;width:min(66vw,calc(100vh - 8px))}\
body.lecture #slide-counter{display:block;position:fixed;right:.8em;bottom:.4em;font-size:15px;\
color:#666}\
@media print{body{max-width:none;margin:0;font-size:11pt}\
nav,.nav,.lecture-hint,.lecture-only,#slide-counter{display:none}\
.slide{break-inside:avoid-page}.slide .figure svg{width:15cm;height:auto}\
h1,h2,h3,caption{break-after:avoid}\
table,figure,pre{break-inside:avoid}thead{display:table-header-group}tr{break-inside:avoid}\
.zoom{resize:none;width:16cm;height:16cm}\
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";

/// The stepper: `L` toggles lecture mode (or `#lecture` in the address), `←`/`→` step; see the
/// module docs. Inline, no network.
const STEPPER: &str = r#"<script>
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('section.slide'));
  if (!slides.length) { return; }
  var body = document.body, current = 0;
  var counter = document.createElement('div');
  counter.id = 'slide-counter';
  body.appendChild(counter);
  var hint = document.querySelector('.lecture-hint');
  if (hint) { hint.hidden = false; }
  function lecturing() { return body.classList.contains('lecture'); }
  function usable(s) {
    return !s.classList.contains(lecturing() ? 'document-only' : 'lecture-only');
  }
  // The slides this mode shows, in order: the counter counts these only.
  function reachable() { return slides.filter(usable); }
  function go(i, scroll) {
    i = Math.max(0, Math.min(slides.length - 1, i));
    slides.forEach(function (s, k) { s.classList.toggle('current', k === i); });
    current = i;
    body.setAttribute('data-slide', String(i + 1));
    var shown = reachable(), at = shown.indexOf(slides[i]) + 1;
    counter.textContent = at + ' / ' + shown.length;
    // A reload (or a link copied from the address bar) opens the same slide.
    if (lecturing() && at > 0 && history.replaceState) {
      history.replaceState(null, '', '#lecture/' + at);
    }
    if (scroll && !lecturing()) { slides[i].scrollIntoView({block: 'start'}); }
  }
  function step(d) {
    var i = current + d;
    while (i >= 0 && i < slides.length && !usable(slides[i])) { i += d; }
    if (i >= 0 && i < slides.length) { go(i, true); }
  }
  function lecture(on) {
    body.classList.toggle('lecture', on);
    if (!on && history.replaceState && /^#lecture/.test(location.hash)) {
      history.replaceState(null, '', '#' + slides[current].id);
    }
    if (!usable(slides[current])) { step(1); } else { go(current, true); }
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var paging = lecturing();
    switch (e.key) {
      case 'ArrowRight': step(1); break;
      case 'ArrowLeft': step(-1); break;
      case 'PageDown': case ' ': if (!paging) { return; } step(1); break;
      case 'PageUp': if (!paging) { return; } step(-1); break;
      case 'Home': if (!paging) { return; } go(0, true); break;
      case 'End': if (!paging) { return; } go(slides.length - 1, true); break;
      case 'l': case 'L': lecture(!lecturing()); break;
      case 'Escape': if (!paging) { return; } lecture(false); break;
      default: return;
    }
    e.preventDefault();
  });
  function fromHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    // `#lecture` opens lecture mode; `#lecture/K` at its K-th slide (1-based, as the counter).
    var k = /^lecture(?:\/(\d+))?$/.exec(h);
    if (k) {
      body.classList.add('lecture');
      var shown = reachable();
      if (k[1]) {
        go(slides.indexOf(shown[Math.max(1, Math.min(shown.length, +k[1])) - 1]), true);
      } else {
        lecture(true);
      }
      return;
    }
    if (!h) { return; }
    for (var k = 0; k < slides.length; k++) {
      if (slides[k].id === h || slides[k].querySelector('[id="' + h.replace(/"/g, '') + '"]')) {
        go(k, false);
        return;
      }
    }
  }
  window.addEventListener('hashchange', fromHash);
  var button = document.getElementById('lecture-button');
  if (button) { button.addEventListener('click', function () { lecture(true); }); }
  go(0, false);
  fromHash();
})();
</script>"#;

/// Writes the start of a page: doctype, head (title, the shared CSS and `css`), body, the `<h1>`
/// heading and the lecture-mode hint (shown when the script runs).
pub fn start(out: &mut String, title: &str, css: &str) {
    let title = escape_xml(title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{BASE_CSS}{css}</style></head><body>\n\
         <h1 id=\"top\">{title}</h1>\n\
         <p class=\"lecture-hint\" hidden>Lecture mode: press <kbd>L</kbd> (or \
         <button id=\"lecture-button\" type=\"button\">start</button>), then <kbd>←</kbd> and \
         <kbd>→</kbd> to step, <kbd>Esc</kbd> to leave.</p>\n"
    );
}

/// Writes the end of a page: the stepper and the closing tags.
pub fn end(out: &mut String) {
    out.push_str(STEPPER);
    out.push_str("\n</body></html>\n");
}

/// Opens a slide with anchor `id` (extra classes in `class`, e.g. `lecture-only`) and its text
/// column; [`slide_figure`] or [`slide_end`] closes the text.
pub fn slide_start(out: &mut String, id: &str, class: &str) {
    let class = if class.is_empty() {
        "slide".to_string()
    } else {
        format!("slide {class}")
    };
    let _ = write!(
        out,
        "<section class=\"{class}\" id=\"{id}\"><div class=\"text\">"
    );
}

/// Closes the text column of a slide and adds its figure (an SVG, or any HTML), with the figure
/// class `kind` (`""`, `"small"`, or `"wide"` for a picture wider than tall), then closes the
/// slide.
pub fn slide_figure(out: &mut String, figure: &str, kind: &str) {
    let class = if kind.is_empty() {
        "figure".to_string()
    } else {
        format!("figure {kind}")
    };
    let _ = writeln!(out, "</div><div class=\"{class}\">{figure}</div></section>");
}

/// Closes a slide without a figure.
pub fn slide_end(out: &mut String) {
    out.push_str("</div></section>\n");
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
