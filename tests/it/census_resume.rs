//! The parts of a census (`count --box PxQ -o FILE`) are kept in the one resumable format of
//! every command, `FILE.partial` and its index (`sudokit::jobs::census_parts`), as safely as a
//! batch's results: a part changed after it was written, a line inserted or one from another
//! census is refused, naming the file and the index line; a second run on the same `-o` — a
//! count, or `--force` over a running `solve` — is refused naming the process that holds it; a
//! kill loses at most the parts in flight; directories, links and special files are refused (or
//! written through) before anything is counted; and another command's results are named for
//! what they are.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use sudokit::Limits;
use sudokit::Shape;
use sudokit::census::{CensusProgress, CensusReport, Phase};
use sudokit::jobs::census::run_census;
use sudokit::jobs::census_command::EmptyGridCommand;
use sudokit::jobs::census_parts::{census_line, part_key, part_text};
use sudokit::jobs::count::{CountJob, CountOptions};
use sudokit::jobs::partial::{HEADER_LINES, IndexEntry, PartialOutput};
use sudokit::jobs::{Command, OpenMode, Sink, Status};
use sudokit::search::Cancel;

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

/// The identity of `count --box PxQ` (`order` none) or `count --latin --order N` with `-o`:
/// what the command line writes in the index.
pub(crate) fn identity(order: Option<usize>) -> serde_json::Value {
    let job = CountJob::new(CountOptions {
        order,
        ..CountOptions::default()
    })
    .unwrap();
    EmptyGridCommand::new(job)
        .output_identity(false, &[])
        .unwrap()
}

/// Counts `shape` into `file` as the command line does, in this process, stopped once `stop`
/// parts are counted (none: to the end); `end`: the output ended as a stopped run ends it,
/// else left as a kill leaves it.
pub(crate) fn census_into(
    file: &Path,
    shape: Shape,
    order: Option<usize>,
    stop: Option<usize>,
    end: bool,
) -> CensusReport {
    let (sink, old) = Sink::open(Some(file), "puzzles", &identity(order), OpenMode::Force).unwrap();
    let cancel = Cancel::new();
    let progress = |p: &CensusProgress| {
        if p.phase == Phase::Counting && stop.is_some_and(|k| p.parts_done >= k) {
            cancel.cancel();
        }
    };
    let limits = Limits::none().with_cancel(cancel.clone());
    let report = run_census(&shape, None, limits, &sink, old, Some(&progress), false).unwrap();
    if end {
        sink.finish(report.complete(), || "stopped".into()).unwrap();
    }
    report
}

/// Writes a partial file of the census `census` (its description) holding `parts` (part,
/// count) as given, whole, then `torn` bytes of one more part's text without its index line.
pub(crate) fn forged(
    file: &Path,
    order: Option<usize>,
    census: &str,
    parts: &[(usize, u128)],
    torn: Option<(usize, u128)>,
) {
    let total: usize = serde_json::from_str::<serde_json::Value>(census).unwrap()["parts"]
        .as_u64()
        .unwrap() as usize;
    let (mut output, _) = PartialOutput::open(file, &identity(order), OpenMode::Force).unwrap();
    for &(part, count) in parts {
        let text = part_text(part, total, count);
        output
            .write(
                text.as_bytes(),
                part + 1,
                Status::Done,
                part_key(census, part),
            )
            .unwrap();
    }
    output.finish(false).unwrap();
    if let Some((part, count)) = torn {
        let text = part_text(part, total, count);
        let mut data = std::fs::OpenOptions::new()
            .append(true)
            .open(partial_of(file))
            .unwrap();
        data.write_all(&text.as_bytes()[..text.len() / 2]).unwrap();
    }
}

fn partial_of(file: &Path) -> PathBuf {
    sudokit::jobs::partial::partial_path(file)
}

fn index_of(file: &Path) -> PathBuf {
    sudokit::jobs::partial::index_path(&partial_of(file))
}

