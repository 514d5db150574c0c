//! libFuzzer target `minisat_answer`: see `fuzz/drivers.rs`.
#![no_main]

#[path = "../drivers.rs"]
mod drivers;

#[path = "../alloc_cap.rs"]
mod alloc_cap;

libfuzzer_sys::fuzz_target!(|data: &[u8]| drivers::minisat_answer(data));
