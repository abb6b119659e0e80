//! Anigrams (nested anagram chains), answered from the `terms` and
//! `chains` sections (their layout: the [format spec](crate::format)).
//!
//! A *term* is a word's letters sorted (`ride` -> `deir`), so anagrams share
//! one. A game is a chain of terms from [`START_LEN`] to [`GOAL_LEN`]
//! letters, each one letter longer than the one before; the index holds
//! the add-one-letter graph and, per term, its longest chain and its game
//! count, so the questions below are lookups and short walks.
//!
//! Each section is opened (and its checksum checked) when a question first
//! needs it: `unscramble` never reads the chains, counting games never
//! reads the terms.
//!
//! ```
//! # let list = "ride\ndire\nired\ndried\nraided\n";
//! # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
//! # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! use wordhoard_query::anigram::{Anigrams, Game, Start};
//!
//! let anigrams = Anigrams::open(&index)?;
//! assert_eq!(anigrams.unscramble("deir")?.words, ["dire", "ired", "ride"]);
//! let chain = anigrams.longest(Start::Term(anigrams.find_term("ride")?))?;
//! let terms: Vec<&str> = chain.iter().map(|step| step.term.as_str()).collect();
//! assert_eq!(terms, ["deir", "ddeir", "addeir"]);
//! assert_eq!(anigrams.count(Start::Len(4), 6)?, 1);
//! assert_eq!(anigrams.top(1, Game { start_len: 4, goal_len: 6 })?[0].term, "deir");
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use std::cell::{Cell, OnceCell};
use std::ops::RangeInclusive;

use crate::error::{Error, ErrorKind, Result};
use crate::format::{le_u32, Columns, SectionId, U32s, U64s};
use crate::index::Index;
use crate::rng::SplitMix64;
use crate::terms::Terms;

/// The length of a game's first term.
pub const START_LEN: usize = 4;
/// The length of a game's last term.
pub const GOAL_LEN: usize = 9;
/// Marks "no next term" in column 4 of `chains`.
pub const NO_NEXT: u32 = u32::MAX;

/// The id of a term: its rank among the index's terms (so ids follow
/// term order, and the terms FST turns an id back into its term).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TermId(pub u32);

/// Where chains start: every term of a length, or one term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Every term of this many letters.
    Len(usize),
    /// This term only.
    Term(TermId),
}

/// A game's lengths: chains from `start_len` letters to `goal_len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// Letters of the first term.
    pub start_len: usize,
    /// Letters of the last term.
    pub goal_len: usize,
}

impl Default for Game {
    /// The Anigrams game: [`START_LEN`] to [`GOAL_LEN`] letters.
    fn default() -> Game {
        Game { start_len: START_LEN, goal_len: GOAL_LEN }
    }
}

/// A term and the words it unscrambles to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The term (letters sorted).
    pub term: String,
    /// Its words, a-z.
    pub words: Vec<String>,
}

/// A played word's verdict in a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainVerdict {
    /// Not a word of the index.
    NotInList,
    /// Not an anagram of the word before plus exactly one letter.
    NotOneMore,
    /// Accepted.
    Ok,
}

impl ChainVerdict {
    /// Its name in JSON: `not_in_list`, `not_one_more`, `ok`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChainVerdict::NotInList => "not_in_list",
            ChainVerdict::NotOneMore => "not_one_more",
            ChainVerdict::Ok => "ok",
        }
    }
}

/// A word of a played chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainWord {
    /// The word as typed (normalised).
    pub word: String,
    /// Its verdict.
    pub verdict: ChainVerdict,
    /// The letter it adds to the word before (accepted words after the first).
    pub added: Option<char>,
}

/// A chain as played ([`Anigrams::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainPlay {
    /// Each word and its verdict.
    pub words: Vec<ChainWord>,
    /// Accepted words.
    pub length: usize,
    /// How many more words the longest chain from the last accepted word
    /// adds; `None` before any word is accepted.
    pub longest_from_last: Option<usize>,
}

/// The letter `longer` (a term) has beyond `shorter` (a term), when it is
/// exactly `shorter` plus one letter.
fn one_more(shorter: &[u8], longer: &[u8]) -> Option<u8> {
    if longer.len() != shorter.len() + 1 {
        return None;
    }
    let (mut i, mut extra) = (0, None);
    for &b in longer {
        if i < shorter.len() && shorter[i] == b {
            i += 1;
        } else if extra.is_none() {
            extra = Some(b);
        } else {
            return None;
        }
    }
    extra
}

/// A term with the number of games that start from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermGames {
    /// The term.
    pub term: String,
    /// Games from it.
    pub games: u64,
    /// Its words, a-z.
    pub words: Vec<String>,
}

/// The Anigrams sections of an index; each is opened (and its checksum
/// checked) when a question first needs it, so counting games never reads
/// the terms, and `unscramble` never reads the chains.
pub struct Anigrams<'a, D> {
    index: &'a Index<D>,
    terms: OnceCell<Terms<'a>>,
    chains: OnceCell<Chains<'a>>,
    /// True once a term's words were read: a question that reads a second
    /// term's first has the whole group column checked (once an index),
    /// so no damaged offsets make it read the column once a term.
    read_a_group: Cell<bool>,
}

/// The chains section's columns.
struct Chains<'a> {
    succ_starts: U32s<'a>,
    succs: U32s<'a>,
    lens: &'a [u8],
    longest: &'a [u8],
    next: U32s<'a>,
    games: Games<'a>,
    /// Columns 6 and 7, where the file has them (builds before them wrote
    /// six columns).
    by_length: Option<ByLength<'a>>,
}

/// The terms by length (columns 6 and 7 of `chains`).
#[derive(Clone, Copy)]
struct ByLength<'a> {
    terms: U32s<'a>,
    /// Where each length's terms start in `terms`: 257 offsets.
    starts: U32s<'a>,
}

impl<'a> ByLength<'a> {
    /// The ids column 6 lists for terms of `len` letters, as raw bytes
    /// (four a term), their lengths not yet checked.
    fn ids_of(&self, len: usize) -> Result<&'a [u8]> {
        if len >= 256 {
            return Ok(&[]);
        }
        let range = self.starts.range(len)?;
        self.terms.slice(range)?.as_bytes()
    }
}

