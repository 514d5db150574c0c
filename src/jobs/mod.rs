//! The commands as library jobs: what `solve`, `count`, `grade`, `crosscheck`, `generate`,
//! `minimize`, `verify` and `info` do to one item, how their options are checked, how their
//! records are written and counted, and how a batch of them runs, lives here once. The command
//! line, the Python package and its Dask runner convert their arguments into a job's options and
//! place its records; nothing else.
//!
//! # The parts
//! - a **job** per command (one file each): an options type (plain data with serde: built from
//!   clap flags, Python keyword arguments or a Dask shard's JSON), checked once by the job's
//!   `new` into the job ([`Job`]), whose [`Job::run`] turns one item into a typed record
//!   ([`JobRecord`]: its [`Status`], text and JSON);
//! - the shared pieces: [`item`] (puzzles read from a file, the in-place [`ItemError`]),
//!   [`options`] (time budgets, threads, backend specs, schemes), [`render`] (grids, counters and
//!   times as records write them), [`capped`] (`--max-n`), [`pool`] (engines lent to workers);
//! - the **driver** ([`driver`]): a job, its input, a [`Sink`] and the old results of a resumed
//!   output in; records in input order, a [`Tally`] and an exit code out; stopped by a
//!   [`Control`];
//! - the **sink** and **resume** ([`sink`], [`partial`], [`target`], [`run_identity`]):
//!   standard output, a file written directly, or the resumable result file of `-o FILE`
//!   (locked, indexed, resumed only by a run of the same command, options and inputs).
//!
//! # Resume reads structure, not text
//! A resumed run never parses the rendered records it kept: `FILE.partial` has an index beside it
//! (each result's input line, status, length, item fingerprint and hash; see [`partial`]), so the
//! run knows which results to keep (`done`, `negative`), which to redo (`unknown`, `error`),
//! and that each still answers its item, whatever the output form (text, JSON, grid blocks).
//!
//! # Examples
//! ```
//! use sudokit::jobs::solve::{SolveJob, SolveOptions};
//! use sudokit::jobs::{Control, ItemResult, Job, JobRecord, Status};
//! use sudokit::jobs::item::PuzzleItem;
//! use sudokit::text::parse_line;
//! let options: SolveOptions = serde_json::from_str(r#"{"backend": "dlx", "unique": true}"#).unwrap();
//! let job = SolveJob::new(options).unwrap();
//! let grid = parse_line("...3..4114..3...", None).unwrap();
//! let item = PuzzleItem::new("-", 0, Ok(sudokit::text::Record { line: 1, grid }));
//! let ItemResult::Done(record) = job.run(item, &Control::new()) else { panic!() };
//! assert_eq!(record.status(), Status::Done);
//! let solution: sudokit::Grid = record.text().trim_end().parse().unwrap();
//! assert_eq!(sudokit::verify(&grid_of_line(), &solution), Ok(()));
//! # fn grid_of_line() -> sudokit::Grid { parse_line("...3..4114..3...", None).unwrap() }
//! ```

pub mod capped;
pub mod census;
pub mod census_checkpoint;
pub mod command;
pub mod count;
pub mod course;
pub mod crosscheck;
pub mod decode;
pub mod generate;
pub mod grade;
pub mod info;
pub mod item;
mod job;
pub mod minimize;
pub mod options;
pub mod partial;
pub mod pool;
pub mod recorder;
pub mod registry;
pub mod render;
pub mod run_identity;
pub mod runner;
pub mod sink;
pub mod solve;
pub mod source;
pub mod summary;
pub mod target;
pub mod verify;

pub use command::{Command, Form, Report};
pub use item::PuzzleItem;
pub use job::{Control, ItemError, ItemResult, Job, JobItem, JobRecord, Status, Tally};
pub use options::OptionError;
pub use partial::OpenMode;
pub use runner::{Ran, RunError, Runner};
pub use sink::{Sink, SinkError, SinkHandle};
