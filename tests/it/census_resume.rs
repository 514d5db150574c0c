//! The resume file of a census (`count --box PxQ -o FILE`, `FILE.partial`) is kept as safely as
//! a batch result file (issue 40): a part changed after it was written is refused, naming the
//! file and line; a second run on the same `-o` — a count, or `--force` over a running `solve` —
//! is refused naming the process that holds it; directories, links and special files are
//! refused (or written through) before anything is counted; and the results of a batch command
//! are named for what they are.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use sudokit::Shape;
use sudokit::census::{CensusOptions, count_grids};
use sudokit::jobs::OpenMode;
use sudokit::jobs::census_checkpoint::Checkpoint;
use sudokit::jobs::item::Fnv;

use crate::common::{assert_no_panic, path, run, s, stderr, stdout, sudokit};
use crate::sink::stopped_partial;

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sudokit-census-resume-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The part line the census resume format documents: `PART done COUNT KEY HASH`, the key the
/// FNV-1a of the census line and the part number, the hash that of the line up to it.
pub(crate) fn part_line(census: &str, part: usize, count: u128) -> String {
    let mut key = Fnv::new();
    key.add(census.as_bytes());
    key.add(&(part as u64).to_le_bytes());
    let body = format!("{part}\tdone\t{count}\t{:016x}\t", key.finish());
    format!("{body}{:016x}\n", Fnv::of(body.as_bytes()))
}

/// Checks that `partial` is a census resume file of whole lines only: its header, its census
/// line, and part lines whose hashes are right (no line torn, interleaved or zeroed by two
/// writers). Returns the number of parts.
fn whole_parts(partial: &Path) -> usize {
    let bytes = std::fs::read(partial).expect("partial file");
    assert!(!bytes.contains(&0), "NUL bytes in {}", partial.display());
    let text = String::from_utf8(bytes).expect("UTF-8");
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("sudokit census checkpoint 2 pid ")),
        "{text}"
    );
    let census = lines.next().expect("census line");
    let mut parts = 0;
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let (part, count) = (fields[0].parse().unwrap(), fields[2].parse().unwrap());
        assert_eq!(
            format!("{line}\n"),
            part_line(census, part, count),
            "{text}"
        );
        parts += 1;
    }
    parts
}

