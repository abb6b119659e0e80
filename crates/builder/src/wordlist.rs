//! Reading word lists: one word a line, normalised as SPEC says.
//!
//! A line loses its UTF-8 BOM and surrounding whitespace (CR included) and
//! is lowercased. It is kept when every character is a letter of the
//! alphabet; otherwise it is skipped and counted by reason. A file of up
//! to 64 MiB is read whole and, when large, parsed in two halves on two
//! threads; standard input and larger files stream through a fixed buffer,
//! so a huge line or file costs no more memory than the words it keeps.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;

use sha2::{Digest, Sha256};
use wordhoard_query::Alphabet;

use wordhoard_query::format::{Sha256 as DigestBytes, SourceFile};

use crate::error::BuildError;
use crate::sorted_words::{sort_and_dedup, SortedWords};

/// The longest word kept, in letters (term lengths are stored as `u8`).
pub use wordhoard_query::format::MAX_WORD_LEN;
/// Lines longer than this (in bytes, before trimming) are skipped unread.
pub const MAX_LINE_BYTES: usize = 4096;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where a word list comes from.
#[derive(Clone, Debug)]
pub enum WordSource {
    /// A file on disk.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A copy of a stream in a file (standard input, which the builder
    /// must read twice to find its alphabet), with the name it shows.
    Spooled {
        /// The name shown in reports (`-` for stdin).
        name: String,
        /// The copy.
        path: PathBuf,
    },
    /// Text in memory, with a name for reports (tests, examples).
    Text {
        /// The name shown in reports.
        name: String,
        /// The list itself.
        text: String,
    },
}

impl WordSource {
    /// A source from a command-line argument: `-` is stdin.
    pub fn from_arg(arg: &str) -> WordSource {
        if arg == "-" {
            WordSource::Stdin
        } else {
            WordSource::File(arg.into())
        }
    }

    /// A source from text in memory.
    pub fn from_text(name: &str, text: &str) -> WordSource {
        WordSource::Text { name: name.to_string(), text: text.to_string() }
    }

    /// Where the list's bytes can be read again: standard input is copied
    /// into `spool` (constant memory, however long it is).
    pub(crate) fn rereadable(self, spool: &std::path::Path) -> Result<WordSource, BuildError> {
        match self {
            WordSource::Stdin => {
                let mut file = File::create(spool).map_err(|e| BuildError::write(spool, "create", e))?;
                io::copy(&mut io::stdin().lock(), &mut file).map_err(|e| BuildError::read_list("-".into(), None, e))?;
                Ok(WordSource::Spooled { name: "-".into(), path: spool.to_path_buf() })
            }
            WordSource::File(ref p) if p.is_dir() => Err(BuildError::list_is_folder(p.clone())),
            other => Ok(other),
        }
    }

    /// True when every byte of the list is ASCII and none is a capital
    /// (read in blocks): such a list is a-z with no proper nouns, and
    /// needs no line-by-line look.
    pub(crate) fn is_lowercase_ascii(&self) -> Result<bool, BuildError> {
        let mut reader = self.open()?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return Ok(true),
                Ok(n) if !is_lowercase_ascii(&buf[..n]) => return Ok(false),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(BuildError::read_list(self.name(), None, e)),
            }
        }
    }

    /// Calls `f` with each line of the list (read in blocks, so a long list
    /// costs no more memory than a block).
    pub(crate) fn each_line(&self, mut f: impl FnMut(&[u8])) -> Result<(), BuildError> {
        let reader = BufReader::with_capacity(1 << 16, self.open()?);
        for_each_line(reader, None, |line| {
            if let Some(line) = line {
                f(line);
            }
            Ok(())
        })
        .map_err(|(line, e)| BuildError::read_list(self.name(), Some(line + 1), e))
    }

    /// The name an index records: the file name without its folder, so an
    /// index says nothing of where it was built; `-` for stdin.
    pub fn file_name(&self) -> String {
        match self {
            WordSource::File(p) => {
                p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
            }
            WordSource::Stdin => "-".to_string(),
            WordSource::Text { name, .. } | WordSource::Spooled { name, .. } => name.clone(),
        }
    }

    /// The name shown in reports and errors.
    pub fn name(&self) -> String {
        match self {
            WordSource::File(p) => p.display().to_string(),
            WordSource::Stdin => "-".to_string(),
            WordSource::Text { name, .. } | WordSource::Spooled { name, .. } => name.clone(),
        }
    }

    fn open(&self) -> Result<Box<dyn Read + '_>, BuildError> {
        Ok(match self {
            WordSource::File(p) => {
                if p.is_dir() {
                    return Err(BuildError::list_is_folder(p.clone()));
                }
                let f = File::open(p).map_err(|e| BuildError::read_list(self.name(), None, e))?;
                Box::new(f)
            }
            WordSource::Stdin => Box::new(io::stdin().lock()),
            WordSource::Spooled { path, name } => {
                Box::new(File::open(path).map_err(|e| BuildError::read_list(name.clone(), None, e))?)
            }
            WordSource::Text { text, .. } => Box::new(text.as_bytes()),
        })
    }
}

