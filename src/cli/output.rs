//! Writing output files: to a temporary name beside the target, renamed when complete, so an
//! interrupted run never leaves a half-written file that looks whole.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes `contents` to `path` atomically (same directory, then rename).
pub fn write_atomically(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
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
    // A signal or --timeout that stops the process deletes the temporary file.
    super::stop::register_temp(temp.clone());
    let result = (|| -> anyhow::Result<()> {
        let mut file =
            fs::File::create(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temp, path).with_context(|| format!("cannot write {}", path.display()))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    super::stop::unregister_temp(&temp);
    result
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
