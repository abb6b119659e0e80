//! A damaged index is an error, never a panic or a wrong answer: one test
//! per kind of damage, and sweeps that flip every byte and cut the file at
//! every length.

use wordhoard_builder::{build_index, BuildOptions, WordSource};

// The crate's seeded generator (not public).
#[path = "../src/rng.rs"]
mod rng;
use rng::SplitMix64;
use wordhoard_query::format::{read_u32, FileWriter, Header, SectionId, FORMAT_VERSION, MAGIC};
use wordhoard_query::{anigram, bee, boxed, find, ErrorKind, Index};

const GOLDEN_WORDS: &str = include_str!("../../../tests/data/golden-words.txt");
const GOLDEN_COMMON: &str = include_str!("../../../tests/data/golden-common.txt");

/// The golden words plus pseudo-words, a few hundred in all, so every
/// section has real content.
fn small_index_bytes() -> Vec<u8> {
    let mut rng = SplitMix64::new(11);
    let mut list = GOLDEN_WORDS.to_string();
    for _ in 0..300 {
        let len = 3 + rng.below(6) as usize;
        let word: String = (0..len).map(|_| b"aeinrstgdlo"[rng.below(11) as usize] as char).collect();
        list.push_str(&word);
        list.push('\n');
    }
    // Every section, the letter groups too (a list this small is built
    // without them unless told).
    let opts = BuildOptions {
        common: Some(WordSource::from_text("common", GOLDEN_COMMON)),
        letter_groups: Some(true),
        ..Default::default()
    };
    build_index(&[WordSource::from_text("small", &list)], &opts).unwrap().into_bytes()
}

/// Runs every query; returns how many ran and how many failed cleanly.
fn run_every_query(index: &Index<Vec<u8>>) -> (usize, usize) {
    let mut answers = every_answer(index);
    answers.push(index.verify().iter().all(|c| c.ok).then(String::new));
    (answers.len(), answers.iter().filter(|a| a.is_none()).count())
}

/// Every query's answer, as text (`None`: an error).
fn every_answer(index: &Index<Vec<u8>>) -> Vec<Option<String>> {
    fn text<T: std::fmt::Debug>(answer: wordhoard_query::Result<T>) -> Option<String> {
        answer.ok().map(|a| format!("{a:?}"))
    }
    let mut results = Vec::new();
    let a = index.alphabet().clone();
    let puzzle = bee::Puzzle::parse(&a, "aeginrt", Some("r")).unwrap();
    results.push(text(bee::solve(index, puzzle, &bee::SolveOptions::default())));
    results.push(text(bee::report(index, puzzle, &Default::default())));
    results.push(text(bee::hints(index, puzzle, &Default::default())));
    results.push(text(bee::best(index, 5, wordhoard_query::LetterSet::EMPTY, &Default::default())));
    results.push(text(bee::stats(index, wordhoard_query::LetterSet::EMPTY)));
    results.push(text(bee::generate(index, &bee::GenerateOptions { seed: 1, ..Default::default() })));
    let letter_box = boxed::LetterBox::parse(&a, &["riu", "pgh", "lcs", "yao"]).unwrap();
    results.push(text(boxed::solve(index, &letter_box, &boxed::SolveOptions { max_words: 3, ..Default::default() })));
    match anigram::Anigrams::open(index) {
        Ok(an) => {
            results.push(text(an.unscramble("ride")));
            results.push(text(an.longest(anigram::Start::Len(4))));
            results.push(text(an.count(anigram::Start::Len(4), 9)));
            results.push(text(an.count(anigram::Start::Len(3), 6)));
            results.push(text(an.top(3, anigram::Game { start_len: 4, goal_len: 9 })));
            results.push(text(an.generate(5)));
            results.push(text(an.find_term("dire").and_then(|t| an.longest(anigram::Start::Term(t)))));
        }
        Err(_) => results.push(None),
    }
    results.push(text(index.word_id(b"ride")));
    results.push(text(index.words_of(0..index.word_count() as u32)));
    results
}

