//! The golden index of format version 3 (`tests/data/v3.hoard`, built from
//! `golden-words.txt` with `golden-common.txt`): it must open and answer,
//! its metadata must hold exactly what is asserted here, and a fresh build
//! (with the same build time) must write the same sections byte for byte,
//! as FORMAT.md's version policy says: the tool version in the metadata
//! may differ, and a fresh build may add optional sections the golden
//! file lacks. A silent format change fails here; a deliberate one bumps
//! FORMAT_VERSION and adds a new golden file (`WORDHOARD_WRITE_GOLDEN=1
//! cargo test --test golden`). Builds are reproducible: the same lists in
//! other folders, with `SOURCE_DATE_EPOCH` set, give the same bytes.

mod common;

use common::{bin, Scratch};
use wordhoard_builder::{build_index, BuildOptions, ProperNouns, WordSource};
use wordhoard_query::format::{Columns, FileWriter, Header, Metadata, SectionId, FORMAT_VERSION};
use wordhoard_query::{
    anigram::{self, Anigrams},
    bee, Index,
};

/// The golden file's build time: 2026-11-23T00:00:00Z.
const BUILT_AT: u64 = 1_795_392_000;

fn fresh_build() -> Vec<u8> {
    let data = common::repo().join("tests/data");
    let opts = BuildOptions {
        common: Some(WordSource::File(data.join("golden-common.txt"))),
        built_at: Some(BUILT_AT),
        // The list predates the proper-noun rule, which would skip its
        // `I`; kept, the build is the golden file's, byte for byte.
        proper_nouns: ProperNouns::Keep,
        ..Default::default()
    };
    build_index(&[WordSource::File(data.join("golden-words.txt"))], &opts).unwrap().into_bytes()
}

/// True when `fresh` is `golden` as the version policy allows: each of
/// the golden file's sections, in the same order, with the same bytes
/// (the metadata's tool version aside); sections only `fresh` has are
/// optional ones added since, which must have codes the golden file does
/// not use.
fn same_format(golden: &[u8], fresh: &[u8]) -> Result<(), String> {
    let (old, new) = (Header::parse(golden).unwrap(), Header::parse(fresh).unwrap());
    let mut at = new.sections.iter();
    for entry in &old.sections {
        let Some(next) = at.find(|e| e.code == entry.code) else {
            return Err(format!("a fresh build has no section `{}`", entry.name()));
        };
        let (a, b) = (&golden[entry.range()], &fresh[next.range()]);
        let same = if entry.code == SectionId::Meta.code() {
            let (mut a, b) = (Metadata::decode(a).unwrap(), Metadata::decode(b).unwrap());
            a.tool_version.clone_from(&b.tool_version);
            a == b
        } else {
            a == b || same_but_later_columns(entry.code, a, b)
        };
        if !same {
            return Err(format!("section `{}` differs in a fresh build", entry.name()));
        }
    }
    Ok(())
}

/// Column tables that gained columns at their end, which readers may do
/// without (FORMAT.md's version policy), and how many they had in the
/// golden file: `chains` its terms by length, `word_text` its runs'
/// checksums, `lettersets` its words' texts.
const LATER_COLUMNS: [(SectionId, usize); 3] =
    [(SectionId::Chains, 6), (SectionId::WordText, 3), (SectionId::Lettersets, 4)];

/// True when `fresh` is the golden section `golden` with the columns it
/// gained since after the golden file's own, which are unchanged.
fn same_but_later_columns(code: u32, golden: &[u8], fresh: &[u8]) -> bool {
    let Some(&(id, before)) = LATER_COLUMNS.iter().find(|(id, _)| id.code() == code) else { return false };
    let (Ok(old), Ok(new)) = (Columns::parse(id, golden), Columns::parse(id, fresh)) else { return false };
    old.len() == before
        && new.len() > before
        && (0..before).all(|i| matches!((old.bytes(i), new.bytes(i)), (Ok(a), Ok(b)) if a == b))
}

