//! The names of Simonis' fifteen propagation schemes (and three more), and the lattice of
//! "weaker than".
//!
//! A [`Scheme`] is a [`Consistency`] level for every unit's `alldifferent` (`FC`, `BC`, `HAC`),
//! optionally with channeling to dual variables (`I`), the redundant constraints `S`, `C`, `3`
//! (on top of `HAC` only), and shaving (`V`). The fifteen schemes of the paper are
//! [`Scheme::ALL`]; [`Scheme::EVERY`] adds the three that shave to a fixpoint:
//!
//! | name | level | extras |
//! |---|---|---|
//! | `FC`, `FCI` | forward checking | `I`: channeling (a value with one place left goes there) |
//! | `BC`, `BCI` | ECLiPSe's range exhaustion (includes FC) | `I`: the same on the dual variables |
//! | `HAC` | hyper-arc consistency | |
//! | `HACS`, `HACC`, `HAC3`, `HACSC`, `HACS3`, `HACC3`, `HACSC3` | HAC | redundant S, C, 3 |
//! | `FCV`, `BCV`, `HACV` | FC, BC, HAC | one shaving pass (the paper's) |
//! | `FCV+`, `BCV+`, `HACV+` | FC, BC, HAC | shaving passes repeated until one removes nothing |
//!
//! **Shaving once or to the fixpoint.** Simonis shaves once: "a simple program, which operates
//! on a list of variables, and which removes any value in the domain of each variable which
//! directly leads to a failure"; `FCV`, `BCV`, `HACV` do that (see [`super::shave`]). The `+`
//! schemes repeat the pass until it removes nothing: stronger, and the fixpoint of a monotone
//! base no longer depends on the order of the probes. [`Shaving`] names the three modes, and the
//! command line's `--shave fixpoint` maps `FCV`, `BCV`, `HACV` to `FCV+`, `BCV+`, `HACV+`
//! ([`Scheme::with_shaving`]).
//!
//! **The lattice.** `A ⊑ B` ("A is weaker than B": B's fixpoint never keeps a candidate that A's
//! removes) holds when B's level is at least A's (`FC ⊑ BC ⊑ HAC`), B channels whenever A does
//! (`HAC` implies channeling and the duals' `alldifferent`: a value's places in a unit are covered
//! by every perfect matching), B has every redundant constraint A has, and B shaves at least as
//! much as A (none ⊑ once ⊑ fixpoint). For monotone propagators this is sound because the
//! fixpoint of a larger set of propagators is smaller. `BC`'s range exhaustion is sound but not
//! monotone (see [`super::bounds`]): every pair with a monotone end is still guaranteed
//! (`FC ⊑ BC`, `BC ⊑ HAC`, `FCV ⊑ BCV ⊑ HACV`), and `BC ⊑ BCV`, `BC ⊑ BCI` hold because `BCV`
//! and `BCI` start from `BC`'s fixpoint of the givens (see [`super::Propagator::propagate`]). [`Scheme::order_free`] says which schemes have an order-independent fixpoint.
//! [`Scheme::weaker_than`] decides the relation and [`Scheme::covers`] gives the Hasse diagram
//! (the pairs with nothing in between).
//!
//! # Complexity
//! Parsing and comparing are O(1).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005, §6 (the schemes, and Figure "lattice").
//!
//! # Examples
//! ```
//! use sudokit::propagate::{Scheme, Shaving};
//! let hacs: Scheme = "HACS".parse().unwrap();
//! assert!(Scheme::HAC.weaker_than(hacs));
//! assert!(Scheme::FC.weaker_than(Scheme::BCI));
//! assert!(!Scheme::FCI.weaker_than(Scheme::BC));
//! assert!(Scheme::FCV.weaker_than(Scheme::FCV_FIXPOINT));
//! assert_eq!(Scheme::BCV.with_shaving(Shaving::Fixpoint).name(), "BCV+");
//! assert_eq!(Scheme::parse_list("fc, hacv").unwrap(), vec![Scheme::FC, Scheme::HACV]);
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The consistency level of every unit's `alldifferent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Consistency {
    /// Forward checking on the binary decomposition.
    Fc,
    /// ECLiPSe's range exhaustion (its "bound-consistent" `alldifferent`), which includes
    /// forward checking.
    Bc,
    /// Hyper-arc (domain) consistency (Régin).
    Hac,
}

