//! The `word_text` section: every word's letter codes in id order, so a
//! word id turns into its text with two loads and a copy instead of a
//! walk down the words FST, and a scan over every word reads them back to
//! back as `grep` reads a list.
//!
//! Columns (FORMAT.md): `u8[w]` each word's length; `u32[⌈w/16⌉]` where
//! each run of 16 words starts in the text; `u8[]` the words' codes back
//! to back; `u32[⌈w/16⌉]` each run's checksum. A sample every 16 words
//! keeps the table a quarter of what an offset a word takes; a word's
//! start is its run's start plus at most 15 lengths. The section is
//! optional: an index without it decodes through the FST, as every
//! reader of format 3 before it did.
//!
//! A lookup checks the runs it reads by their own checksums, each once an
//! index, not the 64 KiB blocks around them: on a list of 10 million
//! words a honeycomb's 1,746 words lie in 159 blocks (10 MB to checksum)
//! and in 1,746 runs of some 150 bytes. (Builds before the run checksums
//! wrote three columns; their reads are checked by block.)

use std::ops::ControlFlow;
use std::sync::OnceLock;

use crate::error::{Error, ErrorKind, Result};
use crate::format::blocks::{check, LastBlock, Lazy, Passed, BLOCK_LEN};
use crate::format::{le_u32, run_checksum, Columns, SectionId, U32s, WORD_TEXT_RUN as RUN};

/// What a run of word reads checked last: the block of each column, or
/// the run.
#[derive(Default)]
pub(crate) struct Near {
    lengths: LastBlock,
    starts: LastBlock,
    text: LastBlock,
    /// One more than the run checked last (0: none yet).
    run: usize,
    /// Reads checked by their runs' checksums (see [`WordText::near_for`]),
    /// not by blocks.
    by_runs: bool,
}

/// A view of the `word_text` section, its counts checked against the word
/// count; every read is bounds-checked and checked as read: by its run's
/// checksum where the file has them and reads are checked lazily, else
/// by its blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordText<'a> {
    lengths: &'a [u8],
    starts: U32s<'a>,
    text: &'a [u8],
    lazy: Option<Lazy<'a>>,
    /// Each run's checksum (column 3), where the file has them.
    sums: Option<U32s<'a>>,
    /// The same, and which have matched, when reads check them: the file
    /// has them and its blocks are checked as read. (With the lazy
    /// checks, which a build without lazy checks cannot make: there the
    /// compiler drops the code that checks runs.)
    runs: Option<(U32s<'a>, &'a Passed, Lazy<'a>)>,
}

