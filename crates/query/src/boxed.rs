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
//! there), so no solution has a shorter solution as its prefix.
//!
//! Costs (see [`Solver`]): finding the playable words is one pass over the
//! FST prefixes that fit the box, at most `words * 256` steps on any file.
//! Counting is memoised over search states, O(states x word classes), and
//! capped at [`MAX_STATES`] states (about 25 MB) and [`MAX_STEPS`] steps
//! (about a second): a box past them is an error, in well under a second.
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

use std::collections::HashMap;
use std::ops::ControlFlow;

use crate::alphabet::{Alphabet, LetterSet};
use crate::error::{Error, ErrorKind, Result};
use crate::fasthash::IntMap;
use crate::format::fst::Automaton;
use crate::format::SectionId;
use crate::index::Index;
use crate::rng::SplitMix64;

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
        if out.len() == MAX_PLAYABLE {
            return Err(too_large(format!("more than {MAX_PLAYABLE} playable words")));
        }
        let (Some(&first), Some(&last)) = (word.first(), word.last()) else { continue };
        let mask = word.iter().filter_map(|&b| local(b)).fold(0u32, |m, i| m | 1 << i);
        out.push(Playable {
            word: index.alphabet().word_string(word.to_vec()),
            common: common.is_common(id as u32),
            mask,
            first: local(first).ok_or_else(|| SectionId::Words.corrupt("the FST returned a word off the box"))?,
            last: local(last).ok_or_else(|| SectionId::Words.corrupt("the FST returned a word off the box"))?,
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
        solutions.push(words.iter().map(|w| w.word.clone()).collect());
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

/// Options for [`generate`].
#[derive(Clone, Copy, Debug)]
pub struct GenerateOptions {
    /// The seed; the same seed and index give the same box.
    pub seed: u64,
    /// Sides of the box (the NYT uses 4).
    pub sides: usize,
    /// Letters on each side (the NYT uses 3).
    pub size: usize,
    /// Only common words are playable, in the solutions and the counts.
    pub common_only: bool,
    /// Fewest solutions of 1 and 2 words together.
    pub min_solutions: Option<u64>,
    /// Most solutions of 1 and 2 words together.
    pub max_solutions: Option<u64>,
    /// How many solutions to list, best first (0: all).
    pub limit: usize,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            seed: 0,
            sides: 4,
            size: 3,
            common_only: false,
            min_solutions: None,
            max_solutions: None,
            limit: 20,
        }
    }
}

/// How many boxes [`generate`] tries before it says none fits: each try is
/// a word pair, a layout and a count, so this bounds its time (well under a
/// second on enable1) when the bounds cannot be met.
pub const GENERATE_TRIES: u32 = 400;

/// A generated box and its answer (solutions of at most 2 words).
#[derive(Clone, Debug)]
pub struct Generated {
    /// The box.
    pub letter_box: LetterBox,
    /// Its solutions of at most 2 words.
    pub answer: Answer,
    /// Boxes tried, this one included.
    pub tries: u32,
}