#[test]
fn the_format_comparison_ignores_the_tool_version_only() {
    let golden = std::fs::read(common::repo().join("tests/data/v3.hoard")).unwrap();
    let header = Header::parse(&golden).unwrap();
    let rewrite = |edit: &dyn Fn(&mut Metadata)| {
        let mut out = FileWriter::new();
        for entry in &header.sections {
            let mut payload = golden[entry.range()].to_vec();
            if entry.code == SectionId::Meta.code() {
                let mut meta = Metadata::decode(&payload).unwrap();
                edit(&mut meta);
                payload = meta.encode();
            }
            out.add_raw(entry.code, payload);
        }
        out.finish()
    };
    assert_eq!(same_format(&golden, &rewrite(&|m| m.tool_version = "9.9.9".into())), Ok(()));
    assert!(same_format(&golden, &rewrite(&|m| m.lines_read += 1)).is_err());
}

/// Columns after a section's own are what the version policy allows, for
/// the sections that gained them; a change to its own columns, or a
/// column another section never gained, is not.
#[test]
fn the_format_comparison_allows_the_later_columns_only() {
    use wordhoard_query::format::ColumnsWriter;
    let golden = std::fs::read(common::repo().join("tests/data/v3.hoard")).unwrap();
    let header = Header::parse(&golden).unwrap();
    let with_column = |id: SectionId, first_byte: Option<u8>| {
        let mut out = FileWriter::new();
        for entry in &header.sections {
            let mut payload = golden[entry.range()].to_vec();
            if entry.code == id.code() {
                let cols = Columns::parse(id, &payload).unwrap();
                let mut columns: Vec<Vec<u8>> = (0..cols.len()).map(|i| cols.bytes(i).unwrap().to_vec()).collect();
                if let Some(b) = first_byte {
                    columns[0][0] = b;
                }
                columns.push(vec![7; 12]);
                let mut table = ColumnsWriter::new();
                columns.into_iter().for_each(|c| _ = table.bytes(c));
                payload = table.finish();
            }
            out.add_raw(entry.code, payload);
        }
        out.finish()
    };
    for id in [SectionId::Chains, SectionId::WordText, SectionId::Lettersets] {
        assert_eq!(same_format(&golden, &with_column(id, None)), Ok(()));
        assert!(same_format(&golden, &with_column(id, Some(0xff))).is_err());
    }
    assert!(same_format(&golden, &with_column(SectionId::Honeycombs, None)).is_err());
}

fn sha256_hex(path: &str) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(common::repo().join(path)).unwrap();
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn golden_v3_opens_answers_and_matches_a_fresh_build() {
    let path = common::repo().join("tests/data/v3.hoard");
    if std::env::var("WORDHOARD_WRITE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, fresh_build()).unwrap();
    }
    assert_eq!(FORMAT_VERSION, 3, "a new format version needs its own golden file");
    let golden = std::fs::read(&path).expect("tests/data/v3.hoard exists");
    let index = Index::from_bytes(golden.clone()).unwrap();
    assert!(index.verify().iter().all(|c| c.ok));
    assert_eq!(index.word_count(), 66);

    // Every metadata field, decoded from the section's bytes.
    let meta = Metadata::decode(index.section(SectionId::Meta).unwrap()).unwrap();
    assert_eq!(&meta, index.metadata());
    // The lists are plain lowercase words, one a line, none repeated.
    let lines = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(common::repo().join("tests/data").join(name)).unwrap();
        text.lines().map(str::to_string).collect()
    };
    let (words, common_words) = (lines("golden-words.txt"), lines("golden-common.txt"));
    assert_eq!(meta.word_count, words.len() as u64);
    assert_eq!(meta.lines_read, words.len() as u64);
    assert_eq!(meta.lines_skipped, 0);
    assert_eq!(meta.common_count, common_words.iter().filter(|w| words.contains(w)).count() as u64);
    assert_eq!(meta.built_at_unix, BUILT_AT);
    assert_eq!(meta.name, "golden-words");
    assert_eq!(meta.alphabet, "abcdefghijklmnopqrstuvwxyz");
    assert_eq!((meta.fold_accents, meta.kept_letters.as_str()), (false, ""));
    assert!(!meta.tool_version.is_empty(), "the version of the wordhoard that wrote it");
    assert_eq!(meta.sources.len(), 1);
    assert_eq!(meta.sources[0].name, "golden-words.txt");
    assert_eq!(meta.sources[0].sha256.to_string(), sha256_hex("tests/data/golden-words.txt"));
    assert_eq!(meta.source_sha256, meta.sources[0].sha256, "one list: its own digest");
    let common = meta.common_source.as_ref().expect("built with a common list");
    assert_eq!(common.name, "golden-common.txt");
    assert_eq!(common.sha256.to_string(), sha256_hex("tests/data/golden-common.txt"));
    assert_eq!((meta.excluded_count, meta.exclude_sources.len()), (0, 0), "built without exclusions");
    let folder = common::repo().canonicalize().unwrap().display().to_string();
    assert!(!String::from_utf8_lossy(&golden).contains(&folder), "the file records no folder");

    let puzzle = bee::Puzzle::parse(index.alphabet(), "aeginrt", Some("r")).unwrap();
    let words: Vec<String> = bee::solve(&index, puzzle, &bee::SolveOptions::default())
        .unwrap()
        .words
        .into_iter()
        .map(|w| w.word.into())
        .collect();
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
    assert_eq!(a.count(anigram::Start::Len(4), 9).unwrap(), 1, "beep -> bedplates");

    if let Err(e) = same_format(&golden, &fresh_build()) {
        panic!("{e}: the format changed without a version bump");
    }
}

