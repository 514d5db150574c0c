//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod verify_info;
