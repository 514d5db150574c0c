//! Reductions and certificates: the checks and transformations behind the NP-completeness
//! demonstrations.
//!
//! - [`certificate`]: the O(n²) verifier every reported solution passes through.

pub mod certificate;
