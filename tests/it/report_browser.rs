//! The HTML report of `reduce latin --solve --report` in a real headless browser (Debian's
//! `chromium`). Ignored by plain `cargo test`; `.ci/run` installs chromium and runs
//! `cargo test --test it -- --ignored report_browser`.
//!
//! How the page is checked, for each report:
//! 1. **Screenshot**: `chromium --headless --screenshot=page.png --window-size=W,H` must exit 0
//!    and write a PNG whose header says W×H (the page loaded and was painted).
//! 2. **Console**: the same run has `--enable-logging=stderr --v=0`, which makes chromium print
//!    every console message of the page as a `:CONSOLE` log line on standard error (a script
//!    error, a blocked resource, ...). The report has no script and no external resource, so any
//!    such line fails the test. (chromium's own `ERROR:dbus` lines about the missing system bus
//!    are not console messages and are ignored.)
//! 3. **DOM after load**: `--dump-dom` prints the DOM once the page has loaded; it must hold one
//!    `<rect class="cell…">` per cell of every level and one `<svg>` per level.
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

use crate::common::{run, s, stderr, temp_file};

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

/// Checks one report in the browser; see the module docs. Returns the screenshot's path.
fn check_in_browser(report: &Path, cells: usize, svgs: usize) -> PathBuf {
    let html = std::fs::read_to_string(report).unwrap();
    assert!(
        !html.contains(" src=") && !html.contains(" href=") && !html.contains("<script"),
        "the report must be self-contained"
    );

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
    assert_eq!(
        dom.matches("<rect class=\"cell").count(),
        cells,
        "cells in the DOM"
    );
    assert_eq!(dom.matches("<svg").count(), svgs, "drawings in the DOM");

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

#[test]
#[ignore = "needs chromium: run by .ci/run (cargo test --test it -- --ignored report_browser)"]
fn report_browser_course_chain_through_cnf_and_through_a_backend() {
    // The course squares through CNF and varisat: 2 squares × (3×3 + 9×9) cells, 4 drawings.
    let report = temp_file("browser-course.html", b"");
    let out = run(
        &[
            "reduce",
            "latin",
            "models/latin/course.txt",
            "--to",
            "cnf",
            "--solve",
            "--report",
            s(&report),
        ],
        b"",
    );
    // The second course square has no completion: exit 1, the page still written.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let png = check_in_browser(&report, 2 * (9 + 81), 4);
    eprintln!("screenshot: {}", png.display());

    // A 4×4 quasigroup with holes through the native backend: 16 + 256 cells, 2 drawings.
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
    let png = check_in_browser(&report, 16 + 256, 2);
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
        String::from_utf8_lossy(&dom.stdout)
            .matches("<rect class=\"cell")
            .count(),
        2 * (9 + 81) - 1
    );
}
