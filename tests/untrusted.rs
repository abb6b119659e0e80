//! Indexes made to hurt: each one crafted with every checksum recomputed,
//! so only structural checks can stop it. Every command answers or fails
//! with one `error:` line and exit 1, never a panic, a hang or a runaway
//! allocation; `verify` names the damaged section.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{bin, stderr, Scratch};
use wordhoard_query::format::{FileWriter, Header, Metadata, SectionId};

/// Every query command, with arguments that reach every section.
const COMMANDS: &[&[&str]] = &[
    &["info"],
    &["bee", "solve", "aeginrt", "--center", "r"],
    &["bee", "report", "aeginrt", "--center", "r"],
    &["bee", "hints", "aeginrt", "--center", "r"],
    &["bee", "best", "--top", "3"],
    &["bee", "stats"],
    &["bee", "best", "--exclude", ""],
    &["bee", "generate", "--exclude", "", "--seed", "3"],
    &["bee", "generate", "--seed", "1"],
    &["bee", "check", "aeginrt", "--center", "r", "granite", "rat", "granite"],
    &["bee", "best", "--common-only"],
    &["boxed", "generate", "--seed", "2"],
    &["find", "r*ing"],
    &["find", "?[^aeiou]?e", "--limit", "0"],
    &["anagram", "deir?"],
    &["anagram", "granite", "--sub"],
    &["anagram", "--words", "ride dire"],
    &["boxed", "generate", "--seed", "3", "--common-only", "--answers"],
    &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "3"],
    &["boxed", "solve", "ai", "er", "dt", "ln", "--max-words", "3", "--limit", "0"],
    &["anigram", "unscramble", "deir"],
    &["anigram", "longest"],
    &["anigram", "count"],
    &["anigram", "count", "--start-len", "3", "--goal-len", "6"],
    &["anigram", "top"],
    &["anigram", "generate", "--seed", "2"],
];

/// Runs every command on `index`: each exits 0, or 1 (2 for letters the
/// index's alphabet lacks) with one clean error line, within seconds.
/// Returns the stderr of those that failed.
fn every_command(index: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for args in COMMANDS {
        let started = Instant::now();
        let out = bin().arg("--index").arg(index).args(*args).output().unwrap();
        let err = stderr(&out);
        assert!(started.elapsed() < Duration::from_secs(10), "{args:?} took {:?}", started.elapsed());
        assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{args:?} panicked: {err}");
        match out.status.code() {
            Some(0) => {}
            Some(1 | 2) => {
                assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{args:?}: {err}");
                failures.push(err);
            }
            code => panic!("{args:?} exited with {code:?}: {err}"),
        }
    }
    failures
}

/// `verify`'s verdict: exit 1, naming `section` as the damaged one.
fn verify_names(index: &Path, section: &str) {
    let out = bin().arg("--index").arg(index).arg("verify").arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "verify passed a damaged index: {}", String::from_utf8_lossy(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bad: Vec<&str> = report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["ok"] == false)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(bad.contains(&section), "verify named {bad:?}, not {section}");
}

/// The golden index with one section replaced (checksums recomputed).
fn with_section(s: &Scratch, name: &str, id: SectionId, edit: impl FnOnce(&[u8]) -> Vec<u8>) -> PathBuf {
    let file = std::fs::read(s.golden_index()).unwrap();
    let header = Header::parse(&file).unwrap();
    let mut out = FileWriter::new();
    let mut edit = Some(edit);
    for entry in &header.sections {
        let payload = &file[entry.range()];
        let payload = if entry.code == id.code() { (edit.take().unwrap())(payload) } else { payload.to_vec() };
        out.add_raw(entry.code, payload);
    }
    let path = s.path(name);
    std::fs::write(&path, out.finish()).unwrap();
    path
}

/// An FST node with any number of transitions (8-byte addresses and
/// outputs), appended to `out`; returns its address.
fn fst_node(out: &mut Vec<u8>, is_final: bool, transitions: &[(u8, u64, usize)]) -> usize {
    let first = out.len();
    if is_final {
        out.extend_from_slice(&0u64.to_le_bytes());
    }
    for t in transitions.iter().rev() {
        out.extend_from_slice(&t.1.to_le_bytes());
    }
    for t in transitions.iter().rev() {
        let delta = if t.2 == 0 { 0 } else { first.wrapping_sub(t.2) as u64 };
        out.extend_from_slice(&delta.to_le_bytes());
    }
    out.extend(transitions.iter().rev().map(|t| t.0));
    out.push(0x88);
    out.push(if is_final { 0x40 } else { 0 } | transitions.len() as u8);
    out.len() - 1
}

/// FST bytes: the version-3 header, `nodes`, and a footer stating `len`.
fn fst(nodes: impl FnOnce(&mut Vec<u8>) -> usize, len: u64) -> Vec<u8> {
    let mut out = 3u64.to_le_bytes().to_vec();
    out.extend_from_slice(&0u64.to_le_bytes());
    let root = nodes(&mut out);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(root as u64).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// The rank map of sorted `keys`, as a trie with no shared nodes.
fn trie(out: &mut Vec<u8>, keys: &[Vec<u8>], depth: usize) -> usize {
    let is_final = keys.first().is_some_and(|k| k.len() == depth);
    let mut transitions = Vec::new();
    let mut rank = is_final as u64;
    let mut rest = &keys[is_final as usize..];
    while let Some(first) = rest.first() {
        let b = first[depth];
        let n = rest.iter().take_while(|k| k[depth] == b).count();
        let target = trie(out, &rest[..n], depth + 1);
        transitions.push((b, rank, target));
        rank += n as u64;
        rest = &rest[n..];
    }
    if is_final && transitions.is_empty() {
        return 0;
    }
    fst_node(out, is_final, &transitions)
}

fn golden_words() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(common::repo().join("tests/data/golden-words.txt")).unwrap();
    let mut words: Vec<Vec<u8>> = text.lines().map(|l| l.trim().to_lowercase().into_bytes()).collect();
    words.sort();
    words.dedup();
    words
}

