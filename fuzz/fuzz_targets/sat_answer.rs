//! libFuzzer target `sat_answer`: see `fuzz/drivers.rs`.
#![no_main]

#[path = "../drivers.rs"]
mod drivers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| drivers::sat_answer(data));
