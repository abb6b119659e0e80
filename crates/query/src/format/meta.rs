//! The `meta` section: a fixed sequence of fields (see the format spec).

use std::fmt;

use super::{read_u32, read_u64, SectionId};
use crate::error::{Error, Result};

/// The largest metadata block a reader decodes.
pub const MAX_METADATA_BYTES: usize = 1 << 20;

/// A SHA-256 digest: 32 raw bytes, shown as lowercase hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sha256(pub [u8; 32]);

impl fmt::Display for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha256({self})")
    }
}

/// A word list an index was built from: its file name (no folder, so an
/// index says nothing of the machine that built it) and its digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The file name (`enable1.txt`), or `-` for standard input.
    pub name: String,
    /// SHA-256 of the list's bytes.
    pub sha256: Sha256,
}

/// The metadata block (section `meta`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// Distinct words kept.
    pub word_count: u64,
    /// Lines read from the sources.
    pub lines_read: u64,
    /// Lines skipped (empty, a character outside the alphabet, not UTF-8,
    /// too long).
    pub lines_skipped: u64,
    /// Words flagged common.
    pub common_count: u64,
    /// Words of the lists left out because an exclusion list named them.
    pub excluded_count: u64,
    /// Build time, seconds since the Unix epoch (`SOURCE_DATE_EPOCH` when
    /// the builder had it).
    pub built_at_unix: u64,
    /// A short name for the index (`enable1`).
    pub name: String,
    /// The alphabet, its letters in order.
    pub alphabet: String,
    /// True when accents were stripped from the words (NFD, combining
    /// marks dropped) before their letters were taken.
    pub fold_accents: bool,
    /// Letters kept as they are when folding accents (`ñ`).
    pub kept_letters: String,
    /// Version of the `wordhoard-builder` that wrote the file.
    pub tool_version: String,
    /// The word lists, in the order read (at least one).
    pub sources: Vec<SourceFile>,
    /// SHA-256 of all the lists' bytes, in order.
    pub source_sha256: Sha256,
    /// The common list, if one was given.
    pub common_source: Option<SourceFile>,
    /// The exclusion lists: words that are in none of the index's answers.
    pub exclude_sources: Vec<SourceFile>,
}

impl Metadata {
    /// Decodes the `meta` section; every length is bounded by the bytes
    /// left, and nothing may follow the last field.
    pub fn decode(bytes: &[u8]) -> Result<Metadata> {
        if bytes.len() > MAX_METADATA_BYTES {
            return Err(SectionId::Meta.corrupt("is over 1 MiB"));
        }
        let mut r = Reader { bytes, at: 0 };
        let meta = Metadata {
            word_count: r.u64("the word count")?,
            lines_read: r.u64("the lines read")?,
            lines_skipped: r.u64("the lines skipped")?,
            common_count: r.u64("the common count")?,
            excluded_count: r.u64("the excluded count")?,
            built_at_unix: r.u64("the build time")?,
            name: r.string("the name")?,
            alphabet: r.string("the alphabet")?,
            fold_accents: match r.u32("the folding")? {
                0 => false,
                1 => true,
                n => return Err(SectionId::Meta.corrupt(format!("has folding {n} (0 or 1)"))),
            },
            kept_letters: r.string("the kept letters")?,
            tool_version: r.string("the tool version")?,
            sources: {
                let count = r.count("the source count")?;
                (0..count).map(|_| r.source("a source")).collect::<Result<_>>()?
            },
            source_sha256: r.digest("the sources' digest")?,
            common_source: match r.count("the common list count")? {
                0 => None,
                1 => Some(r.source("the common list")?),
                n => return Err(SectionId::Meta.corrupt(format!("names {n} common lists (at most 1)"))),
            },
            exclude_sources: {
                let count = r.count("the exclusion list count")?;
                (0..count).map(|_| r.source("an exclusion list")).collect::<Result<_>>()?
            },
        };
        if r.at != bytes.len() {
            return Err(SectionId::Meta.corrupt("has bytes after its last field"));
        }
        if meta.sources.is_empty() {
            return Err(SectionId::Meta.corrupt("names no word list"));
        }
        Ok(meta)
    }
}

/// A cursor over the metadata bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn truncated(what: &str) -> Error {
        SectionId::Meta.corrupt(format!("is truncated at {what}"))
    }

    fn take(&mut self, len: usize, what: &str) -> Result<&[u8]> {
        let end =
            self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or_else(|| Self::truncated(what))?;
        let bytes = &self.bytes[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        let v = read_u64(self.bytes, self.at).ok_or_else(|| Self::truncated(what))?;
        self.at += 8;
        Ok(v)
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let v = read_u32(self.bytes, self.at).ok_or_else(|| Self::truncated(what))?;
        self.at += 4;
        Ok(v)
    }

    /// A count of source records, bounded by the bytes left (a record is
    /// at least a string length and a digest), so a damaged count cannot
    /// make a long loop.
    fn count(&mut self, what: &str) -> Result<usize> {
        let n = self.u32(what)? as usize;
        if n > (self.bytes.len() - self.at) / (4 + 32) {
            return Err(SectionId::Meta.corrupt(format!("{what} {n} is more than its bytes hold")));
        }
        Ok(n)
    }

    fn string(&mut self, what: &str) -> Result<String> {
        let len = self.u32(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| SectionId::Meta.corrupt(format!("{what} is not UTF-8")))
    }

    fn digest(&mut self, what: &str) -> Result<Sha256> {
        Ok(Sha256(self.take(32, what)?.try_into().expect("32 bytes")))
    }

    fn source(&mut self, what: &str) -> Result<SourceFile> {
        Ok(SourceFile { name: self.string(what)?, sha256: self.digest(what)? })
    }
}

