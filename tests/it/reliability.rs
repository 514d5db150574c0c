//! Output that never destroys a file, limits that never panic, diagnostics that survive a full
//! standard error, and a `--resume` that continues only its own run. Each test is a reproducer
//! of a fault once found.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::{assert_no_panic, path, s, stderr, stdout, sudokit};

const E4: &str = "...3..4114..3...\n";

/// A fresh directory for one test's files, holding the 4×4 puzzle file `e4.txt`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-rel-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("e4.txt"), E4).expect("puzzle file");
    dir
}

fn solve_to(dir: &Path, out: &Path) -> std::process::Output {
    sudokit()
        .args(["solve", s(&dir.join("e4.txt")), "-o", s(out)])
        .output()
        .expect("runs")
}

#[cfg(unix)]
#[test]
fn output_goes_through_symlinks_and_into_fifos_and_devices() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = temp_dir("special");
    // A symbolic link: the target is written, the link stays a link.
    let target = dir.join("target.txt");
    let link = dir.join("link.txt");
    symlink("target.txt", &link).unwrap();
    let out = solve_to(&dir, &link);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "4123234114323214\n"
    );
    // A FIFO: written through, still a FIFO afterwards.
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = solve_to(&dir, &fifo);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), "4123234114323214\n");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A character device: written directly, never renamed over.
    let puzzle = dir.join("e4.txt");
    for command in [
        vec!["solve", "-o", "/dev/null"],
        vec!["export", "--to", "cnf", "-o", "/dev/null"],
    ] {
        let mut full = command.clone();
        full.push(s(&puzzle));
        let out = sudokit().args(&full).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{full:?}: {}", stderr(&out));
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(
            meta.file_type().is_char_device(),
            "{full:?} replaced /dev/null"
        );
    }
    // export -o through a link, and the report of a chain.
    let cnf_target = dir.join("real.cnf");
    let cnf_link = dir.join("puzzle.cnf");
    symlink(&cnf_target, &cnf_link).unwrap();
    let out = sudokit()
        .args([
            "export",
            "--to",
            "cnf",
            s(&dir.join("e4.txt")),
            "-o",
            s(&cnf_link),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&cnf_target)
            .unwrap()
            .contains("p cnf")
    );
    assert!(
        std::fs::symlink_metadata(&cnf_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let report_target = dir.join("page.html");
    let report_link = dir.join("report.html");
    symlink(&report_target, &report_link).unwrap();
    let out = sudokit()
        .args([
            "reduce",
            "latin",
            s(&path("models/latin/course.txt")),
            "--solve",
        ])
        .args(["--report", s(&report_link)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&report_target)
            .unwrap()
            .contains("<svg")
    );
    assert!(
        std::fs::symlink_metadata(&report_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_is_refused_as_an_output_file() {
    let dir = temp_dir("directory");
    let out = solve_to(&dir, &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
    assert!(dir.is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn huge_limits_and_a_full_standard_error_do_not_panic() {
    let dir = temp_dir("limits");
    let puzzle = dir.join("e4.txt");
    for args in [
        vec!["solve", "--time-limit", "1e20", s(&puzzle)],
        vec!["--timeout", "1e300", "solve", s(&puzzle)],
        vec!["count", "--time-limit", "1e30", s(&puzzle)],
        vec!["grade", "--time-limit", "1e20", "--runtime", s(&puzzle)],
    ] {
        let out = sudokit().args(&args).output().unwrap();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    // Every backend takes a time limit beyond any deadline an `Instant` holds.
    // (The `ext` family needs a solver name and an installed program: its limits are tested in
    // the external-solver suite.)
    for entry in sudokit::solve::registry::ENTRIES
        .iter()
        .filter(|e| e.is_built() && e.family != "ext")
    {
        let args = [
            "solve",
            "--backend",
            entry.family,
            "--time-limit",
            "1e20",
            s(&puzzle),
        ];
        let out = sudokit().args(args).output().unwrap();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let mut count = args.to_vec();
        count[0] = "count";
        let out = sudokit().args(&count).output().unwrap();
        assert_no_panic(&out);
    }
    #[cfg(unix)]
    {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = sudokit()
            .args(["solve", "no-such-file.txt"])
            .stderr(Stdio::from(full))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "a diagnostic to /dev/full");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_count_flag_refuses_zero() {
    let puzzle = path("models/sudoku/4x4/kr_4x4_sample.txt");
    for args in [
        vec!["solve", "--node-limit", "0"],
        vec!["solve", "--time-limit", "0"],
        vec!["count", "--limit", "0"],
        vec!["solve", "--threads", "0"],
        vec!["solve", "--max-n", "0"],
        vec!["grade", "--node-limit", "0"],
    ] {
        let mut full = args.clone();
        full.push(s(&puzzle));
        let out = sudokit().args(&full).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{full:?}");
        let message = stderr(&out);
        assert!(
            message.contains("at least 1") || message.contains("positive number"),
            "{full:?}: {message}"
        );
    }
}

#[test]
fn resume_refuses_what_its_run_did_not_write() {
    let dir = temp_dir("resume");
    let puzzle = dir.join("many.txt");
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).unwrap();
    std::fs::write(&puzzle, top95.repeat(20)).unwrap();
    let out = dir.join("out.txt");
    let partial = dir.join("out.txt.partial");
    let index = dir.join("out.txt.partial.index");
    let args = ["solve", "--threads", "1", s(&puzzle)];
    let resume = |extra: &[&str]| {
        sudokit()
            .args(args)
            .args(["-o", s(&out), "--resume"])
            .args(extra)
            .output()
            .expect("runs")
    };
    let said = |refused: &std::process::Output, what: &str| {
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{what}: {}",
            stderr(refused)
        );
        assert!(stderr(refused).contains(what), "{}", stderr(refused));
    };
    // No index: a partial file left by something else.
    std::fs::write(&partial, "garbage\n").unwrap();
    said(&resume(&[]), "has no index of its results");
    // A genuine partial file and index, but results that are not the ones written.
    crate::sink::stopped_partial(&args, &out, 3);
    let written = std::fs::read_to_string(&partial).unwrap();
    std::fs::write(&partial, written.replacen('1', "2", 1)).unwrap();
    said(&resume(&[]), "was changed after it was written");
    std::fs::write(&partial, &written).unwrap();
    // A JSON run resumed after a text run, another backend: another run.
    said(&resume(&["--json"]), "holds the results of another run");
    said(
        &resume(&["--backend", "dlx"]),
        "backend: \"dlx\" here, \"native\" in the file",
    );
    // Another input (its content is part of the run's identity; standard input, which is not,
    // is refused by the fingerprints of its puzzles: see sink::a_refused_resume_leaves_no_files).
    let other = dir.join("other.txt");
    std::fs::write(&other, top95.lines().rev().collect::<Vec<_>>().join("\n")).unwrap();
    let refused = sudokit()
        .args(["solve", "--threads", "1", s(&other)])
        .args(["-o", s(&out), "--resume"])
        .output()
        .unwrap();
    said(&refused, "the input is");
    assert_eq!(
        std::fs::read_to_string(&partial).unwrap(),
        written,
        "untouched"
    );
    // Fewer puzzles.
    let short = dir.join("short.txt");
    std::fs::write(&short, top95.lines().next().unwrap().to_string() + "\n").unwrap();
    let refused = sudokit()
        .args(["solve", "--threads", "1", s(&short)])
        .args(["-o", s(&out), "--resume"])
        .output()
        .unwrap();
    said(&refused, "short.txt here");
    // A damaged index.
    let entries = std::fs::read_to_string(&index).unwrap();
    let mut lines: Vec<&str> = entries.lines().collect();
    lines[2] = "not an entry";
    std::fs::write(&index, lines.join("\n") + "\n").unwrap();
    said(&resume(&[]), "line 3 of its index is damaged");
    // A complete file has nothing to resume.
    std::fs::remove_file(&partial).unwrap();
    std::fs::remove_file(&index).unwrap();
    let done = sudokit().args(args).args(["-o", s(&out)]).output().unwrap();
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let refused = resume(&[]);
    said(&refused, "nothing to resume");
    assert_eq!(stdout(&refused), "");
    // And resuming what was never started starts it.
    std::fs::remove_file(&out).unwrap();
    let started = resume(&[]);
    assert_eq!(started.status.code(), Some(0), "{}", stderr(&started));
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mip_returns_at_its_time_limit_on_a_puzzle_it_cannot_finish() {
    // microlp reads its clock every thousand pivots, and counting splits the puzzle into parts:
    // the limit must hold for the whole call, not for each part or each thousand pivots.
    let puzzle = std::fs::read_to_string(path("models/sudoku/25x25/acs_general_40pct.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    for command in ["solve", "count"] {
        let out = sudokit()
            .args([
                command,
                "-",
                "--backend",
                "mip",
                "--time-limit",
                "0.3",
                "--json",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(puzzle.as_bytes())?;
                child.wait_with_output()
            })
            .expect("runs");
        assert_no_panic(&out);
        let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        let reason = if command == "solve" {
            &row["reason"]
        } else {
            &row["stopped"]
        };
        assert_eq!(reason, "time limit", "{row}");
        // A thousand pivots of a debug build, or the parts started after the deadline, took
        // seconds more: the limit must hold, with a margin of 10 for a loaded machine.
        let elapsed = row["stats"]["elapsed_us"].as_f64().unwrap();
        assert!(elapsed < 3_000_000.0, "{command}: {elapsed} µs: {row}");
    }
}

/// What a directory holds, entry by entry: the kind of each entry and what it says (a file's
/// bytes, a link's target, a subdirectory's listing).
#[cfg(unix)]
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, String> {
    use std::os::unix::fs::FileTypeExt;
    let mut entries = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().unwrap();
        let what = if kind.is_symlink() {
            format!(
                "link to {}",
                std::fs::read_link(entry.path()).unwrap().display()
            )
        } else if kind.is_fifo() {
            "fifo".to_string()
        } else if kind.is_dir() {
            format!("dir {:?}", snapshot(&entry.path()))
        } else {
            format!("file {:?}", std::fs::read(entry.path()).unwrap())
        };
        entries.insert(name, what);
    }
    entries
}

#[cfg(unix)]
#[test]
fn output_options_change_nothing_but_the_file_they_name() {
    // Every command with an output option, against every kind of target: the directory holds
    // the same entries afterwards except the one regular file written (a link's target, for a
    // link), a FIFO gets the bytes and stays a FIFO, /dev/null stays a device, and a
    // directory is refused without a change.
    use std::os::unix::fs::{FileTypeExt, symlink};
    let latin = path("models/latin/partial.txt");
    let commands: [(&str, Vec<&str>, &str); 5] = [
        ("solve -o", vec!["solve", "e4.txt", "-o"], "4123"),
        ("count -o", vec!["count", "e4.txt", "-o"], "1"),
        ("info -o", vec!["info", "e4.txt", "-o"], "4×4"),
        (
            "export -o",
            vec!["export", "--to", "cnf", "e4.txt", "-o"],
            "p cnf",
        ),
        (
            "reduce latin --report",
            vec!["reduce", "latin", "--solve", s(&latin), "--report"],
            "<svg",
        ),
    ];
    // (target, the entry whose contents change, expected exit code)
    let targets: [(&str, Option<&str>, i32); 7] = [
        ("new.txt", Some("new.txt"), 0),
        ("keep.txt", Some("keep.txt"), 0),
        ("link_to_keep", Some("keep.txt"), 0),
        ("dangling", Some("missing.txt"), 0),
        ("sub", None, 2),
        ("pipe", None, 0),
        ("/dev/null", None, 0),
    ];
    for (label, args, says) in &commands {
        for &(target, changed, code) in &targets {
            if *label == "export -o" && target == "sub" {
                // `export -o DIR` writes one file per puzzle into DIR, as documented.
                continue;
            }
            let dir = temp_dir("names-only");
            std::fs::write(dir.join("keep.txt"), "keep\n").unwrap();
            symlink("keep.txt", dir.join("link_to_keep")).unwrap();
            symlink("missing.txt", dir.join("dangling")).unwrap();
            std::fs::create_dir(dir.join("sub")).unwrap();
            std::fs::write(dir.join("sub/inner.txt"), "inner\n").unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(dir.join("pipe"))
                .status()
                .unwrap();
            assert!(made.success());
            let reader = (target == "pipe").then(|| {
                let fifo = dir.join("pipe");
                std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
            });
            let before = snapshot(&dir);
            let out = sudokit()
                .current_dir(&dir)
                .args(args)
                .arg(target)
                .stdout(Stdio::null())
                .output()
                .unwrap();
            assert_no_panic(&out);
            let case = format!("{label} {target}");
            assert_eq!(out.status.code(), Some(code), "{case}: {}", stderr(&out));
            if let Some(reader) = reader {
                assert!(reader.join().unwrap().contains(says), "{case}");
            }
            let mut after = snapshot(&dir);
            if let Some(name) = changed {
                let written = after.remove(name).expect("the named file exists");
                assert!(written.starts_with("file "), "{case}: {written}");
                let bytes = std::fs::read_to_string(dir.join(name)).unwrap();
                assert!(bytes.contains(says), "{case}: {bytes}");
                let mut before = before.clone();
                before.remove(name);
                assert_eq!(before, after, "{case}: another entry changed");
            } else {
                assert_eq!(before, after, "{case}: the directory changed");
            }
            assert!(
                std::fs::metadata("/dev/null")
                    .unwrap()
                    .file_type()
                    .is_char_device()
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[test]
fn a_stream_of_blank_lines_stops_at_the_timeout() {
    // Skipping blank lines once ignored the stop flag: `info` read on until the hard stop
    // (exit 124, the grace after the deadline). Now the reader stops at the deadline.
    let start = std::time::Instant::now();
    let mut child = sudokit()
        .args(["--timeout", "1", "info", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        let blank = vec![b'\n'; 1 << 16];
        // Until sudokit closes its end (or a bound far beyond the test's).
        for _ in 0..100_000 {
            if input.write_all(&blank).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().expect("runs");
    let elapsed = start.elapsed();
    feeder.join().unwrap();
    assert_no_panic(&out);
    assert_ne!(out.status.code(), Some(124), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stopped (--timeout or a signal) before the first puzzle"),
        "{}",
        stderr(&out)
    );
    assert!(elapsed.as_secs() < 30, "{elapsed:?}");
}

/// Runs `sudokit args` with `stdin`, killing it if it has not ended after `limit` (a hang is a
/// failure, not a stuck test).
fn run_bounded(args: &[&str], stdin: &[u8], limit: std::time::Duration) -> std::process::Output {
    use std::io::Write;
    let mut child = sudokit()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let start = std::time::Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("sudokit {args:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("runs")
}

#[cfg(unix)]
#[test]
fn a_fifo_where_a_proof_goes_is_refused_not_waited_on() {
    let dir = temp_dir("proof-fifo");
    let proofs = dir.join("proofs");
    std::fs::create_dir_all(&proofs).unwrap();
    for name in ["line1.cnf", "line1.lrat"] {
        let status = std::process::Command::new("mkfifo")
            .arg(proofs.join(name))
            .status()
            .expect("mkfifo");
        assert!(status.success());
    }
    // An unsat puzzle (its proof is written) whose givens do not clash.
    let unsat =
        "38..6..1..291.3...51...7.29...4.176.7.859234..41...9.....7.48961....6....9...51..\n";
    let out = run_bounded(
        &["solve", "--backend", "sat", "--proof", s(&proofs), "-"],
        unsat.as_bytes(),
        std::time::Duration::from_secs(60),
    );
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("line1.cnf is not a regular file"),
        "{}",
        stdout(&out)
    );
    // A file where the proof directory goes is named as such.
    let file = dir.join("e4.txt");
    let out = run_bounded(
        &["solve", "--backend", "sat", "--proof", s(&file), s(&file)],
        b"",
        std::time::Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a file, not a directory"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
