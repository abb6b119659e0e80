//! The NYT Letter Boxed, answered from the `letter_groups` table or the
//! `words` FST.
//!
//! Playable words are found among the words of the groups whose keys (a
//! word's lowest letters) lie in the box, each followed letter by letter
//! along the sides. Without that table they come out of the FST through
//! [`SideAutomaton`], which gives up on a branch as soon as a letter is off
//! the box or on the same side as the one before, so only the prefixes
//! that fit the box are visited; but those lie all over the FST, which on
//! a list of millions of words is most of its pages.
//!
//! Solutions are sequences of playable words, each starting with the last
//! letter of the one before, whose letters together cover the box; a
//! sequence ends on the word that completes the box (the NYT stops the game
//! there), so no solution has a shorter solution as its prefix.
//!
//! Costs (see [`Solver`]): finding the playable words is one pass over the
//! FST prefixes that fit the box, at most `words * 256` steps on any file.
//! Counting is memoised over search states, O(states x word classes), and
//! capped at [`MAX_STATES`] states (about 25 MB) and [`MAX_STEPS`] steps
//! (about a second): a box past them is an error, in well under a second.
//! On a box of up to 12 letters, counts of 3 words and more need no search
//! (`subsets`: inclusion and exclusion over the box's sets of letters, at
//! most 2^letters x letters^2 steps a level and 2.4 MB).
//! Listing streams solutions in order holding one path, so memory stays
//! flat whatever the limit; its time follows the number listed.
//!
//! ```
//! # let list = "gracious\nsharply\nsly\nyoga\nparish\n";
//! # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
//! # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! use wordhoard_query::boxed::{self, LetterBox, SolveOptions};
//!
//! let letter_box = LetterBox::parse(index.alphabet(), &["riu", "pgh", "lcs", "yao"])?;
//! let answer = boxed::solve(&index, &letter_box, &SolveOptions::default())?;
//! assert_eq!(answer.solutions[0], ["gracious", "sharply"]);
//! assert_eq!(answer.min_words, Some(2));
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use std::ops::ControlFlow;

use crate::alphabet::{Alphabet, LetterSet};
use crate::error::{Error, Result};
use crate::format::blocks::LastBlock;
use crate::format::fst::Automaton;
use crate::format::SectionId;
use crate::index::{CommonFlags, Index};
use solver::too_large;

mod generate;
mod play;
mod solver;
mod subsets;

pub use generate::{generate, GenerateOptions, Generated, GENERATE_TRIES};
pub use play::{check, Play, Verdict};
pub use solver::{Solver, MAX_STATES, MAX_STEPS};

/// The shortest playable word by default.
pub const DEFAULT_MIN_LEN: usize = 3;
/// The most letters a box may have (the search keeps a box's letters in a
/// `u32`).
pub const MAX_BOX_LETTERS: usize = 32;
/// The most words a solution may have (the count grows fast past this).
pub const MAX_WORDS_LIMIT: usize = 8;
/// The most playable words a box may have, and second words a generated
/// box may choose from: tens of megabytes. A box of the largest real
/// lists has thousands; only an index made to hurt reaches this.
pub const MAX_PLAYABLE: usize = 1 << 19;

/// A Letter Boxed puzzle: groups of distinct letters, one per side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetterBox {
    /// Each side's letters, as typed (lowercased).
    pub sides: Vec<String>,
    side_of: Vec<(u8, u8)>,
    letters: Vec<u8>,
}

impl LetterBox {
    /// Parses sides as typed: at least two, each non-empty, no letter twice
    /// anywhere on the box.
    pub fn parse(alphabet: &Alphabet, sides: &[impl AsRef<str>]) -> Result<LetterBox> {
        if sides.len() < 2 {
            return Err(Error::invalid("a box needs at least two sides, e.g. `riu pgh lcs yao`"));
        }
        let mut seen = LetterSet::EMPTY;
        let mut side_of = Vec::new();
        let mut out = Vec::new();
        for (s, side) in sides.iter().enumerate() {
            let side = side.as_ref();
            if side.is_empty() {
                return Err(Error::invalid("a side is empty; give each side's letters, e.g. `riu pgh lcs yao`"));
            }
            let set = alphabet.parse_distinct(side, "sides")?;
            if let Some(dup) = set.intersects(seen).then_some(LetterSet(set.0 & seen.0)) {
                return Err(Error::invalid(format!(
                    "the letter {:?} is on two sides; each letter goes on one side only",
                    alphabet.letters_of(dup)
                )));
            }
            seen = seen.union(set);
            if seen.len() > MAX_BOX_LETTERS {
                return Err(Error::invalid(format!("a box has at most {MAX_BOX_LETTERS} letters")));
            }
            let codes = alphabet.parse_word(side, "sides")?;
            side_of.extend(codes.iter().map(|&b| (b, s as u8)));
            out.push(alphabet.word_string(codes));
        }
        side_of.sort_unstable();
        let letters = side_of.iter().map(|&(b, _)| b).collect();
        Ok(LetterBox { sides: out, side_of, letters })
    }

