//! Block checksums: each section's bytes in blocks of [`BLOCK_LEN`], each
//! with its CRC-32 in the header, so a reader checks only the blocks it
//! reads, each the first time it reads it.
//!
//! A query of a 500 MB index reads a few kilobytes of it; a checksum over
//! each whole section it opens would read hundreds of megabytes first.
//! With a CRC per block the guarantee stays (every byte a query reads is
//! covered by a checksum checked before the query uses it) and the cost
//! follows what is read.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(feature = "mmap")]
use super::SectionId;
use crate::error::Result;
#[cfg(feature = "mmap")]
use crate::error::{Error, ErrorKind};

/// The length of a checksummed block: 64 KiB (the last block of a
/// section is shorter). Small enough that a lookup reads little, large
/// enough that the table is 1/16384 of the file.
pub const BLOCK_LEN: usize = 1 << 16;

/// The number of blocks a section of `len` bytes has.
pub fn block_count(len: u64) -> u64 {
    len.div_ceil(BLOCK_LEN as u64)
}

/// The CRC-32 of each block of `bytes`, and of all of them (the whole
/// section's, combined from the blocks' without a second pass).
pub fn block_crcs(bytes: &[u8]) -> (Vec<u32>, u32) {
    let mut crcs = BlockCrcs::default();
    crcs.update(bytes);
    crcs.finish()
}

/// [`block_crcs`] of bytes that come in pieces of any lengths, one after
/// another: a writer checksums each piece of a section as it writes it,
/// without the pieces ever being joined.
#[derive(Default)]
pub struct BlockCrcs {
    crcs: Vec<u32>,
    block: crc32fast::Hasher,
    in_block: usize,
    whole: crc32fast::Hasher,
}

impl BlockCrcs {
    /// Adds the next bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let (now, later) = bytes.split_at((BLOCK_LEN - self.in_block).min(bytes.len()));
            self.block.update(now);
            self.in_block += now.len();
            bytes = later;
            if self.in_block == BLOCK_LEN {
                self.end_block();
            }
        }
    }

    fn end_block(&mut self) {
        let crc = std::mem::take(&mut self.block).finalize();
        self.whole.combine(&crc32fast::Hasher::new_with_initial_len(crc, self.in_block as u64));
        self.crcs.push(crc);
        self.in_block = 0;
    }

    /// Each block's CRC-32 and the whole's.
    pub fn finish(mut self) -> (Vec<u32>, u32) {
        if self.in_block > 0 {
            self.end_block();
        }
        (self.crcs, self.whole.finalize())
    }
}

/// Which of some parts (a section's blocks, the word text's runs) have
/// matched their checksums: a bit each, set once, read with one load.
#[derive(Debug, Default)]
pub(crate) struct Passed(Vec<AtomicU64>);

