//! `scripts/hoard.py`, a reader written from the format spec alone with
//! Python's standard library, must print exactly what `wordhoard info
//! --json` prints, and refuse what wordhoard refuses: the spec says all a
//! reader needs.

mod common;

use std::path::Path;

use common::{enable1, run, Scratch};

use common::hoard_py;

fn both_print_the_same(index: &Path) -> serde_json::Value {
    let python = hoard_py(index);
    assert!(python.status.success(), "{}", String::from_utf8_lossy(&python.stderr));
    let rust = run(&["--index", index.to_str().unwrap(), "info", "--json"]);
    assert!(rust.status.success());
    assert_eq!(String::from_utf8_lossy(&python.stdout), String::from_utf8_lossy(&rust.stdout));
    serde_json::from_slice(&rust.stdout).unwrap()
}

#[test]
fn agrees_on_the_golden_index() {
    let golden = common::repo().join("tests/data/v3.hoard");
    let info = both_print_the_same(&golden);
    assert_eq!(info["sections"].as_array().unwrap().len(), 9);
    let s = Scratch::new();
    both_print_the_same(&s.golden_index());
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn agrees_on_enable1() {
    let info = both_print_the_same(&enable1());
    assert_eq!(info["words"], 172_820);
}

/// An index whose lists had proper nouns carries a `proper_nouns`
/// section; both readers show it, and both refuse it damaged, even with
/// every checksum made right again.
#[test]
fn agree_on_the_proper_nouns_section() {
    let s = Scratch::new();
    let list = s.write("nouns.txt", b"apple\nbread\ncider\nParis\ndates\n");
    let idx = s.path("nouns.hoard");
    assert!(run(&["build", list.to_str().unwrap(), "-o", idx.to_str().unwrap()]).status.success());
    let info = both_print_the_same(&idx);
    assert_eq!(info["proper_nouns"], serde_json::json!({"policy": "skip", "auto": true, "capitalised": 1, "words": 5}));
    let good = std::fs::read(&idx).unwrap();
    let section = info["sections"].as_array().unwrap().iter().position(|x| x["name"] == "proper_nouns").unwrap();
    let offset = info["sections"][section]["offset"].as_u64().unwrap() as usize;
    // The column table: one column at 24, of 4 u64s.
    let value_at = |i: usize| offset + 24 + 8 * i;
    let damages: [(&str, usize, u64); 4] = [
        ("policy 3", value_at(0), 3),
        ("auto 2", value_at(1), 2),
        ("more capitals than words", value_at(2), 9),
        ("a column past the end", offset + 8, 4096),
    ];
    for (what, at, value) in damages {
        let mut bytes = good.clone();
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        wordhoard_query::format::reseal(&mut bytes);
        let path = s.write("damaged.hoard", &bytes);
        let python = hoard_py(&path);
        assert_eq!(python.status.code(), Some(1), "{what}: hoard.py accepted it");
        let rust = run(&["--index", path.to_str().unwrap(), "info"]);
        assert_eq!(rust.status.code(), Some(1), "{what}: wordhoard accepted it");
        let (py, rs) = (String::from_utf8_lossy(&python.stderr), common::stderr(&rust));
        assert!(py.contains("proper_nouns") && rs.contains("proper_nouns"), "{what}: {py} / {rs}");
    }
}

/// Both readers agree on an index built in the year 10000, on a tail of
/// zero bytes past the padding, and on files that are not regular files.
#[test]
fn agree_on_far_dates_short_tails_and_special_files() {
    let s = Scratch::new();
    let list = s.write("far.txt", b"ride\ndire\n");
    let idx = s.path("far.hoard");
    let built = common::bin()
        .env("SOURCE_DATE_EPOCH", "253402300800")
        .args(["build", list.to_str().unwrap(), "-o", idx.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(built.status.success());
    assert_eq!(both_print_the_same(&idx)["built_at"], "10000-01-01T00:00:00Z");
    // Zero bytes past the padding to the next multiple of 8, though
    // fewer than 8 in all, are not padding.
    let bytes = std::fs::read(&idx).unwrap();
    let padding = (8 - bytes.len() % 8) % 8;
    assert!(padding < 7, "{} bytes", bytes.len());
    let tailed = s.write("tailed.hoard", &[bytes.clone(), vec![0u8; padding + 1]].concat());
    let padded = s.write("padded.hoard", &[bytes, vec![0u8; padding]].concat());
    both_print_the_same(&padded);
    #[cfg(unix)]
    let special: Vec<std::path::PathBuf> = {
        let fifo = s.path("pipe.hoard");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        vec![fifo, "/dev/zero".into(), s.path("")]
    };
    #[cfg(not(unix))]
    let special: Vec<std::path::PathBuf> = vec![s.path("")];
    for path in std::iter::once(tailed).chain(special) {
        let python = hoard_py(&path);
        assert_eq!(python.status.code(), Some(1), "{}: hoard.py accepted it", path.display());
        let err = String::from_utf8_lossy(&python.stderr);
        assert!(err.starts_with("hoard.py: error: ") && err.lines().count() == 1, "{err}");
        let rust = run(&["--index", path.to_str().unwrap(), "info"]);
        assert_eq!(rust.status.code(), Some(1), "{}: wordhoard accepted it", path.display());
    }
}

#[test]
fn refuses_what_wordhoard_refuses() {
    let s = Scratch::new();
    let good = std::fs::read(common::repo().join("tests/data/v3.hoard")).unwrap();
    let info = both_print_the_same(&common::repo().join("tests/data/v3.hoard"));
    let sections = info["sections"].as_array().unwrap();
    let mut damaged: Vec<(String, Vec<u8>)> = Vec::new();
    // A flipped bit in the middle of each section: its checksum fails.
    for section in sections {
        let mut bytes = good.clone();
        let at = section["offset"].as_u64().unwrap() + section["bytes"].as_u64().unwrap() / 2;
        bytes[at as usize] ^= 1;
        damaged.push((format!("a bit of `{}`", section["name"]), bytes));
    }
    damaged.push(("the version".into(), {
        let mut b = good.clone();
        b[8] = 1;
        b
    }));
    damaged.push(("the header".into(), {
        let mut b = good.clone();
        b[16 + 8] ^= 8;
        b
    }));
    damaged.push(("a cut".into(), good[..good.len() - 8].to_vec()));
    damaged.push(("a tail".into(), [good.as_slice(), &[1u8; 8]].concat()));
    for (what, bytes) in damaged {
        let path = s.write("damaged.hoard", &bytes);
        let python = hoard_py(&path);
        assert_eq!(python.status.code(), Some(1), "{what}: hoard.py accepted it");
        let err = String::from_utf8_lossy(&python.stderr);
        assert!(err.starts_with("hoard.py: error: ") && err.lines().count() == 1, "{what}: {err}");
        let verify = run(&["--index", path.to_str().unwrap(), "verify"]);
        assert!(!verify.status.success(), "{what}: wordhoard accepted it");
    }
}

/// hoard.py's verdict on `bytes`, as a file.
fn hoard_py_accepts(s: &Scratch, bytes: &[u8]) -> bool {
    common::hoard_py_accepts(&s.write("corpus.hoard", bytes))
}

/// Every input of the fuzz corpus (raw files, and the edited indexes the
/// mutation target makes of its inputs), each with a byte cut off, a byte
/// added and one flipped: both readers accept or both refuse.
#[test]
fn agree_on_every_file_of_the_fuzz_corpus() {
    #[path = "../fuzz/harness.rs"]
    #[allow(unused_imports)]
    mod harness;
    let s = Scratch::new();
    let corpus = common::repo().join("fuzz/regressions");
    let mut files = Vec::new();
    for (target, make) in [
        ("index_bytes", (|d: &[u8]| Some(d.to_vec())) as fn(&[u8]) -> Option<Vec<u8>>),
        ("index_mutate", harness::mutated),
    ] {
        let mut inputs: Vec<_> = std::fs::read_dir(corpus.join(target))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        inputs.sort();
        files.extend(inputs.iter().filter_map(|p| make(&std::fs::read(p).unwrap())));
    }
    files.push(harness::base_index().to_vec());
    let mut variants = Vec::new();
    for file in &files {
        variants.push(file.clone());
        if !file.is_empty() {
            variants.push(file[..file.len() - 1].to_vec());
            let mut flipped = file.clone();
            flipped[file.len() / 2] ^= 0x10;
            variants.push(flipped);
        }
        variants.push([file.as_slice(), &[0]].concat());
    }
    let (mut accepted, mut refused) = (0, 0);
    for (i, bytes) in variants.iter().enumerate() {
        let rust = common::wordhoard_accepts(bytes);
        assert_eq!(hoard_py_accepts(&s, bytes), rust, "file {i} of {}: wordhoard accepts it: {rust}", variants.len());
        if rust {
            accepted += 1
        } else {
            refused += 1
        }
    }
    assert!(accepted >= 5 && refused >= 20, "accepted {accepted}, refused {refused}");
}