/// Makes the header's checksum right after an edit of its table (with
/// every section's: the edits here change the table only).
fn rewrite_header_crc(file: &mut [u8]) {
    wordhoard_query::format::reseal(file);
}

fn kind(bytes: Vec<u8>) -> ErrorKind {
    Index::from_bytes(bytes).err().expect("damaged file must not open").kind().clone()
}

#[test]
fn intact_index_answers_everything() {
    let index = Index::from_bytes(small_index_bytes()).unwrap();
    let (ran, failed) = run_every_query(&index);
    assert_eq!(failed, 0, "{ran} queries");
}

#[test]
fn wrong_magic_is_not_an_index() {
    let mut file = small_index_bytes();
    file[1] = b'X';
    assert!(matches!(kind(file), ErrorKind::NotAnIndex));
    assert!(matches!(kind(b"hello, world\n".to_vec()), ErrorKind::NotAnIndex));
}

#[test]
fn newer_and_older_versions_are_reported_as_such() {
    let mut file = small_index_bytes();
    file[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = Index::from_bytes(file.clone()).err().unwrap();
    assert!(
        matches!(err.kind(), ErrorKind::NewerVersion { found, supported: FORMAT_VERSION } if *found == FORMAT_VERSION + 1)
    );
    assert!(err.to_string().contains("newer than this wordhoard reads"), "{err}");
    // An older version is not read as this one, whatever its bytes: a
    // rebuild, not "corrupt".
    file[8..12].copy_from_slice(&(FORMAT_VERSION - 1).to_le_bytes());
    let err = Index::from_bytes(file).err().unwrap();
    assert!(matches!(err.kind(), ErrorKind::OlderVersion { supported: FORMAT_VERSION, .. }));
    assert!(err.to_string().contains("is older than this wordhoard reads") && err.to_string().contains("rebuild it"));
    assert!(err.is_bad_index());
}

#[test]
fn empty_and_tiny_files_are_errors() {
    assert!(matches!(kind(Vec::new()), ErrorKind::Corrupt { section: None, .. }));
    assert!(matches!(kind(MAGIC.to_vec()), ErrorKind::Corrupt { section: None, .. }));
}

#[test]
fn section_out_of_bounds() {
    let mut file = small_index_bytes();
    // The second entry's length: huge.
    file[16 + 32 + 16..16 + 32 + 24].copy_from_slice(&(u64::MAX - 3).to_le_bytes());
    rewrite_header_crc(&mut file);
    assert!(matches!(kind(file), ErrorKind::Corrupt { problem, .. } if problem.contains("past the end")));
}

#[test]
fn overlapping_sections() {
    let mut file = small_index_bytes();
    let first_offset = file[16 + 8..16 + 16].to_vec();
    file[16 + 32 + 8..16 + 32 + 16].copy_from_slice(&first_offset);
    rewrite_header_crc(&mut file);
    assert!(matches!(kind(file), ErrorKind::Corrupt { problem, .. } if problem.contains("overlap")));
}

#[test]
fn truncation_at_every_section_boundary() {
    let file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    for s in &header.sections {
        for cut in [s.offset as usize, (s.offset + s.len) as usize - 1, (s.offset + s.len / 2) as usize] {
            if cut < file.len() {
                assert!(Index::from_bytes(file[..cut].to_vec()).is_err(), "cut at {cut} in `{}`", s.name());
            }
        }
    }
}

#[test]
fn flipped_byte_in_each_section_fails_verify_and_queries_error() {
    let file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    for s in header.sections.iter().filter(|s| s.len > 0) {
        let mut bad = file.clone();
        bad[(s.offset + s.len / 2) as usize] ^= 0x55;
        match Index::from_bytes(bad) {
            Err(e) => assert!(
                ["meta", "proper_nouns"].contains(&s.name().as_str()),
                "only the sections read on open stop it: {e}"
            ),
            Ok(index) => {
                let checks = index.verify();
                let failed: Vec<_> = checks.iter().filter(|c| !c.ok).map(|c| c.name.clone()).collect();
                assert_eq!(failed, vec![s.name()]);
            }
        }
    }
}

#[test]
fn unknown_sections_are_skipped() {
    use wordhoard_query::format::{FileWriter, SectionId};
    let file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    let mut w = FileWriter::new();
    for s in &header.sections {
        w.add_raw(s.code, file[s.range()].to_vec());
    }
    w.add_raw(4242, b"from the future".to_vec());
    let index = Index::from_bytes(w.finish()).unwrap();
    assert!(index.has_section(SectionId::Chains));
    assert_eq!(run_every_query(&index).1, 0);
}

/// Every byte flipped: the file fails to open, or `verify` names the
/// damage and every query answers as it did on the intact file (it did
/// not read the byte) or errs (it did: the byte's block fails its
/// checksum); never a wrong answer, never a panic.
#[test]
fn sweep_every_byte_flip() {
    let file = small_index_bytes();
    let intact = every_answer(&Index::from_bytes(file.clone()).unwrap());
    assert!(intact.iter().all(Option::is_some));
    let (mut answered, mut refused) = (0, 0);
    for at in 0..file.len() {
        let mut bad = file.clone();
        bad[at] ^= 0xFF;
        if let Ok(index) = Index::from_bytes(bad) {
            assert!(index.verify().iter().any(|c| !c.ok), "flip at byte {at} went unnoticed");
            let index = Index::from_bytes(index.as_bytes().to_vec()).unwrap();
            for (i, (answer, want)) in every_answer(&index).iter().zip(&intact).enumerate() {
                match answer {
                    None => refused += 1,
                    Some(_) => {
                        assert_eq!(answer, want, "query {i} read the flip at byte {at} and answered");
                        answered += 1;
                    }
                }
            }
        }
    }
    assert!(answered > 0 && refused > 0);
    eprintln!("swept {} bytes: {answered} answers as intact, {refused} errors", file.len());
}

/// 60,000 random words of 4 to 9 letters a-z (with repeats): an index of
/// them has many blocks in every section.
fn random_words(seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    (0..60_000).map(|_| (0..4 + rng.below(6)).map(|_| (b'a' + rng.below(26) as u8) as char).collect()).collect()
}

/// On an index of many blocks, a lookup checks the few blocks it reads,
/// and damage in a block it reads is an error, in one it does not is not.
#[test]
fn a_query_checks_only_the_blocks_it_reads() {
    let list = random_words(8).join("\n");
    let file = build_index(&[WordSource::from_text("many", &list)], &BuildOptions::default()).unwrap().into_bytes();
    let index = Index::from_bytes(file.clone()).unwrap();
    let first = index.words_of([0]).unwrap().remove(0);
    let (checked, all) = index.blocks_checked();
    assert!(all > 40 && checked <= 4, "{checked} of {all} blocks checked for one word");
    // The first word's id again, on a file damaged in the middle of the
    // words FST (far from the nodes of the first word and the root)...
    let header = Header::parse(&file).unwrap();
    let words = header.entry(SectionId::Words).unwrap();
    let mut bad = file.clone();
    bad[words.offset as usize + words.len as usize / 2] ^= 0x20;
    let index = Index::from_bytes(bad).unwrap();
    assert_eq!(index.word_id(first.as_bytes()).unwrap(), Some(0));
    // ... a walk of every path of the FST reads it.
    let words = index.words().unwrap();
    let mut walk = words.search(wordhoard_query::format::fst::Everything);
    let err = loop {
        match walk.next() {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the walk read every word without an error"),
            Err(e) => break e,
        }
    };
    assert!(matches!(err.kind(), ErrorKind::Checksum { section: "words" }), "{err}");
    assert!(!index.verify().iter().all(|c| c.ok));
    // The same for the word text, which turns ids into words.
    let text = header.entry(SectionId::WordText).unwrap();
    let mut bad = file.clone();
    bad[text.offset as usize + text.len as usize / 2] ^= 0x20;
    let index = Index::from_bytes(bad).unwrap();
    assert_eq!(index.words_of([0]).unwrap(), [first]);
    let err = index.words_of(0..index.word_count() as u32).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Checksum { section: "word_text" }), "{err}");
    assert!(!index.verify().iter().all(|c| c.ok));
}

