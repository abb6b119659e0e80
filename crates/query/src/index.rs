//! An opened index: the validated header, the metadata, and checked access
//! to sections, words and the common flag.

use std::sync::OnceLock;

use crate::alphabet::{Alphabet, WordTexts};
use crate::endings::Endings;
use crate::error::{Error, ErrorKind, Result};
use crate::format::blocks::{LastBlock, Lazy, Passed, SectionBlocks, BLOCK_LEN};
use crate::format::fst::FstMap;
use crate::format::{Columns, Header, Metadata, ProperNouns, SectionId, U64s};
use crate::letter_groups::{CopyOut, LetterGroups};
use crate::word_text::WordText;

/// A wordhoard index over any bytes: a memory map, a `Vec<u8>`, or
/// `include_bytes!`.
///
/// [`Index::from_bytes`] validates the header, every section's bounds and
/// the metadata. The other sections are checked block by block: each
/// 64 KiB block's checksum the first time a query reads a byte of it, so
/// damage is an error before any FST or table uses it, and a query that
/// reads a few kilobytes checksums a few blocks, not the whole file.
pub struct Index<D> {
    data: D,
    header: Header,
    meta: Metadata,
    proper_nouns: Option<ProperNouns>,
    alphabet: Alphabet,
    /// Per section, its block checksums and which have been checked.
    blocks: Vec<SectionBlocks>,
    /// Per section, the outcome of the structural check queries rely on
    /// (offsets ascending, letter sets in the alphabet), made once.
    structure: Vec<OnceLock<Result<()>>>,
    /// The `word_text` runs whose checksums reads have checked.
    text_runs: OnceLock<Passed>,
    /// Called with a range before a pass reads it all.
    will_read: fn(&D, std::ops::Range<usize>),
    /// Called with a range a whole-file pass is done with.
    done_reading: fn(&D, std::ops::Range<usize>),
    /// Copies stretches of the file by positional reads, where the index
    /// is a map and the platform has them ([`Index::open`] on Unix).
    copy_out: Option<Box<CopyOut>>,
}

/// The `spellings` section's columns.
struct Spellings<'a> {
    ids: crate::format::U32s<'a>,
    offsets: crate::format::U32s<'a>,
    text: &'a [u8],
}

