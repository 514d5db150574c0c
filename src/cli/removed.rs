//! Spellings removed because they meant something else elsewhere (`bench --limit`, `reduce latin
//! --count`, `minimize -o`): clap refuses them as unknown, and [`explain`] replaces its tip (a
//! similar flag, or `-- --limit`, both wrong here) with the spelling to use.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, Error, ErrorKind};

/// A removed spelling of a command's flag.
struct Removed {
    /// The command's words (`["reduce", "latin"]`).
    command: &'static [&'static str],
    /// The spellings refused (`-o`, `--output`).
    flags: &'static [&'static str],
    /// The tip: what to write instead, and what the flag means elsewhere.
    tip: &'static str,
}

const REMOVED: &[Removed] = &[
    Removed {
        command: &["bench"],
        flags: &["--limit"],
        tip: "`bench --limit N` is now `--first N` (the first N puzzles of each file); \
              elsewhere --limit N is the most solutions counted",
    },
    Removed {
        command: &["reduce", "latin"],
        flags: &["--count"],
        tip: "`reduce latin --count N` is now `--limit N` (the most solutions counted); \
              elsewhere --count N is how many puzzles to make",
    },
    Removed {
        command: &["minimize"],
        flags: &["-o", "--output"],
        tip: "`minimize -o FILE` is now `--reduced FILE` (the reduced puzzles); elsewhere \
              -o FILE is the command's result file, continued with --resume",
    },
];

/// `error` with the spelling to use as its tip when it refuses a removed spelling of the
/// command `argv` runs; any other error as it is.
pub fn explain(error: Error, argv: &[OsString], command: &clap::Command) -> Error {
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let Some(ContextValue::String(flag)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    let words = command_words(argv);
    let Some(removed) = REMOVED.iter().find(|r| {
        r.flags.contains(&flag.as_str())
            && words.len() >= r.command.len()
            && words.iter().zip(r.command).all(|(w, c)| w == c)
    }) else {
        return error;
    };
    let mut explained = Error::new(ErrorKind::UnknownArgument).with_cmd(command);
    explained.insert(ContextKind::InvalidArg, ContextValue::String(flag.clone()));
    explained.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![removed.tip.into()]),
    );
    if let Some(usage) = error.get(ContextKind::Usage) {
        explained.insert(ContextKind::Usage, usage.clone());
    }
    explained
}

/// The words of `argv` that are no option: the subcommand's path first (global options and
/// their values skipped).
fn command_words(argv: &[OsString]) -> Vec<&str> {
    let mut words = Vec::new();
    let mut at = 1;
    while at < argv.len() {
        match argv[at].to_str() {
            Some("--timeout" | "--solvers") => at += 2,
            Some(word) if word.starts_with('-') => at += 1,
            Some(word) => {
                words.push(word);
                at += 1;
            }
            None => at += 1,
        }
    }
    words
}