impl<'a> WordText<'a> {
    /// Reads the table over `cols`, for an index of `words` words; the
    /// runs checked so far are kept in `checked`, the index's.
    pub(crate) fn new(cols: Columns<'a>, words: usize, checked: &'a OnceLock<Passed>) -> Result<WordText<'a>> {
        let (lengths, lazy) = cols.lazy_bytes(0)?;
        let starts = cols.u32s(1)?;
        let (text, _) = cols.lazy_bytes(2)?;
        if lengths.len() != words || starts.len() != words.div_ceil(RUN) {
            return Err(SectionId::WordText.corrupt("does not have one length a word and one start a run of 16"));
        }
        let sums = if cols.len() > 3 { Some(cols.u32s(3)?) } else { None };
        if sums.is_some_and(|sums| sums.len() != starts.len()) {
            return Err(SectionId::WordText.corrupt("does not have one checksum a run"));
        }
        // A section checked whole when opened (read into memory, or no
        // lazy checks on this platform) needs no run checked.
        let runs = match (sums, lazy) {
            (Some(sums), Some(lazy)) => Some((sums, checked.get_or_init(|| Passed::new(sums.len())), lazy)),
            _ => None,
        };
        Ok(WordText { lengths, starts, text, lazy, sums, runs })
    }

    /// A [`Near`] for a read of `words` words: checked by runs where the
    /// file has their checksums and the words are few enough, else by
    /// blocks. A run's checksum costs some 45 ns, a 64 KiB block's some
    /// 3.5 us: measured on enable1, 2,000 words spread over its word text
    /// cost as much either way, 10,000 twice as much by runs. (A pass over
    /// every word, as `verify`'s, reads by blocks.)
    pub(crate) fn near_for(&self, words: usize) -> Near {
        let blocks = (self.lengths.len() + self.text.len()).div_ceil(BLOCK_LEN);
        Near { by_runs: self.runs.is_some() && words <= RUNS_A_BLOCK * blocks, ..Near::default() }
    }

    /// Checks run `run` by its checksum, unless a read has: its start,
    /// lengths and text are then what the build wrote.
    #[inline(never)]
    fn check_run(&self, run: usize, (sums, checked, _): &(U32s<'a>, &Passed, Lazy<'a>)) -> Result<()> {
        if checked.has(run) {
            return Ok(());
        }
        // The same error as a block that fails its checksum.
        let damaged = || Error::new(ErrorKind::Checksum { section: SectionId::WordText.name() });
        let lengths = self.lengths.get(run * RUN..).map(|rest| &rest[..rest.len().min(RUN)]).unwrap_or_default();
        let start = self.starts.at_covered(run)?;
        let len: usize = lengths.iter().map(|&l| l as usize).sum();
        let text = self.text.get(start..start.saturating_add(len)).ok_or_else(damaged)?;
        if run_checksum(start as u32, lengths, text) != sums.at(run)? as u32 {
            return Err(damaged());
        }
        checked.add(run);
        Ok(())
    }

    /// The bytes of every word's codes together.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The letter codes of word `id` (not yet checked to be letters): one
    /// lookup, for tests; readers of many use [`WordText::words_into`].
    #[cfg(test)]
    pub(crate) fn word(&self, id: usize) -> Result<&'a [u8]> {
        self.word_near(id, &mut self.near_for(1))
    }

    /// The codes of words `ids`, in order, back to back onto `codes`, and
    /// where each ends onto `ends`: sorted ids read the same blocks one
    /// after another, and the checks remember them (see [`Near`]).
    pub(crate) fn words_into(&self, ids: &[u32], codes: &mut Vec<u8>, ends: &mut Vec<usize>) -> Result<()> {
        let mut near = self.near_for(ids.len());
        for &id in ids {
            let (span, _) = self.span_near(id as usize, &mut near)?;
            push_codes(codes, self.text, span);
            ends.push(codes.len());
        }
        Ok(())
    }

    /// The length of word `id` in codes, for one of many reads near each
    /// other: one load from the lengths alone, their blocks checked as
    /// read (the text and the starts are not touched).
    pub(crate) fn len_near(&self, id: usize, near: &mut Near) -> Result<usize> {
        let len = self.lengths.get(id..=id).ok_or_else(|| SectionId::WordText.corrupt(format!("has no word {id}")))?;
        near.lengths.check(self.lazy, len)?;
        Ok(len[0] as usize)
    }

    /// The codes of word `id`, for one of many reads near each other:
    /// the blocks checked last are remembered in `near`.
    #[inline(always)]
    pub(crate) fn word_near(&self, id: usize, near: &mut Near) -> Result<&'a [u8]> {
        Ok(self.span_near(id, near)?.1)
    }

    /// Where word `id`'s codes lie in the text, and the codes, in bounds
    /// and checked (see [`WordText::word_near`]).
    #[inline(always)]
    fn span_near(&self, id: usize, near: &mut Near) -> Result<(std::ops::Range<usize>, &'a [u8])> {
        let bad = || SectionId::WordText.corrupt(format!("places word {id} outside its text, or has it empty"));
        let run = id / RUN;
        let lengths = self.lengths.get(run * RUN..=id).ok_or_else(bad)?;
        // The run's checksum covers its start, lengths and text: checked,
        // they are read with no check of their own. Borrowed, not copied:
        // a copy of the tuple a word was stored to the stack and read back
        // at once from inside a wider store, a load the CPU cannot forward
        // and waits out (537 spread ids: 7.3 us by copy, 4.4 by reference).
        let runs = self.runs.as_ref().filter(|_| near.by_runs);
        match runs {
            Some(runs) if near.run != run + 1 => {
                self.check_run(run, runs)?;
                near.run = run + 1;
            }
            Some(_) => {}
            None => near.lengths.check(self.lazy, lengths)?,
        }
        let (before, len) = lengths.split_at(lengths.len() - 1);
        if len[0] == 0 {
            return Err(bad());
        }
        // The run's whole 16 lengths, where it has them (all but the
        // last run): summed with no loop, those from `id` on masked off.
        let before = match self.lengths.get(run * RUN..).and_then(|rest| rest.first_chunk::<RUN>()) {
            Some(whole) => sum_before(whole, before.len()),
            None => before.iter().map(|&l| l as usize).sum(),
        };
        // Saturating: a start near u32::MAX from a damaged file must not
        // wrap a 32-bit usize into a range that reads another word.
        let start = match runs {
            Some(_) => self.starts.at_covered(run)?,
            None => self.starts.at_near(run, &mut near.starts)?,
        };
        let start = start.saturating_add(before);
        let span = start..start.saturating_add(len[0] as usize);
        let word = self.text.get(span.clone()).ok_or_else(bad)?;
        if runs.is_none() {
            near.text.check(self.lazy, word)?;
        }
        Ok((span, word))
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

    /// [`WordText::each`] over only the words whose last code `last_ok`
    /// holds: one load and test a word before `f` (a `*` pattern's last
    /// letter turns most words away), in a loop that tracks where each
    /// word ends rather than splitting the text. Not inlined: in a caller
    /// the loop's counters went to the stack, a store and a load a word.
    #[inline(never)]
    pub(crate) fn each_ending(
        &self,
        last_ok: &[bool; 256],
        mut f: impl FnMut(usize, &'a [u8]) -> ControlFlow<()>,
    ) -> Result<()> {
        self.check()?;
        let text = self.text;
        let mut end = 0usize;
        for (id, &len) in self.lengths.iter().enumerate() {
            let start = end;
            end += len as usize;
            // The check made every length at least 1 and their sum the
            // text's length: `end - 1` is this word's last code.
            let Some(&last) = text.get(end.wrapping_sub(1)) else { break };
            if last_ok[last as usize] {
                let Some(word) = text.get(start..end) else { break };
                if f(id, word).is_break() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Calls `f` with every word from id `from` on, in id order, until it
    /// breaks: one pass over the text from the start of `from`'s run of
    /// 16, each run's start checked against the lengths before it as the
    /// pass reaches it (a damaged table is an error, not another word),
    /// and the blocks under what it reads checked as it reads them.
    pub(crate) fn each_from(&self, from: usize, mut f: impl FnMut(usize, &'a [u8]) -> ControlFlow<()>) -> Result<()> {
        if from >= self.lengths.len() {
            return Ok(());
        }
        let first_run = from / RUN;
        let Some(lengths) = self.lengths.get(first_run * RUN..) else { return Ok(()) };
        let mut at = self.starts.at(first_run)?;
        let mut near = Near::default();
        for (run, lengths) in (first_run..).zip(lengths.chunks(RUN)) {
            near.lengths.check(self.lazy, lengths)?;
            if self.starts.at_near(run, &mut near.starts)? != at {
                return Err(SectionId::WordText.corrupt(format!("run {run} does not start where the one before ends")));
            }
            for (id, &len) in (run * RUN..).zip(lengths) {
                let word = self.text.get(at..at.saturating_add(len as usize));
                let word = word.filter(|w| !w.is_empty()).ok_or_else(|| {
                    SectionId::WordText.corrupt(format!("places word {id} outside its text, or has it empty"))
                })?;
                near.text.check(self.lazy, word)?;
                at += word.len();
                if id >= from && f(id, word).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The first id whose word is `codes` or comes after it (the ids
    /// follow the words' codes in order): a binary search, each probe a
    /// word read. The words that start with `codes` come from there on.
    pub(crate) fn first_at_least(&self, codes: &[u8]) -> Result<usize> {
        let (mut lo, mut hi) = (0, self.lengths.len());
        // A binary search: at most 64 probes.
        let mut near = self.near_for(64);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.word_near(mid, &mut near)? < codes {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// The whole structure: each run starts where the last one ended, the
    /// last ends at the text's end, no word is empty (`verify`; whether
    /// the words are letters and are the FST's is the caller's check).
    pub(crate) fn check(&self) -> Result<()> {
        check(self.lazy, self.lengths)?;
        check(self.lazy, self.text)?;
        // Whole columns at once (vector code), not a read a run.
        if memchr::memchr(0, self.lengths).is_some() {
            return Err(SectionId::WordText.corrupt("has an empty word"));
        }
        let starts = self.starts.as_bytes()?;
        let sums = match self.sums {
            Some(sums) => Some(sums.as_bytes()?),
            None => None,
        };
        let too_little = || SectionId::WordText.corrupt("has text past its last word, or too little");
        let mut at = 0usize;
        for (run, (lengths, start)) in self.lengths.chunks(RUN).zip(starts.chunks_exact(4)).enumerate() {
            if le_u32(start) as usize != at {
                return Err(
                    SectionId::WordText.corrupt(format!("run {run} does not start where run {} ends", run.max(1) - 1))
                );
            }
            let end = at.saturating_add(lengths.iter().map(|&l| l as usize).sum::<usize>());
            if let Some(sums) = sums {
                let text = self.text.get(at..end).ok_or_else(too_little)?;
                if sums.get(4 * run..4 * run + 4).map(le_u32) != Some(run_checksum(at as u32, lengths, text)) {
                    return Err(
                        SectionId::WordText.corrupt(format!("has run {run} damaged: its checksum does not match"))
                    );
                }
            }
            at = end;
        }
        if at != self.text.len() {
            return Err(too_little());
        }
        Ok(())
    }
}

/// Past this many words a block of the word text, a read of many words
/// checks blocks, not runs (see [`WordText::words_into`]).
const RUNS_A_BLOCK: usize = 64;

/// The sum of a run's first `count` lengths (`count` below 16): the
/// bytes as one 128-bit number, the rest masked off, added in halves
/// (lanes of 16, 32, then 64 bits). A byte-at-a-time sum was a loop of up
/// to 15 turns a word.
#[inline(always)]
fn sum_before(run: &[u8; RUN], count: usize) -> usize {
    let mask = (1u128 << (8 * (count % RUN))) - 1;
    let x = u128::from_le_bytes(*run) & mask;
    const BYTES: u128 = 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
    const PAIRS: u128 = 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
    const QUADS: u128 = 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
    let x = (x & BYTES) + ((x >> 8) & BYTES);
    let x = (x & PAIRS) + ((x >> 16) & PAIRS);
    let x = (x & QUADS) + ((x >> 32) & QUADS);
    ((x as u64) + ((x >> 64) as u64)) as usize
}

/// Appends `bytes[span]` (in bounds, checked by the caller) to `codes`. A
/// copy of a fixed 16 bytes, cut back to the word, is a move or two
/// where a copy of the word's own length is a call; the bytes past the
/// word are never kept, so never checked.
#[inline(always)]
pub(crate) fn push_codes(codes: &mut Vec<u8>, bytes: &[u8], span: std::ops::Range<usize>) {
    let at = codes.len();
    match bytes.get(span.start..).and_then(|rest| rest.first_chunk::<16>()) {
        Some(wide) if span.len() <= 16 => {
            codes.extend_from_slice(wide);
            codes.truncate(at + span.len());
        }
        _ => codes.extend_from_slice(bytes.get(span).unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    /// A pass from any id reads the words from there, as lookups find
    /// them; the first id at or after some letters is where the words
    /// that start with them begin.
    #[test]
    fn a_pass_from_an_id_reads_what_lookups_read() {
        // 60 words (4 runs of 16): b, d and f, each followed by 1 to 20
        // times "ace".
        let list: Vec<String> =
            (0..60).map(|i| format!("{}{}", ["b", "d", "f"][i / 20], "ace".repeat(1 + i % 20))).collect();
        let index = crate::testutil::index(&list.join("\n"), None);
        let text = index.word_text().unwrap().expect("built with the word text");
        let words = index.word_count();
        for from in [0, 1, 15, 16, 17, words - 1, words] {
            let mut seen = Vec::new();
            text.each_from(from, |id, word| {
                seen.push((id, word.to_vec()));
                ControlFlow::Continue(())
            })
            .unwrap();
            let want: Vec<(usize, Vec<u8>)> = (from..words).map(|id| (id, text.word(id).unwrap().to_vec())).collect();
            assert_eq!(seen, want, "from {from}");
        }
        let probes = ["", "a", "b", "c", "d", "e", "f", "g", "bac", "baceace", "dacf", "faceacea", "fz", "zzz"];
        for codes in probes.map(str::as_bytes) {
            let want = (0..words).filter(|&id| text.word(id).unwrap() < codes).count();
            assert_eq!(text.first_at_least(codes).unwrap(), want, "{:?}", String::from_utf8_lossy(codes));
        }
        assert_eq!((words, text.first_at_least(b"d").unwrap(), text.first_at_least(b"f").unwrap()), (60, 20, 40));
        // Many at once, as lookups of one: words of 4 to 61 letters (the
        // wide copy and the plain one), in full runs and the short last.
        let ids: Vec<u32> = (0..words as u32).filter(|id| id % 3 != 1).collect();
        let (mut codes, mut ends) = (Vec::new(), Vec::new());
        text.words_into(&ids, &mut codes, &mut ends).unwrap();
        let mut start = 0;
        for (&id, &end) in ids.iter().zip(&ends) {
            assert_eq!(&codes[start..end], text.word(id as usize).unwrap(), "word {id}");
            start = end;
        }
        assert_eq!((ends.len(), start), (ids.len(), codes.len()));
    }

    /// 60,000 random words of 4 to 9 letters: a word text of several
    /// blocks.
    fn many_words() -> crate::Index<Vec<u8>> {
        let mut rng = crate::rng::SplitMix64::new(4);
        let words: Vec<String> = (0..60_000)
            .map(|_| (0..4 + rng.below(6)).map(|_| (b'a' + rng.below(26) as u8) as char).collect())
            .collect();
        crate::testutil::index(&words.join("\n"), None)
    }

    /// A lookup checks its word's run, not the blocks around it: damage
    /// in another run of the same block is not read, damage in its own
    /// run is an error, and each run is checked once (its blocks are
    /// not checked at all).
    #[test]
    fn a_lookup_checks_its_run_not_its_blocks() {
        let index = many_words();
        let text = index.word_text().unwrap().unwrap();
        assert!(text.text.len() > 4 << 16 && text.runs.is_some());
        let id = index.word_count() / 2;
        let before = index.blocks_checked().0;
        let word = text.word(id).unwrap().to_vec();
        // Only the checksum column's block: not the lengths', the
        // starts' or the text's.
        assert_eq!(index.blocks_checked().0 - before, 1);
        let (at, _) = text.span_near(id, &mut text.near_for(1)).unwrap();
        let offset = |i: usize| text.text.as_ptr() as usize - index.as_bytes().as_ptr() as usize + i;
        let flipped = |i: usize| {
            let mut bytes = index.as_bytes().to_vec();
            bytes[offset(i)] ^= 0x20;
            crate::Index::from_bytes(bytes).unwrap()
        };
        // A byte 40 runs on: in the same 64 KiB block, another run.
        let elsewhere = flipped(at.start + 40 * super::RUN * 7);
        assert_eq!(offset(at.start) >> 16, offset(at.start + 40 * super::RUN * 7) >> 16, "the same block");
        assert_eq!(elsewhere.word_text().unwrap().unwrap().word(id).unwrap(), word);
        let here = flipped(at.start);
        let err = here.word_text().unwrap().unwrap().word(id).unwrap_err();
        assert!(matches!(err.kind(), crate::ErrorKind::Checksum { section: "word_text" }), "{err}");
        assert!(here.word_text().unwrap().unwrap().word(id).is_err(), "a failed run stays unchecked");
        assert!(here.verify().iter().any(|c| c.name == "word_text" && !c.ok));
    }

    /// `verify` checks every run's checksum, which the block checksums
    /// do not: a file whose runs' checksums were not made again is named.
    #[test]
    fn verify_checks_every_runs_checksum() {
        use crate::format::SectionId;
        let index = crate::testutil::index("able\nbaker\ncharlie\n", None);
        assert!(index.verify().iter().all(|c| c.ok));
        let lying = crate::testutil::with_columns(&index, SectionId::WordText, |cols| cols[2][0] = b'z');
        let problem = lying.verify().into_iter().find(|c| c.name == "word_text").and_then(|c| c.problem);
        assert_eq!(problem.as_deref(), Some("has run 0 damaged: its checksum does not match"));
    }

    /// The masked sum of a run's lengths is the plain sum of its first
    /// lengths, for every count and for lengths up to 255.
    #[test]
    fn a_runs_lengths_sum_as_a_plain_sum_does() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for round in 0..200 {
            let run: [u8; super::RUN] =
                std::array::from_fn(|_| if round % 4 == 0 { 255 } else { rng.below(256) as u8 });
            for count in 0..super::RUN {
                let want: usize = run[..count].iter().map(|&l| l as usize).sum();
                assert_eq!(super::sum_before(&run, count), want, "{run:?}, {count}");
            }
        }
    }
}