impl Passed {
    /// `parts` parts, none checked.
    pub(crate) fn new(parts: usize) -> Passed {
        Passed((0..parts.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    /// True when part `i` has matched its checksum.
    #[inline(always)]
    pub(crate) fn has(&self, i: usize) -> bool {
        // Relaxed: a part two threads check at once is checked twice,
        // with the same answer; a set bit only ever says it matched.
        self.0.get(i / 64).is_some_and(|bits| bits.load(Ordering::Relaxed) & (1 << (i % 64)) != 0)
    }

    /// Records that part `i` matched its checksum.
    pub(crate) fn add(&self, i: usize) {
        if let Some(bits) = self.0.get(i / 64) {
            bits.fetch_or(1 << (i % 64), Ordering::Relaxed);
        }
    }

    /// How many parts have matched.
    fn count(&self) -> usize {
        self.0.iter().map(|bits| bits.load(Ordering::Relaxed).count_ones() as usize).sum()
    }
}

/// One section's block checksums, and which blocks a read has checked.
#[derive(Debug)]
pub struct SectionBlocks {
    crcs: Vec<u32>,
    checked: Passed,
}

impl SectionBlocks {
    /// The blocks of a section with these block checksums, none checked.
    pub fn new(crcs: Vec<u32>) -> SectionBlocks {
        let checked = Passed::new(crcs.len());
        SectionBlocks { crcs, checked }
    }

    /// Checks, in `section` (the section's bytes), every block that
    /// `range` overlaps and no check has passed yet. False on a mismatch,
    /// or a range or section that does not fit the table.
    #[inline(always)]
    pub fn check(&self, section: &[u8], range: Range<usize>) -> bool {
        if range.start >= range.end {
            return range.start <= section.len();
        }
        if range.end > section.len() {
            return false;
        }
        let (first, last) = (range.start / BLOCK_LEN, (range.end - 1) / BLOCK_LEN);
        // The common case, a read inside one block checked before: one
        // load and a test.
        if first == last && self.is_checked(first) {
            return true;
        }
        self.check_blocks(section, first..=last)
    }

    #[inline(never)]
    fn check_blocks(&self, section: &[u8], blocks: std::ops::RangeInclusive<usize>) -> bool {
        blocks.into_iter().all(|block| self.check_block(section, block))
    }

    #[inline(always)]
    fn is_checked(&self, block: usize) -> bool {
        self.checked.has(block)
    }

    fn check_block(&self, section: &[u8], block: usize) -> bool {
        if self.is_checked(block) {
            return true;
        }
        let start = block * BLOCK_LEN;
        let (Some(bytes), Some(&crc)) =
            (section.get(start..section.len().min(start + BLOCK_LEN)), self.crcs.get(block))
        else {
            // A table that does not fit the section: nothing matches.
            return false;
        };
        let ok = crc32fast::hash(bytes) == crc;
        if ok {
            self.checked.add(block);
        }
        ok
    }

    /// Checks every block of `section` afresh, whatever earlier reads
    /// found, and the section's whole checksum `crc` (combined from the
    /// blocks', in the same pass): what `verify` does.
    pub fn check_all(&self, section: &[u8], crc: u32) -> bool {
        if block_count(section.len() as u64) != self.crcs.len() as u64 {
            return false;
        }
        let mut whole = crc32fast::Hasher::new();
        let mut ok = true;
        for (block, chunk) in section.chunks(BLOCK_LEN).enumerate() {
            let block_crc = crc32fast::hash(chunk);
            if block_crc == self.crcs[block] {
                self.checked.add(block);
            } else {
                ok = false;
            }
            whole.combine(&crc32fast::Hasher::new_with_initial_len(block_crc, chunk.len() as u64));
        }
        ok && whole.finalize() == crc
    }

    /// The number of blocks checked so far (for tests and benchmarks).
    pub fn checked_count(&self) -> usize {
        self.checked.count()
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.crcs.len()
    }

    /// True for an empty section.
    pub fn is_empty(&self) -> bool {
        self.crcs.is_empty()
    }
}

/// Bytes of a section that are checked block by block as they are read:
/// the section's bytes, and its block checksums. `None` in a view means
/// bytes already checked (or made in this process).
///
/// Only with the `mmap` feature: there, pages a query does not read are
/// never read from disk at all. Without it the bytes are in memory
/// already (a web page, the npm package), and
/// [`Index::section_lazy`](crate::Index::section_lazy) checks a section's
/// every block at its first use instead: the type has no values, so the
/// views' checks compile to nothing, and the WebAssembly stays small.
#[cfg(feature = "mmap")]
#[derive(Clone, Copy, Debug)]
pub struct Lazy<'a> {
    section: &'a [u8],
    blocks: &'a SectionBlocks,
    id: SectionId,
}

/// Without the `mmap` feature: no lazy checks (see above).
#[cfg(not(feature = "mmap"))]
#[derive(Clone, Copy, Debug)]
pub struct Lazy<'a> {
    never: std::convert::Infallible,
    _bytes: std::marker::PhantomData<&'a [u8]>,
}

#[cfg(not(feature = "mmap"))]
impl Lazy<'_> {
    /// Never called: there is no value to call it on.
    #[inline]
    pub fn check(&self, _part: &[u8]) -> Result<()> {
        match self.never {}
    }

    /// Never called: there is no value to call it on.
    #[inline]
    pub fn ok(&self, _part: &[u8]) -> bool {
        match self.never {}
    }

    /// Never called: there is no value to call it on.
    fn block_of(&self, _part: &[u8]) -> Option<Range<usize>> {
        match self.never {}
    }
}

