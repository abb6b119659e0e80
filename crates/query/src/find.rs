//! Crossword patterns over the `words` FST: `c?t`, `*ing`, `[aeiou]?[^s]`.
//!
//! A pattern is a sequence of tokens: a letter stands for itself, `?` for
//! any one letter, `*` for any run of letters (also none), `[abc]` for one
//! letter of a set and `[^abc]` for one letter not in it. It is run as an
//! automaton over the FST, so a fixed prefix narrows the walk to the words
//! that start with it; the states are the pattern positions still alive,
//! as a bitset (a pattern has at most [`MAX_TOKENS`] tokens). Letter
//! tokens followed by a `*` (`qu*`, `?*ing`) allow runs of words, one a
//! beginning, read from the index's word text (or the words the `endings`
//! name, when fewer). A pattern that starts with `*` fixes a suffix instead: its
//! words come from the index's `endings` table, by their last letters, or
//! from a pass over the word text when its ending allows too many of them.
//!
//! ```
//! # let list = "cat\ncot\ncoat\nact\nscat\n";
//! # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
//! # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! use wordhoard_query::find::{self, FindOptions, Pattern};
//!
//! let pattern = Pattern::parse(index.alphabet(), "c?t")?;
//! let mut words = Vec::new();
//! let count = find::find(&index, &pattern, &FindOptions::default(), |word, _common| words.push(word.to_string()))?;
//! assert_eq!((count, words), (2, vec!["cat".to_string(), "cot".to_string()]));
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use std::ops::ControlFlow;

use crate::alphabet::{Alphabet, LetterSet};
use crate::endings::{Endings, MAX_RUNS};
use crate::error::{Error, Result};
use crate::format::blocks::{LastBlock, BLOCK_LEN};
use crate::format::fst::{Automaton, FstMap, StartsWith};
use crate::format::SectionId;
use crate::format::ENDING_LETTERS;
use crate::index::{CommonFlags, Index};
use crate::word_text::WordText;

/// The most tokens a pattern may have (its states are a `u64` bitset).
pub const MAX_TOKENS: usize = 63;

/// One position of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// One letter of the set (a letter, `?`, `[..]`, `[^..]`).
    One(LetterSet),
    /// Any run of letters, also none.
    Star,
}

/// A parsed pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    tokens: Vec<Token>,
    /// Bytes of the alphabet as letter sets: `byte -> letter index`.
    index_of: Vec<Option<u8>>,
}

impl Pattern {
    /// Parses a pattern (see the module docs); letters are lowercased.
    pub fn parse(alphabet: &Alphabet, pattern: &str) -> Result<Pattern> {
        let usage = "a pattern is letters, `?` (one letter), `*` (any letters), `[abc]` or `[^abc]` (one of, or none of, those letters)";
        let mut tokens = Vec::new();
        // Letters typed decomposed (`a` + U+0308) are composed first, as
        // every other input is; the pattern's own marks are ASCII.
        let composed = if pattern.is_ascii() { None } else { Some(crate::unicode::nfc(pattern)) };
        let mut chars = composed.as_deref().unwrap_or(pattern).chars().peekable();
        let letter = |c: char| -> Result<usize> {
            let typed = alphabet.folding().normalise(c.encode_utf8(&mut [0; 4]));
            let mut chars = typed.chars();
            match (chars.next(), chars.next()) {
                (Some(one), None) => alphabet.code_of(one).and_then(|code| alphabet.index_of(code)),
                _ => None,
            }
            .ok_or_else(|| {
                Error::invalid(format!(
                    "{c:?} in the pattern is not a letter of the index ({}); {usage}",
                    alphabet.as_str()
                ))
            })
        };
        while let Some(c) = chars.next() {
            let token = match c {
                '?' => Token::One(alphabet.full_set()),
                '*' => Token::Star,
                '[' => {
                    let negated = chars.next_if_eq(&'^').is_some();
                    let mut set = LetterSet::EMPTY;
                    loop {
                        match chars.next() {
                            Some(']') => break,
                            Some(c) => set = set.with(letter(c)?),
                            None => {
                                return Err(Error::invalid(format!("the pattern has a `[` without its `]`; {usage}")))
                            }
                        }
                    }
                    let set = if negated { LetterSet(alphabet.full_set().0 & !set.0) } else { set };
                    if set.is_empty() {
                        return Err(Error::invalid(format!("`[...]` in the pattern allows no letter; {usage}")));
                    }
                    Token::One(set)
                }
                ']' => return Err(Error::invalid(format!("the pattern has a `]` without its `[`; {usage}"))),
                c => Token::One(LetterSet::EMPTY.with(letter(c)?)),
            };
            // A run of stars is one star.
            if !(token == Token::Star && tokens.last() == Some(&Token::Star)) {
                tokens.push(token);
            }
        }
        if tokens.is_empty() {
            return Err(Error::invalid(format!("the pattern is empty; {usage}")));
        }
        if tokens.len() > MAX_TOKENS {
            return Err(Error::invalid(format!("the pattern has {} parts; at most {MAX_TOKENS}", tokens.len())));
        }
        let index_of = (0..=255u8).map(|b| alphabet.index_of(b).map(|i| i as u8)).collect();
        Ok(Pattern { tokens, index_of })
    }

