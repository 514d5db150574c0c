//! Opening the files another program may have made (an answer, a proof) and creating the files
//! sudokit writes beside a user's (proofs), without blocking and without following a link.
//!
//! Opening a FIFO blocks until its other end is opened: a FIFO where an answer or a proof is
//! expected would stall sudokit for ever. These functions open with `O_NONBLOCK` (a FIFO then
//! opens at once, or fails with no reader) and `O_NOFOLLOW` (a symbolic link is refused), and
//! refuse anything that is not a regular file before reading or writing it.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// `O_NONBLOCK | O_NOFOLLOW` on Unix, nothing elsewhere.
fn flags(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use nix::fcntl::OFlag;
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOFOLLOW).bits());
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// The error for a path that is not a regular file.
fn not_regular(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is not a regular file (a FIFO, a device, a directory or a link)",
            path.display()
        ),
    )
}

/// Opens `path` for reading if it is a regular file.
///
/// # Errors
/// The I/O error, or [`io::ErrorKind::InvalidInput`] for a FIFO, a device, a directory or a
/// symbolic link.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    flags(&mut options);
    let file = options.open(path).map_err(|e| link_or(path, e))?;
    if !file.metadata()?.is_file() {
        return Err(not_regular(path));
    }
    Ok(file)
}

/// Creates `path` for writing (emptying a regular file that is there): a FIFO, a device or a
/// symbolic link of that name is refused, never opened for writing.
///
/// # Errors
/// The I/O error, or [`io::ErrorKind::InvalidInput`] for what is not a regular file.
pub fn create_regular(path: &Path) -> io::Result<File> {
    if let Ok(metadata) = std::fs::symlink_metadata(path)
        && !metadata.is_file()
    {
        return Err(not_regular(path));
    }
    let mut options = OpenOptions::new();
    options.write(true).create(true);
    flags(&mut options);
    let file = options.open(path).map_err(|e| link_or(path, e))?;
    if !file.metadata()?.is_file() {
        return Err(not_regular(path));
    }
    file.set_len(0)?;
    Ok(file)
}

/// A clearer error for a path that is a symbolic link (`ELOOP` under `O_NOFOLLOW`) or a FIFO
/// without a reader (`ENXIO`).
fn link_or(path: &Path, error: io::Error) -> io::Error {
    #[cfg(unix)]
    {
        use nix::errno::Errno;
        let code = error.raw_os_error();
        if code == Some(Errno::ELOOP as i32) || code == Some(Errno::ENXIO as i32) {
            return not_regular(path);
        }
    }
    let _ = path;
    error
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_a_link_is_refused_at_once() {
        let dir = std::env::temp_dir().join(format!("sudokit-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("proof.lrat");
        let _ = std::fs::remove_file(&fifo);
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for result in [create_regular(&fifo), open_regular(&fifo)] {
            let error = result.unwrap_err();
            assert!(error.to_string().contains("not a regular file"), "{error}");
        }
        let target = dir.join("target");
        std::fs::write(&target, "kept").unwrap();
        let link = dir.join("link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(create_regular(&link).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
        let file = dir.join("new");
        std::io::Write::write_all(&mut create_regular(&file).unwrap(), b"x").unwrap();
        assert!(open_regular(&file).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
