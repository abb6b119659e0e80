//! Helpers for the end-to-end tests: run the binary, find the word lists,
//! and build (once, cached on disk) the indexes the figures need.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The binary under test, kept away from the user's indexes: no
/// `$WORDHOARD_INDEX`, and an index folder that does not exist.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wordhoard"));
    cmd.env_remove("WORDHOARD_INDEX")
        .env_remove("XDG_DATA_HOME")
        .env("WORDHOARD_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-index-folder"))
        .stdin(Stdio::null());
    cmd
}

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

/// Runs the binary with `--json` and parses stdout; panics with stderr on failure.
pub fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = run(&all);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A shared word list: in `$WORDHOARD_WORDLISTS`, else `../shared/wordlists`.
/// The tests that call this are ignored when the lists are missing (see
/// crates/cli/build.rs), so a missing list here is a failure.
pub fn wordlist(name: &str) -> PathBuf {
    let dir = std::env::var_os("WORDHOARD_WORDLISTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/wordlists"));
    let path = dir.join(name);
    assert!(
        path.is_file(),
        "{} is missing: put the shared word lists there or set WORDHOARD_WORDLISTS",
        path.display()
    );
    path
}

/// An index built from shared word lists, cached per binary build in the
/// test scratch folder (the build publishes atomically, so test processes
/// racing to build it are harmless).
pub fn shared_index(list: &str, common: Option<&str>) -> PathBuf {
    let words = wordlist(list);
    let common = common.map(wordlist);
    let stamp = std::fs::metadata(env!("CARGO_BIN_EXE_wordhoard"))
        .and_then(|m| m.modified())
        .map(|t| t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos())
        .unwrap_or(0);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{list}-{}-{stamp}.hoard", common.is_some()));
    if !out.exists() {
        let mut cmd = bin();
        cmd.arg("build").arg(&words).arg("-o").arg(&out);
        if let Some(c) = &common {
            cmd.arg("--common").arg(c);
        }
        let built = cmd.output().expect("build runs");
        assert!(built.status.success(), "build failed: {}", stderr(&built));
    }
    out
}

/// enable1 with popular.txt as its common list.
pub fn enable1() -> PathBuf {
    shared_index("enable1.txt", Some("popular.txt"))
}

/// Runs `--json` queries against an index.
pub fn query(index: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--index", index.to_str().unwrap()];
    all.extend_from_slice(args);
    json(&all)
}

/// A temporary folder holding the small golden word list and its index.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch { dir: tempfile::tempdir().unwrap() }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn write(&self, name: &str, text: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Builds the golden list into `golden.hoard` here.
    pub fn golden_index(&self) -> PathBuf {
        let out = self.path("golden.hoard");
        let data = repo().join("tests/data");
        let built = run(&[
            "build",
            data.join("golden-words.txt").to_str().unwrap(),
            "--common",
            data.join("golden-common.txt").to_str().unwrap(),
            // The list predates the proper-noun rule: its `I` is kept, so
            // this is the index of `tests/data/v3.hoard`.
            "--proper-nouns",
            "keep",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(built.status.success(), "{}", stderr(&built));
        out
    }
}

/// `scripts/hoard.py INDEX`: the second reader, in Python's standard
/// library.
pub fn hoard_py(index: &Path) -> Output {
    Command::new("python3")
        .arg(repo().join("scripts/hoard.py"))
        .arg(index)
        .output()
        .expect("python3 runs (Debian: apt-get install python3)")
}

/// hoard.py's verdict on a file: accepted, or refused with one error
/// line, never a traceback.
pub fn hoard_py_accepts(index: &Path) -> bool {
    let out = hoard_py(index);
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => true,
        Some(1) => {
            assert!(err.starts_with("hoard.py: error: ") && err.lines().count() == 1, "{err}");
            false
        }
        code => panic!("hoard.py exited with {code:?} on {}: {err}", index.display()),
    }
}

/// wordhoard's verdict on what both readers check of a file: the header
/// and the section table, every section's checksum, the metadata (and the
/// proper nouns), and the words and terms FSTs walked whole (rank maps of
/// words over the alphabet, holding the keys they state). Only wordhoard
/// reads the other tables.
pub fn wordhoard_accepts(bytes: &[u8]) -> bool {
    use wordhoard_query::format::{fst::FstMap, Columns, SectionId};
    let Ok(index) = wordhoard_query::Index::from_bytes(bytes) else { return false };
    let terms_ok = || -> wordhoard_query::Result<()> {
        if !index.has_section(SectionId::Terms) {
            return Ok(());
        }
        let cols = Columns::parse(SectionId::Terms, index.section(SectionId::Terms)?)?;
        let fst = FstMap::new(cols.bytes(0)?, SectionId::Terms)?;
        if fst.len() > u32::MAX as usize {
            return Err(cols.corrupt("states too many terms"));
        }
        fst.check_rank_map(index.alphabet())
    };
    index.verify_checksums().iter().all(|c| c.ok)
        && index.words().and_then(|w| w.check_rank_map(index.alphabet())).is_ok()
        && terms_ok().is_ok()
}

/// Waits until `child` waits on a pipe (its stdin, say), so that its
/// signal handler is set: on Linux, until the kernel says so (however
/// loaded the machine); where /proc says nothing, a second.
pub fn wait_on_pipe(child: &std::process::Child) {
    // "0" while it runs; a kernel function's name while it sleeps.
    let waiting = || {
        let wchan = std::fs::read_to_string(format!("/proc/{}/wchan", child.id())).ok()?;
        Some(wchan.contains("pipe"))
    };
    let started = std::time::Instant::now();
    match waiting() {
        Some(_) => {
            while waiting() != Some(true) && started.elapsed() < std::time::Duration::from_secs(30) {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        None => std::thread::sleep(std::time::Duration::from_millis(1000)),
    }
}

/// Sends `signal` (a `kill` name: TERM, INT) to `child`.
pub fn signal(child: &std::process::Child, signal: &str) {
    let sent = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status().unwrap();
    assert!(sent.success());
}