/// Reading many words in id order remembers the block it checked last:
/// damage in any block of the word text is still found by a read of
/// every word, and a read of a word away from it still works.
#[test]
fn a_read_of_many_words_finds_damage_in_every_block() {
    let list = random_words(9).join("\n");
    let file = build_index(&[WordSource::from_text("many", &list)], &BuildOptions::default()).unwrap().into_bytes();
    let header = Header::parse(&file).unwrap();
    let text = header.entry(SectionId::WordText).unwrap();
    let all: Vec<u32> = (0..Index::from_bytes(file.clone()).unwrap().word_count() as u32).collect();
    let blocks = (text.len as usize).div_ceil(1 << 16);
    assert!(blocks >= 4, "{blocks} blocks");
    let section = &file[text.range()];
    let sums = wordhoard_query::format::Columns::parse(SectionId::WordText, section).unwrap().bytes(3).unwrap();
    let first_sum = sums.as_ptr() as usize - section.as_ptr() as usize;
    for block in 0..blocks {
        let mut bad = file.clone();
        let at = (block << 16) + (text.len as usize - (block << 16)).min(1 << 16) / 2;
        bad[text.offset as usize + at] ^= 0x20;
        let index = Index::from_bytes(bad).unwrap();
        let err = index.texts_of(&all).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Checksum { section: "word_text" }), "block {block}: {err}");
        // The first word's length, start and text are in the first two
        // blocks (the lengths and starts come before the text), its run's
        // checksum in the block where the checksums start.
        if block >= 2 && block != first_sum / (1 << 16) {
            assert_eq!(index.texts_of(&[0]).unwrap().len(), 1, "block {block}");
        }
    }
}

