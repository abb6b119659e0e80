//! The alphabet of an index and sets of its letters.
//!
//! This is the only module that knows how letters map to bytes and bits.
//! An index stores its alphabet in its metadata; everything else asks the
//! [`Alphabet`] for letter codes, indices and [`LetterSet`]s.
//!
//! A word is stored as one byte a letter, the letter's *code*: its ASCII
//! byte for `a`..`z` (so an English index is plain ASCII), and `0x80 + k`
//! for the `k`-th letter outside ASCII (`ä`, `ß`, `é`). Codes ascend with
//! the letters, so words and terms sort in the alphabet's order. Text the
//! user types is normalised as the index's words were: NFC, lowercase,
//! and, on an index built with accent folding, accents dropped (but for
//! the letters it keeps).

use compact_str::CompactString;

use crate::error::{Error, Result};
use crate::unicode::{nfc, without_marks};

/// The most letters an alphabet may have: a [`LetterSet`] is a `u64`.
pub const MAX_LETTERS: usize = 64;

/// Marks a byte that is not a letter of the alphabet in the lookup table.
const NOT_A_LETTER: u8 = u8::MAX;

/// The first code of a letter outside ASCII.
const FIRST_WIDE_CODE: u8 = 0x80;

/// The letters an index is built over, in ascending order, with the
/// normalisation its words went through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// Each letter's code, ascending.
    letters: Vec<u8>,
    /// Each letter, in the same order.
    chars: Vec<char>,
    /// Code -> letter index.
    index: [u8; 256],
    /// The letters as text.
    text: String,
    /// Every letter is ASCII: a word's codes are its text.
    ascii: bool,
    /// The first code and the number of letters, when the codes are one
    /// run (a-z): a word's check is then a compare a byte, in vector code.
    run: Option<(u8, u8)>,
    /// How typed text is normalised.
    folding: Folding,
}

/// How words are normalised before their letters are taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Folding {
    /// Strip diacritics (NFD, combining marks dropped).
    pub accents: bool,
    /// Letters kept as they are when folding (`ñ`), NFC.
    pub keep: String,
}

impl Folding {
    /// A word normalised: NFC, lowercase, and folded when asked.
    pub fn normalise(&self, word: &str) -> String {
        if word.is_ascii() {
            // Composing or decomposing ASCII changes nothing.
            return word.to_ascii_lowercase();
        }
        let lower: String = nfc(word).chars().flat_map(char::to_lowercase).collect();
        if !self.accents {
            return nfc(&lower);
        }
        let mut out = String::with_capacity(lower.len());
        for c in lower.chars() {
            if self.keep.contains(c) {
                out.push(c);
            } else {
                out.push_str(&without_marks(c));
            }
        }
        nfc(&out)
    }
}

/// A set of letters of an [`Alphabet`], bit `i` standing for letter `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LetterSet(pub u64);

impl Alphabet {
    /// The alphabet of English word lists: `a` to `z`.
    pub fn latin() -> Alphabet {
        Alphabet::new("abcdefghijklmnopqrstuvwxyz").expect("a-z is a valid alphabet")
    }

    /// An alphabet of distinct lowercase letters given in ascending order
    /// (at most [`MAX_LETTERS`]), with no folding.
    pub fn new(letters: &str) -> Result<Alphabet> {
        Alphabet::with_folding(letters, Folding::default())
    }

    /// An alphabet whose words were normalised with `folding`.
    pub fn with_folding(letters: &str, folding: Folding) -> Result<Alphabet> {
        let chars: Vec<char> = letters.chars().collect();
        if chars.is_empty() || chars.len() > MAX_LETTERS {
            return Err(Error::invalid(format!(
                "an alphabet has {} letters (1 to {MAX_LETTERS} allowed); fold accents to have fewer",
                chars.len()
            )));
        }
        let letter_like = |c: &char| c.is_alphabetic() && c.to_lowercase().eq(std::iter::once(*c));
        if !chars.iter().all(letter_like) || !chars.windows(2).all(|w| w[0] < w[1]) {
            return Err(Error::invalid(format!("the alphabet {letters:?} is not distinct lowercase letters in order")));
        }
        let mut index = [NOT_A_LETTER; 256];
        let mut codes = Vec::with_capacity(chars.len());
        let mut wide = FIRST_WIDE_CODE;
        for (i, &c) in chars.iter().enumerate() {
            let code = if c.is_ascii() {
                c as u8
            } else {
                wide += 1;
                wide - 1
            };
            index[code as usize] = i as u8;
            codes.push(code);
        }
        let ascii = letters.is_ascii();
        let run = codes.iter().enumerate().all(|(i, &c)| c as usize == codes[0] as usize + i);
        let run = run.then(|| (codes[0], codes.len() as u8));
        Ok(Alphabet { letters: codes, chars, index, text: letters.to_string(), ascii, run, folding })
    }

