//! Hostile word lists: `build` keeps the right words and counts what it
//! skipped, or fails with one line naming the file; memory stays bounded.

mod common;
// The query crate's seeded generator (not public there).
#[path = "../crates/query/src/rng.rs"]
mod rng;
use rng::SplitMix64;

use std::io::Write;
use std::process::Stdio;

use common::{bin, json, stderr, Scratch};

fn build_json(s: &Scratch, lists: &[&std::path::Path]) -> serde_json::Value {
    let out = s.path("x.hoard");
    let mut args = vec!["build".to_string()];
    args.extend(lists.iter().map(|p| p.to_str().unwrap().to_string()));
    args.extend(["-o".into(), out.to_str().unwrap().into()]);
    json(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn binary_garbage_is_skipped_not_fatal() {
    let s = Scratch::new();
    let mut junk: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    junk.extend_from_slice(b"\nzebra\n\x00\x00\nyak\n");
    let list = s.write("junk.bin", &junk);
    let r = build_json(&s, &[&list]);
    assert_eq!(r["words"], 2, "zebra and yak: {r}");
    assert_eq!(r["lines"].as_u64().unwrap(), r["skipped"].as_u64().unwrap() + 2);
}

#[test]
fn encodings_and_line_endings() {
    let s = Scratch::new();
    let list = s.write("mixed.txt", b"\xEF\xBB\xBFapple\r\nBanana\r\n\xff\xfeoops\r\ncaf\xc3\xa9\r\n\r\n  cherry  \n");
    // The list is not a-z only, so its alphabet is the letters it uses:
    // café is a word. 3 of its 4 words have no capital: Banana is a
    // proper noun.
    let r = build_json(&s, &[&list]);
    assert_eq!(r["words"], 3);
    assert_eq!(r["skipped_by_reason"]["proper_noun"], 1);
    assert_eq!(r["skipped_by_reason"]["not_utf8"], 1);
    assert_eq!(r["skipped_by_reason"]["not_in_alphabet"], 0);
    assert_eq!(r["skipped_by_reason"]["empty"], 1);
    assert_eq!(common::query(&s.path("x.hoard"), &["info"])["alphabet"], "acefhlpryé");
    // Named a-z, it is skipped.
    let out = s.path("x.hoard");
    let r = json(&[
        "build",
        list.to_str().unwrap(),
        "--alphabet",
        "abcdefghijklmnopqrstuvwxyz",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r["words"], 2);
    assert_eq!(r["skipped_by_reason"]["not_in_alphabet"], 1, "café");
    assert_eq!(r["skipped_by_reason"]["letter_outside_alphabet"], 1, "café");
    let idx = s.path("x.hoard");
    let words = common::query(&idx, &["anigram", "unscramble", "eplap"]);
    assert_eq!(words["words"], serde_json::json!(["apple"]));
}

#[test]
fn very_long_lines_and_empty_files() {
    let s = Scratch::new();
    let mut long = vec![b'a'; 5_000_000];
    long.extend_from_slice(b"\nshort\n");
    long.extend(std::iter::repeat_n(b'b', 300));
    let list = s.write("long.txt", &long);
    let empty = s.write("empty.txt", b"");
    let r = build_json(&s, &[&list, &empty]);
    assert_eq!(r["words"], 1);
    assert_eq!(r["skipped_by_reason"]["too_long"], 2);
    let only_empty = build_json(&s, &[&empty]);
    assert_eq!(only_empty["words"], 0);
    assert_eq!(common::query(&s.path("x.hoard"), &["bee", "stats"])["valid"], 0);
}

#[test]
fn unreadable_input_names_the_file() {
    let s = Scratch::new();
    let out = bin()
        .args(["build", s.dir.path().to_str().unwrap(), "-o", s.path("x.hoard").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: ") && err.contains("is a directory") && err.lines().count() == 1, "{err}");
    let nested = s.write("file.txt", b"x");
    let out = bin().args(["--index", &format!("{}/x.hoard", nested.display()), "info"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("Not a directory") || stderr(&out).contains("no index"), "{}", stderr(&out));
}

/// Ten million lines through stdin, generated here (nothing committed):
/// every line is counted, memory follows the distinct words.
#[test]
fn ten_million_lines_stay_bounded() {
    let s = Scratch::new();
    let out = s.path("big.hoard");
    let mut child = bin()
        .args(["build", "-", "-o", out.to_str().unwrap(), "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
    let mut rng = SplitMix64::new(3);
    let words: Vec<String> =
        (0..20_000).map(|_| (0..3 + rng.below(7)).map(|_| (b'a' + rng.below(12) as u8) as char).collect()).collect();
    for i in 0..10_000_000usize {
        let line = if i % 10 == 9 { "not a word!" } else { &words[i % words.len()] };
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let done = child.wait_with_output().unwrap();
    assert!(done.status.success());
    let r: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(r["lines"], 10_000_000);
    assert_eq!(r["skipped"], 1_000_000);
    // Every tenth line is junk, so words at indices ending in 9 never appear.
    let distinct: std::collections::BTreeSet<&String> =
        words.iter().enumerate().filter(|(j, _)| j % 10 != 9).map(|(_, w)| w).collect();
    assert_eq!(r["words"], distinct.len());
    let peak_mb = r["peak_rss_kb"].as_u64().unwrap() / 1024;
    eprintln!("peak memory {peak_mb} MB for 10,000,000 lines");
    assert!(peak_mb < 100, "memory follows distinct words, not lines: {peak_mb} MB");
}

/// `--index` takes a regular file only: a FIFO (which would block the
/// reader forever), a device (`/dev/zero` never ends) or a folder is one
/// line and exit 1, mapped or read, and says each thing once.
#[cfg(unix)]
#[test]
fn an_index_that_is_not_a_regular_file_is_refused_at_once() {
    let s = Scratch::new();
    let fifo = s.path("pipe.hoard");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let folder = s.path("folder.hoard");
    std::fs::create_dir(&folder).unwrap();
    for path in [fifo.to_str().unwrap(), "/dev/zero", folder.to_str().unwrap()] {
        for mode in [&[][..], &["--no-mmap"][..]] {
            let started = std::time::Instant::now();
            let out = bin().args(mode).args(["--index", path, "--timeout", "20", "info"]).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{path} {mode:?}");
            assert!(started.elapsed().as_secs() < 10, "{path} {mode:?}: refused before any read");
            let err = stderr(&out);
            assert!(err.starts_with("error: ") && err.lines().count() == 1, "{path} {mode:?}: {err}");
            assert!(err.contains("not a regular file") || err.contains("is a directory"), "{err}");
            // The cause once, not again after itself.
            let cause = err.rsplit(": ").next().unwrap();
            assert_eq!(err.matches(cause).count(), 1, "{err}");
        }
    }
}

/// Asked for games up to 255 letters, `anigram count` sizes its work by
/// the terms in play, not by lengths times terms.
/// On enable1 the old buckets reserved 252 x 156,473 x 4 bytes (158 MB)
/// and aborted under this limit.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn anigram_count_over_every_length_fits_in_little_memory() {
    let idx = common::enable1();
    let script = format!(
        "ulimit -v 120000; exec {} --index {} anigram count --start-len 1 --goal-len 255 --json",
        env!("CARGO_BIN_EXE_wordhoard"),
        idx.display()
    );
    let out = std::process::Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 0);
}