#[cfg(feature = "mmap")]
impl<'a> Lazy<'a> {
    /// The section `id`'s bytes with its block checksums.
    pub fn new(section: &'a [u8], blocks: &'a SectionBlocks, id: SectionId) -> Lazy<'a> {
        Lazy { section, blocks, id }
    }

    /// Checks the blocks under `part`, a slice of this section's bytes:
    /// a checksum error if one does not match, a corruption error if
    /// `part` is not in the section.
    #[inline(always)]
    pub fn check(&self, part: &[u8]) -> Result<()> {
        // The common case first, in a few instructions with no call: a
        // read inside one block already checked. (A part outside the
        // section wraps to a start past its end, which fails the test.)
        let start = (part.as_ptr() as usize).wrapping_sub(self.section.as_ptr() as usize);
        let last = start.wrapping_add(part.len()).wrapping_sub(1);
        let one_block = last < self.section.len() && start <= last && start / BLOCK_LEN == last / BLOCK_LEN;
        if one_block && self.blocks.is_checked(start / BLOCK_LEN) {
            return Ok(());
        }
        self.check_slow(part)
    }

    /// [`Lazy::check`] past its common case: an empty part, a part over
    /// several blocks, or a block not checked yet.
    #[inline(never)]
    fn check_slow(&self, part: &[u8]) -> Result<()> {
        if part.is_empty() {
            return Ok(());
        }
        let start = (part.as_ptr() as usize).wrapping_sub(self.section.as_ptr() as usize);
        let in_section = start.checked_add(part.len()).filter(|&end| end <= self.section.len());
        match in_section {
            Some(end) if self.blocks.check(self.section, start..end) => Ok(()),
            _ => Err(self.failure(in_section.is_some())),
        }
    }

    /// The error of a failed [`Lazy::check`], out of line: the check is
    /// on every read.
    #[cold]
    #[inline(never)]
    fn failure(&self, in_section: bool) -> Error {
        if in_section {
            Error::new(ErrorKind::Checksum { section: self.id.name() })
        } else {
            self.id.corrupt("is read outside its bounds")
        }
    }

    /// True when every block under `part` matches (see [`Lazy::check`]).
    #[inline]
    pub fn ok(&self, part: &[u8]) -> bool {
        self.check(part).is_ok()
    }

    /// The addresses of the one block `part` lies in, when it lies in
    /// one (for [`LastBlock`], after a check of `part` passed).
    fn block_of(&self, part: &[u8]) -> Option<Range<usize>> {
        if part.is_empty() {
            return None; // passes every check: it says nothing of a block
        }
        let start = (part.as_ptr() as usize).checked_sub(self.section.as_ptr() as usize)?;
        let last = start.checked_add(part.len())?.checked_sub(1)?;
        if last >= self.section.len() || start / BLOCK_LEN != last / BLOCK_LEN {
            return None;
        }
        let block = start / BLOCK_LEN * BLOCK_LEN;
        let base = self.section.as_ptr() as usize;
        Some(base + block..base + self.section.len().min(block + BLOCK_LEN))
    }
}

/// Checks `part` with `lazy`, when the bytes are not already checked.
#[inline(always)]
pub fn check(lazy: Option<Lazy>, part: &[u8]) -> Result<()> {
    match lazy {
        Some(lazy) => lazy.check(part),
        None => Ok(()),
    }
}

/// The block a run of reads last checked, kept by the reader: a read
/// inside it is two compares in registers, where [`Lazy::check`] follows
/// pointers to the section's table (a pass reading many values near each
/// other, in order, reads most of them from the block before).
#[derive(Clone, Debug, Default)]
pub struct LastBlock {
    /// The block's addresses (empty at first).
    start: usize,
    end: usize,
}

impl LastBlock {
    /// [`check`], skipped for a part inside the block checked last.
    #[inline(always)]
    pub fn check(&mut self, lazy: Option<Lazy>, part: &[u8]) -> Result<()> {
        let start = part.as_ptr() as usize;
        if self.start <= start && start.wrapping_add(part.len()) <= self.end && start < self.end {
            return Ok(());
        }
        self.check_new(lazy, part)
    }

