//! The options the solving jobs share, defined once and flattened (`#[serde(flatten)]`) into each
//! job's options, so that every front end fills them the same way:
//!
//! - [`RunOptions`] (`time_limit`, `node_limit`, `threads`): how each item runs; in `solve`,
//!   `count`, `grade` and `crosscheck`;
//! - [`SolverOptions`] (`backend`, `scheme`, `encoding`, `amo`, `max_order`,
//!   `require_certificate`): the backend of the jobs that run one (`solve`, `count`), built
//!   from its typed parts ([`BackendSpec`]).
//!
//! Flattened, they keep the keys a job's options always had (`{"backend": "sat", "encoding":
//! "minimal", "time_limit": 1}`): Python's keyword arguments and a Dask shard's JSON do not
//! change. A job's options end with [`NoOtherKeys`], so a key that none of their parts takes is
//! still refused by name (serde's `deny_unknown_fields` does not work beside `flatten`). The
//! shared structs hold plain fields, one level deep, for the same reason.
//!
//! # The backend from typed parts
//! `backend` is the registry's spelling, as users type it (`native`, `cp:HACS`,
//! `sat:cadical:minimal:sequential`, `ext:z3`); `scheme`, `encoding` and `amo` are typed values
//! ([`Scheme`], [`Encoding`], [`Amo`]). [`BackendSpec::solver`] builds the backend from them
//! directly (a [`Cp`] with the scheme, a [`Sat`] with the encoding and AMO), never by writing a
//! spec and parsing it again. A part that goes with another family (`scheme` with `sat`), or that
//! contradicts what the spelling names (`sat:minimal` with the encoding `optimized`), is a
//! [`OptionError::Conflict`].
//!
//! # Defaults
//! `time_limit: None` is the job's default budget: none for `solve` and `count`, 10 seconds for
//! `grade` and `crosscheck` (their `DEFAULT_TIME_LIMIT`, which their `Default` options show);
//! `threads: None` is every core.
//!
//! # Examples
//! ```
//! use sudokit::encode::cnf::{Amo, Encoding};
//! use sudokit::jobs::solver_options::BackendSpec;
//! let spec = BackendSpec {
//!     backend: "sat".into(),
//!     encoding: Some(Encoding::Minimal),
//!     amo: Some(Amo::Sequential),
//!     ..BackendSpec::default()
//! };
//! assert_eq!(spec.solver().unwrap().name(), "sat:minimal:sequential");
//! let clash = BackendSpec {
//!     scheme: Some("HACS".parse().unwrap()),
//!     ..BackendSpec::named("native")
//! };
//! let error = clash.solver().err().unwrap();
//! assert_eq!(error.to_string(), "scheme goes with backend cp, not native");
//! ```

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::capped::capped;
use super::options::{self, Opt, OptionError, as_text, said};
use crate::encode::cnf::{Amo, Encoding};
use crate::propagate::Scheme;
use crate::search::Limits;
use crate::solve::sat::Sat;
use crate::solve::{self, Cp, RequireCertificate, Solver, Verified};

/// How each item of a job runs: its budgets and the worker threads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunOptions {
    /// Seconds per item (`None`: the job's default, see the module docs).
    #[serde(deserialize_with = "keyed::time_limit")]
    pub time_limit: Option<f64>,
    /// Search nodes per item (`None`: no budget).
    #[serde(deserialize_with = "keyed::node_limit")]
    pub node_limit: Option<u64>,
    /// Worker threads (`None`: all cores).
    #[serde(deserialize_with = "keyed::threads")]
    pub threads: Option<usize>,
}

impl RunOptions {
    /// The per-item limits, with `default_time` when no time limit is given.
    ///
    /// # Errors
    /// A time that is not positive, a node budget of 0.
    pub fn limits(&self, default_time: Option<f64>) -> Result<Limits, OptionError> {
        options::limits(self.time_limit.or(default_time), self.node_limit)
    }

