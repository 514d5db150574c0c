//! The validation every job shares, done once for every front end: time budgets, counts that
//! must be at least 1, worker threads, the scheme lists and `shave`, and the errors that name
//! an option. The options several jobs share (the backend, its parts, the budgets) are defined
//! once in [`super::solver_options`].
//!
//! Each job's options type (`SolveOptions`, `GradeOptions`, ...) is plain data with serde:
//! the command line fills it from its flags, the Python package from keyword arguments, a Dask
//! task from the JSON of its shard description; `Job::new(options)` checks it with the functions
//! here and returns an [`OptionError`] when it is wrong.
//!
//! # Options named as the caller spells them
//! An [`OptionError`] names its options by their names in the options types (the serde keys:
//! `time_limit`, `max_order`, `proof_dir`), kept apart from the text of the message
//! ([`OptionError::option`], and [`Said`] for a message about several options). Its `Display`
//! spells them so, which is what a Rust caller and Python's keyword arguments use; a front end
//! with other names renders the message with [`OptionError::spelled`] (the command line:
//! `--time-limit`, `--max-n`, `--proof`).
//!
//! # Examples
//! ```
//! use sudokit::jobs::options::limits;
//! let error = limits(Some(-1.0), None).unwrap_err();
//! assert_eq!(error.to_string(), "time_limit must be a positive number of seconds, not -1");
//! assert_eq!(error.option(), Some("time_limit"));
//! let flag = |name: &str| format!("--{}", name.replace('_', "-"));
//! assert_eq!(
//!     error.spelled(&flag),
//!     "--time-limit must be a positive number of seconds, not -1"
//! );
//! ```

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use crate::propagate::{Scheme, Shaving};
use crate::search::Limits;
use crate::solve::registry::UnknownBackend;

/// An option named in a message, by its name in the options types (`time_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt(pub &'static str);

/// A piece of a [`Said`]: text, or an option to spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Words (and values) as they are.
    Text(String),
    /// An option, spelled by the front end.
    Option(&'static str),
}

impl From<Opt> for Part {
    fn from(option: Opt) -> Part {
        Part::Option(option.0)
    }
}

impl From<&str> for Part {
    fn from(text: &str) -> Part {
        Part::Text(text.to_string())
    }
}

impl From<String> for Part {
    fn from(text: String) -> Part {
        Part::Text(text)
    }
}

/// A message about options that names them apart from its words, so that each front end spells
/// them its own way (`scheme goes with backend cp` in Python, `--scheme goes with --backend cp`
/// on the command line). `Display` spells them by their names in the options types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said(pub Vec<Part>);

/// A [`Said`] of its parts: strings are words, [`Opt`]s are options.
macro_rules! said {
    ($($part:expr),+ $(,)?) => {
        $crate::jobs::options::Said(vec![$($crate::jobs::options::Part::from($part)),+])
    };
}
pub(crate) use said;

impl Said {
    /// The message with each option spelled by `spell` (given the option's name).
    pub fn spelled(&self, spell: &dyn Fn(&str) -> String) -> String {
        self.0
            .iter()
            .map(|part| match part {
                Part::Text(text) => text.clone(),
                Part::Option(name) => spell(name),
            })
            .collect()
    }

    /// The options the message names, in order.
    pub fn options(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().filter_map(|part| match part {
            Part::Option(name) => Some(*name),
            Part::Text(_) => None,
        })
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelled(&keyword))
    }
}

/// An option's name as the options types (and Python's keywords) spell it: `time_limit`
/// (a name given with dashes, `max-n`, has them as underscores).
pub fn keyword(name: &str) -> String {
    name.replace('-', "_")
}