/// A random box of distinct letters with at least one solution of at most 2
/// words, its solution count within the bounds; the same seed and index
/// give the same box. Each try picks a random word, a random word that
/// starts with its last letter and brings the letters to exactly
/// `sides x size`, and a random layout of those letters on the sides that
/// keeps each word's neighbouring letters on different sides, so the pair
/// is a solution by construction; then it counts the box's solutions.
pub fn generate<D: AsRef<[u8]>>(index: &Index<D>, opts: &GenerateOptions) -> Result<Generated> {
    let alphabet = index.alphabet();
    let letters = opts.sides.saturating_mul(opts.size);
    if opts.sides < 2 {
        return Err(Error::invalid_param("sides", format!("{} is too few: a box has at least 2 sides", opts.sides)));
    }
    if opts.size == 0 || letters > alphabet.len().min(MAX_BOX_LETTERS) {
        return Err(Error::invalid_param(
            "size",
            format!(
                "{} on {} sides needs {} distinct letters; this alphabet has {} (and a box at most {MAX_BOX_LETTERS})",
                opts.size,
                opts.sides,
                letters,
                alphabet.len()
            ),
        ));
    }
    if let (Some(lo), Some(hi)) = (opts.min_solutions, opts.max_solutions) {
        if lo > hi {
            return Err(Error::invalid_param(
                "min_solutions",
                format!("{lo} is above the most solutions asked for, {hi}: the range is empty"),
            ));
        }
    }
    if opts.max_solutions == Some(0) {
        return Err(Error::invalid_param("max_solutions", "must be at least 1: every generated box has a solution"));
    }
    let solve_opts =
        SolveOptions { max_words: 2, min_len: DEFAULT_MIN_LEN, limit: opts.limit, common_only: opts.common_only };
    index.require_common_list(opts.common_only)?;
    let words = index.words()?;
    let common = index.common()?;
    if words.is_empty() {
        return Err(Error::invalid("this index has no words to make a box of"));
    }
    let mut rng = SplitMix64::new(opts.seed);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    // Where the tries failed, so a failure can name its cause.
    let mut failed = GenerateFailures::default();
    for tries in 1..=GENERATE_TRIES {
        // A first word: at least 3 letters, none twice in a row, and no
        // more distinct letters than the box holds.
        let id = rng.below(words.len() as u64);
        if !words.key_of(id, &mut first)? || (opts.common_only && !common.is_common(id as u32)) {
            continue;
        }
        let Some(set) = alphabet.set_of(&first) else { continue };
        if first.len() < DEFAULT_MIN_LEN || set.len() >= letters || first.windows(2).any(|w| w[0] == w[1]) {
            failed.no_first += 1;
            continue;
        }
        // Every second word that completes the letters, then one of them.
        let last = *first.last().expect("three letters or more");
        let mut search = words.search(Completes { alphabet, first: last, base: set.0, total: letters as u32 });
        // Ids, not words: 4 bytes a candidate, the word read back once.
        let mut candidates: Vec<u64> = Vec::new();
        while let Some((_, id)) = search.next()? {
            if !opts.common_only || common.is_common(id as u32) {
                if candidates.len() == MAX_PLAYABLE {
                    return Err(too_large(format!(
                        "more than {MAX_PLAYABLE} words complete {}",
                        alphabet.word_string(first.clone())
                    )));
                }
                candidates.push(id);
            }
        }
        if candidates.is_empty() {
            failed.no_pair += 1;
            continue;
        }
        if !words.key_of(candidates[rng.below(candidates.len() as u64) as usize], &mut second)? {
            return Err(SectionId::Words.corrupt("the FST returned an id it has no key for"));
        }
        let Some(sides) = lay_out(alphabet, &[&first, &second], opts.sides, opts.size, &mut rng) else {
            failed.no_layout += 1;
            continue;
        };
        let letter_box = LetterBox::parse(alphabet, &sides)?;
        let answer = solve(index, &letter_box, &solve_opts)?;
        let count = u64::try_from(answer.count).unwrap_or(u64::MAX);
        if opts.min_solutions.is_none_or(|lo| count >= lo) && opts.max_solutions.is_none_or(|hi| count <= hi) {
            return Ok(Generated { letter_box, answer, tries });
        }
        failed.solutions = Some(failed.solutions.map_or((count, count), |(lo, hi)| (lo.min(count), hi.max(count))));
    }
    Err(Error::invalid(failed.cause(opts, letters)))
}

/// How the tries of [`generate`] failed: no second word, no layout on the
/// sides, or boxes made with solution counts outside the range.
#[derive(Default)]
struct GenerateFailures {
    /// The word drawn could not start a box: shorter than 3 letters, a
    /// letter twice in a row, or as many letters as the box or more.
    no_first: u32,
    /// A first word had no second word to use the box's letters exactly.
    no_pair: u32,
    /// Two words used them, but not laid out on the sides (two letters in
    /// a row would share a side).
    no_layout: u32,
    /// The fewest and most solutions of the boxes made.
    solutions: Option<(u64, u64)>,
}

impl GenerateFailures {
    /// The failure in words, naming the options that change it.
    fn cause(&self, opts: &GenerateOptions, letters: usize) -> String {
        let tried = format!("in {GENERATE_TRIES} tries from seed {}", opts.seed);
        let words = if opts.common_only { "common words" } else { "words" };
        let shape = format!("{} sides of {}", opts.sides, opts.size);
        if let Some((lo, hi)) = self.solutions {
            let wanted = match (opts.min_solutions, opts.max_solutions) {
                (Some(lo), Some(hi)) => format!("{lo} to {hi}, as asked"),
                (Some(lo), None) => format!("at least {lo}, as asked"),
                (None, Some(hi)) => format!("at most {hi}, as asked"),
                (None, None) => "some".into(),
            };
            let range = if lo == hi { format!("{lo}") } else { format!("from {lo} to {hi}") };
            return format!(
                "the boxes made {tried} had {range} solutions of at most 2 words, none {wanted}; \
                 widen the range or try another seed"
            );
        }
        if self.no_layout > 0 {
            return format!(
                "{tried}, {} pairs of {words} used the box's {letters} letters, but none could be laid out on \
                 {shape} without two letters in a row on one side; try more sides or fewer letters a side",
                self.no_layout
            );
        }
        // Too few letters: almost no word can start a box; too many: no
        // two words use them all.
        let change =
            if letters <= 12 { "more sides or more letters a side" } else { "fewer sides or fewer letters a side" };
        if self.no_first > self.no_pair {
            return format!(
                "{tried}, {} of the {words} drawn could not start a box of {letters} letters ({shape}): a first word \
                 has 3 letters or more, none twice in a row, and fewer distinct letters than the box; try {change}",
                self.no_first
            );
        }
        format!(
            "{tried}, no 2 {words} chained end to start used exactly the box's {letters} letters ({shape}); \
             try {change}, or another seed"
        )
    }
}