    /// The worker threads (all cores when not given, at most [`options::max_threads`]).
    ///
    /// # Errors
    /// 0 threads.
    pub fn threads(&self) -> Result<usize, OptionError> {
        options::threads(self.threads)
    }
}

/// A backend as typed parts: the registry's spelling and the parts given apart; see the module
/// docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendSpec {
    /// The backend as the registry spells it (`native`, `sat:minimal:pairwise`, `cp:HACS`,
    /// `ext:z3`).
    pub backend: String,
    /// The propagation scheme of the cp backend (`cp` with `HACS` is `cp:HACS`).
    pub scheme: Option<Scheme>,
    /// The CNF encoding of the sat backend.
    pub encoding: Option<Encoding>,
    /// The at-most-one encoding of the sat backend.
    pub amo: Option<Amo>,
}

impl Default for BackendSpec {
    /// The default backend, no parts.
    fn default() -> BackendSpec {
        BackendSpec::named(solve::DEFAULT_BACKEND)
    }
}

/// The backend a [`BackendSpec`] resolves to.
enum Resolved {
    /// `cp` with a scheme given apart.
    Cp(Cp),
    /// `sat` with an encoding or AMO given apart.
    Sat(Sat),
    /// The spelling alone, built by the registry.
    Registry(Box<dyn Solver>),
}

impl BackendSpec {
    /// The backend the registry spells `backend`, no parts.
    pub fn named(backend: &str) -> BackendSpec {
        BackendSpec {
            backend: backend.to_string(),
            scheme: None,
            encoding: None,
            amo: None,
        }
    }

    /// Whether these are the default backend's (the default spelling, no parts).
    pub fn is_default(&self) -> bool {
        *self == BackendSpec::default()
    }

    /// The backend, wrapped in [`Verified`] as the registry's are.
    ///
    /// # Errors
    /// An unknown backend (or one not in this build), a part that goes with another family or
    /// contradicts the spelling.
    pub fn solver(&self) -> Result<Box<dyn Solver>, OptionError> {
        Ok(match self.resolve()? {
            Resolved::Cp(cp) => Box::new(Verified(cp)),
            Resolved::Sat(sat) => Box::new(Verified(sat)),
            Resolved::Registry(solver) => solver,
        })
    }

    /// The sat backend these parts name, typed (for its proofs); `None` for another family.
    ///
    /// # Errors
    /// As [`BackendSpec::solver`].
    pub fn sat(&self) -> Result<Option<Sat>, OptionError> {
        Ok(match self.resolve()? {
            Resolved::Sat(sat) => Some(sat),
            Resolved::Cp(_) => None,
            Resolved::Registry(_) => self.backend.parse().ok(),
        })
    }

    fn family(&self) -> &str {
        self.backend.split(':').next().unwrap_or_default()
    }

