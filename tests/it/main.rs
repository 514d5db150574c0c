//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod conformance;
mod export;
mod export_props;
mod export_support;
mod external_tools;
mod fuzz_corpus;
mod grade;
mod interrupt;
mod latin_reduction;
mod malformed;
mod propagate_data;
mod reduce_latin;
mod round_trip;
mod solve_cli;
mod verify_info;
