//! The scratch directory of a run: a directory of its own under the system's temporary
//! directory, where the input, the answer, the logs and the proof of each run are written, and
//! the programs run; removed with everything in it when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A directory of its own under the system's temporary directory, removed with everything in
/// it when dropped.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Creates a fresh directory (an absolute path: programs run inside it).
    ///
    /// # Errors
    /// The I/O error of creating it.
    pub fn new() -> std::io::Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sudokit-ext-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        let dir = std::fs::canonicalize(&dir)?;
        Ok(Scratch { dir })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scratch_directory_goes_away() {
        let path = {
            let scratch = Scratch::new().unwrap();
            std::fs::write(scratch.path().join("x"), "y").unwrap();
            scratch.path().to_path_buf()
        };
        assert!(!path.exists());
    }
}
