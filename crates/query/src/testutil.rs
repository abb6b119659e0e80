//! Tiny in-memory indexes for the unit tests of each puzzle module.

use crate::Index;

/// An index of the given words (one per line), optionally with common words.
pub(crate) fn index(words: &str, common: Option<&str>) -> Index<Vec<u8>> {
    use wordhoard_builder::{build_index, BuildOptions, WordSource};
    // With the letter groups, which a build of so few words leaves out
    // unless told: the tests here read them.
    let opts = BuildOptions {
        common: common.map(|c| WordSource::from_text("common", c)),
        letter_groups: Some(true),
        ..Default::default()
    };
    let built = build_index(&[WordSource::from_text("test", words)], &opts).expect("test list builds");
    Index::from_bytes(built.into_bytes()).expect("test index opens")
}

/// Norvig's tiny list from the Spelling Bee notebook.
pub(crate) const NORVIG_TINY: &str =
    "amalgam\namalgamation\ngame\ngames\ngem\nglam\nmegaplex\ncacciatore\nerotica\nI\nme\n";

/// `index` with the columns of section `id` changed by `edit` (given each
/// column's bytes), every checksum made right again: a file crafted to
/// get past them.
pub(crate) fn with_columns(
    index: &Index<Vec<u8>>,
    id: crate::format::SectionId,
    edit: impl FnOnce(&mut Vec<Vec<u8>>),
) -> Index<Vec<u8>> {
    use crate::format::{Columns, ColumnsWriter, FileWriter};
    let mut file = FileWriter::new();
    let mut edit = Some(edit);
    for entry in &index.header().sections {
        let mut payload = index.as_bytes()[entry.range()].to_vec();
        if entry.code == id.code() {
            let cols = Columns::parse(id, &payload).expect("a column table");
            let mut columns: Vec<Vec<u8>> = (0..cols.len()).map(|i| cols.bytes(i).unwrap().to_vec()).collect();
            edit.take().expect("one section")(&mut columns);
            let mut out = ColumnsWriter::new();
            for column in columns {
                out.bytes(column);
            }
            payload = out.finish();
        }
        file.add_raw(entry.code, payload);
    }
    Index::from_bytes(file.finish()).expect("the edited index opens")
}

/// `words` random words, a line each: each `min_len` letters plus up to
/// `spread - 1` more, drawn from the first `letters` of a-z.
pub(crate) fn random_list(
    rng: &mut crate::rng::SplitMix64,
    words: usize,
    min_len: u64,
    spread: u64,
    letters: u64,
) -> String {
    (0..words)
        .map(|_| {
            (0..min_len + rng.below(spread)).map(|_| (b'a' + rng.below(letters) as u8) as char).collect::<String>()
                + "\n"
        })
        .collect()
}
