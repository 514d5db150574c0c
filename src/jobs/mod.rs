//! The commands as library jobs: what each batch command does to one item, how its options are
//! checked, how its records are written and counted, what it adds up over them, and how a run
//! of it goes, lives here once. The command line, the Python package and its Dask side convert
//! their arguments into a job's options and place its records; nothing else.
//!
//! # The parts
//! - the **registry** ([`registry`]): every batch command once (name, inputs, noun, whether its
//!   output resumes, whether Dask may shard it, its options with their defaults, kinds and help
//!   ([`option_help`]), how its job is built); the front ends read their commands from it;
//! - a **job** per command (one file each): an options type (plain data with serde: built from
//!   clap flags, Python keyword arguments or a Dask shard's JSON), checked once by the job's
//!   `new` into the job ([`Job`]), whose [`Job::run`] turns one item into a typed record
//!   ([`JobRecord`]: its [`Status`], text and JSON), and whose [`summary`] (grade's tables,
//!   cross-check's totals) adds the records up;
//! - the shared pieces: [`source`] and [`item`] (what a job reads: files or Dask shards, the
//!   in-place [`ItemError`]), [`options`] (time budgets, threads, backend specs, schemes),
//!   [`record_text`] (grids, counters and times as records write them), [`capped`] (`--max-n`),
//!   [`pool`] (engines lent to workers);
//! - the **run** of a command ([`command`]): its inputs opened, the [`runner`] (items to
//!   results in input order on all cores, stopped by a [`Control`]), the [`recorder`]
//!   (results into a [`Sink`], continuing a resumed output, counted in a [`Tally`]), the
//!   summary ended per input and at the end, and the exit code;
//! - a run **on a cluster** ([`shard`], [`assembly`]): the inputs cut into tasks of whole
//!   puzzles, a task run on a worker, its results placed in input order by the client;
//! - the **sink** and **resume** ([`sink`], [`partial`], [`target`], [`run_identity`]):
//!   standard output, a file written directly, or the resumable result file of `-o FILE`
//!   (locked, indexed, resumed only by a run of the same command, options and inputs): the one
//!   resume format of every command, the parts of a census ([`census_parts`]) included.
//!
//! # Resume reads structure, not text
//! A resumed run never parses the written records it kept: `FILE.partial` has an index beside it
//! (each result's input line, status, length, item fingerprint and hash; see [`partial`]), so the
//! run knows which results to keep (`done`, `negative`), which to redo (`unknown`, `error`),
//! and that each still answers its item, whatever the output form (text, JSON, grid blocks).
//! One run reads back what it keeps: a census ([`census`]), whose count is the sum of its parts,
//! reads the count of each part it keeps from bytes whose hash was checked first
//! ([`census_parts`]).
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
//! let item = PuzzleItem::new("-", 0, Ok(sudokit::text::ReadPuzzle::new(1, grid)));
//! let ItemResult::Done(record) = job.run(item, &Control::new()) else { panic!() };
//! assert_eq!(record.status(), Status::Done);
//! let solution: sudokit::Grid = record.text().trim_end().parse().unwrap();
//! assert_eq!(sudokit::verify(&grid_of_line(), &solution), Ok(()));
//! # fn grid_of_line() -> sudokit::Grid { parse_line("...3..4114..3...", None).unwrap() }
//! ```

pub mod assembly;
pub mod bench;
pub mod capped;
pub mod census;
pub mod census_command;
pub mod census_parts;
pub mod command;
mod control;
pub mod count;
pub mod course;
pub mod crosscheck;
pub mod decode;
pub mod decode_record;
pub mod export;
pub mod generate;
pub mod generate_latin;
pub mod grade;
pub mod info;
pub mod item;
mod job;
pub mod lists;
pub mod minimize;
pub mod option_help;
pub mod options;
pub mod partial;
pub mod pick;
pub mod pool;
mod record;
pub mod record_text;
pub mod recorder;
pub mod reduce_latin;
pub mod registry;
pub mod run_error;
pub mod run_identity;
pub mod runner;
pub mod shard;
pub mod sink;
pub mod size_cap;
pub mod solve;
pub mod solver_options;
pub mod solvers;
pub mod source;
pub mod summary;
mod tally;
pub mod target;
pub mod verify;

pub use command::{Command, Form, Report};
pub use control::Control;
pub use item::PuzzleItem;
pub use job::Job;
pub use options::OptionError;
pub use partial::OpenMode;
pub use record::{ItemError, ItemResult, JobItem, JobRecord, Status};
pub use runner::{Ran, RunError, Runner};
pub use sink::{Sink, SinkError, SinkHandle};
pub use tally::Tally;
