//! Integration tests: one binary that runs the real `sudokit` executable.

mod common;
mod export;
mod export_props;
mod export_support;
mod external_tools;
mod verify_info;
