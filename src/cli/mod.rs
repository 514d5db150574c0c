//! The command line: clap definitions, and one file per subcommand.
//!
//! Every subcommand converts its parsed arguments into validated options before any work starts,
//! writes its results to standard output in input order, and returns the process exit code:
//! 0 for success, 1 for a negative answer the command exists to detect (an invalid solution), 2 for
//! bad input. Errors that stop the whole command become one line on standard error and exit 2.

/// Writes one line on standard error, never panicking (a closed or full standard error loses the
/// line; `eprintln!` would panic).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub(crate) use note;

mod batch;
mod bench;
mod count;
mod course;
mod crosscheck;
mod decode;
mod explain;
mod export;
mod export_size;
mod generate;
mod generate_latin;
mod grade;
mod info;
mod input;
mod max_order;
mod minimize;
mod output;
mod reduce;
mod render;
mod resume;
mod sink;
mod solve;
mod solvers;
mod solving;
mod stop;
mod verify;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// sudokit: model, solve, reduce and grade generalized Sudoku and Latin squares.
#[derive(Debug, Parser)]
#[command(name = "sudokit", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Stop the whole command after SECONDS: puzzles in flight end `unknown (time limit)`, a
    /// batch stops with a summary of how far it got (exit 1; 124 if still running 2 s later).
    #[arg(long, global = true, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// A solver table file that adds or changes external solvers (default: solvers.toml in
    /// sudokit's configuration directory, when it exists); see `sudokit solvers --help`.
    #[arg(long, global = true, value_name = "FILE")]
    solvers: Option<std::path::PathBuf>,
}

const EXAMPLES: &str = "\
Examples:
  sudokit info models/sudoku/9x9/top95.txt
  sudokit verify models/sudoku/4x4/kr_4x4_sample.txt models/sudoku/4x4/kr_4x4_sample.solutions.txt
  sudokit info --box 2x3 --json models/sudoku/6x6/puzzles.txt
  sudokit solve models/sudoku/9x9/top95.txt
  sudokit count --box 2x3
  sudokit bench models/sudoku/9x9/top95.txt --backends native,norvig
  sudokit export models/sudoku/9x9/easy.txt --index 1 --to cnf > easy1.cnf
  sudokit grade --summary models/sudoku/9x9/top95.txt
  sudokit crosscheck models/sudoku/9x9/easy.txt --backends native,norvig,cp
  sudokit solvers
  sudokit crosscheck models/sudoku/4x4/kr_4x4_sample.txt --backends native --external
  sudokit generate --box 3x3 --count 10 --seed 7
  sudokit minimize models/sudoku/9x9/easy.txt

Exit codes: 0 success, 1 a negative answer (e.g. an invalid solution), 2 bad input or usage.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve each puzzle (or decide uniqueness with --unique), in input order, on all cores.
    Solve(solve::Args),
    /// Count the solutions of each puzzle, or of the empty grid of --box PxQ / --latin N.
    Count(count::Args),
    /// Time backends on puzzle files: puzzles/s, median and p99 per puzzle, guesses.
    Bench(bench::Args),
    /// Run every backend on every puzzle, verify every answer, and compare them.
    Crosscheck(crosscheck::Args),
    /// Check candidate solutions against puzzles (pairs by position in the two files).
    Verify(verify::Args),
    /// Write puzzles as CNF, OPB, SMT-LIB, ASP, LP, MPS, MiniZinc, exact cover or graphs.
    Export(export::Args),
    /// Map a solver's answer to an exported file back to a grid, and verify it.
    Decode(decode::Args),
    /// Describe each puzzle: shape, number of givens, whether givens clash.
    Info(info::Args),
    /// Which propagation schemes (Simonis) solve each puzzle without search; tables per file.
    Grade(grade::Args),
    /// Walk one puzzle through a propagation scheme step by step (text, JSON lines or HTML).
    Explain(explain::Args),
    /// Random complete grids and locally minimal well-posed puzzles (symmetry, givens, scheme).
    Generate(generate::Args),
    /// Remove redundant givens until each puzzle is locally minimal; table of givens removed.
    Minimize(minimize::Args),
    /// Random partial Latin squares: quasigroups with holes, or random consistent givens.
    GenerateLatin(generate_latin::Args),
    /// Reduce one problem to another (Latin square completion → Sudoku → CNF, ILP, exact cover, colouring).
    Reduce(reduce::Args),
    /// Draw a puzzle (and its verified solution) as SVG.
    Render(render::Args),
    /// The table of external solvers: found or not, path, version, input format, answer reader.
    Solvers(solvers::Args),
}

/// Parses the command line and runs the subcommand.
pub fn run() -> anyhow::Result<ExitCode> {
    let cli =
        Cli::from_arg_matches(&command_with_lists().get_matches()).unwrap_or_else(|e| e.exit());
    stop::install(cli.timeout)?;
    solvers::configure(cli.solvers);
    let result = dispatch(cli.command);
    // A broken table file this command did not need is a warning, not an error.
    if let Some(problem) = sudokit::external::unused_user_table_problem() {
        note!(
            "sudokit: warning: the solver table is broken ({problem}); commands that run external solvers will refuse it"
        );
    }
    // A signal ends the run gracefully (the command's summary printed); its exit code is the
    // signal's, whatever the command returned.
    match stop::signal_exit() {
        Some(code) => Ok(ExitCode::from(code)),
        None => result,
    }
}

/// The clap command, with the registries' lists in the long help of `export --to` and `decode
/// --from` (so a format or reader added to the registry is listed without editing the help).
pub(crate) fn command_with_lists() -> clap::Command {
    use sudokit::format::{FORMATS, READERS};
    let formats: String = FORMATS
        .iter()
        .map(|f| format!("\n  {:<9}{}", f.name, f.summary))
        .collect();
    let readers: String = READERS
        .iter()
        .map(|r| format!("\n  {:<9}{}", r.name, r.summary))
        .collect();
    Cli::command()
        .mut_subcommand("export", |c| {
            c.mut_arg("to", |a| {
                a.long_help(format!(
                    "Output format; `sudokit decode --from` reads the answers:{formats}"
                ))
            })
        })
        .mut_subcommand("decode", |c| {
            c.mut_arg("from", |a| {
                a.long_help(format!(
                    "Answer form (the solver's output; aliases: clingo = clasp, z3 and cvc5 = smt2):{readers}"
                ))
            })
        })
}

/// Runs the subcommand.
fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Verify(args) => verify::run(args),
        Command::Info(args) => info::run(args),
        Command::Reduce(args) => reduce::run(args),
        Command::Render(args) => render::run(args),
        Command::GenerateLatin(args) => generate_latin::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Count(args) => count::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Crosscheck(args) => crosscheck::run(args),
        Command::Export(args) => export::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Minimize(args) => minimize::run(args),
        Command::Solvers(args) => solvers::run(args),
    }
}