impl Spellings<'_> {
    /// Spelling `i`, checked.
    fn text_of(&self, i: usize) -> Result<String> {
        let bad = || SectionId::Spellings.corrupt("has a spelling out of bounds or not UTF-8");
        let (start, end) = (self.offsets.at(i)?, self.offsets.at(i + 1)?);
        let bytes = self.text.get(start..end).ok_or_else(bad)?;
        std::str::from_utf8(bytes).map(str::to_string).map_err(|_| bad())
    }
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
    /// [`Index::read`].
    ///
    /// ```
    /// # let dir = tempfile::tempdir()?;
    /// # let path = dir.path().join("tiny.hoard");
    /// # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("tiny", "ride\ndire\n")], &Default::default())?;
    /// # std::fs::write(&path, built.into_bytes())?;
    /// use wordhoard_query::Index;
    ///
    /// let index = Index::open(&path)?;
    /// assert_eq!(index.word_count(), 2);
    /// assert_eq!(index.metadata().sources[0].name, "tiny");
    /// assert!(index.verify().iter().all(|check| check.ok));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "mmap")]
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Index<FileBytes>> {
        let (map, file) = crate::mmap::map_file(path.as_ref())?;
        let copy_out = crate::mmap::copy_out(file, path.as_ref(), &map);
        let mut index = Index::from_bytes(FileBytes::Mapped(map))?;
        index.copy_out = copy_out;
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
        use std::io::Read;
        let path = path.as_ref();
        Error::check_regular(path, "read")?;
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, "read", e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, "read", e))?;
        if meta.is_dir() {
            return Err(Error::is_a_directory(path, "read"));
        }
        if !meta.is_file() {
            return Err(Error::not_a_file(path, "read"));
        }
        // At most the length the file states: a file that grows while it
        // is read is cut there, not followed.
        let mut bytes = Vec::new();
        file.take(meta.len()).read_to_end(&mut bytes).map_err(|e| Error::io(path, "read", e))?;
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
        // Every table stores word ids as u32: a file that states more words
        // than that addresses is refused before any table is read.
        if meta.word_count > u64::from(u32::MAX) {
            return Err(SectionId::Meta.corrupt(format!(
                "states {} words; an index holds at most {} (word ids are 32 bits)",
                meta.word_count,
                u32::MAX
            )));
        }
        let folding = crate::alphabet::Folding { accents: meta.fold_accents, keep: meta.kept_letters.clone() };
        let alphabet =
            Alphabet::with_folding(&meta.alphabet, folding).map_err(|e| SectionId::Meta.corrupt(e.to_string()))?;
        if header.entry(SectionId::Words).is_none() {
            return Err(Error::new(ErrorKind::MissingSection { section: "words" }));
        }
        // Small, and part of what the index says it is: read with the
        // metadata, so `info` can show it.
        let proper_nouns = match header.entry(SectionId::ProperNouns) {
            None => None,
            Some(entry) => {
                let bytes = &data.as_ref()[entry.range()];
                if crc32fast::hash(bytes) != entry.crc {
                    return Err(Error::new(ErrorKind::Checksum { section: SectionId::ProperNouns.name() }));
                }
                Some(ProperNouns::decode(&Columns::parse(SectionId::ProperNouns, bytes)?)?)
            }
        };
        let blocks = header.sections.iter().map(|s| SectionBlocks::new(header.block_crcs_of(s).to_vec())).collect();
        let structure = header.sections.iter().map(|_| OnceLock::new()).collect();
        Ok(Index {
            data,
            header,
            meta,
            proper_nouns,
            alphabet,
            blocks,
            structure,
            text_runs: OnceLock::new(),
            will_read: |_, _| {},
            done_reading: |_, _| {},
            copy_out: None,
        })
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

    /// What the build did with capitalised words; `None` when the lists
    /// had none (or the index predates the rule).
    pub fn proper_nouns(&self) -> Option<ProperNouns> {
        self.proper_nouns
    }

    /// The alphabet the index was built over.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// True when the index has the given section.
    pub fn has_section(&self, id: SectionId) -> bool {
        self.header.entry(id).is_some()
    }

    /// A section's bytes, every block of it checked (once an index).
    pub fn section(&self, id: SectionId) -> Result<&[u8]> {
        let (bytes, lazy) = self.section_lazy(id)?;
        if let Some(lazy) = lazy {
            (self.will_read)(&self.data, self.header.entry(id).map_or(0..0, |e| e.range()));
            lazy.check(bytes)?;
        }
        Ok(bytes)
    }

    /// A section's bytes, unchecked, with what checks each block of them
    /// the first time it is read.
    pub fn section_lazy(&self, id: SectionId) -> Result<(&[u8], Option<Lazy<'_>>)> {
        let (i, entry) = self
            .header
            .sections
            .iter()
            .enumerate()
            .find(|(_, s)| s.code == id.code())
            .ok_or(Error::new(ErrorKind::MissingSection { section: id.name() }))?;
        let bytes = &self.data.as_ref()[entry.range()];
        #[cfg(feature = "mmap")]
        let lazy = Some(Lazy::new(bytes, &self.blocks[i], id));
        // Without a map the bytes are in memory already: every block now
        // (a pass over the bits once they are set), no checks as read.
        #[cfg(not(feature = "mmap"))]
        let lazy = match self.blocks[i].check(bytes, 0..bytes.len()) {
            true => None,
            false => return Err(Error::new(ErrorKind::Checksum { section: id.name() })),
        };
        Ok((bytes, lazy))
    }

    /// How many of the index's checksummed blocks reads have checked, and
    /// how many it has: what a query cost in checksums.
    pub fn blocks_checked(&self) -> (usize, usize) {
        self.blocks.iter().fold((0, 0), |(done, all), b| (done + b.checked_count(), all + b.len()))
    }

    /// Runs `check`, a whole-table check of section `id` that every query
    /// of it relies on, the first time any query opens the section, and
    /// gives its outcome from then on: one pass a table for the life of
    /// the index, not one a query. (Offsets checked ascending once mean
    /// each row is read at most once, however the rows are asked for.)
    pub(crate) fn check_once(&self, id: SectionId, check: impl FnOnce() -> Result<()>) -> Result<()> {
        let i = self.header.sections.iter().position(|s| s.code == id.code());
        match i.and_then(|i| self.structure.get(i)) {
            Some(once) => once.get_or_init(check).clone(),
            None => Err(Error::new(ErrorKind::MissingSection { section: id.name() })),
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
        let (bytes, lazy) = self.section_lazy(id)?;
        Columns::parse_lazy(id, bytes, lazy)
    }

    /// The words FST: word -> word id, ids in sorted order. Its key count
    /// is checked against the metadata; its nodes as they are read.
    pub fn words(&self) -> Result<FstMap<'_>> {
        let (bytes, lazy) = self.section_lazy(SectionId::Words)?;
        let map = FstMap::new_lazy(bytes, lazy, SectionId::Words)?;
        if map.len() as u64 != self.meta.word_count {
            return Err(SectionId::Words.corrupt("the FST and the metadata disagree on the word count"));
        }
        Ok(map)
    }

    /// The number of words.
    pub fn word_count(&self) -> usize {
        self.meta.word_count as usize
    }

    /// The word with the given id.
    pub fn word(&self, id: u32) -> Result<String> {
        Ok(self.words_of([id])?.remove(0))
    }

    /// Looks up many words at once: from the `word_text` table where the
    /// index has one, else through one FST handle.
    pub fn words_of(&self, ids: impl IntoIterator<Item = u32>) -> Result<Vec<String>> {
        let ids: Vec<u32> = ids.into_iter().collect();
        Ok(self.texts_of(&ids)?.iter().map(str::to_string).collect())
    }

    /// The words `ids` as text, in order, back to back in one string:
    /// each id checked in range, and every code checked to be a letter of
    /// the alphabet in one pass over all of them (which later code relies
    /// on: a word is ASCII on an a-z index). On an ASCII alphabet the
    /// codes are the text, so the words are read and checked as UTF-8
    /// once, not a word at a time.
    pub fn texts_of(&self, ids: &[u32]) -> Result<WordTexts> {
        self.texts_of_checked(ids, |_| Ok(()))
    }

    /// [`Index::texts_of`] that first shows each word's codes to `check`,
    /// which may turn the answer into an error (a caller that trusted a
    /// table to pick the ids tests that the words are what it said).
    pub(crate) fn texts_of_checked(
        &self,
        ids: &[u32],
        mut check: impl FnMut(&[u8]) -> Result<()>,
    ) -> Result<WordTexts> {
        let mut codes = Vec::new();
        let mut ends = Vec::with_capacity(ids.len());
        let section = match self.word_text()? {
            Some(text) => {
                codes.reserve(ids.len() * 8);
                text.words_into(ids, &mut codes, &mut ends)?;
                SectionId::WordText
            }
            None => {
                let map = self.words()?;
                let mut buf = Vec::new();
                for &id in ids {
                    if id as usize >= map.len() || !map.key_of(id as u64, &mut buf)? {
                        return Err(SectionId::Words.corrupt(format!("word id {id} is not in the FST")));
                    }
                    codes.extend_from_slice(&buf);
                    ends.push(codes.len());
                }
                SectionId::Words
            }
        };
        if !self.alphabet.is_word(&codes) {
            return Err(section.corrupt("holds a word with a character outside the alphabet"));
        }
        let mut start = 0;
        for &end in &ends {
            check(codes.get(start..end).unwrap_or_default())?;
            start = end;
        }
        Ok(WordTexts::new(&self.alphabet, codes, ends))
    }

    /// The `word_text` table's structure, and every word in it made of
    /// letters (`verify`; that they are the FST's words, in order, is
    /// `verify --deep`'s check).
    pub(crate) fn check_word_text(&self) -> Result<()> {
        let Some(text) = self.word_text()? else { return Ok(()) };
        let mut letters = true;
        text.each(|_, word| {
            letters = self.alphabet.is_word(word);
            if letters {
                std::ops::ControlFlow::Continue(())
            } else {
                std::ops::ControlFlow::Break(())
            }
        })?;
        if !letters {
            return Err(SectionId::WordText.corrupt("holds a word with a character outside the alphabet"));
        }
        Ok(())
    }

    /// The `word_text` table, when the index has one.
    pub(crate) fn word_text(&self) -> Result<Option<WordText<'_>>> {
        self.optional_table(SectionId::WordText, |cols, words| WordText::new(cols, words, &self.text_runs))
    }

    /// An optional section's view, made by `view` over its columns and
    /// the word count; `None` when the index leaves the section out.
    fn optional_table<'a, T>(
        &'a self,
        id: SectionId,
        view: impl FnOnce(Columns<'a>, usize) -> Result<T>,
    ) -> Result<Option<T>> {
        if !self.has_section(id) {
            return Ok(None);
        }
        view(self.columns(id)?, self.word_count()).map(Some)
    }

    /// The `endings` table, when the index has one.
    pub(crate) fn endings(&self) -> Result<Option<Endings<'_>>> {
        self.optional_table(SectionId::Endings, Endings::new)
    }

    /// The `endings` table whole: every word once, in order (it is read
    /// through the word text, which a build always writes beside it).
    pub(crate) fn check_endings(&self) -> Result<()> {
        let Some(endings) = self.endings()? else { return Ok(()) };
        let Some(text) = self.word_text()? else {
            return Err(SectionId::Endings.corrupt("is there without section `word_text`, which it is read through"));
        };
        endings.check(&text)
    }

    /// The `letter_groups` table, when the index has one.
    pub(crate) fn letter_groups(&self) -> Result<Option<LetterGroups<'_>>> {
        let letters = self.alphabet.len();
        let groups =
            self.optional_table(SectionId::LetterGroups, |cols, words| LetterGroups::new(cols, words, letters))?;
        Ok(groups.map(|groups| groups.copied_by(self.copy_out.as_deref())))
    }

    /// The `letter_groups` table whole, against the word text (which a
    /// build always writes beside it).
    pub(crate) fn check_letter_groups(&self) -> Result<()> {
        let Some(groups) = self.letter_groups()? else { return Ok(()) };
        let Some(text) = self.word_text()? else {
            return Err(SectionId::LetterGroups.corrupt("is there without section `word_text`, which it is checked by"));
        };
        groups.check(self.alphabet(), &text)
    }

    /// The id of a word, if the index has it.
    pub fn word_id(&self, word: &[u8]) -> Result<Option<u32>> {
        Ok(self.words()?.get(word)?.map(|id| id as u32))
    }

    /// The per-word common flags (all false when built without a list).
    pub fn common(&self) -> Result<CommonFlags<'_>> {
        // A build without a common list (or with one that matched no
        // word) flags none, and its metadata says so: its flags are not
        // read at all. On a list of 10 million words they are 1 MB, and
        // the blocks a query's ids fell in were a tenth of `anagram
        // listen`. (`verify` checks the flags against the count.)
        if !self.has_section(SectionId::Common) || self.meta.common_count == 0 {
            return Ok(CommonFlags { bits: None });
        }
        self.common_bits().map(|bits| CommonFlags { bits: Some(bits) })
    }

    /// The `common` section's flags, as long as the word list.
    fn common_bits(&self) -> Result<U64s<'_>> {
        let bits = self.columns(SectionId::Common)?.u64s(0)?;
        if bits.len() < self.word_count().div_ceil(64) {
            return Err(SectionId::Common.corrupt("is shorter than the word list"));
        }
        Ok(bits)
    }

    /// The `common` section whole (`verify`): as long as the word list,
    /// no flag past its last word, and as many flagged as the metadata
    /// counts, which is what queries trust when it is 0.
    pub(crate) fn check_common(&self) -> Result<()> {
        let bits = self.common_bits()?;
        let words = self.word_count();
        let mut flagged = 0u64;
        for (i, value) in bits.iter()?.enumerate() {
            // Of this value's 64 flags, those of words.
            let of_words = words.saturating_sub(i.saturating_mul(64)).min(64);
            let past_the_words = u64::MAX.checked_shl(of_words as u32).unwrap_or(0);
            if value & past_the_words != 0 {
                return Err(SectionId::Common.corrupt("flags a word past the last word"));
            }
            flagged += value.count_ones() as u64;
        }
        if flagged != self.meta.common_count {
            return Err(SectionId::Common.corrupt(format!(
                "flags {flagged} words common, where the metadata counts {}",
                self.meta.common_count
            )));
        }
        Ok(())
    }

    /// True when the index was built with a common list.
    pub fn has_common_list(&self) -> bool {
        self.meta.common_source.is_some()
    }

    /// True when the index keeps how its lists spelled folded words.
    pub fn has_spellings(&self) -> bool {
        self.has_section(SectionId::Spellings)
    }

    /// How the word lists spelled word `id` (`camión`), on an index that
    /// folds accents, where every line of it was spelled otherwise than
    /// the word; `None` otherwise.
    pub fn spelling(&self, id: u32) -> Result<Option<String>> {
        if !self.has_spellings() {
            return Ok(None);
        }
        let s = self.spellings()?;
        // The ids ascend: a binary search, bounded by their count.
        let (mut lo, mut hi) = (0, s.ids.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match s.ids.at(mid)?.cmp(&(id as usize)) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return s.text_of(mid).map(Some),
            }
        }
        Ok(None)
    }

    /// [`Index::spelling`] of a word given as text; `None` for a word the
    /// index does not have.
    pub fn spelling_of(&self, word: &str) -> Result<Option<String>> {
        if !self.has_spellings() {
            return Ok(None);
        }
        let Ok(codes) = self.alphabet.parse_word(word, "word") else { return Ok(None) };
        match self.word_id(&codes)? {
            Some(id) => self.spelling(id),
            None => Ok(None),
        }
    }

    /// Every spelling checked: ids ascending and in range, offsets
    /// ascending within the text, each spelling UTF-8 (`verify`).
    pub(crate) fn check_spellings(&self) -> Result<()> {
        let s = self.spellings()?;
        let mut last = None;
        for i in 0..s.ids.len() {
            let id = s.ids.at(i)?;
            if last.is_some_and(|l| l >= id) || id >= self.word_count() {
                return Err(SectionId::Spellings.corrupt("has word ids out of order or out of range"));
            }
            last = Some(id);
            s.text_of(i)?;
        }
        Ok(())
    }

    fn spellings(&self) -> Result<Spellings<'_>> {
        let cols = self.columns(SectionId::Spellings)?;
        let s = Spellings { ids: cols.u32s(0)?, offsets: cols.u32s(1)?, text: cols.bytes(2)? };
        if s.offsets.len() != s.ids.len() + 1 {
            return Err(SectionId::Spellings.corrupt("has offsets that do not match its word ids"));
        }
        Ok(s)
    }

    /// The one check every `common_only` question makes: an index built
    /// without a common list cannot answer one.
    pub fn require_common_list(&self, common_only: bool) -> Result<()> {
        if common_only && !self.has_common_list() {
            return Err(Error::invalid_param("common_only", "needs an index built with a common list"));
        }
        Ok(())
    }

    /// Checks every block of section `i` of the table and its whole
    /// checksum in one pass over its bytes, records the blocks for later
    /// queries, and tells a map the pass is done with the pages (a
    /// whole-file check would otherwise leave them all resident).
    pub(crate) fn check_section_crc(&self, i: usize) -> bool {
        let (Some(entry), Some(blocks)) = (self.header.sections.get(i), self.blocks.get(i)) else { return false };
        (self.will_read)(&self.data, entry.range());
        let ok = blocks.check_all(&self.data.as_ref()[entry.range()], entry.crc);
        (self.done_reading)(&self.data, entry.range());
        ok
    }
}

