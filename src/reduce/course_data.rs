//! What a course run ([`super::course`]) is made of: the levels of the chain, the options, each
//! level's answer and its evidence, the course record of one square and its errors. A file of
//! its own, below both the runner of each level ([`super::levels`]) and the course itself, so
//! that neither imports the other.
//!
//! # Complexity
//! Parsing a level list is linear in its length; everything else is data.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::encode::cnf::CnfOptions;
use crate::grid::Grid;
use crate::reduce::conflict::Conflict;
use crate::reduce::latin::LatinReductionError;
use crate::reduce::reduction::{
    CNF_SIZE_NAMES, COVER_SIZE_NAMES, GRAPH_SIZE_NAMES, GRID_SIZE_NAMES, ILP_SIZE_NAMES,
    InstanceSize, ReductionError, SizeNames,
};
use crate::search::{Limits, Stats, StopReason};
use crate::solve::{SolveError, UnknownBackend};

/// A count of solutions: exact, or a lower bound (a limit or a budget stopped it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Solutions counted.
    pub count: u64,
    /// Whether that is all of them.
    pub exact: bool,
}

impl Count {
    /// "4" or "at least 100".
    pub fn words(&self) -> String {
        if self.exact {
            self.count.to_string()
        } else {
            format!("at least {}", self.count)
        }
    }

    /// "1 completion", "4 completions", "at least 100 solutions": the count and `noun`, plural
    /// unless it is exactly one.
    pub fn of(&self, noun: &str) -> String {
        if self.exact && self.count == 1 {
            format!("1 {noun}")
        } else {
            format!("{} {noun}s", self.words())
        }
    }
}

/// The counts of a course in one sentence (no capital, no full stop), or `None` when nothing
/// was counted: `completions` counted on the square, `solutions` on its Sudoku. The reduction
/// keeps the count, so two exact counts are equal; two lower bounds are said to be lower bounds,
/// not presented as a check that the counts agree; a count of the Sudoku alone gives the
/// square's. Zero is worded as any other count.
pub fn count_sentence(completions: Option<Count>, solutions: Option<Count>) -> Option<String> {
    Some(match (completions, solutions) {
        (Some(a), Some(b)) if a.exact && b.exact && a.count == b.count => format!(
            "the square has {} and its Sudoku {}, counted separately: equal, as the reduction \
             keeps the count",
            a.of("completion"),
            b.of("solution")
        ),
        (Some(a), Some(b)) if a.exact && b.exact => format!(
            "the square has {} and its Sudoku {}, counted separately: they differ, which the \
             reduction forbids (a solver is wrong)",
            a.of("completion"),
            b.of("solution")
        ),
        (Some(a), Some(b)) => format!(
            "the square has {} and its Sudoku {}, counted separately up to the limit: lower \
             bounds, which do not show that the counts agree (a higher limit counts them exactly)",
            a.of("completion"),
            b.of("solution")
        ),
        (Some(a), None) => format!("the square has {}", a.of("completion")),
        (None, Some(b)) => format!(
            "its Sudoku has {}, so the square has {}: the reduction keeps the count",
            b.of("solution"),
            b.of("completion")
        ),
        (None, None) => return None,
    })
}

/// One level of the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// The partial Latin square, solved directly.
    Latin,
    /// Its Sudoku.
    Sudoku,
    /// The Sudoku's CNF.
    Cnf,
    /// The Sudoku's 0-1 integer program.
    Ilp,
    /// The Sudoku's exact cover.
    ExactCover,
    /// The Sudoku's precoloured graph.
    Colouring,
}

impl Level {
    /// Every level, in chain order.
    pub const ALL: [Level; 6] = [
        Level::Latin,
        Level::Sudoku,
        Level::Cnf,
        Level::Ilp,
        Level::ExactCover,
        Level::Colouring,
    ];