/// An option that is wrong. The options are named apart from the words (see the module docs):
/// `Display` spells them as the options types do (`time_limit`), [`OptionError::spelled`] as a
/// front end does.
#[derive(Debug, Error)]
pub enum OptionError {
    /// A time that is not a positive number of seconds.
    #[error(
        "{} must be a positive number of seconds, not {value}",
        keyword(option)
    )]
    Seconds {
        /// The option.
        option: &'static str,
        /// The value given.
        value: f64,
    },
    /// A count of 0 where at least 1 is needed.
    #[error("{} must be at least 1", keyword(option))]
    AtLeastOne {
        /// The option.
        option: &'static str,
    },
    /// A value the option does not take.
    #[error("{}: {message}", keyword(option))]
    Invalid {
        /// The option.
        option: &'static str,
        /// What is wrong, with the values it takes (naming no option).
        message: String,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Conflict(Said),
    /// Random Latin squares that cannot be made (an order, or more holes or givens than cells).
    #[error(transparent)]
    Latin(#[from] crate::generate::latin::LatinGenError),
    /// Options that are not the command's, or of the wrong type (from their serde form).
    #[error("{0}")]
    Malformed(String),
    /// A backend the registry cannot build.
    #[error(transparent)]
    Backend(#[from] UnknownBackend),
    /// The solver table (built in, with the user's file) cannot be read or is not valid.
    /// (Its message holds the table's error whole; it is not also its source, so a chain of
    /// causes does not say it twice.)
    #[error("cannot read the solver table: {0}")]
    SolverTable(crate::external::ExternalError),
    /// A directory the job must write to cannot be made.
    #[error("{}: cannot create {}", keyword(option), path.display())]
    Directory {
        /// The option.
        option: &'static str,
        /// The directory.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl From<crate::external::ExternalError> for OptionError {
    fn from(error: crate::external::ExternalError) -> OptionError {
        OptionError::SolverTable(error)
    }
}

impl OptionError {
    /// The option at fault, by its name in the options types (`time_limit`), when one is (the
    /// first of a conflict's).
    pub fn option(&self) -> Option<&'static str> {
        match self {
            OptionError::Seconds { option, .. }
            | OptionError::AtLeastOne { option }
            | OptionError::Invalid { option, .. }
            | OptionError::Directory { option, .. } => Some(option),
            OptionError::Backend(_) => Some("backend"),
            OptionError::Conflict(said) => said.options().next(),
            OptionError::Malformed(_) => None,
            OptionError::Latin(_) => Some("order"),
            OptionError::SolverTable(_) => Some("solvers"),
        }
    }

    /// The message with every option it names spelled by `spell`, given the option's name in
    /// the options types (`time_limit`): `--time-limit` for the command line. (The causes, a
    /// directory's I/O error say, are the error's [`std::error::Error::source`].)
    pub fn spelled(&self, spell: &dyn Fn(&str) -> String) -> String {
        let name = |option: &str| spell(&keyword(option));
        match self {
            OptionError::Seconds { option, value } => format!(
                "{} must be a positive number of seconds, not {value}",
                name(option)
            ),
            OptionError::AtLeastOne { option } => format!("{} must be at least 1", name(option)),
            OptionError::Invalid { option, message } => format!("{}: {message}", name(option)),
            OptionError::Conflict(said) => said.spelled(&|option| name(option)),
            OptionError::Directory { option, path, .. } => {
                format!("{}: cannot create {}", name(option), path.display())
            }
            other => other.to_string(),
        }
    }
}

/// A number of seconds: finite and positive; one too large for a [`Duration`] is as good as no
/// limit (the largest duration).
///
/// # Errors
/// [`OptionError::Seconds`].
pub fn seconds(option: &'static str, value: f64) -> Result<Duration, OptionError> {
    if !(value.is_finite() && value > 0.0) {
        return Err(OptionError::Seconds { option, value });
    }
    Ok(Duration::try_from_secs_f64(value).unwrap_or(Duration::MAX))
}

/// A count that must be at least 1 when given (`--limit`, `--node-limit`, `--max-n`,
/// `--threads`): one rule for every such option.
///
/// # Errors
/// [`OptionError::AtLeastOne`] for 0.
pub fn at_least_one<T: Copy + PartialEq + Default>(
    option: &'static str,
    value: Option<T>,
) -> Result<Option<T>, OptionError> {
    match value {
        Some(v) if v == T::default() => Err(OptionError::AtLeastOne { option }),
        other => Ok(other),
    }
}

/// The per-item limits of `--time-limit SECONDS` and `--node-limit N`.
///
/// # Errors
/// A time that is not positive, a node budget of 0.
pub fn limits(time_limit: Option<f64>, node_limit: Option<u64>) -> Result<Limits, OptionError> {
    Ok(Limits {
        time: time_limit.map(|s| seconds("time_limit", s)).transpose()?,
        nodes: at_least_one("node_limit", node_limit)?,
        cancel: None,
    })
}

/// The cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads a job starts: a few per core. More only cost memory and start-up
/// time (`--threads 10000` on one puzzle once took two minutes).
pub fn max_threads() -> usize {
    4 * cores()
}

/// `--threads N`: all cores when not given, at most [`max_threads`].
///
/// # Errors
/// [`OptionError::AtLeastOne`] for 0.
pub fn threads(requested: Option<usize>) -> Result<usize, OptionError> {
    Ok(match at_least_one("threads", requested)? {
        None => cores(),
        // Up to 4 threads never exceed the cap: no need to ask how many cores there are (a
        // cgroup read per run).
        Some(n) if n <= 4 => n,
        Some(n) => n.min(max_threads()),
    })
}

/// The note a front end shows when `--threads N` was capped by [`threads`].
pub fn threads_note(requested: Option<usize>) -> Option<String> {
    let n = requested?;
    (n > 4 && n > max_threads()).then(|| {
        format!(
            "--threads {n} is more than 4 per core; using {} ({} cores)",
            max_threads(),
            cores()
        )
    })
}

/// How the shaving schemes shave (`shave`), when the user overrides their names. (With the
/// feature `cli`, also the command line's values of `--shave`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Shave {
    /// One pass over the cells (Simonis' V): FCV+ means FCV.
    Once,
    /// Passes until one removes nothing: FCV means FCV+.
    Fixpoint,
}

impl Shave {
    /// Both modes.
    pub const ALL: [Shave; 2] = [Shave::Once, Shave::Fixpoint];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Shave::Once => "once",
            Shave::Fixpoint => "fixpoint",
        }
    }

    /// `scheme` shaved as `shave` says (as named without it, and for a scheme that does not
    /// shave).
    pub fn apply(shave: Option<Shave>, scheme: Scheme) -> Scheme {
        match shave {
            None => scheme,
            Some(Shave::Once) => scheme.with_shaving(Shaving::Once),
            Some(Shave::Fixpoint) => scheme.with_shaving(Shaving::Fixpoint),
        }
    }
}