/// Why lines were skipped, with the first line skipped for each reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Empty (or only whitespace).
    pub empty: u64,
    /// A character outside the alphabet: digits, punctuation, spaces, or
    /// a letter the alphabet lacks.
    pub not_in_alphabet: u64,
    /// Of [`Skipped::not_in_alphabet`], the lines made only of letters,
    /// one of which the alphabet lacks (`éclair` in an a-z index).
    pub letter_outside_alphabet: u64,
    /// Not valid UTF-8.
    pub not_utf8: u64,
    /// Longer than [`MAX_WORD_LEN`] letters or [`MAX_LINE_BYTES`] bytes.
    pub too_long: u64,
    /// A word with a capital letter, read as a proper noun (only when the
    /// build skips proper nouns).
    pub proper_noun: u64,
    /// The first line skipped for each reason.
    pub examples: SkipExamples,
}

/// The first line skipped for each reason, trimmed and cut to
/// [`EXAMPLE_CHARS`] characters (invalid UTF-8 shown replaced).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkipExamples {
    /// The first line of [`Skipped::not_in_alphabet`] with a character
    /// that is not a letter (the letters' own example is apart).
    pub not_in_alphabet: Option<String>,
    /// See [`Skipped::letter_outside_alphabet`].
    pub letter_outside_alphabet: Option<String>,
    /// See [`Skipped::not_utf8`].
    pub not_utf8: Option<String>,
    /// See [`Skipped::too_long`].
    pub too_long: Option<String>,
    /// See [`Skipped::proper_noun`].
    pub proper_noun: Option<String>,
}

/// The longest example a report shows, in characters.
pub const EXAMPLE_CHARS: usize = 40;

/// Keeps `line` as the example in `slot` unless it has one.
fn note(slot: &mut Option<String>, line: &[u8]) {
    if slot.is_none() {
        let text = String::from_utf8_lossy(line.strip_prefix(BOM).unwrap_or(line));
        let text = text.trim();
        let mut example: String = text.chars().take(EXAMPLE_CHARS).collect();
        if example.len() < text.len() {
            example.push('…');
        }
        *slot = Some(example);
    }
}

impl Skipped {
    /// All skipped lines.
    pub fn total(&self) -> u64 {
        self.empty + self.not_in_alphabet + self.not_utf8 + self.too_long + self.proper_noun
    }

    /// Adds the counts of `other`; examples already held are kept.
    fn merge(&mut self, other: Skipped) {
        self.empty += other.empty;
        self.not_in_alphabet += other.not_in_alphabet;
        self.letter_outside_alphabet += other.letter_outside_alphabet;
        self.not_utf8 += other.not_utf8;
        self.too_long += other.too_long;
        self.proper_noun += other.proper_noun;
        let (mine, theirs) = (&mut self.examples, other.examples);
        for (slot, example) in [
            (&mut mine.not_in_alphabet, theirs.not_in_alphabet),
            (&mut mine.letter_outside_alphabet, theirs.letter_outside_alphabet),
            (&mut mine.not_utf8, theirs.not_utf8),
            (&mut mine.too_long, theirs.too_long),
            (&mut mine.proper_noun, theirs.proper_noun),
        ] {
            if slot.is_none() {
                *slot = example;
            }
        }
    }

    fn count_too_long(&mut self, line: Option<&[u8]>) {
        self.too_long += 1;
        if let Some(line) = line {
            note(&mut self.examples.too_long, line);
        }
    }
}

/// Files up to this size are read whole (and parsed on two threads);
/// larger ones stream.
const WHOLE_FILE_MAX: u64 = 64 << 20;
/// Below this size a list is parsed on one thread: a thread costs more.
const PARALLEL_READ_MIN: usize = 256 << 10;

/// Kept lines held before the list is de-duplicated in place, so memory
/// follows the distinct words, not the lines (a list of ten million lines
/// with few distinct words stays small).
const COMPACT_AT: usize = 1 << 20;

/// Words read from one or more lists: kept in one byte arena.
#[derive(Default)]
pub struct WordList {
    bytes: Vec<u8>,
    spans: Vec<(u32, u8)>,
    compact_at: usize,
    /// Some word was not greater than the one before it: sorting is needed.
    unordered: bool,
    /// Lines read.
    pub lines: u64,
    /// Lines skipped, by reason.
    pub skipped: Skipped,
    /// Each list read: its file name and the SHA-256 of its bytes.
    pub sources: Vec<SourceFile>,
    /// Hashes the list being read.
    hasher: Sha256,
    /// Words with a capital letter are proper nouns, skipped.
    skip_capitalised: bool,
    /// On an index that folds accents: each kept line's folded word and
    /// how the line spelled it (`None` when the same), so each word can be
    /// shown as the list spelled it ([`WordList::spellings`]).
    spelled: Option<Vec<(Vec<u8>, Option<String>)>>,
}

