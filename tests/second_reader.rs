//! `scripts/hoard.py`, a reader written from the format spec alone with
//! Python's standard library, must print exactly what `wordhoard info
//! --json` prints, and refuse what wordhoard refuses: the spec says all a
//! reader needs.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{enable1, run, Scratch};

fn hoard_py(index: &Path) -> Output {
    Command::new("python3")
        .arg(common::repo().join("scripts/hoard.py"))
        .arg(index)
        .output()
        .expect("python3 runs (Debian: apt-get install python3)")
}

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
    let golden = common::repo().join("tests/data/v2.hoard");
    let info = both_print_the_same(&golden);
    assert_eq!(info["sections"].as_array().unwrap().len(), 8);
    let s = Scratch::new();
    both_print_the_same(&s.golden_index());
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn agrees_on_enable1() {
    let info = both_print_the_same(&enable1());
    assert_eq!(info["words"], 172_820);
}

#[test]
fn refuses_what_wordhoard_refuses() {
    let s = Scratch::new();
    let good = std::fs::read(common::repo().join("tests/data/v2.hoard")).unwrap();
    let info = both_print_the_same(&common::repo().join("tests/data/v2.hoard"));
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
