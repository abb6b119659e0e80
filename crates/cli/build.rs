//! Decides whether the tests that need the shared word lists can run.
//!
//! Those tests (tests/figures.rs) check SPEC's figures on enable1.txt,
//! popular.txt and words.txt, which are never committed. When the lists
//! are missing the tests are marked ignored, so the test runner counts
//! them as skipped rather than passed. `WORDHOARD_REQUIRE_WORDLISTS=1`
//! (CI) keeps them in, so a missing list fails.

use std::path::{Path, PathBuf};

const LISTS: [&str; 3] = ["enable1.txt", "popular.txt", "words.txt"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_wordlists)");
    println!("cargo::rerun-if-env-changed=WORDHOARD_WORDLISTS");
    println!("cargo::rerun-if-env-changed=WORDHOARD_REQUIRE_WORDLISTS");
    let dir = match std::env::var_os("WORDHOARD_WORDLISTS").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/wordlists"),
    };
    watch(&dir);
    let required = std::env::var("WORDHOARD_REQUIRE_WORDLISTS").is_ok_and(|v| v == "1");
    if required || LISTS.iter().all(|list| dir.join(list).is_file()) {
        println!("cargo::rustc-cfg=shared_wordlists");
    }
}

/// Runs this script again when the folder changes or goes. Cargo scans a
/// watched folder whole, so nothing above it is watched: lists added
/// where there was no folder are seen at the next `cargo clean`, or when
/// `$WORDHOARD_WORDLISTS` changes.
fn watch(dir: &Path) {
    if dir.is_dir() {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
}