impl WordList {
    /// Reads every source in order; capitals are lowercased.
    pub fn read(sources: &[WordSource], alphabet: &Alphabet) -> Result<WordList, BuildError> {
        WordList::read_skipping(sources, alphabet, false)
    }

    /// Reads every source in order; with `skip_capitalised`, a word with
    /// a capital letter is a proper noun, skipped and counted.
    pub fn read_skipping(
        sources: &[WordSource],
        alphabet: &Alphabet,
        skip_capitalised: bool,
    ) -> Result<WordList, BuildError> {
        let mut list = WordList { skip_capitalised, ..WordList::default() };
        if alphabet.folding().accents {
            list.spelled = Some(Vec::new());
        }
        for source in sources {
            list.read_source(source, alphabet)?;
        }
        Ok(list)
    }

    fn read_source(&mut self, source: &WordSource, alphabet: &Alphabet) -> Result<(), BuildError> {
        match source {
            WordSource::Text { text, .. } => self.read_whole(text.as_bytes(), alphabet),
            WordSource::Spooled { path, .. } if path.metadata().is_ok_and(|m| m.len() <= WHOLE_FILE_MAX) => {
                let text = std::fs::read(path).map_err(|e| BuildError::read_list(source.name(), None, e))?;
                self.read_whole(&text, alphabet);
            }
            WordSource::File(path) if path.metadata().is_ok_and(|m| m.is_file() && m.len() <= WHOLE_FILE_MAX) => {
                let text = std::fs::read(path).map_err(|e| BuildError::read_list(source.name(), None, e))?;
                self.read_whole(&text, alphabet);
            }
            _ => self.read_stream(source, alphabet)?,
        }
        let digest = std::mem::take(&mut self.hasher).finalize();
        self.sources.push(SourceFile { name: source.file_name(), sha256: DigestBytes(digest.into()) });
        if self.bytes.len() > u32::MAX as usize {
            return Err(BuildError::too_large(format!("{}: the word lists hold over 4 GiB of words", source.name())));
        }
        Ok(())
    }

    /// Reads a list held whole in memory. A large one is read in two
    /// parts, split at a line's end, on two threads; this one also hashes
    /// the whole text while the other reads, so it takes the smaller part.
    fn read_whole(&mut self, text: &[u8], alphabet: &Alphabet) {
        let letters = LetterBytes::new(alphabet);
        let split = if text.len() < PARALLEL_READ_MIN {
            None
        } else {
            memchr::memchr(b'\n', &text[text.len() * 9 / 20..]).map(|at| text.len() * 9 / 20 + at + 1)
        };
        let Some(split) = split else {
            self.hasher.update(text);
            self.add_lines(text, &letters, alphabet);
            return;
        };
        let (first, second) = text.split_at(split);
        let skip_capitalised = self.skip_capitalised;
        let spelled = self.spelled.as_ref().map(|_| Vec::new());
        // Each part is sorted on its own thread, and the two merged in one
        // pass: not one sort of both on one thread.
        let second = std::thread::scope(|s| {
            let second = s.spawn(|| {
                let mut list = WordList { skip_capitalised, spelled, ..WordList::default() };
                list.add_lines(second, &letters, alphabet);
                list.compact();
                list
            });
            // (On enable1 the hash is 1 ms of the 6 ms the two parts take.)
            self.hasher.update(text);
            self.add_lines(first, &letters, alphabet);
            self.compact();
            second.join().expect("word list reading thread")
        });
        self.append(second);
    }