/// Stored game counts, in whichever width the builder chose.
#[derive(Clone, Copy)]
enum Games<'a> {
    Narrow(U32s<'a>),
    Wide(U64s<'a>),
}

impl Games<'_> {
    fn at(&self, t: usize) -> Result<u64> {
        match self {
            Games::Narrow(g) => {
                g.get(t).map(u64::from).ok_or_else(|| SectionId::Chains.corrupt("a term id is out of range"))
            }
            Games::Wide(g) => g.at(t),
        }
    }
}

impl<'a> Chains<'a> {
    fn open<D: AsRef<[u8]>>(index: &'a Index<D>) -> Result<Chains<'a>> {
        let cols: Columns<'a> = index.columns(SectionId::Chains)?;
        // One length a term: the term count the other columns must match.
        let terms = cols.bytes(2)?.len();
        let games = match cols.bytes(5)?.len() {
            n if n == terms * 4 => Games::Narrow(cols.u32s(5)?),
            n if n == terms * 8 => Games::Wide(cols.u64s(5)?),
            _ => return Err(cols.corrupt("has a games column of the wrong length")),
        };
        let c = Chains {
            succ_starts: cols.u32s(0)?,
            succs: cols.u32s(1)?,
            lens: cols.bytes(2)?,
            longest: cols.bytes(3)?,
            next: cols.u32s(4)?,
            games,
            by_length: if cols.len() > 6 {
                Some(ByLength { terms: cols.u32s(6)?, starts: cols.u32s(7)? })
            } else {
                None
            },
        };
        if c.succ_starts.len() != terms + 1
            || c.lens.len() != terms
            || c.longest.len() != terms
            || c.next.len() != terms
            || c.by_length.is_some_and(|b| b.terms.len() != terms || b.starts.len() != 257)
        {
            return Err(cols.corrupt("has columns that do not match the term count"));
        }
        // The offsets are checked whole only before a pass over many
        // terms' successors ([`Anigrams::chains_for_a_pass`]): a question
        // that reads a few terms checks their own two offsets (`range`),
        // where the whole column's check cost every question that opens
        // the section (the stored games of `anigram count` too) 1.3 M
        // instructions and 626 KB read on enable1.
        Ok(c)
    }
}

/// Whichever of the two sections opens second must agree with the first
/// on the term count.
fn agree(terms: Option<&Terms>, chains: Option<&Chains>) -> Result<()> {
    match (terms, chains) {
        (Some(t), Some(c)) if t.len() != c.lens.len() => {
            Err(SectionId::Chains.corrupt("has a term count other than section `terms`"))
        }
        _ => Ok(()),
    }
}

/// Checks the structure of the chains section, and that it has the terms'
/// count (for `verify`): offsets in order, every edge from a term to one
/// with one more letter (so no walk can loop), each longest chain's next
/// term one letter longer with a chain one shorter, and each stored game
/// count the sum of its successors' (what `generate` walks by).
pub(crate) fn check_chains<D: AsRef<[u8]>>(index: &Index<D>) -> Result<()> {
    let a = Anigrams::open(index)?;
    a.terms()?;
    let c = a.chains()?;
    let lens = c.lens;
    index.will_scan(&[c.succ_starts.as_bytes()?, lens, c.succs.as_bytes()?]);
    c.succ_starts.check_offsets(c.succs.len())?;
    // Over raw bytes, bounds checked once a term: 150 thousand terms make
    // the per-term cost count. Checks are gathered, not tested each edge.
    let succs = c.succs.as_bytes()?;
    let u32_at = |bytes: &[u8]| le_u32(bytes) as usize;
    let ends = c.succ_starts.as_bytes()?.get(4..).unwrap_or_default();
    let (mut linked_right, mut counts_add_up, mut start) = (true, true, 0);
    for (t, (&len, end)) in lens.iter().zip(ends.chunks_exact(4).map(u32_at)).enumerate() {
        let want = len.checked_add(1);
        let edges =
            succs.get(4 * start..4 * end).ok_or_else(|| SectionId::Chains.corrupt("has offsets out of order"))?;
        let mut games = 0u64;
        for s in edges.chunks_exact(4).map(u32_at) {
            linked_right &= lens.get(s).copied() == want;
            games = games.saturating_add(c.games.at(s).unwrap_or(u64::MAX));
        }
        let stored = c.games.at(t)?;
        counts_add_up &= match (len as usize).cmp(&GOAL_LEN) {
            std::cmp::Ordering::Less => stored == games,
            std::cmp::Ordering::Equal => stored == 1,
            std::cmp::Ordering::Greater => stored == 0,
        };
        start = end;
    }
    if !linked_right {
        return Err(SectionId::Chains.corrupt("links a term to one that is not one letter longer"));
    }
    if !counts_add_up {
        return Err(SectionId::Chains.corrupt("has game counts that do not add up"));
    }
    for (t, &len) in lens.iter().enumerate() {
        let (longest, next) = (c.longest[t], c.next.at(t)? as u32);
        let fits = if next == NO_NEXT {
            longest == 1
        } else {
            lens.get(next as usize).copied() == len.checked_add(1)
                && c.longest.get(next as usize).copied() == longest.checked_sub(1)
        };
        if !fits {
            return Err(SectionId::Chains.corrupt("has a longest chain that does not follow its links"));
        }
    }
    if let Some(by_length) = c.by_length {
        check_by_length(lens, by_length)?;
    }
    Ok(())
}

/// Columns 6 and 7 are column 2's order, as a build makes them
/// ([`crate::format::terms_by_length`]): every term once, by length, ascending within
/// one, and each length's terms where column 7 says.
fn check_by_length(lens: &[u8], by_length: ByLength) -> Result<()> {
    let (terms, starts) = crate::format::terms_by_length(lens);
    if by_length.starts.iter()?.ne(starts) || by_length.terms.iter()?.ne(terms) {
        return Err(SectionId::Chains.corrupt("does not list the terms by length"));
    }
    Ok(())
}

impl<'a, D: AsRef<[u8]>> Anigrams<'a, D> {
    /// Anigrams over an index; its sections open when first needed.
    pub fn open(index: &'a Index<D>) -> Result<Anigrams<'a, D>> {
        if !index.has_section(SectionId::Terms) || !index.has_section(SectionId::Chains) {
            let missing = if index.has_section(SectionId::Terms) { "chains" } else { "terms" };
            return Err(Error::new(ErrorKind::MissingSection { section: missing }));
        }
        Ok(Anigrams { index, terms: OnceCell::new(), chains: OnceCell::new(), read_a_group: Cell::new(false) })
    }

    fn terms(&self) -> Result<&Terms<'a>> {
        if let Some(t) = self.terms.get() {
            return Ok(t);
        }
        let t = Terms::open(self.index)?;
        agree(Some(&t), self.chains.get())?;
        Ok(self.terms.get_or_init(|| t))
    }