    /// The shortest and longest word lengths the pattern can match
    /// (`None`: no longest, it has a `*`).
    pub fn lengths(&self) -> (usize, Option<usize>) {
        let fixed = self.tokens.iter().filter(|t| **t != Token::Star).count();
        (fixed, (!self.tokens.contains(&Token::Star)).then_some(fixed))
    }

    /// When the pattern has a `*` after one or more letter tokens
    /// (`qu*`, `[bc]*t`, `?*ing`): the beginnings every word it matches
    /// has, as codes, a-z (the tokens before the `*` spelled out, as far
    /// as [`MAX_PREFIX_RUNS`] of them allow), and the share of an even
    /// spread of words that start with them. `None` otherwise.
    fn prefixes_before_star(&self) -> Option<(Vec<Vec<u8>>, f64)> {
        let star = self.tokens.iter().position(|t| *t == Token::Star)?;
        if star == 0 {
            return None;
        }
        let code_of = |letter: usize| self.index_of.iter().position(|&i| i == Some(letter as u8)).map(|c| c as u8);
        let letters = self.index_of.iter().flatten().count().max(1);
        let (mut prefixes, mut share) = (vec![Vec::new()], 1.0);
        for token in &self.tokens[..star] {
            let Token::One(set) = *token else { break };
            if prefixes.len() * set.len() > MAX_PREFIX_RUNS {
                break;
            }
            let mut codes: Vec<u8> = set.indices().map(code_of).collect::<Option<_>>()?;
            codes.sort_unstable();
            prefixes =
                prefixes.iter().flat_map(|p| codes.iter().map(move |&c| [p.as_slice(), &[c]].concat())).collect();
            share *= set.len() as f64 / letters as f64;
        }
        Some((prefixes, share))
    }

    /// About how many transitions a walk of the FST of `words` words
    /// tries for a pattern without a `*`: at each depth, every transition
    /// out of the beginnings its tokens allow, as many as the words have
    /// (no more than an even spread of them gives).
    fn walk_estimate(&self, words: usize) -> f64 {
        let letters = self.index_of.iter().flatten().count().max(1) as f64;
        let (mut allowed, mut all, mut tries) = (1.0f64, 1.0f64, 0.0);
        for token in &self.tokens {
            let Token::One(set) = *token else { break };
            tries += (allowed * letters).min(words as f64 * allowed / all);
            allowed *= set.len() as f64;
            all *= letters;
        }
        tries
    }

