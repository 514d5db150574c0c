//! The output sink and `--resume` keep every run whole (issue 31, finding 3): a second run on the
//! same `-o FILE` refuses, `-o /dev/stdout` and friends are written through (never renamed over),
//! a resumed run redoes its `unknown` and `error` results and refuses a partial file changed
//! since it was written, a run without `--resume` never truncates a resumable partial file, and a
//! closed pipe ends a run at once, without waiting for the next result. And (issue 40) a result's
//! status is sealed by its hash, a resume is refused for another input (or a renamed copy of the
//! same one) and leaves nothing behind when refused, a run never writes through a symbolic link
//! in the place of its own files, and an output that can only be a directory is refused at once.

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
    // Twenty copies of top95: long enough (some 2,000 puzzles) that the shortest --timeout stops
    // the run before its end on a fast machine.
    let top95 = dir.join("top95x20.txt");
    let once = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    std::fs::write(&top95, once.repeat(20)).unwrap();
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

/// A genuine partial output of `solve` over 20 rounds of top95 (stopped by `--timeout`) in `dir`:
/// the input, `FILE` and the arguments.
fn stopped_solve(dir: &Path, extra: &[&str]) -> (PathBuf, PathBuf) {
    let many = dir.join("many.txt");
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    std::fs::write(&many, top95.repeat(20)).unwrap();
    let out = dir.join("out.txt");
    let args = [&["solve", "--threads", "1"], extra, &[s(&many)]].concat();
    stopped_partial(&args, &out, 3);
    (many, out)
}