    fn chains(&self) -> Result<&Chains<'a>> {
        if let Some(c) = self.chains.get() {
            return Ok(c);
        }
        let c = Chains::open(self.index)?;
        agree(self.terms.get(), Some(&c))?;
        Ok(self.chains.get_or_init(|| c))
    }

    /// The chains, for a pass over the successors of many terms: their
    /// offsets checked to ascend first, once an index, so that no damaged
    /// table makes each term claim the whole successor column (a pass
    /// would read it once a term).
    fn chains_for_a_pass(&self) -> Result<&Chains<'a>> {
        let c = self.chains()?;
        self.index.check_once(SectionId::Chains, || c.succ_starts.check_offsets(c.succs.len()))?;
        Ok(c)
    }

    /// The number of terms.
    pub fn term_count(&self) -> Result<usize> {
        match self.terms.get() {
            Some(t) => Ok(t.len()),
            None => Ok(self.chains()?.lens.len()),
        }
    }

    /// The term of any word or scramble of letters: its letters sorted.
    pub fn term_of(&self, letters: &str) -> Result<Vec<u8>> {
        let mut term = self.index.alphabet().parse_word(letters, "letters")?;
        term.sort_unstable();
        Ok(term)
    }

    /// Every word that is an anagram of `letters`.
    pub fn unscramble(&self, letters: &str) -> Result<Step> {
        let term = self.term_of(letters)?;
        let words = match self.terms()?.id_of(&term)? {
            Some(id) => self.words_of(self.checked_id(id)?)?,
            None => Vec::new(),
        };
        Ok(Step { term: self.index.alphabet().word_string(term), words })
    }

    /// The id of a word's or term's term; an error if no word has it.
    pub fn find_term(&self, input: &str) -> Result<TermId> {
        let term = self.term_of(input)?;
        match self.terms()?.id_of(&term)? {
            Some(id) => self.checked_id(id).map(TermId),
            None => Err(Error::invalid(format!(
                "no word in this index has the letters of {input:?} (term {:?})",
                self.index.alphabet().word_string(term.clone())
            ))),
        }
    }

    /// The longest chain from a term, or from any term of a length (the
    /// first a-z among equals). Empty when no term has that length.
    pub fn longest(&self, from: Start) -> Result<Vec<Step>> {
        let start = match from {
            Start::Term(TermId(t)) => Some(t),
            Start::Len(start_len) => {
                let mut best: Option<(u8, u32)> = None;
                for t in self.terms_of_len(start_len)? {
                    let len = self.longest_at(t)?;
                    if best.is_none_or(|(b, _)| len > b) {
                        best = Some((len, t));
                    }
                }
                best.map(|(_, t)| t)
            }
        };
        let mut chain = Vec::new();
        let mut at = start;
        while let Some(t) = at {
            chain.push(self.step(TermId(t))?);
            let next = self
                .chains()?
                .next
                .get(t as usize)
                .ok_or_else(|| SectionId::Chains.corrupt("a next-term index is out of range"))?;
            at = if next == NO_NEXT {
                None
            } else {
                self.check_step(t, next, self.len_of(t)?)?;
                Some(next)
            };
        }
        Ok(chain)
    }

    /// The number of games from `from` to a term of `goal_len` letters.
    /// The default game reads stored counts; other lengths are counted
    /// over the stored graph.
    pub fn count(&self, from: Start, goal_len: usize) -> Result<u64> {
        let start_len = match from {
            Start::Term(TermId(t)) => self.len_of(t)?,
            Start::Len(len) => len,
        };
        check_lengths(start_len, goal_len)?;
        if let (Start::Term(TermId(t)), GOAL_LEN) = (from, goal_len) {
            // Stored: one read, not the games of every term of its length.
            return self.chains()?.games.at(t as usize);
        }
        let games = self.games_to(goal_len, start_len)?;
        let games = match from {
            // The term is of the start length, so among those counted.
            Start::Term(TermId(t)) => match games.binary_search_by_key(&t, |&(term, _)| term) {
                Ok(at) => &games[at..=at],
                Err(_) => &[],
            },
            Start::Len(_) => &games[..],
        };
        games.iter().try_fold(0u64, |sum, &(_, g)| sum.checked_add(g).ok_or_else(too_many))
    }

    /// The `n` terms of the game's start length with the most games,
    /// most first, then a-z.
    pub fn top(&self, n: usize, game: Game) -> Result<Vec<TermGames>> {
        check_lengths(game.start_len, game.goal_len)?;
        let mut all: Vec<_> =
            self.games_to(game.goal_len, game.start_len)?.into_iter().map(|(t, g)| (std::cmp::Reverse(g), t)).collect();
        // Term ids follow term order, so ties fall a-z.
        all.sort_unstable();
        all.truncate(n);
        all.into_iter()
            .map(|(std::cmp::Reverse(games), t)| {
                let step = self.step(TermId(t))?;
                Ok(TermGames { term: step.term, games, words: step.words })
            })
            .collect()
    }

    /// A random game from a [`START_LEN`]- to a [`GOAL_LEN`]-letter term,
    /// uniform over all games, the same for the same seed and index.
    pub fn generate(&self, seed: u64) -> Result<Vec<Step>> {
        self.generate_with(seed, false)
    }

    /// [`Anigrams::generate`], or with `common_only` a game every step of
    /// which has a word on the common list, uniform over those games, each
    /// step showing only its common words.
    pub fn generate_with(&self, seed: u64, common_only: bool) -> Result<Vec<Step>> {
        self.index.require_common_list(common_only)?;
        let starts = self.terms_of_len(START_LEN)?;
        let common_games = if common_only { Some(self.common_games()?) } else { None };
        let games = self.chains()?.games;
        let games_of = |t: u32| match &common_games {
            Some(counts) => {
                counts.get(t as usize).copied().ok_or_else(|| SectionId::Chains.corrupt("a term id is out of range"))
            }
            None => games.at(t as usize),
        };
        let total = starts.iter().try_fold(0u64, |sum, &t| sum.checked_add(games_of(t)?).ok_or_else(too_many))?;
        if total == 0 {
            return Err(Error::invalid(if common_only {
                "this index has no Anigrams game of common words (no chain from 4 to 9 letters)"
            } else {
                "this index has no Anigrams game (no chain from 4 to 9 letters)"
            }));
        }
        let mut rng = SplitMix64::new(seed);
        let mut pick = rng.below(total);
        let mut at = pick_weighted(&starts, &mut pick, games_of)?;
        let mut chain = vec![self.step_of(at, common_only)?];
        while self.len_of(at)? < GOAL_LEN {
            let succs = self.successors(at)?.collect::<Result<Vec<u32>>>()?;
            let next = pick_weighted(&succs, &mut pick, games_of)?;
            // Each step adds a letter, so this loop ends (a damaged graph
            // could link a term to itself).
            self.check_step(at, next, self.len_of(at)?)?;
            at = next;
            chain.push(self.step_of(at, common_only)?);
        }
        Ok(chain)
    }

    /// A term and its words, only its common ones when `common_only`.
    fn step_of(&self, t: u32, common_only: bool) -> Result<Step> {
        let mut step = self.step(TermId(t))?;
        if common_only {
            let common = self.index.common()?;
            let flags = common.flags_of(&self.word_ids_of(t)?)?;
            step.words = step.words.into_iter().zip(flags).filter(|&(_, common)| common).map(|(w, _)| w).collect();
        }
        Ok(step)
    }

    /// The ids of term `t`'s words, ascending, checked in range.
    fn word_ids_of(&self, t: u32) -> Result<Vec<u32>> {
        let terms = self.terms()?;
        if self.read_a_group.replace(true) {
            terms.check_whole(self.index)?;
        }
        terms.word_ids(t)
    }

    /// For each term, the games from it to a [`GOAL_LEN`]-letter term
    /// through terms that each have a common word: counted from the goal
    /// down, one pass over the terms of each length.
    fn common_games(&self) -> Result<Vec<u64>> {
        self.chains_for_a_pass()?;
        let common = self.index.common()?;
        let mut games = vec![0u64; self.term_count()?];
        for len in (START_LEN..=GOAL_LEN).rev() {
            for t in self.terms_of_len(len)? {
                let mut ids = self.word_ids_of(t)?;
                common.retain_common(&mut ids)?;
                if ids.is_empty() {
                    continue;
                }
                // Ids come from the file: every index into the counts is
                // checked (the terms and the chains could disagree).
                let out_of_range = || SectionId::Chains.corrupt("a term id is out of range");
                let count = if len == GOAL_LEN {
                    1
                } else {
                    let mut sum = 0u64;
                    for s in self.successors(t)? {
                        let s = s?;
                        self.check_step(t, s, len)?;
                        let games_of_s = *games.get(s as usize).ok_or_else(out_of_range)?;
                        sum = sum.checked_add(games_of_s).ok_or_else(too_many)?;
                    }
                    sum
                };
                *games.get_mut(t as usize).ok_or_else(out_of_range)? = count;
            }
        }
        Ok(games)
    }

    /// A chain as played, checked word by word: each must be a word of the
    /// index and, after the first accepted one, an anagram of the word
    /// before plus exactly one letter. Then how long the chain is and how
    /// many more words the longest chain from its last word could add.
    pub fn check(&self, words: &[impl AsRef<str>]) -> Result<ChainPlay> {
        let alphabet = self.index.alphabet();
        let (mut last, mut length, mut out) = (None::<Vec<u8>>, 0, Vec::new());
        for typed in words {
            let typed = typed.as_ref();
            let Ok(codes) = alphabet.parse_word(typed, "word") else {
                out.push(ChainWord { word: typed.to_lowercase(), verdict: ChainVerdict::NotInList, added: None });
                continue;
            };
            let word = alphabet.word_string(codes.clone());
            let mut term = codes.clone();
            term.sort_unstable();
            if self.index.word_id(&codes)?.is_none() {
                out.push(ChainWord { word, verdict: ChainVerdict::NotInList, added: None });
                continue;
            }
            let added = match &last {
                None => None,
                Some(before) => match one_more(before, &term) {
                    Some(letter) => Some(alphabet.char_of(letter)),
                    None => {
                        out.push(ChainWord { word, verdict: ChainVerdict::NotOneMore, added: None });
                        continue;
                    }
                },
            };
            out.push(ChainWord { word, verdict: ChainVerdict::Ok, added });
            last = Some(term);
            length += 1;
        }
        let longest_from_last = match &last {
            None => None,
            Some(term) => {
                let text = alphabet.word_string(term.clone());
                Some(self.longest(Start::Term(self.find_term(&text)?))?.len().saturating_sub(1))
            }
        };
        Ok(ChainPlay { words: out, length, longest_from_last })
    }

    /// A term and its words.
    pub fn step(&self, TermId(t): TermId) -> Result<Step> {
        let terms = self.terms()?;
        let mut term = Vec::new();
        if !terms.term_of(t, &mut term)? {
            return Err(SectionId::Terms.corrupt("a term id is not in the FST"));
        }
        let alphabet = self.index.alphabet();
        if !alphabet.is_word(&term) {
            return Err(SectionId::Terms.corrupt("the FST holds a term with a character outside the alphabet"));
        }
        Ok(Step { term: alphabet.word_string(term), words: self.words_of(t)? })
    }

    fn words_of(&self, t: u32) -> Result<Vec<String>> {
        self.index.words_of(self.word_ids_of(t)?)
    }

    fn checked_id(&self, id: u64) -> Result<u32> {
        self.terms()?.checked_id(id)
    }

    fn len_of(&self, t: u32) -> Result<usize> {
        self.chains()?
            .lens
            .get(t as usize)
            .map(|&l| l as usize)
            .ok_or_else(|| SectionId::Chains.corrupt("a term id is out of range"))
    }

    fn longest_at(&self, t: u32) -> Result<u8> {
        self.chains()?
            .longest
            .get(t as usize)
            .copied()
            .ok_or_else(|| SectionId::Chains.corrupt("a term id is out of range"))
    }

    fn successors(&self, t: u32) -> Result<impl Iterator<Item = Result<u32>> + 'a> {
        let c = self.chains()?;
        let succs = c.succs;
        Ok(c.succ_starts.range(t as usize)?.map(move |i| succs.at(i).map(|v| v as u32)))
    }

    /// A step of the graph must add exactly one letter; anything else is a
    /// damaged file (and could make a walk loop).
    fn check_step(&self, from: u32, to: u32, from_len: usize) -> Result<()> {
        if self.len_of(to)? != from_len + 1 {
            return Err(SectionId::Chains.corrupt(format!("links term {from} to a term that is not one letter longer")));
        }
        Ok(())
    }

    /// The terms of `len` letters, ascending (a-z).
    fn terms_of_len(&self, len: usize) -> Result<Vec<u32>> {
        let c = self.chains()?;
        let mut terms = Vec::new();
        for t in LengthTerms::new(c.lens, c.by_length, len)? {
            terms.push(t? as u32);
        }
        Ok(terms)
    }

    /// The chains graph's columns as raw bytes.
    fn graph(&self) -> Result<Graph<'a>> {
        let c = self.chains()?;
        Ok(Graph {
            lens: c.lens,
            starts: c.succ_starts.as_bytes()?,
            succs: c.succs.as_bytes()?,
            by_length: c.by_length,
        })
    }

    /// Each term of `start_len` letters (ascending) with its games to a
    /// term of `goal_len` letters: stored for the default goal, else
    /// counted longest terms first.
    fn games_to(&self, goal_len: usize, start_len: usize) -> Result<Vec<(u32, u64)>> {
        let starts = self.terms_of_len(start_len)?;
        if goal_len == GOAL_LEN {
            let stored = self.chains()?.games;
            return starts.into_iter().map(|t| Ok((t, stored.at(t as usize)?))).collect();
        }
        if goal_len > u8::MAX as usize {
            // Terms are at most 255 letters: no game reaches the goal.
            return Ok(starts.into_iter().map(|t| (t, 0)).collect());
        }
        // Four bytes a count, half the memory to scan, unless some count
        // does not fit: then again in eight.
        let graph = self.graph()?;
        let terms = graph.lens.len();
        let mut narrow = zeroed_counts::<u32>(terms);
        // (Each start is a term of column 2, so inside the counts.)
        if graph.count_down(&mut narrow, start_len..=goal_len)? {
            return Ok(starts.into_iter().map(|t| (t, narrow.get(t as usize).map_or(0, |&g| g as u64))).collect());
        }
        drop(narrow);
        let mut wide = zeroed_counts::<u64>(terms);
        graph.count_down(&mut wide, start_len..=goal_len)?;
        Ok(starts.into_iter().map(|t| (t, wide.get(t as usize).copied().unwrap_or(0))).collect())
    }
}