    /// The positions reachable from `positions` without reading a letter:
    /// a star may match nothing.
    fn closure(&self, mut positions: u64) -> u64 {
        for (i, t) in self.tokens.iter().enumerate() {
            if *t == Token::Star && positions & 1 << i != 0 {
                positions |= 1 << (i + 1);
            }
        }
        positions
    }
}

/// Options for [`find`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FindOptions {
    /// Only words of exactly this many letters.
    pub len: Option<usize>,
    /// Only words of the common list.
    pub common_only: bool,
}

/// The pattern as an automaton: the live positions and the letters read.
struct Matcher<'a> {
    pattern: &'a Pattern,
    len: Option<usize>,
}

impl Automaton for Matcher<'_> {
    type State = (u64, usize);

    fn start(&self) -> (u64, usize) {
        (self.pattern.closure(1), 0)
    }

    fn is_match(&self, &(positions, len): &(u64, usize)) -> bool {
        positions & 1 << self.pattern.tokens.len() != 0 && self.len.is_none_or(|n| n == len)
    }

    fn can_match(&self, &(positions, len): &(u64, usize)) -> bool {
        positions != 0 && self.len.is_none_or(|n| len <= n)
    }

    fn memo_key(&self, &(positions, len): &(u64, usize)) -> Option<(u64, u64)> {
        // A pattern that ends in `*` leaves few dead ends to remember:
        // not worth a lookup a transition. The length matters only under
        // a length limit.
        (self.pattern.tokens.last() != Some(&Token::Star))
            .then_some((positions, if self.len.is_some() { len as u64 } else { 0 }))
    }

    fn accept(&self, &(positions, len): &(u64, usize), byte: u8) -> (u64, usize) {
        let Some(letter) = self.pattern.index_of[byte as usize] else { return (0, len + 1) };
        let mut next = 0u64;
        for (i, t) in self.pattern.tokens.iter().enumerate() {
            if positions & 1 << i == 0 {
                continue;
            }
            match t {
                Token::Star => next |= 1 << i,
                Token::One(set) if set.contains(letter as usize) => next |= 1 << (i + 1),
                Token::One(_) => {}
            }
        }
        (self.pattern.closure(next), len + 1)
    }
}

/// Calls `each` with every word that matches, a-z, and whether it is
/// common; returns how many matched. The walk visits only the FST's
/// prefixes the pattern allows.
pub fn find<D: AsRef<[u8]>>(
    index: &Index<D>,
    pattern: &Pattern,
    opts: &FindOptions,
    mut each: impl FnMut(&str, bool),
) -> Result<u64> {
    find_while(index, pattern, opts, |word, common| {
        each(word, common);
        ControlFlow::Continue(())
    })
}

/// [`find`] that shows only the first `limit` matches: calls `each` with
/// them, a-z, and counts the rest without turning them into text.
pub fn find_first<D: AsRef<[u8]>>(
    index: &Index<D>,
    pattern: &Pattern,
    opts: &FindOptions,
    limit: usize,
    mut each: impl FnMut(&str, bool),
) -> Result<u64> {
    find_shown(index, pattern, opts, limit, |word, common| {
        each(word, common);
        ControlFlow::Continue(())
    })
}

/// [`find`] that `each` may stop: returns how many matched up to then
/// (a reader that wants only the first words need not walk the rest).
pub fn find_while<D: AsRef<[u8]>>(
    index: &Index<D>,
    pattern: &Pattern,
    opts: &FindOptions,
    each: impl FnMut(&str, bool) -> ControlFlow<()>,
) -> Result<u64> {
    find_shown(index, pattern, opts, usize::MAX, each)
}

