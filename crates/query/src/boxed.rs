//! The NYT Letter Boxed, answered from the `words` FST.
//!
//! Playable words come straight out of the FST through [`SideAutomaton`],
//! which follows a word letter by letter and gives up on a branch as soon as
//! a letter is off the box or on the same side as the one before, so only
//! the few thousand prefixes that fit the box are ever visited.
//!
//! Solutions are sequences of playable words, each starting with the last
//! letter of the one before, whose letters together cover the box; a
//! sequence ends on the word that completes the box (the NYT stops the game
//! there), so no solution has a shorter solution as its prefix. The search
//! runs over states (letters covered, last letter): a memoised count gives
//! the exact number of solutions without listing them, and a lower bound on
//! the cost to finish from each state prunes the listing of the best few.

use std::collections::{BinaryHeap, HashMap};

use crate::alphabet::{Alphabet, LetterSet};
use crate::error::{Error, Result};
use crate::format::fst::Automaton;
use crate::index::Index;

/// The shortest playable word by default.
pub const DEFAULT_MIN_LEN: usize = 3;
/// The most words a solution may have (the count grows fast past this).
pub const MAX_WORDS_LIMIT: usize = 8;

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
            let set = alphabet.parse_distinct(side, "side")?;
            if let Some(dup) = set.intersects(seen).then_some(LetterSet(set.0 & seen.0)) {
                return Err(Error::invalid(format!(
                    "the letter {:?} is on two sides; each letter goes on one side only",
                    alphabet.letters_of(dup)
                )));
            }
            seen = seen.union(set);
            side_of.extend(side.bytes().map(|b| (b.to_ascii_lowercase(), s as u8)));
            out.push(side.to_ascii_lowercase());
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
        let mut side_of = [NOT_ON_BOX; 256];
        for &(b, s) in &letter_box.side_of {
            side_of[b as usize] = s;
        }
        SideAutomaton { side_of, min_len: min_len.clamp(1, u32::MAX as usize) as u32 }
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

/// A playable word and what the search needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playable {
    /// The word.
    pub word: String,
    /// True when it is on the common list.
    pub common: bool,
    mask: u32,
    first: u8,
    last: u8,
}

impl Playable {
    /// Sort cost: uncommon words, then letters.
    fn cost(&self) -> Cost {
        Cost { uncommon: (!self.common) as u32, letters: self.word.len() as u32 }
    }
}

/// Every playable word of the box, a-z.
pub fn playable_words<D: AsRef<[u8]>>(
    index: &Index<D>,
    letter_box: &LetterBox,
    min_len: usize,
) -> Result<Vec<Playable>> {
    let map = index.words()?;
    let common = index.common()?;
    let local = |b: u8| letter_box.letters.iter().position(|&l| l == b).map(|i| i as u8);
    let mut search = map.search(SideAutomaton::new(letter_box, min_len));
    let mut out = Vec::new();
    while let Some((word, id)) = search.next()? {
        let (Some(&first), Some(&last)) = (word.first(), word.last()) else { continue };
        let mask = word.iter().filter_map(|&b| local(b)).fold(0u32, |m, i| m | 1 << i);
        out.push(Playable {
            word: String::from_utf8(word.to_vec()).map_err(|_| Error::corrupt("a word is not UTF-8"))?,
            common: common.is_common(id as u32),
            mask,
            first: local(first).ok_or_else(|| Error::corrupt("the words FST returned a word off the box"))?,
            last: local(last).ok_or_else(|| Error::corrupt("the words FST returned a word off the box"))?,
        });
    }
    Ok(out)
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
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { max_words: 2, min_len: DEFAULT_MIN_LEN, limit: 20 }
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
pub fn solve<D: AsRef<[u8]>>(index: &Index<D>, letter_box: &LetterBox, opts: &SolveOptions) -> Result<Answer> {
    if opts.max_words == 0 || opts.max_words > MAX_WORDS_LIMIT {
        return Err(Error::invalid(format!("--max-words must be 1 to {MAX_WORDS_LIMIT}")));
    }
    if opts.min_len == 0 {
        return Err(Error::invalid("--min-len must be at least 1"));
    }
    let words = playable_words(index, letter_box, opts.min_len)?;
    let mut search = Search::new(&words, letter_box.letters.len());
    let by_words: Vec<u128> = (1..=opts.max_words).map(|k| search.count_solutions(k)).collect();
    let count = by_words
        .iter()
        .try_fold(0u128, |a, &b| a.checked_add(b))
        .ok_or_else(|| Error::invalid("too many solutions to count; lower --max-words"))?;
    let mut solutions = Vec::new();
    for k in 1..=opts.max_words {
        let want = if opts.limit == 0 { usize::MAX } else { opts.limit - solutions.len() };
        if want == 0 {
            break;
        }
        if by_words[k - 1] > 0 {
            solutions.extend(search.best(k, want));
        }
    }
    Ok(Answer {
        playable: words.len(),
        count,
        min_words: by_words.iter().position(|&n| n > 0).map(|i| i + 1),
        by_words,
        solutions,
    })
}

/// A solution's cost after its word count: uncommon words, then letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Cost {
    uncommon: u32,
    letters: u32,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost { uncommon: self.uncommon + o.uncommon, letters: self.letters + o.letters }
    }
}

/// A search state: letters covered so far, the letter the next word starts
/// with, and how many words are still to come.
type State = (u32, u8, u8);

struct Search<'w> {
    words: &'w [Playable],
    full: u32,
    /// Word indices by first letter, cheapest first, then a-z.
    by_first: Vec<Vec<usize>>,
    counts: HashMap<State, u128>,
    bounds: HashMap<State, Option<Cost>>,
}

/// A listed solution, ordered so the heap's top is the worst kept.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    cost: Cost,
    names: Vec<String>,
}

