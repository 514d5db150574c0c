//! The header of an index: the line naming the format and the process that holds the index,
//! then the run's identity as JSON; reading it, writing it for a new index, and claiming an
//! existing one for this process.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

use serde_json::Value;

use super::error::{PartialError, io_error};
use super::files::for_creating;
use crate::jobs::target::open_own;

/// The first words of an index's header line.
const MAGIC: &str = "sudokit partial index 2 pid ";

/// The width the process id is padded to in the header, so a resumed run can write its own in
/// place.
const PID_WIDTH: usize = 10;

/// The header lines (a pid line and an identity line) before an index's entries: the `k`-th
/// result is on line `HEADER_LINES + k` of the index.
pub const HEADER_LINES: usize = 2;

/// The header of an index, and its entries after it.
pub(crate) struct Header {
    /// The process that wrote (or claimed) the index.
    pub(crate) pid: Option<u32>,
    /// The identity of its run.
    pub(crate) identity: Value,
    /// The entry lines, read from here.
    pub(super) entries: BufReader<File>,
    /// The header's length in bytes (where the entries start).
    pub(super) length: u64,
}

/// The header of an index; `None` when it is missing or not an index of this version.
pub(crate) fn read_header(index: &Path) -> Option<Header> {
    let mut entries = BufReader::new(File::open(index).ok()?);
    let mut first = String::new();
    entries.read_line(&mut first).ok()?;
    let pid = first.strip_prefix(MAGIC)?.trim().parse().ok();
    let mut second = String::new();
    entries.read_line(&mut second).ok()?;
    let identity = second
        .strip_suffix('\n')
        .and_then(|line| serde_json::from_str(line).ok())?;
    Some(Header {
        pid,
        identity,
        entries,
        length: (first.len() + second.len()) as u64,
    })
}

/// The header lines of a new index.
fn header(identity: &Value) -> String {
    format!("{MAGIC}{:<PID_WIDTH$}\n{identity}\n", std::process::id())
}

/// Creates the index `path` holding the header of `identity` (one write), never through a
/// symbolic link.
pub(super) fn create_index(path: &Path, identity: &Value) -> Result<File, PartialError> {
    let mut index = open_own(path, &for_creating())?;
    index
        .write_all(header(identity).as_bytes())
        .map_err(io_error("write", path))?;
    Ok(index)
}

/// Writes this process's id into the header of an existing index, in place.
pub(super) fn claim(index: &Path) -> Result<(), PartialError> {
    let mut options = OpenOptions::new();
    options.write(true);
    let mut file = open_own(index, &options)?;
    file.seek(SeekFrom::Start(MAGIC.len() as u64))
        .and_then(|_| write!(file, "{:<PID_WIDTH$}", std::process::id()))
        .map_err(io_error("write", index))
}