/// A lookup that reads a damaged block errs, whatever it was looking
/// for: a binary search among the letter sets whose first probe lands in
/// the block, and a common flag read from it, say so, not "no words" or
/// "not common".
#[test]
fn a_lookup_in_a_damaged_block_is_an_error_not_a_miss() {
    let words = random_words(9);
    let list: String = words.iter().map(|w| format!("{w}\n")).collect();
    let common: String = words.iter().step_by(3).map(|w| format!("{w}\n")).collect();
    let opts = BuildOptions { common: Some(WordSource::from_text("common", &common)), ..Default::default() };
    let file = build_index(&[WordSource::from_text("many", &list)], &opts).unwrap().into_bytes();
    let puzzle = |index: &Index<Vec<u8>>| bee::Puzzle::parse(index.alphabet(), "aeginrt", Some("r")).unwrap();
    let intact = Index::from_bytes(file.clone()).unwrap();
    let solved = bee::solve(&intact, puzzle(&intact), &Default::default()).unwrap();
    assert!(solved.words.len() > 10 && solved.words.iter().any(|w| w.common), "a puzzle with words to lose");
    let header = Header::parse(&file).unwrap();
    // The letter sets: every binary search probes the middle row first.
    let sets = column_range(&file, header.entry(SectionId::Lettersets).unwrap(), Some(0)).unwrap();
    assert!(sets.len() > 2 * 65_536, "the masks span several blocks");
    let mut bad = file.clone();
    bad[sets.start + (sets.len() / 8) * 4] ^= 0x01;
    let index = Index::from_bytes(bad).unwrap();
    let err = bee::solve(&index, puzzle(&index), &Default::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Checksum { section: "lettersets" }), "{err}");
    // The common flags, read word by word.
    let flags = column_range(&file, header.entry(SectionId::Common).unwrap(), Some(0)).unwrap();
    let mut bad = file.clone();
    bad[flags.start + flags.len() / 2] ^= 0x01;
    let index = Index::from_bytes(bad).unwrap();
    let err = bee::solve(&index, puzzle(&index), &Default::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Checksum { section: "common" }), "{err}");
    let any = find::Pattern::parse(index.alphabet(), "?*").unwrap();
    let opts = find::FindOptions { common_only: true, ..Default::default() };
    let err = find::find(&index, &any, &opts, |_, _| {}).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Checksum { section: "common" }), "{err}");
}

