//! The command registry: every batch command once, with its name, what inputs it reads, what it
//! calls its items, whether its output is a resumable result file, its options (their serde
//! type, with defaults, and each one's kind and help: [`Entry::options`]) and how its job is
//! built. The command line's subcommands, Python's
//! `sudokit.run`/`sudokit.records` and `python -m sudokit.dask` are all read from this table
//! (a test checks that each exposes exactly its commands), so a command is taught here and in
//! its job's file, nowhere else.
//!
//! Every batch command is an entry, `bench` included; `decode` reads two inputs, the puzzle
//! file and the solver's answer, the answer as a file the job reads whole
//! ([`super::Job::raw_input`]). Every entry but one is [shardable](Entry::shardable): a Dask
//! run cuts its inputs into shards, one task each. `bench` is not: its rows time a backend
//! over a whole file on the given threads (wall time, throughput, percentiles over every
//! puzzle), so the shards a Dask task runs would measure other runs that do not add up to the
//! file's row; a Dask plan refuses it ([`Entry::check_shardable`]), and it runs in one process
//! for every other front end ([`super::bench`]). So does `count` without input: the census of
//! an empty grid is one sum.
//!
//! # Examples
//! ```
//! use sudokit::jobs::registry::{self, Inputs};
//! let grade = registry::command("grade").unwrap();
//! assert_eq!(grade.inputs, Inputs::OneOrMore);
//! assert!(!grade.resumable);
//! assert!(grade.shardable && !registry::command("bench").unwrap().shardable);
//! assert_eq!(grade.defaults()["schemes"], "all");
//! assert!(registry::command("slove").unwrap_err().to_string().contains("solve"));
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use super::bench::{Bench, BenchCommand, BenchOptions};
use super::census_command::EmptyGridCommand;
use super::command::{Command, JobCommand, Unshardable};
use super::count::{CountJob, CountOptions};
use super::crosscheck::{CrosscheckJob, CrosscheckOptions};
use super::decode::{DecodeJob, DecodeOptions};
use super::export::{ExportBatchOptions, ExportJob};
use super::generate::{GenerateJob, GenerateOptions};
use super::generate_latin::{GenerateLatinJob, GenerateLatinOptions};
use super::grade::{GradeJob, GradeOptions};
use super::info::InfoJob;
use super::job::Job;
use super::minimize::{MinimizeJob, MinimizeOptions};
use super::option_help::{OptionHelp, help};
use super::options::OptionError;
use super::reduce_latin::{ReduceLatinJob, ReduceLatinOptions};
use super::solve::{SolveJob, SolveOptions};
use super::solvers::{SolversJob, SolversOptions};
use super::verify::VerifyJob;

/// What a command reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Inputs {
    /// Nothing: it makes its items (generate).
    None,
    /// One input.
    One,
    /// Two inputs: puzzles, then their candidates (verify) or a solver's answer (decode).
    Two,
    /// One or more inputs.
    OneOrMore,
    /// One input, or none (count: the empty grid of the shape the read options give).
    OneOrNone,
}

impl Inputs {
    /// Whether `n` inputs fit.
    pub fn fits(self, n: usize) -> bool {
        match self {
            Inputs::None => n == 0,
            Inputs::One => n == 1,
            Inputs::Two => n == 2,
            Inputs::OneOrMore => n >= 1,
            Inputs::OneOrNone => n <= 1,
        }
    }

    /// What fits, in words: `one input file`.
    pub fn words(self) -> &'static str {
        match self {
            Inputs::None => "no input file",
            Inputs::One => "one input file",
            Inputs::Two => "two input files (puzzles, then candidate solutions or an answer)",
            Inputs::OneOrMore => "one or more input files",
            Inputs::OneOrNone => {
                "one input file, or none (the empty grid of box or latin and order)"
            }
        }
    }
}

/// The options of a command whose job takes only a thread count (verify, info).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThreadsOptions {
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