/// How a scheme shaves (the `V`): see the module docs and [`super::shave`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Shaving {
    /// No shaving.
    #[default]
    None,
    /// One pass over the cells (the paper's `V`).
    Once,
    /// Passes until one removes nothing (the `+` schemes).
    Fixpoint,
}

/// A propagation scheme: see the module docs. Its serde form is its name (`"HACS"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Scheme {
    level: Consistency,
    channeling: bool,
    same: bool,
    colored: bool,
    rows_boxes: bool,
    shaving: Shaving,
}

/// A scheme name that is not one of the eighteen.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown scheme '{0}' (known: FC, FCI, BC, BCI, HAC, HACS, HACC, HAC3, HACSC, HACS3, HACC3, HACSC3, FCV, BCV, HACV, FCV+, BCV+, HACV+; lists also take 'all' and 'paper')"
)]
pub struct SchemeError(pub String);

/// The names of [`Scheme::EVERY`], in its order.
const NAMES: [&str; 18] = [
    "FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "HACSC", "HACS3", "HACC3", "HACSC3",
    "FCV", "BCV", "HACV", "FCV+", "BCV+", "HACV+",
];

const fn scheme(
    level: Consistency,
    channeling: bool,
    s: bool,
    c: bool,
    three: bool,
    v: Shaving,
) -> Scheme {
    Scheme {
        level,
        channeling,
        same: s,
        colored: c,
        rows_boxes: three,
        shaving: v,
    }
}

impl Scheme {
    /// Forward checking.
    pub const FC: Scheme = scheme(Consistency::Fc, false, false, false, false, Shaving::None);
    /// Forward checking with channeling.
    pub const FCI: Scheme = scheme(Consistency::Fc, true, false, false, false, Shaving::None);
    /// ECLiPSe's "bound-consistent" alldifferent: range exhaustion (includes forward checking).
    pub const BC: Scheme = scheme(Consistency::Bc, false, false, false, false, Shaving::None);
    /// `BC` on the cells and on the dual (position) variables, channelled.
    pub const BCI: Scheme = scheme(Consistency::Bc, true, false, false, false, Shaving::None);
    /// Hyper-arc consistency.
    pub const HAC: Scheme = scheme(Consistency::Hac, false, false, false, false, Shaving::None);
    /// HAC + same.
    pub const HACS: Scheme = scheme(Consistency::Hac, false, true, false, false, Shaving::None);
    /// HAC + colored matrix.
    pub const HACC: Scheme = scheme(Consistency::Hac, false, false, true, false, Shaving::None);
    /// HAC + rows–boxes.
    pub const HAC3: Scheme = scheme(Consistency::Hac, false, false, false, true, Shaving::None);
    /// HAC + same + colored matrix.
    pub const HACSC: Scheme = scheme(Consistency::Hac, false, true, true, false, Shaving::None);
    /// HAC + same + rows–boxes.
    pub const HACS3: Scheme = scheme(Consistency::Hac, false, true, false, true, Shaving::None);
    /// HAC + colored matrix + rows–boxes.
    pub const HACC3: Scheme = scheme(Consistency::Hac, false, false, true, true, Shaving::None);
    /// HAC + all three redundant constraints.
    pub const HACSC3: Scheme = scheme(Consistency::Hac, false, true, true, true, Shaving::None);
    /// FC with one shaving pass.
    pub const FCV: Scheme = scheme(Consistency::Fc, false, false, false, false, Shaving::Once);
    /// BC with one shaving pass.
    pub const BCV: Scheme = scheme(Consistency::Bc, false, false, false, false, Shaving::Once);
    /// HAC with one shaving pass.
    pub const HACV: Scheme = scheme(Consistency::Hac, false, false, false, false, Shaving::Once);
    /// FC with shaving to the fixpoint (`FCV+`).
    pub const FCV_FIXPOINT: Scheme = scheme(
        Consistency::Fc,
        false,
        false,
        false,
        false,
        Shaving::Fixpoint,
    );
    /// BC with shaving to the fixpoint (`BCV+`).
    pub const BCV_FIXPOINT: Scheme = scheme(
        Consistency::Bc,
        false,
        false,
        false,
        false,
        Shaving::Fixpoint,
    );
    /// HAC with shaving to the fixpoint (`HACV+`).
    pub const HACV_FIXPOINT: Scheme = scheme(
        Consistency::Hac,
        false,
        false,
        false,
        false,
        Shaving::Fixpoint,
    );

