//! External solvers as cross-check participants: minisat and picosat on the exported CNF,
//! glpsol and cbc on the exported CPLEX LP file, run as separate processes on files in a scratch
//! directory, their answers read back with [`crate::format`]'s answer readers, decoded and
//! verified ([`crate::format::decode_answer`]).
//!
//! - **CNF tools** (minisat, picosat) count like the `sat` backend: after each verified solution
//!   a clause blocking its x variables is added and the tool runs again, up to the limit. The
//!   formula is the extended encoding (Lynce & Ouaknine) with pairwise at-most-one.
//! - **LP tools** (glpsol, cbc) only solve: a solution found claims "at least one", an
//!   infeasible answer claims "none" (see the claims of [`super`]).
//!
//! A time budget is enforced by killing the process at the deadline (the answer is then
//! `unknown (time limit)`); a node budget does not apply to an external tool. A tool that is not
//! on the `PATH` makes its runs [`Verdict::Skipped`]; an answer that cannot be read, or that
//! decodes to a grid the verifier rejects, is [`Verdict::Failed`].
//!
//! # Complexity
//! The tool's own work, plus writing and reading files linear in the formula (times the number
//! of solutions counted, for the CNF tools).
//!
//! # References
//! - N. Eén, N. Sörensson, "An extensible SAT-solver" (minisat), SAT 2003.
//! - A. Biere, "PicoSAT essentials", JSAT 4 (2008).
//! - GLPK (glpsol) and COIN-OR CBC manuals; the answer formats are those of
//!   [`crate::format::dimacs`] and [`crate::format::mip_answer`].

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Verdict;
use crate::encode::cnf::encode;
use crate::encode::ilp::Ilp;
use crate::encode::{ClauseSink, Cnf};
use crate::format::dimacs;
use crate::format::{AnswerReader, Decoded, ExportOptions, decode_answer, find_reader, lp};
use crate::grid::Grid;
use crate::solve::sat::blocking_clause;
use crate::solve::{Limits, StopReason};

/// An external solver sudokit knows how to drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    /// minisat: `minisat IN.cnf OUT` (result file).
    Minisat,
    /// picosat: `picosat IN.cnf` (SAT-competition answer on standard output).
    Picosat,
    /// glpsol: `glpsol --lp IN.lp -o OUT` (printable report).
    Glpsol,
    /// cbc: `cbc IN.lp solve solu OUT`.
    Cbc,
}

/// Every tool, in the order `--external` adds them.
pub const TOOLS: [Tool; 4] = [Tool::Minisat, Tool::Picosat, Tool::Glpsol, Tool::Cbc];

/// Scratch directories handed out by this process.
static SCRATCH: AtomicU64 = AtomicU64::new(0);

/// What went wrong with one call of a tool (turned into a verdict).
enum Trouble {
    Skipped(String),
    Failed(String),
    TimeLimit,
}