/// The matches: the first `shown` as text to `each`, which may stop;
/// the rest counted.
fn find_shown<D: AsRef<[u8]>>(
    index: &Index<D>,
    pattern: &Pattern,
    opts: &FindOptions,
    shown: usize,
    mut each: impl FnMut(&str, bool) -> ControlFlow<()>,
) -> Result<u64> {
    index.require_common_list(opts.common_only)?;
    let common = index.common()?;
    let matcher = Matcher { pattern, len: opts.len };
    if let Some(text) = index.word_text()? {
        let prefixes = pattern.prefixes_before_star();
        let star = StarPattern::new(pattern, opts);
        if let Some(endings) = index.endings()? {
            let most = endings_limit(pattern, prefixes.as_ref().map(|p| p.1), endings.len(), text.text_len());
            if let Some(count) = by_endings(index, endings, text, &star, opts, common, shown, most, &mut each)? {
                return Ok(count);
            }
        }
        let listing = Listing {
            alphabet: index.alphabet(),
            opts,
            common,
            shown: shown as u64,
            count: 0,
            text: String::new(),
            stopped: false,
            failed: None,
        };
        if pattern.tokens.first() == Some(&Token::Star) {
            return scan(text, &star, listing, each);
        }
        if let Some((prefixes, _)) = prefixes {
            let star = star.after_prefix(pattern, prefixes[0].len());
            return by_prefixes(index.words()?, text, &prefixes, &star, listing, each);
        }
    }
    let words = index.words()?;
    let mut search = words.search(matcher);
    let (mut count, mut text) = (0, String::new());
    while let Some((word, id)) = search.next()? {
        if opts.common_only && !common.is_common(id as u32)? {
            continue;
        }
        count += 1;
        if count > shown as u64 {
            continue;
        }
        let is_common = opts.common_only || common.is_common(id as u32)?;
        text.clear();
        index.alphabet().push_word(word, &mut text);
        if each(&text, is_common).is_break() {
            break;
        }
    }
    Ok(count)
}

/// A pattern split for tests a word at a time, for the readers that do
/// not walk the FST: the letters after its last `*` (the tail; all of
/// them when it has no `*`) can only be a word's last letters, and what
/// comes before them must match the rest of the pattern, which ends in
/// `*` (and so matches any word when it is that `*` alone).
struct StarPattern {
    /// Per tail letter, the codes it allows: one load a letter.
    tail: Vec<[bool; 256]>,
    /// The pattern up to its last `*`, when it is more than that `*`.
    head: Option<Pattern>,
    /// The lengths a word may have.
    shortest: usize,
    longest: usize,
}

impl StarPattern {
    fn new(pattern: &Pattern, opts: &FindOptions) -> StarPattern {
        let star = pattern.tokens.iter().rposition(|t| *t == Token::Star);
        let tail = pattern.tokens[star.map_or(0, |s| s + 1)..]
            .iter()
            .map(|t| match t {
                Token::One(set) => {
                    std::array::from_fn(|b| pattern.index_of[b].is_some_and(|i| set.contains(i as usize)))
                }
                Token::Star => unreachable!("after the last star"),
            })
            .collect();
        // A head of `?` and `*` alone (`??*ing`) asks only for a length,
        // which `shortest` holds: no test of a word's letters.
        let any = pattern.index_of.iter().flatten().fold(LetterSet::EMPTY, |set, &i| set.with(i as usize));
        let head = star
            .filter(|&s| s > 0)
            .filter(|&s| pattern.tokens[..s].iter().any(|t| matches!(*t, Token::One(set) if set != any)))
            .map(|s| Pattern { tokens: pattern.tokens[..=s].to_vec(), index_of: pattern.index_of.clone() });
        // Without a `*`, only words of the pattern's own length (and none
        // when `--len` asks for another).
        let (shortest, longest) = pattern.lengths();
        let longest = longest.unwrap_or(usize::MAX);
        let (shortest, longest) = match opts.len {
            Some(n) => (n.max(shortest), n.min(longest)),
            None => (shortest, longest),
        };
        StarPattern { tail, head, shortest, longest }
    }