/// A count a term, zeroed: with the `mmap` feature, a table whose pages
/// are mapped in one call (see `mmap::zeroed`).
#[cfg(feature = "mmap")]
fn zeroed_counts<T: crate::mmap::Count>(len: usize) -> crate::mmap::Zeroed<T> {
    crate::mmap::zeroed(len)
}

/// A count a term, zeroed.
#[cfg(not(feature = "mmap"))]
fn zeroed_counts<T: Clone + Default>(len: usize) -> Vec<T> {
    vec![T::default(); len]
}

/// The chains graph as raw columns, for counting games.
struct Graph<'a> {
    lens: &'a [u8],
    /// `u32` offsets into `succs`, one more than there are terms.
    starts: &'a [u8],
    /// `u32` successor ids.
    succs: &'a [u8],
    by_length: Option<ByLength<'a>>,
}

impl Graph<'_> {
    /// The terms of `len` letters, ascending: from column 6 where the
    /// file has it, each term's length checked there (a term listed under
    /// another length is a damaged file, not a term of this one); else by
    /// a scan of the length column (vector code).
    fn terms_of(&self, len: usize) -> Result<LengthTerms<'_>> {
        LengthTerms::new(self.lens, self.by_length, len)
    }

    /// Counts, into `games` (by term id), the games from each term of the
    /// `lens` lengths (each at most 255) to a term of the last of them,
    /// longest terms first, so every successor is counted before its term.
    /// False when a count does not fit `T`.
    fn count_down<T>(&self, games: &mut [T], lens: RangeInclusive<usize>) -> Result<bool>
    where
        T: Copy + From<u8> + Into<u64> + TryFrom<u64>,
    {
        let (min_len, goal_len) = (*lens.start(), *lens.end());
        let terms = self.lens.len();
        if games.len() != terms {
            return Err(SectionId::Chains.corrupt("does not have a length a term"));
        }
        // Both the same length to the compiler: one bounds test an edge.
        let (lens, games) = (&self.lens[..terms], &mut games[..terms]);
        for t in self.terms_of(goal_len)? {
            games[t?] = T::from(1);
        }
        // Over raw bytes, bounds checked once a term.
        let u32_at = |bytes: &[u8]| le_u32(bytes) as usize;
        let out_of_order = || SectionId::Chains.corrupt("an offsets column is not ascending");
        for len in (min_len..goal_len).rev() {
            let longer = len as u8 + 1;
            // A length's terms ascend, and so must their successors'
            // places: each term's start at least the last one's end, so
            // a length reads the successor column once at most, whatever
            // the file's offsets (no check of the whole column first).
            let mut read_to = 0;
            for t in self.terms_of(len)? {
                let t = t?;
                let range = self
                    .starts
                    .get(4 * t..4 * t + 8)
                    .map(|b| u32_at(&b[..4])..u32_at(&b[4..]))
                    .filter(|range| range.start >= read_to)
                    .ok_or_else(out_of_order)?;
                read_to = range.end;
                let edges = self.succs.get(4 * range.start..4 * range.end).ok_or_else(out_of_order)?;
                if len + 1 == goal_len {
                    // Every successor is a goal, a game each: the count of
                    // them, with no successor read (a third of the edges
                    // from 3 letters to 8 on enable1).
                    match T::try_from(range.len() as u64) {
                        Ok(n) => games[t] = n,
                        Err(_) => return Ok(false),
                    }
                    continue;
                }
                let (mut sum, mut linked_right, mut overflow) = (0u64, true, false);
                // Checks are gathered and tested once a term, so the loop
                // over successors has no early exits.
                for s in edges.chunks_exact(4).map(u32_at) {
                    // One bounds test for both columns (of one length).
                    let (inside, s) = if s < terms { (true, s) } else { (false, 0) };
                    linked_right &= inside & (lens[s] == longer);
                    let (more, over) = sum.overflowing_add(games[s].into());
                    (sum, overflow) = (more, overflow | over);
                }
                if !linked_right {
                    return Err(SectionId::Chains.corrupt("links a term to one that is not one letter longer"));
                }
                if overflow {
                    return Err(too_many());
                }
                match T::try_from(sum) {
                    Ok(n) => games[t] = n,
                    Err(_) => return Ok(false),
                }
            }
        }
        Ok(true)
    }
}

