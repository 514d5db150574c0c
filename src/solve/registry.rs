//! The backend registry: every solving method, by the name users type.
//!
//! One [`BackendEntry`] per family (`native`, `sat`, `cp`, ...) holds the family's syntax, a
//! one-line description, its [`Capabilities`] and the parser of its options. [`backend`] turns
//! a spec (`sat:minimal:pairwise`, `cp:HACS`, `grasp:pre=FCI:seed=3`) into a solver wrapped in
//! [`Verified`], and every solver's [`Solver::name`] is a spec that parses back to the same
//! backend. The command-line help, the lists of `crosscheck` and `bench`, and the conformance
//! suite all read this table, so a new backend is one entry here and one file beside it.
//!
//! # Examples
//! ```
//! use sudokit::solve::{backend, registry};
//! let sat = backend("sat:minimal:pairwise").unwrap();
//! assert_eq!(sat.name(), "sat:minimal:pairwise");
//! assert_eq!(backend("cp").unwrap().name(), "cp:HAC");
//! for entry in registry::ENTRIES {
//!     for name in (entry.variants)() {
//!         if let Ok(solver) = backend(&name) {
//!             assert_eq!(solver.name(), name);
//!         }
//!     }
//! }
//! assert!(backend("quantum").err().unwrap().to_string().contains("native, "));
//! ```

use thiserror::Error;

use super::mip::PointSolver;
use super::{
    Backtrack, Bitwise, Colouring, Cp, Dlx, External, FcMrv, Grasp, Mip, Native, NativeGeneral,
    Norvig, Sat, Solver, Verified,
};
use crate::encode::cnf::{Amo, CnfOptions, Encoding};
use crate::propagate::Scheme;

/// What a backend family can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Whether it proves `unsat` and exact counts (a complete search); `false` for heuristics,
    /// which only ever find solutions.
    pub complete: bool,
    /// Whether it writes checkable proofs of its negative answers (`--proof`).
    pub proofs: bool,
    /// The largest order any variant of the family accepts ([`Solver::max_order`] of a variant
    /// may be lower).
    pub max_order: usize,
    /// Whether it finds a 0-1 point of the Sudoku's ILP ([`PointSolver`]): the ILP level of the
    /// reduction chain takes these.
    pub ilp_points: bool,
}

/// One backend family of the registry.
#[derive(Debug, Clone, Copy)]
pub struct BackendEntry {
    /// The family name, the first part of every spec of the family.
    pub family: &'static str,
    /// The spec syntax, e.g. `sat[:ENCODING[:AMO]]`.
    pub syntax: &'static str,
    /// What the method is, in one line.
    pub summary: &'static str,
    /// What it can answer.
    pub capabilities: Capabilities,
    /// The cargo feature that builds it, when it is not in every build.
    pub feature: Option<&'static str>,
    /// The named variants of the family (its specs worth listing and testing), the family's
    /// default first.
    pub variants: fn() -> Vec<String>,
    /// Builds the variant of the options after `family:` (empty for the default); `None` when
    /// the build lacks [`BackendEntry::feature`].
    build: Option<Build>,
    /// Builds the family as a [`PointSolver`], when it is one and is built.
    points: Option<fn() -> Box<dyn PointSolver>>,
}

/// A family's builder: the options after `family:` (empty for the default) to a solver, or
/// what is wrong with them.
type Build = fn(&str) -> Result<Box<dyn Solver>, String>;

impl BackendEntry {
    /// Whether this build has the family.
    pub fn is_built(&self) -> bool {
        self.build.is_some()
    }

    /// Whether the family finds 0-1 points of the ILP (in this build or with its feature).
    pub fn finds_points(&self) -> bool {
        self.capabilities.ilp_points
    }
}

/// The default backend's name.
pub const DEFAULT_BACKEND: &str = "native";

/// The family of the external solvers (`ext:NAME`): it has no default member, and its members
/// are the entries of the solver table found on this machine.
pub const EXTERNAL_FAMILY: &str = "ext";

/// The hint for a family that is the name of an external solver of the built-in table: use it
/// as `ext:NAME`.
fn external_hint(family: &str) -> String {
    let table = crate::external::SolverTable::builtin();
    if table.get(family).is_ok() {
        format!("; {family} is an external solver: ext:{family}")
    } else {
        String::new()
    }
}

