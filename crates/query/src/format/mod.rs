//! The on-disk format. The spec below is the whole contract (it is
//! `crates/query/FORMAT.md`); the types here read it, and with the `write`
//! feature, write it, so the builder and readers share one definition.
//!
//! * [`Header`] parses and checks the header and section table.
//! * [`Metadata`] decodes the `meta` section.
//! * [`Columns`], [`U32s`], [`U64s`]: checked views of column tables.
//! * [`fst`]: a checked reader of the FSTs.
//!
#![doc = include_str!("../../FORMAT.md")]

pub mod blocks;
mod columns;
pub mod fst;
mod meta;
#[cfg(feature = "write")]
mod write;

pub(crate) use columns::search_sorted_many;
pub use columns::{Columns, U32s, U64s};
pub use meta::{Metadata, Sha256, SourceFile, MAX_METADATA_BYTES};
#[cfg(feature = "write")]
pub use write::{reseal, ColumnsWriter, FileWriter, Layout, Payload, SectionSums};

use crate::alphabet::LetterSet;
use crate::error::{Error, ErrorKind, Result};

/// The first eight bytes of every index file. The high first byte and the
/// CR LF catch files mangled by text-mode transfers, as PNG's magic does.
pub const MAGIC: [u8; 8] = [0x89, b'H', b'O', b'A', b'R', b'D', b'\r', b'\n'];

/// The format version this build writes and the only one it reads.
/// Version 2 replaced version 1's bincode metadata with a fixed layout;
/// version 3 added a CRC-32 per 64 KiB block of each section to the
/// header, so a query checks only the blocks it reads.
pub const FORMAT_VERSION: u32 = 3;

/// A sanity limit on the section count, so a damaged count cannot make a
/// reader allocate or scan much.
pub const MAX_SECTIONS: usize = 256;

/// The longest word an index holds, in letters (term lengths are stored
/// as `u8`); the builder skips longer lines.
pub const MAX_WORD_LEN: usize = 255;

/// The `word_text` section stores where every 16th word starts.
pub const WORD_TEXT_RUN: usize = 16;

/// The checksum of one run of the `word_text` section (column 3): the
/// CRC-32 the block table uses, over the run's start (column 1's value,
/// little-endian), its lengths and its text, so that a lookup checks only
/// the runs it reads, not the 64 KiB blocks around them.
pub fn run_checksum(start: u32, lengths: &[u8], text: &[u8]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(&start.to_le_bytes());
    crc.update(lengths);
    crc.update(text);
    crc.finalize()
}

/// The letters of a word's end that order the `endings` section.
pub const ENDING_LETTERS: usize = 4;

/// A word's place in the `endings` section: its last [`ENDING_LETTERS`]
/// codes from the end, one byte each, the last letter in the top byte; a
/// code is stored plus 1 (codes stop at 0xBF), 0 where the word is
/// shorter. Words that end alike sort together, a shorter word before
/// the longer ones that end with it.
#[inline]
pub fn ending_key(word: &[u8]) -> u32 {
    let mut from_end = word.iter().rev().map(|&c| c as u32 + 1).chain(std::iter::repeat(0));
    (0..ENDING_LETTERS).fold(0, |key, _| key << 8 | from_end.next().unwrap_or(0))
}

/// The most of a word's lowest letters a `letter_groups` key may have.
pub const GROUP_KEY_MOST: usize = 8;

/// The bytes of a `letter_groups` entry besides the word's codes: its
/// length before them (one byte), its id after them (a `u32`).
pub const GROUP_ENTRY_EXTRA: usize = 5;

/// The bytes of a `letter_groups` group before its entries: its
/// checksum, so that the first read of a group brings its check along.
pub const GROUP_CHECKSUM_LEN: usize = 4;

/// The checksum of group `rank` of the `letter_groups` section: the
/// CRC-32 the block table uses, over the rank (a `u32`, little-endian)
/// and the group's entries, so that a lookup checks only the groups it
/// reads, and a group's bytes read in another group's place fail.
pub fn group_checksum(rank: u32, entries: &[u8]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(&rank.to_le_bytes());
    crc.update(entries);
    crc.finalize()
}