#[test]
fn the_trie_writer_here_writes_what_the_index_reads() {
    // The crafted FSTs below come from this writer: an honest one passes.
    let s = Scratch::new();
    let words = golden_words();
    let index =
        with_section(&s, "trie.hoard", SectionId::Words, |_| fst(|out| trie(out, &words, 0), words.len() as u64));
    let out = bin().arg("--index").arg(&index).arg("verify").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(every_command(&index).is_empty());
}

#[test]
fn a_root_out_of_range() {
    let s = Scratch::new();
    let index = with_section(&s, "root.hoard", SectionId::Words, |words| {
        let mut words = words.to_vec();
        let at = words.len() - 12;
        words[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
        words
    });
    assert!(every_command(&index).iter().any(|e| e.contains("root outside")));
    verify_names(&index, "words");
}

#[test]
fn a_transition_out_of_range() {
    let s = Scratch::new();
    let index = with_section(&s, "wild.hoard", SectionId::Words, |_| {
        fst(|out| fst_node(out, false, &[(b'a', 0, 9), (b'b', 1, usize::MAX - 40)]), 2)
    });
    assert!(!every_command(&index).is_empty());
    verify_names(&index, "words");
}

#[test]
fn a_key_count_bomb() {
    // 3^40 words in 40 nodes, stating the golden list's count; a box with
    // a, d and r on different sides follows 3 * 2^39 of them.
    let s = Scratch::new();
    let count = golden_words().len() as u64;
    let index = with_section(&s, "bomb.hoard", SectionId::Words, |_| {
        fst(
            |out| {
                let mut below = 0;
                for _ in 0..40 {
                    below = fst_node(out, false, &[(b'a', 0, below), (b'd', 0, below), (b'r', 0, below)]);
                }
                below
            },
            count,
        )
    });
    assert!(every_command(&index).iter().any(|e| e.contains("more keys than")));
    verify_names(&index, "words");
}

#[test]
fn a_word_outside_the_alphabet() {
    let s = Scratch::new();
    let mut words = golden_words();
    for w in words.iter_mut().filter(|w| w.contains(&b'r')) {
        *w = String::from_utf8_lossy(w).replace('r', "\u{e9}").into_bytes();
    }
    words.sort();
    let index =
        with_section(&s, "accent.hoard", SectionId::Words, |_| fst(|out| trie(out, &words, 0), words.len() as u64));
    assert!(every_command(&index).iter().any(|e| e.contains("outside the alphabet")));
    verify_names(&index, "words");
}

#[test]
fn an_alphabet_that_disagrees_with_the_tables() {
    let s = Scratch::new();
    let index = with_section(&s, "abc.hoard", SectionId::Meta, |meta| {
        let mut meta = Metadata::decode(meta).unwrap();
        meta.alphabet = "abcdefghijklm".into();
        meta.encode()
    });
    let errors = every_command(&index);
    assert!(errors.iter().any(|e| e.contains("outside the index's alphabet")), "{errors:#?}");
    verify_names(&index, "lettersets");
}

#[test]
fn a_chain_that_links_a_term_to_itself() {
    let s = Scratch::new();
    let index = with_section(&s, "loop.hoard", SectionId::Chains, |chains| {
        // Column 0 holds the offsets into column 1, the successors: point
        // the first edge of the first term with one back at that term.
        let mut chains = chains.to_vec();
        let col = |i: usize| u64::from_le_bytes(chains[8 + 16 * i..16 + 16 * i].try_into().unwrap()) as usize;
        let (starts, succs) = (col(0), col(1));
        let start = |t: usize| u32::from_le_bytes(chains[starts + 4 * t..starts + 4 * t + 4].try_into().unwrap());
        let t = (0..).find(|&t| start(t + 1) > start(t)).unwrap();
        let at = succs + 4 * start(t) as usize;
        chains[at..at + 4].copy_from_slice(&(t as u32).to_le_bytes());
        chains
    });
    every_command(&index);
    verify_names(&index, "chains");
}

#[test]
fn control_characters_from_an_index_are_escaped() {
    let s = Scratch::new();
    let index = with_section(&s, "title.hoard", SectionId::Meta, |meta| {
        let mut meta = Metadata::decode(meta).unwrap();
        meta.name = "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}".into();
        meta.sources[0].name = "\r\u{1b}[1Aevil".into();
        meta.tool_version = "\u{9b}31m".into();
        meta.encode()
    });
    let out = bin().arg("--index").arg(&index).arg("info").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.chars().any(|c| c.is_control() && c != '\n' || c == '\u{202e}'), "{text:?}");
    assert!(text.contains(r"x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}"), "{text}");
    assert!(text.contains(r"\u{d}\u{1b}[1Aevil") && text.contains(r"\u{9b}31m"), "{text}");
    // JSON carries the name as it is, escaped the JSON way.
    let out = bin().arg("--index").arg(&index).args(["info", "--json"]).output().unwrap();
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["name"], "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}");
}