    /// The number of letters.
    pub fn len(&self) -> usize {
        self.letters.len()
    }

    /// Always false: an alphabet has at least one letter.
    pub fn is_empty(&self) -> bool {
        self.letters.is_empty()
    }

    /// The letters as a string, in order.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True for the alphabet of English lists, `a` to `z`.
    pub fn is_latin(&self) -> bool {
        self.text == "abcdefghijklmnopqrstuvwxyz" && !self.folding.accents
    }

    /// How typed words are normalised for this alphabet.
    pub fn folding(&self) -> &Folding {
        &self.folding
    }

    /// The letters' codes, in order.
    pub fn letters(&self) -> &[u8] {
        &self.letters
    }

    /// The index of a code in the alphabet, if it is a letter.
    #[inline]
    pub fn index_of(&self, code: u8) -> Option<usize> {
        match self.index[code as usize] {
            NOT_A_LETTER => None,
            i => Some(i as usize),
        }
    }

    /// The code of the letter at index `i`.
    pub fn letter(&self, i: usize) -> u8 {
        self.letters[i]
    }

    /// The letter at index `i`.
    pub fn char_at(&self, i: usize) -> char {
        self.chars[i]
    }

    /// The letter a code stands for (`?` for a code that is none).
    pub fn char_of(&self, code: u8) -> char {
        self.index_of(code).map_or('?', |i| self.chars[i])
    }

    /// The code of a letter, if it is one of the alphabet's.
    pub fn code_of(&self, c: char) -> Option<u8> {
        self.chars.binary_search(&c).ok().map(|i| self.letters[i])
    }

    /// A word's codes as text. Codes that are no letter (a damaged index)
    /// show as `?`, never trusted.
    pub fn word_string(&self, word: Vec<u8>) -> String {
        if self.ascii && word.is_ascii() {
            // Plain ASCII letters: the codes are the text.
            return String::from_utf8(word).expect("ASCII");
        }
        word.iter().map(|&b| self.char_of(b)).collect()
    }

    /// [`Alphabet::word_string`] as a [`CompactString`] (a short word
    /// needs no allocation).
    pub fn word_compact(&self, word: &[u8]) -> CompactString {
        match std::str::from_utf8(word) {
            // Plain ASCII letters: the codes are the text.
            Ok(ascii) if self.ascii && word.is_ascii() => CompactString::from(ascii),
            _ => word.iter().map(|&b| self.char_of(b)).collect(),
        }
    }

    /// Codes as text when the alphabet is plain ASCII letters and so are
    /// they (the codes are the text, checked once); else the codes back.
    pub(crate) fn ascii_text(&self, codes: Vec<u8>) -> std::result::Result<String, Vec<u8>> {
        if self.ascii && codes.is_ascii() {
            String::from_utf8(codes).map_err(|e| e.into_bytes())
        } else {
            Err(codes)
        }
    }

    /// [`Alphabet::word_string`] into `text` after what it holds: a scan
    /// that shows many words reuses one buffer.
    pub fn push_word(&self, word: &[u8], text: &mut String) {
        if self.ascii && word.is_ascii() {
            if let Ok(ascii) = std::str::from_utf8(word) {
                // Plain ASCII letters: the codes are the text, copied whole.
                text.push_str(ascii);
                return;
            }
        }
        text.extend(word.iter().map(|&b| self.char_of(b)));
    }