#[test]
fn the_same_lists_give_the_same_file_wherever_they_are_built() {
    let data = common::repo().join("tests/data");
    let (a, b) = (Scratch::new(), Scratch::new());
    let build = |dir: &Scratch, epoch: &str| {
        let list = dir.write("golden-words.txt", &std::fs::read(data.join("golden-words.txt")).unwrap());
        let common = dir.write("golden-common.txt", &std::fs::read(data.join("golden-common.txt")).unwrap());
        let out = dir.path("out.hoard");
        let status = bin()
            .current_dir(dir.path(""))
            .env("SOURCE_DATE_EPOCH", epoch)
            .arg("build")
            .arg(&list)
            .arg("--common")
            .arg(&common)
            .args(["--proper-nouns", "keep"])
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(status.status.success(), "{}", common::stderr(&status));
        std::fs::read(out).unwrap()
    };
    let epoch = BUILT_AT.to_string();
    let (first, second) = (build(&a, &epoch), build(&b, &epoch));
    assert!(first == second, "two folders, two files");
    assert_eq!(
        same_format(&std::fs::read(data.join("v3.hoard")).unwrap(), &first),
        Ok(()),
        "the CLI writes the golden file"
    );
    let later = build(&b, &(BUILT_AT + 1).to_string());
    assert_eq!(Index::from_bytes(later).unwrap().metadata().built_at_unix, BUILT_AT + 1);
}

/// The golden index of version 2 (`tests/data/v2.hoard`, the same lists):
/// refused by both readers with one line that says to rebuild, and its
/// sections are version 3's byte for byte (version 3 changed the header
/// only, adding the block checksums; the word text came later, optional).
#[test]
fn a_version_2_index_is_refused_with_rebuild_and_its_sections_are_unchanged() {
    let v2 = common::repo().join("tests/data/v2.hoard");
    let out = bin().args(["--index", v2.to_str().unwrap(), "info"]).output().unwrap();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.lines().count() == 1 && err.contains("older") && err.contains("rebuild"), "{err}");
    let py = common::hoard_py(&v2);
    assert_eq!(py.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&py.stderr).contains("rebuild"));
    let (old, new) = (std::fs::read(&v2).unwrap(), std::fs::read(common::repo().join("tests/data/v3.hoard")).unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(old[at..at + 8].try_into().unwrap()) as usize;
    let count = u32::from_le_bytes(old[12..16].try_into().unwrap()) as usize;
    let header = Header::parse(&new).unwrap();
    // Each of version 2's sections; version 3 files have since gained the
    // optional word text.
    let added = [SectionId::WordText.code()];
    assert_eq!(header.sections.iter().filter(|e| !added.contains(&e.code)).count(), count);
    for i in 0..count {
        let code = u32::from_le_bytes(old[16 + 32 * i..20 + 32 * i].try_into().unwrap());
        let entry = header.sections.iter().find(|e| e.code == code).unwrap();
        let (offset, len) = (u64_at(16 + 32 * i + 8), u64_at(16 + 32 * i + 16));
        assert_eq!(&old[offset..offset + len], &new[entry.range()], "section `{}`", entry.name());
    }
}