    #[inline(never)]
    fn check_new(&mut self, lazy: Option<Lazy>, part: &[u8]) -> Result<()> {
        check(lazy, part)?;
        if let Some(span) = lazy.and_then(|lazy| lazy.block_of(part)) {
            (self.start, self.end) = (span.start, span.end);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_combine_into_the_whole_crc() {
        for len in [0, 1, BLOCK_LEN - 1, BLOCK_LEN, BLOCK_LEN + 1, 3 * BLOCK_LEN + 17] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let (crcs, whole) = block_crcs(&bytes);
            assert_eq!(crcs.len() as u64, block_count(len as u64));
            assert_eq!(whole, crc32fast::hash(&bytes), "{len} bytes");
        }
    }

    /// Pieces of any lengths, cut anywhere (across block edges, empty
    /// ones too), give the checksums of the bytes joined.
    #[test]
    fn pieces_give_the_checksums_of_the_bytes_joined() {
        let bytes: Vec<u8> = (0..3 * BLOCK_LEN + 17).map(|i| (i * 7 % 251) as u8).collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..40 {
            let mut crcs = BlockCrcs::default();
            let mut rest = &bytes[..];
            while !rest.is_empty() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly short pieces, sometimes over a block.
                let cut = (state as usize % if state % 5 == 0 { 2 * BLOCK_LEN } else { 300 }).min(rest.len());
                crcs.update(&rest[..cut]);
                rest = &rest[cut..];
            }
            assert_eq!(crcs.finish(), block_crcs(&bytes));
        }
        assert_eq!(BlockCrcs::default().finish(), block_crcs(&[]));
    }

    #[test]
    #[cfg(feature = "mmap")]
    fn only_the_blocks_read_are_checked_and_damage_there_is_found() {
        let mut bytes: Vec<u8> = (0..3 * BLOCK_LEN + 5).map(|i| (i % 13) as u8).collect();
        let (crcs, _) = block_crcs(&bytes);
        bytes[2 * BLOCK_LEN + 1] ^= 1;
        let blocks = SectionBlocks::new(crcs);
        let lazy = Lazy::new(&bytes, &blocks, SectionId::Words);
        assert!(lazy.ok(&bytes[10..20]));
        assert_eq!(blocks.checked_count(), 1);
        assert!(lazy.ok(&bytes[BLOCK_LEN - 2..BLOCK_LEN + 2]));
        assert_eq!(blocks.checked_count(), 2);
        assert!(lazy.ok(&bytes[3 * BLOCK_LEN..]));
        let err = lazy.check(&bytes[2 * BLOCK_LEN..2 * BLOCK_LEN + 1]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Checksum { section: "words" }), "{err}");
        assert!(!lazy.ok(&bytes[..]));
        assert_eq!(blocks.checked_count(), 3);
        // A slice of other bytes is not in the section.
        let other = vec![0u8; 4];
        assert!(!lazy.ok(&other));
        assert!(lazy.ok(&bytes[5..5]));
    }

    /// A read inside the block checked last skips the table; any other
    /// read is checked, so damage in another block is still found.
    #[test]
    #[cfg(feature = "mmap")]
    fn the_last_block_remembers_only_a_block_that_matched() {
        let mut bytes: Vec<u8> = (0..3 * BLOCK_LEN + 5).map(|i| (i % 13) as u8).collect();
        let (crcs, _) = block_crcs(&bytes);
        bytes[BLOCK_LEN + 7] ^= 1;
        let blocks = SectionBlocks::new(crcs);
        let lazy = Some(Lazy::new(&bytes, &blocks, SectionId::Words));
        let mut last = LastBlock::default();
        // Nothing remembered yet, and an empty read remembers nothing.
        last.check(lazy, &bytes[3..3]).unwrap();
        assert_eq!(blocks.checked_count(), 0);
        last.check(lazy, &bytes[10..20]).unwrap();
        last.check(lazy, &bytes[BLOCK_LEN - 8..BLOCK_LEN]).unwrap();
        assert_eq!(blocks.checked_count(), 1);
        // Across the damaged block's edge, and inside it: errors, after a
        // good block was remembered.
        assert!(last.check(lazy, &bytes[BLOCK_LEN - 2..BLOCK_LEN + 2]).is_err());
        assert!(last.check(lazy, &bytes[BLOCK_LEN + 5..BLOCK_LEN + 9]).is_err());
        // The block after it, then the first again: both fine.
        last.check(lazy, &bytes[2 * BLOCK_LEN + 1..2 * BLOCK_LEN + 9]).unwrap();
        last.check(lazy, &bytes[0..8]).unwrap();
        // The short last block, to its end.
        last.check(lazy, &bytes[3 * BLOCK_LEN..]).unwrap();
        assert!(last.check(lazy, &bytes[BLOCK_LEN + 7..BLOCK_LEN + 8]).is_err());
        // Bytes of no section: an error, remembered block or not.
        let other = vec![0u8; 4];
        assert!(last.check(lazy, &other).is_err());
    }
}
