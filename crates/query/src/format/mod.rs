//! The on-disk format, byte by byte. Readers and the builder both go
//! through the types here, so the layout is written down exactly once.
//!
//! All integers are little-endian. A file is:
//!
//! ```text
//! offset        size    field
//! 0             8       MAGIC
//! 8             4       format version (FORMAT_VERSION)
//! 12            4       section count n (at most MAX_SECTIONS)
//! 16            32 * n  section table, one entry per section:
//!                         0  u32 section id (SectionId)
//!                         4  u32 reserved, 0
//!                         8  u64 offset of the section from the file start
//!                        16  u64 length in bytes
//!                        24  u32 CRC-32 (IEEE) of the section's bytes
//!                        28  u32 reserved, 0
//! 16 + 32n      4       CRC-32 of bytes [0, 16 + 32n)
//! 20 + 32n      4       reserved, 0
//! ...                   sections, each starting at a multiple of 8, never
//!                       overlapping; only zero padding (under 8 bytes) between
//!                       them, and the file ends where the last one ends
//! ```
//!
//! So every byte is covered: the header by its CRC, each section by its own,
//! and the padding by the rule that it is zero.
//!
//! Readers skip sections whose id they do not know, so a section can be
//! added without changing this header. Section contents:
//!
//! * `meta`: bincode (standard config) of [`Metadata`].
//! * `words`, and the FSTs inside other sections: `fst` crate bytes.
//! * every other section is a *column table*:
//!
//! ```text
//! 0       4       column count c
//! 4       4       reserved, 0
//! 8       16 * c  per column: u64 offset from the section start, u64 length
//! ...             column bytes, each starting at a multiple of 8
//! ```
//!
//! A column is an array of `u8`, `u32` or `u64`, or embedded FST bytes; the
//! module that owns a section documents what each column holds.

pub mod fst;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// The first eight bytes of every index file. The high first byte and the
/// CR LF catch files mangled by text-mode transfers, as PNG's magic does.
pub const MAGIC: [u8; 8] = [0x89, b'H', b'O', b'A', b'R', b'D', b'\r', b'\n'];

/// The format version this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

/// A sanity limit on the section count, so a damaged count cannot make a
/// reader allocate or scan much.
pub const MAX_SECTIONS: usize = 256;

/// The longest word an index holds, in letters (term lengths are stored
/// as `u8`); the builder skips longer lines.
pub const MAX_WORD_LEN: usize = 255;

/// The largest metadata block a reader decodes.
pub const MAX_METADATA_BYTES: usize = 1 << 20;

const FIXED_HEADER_LEN: usize = 16;
const SECTION_ENTRY_LEN: usize = 32;
const HEADER_TRAILER_LEN: usize = 8;
const COLUMN_TABLE_HEADER_LEN: usize = 8;
const COLUMN_ENTRY_LEN: usize = 16;

/// The sections a wordhoard index can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionId {
    /// Metadata (bincode).
    Meta,
    /// `fst::Map` word -> word id, ids in sorted order.
    Words,
    /// Column table: the common flag per word.
    Common,
    /// Column table: Spelling Bee letter sets (see `bee`).
    Lettersets,
    /// Column table: Spelling Bee honeycombs (see `bee`).
    Honeycombs,
    /// Column table: the same, counting only common words (see `bee`).
    CommonHoneycombs,
    /// Column table: anagram terms (see `anigram`).
    Terms,
    /// Column table: the add-one-letter graph between terms (see `anigram`).
    Chains,
}

impl SectionId {
    /// Every known section, in the order the builder writes them.
    pub const ALL: [SectionId; 8] = [
        SectionId::Meta,
        SectionId::Words,
        SectionId::Common,
        SectionId::Lettersets,
        SectionId::Honeycombs,
        SectionId::CommonHoneycombs,
        SectionId::Terms,
        SectionId::Chains,
    ];

    /// The number written in the section table.
    pub fn code(self) -> u32 {
        match self {
            SectionId::Meta => 1,
            SectionId::Words => 2,
            SectionId::Common => 3,
            SectionId::Lettersets => 16,
            SectionId::Honeycombs => 17,
            SectionId::CommonHoneycombs => 18,
            SectionId::Terms => 32,
            SectionId::Chains => 33,
        }
    }

    /// The section for a table code, if this build knows it.
    pub fn from_code(code: u32) -> Option<SectionId> {
        SectionId::ALL.into_iter().find(|id| id.code() == code)
    }

