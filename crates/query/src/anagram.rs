//! Anagrams with blanks, and multi-word anagrams, from the `terms` section.
//!
//! A word's *term* is its letters sorted, so the anagrams of some letters
//! are the words of one term. Given letters (sorted) and `?` blanks, the
//! terms they make are found by walking the terms FST with an automaton that
//! matches a term's letters against the given ones in step, spending a
//! blank on each letter it lacks: [`anagrams`] wants every letter used
//! (exact anagrams), [`sub_anagrams`] any part of them.
//!
//! [`phrase_anagrams`] finds sets of words whose letters together are
//! exactly a phrase's: the terms that fit in the phrase, then a search that
//! takes terms in order (so each set comes once), subtracting letter
//! counts, and finds the last term of a set by looking its letters up.
//!
//! ```
//! # let list = "ride\ndire\nired\nrid\nred\ndie\nside\n";
//! # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
//! # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! use wordhoard_query::anagram::{self, AnagramOptions, PhraseOptions};
//!
//! let exact = anagram::anagrams(&index, "dei?", &AnagramOptions::default())?;
//! let words: Vec<(&str, &str)> = exact.iter().map(|a| (a.word.as_str(), a.blanks.as_str())).collect();
//! assert_eq!(words, [("dire", "r"), ("ired", "r"), ("ride", "r"), ("side", "s")]);
//! let sets = anagram::phrase_anagrams(&index, "rid red", &PhraseOptions::default())?;
//! assert_eq!(sets.anagrams, [vec!["red", "rid"]]);
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use crate::alphabet::Alphabet;
use crate::error::{Error, ErrorKind, Result};
use crate::fasthash::IntMap;
use crate::format::fst::Automaton;
use crate::index::Index;
use crate::terms::Terms;

/// The most blanks (`?`) in one question: each multiplies the terms a
/// walk may visit by the alphabet's size.
pub const MAX_BLANKS: usize = 3;
/// The most letters a phrase may have.
pub const MAX_PHRASE_LETTERS: usize = 40;
/// The most words in a multi-word anagram.
pub const MAX_WORDS: usize = 6;
/// The most multi-word anagrams a question may count (and hold, to list
/// them in order: about 60 MB at most): past this it is an error asking
/// for fewer words or a longer `min_len`, not a long wait.
pub const MAX_ANAGRAMS: u64 = 2_000_000;
/// The most words one question of [`anagrams`] or [`sub_anagrams`] may
/// answer with (held to sort them: tens of megabytes). `retain??` with
/// `--sub` has 3,398 on enable1; only an index made to hurt comes near.
pub const MAX_WORD_ANAGRAMS: usize = 1 << 19;
/// The most steps (a term tried against what is left of the phrase) the
/// search may take: 0.4 s for a 29-letter phrase in up to 6 words on
/// enable1, 3 s at worst (every multiset of 1-3 letters a word); a long
/// phrase with many words allowed has more sets to try than any answer is
/// worth waiting for. `software engineer` in up to 4 words, 997,086
/// anagrams, fits in 0.12 s.
pub const MAX_SEARCH_STEPS: u64 = 1 << 27;

/// A word made of the letters, and what its blanks stood for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anagram {
    /// The word.
    pub word: String,
    /// The letters the blanks stood for, sorted ("" when none).
    pub blanks: String,
    /// True when it is on the common list.
    pub common: bool,
}

/// The most hits [`first_anagrams`] makes room for before it finds any
/// (when asked for more: past it the heap grows).
const FIRST_ROOM: usize = 1024;

/// Options for [`anagrams`] and [`sub_anagrams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnagramOptions {
    /// The shortest word ([`sub_anagrams`] only).
    pub min_len: usize,
    /// Only words of the common list.
    pub common_only: bool,
}

impl Default for AnagramOptions {
    fn default() -> AnagramOptions {
        AnagramOptions { min_len: 3, common_only: false }
    }
}

