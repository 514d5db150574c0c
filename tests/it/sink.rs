//! The output sink and `--resume` keep every run whole (issue 31, finding 3): a second run on the
//! same `-o FILE` refuses, `-o /dev/stdout` and friends are written through (never renamed over),
//! a resumed run redoes its `unknown` and `error` results and refuses a partial file changed
//! since it was written, a run without `--resume` never truncates a resumable partial file, and a
//! closed pipe ends a run at once, without waiting for the next result.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{path, s, stderr, stdout, sudokit};

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-sink-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A puzzle plain backtracking needs minutes for (its first row is 987654321 in the solution:
/// the search tries every smaller digit first).
const AGAINST_BRUTE_FORCE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

/// The results an index lists (its lines after the two of the header).
pub(crate) fn indexed_results(out: &Path) -> usize {
    let index = PathBuf::from(format!("{}.partial.index", out.display()));
    std::fs::read_to_string(index)
        .map(|t| t.lines().count().saturating_sub(2))
        .unwrap_or(0)
}

/// Runs `args -o out` under ever longer `--timeout`s until one stops the run with at least
/// `min` results in `out.partial` (and not all of them): a genuine resumable partial file.
pub(crate) fn stopped_partial(args: &[&str], out: &Path, min: usize) -> usize {
    for timeout in [0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2] {
        let _ = std::fs::remove_file(out);
        let run = sudokit()
            .args(args)
            .args(["-o", s(out), "--force", "--timeout", &timeout.to_string()])
            .output()
            .expect("runs");
        let results = indexed_results(out);
        if run.status.code() == Some(1) && !out.exists() && results >= min {
            return results;
        }
    }
    panic!("no --timeout stopped {args:?} after {min} results");
}

#[test]
fn a_second_run_on_the_same_output_refuses_and_names_the_first() {
    let dir = temp_dir("busy");
    let hard = dir.join("hard.txt");
    std::fs::write(&hard, format!("{AGAINST_BRUTE_FORCE}\n")).unwrap();
    let same = dir.join("same.txt");
    let mut first = sudokit()
        .args(["solve", "--backend", "backtrack", s(&hard), "-o", s(&same)])
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let index = dir.join("same.txt.partial.index");
    let start = Instant::now();
    while !std::fs::read_to_string(&index).is_ok_and(|t| t.lines().count() >= 2) {
        assert!(start.elapsed() < Duration::from_secs(60), "no index");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = sudokit()
        .args([
            "solve",
            s(&path("models/sudoku/4x4/kr_4x4_sample.txt")),
            "-o",
            s(&same),
        ])
        .output()
        .expect("runs");
    let message = stderr(&second);
    assert_eq!(second.status.code(), Some(2), "{message}");
    assert!(
        message.contains(&format!(
            "another sudokit run (process {}) is writing",
            first.id()
        )),
        "{message}"
    );
    // The first run's output is untouched: it still has its partial file, and finishes it.
    Command::new("kill")
        .args(["-TERM", &first.id().to_string()])
        .status()
        .expect("kill");
    let mut said = String::new();
    first
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    assert_eq!(first.wait().unwrap().code(), Some(143), "{said}");
    assert!(dir.join("same.txt.partial").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn standard_streams_and_pipes_are_written_through_not_renamed_over() {
    let dir = temp_dir("streams");
    let sample = path("models/sudoku/4x4/kr_4x4_sample.txt");
    let expected = stdout(&sudokit().args(["solve", s(&sample)]).output().unwrap());
    let sh = |line: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&dir)
            .output()
            .expect("sh runs")
    };
    let bin = env!("CARGO_BIN_EXE_sudokit");
    // Appending through the shell's redirection keeps what the file held.
    for target in ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"] {
        let run = sh(&format!(
            "echo LOG > log.txt; {bin} solve {} -o {target} >> log.txt",
            s(&sample)
        ));
        assert_eq!(run.status.code(), Some(0), "{target}: {}", stderr(&run));
        let log = std::fs::read_to_string(dir.join("log.txt")).unwrap();
        assert_eq!(log, format!("LOG\n{expected}"), "{target}");
    }
    // A pipe stays a pipe.
    for target in ["/dev/stdout", "/proc/self/fd/1"] {
        let run = sh(&format!("{bin} solve {} -o {target} | cat", s(&sample)));
        assert_eq!(run.status.code(), Some(0), "{target}: {}", stderr(&run));
        assert_eq!(stdout(&run), expected, "{target}");
    }
    let run = sh(&format!(
        "{bin} solve {} -o /dev/stderr 2>&1 >/dev/null",
        s(&sample)
    ));
    assert_eq!(stdout(&run), expected);
    // Nothing was left beside them.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["log.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_redoes_the_unknown_results_and_keeps_the_others() {
    let dir = temp_dir("unknown");
    let top95 = path("models/sudoku/9x9/top95.txt");
    let full = sudokit()
        .args(["solve", "--backend", "norvig", s(&top95)])
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
    // One search node each: the puzzles propagation alone does not solve end `unknown`.
    let out = dir.join("out.txt");
    let limited = [
        "solve",
        "--backend",
        "norvig",
        "--threads",
        "1",
        "--node-limit",
        "1",
        s(&top95),
    ];
    let kept = stopped_partial(&limited, &out, 3);
    let partial = std::fs::read_to_string(dir.join("out.txt.partial")).unwrap();
    assert!(partial.contains("unknown (node limit)"), "{partial}");
    // The node limit is no part of the run's identity: resumed without it, the unknown results
    // are solved.
    let resumed = sudokit()
        .args(["solve", "--backend", "norvig", s(&top95)])
        .args(["-o", s(&out), "--resume"])
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("unknown"), "{text}");
    assert_eq!(text, stdout(&full), "after {kept} kept results");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_refuses_blank_and_foreign_lines_and_a_run_never_truncates_a_partial() {
    let dir = temp_dir("changed");
    let many = dir.join("many.txt");
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    std::fs::write(&many, top95.repeat(40)).unwrap();
    let out = dir.join("out.txt");
    let args = ["info", "--threads", "1", s(&many)];
    stopped_partial(&args, &out, 3);
    let partial = dir.join("out.txt.partial");
    let original = std::fs::read_to_string(&partial).unwrap();

    // Without --resume the partial file is not truncated: the run refuses and says how on.
    let again = sudokit().args(args).args(["-o", s(&out)]).output().unwrap();
    let message = stderr(&again);
    assert_eq!(again.status.code(), Some(2), "{message}");
    assert!(
        message.contains("--resume") && message.contains("--force"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), original);

    let (first, rest) = original.split_once('\n').unwrap();
    for (what, changed) in [
        ("a blank line", format!("{first}\n\n{rest}")),
        (
            "a foreign line",
            format!("{first}\nline 2: 9×9 (3×3 boxes), 1 givens, no clash\n{rest}"),
        ),
    ] {
        std::fs::write(&partial, changed).unwrap();
        let refused = sudokit()
            .args(args)
            .args(["-o", s(&out), "--resume"])
            .output()
            .unwrap();
        let message = stderr(&refused);
        assert_eq!(refused.status.code(), Some(2), "{what}: {message}");
        assert!(
            message.contains("was changed after it was written"),
            "{what}: {message}"
        );
        assert!(!out.exists(), "{what}");
    }

    // --force starts again, and writes the full output.
    let forced = sudokit()
        .args(args)
        .args(["-o", s(&out), "--force"])
        .output()
        .unwrap();
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let full = sudokit().args(args).output().unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), full.stdout);
    assert!(!partial.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_pipe_ends_the_run_without_waiting_for_the_next_result() {
    let dir = temp_dir("closed");
    // An easy puzzle, then one that plain backtracking spends minutes on.
    let input = dir.join("input.txt");
    let easy = std::fs::read_to_string(path("models/sudoku/9x9/easy.txt")).unwrap();
    let easy = easy.lines().find(|l| !l.starts_with('#')).unwrap();
    std::fs::write(&input, format!("{easy}\n{AGAINST_BRUTE_FORCE}\n")).unwrap();
    let bin = env!("CARGO_BIN_EXE_sudokit");
    for threads in ["1", "2"] {
        let start = Instant::now();
        let run = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "{bin} solve --backend backtrack --threads {threads} {} | head -1",
                s(&input)
            ))
            .output()
            .expect("sh runs");
        let elapsed = start.elapsed();
        assert_eq!(stdout(&run).len(), 82, "{}", stderr(&run));
        // The second puzzle alone takes minutes in a debug build.
        assert!(
            elapsed < Duration::from_secs(20),
            "--threads {threads}: the run went on for {elapsed:?} after head ended"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
