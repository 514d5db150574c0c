//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `sudokit` binary built for these tests.
pub fn sudokit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudokit"))
}

/// Runs `sudokit` with `args` and `stdin` as standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = sudokit()
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sudokit starts");
    let mut input = child.stdin.take().expect("stdin");
    // The child may stop reading early (an error on line 1): ignore a broken pipe here.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("sudokit runs")
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under the repository root.
pub fn path(relative: &str) -> PathBuf {
    repo().join(relative)
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that a run did not panic (no Rust panic message, no signal).
pub fn assert_no_panic(output: &Output) {
    let err = stderr(output);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "panic: {err}"
    );
    assert!(output.status.code().is_some(), "killed by a signal");
}

/// Writes `contents` to a fresh temporary file and returns its path.
pub fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-it-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("temp file");
    path
}

/// `path` as `&str`.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// A fresh, empty directory for one test: `sudokit-GROUP-PID-NAME` in the temporary directory.
pub fn scratch_dir(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An executable shell script at `dir/name` (a fake solver for a solver table entry).
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

// ---- External tools ----------------------------------------------------------------------------
// A test that needs a program this machine lacks (a solver of the table, a proof checker, a Python
// module) says so on standard error (`skipped: TOOL ...`, shown with `--nocapture`) and passes.
// With `SUDOKIT_REQUIRE_TOOLS=1` (`.ci/run`'s strict step, which installs them) a missing tool
// fails the test instead, unless `SUDOKIT_UNAVAILABLE_TOOLS` (a comma-separated list) names it:
// the tools that no Debian package or PyPI wheel provides, which `.ci/run` prints. Every check of
// a tool goes through `missing_tool`, so that none is skipped silently.

/// Whether `SUDOKIT_REQUIRE_TOOLS` asks for every tool (set, and neither empty nor `0`).
pub fn tools_required() -> bool {
    std::env::var("SUDOKIT_REQUIRE_TOOLS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether `SUDOKIT_UNAVAILABLE_TOOLS` names `tool` (a program, a solver of the table or a Python
/// module, as the tests call it).
pub fn listed_unavailable(tool: &str) -> bool {
    std::env::var("SUDOKIT_UNAVAILABLE_TOOLS")
        .is_ok_and(|list| list.split(',').any(|name| name.trim() == tool))
}

/// Whether a missing `tool` must fail the test: `SUDOKIT_REQUIRE_TOOLS` is set and
/// `SUDOKIT_UNAVAILABLE_TOOLS` does not name it.
pub fn tool_required(tool: &str) -> bool {
    tools_required() && !listed_unavailable(tool)
}

/// Reports that `tool` is missing here (`why`: how it was looked for, e.g. `not installed`):
/// panics when the tool is required (see `tool_required`), else prints the skip message.
pub fn missing_tool(tool: &str, why: &str) {
    assert!(
        !tool_required(tool),
        "{tool} is required (SUDOKIT_REQUIRE_TOOLS is set and SUDOKIT_UNAVAILABLE_TOOLS does not \
         name it) but {why}"
    );
    if listed_unavailable(tool) {
        eprintln!("skipped: {tool} {why} (named in SUDOKIT_UNAVAILABLE_TOOLS)");
    } else {
        eprintln!("skipped: {tool} {why}");
    }
}

/// Whether `program` can be started (with `args`, its output discarded, its exit status
/// ignored); `missing_tool` when it cannot.
pub fn tool_starts(program: &str, args: &[&str]) -> bool {
    let started = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match started {
        Ok(_) => true,
        Err(e) => {
            missing_tool(program, &format!("cannot be started ({e})"));
            false
        }
    }
}