/// Letters as typed: their alphabet bytes, sorted, and the blank count.
fn parse_letters(alphabet: &Alphabet, input: &str) -> Result<(Vec<u8>, usize)> {
    let blanks = input.chars().filter(|&c| c == '?').count();
    if blanks > MAX_BLANKS {
        return Err(Error::invalid(format!("{blanks} blanks (`?`); at most {MAX_BLANKS}")));
    }
    let letters: String = input.chars().filter(|&c| c != '?').collect();
    let mut bytes = if letters.is_empty() { Vec::new() } else { alphabet.parse_word(&letters, "letters")? };
    bytes.sort_unstable();
    Ok((bytes, blanks))
}

/// Terms against sorted letters and blanks: `exact` wants every letter
/// used, else a term may leave letters out.
struct TermsOf<'a> {
    letters: &'a [u8],
    blanks: usize,
    exact: bool,
}

/// Letters of the given ones used so far (a prefix when exact; else the
/// next one not yet passed), blanks spent, and the term's length.
type TermState = Option<(usize, usize, usize)>;

impl Automaton for TermsOf<'_> {
    type State = TermState;

    fn start(&self) -> TermState {
        Some((0, 0, 0))
    }

    fn is_match(&self, state: &TermState) -> bool {
        match *state {
            Some((at, spent, _)) if self.exact => at == self.letters.len() && spent == self.blanks,
            Some(_) => true,
            None => false,
        }
    }

    fn can_match(&self, state: &TermState) -> bool {
        state.is_some()
    }

    fn accept(&self, state: &TermState, byte: u8) -> TermState {
        let (mut at, spent, len) = (*state)?;
        // A term's letters ascend: given letters below this one can no
        // longer be used; exact anagrams must use them all.
        while at < self.letters.len() && self.letters[at] < byte {
            if self.exact {
                return None;
            }
            at += 1;
        }
        if at < self.letters.len() && self.letters[at] == byte {
            Some((at + 1, spent, len + 1))
        } else if spent < self.blanks {
            Some((at, spent + 1, len + 1))
        } else {
            None
        }
    }
}

/// `term` less the `letters` it uses: what the blanks stood for.
fn blanks_of(alphabet: &Alphabet, term: &[u8], letters: &[u8]) -> String {
    let (mut out, mut at) = (String::new(), 0);
    for &b in term {
        while at < letters.len() && letters[at] < b {
            at += 1;
        }
        if at < letters.len() && letters[at] == b {
            at += 1;
        } else {
            out.push(alphabet.char_of(b));
        }
    }
    out
}

