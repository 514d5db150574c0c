//! `generate` as a job: random complete grids and locally minimal well-posed puzzles, puzzle `i`
//! drawn from `(seed, i)` only ([`puzzle_rng`]), so the output is the same for any number of
//! threads, machines or shards, and a resumed run makes exactly the puzzles it did not keep.
//!
//! A record is the puzzle as a puzzle line (a grid block above order 35); as JSON the puzzle's
//! object with `"index"` (from 1), `"seed"`, `"givens"`, `"attempts"` (complete grids drawn to
//! make it) and `"solution"`.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::control::Control;
use super::item::InputError;
use super::job::Job;
use super::options::{self, Opt, OptionError, Shave, as_text, said};
use super::pool::Pool;
use super::record::{ItemError, ItemResult, JobItem, JobRecord, Status};
use super::record_text::{grid_record, rounded};
use super::source::{Items, Source};
use super::summary::NoSummary;
use crate::generate::progress::{GenerationProgress, OnProgress};
use crate::generate::puzzle::{
    GenerateError, Generated, Generator, GridSource, Options, Symmetry, puzzle_rng,
};
use crate::grade::Difficulty;
use crate::propagate::Scheme;
use crate::search::Cancel;
use crate::shape::{ExtraSet, RegionSpec, Shape};
use crate::text::to_json;

/// The options of `generate`, as every front end gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateOptions {
    /// Box rows and columns.
    #[serde(rename = "box")]
    pub boxes: (usize, usize),
    /// A region map in place of the boxes: its n rows of n labels (`--regions`; the JSON
    /// field `"regions"`). Its order must be the boxes'.
    pub regions: Option<Vec<String>>,
    /// Extra units: `diagonals`, `windows` (`--extra`).
    pub extra: Vec<String>,
    /// How many puzzles (or grids).
    pub count: u64,
    /// The base seed: puzzle `i` is drawn from `(seed, i)`.
    pub seed: u64,
    /// Symmetry of the givens.
    #[serde(with = "as_text")]
    pub symmetry: Symmetry,
    /// Stop removing givens at this many (well posed, usually not minimal).
    pub givens: Option<usize>,
    /// The puzzle must be search-free for this scheme.
    #[serde(with = "as_text::option")]
    pub scheme: Option<Scheme>,
    /// The puzzle must not be search-free for this scheme.
    #[serde(with = "as_text::option")]
    pub not_scheme: Option<Scheme>,
    /// An everyday label instead of `scheme` and `not_scheme`: the puzzle is made for the
    /// label's schemes ([`Difficulty::target`]), so `grade` gives it that label.
    pub difficulty: Option<Difficulty>,
    /// How the shaving schemes shave.
    #[serde(with = "as_text::option")]
    pub shave: Option<Shave>,
    /// Where complete grids come from.
    #[serde(with = "as_text")]
    pub grids: GridSource,
    /// Complete grids tried per puzzle before giving up.
    pub attempts: usize,
    /// Complete grids only (no givens removed).
    pub grid_only: bool,
    /// Sweep ahead for needed givens (from 24×24 on); the puzzles are the same without.
    pub sweeps: bool,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            boxes: (3, 3),
            regions: None,
            extra: Vec::new(),
            count: 1,
            seed: 1,
            symmetry: Symmetry::None,
            givens: None,
            scheme: None,
            not_scheme: None,
            difficulty: None,
            shave: None,
            grids: GridSource::Search,
            attempts: 1000,
            grid_only: false,
            sweeps: true,
            threads: None,
        }
    }
}

impl fmt::Display for GridSource {
    /// The name users type (`search`, `pattern`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GridSource::Search => "search",
            GridSource::Pattern => "pattern",
        })
    }
}

impl FromStr for GridSource {
    type Err = String;

    fn from_str(s: &str) -> Result<GridSource, String> {
        match s {
            "search" => Ok(GridSource::Search),
            "pattern" => Ok(GridSource::Pattern),
            other => Err(format!("grids must be search or pattern, not {other}")),
        }
    }
}

/// The JSON line of a progress event of puzzle `index` (from 0): `{"progress": {"index" (from
/// 1), "givens", "tested", "grid", "elapsed_s", "done"}}` (`generate --json --progress`).
pub fn progress_event(index: u64, p: &GenerationProgress) -> Value {
    json!({"progress": {
        "index": index + 1,
        "givens": p.givens,
        "tested": p.tested,
        "grid": p.grid,
        "elapsed_s": rounded(p.elapsed.as_secs_f64(), 6),
        "done": p.done,
    }})
}

/// The per-puzzle progress callback of a job: the puzzle's index and how far its reduction got.
pub type PuzzleProgress = Arc<dyn Fn(u64, &GenerationProgress) + Send + Sync>;

