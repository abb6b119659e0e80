//! The writers of the format: the file with its header, and column
//! tables. Only the builder needs them (feature `write`).

use super::{
    align8, SectionId, COLUMN_ENTRY_LEN, COLUMN_TABLE_HEADER_LEN, FIXED_HEADER_LEN, FORMAT_VERSION, HEADER_TRAILER_LEN,
    MAGIC, SECTION_ENTRY_LEN,
};

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
