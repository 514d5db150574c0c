//! One result in the index of a resumable output: its fields (input line, status, length, key),
//! the hash that seals a result's bytes together with them, and its tab-separated index line.

use crate::jobs::item::Fnv;
use crate::jobs::record::Status;

/// One result in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexEntry {
    /// The input line the result answers.
    pub line: usize,
    /// How it counts.
    pub status: Status,
    /// Its length in bytes.
    pub bytes: u64,
    /// The fingerprint of its item.
    pub key: u64,
    /// FNV-1a of its bytes, then of its line, status, length and key.
    pub hash: u64,
}

impl IndexEntry {
    /// The entry of the result `text`, answering input line `line` with `status`, for the item
    /// of fingerprint `key`.
    pub fn of(text: &[u8], line: usize, status: Status, key: u64) -> IndexEntry {
        let mut entry = IndexEntry {
            line,
            status,
            bytes: text.len() as u64,
            key,
            hash: 0,
        };
        entry.hash = entry.seal(text);
        entry
    }

    /// The hash of `text` and of the entry's fields: what [`IndexEntry::hash`] must be.
    fn seal(&self, text: &[u8]) -> u64 {
        let mut hash = Fnv::new();
        hash.add(text);
        hash.add(&(self.line as u64).to_le_bytes());
        hash.add(self.status.word().as_bytes());
        hash.add(&[0]);
        hash.add(&self.bytes.to_le_bytes());
        hash.add(&self.key.to_le_bytes());
        hash.finish()
    }

    /// Whether `text` is the result this entry was written for, with this entry's fields.
    pub fn matches(&self, text: &[u8]) -> bool {
        text.len() as u64 == self.bytes && self.seal(text) == self.hash
    }

    /// The entry's line in the index.
    pub fn to_line(self) -> String {
        format!(
            "{}\t{}\t{}\t{:016x}\t{:016x}\n",
            self.line,
            self.status.word(),
            self.bytes,
            self.key,
            self.hash
        )
    }

    /// The entry of an index line (without its newline).
    pub(super) fn parse(line: &str) -> Option<IndexEntry> {
        let mut fields = line.split('\t');
        let entry = IndexEntry {
            line: fields.next()?.parse().ok()?,
            status: Status::from_word(fields.next()?)?,
            bytes: fields.next()?.parse().ok()?,
            key: u64::from_str_radix(fields.next()?, 16).ok()?,
            hash: u64::from_str_radix(fields.next()?, 16).ok()?,
        };
        fields.next().is_none().then_some(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let entry = IndexEntry::of(b"unknown (time limit)\n", 17, Status::Unknown, 0xdead_beef);
        let line = entry.to_line();
        assert_eq!(IndexEntry::parse(line.trim_end()), Some(entry));
        assert_eq!(IndexEntry::parse("17\tdone\t3"), None);
        assert_eq!(IndexEntry::parse("x\tdone\t3\t0\t0"), None);
    }
}
