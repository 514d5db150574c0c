//! Every batch command keeps its output whole: the per-puzzle commands (`info`, `verify`,
//! `generate`, `count`, `solve`) continue a torn `-o FILE` with `--resume` to the file an
//! uninterrupted run writes, and the commands with closing tables (`grade`, `minimize`,
//! `crosscheck`, `reduce latin --solve`) stopped by `--timeout` leave whole results only, say how
//! far they got, and exit 1. A run killed with SIGKILL at any point, resumed and killed again,
//! ends with the file an uninterrupted run writes.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::{path, s, stderr, sudokit};
use crate::sink::stopped_partial;

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-resume-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `args` with `-o FILE` in `dir`; then leaves a genuine partial file of the same run
/// (stopped by `--timeout`), tears its last result as a kill -9 could, and resumes it: the
/// resumed file must be the full one.
fn resume_matches_a_full_run(dir: &Path, name: &str, args: &[&str]) {
    let full = dir.join(format!("{name}.full"));
    let out = sudokit()
        .args(args)
        .args(["-o", s(&full)])
        .output()
        .expect("full run");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{name}: {}",
        stderr(&out)
    );
    let expected = std::fs::read(&full).expect("full output");
    let torn = dir.join(format!("{name}.out"));
    let kept = stopped_partial(args, &torn, 3);
    let partial = dir.join(format!("{name}.out.partial"));
    // (Not always a prefix of the full output: the items in flight at the deadline end
    // `unknown (time limit)`, which the resumed run redoes.)
    let mut bytes = std::fs::read(&partial).expect("partial");
    // Half of the last result gone, as a kill -9 could leave it.
    let last = bytes[..bytes.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    bytes.truncate(last + (bytes.len() - last) / 2);
    std::fs::write(&partial, &bytes).expect("torn partial");
    // A resumed run stopped at once keeps what it found whole, and says so.
    let stopped = sudokit()
        .args(args)
        .args(["-o", s(&torn), "--resume", "--timeout", "0.000001"])
        .output()
        .expect("stopped resumed run");
    let message = stderr(&stopped);
    assert_eq!(stopped.status.code(), Some(1), "{name}: {message}");
    assert!(
        message.contains(&format!("{} kept from before, 0 by this run", kept - 1))
            || message.contains(&format!("{} kept from before", kept - 1)),
        "{name}: {message}"
    );
    let out = sudokit()
        .args(args)
        .args(["-o", s(&torn), "--resume"])
        .output()
        .expect("resumed run");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{name}: {}",
        stderr(&out)
    );
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&torn).expect("resumed output")),
        String::from_utf8_lossy(&expected),
        "{name}: the resumed output differs from the full run's"
    );
    assert!(!partial.exists(), "{name}: partial left");
}