/// True when a word can lie on some Letter Boxed box: no letter twice in
/// a row (a box's neighbouring letters are on different sides). The
/// `letter_groups` section holds these words alone.
#[inline]
pub fn fits_some_box(word: &[u8]) -> bool {
    word.windows(2).all(|pair| pair[0] != pair[1])
}

/// The `chains` section's columns 6 and 7 for terms of lengths `lens`
/// (column 2): term ids by length, shortest first, ascending within a
/// length; and where each length's group starts, with the end last.
pub fn terms_by_length(lens: &[u8]) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; 257];
    for &l in lens {
        starts[l as usize + 1] += 1;
    }
    for l in 0..256 {
        starts[l + 1] += starts[l];
    }
    let mut fill = starts.clone();
    let mut ids = vec![0u32; lens.len()];
    for (t, &l) in lens.iter().enumerate() {
        ids[fill[l as usize] as usize] = t as u32;
        fill[l as usize] += 1;
    }
    (ids, starts)
}

/// A word's key in a `letter_groups` section of keys of up to
/// `key_letters` letters: the lowest `key_letters` letters of its letter
/// set, or the whole set when it has fewer. A word whose letters lie in
/// a set `s` is in a group whose key lies in `s`.
pub fn group_key(set: LetterSet, key_letters: usize) -> LetterSet {
    let (mut rest, mut key) = (set.0, 0u64);
    for _ in 0..key_letters {
        let lowest = rest & rest.wrapping_neg();
        key |= lowest;
        rest ^= lowest;
    }
    LetterSet(key)
}

/// The binomials the ranks of `letter_groups` keys are sums of: `C(n, j)`,
/// the sets of `j` letters of `n`, for `n` up to 64 and `j` up to
/// [`GROUP_KEY_MOST`] (at most C(64, 8), some 4.4 billion). Made at run
/// time, in 585 additions: as a table in the binary they were 4.7 KB of
/// the WebAssembly.
#[derive(Clone, Debug)]
pub struct GroupRanks {
    choose: [[u64; GROUP_KEY_MOST + 1]; 65],
}

impl Default for GroupRanks {
    fn default() -> GroupRanks {
        GroupRanks::new()
    }
}

impl GroupRanks {
    /// The table, by Pascal's rule.
    pub fn new() -> GroupRanks {
        let mut choose = [[0u64; GROUP_KEY_MOST + 1]; 65];
        for n in 0..=64 {
            choose[n][0] = 1;
            for j in 1..=GROUP_KEY_MOST.min(n) {
                choose[n][j] = choose[n - 1][j - 1] + choose[n - 1][j];
            }
        }
        GroupRanks { choose }
    }

    /// `C(n, j)` (0 past the table).
    #[inline]
    pub fn choose(&self, n: usize, j: usize) -> u64 {
        self.choose.get(n).and_then(|row| row.get(j)).copied().unwrap_or(0)
    }

    /// How many groups a `letter_groups` section has for an alphabet of
    /// `alphabet` letters and keys of up to `key_letters` (at most
    /// [`GROUP_KEY_MOST`]): one for every set of that many letters or
    /// fewer, with words or not, so that a key's group is found by
    /// arithmetic ([`GroupRanks::rank`]) rather than by a search.
    pub fn count(&self, alphabet: usize, key_letters: usize) -> u64 {
        let n = alphabet.min(64);
        (0..=key_letters.min(GROUP_KEY_MOST)).map(|j| self.choose[n][j]).sum()
    }

    /// The place of `key`'s group in a `letter_groups` section for an
    /// alphabet of `alphabet` letters: the keys of fewer letters first,
    /// then those of as many in colexicographic order, where letters `c1
    /// < c2 < ... < cj` are at `C(c1, 1) + C(c2, 2) + ... + C(cj, j)` (the
    /// combinatorial number system). `key` has at most
    /// [`GROUP_KEY_MOST`] letters, all below `alphabet`.
    #[inline]
    pub fn rank(&self, key: LetterSet, alphabet: usize) -> u64 {
        let j = (key.0.count_ones() as usize).min(GROUP_KEY_MOST);
        let mut rank = self.count(alphabet, j) - self.choose(alphabet.min(64), j);
        let (mut rest, mut i) = (key.0, 1);
        while rest != 0 && i <= GROUP_KEY_MOST {
            rank += self.choose[rest.trailing_zeros() as usize][i];
            rest &= rest - 1;
            i += 1;
        }
        rank
    }
}

