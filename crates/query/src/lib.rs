//! Read a wordhoard index and answer word-puzzle questions from it.
//!
//! A wordhoard index is one file compiled once from a word list (by the
//! `wordhoard-builder` crate or `wordhoard build`). It holds FSTs and flat
//! little-endian tables, so a question is answered by a few lookups in a
//! memory map instead of a pass over text. This crate owns the format
//! ([`format`](mod@format)), opens and validates it ([`Index`]), and answers the three
//! puzzles: the NYT Spelling Bee ([`bee`]), the NYT Letter Boxed
//! ([`boxed`]) and Anigrams ([`anigram`]).
//!
//! Everything works over any `D: AsRef<[u8]>`: `Index::open` maps a file,
//! [`Index::from_bytes`] takes a `Vec<u8>` or `include_bytes!`. A damaged
//! file is an [`Error`], never a panic: the header and every section's
//! bounds are checked on open, and each section's checksum on first use.
//!
//! Features: `mmap` (default) adds [`Index::open`] over `memmap2`. Without
//! it the crate builds for targets with no files or maps, such as
//! wasm32-unknown-unknown, and reads indexes with [`Index::from_bytes`].
//! `write` adds the format's writers, which only the builder needs.
//! `json` adds [`request`], the one request layer the CLI, the web page and
//! the Python package ask through, and `json`, each answer's JSON shape.
//! `folder` (default) adds `folder`: where named indexes live.
//! `unicode-tables` (default) normalises typed letters with the
//! unicode-normalization crate; `js-unicode` instead asks a JavaScript host
//! (for the WebAssembly engine), and one of the two is needed.
//!
//! Modules, each importing only those before it: `error`; [`alphabet`];
//! [`format`](mod@format) (the spec, the header, the checked views and FST reader);
//! `index` ([`Index`]); the puzzles [`bee`], [`boxed`], [`anigram`]; and
//! `verify` ([`Index::verify`]), which runs each puzzle's checks.
//!
//! # Example
//!
//! ```
//! use wordhoard_builder::{build_index, BuildOptions, WordSource};
//! use wordhoard_query::{anigram::Anigrams, bee, boxed, Index};
//!
//! // Build a tiny index in memory (a real one comes from `Index::open`).
//! let list = "game\ngames\namalgam\nglam\nmegaplex\nride\ndire\nired\n";
//! let built = build_index(&[WordSource::from_text("tiny", list)], &BuildOptions::default()).unwrap();
//! let index = Index::from_bytes(built.into_bytes()).unwrap();
//!
//! // Spelling Bee: the words of a honeycomb, with scores.
//! let puzzle = bee::Puzzle::parse(index.alphabet(), "aeglmpx", Some("g")).unwrap();
//! let solution = bee::solve(&index, puzzle, &bee::SolveOptions::default()).unwrap();
//! assert_eq!(solution.score, 7 + 1 + 1 + 15); // amalgam, game, glam, megaplex (a pangram)
//!
//! // Anigrams: unscramble a term.
//! let anigrams = Anigrams::open(&index).unwrap();
//! assert_eq!(anigrams.unscramble("deir").unwrap().words, ["dire", "ired", "ride"]);
//!
//! // Letter Boxed: playable words of a box.
//! let letter_box = boxed::LetterBox::parse(index.alphabet(), &["gm", "ae"]).unwrap();
//! let playable = boxed::playable_words(&index, &letter_box, 3).unwrap();
//! assert_eq!(playable.iter().map(|p| p.word).collect::<Vec<_>>(), ["game"]);
//! ```

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod alphabet;
pub mod anagram;
pub mod anigram;
pub mod bee;
pub mod boxed;
mod endings;
mod error;
mod fasthash;
pub mod find;
#[cfg(feature = "folder")]
pub mod folder;
pub mod format;
mod ids;
mod index;
#[cfg(feature = "json")]
pub mod json;
mod letter_groups;
#[cfg(feature = "mmap")]
mod mmap;
#[cfg(feature = "json")]
pub mod request;
mod rng;
pub mod terms;
#[cfg(test)]
mod testutil;
mod unicode;
mod verify;
mod word_text;

pub use alphabet::{Alphabet, LetterSet, WordTexts};
pub use error::{Error, ErrorKind, Result};
pub use index::{CommonFlags, FileBytes, Index};
pub use verify::SectionCheck;
