//! The command line: clap definitions, and one file per subcommand. A subcommand file holds its
//! flags and the calls that turn them into a library job (`sudokit::jobs`) and place its
//! records; what a command does lives in the library.
//!
//! Every subcommand converts its parsed arguments into a job's validated options before any work
//! starts, writes its results to standard output (or `-o FILE`) in input order, and returns the
//! process exit code: 0 for success, 1 for a negative answer the command exists to detect (an
//! invalid solution), 2 for bad input. Errors that stop the whole command become one line on
//! standard error and exit 2.
//!
//! The lists in the help (backends and their options, encodings, AMOs, schemes, export formats,
//! answer readers and their aliases, counting methods, course levels, the solvers that
//! enumerate) are written from the registries ([`lists`]): by [`command_with_lists`] for a
//! flag's values, by the command's `after_help` function for its closing text, so a backend or
//! format added to its registry is listed without editing any help text.

/// Writes one line on standard error, never panicking (a closed or full standard error loses the
/// line; `eprintln!` would panic).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub(crate) use note;

mod args;
mod bench;
mod census;
mod count;
mod course;
mod crosscheck;
mod decode;
mod explain;
mod export;
mod generate;
mod generate_latin;
mod grade;
mod info;
mod lists;
mod minimize;
mod reduce;
mod removed;
mod render;
mod runner;
mod solve;
mod solvers;
mod stop;
mod verify;

use std::process::ExitCode;

use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand};

/// sudokit: model, solve, reduce and grade generalized Sudoku and Latin squares.
#[derive(Debug, Parser)]
#[command(name = "sudokit", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Stop the whole command after SECONDS: puzzles in flight end `unknown (time limit)`, a
    /// batch stops with a summary of how far it got (exit 1; 124 if still running 5 s later).
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

Every flag has one meaning across the commands: -o FILE is a result file (written whole, and
continued with --resume where a command makes one result per puzzle), --threads N the worker
threads (default: all cores; bench: 1), --limit N the most solutions counted, --time-limit
SECONDS the budget per puzzle (default: none; 10 on bench, crosscheck and grade).

Exit codes: 0 success, 1 a negative answer (e.g. an invalid solution), 2 bad input or usage.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve each puzzle (or decide uniqueness with --unique), in input order, on all cores.
    Solve(solve::Args),
    /// Count the solutions of each puzzle, or of the empty grid of --box PxQ / --latin --order N.
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
    let argv = count::legacy_latin_order(std::env::args_os().collect());
    // The lists and the after-help texts that the registries write (the solver table parsed,
    // the backends listed) are only for what clap prints: help, version and errors. A command
    // line that parses needs none of them; one that does not is parsed again with them.
    let mut command = Cli::command();
    let matches = match command.try_get_matches_from_mut(&argv) {
        Ok(matches) => matches,
        Err(_) => {
            command = command_with_lists();
            command
                .try_get_matches_from_mut(&argv)
                .unwrap_or_else(|e| removed::explain(e, &argv, &command).exit())
        }
    };
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // A library error names options apart from its words: spelled here as this command's flags.
    let flags = |e| args::with_flags(e, &command, &matches);
    stop::install(cli.timeout).map_err(flags)?;
    solvers::configure(cli.solvers);
    let result = dispatch(cli.command).map_err(flags);
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

/// The clap command, with the registries' lists in the long help (`--help`) of every flag that
/// names a backend, an encoding, a scheme, a format or an answer reader.
pub(crate) fn command_with_lists() -> clap::Command {
    annotate(Cli::command())
}

fn annotate(command: clap::Command) -> clap::Command {
    let name = command.get_name().to_string();
    let command = match computed_after_help(&name) {
        Some(text) => command.after_help(text),
        None => command,
    };
    command
        .mut_args(|arg| with_list(&name, arg))
        .mut_subcommands(annotate)
}

/// The after-help of a (sub)command written from the registries, if it has one.
fn computed_after_help(name: &str) -> Option<String> {
    Some(match name {
        "count" => count::after_help(),
        "decode" => decode::after_help(),
        "grade" => grade::after_help(),
        "latin" => reduce::latin_after_help(),
        _ => return None,
    })
}

/// `arg` with the names its values come from in its short help (`-h`), and the list with what
/// each one is in its long help (`--help`; the names again when the list is empty, for a list
/// the command's after-help describes).
fn with_list(command: &str, arg: Arg) -> Arg {
    let Some((names, list)) = lists::for_arg(command, arg.get_id().as_str()) else {
        return arg;
    };
    let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    let short = format!("{help} [values: {}]", names.join(", "));
    let long = if list.is_empty() {
        short.clone()
    } else {
        format!("{help}\n{}", list.trim_end())
    };
    arg.help(short).long_help(long)
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