/// The first `limit` words of [`sub_anagrams`] (`sub`) or [`anagrams`],
/// and how many there are in all: only the words listed are turned into
/// text, and only the terms of the lengths listed have their words' ids
/// read (the rest are counted from their groups' offsets). Hits are
/// ordered as numbers, by (length, id): ids follow the words' codes, and
/// codes ascend with the letters' code points, so id order is a-z; a
/// question that shows 50 of 3,000 words decodes 50.
pub fn first_anagrams<D: AsRef<[u8]>>(
    index: &Index<D>,
    input: &str,
    sub: bool,
    opts: &AnagramOptions,
    limit: usize,
) -> Result<(Vec<Anagram>, u64)> {
    let exact = !sub;
    index.require_common_list(opts.common_only)?;
    let (letters, blanks) = parse_letters(index.alphabet(), input)?;
    if letters.len() + blanks == 0 {
        return Err(Error::invalid("no letters given; give letters, and `?` for a blank, e.g. `retain?`"));
    }
    let terms = Terms::open(index)?;
    let common = index.common()?;
    let mut count = 0usize;
    // The terms found, back to back, each where `term_starts` says: one
    // list, where a list a term was an allocation each (thousands for
    // `retain?? --sub`).
    let (mut term_codes, mut term_starts) = (Vec::new(), Vec::new());
    // Each term found (its id and length), and the words of each length:
    // a term's size is in its group offsets, so only the terms of the
    // longest lengths that make `limit` words have their ids read
    // (`retain?? --sub` lists 50 of 7,870 words). With `common_only`
    // every term's ids are read, to count its common words, and those
    // listed read again below.
    let (mut found, mut by_length) = (Vec::new(), Vec::new());
    let (mut too_many, mut ids) = (false, Vec::new());
    terms.search_sizes(TermsOf { letters: &letters, blanks, exact }, |term, t, size| {
        if !exact && term.len() < opts.min_len {
            return Ok(ControlFlow::Continue(()));
        }
        let size = if opts.common_only {
            terms.word_ids_of(t, &mut ids)?;
            common.retain_common(&mut ids)?;
            ids.len()
        } else {
            size
        };
        found.push((t, term.len()));
        if by_length.len() <= term.len() {
            by_length.resize(term.len() + 1, 0usize);
        }
        by_length[term.len()] += size;
        count += size;
        term_starts.push(term_codes.len());
        term_codes.extend_from_slice(term);
        too_many = count > MAX_WORD_ANAGRAMS || term_starts.len() > MAX_WORD_ANAGRAMS;
        Ok(if too_many { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    })?;
    if too_many {
        return Err(Error::new(ErrorKind::Limit(format!(
            "too large: the letters make more than {MAX_WORD_ANAGRAMS} words; use fewer blanks or a longer shortest word"
        ))));
    }
    // Every word of one length ranks before any shorter one: the words
    // listed are of the lengths from the longest down to the one where
    // `limit` words are reached.
    let mut words_longer = 0;
    let shortest_listed = (0..by_length.len())
        .rev()
        .find(|&len| {
            words_longer += by_length[len];
            words_longer >= limit
        })
        .unwrap_or(0);
    // Each hit: (letters, word id, the term it came from), longest first,
    // then a-z. Only the first `limit` are kept, the worst of them on
    // top, so a question that shows 50 of 7,870 words holds 50, not a
    // list of them all grown and copied as it fills (fresh pages).
    let mut best: BinaryHeap<(Reverse<u32>, u32, u32)> = BinaryHeap::with_capacity(limit.min(FIRST_ROOM));
    for (local, &(t, len)) in found.iter().enumerate() {
        if len < shortest_listed {
            continue;
        }
        terms.word_ids_of(t, &mut ids)?;
        if opts.common_only {
            common.retain_common(&mut ids)?;
        }
        for &id in &ids {
            let hit = (Reverse(len as u32), id, local as u32);
            if best.len() < limit {
                best.push(hit);
            } else if let Some(mut worst) = best.peek_mut() {
                if hit < *worst {
                    *worst = hit;
                }
            }
        }
    }
    let count = count as u64;
    let hits = best.into_sorted_vec();
    let ids: Vec<u32> = hits.iter().map(|&(_, id, _)| id).collect();
    let common_flags = common.flags_of(&ids)?;
    let texts = index.texts_of(&ids)?;
    term_starts.push(term_codes.len());
    let out = hits
        .iter()
        .zip(common_flags)
        .zip(texts.iter())
        .map(|((&(_, _, t), common), word)| Anagram {
            word: word.to_string(),
            blanks: blanks_of(
                index.alphabet(),
                &term_codes[term_starts[t as usize]..term_starts[t as usize + 1]],
                &letters,
            ),
            common,
        })
        .collect();
    Ok((out, count))
}

/// Words that use exactly the letters, each `?` standing for any letter;
/// a-z (all are one length).
pub fn anagrams<D: AsRef<[u8]>>(index: &Index<D>, letters: &str, opts: &AnagramOptions) -> Result<Vec<Anagram>> {
    Ok(first_anagrams(index, letters, false, opts, usize::MAX)?.0)
}

/// Words of at least `min_len` letters made from some of the letters
/// (each `?` standing for any letter): longest first, then a-z.
pub fn sub_anagrams<D: AsRef<[u8]>>(index: &Index<D>, letters: &str, opts: &AnagramOptions) -> Result<Vec<Anagram>> {
    Ok(first_anagrams(index, letters, true, opts, usize::MAX)?.0)
}

/// Options for [`phrase_anagrams`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhraseOptions {
    /// The most words in an anagram (1 to [`MAX_WORDS`]).
    pub max_words: usize,
    /// The shortest word used.
    pub min_len: usize,
    /// A word every anagram must contain.
    pub include: Option<String>,
    /// Only words of the common list.
    pub common_only: bool,
    /// How many anagrams to list, in order (0: all); the count is exact.
    pub limit: usize,
}

impl Default for PhraseOptions {
    fn default() -> PhraseOptions {
        PhraseOptions { max_words: 3, min_len: 3, include: None, common_only: false, limit: 50 }
    }
}

/// The multi-word anagrams of a phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhraseAnagrams {
    /// The phrase's letters, sorted.
    pub letters: String,
    /// How many anagrams there are.
    pub count: u64,
    /// The first `limit` of them in order: fewest words, then a-z; each's
    /// words a-z.
    pub anagrams: Vec<Vec<String>>,
}

