//! The identity of a run whose results a resumable output holds (`-o FILE`, see
//! [`super::partial`]): the command, the options that shape its records, the output form, and
//! its inputs. A `--resume` continues only a run of the same identity.
//!
//! # The inputs
//! An input is its content *and* its name as given: each regular file is listed with its length
//! and an FNV-1a hash of its bytes, so a different input under the same name is refused before
//! any work. A copy of the same bytes under another name is refused too, saying so: records name
//! their input (`error: FILE:LINE:COLUMN`, `info`'s `FILE: line N`), and a resumed run's output
//! would name both. Standard input (`-`) and other streams cannot be read twice: they are listed
//! by name only, and each kept result must still answer the item at its place (its line and
//! fingerprint), as for every input.
//!
//! Hashing reads each input once more before the run (about 5 ms per MB), and only when the
//! output is a file.
//!
//! # Examples
//! ```
//! use std::path::Path;
//! use sudokit::jobs::run_identity::{inputs_identity, input_differences};
//! let sample = Path::new("models/sudoku/4x4/kr_4x4_sample.txt");
//! let here = inputs_identity(&[sample]).unwrap();
//! assert_eq!(here[0]["name"], "models/sudoku/4x4/kr_4x4_sample.txt");
//! let stdin = inputs_identity(&[Path::new("-")]).unwrap();
//! assert!(input_differences(&here, &stdin).contains("standard input"));
//! ```

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use serde_json::{Value, json};

use super::item::{Fnv, InputError, input_name};

/// The key of the inputs in an identity.
pub const INPUTS: &str = "inputs";

/// The identity of a run of `command` with `options` (the job's
/// [`identity`](super::Job::identity)), written as JSON records when `json`, over `inputs` (none
/// for `generate`).
///
/// # Errors
/// An input that cannot be read.
pub fn run_identity(
    command: &str,
    options: Value,
    json: bool,
    inputs: &[&Path],
) -> Result<Value, InputError> {
    Ok(json!({
        "command": command,
        "options": options,
        "form": if json { "json" } else { "text" },
        INPUTS: inputs_identity(inputs)?,
    }))
}

/// The identity of `inputs`, in order: `{"name", "bytes", "fnv"}` for a regular file, `{"name"}`
/// for standard input (`-`) and other streams.
///
/// # Errors
/// A regular file that cannot be read.
pub fn inputs_identity(inputs: &[&Path]) -> Result<Value, InputError> {
    inputs
        .iter()
        .map(|&path| input_identity(path))
        .collect::<Result<Vec<Value>, InputError>>()
        .map(Value::Array)
}

fn input_identity(path: &Path) -> Result<Value, InputError> {
    let name = path.display().to_string();
    let is_file = path.as_os_str() != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if !is_file {
        return Ok(json!({ "name": name }));
    }
    let open_error = |source| InputError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(open_error)?;
    let mut hash = Fnv::new();
    let mut bytes = 0u64;
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(open_error(e)),
        };
        hash.add(&buffer[..read]);
        bytes += read as u64;
    }
    Ok(json!({ "name": name, "bytes": bytes, "fnv": format!("{:016x}", hash.finish()) }))
}

/// What differs between the inputs of two identities (`here`: this run's; `there`: the one in
/// the file), in words.
pub fn input_differences(here: &Value, there: &Value) -> String {
    let (Some(here), Some(there)) = (here.as_array(), there.as_array()) else {
        return format!("inputs: {here} here, {there} in the file");
    };
    if here.len() != there.len() {
        let inputs = |n: usize| match n {
            1 => "1 input".to_string(),
            n => format!("{n} inputs"),
        };
        return format!(
            "{} here, {} in the file",
            inputs(here.len()),
            inputs(there.len())
        );
    }
    let name = |input: &Value| {
        let name = input["name"].as_str().unwrap_or("?");
        input_name(Path::new(name))
    };
    let content = |input: &Value| (input.get("bytes").cloned(), input.get("fnv").cloned());
    let mut said = Vec::new();
    for (a, b) in here.iter().zip(there) {
        if a == b {
            continue;
        }
        let (name_a, name_b) = (name(a), name(b));
        let same_bytes = content(a) == content(b) && a.get("fnv").is_some();
        said.push(if name_a == name_b {
            format!("the input {name_a} changed since the run started")
        } else if same_bytes {
            format!(
                "the input is {name_a} here, {name_b} in the file: the same bytes, but the \
                 results name their input; resume with the name the run started with"
            )
        } else {
            format!("the input is {name_a} here, {name_b} in the file")
        });
    }
    said.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_told_apart_by_content_and_name() {
        let dir = std::env::temp_dir().join(format!("sudokit-identity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, "1.3.....4....2..\n").unwrap();
        std::fs::write(&b, "1.3.....4....2..\n").unwrap();
        let first = inputs_identity(&[&a]).unwrap();
        assert_eq!(first[0]["bytes"], 17);
        // A renamed copy: the same bytes, another name.
        let copy = inputs_identity(&[&b]).unwrap();
        assert_ne!(first, copy);
        let said = input_differences(&copy, &first);
        assert!(said.contains("the same bytes"), "{said}");
        // Another content under the same name.
        std::fs::write(&a, "1.3.....4....3..\n").unwrap();
        let changed = inputs_identity(&[&a]).unwrap();
        assert_ne!(first, changed);
        let said = input_differences(&changed, &first);
        assert!(said.contains("changed since the run started"), "{said}");
        assert_eq!(
            input_differences(&first, &inputs_identity(&[]).unwrap()),
            "1 input here, 0 inputs in the file"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