    /// True when every byte of `word` is a letter's code: a lookup a
    /// byte with no early exit (a check of many words at once is a short
    /// loop with no branch).
    pub fn is_word(&self, word: &[u8]) -> bool {
        match self.run {
            Some((first, len)) => word.iter().fold(true, |ok, &b| ok & (b.wrapping_sub(first) < len)),
            None => word.iter().fold(true, |ok, &b| ok & (self.index[b as usize] != NOT_A_LETTER)),
        }
    }

    /// The number of letters in a word's text (each letter is one
    /// character).
    #[inline]
    pub fn letters_in(&self, text: &str) -> usize {
        if self.ascii {
            text.len()
        } else {
            text.chars().count()
        }
    }

    /// The set of letters of a word, or `None` if it has a non-letter.
    #[inline]
    pub fn set_of(&self, word: &[u8]) -> Option<LetterSet> {
        let mut bits = 0u64;
        for &b in word {
            bits |= 1 << self.index_of(b)?;
        }
        Some(LetterSet(bits))
    }

    /// The letters of a word given as text (answers hold words as text);
    /// `None` when a character is no letter. On an ASCII alphabet the
    /// text is the codes (a search of the letters a character was most
    /// of `bee report` past its solve).
    pub fn set_of_text(&self, word: &str) -> Option<LetterSet> {
        if self.ascii && word.is_ascii() {
            return self.set_of(word.as_bytes());
        }
        word.chars().try_fold(LetterSet::EMPTY, |set, c| Some(set.with(self.index_of(self.code_of(c)?)?)))
    }

    /// The set of all letters.
    pub fn full_set(&self) -> LetterSet {
        LetterSet(if self.len() == 64 { u64::MAX } else { (1u64 << self.len()) - 1 })
    }

    /// The letters of a set as a string, in alphabet order.
    pub fn letters_of(&self, set: LetterSet) -> String {
        set.indices().map(|i| self.chars[i]).collect()
    }

    /// Text the user typed as codes, normalised as the index's words were;
    /// `what` is the parameter it came in, named in errors.
    fn codes_of(&self, input: &str, what: &'static str) -> Result<Vec<u8>> {
        self.folding
            .normalise(input)
            .chars()
            .map(|c| {
                self.code_of(c).ok_or_else(|| {
                    Error::invalid_param(
                        what,
                        format!(
                            "{input:?} has {c:?}, which is not a letter of this index's alphabet ({})",
                            self.as_str()
                        ),
                    )
                })
            })
            .collect()
    }

    /// Parses letters the user typed: normalised, each a letter of the
    /// alphabet, no letter twice. `what` names the input in errors.
    pub fn parse_distinct(&self, input: &str, what: &'static str) -> Result<LetterSet> {
        let mut set = LetterSet::default();
        for code in self.codes_of(input, what)? {
            let i = self.index_of(code).expect("a letter's code");
            if set.contains(i) {
                return Err(Error::invalid_param(
                    what,
                    format!("{input:?} repeats the letter {:?}; give each letter once", self.chars[i]),
                ));
            }
            set = set.with(i);
        }
        Ok(set)
    }

    /// Parses a single letter the user typed.
    pub fn parse_letter(&self, input: &str, what: &'static str) -> Result<usize> {
        let codes = self.codes_of(input, what)?;
        match codes.as_slice() {
            [code] => Ok(self.index_of(*code).expect("a letter's code")),
            _ => Err(Error::invalid_param(what, format!("{input:?} must be exactly one letter"))),
        }
    }

    /// A word the user typed, as codes: normalised, every letter checked.
    pub fn parse_word(&self, input: &str, what: &'static str) -> Result<Vec<u8>> {
        let word = self.codes_of(input, what)?;
        if word.is_empty() {
            return Err(Error::invalid_param(what, "is empty; give some letters"));
        }
        Ok(word)
    }
}

impl LetterSet {
    /// The empty set.
    pub const EMPTY: LetterSet = LetterSet(0);

    /// The number of letters in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the set has no letters.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when letter index `i` is in the set.
    #[inline]
    pub fn contains(self, i: usize) -> bool {
        i < 64 && self.0 & (1 << i) != 0
    }