impl std::fmt::Display for Shave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Shave {
    type Err = String;

    fn from_str(s: &str) -> Result<Shave, String> {
        Shave::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("shave takes once or fixpoint, not {s}"))
    }
}

/// The schemes a list names (`all`, `paper`, `FC,HAC`), shaved as `shave` says, repeats
/// dropped.
///
/// # Errors
/// [`OptionError::Invalid`] naming the unknown scheme.
pub fn schemes(list: &str, shave: Option<Shave>) -> Result<Vec<Scheme>, OptionError> {
    let parsed = Scheme::parse_list(list).map_err(|e| OptionError::Invalid {
        option: "schemes",
        message: e.to_string(),
    })?;
    let mut out: Vec<Scheme> = Vec::new();
    for scheme in parsed {
        let scheme = Shave::apply(shave, scheme);
        if !out.contains(&scheme) {
            out.push(scheme);
        }
    }
    Ok(out)
}

/// One scheme (`--scheme HACS`), shaved as `shave` says.
///
/// # Errors
/// [`OptionError::Invalid`] naming the unknown scheme.
pub fn scheme(
    option: &'static str,
    name: &str,
    shave: Option<Shave>,
) -> Result<Scheme, OptionError> {
    let scheme: Scheme =
        name.parse()
            .map_err(|e: crate::propagate::SchemeError| OptionError::Invalid {
                option,
                message: e.to_string(),
            })?;
    Ok(Shave::apply(shave, scheme))
}

