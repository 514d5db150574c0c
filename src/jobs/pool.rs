//! Engines lent to the worker threads of a job: a worker takes one that fits (a grader of the
//! puzzle's shape, a generator), or makes one, and gives it back when done, so engines are made
//! once per thread and shape, not once per item, and belong to their job (two jobs in one
//! process never share one).
//!
//! # Examples
//! ```
//! use sudokit::jobs::pool::Pool;
//! let pool: Pool<(usize, Vec<u8>)> = Pool::default();
//! let engine = pool.take(|(size, _)| *size == 9).unwrap_or_else(|| (9, vec![0; 81]));
//! pool.give(engine);
//! assert!(pool.take(|(size, _)| *size == 9).is_some());
//! ```

use std::sync::{Mutex, PoisonError};

/// Engines not in use; see the module docs.
#[derive(Debug)]
pub struct Pool<T>(Mutex<Vec<T>>);

impl<T> Default for Pool<T> {
    fn default() -> Pool<T> {
        Pool(Mutex::new(Vec::new()))
    }
}

impl<T> Pool<T> {
    /// An engine that `fits`, if one is free.
    pub fn take(&self, fits: impl Fn(&T) -> bool) -> Option<T> {
        let mut free = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let at = free.iter().position(fits)?;
        Some(free.swap_remove(at))
    }

    /// Gives an engine back.
    pub fn give(&self, engine: T) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(engine);
    }
}
