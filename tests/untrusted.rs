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
    // Every word, read back to back from the word text.
    &["find", "?*", "--limit", "0"],
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

/// The memory a command may take on a crafted file (issue 28: 256 MB on
/// any file of at most 16 MB), as an address-space limit.
const MEMORY_LIMIT_KB: u64 = 256 * 1024;

/// How long a command may run on a crafted file before the test calls it
/// unbounded. Not a speed figure (those are in `make bench`): a walk
/// stops at `MAX_WALK_STEPS` (2^26) transitions, which on the 16-level
/// DAG below is an honest listing of 64.5 million words (6.5-9 s on the
/// 2-core VM in a slow hour, 11.7 s beside the other tests in one CI run,
/// against 10 s allowed then); a walk without the limit would follow the
/// 19-level DAG's 1.7 billion paths, 26 times as many.
const UNBOUNDED_AFTER: Duration = Duration::from_secs(30);

/// The binary with `--index index`, under [`MEMORY_LIMIT_KB`] where the
/// shell can set it (an allocation past it fails, which the test sees as
/// an abort, not an error line). Its output is dropped: the tests read
/// its exit code and error line (a listing of millions of words would
/// otherwise fill the test's memory and take its time).
fn limited(index: &Path) -> std::process::Command {
    let mut cmd = if cfg!(target_os = "linux") {
        let mut cmd = std::process::Command::new("sh");
        let script = format!("ulimit -v {MEMORY_LIMIT_KB} && exec \"$0\" \"$@\"");
        cmd.arg("-c").arg(script).arg(env!("CARGO_BIN_EXE_wordhoard")).arg("--index").arg(index);
        cmd.env_remove("WORDHOARD_INDEX").stdin(std::process::Stdio::null());
        cmd
    } else {
        let mut cmd = bin();
        cmd.arg("--index").arg(index);
        cmd
    };
    cmd.stdout(std::process::Stdio::null());
    cmd
}