/// Serde of a value through its text (`Display` and `FromStr`): the options of a job read and
/// written as the names users type (`"HACS"`, `"rot180"`, `"once"`).
pub mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the value's text.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads the value from its text.
    ///
    /// # Errors
    /// The text does not parse.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }

    /// The same for an optional value (`null` for `None`).
    pub mod option {
        use std::fmt::Display;
        use std::str::FromStr;

        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes the value's text, or `null`.
        ///
        /// # Errors
        /// The serializer's.
        pub fn serialize<T: Display, S: Serializer>(
            value: &Option<T>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match value {
                Some(v) => s.collect_str(v),
                None => s.serialize_none(),
            }
        }

        /// Reads the value from its text, or `null`.
        ///
        /// # Errors
        /// The text does not parse.
        pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
        where
            T: FromStr,
            T::Err: Display,
            D: Deserializer<'de>,
        {
            Option::<String>::deserialize(d)?
                .map(|text| text.parse().map_err(serde::de::Error::custom))
                .transpose()
        }
    }
}

/// The identity of a job's options (see `Job::identity`): their JSON without the keys that do
/// not shape the records (`threads`, `time_limit`, `node_limit`).
pub fn identity(options: &impl serde::Serialize) -> serde_json::Value {
    let mut value = serde_json::to_value(options).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        for key in ["threads", "time_limit", "node_limit"] {
            map.remove(key);
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_spell_their_options_as_the_caller_does() {
        let conflict = OptionError::Conflict(said!(
            Opt("proof_dir"),
            " goes with ",
            Opt("backend"),
            " sat, not dlx"
        ));
        assert_eq!(
            conflict.to_string(),
            "proof_dir goes with backend sat, not dlx"
        );
        assert_eq!(conflict.option(), Some("proof_dir"));
        let flags = |name: &str| match name {
            "proof_dir" => "--proof".to_string(),
            other => format!("--{}", other.replace('_', "-")),
        };
        assert_eq!(
            conflict.spelled(&flags),
            "--proof goes with --backend sat, not dlx"
        );
        // A name given with dashes is the same option.
        let dashed = OptionError::AtLeastOne { option: "max-n" };
        assert_eq!(dashed.to_string(), "max_n must be at least 1");
        assert_eq!(dashed.spelled(&flags), "--max-n must be at least 1");
    }

    #[test]
    fn counts_and_times_are_checked() {
        assert!(limits(Some(0.0), None).is_err());
        assert!(limits(Some(f64::NAN), None).is_err());
        assert_eq!(
            limits(None, Some(0)).unwrap_err().to_string(),
            "node_limit must be at least 1"
        );
        assert_eq!(limits(Some(1e300), None).unwrap().time, Some(Duration::MAX));
        assert!(threads(Some(0)).is_err());
        assert_eq!(threads(Some(usize::MAX)).unwrap(), max_threads());
        assert!(threads_note(Some(usize::MAX)).is_some());
    }

    #[test]
    fn shaving_overrides_the_names() {
        let listed = schemes("FCV,FCV+", Some(Shave::Once)).unwrap();
        assert_eq!(listed.len(), 1, "FCV+ shaved once is FCV");
        assert_eq!(schemes("paper", None).unwrap().len(), 15);
        assert!(
            schemes("XYZ", None)
                .unwrap_err()
                .to_string()
                .contains("XYZ")
        );
        assert_eq!("fixpoint".parse::<Shave>(), Ok(Shave::Fixpoint));
    }
}
