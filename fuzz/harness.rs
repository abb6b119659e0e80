//! What the fuzz targets run, shared with the test that replays the inputs
//! they found (`crates/query/tests/fuzz_replay.rs`): every query with small
//! arguments over an index made from the fuzzer's bytes. Any panic, hang
//! or runaway allocation is a finding.

#![allow(dead_code)]

use std::sync::OnceLock;

use wordhoard_builder::{build_index, BuildOptions, WordSource};
use wordhoard_query::anigram::{self, Anigrams};
use wordhoard_query::format::{FileWriter, Header};
use wordhoard_query::{anagram, bee, boxed, find, Index, LetterSet};

/// Arbitrary bytes as a whole index file.
pub fn index_bytes(data: &[u8]) {
    if let Ok(index) = Index::from_bytes(data) {
        exercise(&index);
    }
}

/// Edits to a valid index: the first byte picks a section, then each
/// 3-byte group sets one byte (`u16` position modulo the section's length,
/// then the value); the file is written back with every checksum right.
pub fn index_mutate(data: &[u8]) {
    if let Some(file) = mutated(data) {
        index_bytes(&file);
    }
}

/// The file [`index_mutate`] makes of its input (`None`: no input).
pub fn mutated(data: &[u8]) -> Option<Vec<u8>> {
    let (&pick, edits) = data.split_first()?;
    let base = base_index();
    let header = Header::parse(base).expect("the base index parses");
    let target = pick as usize % header.sections.len();
    let mut file = FileWriter::new();
    for (i, entry) in header.sections.iter().enumerate() {
        let mut payload = base[entry.range()].to_vec();
        if i == target && !payload.is_empty() {
            for edit in edits.chunks_exact(3) {
                let at = u16::from_le_bytes([edit[0], edit[1]]) as usize % payload.len();
                payload[at] = edit[2];
            }
        }
        file.add_raw(entry.code, payload);
    }
    Some(file.finish())
}

/// A small index with content in every section: about 200 words over a
/// few letters, so chains, honeycombs and boxes all have answers.
pub fn base_index() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut list = String::from("ride\ndire\nired\ndried\nredid\nriddle\nriddler\nriddlers\nearring\ngrainier\n");
        let mut x = 7u64;
        for _ in 0..200 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = 3 + (x >> 60) as usize % 7;
            list.extend((0..len).map(|i| b"aeginrtdls"[(x >> (4 * i + 8)) as usize % 10] as char));
            list.push('\n');
        }
        let opts =
            BuildOptions { common: Some(WordSource::from_text("common", "ride\nearring\n")), ..Default::default() };
        build_index(&[WordSource::from_text("fuzz", &list)], &opts).expect("the base index builds").into_bytes()
    })
}

/// Every query, with small arguments; results are ignored (an error is a
/// fine answer for a damaged index), panics and hangs are not.
pub fn exercise<D: AsRef<[u8]> + Sync>(index: &Index<D>) {
    let _ = index.verify();
    let a = index.alphabet().clone();
    let _ = index.word(0);
    let _ = index.word_id(b"ride");
    let first_seven = &a.as_str()[..a.len().min(7)];
    for (letters, center) in [("aegnirt", Some("r")), (first_seven, None)] {
        if let Ok(puzzle) = bee::Puzzle::parse(&a, letters, center) {
            let _ = bee::solve(index, puzzle, &bee::SolveOptions::default());
            let _ = bee::solve(index, puzzle, &bee::SolveOptions { common_only: true });
            let _ = bee::report(index, puzzle, &Default::default());
            let _ = bee::hints(index, puzzle, &bee::SolveOptions { common_only: true });
            let _ = bee::check(index, puzzle, &["grant", "GRANITE", "rat", "xyzzy", "grant"], &Default::default());
        }
    }
    let _ = bee::best(index, 3, LetterSet::EMPTY, &Default::default());
    let _ = bee::best(index, 3, LetterSet::EMPTY, &bee::SolveOptions { common_only: true });
    let _ = bee::stats(index, LetterSet::EMPTY);
    let _ = bee::generate(index, &bee::GenerateOptions { seed: 3, ..Default::default() });
    let _ = bee::generate(index, &bee::GenerateOptions { seed: 4, common_only: true, ..Default::default() });
    for sides in [&["aei", "gnr", "tds", "l"][..], &["ab", "cd"][..]] {
        if let Ok(letter_box) = boxed::LetterBox::parse(&a, sides) {
            let opts = boxed::SolveOptions { max_words: 3, limit: 5, ..Default::default() };
            let _ = boxed::solve(index, &letter_box, &opts);
        }
    }
    for pattern in ["r*", "?i?e", "*[^aeiou]"] {
        if let Ok(p) = find::Pattern::parse(&a, pattern) {
            // As the CLI lists: the first words (a crafted DAG of 2^26
            // paths walks to the step limit in seconds, minutes under the
            // sanitizer; tests/untrusted.rs times that walk in release).
            let mut left = 100;
            let _ = find::find_while(index, &p, &find::FindOptions::default(), |_, _| {
                left -= 1;
                if left == 0 {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
        }
    }
    let _ = anagram::anagrams(index, "deir?", &Default::default());
    let _ = anagram::sub_anagrams(index, "granite??", &Default::default());
    let _ = anagram::phrase_anagrams(index, "ride dire", &Default::default());
    let _ = boxed::generate(index, &boxed::GenerateOptions { seed: 6, ..Default::default() });
    let _ = boxed::generate(
        index,
        &boxed::GenerateOptions { seed: 7, sides: 2, size: 2, common_only: true, ..Default::default() },
    );
    if let Ok(an) = Anigrams::open(index) {
        let _ = an.unscramble("ride");
        let _ = an.longest(anigram::Start::Len(4));
        let _ = an.count(anigram::Start::Len(4), 9);
        let _ = an.count(anigram::Start::Len(3), 6);
        let _ = an.top(3, anigram::Game { start_len: 4, goal_len: 9 });
        let _ = an.generate(5);
        if let Ok(t) = an.find_term("dire") {
            let _ = an.longest(anigram::Start::Term(t));
            let _ = an.count(anigram::Start::Term(t), 9);
        }
    }
}
