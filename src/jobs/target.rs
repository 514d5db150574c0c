//! Writing output files without ever destroying what a path points at.
//!
//! A path is first [resolved](Target::resolve):
//! - `/dev/stdout`, `/dev/stderr`, `/dev/fd/1`, `/proc/self/fd/2`, ... are the process's own
//!   standard output or error, written through it (so `-o /dev/stdout >> log.txt` appends to
//!   `log.txt` as the shell's redirection says, and a pipe stays a pipe);
//! - any other path under `/dev` or `/proc`, or that a link leads there, and anything that is not
//!   a regular file (a FIFO, `/dev/null`, a terminal), is written directly, opened for appending,
//!   never renamed over;
//! - a symbolic link to a regular file is followed (the link stays a link), a directory (or a
//!   path that ends in `/`, which can only name one) is refused;
//! - a regular file (or a new one) is written under a temporary name beside it and renamed when
//!   complete ([`AtomicFile`]), so an interrupted run never leaves a half-written file that
//!   looks whole.
//!
//! The files a command keeps beside its output (a resumable output's `FILE.partial` and index,
//! the merged files) are its own: they are opened with [`open_own`], which refuses a symbolic
//! link in their place instead of writing wherever it leads.
//!
//! The temporary files in flight are listed ([`remove_temporaries`]), so that a front end that
//! ends the process abruptly (a second Ctrl-C) removes them first.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use thiserror::Error;

/// A file that cannot be written, or a path that cannot be one.
#[derive(Debug, Error)]
pub enum TargetError {
    /// The path is a directory.
    #[error("{} is a directory, not a file to write", .0.display())]
    Directory(PathBuf),
    /// A file of the command's own (beside its output) that is a symbolic link.
    #[error(
        "{} is a symbolic link: sudokit writes its own files beside the output only, never through \
         a link (remove it, or write to another file)",
        .0.display()
    )]
    Symlink(PathBuf),
    /// A chain of links that does not end.
    #[error("{}: too many levels of symbolic links", .0.display())]
    LinkLoop(PathBuf),
    /// An operation on a file failed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done (`create`, `rename ... to`, `open`).
        action: String,
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

impl TargetError {
    /// An I/O error while doing `action` on `path`.
    pub fn io(action: impl Into<String>, path: &Path, source: io::Error) -> TargetError {
        TargetError::Io {
            action: action.into(),
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where an output path really leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The process's standard output.
    Stdout,
    /// The process's standard error.
    Stderr,
    /// A regular file, existing or not (the path with every symbolic link followed): written
    /// under a temporary name and renamed.
    Regular(PathBuf),
    /// Something else that can be opened for writing (a FIFO, a device, a `/proc` or `/dev`
    /// path): written directly, opened for appending, never renamed over.
    Special(PathBuf),
}

/// Whether `path` names the process's standard output (1) or error (2): `/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N` of this process.
fn standard_stream(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let fd = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .or_else(|| text.strip_prefix("/proc/thread-self/fd/"))
        .or_else(|| {
            let rest = text.strip_prefix("/proc/")?;
            let (pid, fd) = rest.split_once("/fd/")?;
            (pid.parse::<u32>().ok()? == std::process::id()).then_some(fd)
        })?;
    match fd.parse::<u32>().ok()? {
        n @ (1 | 2) => Some(n),
        _ => None,
    }
}

/// Whether `path` is under `/dev` or `/proc`, whose entries are never renamed over.
fn is_system_path(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// Whether `path` can only name a directory: it ends in `/` (or `/.`, `/..`), or is `.` or `..`.
fn names_a_directory(path: &Path) -> bool {
    let text = path.as_os_str().as_encoded_bytes();
    text.ends_with(b"/")
        || matches!(
            path.components().next_back(),
            Some(std::path::Component::CurDir | std::path::Component::ParentDir)
        )
}

impl Target {
    /// Resolves `path`; see the module docs.
    ///
    /// # Errors
    /// A directory; a chain of links that does not end (a loop); a path that cannot be
    /// inspected.
    pub fn resolve(path: &Path) -> Result<Target, TargetError> {
        if names_a_directory(path) {
            return Err(TargetError::Directory(path.to_path_buf()));
        }
        match standard_stream(path) {
            Some(1) => return Ok(Target::Stdout),
            Some(_) => return Ok(Target::Stderr),
            None => {}
        }
        if is_system_path(path) {
            return match fs::metadata(path) {
                Ok(meta) if meta.is_dir() => Err(TargetError::Directory(path.to_path_buf())),
                _ => Ok(Target::Special(path.to_path_buf())),
            };
        }
        let mut current = path.to_path_buf();
        for _ in 0..40 {
            let meta = match fs::symlink_metadata(&current) {
                Ok(meta) => meta,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Ok(Target::Regular(current));
                }
                Err(e) => return Err(TargetError::io("inspect", &current, e)),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let link = fs::read_link(&current)
                    .map_err(|e| TargetError::io("read the link", &current, e))?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
                if standard_stream(&current).is_some() || is_system_path(&current) {
                    // A link into /dev or /proc (`out -> /dev/stdout`): written through the
                    // path as given, which the kernel resolves.
                    return Ok(Target::Special(path.to_path_buf()));
                }
                continue;
            }
            if kind.is_dir() {
                return Err(TargetError::Directory(path.to_path_buf()));
            }
            return Ok(if kind.is_file() {
                Target::Regular(current)
            } else {
                Target::Special(current)
            });
        }
        Err(TargetError::LinkLoop(path.to_path_buf()))
    }

    /// Opens a target that is written directly (not [`Target::Regular`]).
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open_direct(&self) -> Result<Box<dyn Write + Send>, TargetError> {
        match self {
            Target::Stdout => Ok(Box::new(io::stdout())),
            Target::Stderr => Ok(Box::new(io::stderr())),
            Target::Special(path) | Target::Regular(path) => {
                let file = fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(|e| TargetError::io("open", path, e))?;
                Ok(Box::new(file))
            }
        }
    }
}

/// Opens a file of the command's own beside its output (`FILE.partial`, its index, the
/// merged files) as `options` say, refusing a symbolic link in its place: on Unix with
/// `O_NOFOLLOW`, so a link put there between a check and the open is refused too.
///
/// # Errors
/// [`TargetError::Symlink`]; the file cannot be opened.
pub fn open_own(path: &Path, options: &fs::OpenOptions) -> Result<fs::File, TargetError> {
    let mut options = options.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits());
    }
    options.open(path).map_err(|e| {
        if is_symlink(path) {
            TargetError::Symlink(path.to_path_buf())
        } else {
            TargetError::io("open", path, e)
        }
    })
}