    fn resolve(&self) -> Result<Resolved, OptionError> {
        let spec = &self.backend;
        // The spelling alone first: an unknown family or bad options say so in the registry's
        // words (with the family's syntax).
        let named = solve::backend(spec)?;
        let sat_parts: Vec<&'static str> =
            [self.encoding.map(|_| "encoding"), self.amo.map(|_| "amo")]
                .into_iter()
                .flatten()
                .collect();
        if let Some(scheme) = self.scheme {
            if self.family() != "cp" {
                return Err(conflict_family("scheme", "cp", spec));
            }
            if let Some(part) = sat_parts.first() {
                return Err(conflict_family(part, "sat", "cp"));
            }
            if spec.contains(':') && named.name() != Verified(Cp { scheme }).name() {
                return Err(OptionError::Conflict(said!(
                    Opt("backend"),
                    format!(" {spec} names another scheme; "),
                    Opt("scheme"),
                    format!(" {scheme} contradicts it"),
                )));
            }
            return Ok(Resolved::Cp(Cp { scheme }));
        }
        if sat_parts.is_empty() {
            return Ok(Resolved::Registry(named));
        }
        let Ok(sat) = spec.parse::<Sat>() else {
            return Err(OptionError::Conflict(said!(
                Opt("encoding"),
                " and ",
                Opt("amo"),
                " go with ",
                Opt("backend"),
                format!(" sat, not {spec}"),
            )));
        };
        // How many of the encoding and the AMO the spelling names: the parts after `sat` (and
        // `cadical`).
        let spelled = spec
            .split(':')
            .skip(1)
            .skip_while(|part| *part == "cadical")
            .count();
        let mut cnf = sat.options();
        if let Some(encoding) = self.encoding {
            if spelled >= 1 && cnf.encoding != encoding {
                return Err(contradiction(
                    spec,
                    "encoding",
                    cnf.encoding.name(),
                    "encoding",
                    encoding.name(),
                ));
            }
            cnf.encoding = encoding;
        }
        if let Some(amo) = self.amo {
            if spelled >= 2 && cnf.amo != amo {
                return Err(contradiction(
                    spec,
                    "at-most-one encoding",
                    cnf.amo.name(),
                    "amo",
                    amo.name(),
                ));
            }
            cnf.amo = amo;
        }
        Ok(Resolved::Sat(Sat::with_solver(cnf, sat.solver())))
    }
}

/// `option` goes with the backend `family`, not `spec`.
fn conflict_family(option: &'static str, family: &str, spec: &str) -> OptionError {
    OptionError::Conflict(said!(
        Opt(option),
        " goes with ",
        Opt("backend"),
        format!(" {family}, not {spec}"),
    ))
}

/// The spelling `spec` names `what` `named`; the option `option` says `given`.
fn contradiction(
    spec: &str,
    what: &str,
    named: &str,
    option: &'static str,
    given: &str,
) -> OptionError {
    OptionError::Conflict(said!(
        Opt("backend"),
        format!(" {spec} names the {what} {named}; "),
        Opt(option),
        format!(" {given} contradicts it"),
    ))
}

/// The options of the jobs that run one backend (`solve`, `count`): the backend's typed parts,
/// its cap on the order and whether it must certify its answers; see the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolverOptions {
    /// The backend as the registry spells it (`native`, `sat:minimal:pairwise`, `cp:HACS`,
    /// `ext:z3`).
    #[serde(deserialize_with = "keyed::backend")]
    pub backend: String,
    /// The propagation scheme of the cp backend (`cp` with `HACS` is `cp:HACS`).
    #[serde(
        serialize_with = "as_text::option::serialize",
        deserialize_with = "keyed::scheme"
    )]
    pub scheme: Option<Scheme>,
    /// The CNF encoding of the sat backend.
    #[serde(
        serialize_with = "as_text::option::serialize",
        deserialize_with = "keyed::encoding"
    )]
    pub encoding: Option<Encoding>,
    /// The at-most-one encoding of the sat backend.
    #[serde(
        serialize_with = "as_text::option::serialize",
        deserialize_with = "keyed::amo"
    )]
    pub amo: Option<Amo>,
    /// The largest order accepted; above it a puzzle is an error in place.
    #[serde(deserialize_with = "keyed::max_order")]
    pub max_order: Option<usize>,
    /// Refuse an answer that rests on an external solver's unchecked word: an `unsat`, a
    /// `unique` or an exact count without a checked refutation proof becomes an error.
    #[serde(deserialize_with = "keyed::require_certificate")]
    pub require_certificate: bool,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions::from(BackendSpec::default())
    }
}

impl From<BackendSpec> for SolverOptions {
    /// The backend of `spec`, uncapped, certificates not required.
    fn from(spec: BackendSpec) -> SolverOptions {
        SolverOptions {
            backend: spec.backend,
            scheme: spec.scheme,
            encoding: spec.encoding,
            amo: spec.amo,
            max_order: None,
            require_certificate: false,
        }
    }
}