/// [`CommonFlags::ascending`]: ids from this many a block of flags
/// between the first and the last check those blocks before reading (on
/// a list of 10 million words, a honeycomb's hundreds of words fall in
/// every block of the 17 anyway); fewer check each block as it is reached.
const IDS_A_BLOCK_CHECKED_AHEAD: usize = 4;

/// The common flags of ids read in ascending order
/// ([`CommonFlags::ascending`]).
pub(crate) struct AscendingFlags<'a> {
    flags: CommonFlags<'a>,
    /// The bytes of the flags from the first id's to the last's,
    /// checked, and the index of the first flag word; `None`: checked as
    /// read.
    span: Option<(&'a [u8], usize)>,
    last: LastBlock,
}

impl AscendingFlags<'_> {
    /// True when word `id` is on the common list (see
    /// [`CommonFlags::is_common`]).
    #[inline(always)]
    pub(crate) fn is_common(&mut self, id: u32) -> Result<bool> {
        let word = id as usize / 64;
        let in_span = self.span.and_then(|(bytes, start)| crate::format::read_u64(bytes, word.checked_sub(start)? * 8));
        match in_span {
            Some(bits) => Ok(bits & (1 << (id % 64)) != 0),
            // Outside the span (no ascending read goes there): as any read.
            None => self.flags.is_common_near(id, &mut self.last),
        }
    }
}

