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
