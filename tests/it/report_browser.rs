//! The course page of `reduce latin --solve --report` and the page of `explain --html` in a real
//! headless browser (Debian's `chromium`), at 1280 pixels wide, and in lecture mode at 1280×720.
//! Ignored by plain `cargo test`; `.ci/run` installs chromium and runs
//! `cargo test --test it -- --ignored report_browser`.
//!
//! How the page is checked, for each report:
//! 1. **Screenshot**: `chromium --headless --screenshot=page.png --window-size=W,H` must exit 0
//!    and write a PNG whose header says W×H (the page loaded and was painted).
//! 2. **Console**: the same run has `--enable-logging=stderr --v=0`, which makes chromium print
//!    every console message of the page as a `:CONSOLE` log line on standard error (a script
//!    error, a blocked resource, ...). The pages have one inline script (the lecture stepper), no
//!    external resource and only in-page links, so any such line fails the test. (chromium's own `ERROR:dbus` lines about the missing system bus
//!    are not console messages and are ignored.)
//! 3. **DOM after load**: `--dump-dom` prints the DOM once the page has loaded; it must hold every
//!    `<rect class="cell…">` and every `<svg>` of the page, and what the test expects there
//!    (every level's verdict, `data-level="cnf" data-verdict="no"`, the frames of `explain`).
//! 4. **Layout**: a copy of the page with a probe script appended counts the SVG cells the
//!    browser actually laid out (`getBoundingClientRect()` wider and taller than 0, which only
//!    happens when the inline SVG was parsed as SVG) and writes the count into the DOM, read back
//!    with `--dump-dom`.
//!
//! 5. **Lecture mode** ([`lecture_measures`]): a probe script presses `L` and then `→` through
//!    every slide at a window of 1280×720, and measures on the rendered page, slide by slide,
//!    each visible figure (`getBoundingClientRect` of the grid's frame) and each digit, symbol and
//!    coordinate in it (its computed font size times the SVG's scale on screen,
//!    `getScreenCTM`): every grid must be at least half the window wide and every digit at least
//!    14 pixels, on the 9×9, 16×16 and 25×25 course pages and on the frames of `explain`; the
//!    words of each slide must fit beside its picture (no scrolling, but for `explain`'s list of
//!    steps); and each `→` must change the slide.
//!
//! Every run gets a fresh `--user-data-dir` and the flags that keep chromium off the network
//! (`--disable-background-networking --disable-component-update --disable-sync
//! --disable-quic --no-first-run`); `--no-sandbox` because CI runs as root. Set
//! `SUDOKIT_CHROMIUM` to use another binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{run, s, stderr, stdout, temp_file};

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 2000;