    /// The box's letters, sorted.
    pub fn letters(&self) -> &[u8] {
        &self.letters
    }
}

/// Follows a word over the box: each letter on the box and on a different
/// side from the letter before; matches words of at least `min_len` letters.
#[derive(Clone, Debug)]
pub struct SideAutomaton {
    side_of: [u8; 256],
    /// Each code's side plus one, 0 off the box: [`SideAutomaton::fits_padded`]'s lanes.
    lane_of: [u8; 256],
    min_len: u32,
}

const NOT_ON_BOX: u8 = u8::MAX;

/// The automaton's state: nothing read yet, dead, or the side of the last
/// letter with the letters read so far (capped at the minimum length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideState {
    /// No letter read yet.
    Start,
    /// The last letter's side and how many letters were read (capped).
    At {
        /// The side of the last letter.
        side: u8,
        /// Letters read, capped at the minimum length.
        len: u32,
    },
    /// A letter broke the rules: nothing below matches.
    Dead,
}

impl SideAutomaton {
    /// The automaton for a box.
    pub fn new(letter_box: &LetterBox, min_len: usize) -> SideAutomaton {
        let (mut side_of, mut lane_of) = ([NOT_ON_BOX; 256], [0; 256]);
        for &(b, s) in &letter_box.side_of {
            side_of[b as usize] = s;
            // A box has at most 32 sides, so a lane is at most 32.
            lane_of[b as usize] = s + 1;
        }
        SideAutomaton { side_of, lane_of, min_len: min_len.clamp(1, u32::MAX as usize) as u32 }
    }

    /// [`SideAutomaton::fits`] for `word`, given as the start of `padded`
    /// (what follows it there is anything). With 8 bytes from the word's
    /// start in `padded`, its first 8 codes are checked with no branch a
    /// letter, as byte lanes of a `u64`, each the side of its code plus
    /// one (0 off the box, and past the word). They fit when every lane
    /// is nonzero and differs from the next; a longer word that passes is
    /// then read letter by letter. Scanning a box's letter groups (118,000
    /// words on 10 million for 16,500 that fit, most of them dead by their
    /// third letter), [`SideAutomaton::fits`]'s branch a letter
    /// mispredicted once a word: the scan took 0.95 ms more than reading
    /// the groups, and 0.48 ms more this way (16 lanes: 0.65, 4: 0.8).
    #[inline]
    fn fits_padded(&self, word: &[u8], padded: &[u8]) -> bool {
        let Some(window) = padded.first_chunk::<8>() else { return self.fits(word) };
        const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
        const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
        // The high bit of each nonzero lane (no carry leaves a lane).
        let nonzero = |v: u64| (((v & LOW7) + LOW7) | v) & HIGH;
        let mut lanes = 0u64;
        for (i, &b) in window.iter().enumerate() {
            lanes |= (self.lane_of[b as usize] as u64) << (8 * i);
        }
        let len = word.len();
        let in_word = if len >= 8 { u64::MAX } else { (1 << (8 * len)) - 1 };
        let lanes = lanes & in_word;
        // Lane i against lane i + 1; the last letter's against 0.
        let changes = lanes ^ (lanes >> 8);
        let want = HIGH & in_word;
        nonzero(lanes) & nonzero(changes) & want == want
            && len >= self.min_len as usize
            && (len <= 8 || self.fits(word))
    }

    /// True when a whole word is playable: each letter on the box, on
    /// another side than the letter before, and at least the minimum
    /// length (what a walk that ends on a match has checked).
    #[inline]
    fn fits(&self, word: &[u8]) -> bool {
        let mut last = NOT_ON_BOX;
        word.len() >= self.min_len as usize
            && word.iter().all(|&b| {
                let side = self.side_of[b as usize];
                let fits = side != NOT_ON_BOX && side != last;
                last = side;
                fits
            })
    }
}