    /// The section's name, as shown to users.
    pub fn name(self) -> &'static str {
        match self {
            SectionId::Meta => "meta",
            SectionId::Words => "words",
            SectionId::Common => "common",
            SectionId::Lettersets => "lettersets",
            SectionId::Honeycombs => "honeycombs",
            SectionId::CommonHoneycombs => "common_honeycombs",
            SectionId::Terms => "terms",
            SectionId::Chains => "chains",
        }
    }
}

/// The metadata block (section `meta`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// A short name for the index (`enable1`).
    pub name: String,
    /// The word-list files it was built from (`-` for stdin).
    pub sources: Vec<String>,
    /// SHA-256 (hex) of the source bytes, in the order given.
    pub source_sha256: String,
    /// Distinct words kept.
    pub word_count: u64,
    /// Lines read from the sources.
    pub lines_read: u64,
    /// Lines skipped (empty, or a character outside the alphabet).
    pub lines_skipped: u64,
    /// The alphabet, its letters in order.
    pub alphabet: String,
    /// The common list, if one was given.
    pub common_source: Option<String>,
    /// Words flagged common.
    pub common_count: u64,
    /// `wordhoard-builder` version that wrote the file.
    pub tool_version: String,
    /// Build time, seconds since the Unix epoch.
    pub built_at_unix: u64,
}

impl Metadata {
    /// Encodes the metadata for the `meta` section.
    pub fn encode(&self) -> Vec<u8> {
        bincode::serde::encode_to_vec(self, bincode::config::standard()).expect("metadata encodes to a Vec")
    }