    /// The same for the words that start with the pattern's first
    /// `prefix_len` letters (see [`by_prefixes`]): when those letters and
    /// one `*` are all its head, the head is left untested.
    fn after_prefix(mut self, pattern: &Pattern, prefix_len: usize) -> StarPattern {
        if pattern.tokens.iter().rposition(|t| *t == Token::Star) == Some(prefix_len) {
            self.head = None;
        }
        self
    }

    /// About how many of `words` words of an alphabet of `letters` end as
    /// the tail does, in the last letters the `endings` settle (as
    /// [`Endings::runs`] splits its runs), were the letters spread evenly:
    /// no search of the table when that is already too many.
    fn endings_estimate(&self, words: usize, letters: usize) -> f64 {
        let (mut share, mut runs) = (1.0, 1);
        for allowed in self.tail.iter().rev().take(ENDING_LETTERS) {
            let allows = allowed.iter().filter(|&&a| a).count();
            runs *= allows;
            if runs > MAX_RUNS {
                break;
            }
            share *= allows as f64 / letters.max(1) as f64;
        }
        share * words as f64
    }

    /// True when `word` (letter codes) matches. Most words fail on their
    /// last letter, which is tested first.
    #[inline]
    fn fits(&self, word: &[u8]) -> bool {
        if word.len() < self.shortest || word.len() > self.longest {
            return false;
        }
        let (before, last) = word.split_at(word.len() - self.tail.len());
        last.iter().zip(&self.tail).all(|(&b, allowed)| allowed[b as usize])
            && self.head.as_ref().is_none_or(|head| Matcher { pattern: head, len: None }.matches(before))
    }
}

/// The most words the `endings` may name for [`by_endings`] to read
/// them, for a pattern that starts with `*` (a quarter of the `words`:
/// past that a pass over the text costs less), one with a `*` after
/// letter tokens whose beginnings hold `share` of the words (the
/// endings' words must be several times fewer than the runs' words, and
/// touch fewer checksummed blocks of the text than the runs' bytes
/// fill), or one without a `*` (several times fewer than the transitions
/// a walk of the FST would try before its last letters turn a path away).
fn endings_limit(pattern: &Pattern, share: Option<f64>, words: usize, text_bytes: usize) -> usize {
    let most = if pattern.tokens.first() == Some(&Token::Star) {
        words
    } else if let Some(share) = share {
        let runs = (share * words as f64) as usize / RANDOM_READ_COST;
        match share < 1.0 {
            true => runs.min((share * text_bytes as f64) as usize / BLOCK_LEN),
            false => runs,
        }
    } else {
        pattern.walk_estimate(words) as usize / RANDOM_READ_COST
    };
    most.min(words / SCAN_SHARE)
}