impl Automaton for SideAutomaton {
    type State = SideState;

    fn start(&self) -> SideState {
        SideState::Start
    }

    fn is_match(&self, state: &SideState) -> bool {
        matches!(*state, SideState::At { len, .. } if len >= self.min_len)
    }

    fn can_match(&self, state: &SideState) -> bool {
        *state != SideState::Dead
    }

    // Inlined into the walk: as a call a transition it was an eighth of
    // a two-word box in process (then 322 to 311 us, two binaries
    // alternating).
    #[inline]
    fn accept(&self, state: &SideState, byte: u8) -> SideState {
        let side = self.side_of[byte as usize];
        match *state {
            _ if side == NOT_ON_BOX => SideState::Dead,
            SideState::Dead => SideState::Dead,
            SideState::At { side: last, .. } if last == side => SideState::Dead,
            SideState::Start => SideState::At { side, len: 1.min(self.min_len) },
            SideState::At { len, .. } => SideState::At { side, len: (len + 1).min(self.min_len) },
        }
    }
}

/// The most words [`playable_words`] makes room for before its scan of
/// the letter groups (past it the lists grow).
const FOUND_FIRST: usize = 1 << 16;

/// The playable words [`playable_words`] makes room for before a walk
/// of the words FST (a box on enable1 has about a thousand).
const WALK_FIRST: usize = 2048;

/// A playable word as a solution shows it: its text and whether it is
/// on the index's common list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word<'a> {
    /// The word.
    pub word: &'a str,
    /// True when it is on the common list.
    pub common: bool,
}

/// What the search needs of a playable word (16 bytes); its text lies
/// in [`PlayableWords`]' buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Playable {
    /// Its word id.
    id: u32,
    /// Where its text starts in the buffer.
    text: u32,
    pub(crate) mask: u32,
    /// Its letters (one code a letter): at most 255, as every word.
    letters: u8,
    pub(crate) first: u8,
    pub(crate) last: u8,
    pub(crate) common: bool,
}

/// A box's playable words, a-z: what the search needs of each, and all
/// their texts in one buffer. (A string a word, kept inline, was 40
/// bytes a word and a copy each: on a list of 10 million words a box's
/// 16,520 words were 160 fresh pages and 0.4 ms of copies.) Two are
/// equal when they list the same words, alike common.
#[derive(Clone, Default)]
pub struct PlayableWords {
    words: Vec<Playable>,
    text: String,
    /// True when the text is one byte a letter (plain ASCII letters).
    ascii: bool,
}

