//! An opened index: the validated header, the metadata, and checked access
//! to sections, words and the common flag.

use std::sync::OnceLock;

use crate::alphabet::Alphabet;
use crate::error::{Error, ErrorKind, Result};
use crate::format::fst::FstMap;
use crate::format::{Columns, Header, Metadata, SectionId, U64s};

/// A wordhoard index over any bytes: a memory map, a `Vec<u8>`, or
/// `include_bytes!`.
///
/// [`Index::from_bytes`] validates the header, every section's bounds and
/// the metadata. Each other section's checksum is checked the first time a
/// query uses it (a CRC-32 pass over that section only), so a damaged
/// section is reported as an error before any FST or table reads it.
pub struct Index<D> {
    data: D,
    header: Header,
    meta: Metadata,
    alphabet: Alphabet,
    checked: Vec<OnceLock<bool>>,
    /// Called with a section's range before its checksum pass reads it all.
    will_read: fn(&D, std::ops::Range<usize>),
    /// Called with a range a whole-file pass is done with.
    done_reading: fn(&D, std::ops::Range<usize>),
}

/// The outcome of checking one section in [`Index::verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionCheck {
    /// The section's name.
    pub name: String,
    /// Its offset in the file.
    pub offset: u64,
    /// Its length in bytes.
    pub len: u64,
    /// True when its checksum matches and its structure opens.
    pub ok: bool,
    /// What is wrong, when not ok.
    pub problem: Option<String>,
}

/// An index file's bytes: mapped ([`Index::open`]) or read into memory
/// ([`Index::read`]).
pub enum FileBytes {
    /// A read-only memory map of the file.
    #[cfg(feature = "mmap")]
    Mapped(memmap2::Mmap),
    /// The whole file, read.
    Read(Vec<u8>),
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            #[cfg(feature = "mmap")]
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

impl Index<FileBytes> {
    /// Maps the file at `path` and validates it (see [`Index::from_bytes`]).
    /// With the `mmap` feature (on by default).
    ///
    /// # The mapping contract
    ///
    /// A map reads the file as it is on disk at each access. `wordhoard
    /// build` never changes an index in place: it writes a new file and
    /// renames it over the old path, so a reader keeps the old file whole.
    /// Another program that truncates or rewrites the file in place while
    /// it is mapped can make a read fault, which kills the process (SIGBUS
    /// on Unix): no check can prevent that. For files that may change under
    /// you (a shared folder, a download still being written), use
    /// [`Index::read`] (`--no-mmap`).
    #[cfg(feature = "mmap")]
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Index<FileBytes>> {
        let mut index = Index::from_bytes(FileBytes::Mapped(crate::mmap::map_file(path.as_ref())?))?;
        index.will_read = |data, range| {
            if let FileBytes::Mapped(map) = data {
                crate::mmap::populate(map, range)
            }
        };
        index.done_reading = |data, range| {
            if let FileBytes::Mapped(map) = data {
                crate::mmap::release(map, range)
            }
        };
        Ok(index)
    }

    /// Reads the whole file at `path` into memory and validates it: no map,
    /// so nothing another program does to the file later can reach this
    /// reader. Costs a read of the whole file (9 MB for enable1) up front.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Index<FileBytes>> {
        let path = path.as_ref();
        if path.is_dir() {
            return Err(Error::io(path, "read", is_a_directory()));
        }
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, "read", e))?;
        Index::from_bytes(FileBytes::Read(bytes))
    }
}

impl<D: AsRef<[u8]>> Index<D> {
    /// Validates magic, version, the section table and the metadata.
    /// Returns an error, never panics, for any file.
    pub fn from_bytes(data: D) -> Result<Index<D>> {
        let header = Header::parse(data.as_ref())?;
        let meta_entry =
            header.entry(SectionId::Meta).ok_or(Error::new(ErrorKind::MissingSection { section: "meta" }))?;
        let meta_bytes = &data.as_ref()[meta_entry.range()];
        if crc32fast::hash(meta_bytes) != meta_entry.crc {
            return Err(Error::new(ErrorKind::Checksum { section: "meta" }));
        }
        let meta = Metadata::decode(meta_bytes)?;
        let alphabet = Alphabet::new(&meta.alphabet).map_err(|e| Error::corrupt_in(SectionId::Meta, e.to_string()))?;
        if header.entry(SectionId::Words).is_none() {
            return Err(Error::new(ErrorKind::MissingSection { section: "words" }));
        }
        let checked = header.sections.iter().map(|_| OnceLock::new()).collect();
        Ok(Index { data, header, meta, alphabet, checked, will_read: |_, _| {}, done_reading: |_, _| {} })
    }

    /// The raw bytes of the whole file.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The metadata block.
    pub fn metadata(&self) -> &Metadata {
        &self.meta
    }

    /// The alphabet the index was built over.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// True when the index has the given section.
    pub fn has_section(&self, id: SectionId) -> bool {
        self.header.entry(id).is_some()
    }