/// A star pattern's words from the `endings` table: the runs of words
/// that end as it does, each letter of its end settled by binary search,
/// counted without reading them when nothing else is left to test, and
/// only the words shown read. `None` when those runs hold more than
/// `most` words (a pattern that ends in `?`, say): then a pass over the
/// text costs less.
#[allow(clippy::too_many_arguments)]
fn by_endings(
    index: &Index<impl AsRef<[u8]>>,
    endings: Endings,
    text: WordText,
    star: &StarPattern,
    opts: &FindOptions,
    common: CommonFlags,
    shown: usize,
    most: usize,
    each: &mut impl FnMut(&str, bool) -> ControlFlow<()>,
) -> Result<Option<u64>> {
    if star.tail.is_empty() || star.endings_estimate(endings.len(), index.alphabet().len()) > most as f64 {
        return Ok(None);
    }
    let (runs, settled) = endings.runs(&star.tail)?;
    let mut candidates = 0;
    for run in &runs {
        candidates += endings.places(run.clone())?.len();
    }
    if candidates > most {
        return Ok(None);
    }
    // The runs settle the last letters; the words are read only for what
    // is left: letters before those, the head, a length, the common flag.
    // When only a least length is (`??*ing`), only the words' lengths are
    // read; when nothing is, the runs' length is the count, and only the
    // first ids of each group of words that end alike are read.
    let only_length =
        settled == star.tail.len() && star.head.is_none() && star.longest == usize::MAX && !opts.common_only;
    let settles_all = only_length && star.shortest <= settled;
    let first_only = settles_all && shown < candidates;
    let mut ids = Vec::with_capacity(if first_only { 0 } else { candidates });
    for run in runs {
        if first_only {
            endings.first_ids_into(run, shown, &mut ids)?;
        } else {
            endings.ids_into(run, &mut ids)?;
        }
    }
    if !settles_all {
        let (mut near, mut failed) = (text.near_for(ids.len()), None);
        ids.retain(|&id| {
            let fits = match only_length {
                true => text.len_near(id as usize, &mut near).map(|len| len >= star.shortest),
                false => text.word_near(id as usize, &mut near).map(|word| star.fits(word)),
            };
            fits.unwrap_or_else(|e| {
                failed.get_or_insert(e);
                false
            })
        });
        failed.map_or(Ok(()), Err)?;
        if opts.common_only {
            common.retain_common(&mut ids)?;
        }
    }
    let count = if settles_all { candidates } else { ids.len() };
    // The first `shown` a-z: ids follow the words' order.
    if shown < ids.len() {
        ids.select_nth_unstable(shown);
        ids.truncate(shown);
    }
    crate::ids::sort_distinct(&mut ids, endings.len());
    // The table's order was trusted to settle the ending: a word without
    // it is damage, not an answer.
    let texts = index.texts_of_checked(&ids, |word| match star.fits(word) {
        true => Ok(()),
        false => Err(SectionId::Endings.corrupt("lists a word under an ending it does not have")),
    })?;
    let mut flags = LastBlock::default();
    for (listed, (&id, word)) in (1..).zip(ids.iter().zip(texts.iter())) {
        let is_common = opts.common_only || common.is_common_near(id, &mut flags)?;
        if each(word, is_common).is_break() {
            return Ok(Some(listed));
        }
    }
    Ok(Some(count as u64))
}

/// [`by_endings`] leaves a pattern to [`scan`] when its end allows more
/// than one word in this many.
const SCAN_SHARE: usize = 4;

/// A word read where it lies costs about this many read in a pass (from
/// the endings, `q*z` on 10 million words read 385,000 words one by one).
const RANDOM_READ_COST: usize = 4;

/// The most beginnings [`Pattern::prefixes_before_star`] spells out: a
/// run each, found by a path down the FST.
const MAX_PREFIX_RUNS: usize = 64;

/// [`find_while`] for a star pattern without the `endings` table: a pass
/// over every word's text, as `grep` reads a list, each word tested on its
/// last letter first.
fn scan(
    words: WordText,
    star: &StarPattern,
    mut listing: Listing,
    mut each: impl FnMut(&str, bool) -> ControlFlow<()>,
) -> Result<u64> {
    let last_allowed = star.tail.last().copied().unwrap_or([true; 256]);
    words.each_ending(&last_allowed, |id, word| match star.fits(word) {
        true => listing.offer(id, word, &mut each),
        false => ControlFlow::Continue(()),
    })?;
    listing.finish()
}

/// [`find_while`] for a pattern with a `*` after letter tokens (`qu*`,
/// `[bc]*t`): its words all start with one of `prefixes` (a-z), so they
/// are a run of ids a beginning (ids follow the words' order), read back
/// to back from the word text. The FST's walk would visit every node
/// under the beginnings, as the `*` keeps every path alive: `q*z` on 10
/// million words took 113 ms that way, against 5.4 ms.
fn by_prefixes(
    fst: FstMap,
    words: WordText,
    prefixes: &[Vec<u8>],
    star: &StarPattern,
    mut listing: Listing,
    mut each: impl FnMut(&str, bool) -> ControlFlow<()>,
) -> Result<u64> {
    for prefix in prefixes {
        // The run's first id from the FST: one path down it (a binary
        // search of the text read a block of it a probe).
        let Some((_, first)) = fst.search(StartsWith(prefix)).next()? else { continue };
        words.each_from(first as usize, |id, word| {
            if !word.starts_with(prefix) {
                ControlFlow::Break(())
            } else if star.fits(word) {
                listing.offer(id, word, &mut each)
            } else {
                ControlFlow::Continue(())
            }
        })?;
        if listing.stopped || listing.failed.is_some() {
            break;
        }
    }
    listing.finish()
}