    /// The fifteen schemes of the paper, in the order of Simonis' tables.
    pub const ALL: [Scheme; 15] = [
        Scheme::FC,
        Scheme::FCI,
        Scheme::BC,
        Scheme::BCI,
        Scheme::HAC,
        Scheme::HACS,
        Scheme::HACC,
        Scheme::HAC3,
        Scheme::HACSC,
        Scheme::HACS3,
        Scheme::HACC3,
        Scheme::HACSC3,
        Scheme::FCV,
        Scheme::BCV,
        Scheme::HACV,
    ];

    /// The fifteen schemes of the paper, then the three that shave to the fixpoint.
    pub const EVERY: [Scheme; 18] = {
        let mut every = [Scheme::FCV_FIXPOINT; 18];
        let mut i = 0;
        while i < Scheme::ALL.len() {
            every[i] = Scheme::ALL[i];
            i += 1;
        }
        every[16] = Scheme::BCV_FIXPOINT;
        every[17] = Scheme::HACV_FIXPOINT;
        every
    };

    /// The consistency level of each unit.
    pub fn level(self) -> Consistency {
        self.level
    }

    /// Whether the dual variables are channelled (the `I`).
    pub fn channeling(self) -> bool {
        self.channeling
    }

    /// Whether the `S` (same) constraint runs.
    pub fn same(self) -> bool {
        self.same
    }

    /// Whether the `C` (colored matrix) constraint runs.
    pub fn colored(self) -> bool {
        self.colored
    }

    /// Whether the `3` (rows–boxes) constraint runs.
    pub fn rows_boxes(self) -> bool {
        self.rows_boxes
    }

    /// Whether any redundant constraint runs.
    pub fn has_redundant(self) -> bool {
        self.same || self.colored || self.rows_boxes
    }

    /// How candidates are shaved (the `V`).
    pub fn shaving(self) -> Shaving {
        self.shaving
    }

    /// The scheme without shaving: the base a shaving scheme probes with.
    pub fn without_shaving(self) -> Scheme {
        Scheme {
            shaving: Shaving::None,
            ..self
        }
    }

    /// The scheme without channeling (`BC` for `BCI`).
    pub fn without_channeling(self) -> Scheme {
        Scheme {
            channeling: false,
            ..self
        }
    }

    /// A shaving scheme with its shaving set to `mode` (a scheme that does not shave is
    /// returned as it is, and so is any scheme for [`Shaving::None`]): what `--shave` does to
    /// the names `FCV`, `BCV`, `HACV`.
    pub fn with_shaving(self, mode: Shaving) -> Scheme {
        if self.shaving == Shaving::None || mode == Shaving::None {
            self
        } else {
            Scheme {
                shaving: mode,
                ..self
            }
        }
    }

    /// Whether the scheme's fixpoint is the same whatever order its propagators run in: every
    /// scheme but those on `BC`'s range exhaustion, which is not monotone (see
    /// [`super::bounds`]).
    pub fn order_free(self) -> bool {
        self.level != Consistency::Bc
    }

    /// The name, as in Simonis' paper (`HACSC3`), with a `+` for shaving to the fixpoint.
    pub fn name(self) -> &'static str {
        let index = Scheme::EVERY
            .iter()
            .position(|&s| s == self)
            .expect("every constructible scheme is named");
        NAMES[index]
    }

    /// Whether `self ⊑ other`: `other` is at least as strong (see the module docs). Reflexive.
    pub fn weaker_than(self, other: Scheme) -> bool {
        self.level <= other.level
            && (!self.channeling || other.channeling || other.level == Consistency::Hac)
            && (!self.same || other.same)
            && (!self.colored || other.colored)
            && (!self.rows_boxes || other.rows_boxes)
            && self.shaving <= other.shaving
    }

    /// Whether `other` covers `self` among `among`: `self ⊏ other` with no scheme of `among`
    /// strictly between them (an edge of the Hasse diagram).
    pub fn covers(self, other: Scheme, among: &[Scheme]) -> bool {
        self != other
            && self.weaker_than(other)
            && !among
                .iter()
                .any(|&m| m != self && m != other && self.weaker_than(m) && m.weaker_than(other))
    }

    /// Parses a comma-separated list (`FC,HAC,HACV`, case-insensitive, spaces allowed); `paper`
    /// gives the fifteen of the paper, `all` the eighteen ([`Scheme::EVERY`]). Repeats are
    /// dropped.
    ///
    /// # Errors
    /// [`SchemeError`] naming the first unknown name.
    pub fn parse_list(list: &str) -> Result<Vec<Scheme>, SchemeError> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let group: &[Scheme] = if name.eq_ignore_ascii_case("all") {
                &Scheme::EVERY
            } else if name.eq_ignore_ascii_case("paper") {
                &Scheme::ALL
            } else {
                &[name.parse()?]
            };
            for &s in group {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        if out.is_empty() {
            return Err(SchemeError(list.to_string()));
        }
        Ok(out)
    }
}