/// [`GroupRanks::count`], for a single use.
pub fn group_count(alphabet: usize, key_letters: usize) -> u64 {
    GroupRanks::new().count(alphabet, key_letters)
}

const FIXED_HEADER_LEN: usize = 16;
const SECTION_ENTRY_LEN: usize = 32;
/// The block count before the block table, and after it the header's CRC
/// and a reserved field.
const HEADER_TRAILER_LEN: usize = 12;
const COLUMN_TABLE_HEADER_LEN: usize = 8;
const COLUMN_ENTRY_LEN: usize = 16;

/// The sections a wordhoard index can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionId {
    /// Metadata ([`Metadata`]).
    Meta,
    /// FST word -> word id, ids in sorted order.
    Words,
    /// Column table: every word's letters in id order, so an id turns
    /// into its word without a walk of the FST (optional).
    WordText,
    /// Column table: the word ids in the order of their last four
    /// letters, so the words with an ending are a few runs of it
    /// (optional).
    Endings,
    /// Column table: every word with no letter twice in a row, with its
    /// id, in groups by its lowest letters ([`group_key`]), so the words
    /// whose letters all lie in a set are in a few groups, found by their
    /// keys' ranks ([`GroupRanks::rank`]) (optional). Code 8 held an earlier
    /// layout, no longer read.
    LetterGroups,
    /// Column table: the common flag per word.
    Common,
    /// Column table: Spelling Bee letter sets.
    Lettersets,
    /// Column table: Spelling Bee honeycombs.
    Honeycombs,
    /// Column table: the same, counting only common words.
    CommonHoneycombs,
    /// Column table: anagram terms.
    Terms,
    /// Column table: the add-one-letter graph between terms.
    Chains,
    /// Column table: what the build did with capitalised words (only
    /// when the lists had some; see [`ProperNouns`]).
    ProperNouns,
    /// Column table: how the lists spelled words that were folded (only
    /// on an index that folds accents).
    Spellings,
}
impl SectionId {
    /// Every known section, in the order the builder writes them.
    pub const ALL: [SectionId; 13] = [
        SectionId::Meta,
        SectionId::Words,
        SectionId::WordText,
        SectionId::Endings,
        SectionId::LetterGroups,
        SectionId::Common,
        SectionId::Lettersets,
        SectionId::Honeycombs,
        SectionId::CommonHoneycombs,
        SectionId::Terms,
        SectionId::Chains,
        SectionId::ProperNouns,
        SectionId::Spellings,
    ];

    /// The number written in the section table.
    pub fn code(self) -> u32 {
        match self {
            SectionId::Meta => 1,
            SectionId::Words => 2,
            SectionId::WordText => 6,
            SectionId::Endings => 7,
            SectionId::LetterGroups => 9,
            SectionId::Common => 3,
            SectionId::Lettersets => 16,
            SectionId::Honeycombs => 17,
            SectionId::CommonHoneycombs => 18,
            SectionId::Terms => 32,
            SectionId::Chains => 33,
            SectionId::ProperNouns => 4,
            SectionId::Spellings => 5,
        }
    }

    /// The section for a table code, if this build knows it.
    pub fn from_code(code: u32) -> Option<SectionId> {
        SectionId::ALL.into_iter().find(|id| id.code() == code)
    }

    /// An error for damage found in this section.
    pub(crate) fn corrupt(self, problem: impl Into<String>) -> Error {
        Error::corrupt_in(self.name(), problem)
    }

    /// The section's name, as shown to users.
    pub fn name(self) -> &'static str {
        match self {
            SectionId::Meta => "meta",
            SectionId::Words => "words",
            SectionId::WordText => "word_text",
            SectionId::Endings => "endings",
            SectionId::LetterGroups => "letter_groups",
            SectionId::Common => "common",
            SectionId::Lettersets => "lettersets",
            SectionId::Honeycombs => "honeycombs",
            SectionId::CommonHoneycombs => "common_honeycombs",
            SectionId::Terms => "terms",
            SectionId::Chains => "chains",
            SectionId::ProperNouns => "proper_nouns",
            SectionId::Spellings => "spellings",
        }
    }
}

