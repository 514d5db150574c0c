//! Writing output files: to a temporary name beside the target, renamed when complete, so an
//! interrupted run never leaves a half-written file that looks whole.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes `contents` to `path` atomically (same directory, then rename): an [`AtomicFile`]
/// written at once.
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
            let mut out = std::io::stdout().lock();
            out.write_all(contents)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// A file written under a temporary name beside its target and renamed by [`AtomicFile::commit`];
/// dropped without a commit (an error, a panic), it removes the temporary file. For outputs too
/// large to build in memory first (exports).
pub struct AtomicFile {
    temp: std::path::PathBuf,
    path: std::path::PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`.
    pub fn create(path: &Path) -> anyhow::Result<AtomicFile> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .with_context(|| format!("{} is not a file name", path.display()))?;
        let temp = dir.join(format!(
            ".{}.partial-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file =
            fs::File::create(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
        super::stop::register_temp(temp.clone());
        Ok(AtomicFile {
            temp,
            path: path.to_path_buf(),
            file: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes, syncs and renames the file to its target name.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let file = self.file.take().expect("not yet committed");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&self.temp, &self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        super::stop::unregister_temp(&self.temp);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not yet committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not yet committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
            super::stop::unregister_temp(&self.temp);
        }
    }
}
