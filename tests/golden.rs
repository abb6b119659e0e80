//! The golden index of format version 1 (`tests/data/v1.hoard`, built from
//! `golden-words.txt` with `golden-common.txt`): it must open and answer,
//! and a fresh build must write the same sections byte for byte. A silent
//! format change fails here; a deliberate one bumps FORMAT_VERSION and adds
//! a new golden file (`WORDHOARD_WRITE_GOLDEN=1 cargo test --test golden`).

mod common;

use wordhoard_builder::{build_index, BuildOptions, WordSource};
use wordhoard_query::format::{Header, SectionId, FORMAT_VERSION};
use wordhoard_query::{anigram::Anigrams, bee, Index};

fn fresh_build() -> Vec<u8> {
    let data = common::repo().join("tests/data");
    let opts = BuildOptions { common: Some(WordSource::File(data.join("golden-common.txt"))), ..Default::default() };
    build_index(&[WordSource::File(data.join("golden-words.txt"))], &opts).unwrap().into_bytes()
}

#[test]
fn golden_v1_opens_answers_and_matches_a_fresh_build() {
    let path = common::repo().join("tests/data/v1.hoard");
    if std::env::var("WORDHOARD_WRITE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, fresh_build()).unwrap();
    }
    assert_eq!(FORMAT_VERSION, 1, "a new format version needs its own golden file");
    let golden = std::fs::read(&path).expect("tests/data/v1.hoard exists");
    let index = Index::from_bytes(golden.clone()).unwrap();
    assert!(index.verify().iter().all(|c| c.ok));
    assert_eq!(index.word_count(), 66);

    let puzzle = bee::Puzzle::parse(index.alphabet(), "aeginrt", Some("r")).unwrap();
    let words: Vec<String> = bee::solve(&index, puzzle, false).unwrap().words.into_iter().map(|w| w.word).collect();
    assert_eq!(
        words,
        [
            "aerating",
            "garnet",
            "grain",
            "granite",
            "grant",
            "gratine",
            "ingrate",
            "integrate",
            "ranger",
            "rating",
            "regain",
            "retain",
            "retina",
            "taring",
            "tearing",
            "treating"
        ]
    );
    let a = Anigrams::open(&index).unwrap();
    assert_eq!(a.unscramble("deir").unwrap().words, ["dire", "ired", "ride"]);
    assert_eq!(a.count(None, 4, 9).unwrap(), 1, "beep -> bedplates");

    let fresh = fresh_build();
    let (old, new) = (Header::parse(&golden).unwrap(), Header::parse(&fresh).unwrap());
    assert_eq!(old.sections.len(), new.sections.len());
    for (o, n) in old.sections.iter().zip(&new.sections) {
        assert_eq!(o.code, n.code);
        if o.code != SectionId::Meta.code() {
            assert!(
                golden[o.range()] == fresh[n.range()],
                "section `{}` changed: the format changed without a version bump",
                o.name()
            );
        }
    }
}
