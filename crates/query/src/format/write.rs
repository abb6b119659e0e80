//! The writers of the format: the file with its header, and column
//! tables. Only the builder needs them (feature `write`).

use super::blocks::{block_count, block_crcs, BlockCrcs};
use super::{
    align8, SectionId, COLUMN_ENTRY_LEN, COLUMN_TABLE_HEADER_LEN, FIXED_HEADER_LEN, FORMAT_VERSION, HEADER_TRAILER_LEN,
    MAGIC, SECTION_ENTRY_LEN,
};

/// Assembles a file from section payloads: the one writer of the header.
#[derive(Default)]
pub struct FileWriter {
    sections: Vec<(u32, Payload)>,
}

impl FileWriter {
    /// An empty file.
    pub fn new() -> FileWriter {
        FileWriter::default()
    }

    /// Adds a section; sections are laid out in the order added.
    pub fn add(&mut self, id: SectionId, payload: impl Into<Payload>) -> &mut Self {
        self.add_raw(id.code(), payload)
    }

    /// Adds a section by raw code (tests use this for unknown sections).
    pub fn add_raw(&mut self, code: u32, payload: impl Into<Payload>) -> &mut Self {
        self.sections.push((code, payload.into()));
        self
    }

    /// The sizes of the sections added so far, by code.
    pub fn section_sizes(&self) -> Vec<(u32, usize)> {
        self.sections.iter().map(|(c, p)| (*c, p.len())).collect()
    }

    /// Where the sections go and what the header says of them, apart
    /// from their checksums.
    pub fn layout(&self) -> Layout {
        Layout { sections: self.section_sizes() }
    }

    /// The file's size in bytes.
    pub fn file_len(&self) -> usize {
        self.layout().file_len()
    }

    /// Each section's place in the file and its bytes, in order; between
    /// them, under 8 bytes of zeros.
    pub fn placements(&self) -> Vec<(usize, &Payload)> {
        self.layout().offsets().into_iter().zip(self.sections.iter().map(|(_, p)| p)).collect()
    }

    /// Each section's place and its bytes, moved out: for a writer that
    /// frees each piece once it is written, and then makes the header
    /// from [`FileWriter::layout`].
    pub fn into_placements(self) -> Vec<(usize, Payload)> {
        self.layout().offsets().into_iter().zip(self.sections.into_iter().map(|(_, p)| p)).collect()
    }

    /// The header: magic, version, the section table with each section's
    /// checksum, the block checksums, and the header's own checksum.
    fn header(&self) -> Vec<u8> {
        let checksums: Vec<SectionSums> =
            self.sections.iter().map(|(_, payload)| SectionSums::of_payload(payload)).collect();
        self.layout().header_with(&checksums)
    }