    /// The name users type: `latin`, `sudoku`, `cnf`, `ilp`, `exact-cover`, `colouring`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Latin => "latin",
            Level::Sudoku => "sudoku",
            Level::Cnf => "cnf",
            Level::Ilp => "ilp",
            Level::ExactCover => "exact-cover",
            Level::Colouring => "colouring",
        }
    }

    /// What the level's four sizes are called (variables, constraints, entries, fixed).
    pub fn size_names(self) -> SizeNames {
        match self {
            Level::Latin | Level::Sudoku => GRID_SIZE_NAMES,
            Level::Cnf => CNF_SIZE_NAMES,
            Level::Ilp => ILP_SIZE_NAMES,
            Level::ExactCover => COVER_SIZE_NAMES,
            Level::Colouring => GRAPH_SIZE_NAMES,
        }
    }

    /// The level in words: "Latin square", "Sudoku", "CNF", "0-1 ILP", "exact cover", "graph
    /// precolouring".
    pub fn title(self) -> &'static str {
        match self {
            Level::Latin => "Latin square",
            Level::Sudoku => "Sudoku",
            Level::Cnf => "CNF",
            Level::Ilp => "0-1 ILP",
            Level::ExactCover => "exact cover",
            Level::Colouring => "graph precolouring",
        }
    }

    /// A comma-separated list of levels (`all` for every one), in chain order, each once.
    ///
    /// # Errors
    /// [`CourseError::UnknownLevel`] for a name that is no level.
    pub fn parse_list(list: &str) -> Result<Vec<Level>, CourseError> {
        let mut chosen = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                chosen.extend(Level::ALL);
            } else {
                chosen.push(name.parse()?);
            }
        }
        Ok(Level::ALL
            .into_iter()
            .filter(|l| chosen.contains(l))
            .collect())
    }
}

/// The level names, and the names of the export formats that are the same target.
impl FromStr for Level {
    type Err = CourseError;

    fn from_str(name: &str) -> Result<Level, CourseError> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "latin" => Level::Latin,
            "sudoku" => Level::Sudoku,
            "cnf" | "sat" => Level::Cnf,
            "ilp" | "lp" | "mip" => Level::Ilp,
            "exact-cover" | "dlx" => Level::ExactCover,
            "colouring" | "coloring" | "col" => Level::Colouring,
            _ => return Err(CourseError::UnknownLevel(name.to_string())),
        })
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct CourseOptions {
    /// The levels, in chain order.
    pub levels: Vec<Level>,
    /// The backend of the Latin and Sudoku levels (a registry spec; `native` by default).
    pub backend: String,
    /// The CNF encoding (extended with pairwise AMO by default).
    pub cnf: CnfOptions,
    /// The MIP backend of the ILP level: `mip` (microlp) or `highs`.
    pub mip: String,
    /// Limits for each solver run.
    pub limits: Limits,
    /// Count the Sudoku's solutions (and the square's completions) up to this limit, within
    /// [`CourseOptions::limits`]; `None` counts both only where it is cheap (see
    /// [`crate::reduce::course::CHEAP_COUNT`]). The reduction keeps the count.
    pub count: Option<u64>,
    /// Where to keep the CNF level's proof files; `None` writes them to a temporary directory,
    /// measured, checked and removed.
    pub proof_dir: Option<PathBuf>,
    /// Look for a minimal conflict when the square has no completion, up to this order (0: never).
    pub conflict_max_order: usize,
}

impl Default for CourseOptions {
    fn default() -> CourseOptions {
        CourseOptions {
            levels: Level::ALL.to_vec(),
            backend: crate::solve::DEFAULT_BACKEND.into(),
            cnf: CnfOptions::default(),
            mip: "mip".into(),
            limits: Limits::none(),
            count: None,
            proof_dir: None,
            conflict_max_order: 8,
        }
    }
}

/// Why a level answers "no".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    /// A refutation of the CNF, checked by varisat's proof checker and written as LRAT and DRAT.
    Proof {
        /// Steps of the LRAT proof (its lines).
        lrat_steps: usize,
        /// Size of the LRAT file in bytes.
        lrat_bytes: u64,
        /// Clauses the DRAT proof adds.
        drat_lemmas: usize,
        /// The LRAT file, when the proof files were kept.
        lrat: Option<PathBuf>,
        /// Time to write and check the proof.
        time: Duration,
    },
    /// A search tree explored to the end without a solution.
    Search {
        /// What searched ("DLX search tree", "branch-and-bound tree", ...).
        what: &'static str,
        /// Its nodes.
        nodes: u64,
    },
    /// Substituting the givens leaves a row that cannot hold: infeasible before any solver runs.
    Presolve,
    /// No proof object (a limit stopped the proof run).
    Missing,
}

