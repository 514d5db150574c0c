//! The crate as crates.io would get it: `cargo package --list` holds what a user of the library
//! and the command line needs (the sources, the puzzle files the `--help` examples and the unit
//! tests read, the guide pages the crate docs include, README, licence, changelog) and nothing
//! else (no logs, no scratch output of the examples, no integration tests, CI, Python package or
//! fuzz corpora); the metadata crates.io and docs.rs show is complete.

use std::collections::BTreeSet;
use std::process::Command;

use crate::common::{repo, stderr, stdout};

/// The files `cargo package` would put in the crate, relative to its root.
fn package_files() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(repo())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo package --list: {}",
        stderr(&out)
    );
    stdout(&out).lines().map(str::to_string).collect()
}

/// Every `models/...` path named in the sources (the `--help` examples, the unit tests, the
/// doc examples).
fn models_named_in_sources() -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let mut pending = vec![repo().join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (at, _) in text.match_indices("models/") {
                let name: String = text[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "_./-".contains(*c))
                    .collect();
                let name = name.trim_end_matches('.');
                if repo().join(name).is_file() {
                    named.insert(name.to_string());
                }
            }
        }
    }
    named
}

#[test]
fn the_package_holds_what_a_user_needs_and_nothing_else() {
    let files = package_files();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "src/lib.rs",
        "src/main.rs",
        "src/external/solvers.toml",
        // `src/lib.rs` includes these two pages in the crate docs.
        "docs/src/library.md",
        "docs/src/counting.md",
    ] {
        assert!(files.contains(needed), "{needed} is not in the package");
    }
    let named = models_named_in_sources();
    assert!(named.len() >= 10, "only {} model files named", named.len());
    for name in &named {
        assert!(
            files.contains(name),
            "{name} (named in src/) is not in the package"
        );
    }
    let allowed_roots = ["src/", "models/", "docs/src/"];
    let allowed_files = [
        "Cargo.toml",
        "Cargo.toml.orig",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        ".cargo_vcs_info.json",
    ];
    let mut models_bytes = 0;
    for file in &files {
        assert!(
            allowed_roots.iter().any(|root| file.starts_with(root))
                || allowed_files.contains(&file.as_str()),
            "{file} should not be in the package"
        );
        assert!(
            !file.ends_with(".log") && !file.ends_with(".partial") && !file.contains("/target/"),
            "{file}: a log, a partial result or a build product"
        );
        if file.starts_with("models/") {
            let bytes = std::fs::metadata(repo().join(file))
                .expect("a listed file exists")
                .len();
            // The samples are samples: a whole collection belongs to `scripts/fetch_data.sh`.
            assert!(
                bytes <= 64 * 1024,
                "{file}: {bytes} bytes, more than a sample"
            );
            models_bytes += bytes;
        }
    }
    assert!(
        models_bytes <= 512 * 1024,
        "models/ adds {models_bytes} bytes to the package"
    );
}

#[test]
fn the_crate_metadata_is_complete() {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = toml::from_str(&text).expect("Cargo.toml parses");
    let package = manifest["package"].as_table().expect("[package]");
    for key in [
        "description",
        "license",
        "readme",
        "documentation",
        "rust-version",
    ] {
        assert!(
            package
                .get(key)
                .and_then(|v| v.as_str())
                .is_some_and(|v| !v.is_empty()),
            "package.{key} is missing"
        );
    }
    let keywords = package["keywords"].as_array().expect("keywords");
    assert!(
        (1..=5).contains(&keywords.len()),
        "crates.io takes 1 to 5 keywords"
    );
    let categories = package["categories"].as_array().expect("categories");
    assert!(
        (1..=5).contains(&categories.len()),
        "crates.io takes 1 to 5 categories"
    );
    let docs_rs = package["metadata"]["docs"]["rs"]
        .as_table()
        .expect("[package.metadata.docs.rs]");
    let features = docs_rs["features"].as_array().expect("docs.rs features");
    assert!(
        !features.iter().any(|f| f.as_str() == Some("highs"))
            && docs_rs.get("all-features").is_none(),
        "docs.rs cannot build the C++ HiGHS feature"
    );
    let readme = package["readme"].as_str().expect("readme");
    assert!(repo().join(readme).is_file(), "{readme} does not exist");
}