    /// Writes the file: the header, then each section after zero padding
    /// to 8 bytes. Streams the sections as they are, with no copy.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let header = self.header();
        out.write_all(&header)?;
        let mut at = header.len();
        for (_, payload) in &self.sections {
            out.write_all(&[0u8; 8][..align8(at) - at])?;
            payload.pieces().try_for_each(|piece| out.write_all(piece))?;
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

/// A file's sections by code and length, in order: where each goes, and
/// the header that describes them.
#[derive(Clone, Debug)]
pub struct Layout {
    sections: Vec<(u32, usize)>,
}

impl Layout {
    /// The header's size in bytes: it holds a checksum per block.
    fn header_len(&self) -> usize {
        let blocks: u64 = self.sections.iter().map(|&(_, len)| block_count(len as u64)).sum();
        FIXED_HEADER_LEN + self.sections.len() * SECTION_ENTRY_LEN + HEADER_TRAILER_LEN + 4 * blocks as usize
    }

    /// The file's size in bytes.
    pub fn file_len(&self) -> usize {
        self.sections.iter().fold(self.header_len(), |end, &(_, len)| align8(end) + len)
    }

    /// Where each section starts, in order.
    pub fn offsets(&self) -> Vec<usize> {
        let mut at = self.header_len();
        let mut out = Vec::with_capacity(self.sections.len());
        for &(_, len) in &self.sections {
            at = align8(at);
            out.push(at);
            at += len;
        }
        out
    }

    /// The header: magic, version, the section table with each section's
    /// checksums (in order, as a writer that computes them as it writes
    /// has them), the block checksums, and the header's own checksum.
    pub fn header_with(&self, checksums: &[SectionSums]) -> Vec<u8> {
        assert_eq!(checksums.len(), self.sections.len(), "checksums per section");
        let n = self.sections.len();
        let mut out = Vec::with_capacity(self.header_len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for ((&(code, len), sums), offset) in self.sections.iter().zip(checksums).zip(self.offsets()) {
            assert_eq!(sums.blocks.len() as u64, block_count(len as u64), "a checksum per block");
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
            out.extend_from_slice(&(offset as u64).to_le_bytes());
            out.extend_from_slice(&(len as u64).to_le_bytes());
            out.extend_from_slice(&sums.crc.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let blocks: usize = checksums.iter().map(|s| s.blocks.len()).sum();
        out.extend_from_slice(&(blocks as u32).to_le_bytes());
        for crc in checksums.iter().flat_map(|s| &s.blocks) {
            out.extend_from_slice(&crc.to_le_bytes());
        }
        let header_crc = crc32fast::hash(&out);
        out.extend_from_slice(&header_crc.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out
    }
}

/// A section's checksums as the header holds them: of the whole section,
/// and of each of its blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSums {
    /// CRC-32 of the whole section.
    pub crc: u32,
    /// CRC-32 of each block.
    pub blocks: Vec<u32>,
}

impl SectionSums {
    /// The checksums of a section's bytes, in one pass over them.
    pub fn of(payload: &[u8]) -> SectionSums {
        SectionSums::from(block_crcs(payload))
    }

    /// The checksums of a section in pieces, in one pass over them.
    pub fn of_payload(payload: &Payload) -> SectionSums {
        let mut crcs = BlockCrcs::default();
        payload.pieces().for_each(|piece| crcs.update(piece));
        SectionSums::from(crcs.finish())
    }
}

impl From<(Vec<u32>, u32)> for SectionSums {
    /// From each block's CRC and the whole's ([`BlockCrcs::finish`]).
    fn from((blocks, crc): (Vec<u32>, u32)) -> SectionSums {
        SectionSums { crc, blocks }
    }
}

/// A section's bytes as pieces that follow one another in the file and
/// are never joined: a column table's columns stay the buffers they were
/// made in, and a writer frees each piece once it is written. Joined,
/// the 10-million-word index's tables took another 560 MB of fresh pages
/// and a copy of each.
#[derive(Debug, Default)]
pub struct Payload {
    pieces: Vec<Vec<u8>>,
    len: usize,
}

impl Payload {
    /// The bytes in all.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds bytes at the end.
    pub fn push(&mut self, piece: Vec<u8>) {
        self.len += piece.len();
        if !piece.is_empty() {
            self.pieces.push(piece);
        }
    }

    /// Adds zeros up to the next multiple of 8 bytes.
    fn pad_to_8(&mut self) {
        self.push(vec![0; align8(self.len) - self.len]);
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> impl Iterator<Item = &[u8]> {
        self.pieces.iter().map(Vec::as_slice)
    }

    /// The pieces, moved out, in order.
    pub fn into_pieces(self) -> Vec<Vec<u8>> {
        self.pieces
    }

    /// The bytes joined.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        self.pieces().for_each(|piece| out.extend_from_slice(piece));
        out
    }
}

impl From<Vec<u8>> for Payload {
    fn from(bytes: Vec<u8>) -> Payload {
        let mut payload = Payload::default();
        payload.push(bytes);
        payload
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

    /// The table's head: the column count and each column's place.
    fn head(&self) -> Vec<u8> {
        let c = self.columns.len();
        let mut offset = align8(COLUMN_TABLE_HEADER_LEN + c * COLUMN_ENTRY_LEN);
        let mut out = Vec::with_capacity(COLUMN_TABLE_HEADER_LEN + c * COLUMN_ENTRY_LEN);
        out.extend_from_slice(&(c as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for column in &self.columns {
            out.extend_from_slice(&(offset as u64).to_le_bytes());
            out.extend_from_slice(&(column.len() as u64).to_le_bytes());
            offset = align8(offset + column.len());
        }
        out
    }

    /// Encodes the table, its columns moved out into the pieces of a
    /// section (the writer is left empty).
    pub fn take_payload(&mut self) -> Payload {
        let mut out = Payload::from(self.head());
        for column in std::mem::take(&mut self.columns) {
            out.pad_to_8();
            out.push(column);
        }
        out
    }

    /// Encodes the table in one buffer.
    pub fn finish(&self) -> Vec<u8> {
        let mut out = self.head();
        for column in &self.columns {
            out.resize(align8(out.len()), 0);
            out.extend_from_slice(column);
        }
        out
    }
}

/// Makes every checksum of `file` right again after its bytes were
/// edited in place: each section's (whole and per block) and the
/// header's, from the section table as it stands. For tests and tools
/// that craft damaged files whose damage should get past the checksums.
/// Sections the table places outside the file, or a block table that
/// does not fit them, are left as they are (the header's checksum is
/// still made right).
pub fn reseal(file: &mut [u8]) {
    let read_u32 = |file: &[u8], at: usize| super::read_u32(file, at).map(|v| v as usize);
    let Some(count) = read_u32(file, 12) else { return };
    let table_end = FIXED_HEADER_LEN + count * SECTION_ENTRY_LEN;
    let Some(blocks) = read_u32(file, table_end) else { return };
    let crcs_end = table_end + 4 + 4 * blocks;
    if crcs_end + 4 > file.len() {
        return;
    }
    let mut first_block = 0;
    for i in 0..count {
        let at = FIXED_HEADER_LEN + i * SECTION_ENTRY_LEN;
        let (Some(offset), Some(len)) = (super::read_u64(file, at + 8), super::read_u64(file, at + 16)) else {
            return;
        };
        let range = usize::try_from(offset).ok().zip(usize::try_from(len).ok());
        let Some((offset, len)) = range.filter(|&(o, l)| o.checked_add(l).is_some_and(|end| end <= file.len())) else {
            continue;
        };
        let sums = SectionSums::of(&file[offset..offset + len]);
        file[at + 24..at + 28].copy_from_slice(&sums.crc.to_le_bytes());
        if first_block + sums.blocks.len() <= blocks {
            for (j, crc) in sums.blocks.iter().enumerate() {
                let at = table_end + 4 + 4 * (first_block + j);
                file[at..at + 4].copy_from_slice(&crc.to_le_bytes());
            }
        }
        first_block += sums.blocks.len();
    }
    let crc = crc32fast::hash(&file[..crcs_end]);
    file[crcs_end..crcs_end + 4].copy_from_slice(&crc.to_le_bytes());
}