impl Tool {
    /// The program name looked up on the `PATH`.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Minisat => "minisat",
            Tool::Picosat => "picosat",
            Tool::Glpsol => "glpsol",
            Tool::Cbc => "cbc",
        }
    }

    /// Whether the program is an executable file somewhere on the `PATH`.
    pub fn installed(self) -> bool {
        std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|dir| is_executable(&dir.join(self.program())))
        })
    }

    /// Whether the tool can count (CNF tools, by blocking clauses) or only solve (LP tools).
    pub fn counts(self) -> bool {
        matches!(self, Tool::Minisat | Tool::Picosat)
    }

    /// Runs the tool on `puzzle`: counts up to `limit` (CNF tools) or solves (LP tools).
    pub fn run(self, puzzle: &Grid, limit: u64, limits: &Limits) -> Verdict {
        if !self.installed() {
            return Verdict::Skipped(format!("{} is not on the PATH", self.program()));
        }
        let dir = std::env::temp_dir().join(format!(
            "sudokit-crosscheck-{}-{}",
            std::process::id(),
            SCRATCH.fetch_add(1, Ordering::Relaxed)
        ));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return Verdict::Skipped(format!("cannot create {}: {e}", dir.display()));
        }
        let deadline = limits.time.and_then(|t| Instant::now().checked_add(t));
        let verdict = if self.counts() {
            self.count_cnf(puzzle, limit, deadline, &dir)
        } else {
            self.solve_lp(puzzle, deadline, &dir)
        };
        let _ = std::fs::remove_dir_all(&dir);
        verdict
    }

    /// The answer form of the tool, in the registry of [`crate::format`].
    fn reader(self) -> &'static AnswerReader {
        let name = match self {
            Tool::Minisat => "minisat",
            Tool::Picosat => "dimacs",
            Tool::Glpsol => "glpsol",
            Tool::Cbc => "cbc",
        };
        find_reader(name).expect("a registered answer form")
    }

    /// Runs the tool once on `input` (its answer to `output`) and reads the answer back,
    /// decoded and verified.
    fn call(
        self,
        puzzle: &Grid,
        input: &Path,
        output: &Path,
        deadline: Option<Instant>,
    ) -> Result<Decoded, Trouble> {
        let arg = |s: &'static str| Path::new(s);
        let (args, stdout): (Vec<&Path>, Option<&Path>) = match self {
            Tool::Minisat => (vec![input, output], None),
            Tool::Picosat => (vec![input], Some(output)),
            Tool::Glpsol => (vec![arg("--lp"), input, arg("-o"), output], None),
            Tool::Cbc => (vec![input, arg("solve"), arg("solu"), output], None),
        };
        run_process(self.program(), &args, stdout, deadline)?;
        let file = File::open(output).map_err(|e| io_trouble(output, e))?;
        decode_answer(
            puzzle,
            self.reader(),
            &ExportOptions::default(),
            &mut BufReader::new(file),
        )
        .map_err(|e| Trouble::Failed(format!("unreadable answer: {e}")))
    }

    fn count_cnf(
        self,
        puzzle: &Grid,
        limit: u64,
        deadline: Option<Instant>,
        dir: &Path,
    ) -> Verdict {
        let options = ExportOptions::default().cnf;
        let mut cnf = Cnf::new();
        let encoded = encode(puzzle, options, &mut cnf);
        let comments = dimacs::cnf_comments(puzzle, options, &encoded);
        let mut solutions: Vec<Grid> = Vec::new();
        let mut count = 0u64;
        let input = dir.join("puzzle.cnf");
        let output = dir.join("answer.out");
        loop {
            if count >= limit {
                return counted(count, false, None, solutions);
            }
            let step = || -> Result<Decoded, Trouble> {
                let file = File::create(&input).map_err(|e| io_trouble(&input, e))?;
                dimacs::write_formula(&cnf, &comments, BufWriter::new(file))
                    .map_err(|e| io_trouble(&input, e))?;
                self.call(puzzle, &input, &output, deadline)
            };
            let grid = match step() {
                Err(trouble) => return partial(trouble, count, solutions),
                Ok(Decoded::Solution(grid)) => grid,
                Ok(Decoded::Unsat) => return counted(count, true, None, solutions),
                Ok(Decoded::Unknown) => return partial(Trouble::TimeLimit, count, solutions),
                Ok(other) => return Verdict::Failed(wrong_answer(other)),
            };
            if solutions.contains(&grid) {
                return Verdict::Failed("returned a blocked solution again".into());
            }
            let blocking = blocking_clause(puzzle, &encoded.map, &grid);
            count += 1;
            if solutions.len() < 2 {
                solutions.push(grid);
            }
            if blocking.is_empty() {
                // Nothing was open: the only solution is the puzzle itself.
                return counted(count, true, None, solutions);
            }
            cnf.add_clause(&blocking);
        }
    }

    fn solve_lp(self, puzzle: &Grid, deadline: Option<Instant>, dir: &Path) -> Verdict {
        let input = dir.join("puzzle.lp");
        let output = dir.join("answer.sol");
        let step = || -> Result<Decoded, Trouble> {
            let file = File::create(&input).map_err(|e| io_trouble(&input, e))?;
            lp::write_lp(&Ilp::new(puzzle), BufWriter::new(file))
                .map_err(|e| io_trouble(&input, e))?;
            self.call(puzzle, &input, &output, deadline)
        };
        match step() {
            Err(trouble) => partial(trouble, 0, Vec::new()),
            Ok(Decoded::Unsat) => counted(0, true, None, Vec::new()),
            Ok(Decoded::Unknown) => partial(Trouble::TimeLimit, 0, Vec::new()),
            // One solution, and the tool cannot say whether there are more.
            Ok(Decoded::Solution(grid)) => counted(1, false, None, vec![grid]),
            Ok(other) => Verdict::Failed(wrong_answer(other)),
        }
    }
}