/// Every length short of the whole file fails to open.
#[test]
fn sweep_every_truncation() {
    let file = small_index_bytes();
    for len in 0..file.len() {
        assert!(Index::from_bytes(file[..len].to_vec()).is_err(), "cut at {len} opened");
    }
}

/// Damage that keeps every checksum right (a buggy or hostile writer), in
/// every section, FSTs and metadata included: every node and table read is
/// checked, so queries still answer or err, never panic or run away.
#[test]
fn sweep_damage_with_valid_checksums() {
    let file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    let mut rng = SplitMix64::new(99);
    let (mut commands, mut opened) = (0, 0);
    for s in &header.sections {
        for _ in 0..400 {
            let mut bad = file.clone();
            let at = s.offset as usize + rng.below(s.len) as usize;
            bad[at] ^= 1 << rng.below(8);
            wordhoard_query::format::reseal(&mut bad);
            if let Ok(index) = Index::from_bytes(bad) {
                opened += 1;
                commands += run_every_query(&index).0;
            }
        }
    }
    assert!(opened > 2000, "most damaged files open: {opened}");
    eprintln!("{commands} queries over damaged sections");
}

/// The words FST damaged with its checksum kept right: `verify` finds it.
#[test]
fn verify_walks_the_fsts() {
    let file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    let mut rng = SplitMix64::new(5);
    let words = header.entry(SectionId::Words).unwrap();
    let (mut found, mut tried) = (0, 0);
    for _ in 0..300 {
        let mut bad = file.clone();
        let at = words.offset as usize + 16 + rng.below(words.len - 36) as usize;
        bad[at] ^= 1 << rng.below(8);
        wordhoard_query::format::reseal(&mut bad);
        let index = Index::from_bytes(bad).unwrap();
        tried += 1;
        if index.verify().iter().any(|c| c.name == "words" && !c.ok) {
            found += 1;
        }
    }
    // A flip can leave a valid map of other words (a letter for another):
    // the walk cannot know those, but finds the rest.
    eprintln!("verify found {found} of {tried}");
    assert!(found * 10 >= tried * 7, "verify found {found} of {tried} damaged words FSTs");
}

/// The absolute byte range of column `col` of a column-table section.
fn column_range(
    file: &[u8],
    s: &wordhoard_query::format::SectionEntry,
    col: Option<usize>,
) -> Option<std::ops::Range<usize>> {
    let col = col?;
    let base = s.offset as usize;
    let at = base + 8 + col * 16;
    let off = u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
    let len = u64::from_le_bytes(file[at + 8..at + 16].try_into().unwrap()) as usize;
    Some(base + off..base + off + len)
}