    /// A section's bytes, its checksum checked on first use.
    pub fn section(&self, id: SectionId) -> Result<&[u8]> {
        let (i, entry) = self
            .header
            .sections
            .iter()
            .enumerate()
            .find(|(_, s)| s.code == id.code())
            .ok_or(Error::new(ErrorKind::MissingSection { section: id.name() }))?;
        let bytes = &self.data.as_ref()[entry.range()];
        let verified = self.checked[i].get_or_init(|| {
            (self.will_read)(&self.data, entry.range());
            crc32fast::hash(bytes) == entry.crc
        });
        if *verified {
            Ok(bytes)
        } else {
            Err(Error::new(ErrorKind::Checksum { section: id.name() }))
        }
    }

    /// Maps the pages of `columns` (slices of this index) before a pass
    /// reads them whole: one call, not a page fault per page.
    pub(crate) fn will_scan(&self, columns: &[&[u8]]) {
        let base = self.data.as_ref().as_ptr() as usize;
        for column in columns {
            let start = (column.as_ptr() as usize).wrapping_sub(base);
            if start.checked_add(column.len()).is_some_and(|end| end <= self.data.as_ref().len()) {
                (self.will_read)(&self.data, start..start + column.len());
            }
        }
    }

    /// A column-table section, parsed.
    pub fn columns(&self, id: SectionId) -> Result<Columns<'_>> {
        Columns::parse(id, self.section(id)?)
    }

    /// The words FST: word -> word id, ids in sorted order. Its key count
    /// is checked against the metadata; its nodes as they are read.
    pub fn words(&self) -> Result<FstMap<'_>> {
        let map = FstMap::new(self.section(SectionId::Words)?, SectionId::Words)?;
        if map.len() as u64 != self.meta.word_count {
            return Err(Error::corrupt_in(SectionId::Words, "the FST and the metadata disagree on the word count"));
        }
        Ok(map)
    }

    /// The number of words.
    pub fn word_count(&self) -> usize {
        self.meta.word_count as usize
    }

    /// The word with the given id.
    pub fn word(&self, id: u32) -> Result<String> {
        let mut out = Vec::new();
        self.word_into(&self.words()?, id, &mut out)?;
        Ok(self.alphabet.word_string(out))
    }

    /// Looks up many words at once, reusing one FST handle.
    pub fn words_of(&self, ids: impl IntoIterator<Item = u32>) -> Result<Vec<String>> {
        let map = self.words()?;
        let mut buf = Vec::new();
        ids.into_iter()
            .map(|id| {
                self.word_into(&map, id, &mut buf)?;
                Ok(self.alphabet.word_string(buf.clone()))
            })
            .collect()
    }

    /// Word `id` into `out`: checked to be in range, and made of letters
    /// of the alphabet (which later code relies on: a word is ASCII).
    fn word_into(&self, map: &FstMap, id: u32, out: &mut Vec<u8>) -> Result<()> {
        if id as usize >= map.len() || !map.key_of(id as u64, out)? {
            return Err(Error::corrupt_in(SectionId::Words, format!("word id {id} is not in the FST")));
        }
        if !self.alphabet.is_word(out) {
            return Err(Error::corrupt_in(
                SectionId::Words,
                "the FST holds a word with a character outside the alphabet",
            ));
        }
        Ok(())
    }

    /// The id of a word, if the index has it.
    pub fn word_id(&self, word: &[u8]) -> Result<Option<u32>> {
        Ok(self.words()?.get(word)?.map(|id| id as u32))
    }

    /// The per-word common flags (all false when built without a list).
    pub fn common(&self) -> Result<CommonFlags<'_>> {
        if !self.has_section(SectionId::Common) {
            return Ok(CommonFlags { bits: None });
        }
        let bits = self.columns(SectionId::Common)?.u64s(0)?;
        if bits.len() < self.word_count().div_ceil(64) {
            return Err(Error::corrupt_in(SectionId::Common, "is shorter than the word list"));
        }
        Ok(CommonFlags { bits: Some(bits) })
    }

    /// True when the index was built with a common list.
    pub fn has_common_list(&self) -> bool {
        self.meta.common_source.is_some()
    }

    /// Recomputes every section's checksum (no structural checks): what a
    /// writer needs to confirm the bytes on disk are the bytes it wrote.
    pub fn verify_checksums(&self) -> Vec<SectionCheck> {
        self.header
            .sections
            .iter()
            .map(|e| {
                (self.will_read)(&self.data, e.range());
                let ok = crc32fast::hash(&self.data.as_ref()[e.range()]) == e.crc;
                let problem = (!ok).then(|| "checksum mismatch".to_string());
                SectionCheck { name: e.name(), offset: e.offset, len: e.len, ok, problem }
            })
            .collect()
    }

    /// Recomputes every section's checksum and, when all match, opens every
    /// known section's structure (structures refer to each other, so a bad
    /// checksum is reported only on its own section). Unlike queries, this
    /// ignores earlier checks. A large file is checked on two threads.
    pub fn verify(&self) -> Vec<SectionCheck>
    where
        D: Sync,
    {
        let sections = &self.header.sections;
        let two_threads = self.data.as_ref().len() >= PARALLEL_VERIFY_MIN;
        let crc_ok = |range: std::ops::Range<usize>| -> Vec<bool> {
            sections[range.clone()]
                .iter()
                .zip(&self.checked[range])
                .map(|(e, checked)| {
                    (self.will_read)(&self.data, e.range());
                    let ok = crc32fast::hash(&self.data.as_ref()[e.range()]) == e.crc;
                    // The structure checks below open sections: they need
                    // not checksum them again, and read only some columns,
                    // which they map again as they go.
                    let _ = checked.set(ok);
                    (self.done_reading)(&self.data, e.range());
                    ok
                })
                .collect()
        };
        let crc_ok = if two_threads {
            // The first sections up to half the bytes here, the rest there.
            let half = self.data.as_ref().len() / 2;
            let split = sections.iter().position(|e| e.offset as usize + e.len as usize >= half).unwrap_or(0);
            let (mut ok, rest) = both(|| crc_ok(0..split), || crc_ok(split..sections.len()));
            ok.extend(rest.unwrap_or_else(|| vec![false; sections.len() - split]));
            ok
        } else {
            crc_ok(0..sections.len())
        };
        let all_ok = crc_ok.iter().all(|&ok| ok);
        // Each puzzle's check covers all of its sections: run each once.
        // Walking the two FSTs is the longest part: the terms FST (with
        // its groups) on the other thread, the rest here, measured to end
        // close together on enable1.
        let words = || self.words().and_then(|words| words.check_rank_map(&self.alphabet));
        let rest = || (words(), crate::bee::check(self), crate::anigram::check_chains(self));
        let terms = || crate::anigram::check_terms(self);
        let ((words, bee, chains), terms) = match (all_ok, two_threads) {
            (false, _) => ((Ok(()), Ok(()), Ok(())), Ok(())),
            (true, false) => (rest(), terms()),
            (true, true) => {
                let (mine, terms) = both(rest, terms);
                (mine, terms.unwrap_or_else(|| Err(Error::corrupt("the check stopped unexpectedly"))))
            }
        };
        let anigram = terms.and(chains);
        let check = |id: SectionId| -> Result<()> {
            match id {
                SectionId::Meta => Ok(()),
                SectionId::Words => words.clone(),
                SectionId::Common => self.common().map(drop),
                SectionId::Lettersets | SectionId::Honeycombs | SectionId::CommonHoneycombs => bee.clone(),
                SectionId::Terms | SectionId::Chains => anigram.clone(),
            }
        };
        sections
            .iter()
            .zip(crc_ok)
            .map(|(entry, ok)| {
                let problem = if !ok {
                    Some("checksum mismatch".to_string())
                } else if all_ok {
                    SectionId::from_code(entry.code).and_then(|id| check(id).err()).map(|e| e.to_string())
                } else {
                    None
                };
                SectionCheck {
                    name: entry.name(),
                    offset: entry.offset,
                    len: entry.len,
                    ok: problem.is_none(),
                    problem,
                }
            })
            .collect()
    }
}