/// One entry of the section table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionEntry {
    /// The raw id (known or not).
    pub code: u32,
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// CRC-32 of the section's bytes.
    pub crc: u32,
    /// Where the section's block checksums start in the header's block
    /// table ([`Header::block_crcs`]).
    pub first_block: usize,
}

impl SectionEntry {
    /// The byte range of the section in the file.
    pub fn range(&self) -> std::ops::Range<usize> {
        // Bounds were checked against the file length by `Header::parse`.
        self.offset as usize..(self.offset + self.len) as usize
    }

    /// The section's name (`section-N` for an id this build does not know).
    pub fn name(&self) -> String {
        SectionId::from_code(self.code)
            .map(|id| id.name().to_string())
            .unwrap_or_else(|| format!("section-{}", self.code))
    }
}

/// The parsed, validated header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version.
    pub version: u32,
    /// The section table, in file order.
    pub sections: Vec<SectionEntry>,
    /// The CRC-32 of every block ([`blocks::BLOCK_LEN`] bytes) of every
    /// section, section after section in table order.
    pub block_crcs: Vec<u32>,
}

impl Header {
    /// Parses and validates the header against the whole file's bytes:
    /// magic, version, header checksum, and every section's bounds,
    /// alignment and non-overlap. Never panics.
    pub fn parse(file: &[u8]) -> Result<Header> {
        if file.is_empty() {
            return Err(Error::corrupt("the file is empty"));
        }
        if file.len() < MAGIC.len() || file[..MAGIC.len()] != MAGIC {
            return Err(Error::new(ErrorKind::NotAnIndex));
        }
        let version = read_u32(file, 8).ok_or_else(|| Error::corrupt("header is truncated"))?;
        if version > FORMAT_VERSION {
            return Err(Error::new(ErrorKind::NewerVersion { found: version, supported: FORMAT_VERSION }));
        }
        if version < FORMAT_VERSION {
            return Err(Error::new(ErrorKind::OlderVersion { found: version, supported: FORMAT_VERSION }));
        }
        let count = read_u32(file, 12).ok_or_else(|| Error::corrupt("header is truncated"))? as usize;
        if count > MAX_SECTIONS {
            return Err(Error::corrupt(format!("section count {count} is over {MAX_SECTIONS}")));
        }
        let table_end = FIXED_HEADER_LEN + count * SECTION_ENTRY_LEN;
        let truncated = || Error::corrupt("header is truncated");
        // The block count is bounded by the file's length before the table
        // is read: four bytes a block.
        let blocks = read_u32(file, table_end).ok_or_else(truncated)? as usize;
        let crcs_end = blocks.checked_mul(4).and_then(|n| n.checked_add(table_end + 4));
        let crcs_end = crcs_end.filter(|&end| end <= file.len()).ok_or_else(truncated)?;
        let header_crc = read_u32(file, crcs_end).ok_or_else(truncated)?;
        if crc32fast::hash(&file[..crcs_end]) != header_crc {
            return Err(Error::corrupt("header fails its checksum"));
        }
        if read_u32(file, crcs_end + 4) != Some(0) {
            return Err(Error::corrupt("header is truncated or its reserved field is not zero"));
        }
        let header_end = (table_end + HEADER_TRAILER_LEN + 4 * blocks) as u64;
        let mut first_block = 0;
        let mut sections = Vec::with_capacity(count);
        for i in 0..count {
            let entry = parse_entry(file, FIXED_HEADER_LEN + i * SECTION_ENTRY_LEN, header_end, first_block)?;
            // Lengths are within the file, so the sum stays small.
            first_block += blocks::block_count(entry.len) as usize;
            sections.push(entry);
        }
        if first_block != blocks {
            return Err(Error::corrupt("header's block count does not match its sections' lengths"));
        }
        check_layout(file, &sections, header_end as usize)?;
        let block_crcs = file[table_end + 4..crcs_end].chunks_exact(4).map(le_u32).collect();
        Ok(Header { version, sections, block_crcs })
    }