impl<'w> Search<'w> {
    fn new(words: &'w [Playable], letters: usize) -> Search<'w> {
        let mut by_first = vec![Vec::new(); letters];
        for (i, w) in words.iter().enumerate() {
            by_first[w.first as usize].push(i);
        }
        for list in &mut by_first {
            list.sort_by(|&a, &b| (words[a].cost(), &words[a].word).cmp(&(words[b].cost(), &words[b].word)));
        }
        let full = if letters == 32 { u32::MAX } else { (1u32 << letters) - 1 };
        Search { words, full, by_first, counts: HashMap::new(), bounds: HashMap::new() }
    }

    /// Solutions of exactly `k` words.
    fn count_solutions(&mut self, k: usize) -> u128 {
        (0..self.words.len())
            .map(|i| {
                let w = &self.words[i];
                match (k, w.mask == self.full) {
                    (1, done) => done as u128,
                    (_, true) => 0,
                    _ => self.count_from((w.mask, w.last, (k - 1) as u8)),
                }
            })
            .fold(0u128, u128::saturating_add)
    }

    /// Ways to finish from a state with exactly `j` more words, covering
    /// the box on the last one and not before.
    fn count_from(&mut self, (mask, first, j): State) -> u128 {
        if let Some(&n) = self.counts.get(&(mask, first, j)) {
            return n;
        }
        let mut total = 0u128;
        for idx in 0..self.by_first[first as usize].len() {
            let w = &self.words[self.by_first[first as usize][idx]];
            let covered = mask | w.mask;
            total = total.saturating_add(match (j, covered == self.full) {
                (1, done) => done as u128,
                (_, true) => 0,
                _ => self.count_from((covered, w.last, j - 1)),
            });
        }
        self.counts.insert((mask, first, j), total);
        total
    }

    /// The cheapest way to finish from a state with exactly `j` more words.
    fn bound(&mut self, (mask, first, j): State) -> Option<Cost> {
        if let Some(&b) = self.bounds.get(&(mask, first, j)) {
            return b;
        }
        let mut best: Option<Cost> = None;
        for idx in 0..self.by_first[first as usize].len() {
            let w = &self.words[self.by_first[first as usize][idx]];
            let covered = mask | w.mask;
            let rest = match (j, covered == self.full) {
                (1, true) => Some(Cost::default()),
                (1, false) | (_, true) => None,
                _ => self.bound((covered, w.last, j - 1)),
            };
            if let Some(c) = rest.map(|r| r + w.cost()) {
                best = Some(best.map_or(c, |b| b.min(c)));
            }
        }
        self.bounds.insert((mask, first, j), best);
        best
    }

    /// The `want` best solutions of exactly `k` words, in order.
    fn best(&mut self, k: usize, want: usize) -> Vec<Vec<String>> {
        let mut kept: BinaryHeap<Ranked> = BinaryHeap::new();
        let mut path = Vec::with_capacity(k);
        for i in 0..self.words.len() {
            let w = &self.words[i];
            path.push(i);
            self.extend(&mut path, w.mask, w.cost(), k - 1, want, &mut kept);
            path.pop();
        }
        kept.into_sorted_vec().into_iter().map(|r| r.names).collect()
    }

    /// Depth-first over the words after `path`, pruning any branch whose
    /// cheapest finish cannot beat the worst solution kept.
    fn extend(
        &mut self,
        path: &mut Vec<usize>,
        mask: u32,
        cost: Cost,
        left: usize,
        want: usize,
        kept: &mut BinaryHeap<Ranked>,
    ) {
        if left == 0 {
            if mask == self.full {
                self.keep(path, cost, want, kept);
            }
            return;
        }
        if mask == self.full {
            return; // the box was finished before the last word
        }
        let last = self.words[*path.last().expect("path has a word")].last;
        let Some(rest) = self.bound((mask, last, left as u8)) else { return };
        if kept.len() >= want && kept.peek().is_some_and(|worst| cost + rest > worst.cost) {
            return;
        }
        for idx in 0..self.by_first[last as usize].len() {
            let i = self.by_first[last as usize][idx];
            let w = &self.words[i];
            path.push(i);
            self.extend(path, mask | w.mask, cost + w.cost(), left - 1, want, kept);
            path.pop();
        }
    }

    fn keep(&self, path: &[usize], cost: Cost, want: usize, kept: &mut BinaryHeap<Ranked>) {
        let names: Vec<String> = path.iter().map(|&i| self.words[i].word.clone()).collect();
        let ranked = Ranked { cost, names };
        if kept.len() < want {
            kept.push(ranked);
        } else if kept.peek().is_some_and(|worst| ranked < *worst) {
            kept.pop();
            kept.push(ranked);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn solves_a_small_box_in_order() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\n", Some("fad\nebc\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let playable: Vec<String> = playable_words(&idx, &b, 3).unwrap().into_iter().map(|p| p.word).collect();
        assert_eq!(playable, vec!["becadf", "becaf", "ebc", "fad", "fade"], "cab: a and b share a side");
        let answer = solve(&idx, &b, &SolveOptions { max_words: 3, min_len: 3, limit: 0 }).unwrap();
        assert_eq!(answer.by_words, vec![1, 3, 0]);
        assert_eq!(answer.min_words, Some(1));
        // One word first; then fewest uncommon words, then fewest letters.
        let expected = vec![vec!["becadf"], vec!["fade", "ebc"], vec!["becaf", "fad"], vec!["becaf", "fade"]];
        assert_eq!(answer.solutions, expected);
        let limited = solve(&idx, &b, &SolveOptions { max_words: 3, min_len: 3, limit: 2 }).unwrap();
        assert_eq!((limited.count, limited.solutions.len()), (4, 2));
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