#[test]
fn terms_and_chains_of_different_lists_are_an_error() {
    // Every section sound on its own, but `terms` from another list: its
    // term count differs from the chains'. Either may be opened first.
    let file = small_index_bytes();
    let other =
        build_index(&[WordSource::from_text("other", GOLDEN_WORDS)], &BuildOptions::default()).unwrap().into_bytes();
    let (header, other_header) = (Header::parse(&file).unwrap(), Header::parse(&other).unwrap());
    let mut spliced = FileWriter::new();
    for entry in &header.sections {
        let payload = if entry.code == SectionId::Terms.code() {
            &other[other_header.entry(SectionId::Terms).unwrap().range()]
        } else {
            &file[entry.range()]
        };
        spliced.add_raw(entry.code, payload.to_vec());
    }
    let index = Index::from_bytes(spliced.finish()).unwrap();
    let disagree = |e: wordhoard_query::Error| matches!(e.kind(), ErrorKind::Corrupt { section: Some("chains"), problem } if problem.contains("term count"));
    let an = anigram::Anigrams::open(&index).unwrap();
    assert!(an.count(anigram::Start::Len(4), 9).is_ok(), "the chains alone are sound");
    assert!(an.unscramble("ride").is_err_and(disagree));
    let an = anigram::Anigrams::open(&index).unwrap();
    assert!(an.unscramble("ride").is_ok(), "the terms alone are sound");
    assert!(an.count(anigram::Start::Len(4), 9).is_err_and(disagree));
}

#[test]
fn a_large_index_is_verified_as_thoroughly() {
    // Over a megabyte, so verify splits its work over two threads: damage
    // anywhere is still found, and on the right section.
    let mut rng = SplitMix64::new(21);
    let list: String = (0..30_000)
        .map(|_| (0..4 + rng.below(6)).map(|_| (b'a' + rng.below(26) as u8) as char).collect::<String>() + "\n")
        .collect();
    let file = build_index(&[WordSource::from_text("large", &list)], &BuildOptions::default()).unwrap().into_bytes();
    assert!(file.len() >= 1 << 20, "{} bytes", file.len());
    assert!(Index::from_bytes(file.clone()).unwrap().verify().iter().all(|c| c.ok));
    let header = Header::parse(&file).unwrap();
    // A flipped byte: that section's checksum, and no other.
    for (i, s) in header.sections.iter().enumerate() {
        let mut bad = file.clone();
        bad[s.offset as usize + s.len as usize / 2] ^= 0x10;
        let checks = Index::from_bytes(bad).map(|index| index.verify());
        if let Ok(checks) = checks {
            let failed: Vec<usize> = (0..checks.len()).filter(|&j| !checks[j].ok).collect();
            assert_eq!(failed, [i], "flip in section {i}");
        }
    }
    // A link from a term in the second half of the terms to itself (not
    // one letter longer), checksums kept right: the chains check of that
    // half finds it.
    let chains = header.entry(SectionId::Chains).unwrap();
    let starts = column_range(&file, chains, Some(0)).unwrap();
    let succs = column_range(&file, chains, Some(1)).unwrap();
    let start_of = |t: usize| read_u32(&file, starts.start + 4 * t).unwrap() as usize;
    let terms = (starts.len() / 4) - 1;
    let t = (terms * 3 / 4..terms).find(|&t| start_of(t + 1) > start_of(t)).expect("a term with links");
    let mut bad = file.clone();
    let at = succs.start + 4 * start_of(t);
    bad[at..at + 4].copy_from_slice(&(t as u32).to_le_bytes());
    wordhoard_query::format::reseal(&mut bad);
    let checks = Index::from_bytes(bad).unwrap().verify();
    let chains_check = checks.iter().find(|c| c.name == "chains").unwrap();
    assert!(chains_check.problem.as_deref().is_some_and(|p| p.contains("not one letter longer")), "{chains_check:?}");
}

#[test]
fn a_word_count_past_32_bits_is_refused_on_open() {
    // The metadata's first field is the word count: stated past what a
    // u32 word id addresses, with every checksum made right again.
    let mut file = small_index_bytes();
    let header = Header::parse(&file).unwrap();
    let meta = header.entry(SectionId::Meta).unwrap();
    let at = meta.offset as usize;
    file[at..at + 8].copy_from_slice(&(u64::from(u32::MAX) + 1).to_le_bytes());
    wordhoard_query::format::reseal(&mut file);
    let err = Index::from_bytes(file).err().expect("refused");
    assert!(err.is_bad_index() && err.to_string().contains("32 bits"), "{err}");
}