/// What one level answered, after every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelAnswer {
    /// A solution at the level, checked there, mapped back and verified down to the square.
    Completed {
        /// The level's answer in words ("a model satisfying all 12062 clauses, 81 of 729
        /// variables true").
        witness: String,
        /// The Sudoku solution it maps back to (none at the Latin level).
        sudoku_solution: Option<Grid>,
        /// The completion of the square (verified).
        completion: Grid,
    },
    /// No solution at this level, hence no completion.
    NoCompletion(Evidence),
    /// A limit stopped the solver.
    Unknown(StopReason),
    /// The level was not run (the order is above what its solver takes).
    Skipped(String),
}

/// One level's run.
#[derive(Debug, Clone)]
pub struct LevelRun {
    /// The level.
    pub level: Level,
    /// The instance in words ("CNF (extended, pairwise AMO)").
    pub instance: String,
    /// The solver that ran.
    pub solver: String,
    /// What the four size numbers count.
    pub names: SizeNames,
    /// The instance's size, measured on it.
    pub size: InstanceSize,
    /// The size the reduction's formula predicts (none for the square itself).
    pub predicted: Option<InstanceSize>,
    /// The answer.
    pub answer: LevelAnswer,
    /// Time to build the instance from the Sudoku (from the square for the Sudoku level).
    pub reduce_time: Duration,
    /// Time of the solver.
    pub solve_time: Duration,
    /// Time of the checks and the back-map.
    pub check_time: Duration,
    /// The solver's counters.
    pub stats: Stats,
}

/// What the levels say together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CourseVerdict {
    /// Every level that answered found a completion (the first one found is kept).
    Completed(Grid),
    /// Every level that answered found none.
    NoCompletion,
    /// No level answered (limits, or every level skipped).
    Unknown,
}

/// One square through the chain.
#[derive(Debug, Clone)]
pub struct Course {
    /// The partial Latin square.
    pub latin: Grid,
    /// Its Sudoku.
    pub sudoku: Grid,
    /// Time of the reduction Latin square → Sudoku.
    pub reduce_time: Duration,
    /// The levels run, in chain order.
    pub levels: Vec<LevelRun>,
    /// What they say.
    pub verdict: CourseVerdict,
    /// The Sudoku's solutions, counted (see [`CourseOptions::count`]).
    pub count: Option<Count>,
    /// The square's completions, counted the same way: equal to [`Course::count`] when both
    /// are exact (the reduction keeps the count).
    pub completions: Option<Count>,
    /// A minimal conflict, for a square with no completion (small orders).
    pub conflict: Option<Conflict>,
    /// The CNF encoding of the CNF level.
    pub cnf: CnfOptions,
}

impl Course {
    /// The run of `level`, if it was chosen.
    pub fn level(&self, level: Level) -> Option<&LevelRun> {
        self.levels.iter().find(|l| l.level == level)
    }
}

/// Why the course could not run.
#[derive(Debug, Error)]
pub enum CourseError {
    /// A level name that is none.
    #[error(
        "unknown level '{0}' (levels: latin, sudoku, cnf, ilp, exact-cover, colouring, or all)"
    )]
    UnknownLevel(String),
    /// The square is too large to reduce.
    #[error(transparent)]
    Latin(#[from] LatinReductionError),
    /// A check or a back-map failed: a solver returned a wrong answer.
    #[error("{level} level: {source}")]
    Check {
        /// The level.
        level: &'static str,
        /// What failed.
        source: ReductionError,
    },
    /// A backend name that is none.
    #[error(transparent)]
    Backend(#[from] UnknownBackend),
    /// A solver failed.
    #[error("{level} level: {source}")]
    Solve {
        /// The level.
        level: &'static str,
        /// The failure.
        source: SolveError,
    },
    /// The CNF level's proof could not be written or was rejected.
    #[error("CNF level: proof: {0}")]
    Proof(String),
    /// The square's completions and its Sudoku's solutions were counted to different numbers.
    #[error(
        "the counts disagree: the square has {completions} completions, its Sudoku {solutions} \
         solutions"
    )]
    CountsDiffer {
        /// The square's count.
        completions: String,
        /// The Sudoku's count.
        solutions: String,
    },
    /// Two levels disagree: one found a completion, another proved there is none.
    #[error("the levels disagree: {yes} found a completion, {no} proved there is none")]
    Disagreement {
        /// A level that found one.
        yes: &'static str,
        /// A level that found none.
        no: &'static str,
    },
}
