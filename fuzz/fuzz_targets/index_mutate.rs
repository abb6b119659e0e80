//! A valid small index with edits inside its sections and every checksum
//! recomputed, so the edits reach the FSTs and tables behind the CRCs.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::index_mutate(data);
});