/// Checks that the partial file of `file` holds parts of one census, each whole and sealed by
/// its index line (no line torn, interleaved or zeroed by two writers), and at most one whole
/// part more (written, its index line not yet); returns the number of parts indexed.
fn whole_parts(file: &Path) -> usize {
    let data = std::fs::read(partial_of(file)).expect("partial file");
    let index = std::fs::read_to_string(index_of(file)).expect("index");
    assert!(!data.contains(&0), "NUL bytes in the partial file");
    assert!(index.starts_with("sudokit partial index 2 pid "), "{index}");
    let mut at = 0;
    let mut parts = 0;
    for line in index.lines().skip(HEADER_LINES) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (number, bytes): (usize, usize) =
            (fields[0].parse().unwrap(), fields[2].parse().unwrap());
        let key = u64::from_str_radix(fields[3], 16).unwrap();
        let text = &data[at..at + bytes];
        let entry = IndexEntry::of(text, number, Status::Done, key);
        assert_eq!(entry.to_line(), format!("{line}\n"), "part {number}");
        assert!(text.starts_with(format!("part {} of ", number - 1).as_bytes()));
        at += bytes;
        parts += 1;
    }
    let rest = &data[at..];
    assert!(
        rest.is_empty()
            || (rest.starts_with(b"part ")
                && rest.ends_with(b"\n")
                && rest.iter().filter(|&&b| b == b'\n').count() == 1),
        "{}",
        String::from_utf8_lossy(rest)
    );
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
fn a_changed_part_is_refused_naming_its_index_line() {
    let dir = temp_dir("tampered");
    let file = dir.join("c.txt");
    let partial = partial_of(&file);
    // Every part of 9×9 counted into the partial file, as a count killed before writing c.txt
    // leaves it.
    let report = census_into(&file, Shape::sudoku(3, 3).unwrap(), None, None, false);
    assert_eq!(report.count, 6_670_903_752_021_072_936_960);
    assert_eq!(whole_parts(&file), report.parts);
    // One more grid in the third part written.
    let text = std::fs::read_to_string(&partial).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (head, count) = lines[2].rsplit_once(' ').unwrap();
    let count: u128 = count.parse().unwrap();
    lines[2] = format!("{head} {}", count + 1);
    std::fs::write(&partial, lines.join("\n") + "\n").unwrap();
    let tampered = std::fs::read(&partial).unwrap();
    let resume = ["count", "--box", "3x3", "-o", s(&file), "--resume"];
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.starts_with(&format!(
            "sudokit: {} was changed after it was written (line {} of its index, {}, does not match result 3",
            partial.display(),
            HEADER_LINES + 3,
            index_of(&file).display()
        )),
        "{message}"
    );
    assert!(message.ends_with("start again with --force"), "{message}");
    // Nothing written, nothing changed, nothing left beside it.
    assert!(!file.exists());
    assert_eq!(std::fs::read(&partial).unwrap(), tampered);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    // --force starts again, to the right count.
    let out = run(&["count", "--box", "3x3", "-o", s(&file), "--force"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "6670903752021072936960\n"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "partial files left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_part_of_another_census_or_an_inserted_line_is_refused() {
    let dir = temp_dir("foreign");
    let file = dir.join("c.txt");
    // 2×4 and 4×2 boxes: the same options, other parts (their keys say so).
    let eight = Shape::sudoku(2, 4).unwrap();
    let other = census_into(&file, Shape::sudoku(4, 2).unwrap(), None, Some(1), true);
    let parts = other.parts_done;
    assert!(!other.complete() && parts >= 1, "{other:?}");
    let resume = ["count", "--box", "2x4", "-o", s(&file), "--resume"];
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.starts_with(&format!(
            "sudokit: {}: line {} of its index is a part of another census, not of {eight} by",
            partial_of(&file).display(),
            HEADER_LINES + 1
        )),
        "{message}"
    );
    assert_eq!(whole_parts(&file), parts);
    // A line of another census's file inserted after this census's first part, its hash right.
    let mine = census_into(&file, eight, None, Some(2), true);
    assert!(!mine.complete() && mine.parts_done >= 2, "{mine:?}");
    let theirs = census_line("9×9 (3×3 boxes)", "band-classes", 44);
    let text = part_text(0, mine.parts, 5);
    let entry = IndexEntry::of(text.as_bytes(), 1, Status::Done, part_key(&theirs, 0));
    let data = std::fs::read_to_string(partial_of(&file)).unwrap();
    let index = std::fs::read_to_string(index_of(&file)).unwrap();
    let first = data.lines().next().unwrap().len() + 1;
    let first_index = index
        .lines()
        .take(HEADER_LINES + 1)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    let insert =
        |at: usize, whole: &str, line: &str| format!("{}{line}{}", &whole[..at], &whole[at..]);
    std::fs::write(partial_of(&file), insert(first, &data, &text)).unwrap();
    std::fs::write(
        index_of(&file),
        insert(first_index, &index, &entry.to_line()),
    )
    .unwrap();
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.contains(&format!(
            "line {} of its index is a part of another census",
            HEADER_LINES + 2
        )),
        "{message}"
    );
    // A blank line inserted in the results is no part either.
    std::fs::write(partial_of(&file), insert(first, &data, "\n")).unwrap();
    std::fs::write(index_of(&file), &index).unwrap();
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.contains(&format!("(line {} of its index", HEADER_LINES + 2)),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_counts_on_one_output_are_refused_and_a_kill_leaves_whole_parts() {
    let dir = temp_dir("two-counts");
    let file = dir.join("l8.txt");
    let partial = partial_of(&file);
    // The 1,854 parts of the Latin squares of order 8 take minutes on one thread.
    let order8 = ["count", "--latin", "--order", "8", "--threads", "1"];
    let mut first = sudokit()
        .args(order8)
        .args(["-o", s(&file)])
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let pid = first.id().to_string();
    // Counting: its index header and a first part written.
    wait_for(
        &index_of(&file),
        |t| t.lines().count() > HEADER_LINES && t.contains(&pid),
        &mut first,
    );
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
    // Killed (SIGKILL) while it counts: whatever it wrote is whole parts, resumed as they are.
    first.kill().expect("kill");
    first.wait().expect("ended");
    let parts = whole_parts(&file);
    assert!(parts >= 1);
    let out = run(
        &[
            &order8[..],
            &["-o", s(&file), "--resume", "--time-limit", "0.2", "--json"],
        ]
        .concat(),
        b"",
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("continue with the same command and --resume"),
        "{}",
        stderr(&out)
    );
    assert!(whole_parts(&file) >= parts);
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
    wait_for(&index_of(&file), |t| t.contains(&pid), &mut solve);
    let out = run(&["count", "--box", "2x2", "-o", s(&file), "--force"], b"");
    let message = one_error_line(&out);
    assert!(message.contains(&format!("(process {pid})")), "{message}");
    assert!(partial_of(&file).exists());
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
fn another_commands_results_are_named_for_what_they_are() {
    let dir = temp_dir("batch");
    let file = dir.join("z.txt");
    let partial = partial_of(&file);
    let top95 = path("models/sudoku/9x9/top95.txt");
    stopped_partial(
        &["solve", "--backend", "norvig", "--threads", "1", s(&top95)],
        &file,
        1,
    );
    let results = std::fs::read(&partial).unwrap();
    let resume = ["count", "--box", "2x2", "-o", s(&file), "--resume"];
    let message = one_error_line(&run(&resume, b""));
    assert!(
        message.starts_with(&format!(
            "sudokit: {} holds the results of another run (command: \"count\" here, \"solve\" in the file",
            partial.display()
        )),
        "{message}"
    );
    let message = one_error_line(&run(&resume[..5], b""));
    assert!(
        message.contains(
            "of an interrupted run: continue it with --resume, or start again with --force"
        ),
        "{message}"
    );
    assert_eq!(std::fs::read(&partial).unwrap(), results);
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
    // A partial file that is a link is not followed: what it points at stays as it was.
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
    // A partial file that is a directory or a FIFO: refused, before anything is counted.
    let other = dir.join("d.txt");
    std::fs::create_dir(partial_of(&other)).unwrap();
    nix::unistd::mkfifo(&index_of(&other), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let message = one_error_line(&run(
        &["count", "--box", "2x2", "-o", s(&other), "--force"],
        b"",
    ));
    assert!(
        message.contains("d.txt.partial is a directory"),
        "{message}"
    );
    std::fs::remove_dir(partial_of(&other)).unwrap();
    let message = one_error_line(&run(&["count", "--box", "2x2", "-o", s(&other)], b""));
    assert!(
        message.contains("d.txt.partial.index is a special file"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_special_output_is_written_through_and_keeps_no_parts() {
    let dir = temp_dir("special");
    let out_link = dir.join("out");
    std::os::unix::fs::symlink("/dev/stdout", &out_link).unwrap();
    // Whatever lies beside it is not its partial file.
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
fn a_census_file_of_an_earlier_format_says_how_to_continue() {
    let dir = temp_dir("format1");
    let file = dir.join("l6.txt");
    let partial = partial_of(&file);
    // The census's own resume file of earlier releases: no index beside it.
    let old = "sudokit census checkpoint 2 pid 1         \n\
               {\"census\":\"6×6 Latin square\",\"method\":\"reduced-latin\",\"parts\":49}\n";
    std::fs::write(&partial, old).unwrap();
    let args = ["count", "--latin", "--order", "6", "-o", s(&file)];
    let message = one_error_line(&run(&[&args[..], &["--resume"]].concat(), b""));
    assert!(
        message.contains("has no index of its results")
            && message.ends_with("start again with --force"),
        "{message}"
    );
    let message = one_error_line(&run(&args, b""));
    assert!(
        message.contains("--resume, or start again with --force"),
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
    let census = census_line("7×7 Latin square", "reduced-latin", 221);
    // Part 5 whole (recorded as 0, to show it is kept), part 6 torn by a kill.
    forged(&file, Some(7), &census, &[(5, 0)], Some((6, 0)));
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
    assert_eq!(report["parts"], 221);
    assert!(report["count"].as_u64().unwrap() < 61_479_419_904_000);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "partial files left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
