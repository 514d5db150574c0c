//! The course page of `reduce latin --solve --report` and the page of `explain --html` in a real
//! headless browser (Debian's `chromium`), at 1280 pixels wide. Ignored by plain `cargo test`; `.ci/run` installs chromium and runs
//! `cargo test --test it -- --ignored report_browser`.
//!
//! How the page is checked, for each report:
//! 1. **Screenshot**: `chromium --headless --screenshot=page.png --window-size=W,H` must exit 0
//!    and write a PNG whose header says W×H (the page loaded and was painted).
//! 2. **Console**: the same run has `--enable-logging=stderr --v=0`, which makes chromium print
//!    every console message of the page as a `:CONSOLE` log line on standard error (a script
//!    error, a blocked resource, ...). The pages have no script, no external resource and only
//!    in-page links, so any such line fails the test. (chromium's own `ERROR:dbus` lines about the missing system bus
//!    are not console messages and are ignored.)
//! 3. **DOM after load**: `--dump-dom` prints the DOM once the page has loaded; it must hold every
//!    `<rect class="cell…">` and every `<svg>` of the page, and what the test expects there
//!    (every level's verdict, `data-level="cnf" data-verdict="no"`, the frames of `explain`).
//! 4. **Layout**: a copy of the page with a probe script appended counts the SVG cells the
//!    browser actually laid out (`getBoundingClientRect()` wider and taller than 0, which only
//!    happens when the inline SVG was parsed as SVG) and writes the count into the DOM, read back
//!    with `--dump-dom`.
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
const cells = [...document.querySelectorAll('svg rect.cell')];
const laidOut = cells.filter(r => { const b = r.getBoundingClientRect(); return b.width > 0 && b.height > 0; }).length;
const svgNs = [...document.querySelectorAll('svg')].every(s => s.namespaceURI === 'http://www.w3.org/2000/svg');
const p = document.createElement('pre');
p.id = 'probe';
p.textContent = 'laid-out-cells=' + laidOut + ' svg-namespace=' + svgNs;
document.body.appendChild(p);
</script>"#;

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
            && !html.contains("<script"),
        "the page must be self-contained (in-page links only, no script)"
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
    assert!(
        probed.contains(&format!(
            "<pre id=\"probe\">laid-out-cells={cells} svg-namespace=true</pre>"
        )),
        "probe: {}",
        probed
            .lines()
            .find(|l| l.contains("probe"))
            .unwrap_or("no probe output")
    );
    png
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
    let square = |k: usize| {
        let section = html.split(&format!("id=\"square-{k}\"")).nth(1).unwrap();
        section.split("</section>").next().unwrap().to_string()
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
    assert_eq!(html.matches("<section class=\"frame\"").count(), steps + 1);
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