/// The `generate` job; see the module docs.
pub struct GenerateJob {
    shape: Shape,
    options: Options,
    seed: u64,
    count: u64,
    grid_only: bool,
    busy: usize,
    generators: Pool<(Cancel, Generator)>,
    progress: Option<PuzzleProgress>,
    identity: Value,
}

impl fmt::Debug for GenerateJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GenerateJob")
            .field("shape", &self.shape)
            .field("seed", &self.seed)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

/// `shape` with the region map `map` (its rows) and the extra units named `extra`.
///
/// # Errors
/// A map or an extra unit that cannot be (the message names the row and column in the map).
fn with_regions(
    shape: Shape,
    map: Option<&[String]>,
    extra: &[String],
) -> Result<Shape, OptionError> {
    let invalid = |option: &'static str, message: String| OptionError::Invalid { option, message };
    let sets = extra
        .iter()
        .map(|name| name.parse::<ExtraSet>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid("extra", e.to_string()))?;
    let text = map.map(|rows| rows.join("\n"));
    let spec = RegionSpec::new(text.as_deref(), &sets).map_err(|e| {
        invalid(
            if map.is_some() { "regions" } else { "extra" },
            e.to_string(),
        )
    })?;
    match spec.regions_for(shape.order()) {
        Ok(Some(regions)) => shape
            .with_regions(regions)
            .map_err(|e| invalid("regions", e.to_string())),
        Ok(None) => Ok(shape),
        Err(e) => Err(invalid(
            if matches!(e, crate::shape::RegionError::WindowsOrder { .. }) {
                "extra"
            } else {
                "regions"
            },
            e.to_string(),
        )),
    }
}

impl GenerateJob {
    /// Checks `options` (the shape, the target) before any work.
    ///
    /// # Errors
    /// A shape that cannot be, givens or schemes with `grid_only`, a target the generator
    /// refuses.
    pub fn new(options: GenerateOptions) -> Result<GenerateJob, OptionError> {
        let (p, q) = options.boxes;
        let shape = Shape::sudoku(p, q).map_err(|e| OptionError::Invalid {
            option: "box",
            message: e.to_string(),
        })?;
        let shape = with_regions(shape, options.regions.as_deref(), &options.extra)?;
        if options.grid_only
            && (options.givens.is_some()
                || options.scheme.is_some()
                || options.not_scheme.is_some()
                || options.difficulty.is_some()
                || options.symmetry != Symmetry::None)
        {
            return Err(OptionError::Conflict(said!(
                Opt("grid_only"),
                " makes complete grids: it takes no ",
                Opt("givens"),
                ", ",
                Opt("scheme"),
                ", ",
                Opt("not_scheme"),
                ", ",
                Opt("difficulty"),
                " or ",
                Opt("symmetry"),
            )));
        }
        let (scheme, not_scheme) = match options.difficulty {
            Some(_) if options.scheme.is_some() || options.not_scheme.is_some() => {
                return Err(OptionError::Conflict(said!(
                    Opt("difficulty"),
                    " stands for a ",
                    Opt("scheme"),
                    " and a ",
                    Opt("not_scheme"),
                    ": give either",
                )));
            }
            Some(label) => label.target(),
            None => (options.scheme, options.not_scheme),
        };
        let threads = options::threads(options.threads)?;
        let shave = |s: Option<Scheme>| s.map(|s| Shave::apply(options.shave, s));
        let mut generation = Options {
            symmetry: options.symmetry,
            givens: options.givens,
            scheme: shave(scheme),
            not_scheme: shave(not_scheme),
            source: options.grids,
            attempts: options.attempts,
            lanes: 1,
            sweeps: options.sweeps,
            engine: crate::generate::well_posed::UniquenessEngine::from_env(),
            ..Options::default()
        };
        Generator::new(shape, generation.clone()).map_err(|e| OptionError::Invalid {
            option: "givens",
            message: e.to_string(),
        })?;
        // Threads that no puzzle keeps busy test removals side by side within one puzzle (the
        // puzzles do not depend on it).
        let busy = options.count.clamp(1, threads as u64) as usize;
        generation.lanes = threads / busy;
        let identity = json!({
            "box": [p, q],
            "regions": options.regions,
            "extra": options.extra,
            "seed": options.seed,
            "symmetry": options.symmetry.to_string(),
            "givens": options.givens,
            "scheme": generation.scheme.map(|s| s.name()),
            "not_scheme": generation.not_scheme.map(|s| s.name()),
            "grids": options.grids.to_string(),
            "attempts": options.attempts,
            "grid_only": options.grid_only,
        });
        Ok(GenerateJob {
            shape,
            options: generation,
            seed: options.seed,
            count: options.count,
            grid_only: options.grid_only,
            busy,
            generators: Pool::default(),
            progress: None,
            identity,
        })
    }