    /// The block checksums of a section of this header.
    pub fn block_crcs_of(&self, entry: &SectionEntry) -> &[u32] {
        let blocks = blocks::block_count(entry.len) as usize;
        self.block_crcs.get(entry.first_block..entry.first_block + blocks).unwrap_or_default()
    }

    /// The table entry for a known section, if present.
    pub fn entry(&self, id: SectionId) -> Option<&SectionEntry> {
        self.sections.iter().find(|s| s.code == id.code())
    }
}

fn parse_entry(file: &[u8], at: usize, header_end: u64, first_block: usize) -> Result<SectionEntry> {
    let truncated = || Error::corrupt("section table is truncated");
    let entry = SectionEntry {
        code: read_u32(file, at).ok_or_else(truncated)?,
        offset: read_u64(file, at + 8).ok_or_else(truncated)?,
        len: read_u64(file, at + 16).ok_or_else(truncated)?,
        crc: read_u32(file, at + 24).ok_or_else(truncated)?,
        first_block,
    };
    let name = entry.name();
    if entry.offset % 8 != 0 {
        return Err(Error::corrupt(format!("section `{name}` is not 8-byte aligned")));
    }
    if entry.offset < header_end {
        return Err(Error::corrupt(format!("section `{name}` overlaps the header")));
    }
    match entry.offset.checked_add(entry.len) {
        Some(end) if end <= file.len() as u64 => Ok(entry),
        _ => Err(Error::corrupt(format!("section `{name}` ends past the end of the file (truncated?)"))),
    }
}

/// Sections may not overlap; what lies between them is short zero padding;
/// nothing follows the last one.
fn check_layout(file: &[u8], sections: &[SectionEntry], header_end: usize) -> Result<()> {
    let mut sorted: Vec<&SectionEntry> = sections.iter().collect();
    sorted.sort_by_key(|s| s.offset);
    let mut cursor = header_end;
    let mut previous = "the header".to_string();
    for s in sorted {
        let start = s.offset as usize;
        if start < cursor {
            return Err(Error::corrupt(format!("sections {previous} and `{}` overlap", s.name())));
        }
        if start - cursor >= 8 || file[cursor..start].iter().any(|&b| b != 0) {
            return Err(Error::corrupt(format!("the padding before section `{}` is not zero padding", s.name())));
        }
        cursor = start + s.len as usize;
        previous = format!("`{}`", s.name());
    }
    if align8(cursor) < file.len() || file[cursor..].iter().any(|&b| b != 0) {
        return Err(Error::corrupt("the file has bytes after its last section"));
    }
    let mut codes: Vec<u32> = sections.iter().map(|s| s.code).collect();
    codes.sort_unstable();
    if codes.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::corrupt("a section appears twice"));
    }
    Ok(())
}

/// Rounds up to a multiple of 8.
pub fn align8(n: usize) -> usize {
    (n + 7) & !7
}

/// Reads a little-endian `u32` at `at`, if in bounds.
#[inline]
pub fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(le_u32(b))
}

/// A 4-byte chunk as a little-endian `u32`, in one load (building the
/// array byte by byte did not compile to one). For loops that checked
/// their bounds once, over `chunks_exact(4)`.
#[inline]
pub fn le_u32(chunk: &[u8]) -> u32 {
    u32::from_le_bytes(chunk.try_into().expect("a chunk of 4 bytes"))
}

/// Reads a little-endian `u64` at `at`, if in bounds.
#[inline]
pub fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

#[cfg(all(test, feature = "write"))]
mod tests {
    use super::*;

    fn two_sections() -> Vec<u8> {
        let mut w = FileWriter::new();
        w.add(SectionId::Meta, vec![1, 2, 3]).add_raw(999, vec![9; 10]);
        w.finish()
    }