/// Letter counts, one byte a letter of the alphabet: `N` is 32 for an
/// alphabet of up to 32 letters (the compares and the hashing cost half),
/// else 64. Compared and subtracted eight at a time (see [`fits`]).
type Counts<const N: usize> = [u8; N];

/// The counts of `bytes` (codes that are no letter are left out).
fn counts_of<const N: usize>(alphabet: &Alphabet, bytes: &[u8]) -> Counts<N> {
    let mut c = [0u8; N];
    for &b in bytes {
        // `N` covers the alphabet (see `phrase_anagrams`); were it not,
        // a letter past it would go uncounted, not panic.
        if let Some(n) = alphabet.index_of(b).and_then(|i| c.get_mut(i)) {
            *n = n.saturating_add(1);
        }
    }
    c
}

/// True when every count of `a` is at most `b`'s: eight counts a step,
/// each word's bytes compared at once, with no early exit. Every count
/// is below 128 (a phrase has at most [`MAX_PHRASE_LETTERS`], and so
/// has any term that fits it; a longer word to include is refused first).
#[inline]
fn fits<const N: usize>(a: &Counts<N>, b: &Counts<N>) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |c: &[u8]| crate::format::read_u64(c, 0).unwrap_or_default();
    a.chunks_exact(8).zip(b.chunks_exact(8)).fold(true, |ok, (a, b)| {
        // A byte of `b | HIGH` keeps its high bit past the subtraction
        // exactly when the count of `a` there is no larger.
        ok & ((((word(b) | HIGH) - word(a)) & HIGH) == HIGH)
    })
}

/// `a` less `b`, eight counts a step: `b` fits in `a` (see [`fits`]), so
/// no byte borrows from the next (and if one did, the counts would be
/// wrong, never a panic).
#[inline]
fn minus<const N: usize>(a: &Counts<N>, b: &Counts<N>) -> Counts<N> {
    let word = |c: &[u8]| crate::format::read_u64(c, 0).unwrap_or_default();
    let mut left = [0u8; N];
    for ((out, a), b) in left.chunks_exact_mut(8).zip(a.chunks_exact(8)).zip(b.chunks_exact(8)) {
        out.copy_from_slice(&word(a).wrapping_sub(word(b)).to_le_bytes());
    }
    left
}

/// The anagram search's terms: each term's letters and its words.
struct Candidates<const N: usize> {
    /// Each term's letter counts, shortest terms first.
    counts: Vec<Counts<N>>,
    /// Each term's letters.
    lens: Vec<usize>,
    /// Each term's words, as ids (a-z).
    words: Vec<Vec<u32>>,
    /// Term id by its letter counts, for the last word of a set.
    by_counts: IntMap<Counts<N>, usize>,
}