impl PartialEq for PlayableWords {
    fn eq(&self, other: &PlayableWords) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for PlayableWords {}

impl std::fmt::Debug for PlayableWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PlayableWords {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Word `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<Word<'_>> {
        self.words.get(i).map(|w| self.shown(w))
    }

    /// The words, a-z.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Word<'_>> + '_ {
        self.words.iter().map(|w| self.shown(w))
    }

    /// What the search needs of each word, a-z.
    pub(crate) fn records(&self) -> &[Playable] {
        &self.words
    }

    /// Word `w` as shown.
    #[inline]
    pub(crate) fn shown(&self, w: &Playable) -> Word<'_> {
        let at = w.text as usize;
        let word = if self.ascii {
            self.text.get(at..at + w.letters as usize)
        } else {
            // As many characters as it has letters.
            self.text.get(at..).map(|rest| {
                let end = rest.char_indices().nth(w.letters as usize).map_or(rest.len(), |(end, _)| end);
                &rest[..end]
            })
        };
        Word { word: word.unwrap_or_default(), common: w.common }
    }

    /// Keeps the common words alone (their texts stay where they are).
    pub(crate) fn retain_common(&mut self) {
        self.words.retain(|w| w.common);
    }
}

/// Gathers [`PlayableWords`] a word at a time: each word's codes copied
/// into one buffer, made text once at the end.
struct Gather<'i> {
    alphabet: &'i Alphabet,
    common: CommonFlags<'i>,
    /// Each code's place among the box's letters, in one load (a search
    /// of the box's letters for every letter of every word cost a tenth
    /// of the walk).
    place: [u8; 256],
    /// Each code's bit among the box's letters (0 off the box): a word's
    /// letters are the OR of its codes' bits, with no branch a letter.
    bit: [u32; 256],
    codes: Vec<u8>,
    words: Vec<Playable>,
    /// True when the words came in any order ([`Gather::push_unordered`]).
    unordered: bool,
}

/// [`Gather::place`] of a code off the box.
const OFF_THE_BOX: u8 = u8::MAX;

impl<'i> Gather<'i> {
    fn new<D: AsRef<[u8]>>(index: &'i Index<D>, letter_box: &LetterBox, room: usize) -> Result<Gather<'i>> {
        let (mut place, mut bit) = ([OFF_THE_BOX; 256], [0u32; 256]);
        for (i, &b) in letter_box.letters.iter().enumerate() {
            (place[b as usize], bit[b as usize]) = (i as u8, 1 << i);
        }
        Ok(Gather {
            alphabet: index.alphabet(),
            common: index.common()?,
            place,
            bit,
            codes: Vec::with_capacity(room * 8),
            words: Vec::with_capacity(room),
            unordered: false,
        })
    }

    /// Adds `word` (its codes), word `id`, which fits the box and comes
    /// after every word added so far.
    fn push(&mut self, word: &[u8], id: u32) -> Result<()> {
        let common = self.common.is_common(id)?;
        self.add(word, id, common)
    }

    /// Adds `word`, word `id`, which fits the box, in any order: its
    /// common flag is read, and the words put a-z, in
    /// [`Gather::finish`]. (Done while the word is at hand: read again
    /// from its group after the sort, each word a cache miss, the box of
    /// a list of 10 million words took 5.51 against 5.36 ms, in 61
    /// alternating runs.)
    fn push_unordered(&mut self, word: &[u8], id: u32) -> Result<()> {
        self.unordered = true;
        self.add(word, id, false)
    }

    fn add(&mut self, word: &[u8], id: u32, common: bool) -> Result<()> {
        let off_the_box = || SectionId::Words.corrupt("the FST returned a word off the box");
        if self.words.len() == MAX_PLAYABLE {
            return Err(too_large(format!("more than {MAX_PLAYABLE} playable words")));
        }
        let (Some(&first), Some(&last)) = (word.first(), word.last()) else { return Err(off_the_box()) };
        let (first, last) = (self.place[first as usize], self.place[last as usize]);
        if first == OFF_THE_BOX || last == OFF_THE_BOX || word.len() > u8::MAX as usize {
            return Err(off_the_box());
        }
        let mask = word.iter().fold(0u32, |m, &b| m | self.bit[b as usize]);
        // The codes of at most MAX_PLAYABLE words of at most 255: far
        // below 2^32 bytes.
        let text = self.codes.len() as u32;
        self.codes.extend_from_slice(word);
        self.words.push(Playable { id, text, mask, letters: word.len() as u8, first, last, common });
        Ok(())
    }

    /// The words a-z, their codes made text: in one check when they are
    /// plain ASCII, else a word at a time.
    fn finish(self) -> Result<PlayableWords> {
        let Gather { alphabet, common, codes, mut words, unordered, .. } = self;
        if unordered {
            // By a radix sort: by comparison, a box's 16,520 words on a
            // list of 10 million took a fifth of the lookup.
            crate::ids::sort_by_id(&mut words, |w| w.id);
            let mut last = LastBlock::default();
            for w in &mut words {
                w.common = common.is_common_near(w.id, &mut last)?;
            }
        }
        let codes = match alphabet.ascii_text(codes) {
            Ok(text) => return Ok(PlayableWords { words, text, ascii: true }),
            Err(codes) => codes,
        };
        let mut text = String::with_capacity(codes.len());
        for w in &mut words {
            let at = w.text as usize;
            let start = text.len();
            alphabet.push_word(codes.get(at..at + w.letters as usize).unwrap_or_default(), &mut text);
            // At most 255 letters of at most 4 bytes each.
            w.text = start as u32;
        }
        // (A box of ASCII letters in an alphabet with others.)
        let ascii = text.is_ascii();
        Ok(PlayableWords { words, text, ascii })
    }
}

/// Every playable word of the box, a-z: from the `letter_groups` table
/// when the index has it (the groups whose keys lie in the box, read back
/// to back: on enable1 some 9,600 words for a box's 1,100 playable ones),
/// else by a walk of the words FST.
pub fn playable_words<D: AsRef<[u8]>>(
    index: &Index<D>,
    letter_box: &LetterBox,
    min_len: usize,
) -> Result<PlayableWords> {
    let automaton = SideAutomaton::new(letter_box, min_len);
    if let Some(groups) = index.letter_groups()? {
        // (A box parsed over another alphabet may have codes this one
        // lacks: no word has them.)
        let alphabet = index.alphabet();
        let within =
            letter_box.letters.iter().filter_map(|&b| alphabet.index_of(b)).fold(LetterSet::EMPTY, LetterSet::with);
        let inside = groups.groups_within(within);
        // Sized up front from the groups' bytes (capped), as growing the
        // lists copied them: 40 page faults on a box on a list of 10
        // million words.
        let mut out = Gather::new(index, letter_box, groups.most_words_in(&inside).min(FOUND_FIRST))?;
        groups.each_in_groups(&inside, |id, word, padded| {
            if automaton.fits_padded(word, padded) {
                out.push_unordered(word, id)?;
            }
            Ok(())
        })?;
        return out.finish();
    }
    let mut out = Gather::new(index, letter_box, WALK_FIRST)?;
    let mut search = index.words()?.search(automaton);
    while let Some((word, id)) = search.next()? {
        if !word.is_empty() {
            out.push(word, id as u32)?;
        }
    }
    out.finish()
}

/// Options for [`solve`].
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Solutions have at most this many words (at least 1).
    pub max_words: usize,
    /// The shortest playable word.
    pub min_len: usize,
    /// How many solutions to list, best first (0: all).
    pub limit: usize,
    /// Only words of the index's common list are playable.
    pub common_only: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { max_words: 2, min_len: DEFAULT_MIN_LEN, limit: 20, common_only: false }
    }
}

/// The answer to a box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Playable words.
    pub playable: usize,
    /// All solutions of at most `max_words` words.
    pub count: u128,
    /// Solutions by number of words: `by_words[k - 1]` have `k` words.
    pub by_words: Vec<u128>,
    /// The fewest words of any solution.
    pub min_words: Option<usize>,
    /// The best solutions, in SPEC order, at most `limit` (all if 0).
    pub solutions: Vec<Vec<String>>,
}

/// Solves a box: exact counts and the best solutions in order (fewest
/// words, then fewest uncommon words, then fewest letters, then a-z).
/// Holds every listed solution; [`Solver`] streams them instead.
pub fn solve<D: AsRef<[u8]>>(index: &Index<D>, letter_box: &LetterBox, opts: &SolveOptions) -> Result<Answer> {
    let mut solver = Solver::new(index, letter_box, opts)?;
    let by_words = solver.counts()?;
    let mut solutions = Vec::new();
    // Whether it stopped at the limit or ran out makes no difference here.
    let _ = solver.each_solution(|words| {
        solutions.push(words.iter().map(|w| w.word.to_string()).collect());
        if solutions.len() == opts.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(Answer {
        playable: solver.playable().len(),
        count: by_words.iter().sum(),
        min_words: by_words.iter().position(|&n| n > 0).map(|i| i + 1),
        by_words,
        solutions,
    })
}

#[cfg(test)]
mod tests {
    use super::generate::lay_out;
    use super::*;
    use crate::error::ErrorKind;
    use crate::rng::SplitMix64;

    #[test]
    fn layouts_keep_neighbours_apart_and_fill_every_side() {
        let alphabet = Alphabet::latin();
        let mut rng = SplitMix64::new(5);
        let mut placed = 0;
        for _ in 0..500 {
            // Two random words over 12 letters, the second starting where
            // the first ends, no letter twice in a row.
            let pool: Vec<u8> = (b'a'..=b'l').collect();
            let mut word = |start: Option<u8>| {
                let mut w: Vec<u8> = start.into_iter().collect();
                while w.len() < 8 + rng.below(5) as usize {
                    let b = pool[rng.below(12) as usize];
                    if w.last() != Some(&b) {
                        w.push(b);
                    }
                }
                w
            };
            let first = word(None);
            let second = word(first.last().copied());
            let Some(sides) = lay_out(&alphabet, &[&first, &second], 4, 3, &mut rng) else { continue };
            placed += 1;
            let letters: Vec<u8> = {
                let mut l: Vec<u8> = first.iter().chain(&second).copied().collect();
                l.sort_unstable();
                l.dedup();
                l
            };
            let mut all: Vec<u8> = sides.iter().flat_map(|s| s.bytes()).collect();
            all.sort_unstable();
            assert_eq!(all, letters, "{sides:?}");
            assert!(sides.iter().all(|s| s.len() == 3), "{sides:?}");
            let side = |b: u8| sides.iter().position(|s| s.as_bytes().contains(&b));
            for w in [&first, &second] {
                assert!(w.windows(2).all(|p| side(p[0]) != side(p[1])), "{w:?} on {sides:?}");
            }
        }
        assert!(placed > 10, "some pairs use all 12 letters and fit");
    }

    fn boxed(sides: &[&str]) -> LetterBox {
        LetterBox::parse(&Alphabet::latin(), sides).unwrap()
    }

    fn walk(aut: &SideAutomaton, word: &str) -> SideState {
        word.bytes().fold(aut.start(), |s, b| aut.accept(&s, b))
    }

    #[test]
    fn automaton_follows_sides() {
        let aut = SideAutomaton::new(&boxed(&["riu", "pgh", "lcs", "yao"]), 3);
        assert!(aut.is_match(&walk(&aut, "gracious")));
        assert!(aut.is_match(&walk(&aut, "sharply")));
        assert!(!aut.is_match(&walk(&aut, "ga")), "too short");
        assert_eq!(walk(&aut, "riot"), SideState::Dead, "t is off the box");
        assert_eq!(walk(&aut, "gh"), SideState::Dead, "g and h share a side");
        assert!(!aut.can_match(&walk(&aut, "ghost")));
        assert!(aut.can_match(&walk(&aut, "gr")));
    }

    /// The branch-free check of a word's first 8 letters against the
    /// plain one, on random boxes of 2 to 32 sides and random words (on
    /// the box or off it, 0 to 20 letters, 0 to 8 bytes of anything
    /// after them).
    #[test]
    fn a_window_fits_the_words_the_plain_check_fits() {
        let mut rng = SplitMix64::new(30);
        let alphabet = Alphabet::new("abcdefghijklmnopqrstuvwxyzàçèéêë").unwrap();
        let letters: Vec<char> = alphabet.as_str().chars().collect();
        assert_eq!(letters.len(), MAX_BOX_LETTERS);
        let mut agreed = [0usize; 2];
        for _ in 0..300 {
            let sides_n = 2 + rng.below(31) as usize;
            let mut pool = letters.clone();
            // Each side 1 to 3 letters, leaving one for each side after it.
            let sides: Vec<String> = (0..sides_n)
                .map(|left| {
                    let spare = pool.len() - (sides_n - 1 - left);
                    let take = 1 + rng.below(spare.min(3) as u64) as usize;
                    (0..take).map(|_| pool.swap_remove(rng.below(pool.len() as u64) as usize)).collect()
                })
                .collect();
            let letter_box = LetterBox::parse(&alphabet, &sides).unwrap();
            let aut = SideAutomaton::new(&letter_box, 1 + rng.below(4) as usize);
            let on_box = letter_box.letters();
            for _ in 0..200 {
                let len = rng.below(21) as usize;
                let mut bytes: Vec<u8> = (0..len + 8)
                    .map(|_| match rng.below(8) {
                        0 => rng.below(256) as u8,
                        _ => on_box[rng.below(on_box.len() as u64) as usize],
                    })
                    .collect();
                if rng.below(2) == 0 {
                    // Mostly on the box and its sides apart: past the first 8.
                    for i in 1..len {
                        while aut.side_of[bytes[i] as usize] == aut.side_of[bytes[i - 1] as usize] {
                            bytes[i] = on_box[rng.below(on_box.len() as u64) as usize];
                        }
                    }
                }
                let padded = &bytes[..len + rng.below(9) as usize];
                let word = &bytes[..len];
                let fits = aut.fits(word);
                assert_eq!(aut.fits_padded(word, padded), fits, "{sides:?} {word:?}");
                agreed[fits as usize] += 1;
            }
        }
        assert!(agreed.iter().all(|&n| n > 1000), "both answers tried: {agreed:?}");
    }

    #[test]
    fn solves_a_small_box_in_order() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\n", Some("fad\nebc\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let playable = playable_words(&idx, &b, 3).unwrap();
        let playable: Vec<&str> = playable.iter().map(|p| p.word).collect();
        assert_eq!(playable, vec!["becadf", "becaf", "ebc", "fad", "fade"], "cab: a and b share a side");
        let answer = solve(&idx, &b, &SolveOptions { max_words: 3, min_len: 3, limit: 0, common_only: false }).unwrap();
        assert_eq!(answer.by_words, vec![1, 3, 0]);
        assert_eq!(answer.min_words, Some(1));
        // One word first; then fewest uncommon words, then fewest letters.
        let expected = vec![vec!["becadf"], vec!["fade", "ebc"], vec!["becaf", "fad"], vec!["becaf", "fade"]];
        assert_eq!(answer.solutions, expected);
        let limited =
            solve(&idx, &b, &SolveOptions { max_words: 3, min_len: 3, limit: 2, common_only: false }).unwrap();
        assert_eq!((limited.count, limited.solutions.len()), (4, 2));
    }

    #[test]
    fn a_play_gets_a_verdict_a_word_in_order() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\nfab\n", Some("fad\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let opts = SolveOptions { max_words: 2, min_len: 3, limit: 0, common_only: false };
        let words = ["be", "bxc", "cab", "fed", "becaf", "fade", "ebc", "BECAF", "cade"];
        let play = check(&idx, &b, &words, &opts).unwrap();
        let verdicts: Vec<Verdict> = play.words.iter().map(|(_, v)| *v).collect();
        use Verdict::*;
        assert_eq!(
            verdicts,
            [
                TooShort,
                BadLetter,
                SameSide { position: 3 },
                SameSide { position: 2 },
                Ok,
                Ok,
                Ok,
                WrongStart,
                NotInList
            ]
        );
        assert_eq!(play.words[7].0, "becaf", "shown as the index spells it");
        // becaf, fade, ebc: every letter used, in three words; par is one (becadf).
        assert_eq!((play.used.as_str(), play.left.as_str(), play.solved()), ("abcdef", "", true));
        assert_eq!((play.played, play.par), (3, Some(1)));
        let start = check(&idx, &b, &["becaf"], &opts).unwrap();
        assert_eq!((start.left.as_str(), start.finishes), ("d", 2), "fad and fade finish from f");
        let none = check(&idx, &b, &[] as &[&str], &opts).unwrap();
        assert_eq!((none.played, none.finishes, none.left.as_str()), (0, 1, "abcdef"), "becadf alone");
        let common = check(&idx, &b, &["fad"], &SolveOptions { common_only: true, ..opts }).unwrap();
        assert_eq!(common.words[0].1, Ok);
        let common = check(&idx, &b, &["fade"], &SolveOptions { common_only: true, ..opts }).unwrap();
        assert_eq!(common.words[0].1, NotInList);
    }

    #[test]
    fn gathering_walking_and_last_words_by_sets_list_the_same_order() {
        let list = "becadf\nbecaf\nfad\nfade\nebc\ncab\nfab\nbed\ndeaf\nface\ncafe\nfeed\nbade\ndecaf\n";
        let idx = crate::testutil::index(list, Some("fad\nebc\nface\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let opts = SolveOptions { max_words: 4, min_len: 3, limit: 0, common_only: false };
        let listed = |gather_max: u128, scan_per_set: usize| {
            let mut solver = Solver::new(&idx, &b, &opts).unwrap();
            solver.gather_max = gather_max;
            solver.scan_per_set = scan_per_set;
            solver.all_solutions()
        };
        let gathered = listed(u128::MAX, usize::MAX);
        assert!(gathered.len() > 10, "{}", gathered.len());
        assert_eq!(gathered, listed(0, usize::MAX));
        // The last words found by their sets of letters, not by a scan.
        assert_eq!(gathered, listed(u128::MAX, 0));
    }

    #[test]
    fn fewest_names_the_fewest_words_past_the_maximum() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\n", None);
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let opts = |max_words| SolveOptions { max_words, min_len: 4, limit: 0, common_only: false };
        let fewest = |b: &LetterBox, o: &SolveOptions, from| {
            Solver::new(&idx, b, o).unwrap().fewest(from..=MAX_WORDS_LIMIT).unwrap()
        };
        // Words of 4+ letters: one word covers the box alone (becadf),
        // the next solutions take 2 (becaf-fade).
        assert_eq!(fewest(&b, &opts(1), 1), Some((1, 1)));
        assert_eq!(fewest(&b, &opts(1), 2), Some((2, 1)), "looks past max_words");
        let b2 = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef", "gh"]).unwrap();
        assert_eq!(fewest(&b2, &opts(2), 1), None, "g and h are in no word");
        let idx = crate::testutil::index("abc\ncde\nefa\n", None);
        let b = LetterBox::parse(idx.alphabet(), &["a", "b", "c", "d", "e", "f"]).unwrap();
        let three = SolveOptions { max_words: 1, min_len: 3, limit: 0, common_only: false };
        // abc-cde-efa and its two rotations: 3 solutions of 3 words.
        let mut solver = Solver::new(&idx, &b, &three).unwrap();
        assert_eq!(solver.fewest(2..=MAX_WORDS_LIMIT).unwrap(), Some((3, 3)));
        assert!(solver.fewest(0..=1).unwrap_err().is_usage());
    }

    #[test]
    fn counting_up_then_setting_the_maximum_lists_the_fewest_only() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\n", None);
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let opts = SolveOptions { max_words: 3, min_len: 3, limit: 0, common_only: false };
        let all = Solver::new(&idx, &b, &opts).unwrap().counts().unwrap();
        let mut solver = Solver::new(&idx, &b, &SolveOptions { min_len: 4, ..opts }).unwrap();
        assert_eq!(solver.fewest(1..=3).unwrap(), Some((1, 1)), "becadf");
        assert!(solver.count(0).unwrap_err().is_usage() && solver.count(MAX_WORDS_LIMIT + 1).unwrap_err().is_usage());
        solver.set_max_words(1).unwrap();
        assert_eq!(solver.counts().unwrap(), [1]);
        let mut listed = Vec::new();
        let _ = solver.each_solution(|w| {
            listed.push(w.len());
            ControlFlow::Continue(())
        });
        assert_eq!(listed, [1]);
        assert!(solver.set_max_words(0).unwrap_err().is_usage());
        // Counts past the fewest are the same as a fresh solver's.
        let mut again = Solver::new(&idx, &b, &opts).unwrap();
        assert_eq!((1..=3).map(|k| again.count(k).unwrap()).collect::<Vec<_>>(), all);
        // Raised again, the same solver counts as a fresh one with min_len 4.
        solver.set_max_words(3).unwrap();
        let fresh = Solver::new(&idx, &b, &SolveOptions { min_len: 4, ..opts }).unwrap().counts().unwrap();
        assert_eq!(solver.counts().unwrap(), fresh);
    }

    #[test]
    fn a_box_past_the_search_bounds_is_an_error_not_a_wait() {
        // 4,000 random words over 20 one-letter sides: the states of an
        // 8-word search run into the millions.
        let mut rng = crate::rng::SplitMix64::new(1);
        let list = crate::testutil::random_list(&mut rng, 4000, 3, 6, 20);
        let idx = crate::testutil::index(&list, None);
        let sides: Vec<String> = (b'a'..b'a' + 20).map(|b| (b as char).to_string()).collect();
        let b = LetterBox::parse(idx.alphabet(), &sides).unwrap();
        let err = solve(&idx, &b, &SolveOptions { max_words: 8, ..Default::default() }).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Limit(m) if m.contains("too large to search")), "{err}");
        assert!(!err.is_usage());
        // Fewer words fit.
        assert!(solve(&idx, &b, &SolveOptions { max_words: 2, ..Default::default() }).is_ok());
    }

    #[test]
    fn rejects_bad_options() {
        let idx = crate::testutil::index("abc\n", None);
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd"]).unwrap();
        assert!(solve(&idx, &b, &SolveOptions { max_words: 0, ..Default::default() }).unwrap_err().is_usage());
        assert!(solve(&idx, &b, &SolveOptions { min_len: 0, ..Default::default() }).unwrap_err().is_usage());
    }

    #[test]
    fn parse_rejects_bad_boxes() {
        let a = Alphabet::latin();
        assert!(LetterBox::parse(&a, &["abc"]).is_err());
        assert!(LetterBox::parse(&a, &["abc", "cde"]).unwrap_err().to_string().contains("two sides"));
        assert!(LetterBox::parse(&a, &["ab1", "cde"]).unwrap_err().is_usage());
        assert!(LetterBox::parse(&a, &["abc", ""]).is_err());
        assert_eq!(boxed(&["Ab", "c"]).letters(), b"abc");
    }
}
