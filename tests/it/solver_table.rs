//! The solver table and the external runs at its edges: a table file that is not a small
//! regular file, a broken user table (a warning for the commands that do not run external
//! solvers, an error for those that do), and an external program that outlives a killed sudokit
//! or drops its logs in the user's directory.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{run, s, scratch_dir, script, stderr, stdout, sudokit};

fn scratch(name: &str) -> PathBuf {
    scratch_dir("table", name)
}

const FOUR: &[u8] = b"...3..4114..3...\n";

#[test]
fn a_table_file_that_is_not_a_small_regular_file_is_refused_at_once() {
    // `--solvers /dev/zero` once read on past 4 GB.
    let start = Instant::now();
    let out = run(&["--solvers", "/dev/zero", "solvers"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("/dev/zero: not a regular file"),
        "{}",
        stderr(&out)
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    // The native backend does not need the table: it runs, with a warning.
    let out = run(&["--solvers", "/dev/zero", "solve", "-"], FOUR);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "4123234114323214\n");
    assert!(stderr(&out).contains("warning: the solver table is broken"));
}

#[test]
fn a_misspelt_entry_is_refused_naming_file_entry_and_field_while_native_runs() {
    let dir = scratch("misspelt");
    let table = dir.join("solvers.toml");
    std::fs::write(&table, "[solver.minisat]\ninput = \"cnff\"\n").unwrap();
    let out = run(&["--solvers", s(&table), "solvers"], b"");
    assert_eq!(out.status.code(), Some(2));
    let expected = format!(
        "{}: [solver.minisat] input: unknown export format cnff",
        table.display()
    );
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    for args in [
        vec!["solve", "-"],
        vec!["export", "--to", "cnf", "-"],
        vec!["count", "-"],
    ] {
        let mut all = vec!["--solvers", s(&table)];
        all.extend(args.iter().copied());
        let out = run(&all, FOUR);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&expected),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("warning"), "{args:?}");
    }
    let out = run(
        &[
            "--solvers",
            s(&table),
            "solve",
            "--backend",
            "ext:minisat",
            "-",
        ],
        FOUR,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_entry_without_a_version_probe_says_so() {
    // A new entry states its version probe: none is inherited.
    let dir = scratch("version");
    let table = dir.join("solvers.toml");
    std::fs::write(
        &table,
        "[solver.mine]\nprogram = \"true\"\nargs = [\"{input}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\n",
    )
    .unwrap();
    let out = run(&["--solvers", s(&table), "solvers"], b"");
    assert!(
        stderr(&out).contains("[solver.mine] is a new solver and needs version"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_exit_code_that_says_both_sat_and_unsat_is_refused_naming_file_line_and_column() {
    // `sat_exit = unsat_exit` once loaded, and every exit 10 then read as sat and unsat.
    let dir = scratch("overlap");
    let table = dir.join("solvers.toml");
    std::fs::write(
        &table,
        "[solver.minisat]\nsat_exit = [10]\nunsat_exit = [10]\n",
    )
    .unwrap();
    let expected = format!(
        "{}:3:14: [solver.minisat] unsat_exit: exit code 10 is also in sat_exit",
        table.display()
    );
    let out = run(&["--solvers", s(&table), "solvers"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    let out = run(
        &[
            "--solvers",
            s(&table),
            "solve",
            "--backend",
            "ext:minisat",
            "-",
        ],
        FOUR,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fake solver that says where it runs and then sleeps, in a table of its own.
fn sleeper(dir: &Path) -> (PathBuf, PathBuf) {
    let marker = dir.join("marker");
    let program = script(
        dir,
        "sleeper.sh",
        &format!(
            "echo \"$$ $PWD\" > {}; touch Highs.log; exec sleep 60",
            marker.display()
        ),
    );
    let table = dir.join("sleeper.toml");
    std::fs::write(
        &table,
        format!(
            "[solver.sleeper]\nprogram = \"{}\"\nargs = [\"{{input}}\"]\ninput = \"cnf\"\nanswer = \"dimacs\"\nversion = []\n",
            program.display()
        ),
    )
    .unwrap();
    (table, marker)
}

/// Whether process `pid` still runs (and is not a zombie).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.split(") ").nth(1).is_some_and(|s| s.starts_with('Z')))
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_sudokit_leaves_no_solver_running_and_no_scratch_directory() {
    let dir = scratch("sigkill");
    let (table, marker) = sleeper(&dir);
    let user_dir = dir.join("user");
    std::fs::create_dir_all(&user_dir).unwrap();
    let mut child = sudokit()
        .args([
            "--solvers",
            s(&table),
            "solve",
            "--backend",
            "ext:sleeper",
            "-",
        ])
        .current_dir(&user_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(FOUR).unwrap();
    }
    let start = Instant::now();
    while !marker.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the solver did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    let said = std::fs::read_to_string(&marker).unwrap();
    let (pid, scratch_dir) = said.trim().split_once(' ').unwrap();
    // The program runs in its scratch directory: its log is not in the user's.
    assert!(scratch_dir.contains("sudokit-ext-"), "{scratch_dir}");
    assert!(!user_dir.join("Highs.log").exists());
    assert!(alive(pid));
    child.kill().unwrap(); // SIGKILL: sudokit cannot clean up itself
    child.wait().unwrap();
    let start = Instant::now();
    while alive(pid) || Path::new(scratch_dir).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "solver {pid} alive: {}, scratch {scratch_dir} there: {}",
            alive(pid),
            Path::new(scratch_dir).exists()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_timed_out_solver_leaves_no_scratch_directory() {
    let dir = scratch("timeout");
    let (table, marker) = sleeper(&dir);
    let out = run(
        &[
            "--solvers",
            s(&table),
            "solve",
            "--time-limit",
            "0.5",
            "--backend",
            "ext:sleeper",
            "-",
        ],
        FOUR,
    );
    assert_eq!(stdout(&out), "unknown (time limit)\n", "{}", stderr(&out));
    let said = std::fs::read_to_string(&marker).unwrap();
    let (_, scratch_dir) = said.trim().split_once(' ').unwrap();
    assert!(!Path::new(scratch_dir).exists(), "{scratch_dir}");
    std::fs::remove_dir_all(&dir).unwrap();
}