/// A command of the registry.
#[derive(Debug)]
pub struct Entry {
    /// Its name (`solve`, `reduce-latin`).
    pub name: &'static str,
    /// Its subcommand on the command line (`["reduce", "latin"]`).
    pub cli: &'static [&'static str],
    /// What it does, in one line.
    pub about: &'static str,
    /// What it reads.
    pub inputs: Inputs,
    /// Whether each input is a run of its own, ended by the summary (grade and minimize end each
    /// file with its summary line); otherwise the inputs are read one after the other as one.
    pub per_input: bool,
    /// What its items are called in its notes (`puzzles`, `pairs`).
    pub noun: &'static str,
    /// Whether its output can be a resumable result file (`-o FILE`, `--resume`): the commands
    /// that end with tables write a stream.
    pub resumable: bool,
    /// Whether a Dask run may cut its inputs into shards, a task each: every command but
    /// `bench`, whose rows time whole files in one process.
    pub shardable: bool,
    defaults: fn() -> Value,
    build: fn(Value, usize) -> Result<Box<dyn Command>, OptionError>,
}

impl Entry {
    /// The options with their defaults, as a JSON object: every option the command takes.
    pub fn defaults(&self) -> Value {
        (self.defaults)()
    }

    /// The command with `options` (a JSON object; missing options take their defaults), over
    /// `inputs` inputs.
    ///
    /// # Errors
    /// An unknown option, a value of the wrong type, or one the job refuses.
    pub fn build(&self, options: Value, inputs: usize) -> Result<Box<dyn Command>, OptionError> {
        (self.build)(options, inputs).map_err(|e| self.said(e))
    }

    /// An option of the wrong type said with what the option takes (`time_limit: invalid
    /// type: string "x", expected f64 (time_limit takes a number: ...)`).
    fn said(&self, error: OptionError) -> OptionError {
        let OptionError::Malformed(message) = error else {
            return error;
        };
        let named = message
            .split_once(": ")
            .and_then(|(name, _)| help(self.name, name));
        OptionError::Malformed(match named {
            Some(h) => format!(
                "{message} ({} takes {}: {})",
                h.name,
                h.kind.words(),
                h.help
            ),
            None => message,
        })
    }

    /// Every option the command takes: its name, kind, flag and help ([`super::option_help`]) with
    /// its default, in the order of [`Entry::defaults`].
    pub fn options(&self) -> Vec<OptionSpec> {
        let defaults = self.defaults();
        let Value::Object(defaults) = defaults else {
            return Vec::new();
        };
        defaults
            .into_iter()
            .map(|(name, default)| OptionSpec {
                help: help(self.name, &name)
                    .expect("every option has its help (a test of option_help checks)"),
                default,
            })
            .collect()
    }

    /// Checks that the command can write `output`: only a command whose output is a resumable
    /// result file takes an output file (the others end with tables, on standard output).
    ///
    /// # Errors
    /// An output file for a command that ends with tables.
    pub fn check_output(&self, output: bool) -> Result<(), RegistryError> {
        if output && !self.resumable {
            Err(RegistryError::NotResumable { command: self.name })
        } else {
            Ok(())
        }
    }

    /// Checks that the command can run as Dask tasks over shards of its inputs.
    ///
    /// # Errors
    /// A command that runs whole, in one process (`bench`), or a run over `inputs` inputs that
    /// does (a command without its optional input: the census of `count`).
    pub fn check_shardable(&self, inputs: usize) -> Result<(), RegistryError> {
        let why = if !self.shardable {
            "times whole runs"
        } else if inputs == 0 && self.inputs == Inputs::OneOrNone {
            "without input counts every grid"
        } else {
            return Ok(());
        };
        let command = self.name;
        Err(Unshardable { command, why }.into())
    }

    /// Checks the number of inputs.
    ///
    /// # Errors
    /// A number of inputs the command does not take.
    pub fn check_inputs(&self, inputs: usize) -> Result<(), RegistryError> {
        if self.inputs.fits(inputs) {
            Ok(())
        } else {
            Err(RegistryError::Inputs {
                command: self.name,
                wanted: self.inputs.words(),
                given: inputs,
            })
        }
    }
}

/// An option of a command as a front end builds its arguments from it: its help and its
/// default.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionSpec {
    /// Its name, kind, flag and help.
    #[serde(flatten)]
    pub help: OptionHelp,
    /// Its default (its serde form; null for none).
    pub default: Value,
}