#[cfg(feature = "write")]
impl Metadata {
    /// Encodes the metadata for the `meta` section.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let numbers = [
            self.word_count,
            self.lines_read,
            self.lines_skipped,
            self.common_count,
            self.excluded_count,
            self.built_at_unix,
        ];
        for v in numbers {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let string = |out: &mut Vec<u8>, s: &str| {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        };
        let source = |out: &mut Vec<u8>, s: &SourceFile| {
            string(out, &s.name);
            out.extend_from_slice(&s.sha256.0);
        };
        string(&mut out, &self.name);
        string(&mut out, &self.alphabet);
        out.extend_from_slice(&(self.fold_accents as u32).to_le_bytes());
        string(&mut out, &self.kept_letters);
        string(&mut out, &self.tool_version);
        out.extend_from_slice(&(self.sources.len() as u32).to_le_bytes());
        self.sources.iter().for_each(|s| source(&mut out, s));
        out.extend_from_slice(&self.source_sha256.0);
        out.extend_from_slice(&(self.common_source.is_some() as u32).to_le_bytes());
        self.common_source.iter().for_each(|s| source(&mut out, s));
        out.extend_from_slice(&(self.exclude_sources.len() as u32).to_le_bytes());
        self.exclude_sources.iter().for_each(|s| source(&mut out, s));
        out
    }
}

#[cfg(all(test, feature = "write"))]
mod tests {
    use super::*;

    fn sample() -> Metadata {
        Metadata {
            word_count: 3,
            lines_read: 4,
            lines_skipped: 1,
            common_count: 2,
            excluded_count: 6,
            built_at_unix: 5,
            name: "t".into(),
            alphabet: "abc".into(),
            fold_accents: true,
            kept_letters: "ñ".into(),
            tool_version: "0.1.0".into(),
            sources: vec![
                SourceFile { name: "a.txt".into(), sha256: Sha256([1; 32]) },
                SourceFile { name: "-".into(), sha256: Sha256([2; 32]) },
            ],
            source_sha256: Sha256([3; 32]),
            common_source: Some(SourceFile { name: "c.txt".into(), sha256: Sha256([4; 32]) }),
            exclude_sources: vec![SourceFile { name: "x.txt".into(), sha256: Sha256([5; 32]) }],
        }
    }

    #[test]
    fn metadata_round_trips() {
        let meta = sample();
        assert_eq!(Metadata::decode(&meta.encode()).unwrap(), meta);
        let none = Metadata { common_source: None, ..sample() };
        assert_eq!(Metadata::decode(&none.encode()).unwrap(), none);
    }

    #[test]
    fn the_layout_is_the_documented_one() {
        // Written out by hand from FORMAT.md, field by field.
        let meta = Metadata {
            sources: vec![sample().sources[0].clone()],
            common_source: None,
            exclude_sources: Vec::new(),
            ..sample()
        };
        let mut want = Vec::new();
        for v in [3u64, 4, 1, 2, 6, 5] {
            want.extend_from_slice(&v.to_le_bytes());
        }
        let string = |want: &mut Vec<u8>, s: &str| {
            want.extend_from_slice(&(s.len() as u32).to_le_bytes());
            want.extend_from_slice(s.as_bytes());
        };
        string(&mut want, "t");
        string(&mut want, "abc");
        want.extend_from_slice(&1u32.to_le_bytes());
        string(&mut want, "ñ");
        string(&mut want, "0.1.0");
        want.extend_from_slice(&1u32.to_le_bytes());
        want.extend_from_slice(&5u32.to_le_bytes());
        want.extend_from_slice(b"a.txt");
        want.extend_from_slice(&[1; 32]);
        want.extend_from_slice(&[3; 32]);
        want.extend_from_slice(&0u32.to_le_bytes());
        want.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(meta.encode(), want);
    }

    #[test]
    fn every_cut_and_trailing_byte_is_an_error_naming_meta() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            let err = Metadata::decode(&bytes[..cut]).unwrap_err();
            assert!(err.to_string().contains("section `meta`"), "{err}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(Metadata::decode(&long).unwrap_err().to_string().contains("after its last field"));
    }

    #[test]
    fn damaged_counts_and_text_are_errors() {
        let mut bytes = sample().encode();
        // The name's length: past the end.
        bytes[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Metadata::decode(&bytes).is_err());
        let mut bytes = sample().encode();
        bytes[52] = 0xff; // the name, not UTF-8
        assert!(Metadata::decode(&bytes).unwrap_err().to_string().contains("not UTF-8"));
        // A source count far beyond the bytes: refused before any loop.
        let meta = sample();
        let mut bytes = meta.encode();
        let at = 48 + 4 + 1 + 4 + 3 + 4 + 4 + 2 + 4 + 5;
        assert_eq!(&bytes[at..at + 4], &2u32.to_le_bytes());
        bytes[at..at + 4].copy_from_slice(&(u32::MAX).to_le_bytes());
        assert!(Metadata::decode(&bytes).unwrap_err().to_string().contains("more than its bytes hold"));
        let none = Metadata { sources: Vec::new(), ..sample() };
        assert!(Metadata::decode(&none.encode()).unwrap_err().to_string().contains("names no word list"));
    }
}