impl FromStr for Scheme {
    type Err = SchemeError;

    fn from_str(s: &str) -> Result<Scheme, SchemeError> {
        Scheme::EVERY
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| SchemeError(s.to_string()))
    }
}

impl From<Scheme> for String {
    fn from(scheme: Scheme) -> String {
        scheme.name().to_string()
    }
}

impl TryFrom<String> for Scheme {
    type Error = SchemeError;

    fn try_from(name: String) -> Result<Scheme, SchemeError> {
        name.parse()
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        for (i, s) in Scheme::EVERY.iter().enumerate() {
            assert_eq!(s.name().parse::<Scheme>().unwrap(), *s);
            assert_eq!(s.name().to_lowercase().parse::<Scheme>().unwrap(), *s);
            assert!(Scheme::EVERY[..i].iter().all(|o| o != s));
        }
        assert_eq!(Scheme::EVERY[..15], Scheme::ALL);
        assert!("HACX".parse::<Scheme>().is_err());
        assert!("FC+".parse::<Scheme>().is_err());
        assert!(Scheme::parse_list(" , ").is_err());
        assert_eq!(Scheme::parse_list("all").unwrap().len(), 18);
        assert_eq!(Scheme::parse_list("paper, hacv+").unwrap().len(), 16);
        assert_eq!(
            Scheme::FCV.with_shaving(Shaving::Fixpoint),
            Scheme::FCV_FIXPOINT
        );
        assert_eq!(Scheme::HAC.with_shaving(Shaving::Fixpoint), Scheme::HAC);
        assert_eq!(
            Scheme::HACV_FIXPOINT.with_shaving(Shaving::Once),
            Scheme::HACV
        );
        assert!(!Scheme::BCI.order_free() && Scheme::FCV_FIXPOINT.order_free());
    }

    #[test]
    fn the_lattice_of_the_issue() {
        use Scheme as S;
        for (a, b) in [
            (S::FC, S::FCI),
            (S::FC, S::BC),
            (S::BC, S::HAC),
            (S::BC, S::BCI),
            (S::FCI, S::BCI),
            (S::BCI, S::HAC),
            (S::HAC, S::HACS),
            (S::HACS, S::HACSC),
            (S::HACSC, S::HACSC3),
            (S::HAC, S::HACV),
            (S::FC, S::FCV),
            (S::BC, S::BCV),
            (S::FCV, S::BCV),
            (S::BCV, S::HACV),
            (S::FCV, S::FCV_FIXPOINT),
            (S::BCV, S::BCV_FIXPOINT),
            (S::HACV, S::HACV_FIXPOINT),
            (S::FCV_FIXPOINT, S::BCV_FIXPOINT),
        ] {
            assert!(a.weaker_than(b), "{a} ⊑ {b}");
            assert!(!b.weaker_than(a), "{b} ⋢ {a}");
        }
        for (a, b) in [
            (S::FCI, S::BC),
            (S::HACS, S::HACC),
            (S::HACV, S::HACS),
            (S::FCI, S::FCV),
        ] {
            assert!(
                !a.weaker_than(b),
                "{a} and {b} are not comparable by construction"
            );
        }
        assert!(S::FC.covers(S::FCI, &S::ALL));
        assert!(!S::FC.covers(S::HAC, &S::ALL));
        assert!(S::HACSC.covers(S::HACSC3, &S::ALL));
        assert!(S::HACV.covers(S::HACV_FIXPOINT, &S::EVERY));
        assert!(!S::HACV_FIXPOINT.weaker_than(S::HACS));
    }
}