#[test]
fn per_puzzle_commands_resume_a_torn_output() {
    let dir = temp_dir("per-puzzle");
    let many = many_puzzles(&dir, 40);
    let pairs = dir.join("pairs.txt");
    let easy = std::fs::read_to_string(path("models/sudoku/9x9/easy.txt")).unwrap();
    let solutions = std::fs::read_to_string(path("models/sudoku/9x9/easy.solutions.txt")).unwrap();
    std::fs::write(&pairs, easy.repeat(300)).unwrap();
    let candidates = dir.join("candidates.txt");
    std::fs::write(&candidates, solutions.repeat(300)).unwrap();
    let one = ["--threads", "1"];
    resume_matches_a_full_run(&dir, "info", &[&["info", s(&many)][..], &one].concat());
    resume_matches_a_full_run(
        &dir,
        "info-json",
        &[&["info", "--json", s(&many)][..], &one].concat(),
    );
    resume_matches_a_full_run(
        &dir,
        "verify",
        &[&["verify", s(&pairs), s(&candidates)][..], &one].concat(),
    );
    resume_matches_a_full_run(
        &dir,
        "generate",
        &[
            "generate",
            "--box",
            "2x3",
            "--count",
            "400",
            "--seed",
            "5",
            "--threads",
            "1",
        ],
    );
    resume_matches_a_full_run(
        &dir,
        "generate-json",
        &[
            "generate",
            "--box",
            "2x2",
            "--count",
            "2000",
            "--json",
            "--threads",
            "1",
        ],
    );
    let top95 = path("models/sudoku/9x9/top95.txt");
    resume_matches_a_full_run(
        &dir,
        "count",
        &[&["count", "--limit", "3", s(&top95)][..], &one].concat(),
    );
    resume_matches_a_full_run(
        &dir,
        "solve-norvig",
        &[&["solve", "--backend", "norvig", s(&top95)][..], &one].concat(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of `copies` rounds of the 95 puzzles of top95.
fn many_puzzles(dir: &Path, copies: usize) -> PathBuf {
    let top95 = std::fs::read_to_string(path("models/sudoku/9x9/top95.txt")).expect("top95");
    let file = dir.join("many.txt");
    std::fs::write(&file, top95.repeat(copies)).expect("many");
    file
}

#[test]
fn commands_with_tables_stop_at_a_result_boundary() {
    let dir = temp_dir("tables");
    let many = many_puzzles(&dir, 400);
    let latin: String = std::fs::read_to_string(path("models/latin/partial.txt"))
        .expect("latin")
        .repeat(2000);
    let squares = dir.join("squares.txt");
    std::fs::write(&squares, latin).expect("squares");
    let runs: [(&str, Vec<&str>); 4] = [
        ("grade", vec!["grade", "--json", s(&many)]),
        ("minimize", vec!["minimize", "--json", s(&many)]),
        (
            "crosscheck",
            vec!["crosscheck", "--json", "--backends", "native,dlx", s(&many)],
        ),
        (
            "reduce latin --solve",
            vec!["reduce", "latin", "--solve", "--json", s(&squares)],
        ),
    ];
    for (name, args) in runs {
        let out = sudokit()
            .args(["--timeout", "0.5"])
            .args(&args)
            .output()
            .expect("runs");
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {message}");
        assert!(
            message.contains("--timeout 0.5 s reached"),
            "{name}: {message}"
        );
        // These commands have no --resume, so the summary must not suggest it.
        assert!(!message.contains("--resume"), "{name}: {message}");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "{name}: torn output"
        );
        // Every line is a whole JSON object: nothing was cut inside a result.
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}: a torn line ({e}): {line}"));
            assert!(value.is_object(), "{name}: {line}");
        }
        let results = text.lines().count();
        assert!(
            results < 38_000,
            "{name}: the whole batch ran ({results} lines)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The results listed whole in an index (its complete lines after the two of the header; 0
/// without one).
fn listed(index: &Path) -> usize {
    std::fs::read_to_string(index).map_or(0, |text| {
        text.split_inclusive('\n')
            .filter(|line| line.ends_with('\n'))
            .count()
            .saturating_sub(2)
    })
}

/// xorshift64*: the delays of the kills, from a seed the test prints.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn sigkill_at_twenty_random_points_loses_nothing_written() {
    let dir = temp_dir("sigkill");
    let many = many_puzzles(&dir, 50);
    let full = dir.join("full.txt");
    let args = ["solve", "--threads", "2", s(&many)];
    let start = Instant::now();
    let run = sudokit()
        .args(args)
        .args(["-o", s(&full)])
        .output()
        .expect("full run");
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let expected = std::fs::read(&full).expect("full output");
    // The kills come within a twentieth of a full run each (not a timed assertion: only the
    // spread of the kill points follows the machine's speed), so twenty of them leave work to
    // the last resume.
    let span = (start.elapsed().as_millis() as u64 / 20).max(20);

    let seed = std::env::var("SUDOKIT_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    println!("kill delays seeded with SUDOKIT_KILL_SEED={seed}");
    let mut random = seed;
    let out = dir.join("out.txt");
    let partial = dir.join("out.txt.partial");
    let indexes = [
        dir.join("out.txt.partial.index"),
        dir.join("out.txt.partial.next.index"),
    ];
    let (mut written, mut kills) = (0, 0);
    for kill in 1..=20 {
        let mut child = sudokit()
            .args(args)
            .args(["-o", s(&out), "--resume"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let delay = Duration::from_millis(next_random(&mut random) % span);
        std::thread::sleep(delay);
        let ended_first = child.try_wait().expect("waits").is_some();
        let _ = child.kill();
        let status = child.wait().expect("waits");
        assert!(
            !ended_first || status.success(),
            "seed {seed}, kill {kill}: the run failed: {status:?}"
        );
        if out.exists() {
            // The run ended before the kill: nothing more to interrupt.
            break;
        }
        kills += 1;
        // Whatever the kill interrupted (a result, its index line, the merge of a resume), the
        // results listed before it are listed still.
        let now = indexes.iter().map(|index| listed(index)).max().unwrap_or(0);
        assert!(
            now >= written,
            "seed {seed}, kill {kill} after {delay:?}: {now} results listed, {written} before"
        );
        written = now;
    }
    println!("{kills} kills, {written} results listed after the last");
    assert!(written > 0, "seed {seed}: no kill came after a result");
    if !out.exists() {
        let resumed = sudokit()
            .args(args)
            .args(["-o", s(&out), "--resume"])
            .output()
            .expect("resumed run");
        assert_eq!(
            resumed.status.code(),
            Some(0),
            "seed {seed}: {}",
            stderr(&resumed)
        );
    }
    assert!(
        std::fs::read(&out).expect("output") == expected,
        "seed {seed}: the resumed output differs from the full run's"
    );
    assert!(!partial.exists(), "seed {seed}: partial left");
    for index in &indexes {
        assert!(!index.exists(), "seed {seed}: {} left", index.display());
    }
    assert!(
        !dir.join("out.txt.partial.next").exists(),
        "seed {seed}: merged file left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
