//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod conformance;
mod latin_reduction;
mod malformed;
mod reduce_latin;
mod round_trip;
mod solve_cli;
mod verify_info;