/// The error for an index path that names a folder (some platforms open
/// folders, and reading one says only "is a directory").
pub(crate) fn is_a_directory() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory, not an index file")
}

/// Files this large are verified on two threads; smaller ones faster on one.
const PARALLEL_VERIFY_MIN: usize = 1 << 20;

/// Runs `first` here and `second` on a second thread where the platform
/// has threads; where it has none (wasm32-unknown-unknown), here after
/// `first`. `None` for `second` when it panicked.
fn both<A, B: Send>(first: impl FnOnce() -> A, second: impl FnOnce() -> B + Send) -> (A, Option<B>) {
    // Held in a cell so that a thread that could not start leaves it here.
    let second = std::sync::Mutex::new(Some(second));
    let run_second = || {
        let task = second.lock().ok()?.take();
        task.map(|f| f())
    };
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new().spawn_scoped(s, run_second);
        let a = first();
        let b = match spawned {
            Ok(handle) => handle.join().ok().flatten(),
            Err(_) => run_second(),
        };
        (a, b)
    })
}

/// The common flag of each word.
#[derive(Clone, Copy, Debug)]
pub struct CommonFlags<'a> {
    bits: Option<U64s<'a>>,
}

impl CommonFlags<'_> {
    /// True when word `id` is on the common list.
    #[inline]
    pub fn is_common(&self, id: u32) -> bool {
        self.bits.and_then(|b| b.get(id as usize / 64)).is_some_and(|w| w & (1 << (id % 64)) != 0)
    }
}