/// What a pass over the word text keeps of the words that match: their
/// count, each of the first `shown` given as text with its common flag.
struct Listing<'a> {
    alphabet: &'a Alphabet,
    opts: &'a FindOptions,
    common: CommonFlags<'a>,
    shown: u64,
    count: u64,
    /// The word shown last, as text (one buffer for all of them).
    text: String,
    /// Set when `each` asked for no more words.
    stopped: bool,
    failed: Option<Error>,
}

impl Listing<'_> {
    /// Word `id`, which matches: counted, and shown when it is among the
    /// first (or kept out when it must be common and is not).
    fn offer(
        &mut self,
        id: usize,
        word: &[u8],
        each: &mut impl FnMut(&str, bool) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let flag = (self.opts.common_only || self.count < self.shown).then(|| self.common.is_common(id as u32));
        let is_common = match flag {
            Some(Err(e)) => {
                self.failed = Some(e);
                return ControlFlow::Break(());
            }
            Some(Ok(false)) if self.opts.common_only => return ControlFlow::Continue(()),
            Some(Ok(is_common)) => is_common,
            None => false,
        };
        self.count += 1;
        if self.count > self.shown {
            return ControlFlow::Continue(());
        }
        self.text.clear();
        self.alphabet.push_word(word, &mut self.text);
        let next = each(&self.text, is_common);
        self.stopped = next.is_break();
        next
    }

    /// The count, or the error that stopped the pass.
    fn finish(self) -> Result<u64> {
        self.failed.map_or(Ok(self.count), Err)
    }
}

impl Matcher<'_> {
    /// True when the whole of `word` matches.
    fn matches(&self, word: &[u8]) -> bool {
        let mut state = self.start();
        for &b in word {
            state = self.accept(&state, b);
            if !self.can_match(&state) {
                return false;
            }
        }
        self.is_match(&state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_stops_when_asked() {
        let index = crate::testutil::index("cat\ncot\ncut\ncute\n", None);
        let pattern = Pattern::parse(index.alphabet(), "c*").unwrap();
        let mut seen = Vec::new();
        let count = find_while(&index, &pattern, &FindOptions::default(), |w, _| {
            seen.push(w.to_string());
            if seen.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!((count, seen), (2, vec!["cat".to_string(), "cot".to_string()]));
        assert_eq!(find(&index, &pattern, &FindOptions::default(), |_, _| {}).unwrap(), 4);
    }

    #[test]
    fn parses_and_rejects_patterns() {
        let a = Alphabet::latin();
        assert_eq!(Pattern::parse(&a, "C?t").unwrap().lengths(), (3, Some(3)));
        assert_eq!(Pattern::parse(&a, "**ing*").unwrap().tokens.len(), 5);
        assert!(Pattern::parse(&a, "[^a-]").unwrap_err().to_string().contains("'-'"));
        let de = Alphabet::new("abcdefghijklmnopqrstuvwxyzßäöü").unwrap();
        assert_eq!(Pattern::parse(&de, "a\u{308}pfel").unwrap(), Pattern::parse(&de, "Äpfel").unwrap());
        for bad in ["", "[ab", "ab]", "[]", "[^abcdefghijklmnopqrstuvwxyz]", "a1", "é"] {
            assert!(Pattern::parse(&a, bad).unwrap_err().is_usage(), "{bad:?}");
        }
        assert!(Pattern::parse(&a, &"?".repeat(MAX_TOKENS + 1)).is_err());
    }
}
