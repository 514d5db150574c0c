//! libFuzzer target `exact_cover`: see `fuzz/drivers.rs`.
#![no_main]

#[path = "../drivers.rs"]
mod drivers;

#[path = "../alloc_cap.rs"]
mod alloc_cap;

libfuzzer_sys::fuzz_target!(|data: &[u8]| drivers::exact_cover(data));
