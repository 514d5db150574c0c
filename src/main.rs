//! The `sudokit` command: parses arguments and maps every error to one line and exit code 2.
#![forbid(unsafe_code)]

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(error) => {
            // `sudokit solve big.txt | head` closes the pipe early: that is a normal end.
            let broken_pipe = error
                .chain()
                .filter_map(|cause| cause.downcast_ref::<io::Error>())
                .any(|e| e.kind() == io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            // A standard error that cannot be written loses the line, never panics.
            let _ = writeln!(io::stderr().lock(), "sudokit: {error:#}");
            ExitCode::from(2)
        }
    }
}
