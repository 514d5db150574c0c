//! Checking clausal refutation proofs, by two checkers written apart: the LRAT checker
//! ([`lrat`]), which checks each step by unit propagation over the hints it names, and a forward
//! DRAT checker ([`elaborate`]) that writes the LRAT hints of every lemma it accepts. sudokit's
//! own SAT backends check their refutations with the first; an external solver's DRAT, RUP or
//! FRAT proof goes through both ([`crate::external::certify`]).
//!
//! The module sits with the formats in the layers: it knows clauses and literals as DIMACS
//! integers, nothing of grids or solvers.

pub mod elaborate;
pub mod lrat;
