//! The alphabet of an index and sets of its letters.
//!
//! This is the only module that knows how letters map to bits. An index
//! stores its alphabet in its metadata (today `a`..`z`); everything else asks
//! the [`Alphabet`] for letter indices and [`LetterSet`]s.

use crate::error::{Error, Result};

/// The most letters an alphabet may have: a [`LetterSet`] is a `u32`.
pub const MAX_LETTERS: usize = 32;

/// Marks a byte that is not a letter of the alphabet in the lookup table.
const NOT_A_LETTER: u8 = u8::MAX;

/// The letters an index is built over, in ascending byte order.
///
/// Letters are single ASCII bytes, so a word is its bytes and a term (a
/// word's letters sorted) sorts the same way as its letter indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    letters: Vec<u8>,
    index: [u8; 256],
}

/// A set of letters of an [`Alphabet`], bit `i` standing for letter `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LetterSet(pub u32);

impl Alphabet {
    /// The alphabet of English word lists: `a` to `z`.
    pub fn latin() -> Alphabet {
        Alphabet::new("abcdefghijklmnopqrstuvwxyz").expect("a-z is a valid alphabet")
    }

    /// An alphabet of distinct ASCII lowercase letters given in ascending
    /// order (at most [`MAX_LETTERS`]).
    pub fn new(letters: &str) -> Result<Alphabet> {
        let bytes = letters.as_bytes();
        if bytes.is_empty() || bytes.len() > MAX_LETTERS {
            return Err(Error::invalid(format!(
                "an alphabet has {} letters (1 to {MAX_LETTERS} allowed)",
                bytes.len()
            )));
        }
        if !bytes.iter().all(u8::is_ascii_lowercase) || !bytes.windows(2).all(|w| w[0] < w[1]) {
            return Err(Error::invalid(format!(
                "the alphabet {letters:?} is not distinct ASCII lowercase letters in order"
            )));
        }
        let mut index = [NOT_A_LETTER; 256];
        for (i, &b) in bytes.iter().enumerate() {
            index[b as usize] = i as u8;
        }
        Ok(Alphabet { letters: bytes.to_vec(), index })
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
        std::str::from_utf8(&self.letters).expect("alphabet letters are ASCII")
    }

    /// The letters as bytes, in order.
    pub fn letters(&self) -> &[u8] {
        &self.letters
    }

    /// The index of a byte in the alphabet, if it is a letter.
    #[inline]
    pub fn index_of(&self, byte: u8) -> Option<usize> {
        match self.index[byte as usize] {
            NOT_A_LETTER => None,
            i => Some(i as usize),
        }
    }

    /// The letter at index `i`.
    pub fn letter(&self, i: usize) -> u8 {
        self.letters[i]
    }

    /// A word already checked to be letters of this alphabet, as a string.
    pub fn word_string(&self, word: Vec<u8>) -> String {
        // Letters are ASCII, so the bytes are UTF-8 whenever the word was
        // checked; anything else is shown, not trusted.
        String::from_utf8(word).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// True when every byte of `word` is a letter.
    pub fn is_word(&self, word: &[u8]) -> bool {
        word.iter().all(|&b| self.index_of(b).is_some())
    }

    /// The set of letters of a word, or `None` if it has a non-letter.
    #[inline]
    pub fn set_of(&self, word: &[u8]) -> Option<LetterSet> {
        let mut bits = 0u32;
        for &b in word {
            bits |= 1 << self.index_of(b)?;
        }
        Some(LetterSet(bits))
    }

    /// The set of all letters.
    pub fn full_set(&self) -> LetterSet {
        LetterSet(if self.len() == 32 { u32::MAX } else { (1u32 << self.len()) - 1 })
    }

    /// The letters of a set as a string, in alphabet order.
    pub fn letters_of(&self, set: LetterSet) -> String {
        set.indices().map(|i| self.letters[i] as char).collect()
    }

    /// Parses letters the user typed: lowercased, each a letter of the
    /// alphabet, no letter twice. `what` names the input in errors.
    pub fn parse_distinct(&self, input: &str, what: &str) -> Result<LetterSet> {
        let mut set = LetterSet::default();
        for ch in input.chars() {
            let lower = ch.to_ascii_lowercase();
            let i = u8::try_from(lower).ok().and_then(|b| self.index_of(b)).ok_or_else(|| {
                Error::invalid(format!(
                    "{what} {input:?} has {ch:?}, which is not a letter of this index's alphabet ({})",
                    self.as_str()
                ))
            })?;
            if set.contains(i) {
                return Err(Error::invalid(format!(
                    "{what} {input:?} repeats the letter {lower:?}; give each letter once"
                )));
            }
            set = set.with(i);
        }
        Ok(set)
    }

    /// Parses a single letter the user typed.
    pub fn parse_letter(&self, input: &str, what: &str) -> Result<usize> {
        let mut chars = input.chars();
        match (chars.next(), chars.next()) {
            (Some(_), None) => {
                let set = self.parse_distinct(input, what)?;
                Ok(set.indices().next().expect("one letter parsed"))
            }
            _ => Err(Error::invalid(format!("{what} {input:?} must be exactly one letter"))),
        }
    }

    /// Lowercases a word the user typed and checks every byte is a letter.
    pub fn parse_word(&self, input: &str, what: &str) -> Result<Vec<u8>> {
        let word: Vec<u8> = input.bytes().map(|b| b.to_ascii_lowercase()).collect();
        if word.is_empty() {
            return Err(Error::invalid(format!("{what} is empty; give some letters")));
        }
        if let Some(pos) = word.iter().position(|&b| self.index_of(b).is_none()) {
            let bad = input[pos..].chars().next().unwrap_or('?');
            return Err(Error::invalid(format!(
                "{what} {input:?} has {bad:?}, which is not a letter of this index's alphabet ({})",
                self.as_str()
            )));
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
        i < 32 && self.0 & (1 << i) != 0
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

#[cfg(test)]
mod tests {
    use super::*;

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
