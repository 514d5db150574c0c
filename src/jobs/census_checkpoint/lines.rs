//! The lines of a census resume file ([its format](super)): the header with the process that
//! holds the file, the census line, the part lines with their keys and hashes; writing them, and
//! reading them back with their checks.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde_json::Value;

use super::CheckpointError;
use crate::jobs::Status;
use crate::jobs::item::Fnv;
use crate::jobs::partial::{index_path, read_header};

/// The first words of the header line.
pub(super) const MAGIC: &str = "sudokit census checkpoint 2 pid ";

/// The first words of the header line of any version.
pub(super) const MAGIC_ANY_VERSION: &str = "sudokit census checkpoint ";

/// The width the process id is padded to, so a resumed run writes its own in place.
pub(super) const PID_WIDTH: usize = 10;

/// A part line read back, its hash checked.
#[derive(Debug, Clone, Copy)]
pub(super) struct KeptPart {
    /// Its line in the file (1-based).
    pub(super) line: usize,
    pub(super) part: usize,
    pub(super) count: u128,
    pub(super) key: u64,
}

/// What the file holds, in whole lines.
pub(super) enum Contents {
    /// Nothing (or only a header torn by a kill).
    Empty,
    /// A census file of this format: its census line, if written, and its parts.
    Census {
        census: Option<String>,
        parts: Vec<KeptPart>,
    },
}

/// The header line of this process.
pub(super) fn header() -> String {
    format!("{MAGIC}{:<PID_WIDTH$}\n", std::process::id())
}

/// The process that holds `path` locked, as the file (a census's header) or its batch index
/// says.
pub(super) fn holder(path: &Path) -> Option<u32> {
    let mut first = String::new();
    if let Ok(file) = File::open(path) {
        let _ = BufReader::new(file).read_line(&mut first);
    }
    match first.strip_prefix(MAGIC) {
        Some(pid) => pid.trim().parse().ok(),
        None => read_header(&index_path(path)).and_then(|header| header.pid),
    }
}

/// The fingerprint of part `part` of the census whose census line is `census`.
pub(super) fn part_key(census: &str, part: usize) -> u64 {
    let mut hash = Fnv::new();
    hash.add(census.as_bytes());
    hash.add(&(part as u64).to_le_bytes());
    hash.finish()
}

/// The line of a part counted: `PART STATUS COUNT KEY HASH` and its newline.
pub(super) fn part_line(census: &str, part: usize, count: u128) -> String {
    let body = format!(
        "{part}\t{}\t{count}\t{:016x}\t",
        Status::Done.word(),
        part_key(census, part)
    );
    format!("{body}{:016x}\n", Fnv::of(body.as_bytes()))
}

/// The part a line records, its hash checked; `Err(reason)` otherwise.
pub(super) fn parse_part(line: &str, number: usize) -> Result<KeptPart, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [part, status, count, key, hash] = fields[..] else {
        return Err(format!(
            "not a part line (PART, STATUS, COUNT, KEY and HASH, tab-separated): {:?}",
            line.chars().take(60).collect::<String>()
        ));
    };
    let body = &line[..line.len() - hash.len()];
    let hash = u64::from_str_radix(hash, 16).map_err(|_| format!("the hash {hash:?}"))?;
    if Fnv::of(body.as_bytes()) != hash {
        return Err(format!(
            "part {part} was changed after it was written (its hash does not match): it reads \
             `{part} {status} {count}`"
        ));
    }
    if Status::from_word(status) != Some(Status::Done) {
        return Err(format!(
            "part {part} is recorded as {status:?}: only parts counted whole are kept"
        ));
    }
    Ok(KeptPart {
        line: number,
        part: part.parse().map_err(|_| format!("the part {part:?}"))?,
        count: count.parse().map_err(|_| format!("the count {count:?}"))?,
        key: u64::from_str_radix(key, 16).map_err(|_| format!("the key {key:?}"))?,
    })
}

/// What the whole lines of a file to resume hold.
///
/// # Errors
/// Not a census resume file of this format; a damaged line.
pub(super) fn read_contents(path: &Path, whole: &[u8]) -> Result<Contents, CheckpointError> {
    if whole.is_empty() {
        return Ok(Contents::Empty);
    }
    let text = String::from_utf8_lossy(whole);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    if !first.starts_with(MAGIC) {
        return Err(other_contents(path, first));
    }
    let malformed = |line: usize, reason: String| CheckpointError::Malformed {
        path: path.to_path_buf(),
        line,
        reason,
    };
    // The process id is rewritten in place by the run that resumes.
    if first.len() != MAGIC.len() + PID_WIDTH {
        return Err(malformed(
            1,
            format!("not the header: its process id does not take {PID_WIDTH} characters"),
        ));
    }
    let census = match lines.next() {
        None => None,
        Some(line) => {
            let value: Value = serde_json::from_str(line)
                .map_err(|e| malformed(2, format!("not the census line: {e}")))?;
            if !value.is_object() || value.get("census").is_none() {
                return Err(malformed(2, "not the census line".to_string()));
            }
            Some(line.to_string())
        }
    };
    let parts = lines
        .enumerate()
        .map(|(i, line)| parse_part(line, i + 3).map_err(|reason| malformed(i + 3, reason)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Contents::Census { census, parts })
}

/// The refusal of a new run (not `--force`) over a file that is not empty: parts it would
/// discard, another command's results, a file it does not know. A census file without parts
/// is started again.
pub(super) fn refuse_fresh(path: &Path, whole: &[u8]) -> Result<(), CheckpointError> {
    let text = String::from_utf8_lossy(whole);
    let first = text.lines().next().unwrap_or("");
    if first.starts_with(MAGIC) {
        match text.lines().count().saturating_sub(2) {
            0 => Ok(()),
            parts => Err(CheckpointError::Leftover {
                path: path.to_path_buf(),
                parts,
            }),
        }
    } else if whole.is_empty() {
        Ok(())
    } else {
        Err(other_contents(path, first))
    }
}

/// Why a file whose first line is `first`, not a header of this format, is not resumed.
pub(super) fn other_contents(path: &Path, first: &str) -> CheckpointError {
    let path = path.to_path_buf();
    if let Some(rest) = first.strip_prefix(MAGIC_ANY_VERSION) {
        let version = rest.split_whitespace().next().unwrap_or("?");
        return CheckpointError::Format {
            path,
            found: format!("format {version}"),
        };
    }
    if serde_json::from_str::<Value>(first).is_ok_and(|v| v.get("census").is_some()) {
        return CheckpointError::Format {
            path,
            found: "format 1 (JSON lines, whose parts carry no check)".to_string(),
        };
    }
    let index = index_path(&path);
    if let Some(identity) = read_header(&index).map(|header| header.identity) {
        let command = identity["command"].as_str().map(str::to_string);
        return CheckpointError::BatchResults { path, command };
    }
    if index.exists() {
        return CheckpointError::BatchResults {
            path,
            command: None,
        };
    }
    CheckpointError::Unknown { path }
}

/// `9×9 (3×3 boxes) by band-classes in 44 parts`, of a census line.
pub(super) fn describe(census: &str) -> String {
    let value: Value = serde_json::from_str(census).unwrap_or(Value::Null);
    format!(
        "{} by {} in {} parts",
        value["census"].as_str().unwrap_or("?"),
        value["method"].as_str().unwrap_or("?"),
        value["parts"]
    )
}