/// A backend spec that [`backend`] cannot build.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnknownBackend {
    /// Not a backend family at all.
    #[error("unknown backend {name} (available: {}){hint}", family_list())]
    Unknown {
        /// The spec asked for.
        name: String,
        /// What it may have meant: `; minisat is an external solver: ext:minisat`, or nothing.
        hint: String,
    },
    /// A known family with options it does not take.
    #[error("backend {name}: {reason} (syntax: {syntax})")]
    BadOptions {
        /// The spec asked for.
        name: String,
        /// What is wrong with the options.
        reason: String,
        /// The family's syntax.
        syntax: &'static str,
    },
    /// A backend behind a cargo feature this build was compiled without.
    #[error(
        "backend {name} is not in this build (feature {feature}); rebuild with: cargo build --release --features {feature}"
    )]
    NotCompiled {
        /// The spec asked for.
        name: String,
        /// The cargo feature that enables it.
        feature: &'static str,
    },
}

/// The families of this build, comma-separated, the default first.
fn family_list() -> String {
    ENTRIES
        .iter()
        .filter(|e| e.is_built())
        .map(|e| e.family)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The backend a spec names, wrapped in [`Verified`].
///
/// # Errors
/// [`UnknownBackend`]: an unknown family, options the family does not take, or a family whose
/// cargo feature is off (the message says how to enable it).
pub fn backend(spec: &str) -> Result<Box<dyn Solver>, UnknownBackend> {
    let (family, options) = spec.split_once(':').unwrap_or((spec, ""));
    let entry =
        ENTRIES
            .iter()
            .find(|e| e.family == family)
            .ok_or_else(|| UnknownBackend::Unknown {
                name: spec.to_string(),
                hint: external_hint(family),
            })?;
    let Some(build) = entry.build else {
        return Err(UnknownBackend::NotCompiled {
            name: spec.to_string(),
            feature: entry.feature.unwrap_or("?"),
        });
    };
    if spec.ends_with(':') {
        return Err(UnknownBackend::BadOptions {
            name: spec.to_string(),
            reason: "nothing after ':'".to_string(),
            syntax: entry.syntax,
        });
    }
    build(options).map_err(|reason| UnknownBackend::BadOptions {
        name: spec.to_string(),
        reason,
        syntax: entry.syntax,
    })
}

/// Every named variant of every family this build has, in registry order.
pub fn names() -> Vec<String> {
    ENTRIES
        .iter()
        .filter(|e| e.is_built())
        .flat_map(|e| (e.variants)())
        .collect()
}

/// The backend `spec` names as a [`PointSolver`] (the ILP level of the reduction chain takes
/// `mip` or, with the feature, `highs`).
///
/// # Errors
/// [`UnknownBackend`]: an unknown family, one that finds no 0-1 point, options, a family whose
/// cargo feature is off.
pub fn point_solver(spec: &str) -> Result<Box<dyn PointSolver>, UnknownBackend> {
    let (family, options) = spec.split_once(':').unwrap_or((spec, ""));
    let entry =
        ENTRIES
            .iter()
            .find(|e| e.family == family)
            .ok_or_else(|| UnknownBackend::Unknown {
                name: spec.to_string(),
                hint: external_hint(family),
            })?;
    if !entry.finds_points() {
        let takes: Vec<&str> = ENTRIES
            .iter()
            .filter(|e| e.finds_points())
            .map(|e| e.family)
            .collect();
        return Err(UnknownBackend::BadOptions {
            name: spec.to_string(),
            reason: format!(
                "finds no 0-1 point of the ILP (the backends that do: {})",
                takes.join(", ")
            ),
            syntax: entry.syntax,
        });
    }
    let Some(build) = entry.points else {
        return Err(UnknownBackend::NotCompiled {
            name: spec.to_string(),
            feature: entry.feature.unwrap_or("?"),
        });
    };
    if !options.is_empty() || spec.ends_with(':') {
        return Err(UnknownBackend::BadOptions {
            name: spec.to_string(),
            reason: "takes no options".to_string(),
            syntax: entry.syntax,
        });
    }
    Ok(build())
}

/// The help text of `--backend`: one line per family with its syntax and summary.
pub fn help() -> String {
    let width = ENTRIES.iter().map(|e| e.syntax.len()).max().unwrap_or(0);
    let mut text = String::new();
    for entry in ENTRIES {
        let note = match (entry.is_built(), entry.feature) {
            (false, Some(feature)) => format!(" [needs the cargo feature {feature}]"),
            _ => String::new(),
        };
        text.push_str(&format!(
            "{:<width$}  {}{note}\n",
            entry.syntax, entry.summary
        ));
    }
    text
}

/// A solver with no options: the family's name alone.
fn plain<S: Solver + 'static>(make: fn() -> S) -> impl Fn(&str) -> Result<Box<dyn Solver>, String> {
    move |options: &str| {
        if options.is_empty() {
            Ok(Box::new(Verified(make())) as Box<dyn Solver>)
        } else {
            Err(format!("takes no options, not {options:?}"))
        }
    }
}

