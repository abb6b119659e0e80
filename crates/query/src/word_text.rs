//! The `word_text` section: every word's letter codes in id order, so a
//! word id turns into its text with two loads and a copy instead of a
//! walk down the words FST, and a scan over every word reads them back to
//! back as `grep` reads a list.
//!
//! Columns (FORMAT.md): `u8[w]` each word's length; `u32[⌈w/16⌉]` where
//! each run of 16 words starts in the text; `u8[]` the words' codes back
//! to back. A sample every 16 words keeps the table a quarter of what an
//! offset a word takes; a word's start is its run's start plus at most 15
//! lengths. The section is optional: an index without it decodes through
//! the FST, as every reader of format 3 before it did.

use std::ops::ControlFlow;

use crate::error::Result;
use crate::format::blocks::{check, Lazy};
use crate::format::{Columns, SectionId, U32s, WORD_TEXT_RUN as RUN};

/// A view of the `word_text` section, its counts checked against the word
/// count; every read is bounds-checked and its blocks checked as read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordText<'a> {
    lengths: &'a [u8],
    starts: U32s<'a>,
    text: &'a [u8],
    lazy: Option<Lazy<'a>>,
}

impl<'a> WordText<'a> {
    /// Reads the table over `cols`, for an index of `words` words.
    pub(crate) fn new(cols: Columns<'a>, words: usize) -> Result<WordText<'a>> {
        let (lengths, lazy) = cols.lazy_bytes(0)?;
        let starts = cols.u32s(1)?;
        let (text, _) = cols.lazy_bytes(2)?;
        if lengths.len() != words || starts.len() != words.div_ceil(RUN) {
            return Err(SectionId::WordText.corrupt("does not have one length a word and one start a run of 16"));
        }
        Ok(WordText { lengths, starts, text, lazy })
    }

    /// The letter codes of word `id` (not yet checked to be letters).
    #[inline]
    pub(crate) fn word(&self, id: usize) -> Result<&'a [u8]> {
        let bad = || SectionId::WordText.corrupt(format!("places word {id} outside its text"));
        let run = id / RUN;
        let lengths = self.lengths.get(run * RUN..=id).ok_or_else(bad)?;
        check(self.lazy, lengths)?;
        let (before, len) = lengths.split_at(lengths.len() - 1);
        // Saturating: a start near u32::MAX from a damaged file must not
        // wrap a 32-bit usize into a range that reads another word.
        let start = self.starts.at(run)?.saturating_add(before.iter().map(|&l| l as usize).sum::<usize>());
        let word = self.text.get(start..start.saturating_add(len[0] as usize)).ok_or_else(bad)?;
        check(self.lazy, word)?;
        Ok(word)
    }

    /// Calls `f` with every word in id order, and its id, until it
    /// breaks: one pass over the text, after [`WordText::check`] (it reads
    /// the text whole, and a checked structure lets a word's start be the
    /// last one's end, as lookups would find it).
    pub(crate) fn each(&self, mut f: impl FnMut(usize, &'a [u8]) -> ControlFlow<()>) -> Result<()> {
        self.check()?;
        let mut rest = self.text;
        for (id, &len) in self.lengths.iter().enumerate() {
            let Some((word, after)) = rest.split_at_checked(len as usize) else { break };
            rest = after;
            if f(id, word).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// The whole structure: each run starts where the last one ended, the
    /// last ends at the text's end, no word is empty (`verify`; whether
    /// the words are letters and are the FST's is the caller's check).
    pub(crate) fn check(&self) -> Result<()> {
        check(self.lazy, self.lengths)?;
        check(self.lazy, self.text)?;
        let mut at = 0usize;
        for (run, lengths) in self.lengths.chunks(RUN).enumerate() {
            if self.starts.at(run)? != at {
                return Err(
                    SectionId::WordText.corrupt(format!("run {run} does not start where run {} ends", run.max(1) - 1))
                );
            }
            if lengths.contains(&0) {
                return Err(SectionId::WordText.corrupt("has an empty word"));
            }
            at = at.saturating_add(lengths.iter().map(|&l| l as usize).sum::<usize>());
        }
        if at != self.text.len() {
            return Err(SectionId::WordText.corrupt("has text past its last word, or too little"));
        }
        Ok(())
    }
}