/// Why an answer that is not a solution fails.
fn wrong_answer(decoded: Decoded) -> String {
    match decoded {
        Decoded::Invalid(_, violation) => {
            format!("returned a grid that is not a solution: {violation}")
        }
        Decoded::NotAGrid(reason) => format!("answer does not decode: {reason}"),
        other => format!("unexpected answer {other:?}"),
    }
}

fn counted(count: u64, exact: bool, stopped: Option<StopReason>, solutions: Vec<Grid>) -> Verdict {
    Verdict::Counted {
        count,
        exact,
        stopped,
        solutions,
    }
}

/// The verdict when a call of the tool went wrong after `count` verified solutions.
fn partial(trouble: Trouble, count: u64, solutions: Vec<Grid>) -> Verdict {
    match trouble {
        Trouble::Skipped(why) => Verdict::Skipped(why),
        Trouble::Failed(why) => Verdict::Failed(why),
        Trouble::TimeLimit => counted(count, false, Some(StopReason::TimeLimit), solutions),
    }
}

fn io_trouble(path: &Path, e: std::io::Error) -> Trouble {
    Trouble::Skipped(format!("{}: {e}", path.display()))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Runs `program args…`, standard output to `stdout` (or discarded), killing it at `deadline`.
/// SAT solvers exit 10 (SAT) and 20 (UNSAT), so the exit status is not judged: the answer file
/// is.
fn run_process(
    program: &str,
    args: &[&Path],
    stdout: Option<&Path>,
    deadline: Option<Instant>,
) -> Result<(), Trouble> {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    match stdout {
        Some(path) => {
            let file = File::create(path).map_err(|e| io_trouble(path, e))?;
            command.stdout(file);
        }
        None => {
            command.stdout(Stdio::null());
        }
    }
    let mut child = command
        .spawn()
        .map_err(|e| Trouble::Skipped(format!("cannot start {program}: {e}")))?;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return Ok(()),
            Ok(None) => {}
            Err(e) => return Err(Trouble::Failed(format!("waiting for {program}: {e}"))),
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Trouble::TimeLimit);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;
    use crate::verify::verify;

    #[test]
    fn a_missing_tool_is_skipped() {
        // The PATH of this test may or may not hold the tools; an empty PATH never does.
        let puzzle = parse_line("...3..4114..3...", None).unwrap();
        for tool in TOOLS {
            assert!(!tool.program().is_empty());
            if !tool.installed() {
                assert!(matches!(
                    tool.run(&puzzle, 2, &Limits::none()),
                    Verdict::Skipped(_)
                ));
            }
        }
    }

    #[test]
    fn installed_tools_agree_on_a_small_puzzle() {
        // 4×4 with exactly 2 solutions: the CNF tools count 2, the LP tools find one.
        let puzzle = parse_line("12..34..........", None).unwrap();
        for tool in TOOLS.into_iter().filter(|t| t.installed()) {
            let verdict = tool.run(&puzzle, 100, &Limits::none());
            let Verdict::Counted {
                count, solutions, ..
            } = &verdict
            else {
                panic!("{tool:?}: {verdict:?}");
            };
            for s in solutions {
                assert_eq!(verify(&puzzle, s), Ok(()));
            }
            if tool.counts() {
                assert_eq!(verdict.claim(), Some((*count, Some(*count))), "{tool:?}");
            } else {
                assert_eq!(verdict.claim(), Some((1, None)), "{tool:?}");
            }
        }
    }
}
