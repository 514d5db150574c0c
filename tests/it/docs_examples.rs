//! The documentation cannot rot: every `Examples:` line of every `--help` runs on the repository's
//! own files, and every console block of the README and of the guide (`docs/src`) runs with its
//! shown output compared.
//!
//! # Console blocks
//! A block fenced with `` ```console `` holds commands (`$ ` lines, run by `sh -c`) each followed
//! by the output it prints (standard output and standard error together, as on a terminal). In
//! the shown output, a line `...` stands for any number of lines, and `[..]` inside a line for
//! any text (times, sizes that vary). A line `? N` after the output gives the exit status
//! (default 0). The commands of one block run in one fresh directory where `models/` is the
//! repository's, so a block can write files and read them back.
//!
//! A block fenced with `` ```console,release `` takes longer than a debug build should spend
//! (the count of every 9×9 grid): `cargo test` skips it, and the release suite runs it
//! (`cargo test --release --test it -- --ignored docs_release_console_examples`, in `.ci/run`).
//!
//! # A clean tree
//! Every file an example writes must be one the repository's `.gitignore` covers (`git
//! check-ignore`), so that running the documented examples from the repository root leaves `git
//! status` clean: an example that writes a new name needs a line in `.gitignore`.
//!
//! # External tools
//! A line that calls a program that is not installed (minisat, glpsol, ...) is skipped with a
//! note, unless `SUDOKIT_REQUIRE_TOOLS=1` (CI), where it fails if `SUDOKIT_UNAVAILABLE_TOOLS`
//! does not name the program (`common::missing_tool`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{missing_tool, repo, stderr, stdout, tool_required};

/// The directory of the `sudokit` binary under test, put first on `PATH`.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_sudokit"))
        .parent()
        .expect("the binary has a directory")
        .to_path_buf()
}

/// A fresh directory whose `models/` is the repository's.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    #[cfg(unix)]
    std::os::unix::fs::symlink(repo().join("models"), dir.join("models")).expect("models link");
    dir
}

/// The files written under `dir` (not through its `models` link), relative to it.
fn written_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_symlink() && path == dir.join("models") {
                continue;
            }
            if kind.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                files.push(relative.display().to_string());
            }
        }
    }
    files.sort();
    files
}

/// The files of `written` that the repository's `.gitignore` does not cover: what running the
/// examples from the repository root would leave in `git status`. Empty when git is missing or
/// the repository is not a git checkout (a crate unpacked from crates.io).
fn litter(written: &[String]) -> Vec<String> {
    use std::io::Write as _;
    if written.is_empty() {
        return Vec::new();
    }
    let Ok(mut child) = Command::new("git")
        .args(["check-ignore", "--no-index", "--stdin"])
        .current_dir(repo())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        return Vec::new();
    };
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all((written.join("\n") + "\n").as_bytes())
        .expect("git reads the paths");
    drop(stdin);
    let out = child.wait_with_output().expect("git check-ignore runs");
    // Exit 0: some path ignored, 1: none; anything else (128: not a repository) says nothing.
    if !matches!(out.status.code(), Some(0 | 1)) {
        return Vec::new();
    }
    let ignored: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    written
        .iter()
        .filter(|file| !ignored.contains(file))
        .cloned()
        .collect()
}

/// Runs one shell line in `dir` with the binary under test first on `PATH`.
fn shell(line: &str, dir: &Path) -> Output {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {line}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("COLUMNS", "100")
        .output()
        .expect("sh runs")
}

/// The programs a shell line calls: the first word of each command of its pipelines and lists,
/// and the external solvers sudokit is told to run (`--backend ext:NAME`, `--external A,B`).
fn programs(line: &str) -> Vec<String> {
    // Redirections such as `2>&1` are not command separators.
    let line = line.replace(">&", ">");
    let mut programs: Vec<String> = line
        .split(['|', ';', '&', '(', ')'])
        .filter_map(|command| {
            command
                .split_whitespace()
                .find(|word| !word.contains('='))
                .map(str::to_string)
        })
        .collect();
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        let named = match word.strip_prefix("--external") {
            Some("") => words
                .get(i + 1)
                .filter(|w| {
                    !w.starts_with('-')
                        && w.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "_,.-".contains(c))
                })
                .copied(),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        };
        let solvers = named.into_iter().flat_map(|list| list.split(','));
        let backends = word.split(',').filter_map(|b| b.strip_prefix("ext:"));
        programs.extend(solvers.chain(backends).map(str::to_string));
    }
    programs
}

