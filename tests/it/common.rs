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