/// The common flag of each word.
#[derive(Clone, Copy, Debug)]
pub struct CommonFlags<'a> {
    bits: Option<U64s<'a>>,
}

impl<'a> CommonFlags<'a> {
    /// True when word `id` is on the common list (false on an index
    /// without one): an error when the flag's block fails its checksum or
    /// `id` is past the flags, not "not common".
    #[inline]
    pub fn is_common(&self, id: u32) -> Result<bool> {
        match self.bits {
            Some(bits) => Ok(bits.at(id as usize / 64)? & (1 << (id % 64)) != 0),
            None => Ok(false),
        }
    }

    /// [`CommonFlags::is_common`] for one of many reads in order: the
    /// block checked last is remembered in `last`.
    #[inline(always)]
    pub(crate) fn is_common_near(&self, id: u32, last: &mut LastBlock) -> Result<bool> {
        match self.bits {
            Some(bits) => Ok(bits.at_near(id as usize / 64, last)? & (1 << (id % 64)) != 0),
            None => Ok(false),
        }
    }

    /// The flags of `count` ids to be read in ascending order, from
    /// `first` to `last`: where they are many for the blocks that hold
    /// their flags, those blocks are checked once and each flag is a
    /// plain read (a honeycomb's 537 words on enable1: `bee solve` in
    /// process 9.84 to 8.99 us); else each block as a read first reaches it.
    pub(crate) fn ascending(&self, first: u32, last: u32, count: usize) -> Result<AscendingFlags<'a>> {
        let span = match self.bits {
            Some(bits) if first <= last => {
                let words = first as usize / 64..last as usize / 64 + 1;
                let blocks = (words.end * 8).div_ceil(BLOCK_LEN) - words.start * 8 / BLOCK_LEN;
                if count >= IDS_A_BLOCK_CHECKED_AHEAD * blocks {
                    Some((bits.slice(words.clone())?.as_bytes()?, words.start))
                } else {
                    None
                }
            }
            _ => None,
        };
        Ok(AscendingFlags { flags: *self, span, last: LastBlock::default() })
    }

    /// The flag of each of `ids`, in order (see [`CommonFlags::is_common`]
    /// for the errors): sorted ids read the same blocks one after another.
    pub fn flags_of(&self, ids: &[u32]) -> Result<Vec<bool>> {
        let mut last = LastBlock::default();
        ids.iter().map(|&id| self.is_common_near(id, &mut last)).collect()
    }

    /// Keeps only the ids of common words, in order (see
    /// [`CommonFlags::is_common`] for the errors).
    pub fn retain_common(&self, ids: &mut Vec<u32>) -> Result<()> {
        let mut failed = None;
        let mut last = LastBlock::default();
        ids.retain(|&id| match self.is_common_near(id, &mut last) {
            Ok(common) => common,
            Err(e) => {
                failed.get_or_insert(e);
                false
            }
        });
        failed.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    /// Ids read in ascending order get the flags that reading them one at
    /// a time gives, whether the blocks under them are checked ahead (many
    /// ids for the blocks) or as each is reached (few).
    #[test]
    fn ascending_flags_are_the_flags_one_at_a_time() {
        let spell = |mut n: usize| {
            let mut word = String::from("q");
            while n > 0 {
                word.push((b'a' + (n % 26) as u8) as char);
                n /= 26;
            }
            word
        };
        let words: Vec<String> = (0..3000).map(spell).collect();
        let common: Vec<String> = words.iter().step_by(7).cloned().collect();
        let index = crate::testutil::index(&words.join("\n"), Some(&common.join("\n")));
        let flags = index.common().unwrap();
        let mut rng = crate::rng::SplitMix64::new(17);
        for round in 0..40 {
            let ids: Vec<u32> = (0..index.word_count() as u32).filter(|_| rng.below(40) < round % 8).collect();
            let (first, last) = (ids.first().copied().unwrap_or(0), ids.last().copied().unwrap_or(0));
            let want: Vec<bool> = ids.iter().map(|&id| flags.is_common(id).unwrap()).collect();
            for count in [0, ids.len(), usize::MAX] {
                let mut ascending = flags.ascending(first, last, count).unwrap();
                let got: Vec<bool> = ids.iter().map(|&id| ascending.is_common(id).unwrap()).collect();
                assert_eq!(got, want, "round {round}, count {count}");
            }
            assert!(round % 8 == 0 || want.contains(&true), "some ids are common");
        }
    }
}