    /// The set with letter index `i` added.
    #[inline]
    pub fn with(self, i: usize) -> LetterSet {
        LetterSet(self.0 | (1 << i))
    }

    /// True when every letter of `self` is in `other`.
    #[inline]
    pub fn is_subset_of(self, other: LetterSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// True when the sets share a letter.
    #[inline]
    pub fn intersects(self, other: LetterSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The union of two sets.
    #[inline]
    pub fn union(self, other: LetterSet) -> LetterSet {
        LetterSet(self.0 | other.0)
    }

    /// The letter indices in ascending order.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i
            })
        })
    }

    /// Every subset of this set that contains all of `required`, including
    /// the set itself (`2^(len - required.len)` of them).
    pub fn subsets_containing(self, required: LetterSet) -> impl Iterator<Item = LetterSet> {
        let free = self.0 & !required.0;
        let mut sub = free;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let out = LetterSet(sub | required.0);
            if sub == 0 {
                done = true;
            } else {
                sub = (sub - 1) & free;
            }
            Some(out)
        })
    }
}

/// Words as text, back to back in one string, in the order asked for
/// (what [`Index::texts_of`](crate::Index::texts_of) gives): one
/// allocation for all of them, each word a slice of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordTexts {
    text: String,
    /// Where each word ends in `text`.
    ends: Vec<usize>,
}

