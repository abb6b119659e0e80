//! Replays inputs of the fuzzers: every file committed under
//! `fuzz/regressions/<target>/` goes through the same harness the fuzz
//! target runs, so a regression fails `make test`. The fuzz runs of issue
//! 13 (7.3 million executions, 42 minutes) found no crash, hang or runaway
//! allocation after the checked FST reader landed; what is committed is a
//! sample of their corpus (edited indexes that reach the FSTs and tables),
//! and minimised crash inputs go beside it when a run finds one.

#[path = "../../../fuzz/harness.rs"]
mod harness;

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions").join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != ".gitkeep"))
        .collect();
    inputs.sort();
    for input in &inputs {
        eprintln!("replaying {}", input.display());
        run(&std::fs::read(input).unwrap());
    }
    inputs.len()
}

#[test]
fn replays_arbitrary_bytes_findings() {
    replay("index_bytes", harness::index_bytes);
}

#[test]
fn replays_mutated_index_findings() {
    replay("index_mutate", harness::index_mutate);
}

#[test]
fn the_harness_runs_every_query_on_its_base_index() {
    // The base index is valid: every query answers, and verify agrees.
    let index = wordhoard_query::Index::from_bytes(harness::base_index()).unwrap();
    assert!(index.verify().iter().all(|c| c.ok));
    harness::exercise(&index);
    harness::index_mutate(&[]);
    harness::index_bytes(b"");
}