fn chromium() -> String {
    std::env::var("SUDOKIT_CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// Runs chromium headless on `page` with `extra` arguments, killing it after 120 s.
fn headless(page: &Path, extra: &[String]) -> Output {
    let profile = temp_file("placeholder", b"")
        .parent()
        .unwrap()
        .join(format!(
            "chromium-profile-{}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
    std::fs::create_dir_all(&profile).unwrap();
    let mut command = Command::new(chromium());
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap_or_else(|e| {
        panic!(
            "cannot start {} ({e}): install Debian's chromium (apt-get install -y chromium) or set SUDOKIT_CHROMIUM",
            chromium()
        )
    });
    // Read the pipes on threads so that a large DOM cannot block the child.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut out_pipe, &mut buf).unwrap();
        buf
    });
    let err_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut err_pipe, &mut buf).unwrap();
        buf
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = Output {
        status,
        stdout: out_thread.join().unwrap(),
        stderr: err_thread.join().unwrap(),
    };
    let _ = std::fs::remove_dir_all(&profile);
    output
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(
        png.len() > 24 && png.starts_with(b"\x89PNG\r\n\x1a\n") && &png[12..16] == b"IHDR",
        "not a PNG"
    );
    let word = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (word(16), word(20))
}

const PROBE: &str = r#"<script>
const all = [...document.querySelectorAll('svg rect.cell')];
const cells = all.filter(r => !r.closest('.lecture-only'));
const laidOut = cells.filter(r => { const b = r.getBoundingClientRect(); return b.width > 0 && b.height > 0; }).length;
const svgNs = [...document.querySelectorAll('svg')].every(s => s.namespaceURI === 'http://www.w3.org/2000/svg');
const p = document.createElement('pre');
p.id = 'probe';
p.textContent = 'laid-out-cells=' + laidOut + ' lecture-only-cells=' + (all.length - cells.length) + ' svg-namespace=' + svgNs;
document.body.appendChild(p);
</script>"#;

/// The cells drawn in the page's lecture-only slides.
fn lecture_only_cells(html: &str) -> usize {
    html.split("<section class=\"slide lecture-only\"")
        .skip(1)
        .map(|rest| cell_count(rest.split("</section>").next().unwrap_or("")))
        .sum()
}

/// The number of `<rect class="cell…">` in a page: one per grid cell of every drawing.
fn cell_count(html: &str) -> usize {
    html.matches("<rect class=\"cell").count()
}

/// Checks one page in the browser; see the module docs. `expected` are pieces of the DOM after
/// load (e.g. every level's verdict). Returns the screenshot's path.
fn check_in_browser(report: &Path, expected: &[String]) -> PathBuf {
    let html = std::fs::read_to_string(report).unwrap();
    assert!(
        !html.contains(" src=")
            && !html.replace(" href=\"#", "").contains(" href=")
            && html.matches("<script").count() == html.matches("<script>").count(),
        "the page must be self-contained (in-page links only, inline script only)"
    );
    let cells = cell_count(&html);
    let svgs = html.matches("<svg").count();
    assert!(cells > 0 && svgs > 0);

    let png = report.with_extension("png");
    let _ = std::fs::remove_file(&png);
    let shot = headless(
        report,
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={WIDTH},{HEIGHT}"),
            "--enable-logging=stderr".into(),
            "--v=0".into(),
        ],
    );
    assert!(shot.status.success(), "chromium failed: {}", stderr(&shot));
    let console: Vec<String> = stderr(&shot)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
    let image = std::fs::read(&png).expect("chromium wrote the screenshot");
    assert_eq!(png_size(&image), (WIDTH, HEIGHT));

    let dom = headless(report, &["--dump-dom".into()]);
    assert!(dom.status.success(), "chromium failed: {}", stderr(&dom));
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert_eq!(cell_count(&dom), cells, "cells in the DOM");
    assert_eq!(dom.matches("<svg").count(), svgs, "drawings in the DOM");
    for piece in expected {
        assert!(dom.contains(piece.as_str()), "{piece} is not in the DOM");
    }

    let probe_page = report.with_extension("probe.html");
    std::fs::write(
        &probe_page,
        html.replace("</body>", &format!("{PROBE}</body>")),
    )
    .unwrap();
    let probed = headless(
        &probe_page,
        &[
            "--dump-dom".into(),
            format!("--window-size={WIDTH},{HEIGHT}"),
        ],
    );
    let probed = String::from_utf8_lossy(&probed.stdout).into_owned();
    // The slides of one level at a time show in lecture mode only: the rest is laid out.
    let lecture_only = lecture_only_cells(&html);
    assert!(
        probed.contains(&format!(
            "<pre id=\"probe\">laid-out-cells={} lecture-only-cells={lecture_only} svg-namespace=true</pre>",
            cells - lecture_only
        )),
        "probe: {}",
        probed
            .lines()
            .find(|l| l.contains("probe"))
            .unwrap_or("no probe output")
    );
    png
}

