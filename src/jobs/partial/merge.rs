//! The merged results of a resumed run, `FILE.partial.next` and its index: the old results a
//! stopped run did not reach, copied after its own, and the merge a killed resumed run left,
//! finished by the next `--resume`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use serde_json::Value;

use super::entry::IndexEntry;
use super::error::{PartialError, io_error};
use super::files::Files;
use super::header::read_header;
use super::resume::{check_results, differences};
use crate::jobs::target::open_own;

/// Finishes the merge a killed resumed run left (see the [module docs](super)), with the lock held:
/// whether it put merged files in the place of `FILE.partial` and its index.
///
/// # Errors
/// Merged results of another run, or changed since they were written; a copy or rename fails.
pub(super) fn recover(files: &Files, identity: &Value) -> Result<bool, PartialError> {
    match (files.next.exists(), files.next_index.exists()) {
        (false, false) => Ok(false),
        // Killed as the merged files were made or removed: nothing in them.
        (false, true) => {
            let _ = fs::remove_file(&files.next_index);
            Ok(false)
        }
        // Killed between the two renames of a stop: the index already lists the merged results.
        (true, false) => {
            let header = read_header(&files.index).ok_or_else(|| files.no_index())?;
            let checked = check_results(&files.next, &files.index, header)?;
            if checked.whole {
                fs::rename(&files.next, &files.partial).map_err(io_error(
                    &format!("rename {} to", files.next.display()),
                    &files.partial,
                ))?;
                return Ok(true);
            }
            let _ = fs::remove_file(&files.next);
            Ok(false)
        }
        (true, true) => {
            let Some(header) = read_header(&files.next_index) else {
                // Killed before its header was written.
                files.remove_merged();
                return Ok(false);
            };
            if &header.identity != identity {
                return Err(PartialError::OtherRun {
                    differences: differences(identity, &header.identity),
                    partial: files.next.clone(),
                });
            }
            let merged = check_results(&files.next, &files.next_index, header)?;
            let old = read_header(&files.index).ok_or_else(|| files.no_index())?;
            let old = check_results(&files.partial, &files.index, old)?;
            let mut options = OpenOptions::new();
            options.write(true);
            let mut data = open_own(&files.next, &options)?;
            let mut entries = open_own(&files.next_index, &options)?;
            // What a kill tore is dropped.
            data.set_len(merged.data_end)
                .and_then(|()| data.seek(SeekFrom::End(0)))
                .map_err(io_error("truncate", &files.next))?;
            entries
                .set_len(merged.index_end)
                .and_then(|()| entries.seek(SeekFrom::End(0)))
                .map_err(io_error("truncate", &files.next_index))?;
            let rest = old.results.saturating_sub(merged.results);
            splice(files, &mut data, &mut entries, merged.results, rest)?;
            files.install_merged(&data)?;
            Ok(true)
        }
    }
}

/// Appends the old results `from..from + count` of `FILE.partial` (their bytes and index lines)
/// to the merged files `data` and `entries`.
///
/// # Errors
/// The old index changed since it was checked; a read or write fails.
pub(super) fn splice(
    files: &Files,
    data: &mut File,
    entries: &mut File,
    from: usize,
    count: usize,
) -> Result<(), PartialError> {
    let changed = || PartialError::Damaged {
        partial: files.partial.clone(),
        reason: "its index changed during the run".into(),
    };
    if count == 0 {
        return Ok(());
    }
    let mut lines = read_header(&files.index)
        .ok_or_else(|| files.no_index())?
        .entries
        .lines();
    let mut offset = 0;
    for _ in 0..from {
        let line = lines.next().ok_or_else(changed)?;
        let line = line.map_err(io_error("read", &files.index))?;
        offset += IndexEntry::parse(&line).ok_or_else(changed)?.bytes;
    }
    let mut old = File::open(&files.partial).map_err(io_error("open", &files.partial))?;
    old.seek(SeekFrom::Start(offset))
        .map_err(io_error("read", &files.partial))?;
    let mut old = BufReader::with_capacity(1 << 16, old);
    let mut data_out = BufWriter::with_capacity(1 << 16, data);
    // Index lines are written in batches, each after the results it lists: a kill never leaves
    // an index line whose result is not in the data file.
    let mut pending = String::new();
    let mut write_pending = |data_out: &mut BufWriter<&mut File>, pending: &mut String| {
        data_out.flush().map_err(io_error("write", &files.next))?;
        entries
            .write_all(pending.as_bytes())
            .map_err(io_error("write", &files.next_index))?;
        pending.clear();
        Ok::<(), PartialError>(())
    };
    for _ in 0..count {
        let line = lines.next().ok_or_else(changed)?;
        let line = line.map_err(io_error("read", &files.index))?;
        let entry = IndexEntry::parse(&line).ok_or_else(changed)?;
        let copied = io::copy(&mut (&mut old).take(entry.bytes), &mut data_out)
            .map_err(io_error("write", &files.next))?;
        if copied != entry.bytes {
            return Err(changed());
        }
        pending += &entry.to_line();
        if pending.len() >= 1 << 16 {
            write_pending(&mut data_out, &mut pending)?;
        }
    }
    write_pending(&mut data_out, &mut pending)
}
