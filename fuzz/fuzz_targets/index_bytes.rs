//! Arbitrary bytes as an index: opening and every query answer or err.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::index_bytes(data);
});