/// Refuses a symbolic link at `path` (a file of the command's own, checked before any work).
///
/// # Errors
/// [`TargetError::Symlink`].
pub fn refuse_symlink(path: &Path) -> Result<(), TargetError> {
    if is_symlink(path) {
        return Err(TargetError::Symlink(path.to_path_buf()));
    }
    Ok(())
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The temporary files in flight, to remove if the process ends abruptly.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Names a temporary file to remove if the process is stopped before it is renamed.
pub fn register_temporary(path: &Path) {
    temporaries().push(path.to_path_buf());
}

/// Forgets a temporary file (renamed or removed by its writer).
pub fn forget_temporary(path: &Path) {
    temporaries().retain(|p| p != path);
}

/// Removes every temporary file in flight: for a front end about to end the process at once.
pub fn remove_temporaries() {
    for path in temporaries().drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// `.NAME.partial-PID` beside `path`.
pub fn temporary_beside(path: &Path) -> PathBuf {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    dir.join(format!(".{name}.partial-{}", std::process::id()))
}

/// Writes `contents` to `path` (resolved as the module docs say), at once.
///
/// # Errors
/// As [`AtomicFile::create`] and [`AtomicFile::commit`].
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), TargetError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)
        .map_err(|e| TargetError::io("write", path, e))?;
    file.commit()
}

/// Writes `contents` to `path`, or to standard output when `path` is `None` or `-`.
///
/// # Errors
/// As [`write_atomically`]; a standard output that cannot be written.
pub fn write_or_print(path: Option<&Path>, contents: &[u8]) -> Result<(), TargetError> {
    match path {
        Some(p) if p.as_os_str() != "-" => write_atomically(p, contents),
        _ => {
            let mut out = io::stdout().lock();
            out.write_all(contents)
                .and_then(|()| out.flush())
                .map_err(|e| TargetError::io("write", Path::new("standard output"), e))
        }
    }
}

/// A file written under a temporary name beside its target and renamed by
/// [`AtomicFile::commit`] (or, for a target that is not a regular file, written directly);
/// dropped without a commit (an error, a panic), it removes the temporary file. For outputs too
/// large to build in memory first.
pub struct AtomicFile {
    /// The temporary file, `None` when writing directly.
    temp: Option<PathBuf>,
    path: PathBuf,
    out: Option<io::BufWriter<Box<dyn Write + Send>>>,
    /// The temporary file again, for its sync before the rename.
    file: Option<fs::File>,
}