/// The lecture-mode probe: `L`, then `→` through every slide, measuring each slide's figures and
/// digits on the rendered page; the result goes into `<pre id="lecture">`.
const LECTURE_PROBE: &str = r#"<script>
function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
// The slides of a lecture: all but the document's own (a table the lecture shows level by level).
const slides = document.querySelectorAll('section.slide:not(.document-only)').length;
key('l');
let visited = 0, grids = 0, digits = 0, minGrid = 1e9, minDigit = 1e9, unchanged = 0, worst = '';
let tables = 0, minTable = 1e9;
const clipped = [];
const overflowing = [];
for (let i = 0; i < slides; i++) {
  const slide = document.querySelector('section.slide.current');
  visited++;
  const text = slide.querySelector('.text');
  if (text && text.scrollHeight > text.clientHeight + 1 && overflowing.indexOf(slide.id) < 0) {
    overflowing.push(slide.id);
  }
  for (const svg of slide.querySelectorAll('svg.grid-picture')) {
    if (!svg.getClientRects().length) { continue; }  // the document's own picture
    const frame = svg.querySelector('.grid-frame') || svg;
    const box = frame.getBoundingClientRect();
    // Clipped: past the window, or past a box that holds the picture (a heat map's).
    const holder = svg.parentElement.getBoundingClientRect();
    if (box.right > innerWidth + 1 || box.bottom > innerHeight + 1 ||
        box.right > holder.right + 1 || box.bottom > holder.bottom + 1) {
      clipped.push(slide.id);
    }
    grids++;
    if (box.width < minGrid) { minGrid = box.width; worst = slide.id + ' grid ' + box.width; }
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) { continue; }
      const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      digits++;
      if (px < minDigit) { minDigit = px; if (px < 14) { worst = slide.id + ' text ' + t.textContent + ' ' + px; } }
    }
  }
  for (const cell of slide.querySelectorAll('table td, table th')) {
    if (!cell.getClientRects().length) { continue; }
    const px = parseFloat(getComputedStyle(cell).fontSize);
    tables++;
    if (px < minTable) { minTable = px; if (px < 18) { worst = slide.id + ' table ' + px; } }
  }
  const before = document.body.getAttribute('data-slide');
  key('ArrowRight');
  if (i < slides - 1 && document.body.getAttribute('data-slide') === before) { unchanged++; }
}
const p = document.createElement('pre');
p.id = 'lecture';
p.textContent = 'slides=' + slides + ' visited=' + visited + ' grids=' + grids + ' digits=' + digits +
  ' min-grid=' + Math.round(minGrid) + ' min-digit=' + minDigit.toFixed(1) + ' unchanged=' + unchanged +
  ' lecture=' + document.body.classList.contains('lecture') + ' viewport=' + innerWidth + 'x' + innerHeight +
  ' overflowing=' + (overflowing.join(',') || 'none') +
  ' clipped=' + (clipped.join(',') || 'none') +
  ' table-cells=' + tables + ' min-table=' + (tables ? minTable.toFixed(1) : 'none') +
  ' counter=' + document.getElementById('slide-counter').textContent.replace(/ /g, '') +
  ' hash=' + location.hash +
  ' worst=' + worst.replace(/ /g, '_');
document.body.appendChild(p);
</script>"#;

/// The `--window-size` that gives a page a viewport of 1280×720 with `--dump-dom`: headless
/// chromium keeps room for a window's toolbars there, so the window is made taller by what the
/// viewport lacks (measured once, then checked by the probe).
fn lecture_window() -> String {
    static WINDOW: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    WINDOW
        .get_or_init(|| {
            let page = temp_file(
                "viewport.html",
                b"<html><body><script>document.body.textContent = 'viewport=' + innerWidth + 'x' + innerHeight;</script></body></html>",
            );
            let out = headless(&page, &["--dump-dom".into(), "--window-size=1280,720".into()]);
            let dom = String::from_utf8_lossy(&out.stdout).into_owned();
            let height: u32 = dom
                .split("viewport=1280x")
                .nth(1)
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|h| h.parse().ok())
                .unwrap_or_else(|| panic!("no viewport measure: {dom}"));
            format!("--window-size=1280,{}", 720 + (720 - height.min(720)))
        })
        .clone()
}