/// Every multiset of at most `max_words` words (each at least `min_len`
/// letters) whose letters are exactly the phrase's (spaces and punctuation
/// ignored, letters lowercased): the exact count and the first `limit` in
/// order (fewest words, then a-z).
pub fn phrase_anagrams<D: AsRef<[u8]>>(index: &Index<D>, phrase: &str, opts: &PhraseOptions) -> Result<PhraseAnagrams> {
    if opts.max_words == 0 || opts.max_words > MAX_WORDS {
        return Err(Error::invalid_param("max_words", format!("must be 1 to {MAX_WORDS}")));
    }
    if opts.min_len == 0 {
        return Err(Error::invalid_param("min_len", "must be at least 1"));
    }
    index.require_common_list(opts.common_only)?;
    if index.alphabet().len() <= 32 {
        phrase_in::<32, D>(index, phrase, opts)
    } else {
        phrase_in::<64, D>(index, phrase, opts)
    }
}

/// [`phrase_anagrams`] with letter counts of `N` bytes.
fn phrase_in<const N: usize, D: AsRef<[u8]>>(
    index: &Index<D>,
    phrase: &str,
    opts: &PhraseOptions,
) -> Result<PhraseAnagrams> {
    let alphabet = index.alphabet();
    let letters = phrase_letters(alphabet, phrase)?;
    let mut want: Counts<N> = counts_of(alphabet, &letters);
    let mut max_words = opts.max_words;
    let (mut forced, mut forced_id) = (Vec::new(), None);
    if let Some(word) = &opts.include {
        let bytes = alphabet.parse_word(word.trim(), "include")?;
        let c: Counts<N> = counts_of(alphabet, &bytes);
        forced_id = index.word_id(&bytes)?;
        if forced_id.is_none() {
            return Err(Error::invalid_param("include", format!("{word:?} is not a word of this index")));
        }
        // Longer than the phrase, it cannot fit (and its counts might
        // pass 127, past what `fits` compares).
        if bytes.len() > letters.len() || !fits(&c, &want) {
            return Err(Error::invalid_param("include", format!("{word:?} has letters the phrase does not")));
        }
        want = minus(&want, &c);
        max_words -= 1;
        forced.push(alphabet.word_string(bytes));
    }
    let mut letters_sorted = letters.clone();
    letters_sorted.sort_unstable();
    let result =
        |count, anagrams| PhraseAnagrams { letters: alphabet.word_string(letters_sorted.clone()), count, anagrams };
    if want == [0u8; N] {
        return Ok(result(forced.len() as u64, if forced.is_empty() { vec![] } else { vec![forced] }));
    }
    if max_words == 0 {
        return Ok(result(0, Vec::new()));
    }
    // The terms that fit in what is left of the phrase.
    let remaining: Vec<u8> = want
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .flat_map(|(i, &n)| std::iter::repeat_n(alphabet.letter(i), n as usize))
        .collect();
    let candidates = candidates(index, &remaining, opts)?;
    let mut search = Search { c: &candidates, max_words, sets: Vec::new(), count: 0, steps: 0, path: Vec::new() };
    search.from(0, want, want.iter().map(|&n| n as usize).sum())?;
    // Expand each set of terms into its sets of words, as word ranks
    // (a-z order of every word in play), so sorting and keeping the first
    // `limit` compare small integer arrays, not strings; only the words
    // listed are turned into text.
    let Search { sets, count, .. } = search;
    let ranks = Ranks::new(&candidates, forced_id);
    let mut kept: Vec<Ranked> = Vec::new();
    let mut heap: std::collections::BinaryHeap<Ranked> = std::collections::BinaryHeap::new();
    for set in &sets {
        let ids: [usize; MAX_WORDS] = std::array::from_fn(|i| set.terms[i] as usize);
        expand(&candidates, &ranks, &ids[..set.len as usize], &mut |anagram| {
            if opts.limit == 0 {
                kept.push(anagram);
            } else if heap.len() < opts.limit {
                heap.push(anagram);
            } else if heap.peek().is_some_and(|top| anagram < *top) {
                heap.pop();
                heap.push(anagram);
            }
        });
    }
    if opts.limit == 0 {
        kept.sort_unstable();
    } else {
        kept = heap.into_sorted_vec();
    }
    let mut shown: Vec<u32> = kept.iter().flat_map(|a| a.words().iter().copied()).collect();
    shown.sort_unstable();
    shown.dedup();
    let text = index.words_of(shown.iter().map(|&r| ranks.ids[r as usize]))?;
    let word = |r: &u32| text[shown.binary_search(r).unwrap_or_default()].clone();
    let anagrams = kept.iter().map(|a| a.words().iter().map(word).collect()).collect();
    Ok(result(count, anagrams))
}