impl WordTexts {
    /// The words whose codes are `codes` back to back, word `i` ending at
    /// `ends[i]` (ascending, the last at most `codes.len()`).
    pub(crate) fn new(alphabet: &Alphabet, codes: Vec<u8>, mut ends: Vec<usize>) -> WordTexts {
        let codes = match alphabet.ascii_text(codes) {
            Ok(text) => return WordTexts { text, ends },
            Err(codes) => codes,
        };
        let mut text = String::with_capacity(codes.len());
        let mut start = 0;
        for end in &mut ends {
            text.extend(codes.get(start..*end).unwrap_or_default().iter().map(|&b| alphabet.char_of(b)));
            start = *end;
            *end = text.len();
        }
        WordTexts { text, ends }
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Word `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? };
        self.text.get(start..*self.ends.get(i)?)
    }

    /// The text of all the words, and where each ends in it.
    pub(crate) fn parts(&self) -> (&str, &[usize]) {
        (&self.text, &self.ends)
    }

    /// The words in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_words_letters_from_its_text_are_those_of_its_codes() {
        for letters in ["abcdefghijklmnopqrstuvwxyz", "abcdexyzéñ", "αβγδε"] {
            let a = Alphabet::new(letters).unwrap();
            let chars: Vec<char> = letters.chars().collect();
            let mut rng = crate::rng::SplitMix64::new(3);
            for _ in 0..200 {
                let word: String =
                    (0..1 + rng.below(9)).map(|_| chars[rng.below(chars.len() as u64) as usize]).collect();
                let codes: Vec<u8> = word.chars().map(|c| a.code_of(c).unwrap()).collect();
                assert_eq!(a.set_of_text(&word), a.set_of(&codes), "{word}");
            }
            assert_eq!(a.set_of_text("a1"), None, "{letters}");
            assert_eq!(a.set_of_text(""), Some(LetterSet::EMPTY));
        }
    }

    #[test]
    fn latin_maps_letters_to_bits() {
        let a = Alphabet::latin();
        assert_eq!(a.len(), 26);
        assert_eq!(a.set_of(b"abz"), Some(LetterSet(1 | 2 | 1 << 25)));
        assert_eq!(a.set_of(b"ab-"), None);
        assert_eq!(a.letters_of(LetterSet(0b101)), "ac");
        assert_eq!(a.full_set().len(), 26);
    }

    #[test]
    fn rejects_bad_alphabets() {
        assert!(Alphabet::new("").is_err());
        assert!(Alphabet::new("ba").is_err());
        assert!(Alphabet::new("aab").is_err());
        assert!(Alphabet::new("aB").is_err());
        assert!(Alphabet::new("a1").is_err());
        assert!(Alphabet::new("abcdefghijklmnopqrstuvwxyz0123456").is_err());
    }

    #[test]
    fn parses_user_letters() {
        let a = Alphabet::latin();
        assert_eq!(a.parse_distinct("GaE", "letters").unwrap(), a.set_of(b"aeg").unwrap());
        assert!(a.parse_distinct("aa", "letters").unwrap_err().to_string().contains("repeats"));
        assert!(a.parse_distinct("a1", "letters").unwrap_err().is_usage());
        assert_eq!(a.parse_letter("R", "centre").unwrap(), 17);
        assert!(a.parse_letter("rs", "centre").is_err());
        assert!(a.parse_word("é", "term").is_err());
    }

    /// A word check by the codes' run (a-z) agrees with one by the table,
    /// for every byte, on alphabets whose codes are one run and others.
    #[test]
    fn a_word_check_agrees_with_the_table() {
        for letters in ["abcdefghijklmnopqrstuvwxyz", "abd", "aeßäé", "äé", "z", "ab"] {
            let a = Alphabet::new(letters).unwrap();
            for b in 0..=255u8 {
                assert_eq!(a.is_word(&[b]), a.index_of(b).is_some(), "{letters}: byte {b}");
                assert_eq!(a.is_word(&[a.letter(0), b, a.letter(0)]), a.index_of(b).is_some());
            }
            assert!(a.is_word(b""));
        }
    }

    /// Words as text from codes back to back: each word's own text, in
    /// order, whatever the alphabet.
    #[test]
    fn word_texts_split_where_the_words_end() {
        for (letters, words) in [("abc", vec!["ab", "c", "cab"]), ("aeßäé", vec!["aß", "é", "äeé"])] {
            let a = Alphabet::new(letters).unwrap();
            let (mut codes, mut ends) = (Vec::new(), Vec::new());
            for w in &words {
                codes.extend(w.chars().map(|c| a.code_of(c).unwrap()));
                ends.push(codes.len());
            }
            let texts = WordTexts::new(&a, codes, ends);
            assert_eq!(texts.iter().collect::<Vec<_>>(), words);
            assert_eq!((texts.len(), texts.get(words.len())), (words.len(), None));
            assert_eq!(texts.iter().map(|w| a.letters_in(w)).collect::<Vec<_>>(), [2, 1, 3]);
        }
    }

    #[test]
    fn letters_outside_ascii_get_codes_in_order() {
        let a = Alphabet::new("aeßäé").unwrap();
        assert_eq!(a.letters(), &[b'a', b'e', 0x80, 0x81, 0x82]);
        assert!(a.parse_word("ÄSSE", "w").unwrap_err().to_string().contains("'s'"));
        assert_eq!(a.parse_word("ÄßE", "w").unwrap(), vec![0x81, 0x80, b'e']);
        assert_eq!(a.word_string(vec![0x81, b'a', 0x82]), "äaé");
        assert_eq!(a.letters_of(a.set_of(&[0x82, b'a']).unwrap()), "aé");
        // NFD input is composed first.
        assert_eq!(a.parse_word("e\u{301}", "w").unwrap(), vec![0x82]);
    }

    #[test]
    fn folding_strips_accents_but_kept_letters() {
        let fold = Folding { accents: true, keep: "ñ".into() };
        assert_eq!(fold.normalise("Crème BRÛLÉE"), "creme brulee");
        assert_eq!(fold.normalise("Niño"), "niño");
        assert_eq!(fold.normalise("Straße"), "straße");
        let a = Alphabet::with_folding("abcdeñ", fold).unwrap();
        assert_eq!(a.parse_word("Ébañ", "w").unwrap(), a.parse_word("ebañ", "w").unwrap());
        assert_eq!(Folding::default().normalise("Crème"), "crème");
    }

    #[test]
    fn enumerates_subsets_with_required_letters() {
        let set = LetterSet(0b1011);
        let subs: Vec<_> = set.subsets_containing(LetterSet(0b1)).collect();
        assert_eq!(subs.len(), 4);
        assert!(subs.iter().all(|s| s.contains(0) && s.is_subset_of(set)));
        assert_eq!(LetterSet(0b111).subsets_containing(LetterSet::EMPTY).count(), 8);
        assert_eq!(set.indices().collect::<Vec<_>>(), vec![0, 1, 3]);
    }
}