/// Words that start with `first`, have no letter twice in a row, and bring
/// the letters of `base` (a mask over the alphabet) to exactly `total`.
struct Completes<'a> {
    alphabet: &'a Alphabet,
    first: u8,
    base: u64,
    total: u32,
}

impl Automaton for Completes<'_> {
    /// The last letter, the letters so far (base included), the length;
    /// `None` once nothing below can match.
    type State = Option<(u8, u64, usize)>;

    fn start(&self) -> Self::State {
        Some((0, self.base, 0))
    }

    fn is_match(&self, state: &Self::State) -> bool {
        matches!(*state, Some((_, mask, len)) if len >= DEFAULT_MIN_LEN && mask.count_ones() == self.total)
    }

    fn can_match(&self, state: &Self::State) -> bool {
        state.is_some()
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        let (last, mask, len) = (*state)?;
        let i = self.alphabet.index_of(byte)?;
        if (len == 0 && byte != self.first) || (len > 0 && byte == last) {
            return None;
        }
        let mask = mask | 1 << i;
        (mask.count_ones() <= self.total).then_some((byte, mask, len + 1))
    }
}

/// The words' letters placed on `sides` sides of `size`, so that letters
/// next to each other in a word are on different sides: a search over the
/// letters in random order, each trying the sides in random order. `None`
/// when no layout exists (or the letters are not `sides x size`).
fn lay_out(
    alphabet: &Alphabet,
    words: &[&[u8]],
    sides: usize,
    size: usize,
    rng: &mut SplitMix64,
) -> Option<Vec<String>> {
    let mut letters: Vec<u8> = words.iter().flat_map(|w| w.iter().copied()).collect();
    letters.sort_unstable();
    letters.dedup();
    if letters.len() != sides * size || letters.iter().any(|&b| alphabet.index_of(b).is_none()) {
        return None;
    }
    // Shuffled, so the same words give different boxes for different seeds.
    for i in (1..letters.len()).rev() {
        letters.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let at = |b: u8| letters.iter().position(|&l| l == b).expect("a letter of the words");
    let mut apart = vec![0u32; letters.len()];
    for w in words {
        for pair in w.windows(2) {
            let (a, b) = (at(pair[0]), at(pair[1]));
            apart[a] |= 1 << b;
            apart[b] |= 1 << a;
        }
    }
    let order: Vec<Vec<usize>> = (0..letters.len())
        .map(|_| {
            let mut o: Vec<usize> = (0..sides).collect();
            for i in (1..o.len()).rev() {
                o.swap(i, rng.below(i as u64 + 1) as usize);
            }
            o
        })
        .collect();
    let mut side_of = vec![usize::MAX; letters.len()];
    let mut filled = vec![0usize; sides];
    // Depth-first over letters; at most sides^letters steps, but the
    // constraints are few (two words' neighbours) and a budget bounds it.
    let mut budget = 100_000u32;
    fn place(
        i: usize,
        side_of: &mut [usize],
        filled: &mut [usize],
        apart: &[u32],
        order: &[Vec<usize>],
        size: usize,
        budget: &mut u32,
    ) -> bool {
        if i == side_of.len() {
            return true;
        }
        for &s in &order[i] {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let clash = (0..i).any(|j| side_of[j] == s && apart[i] & 1 << j != 0);
            if filled[s] == size || clash {
                continue;
            }
            (side_of[i], filled[s]) = (s, filled[s] + 1);
            if place(i + 1, side_of, filled, apart, order, size, budget) {
                return true;
            }
            (side_of[i], filled[s]) = (usize::MAX, filled[s] - 1);
        }
        false
    }
    if !place(0, &mut side_of, &mut filled, &apart, &order, size, &mut budget) {
        return None;
    }
    let mut out = vec![String::new(); sides];
    for (i, &s) in side_of.iter().enumerate() {
        out[s].push(alphabet.char_of(letters[i]));
    }
    Some(out)
}

/// The most search states a box may need: each holds a count and an
/// envelope of costs (64 bytes in the table), so with the table's spare
/// room and its growth this bounds the search's memory near 25 MB.
pub const MAX_STATES: usize = 200_000;
/// The most steps (a word class tried from a state) counting may take:
/// about a second or two.
pub const MAX_STEPS: u64 = 1 << 27;

/// A Letter Boxed search over one box, in bounded memory.
///
/// Solutions are sequences of words; the search runs over states
/// (letters covered, the letter the next word starts with, words left).
/// Words with the same first and last letter, letters and commonness are
/// one *class* to counting, so its cost is O(states x classes per first
/// letter), at most [`MAX_STATES`] states and [`MAX_STEPS`] steps; a box
/// that needs more is an error ([`ErrorKind::Limit`]), not a long wait.
/// Memoised per state: the exact number of ways to finish (so counts never
/// enumerate) and, per number of uncommon words, the fewest and most
/// letters a finish can have.
///
/// Listing goes level by level in the documented order: for each number
/// of words, each number of uncommon words, each total of letters, a
/// depth-first walk a-z that enters a word only when the rest can still
/// finish at that level by the envelopes. It holds one path, so any number
/// of solutions streams in constant memory; its time is about the size of
/// the output times the letter spread of a level.
pub struct Solver {
    words: Vec<Playable>,
    full: u32,
    max_words: usize,
    /// Word indices by first letter, a-z.
    by_first: Vec<Vec<u32>>,
    /// Word classes by first letter.
    classes: Vec<Vec<Class>>,
    memo: IntMap<u64, Info>,
    steps: u64,
    /// The most letters any word covers: a state that needs more than its
    /// words left can cover finishes no way, found without a scan.
    widest: u32,
    /// Levels with at most this many solutions are gathered and sorted
    /// ([`GATHER_MAX`]; the tests lower it to check the two ways agree).
    gather_max: u128,
}

/// Words alike to counting: same first letter (the list they are in),
/// last letter, letters and commonness.
#[derive(Clone, Copy, Debug)]
struct Class {
    last: u8,
    mask: u32,
    uncommon: u8,
    count: u128,
    min_len: u16,
    max_len: u16,
}

/// Per state: the ways to finish, and per number of uncommon words among
/// them the fewest and most letters (`EMPTY` when none).
#[derive(Clone, Copy, Debug)]
struct Info {
    /// Stored as two words: a `u128` would align the entry to 16 bytes.
    count: Count,
    envelope: [(u16, u16); MAX_WORDS_LIMIT + 1],
}

const EMPTY: (u16, u16) = (u16::MAX, 0);

/// A `u128` in two `u64`s (low, high).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Count([u64; 2]);

impl Count {
    fn get(self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }

    fn add(&mut self, n: u128) -> Result<()> {
        let sum = self.get().checked_add(n).ok_or_else(too_many)?;
        self.0 = [sum as u64, (sum >> 64) as u64];
        Ok(())
    }
}

impl Info {
    const NONE: Info = Info { count: Count([0, 0]), envelope: [EMPTY; MAX_WORDS_LIMIT + 1] };

    fn widen(&mut self, uncommon: usize, (lo, hi): (u16, u16)) {
        let e = &mut self.envelope[uncommon];
        *e = (e.0.min(lo), e.1.max(hi));
    }
}

impl Solver {
    /// Finds the box's playable words and prepares the search.
    pub fn new<D: AsRef<[u8]>>(index: &Index<D>, letter_box: &LetterBox, opts: &SolveOptions) -> Result<Solver> {
        let SolveOptions { max_words, min_len, common_only, .. } = *opts;
        if max_words == 0 || max_words > MAX_WORDS_LIMIT {
            return Err(Error::invalid_param("max_words", format!("must be 1 to {MAX_WORDS_LIMIT}")));
        }
        if min_len == 0 {
            return Err(Error::invalid_param("min_len", "must be at least 1"));
        }
        index.require_common_list(common_only)?;
        let mut words = playable_words(index, letter_box, min_len)?;
        if common_only {
            words.retain(|w| w.common);
        }
        let letters = letter_box.letters.len();
        let mut by_first = vec![Vec::new(); letters];
        let mut classes: Vec<Vec<Class>> = vec![Vec::new(); letters];
        let mut class_of: HashMap<(u8, u8, u32, u8), usize> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            by_first[w.first as usize].push(i as u32);
            let len = w.word.chars().count().min(u16::MAX as usize / (MAX_WORDS_LIMIT + 1)) as u16;
            let uncommon = (!w.common) as u8;
            let list = &mut classes[w.first as usize];
            let at = *class_of.entry((w.first, w.last, w.mask, uncommon)).or_insert_with(|| {
                list.push(Class { last: w.last, mask: w.mask, uncommon, count: 0, min_len: len, max_len: len });
                list.len() - 1
            });
            let class = &mut list[at];
            class.count += 1;
            (class.min_len, class.max_len) = (class.min_len.min(len), class.max_len.max(len));
        }
        // Widest first: a scan stops at the first class too narrow to help.
        for list in &mut classes {
            list.sort_by_key(|c| std::cmp::Reverse(c.mask.count_ones()));
        }
        let widest = words.iter().map(|w| w.mask.count_ones()).max().unwrap_or(0);
        let full = if letters == 32 { u32::MAX } else { (1u32 << letters) - 1 };
        let gather_max = GATHER_MAX;
        Ok(Solver { words, full, max_words, by_first, classes, memo: IntMap::default(), steps: 0, widest, gather_max })
    }

    /// The playable words, a-z.
    pub fn playable(&self) -> &[Playable] {
        &self.words
    }

    /// The exact number of solutions of each length: `[k - 1]` for `k`
    /// words, up to the maximum.
    pub fn counts(&mut self) -> Result<Vec<u128>> {
        (1..=self.max_words).map(|k| self.count(k)).collect()
    }

    /// The exact number of solutions of exactly `k` words, `k` from 1 to
    /// [`MAX_WORDS_LIMIT`] (past the maximum too: the memo does not depend
    /// on it). Counting is memoised, so counting 1, then 2, ... stops
    /// short of the larger counts past the fewest words.
    pub fn count(&mut self, k: usize) -> Result<u128> {
        if k == 0 || k > MAX_WORDS_LIMIT {
            return Err(Error::invalid_param("k", format!("must be 1 to {MAX_WORDS_LIMIT}")));
        }
        Ok(self.start(k)?.count.get())
    }

    /// The fewest words in `words` that solve the box, and how many
    /// solutions take that many: counts 1 word, 2, ... on this solver's
    /// memo and stops at the first above 0 (past it counts grow fast and
    /// would be wasted: 105,242 of up to 3 words for RIU PGH LCS YAO,
    /// against 120 of up to 2). `None` when no count in `words` is above 0.
    pub fn fewest(&mut self, words: std::ops::RangeInclusive<usize>) -> Result<Option<(usize, u128)>> {
        for k in words {
            let n = self.count(k)?;
            if n > 0 {
                return Ok(Some((k, n)));
            }
        }
        Ok(None)
    }

    /// Sets the most words a solution may take (1 to [`MAX_WORDS_LIMIT`]):
    /// [`counts`](Solver::counts) and [`each_solution`](Solver::each_solution)
    /// then stop there. What was counted already is kept, so finding the
    /// fewest words with [`fewest`](Solver::fewest) and then listing them
    /// costs one search.
    pub fn set_max_words(&mut self, max_words: usize) -> Result<()> {
        if max_words == 0 || max_words > MAX_WORDS_LIMIT {
            return Err(Error::invalid_param("max_words", format!("must be 1 to {MAX_WORDS_LIMIT}")));
        }
        self.max_words = max_words;
        Ok(())
    }

    /// Calls `f` with each solution in order, up to the maximum number of
    /// words, until it breaks; returns whether it did.
    pub fn each_solution(&mut self, mut f: impl FnMut(&[&Playable]) -> ControlFlow<()>) -> Result<ControlFlow<()>> {
        let mut path: Vec<u32> = Vec::with_capacity(self.max_words);
        for k in 1..=self.max_words {
            let start = self.start(k)?;
            if start.count.get() == 0 {
                continue;
            }
            if start.count.get() <= self.gather_max {
                // Few solutions: one walk gathers them all, a-z, and a
                // stable sort puts them in order; the walks by envelope
                // below pass over the words once per (uncommon, letters)
                // pair (about 40 for RIU PGH LCS YAO).
                let mut found = Vec::new();
                self.gather(None, k, (0, 0), &mut path, &mut found)?;
                found.sort_by_key(|&(uncommon, letters, _)| (uncommon, letters));
                for (_, _, solution) in &found {
                    let words: Vec<&Playable> = solution.iter().map(|&i| &self.words[i as usize]).collect();
                    if f(&words).is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                continue;
            }
            for uncommon in 0..=k {
                let (lo, hi) = start.envelope[uncommon];
                for letters in lo..=hi {
                    let want = (uncommon as u8, letters);
                    if self.walk(None, k, want, &mut path, &mut f)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The solutions of exactly `k` words: counted over every first word.
    fn start(&mut self, k: usize) -> Result<Info> {
        let mut info = Info::NONE;
        for first in 0..self.classes.len() {
            let state_info = self.finish(0, first as u8, k as u8)?;
            info.count.add(state_info.count.get())?;
            for (u, &e) in state_info.envelope.iter().enumerate() {
                if e != EMPTY {
                    info.widen(u, e);
                }
            }
        }
        Ok(info)
    }

    /// The ways to finish from a state with exactly `j` more words, the
    /// box covered on the last one and not before.
    fn finish(&mut self, mask: u32, first: u8, j: u8) -> Result<Info> {
        let missing = (self.full & !mask).count_ones();
        if missing > j as u32 * self.widest {
            return Ok(Info::NONE);
        }
        let key = mask as u64 | (first as u64) << 32 | (j as u64) << 40;
        if let Some(info) = self.memo.get(&key) {
            return Ok(*info);
        }
        if self.memo.len() >= MAX_STATES {
            return Err(too_large(format!("over {} search states", MAX_STATES)));
        }
        let mut info = Info::NONE;
        for c in 0..self.classes[first as usize].len() {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(too_large(format!("over {} search steps", MAX_STEPS)));
            }
            let class = self.classes[first as usize][c];
            if class.mask.count_ones() + (j as u32 - 1) * self.widest < missing {
                break; // this class and all after it are too narrow
            }
            let covered = mask | class.mask;
            let u = class.uncommon as usize;
            if j == 1 {
                if covered == self.full {
                    info.count.add(class.count)?;
                    info.widen(u, (class.min_len, class.max_len));
                }
            } else if covered != self.full {
                let rest = self.finish(covered, class.last, j - 1)?;
                if rest.count.get() == 0 {
                    continue;
                }
                info.count.add(class.count.checked_mul(rest.count.get()).ok_or_else(too_many)?)?;
                // The rest has j - 1 words, so at most that many uncommon.
                for (v, &(lo, hi)) in rest.envelope.iter().enumerate().take(j as usize) {
                    if (lo, hi) != EMPTY {
                        info.widen(u + v, (lo + class.min_len, hi + class.max_len));
                    }
                }
            }
        }
        self.memo.insert(key, info);
        Ok(info)
    }

    /// Depth first over the words after `path` (a-z), entering a word only
    /// when the rest can still finish with exactly `want` (uncommon words,
    /// letters) to go.
    fn walk(
        &mut self,
        at: Option<(u32, u8)>,
        left: usize,
        want: (u8, u16),
        path: &mut Vec<u32>,
        f: &mut impl FnMut(&[&Playable]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>> {
        let (mask, first) = at.map_or((0, None), |(mask, letter)| (mask, Some(letter)));
        for n in 0..self.next_count(first) {
            let i = self.next_word(first, n);
            let w = &self.words[i as usize];
            let (u, len) = ((!w.common) as u8, w.word.chars().count().min(u16::MAX as usize) as u16);
            if u > want.0 || len > want.1 {
                continue;
            }
            let (rest, covered, last) = ((want.0 - u, want.1 - len), mask | w.mask, w.last);
            if left == 1 {
                if covered == self.full && rest == (0, 0) {
                    path.push(i);
                    let words: Vec<&Playable> = path.iter().map(|&i| &self.words[i as usize]).collect();
                    let flow = f(&words);
                    path.pop();
                    if flow.is_break() {
                        return Ok(flow);
                    }
                }
                continue;
            }
            if covered == self.full {
                continue; // the box was finished before the last word
            }
            let (lo, hi) = self.finish(covered, last, left as u8 - 1)?.envelope[rest.0 as usize];
            if (lo..=hi).contains(&rest.1) {
                path.push(i);
                let flow = self.walk(Some((covered, last)), left - 1, rest, path, f)?;
                path.pop();
                if flow.is_break() {
                    return Ok(flow);
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

impl Solver {
    /// How many words may come next: those starting with `first`, or all.
    fn next_count(&self, first: Option<u8>) -> usize {
        first.map_or(self.words.len(), |l| self.by_first[l as usize].len())
    }

    /// The `n`th word that may come next (see [`Solver::next_count`]).
    fn next_word(&self, first: Option<u8>, n: usize) -> u32 {
        first.map_or(n as u32, |l| self.by_first[l as usize][n])
    }

    /// Every solution of `left` more words from `at`, a-z (the order the
    /// walk visits them in), with its uncommon words and letters so far
    /// added to `acc`. Enters a word only when the rest can finish.
    fn gather(
        &mut self,
        at: Option<(u32, u8)>,
        left: usize,
        acc: (u8, u16),
        path: &mut Vec<u32>,
        found: &mut Vec<(u8, u16, Vec<u32>)>,
    ) -> Result<()> {
        let (mask, first) = at.map_or((0, None), |(mask, letter)| (mask, Some(letter)));
        for n in 0..self.next_count(first) {
            let i = self.next_word(first, n);
            // Copied out: `finish` below borrows the solver mutably.
            let w = &self.words[i as usize];
            let (covered, last, uncommon) = (mask | w.mask, w.last, (!w.common) as u8);
            let len = w.word.chars().count().min(u16::MAX as usize) as u16;
            if left > 1 && (covered == self.full || self.finish(covered, last, left as u8 - 1)?.count.get() == 0) {
                continue;
            }
            if left == 1 && covered != self.full {
                continue;
            }
            let acc = (acc.0 + uncommon, acc.1.saturating_add(len));
            path.push(i);
            if left == 1 {
                found.push((acc.0, acc.1, path.clone()));
            } else {
                self.gather(Some((covered, last)), left - 1, acc, path, found)?;
            }
            path.pop();
        }
        Ok(())
    }
}

/// A level with at most this many solutions is listed by one walk and a
/// sort ([`Solver::gather`]), holding them all (at most 8 ids each).
const GATHER_MAX: u128 = 4096;

/// Why a played word is refused, or that it is accepted: the first that
/// applies, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fewer letters than the shortest playable word.
    TooShort,
    /// A letter that is not on the box.
    BadLetter,
    /// Two letters in a row from one side; `position` is the second's,
    /// counted from 1.
    SameSide {
        /// The letter's position in the word, from 1.
        position: usize,
    },
    /// It does not start with the last letter of the word accepted before.
    WrongStart,
    /// Not a word of the index (of its common list, with `common_only`).
    NotInList,
    /// Accepted.
    Ok,
}

impl Verdict {
    /// The verdict's name in JSON: `too_short`, `bad_letter`, `same_side`,
    /// `wrong_start`, `not_in_list`, `ok`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::TooShort => "too_short",
            Verdict::BadLetter => "bad_letter",
            Verdict::SameSide { .. } => "same_side",
            Verdict::WrongStart => "wrong_start",
            Verdict::NotInList => "not_in_list",
            Verdict::Ok => "ok",
        }
    }
}

/// A Letter Boxed game as played: each word's verdict and where it leaves
/// the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// Each word as typed (lowercased, normalised) and its verdict.
    pub words: Vec<(String, Verdict)>,
    /// The box's letters the accepted words used, in box order.
    pub used: String,
    /// The box's letters still to use, in box order.
    pub left: String,
    /// Accepted words.
    pub played: usize,
    /// The fewest words that solve the box (up to [`MAX_WORDS_LIMIT`]);
    /// `None` when no solution is that short.
    pub par: Option<usize>,
    /// Single words that would finish the box from the last accepted word
    /// (from any letter before the first word).
    pub finishes: u128,
}

impl Play {
    /// True when every letter of the box is used.
    pub fn solved(&self) -> bool {
        self.left.is_empty()
    }
}

/// Checks the player's words in order: a [`Verdict`] each (only accepted
/// words count for the next), the letters used and left, par, and the
/// one-word finishes left.
pub fn check<D: AsRef<[u8]>>(
    index: &Index<D>,
    letter_box: &LetterBox,
    words: &[impl AsRef<str>],
    opts: &SolveOptions,
) -> Result<Play> {
    let alphabet = index.alphabet();
    let mut search = Solver::new(index, letter_box, &SolveOptions { max_words: MAX_WORDS_LIMIT, ..*opts })?;
    let common = index.common()?;
    let side = |b: u8| letter_box.side_of.iter().find(|&&(l, _)| l == b).map(|&(_, s)| s);
    let bit = |b: u8| letter_box.letters.iter().position(|&l| l == b).map(|i| 1u32 << i);
    let (mut used, mut last, mut played, mut out) = (0u32, None::<u8>, 0, Vec::new());
    for typed in words {
        let typed = typed.as_ref();
        let codes = alphabet.parse_word(typed, "word").ok();
        let shown = codes.as_ref().map_or_else(|| typed.to_lowercase(), |c| alphabet.word_string(c.clone()));
        let verdict = match &codes {
            _ if shown.chars().count() < opts.min_len.max(1) => Verdict::TooShort,
            None => Verdict::BadLetter,
            Some(c) if c.iter().any(|&b| side(b).is_none()) => Verdict::BadLetter,
            Some(c) => {
                if let Some(i) = c.windows(2).position(|p| side(p[0]) == side(p[1])) {
                    Verdict::SameSide { position: i + 2 }
                } else if last.is_some_and(|l| c.first() != Some(&l)) {
                    Verdict::WrongStart
                } else {
                    match index.word_id(c)? {
                        Some(id) if !opts.common_only || common.is_common(id) => Verdict::Ok,
                        _ => Verdict::NotInList,
                    }
                }
            }
        };
        if verdict == Verdict::Ok {
            let c = codes.as_deref().unwrap_or_default();
            used |= c.iter().filter_map(|&b| bit(b)).fold(0, |m, b| m | b);
            last = c.last().copied();
            played += 1;
        }
        out.push((shown, verdict));
    }
    // The box's letters in mask, side by side as typed.
    let letters_of = |mask: u32| -> String {
        let on = |ch: char| alphabet.code_of(ch).and_then(bit).is_some_and(|m| mask & m != 0);
        letter_box.sides.iter().flat_map(|side| side.chars()).filter(|&ch| on(ch)).collect()
    };
    let full = (0..letter_box.letters.len()).fold(0u32, |m, i| m | 1 << i);
    let finishes = search
        .playable()
        .iter()
        .filter(|w| last.is_none_or(|l| letter_box.letters.get(w.first as usize) == Some(&l)))
        .filter(|w| used | w.mask == full)
        .count() as u128;
    // Par: the fewest words of any solution, in one memoised search; a
    // box too large to search has none rather than an error.
    let mut par = None;
    for k in 1..=MAX_WORDS_LIMIT {
        match search.count(k) {
            Ok(0) => {}
            Ok(_) => {
                par = Some(k);
                break;
            }
            Err(e) if matches!(e.kind(), ErrorKind::Limit(_)) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(Play { words: out, used: letters_of(used), left: letters_of(full & !used), played, par, finishes })
}

fn too_many() -> Error {
    Error::new(ErrorKind::Limit("the box has more than 2^128 solutions to count; allow fewer words".into()))
}

fn too_large(what: String) -> Error {
    Error::new(ErrorKind::Limit(format!(
        "the box is too large to search ({what}); allow fewer words, or use fewer or larger sides"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn solves_a_small_box_in_order() {
        let idx = crate::testutil::index("becadf\nbecaf\nfad\nfade\nebc\ncab\n", Some("fad\nebc\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let playable: Vec<String> = playable_words(&idx, &b, 3).unwrap().into_iter().map(|p| p.word).collect();
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
    fn gathering_and_walking_by_envelope_list_the_same_order() {
        let list = "becadf\nbecaf\nfad\nfade\nebc\ncab\nfab\nbed\ndeaf\nface\ncafe\nfeed\nbade\ndecaf\n";
        let idx = crate::testutil::index(list, Some("fad\nebc\nface\n"));
        let b = LetterBox::parse(idx.alphabet(), &["ab", "cd", "ef"]).unwrap();
        let opts = SolveOptions { max_words: 4, min_len: 3, limit: 0, common_only: false };
        let listed = |gather_max: u128| {
            let mut solver = Solver::new(&idx, &b, &opts).unwrap();
            solver.gather_max = gather_max;
            let mut out: Vec<Vec<String>> = Vec::new();
            let _ = solver
                .each_solution(|words| {
                    out.push(words.iter().map(|w| w.word.clone()).collect());
                    ControlFlow::Continue(())
                })
                .unwrap();
            out
        };
        let gathered = listed(u128::MAX);
        assert!(gathered.len() > 10, "{}", gathered.len());
        assert_eq!(gathered, listed(0));
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
        let list: String = (0..4000)
            .map(|_| (0..3 + rng.below(6)).map(|_| (b'a' + rng.below(20) as u8) as char).collect::<String>() + "\n")
            .collect();
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