fn phrase_letters(alphabet: &Alphabet, phrase: &str) -> Result<Vec<u8>> {
    let mut letters = Vec::new();
    for c in alphabet.folding().normalise(phrase).chars() {
        if c.is_alphanumeric() {
            match alphabet.code_of(c) {
                Some(b) => letters.push(b),
                None => {
                    return Err(Error::invalid(format!(
                        "{c:?} in the phrase is not a letter of the index ({})",
                        alphabet.as_str()
                    )))
                }
            }
        }
    }
    if letters.is_empty() {
        return Err(Error::invalid("the phrase has no letters"));
    }
    if letters.len() > MAX_PHRASE_LETTERS {
        return Err(Error::invalid(format!("the phrase has {} letters; at most {MAX_PHRASE_LETTERS}", letters.len())));
    }
    Ok(letters)
}

fn candidates<const N: usize, D: AsRef<[u8]>>(
    index: &Index<D>,
    letters: &[u8],
    opts: &PhraseOptions,
) -> Result<Candidates<N>> {
    let alphabet = index.alphabet();
    let common = index.common()?;
    let mut terms: Vec<(Vec<u8>, Vec<u32>)> = Vec::new();
    let mut sorted = letters.to_vec();
    sorted.sort_unstable();
    let mut failed = None;
    Terms::open(index)?.search(TermsOf { letters: &sorted, blanks: 0, exact: false }, |term, ids| {
        if term.len() >= opts.min_len {
            let mut ids = ids.to_vec();
            if opts.common_only {
                if let Err(e) = common.retain_common(&mut ids) {
                    failed = Some(e);
                    return ControlFlow::Break(());
                }
            }
            if !ids.is_empty() {
                terms.push((term.to_vec(), ids));
            }
        }
        ControlFlow::Continue(())
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    // Shortest first: a set is searched in this order, so a term that
    // another must follow is at most half the letters left (see
    // `Search::from`). The answers do not depend on it (they are ranked
    // a-z after the search). A pass a length, not a sort: terms are at
    // most the phrase's letters long, and the WebAssembly stays small.
    let mut c = Candidates { counts: Vec::new(), lens: Vec::new(), words: Vec::new(), by_counts: IntMap::default() };
    for len in 1..=letters.len() {
        for (term, ids) in terms.iter_mut().filter(|(term, _)| term.len() == len) {
            let counts = counts_of(alphabet, term);
            c.by_counts.insert(counts, c.counts.len());
            c.counts.push(counts);
            c.lens.push(len);
            c.words.push(std::mem::take(ids));
        }
    }
    Ok(c)
}

/// The depth-first search over terms, shortest first.
struct Search<'a, const N: usize> {
    c: &'a Candidates<N>,
    max_words: usize,
    /// Each set of term ids found (ascending, repeats allowed).
    sets: Vec<TermSet>,
    /// Word sets counted (a term set stands for the product of its
    /// terms' word choices).
    count: u64,
    /// Terms tried, bounded by [`MAX_SEARCH_STEPS`].
    steps: u64,
    path: Vec<usize>,
}

/// A set of term ids, ascending, held in place (a search may find many).
#[derive(Clone, Copy)]
struct TermSet {
    len: u8,
    terms: [u32; MAX_WORDS],
}

impl<const N: usize> Search<'_, N> {
    /// Sets completing `left` (`left_len` letters) from terms `from..`.
    fn from(&mut self, from: usize, left: Counts<N>, left_len: usize) -> Result<()> {
        let depth = self.path.len();
        // The last word: looked up, not searched for.
        if let Some(&t) = self.c.by_counts.get(&left) {
            if t >= from {
                self.found(t)?;
            }
        }
        if depth + 1 >= self.max_words {
            return Ok(());
        }
        for t in from..self.c.counts.len() {
            // Another term follows this one, no shorter (terms go shortest
            // first): past half the letters left, no term fits.
            if 2 * self.c.lens[t] > left_len {
                break;
            }
            self.steps += 1;
            if self.steps > MAX_SEARCH_STEPS {
                return Err(Error::new(ErrorKind::Limit(format!(
                    "too large: sets of up to {} words for the phrase take more than {MAX_SEARCH_STEPS} steps to search; allow fewer words or a longer shortest word",
                    self.max_words
                ))));
            }
            // The last term is found by lookup above: here only terms that
            // leave letters for another.
            if self.c.counts[t] == left || !fits(&self.c.counts[t], &left) {
                continue;
            }
            self.path.push(t);
            self.from(t, minus(&left, &self.c.counts[t]), left_len - self.c.lens[t])?;
            self.path.pop();
        }
        Ok(())
    }

    fn found(&mut self, last: usize) -> Result<()> {
        let mut set = self.path.clone();
        set.push(last);
        let words = word_sets(self.c, &set);
        self.count = self.count.saturating_add(words);
        if self.count > MAX_ANAGRAMS {
            return Err(Error::new(ErrorKind::Limit(format!(
                "too large: the phrase has over {MAX_ANAGRAMS} anagrams of up to {} words; allow fewer words or a longer shortest word",
                self.max_words
            ))));
        }
        let mut terms = [0u32; MAX_WORDS];
        terms.iter_mut().zip(&set).for_each(|(slot, &t)| *slot = t as u32);
        self.sets.push(TermSet { len: set.len() as u8, terms });
        Ok(())
    }
}