#[cold]
fn misplaced(t: usize, len: u8) -> Error {
    SectionId::Chains.corrupt(format!("lists term {t} among the terms of {len} letters, or out of order"))
}

/// [`Graph::terms_of`]: the ids of column 6 with their lengths checked,
/// or a scan of the length column.
enum LengthTerms<'a> {
    /// `next`: the least id the next one may be (they ascend).
    Listed {
        ids: std::slice::ChunksExact<'a, u8>,
        lens: &'a [u8],
        len: u8,
        next: usize,
    },
    Scanned(memchr::Memchr<'a>),
    None,
}

impl<'a> LengthTerms<'a> {
    /// The terms of `len` letters by column 6, or by a scan of `lens`
    /// (column 2) where the file has no column 6. Reads nothing else of
    /// the section: a question that wants a length's terms checks no
    /// successor column.
    fn new(lens: &'a [u8], by_length: Option<ByLength<'a>>, len: usize) -> Result<LengthTerms<'a>> {
        let Some(len) = u8::try_from(len).ok().filter(|&l| l > 0) else { return Ok(LengthTerms::None) };
        Ok(match by_length {
            Some(by_length) => {
                LengthTerms::Listed { ids: by_length.ids_of(len as usize)?.chunks_exact(4), lens, len, next: 0 }
            }
            None => LengthTerms::Scanned(memchr::memchr_iter(len, lens)),
        })
    }
}