/// Runs every command on `index`: each exits 0, or 1 (2 for letters the
/// index's alphabet lacks) with one clean error line, within
/// [`UNBOUNDED_AFTER`] and [`MEMORY_LIMIT_KB`]. Returns the stderr of those that failed.
fn every_command(index: &Path) -> Vec<String> {
    // The second reader gives the same verdict on the file.
    let bytes = std::fs::read(index).unwrap();
    // `make fuzz` seeds the fuzzers with every crafted file.
    if let Some(seeds) = std::env::var_os("WORDHOARD_FUZZ_SEEDS") {
        std::fs::create_dir_all(&seeds).unwrap();
        std::fs::write(Path::new(&seeds).join(index.file_name().unwrap()), &bytes).unwrap();
    }
    assert_eq!(common::hoard_py_accepts(index), common::wordhoard_accepts(&bytes), "hoard.py on {}", index.display());
    let mut failures = Vec::new();
    for args in COMMANDS {
        let started = Instant::now();
        let out = limited(index).args(*args).output().unwrap();
        let err = stderr(&out);
        assert!(started.elapsed() < UNBOUNDED_AFTER, "{args:?} took {:?}", started.elapsed());
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
    with_sections(s, name, vec![(id, Some(Box::new(edit)))])
}

/// A section's new bytes from its old ones.
type Edit<'a> = Box<dyn FnOnce(&[u8]) -> Vec<u8> + 'a>;

/// The golden index with sections replaced, or dropped (`None`), every
/// checksum recomputed.
fn with_sections(s: &Scratch, name: &str, edits: Vec<(SectionId, Option<Edit>)>) -> PathBuf {
    with_sections_of(&s.golden_index(), s, name, edits)
}

/// [`with_sections`] of any index.
fn with_sections_of(base: &Path, s: &Scratch, name: &str, mut edits: Vec<(SectionId, Option<Edit>)>) -> PathBuf {
    let file = std::fs::read(base).unwrap();
    let header = Header::parse(&file).unwrap();
    let mut out = FileWriter::new();
    for entry in &header.sections {
        let payload = &file[entry.range()];
        match edits.iter().position(|(id, _)| id.code() == entry.code) {
            None => out.add_raw(entry.code, payload.to_vec()),
            Some(i) => match edits.remove(i).1 {
                Some(edit) => out.add_raw(entry.code, edit(payload)),
                None => &mut out,
            },
        };
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
    let bomb = fst(
        |out| {
            let mut below = 0;
            for _ in 0..40 {
                below = fst_node(out, false, &[(b'a', 0, below), (b'd', 0, below), (b'r', 0, below)]);
            }
            below
        },
        count,
    );
    // Without the letter groups, Letter Boxed walks the FST.
    let index = with_sections(
        &s,
        "bomb.hoard",
        vec![(SectionId::Words, Some(Box::new(|_| bomb))), (SectionId::LetterGroups, None)],
    );
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
    // Without the word text, ids turn into words through the FST.
    let fst = fst(|out| trie(out, &words, 0), words.len() as u64);
    let index = with_sections(
        &s,
        "accent.hoard",
        vec![(SectionId::Words, Some(Box::new(|_| fst))), (SectionId::WordText, None)],
    );
    assert!(every_command(&index).iter().any(|e| e.contains("outside the alphabet")));
    verify_names(&index, "words");
}

/// The word text, the section an id turns into its word through, damaged
/// in each way it can be: a letter outside the alphabet, a length that
/// runs past the text, a run that starts elsewhere than the last ended,
/// counts that disagree with the word count; each with the runs'
/// checksums made right again (as a file crafted to get past them would
/// be). Every command answers or errs cleanly, and `verify` names the
/// section. Damage the runs' checksums do not match is an error.
#[test]
fn a_damaged_word_text() {
    let s = Scratch::new();
    // Columns: lengths (u8 a word), run starts (u32 a 16 words), text,
    // run checksums (u32 a 16 words).
    type Columns = [std::ops::Range<usize>; 3];
    let edit = |name: &str, change: fn(&mut Vec<u8>, Columns)| {
        with_section(&s, name, SectionId::WordText, |bytes| {
            let mut bytes = bytes.to_vec();
            let columns = [column(bytes.as_slice(), 0), column(&bytes, 1), column(&bytes, 2)];
            change(&mut bytes, columns);
            let [lengths, starts, text, sums] = [0, 1, 2, 3].map(|i| column(&bytes, i));
            for (run, at) in sums.step_by(4).enumerate() {
                let start = u32::from_le_bytes(bytes[starts.start + 4 * run..][..4].try_into().unwrap());
                let run_lengths = &bytes[lengths.start + 16 * run..lengths.end.min(lengths.start + 16 * run + 16)];
                let len: usize = run_lengths.iter().map(|&l| l as usize).sum();
                let run_text = bytes[text.clone()].get(start as usize..start as usize + len).unwrap_or_default();
                let sum = wordhoard_query::format::run_checksum(start, run_lengths, run_text);
                bytes[at..at + 4].copy_from_slice(&sum.to_le_bytes());
            }
            bytes
        })
    };
    let unsummed = with_section(&s, "text-unsummed.hoard", SectionId::WordText, |bytes| {
        let mut bytes = bytes.to_vec();
        let text = column(&bytes, 2);
        bytes[text].fill(b'z');
        bytes
    });
    let failures = every_command(&unsummed);
    assert!(failures.iter().any(|e| e.contains("`word_text` fails its checksum")), "{failures:#?}");
    verify_names(&unsummed, "word_text");
    let accent = edit("text-accent.hoard", |b, [_, _, text]| b[text].fill(0xe9));
    assert!(every_command(&accent).iter().any(|e| e.contains("outside the alphabet")));
    verify_names(&accent, "word_text");
    let long = edit("text-long.hoard", |b, [lengths, _, _]| b[lengths.end - 1] = 255);
    let failures = every_command(&long);
    assert!(failures.iter().any(|e| e.contains("word_text")), "{failures:#?}");
    verify_names(&long, "word_text");
    let empty = edit("text-empty.hoard", |b, [lengths, _, _]| b[lengths.start] = 0);
    let failures = every_command(&empty);
    assert!(failures.iter().any(|e| e.contains("empty")), "{failures:#?}");
    verify_names(&empty, "word_text");
    let shifted = edit("text-run.hoard", |b, [_, starts, _]| b[starts.start + 4] += 1);
    every_command(&shifted);
    verify_names(&shifted, "word_text");
    let short = edit("text-count.hoard", |b, [lengths, _, _]| {
        // One word fewer: the lengths column ends a byte early.
        let entry = 8 + 8;
        let len = u64::from_le_bytes(b[entry..entry + 8].try_into().unwrap());
        assert_eq!(len as usize, lengths.len());
        b[entry..entry + 8].copy_from_slice(&(len - 1).to_le_bytes());
    });
    let failures = every_command(&short);
    assert!(failures.iter().any(|e| e.contains("one length a word")), "{failures:#?}");
    verify_names(&short, "word_text");
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

/// An FST whose nodes form a chain of `levels` nodes, each final with one
/// transition per letter of `letters_at(depth)` to the next: few bytes,
/// every path a key, and real ranks. Returns the bytes and the key count.
fn dag(levels: usize, letters_at: impl Fn(usize) -> Vec<u8>) -> (Vec<u8>, u64) {
    let mut keys_below = 1u64; // the final leaf: the empty suffix
    let mut count = 0;
    let bytes = fst(
        |out| {
            let mut below = 0; // the empty final node
            for depth in (0..levels).rev() {
                let letters = letters_at(depth);
                let transitions: Vec<(u8, u64, usize)> = letters
                    .iter()
                    .enumerate()
                    .map(|(j, &b)| (b, u64::from(depth > 0) + j as u64 * keys_below, below))
                    .collect();
                below = fst_node(out, depth > 0, &transitions);
                count = letters.len() as u64 * keys_below;
                keys_below = count + 1;
            }
            below
        },
        0,
    );
    let mut bytes = bytes;
    let at = bytes.len() - 20;
    bytes[at..at + 8].copy_from_slice(&count.to_le_bytes());
    (bytes, count)
}

/// The golden index with its words replaced by `words` of `count` keys
/// (the metadata agreeing), and without the common flags and the word
/// text, which would stop every query at once by being too short.
fn with_words(s: &Scratch, name: &str, words: Vec<u8>, count: u64) -> PathBuf {
    with_sections(
        s,
        name,
        vec![
            (
                SectionId::Meta,
                Some(Box::new(move |meta| {
                    let mut meta = Metadata::decode(meta).unwrap();
                    meta.word_count = count;
                    meta.encode()
                })),
            ),
            (SectionId::Words, Some(Box::new(move |_| words))),
            (SectionId::WordText, None),
            // Letter Boxed reads its words from here when it is there,
            // not through the FST under test.
            (SectionId::LetterGroups, None),
            (SectionId::Common, None),
        ],
    )
}

#[test]
fn the_dag_writer_here_states_its_keys_honestly() {
    let s = Scratch::new();
    let (words, count) = dag(3, |_| b"ab".to_vec());
    assert_eq!(count, 2 + 4 + 8);
    let index = with_words(&s, "dag.hoard", words, count);
    let out = bin().arg("--index").arg(&index).args(["find", "*", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let words: Vec<&str> = found["words"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    assert_eq!(words.len(), 14);
    assert_eq!(&words[..4], ["a", "aa", "aaa", "aab"]);
    assert_eq!(found["count"], 14);
}

/// Issue 28: 16 levels of 3 letters, each level's letters one side of
/// the box `riu pgh lcs yao`, so every key of 3 letters or more is a
/// playable word: 64,570,080 honest keys in about a kilobyte. Every
/// command answers or says "too large" within the limits.
#[test]
fn an_honest_dag_of_many_keys_is_bounded_by_limits() {
    let s = Scratch::new();
    let sides: [&[u8]; 4] = [b"iru", b"ghp", b"cls", b"aoy"];
    let (words, count) = dag(16, |depth| sides[depth % 4].to_vec());
    assert_eq!(count, 64_570_080);
    assert!(words.len() < 1100, "{} bytes", words.len());
    let index = with_words(&s, "dag16.hoard", words, count);
    let failures = every_command(&index);
    let extra: &[&[&str]] = &[
        &["find", "*", "--limit", "3"],
        &["find", "*q"],
        &["boxed", "solve", "riu", "pgh", "lcs", "yao"],
        &["anagram", "rgcarg", "--sub"],
    ];
    for args in extra {
        let started = Instant::now();
        let out = limited(&index).args(*args).output().unwrap();
        let err = stderr(&out);
        assert!(started.elapsed() < UNBOUNDED_AFTER, "{args:?} took {:?}", started.elapsed());
        assert!(out.status.code() == Some(0) || err.contains("too large"), "{args:?}: {err}");
    }
    assert!(failures.iter().any(|e| e.contains("too large")), "{failures:#?}");
    // 19 levels: 1.7 billion keys, as many as word ids address. A walk of
    // every one stops at the walk limit.
    let (words, count) = dag(19, |depth| sides[depth % 4].to_vec());
    assert_eq!(count, 1_743_392_199);
    let index = with_words(&s, "dag19.hoard", words, count);
    // `*q` matches nothing: the walk remembers each shared node as a dead
    // end in its state, so it answers (no words) after a node a level,
    // where a walk of every path would stop at the limit.
    let out = limited(&index).args(["find", "*q"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for args in [&["find", "*", "--limit", "3"][..], &["boxed", "solve", "riuz", "pgh", "lcs", "yao"]] {
        let started = Instant::now();
        let out = limited(&index).args(args).output().unwrap();
        let err = stderr(&out);
        assert!(started.elapsed() < UNBOUNDED_AFTER, "{args:?} took {:?}", started.elapsed());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains("too large") && err.lines().count() == 1, "{args:?}: {err}");
    }
}

/// Offsets that are not ascending: rows that each claim the whole id
/// column, with rows between them that go backwards. A query refuses the
/// table (a pass over many rows checks the whole column first; a lookup
/// checks the rows it reads do not overlap) instead of reading the column
/// once a row.
#[test]
fn overlapping_offsets_are_refused_before_any_row_is_read_twice() {
    let s = Scratch::new();
    // Column `offsets` of a column table: every even row [0, end), every
    // odd one [end, 0).
    let overlap = |section: &[u8], offsets: usize| {
        let mut bytes = section.to_vec();
        let entry = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        let (at, n) = (entry(8 + 16 * offsets), entry(16 + 16 * offsets) / 4);
        let end = u32::from_le_bytes(bytes[at + 4 * (n - 1)..at + 4 * n].try_into().unwrap());
        for i in 0..n - 1 {
            let v = if i % 2 == 0 { 0 } else { end };
            bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
        bytes
    };
    for (id, column, name) in
        [(SectionId::Lettersets, 2, "lettersets"), (SectionId::Terms, 1, "terms"), (SectionId::Chains, 0, "chains")]
    {
        let index = with_section(&s, &format!("overlap-{name}.hoard"), id, |b| overlap(b, column));
        let failures = every_command(&index);
        if id == SectionId::Chains {
            // A count reads a length's rows in order, each starting where
            // the last ended: it reads none twice, and errs on what the
            // first row's overlap holds (terms of other lengths).
            assert!(!failures.is_empty() && failures.iter().all(|e| e.contains("section `chains`")), "{failures:#?}");
        } else {
            assert!(failures.iter().any(|e| e.contains("not ascending")), "{name}: {failures:#?}");
        }
        verify_names(&index, name);
        if id == SectionId::Chains {
            // The stored counts read no successors, and still answer.
            let run = |args: &[&str]| bin().arg("--index").arg(&index).args(args).output().unwrap();
            let stored = run(&["anigram", "count"]);
            assert!(stored.status.success(), "{}", stderr(&stored));
            let counted = run(&["anigram", "count", "--goal-len", "7"]);
            assert!(!counted.status.success() && stderr(&counted).contains("section `chains`"), "{}", stderr(&counted));
        }
    }
}

/// A column of a column table: its byte range in the section.
fn column(section: &[u8], i: usize) -> std::ops::Range<usize> {
    let entry = |at: usize| u64::from_le_bytes(section[at..at + 8].try_into().unwrap()) as usize;
    let start = entry(8 + 16 * i);
    start..start + entry(16 + 16 * i)
}

/// Sets u32 `at` of column `i` of a column table.
fn set_u32(section: &mut [u8], i: usize, at: usize, value: u32) {
    let col = column(section, i);
    section[col.start + 4 * at..col.start + 4 * at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Edits that keep every structure valid but change what a table means
/// pass `verify`; `verify --deep` rebuilds the tables from enable1's
/// words and names the section and the value.
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn verify_deep_names_edits_that_keep_the_structure() {
    let s = Scratch::new();
    let enable1 = common::enable1();
    let deep = |index: &Path| bin().arg("--index").arg(index).args(["verify", "--deep"]).output().unwrap();
    let clean = deep(&enable1);
    assert!(clean.status.success(), "{}", stderr(&clean));
    assert!(String::from_utf8_lossy(&clean.stdout).contains("every table as a build makes it"));
    type Change = fn(&mut Vec<u8>);
    let edits: [(SectionId, &str, &str, Change); 4] = [
        // A honeycomb's score with its first centre: 4,294,967,295.
        (SectionId::Honeycombs, "honeycombs", "column 2 (scores): value 0 is 4294967295", |b| {
            set_u32(b, 2, 0, u32::MAX)
        }),
        // Every word in the last term's anagram group.
        (SectionId::Terms, "terms", "column 1 (offsets)", |b| {
            let n = column(b, 1).len() / 4;
            for at in 0..n - 1 {
                set_u32(b, 1, at, 0);
            }
        }),
        // The points of a letter set.
        (SectionId::Lettersets, "lettersets", "column 1 (points): value 7", |b| set_u32(b, 1, 7, 1000)),
        // The common pangrams of a honeycomb.
        (SectionId::CommonHoneycombs, "common_honeycombs", "column 1 (pangrams): value 3 is 9", |b| {
            set_u32(b, 1, 3, 9)
        }),
    ];
    for (id, name, problem, change) in edits {
        let index = with_sections_of(
            &enable1,
            &s,
            &format!("deep-{name}.hoard"),
            vec![(
                id,
                Some(Box::new(move |bytes| {
                    let mut bytes = bytes.to_vec();
                    change(&mut bytes);
                    bytes
                })),
            )],
        );
        let quick = bin().arg("--index").arg(&index).arg("verify").output().unwrap();
        assert!(quick.status.success(), "{name}: the quick check passes: {}", stderr(&quick));
        let out = deep(&index);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.starts_with(&format!("error: {}: section `{name}` is not what a build", index.display())), "{err}");
        assert!(err.contains(problem) && err.lines().count() == 1, "{name}: {err}");
        let json = bin().arg("--index").arg(&index).args(["verify", "--deep", "--json"]).output().unwrap();
        let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(report["ok"], false);
        let named: Vec<&str> = report["deep"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["ok"] == false)
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(named.first(), Some(&name), "{named:?}");
    }
}