/// The first program of `line` that is neither sudokit, a shell builtin nor installed.
fn missing_program(line: &str) -> Option<String> {
    const ALWAYS: [&str; 12] = [
        "sudokit", "echo", "printf", "cat", "head", "tail", "wc", "grep", "cd", "ls", "sort", "tr",
    ];
    programs(line).into_iter().find(|program| {
        !ALWAYS.contains(&program.as_str())
            && !Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {program}"))
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

/// The `Examples:` lines of a help text.
fn help_examples(help: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.trim_end() == "Examples:" {
            inside = true;
        } else if inside && line.starts_with("  ") && line.contains("sudokit ") {
            // Drop a trailing comment (`# 288`).
            let command = line.trim().split(" #").next().unwrap_or_default();
            examples.push(command.trim_end().to_string());
        } else if inside && !line.starts_with("  ") {
            inside = false;
        }
    }
    examples
}

/// The subcommands of a help text (the `Commands:` section), without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path (`["solve"]`, `["reduce", "latin"]`, ...), from the top-level help down.
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let path = paths[i].clone();
        let help = shell(&format!("sudokit {} --help", path.join(" ")), &repo());
        for sub in subcommands(&stdout(&help)) {
            let mut child = path.clone();
            child.push(sub);
            paths.push(child);
        }
        i += 1;
    }
    paths
}