impl AtomicFile {
    /// Opens `path` for writing as the module docs say.
    ///
    /// # Errors
    /// A directory, a file that cannot be created.
    pub fn create(path: &Path) -> Result<AtomicFile, TargetError> {
        let target = Target::resolve(path)?;
        let (temp, path, out, file): (_, _, Box<dyn Write + Send>, _) = match target {
            Target::Regular(path) => {
                let temp = temporary_beside(&path);
                let file = fs::File::create(&temp).map_err(|e| {
                    TargetError::io(
                        format!("write {} through the temporary file", path.display()),
                        &temp,
                        e,
                    )
                })?;
                register_temporary(&temp);
                let sync = file
                    .try_clone()
                    .map_err(|e| TargetError::io("open", &temp, e))?;
                (Some(temp), path, Box::new(file), Some(sync))
            }
            direct => (None, path.to_path_buf(), direct.open_direct()?, None),
        };
        Ok(AtomicFile {
            temp,
            path,
            out: Some(io::BufWriter::with_capacity(1 << 16, out)),
            file,
        })
    }

    /// Flushes the file and, unless written directly, syncs and renames it to its target name.
    ///
    /// # Errors
    /// The flush, sync or rename fails.
    pub fn commit(mut self) -> Result<(), TargetError> {
        let out = self.out.take().expect("not yet committed");
        out.into_inner()
            .map_err(|e| TargetError::io("write", &self.path, e.into_error()))?
            .flush()
            .map_err(|e| TargetError::io("write", &self.path, e))?;
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        if let Some(file) = self.file.take() {
            file.sync_all()
                .map_err(|e| TargetError::io("write", &self.path, e))?;
        }
        let renamed = fs::rename(&temp, &self.path);
        if renamed.is_err() {
            let _ = fs::remove_file(&temp);
        }
        forget_temporary(&temp);
        renamed.map_err(|e| TargetError::io("write", &self.path, e))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("not yet committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("not yet committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some()
            && let Some(temp) = self.temp.take()
        {
            let _ = fs::remove_file(&temp);
            forget_temporary(&temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_streams_are_recognised() {
        assert_eq!(standard_stream(Path::new("/dev/stdout")), Some(1));
        assert_eq!(standard_stream(Path::new("/proc/self/fd/2")), Some(2));
        let own = format!("/proc/{}/fd/1", std::process::id());
        assert_eq!(standard_stream(Path::new(&own)), Some(1));
        assert_eq!(standard_stream(Path::new("/proc/1/fd/1")), None);
        assert_eq!(standard_stream(Path::new("/dev/fd/3")), None);
        assert_eq!(
            Target::resolve(Path::new("/dev/stdout")).unwrap(),
            Target::Stdout
        );
    }

    #[test]
    fn links_are_followed_and_directories_refused() {
        let dir = std::env::temp_dir().join(format!("sudokit-target-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.txt");
        let link = dir.join("link.txt");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("target.txt", &link).unwrap();
            assert_eq!(
                Target::resolve(&link).unwrap(),
                Target::Regular(target.clone())
            );
            assert_eq!(
                Target::resolve(Path::new("/dev/null")).unwrap(),
                Target::Special(PathBuf::from("/dev/null"))
            );
            let to_stdout = dir.join("out");
            std::os::unix::fs::symlink("/dev/stdout", &to_stdout).unwrap();
            assert_eq!(
                Target::resolve(&to_stdout).unwrap(),
                Target::Special(to_stdout.clone())
            );
        }
        assert!(Target::resolve(&dir).is_err());
        for directory in ["new/", "./", ".", "..", "a/.."] {
            assert!(
                matches!(
                    Target::resolve(Path::new(directory)),
                    Err(TargetError::Directory(_))
                ),
                "{directory}"
            );
        }
        #[cfg(unix)]
        {
            let own = dir.join("own.partial");
            std::os::unix::fs::symlink("target.txt", &own).unwrap();
            let mut options = fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            assert!(matches!(
                open_own(&own, &options),
                Err(TargetError::Symlink(_))
            ));
            assert!(matches!(refuse_symlink(&own), Err(TargetError::Symlink(_))));
            assert!(!target.exists(), "written through the link");
        }
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