    /// Adds every line of `text` (the last may lack its line end).
    fn add_lines(&mut self, text: &[u8], letters: &LetterBytes, alphabet: &Alphabet) {
        let mut lower = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let line = &rest[..end];
            rest = &rest[(end + 1).min(rest.len())..];
            self.lines += 1;
            if line.len() <= MAX_LINE_BYTES {
                self.add_line(line, letters, alphabet, &mut lower);
            } else {
                self.skipped.count_too_long(None);
            }
        }
    }

    /// Appends the words and counts of a list read after this one; two
    /// lists each in strict order are merged into one in order.
    fn append(&mut self, other: WordList) {
        let seam_in_order = match (self.spans.last(), other.spans.first()) {
            (Some(&(at, len)), Some(&(first, first_len))) => {
                self.bytes[at as usize..][..len as usize] < other.bytes[first as usize..][..first_len as usize]
            }
            _ => true,
        };
        if !self.unordered && !other.unordered && !seam_in_order {
            self.merge_words(&other);
        } else {
            // Appended, the words stay in order when both lists and the
            // seam between them are (a sorted list read in two halves).
            self.append_words(&other);
        }
        self.compact_at = self.compact_at.max(other.compact_at);
        self.lines += other.lines;
        self.skipped.merge(other.skipped);
        if let (Some(mine), Some(theirs)) = (self.spelled.as_mut(), other.spelled) {
            mine.extend(theirs);
        }
        self.make_room();
    }

    /// Merges two lists of words each in strict byte order (sorted, no
    /// repeats) into one, a word in both kept once.
    fn merge_words(&mut self, other: &WordList) {
        fn word(list: &WordList, i: usize) -> &[u8] {
            let (at, len) = list.spans[i];
            &list.bytes[at as usize..at as usize + len as usize]
        }
        use std::cmp::Ordering::{Greater, Less};
        let mut bytes = Vec::with_capacity(self.bytes.len() + other.bytes.len());
        let mut spans = Vec::with_capacity(self.spans.len() + other.spans.len());
        let (mut i, mut j) = (0, 0);
        while i < self.spans.len() || j < other.spans.len() {
            // Less: this list's word comes first; Greater: the other's;
            // Equal: both, kept once.
            let order = match (i < self.spans.len(), j < other.spans.len()) {
                (true, true) => word(self, i).cmp(word(other, j)),
                (true, false) => Less,
                _ => Greater,
            };
            let next = if order == Greater { word(other, j) } else { word(self, i) };
            i += (order != Greater) as usize;
            j += (order != Less) as usize;
            spans.push((bytes.len() as u32, next.len() as u8));
            bytes.extend_from_slice(next);
        }
        (self.bytes, self.spans) = (bytes, spans);
    }

    /// Appends another list's words after this one's.
    fn append_words(&mut self, other: &WordList) {
        let base = self.bytes.len() as u32;
        if let (Some(&(at, len)), Some(&(first, first_len))) = (self.spans.last(), other.spans.first()) {
            let last = &self.bytes[at as usize..at as usize + len as usize];
            let next = &other.bytes[first as usize..first as usize + first_len as usize];
            self.unordered |= last >= next;
        }
        self.unordered |= other.unordered;
        self.bytes.extend_from_slice(&other.bytes);
        self.spans.extend(other.spans.iter().map(|&(at, len)| (base + at, len)));
    }

    /// Reads a stream (standard input, a huge file) through a fixed buffer,
    /// so it costs no more memory than the words it keeps.
    fn read_stream(&mut self, source: &WordSource, alphabet: &Alphabet) -> Result<(), BuildError> {
        let reader = BufReader::with_capacity(1 << 16, source.open()?);
        let letters = LetterBytes::new(alphabet);
        let mut lower = Vec::new();
        let mut hasher = std::mem::take(&mut self.hasher);
        let result = for_each_line(reader, Some(&mut hasher), |line| {
            self.lines += 1;
            match line {
                Some(raw) => self.add_line(raw, &letters, alphabet, &mut lower),
                None => self.skipped.count_too_long(None),
            }
            Ok(())
        });
        self.hasher = hasher;
        result.map_err(|(line, e)| BuildError::read_list(source.name(), Some(line + 1), e))
    }

    fn add_line(&mut self, raw: &[u8], letters: &LetterBytes, alphabet: &Alphabet, lower: &mut Vec<u8>) {
        // The common case, a line of nothing but letters of either case, is
        // lowercased straight into the arena in one pass.
        if (1..=MAX_WORD_LEN).contains(&raw.len()) {
            self.make_room();
            let start = self.bytes.len();
            let mut clean = true;
            self.bytes.extend(raw.iter().map(|&b| {
                let letter = letters.0[b as usize];
                clean &= letter != 0;
                letter
            }));
            if clean {
                if self.skip_capitalised && raw.iter().any(u8::is_ascii_uppercase) {
                    self.bytes.truncate(start);
                    self.proper_noun(raw);
                } else {
                    self.keep(start);
                }
                return;
            }
            self.bytes.truncate(start);
        }
        // Then an ASCII line with spaces around it or characters outside
        // the alphabet; anything else takes the long way.
        let word = raw.strip_prefix(BOM).unwrap_or(raw).trim_ascii();
        if word.is_ascii() && !word.is_empty() && word.len() <= MAX_WORD_LEN {
            self.make_room();
            let start = self.bytes.len();
            self.bytes.extend(word.iter().map(u8::to_ascii_lowercase));
            let is_word = alphabet.is_word(&self.bytes[start..]);
            if is_word && !(self.skip_capitalised && word.iter().any(u8::is_ascii_uppercase)) {
                self.keep(start);
            } else {
                self.bytes.truncate(start);
                self.outside_alphabet(word);
            }
            return;
        }
        match normalise(raw, alphabet, lower) {
            Err(SkipReason::NotUtf8) => {
                self.skipped.not_utf8 += 1;
                note(&mut self.skipped.examples.not_utf8, raw);
            }
            Err(SkipReason::NotInAlphabet) => self.outside_alphabet(raw),
            Ok(()) if lower.is_empty() => self.skipped.empty += 1,
            Ok(()) if lower.len() > MAX_WORD_LEN => self.skipped.count_too_long(Some(raw)),
            Ok(()) if !alphabet.is_word(lower) => self.outside_alphabet(raw),
            Ok(()) if self.skip_capitalised && is_capitalised(raw) => self.proper_noun(raw),
            Ok(()) => {
                self.make_room();
                let start = self.bytes.len();
                self.bytes.extend_from_slice(lower);
                self.keep(start);
                if let Some(spelled) = self.spelled.as_mut() {
                    // As the list spelled it: NFC and lowercase, unfolded.
                    let text = String::from_utf8_lossy(raw.strip_prefix(BOM).unwrap_or(raw));
                    let spelling = wordhoard_query::alphabet::Folding::default().normalise(text.trim());
                    let same = alphabet.word_string(lower.clone()) == spelling;
                    if let Some(note) = spelled.last_mut() {
                        note.1 = (!same).then_some(spelling);
                    }
                }
            }
        }
    }

    fn proper_noun(&mut self, line: &[u8]) {
        self.skipped.proper_noun += 1;
        note(&mut self.skipped.examples.proper_noun, line);
    }

    /// Counts a line that is not a word of the alphabet (or a capitalised
    /// one, when they are skipped), by what it holds: a proper noun (all
    /// letters, a capital among them), letters the alphabet lacks, or
    /// characters that are not letters. Skipped lines are few in most
    /// lists, so this takes its time.
    fn outside_alphabet(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line.strip_prefix(BOM).unwrap_or(line));
        let all_letters = text.trim().chars().all(char::is_alphabetic);
        if all_letters && self.skip_capitalised && is_capitalised(line) {
            return self.proper_noun(line);
        }
        self.skipped.not_in_alphabet += 1;
        if all_letters {
            self.skipped.letter_outside_alphabet += 1;
            note(&mut self.skipped.examples.letter_outside_alphabet, line);
        } else {
            note(&mut self.skipped.examples.not_in_alphabet, line);
        }
    }

    /// Keeps the word that ends the arena, from `start`. Whether the list
    /// is still in order is checked here, while both words are in cache.
    #[inline]
    fn keep(&mut self, start: usize) {
        if let Some(spelled) = self.spelled.as_mut() {
            // Every kept word is noted; the long way replaces this note's
            // spelling with the line's own (see `add_line`).
            spelled.push((self.bytes[start..].to_vec(), None));
        }
        if let Some(&(at, len)) = self.spans.last() {
            let previous = &self.bytes[at as usize..at as usize + len as usize];
            self.unordered |= previous >= &self.bytes[start..];
        }
        self.spans.push((start as u32, (self.bytes.len() - start) as u8));
    }

    /// Compacts when the kept lines have doubled since the last time.
    fn make_room(&mut self) {
        if self.spans.len() >= self.compact_at.max(COMPACT_AT) {
            self.compact();
        }
    }

    /// Sorts and de-duplicates what was read so far, rewriting the arena;
    /// the next compaction waits until the list has doubled again, or
    /// grown sixteenfold when this one found few repeats (a quarter of the
    /// words or fewer): then compacting sooner would save little memory,
    /// and each compaction sorts again what the last one sorted (a list of
    /// ten million distinct words compacts once, at a million).
    fn compact(&mut self) {
        let before = self.spans.len();
        let words = sort_and_dedup(std::mem::take(&mut self.bytes), std::mem::take(&mut self.spans), !self.unordered);
        self.unordered = false;
        self.spans = (0..words.len()).map(|id| (words.starts[id], words.get(id).len() as u8)).collect();
        self.bytes = words.bytes;
        self.compact_at = if self.spans.len() > before / 4 * 3 { 16 } else { 2 } * self.spans.len();
    }

    /// The digest of all the lists read: the one list's own digest, or,
    /// for several, the SHA-256 of their digests one after another (so no
    /// byte is hashed twice). The format spec defines it so.
    pub fn sources_sha256(&self) -> DigestBytes {
        match self.sources.as_slice() {
            [one] => one.sha256,
            all => DigestBytes(all.iter().fold(Sha256::new(), |h, s| h.chain_update(s.sha256.0)).finalize().into()),
        }
    }

    /// On an index that folds accents, each word's spelling where every
    /// line of it was spelled otherwise (`camión` for `camion`; a list that
    /// also has `camion` shows that): the folded word and the first such
    /// spelling in byte order, sorted by word. Empty when not folding.
    pub fn spellings(&mut self) -> Vec<(Vec<u8>, String)> {
        let Some(mut notes) = self.spelled.take() else { return Vec::new() };
        // Plain notes (None) sort first within a word.
        notes.sort_unstable();
        let mut out: Vec<(Vec<u8>, String)> = Vec::new();
        let mut i = 0;
        while i < notes.len() {
            let word = notes[i].0.clone();
            let end = i + notes[i..].iter().take_while(|(w, _)| *w == word).count();
            if let Some(spelling) = &notes[i].1 {
                out.push((word, spelling.clone()));
            }
            i = end;
        }
        out
    }

    /// The distinct words, sorted (byte order); consumes the list.
    pub fn into_sorted_words(self) -> SortedWords {
        sort_and_dedup(self.bytes, self.spans, !self.unordered)
    }
}

