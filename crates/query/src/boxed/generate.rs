//! A random box: two words that use its letters, laid out on its sides.

use super::solver::too_large;
use super::{solve, Answer, LetterBox, SolveOptions, DEFAULT_MIN_LEN, MAX_BOX_LETTERS, MAX_PLAYABLE};
use std::ops::ControlFlow;

use crate::alphabet::Alphabet;
use crate::error::{Error, Result};
use crate::format::fst::Automaton;
use crate::format::SectionId;
use crate::index::Index;
use crate::rng::SplitMix64;

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
        if !words.key_of(id, &mut first)? || (opts.common_only && !common.is_common(id as u32)?) {
            continue;
        }
        let Some(set) = alphabet.set_of(&first) else { continue };
        if first.len() < DEFAULT_MIN_LEN || set.len() >= letters || first.windows(2).any(|w| w[0] == w[1]) {
            failed.no_first += 1;
            continue;
        }
        // Every second word that completes the letters, then one of them.
        let last = *first.last().expect("three letters or more");
        let completes =
            Completes { alphabet, first: last, base: set.0, base_letters: set.len(), total: letters as u32 };
        // Ids, not words: 4 bytes a candidate, the word read back once.
        let mut candidates: Vec<u64> = Vec::new();
        let mut add = |id: u64| {
            if opts.common_only && !common.is_common(id as u32)? {
                return Ok(());
            }
            if candidates.len() == MAX_PLAYABLE {
                let word = alphabet.word_string(first.clone());
                return Err(too_large(format!("more than {MAX_PLAYABLE} words complete {word}")));
            }
            candidates.push(id);
            Ok(())
        };
        if let Some(text) = index.word_text()? {
            // The words starting with that letter are a run of ids: read
            // in a pass over their text, not a walk of their FST paths.
            let mut failed = None;
            text.each_from(text.first_at_least(&[last])?, |id, word| {
                if word[0] != last {
                    return ControlFlow::Break(());
                }
                match completes.matches(word).then(|| add(id as u64)) {
                    Some(Err(e)) => {
                        failed = Some(e);
                        ControlFlow::Break(())
                    }
                    _ => ControlFlow::Continue(()),
                }
            })?;
            if let Some(e) = failed {
                return Err(e);
            }
        } else {
            let mut search = words.search(completes);
            while let Some((_, id)) = search.next()? {
                add(id)?;
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
    /// The letters in `base`, counted once: a count a word cost 34 of
    /// `boxed generate`'s 755 us where x86-64's baseline has no popcount
    /// instruction.
    base_letters: usize,
    total: u32,
}

impl Completes<'_> {
    /// True when the whole of `word` completes the letters (what the FST
    /// search finds, for a pass over the word text): the automaton's rules
    /// in one loop, the letter count checked once at the end (letters only
    /// grow).
    fn matches(&self, word: &[u8]) -> bool {
        // Its first letter is the base's last: it brings at most its
        // length less one new letters.
        let reach = self.base_letters + word.len().saturating_sub(1);
        if word.len() < DEFAULT_MIN_LEN || word[0] != self.first || reach < self.total as usize {
            return false;
        }
        // One pass: the letters, and no letter twice in a row.
        let (mut mask, mut last, mut twice) = (self.base, 0, false);
        for &b in word {
            let Some(i) = self.alphabet.index_of(b) else { return false };
            (mask, twice, last) = (mask | 1 << i, twice | (b == last), b);
        }
        !twice && mask.count_ones() == self.total
    }
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
pub(super) fn lay_out(
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
