//! Reductions and certificates: the checks and transformations behind the NP-completeness
//! demonstrations.
//!
//! - [`certificate`]: the O(n²) verifier every reported solution passes through;
//! - [`latin`]: Latin square completion → Sudoku, with the back-map and the forward map;
//! - [`chain`]: the whole demonstration — reduce, solve with any backend, map back, verify.

pub mod certificate;
pub mod chain;
pub mod latin;