impl Iterator for LengthTerms<'_> {
    type Item = Result<usize>;

    // Inlined into the count's loop: as a call, a fifth of its time.
    #[inline(always)]
    fn next(&mut self) -> Option<Result<usize>> {
        match self {
            LengthTerms::Listed { ids, lens, len, next } => {
                let t = le_u32(ids.next()?) as usize;
                Some(if lens.get(t) == Some(len) && t >= *next {
                    *next = t + 1;
                    Ok(t)
                } else {
                    Err(misplaced(t, *len))
                })
            }
            LengthTerms::Scanned(found) => found.next().map(Ok),
            LengthTerms::None => None,
        }
    }
}

/// Picks the term whose share of games holds `pick`, leaving in `pick`
/// the offset within that term's games.
fn pick_weighted(terms: &[u32], pick: &mut u64, games_of: impl Fn(u32) -> Result<u64>) -> Result<u32> {
    for &t in terms {
        let g = games_of(t)?;
        if *pick < g {
            return Ok(t);
        }
        *pick -= g;
    }
    Err(SectionId::Chains.corrupt("game counts do not add up"))
}

fn check_lengths(start_len: usize, goal_len: usize) -> Result<()> {
    if goal_len <= start_len {
        return Err(Error::invalid_param(
            "goal_len",
            format!("{goal_len} must be above the start length {start_len}; try {}", start_len.saturating_add(1)),
        ));
    }
    Ok(())
}