/// The names of the files in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn an_edited_status_in_the_index_is_refused_naming_the_line() {
    let dir = temp_dir("status");
    let limited = ["--backend", "norvig", "--node-limit", "1"];
    let (many, out) = stopped_solve(&dir, &limited);
    let index = dir.join("out.txt.partial.index");
    let entries = std::fs::read_to_string(&index).unwrap();
    let first_unknown = entries
        .lines()
        .position(|line| line.contains("\tunknown\t"))
        .expect("an unknown result")
        + 1;
    std::fs::write(&index, entries.replacen("\tunknown\t", "\tdone\t", 1)).unwrap();
    let resumed = sudokit()
        .args(["solve", "--threads", "1", "--backend", "norvig", s(&many)])
        .args(["-o", s(&out), "--resume"])
        .output()
        .unwrap();
    let message = stderr(&resumed);
    assert_eq!(resumed.status.code(), Some(2), "{message}");
    assert!(
        message.contains(&format!("line {first_unknown} of its index")),
        "{message}"
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_refuses_another_input_under_the_same_name_and_a_renamed_copy() {
    let dir = temp_dir("input");
    let (many, out) = stopped_solve(&dir, &[]);
    let partial = dir.join("out.txt.partial");
    let written = std::fs::read(&partial).unwrap();
    let resume = |input: &Path| {
        sudokit()
            .args(["solve", "--threads", "1", s(input)])
            .args(["-o", s(&out), "--resume"])
            .output()
            .unwrap()
    };
    // A copy under another name: the same bytes, but records name their input.
    let copy = dir.join("copy.txt");
    std::fs::copy(&many, &copy).unwrap();
    let refused = resume(&copy);
    let message = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{message}");
    assert!(message.contains("the same bytes"), "{message}");
    // The same name, another content (its last puzzle, which no kept result answers, changed).
    let original = std::fs::read_to_string(&many).unwrap();
    let changed = original.trim_end().to_string();
    let changed = format!("{}\n", &changed[..changed.len() - 1]);
    std::fs::write(&many, changed).unwrap();
    let refused = resume(&many);
    let message = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{message}");
    assert!(
        message.contains("changed since the run started"),
        "{message}"
    );
    assert_eq!(std::fs::read(&partial).unwrap(), written, "untouched");
    // The input as it was: the run completes.
    std::fs::write(&many, original).unwrap();
    let resumed = resume(&many);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_resume_leaves_no_files_and_a_rerun_refuses_whatever_the_index_says() {
    let dir = temp_dir("leftovers");
    let (many, out) = stopped_solve(&dir, &[]);
    let partial = dir.join("out.txt.partial");
    let written = std::fs::read(&partial).unwrap();
    let before = names(&dir);
    // Standard input is named, not hashed: its other puzzles are found by their fingerprints.
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    let reversed: String = top95.lines().rev().map(|l| format!("{l}\n")).collect();
    let from_stdin = |text: &str| {
        let out = crate::common::run(
            &["solve", "--threads", "1", "-", "-o", s(&out), "--resume"],
            text.as_bytes(),
        );
        (out.status.code(), stderr(&out))
    };
    let (code, message) = from_stdin(&reversed);
    assert_eq!(code, Some(2), "{message}");
    // The partial file was written from a file, not standard input.
    assert!(message.contains("another run"), "{message}");
    assert_eq!(names(&dir), before, "{message}");
    // A partial file of standard input, resumed with other puzzles, and with too few.
    let stdin_out = dir.join("stdin.txt");
    let stdin_partial = dir.join("stdin.txt.partial");
    let many_text = std::fs::read_to_string(&many).unwrap().repeat(5);
    let stopped = crate::common::run(
        &[
            "--timeout",
            "0.3",
            "solve",
            "--threads",
            "1",
            "-",
            "-o",
            s(&stdin_out),
        ],
        many_text.as_bytes(),
    );
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    let before = names(&dir);
    let stdin_written = std::fs::read(&stdin_partial).unwrap();
    for (what, text) in [
        ("other puzzles", reversed.clone()),
        ("fewer", top95[..82].to_string()),
    ] {
        let out = crate::common::run(
            &[
                "solve",
                "--threads",
                "1",
                "-",
                "-o",
                s(&stdin_out),
                "--resume",
            ],
            text.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stderr(&out));
        assert_eq!(names(&dir), before, "{what}: files left");
        assert_eq!(
            std::fs::read(&stdin_partial).unwrap(),
            stdin_written,
            "{what}"
        );
    }
    // The index lost its entries (as a kill could leave it before they were written through):
    // a run without --resume still refuses to truncate the results.
    let index = dir.join("out.txt.partial.index");
    let entries = std::fs::read_to_string(&index).unwrap();
    let header: String = entries.split_inclusive('\n').take(2).collect();
    std::fs::write(&index, header).unwrap();
    let again = sudokit()
        .args(["solve", "--threads", "1", s(&many), "-o", s(&out)])
        .output()
        .unwrap();
    let message = stderr(&again);
    assert_eq!(again.status.code(), Some(2), "{message}");
    assert!(
        message.contains("--resume") && message.contains("--force"),
        "{message}"
    );
    assert_eq!(std::fs::read(&partial).unwrap(), written);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn force_refuses_a_symbolic_link_in_the_place_of_its_own_files() {
    let dir = temp_dir("symlink");
    let sample = path("models/sudoku/4x4/kr_4x4_sample.txt");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep\n").unwrap();
    let out = dir.join("out.txt");
    for own in [
        "out.txt.partial",
        "out.txt.partial.index",
        "out.txt.partial.next",
        "out.txt.partial.next.index",
    ] {
        let link = dir.join(own);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        for mode in ["--force", "--resume"] {
            let run = sudokit()
                .args(["solve", s(&sample), "-o", s(&out), mode])
                .output()
                .unwrap();
            let message = stderr(&run);
            assert_eq!(run.status.code(), Some(2), "{own} {mode}: {message}");
            assert!(
                message.contains(&format!("{} is a symbolic link", link.display())),
                "{own} {mode}: {message}"
            );
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep\n");
            assert!(!out.exists());
        }
        std::fs::remove_file(&link).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_names_a_directory_is_refused_at_once_and_once() {
    let dir = temp_dir("directory");
    let sample = path("models/sudoku/4x4/kr_4x4_sample.txt");
    let new_dir = format!("{}/new/", dir.display());
    for (target, extra) in [
        (s(&dir), &[][..]),
        (new_dir.as_str(), &[][..]),
        (new_dir.as_str(), &["--resume"][..]),
        (new_dir.as_str(), &["--force"][..]),
    ] {
        let run = sudokit()
            .args(["solve", s(&sample), "-o", target])
            .args(extra)
            .output()
            .unwrap();
        let message = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{target}: {message}");
        assert_eq!(
            message,
            format!("sudokit: {target} is a directory, not a file to write\n"),
            "{target} {extra:?}"
        );
        assert_eq!(stdout(&run), "", "{target}: work was done");
    }
    assert_eq!(names(&dir), Vec::<String>::new(), "nothing was created");
    let _ = std::fs::remove_dir_all(&dir);
}