/// A command that is not in the registry, or inputs it does not take.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RegistryError {
    /// No such command.
    #[error("unknown command {name} (known: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The registry's names.
        known: String,
    },
    /// An output file for a command that ends with tables.
    #[error(
        "{command} writes to standard output (its tables end the run): no output file or resume"
    )]
    NotResumable {
        /// The command.
        command: &'static str,
    },
    /// A command that runs whole, in one process, on a Dask cluster.
    #[error(transparent)]
    Whole(#[from] Unshardable),
    /// A number of inputs the command does not take.
    #[error("{command} takes {wanted}, not {given}")]
    Inputs {
        /// The command.
        command: &'static str,
        /// What it takes.
        wanted: &'static str,
        /// How many were given.
        given: usize,
    },
}

/// The options of a command from JSON.
fn options<O: DeserializeOwned>(value: Value) -> Result<O, OptionError> {
    options_of(value)
}

/// Options from their JSON form; an error names the option at fault (`difficulty: unknown
/// variant ...`).
///
/// # Errors
/// An unknown option, or a value of the wrong type.
pub fn options_of<O: DeserializeOwned>(value: Value) -> Result<O, OptionError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        OptionError::Malformed(if path == "." || path.is_empty() {
            inner.to_string()
        } else {
            format!("{path}: {inner}")
        })
    })
}

/// The default options as JSON.
fn defaults<O: Default + Serialize>() -> Value {
    serde_json::to_value(O::default()).expect("options serialize")
}

/// A job as the command of `name` (its registry entry).
fn boxed<J>(job: J, name: &str) -> Box<dyn Command>
where
    J: Job + Send + 'static,
    J::Summary: 'static,
    J::Record: 'static,
{
    let entry = command(name).expect("a registered command");
    Box::new(JobCommand::new(job, entry.per_input))
}