/// How many word sets a term set stands for: a term used `k` times with
/// `n` words gives the multisets of `k` of `n`, C(n + k - 1, k).
fn word_sets<const N: usize>(c: &Candidates<N>, set: &[usize]) -> u64 {
    let mut total = 1u64;
    let mut i = 0;
    while i < set.len() {
        let k = set[i..].iter().take_while(|&&t| t == set[i]).count() as u64;
        let n = c.words[set[i]].len() as u64;
        let mut ways = 1u64;
        for j in 0..k {
            ways = ways.saturating_mul(n + j) / (j + 1);
        }
        total = total.saturating_mul(ways);
        i += k as usize;
    }
    total
}

/// Every word in play ranked a-z: the candidates' words and the word
/// forced in.
struct Ranks {
    /// Word ids by rank.
    ids: Vec<u32>,
    /// Rank of `candidates.words[t][w]`.
    of: Vec<Vec<u32>>,
    /// Rank of the forced word.
    forced: Option<u32>,
}

impl Ranks {
    /// Ranks by id: ids follow the words' codes, which ascend with the
    /// alphabet (so with the text's UTF-8 bytes: a-z).
    fn new<const N: usize>(c: &Candidates<N>, forced: Option<u32>) -> Ranks {
        let mut all: Vec<(u32, usize, usize)> = Vec::new();
        for (t, ids) in c.words.iter().enumerate() {
            all.extend(ids.iter().enumerate().map(|(w, &id)| (id, t, w)));
        }
        if let Some(id) = forced {
            all.push((id, usize::MAX, 0));
        }
        all.sort_unstable();
        let mut of: Vec<Vec<u32>> = c.words.iter().map(|w| vec![0; w.len()]).collect();
        let mut forced_rank = None;
        for (rank, &(_, t, w)) in all.iter().enumerate() {
            if t == usize::MAX {
                forced_rank = Some(rank as u32);
            } else {
                of[t][w] = rank as u32;
            }
        }
        Ranks { ids: all.iter().map(|&(id, _, _)| id).collect(), of, forced: forced_rank }
    }
}