fn build_native(options: &str) -> Result<Box<dyn Solver>, String> {
    match options {
        "" => Ok(Box::new(Verified(Native))),
        "general" => Ok(Box::new(Verified(NativeGeneral))),
        other => Err(format!("unknown variant {other:?}")),
    }
}

fn build_sat(options: &str) -> Result<Box<dyn Solver>, String> {
    let spec = if options.is_empty() {
        "sat".to_string()
    } else {
        format!("sat:{options}")
    };
    spec.parse::<Sat>()
        .map(|sat| Box::new(Verified(sat)) as Box<dyn Solver>)
}

fn build_cp(options: &str) -> Result<Box<dyn Solver>, String> {
    if options.is_empty() {
        return Ok(Box::new(Verified(Cp::default())));
    }
    let scheme: Scheme = options.parse().map_err(|e| format!("{e}"))?;
    Ok(Box::new(Verified(Cp { scheme })))
}

fn build_colour(options: &str) -> Result<Box<dyn Solver>, String> {
    let colouring = match options {
        "" => Colouring::default(),
        "dsatur" => Colouring::dsatur(),
        "graph" => Colouring::graph(),
        "graph+rule" => Colouring {
            hyperedge_rule: true,
            ..Colouring::graph()
        },
        other => return Err(format!("unknown variant {other:?}")),
    };
    Ok(Box::new(Verified(colouring)))
}

fn build_grasp(options: &str) -> Result<Box<dyn Solver>, String> {
    Grasp::from_spec(options)
        .map(|grasp| Box::new(Verified(grasp)) as Box<dyn Solver>)
        .map_err(|e| e.to_string())
}

#[cfg(feature = "highs")]
fn build_highs(options: &str) -> Result<Box<dyn Solver>, String> {
    plain(|| super::Highs)(options)
}

fn build_external(options: &str) -> Result<Box<dyn Solver>, String> {
    if options.is_empty() {
        return Err("needs a solver of the table: ext:NAME (sudokit solvers lists them)".into());
    }
    External::new(options)
        .map(|solver| Box::new(Verified(solver)) as Box<dyn Solver>)
        .map_err(|e| e.to_string())
}

fn one(name: &str) -> Vec<String> {
    vec![name.to_string()]
}

const EXACT: Capabilities = Capabilities {
    complete: true,
    proofs: false,
    max_order: super::mask::MAX_MASK_ORDER,
    ilp_points: false,
};

