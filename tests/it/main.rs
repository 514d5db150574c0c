//! Integration tests: one binary that runs the real `sudokit` executable.

#[cfg(feature = "cadical")]
mod cadical;
mod common;
mod conformance;
mod crosscheck;
mod dlx_colour;
mod docs_examples;
mod explain;
mod export;
mod export_props;
mod export_support;
mod external_solvers;
mod external_tools;
mod fuzz_corpus;
mod generate;
mod grade;
mod grasp;
mod interrupt;
mod latin_reduction;
mod layers;
mod malformed;
mod mip;
mod native_hard_band;
mod propagate_data;
mod reduce_latin;
mod reduce_targets;
mod reliability;
mod report_browser;
mod resume_commands;
mod round_trip;
mod sat_cli;
mod solve_cli;
mod verify_info;