/// Each byte's lowercase letter if that is in the alphabet, else 0: one
/// lookup per byte decides whether a line is a plain word.
struct LetterBytes([u8; 256]);

impl LetterBytes {
    fn new(alphabet: &Alphabet) -> LetterBytes {
        let mut table = [0u8; 256];
        for (b, slot) in (0..=255u8).zip(table.iter_mut()) {
            let lower = b.to_ascii_lowercase();
            // 0 marks "not a letter", so a NUL letter takes the long way.
            // Only ASCII bytes: codes past 0x7f stand for letters outside
            // ASCII, which arrive as UTF-8 and take the long way.
            if lower != 0 && lower.is_ascii() && alphabet.index_of(lower).is_some() {
                *slot = lower;
            }
        }
        LetterBytes(table)
    }
}

enum SkipReason {
    NotUtf8,
    NotInAlphabet,
}

/// True when every byte of `bytes` is ASCII and none is a capital: a
/// test a byte folded with no early exit, which the compiler turns into
/// vector code (the list is planned on one thread before it is read).
fn is_lowercase_ascii(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |bad, &b| bad | b & 0x80 | (b.wrapping_sub(b'A') < 26) as u8) == 0
}

/// True when a line has a capital letter (of any script).
pub(crate) fn is_capitalised(line: &[u8]) -> bool {
    match std::str::from_utf8(line) {
        Ok(text) if !text.is_ascii() => text.chars().any(char::is_uppercase),
        _ => line.iter().any(u8::is_ascii_uppercase),
    }
}