/// The registry, the default backend first.
pub const ENTRIES: &[BackendEntry] = &[
    BackendEntry {
        family: "native",
        syntax: "native[:general]",
        summary: "bitset candidates, naked and hidden singles, MRV, trail undo; hard grids of orders 16-36 go on to CDCL (native:general: without the small-grid fast paths)",
        capabilities: EXACT,
        feature: None,
        variants: || vec!["native".into(), "native:general".into()],
        build: Some(build_native),
        points: None,
    },
    BackendEntry {
        family: "backtrack",
        syntax: "backtrack",
        summary: "plain backtracking in cell order (textbook)",
        capabilities: EXACT,
        feature: None,
        variants: || one("backtrack"),
        build: Some(|o| plain(|| Backtrack)(o)),
        points: None,
    },
    BackendEntry {
        family: "fc-mrv",
        syntax: "fc-mrv",
        summary: "forward checking with minimum remaining values (Skiena)",
        capabilities: EXACT,
        feature: None,
        variants: || one("fc-mrv"),
        build: Some(|o| plain(|| FcMrv)(o)),
        points: None,
    },
    BackendEntry {
        family: "bitwise",
        syntax: "bitwise",
        summary: "backtracking with bitmask unit state",
        capabilities: EXACT,
        feature: None,
        variants: || one("bitwise"),
        build: Some(|o| plain(|| Bitwise)(o)),
        points: None,
    },
    BackendEntry {
        family: "norvig",
        syntax: "norvig",
        summary: "Norvig's eliminate/assign propagation with search",
        capabilities: EXACT,
        feature: None,
        variants: || one("norvig"),
        build: Some(|o| plain(|| Norvig)(o)),
        points: None,
    },
    BackendEntry {
        family: "cp",
        syntax: "cp[:SCHEME]",
        summary: "search on one of Simonis' propagation schemes (FC, FCI, BC, BCI, HAC, HACS, ..., HACV, FCV+, BCV+, HACV+; default HAC)",
        capabilities: Capabilities {
            complete: true,
            proofs: false,
            max_order: crate::shape::MAX_ORDER,
            ilp_points: false,
        },
        feature: None,
        variants: || {
            let default = Cp::default().scheme;
            std::iter::once(default)
                .chain(Scheme::EVERY.into_iter().filter(|&s| s != default))
                .map(|s| format!("cp:{}", s.name()))
                .collect()
        },
        build: Some(build_cp),
        points: None,
    },
    BackendEntry {
        family: "dlx",
        syntax: "dlx",
        summary: "Knuth's Algorithm X with dancing links on the exact cover, MRV item choice",
        capabilities: Capabilities {
            complete: true,
            proofs: false,
            max_order: crate::solve::dlx::MAX_DLX_ORDER,
            ilp_points: false,
        },
        feature: None,
        variants: || one("dlx"),
        build: Some(|o| plain(|| Dlx)(o)),
        points: None,
    },
    BackendEntry {
        family: "colour",
        syntax: "colour[:dsatur|:graph|:graph+rule]",
        summary: "precolouring extension of the Sudoku graph, DSATUR with the hyperedge rule (dsatur: plain DSATUR per unit; graph: per edge)",
        capabilities: EXACT,
        feature: None,
        variants: || {
            [
                "colour",
                "colour:dsatur",
                "colour:graph",
                "colour:graph+rule",
            ]
            .map(String::from)
            .to_vec()
        },
        build: Some(build_colour),
        points: None,
    },
    BackendEntry {
        family: "sat",
        syntax: "sat[:cadical][:ENCODING[:AMO]]",
        summary: "CNF encoding solved by varisat (CDCL), or by CaDiCaL with sat:cadical (cargo feature cadical), proofs checked; default extended:pairwise, sat:optimized the fastest (orders up to 36 with pairwise AMO, 64 with the others)",
        capabilities: Capabilities {
            complete: true,
            proofs: true,
            max_order: crate::solve::sat::MAX_ORDER_LINEAR_AMO,
            ilp_points: false,
        },
        feature: None,
        variants: || {
            let mut names = vec!["sat".to_string()];
            for encoding in Encoding::ALL {
                for amo in Amo::ALL {
                    let sat = Sat::new(CnfOptions { encoding, amo });
                    if sat.name() != "sat" {
                        names.push(sat.name().to_string());
                    }
                }
            }
            #[cfg(feature = "cadical")]
            names.extend(["sat:cadical", "sat:cadical:optimized:pairwise"].map(String::from));
            names
        },
        build: Some(build_sat),
        points: None,
    },
    BackendEntry {
        family: "mip",
        syntax: "mip",
        summary: "0-1 ILP through good_lp and microlp, counting by no-good cuts",
        capabilities: Capabilities {
            complete: true,
            proofs: false,
            max_order: crate::solve::mip::MIP_MAX_ORDER,
            ilp_points: true,
        },
        feature: None,
        variants: || one("mip"),
        build: Some(|o| plain(|| Mip)(o)),
        points: Some(|| Box::new(Mip)),
    },
    BackendEntry {
        family: "highs",
        syntax: "highs",
        summary: "the same 0-1 ILP solved by HiGHS",
        capabilities: Capabilities {
            complete: true,
            proofs: false,
            max_order: crate::solve::mip::MIP_MAX_ORDER,
            ilp_points: true,
        },
        feature: Some("highs"),
        variants: || one("highs"),
        #[cfg(feature = "highs")]
        build: Some(build_highs),
        #[cfg(not(feature = "highs"))]
        build: None,
        #[cfg(feature = "highs")]
        points: Some(|| Box::new(super::Highs)),
        #[cfg(not(feature = "highs"))]
        points: None,
    },
    BackendEntry {
        family: "grasp",
        syntax: "grasp[:pre=SCHEME:alpha=N:seed=N:plateau=N:nodes=N]",
        summary: "GRASP metaheuristic: finds solutions, never proves unsat or uniqueness",
        capabilities: Capabilities {
            complete: false,
            proofs: false,
            max_order: crate::shape::MAX_ORDER,
            ilp_points: false,
        },
        feature: None,
        variants: || ["grasp", "grasp:pre=FCI"].map(String::from).to_vec(),
        build: Some(build_grasp),
        points: None,
    },
    BackendEntry {
        family: EXTERNAL_FAMILY,
        syntax: "ext:NAME",
        summary: "an external solver of the table (`sudokit solvers` lists them): the puzzle exported, the program run and killed at the time limit, the answer decoded and verified; counts by no-goods",
        capabilities: Capabilities {
            complete: true,
            proofs: false,
            max_order: 64,
            ilp_points: false,
        },
        feature: None,
        variants: || {
            // A broken table has no variants; using one of its backends says why.
            crate::external::table()
                .map(|table| {
                    table
                        .found()
                        .into_iter()
                        .map(|(entry, _)| format!("{EXTERNAL_FAMILY}:{}", entry.name))
                        .collect()
                })
                .unwrap_or_default()
        },
        build: Some(build_external),
        points: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_round_trips() {
        for entry in ENTRIES
            .iter()
            .filter(|e| e.is_built() && e.family != EXTERNAL_FAMILY)
        {
            let variants = (entry.variants)();
            assert_eq!(
                backend(entry.family).unwrap().name(),
                variants[0],
                "the family name builds its default"
            );
            for name in variants {
                let solver = backend(&name).unwrap();
                assert_eq!(solver.name(), name);
                assert!(solver.max_order() <= entry.capabilities.max_order, "{name}");
            }
        }
        assert_eq!(backend("cp:hacs").unwrap().name(), "cp:HACS");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let message = backend("quantum").err().unwrap().to_string();
        assert!(message.contains("unknown backend quantum"), "{message}");
        assert!(message.contains("native, backtrack"), "{message}");
        assert!(!message.contains("ext:quantum"), "{message}");
        let message = backend("minisat").err().unwrap().to_string();
        assert!(
            message.ends_with("; minisat is an external solver: ext:minisat"),
            "{message}"
        );
        for (spec, says) in [
            ("sat:minimal:commander", "commander"),
            ("cp:XYZ", "XYZ"),
            ("grasp:alpha=0", "alpha"),
            ("grasp:speed=3", "speed"),
            ("native:fast", "fast"),
            ("dlx:x", "takes no options"),
            ("sat:", "nothing after"),
        ] {
            let error = backend(spec).err().unwrap();
            assert!(
                matches!(error, UnknownBackend::BadOptions { .. }),
                "{spec}: {error}"
            );
            assert!(error.to_string().contains(says), "{spec}: {error}");
        }
        #[cfg(not(feature = "highs"))]
        {
            let message = backend("highs").err().unwrap().to_string();
            assert!(
                message.contains("rebuild with: cargo build --release --features highs"),
                "{message}"
            );
            assert!(!names().contains(&"highs".to_string()));
            assert!(help().contains("needs the cargo feature highs"));
        }
    }
}
