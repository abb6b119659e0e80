//! Compile word lists into a wordhoard index file.
//!
//! [`build_index`] reads one or more word lists ([`WordSource`]), normalises
//! them (see [`wordlist`]), and encodes every section through the writers
//! of `wordhoard_query::format`, so the builder and the reader share one
//! definition of the layout. [`write_atomically`] publishes the file so a
//! reader never sees a half-written index.
//!
//! The same lists and options give the same bytes wherever they are built:
//! an index records its lists by file name and SHA-256, and its build time
//! from `SOURCE_DATE_EPOCH` when that is set (see [`BuildOptions::built_at`]).
//!
//! ```
//! use wordhoard_builder::{build_index, BuildOptions, WordSource};
//!
//! let built = build_index(&[WordSource::from_text("tiny", "ride\nDire\nired\n4x4\n")], &BuildOptions::default()).unwrap();
//! assert_eq!(built.report.words, 3);
//! assert_eq!(built.report.skipped.total(), 1);
//! let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! assert_eq!(index.word_count(), 3);
//! ```
//!
//! Modules, each depending only on those above it: `error`; `sort` (fast
//! byte-string sorts); `sorted_words` (the sorted word arena); [`wordlist`]
//! (reading and normalising lists); `fst_writer`, `hash`; `bee` and
//! `anigram` (each puzzle's sections); `compile` (the build); `deep`
//! ([`verify_deep`]: an index's tables rebuilt and compared); `publish`
//! (writing the file).

#![deny(missing_docs)]
// `unsafe` only in publish.rs: the one system call std lacks (asking Linux
// to start writing a range of the new file to disk).
#![deny(unsafe_code)]

mod anigram;
mod bee;
mod compile;
mod deep;
mod endings;
mod error;
mod flags;
mod fst_writer;
mod hash;
mod letter_groups;
mod publish;
mod sort;
mod sorted_words;
mod survey;
// The query crate's seeded generator, for tests (it is not public there).
#[cfg(test)]
#[path = "../../query/src/rng.rs"]
mod test_rng;
pub mod wordlist;

pub use compile::{
    build_index, default_name, AlphabetChoice, BuildOptions, BuildReport, Built, CommonReport, ExcludeReport,
    LETTER_GROUPS_FROM,
};
#[cfg(feature = "json")]
pub use deep::verify_json;
pub use deep::{verify_all, verify_deep, DeepCheck, MAX_WORD_BYTES_PER_FST_BYTE};
pub use error::{BuildError, BuildErrorKind, ListRole, OutputProblem};
#[cfg(feature = "json")]
pub use flags::report_json;
pub use flags::{expand_ranges, BuildFlags};
pub use publish::{check_output, remove_temp_files, write_atomically, PublishOptions};
pub use sorted_words::SortedWords;
pub use survey::{AlphabetRule, ProperNounReport, ProperNouns, LOWERCASE_QUARTERS, PLAIN_PER_MILLE};
pub use wordlist::{Skipped, WordList, WordSource};