/// The measures of [`LECTURE_PROBE`] on `page` with a viewport of 1280×720, by name.
fn lecture_measures(page: &Path) -> std::collections::BTreeMap<String, String> {
    let html = std::fs::read_to_string(page).unwrap();
    let probe_page = page.with_extension("lecture.html");
    std::fs::write(
        &probe_page,
        html.replace("</body>", &format!("{LECTURE_PROBE}</body>")),
    )
    .unwrap();
    let out = headless(&probe_page, &["--dump-dom".into(), lecture_window()]);
    assert!(out.status.success(), "chromium failed: {}", stderr(&out));
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = dom
        .split("<pre id=\"lecture\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("no lecture probe output in {}", page.display()));
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Checks the lecture mode of `page`: every slide visited by `→`, each grid at least 640 pixels
/// wide (half of 1280) and each digit at least 14 pixels, and the words of every slide but
/// `long` (a list of steps, which scrolls) fit beside its picture; returns the measures.
fn check_lecture(
    page: &Path,
    min_grids: usize,
    long: &str,
) -> std::collections::BTreeMap<String, String> {
    check_lecture_digits(page, min_grids, long, 14.0)
}

/// [`check_lecture`] with digits of at least `min_digit` pixels.
fn check_lecture_digits(
    page: &Path,
    min_grids: usize,
    long: &str,
    min_digit: f64,
) -> std::collections::BTreeMap<String, String> {
    let m = lecture_measures(page);
    let over: Vec<&str> = m["overflowing"]
        .split(',')
        .filter(|id| *id != "none" && *id != long)
        .collect();
    assert!(
        over.is_empty(),
        "words that do not fit the screen: {over:?} {m:?}"
    );
    let number = |k: &str| m[k].parse::<f64>().unwrap_or_else(|_| panic!("{k}: {m:?}"));
    assert_eq!(m["lecture"], "true", "{m:?}");
    assert_eq!(m["viewport"], "1280x720", "{m:?}");
    assert_eq!(number("unchanged"), 0.0, "a keypress left the slide: {m:?}");
    assert_eq!(m["clipped"], "none", "a picture cut off: {m:?}");
    assert_eq!(number("visited"), number("slides"), "{m:?}");
    assert!(number("grids") >= min_grids as f64, "{m:?}");
    assert!(
        number("min-grid") >= 640.0,
        "a grid narrower than half the window: {m:?}"
    );
    assert!(
        number("min-digit") >= min_digit,
        "a digit below {min_digit} px: {m:?}"
    );
    if m["min-table"] != "none" {
        assert!(number("min-table") >= 18.0, "a table below 18 px: {m:?}");
    }
    // The counter counts the slides the lecture shows, and the address follows it.
    assert_eq!(m["counter"], format!("{0}/{0}", m["slides"]), "{m:?}");
    assert_eq!(m["hash"], format!("#lecture/{}", m["slides"]), "{m:?}");
    eprintln!("{}: {m:?}", page.display());
    m
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_lecture_mode_is_legible_at_1280x720() {
    // The 9×9 course page: every level.
    let nine = temp_file("lecture-9.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--report",
            s(&nine),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    check_lecture(&nine, 8, "");
    // 16×16: the order-4 square of the lecture examples, every level (several completions).
    let sixteen = temp_file("lecture-16.html", b"");
    let out = run(
        &["reduce", "latin", "-", "--solve", "--report", s(&sixteen)],
        b"1..4.1....1.4...\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&sixteen).unwrap();
    assert!(
        html.contains("4 different completions"),
        "one story per square"
    );
    check_lecture(&sixteen, 8, "");
    check_in_browser(&sixteen, &every_level("yes"));
    // 25×25: the order-5 square with a Latin subsquare (the grid levels; its CNF refutation is
    // the release suites' business).
    let twenty_five = temp_file("lecture-25.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "-",
            "--solve",
            "--levels",
            "latin,sudoku,exact-cover,colouring",
            "--report",
            s(&twenty_five),
        ],
        b"123..231..312............\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&twenty_five).unwrap();
    assert!(
        html.contains("(a Hall violation)"),
        "the minimal conflict's Hall violation"
    );
    assert!(
        html.contains(">P</text>"),
        "symbols above 9 are letters, as in a puzzle line"
    );
    check_lecture(&twenty_five, 6, "");
    // The lecture's own file: two squares, the second with its minimal conflict's chain.
    let lecture = temp_file("lecture-file.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/lecture.txt",
            "--solve",
            "--report",
            s(&lecture),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    check_lecture(&lecture, 8, "");
    // 36×36: an order-6 square; lecture mode zooms onto the band that carries it.
    let thirty_six = temp_file("lecture-36.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "-",
            "--solve",
            "--levels",
            "latin,sudoku",
            "--report",
            s(&thirty_six),
        ],
        b".2345.2345.1345.1245.1235.1234.1234.\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    check_lecture(&thirty_six, 3, "");
    // The frames of explain, one step at a time.
    let frames = temp_file("lecture-explain.html", b"");
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/xwing.txt",
            "--scheme",
            "HACC",
            "--html",
            s(&frames),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let m = check_lecture(&frames, 20, "story");
    let steps = stdout(&out)
        .lines()
        .filter(|l| l.starts_with("step "))
        .count();
    assert_eq!(
        m["slides"],
        (steps + 2).to_string(),
        "an introduction, a frame per step, the end"
    );
}

/// The ids of the slides lecture mode shows, in order (every slide but the document's own).
fn lecture_slide_ids(html: &str) -> Vec<String> {
    html.split("<section class=\"")
        .skip(1)
        .filter(|s| !s.split('"').next().unwrap_or("").contains("document-only"))
        .filter_map(|s| s.split("id=\"").nth(1)?.split('"').next().map(String::from))
        .collect()
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_a_lecture_link_opens_its_slide() {
    let page = temp_file("lecture-link.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--report",
            s(&page),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let ids = lecture_slide_ids(&html);
    assert!(ids.len() > 5, "{ids:?}");
    let probe = "<script>const p = document.createElement('pre'); p.id = 'link'; \
        p.textContent = 'current=' + document.querySelector('section.slide.current').id + \
        ' lecture=' + document.body.classList.contains('lecture') + ' counter=' + \
        document.getElementById('slide-counter').textContent.replace(/ /g, ''); \
        document.body.appendChild(p);</script>";
    let probe_page = page.with_extension("link.html");
    std::fs::write(
        &probe_page,
        html.replace("</body>", &format!("{probe}</body>")),
    )
    .unwrap();
    let dom = |fragment: &str| {
        let at = PathBuf::from(format!("{}#{fragment}", probe_page.display()));
        let out = headless(&at, &["--dump-dom".into(), lecture_window()]);
        assert!(out.status.success(), "chromium failed: {}", stderr(&out));
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        dom.split("<pre id=\"link\">")
            .nth(1)
            .and_then(|rest| rest.split("</pre>").next())
            .unwrap_or_else(|| panic!("no link probe output for #{fragment}"))
            .to_string()
    };
    let n = ids.len();
    assert_eq!(
        dom("lecture/5"),
        format!("current={} lecture=true counter=5/{n}", ids[4])
    );
    // Beyond the last slide: the last one.
    assert_eq!(
        dom("lecture/999"),
        format!("current={} lecture=true counter={n}/{n}", ids[n - 1])
    );
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_lecture_probe_notices_a_small_grid() {
    // The measure is not vacuous: the same page with the figures held to 500 pixels fails it.
    let page = temp_file("lecture-small.html", b"");
    let out = run(&["explain", "12.434.221.34321", "--html", s(&page)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let small = temp_file(
        "lecture-small-broken.html",
        html.replace(
            "</style>",
            "body.lecture .slide .figure svg{height:500px!important;width:500px!important}</style>",
        )
        .as_bytes(),
    );
    let m = lecture_measures(&small);
    assert!(m["min-grid"].parse::<f64>().unwrap() < 640.0, "{m:?}");
    let good = lecture_measures(&page);
    assert!(
        good["min-grid"].parse::<f64>().unwrap() >= 640.0,
        "{good:?}"
    );
}

/// `data-level="L" data-verdict="V"` for every level of the chain.
fn every_level(verdict: &str) -> Vec<String> {
    ["latin", "sudoku", "cnf", "ilp", "exact-cover", "colouring"]
        .iter()
        .map(|level| format!("data-level=\"{level}\" data-verdict=\"{verdict}\""))
        .collect()
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_course_page_every_level_and_an_uncompletable_square() {
    // The course example: six levels solved for the first square, six refuted for the second.
    let report = temp_file("browser-course.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--report",
            s(&report),
        ],
        b"",
    );
    // The second course square has no completion: exit 1, the page still written.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&report).unwrap();
    // A square's slides run from its anchor to the next square's.
    let square = |k: usize| {
        let section = html.split(&format!("id=\"square-{k}\"")).nth(1).unwrap();
        section
            .split(&format!("id=\"square-{}\"", k + 1))
            .next()
            .unwrap()
            .to_string()
    };
    for (k, verdict) in [(1, "yes"), (2, "no")] {
        for piece in every_level(verdict) {
            assert!(square(k).contains(&piece), "square {k}: {piece}");
        }
    }
    let mut expected = every_level("yes");
    expected.extend(every_level("no"));
    expected.push("id=\"reduction\"".into());
    expected.push("id=\"formalisms\"".into());
    let png = check_in_browser(&report, &expected);
    eprintln!("screenshot: {}", png.display());

    // An uncompletable square alone: every level says no, the proof and the conflict are shown.
    let report = temp_file("browser-unsat.html", b"");
    let out = run(
        &["reduce", "latin", "-", "--solve", "--report", s(&report)],
        b"123....42.......\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut expected = every_level("no");
    expected.push("Why there is no completion".into());
    expected.push("the refutation was checked by varisat's proof checker".into());
    expected.push("A minimal conflict".into());
    let png = check_in_browser(&report, &expected);
    eprintln!("screenshot: {}", png.display());

    // A 4×4 quasigroup with holes through the native backend and every level.
    let squares = run(
        &[
            "generate-latin",
            "--order",
            "4",
            "--holes",
            "9",
            "--seed",
            "1",
        ],
        b"",
    );
    let report = temp_file("browser-order4.html", b"");
    let out = run(
        &["reduce", "latin", "-", "--solve", "--report", s(&report)],
        &squares.stdout,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let png = check_in_browser(&report, &every_level("yes"));
    eprintln!("screenshot: {}", png.display());
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_explain_page_frames() {
    let page = temp_file("browser-explain.html", b"");
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/hidden_singles.txt",
            "--scheme",
            "FCI",
            "--html",
            s(&page),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let steps = stdout(&out)
        .lines()
        .filter(|l| l.starts_with("step "))
        .count();
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("<section class=\"slide frame\"").count(),
        steps + 1
    );
    // One 9×9 grid per frame.
    assert_eq!(cell_count(&html), 81 * (steps + 1));
    let expected = vec![
        "id=\"step-1\"".to_string(),
        format!("id=\"step-{steps}\""),
        "id=\"end\"".into(),
        ": hidden single</a></h2>".into(),
    ];
    let png = check_in_browser(&page, &expected);
    eprintln!("screenshot: {}", png.display());
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_notices_a_console_error_and_a_missing_cell() {
    // The checks are not vacuous: a page with a script error fails the console check, and a
    // page whose SVG lost a cell fails the DOM count.
    let good = temp_file("browser-guard.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--levels",
            "sudoku",
            "--report",
            s(&good),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&good).unwrap();
    let broken = temp_file(
        "browser-broken.html",
        html.replace("</body>", "<script>undefinedFunction();</script></body>")
            .as_bytes(),
    );
    let shot = headless(
        &broken,
        &[
            "--enable-logging=stderr".into(),
            "--v=0".into(),
            "--dump-dom".into(),
        ],
    );
    assert!(
        stderr(&shot).lines().any(|l| l.contains(":CONSOLE")),
        "chromium did not log the console error: {}",
        stderr(&shot)
    );
    let missing = temp_file(
        "browser-missing.html",
        html.replacen("<rect class=\"cell", "<rect class=\"gone", 1)
            .as_bytes(),
    );
    let dom = headless(&missing, &["--dump-dom".into()]);
    assert_eq!(
        cell_count(&String::from_utf8_lossy(&dom.stdout)),
        cell_count(&html) - 1
    );
}

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_svg_figures_open_on_their_own() {
    let dir = temp_file("svg-figures", b"").with_extension("d");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--solve",
            "--svg-dir",
            s(&dir),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let frames = temp_file("svg-frames", b"").with_extension("d");
    let out = run(
        &[
            "explain",
            "models/sudoku/9x9/xwing.txt",
            "--scheme",
            "HACC",
            "--svg-dir",
            s(&frames),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .chain(std::fs::read_dir(&frames).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    assert!(frames.join("step-1.svg").exists() && frames.join("end.svg").exists());
    // Every file is a well-formed SVG document; some of them, alone, are drawn by chromium
    // (exit 0, a screenshot of its own size, no error logged).
    for svg in &files {
        let text = std::fs::read_to_string(svg).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{svg:?}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg", "{svg:?}");
    }
    for svg in files.iter().step_by(8) {
        let png = svg.with_extension("shot.png");
        let shot = headless(
            svg,
            &[
                format!("--screenshot={}", png.display()),
                "--window-size=900,900".into(),
                "--enable-logging=stderr".into(),
                "--v=0".into(),
            ],
        );
        assert!(
            shot.status.success(),
            "{}: {}",
            svg.display(),
            stderr(&shot)
        );
        let image = std::fs::read(&png).unwrap_or_else(|_| panic!("no screenshot of {svg:?}"));
        assert_eq!(png_size(&image), (900, 900), "{}", svg.display());
        assert!(
            !stderr(&shot).contains("CONSOLE"),
            "{}: {}",
            svg.display(),
            stderr(&shot)
        );
    }
}

/// Applies the page's `@media print` rules as if printing (headless chromium's `--dump-dom`
/// lays out for the screen) and measures at the width of an A4 page's printable area: every
/// visible element inside the page's width, the screen-only parts hidden, each figure at most
/// 15 cm wide.
const PRINT_PROBE: &str = r#"<script>
(function () {
  var rules = [];
  for (var sheet of document.styleSheets) {
    for (var rule of sheet.cssRules) {
      if (rule.media && rule.media.mediaText === 'print') {
        for (var inner of rule.cssRules) rules.push(inner.cssText);
      }
    }
  }
  var style = document.createElement('style');
  style.textContent = rules.join('\n');
  document.head.appendChild(style);
  var width = document.documentElement.clientWidth;
  var wide = [], shown = 0, figures = 0, widest = 0;
  for (var el of document.querySelectorAll('section.slide *')) {
    var r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    shown++;
    if (r.right > width + 1 || r.left < -1) wide.push(el.closest('section').id + ':' + el.tagName);
  }
  for (var svg of document.querySelectorAll('.figure svg')) {
    var r = svg.getBoundingClientRect();
    if (r.width === 0) continue;
    figures++;
    widest = Math.max(widest, r.width);
  }
  var hidden = ['nav', '.lecture-only', '#slide-counter'].every(function (q) {
    return Array.prototype.every.call(document.querySelectorAll(q), function (e) {
      return e.getBoundingClientRect().height === 0;
    });
  });
  var p = document.createElement('pre');
  p.id = 'print';
  p.textContent = 'rules=' + rules.length + ' width=' + width + ' shown=' + shown +
    ' figures=' + figures + ' widest-figure=' + widest.toFixed(0) + ' screen-parts-hidden=' +
    hidden + ' outside=' + (wide.length ? Array.from(new Set(wide)).slice(0, 5).join(',') : 'none');
  document.body.appendChild(p);
})();
</script>"#;

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_print_layout_fits_an_a4_page() {
    let report = temp_file("print.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/lecture.txt",
            "--solve",
            "--report",
            s(&report),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&report).unwrap();
    // 1. The print rules, applied at 718 px: A4's 21 cm less the default margins, at 96 dpi.
    let probe = report.with_extension("print-probe.html");
    std::fs::write(
        &probe,
        html.replace("</body>", &format!("{PRINT_PROBE}</body>")),
    )
    .unwrap();
    let dom = headless(
        &probe,
        &["--dump-dom".into(), "--window-size=718,1000".into()],
    );
    assert!(dom.status.success(), "chromium failed: {}", stderr(&dom));
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    let line = dom
        .split("<pre id=\"print\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .expect("the print probe's line");
    let m: std::collections::BTreeMap<&str, &str> = line
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .collect();
    let number = |k: &str| m[k].parse::<f64>().unwrap_or_else(|_| panic!("{k}: {m:?}"));
    assert!(number("rules") >= 5.0, "the page has print rules: {m:?}");
    assert_eq!(m["outside"], "none", "cut off on paper: {m:?}");
    assert_eq!(m["screen-parts-hidden"], "true", "{m:?}");
    assert!(number("figures") >= 5.0 && number("shown") > 100.0, "{m:?}");
    assert!(number("widest-figure") <= 15.0 / 2.54 * 96.0 + 1.0, "{m:?}");
    // 2. The page printed by chromium itself: a PDF of A4 or Letter pages, a handful per square.
    let pdf = report.with_extension("pdf");
    let _ = std::fs::remove_file(&pdf);
    let printed = headless(
        &report,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
    );
    assert!(
        printed.status.success(),
        "chromium failed: {}",
        stderr(&printed)
    );
    let bytes = std::fs::read(&pdf).expect("chromium wrote the PDF");
    assert!(bytes.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&bytes);
    // One media box per page.
    let pages = text.matches("/MediaBox [0 0 ").count();
    let slides = html.matches("<section class=\"slide\"").count();
    assert!(
        pages >= 3 && pages <= 2 * slides,
        "{pages} pages for {slides} slides"
    );
    assert!(
        text.contains("/MediaBox [0 0 595") || text.contains("/MediaBox [0 0 612"),
        "an A4 or Letter page"
    );
    eprintln!("print: {m:?}; {pages} pages");
}
