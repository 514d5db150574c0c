//! `sudokit solvers`: the solver table, every entry found or not, with its path, the version it
//! reports, what it reads and how its answer is read; and loading the table the other commands
//! use (`--solvers FILE`, or `solvers.toml` in sudokit's configuration directory).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use serde_json::json;
use sudokit::external::{self, Entry, SolverTable};

use sudokit::batch::Batch;
use sudokit::jobs::record_text::json_line;

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

/// The table, for the commands that run external solvers.
pub fn table() -> anyhow::Result<std::sync::Arc<SolverTable>> {
    external::table().context("cannot read the solver table")
}

/// One entry as listed.
struct Row {
    entry: Entry,
    path: Option<PathBuf>,
    version: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if args.builtin {
        out.write_all(external::BUILTIN.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let table = table()?;
    let entries = table.entries().to_vec();
    let width = entries
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    if !args.json {
        writeln!(
            out,
            "{:<width$}  {:<7}  {:<10}  {:<5}  {:<9}  path",
            "solver", "found", "version", "input", "answer"
        )?;
    }
    // Probing a program (its version, a MiniZinc configuration) starts it: on all cores.
    let work = |entry: Entry| {
        let path = entry.found();
        let version = path.as_ref().and_then(|_| entry.reported_version());
        Row {
            entry,
            path,
            version,
        }
    };
    let (mut found, mut total) = (0, 0);
    let mut text_out = Vec::new();
    let threads = sudokit::jobs::options::threads(args.threads.get())?;
    Batch::new(threads)
        .run(entries.into_iter(), work, |row| {
            total += 1;
            found += usize::from(row.path.is_some());
            let text = if args.json {
                json_line(&row_json(&row))
            } else {
                row_text(&row, width, args.long)
            };
            text_out.extend_from_slice(text.as_bytes());
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap_or_else(|never| match never {});
    out.write_all(&text_out)?;
    if !args.json {
        writeln!(out, "\n{found} of {total} solvers found")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn row_text(row: &Row, width: usize, long: bool) -> String {
    let entry = &row.entry;
    let (found, path) = match &row.path {
        Some(path) => ("yes", path.display().to_string()),
        None => match entry.path() {
            Some(path) => (
                "no",
                format!(
                    "({} lacks {} in its {} output)",
                    path.display(),
                    entry.probe_contains,
                    entry.probe.join(" ")
                ),
            ),
            None => ("no", format!("({} not on the PATH)", entry.program)),
        },
    };
    let version = row.version.as_deref().unwrap_or("-");
    let mut text = format!(
        "{:<width$}  {found:<7}  {version:<10}  {:<5}  {:<9}  {path}\n",
        entry.name, entry.input, entry.answer
    );
    if long {
        text += &format!("{:width$}  command: {}\n", "", entry.command());
        if !entry.time_args.is_empty() {
            text += &format!("{:width$}  time limit: {}\n", "", entry.time_args.join(" "));
        }
        if let Some(proof) = &entry.proof {
            text += &format!(
                "{:width$}  proof: {} ({}), checked before an unsat\n",
                "",
                proof.format,
                proof.args.join(" ")
            );
        }
        if let Some(words) = &entry.enumerate {
            text += &format!("{:width$}  enumerates: {}\n", "", words.join(" "));
        }
        text += &format!("{:width$}  reports: {}\n", "", entry.reports);
    }
    text
}

fn row_json(row: &Row) -> serde_json::Value {
    let mut value = json!({
        "solver": row.entry.name,
        "found": row.path.is_some(),
        "path": row.path.as_ref().map(|p| p.display().to_string()),
        "version": row.version,
        "command": row.entry.command(),
    });
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(&row.entry) {
        for (key, field) in fields {
            value[key] = field;
        }
    }
    value
}