    /// This job, reporting the progress of each puzzle's reduction to `progress`.
    pub fn with_progress(mut self, progress: PuzzleProgress) -> GenerateJob {
        self.progress = Some(progress);
        self
    }

    /// The items: the puzzle indices `0..count`.
    pub fn indices(&self) -> Range<u64> {
        0..self.count
    }

    /// The shape of the puzzles.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Makes puzzle `index` (0-based), stopping between two removal tests once `stop` is set.
    ///
    /// # Errors
    /// [`GenerateError`]: the target missed in every attempt, or cancelled.
    pub fn make(&self, index: u64, stop: &Cancel) -> Result<GenerateRecord, GenerateError> {
        let (cancel, mut generator) = match self.generators.take(|(c, _)| c == stop) {
            Some(engine) => engine,
            None => {
                let options = Options {
                    cancel: Some(stop.clone()),
                    ..self.options.clone()
                };
                (stop.clone(), Generator::new(self.shape, options)?)
            }
        };
        generator.set_progress(self.progress.as_ref().map(|report| {
            let report = Arc::clone(report);
            OnProgress::new(move |p: &GenerationProgress| report(index, p))
        }));
        let mut rng = puzzle_rng(self.seed, index);
        let made = if self.grid_only {
            generator.complete_grid(&mut rng).map(|grid| Generated {
                puzzle: grid.clone(),
                solution: grid,
                attempts: 1,
            })
        } else {
            generator.generate(&mut rng)
        };
        self.generators.give((cancel, generator));
        made.map(|generated| GenerateRecord {
            index,
            seed: self.seed,
            generated,
        })
    }
}

impl JobItem for u64 {
    fn line(&self) -> usize {
        *self as usize + 1
    }

    fn key(&self) -> u64 {
        *self
    }
}

impl Job for GenerateJob {
    type Item = u64;
    type Record = GenerateRecord;

    type Summary = NoSummary;

    fn name(&self) -> &'static str {
        "generate"
    }

    fn summary(&self) -> NoSummary {
        NoSummary
    }

    fn generated(&self) -> Option<u64> {
        Some(self.count)
    }

    fn items(&self, sources: Vec<Source>) -> Result<Items<u64>, InputError> {
        match sources.as_slice() {
            [] => Ok(Box::new(self.indices())),
            [Source::Range(range)] => Ok(Box::new(range.clone())),
            _ => Err(InputError::Source("a range of puzzle indices")),
        }
    }

    fn identity(&self) -> Value {
        self.identity.clone()
    }

    fn workers(&self) -> usize {
        self.busy
    }

    fn run(&self, index: u64, control: &Control) -> ItemResult<GenerateRecord> {
        if control.stopped() {
            return ItemResult::Cancelled;
        }
        match self.make(index, &control.stop) {
            Ok(record) => ItemResult::Done(record),
            Err(GenerateError::Cancelled) => ItemResult::Cancelled,
            Err(e) => ItemResult::Failed(ItemError {
                file: None,
                line: index as usize + 1,
                column: 1,
                message: format!("puzzle {}: {e}", index + 1),
            }),
        }
    }
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateRecord {
    /// Its index (0-based; written from 1).
    pub index: u64,
    /// The run's base seed.
    pub seed: u64,
    /// The puzzle, its solution and the grids drawn.
    pub generated: Generated,
}

impl JobRecord for GenerateRecord {
    fn grids(&self) -> Vec<crate::Grid> {
        vec![self.generated.puzzle.clone()]
    }

    fn status(&self) -> Status {
        Status::Done
    }

    fn text(&self) -> String {
        grid_record(&self.generated.puzzle)
    }

    fn json(&self) -> Value {
        let generated = &self.generated;
        let mut value = to_json(&generated.puzzle);
        value["index"] = json!(self.index + 1);
        value["seed"] = json!(self.seed);
        value["givens"] = json!(generated.puzzle.filled());
        value["attempts"] = json!(generated.attempts);
        value["solution"] = to_json(&generated.solution);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_depend_on_the_seed_and_index_only() {
        let options: GenerateOptions =
            serde_json::from_str(r#"{"box": [2, 2], "count": 3, "seed": 5, "symmetry": "rot180"}"#)
                .unwrap();
        let job = GenerateJob::new(options.clone()).unwrap();
        let other = GenerateJob::new(GenerateOptions {
            threads: Some(1),
            ..options
        })
        .unwrap();
        let stop = Cancel::new();
        for i in job.indices() {
            assert_eq!(
                job.make(i, &stop).unwrap().text(),
                other.make(i, &stop).unwrap().text()
            );
        }
        assert!(
            GenerateJob::new(GenerateOptions {
                grid_only: true,
                givens: Some(3),
                ..GenerateOptions::default()
            })
            .is_err()
        );
    }
}
