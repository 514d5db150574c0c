//! The files of a resumable output: the names `FILE.partial`, its index and the merged
//! `FILE.partial.next` beside `FILE`, how they are opened, and the lock on `FILE.partial`.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};

use super::error::{PartialError, io_error};

/// `FILE.partial` beside `FILE`.
pub fn partial_path(file: &Path) -> PathBuf {
    with_suffix(file, ".partial")
}

/// The index beside `FILE.partial`.
pub fn index_path(partial: &Path) -> PathBuf {
    with_suffix(partial, ".index")
}

/// The merged results of a resumed run, `FILE.partial.next`, beside `FILE.partial`.
pub fn next_path(partial: &Path) -> PathBuf {
    with_suffix(partial, ".next")
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The files of a resumable output.
#[derive(Debug, Clone)]
pub(super) struct Files {
    /// `FILE`, written when the run completes.
    pub(super) file: PathBuf,
    /// `FILE.partial` and its index.
    pub(super) partial: PathBuf,
    pub(super) index: PathBuf,
    /// `FILE.partial.next` and its index: a resumed run's merged results.
    pub(super) next: PathBuf,
    pub(super) next_index: PathBuf,
}

impl Files {
    pub(super) fn of(file: &Path) -> Files {
        let partial = partial_path(file);
        let next = next_path(&partial);
        Files {
            file: file.to_path_buf(),
            index: index_path(&partial),
            next_index: index_path(&next),
            partial,
            next,
        }
    }

    /// The files the run writes (every one but `FILE`).
    pub(super) fn own(&self) -> [&PathBuf; 4] {
        [&self.partial, &self.index, &self.next, &self.next_index]
    }

    pub(super) fn no_index(&self) -> PartialError {
        PartialError::NoIndex {
            partial: self.partial.clone(),
            index: self.index.clone(),
        }
    }

    /// Removes the merged files (the data first: a merged index alone is known to be stale).
    pub(super) fn remove_merged(&self) {
        let _ = fs::remove_file(&self.next);
        let _ = fs::remove_file(&self.next_index);
    }

    /// Puts the merged files, complete, in the place of `FILE.partial` and its index: the index
    /// first (a merged data file without its index is one whose index is already in place).
    pub(super) fn install_merged(&self, data: &File) -> Result<(), PartialError> {
        data.sync_all().map_err(io_error("write", &self.next))?;
        fs::rename(&self.next_index, &self.index).map_err(io_error(
            &format!("rename {} to", self.next_index.display()),
            &self.index,
        ))?;
        fs::rename(&self.next, &self.partial).map_err(io_error(
            &format!("rename {} to", self.next.display()),
            &self.partial,
        ))
    }
}

/// Options that open a file for writing, creating it, keeping what it holds.
pub(super) fn for_writing() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    options
}

/// Options that create a file for writing, empty.
pub(super) fn for_creating() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    options
}

/// The exclusive lock on `FILE.partial`, held while the run writes it.
#[cfg(unix)]
pub(crate) type Lock = nix::fcntl::Flock<File>;
#[cfg(not(unix))]
pub(crate) type Lock = File;

/// Takes the lock without waiting; `Err(file)` when another process holds it.
#[cfg(unix)]
pub(crate) fn try_lock(file: File) -> Result<Lock, File> {
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).map_err(|(f, _)| f)
}

#[cfg(not(unix))]
pub(crate) fn try_lock(file: File) -> Result<Lock, File> {
    Ok(file)
}