/// An anagram as word ranks, ascending (so its words a-z); ordered by
/// word count, then a-z, as the anagrams are listed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    len: u8,
    ranks: [u32; MAX_WORDS],
}

impl Ranked {
    fn words(&self) -> &[u32] {
        &self.ranks[..self.len as usize]
    }
}

/// Every word set of a term set, given to `out`.
fn expand<const N: usize>(c: &Candidates<N>, ranks: &Ranks, set: &[usize], out: &mut impl FnMut(Ranked)) {
    // Word choices as indices, non-decreasing within a repeated term.
    fn go<const N: usize>(
        c: &Candidates<N>,
        ranks: &Ranks,
        set: &[usize],
        at: usize,
        picked: &mut [usize; MAX_WORDS],
        out: &mut impl FnMut(Ranked),
    ) {
        if at == set.len() {
            let mut anagram = Ranked { len: 0, ranks: [u32::MAX; MAX_WORDS] };
            for r in ranks.forced.into_iter().chain(set.iter().zip(picked.iter()).map(|(&t, &w)| ranks.of[t][w])) {
                anagram.ranks[anagram.len as usize] = r;
                anagram.len += 1;
            }
            anagram.ranks[..anagram.len as usize].sort_unstable();
            out(anagram);
            return;
        }
        let first = if at > 0 && set[at] == set[at - 1] { picked[at - 1] } else { 0 };
        for w in first..c.words[set[at]].len() {
            picked[at] = w;
            go(c, ranks, set, at + 1, picked, out);
        }
    }
    go(c, ranks, set, 0, &mut [0; MAX_WORDS], out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time compare and subtraction of counts agree with
    /// one count at a time, for counts up to the most a phrase holds.
    #[test]
    fn counts_fit_and_subtract_as_one_count_at_a_time() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let most = MAX_PHRASE_LETTERS as u64 + 1;
        for _ in 0..20_000 {
            let a: Counts<16> = std::array::from_fn(|_| rng.below(most) as u8);
            let b: Counts<16> =
                std::array::from_fn(
                    |i| if rng.below(3) == 0 { rng.below(most) as u8 } else { a[i] + rng.below(3) as u8 },
                );
            let want = a.iter().zip(&b).all(|(x, y)| x <= y);
            assert_eq!(fits(&a, &b), want, "{a:?} in {b:?}");
            if want {
                assert_eq!(minus(&b, &a), std::array::from_fn(|i| b[i] - a[i]));
            }
        }
    }

    /// A word to include with more of a letter than a count can hold in
    /// `fits` (here 255, saturated) is refused, not compared.
    #[test]
    fn a_word_to_include_longer_than_the_phrase_is_refused() {
        // h, the eighth letter: the top byte of a word of counts, whose
        // borrow would leave the word.
        let long = "h".repeat(crate::format::MAX_WORD_LEN);
        let index = crate::testutil::index(&format!("hh\n{long}\n"), None);
        let opts = PhraseOptions { include: Some(long), ..Default::default() };
        let err = phrase_anagrams(&index, "hh", &opts).unwrap_err();
        assert!(err.to_string().contains("has letters the phrase does not"), "{err}");
    }

    /// A phrase's anagrams are the same with counts of either width.
    #[test]
    fn counts_of_either_width_give_the_same_anagrams() {
        let list = "the\nquick\nbrown\nfox\njumps\nthe\nhe\nquip\nbox\nfrown\nsump\nkw\nju\nmost\nsox\nwhen\nthen\nbrick\nown\n";
        let index = crate::testutil::index(list, None);
        let opts = PhraseOptions { limit: 0, max_words: 5, min_len: 2, ..Default::default() };
        // 9 and 19 distinct letters.
        for phrase in ["brown fox the", "the quick brown fox jumps"] {
            let narrow = phrase_in::<32, _>(&index, phrase, &opts).unwrap();
            assert!(narrow.count > 0, "{phrase}");
            assert_eq!(phrase_in::<64, _>(&index, phrase, &opts).unwrap(), narrow, "{phrase}");
        }
    }
}
