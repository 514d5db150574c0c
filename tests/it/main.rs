//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod grade;
mod malformed;
mod propagate_data;
mod round_trip;
mod verify_info;