fn too_many() -> Error {
    Error::invalid("the number of games is too large to count in 64 bits; narrow the lengths")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::index;

    const LIST: &str = "ride\ndire\nired\ndried\nredid\nriddle\ndirled\nriddler\nriddlers\nbeep\n";

    #[test]
    fn a_played_chain_gets_a_verdict_a_word() {
        let idx = index(LIST, None);
        let a = Anigrams::open(&idx).unwrap();
        let play = a.check(&["RIDE", "xyzq", "rides", "dried", "beep", "riddle", "ride9"]).unwrap();
        let got: Vec<(&str, &str, Option<char>)> =
            play.words.iter().map(|w| (w.word.as_str(), w.verdict.as_str(), w.added)).collect();
        assert_eq!(
            got,
            [
                ("ride", "ok", None),
                ("xyzq", "not_in_list", None),
                ("rides", "not_in_list", None),
                ("dried", "ok", Some('d')),
                ("beep", "not_one_more", None),
                ("riddle", "ok", Some('l')),
                ("ride9", "not_in_list", None),
            ]
        );
        // riddle -> riddler -> riddlers: two more.
        assert_eq!((play.length, play.longest_from_last), (3, Some(2)));
        assert_eq!(a.check(&[] as &[&str]).unwrap().longest_from_last, None);
        assert_eq!(one_more(b"deir", b"ddeir"), Some(b'd'));
        assert_eq!(one_more(b"deir", b"deirs"), Some(b's'));
        assert_eq!(one_more(b"deir", b"deist"), None);
        assert_eq!(one_more(b"deir", b"deirst"), None);
    }

    #[test]
    fn counts_past_four_bytes_are_counted_in_eight() {
        // Nine lengths of 16 terms, each linked to all 16 of the next
        // length: 16^8 games from each shortest term, past u32::MAX.
        let (width, lengths) = (16usize, 9usize);
        let lens: Vec<u8> = (0..width * lengths).map(|t| (1 + t / width) as u8).collect();
        let (mut starts, mut succs) = (vec![0u32], Vec::new());
        for t in 0..lens.len() {
            if t / width + 1 < lengths {
                succs.extend((0..width).map(|j| ((t / width + 1) * width + j) as u32));
            }
            starts.push(succs.len() as u32);
        }
        let bytes = |v: &[u32]| v.iter().flat_map(|n| n.to_le_bytes()).collect::<Vec<u8>>();
        let (starts, succs) = (bytes(&starts), bytes(&succs));
        // The terms are in length order already: by length, they are
        // their own ids, each length's starting at its place.
        let ids: Vec<u32> = (0..lens.len() as u32).collect();
        let firsts: Vec<u32> =
            (0..257).map(|len: usize| (len.saturating_sub(1) * width).min(lens.len()) as u32).collect();
        let (ids, firsts) = (bytes(&ids), bytes(&firsts));
        let by_length =
            ByLength { terms: U32s::new(&ids, SectionId::Chains), starts: U32s::new(&firsts, SectionId::Chains) };
        for by_length in [None, Some(by_length)] {
            let graph = Graph { lens: &lens, starts: &starts, succs: &succs, by_length };
            let mut narrow = vec![0u32; lens.len()];
            assert!(!graph.count_down(&mut narrow, 1..=lengths).unwrap(), "does not fit u32");
            let mut wide = vec![0u64; lens.len()];
            assert!(graph.count_down(&mut wide, 1..=lengths).unwrap());
            assert!(wide[..width].iter().all(|&g| g == 16u64.pow(8)));
            // Fewer lengths fit: the same counts either way.
            let mut narrow = vec![0u32; lens.len()];
            let mut wide = vec![0u64; lens.len()];
            assert!(graph.count_down(&mut narrow, 3..=6).unwrap());
            assert!(graph.count_down(&mut wide, 3..=6).unwrap());
            assert!(narrow.iter().zip(&wide).all(|(&n, &w)| n as u64 == w) && wide[2 * width] == 16u64.pow(3));
        }
    }

    /// Offsets that let every term claim the whole successor column: a
    /// count errs at the second term of a length, having read the column
    /// once, instead of reading it once a term.
    #[test]
    fn a_count_reads_a_lengths_successors_once_whatever_the_offsets() {
        let bytes = |v: &[u32]| v.iter().flat_map(|n| n.to_le_bytes()).collect::<Vec<u8>>();
        // Terms 0 and 2 of one letter, linked to terms 3 and 4 of two;
        // term 1, of three letters, lies between them and is not read.
        let lens = [1u8, 3, 1, 2, 2];
        let succs = bytes(&[3, 4]);
        // Term 2's successors are term 0's again, over term 1's backwards range.
        let again = bytes(&[0, 2, 0, 2, 2, 2]);
        let fair = bytes(&[0, 2, 2, 2, 2, 2]);
        for (starts, ok) in [(again, false), (fair, true)] {
            let graph = Graph { lens: &lens, starts: &starts, succs: &succs, by_length: None };
            let mut games = vec![0u32; lens.len()];
            match graph.count_down(&mut games, 1..=2) {
                Ok(fits) => assert!(ok && fits && games == [2, 0, 0, 1, 1], "{games:?}"),
                Err(e) => assert!(!ok && e.to_string().contains("not ascending"), "{e}"),
            }
        }
    }

    /// Random lists: every count, top list and longest chain is the same
    /// from an index with the terms by length (columns 6 and 7) and from
    /// one without them, as earlier builds wrote it.
    #[test]
    fn answers_are_the_same_without_the_terms_by_length() {
        let mut rng = SplitMix64::new(31);
        let mut stored_games = 0;
        for round in 0..20 {
            let words: Vec<String> = (0..1 + rng.below(300))
                .map(|_| (0..1 + rng.below(10)).map(|_| (b'a' + rng.below(4) as u8) as char).collect())
                .collect();
            let idx = index(&words.join("\n"), None);
            let six = crate::testutil::with_columns(&idx, SectionId::Chains, |cols| cols.truncate(6));
            assert!(six.verify().iter().all(|c| c.ok), "round {round}");
            let (with, without) = (Anigrams::open(&idx).unwrap(), Anigrams::open(&six).unwrap());
            assert!(with.chains().unwrap().by_length.is_some() && without.chains().unwrap().by_length.is_none());
            for start_len in 1..=9 {
                for goal_len in start_len + 1..=10 {
                    let game = Game { start_len, goal_len };
                    let count = with.count(Start::Len(start_len), goal_len).unwrap();
                    assert_eq!(count, without.count(Start::Len(start_len), goal_len).unwrap(), "round {round}");
                    let top = |a: &Anigrams<Vec<u8>>| -> Vec<(String, u64)> {
                        a.top(3, game).unwrap().into_iter().map(|t| (t.term, t.games)).collect()
                    };
                    assert_eq!(top(&with), top(&without), "round {round}");
                    // From each term alone: its games as the top list
                    // has them (stored for 9 letters, else counted).
                    for listed in with.top(usize::MAX, game).unwrap() {
                        stored_games += (goal_len == GOAL_LEN) as u64 * listed.games;
                        let t = Start::Term(with.find_term(&listed.term).unwrap());
                        assert_eq!(with.count(t, goal_len).unwrap(), listed.games, "round {round}");
                        assert_eq!(without.count(t, goal_len).unwrap(), listed.games, "round {round}");
                    }
                }
                let longest = |a: &Anigrams<Vec<u8>>| -> Vec<String> {
                    a.longest(Start::Len(start_len)).unwrap().into_iter().map(|s| s.term).collect()
                };
                assert_eq!(longest(&with), longest(&without), "round {round}");
            }
        }
        // Some rounds have games to 9 letters, read from the stored counts.
        assert!(stored_games > 0);
    }

    /// Columns 6 and 7 made to lie, checksums and all: `verify` names
    /// the section; a count errs (never panics, never answers) when the
    /// lie is in what it reads.
    #[test]
    fn terms_by_length_made_to_lie_are_errors_not_answers() {
        // Three terms of 5 letters (ddeir, deirr, deirs), two of 4.
        let idx = index(&format!("{LIST}rides\ndrier\nriders\n"), None);
        let u32s =
            |b: &[u8]| -> Vec<u32> { b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect() };
        let bytes = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|n| n.to_le_bytes()).collect() };
        let chains_problem =
            |i: &Index<Vec<u8>>| i.verify().into_iter().find(|c| c.name == "chains").and_then(|c| c.problem);
        assert_eq!(chains_problem(&idx), None);
        let counted = |i: &Index<Vec<u8>>| Anigrams::open(i).and_then(|a| a.count(Start::Len(4), 8));
        assert!(counted(&idx).unwrap() > 0);
        type Lie = Box<dyn Fn(&mut Vec<Vec<u8>>)>;
        let lies: Vec<(&str, Lie)> = vec![
            // The first two terms of length 4 and 5 trade places.
            (
                "a term under another length",
                Box::new(move |cols: &mut Vec<Vec<u8>>| {
                    let (mut ids, starts) = (u32s(&cols[6]), u32s(&cols[7]));
                    ids.swap(starts[4] as usize, starts[5] as usize);
                    cols[6] = bytes(&ids);
                }),
            ),
            // The 5-letter terms listed in reverse.
            (
                "a length's terms out of order",
                Box::new(move |cols: &mut Vec<Vec<u8>>| {
                    let (mut ids, starts) = (u32s(&cols[6]), u32s(&cols[7]));
                    ids[starts[5] as usize..starts[6] as usize].reverse();
                    cols[6] = bytes(&ids);
                }),
            ),
            // A term twice, another not at all.
            (
                "a term listed twice",
                Box::new(move |cols: &mut Vec<Vec<u8>>| {
                    let (mut ids, starts) = (u32s(&cols[6]), u32s(&cols[7]));
                    let first = starts[5] as usize;
                    ids[first + 1] = ids[first];
                    cols[6] = bytes(&ids);
                }),
            ),
            // Length 8's terms start after they end.
            (
                "a group backwards",
                Box::new(move |cols: &mut Vec<Vec<u8>>| {
                    let mut starts = u32s(&cols[7]);
                    starts[8] = starts[9] + 1;
                    cols[7] = bytes(&starts);
                }),
            ),
        ];
        for (what, lie) in lies {
            let bad = crate::testutil::with_columns(&idx, SectionId::Chains, |cols| lie(cols));
            assert!(chains_problem(&bad).is_some(), "{what}: verify passes");
            match counted(&bad) {
                Err(e) => assert!(e.to_string().contains("chains"), "{what}: {e}"),
                Ok(n) => panic!("{what}: counted {n}"),
            }
        }
        // Columns of another length than the terms': the section does not open.
        for column in [6, 7] {
            let short = crate::testutil::with_columns(&idx, SectionId::Chains, |cols| {
                let shorter = cols[column].len() - 4;
                cols[column].truncate(shorter)
            });
            assert!(Anigrams::open(&short).and_then(|a| a.count(Start::Len(4), 8)).is_err(), "column {column}");
        }
    }

    #[test]
    fn unscrambles_and_finds_terms() {
        let idx = index(LIST, None);
        let a = Anigrams::open(&idx).unwrap();
        let step = a.unscramble("RIDE").unwrap();
        assert_eq!(step.term, "deir");
        assert_eq!(step.words, vec!["dire", "ired", "ride"]);
        assert!(a.unscramble("xyz").unwrap().words.is_empty());
        assert!(a.unscramble("r1de").unwrap_err().is_usage());
        assert_eq!(a.find_term("deir").unwrap(), a.find_term("ride").unwrap());
        assert!(a.find_term("zzzz").unwrap_err().is_usage());
    }

    #[test]
    fn chains_and_counts() {
        let idx = index(LIST, None);
        let a = Anigrams::open(&idx).unwrap();
        let chain = a.longest(Start::Len(4)).unwrap();
        let terms: Vec<&str> = chain.iter().map(|s| s.term.as_str()).collect();
        assert_eq!(terms, vec!["deir", "ddeir", "ddeilr", "ddeilrr", "ddeilrrs"]);
        assert_eq!(a.count(Start::Len(4), 8).unwrap(), 1);
        assert_eq!(a.count(Start::Len(4), 9).unwrap(), 0);
        assert_eq!(a.count(Start::Term(a.find_term("dried").unwrap()), 7).unwrap(), 1);
        assert!(a.count(Start::Len(5), 5).unwrap_err().is_usage());
        assert!(a.longest(Start::Len(20)).unwrap().is_empty());
        let top = a.top(5, Game { start_len: 4, goal_len: 6 }).unwrap();
        assert_eq!((top[0].term.as_str(), top[0].games), ("deir", 1));
        assert_eq!(top[1].games, 0);
    }

    #[test]
    fn common_games_are_generated_uniformly_from_brute_force_games() {
        use std::collections::{BTreeMap, BTreeSet};
        let mut rng = SplitMix64::new(5);
        let mut rounds_with_games = 0;
        for round in 0..30 {
            // Words of 4 to 9 letters over a small alphabet, so chains form.
            let words: BTreeSet<String> = (0..400)
                .map(|_| (0..4 + rng.below(6)).map(|_| (b'a' + rng.below(4) as u8) as char).collect())
                .collect();
            let common: Vec<&String> = words.iter().filter(|_| rng.below(3) == 0).collect();
            let list: Vec<&str> = words.iter().map(String::as_str).collect();
            let common_list: Vec<&str> = common.iter().map(|w| w.as_str()).collect();
            let idx = index(&list.join("\n"), Some(&common_list.join("\n")));
            let a = Anigrams::open(&idx).unwrap();
            // Brute force: terms with a common word, and every chain of them.
            let term = |w: &str| {
                let mut c: Vec<char> = w.chars().collect();
                c.sort_unstable();
                c.into_iter().collect::<String>()
            };
            let mut common_words: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for w in &common {
                common_words.entry(term(w)).or_default().push(w.to_string());
            }
            let mut games: Vec<Vec<String>> =
                common_words.keys().filter(|t| t.len() == 4).map(|t| vec![t.clone()]).collect();
            for len in 5..=9 {
                games = games
                    .into_iter()
                    .flat_map(|g| {
                        let last = g.last().unwrap().clone();
                        common_words
                            .keys()
                            .filter(|t| t.len() == len && one_more(last.as_bytes(), t.as_bytes()).is_some())
                            .map(|t| [g.clone(), vec![t.clone()]].concat())
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            let all: BTreeSet<Vec<String>> = games.into_iter().collect();
            if all.is_empty() {
                assert!(a.generate_with(1, true).unwrap_err().is_usage(), "round {round}");
                continue;
            }
            rounds_with_games += 1;
            let mut seen = BTreeSet::new();
            for seed in 0..200 {
                let chain = a.generate_with(seed, true).unwrap();
                let terms: Vec<String> = chain.iter().map(|s| s.term.clone()).collect();
                assert!(all.contains(&terms), "round {round}, seed {seed}: {terms:?}");
                for step in &chain {
                    assert_eq!(step.words, common_words[&step.term], "only the common words");
                }
                seen.insert(terms);
            }
            // Uniform over the games: 200 draws from a few games see them all.
            if all.len() <= 5 {
                assert_eq!(seen.len(), all.len(), "round {round}");
            }
        }
        assert!(rounds_with_games >= 5, "{rounds_with_games} rounds had games");
        // Without a common list: a usage error.
        let plain = index(LIST, None);
        assert!(Anigrams::open(&plain).unwrap().generate_with(1, true).unwrap_err().is_usage());
    }

    #[test]
    fn generate_needs_a_game() {
        let idx = index(LIST, None);
        let a = Anigrams::open(&idx).unwrap();
        assert!(a.generate(1).unwrap_err().is_usage());
    }
}