    /// Decodes the `meta` section, bounded by its length.
    pub fn decode(bytes: &[u8]) -> Result<Metadata> {
        if bytes.len() > MAX_METADATA_BYTES {
            return Err(Error::corrupt("metadata block is too large"));
        }
        let config = bincode::config::standard().with_limit::<MAX_METADATA_BYTES>();
        match bincode::serde::decode_from_slice(bytes, config) {
            Ok((meta, used)) if used == bytes.len() => Ok(meta),
            Ok(_) => Err(Error::corrupt("metadata block has trailing bytes")),
            Err(e) => Err(Error::corrupt(format!("metadata block does not decode ({e})"))),
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
        if version != FORMAT_VERSION {
            return Err(Error::corrupt(format!("unknown format version {version}")));
        }
        let count = read_u32(file, 12).ok_or_else(|| Error::corrupt("header is truncated"))? as usize;
        if count > MAX_SECTIONS {
            return Err(Error::corrupt(format!("section count {count} is over {MAX_SECTIONS}")));
        }
        let table_end = FIXED_HEADER_LEN + count * SECTION_ENTRY_LEN;
        let header_crc = read_u32(file, table_end).ok_or_else(|| Error::corrupt("header is truncated"))?;
        if crc32fast::hash(&file[..table_end]) != header_crc {
            return Err(Error::corrupt("header fails its checksum"));
        }
        if read_u32(file, table_end + 4) != Some(0) {
            return Err(Error::corrupt("header is truncated or its reserved field is not zero"));
        }
        let header_end = (table_end + HEADER_TRAILER_LEN) as u64;
        let sections = (0..count)
            .map(|i| parse_entry(file, FIXED_HEADER_LEN + i * SECTION_ENTRY_LEN, header_end))
            .collect::<Result<Vec<_>>>()?;
        check_layout(file, &sections, header_end as usize)?;
        Ok(Header { version, sections })
    }

    /// The table entry for a known section, if present.
    pub fn entry(&self, id: SectionId) -> Option<&SectionEntry> {
        self.sections.iter().find(|s| s.code == id.code())
    }
}

fn parse_entry(file: &[u8], at: usize, header_end: u64) -> Result<SectionEntry> {
    let truncated = || Error::corrupt("section table is truncated");
    let entry = SectionEntry {
        code: read_u32(file, at).ok_or_else(truncated)?,
        offset: read_u64(file, at + 8).ok_or_else(truncated)?,
        len: read_u64(file, at + 16).ok_or_else(truncated)?,
        crc: read_u32(file, at + 24).ok_or_else(truncated)?,
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

/// Assembles a file from section payloads: the one writer of the header.
#[derive(Default)]
pub struct FileWriter {
    sections: Vec<(u32, Vec<u8>)>,
}

impl FileWriter {
    /// An empty file.
    pub fn new() -> FileWriter {
        FileWriter::default()
    }

    /// Adds a section; sections are laid out in the order added.
    pub fn add(&mut self, id: SectionId, payload: Vec<u8>) -> &mut Self {
        self.add_raw(id.code(), payload)
    }

    /// Adds a section by raw code (tests use this for unknown sections).
    pub fn add_raw(&mut self, code: u32, payload: Vec<u8>) -> &mut Self {
        self.sections.push((code, payload));
        self
    }

    /// The sizes of the sections added so far, by code.
    pub fn section_sizes(&self) -> Vec<(u32, usize)> {
        self.sections.iter().map(|(c, p)| (*c, p.len())).collect()
    }

    /// The file's size in bytes.
    pub fn file_len(&self) -> usize {
        let header = FIXED_HEADER_LEN + self.sections.len() * SECTION_ENTRY_LEN + HEADER_TRAILER_LEN;
        self.sections.iter().fold(header, |end, (_, payload)| align8(end) + payload.len())
    }

    /// Each section's place in the file and its bytes, in order; between
    /// them, under 8 bytes of zeros.
    pub fn placements(&self) -> Vec<(usize, &[u8])> {
        let mut at = FIXED_HEADER_LEN + self.sections.len() * SECTION_ENTRY_LEN + HEADER_TRAILER_LEN;
        let mut out = Vec::with_capacity(self.sections.len());
        for (_, payload) in &self.sections {
            at = align8(at);
            out.push((at, payload.as_slice()));
            at += payload.len();
        }
        out
    }

    /// The header: magic, version, the section table with each section's
    /// checksum, and the header's own checksum.
    fn header(&self) -> Vec<u8> {
        let checksums: Vec<u32> = self.sections.iter().map(|(_, payload)| crc32fast::hash(payload)).collect();
        self.header_with(&checksums)
    }

    /// The header, given each section's CRC-32 in order (as a writer that
    /// computes them as it writes has them).
    pub fn header_with(&self, checksums: &[u32]) -> Vec<u8> {
        assert_eq!(checksums.len(), self.sections.len(), "a checksum per section");
        let n = self.sections.len();
        let table_end = FIXED_HEADER_LEN + n * SECTION_ENTRY_LEN;
        let mut offset = align8(table_end + HEADER_TRAILER_LEN);
        let mut out = Vec::with_capacity(table_end + HEADER_TRAILER_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for ((code, payload), crc) in self.sections.iter().zip(checksums) {
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
            out.extend_from_slice(&(offset as u64).to_le_bytes());
            out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
            out.extend_from_slice(&crc.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
            offset = align8(offset + payload.len());
        }
        let header_crc = crc32fast::hash(&out);
        out.extend_from_slice(&header_crc.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out
    }

    /// Writes the file: the header, then each section after zero padding
    /// to 8 bytes. Streams the sections as they are, with no copy.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let header = self.header();
        out.write_all(&header)?;
        let mut at = header.len();
        for (_, payload) in &self.sections {
            out.write_all(&[0u8; 8][..align8(at) - at])?;
            out.write_all(payload)?;
            at = align8(at) + payload.len();
        }
        Ok(())
    }

    /// The whole file in one buffer.
    pub fn finish(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.file_len());
        self.write_to(&mut out).expect("writing to a Vec cannot fail");
        out
    }
}

/// Builds a column table (see the module docs).
#[derive(Default)]
pub struct ColumnsWriter {
    columns: Vec<Vec<u8>>,
}

impl ColumnsWriter {
    /// An empty table.
    pub fn new() -> ColumnsWriter {
        ColumnsWriter::default()
    }

    /// Adds a column of raw bytes (also used for embedded FSTs).
    pub fn bytes(&mut self, column: Vec<u8>) -> &mut Self {
        self.columns.push(column);
        self
    }

    /// Adds a column of `u32`s.
    pub fn u32s(&mut self, values: &[u32]) -> &mut Self {
        self.bytes(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// Adds a column of `u64`s.
    pub fn u64s(&mut self, values: &[u64]) -> &mut Self {
        self.bytes(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// Encodes the table.
    pub fn finish(&self) -> Vec<u8> {
        let c = self.columns.len();
        let mut offset = align8(COLUMN_TABLE_HEADER_LEN + c * COLUMN_ENTRY_LEN);
        let mut out = Vec::new();
        out.extend_from_slice(&(c as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for column in &self.columns {
            out.extend_from_slice(&(offset as u64).to_le_bytes());
            out.extend_from_slice(&(column.len() as u64).to_le_bytes());
            offset = align8(offset + column.len());
        }
        for column in &self.columns {
            out.resize(align8(out.len()), 0);
            out.extend_from_slice(column);
        }
        out
    }
}

/// A parsed column table over a section's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Columns<'a> {
    section: &'static str,
    bytes: &'a [u8],
    count: usize,
}

impl<'a> Columns<'a> {
    /// Parses a column table, checking every column's bounds and alignment.
    pub fn parse(section: SectionId, bytes: &'a [u8]) -> Result<Columns<'a>> {
        let name = section.name();
        let count =
            read_u32(bytes, 0).ok_or_else(|| Error::corrupt(format!("section `{name}` is truncated")))? as usize;
        let table = Columns { section: name, bytes, count };
        let entries_end = count
            .checked_mul(COLUMN_ENTRY_LEN)
            .and_then(|n| n.checked_add(COLUMN_TABLE_HEADER_LEN))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| Error::corrupt(format!("section `{name}` has a bad column count")))?;
        for i in 0..count {
            let (offset, len) = table.entry(i).expect("entry within table");
            let end = offset.checked_add(len);
            if offset % 8 != 0 || offset < entries_end as u64 || end.is_none_or(|e| e > bytes.len() as u64) {
                return Err(Error::corrupt(format!("section `{name}` column {i} is out of bounds")));
            }
        }
        Ok(table)
    }

    fn entry(&self, i: usize) -> Option<(u64, u64)> {
        let at = COLUMN_TABLE_HEADER_LEN + i * COLUMN_ENTRY_LEN;
        Some((read_u64(self.bytes, at)?, read_u64(self.bytes, at + 8)?))
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when the table has no columns.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Column `i` as raw bytes.
    pub fn bytes(&self, i: usize) -> Result<&'a [u8]> {
        if i >= self.count {
            return Err(Error::corrupt(format!("section `{}` lacks column {i}", self.section)));
        }
        let (offset, len) = self.entry(i).expect("validated by parse");
        Ok(&self.bytes[offset as usize..(offset + len) as usize])
    }

    /// Column `i` as `u32`s.
    pub fn u32s(&self, i: usize) -> Result<U32s<'a>> {
        let bytes = self.bytes(i)?;
        if bytes.len() % 4 != 0 {
            return Err(Error::corrupt(format!("section `{}` column {i} is not u32s", self.section)));
        }
        Ok(U32s(bytes))
    }

    /// Column `i` as `u64`s.
    pub fn u64s(&self, i: usize) -> Result<U64s<'a>> {
        let bytes = self.bytes(i)?;
        if bytes.len() % 8 != 0 {
            return Err(Error::corrupt(format!("section `{}` column {i} is not u64s", self.section)));
        }
        Ok(U64s(bytes))
    }

    /// An error for this section, for callers' structural checks.
    pub fn corrupt(&self, what: &str) -> Error {
        Error::corrupt(format!("section `{}` {what}", self.section))
    }
}

/// A little-endian `u32` array view over bytes; indexing is checked.
#[derive(Clone, Copy, Debug)]
pub struct U32s<'a>(&'a [u8]);

impl<'a> U32s<'a> {
    /// The values' bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Value `i`, if in bounds.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        read_u32(self.0, i.checked_mul(4)?)
    }

    /// Value `i` as a `usize`, or a corruption error naming `what`.
    #[inline]
    pub fn at(&self, i: usize) -> Result<usize> {
        self.get(i).map(|v| v as usize).ok_or_else(|| Error::corrupt("a table index is out of bounds"))
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.0.chunks_exact(4).map(le_u32)
    }

    /// Values `range` as a view of their own: bounds checked once, for a
    /// loop over them.
    #[inline]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Result<U32s<'a>> {
        let bytes = range.start.checked_mul(4).zip(range.end.checked_mul(4)).and_then(|(a, b)| self.0.get(a..b));
        bytes.map(U32s).ok_or_else(|| Error::corrupt("a table index is out of bounds"))
    }

    /// Binary search for a value in a column sorted ascending.
    pub fn binary_search(&self, value: u32) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid)?.cmp(&value) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The largest value, if any: a whole-column bounds check in one pass
    /// the compiler can vectorise.
    pub fn max(&self) -> Option<u32> {
        (!self.is_empty()).then(|| self.iter().fold(0, u32::max))
    }

    /// True when the values ascend, strictly with `strict`: one pass with
    /// no early exit, as a check of a whole column expects them to.
    pub fn ascends(&self, strict: bool) -> bool {
        let mut values = self.iter();
        let Some(first) = values.next() else { return true };
        let (_, ok) = values.fold((first, true), |(prev, ok), v| (v, ok & (v > prev || (!strict && v == prev))));
        ok
    }

    /// Checks a whole offsets column at once: ascending, ending at `len`
    /// (the length of the table it points into). After this, every
    /// [`U32s::range`] of it is in bounds.
    pub fn check_offsets(&self, len: usize) -> Result<()> {
        if self.is_empty() || !self.ascends(false) || self.get(self.len() - 1) != Some(len as u32) {
            return Err(Error::corrupt("an offsets column is not ascending or does not end at its table"));
        }
        Ok(())
    }

    /// Values `[start, end)` of a column of offsets into another table:
    /// the range `offsets[i]..offsets[i + 1]`, checked to be ordered.
    pub fn range(&self, i: usize) -> Result<std::ops::Range<usize>> {
        let (start, end) = (self.at(i)?, self.at(i + 1)?);
        if start > end {
            return Err(Error::corrupt("an offsets column is not ascending"));
        }
        Ok(start..end)
    }
}

/// A little-endian `u64` array view over bytes; indexing is checked.
#[derive(Clone, Copy, Debug)]
pub struct U64s<'a>(&'a [u8]);

impl U64s<'_> {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.0.len() / 8
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Value `i`, if in bounds.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u64> {
        read_u64(self.0, i.checked_mul(8)?)
    }

    /// Value `i`, or a corruption error.
    pub fn at(&self, i: usize) -> Result<u64> {
        self.get(i).ok_or_else(|| Error::corrupt("a table index is out of bounds"))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn two_sections() -> Vec<u8> {
        let mut w = FileWriter::new();
        w.add(SectionId::Meta, vec![1, 2, 3]).add_raw(999, vec![9; 10]);
        w.finish()
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
        // What a writer that places sections itself produces.
        let mut w = FileWriter::new();
        w.add(SectionId::Meta, vec![1, 2, 3]).add_raw(999, vec![9; 10]).add(SectionId::Words, vec![]);
        w.add(SectionId::Common, vec![4; 17]);
        let mut file = vec![0u8; w.file_len()];
        let checksums: Vec<u32> = w.placements().iter().map(|(_, bytes)| crc32fast::hash(bytes)).collect();
        for (at, bytes) in w.placements() {
            file[at..at + bytes.len()].copy_from_slice(bytes);
        }
        let header = w.header_with(&checksums);
        file[..header.len()].copy_from_slice(&header);
        assert_eq!(file, w.finish());
    }

    #[test]
    fn columns_round_trip() {
        let mut w = ColumnsWriter::new();
        w.u32s(&[1, 5, 9]).u64s(&[u64::MAX]).bytes(vec![7; 3]);
        let bytes = w.finish();
        let cols = Columns::parse(SectionId::Lettersets, &bytes).unwrap();
        assert_eq!(cols.len(), 3);
        let a = cols.u32s(0).unwrap();
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 5, 9]);
        assert_eq!(a.binary_search(5), Some(1));
        assert_eq!(a.binary_search(4), None);
        assert_eq!(a.get(3), None);
        assert_eq!(cols.u64s(1).unwrap().get(0), Some(u64::MAX));
        assert_eq!(cols.bytes(2).unwrap(), &[7, 7, 7]);
        assert!(cols.bytes(3).is_err());
        assert!(cols.u64s(2).is_err());
    }

    #[test]
    fn columns_reject_bad_bounds() {
        let mut bytes = ColumnsWriter::new().u32s(&[1, 2]).finish();
        bytes[8] = 200; // column offset past the end
        assert!(Columns::parse(SectionId::Terms, &bytes).is_err());
        assert!(Columns::parse(SectionId::Terms, &[1, 0, 0]).is_err());
        assert!(Columns::parse(SectionId::Terms, &[255, 255, 255, 255, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn metadata_round_trips_and_rejects_garbage() {
        let meta = Metadata {
            name: "t".into(),
            sources: vec!["a.txt".into()],
            source_sha256: "00".into(),
            word_count: 3,
            lines_read: 4,
            lines_skipped: 1,
            alphabet: "abc".into(),
            common_source: None,
            common_count: 0,
            tool_version: "0.1.0".into(),
            built_at_unix: 5,
        };
        assert_eq!(Metadata::decode(&meta.encode()).unwrap(), meta);
        assert!(Metadata::decode(&[0xff; 16]).is_err());
        let mut long = meta.encode();
        long.push(0);
        assert!(Metadata::decode(&long).is_err());
    }
}