    /// FORMAT.md's examples; against a plain count of the lowest set
    /// letters on random sets, the highest letters of a 64-letter
    /// alphabet too.
    #[test]
    fn group_keys_are_the_lowest_letters() {
        let latin = crate::Alphabet::latin();
        let set = |word: &str| latin.set_of(word.as_bytes()).unwrap();
        assert_eq!(group_key(set("abolished"), 5), set("abdeh"));
        assert_eq!(group_key(set("abolished"), 6), set("abdehi"));
        assert_eq!(group_key(set("box"), 5), set("box"));
        assert_eq!(group_key(LetterSet::EMPTY, 5), LetterSet::EMPTY);
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..1000 {
            let bits = rng.next_u64() & rng.next_u64();
            let letters = rng.below(GROUP_KEY_MOST as u64 + 1) as usize;
            let lowest: Vec<usize> = (0..64).filter(|i| bits >> i & 1 == 1).take(letters).collect();
            let want = lowest.iter().fold(0u64, |key, i| key | 1 << i);
            assert_eq!(group_key(LetterSet(bits), letters), LetterSet(want), "{bits:#x}");
        }
    }

    /// Every set of at most k letters of n has its own rank, the ranks
    /// fill 0 to the group count, and they follow the order FORMAT.md
    /// gives: fewer letters first, then colexicographic (as the sets'
    /// bits compare as numbers).
    #[test]
    fn group_ranks_number_every_small_set_in_order() {
        let ranks = GroupRanks::new();
        for (n, k) in [(1, 1), (5, 2), (9, 4), (12, 8), (26, 3)] {
            let mut sets: Vec<u64> = (0u64..1 << n).filter(|s| s.count_ones() as usize <= k).collect();
            sets.sort_by_key(|&s| (s.count_ones(), s));
            assert_eq!(sets.len() as u64, group_count(n, k), "{n} letters, keys of {k}");
            for (want, &set) in sets.iter().enumerate() {
                assert_eq!(ranks.rank(LetterSet(set), n), want as u64, "{set:#b} of {n}");
            }
        }
        // FORMAT.md: over 26 letters, keys of up to 6 letters.
        assert_eq!(group_count(26, 6), 313_912);
        assert_eq!(ranks.rank(LetterSet(0b1), 26), 1);
        assert_eq!(ranks.rank(LetterSet(0b10), 26), 2);
        assert_eq!(ranks.rank(LetterSet(0b11), 26), 1 + 26);
        assert_eq!(ranks.rank(LetterSet(1 << 63 | 1 << 62), 64), group_count(64, 2) - 1);
        assert_eq!(group_count(64, GROUP_KEY_MOST), (0..=8).map(|j| ranks.choose(64, j)).sum::<u64>());
        assert_eq!(ranks.choose(64, 8), 4_426_165_368);
        assert_eq!((ranks.choose(5, 6), ranks.choose(65, 1)), (0, 0), "past the table");
    }

    #[test]
    fn words_with_a_letter_twice_in_a_row_fit_no_box() {
        assert!(fits_some_box(b"gracious") && fits_some_box(b"a") && fits_some_box(b""));
        assert!(fits_some_box(b"sharply"));
        assert!(!fits_some_box(b"letter") && !fits_some_box(b"aa"));
    }

    /// FORMAT.md's examples; a shorter word sorts before the longer ones
    /// that end with it, and the last letter counts most.
    #[test]
    fn ending_keys_read_words_from_the_end() {
        assert_eq!(ending_key(b"ing"), 0x686F_6A00);
        assert_eq!(ending_key(b"sting"), 0x686F_6A75);
        assert_eq!(ending_key(b"stinging"), 0x686F_6A68);
        assert_eq!(ending_key(b""), 0);
        assert!(ending_key(b"ing") < ending_key(b"sing") && ending_key(b"sing") < ending_key(b"ah"));
        // Codes outside ASCII stop at 0xBF: plus 1, still a byte.
        assert_eq!(ending_key(&[0xBF]), 0xC000_0000);
    }

    #[test]
    fn header_round_trips() {
        let file = two_sections();
        let h = Header::parse(&file).unwrap();
        assert_eq!(h.version, FORMAT_VERSION);
        assert_eq!(h.sections.len(), 2);
        let meta = h.entry(SectionId::Meta).unwrap();
        assert_eq!(&file[meta.range()], &[1, 2, 3]);
        assert_eq!(h.sections[1].name(), "section-999");
        assert!(h.sections.iter().all(|s| s.offset % 8 == 0));
    }

