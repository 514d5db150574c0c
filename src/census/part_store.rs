//! Where a census keeps the parts it has counted, so that an interrupted count continues where
//! it stopped: the census asks the store for the parts already counted when it begins and hands
//! it each part as it is finished (from any worker thread, one at a time, in the order they
//! finish). The resumable result file of `-o FILE` is one ([`crate::jobs::census_parts`]: the
//! parts as the records of a run); a census run without one keeps nothing.

use std::error::Error;
use std::fmt;

use thiserror::Error;

/// A store of counted parts; see the module docs.
pub trait PartStore: Sync + fmt::Debug {
    /// Starts, or continues, the census named `census` (its shape), counted by `method` in
    /// `parts` parts: the parts already counted, each with its count.
    ///
    /// # Errors
    /// The store holds the parts of another census, or cannot be read or written.
    fn begin(
        &self,
        census: &str,
        method: &str,
        parts: usize,
    ) -> Result<Vec<(usize, u128)>, PartStoreError>;

    /// Keeps part `part`'s count.
    ///
    /// # Errors
    /// The store cannot be written.
    fn record(&self, part: usize, count: u128) -> Result<(), PartStoreError>;
}

/// A store's failure, as the store's own error.
#[derive(Debug, Error)]
#[error(transparent)]
pub struct PartStoreError(pub Box<dyn Error + Send + Sync>);
