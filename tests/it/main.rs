//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod malformed;
mod reduce_latin;
mod round_trip;
mod verify_info;
