//! `sudokit solvers`: the solver table, every entry found or not, with its path, the version it
//! reports, what it reads and how its answer is read; and loading the table the other commands
//! use (`--solvers FILE`, or `solvers.toml` in sudokit's configuration directory).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use sudokit::external;
use sudokit::jobs::solvers::{SolversJob, SolversOptions};
use sudokit::text::ReadOptions;

use super::runner;

/// Arguments of `solvers`.
#[derive(Debug, ClapArgs)]
#[command(after_help = "\
Lists every entry of the solver table: whether its program is found here, its path, the version
it reports, the export format it reads, the answer reader of its output; --long adds the command
template and how it reports sat, unsat and unknown. The table is the built-in one, changed and
extended by --solvers FILE or, without it, by solvers.toml in sudokit's configuration directory
(for example ~/.config/sudokit/solvers.toml) when that file exists. A [solver.NAME] table there
changes the fields it sets of the entry NAME, or adds NAME (see --builtin for the fields).

Every solver found takes part in crosscheck --external and runs as solve --backend ext:NAME.

Examples:
  sudokit solvers
  sudokit solvers --long --json
  sudokit solvers --builtin > my-solvers.toml
  sudokit --solvers my-solvers.toml crosscheck models/sudoku/4x4/kr_4x4_sample.txt --external")]
pub struct Args {
    /// Also print each entry's command template and how it reports its verdicts.
    #[arg(long)]
    long: bool,
    /// One JSON object per entry.
    #[arg(long)]
    json: bool,
    /// Print the built-in table (TOML, with the description of every field) and stop.
    #[arg(long)]
    builtin: bool,
    /// Programs probed at a time (default: all cores).
    #[command(flatten)]
    threads: super::args::ThreadsArg,
}

/// The user's table file: `--solvers FILE`, else `solvers.toml` in the configuration directory
/// when it exists.
fn user_file(explicit: Option<PathBuf>) -> Option<PathBuf> {
    explicit.or_else(|| {
        let default = dirs::config_dir()?.join("sudokit").join("solvers.toml");
        default.is_file().then_some(default)
    })
}

/// Says where the user's table is; the library reads it (with the built-in one) when a command
/// first needs the table.
pub fn configure(explicit: Option<PathBuf>) {
    external::configure(user_file(explicit));
}

/// One entry as listed.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.builtin {
        let mut out = std::io::stdout().lock();
        out.write_all(external::BUILTIN.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let job = SolversJob::new(SolversOptions {
        long: args.long,
        threads: args.threads.get(),
    })?;
    runner::plain(&job, &[], ReadOptions::default(), None, args.json)
}