/// Every batch command, in the order of the command line's help.
pub static COMMANDS: &[Entry] = &[
    Entry {
        name: "solve",
        cli: &["solve"],
        about: "solve each puzzle (and decide uniqueness)",
        inputs: Inputs::One,
        per_input: false,
        noun: "puzzles",
        resumable: true,
        shardable: true,
        defaults: defaults::<SolveOptions>,
        build: |v, _| Ok(boxed(SolveJob::new(options(v)?)?, "solve")),
    },
    Entry {
        name: "count",
        cli: &["count"],
        about: "count the solutions of each puzzle, or the grids of a shape",
        inputs: Inputs::OneOrNone,
        per_input: false,
        noun: "puzzles",
        resumable: true,
        shardable: true,
        defaults: defaults::<CountOptions>,
        build: |v, inputs| {
            let job = CountJob::new(options(v)?)?;
            if inputs == 0 {
                return Ok(Box::new(EmptyGridCommand::new(job)));
            }
            job.check_puzzle_method()?;
            Ok(boxed(job, "count"))
        },
    },
    Entry {
        name: "grade",
        cli: &["grade"],
        about: "which propagation schemes solve each puzzle without search",
        inputs: Inputs::OneOrMore,
        per_input: true,
        noun: "puzzles",
        resumable: false,
        shardable: true,
        defaults: defaults::<GradeOptions>,
        build: |v, _| Ok(boxed(GradeJob::new(options(v)?)?, "grade")),
    },
    Entry {
        name: "bench",
        cli: &["bench"],
        about: "time backends on puzzle files: puzzles/s, median and p99 per puzzle, guesses",
        inputs: Inputs::OneOrMore,
        per_input: false,
        noun: "puzzles",
        resumable: false,
        shardable: false,
        defaults: defaults::<BenchOptions>,
        build: |v, _| Ok(Box::new(BenchCommand::new(Bench::new(options(v)?)?))),
    },
    Entry {
        name: "crosscheck",
        cli: &["crosscheck"],
        about: "run every backend on each puzzle and compare the verified answers",
        inputs: Inputs::One,
        per_input: false,
        noun: "puzzles",
        resumable: false,
        shardable: true,
        defaults: defaults::<CrosscheckOptions>,
        build: |v, _| Ok(boxed(CrosscheckJob::new(options(v)?)?, "crosscheck")),
    },
    Entry {
        name: "generate",
        cli: &["generate"],
        about: "generate well-posed puzzles",
        inputs: Inputs::None,
        per_input: false,
        noun: "puzzles",
        resumable: true,
        shardable: true,
        defaults: defaults::<GenerateOptions>,
        build: |v, _| Ok(boxed(GenerateJob::new(options(v)?)?, "generate")),
    },
    Entry {
        name: "generate-latin",
        cli: &["generate-latin"],
        about: "random partial Latin squares (quasigroups with holes, or random givens)",
        inputs: Inputs::None,
        per_input: false,
        noun: "squares",
        resumable: true,
        shardable: true,
        defaults: defaults::<GenerateLatinOptions>,
        build: |v, _| Ok(boxed(GenerateLatinJob::new(options(v)?)?, "generate-latin")),
    },
    Entry {
        name: "reduce-latin",
        cli: &["reduce", "latin"],
        about: "reduce partial Latin squares to Sudoku (and on to CNF, ILP, exact cover, colouring)",
        inputs: Inputs::One,
        per_input: false,
        noun: "squares",
        resumable: true,
        shardable: true,
        defaults: defaults::<ReduceLatinOptions>,
        build: |v, _| Ok(boxed(ReduceLatinJob::new(options(v)?)?, "reduce-latin")),
    },
    Entry {
        name: "minimize",
        cli: &["minimize"],
        about: "remove givens while each puzzle stays well posed",
        inputs: Inputs::OneOrMore,
        per_input: true,
        noun: "puzzles",
        resumable: false,
        shardable: true,
        defaults: defaults::<MinimizeOptions>,
        build: |v, _| Ok(boxed(MinimizeJob::new(options(v)?)?, "minimize")),
    },
    Entry {
        name: "verify",
        cli: &["verify"],
        about: "check candidate solutions against their puzzles",
        inputs: Inputs::Two,
        per_input: false,
        noun: "pairs",
        resumable: true,
        shardable: true,
        defaults: defaults::<ThreadsOptions>,
        build: |v, _| {
            let o: ThreadsOptions = options(v)?;
            Ok(boxed(VerifyJob::new(o.threads)?, "verify"))
        },
    },
    Entry {
        name: "decode",
        cli: &["decode"],
        about: "map a solver's answer to an exported file back to grids, each verified",
        inputs: Inputs::Two,
        per_input: false,
        noun: "models",
        resumable: false,
        shardable: true,
        defaults: defaults::<DecodeOptions>,
        build: |v, _| Ok(boxed(DecodeJob::new(options(v)?)?, "decode")),
    },
    Entry {
        name: "export",
        cli: &["export"],
        about: "write every puzzle in a solver's input format, one file each (--out-dir)",
        inputs: Inputs::One,
        per_input: false,
        noun: "puzzles",
        resumable: false,
        shardable: true,
        defaults: defaults::<ExportBatchOptions>,
        build: |v, _| Ok(boxed(ExportJob::new(options(v)?)?, "export")),
    },
    Entry {
        name: "solvers",
        cli: &["solvers"],
        about: "the solver table: each external solver found here or not, its version and forms",
        inputs: Inputs::None,
        per_input: false,
        noun: "solvers",
        resumable: false,
        shardable: true,
        defaults: defaults::<SolversOptions>,
        build: |v, _| Ok(boxed(SolversJob::new(options(v)?)?, "solvers")),
    },
    Entry {
        name: "info",
        cli: &["info"],
        about: "describe each puzzle: shape, givens, clashes",
        inputs: Inputs::OneOrMore,
        per_input: false,
        noun: "puzzles",
        resumable: true,
        shardable: true,
        defaults: defaults::<ThreadsOptions>,
        build: |v, inputs| {
            let o: ThreadsOptions = options(v)?;
            Ok(boxed(InfoJob::new(o.threads, inputs > 1)?, "info"))
        },
    },
];

/// The registry's entry for `name`.
///
/// # Errors
/// No command of that name.
pub fn command(name: &str) -> Result<&'static Entry, RegistryError> {
    COMMANDS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| RegistryError::Unknown {
            name: name.to_string(),
            known: names().join(", "),
        })
}

/// The names of the commands, in order.
pub fn names() -> Vec<&'static str> {
    COMMANDS.iter().map(|e| e.name).collect()
}