/// Waits until `file` exists and `ready` says its text is; at most a minute, 10× what a loaded
/// machine takes to start a run and count its first part.
fn wait_for(file: &Path, ready: impl Fn(&str) -> bool, child: &mut Child) {
    let start = Instant::now();
    while !std::fs::read_to_string(file).is_ok_and(|t| ready(&t)) {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the first run ended ({status}) before writing {}",
                file.display()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never got ready",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Its one line of standard error, asserted to be one.
fn one_error_line(out: &std::process::Output) -> String {
    assert_no_panic(out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let message = stderr(out);
    assert_eq!(message.lines().count(), 1, "{message}");
    message.trim_end().to_string()
}

#[test]
fn a_changed_part_is_refused_naming_its_line() {
    let dir = temp_dir("tampered");
    let file = dir.join("c.txt");
    let partial = dir.join("c.txt.partial");
    // Every part of 9×9 counted into the resume file, as a count killed before writing c.txt
    // leaves it.
    let checkpoint = Checkpoint::open(&partial, OpenMode::Fresh).unwrap();
    let options = CensusOptions {
        checkpoint: Some(&checkpoint),
        ..CensusOptions::default()
    };
    let report = count_grids(&Shape::sudoku(3, 3).unwrap(), &options).unwrap();
    drop(checkpoint);
    assert_eq!(report.count, 6_670_903_752_021_072_936_960);
    assert_eq!(whole_parts(&partial), report.parts);
    // One more grid in the part of line 3.
    let text = std::fs::read_to_string(&partial).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[2].split('\t').map(str::to_string).collect();
    let count: u128 = fields[2].parse().unwrap();
    fields[2] = (count + 1).to_string();
    lines[2] = fields.join("\t");
    std::fs::write(&partial, lines.join("\n") + "\n").unwrap();
    let tampered = std::fs::read(&partial).unwrap();
    let resume = ["count", "--box", "3x3", "-o", s(&file), "--resume"];
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.starts_with(&format!(
            "sudokit: {}:3: part {} was changed after it was written",
            partial.display(),
            fields[0]
        )),
        "{message}"
    );
    assert!(message.ends_with("start again with --force"), "{message}");
    // Nothing written, nothing changed, nothing left beside it.
    assert!(!file.exists());
    assert_eq!(std::fs::read(&partial).unwrap(), tampered);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    // --force starts again, to the right count.
    let out = run(&["count", "--box", "3x3", "-o", s(&file), "--force"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "6670903752021072936960\n"
    );
    assert!(!partial.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_counts_on_one_output_are_refused_and_a_kill_leaves_whole_parts() {
    let dir = temp_dir("two-counts");
    let file = dir.join("l8.txt");
    let partial = dir.join("l8.txt.partial");
    // The 1,854 parts of the Latin squares of order 8 take minutes on one thread.
    let order8 = ["count", "--latin", "--order", "8", "--threads", "1"];
    let mut first = sudokit()
        .args(order8)
        .args(["-o", s(&file)])
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let pid = first.id().to_string();
    // Counting: its header, its census line and a first part written.
    wait_for(&partial, |t| t.lines().count() >= 3, &mut first);
    for extra in [&[][..], &["--force"], &["--resume"]] {
        let args = [&order8[..], &["-o", s(&file)], extra].concat();
        let message = one_error_line(&run(&args, b""));
        assert_eq!(
            message,
            format!(
                "sudokit: another sudokit run (process {pid}) is writing {}: wait for it to end, \
                 or write to another file",
                partial.display()
            ),
            "{extra:?}"
        );
    }
    // Killed while it counts: whatever it wrote is whole lines, resumed as they are.
    first.kill().expect("kill");
    first.wait().expect("ended");
    let parts = whole_parts(&partial);
    assert!(parts >= 1);
    let out = run(
        &[
            &order8[..],
            &["-o", s(&file), "--resume", "--time-limit", "0.2"],
        ]
        .concat(),
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(whole_parts(&partial) >= parts);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn force_never_discards_the_file_of_a_running_solve() {
    let dir = temp_dir("running-solve");
    let file = dir.join("z.txt");
    let easy = std::fs::read_to_string(path("models/sudoku/9x9/easy.txt")).unwrap();
    let mut puzzles = easy.lines();
    // A solve that reads its puzzles from a pipe holds z.txt.partial until the pipe closes.
    let mut solve = sudokit()
        .args(["solve", "-", "-o", s(&file)])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut input = solve.stdin.take().expect("stdin");
    writeln!(input, "{}", puzzles.next().unwrap()).unwrap();
    input.flush().unwrap();
    let pid = solve.id().to_string();
    wait_for(
        &dir.join("z.txt.partial.index"),
        |t| t.contains(&pid),
        &mut solve,
    );
    let out = run(&["count", "--box", "2x2", "-o", s(&file), "--force"], b"");
    let message = one_error_line(&out);
    assert!(message.contains(&format!("(process {pid})")), "{message}");
    assert!(dir.join("z.txt.partial").exists());
    assert!(!file.exists());
    // The solve goes on to its end, its results whole.
    writeln!(input, "{}", puzzles.next().unwrap()).unwrap();
    drop(input);
    let out = solve.wait_with_output().expect("solve ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_batch_result_file_is_named_for_what_it_is() {
    let dir = temp_dir("batch");
    let file = dir.join("z.txt");
    let partial = dir.join("z.txt.partial");
    let top95 = path("models/sudoku/9x9/top95.txt");
    stopped_partial(
        &["solve", "--backend", "norvig", "--threads", "1", s(&top95)],
        &file,
        1,
    );
    let results = std::fs::read(&partial).unwrap();
    for extra in [&["--resume"][..], &[]] {
        let args = [&["count", "--box", "2x2", "-o", s(&file)][..], extra].concat();
        let message = one_error_line(&run(&args, b""));
        assert_eq!(
            message,
            format!(
                "sudokit: {} holds the results of a batch `solve` run, not a census: count into \
                 another file, or discard them with --force",
                partial.display()
            )
        );
        assert_eq!(std::fs::read(&partial).unwrap(), results);
    }
    let out = run(&["count", "--box", "2x2", "-o", s(&file), "--force"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "288\n");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "index left");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn directories_links_and_missing_folders_are_refused_before_counting() {
    let dir = temp_dir("paths");
    // A directory: refused at once (the Latin squares of order 9 would take hours; the time
    // limit only bounds a run that counted first).
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    let out = run(
        &[
            "count",
            "--latin",
            "--order",
            "9",
            "--time-limit",
            "20",
            "-o",
            s(&folder),
        ],
        b"",
    );
    assert_eq!(
        one_error_line(&out),
        format!(
            "sudokit: {} is a directory, not a file to write",
            folder.display()
        )
    );
    assert!(!dir.join("folder.partial").exists());
    // A folder that does not exist: said once.
    let missing = dir.join("missing").join("x");
    let message = one_error_line(&run(&["count", "--box", "2x2", "-o", s(&missing)], b""));
    assert_eq!(
        message.matches("No such file or directory").count(),
        1,
        "{message}"
    );
    // A resume file that is a link is not followed: what it points at stays as it was.
    let precious = dir.join("precious.txt");
    std::fs::write(&precious, "keep me\n").unwrap();
    let file = dir.join("c.txt");
    std::os::unix::fs::symlink(&precious, dir.join("c.txt.partial")).unwrap();
    let message = one_error_line(&run(
        &["count", "--box", "2x2", "-o", s(&file), "--force"],
        b"",
    ));
    assert!(
        message.contains("c.txt.partial is a symbolic link"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me\n");
    assert!(!file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_special_output_is_written_through_and_keeps_no_parts() {
    let dir = temp_dir("special");
    let out_link = dir.join("out");
    std::os::unix::fs::symlink("/dev/stdout", &out_link).unwrap();
    // Whatever lies beside it is not its resume file.
    let beside = dir.join("out.partial");
    std::fs::write(&beside, "not a census\n").unwrap();
    let out = run(&["count", "--box", "2x2", "-o", s(&out_link)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "288\n");
    assert_eq!(std::fs::read_to_string(&beside).unwrap(), "not a census\n");
    let message = one_error_line(&run(
        &["count", "--box", "2x2", "-o", s(&out_link), "--resume"],
        b"",
    ));
    assert!(
        message.contains("--resume needs a regular file"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_the_first_format_says_how_to_continue() {
    let dir = temp_dir("format1");
    let file = dir.join("l6.txt");
    let partial = dir.join("l6.txt.partial");
    let old = "{\"census\":\"6×6 Latin square\",\"method\":\"reduced-latin\",\"parts\":49}\n\
               {\"part\":0,\"count\":\"0\"}\n";
    std::fs::write(&partial, old).unwrap();
    let args = ["count", "--latin", "--order", "6", "-o", s(&file)];
    let message = one_error_line(&run(&[&args[..], &["--resume"]].concat(), b""));
    assert!(
        message.contains("is a census resume file of format 1")
            && message.ends_with("start again with --force"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), old);
    let out = run(&[&args[..], &["--force"]].concat(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "812851200\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_part_torn_by_a_kill_is_counted_again() {
    let dir = temp_dir("torn");
    let file = dir.join("l7.txt");
    let partial = dir.join("l7.txt.partial");
    let census = r#"{"census":"7×7 Latin square","method":"reduced-latin","parts":221}"#;
    let mut text = format!("sudokit census checkpoint 2 pid {:<10}\n{census}\n", 1);
    text.push_str(&part_line(census, 5, 0));
    let torn = part_line(census, 6, 0);
    text.push_str(&torn[..torn.len() / 2]);
    std::fs::write(&partial, text).unwrap();
    let out = run(
        &[
            "count",
            "--latin",
            "--order",
            "7",
            "-o",
            s(&file),
            "--resume",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // Part 5 was kept at its recorded 0, part 6 counted again.
    assert_eq!(report["parts_resumed"], 1);
    assert!(report["count"].as_u64().unwrap() < 61_479_419_904_000);
    let _ = std::fs::remove_dir_all(&dir);
}
