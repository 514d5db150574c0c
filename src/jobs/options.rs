//! The validation every job shares, done once for every front end: time budgets, counts that
//! must be at least 1, worker threads, the backend spec that `--backend`, `--scheme`,
//! `--encoding` and `--amo` name together, the scheme lists and `--shave`, and the order cap
//! `--max-n`.
//!
//! Each job's options type (`SolveOptions`, `GradeOptions`, ...) is plain data with serde:
//! the command line fills it from its flags, the Python package from keyword arguments, a Dask
//! task from the JSON of its shard description; `Job::new(options)` checks it with the functions
//! here and returns an [`OptionError`] naming the option (by its command-line name,
//! [`OptionError::option`]) when it is wrong.
//!
//! # Examples
//! ```
//! use sudokit::jobs::options::{backend_spec, limits};
//! assert_eq!(backend_spec("cp", Some("HACS"), None, None).unwrap(), "cp:HACS");
//! assert!(backend_spec("native", Some("HACS"), None, None).is_err());
//! let error = limits(Some(-1.0), None).unwrap_err();
//! assert_eq!(error.to_string(), "--time-limit must be a positive number of seconds, not -1");
//! assert_eq!(error.option(), Some("time-limit"));
//! ```

use std::time::Duration;

use thiserror::Error;

use crate::encode::cnf::{Amo, Encoding};
use crate::propagate::{Scheme, Shaving};
use crate::search::Limits;
use crate::solve::registry::UnknownBackend;
use crate::solve::sat::Sat;

/// An option that is wrong: the message names it by its command-line flag (`--time-limit`);
/// [`OptionError::option`] gives the bare name (`time-limit`) for front ends that spell it
/// otherwise (`time_limit` in Python).
#[derive(Debug, Error)]
pub enum OptionError {
    /// A time that is not a positive number of seconds.
    #[error("--{option} must be a positive number of seconds, not {value}")]
    Seconds {
        /// The option.
        option: &'static str,
        /// The value given.
        value: f64,
    },
    /// A count of 0 where at least 1 is needed.
    #[error("--{option} must be at least 1")]
    AtLeastOne {
        /// The option.
        option: &'static str,
    },
    /// A value the option does not take.
    #[error("--{option}: {message}")]
    Invalid {
        /// The option.
        option: &'static str,
        /// What is wrong, with the values it takes.
        message: String,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Conflict(String),
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
    #[error("--{option}: cannot create {}", path.display())]
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
    /// The option at fault, by its command-line name without dashes (`time-limit`), when one
    /// is.
    pub fn option(&self) -> Option<&'static str> {
        match self {
            OptionError::Seconds { option, .. }
            | OptionError::AtLeastOne { option }
            | OptionError::Invalid { option, .. }
            | OptionError::Directory { option, .. } => Some(option),
            OptionError::Backend(_) => Some("backend"),
            OptionError::Conflict(_) | OptionError::Malformed(_) => None,
            OptionError::Latin(_) => Some("order"),
            OptionError::SolverTable(_) => Some("solvers"),
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
        time: time_limit.map(|s| seconds("time-limit", s)).transpose()?,
        nodes: at_least_one("node-limit", node_limit)?,
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

/// The backend spec that `--backend`, `--scheme`, `--encoding` and `--amo` name together:
/// `--backend cp --scheme S` is `cp:S`, `--backend sat --encoding E --amo A` is `sat:E:A`. A
/// flag that contradicts the spec, or goes with another backend, is refused.
///
/// # Errors
/// [`OptionError::Conflict`] naming the clash.
pub fn backend_spec(
    backend: &str,
    scheme: Option<&str>,
    encoding: Option<Encoding>,
    amo: Option<Amo>,
) -> Result<String, OptionError> {
    let spec = match (scheme, backend) {
        (None, spec) => spec.to_string(),
        (Some(scheme), "cp") => format!("cp:{scheme}"),
        (Some(_), other) => {
            return Err(OptionError::Conflict(format!(
                "--scheme goes with --backend cp, not {other}"
            )));
        }
    };
    if encoding.is_none() && amo.is_none() {
        return Ok(spec);
    }
    let Ok(base) = spec.parse::<Sat>() else {
        return Err(OptionError::Conflict(format!(
            "--encoding and --amo go with --backend sat, not {spec}"
        )));
    };
    let named: Vec<&str> = spec.split(':').skip(1).collect();
    let mut options = base.options();
    if let Some(encoding) = encoding {
        if let Some(&given) = named.first().filter(|&&e| e != encoding.name()) {
            return Err(OptionError::Conflict(format!(
                "--backend {spec} names the encoding {given}; --encoding {encoding} contradicts it"
            )));
        }
        options.encoding = encoding;
    }
    if let Some(amo) = amo {
        if let Some(&given) = named.get(1).filter(|&&a| a != amo.name()) {
            return Err(OptionError::Conflict(format!(
                "--backend {spec} names the at-most-one encoding {given}; --amo {amo} contradicts it"
            )));
        }
        options.amo = amo;
    }
    Ok(crate::solve::Solver::name(&Sat::new(options)).to_string())
}

/// How the shaving schemes shave (`--shave`), when the user overrides their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shave {
    /// One pass over the cells (the paper's V): FCV+ means FCV.
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
    fn flags_fold_into_one_backend_spec() {
        assert_eq!(backend_spec("native", None, None, None).unwrap(), "native");
        assert_eq!(
            backend_spec("sat", None, Some(Encoding::Minimal), None).unwrap(),
            "sat:minimal:pairwise"
        );
        assert_eq!(
            backend_spec("sat:minimal", None, None, Some(Amo::Sequential)).unwrap(),
            "sat:minimal:sequential"
        );
        assert!(backend_spec("sat:minimal", None, Some(Encoding::Optimized), None).is_err());
        assert!(backend_spec("dlx", None, Some(Encoding::Minimal), None).is_err());
    }

    #[test]
    fn counts_and_times_are_checked() {
        assert!(limits(Some(0.0), None).is_err());
        assert!(limits(Some(f64::NAN), None).is_err());
        assert_eq!(
            limits(None, Some(0)).unwrap_err().to_string(),
            "--node-limit must be at least 1"
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