    #[test]
    fn sections_placed_with_their_header_make_the_same_file() {
        // What a writer that places sections itself produces, with one
        // section in pieces (a column table's).
        let mut w = FileWriter::new();
        w.add(SectionId::Meta, vec![1, 2, 3]).add_raw(999, vec![9; 10]).add(SectionId::Words, vec![]);
        w.add(SectionId::Common, vec![4; 17]);
        let mut columns = ColumnsWriter::new();
        columns.bytes(vec![5; 3]).u32s(&[6, 7, 8]).bytes(vec![]).u64s(&[9]);
        w.add(SectionId::Lettersets, columns.take_payload());
        let mut file = vec![0u8; w.file_len()];
        let checksums: Vec<SectionSums> =
            w.placements().iter().map(|(_, payload)| SectionSums::of_payload(payload)).collect();
        for (at, payload) in w.placements() {
            file[at..at + payload.len()].copy_from_slice(&payload.to_vec());
        }
        let header = w.layout().header_with(&checksums);
        file[..header.len()].copy_from_slice(&header);
        assert_eq!(file, w.finish());
        // The same with the pieces moved out, as the builder writes them.
        let (layout, whole) = (w.layout(), w.finish());
        let mut moved = vec![0u8; layout.file_len()];
        for (mut at, payload) in w.into_placements() {
            for piece in payload.into_pieces() {
                moved[at..at + piece.len()].copy_from_slice(&piece);
                at += piece.len();
            }
        }
        moved[..header.len()].copy_from_slice(&layout.header_with(&checksums));
        assert_eq!(moved, whole);
    }

    #[test]
    fn a_column_table_in_pieces_is_the_table_in_one_buffer() {
        let mut columns = ColumnsWriter::new();
        columns.bytes(vec![1; 5]).bytes(vec![]).u32s(&[2, 3]).bytes(vec![4; 9]).u64s(&[5]);
        let whole = columns.finish();
        let payload = columns.take_payload();
        assert_eq!(payload.len(), whole.len());
        assert_eq!(payload.to_vec(), whole);
        assert_eq!(SectionSums::of_payload(&payload), SectionSums::of(&whole));
        // Taken, the writer is an empty table.
        assert_eq!(columns.finish(), ColumnsWriter::new().finish());
    }
}

/// What the build did with words that have a capital letter (section
/// `proper_nouns`): one `u64[4]` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProperNouns {
    /// True when they were skipped as proper nouns, false when lowercased
    /// and kept.
    pub skipped: bool,
    /// True when the build's rule decided (at least 3 in 4 words
    /// lowercase), false when `--proper-nouns` did.
    pub auto: bool,
    /// Words with a capital letter in the lists.
    pub capitalised: u64,
    /// Words in the lists (lines that are letters only).
    pub words: u64,
}

impl ProperNouns {
    /// Decodes the section's one column: `[policy, auto, capitalised,
    /// words]`, policy 1 for skipped and 2 for kept, auto 0 or 1.
    pub fn decode(columns: &Columns) -> Result<ProperNouns> {
        let values = columns.u64s(0)?.checked()?;
        let bad = |what: &str| SectionId::ProperNouns.corrupt(what.to_string());
        if values.len() != 4 {
            return Err(bad("does not hold 4 numbers"));
        }
        let skipped = match values.get(0) {
            Some(1) => true,
            Some(2) => false,
            _ => return Err(bad("has a policy other than 1 (skipped) or 2 (kept)")),
        };
        let auto = match values.get(1) {
            Some(0) => false,
            Some(1) => true,
            _ => return Err(bad("has an auto flag other than 0 or 1")),
        };
        let (capitalised, words) = (values.get(2).unwrap_or(0), values.get(3).unwrap_or(0));
        if capitalised > words {
            return Err(bad("counts more capitalised words than words"));
        }
        Ok(ProperNouns { skipped, auto, capitalised, words })
    }

    /// The section's bytes.
    #[cfg(feature = "write")]
    pub fn encode(&self) -> Vec<u8> {
        let policy = if self.skipped { 1 } else { 2 };
        ColumnsWriter::new().u64s(&[policy, self.auto as u64, self.capitalised, self.words]).finish()
    }
}