impl SolverOptions {
    /// The backend's typed parts.
    pub fn spec(&self) -> BackendSpec {
        BackendSpec {
            backend: self.backend.clone(),
            scheme: self.scheme,
            encoding: self.encoding,
            amo: self.amo,
        }
    }

    /// The backend, refusing unchecked claims when `require_certificate` says and capped at
    /// `max_order`.
    ///
    /// # Errors
    /// As [`BackendSpec::solver`]; a `max_order` of 0.
    pub fn solver(&self) -> Result<Box<dyn Solver>, OptionError> {
        let solver = self.spec().solver()?;
        let solver = if self.require_certificate {
            Box::new(RequireCertificate(solver))
        } else {
            solver
        };
        capped(solver, self.max_order)
    }
}

/// The fields' deserializers, each naming its key in an error (`time_limit: invalid type ...`):
/// the fields of a flattened struct reach serde without their path.
mod keyed {
    use serde::de::{Deserialize, Deserializer, Error};

    use super::{Amo, Encoding, Scheme, as_text};

    macro_rules! keyed {
        ($($key:ident: $type:ty = $read:expr;)*) => {$(
            pub fn $key<'de, D: Deserializer<'de>>(d: D) -> Result<$type, D::Error> {
                $read(d).map_err(|e| D::Error::custom(format_args!("{}: {e}", stringify!($key))))
            }
        )*};
    }

    keyed! {
        time_limit: Option<f64> = Option::deserialize;
        node_limit: Option<u64> = Option::deserialize;
        threads: Option<usize> = Option::deserialize;
        backend: String = String::deserialize;
        scheme: Option<Scheme> = as_text::option::deserialize;
        encoding: Option<Encoding> = as_text::option::deserialize;
        amo: Option<Amo> = as_text::option::deserialize;
        max_order: Option<usize> = Option::deserialize;
        require_certificate: bool = bool::deserialize;
    }
}

/// The last field of a job's options that flatten shared ones: the keys none of its fields
/// took, refused by name (`unknown field `bakend``); it writes nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoOtherKeys;

impl Serialize for NoOtherKeys {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_map(Some(0))?.end()
    }
}

impl<'de> Deserialize<'de> for NoOtherKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NoOtherKeys, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = NoOtherKeys;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("no other keys")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NoOtherKeys, A::Error> {
                match map.next_key::<String>()? {
                    Some(key) => Err(de::Error::custom(format_args!("unknown field `{key}`"))),
                    None => Ok(NoOtherKeys),
                }
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(backend: &str, encoding: Option<Encoding>, amo: Option<Amo>) -> BackendSpec {
        BackendSpec {
            encoding,
            amo,
            ..BackendSpec::named(backend)
        }
    }

    fn name(spec: &BackendSpec) -> String {
        spec.solver()
            .map_or_else(|e| format!("error: {e}"), |s| s.name().to_string())
    }

    #[test]
    fn parts_build_the_backend_they_name() {
        assert_eq!(name(&BackendSpec::default()), "native");
        assert_eq!(
            name(&spec("sat", Some(Encoding::Minimal), None)),
            "sat:minimal:pairwise"
        );
        assert_eq!(
            name(&spec("sat:minimal", None, Some(Amo::Sequential))),
            "sat:minimal:sequential"
        );
        // The spelling alone is still taken whole.
        assert_eq!(
            name(&spec("sat:minimal:sequential", None, None)),
            "sat:minimal:sequential"
        );
        // Naming what the spelling names is no contradiction.
        assert_eq!(
            name(&spec(
                "sat:minimal",
                Some(Encoding::Minimal),
                Some(Amo::Sequential)
            )),
            "sat:minimal:sequential"
        );
        let cp = BackendSpec {
            scheme: Some(Scheme::HACS),
            ..BackendSpec::named("cp")
        };
        assert_eq!(name(&cp), "cp:HACS");
        let same = BackendSpec {
            scheme: Some(Scheme::HACS),
            ..BackendSpec::named("cp:HACS")
        };
        assert_eq!(name(&same), "cp:HACS");
        assert!(
            spec("sat", Some(Encoding::Minimal), None)
                .sat()
                .unwrap()
                .is_some()
        );
        assert!(cp.sat().unwrap().is_none());
        // `cadical` is the solver, not an encoding the spelling names.
        let cadical = spec("sat:cadical", Some(Encoding::Minimal), None);
        #[cfg(feature = "cadical")]
        assert_eq!(name(&cadical), "sat:cadical:minimal:pairwise");
        #[cfg(not(feature = "cadical"))]
        assert!(matches!(
            cadical.solver().map(|s| s.name().to_string()),
            Err(OptionError::Backend(_))
        ));
    }