/// Strips a BOM and whitespace and lowercases `raw` into `out`.
fn normalise(raw: &[u8], alphabet: &Alphabet, out: &mut Vec<u8>) -> Result<(), SkipReason> {
    out.clear();
    let raw = raw.strip_prefix(BOM).unwrap_or(raw);
    if raw.is_ascii() {
        out.extend(raw.trim_ascii().iter().map(u8::to_ascii_lowercase));
        return Ok(());
    }
    // Non-ASCII text: NFC, Unicode lowercasing (which can map a character
    // into the alphabet: KELVIN SIGN -> k) and the alphabet's folding,
    // then each letter's code.
    let text = std::str::from_utf8(raw).map_err(|_| SkipReason::NotUtf8)?;
    for c in alphabet.folding().normalise(text.trim()).chars() {
        out.push(alphabet.code_of(c).ok_or(SkipReason::NotInAlphabet)?);
    }
    Ok(())
}

/// Calls `f` with each line (without its `\n`), or `None` for a line over
/// [`MAX_LINE_BYTES`], hashing every byte read when given a hasher. Lines are handed out of
/// the reader's buffer where they lie whole in it; only a line split
/// across two reads is copied. An I/O error comes back with the number of
/// lines read before it.
fn for_each_line<R: BufRead>(
    mut reader: R,
    mut hasher: Option<&mut Sha256>,
    mut f: impl FnMut(Option<&[u8]>) -> io::Result<()>,
) -> Result<(), (u64, io::Error)> {
    // The start of a line the last read cut; `too_long` once it outgrew
    // the limit (and stopped being kept).
    let mut carried = Vec::new();
    let mut too_long = false;
    let mut lines = 0u64;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err((lines, e)),
        };
        if buf.is_empty() {
            break;
        }
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(buf);
        }
        let mut rest = buf;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            let piece = &rest[..end];
            rest = &rest[end + 1..];
            let line = if carried.is_empty() && !too_long {
                (piece.len() <= MAX_LINE_BYTES).then_some(piece)
            } else {
                too_long |= carried.len() + piece.len() > MAX_LINE_BYTES;
                if !too_long {
                    carried.extend_from_slice(piece);
                }
                (!too_long).then_some(&carried[..])
            };
            f(line).map_err(|e| (lines, e))?;
            lines += 1;
            carried.clear();
            too_long = false;
        }
        too_long |= carried.len() + rest.len() > MAX_LINE_BYTES;
        if too_long {
            carried.clear();
        } else {
            carried.extend_from_slice(rest);
        }
        let used = buf.len();
        reader.consume(used);
    }
    if too_long || !carried.is_empty() {
        f((!too_long).then_some(&carried[..])).map_err(|e| (lines, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> (Vec<String>, WordList) {
        let mut list = WordList::default();
        for_each_line(text, None, |line| {
            list.lines += 1;
            let mut lower = Vec::new();
            let alphabet = Alphabet::latin();
            match line {
                Some(raw) => list.add_line(raw, &LetterBytes::new(&alphabet), &alphabet, &mut lower),
                None => list.skipped.count_too_long(None),
            }
            Ok(())
        })
        .unwrap();
        let stats = WordList { lines: list.lines, skipped: list.skipped.clone(), ..Default::default() };
        let words = list.into_sorted_words().iter().map(|w| String::from_utf8(w.to_vec()).unwrap()).collect();
        (words, stats)
    }

    #[test]
    fn lines_split_across_reads_come_out_whole() {
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let edge = "y".repeat(MAX_LINE_BYTES);
        let text = format!("ab\n\ncd e\n{long}\nfg\n{edge}\n{long}{long}\nlast");
        let lines = |capacity: usize| {
            let mut got: Vec<Option<Vec<u8>>> = Vec::new();
            let mut hasher = Sha256::new();
            let reader = std::io::BufReader::with_capacity(capacity, text.as_bytes());
            for_each_line(reader, Some(&mut hasher), |line| {
                got.push(line.map(<[u8]>::to_vec));
                Ok(())
            })
            .unwrap();
            (got, hasher.finalize())
        };
        let whole = lines(1 << 16);
        assert_eq!(whole.0.len(), 8);
        assert_eq!(whole.0[3], None, "over the limit");
        assert_eq!(whole.0[5].as_deref(), Some(edge.as_bytes()), "at the limit");
        assert_eq!(whole.0[6], None);
        assert_eq!(whole.0[7].as_deref(), Some(&b"last"[..]));
        assert_eq!(whole.1, Sha256::digest(text.as_bytes()));
        for capacity in [1, 2, 3, 5, 64, MAX_LINE_BYTES - 1, MAX_LINE_BYTES + 3] {
            assert_eq!(lines(capacity), whole, "reads of {capacity} bytes");
        }
    }

    #[test]
    fn lists_in_order_merge_into_one_in_order() {
        let alphabet = Alphabet::latin();
        let letters = LetterBytes::new(&alphabet);
        let list = |text: &[u8]| {
            let mut list = WordList::default();
            list.add_lines(text, &letters, &alphabet);
            list
        };
        let words = |list: &WordList| -> Vec<Vec<u8>> {
            list.spans.iter().map(|&(at, len)| list.bytes[at as usize..][..len as usize].to_vec()).collect()
        };
        // (the first list, the second, the words merged)
        type Case<'a> = (&'a [u8], &'a [u8], &'a [&'a [u8]]);
        let cases: [Case; 5] = [
            (b"ant\nbee\ncat\n", b"bee\ncow\n", &[b"ant", b"bee", b"cat", b"cow"]),
            (b"", b"ant\n", &[b"ant"]),
            (b"ant\n", b"", &[b"ant"]),
            (b"b\nba\n", b"a\nb\nbaa\n", &[b"a", b"b", b"ba", b"baa"]),
            (b"ant\nbee\n", b"cat\n", &[b"ant", b"bee", b"cat"]),
        ];
        for (first, second, want) in cases {
            let mut merged = list(first);
            let other = list(second);
            assert!(!merged.unordered && !other.unordered);
            merged.append(other);
            assert_eq!(words(&merged), want, "{first:?} + {second:?}");
            assert!(!merged.unordered);
            assert_eq!(merged.lines, (first.iter().chain(second).filter(|&&b| b == b'\n').count()) as u64);
        }
    }

    #[test]
    fn a_list_read_whole_in_two_parts_matches_it_streamed() {
        // Over the size read on two threads, with every kind of line, a
        // BOM first, no line end last, and words out of order at the split.
        let mut rng = crate::test_rng::SplitMix64::new(9);
        let kinds: [&[u8]; 9] =
            [b"Apple", b"  pear\r", b"", b"4x4", b"don't", b"\xff\xfe", b"ZEBRA", b"kiwi", "\u{212A}elvin".as_bytes()];
        let mut text = b"\xEF\xBB\xBFfirst\n".to_vec();
        while text.len() < 2 * PARALLEL_READ_MIN {
            match rng.below(200) {
                0 => text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1)),
                1..=50 => text.extend_from_slice(kinds[rng.below(kinds.len() as u64) as usize]),
                _ => text.extend((0..1 + rng.below(9)).map(|_| b'a' + rng.below(26) as u8)),
            }
            text.push(b'\n');
        }
        text.extend_from_slice(b"last");
        // A sorted list but for the two words either side of the split,
        // swapped: each part is in order, and only the seam is not.
        let mut seam: Vec<Vec<u8>> =
            (0..120_000u32).map(|i| (0..4).map(|d| b'a' + (i / 26u32.pow(3 - d) % 26) as u8).collect()).collect();
        // Lines are 5 bytes; the first part ends with the first line end
        // at or after 9/20 of the text.
        let last_of_first = seam.len() * 5 * 9 / 20 / 5;
        seam.swap(last_of_first, last_of_first + 1);
        let seam: Vec<u8> = seam.iter().flat_map(|w| w.iter().chain(b"\n")).copied().collect();
        let alphabet = Alphabet::latin();
        for text in [text, seam] {
            let mut whole = WordList::default();
            whole.read_whole(&text, &alphabet);
            let mut streamed = WordList::default();
            let (letters, mut lower, mut hasher) = (LetterBytes::new(&alphabet), Vec::new(), Sha256::new());
            for_each_line(text.as_slice(), Some(&mut hasher), |line| {
                streamed.lines += 1;
                match line {
                    Some(raw) => streamed.add_line(raw, &letters, &alphabet, &mut lower),
                    None => streamed.skipped.count_too_long(None),
                }
                Ok(())
            })
            .unwrap();
            assert!(whole.lines > 10_000);
            assert_eq!((whole.lines, &whole.skipped), (streamed.lines, &streamed.skipped));
            assert_eq!(whole.hasher.clone().finalize(), hasher.finalize());
            assert_eq!(whole.into_sorted_words(), streamed.into_sorted_words());
        }
    }

    /// The folded test agrees with the plain one on every byte, alone
    /// and among others, and on random runs.
    #[test]
    fn lowercase_ascii_is_what_the_plain_test_says() {
        let plain = |bytes: &[u8]| bytes.is_ascii() && !bytes.iter().any(u8::is_ascii_uppercase);
        for b in 0..=255u8 {
            for bytes in [vec![b], [b"abc".as_slice(), &[b], b"xyz\n"].concat()] {
                assert_eq!(is_lowercase_ascii(&bytes), plain(&bytes), "{b}");
            }
        }
        let mut rng = crate::test_rng::SplitMix64::new(3);
        for _ in 0..200 {
            // Mostly lowercase letters, now and then a byte of another kind.
            let odd = [b'\n', b'A', b'Z', 0xc3, b'@', b'[', b'`', b'{'];
            let len = rng.below(300);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.below(300) {
                    0..=7 => odd[rng.below(8) as usize],
                    _ => b'a' + rng.below(26) as u8,
                })
                .collect();
            assert_eq!(is_lowercase_ascii(&bytes), plain(&bytes));
        }
    }

    #[test]
    fn normalises_lines() {
        let (words, list) =
            read(b"\xEF\xBB\xBFZebra\r\n  apple \n\nApple\nice cream\ndon't\n\xff\xfe\n\xE2\x84\xAAelvin\nb");
        assert_eq!(words, vec!["apple", "b", "kelvin", "zebra"]);
        assert_eq!(list.lines, 9);
        let k = &list.skipped;
        assert_eq!((k.empty, k.not_in_alphabet, k.letter_outside_alphabet, k.not_utf8, k.too_long), (1, 2, 0, 1, 0));
        assert_eq!(k.examples.not_in_alphabet.as_deref(), Some("ice cream"));
        assert_eq!(k.examples.not_utf8.as_deref(), Some("\u{FFFD}\u{FFFD}"));
        assert_eq!(k.total(), 4);
    }

    #[test]
    fn capitalised_words_are_proper_nouns_when_skipped() {
        let text = "apple\nParis\n  Zürich \nACLU\nKris's\ncafé\nÉclair\nbread\nUSA\n";
        for skip in [false, true] {
            let list = WordList::read_skipping(&[WordSource::from_text("t", text)], &Alphabet::latin(), skip).unwrap();
            let k = list.skipped.clone();
            let words: Vec<String> =
                list.into_sorted_words().iter().map(|w| String::from_utf8(w.to_vec()).unwrap()).collect();
            if skip {
                assert_eq!(words, ["apple", "bread"]);
                assert_eq!((k.proper_noun, k.not_in_alphabet, k.letter_outside_alphabet), (5, 2, 1));
                assert_eq!(k.examples.proper_noun.as_deref(), Some("Paris"));
                assert_eq!(k.examples.letter_outside_alphabet.as_deref(), Some("café"));
            } else {
                assert_eq!(words, ["aclu", "apple", "bread", "paris", "usa"]);
                assert_eq!((k.proper_noun, k.not_in_alphabet, k.letter_outside_alphabet), (0, 4, 3));
                assert_eq!(k.examples.not_in_alphabet.as_deref(), Some("Kris's"));
                assert_eq!(k.examples.letter_outside_alphabet.as_deref(), Some("Zürich"));
            }
        }
    }

    #[test]
    fn skips_overlong_lines_without_buffering_them() {
        let mut text = vec![b'a'; MAX_LINE_BYTES * 3];
        text.extend_from_slice(b"\nok\n");
        text.extend(std::iter::repeat_n(b'b', MAX_WORD_LEN + 1));
        let (words, list) = read(&text);
        assert_eq!(words, vec!["ok"]);
        assert_eq!(list.skipped.too_long, 2);
    }

    #[test]
    fn compaction_keeps_distinct_words_and_counts() {
        let mut list = WordList::default();
        let mut lower = Vec::new();
        let alphabet = Alphabet::latin();
        for (i, w) in ["pear", "apple", "pear", "fig"].iter().enumerate() {
            list.lines += 1;
            list.add_line(w.as_bytes(), &LetterBytes::new(&alphabet), &alphabet, &mut lower);
            if i == 2 {
                list.compact();
                assert_eq!(list.spans.len(), 2, "apple, pear");
            }
        }
        assert_eq!(list.lines, 4);
        let words: Vec<&[u8]> = vec![b"apple", b"fig", b"pear"];
        assert_eq!(list.into_sorted_words().iter().collect::<Vec<_>>(), words);
    }

    #[test]
    fn empty_input_has_no_lines() {
        let (words, list) = read(b"");
        assert!(words.is_empty());
        assert_eq!(list.lines, 0);
    }
}
