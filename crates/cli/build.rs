//! Decides whether the tests that need the shared word lists can run.
//!
//! Those tests (tests/figures.rs) check SPEC's figures on enable1.txt,
//! popular.txt and words.txt, which are never committed. When the lists
//! are missing the tests are marked ignored, so the test runner counts
//! them as skipped rather than passed. `WORDHOARD_REQUIRE_WORDLISTS=1`
//! (CI) keeps them in, so a missing list fails. The tests of Debian's
//! dictionaries are skipped the same way when those are not installed.

use std::path::{Path, PathBuf};

const LISTS: [&str; 3] = ["enable1.txt", "popular.txt", "words.txt"];

/// Debian's dictionaries the word-list tests build (tests/debian_lists.rs):
/// packages wamerican-huge and wngerman, which `make deps` installs.
const DEBIAN_DICTS: [&str; 2] = ["/usr/share/dict/american-english-huge", "/usr/share/dict/ngerman"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_wordlists)");
    println!("cargo::rustc-check-cfg=cfg(debian_dicts)");
    watch(Path::new("/usr/share/dict"));
    if DEBIAN_DICTS.iter().all(|d| Path::new(d).is_file()) {
        println!("cargo::rustc-cfg=debian_dicts");
    }
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
