//! The names of Simonis' fifteen propagation schemes, and the lattice of "weaker than".
//!
//! A [`Scheme`] is a consistency [`Level`] for every unit's `alldifferent` (`FC`, `BC`, `HAC`),
//! optionally with channeling (`I`), the redundant constraints `S`, `C`, `3` (on top of `HAC`
//! only), and shaving (`V`). The fifteen named schemes are [`Scheme::ALL`]:
//!
//! | name | level | extras |
//! |---|---|---|
//! | `FC`, `FCI` | forward checking | `I`: channeling |
//! | `BC`, `BCI` | bounds consistency (with FC) | `I`: channeling |
//! | `HAC` | hyper-arc consistency | |
//! | `HACS`, `HACC`, `HAC3`, `HACSC`, `HACS3`, `HACC3`, `HACSC3` | HAC | redundant S, C, 3 |
//! | `FCV`, `BCV`, `HACV` | FC, BC, HAC | shaving |
//!
//! **The lattice.** `A ⊑ B` ("A is weaker than B": B's fixpoint never keeps a candidate that A's
//! removes) holds when B's level is at least A's (`FC ⊑ BC ⊑ HAC`), B channels whenever A does
//! (`HAC` implies channeling, since a value with one place left is in every perfect matching), B has
//! every redundant constraint A has, and B shaves whenever A does. Each of these conditions adds
//! propagators or strengthens one, and the fixpoint of a larger set of monotone propagators is
//! smaller, so the relation is sound; the property tests check it cell by cell. [`Scheme::weaker_than`]
//! decides it and [`Scheme::covers`] gives the Hasse diagram (the pairs with nothing in between).
//!
//! # Complexity
//! Parsing and comparing are O(1).
//!
//! # References
//! H. Simonis, "Sudoku as a constraint problem", 2005, §6 (the schemes, and Figure "lattice").
//!
//! # Examples
//! ```
//! use sudokit::propagate::Scheme;
//! let hacs: Scheme = "HACS".parse().unwrap();
//! assert!(Scheme::HAC.weaker_than(hacs));
//! assert!(Scheme::FC.weaker_than(Scheme::BCI));
//! assert!(!Scheme::FCI.weaker_than(Scheme::BC));
//! assert_eq!(Scheme::parse_list("fc, hacv").unwrap(), vec![Scheme::FC, Scheme::HACV]);
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The consistency level of every unit's `alldifferent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Forward checking on the binary decomposition.
    Fc,
    /// Bounds consistency (Hall intervals), together with forward checking.
    Bc,
    /// Hyper-arc (domain) consistency (Régin).
    Hac,
}

/// A propagation scheme: see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scheme {
    level: Level,
    channeling: bool,
    same: bool,
    colored: bool,
    rows_boxes: bool,
    shaving: bool,
}

/// A scheme name that is not one of the fifteen.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown scheme '{0}' (known: FC, FCI, BC, BCI, HAC, HACS, HACC, HAC3, HACSC, HACS3, HACC3, HACSC3, FCV, BCV, HACV)"
)]
pub struct SchemeError(pub String);

const fn scheme(level: Level, channeling: bool, s: bool, c: bool, three: bool, v: bool) -> Scheme {
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
    pub const FC: Scheme = scheme(Level::Fc, false, false, false, false, false);
    /// Forward checking with channeling.
    pub const FCI: Scheme = scheme(Level::Fc, true, false, false, false, false);
    /// Bounds consistency (with forward checking).
    pub const BC: Scheme = scheme(Level::Bc, false, false, false, false, false);
    /// Bounds consistency with channeling.
    pub const BCI: Scheme = scheme(Level::Bc, true, false, false, false, false);
    /// Hyper-arc consistency.
    pub const HAC: Scheme = scheme(Level::Hac, false, false, false, false, false);
    /// HAC + same.
    pub const HACS: Scheme = scheme(Level::Hac, false, true, false, false, false);
    /// HAC + colored matrix.
    pub const HACC: Scheme = scheme(Level::Hac, false, false, true, false, false);
    /// HAC + rows–boxes.
    pub const HAC3: Scheme = scheme(Level::Hac, false, false, false, true, false);
    /// HAC + same + colored matrix.
    pub const HACSC: Scheme = scheme(Level::Hac, false, true, true, false, false);
    /// HAC + same + rows–boxes.
    pub const HACS3: Scheme = scheme(Level::Hac, false, true, false, true, false);
    /// HAC + colored matrix + rows–boxes.
    pub const HACC3: Scheme = scheme(Level::Hac, false, false, true, true, false);
    /// HAC + all three redundant constraints.
    pub const HACSC3: Scheme = scheme(Level::Hac, false, true, true, true, false);
    /// FC with shaving.
    pub const FCV: Scheme = scheme(Level::Fc, false, false, false, false, true);
    /// BC with shaving.
    pub const BCV: Scheme = scheme(Level::Bc, false, false, false, false, true);
    /// HAC with shaving.
    pub const HACV: Scheme = scheme(Level::Hac, false, false, false, false, true);

    /// The fifteen schemes, in the order of Simonis' tables.
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

    /// The consistency level of each unit.
    pub fn level(self) -> Level {
        self.level
    }

    /// Whether channeling runs (the `I`).
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

    /// Whether candidates are shaved (the `V`).
    pub fn shaving(self) -> bool {
        self.shaving
    }

    /// The scheme without shaving: the base a shaving scheme probes with.
    pub fn without_shaving(self) -> Scheme {
        Scheme {
            shaving: false,
            ..self
        }
    }

    /// The name, as in Simonis' paper (`HACSC3`).
    pub fn name(self) -> &'static str {
        let index = Scheme::ALL
            .iter()
            .position(|&s| s == self)
            .expect("every constructible scheme is named");
        [
            "FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HAC3", "HACSC", "HACS3", "HACC3",
            "HACSC3", "FCV", "BCV", "HACV",
        ][index]
    }

    /// Whether `self ⊑ other`: `other` is at least as strong (see the module docs). Reflexive.
    pub fn weaker_than(self, other: Scheme) -> bool {
        self.level <= other.level
            && (!self.channeling || other.channeling || other.level == Level::Hac)
            && (!self.same || other.same)
            && (!self.colored || other.colored)
            && (!self.rows_boxes || other.rows_boxes)
            && (!self.shaving || other.shaving)
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

    /// Parses a comma-separated list (`FC,HAC,HACV`, case-insensitive, spaces allowed); `all`
    /// gives the fifteen.
    ///
    /// # Errors
    /// [`SchemeError`] naming the first unknown name.
    pub fn parse_list(list: &str) -> Result<Vec<Scheme>, SchemeError> {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                for s in Scheme::ALL {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
                continue;
            }
            let s: Scheme = name.parse()?;
            if !out.contains(&s) {
                out.push(s);
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
        Scheme::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| SchemeError(s.to_string()))
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
        for (i, s) in Scheme::ALL.iter().enumerate() {
            assert_eq!(s.name().parse::<Scheme>().unwrap(), *s);
            assert_eq!(s.name().to_lowercase().parse::<Scheme>().unwrap(), *s);
            assert!(Scheme::ALL[..i].iter().all(|o| o != s));
        }
        assert!("HACX".parse::<Scheme>().is_err());
        assert!(Scheme::parse_list(" , ").is_err());
        assert_eq!(Scheme::parse_list("all").unwrap().len(), 15);
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
    }
}
