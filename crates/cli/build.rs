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

/// System tools some tests run, each with its cfg: Debian's `an` (the
/// multi-word anagrams are compared with it), `zsh` (parses the zsh
/// completions), `man` (renders the man pages) and util-linux's `script`
/// (makes a terminal). `make deps` installs them; without one its tests
/// are marked ignored, so they are counted as skipped.
/// `WORDHOARD_REQUIRE_TOOLS=1` (CI) keeps them in, so a missing tool fails.
const TOOLS: [(&str, &str); 4] =
    [("an", "tool_an"), ("zsh", "tool_zsh"), ("man", "tool_man"), ("script", "tool_script")];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_wordlists)");
    println!("cargo::rustc-check-cfg=cfg(debian_dicts)");
    tools();
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

/// Sets the cfg of each tool found on `PATH` (or in /usr/games, where
/// Debian puts `an`), watching the folders a package installs into.
fn tools() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=WORDHOARD_REQUIRE_TOOLS");
    let required = std::env::var("WORDHOARD_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    dirs.push(PathBuf::from("/usr/games"));
    for dir in ["/usr/bin", "/usr/games"] {
        watch(Path::new(dir));
    }
    for (tool, cfg) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if required || dirs.iter().any(|d| d.join(tool).is_file()) {
            println!("cargo::rustc-cfg={cfg}");
        }
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