    #[test]
    fn parts_that_clash_are_refused_by_name() {
        let clash = |s: &BackendSpec| s.solver().map(|s| s.name().to_string()).unwrap_err();
        let error = clash(&spec("sat:minimal", Some(Encoding::Optimized), None));
        assert_eq!(
            error.to_string(),
            "backend sat:minimal names the encoding minimal; encoding optimized contradicts it"
        );
        assert_eq!(error.option(), Some("backend"));
        let error = clash(&spec("dlx", Some(Encoding::Minimal), None));
        assert_eq!(
            error.to_string(),
            "encoding and amo go with backend sat, not dlx"
        );
        let mixed = BackendSpec {
            scheme: Some(Scheme::HACS),
            ..spec("cp", None, Some(Amo::Sequential))
        };
        assert_eq!(
            clash(&mixed).to_string(),
            "amo goes with backend sat, not cp"
        );
        let error = clash(&spec("sat:minimal:pairwise", None, Some(Amo::Sequential)));
        assert!(
            error.to_string().contains("amo sequential contradicts it"),
            "{error}"
        );
        let scheme = BackendSpec {
            scheme: Some(Scheme::HACS),
            ..BackendSpec::named("cp:FC")
        };
        assert!(clash(&scheme).to_string().contains("names another scheme"));
        let unknown = BackendSpec::named("nosuch");
        assert!(matches!(clash(&unknown), OptionError::Backend(_)));
    }

    #[test]
    fn flattened_options_keep_their_keys_and_refuse_others() {
        #[derive(Debug, Default, Serialize, Deserialize)]
        #[serde(default)]
        struct Job {
            #[serde(flatten)]
            solver: SolverOptions,
            #[serde(flatten)]
            run: RunOptions,
            own: bool,
            #[serde(flatten)]
            others: NoOtherKeys,
        }
        let job: Job = serde_json::from_str(
            r#"{"backend": "sat", "encoding": "minimal", "time_limit": 1.5, "own": true}"#,
        )
        .unwrap();
        assert_eq!(job.solver.encoding, Some(Encoding::Minimal));
        assert_eq!(job.run.time_limit, Some(1.5));
        assert!(job.own);
        let written = serde_json::to_value(&job).unwrap();
        let keys: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys.len(), 10, "{keys:?}");
        for key in [
            "backend",
            "scheme",
            "amo",
            "max_order",
            "time_limit",
            "threads",
            "own",
        ] {
            assert!(keys.contains(&key), "{key} in {keys:?}");
        }
        let error = serde_json::from_str::<Job>(r#"{"threads": 2, "bakend": "sat"}"#);
        assert!(
            error
                .unwrap_err()
                .to_string()
                .contains("unknown field `bakend`")
        );
        // A bad value names its key, though a flattened field has no path.
        let error = serde_json::from_str::<Job>(r#"{"scheme": "XYZ"}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("scheme: unknown scheme 'XYZ'"),
            "{error}"
        );
        let error = serde_json::from_str::<Job>(r#"{"time_limit": "x"}"#).unwrap_err();
        assert!(
            error.to_string().starts_with("time_limit: invalid type"),
            "{error}"
        );
    }
}
