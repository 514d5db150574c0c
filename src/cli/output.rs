//! Writing output files without ever destroying what a path points at.
//!
//! A path is first [resolved](Target::resolve): a symbolic link is followed to its target (the
//! link stays a link), a directory is refused, and anything that is not a regular file (a FIFO,
//! `/dev/null`, `/dev/stdout`, a terminal) is written directly, as a shell redirection would.
//! A regular file (or a new one) is written under a temporary name beside it and renamed when
//! complete, so an interrupted run never leaves a half-written file that looks whole.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// Where an output path really leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A regular file, existing or not (the path with every symbolic link followed): written
    /// under a temporary name and renamed.
    Regular(PathBuf),
    /// Something else that can be opened for writing (a FIFO, a character device): written
    /// directly, never renamed over.
    Special(PathBuf),
}

impl Target {
    /// Resolves `path`; see the module docs.
    ///
    /// # Errors
    /// A directory; a chain of links that does not end (a loop).
    pub fn resolve(path: &Path) -> anyhow::Result<Target> {
        let mut current = path.to_path_buf();
        for _ in 0..40 {
            let meta = match fs::symlink_metadata(&current) {
                Ok(meta) => meta,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Ok(Target::Regular(current));
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot inspect {}", current.display()));
                }
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let link = fs::read_link(&current)
                    .with_context(|| format!("cannot read the link {}", current.display()))?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
                continue;
            }
            if kind.is_dir() {
                bail!("{} is a directory, not a file to write", path.display());
            }
            return Ok(if kind.is_file() {
                Target::Regular(current)
            } else {
                Target::Special(current)
            });
        }
        bail!("{}: too many levels of symbolic links", path.display())
    }
}

/// Writes `contents` to `path` (resolved as the module docs say): an [`AtomicFile`] written at
/// once.
pub fn write_atomically(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)?;
    file.commit()
}

/// Writes `contents` to `path`, or to standard output when `path` is `None` or `-`.
pub fn write_or_print(path: Option<&Path>, contents: &[u8]) -> anyhow::Result<()> {
    match path {
        Some(p) if p.as_os_str() != "-" => write_atomically(p, contents),
        _ => {
            let mut out = io::stdout().lock();
            out.write_all(contents)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// A file written under a temporary name beside its target and renamed by [`AtomicFile::commit`]
/// (or, for a [`Target::Special`], written directly); dropped without a commit (an error, a
/// panic), it removes the temporary file. For outputs too large to build in memory first.
pub struct AtomicFile {
    /// The temporary file, `None` when writing directly.
    temp: Option<PathBuf>,
    path: PathBuf,
    file: Option<io::BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Opens `path` for writing as the module docs say.
    ///
    /// # Errors
    /// A directory, a file that cannot be created.
    pub fn create(path: &Path) -> anyhow::Result<AtomicFile> {
        let (temp, path, file) = match Target::resolve(path)? {
            Target::Special(path) => {
                let file = fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .with_context(|| format!("cannot open {}", path.display()))?;
                (None, path, file)
            }
            Target::Regular(path) => {
                let temp = temporary_beside(&path)?;
                let file = fs::File::create(&temp).with_context(|| {
                    format!(
                        "cannot write {} (through the temporary file {})",
                        path.display(),
                        temp.display()
                    )
                })?;
                super::stop::register_temp(temp.clone());
                (Some(temp), path, file)
            }
        };
        Ok(AtomicFile {
            temp,
            path,
            file: Some(io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes the file and, unless written directly, syncs and renames it to its target name.
    ///
    /// # Errors
    /// The flush, sync or rename fails.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let file = self.file.take().expect("not yet committed");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        file.sync_all()?;
        fs::rename(&temp, &self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        super::stop::unregister_temp(&temp);
        Ok(())
    }
}

/// `.NAME.partial-PID` beside `path`.
fn temporary_beside(path: &Path) -> anyhow::Result<PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    Ok(dir.join(format!(
        ".{}.partial-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.as_mut().expect("not yet committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("not yet committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some()
            && let Some(temp) = self.temp.take()
        {
            let _ = fs::remove_file(&temp);
            super::stop::unregister_temp(&temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_followed_and_directories_refused() {
        let dir = std::env::temp_dir().join(format!("sudokit-output-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.txt");
        let link = dir.join("link.txt");
        #[cfg(unix)]
        std::os::unix::fs::symlink("target.txt", &link).unwrap();
        #[cfg(unix)]
        assert_eq!(
            Target::resolve(&link).unwrap(),
            Target::Regular(target.clone())
        );
        assert!(Target::resolve(&dir).is_err());
        #[cfg(unix)]
        assert_eq!(
            Target::resolve(Path::new("/dev/null")).unwrap(),
            Target::Special(PathBuf::from("/dev/null"))
        );
        write_atomically(&link, b"x\n").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "x\n");
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