#[test]
fn every_help_example_runs_on_the_repository_files() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in command_paths() {
        let help = shell(&format!("sudokit {} --help", path.join(" ")), &repo());
        // The examples of one command run in order in one directory (one may read what an
        // earlier one wrote).
        let dir = workdir("help");
        for example in help_examples(&stdout(&help)) {
            if let Some(program) = missing_program(&example) {
                if tool_required(&program) {
                    failures.push(format!("{example}: {program} is not installed"));
                } else {
                    missing_tool(&program, &format!("is not installed: {example}"));
                }
                continue;
            }
            let started = std::time::Instant::now();
            let out = shell(&example, &dir);
            eprintln!("{:.1} s: {example}", started.elapsed().as_secs_f64());
            ran += 1;
            let text = stdout(&out);
            // 0 or 1 (a negative answer the example shows, such as an injected fault); never
            // bad input, never a panic.
            if !matches!(out.status.code(), Some(0 | 1)) || text.contains("panicked") {
                failures.push(format!(
                    "{example}: exit {:?}\n{}",
                    out.status.code(),
                    text.chars().take(600).collect::<String>()
                ));
            }
        }
        for file in litter(&written_files(&dir)) {
            failures.push(format!(
                "sudokit {} --help: an example writes {file}, which .gitignore does not cover",
                path.join(" ")
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(ran >= 30, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// One command of a console block and what it must print.
#[derive(Debug)]
struct Step {
    command: String,
    expected: Vec<String>,
    status: i32,
    /// Where it is written: `FILE:LINE`.
    place: String,
}

/// Which console blocks to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocks {
    /// `` ```console ``: run by `cargo test`.
    Quick,
    /// `` ```console,release ``: run by the release suite.
    Release,
}

/// The console blocks of a Markdown file of one kind, each a list of steps.
fn console_blocks(file: &Path, kind: Blocks) -> Vec<Vec<Step>> {
    let fence = match kind {
        Blocks::Quick => "```console",
        Blocks::Release => "```console,release",
    };
    let text = std::fs::read_to_string(file).expect("docs file");
    let name = file
        .strip_prefix(repo())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut blocks = Vec::new();
    let mut block: Option<Vec<Step>> = None;
    for (k, line) in text.lines().enumerate() {
        match &mut block {
            None if line.trim_end() == fence => block = Some(Vec::new()),
            None => {}
            Some(steps) if line.trim_end() == "```" => {
                blocks.push(std::mem::take(steps));
                block = None;
            }
            Some(steps) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    steps.push(Step {
                        command: command.to_string(),
                        expected: Vec::new(),
                        status: 0,
                        place: format!("{name}:{}", k + 1),
                    });
                } else if let Some(step) = steps.last_mut() {
                    match line.strip_prefix("? ").map(str::parse::<i32>) {
                        Some(Ok(status)) => step.status = status,
                        _ => step.expected.push(line.to_string()),
                    }
                }
            }
        }
    }
    assert!(block.is_none(), "{name}: a console block is not closed");
    blocks
}

/// Whether `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the printed lines match the shown ones (`...` stands for any number of lines).
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim_end() == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

/// The README and every page of the guide.
fn documentation_files() -> Vec<PathBuf> {
    let mut files = vec![repo().join("README.md")];
    let mut pending = vec![repo().join("docs/src")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_console_example_of_the_readme_and_the_guide_prints_what_it_shows() {
    let ran = run_console_blocks(Blocks::Quick);
    assert!(ran >= 10, "only {ran} console commands found");
}

/// Release suite: the console blocks marked `release` (long counts).
#[test]
#[ignore = "release suite: console examples that take long in a debug build (run by .ci/run)"]
fn docs_release_console_examples_print_what_they_show() {
    let ran = run_console_blocks(Blocks::Release);
    assert!(ran >= 1, "no release console block found");
}

/// Runs every console block of one kind and returns the commands run; panics with every
/// mismatch.
fn run_console_blocks(kind: Blocks) -> usize {
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in documentation_files() {
        for steps in console_blocks(&file, kind) {
            let dir = workdir("console");
            let place = steps.first().map(|s| s.place.clone()).unwrap_or_default();
            for step in steps {
                if let Some(program) = missing_program(&step.command) {
                    if tool_required(&program) {
                        failures.push(format!("{}: {program} is not installed", step.place));
                    } else {
                        missing_tool(&program, &format!("is not installed: {}", step.place));
                    }
                    break;
                }
                let out = shell(&step.command, &dir);
                ran += 1;
                let text = stdout(&out);
                let lines: Vec<&str> = text.lines().collect();
                if out.status.code() != Some(step.status) || !output_matches(&step.expected, &lines)
                {
                    failures.push(format!(
                        "{}: $ {}\nexit {:?} (shown {})\n--- shown\n{}\n--- printed\n{}{}",
                        step.place,
                        step.command,
                        out.status.code(),
                        step.status,
                        step.expected.join("\n"),
                        text,
                        stderr(&out)
                    ));
                }
            }
            for file in litter(&written_files(&dir)) {
                failures.push(format!(
                    "{place}: the block writes {file}, which .gitignore does not cover"
                ));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    ran
}

#[test]
fn the_matcher_takes_wildcards_and_elisions() {
    assert!(line_matches("solved in [..] ms", "solved in 1.5 ms"));
    assert!(line_matches("[..]", "anything"));
    assert!(!line_matches("solved in [..] ms", "solved in 1.5 s"));
    assert!(!line_matches("a", "ab"));
    let shown = ["first".to_string(), "...".to_string(), "last".to_string()];
    assert!(output_matches(&shown, &["first", "x", "y", "last"]));
    assert!(output_matches(&shown, &["first", "last"]));
    assert!(!output_matches(&shown, &["first", "x"]));
    assert_eq!(
        programs(
            "sudokit crosscheck a --external z3,clasp | tail -3; sudokit solve a --backend ext:cbc"
        ),
        ["sudokit", "tail", "sudokit", "z3", "clasp", "cbc"]
    );
    assert_eq!(
        programs("sudokit export a --to cnf > p.cnf && minisat p.cnf p.out; X=1 glpsol a"),
        ["sudokit", "minisat", "glpsol"]
    );
    assert_eq!(
        programs("sudokit solve a 2>&1 | tail -3"),
        ["sudokit", "tail"]
    );
}

#[test]
fn the_litter_check_follows_the_gitignore() {
    let has_git = Command::new("git")
        .args(["rev-parse", "--git-dir"])
        .current_dir(repo())
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_git {
        eprintln!("skipped: not a git checkout");
        return;
    }
    let written = [
        "out/p.cnf".to_string(),
        "Highs.log".to_string(),
        "target/x".to_string(),
        "a-new-file.txt".to_string(),
    ];
    assert_eq!(litter(&written), ["a-new-file.txt"]);
}
