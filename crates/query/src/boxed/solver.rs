//! The search over a box's playable words: exact counts by memoised
//! states, and solutions listed in order in bounded memory.

use std::ops::ControlFlow;

use super::subsets::{sum_over_supersets, three_words, CountClass, SubsetCounts};
use super::{playable_words, LetterBox, Playable, PlayableWords, SolveOptions, Word, MAX_BOX_LETTERS, MAX_WORDS_LIMIT};
use crate::error::{Error, ErrorKind, Result};
use crate::fasthash::IntMap;
use crate::format::SectionId;
use crate::index::Index;

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
/// On a box of up to 12 letters, counts of 3 words and more come from
/// inclusion and exclusion over its sets of letters instead, at a cost the
/// box fixes (see `subsets`).
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
    words: PlayableWords,
    /// The box's letters.
    letters: usize,
    full: u32,
    max_words: usize,
    /// Where the words of each first letter start, a-z (the words are
    /// a-z, so each letter's are one run), and where the last ends.
    first_starts: Vec<u32>,
    /// The words' letters, side by side: a last word is found by a scan
    /// of these alone.
    masks: Vec<u32>,
    /// Word classes by first letter, with commonness and lengths: made
    /// when a level first needs the envelopes ([`Solver::start`]); a
    /// level of few solutions is gathered without them.
    classes: Vec<Vec<Class>>,
    /// The same for counting alone, which ignores commonness and lengths:
    /// (last letter, letters, how many letters, words), widest first;
    /// made when a count of 3 words or more first needs them.
    count_classes: Vec<Vec<CountClass>>,
    /// Ways to finish per state, without the envelopes: most questions
    /// (how many solutions, is a level empty) need only these.
    counts: CountMemo,
    /// On a box of up to 12 letters, per first letter (built when first
    /// needed), for every set of the other letters ([`without`]), how
    /// many words starting with it cover them all: the last word's count
    /// in one load, not a scan.
    last_words: Vec<Vec<u32>>,
    /// On a box of up to 12 letters, per first letter (made when first
    /// needed, see [`Solver::by_mask`]), its words by their set of the
    /// other letters: a last word that must cover most of the box is
    /// found in the few sets that hold those letters, not by a scan of
    /// every word.
    by_mask: Vec<(Vec<u32>, Vec<u32>)>,
    /// The last words found for one state, reused.
    last_scratch: Vec<u32>,
    /// The first words of the 2-word solutions, a-z, noted as they are
    /// counted (from every first letter's count, in a-z order), so that
    /// listing them walks these alone, not every word again (on a list of
    /// 10 million words, 1,000-odd of 16,520); `None` past
    /// [`GATHER_MAX`] of them, when the level is not gathered anyway.
    pair_firsts: Option<Vec<u32>>,
    /// The first letters whose 2-word counts noted their first words.
    pair_letters: usize,
    /// How many words to scan a set of [`Solver::by_mask`] must save
    /// to be read instead (the tests set 0: always).
    pub(super) scan_per_set: usize,
    /// Per first letter, the words scanned so far for a last word, and
    /// how many make building its table worth it (2^letters x letters /
    /// 4: a scan reads four words' letters an instruction; the tests
    /// lower it).
    scanned: Vec<usize>,
    scan_before_table: usize,
    memo: IntMap<u64, Info>,
    /// Whether counts of 3 words and more on a box of up to 12 letters
    /// come from [`subsets`](super::subsets) (the tests turn it off), and
    /// its chains for 4 words and more, made when first needed.
    without_search: bool,
    by_subsets: Option<SubsetCounts>,
    steps: u64,
    /// The most letters any word covers: a state that needs more than its
    /// words left can cover finishes no way, found without a scan.
    widest: u32,
    /// Levels with at most this many solutions are gathered and sorted
    /// ([`GATHER_MAX`]; the tests lower it to check the two ways agree).
    pub(super) gather_max: u128,
}

/// Words alike to counting: same first letter (the list they are in),
/// last letter, letters and commonness.
#[derive(Clone, Copy, Debug)]
struct Class {
    last: u8,
    mask: u32,
    uncommon: u8,
    /// At most the playable words ([`MAX_PLAYABLE`](super::MAX_PLAYABLE)).
    count: u32,
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
            words.retain_common();
        }
        let letters = letter_box.letters.len();
        let first_starts = first_starts(words.records(), letters)?;
        let masks = words.records().iter().map(|w| w.mask).collect();
        let widest = words.records().iter().map(|w| w.mask.count_ones()).max().unwrap_or(0);
        let full = if letters == 32 { u32::MAX } else { (1u32 << letters) - 1 };
        let gather_max = GATHER_MAX;
        Ok(Solver {
            words,
            letters,
            full,
            max_words,
            first_starts,
            masks,
            classes: Vec::new(),
            count_classes: Vec::new(),
            counts: CountMemo::new(letters),
            last_words: vec![Vec::new(); letters],
            by_mask: vec![(Vec::new(), Vec::new()); letters],
            last_scratch: Vec::new(),
            pair_firsts: Some(Vec::new()),
            pair_letters: 0,
            scan_per_set: SCAN_PER_SET,
            scanned: vec![0; letters],
            scan_before_table: (letters << letters) / 4,
            memo: IntMap::default(),
            without_search: true,
            by_subsets: None,
            steps: 0,
            widest,
            gather_max,
        })
    }

    /// The playable words, a-z.
    pub fn playable(&self) -> &PlayableWords {
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
        if k >= 3 && self.counts.is_flat() && self.without_search {
            self.make_count_classes();
            // See `subsets`: 3 words through the middle word, more by the
            // chains within every set of letters (which, made to count 4
            // words, count 3 on the way).
            let middle = k == 3 && self.max_words == 3 && self.by_subsets.is_none();
            let middle = if middle { three_words(&self.count_classes) } else { None };
            let (classes, ahead) = (&self.count_classes, self.max_words);
            if let Some(n) =
                middle.or_else(|| self.by_subsets.get_or_insert_with(|| SubsetCounts::new(classes)).count(k, ahead))
            {
                return Ok(n);
            }
        }
        let mut total = 0u128;
        for first in 0..self.letters {
            total = total.checked_add(self.ways(0, first as u8, k as u8)?).ok_or_else(too_many)?;
        }
        Ok(total)
    }

    /// The number of ways to finish from a state with exactly `j` more
    /// words, the box covered on the last one and not before: what
    /// [`Solver::finish`] counts, without the envelopes, on merged classes
    /// and a flat memo for a box of up to 12 letters.
    fn ways(&mut self, mask: u32, first: u8, j: u8) -> Result<u128> {
        if j == 1 && self.counts.is_flat() {
            return self.last_word_flat(mask, first);
        }
        let missing = (self.full & !mask).count_ones();
        if missing > j as u32 * self.widest {
            return Ok(0);
        }
        if let Some(n) = self.counts.get(mask, first, j) {
            return Ok(n);
        }
        if self.counts.len() >= MAX_STATES {
            return Err(too_large(format!("over {} search states", MAX_STATES)));
        }
        let total = match j {
            1 => self.last_words_scanned(mask, first)?,
            2 => self.ways_through_words(mask, first)?,
            _ => self.ways_through_classes(mask, first, j, missing)?,
        };
        self.counts.insert(mask, first, j, total)?;
        Ok(total)
    }

    /// One word to go from `mask` on a box of up to 12 letters: its
    /// table, or until the table is worth making (a pass a letter over
    /// 2^letters counts, made once scanning the words has cost as much),
    /// a scan, which costs less than keeping its count in the memo.
    #[inline]
    fn last_word_flat(&mut self, mask: u32, first: u8) -> Result<u128> {
        let at = first as usize;
        if self.last_words[at].is_empty() && self.scanned[at] >= self.scan_before_table {
            self.build_last_words(first)?;
        }
        match self.last_words[at].get(without(self.full & !mask, first) as usize) {
            Some(&n) => Ok(n as u128),
            None => self.last_words_scanned(mask, first),
        }
    }

    /// One word to go from `mask`: the words of `first` that cover what
    /// it leaves, by a scan of their letters side by side (a loop the
    /// compiler turns into vector code: on a list of 10 million words,
    /// 1,400 words' letters in some 0.3 us).
    fn last_words_scanned(&mut self, mask: u32, first: u8) -> Result<u128> {
        let range = self.next_words(Some(first));
        self.scanned[first as usize] += range.len();
        self.steps += 1 + range.len() as u64 / 8;
        if self.steps > MAX_STEPS {
            return Err(too_large(format!("over {} search steps", MAX_STEPS)));
        }
        let need = self.full & !mask;
        let masks = &self.masks[range.start as usize..range.end as usize];
        // Summed as u32s, four to a vector (as usizes, two): a letter's
        // words are at most MAX_PLAYABLE.
        Ok(masks.iter().map(|&m| (m & need == need) as u32).sum::<u32>() as u128)
    }

    /// Two words to go from `mask`: each word of `first` that leaves the
    /// box open, then a last word. Over the words, not their classes:
    /// merging them cost a sort (on a list of 10 million words, 16,520
    /// words made 11,444 classes in 0.28 ms) and saved little, and a
    /// search of two words needs no other use of the classes.
    fn ways_through_words(&mut self, mask: u32, first: u8) -> Result<u128> {
        let mut total = 0u128;
        // From the start: the first words of 2-word solutions, noted.
        let note = mask == 0 && self.pair_firsts.is_some();
        for i in self.next_words(Some(first)) {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(too_large(format!("over {} search steps", MAX_STEPS)));
            }
            let w = self.record(i);
            let covered = mask | w.mask;
            if covered == self.full {
                continue;
            }
            let rest = if self.counts.is_flat() {
                self.last_word_flat(covered, w.last)?
            } else {
                match self.counts.get(covered, w.last, 1) {
                    Some(n) => n,
                    None => self.ways(covered, w.last, 1)?,
                }
            };
            total = total.checked_add(rest).ok_or_else(too_many)?;
            if let (true, true, Some(firsts)) = (note, rest > 0, self.pair_firsts.as_mut()) {
                firsts.push(i);
                if firsts.len() as u128 > self.gather_max {
                    self.pair_firsts = None;
                }
            }
        }
        if note && self.pair_firsts.is_some() {
            self.pair_letters += 1;
        }
        Ok(total)
    }

    /// Three words or more to go from `mask` (`missing` letters left):
    /// each class of words of `first` that leaves the box open, then the
    /// rest, widest classes first.
    fn ways_through_classes(&mut self, mask: u32, first: u8, j: u8, missing: u32) -> Result<u128> {
        self.make_count_classes();
        let mut total = 0u128;
        for c in 0..self.count_classes[first as usize].len() {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(too_large(format!("over {} search steps", MAX_STEPS)));
            }
            let (last, class_mask, width, count) = self.count_classes[first as usize][c];
            if width + (j as u32 - 1) * self.widest < missing {
                break; // this class and all after it are too narrow
            }
            let covered = mask | class_mask;
            if covered == self.full {
                continue;
            }
            let rest = match self.counts.get(covered, last, j - 1) {
                Some(n) => n,
                None => self.ways(covered, last, j - 1)?,
            };
            if rest != 0 {
                total = total.checked_add(times(u128::from(count), rest)?).ok_or_else(too_many)?;
            }
        }
        Ok(total)
    }

    /// [`Solver::count_classes`], made when first needed (counts of 3
    /// words and more).
    fn make_count_classes(&mut self) {
        if self.count_classes.is_empty() {
            self.count_classes = count_classes_of(self.words.records(), self.letters);
        }
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
    pub fn each_solution(&mut self, mut f: impl FnMut(&[Word<'_>]) -> ControlFlow<()>) -> Result<ControlFlow<()>> {
        let mut path: Vec<u32> = Vec::with_capacity(self.max_words);
        for k in 1..=self.max_words {
            let count = self.count(k)?;
            if count == 0 {
                continue;
            }
            if count <= self.gather_max {
                // Few solutions: one walk gathers them all, a-z, and a
                // stable sort puts them in order; the walks by envelope
                // below pass over the words once per (uncommon, letters)
                // pair (about 40 for RIU PGH LCS YAO).
                let mut found = Gathered::default();
                self.gather(None, k, (0, 0), &mut path, &mut found)?;
                found.solutions.sort_by_key(|&(uncommon, letters, _)| (uncommon, letters));
                let mut words: Vec<Word<'_>> = Vec::with_capacity(k);
                for &(_, _, at) in &found.solutions {
                    words.clear();
                    words.extend(found.words[at as usize..][..k].iter().map(|&i| self.shown(i)));
                    if f(&words).is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                continue;
            }
            let start = self.start(k)?;
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
        if self.classes.is_empty() {
            self.classes = classes_of(self.words.records(), self.letters);
        }
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
        let key = CountMemo::key(mask, first, j);
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
                    info.count.add(u128::from(class.count))?;
                    info.widen(u, (class.min_len, class.max_len));
                }
            } else if covered != self.full {
                let rest = self.finish(covered, class.last, j - 1)?;
                if rest.count.get() == 0 {
                    continue;
                }
                info.count.add(u128::from(class.count).checked_mul(rest.count.get()).ok_or_else(too_many)?)?;
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
        f: &mut impl FnMut(&[Word<'_>]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>> {
        let (mask, first) = at.map_or((0, None), |(mask, letter)| (mask, Some(letter)));
        for i in self.next_words(first) {
            let w = self.record(i);
            let (u, len) = ((!w.common) as u8, u16::from(w.letters));
            if u > want.0 || len > want.1 {
                continue;
            }
            let (rest, covered, last) = ((want.0 - u, want.1 - len), mask | w.mask, w.last);
            if left == 1 {
                if covered == self.full && rest == (0, 0) {
                    path.push(i);
                    let words: Vec<Word<'_>> = path.iter().map(|&i| self.shown(i)).collect();
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

/// The solutions [`Solver::gather`] finds: each one's uncommon words,
/// letters and where its words start in `words`, which holds every
/// solution's word indices back to back (one allocation for them all,
/// where a `Vec` a solution cost an allocation each).
#[derive(Default)]
struct Gathered {
    solutions: Vec<(u8, u16, u32)>,
    words: Vec<u32>,
}

impl Gathered {
    fn push(&mut self, (uncommon, letters): (u8, u16), path: &[u32]) {
        // Far fewer than 2^32 indices: a level is gathered only when it
        // has at most `gather_max` (4,096) solutions of at most 8 words.
        self.solutions.push((uncommon, letters, self.words.len() as u32));
        self.words.extend_from_slice(path);
    }
}

impl Solver {
    /// Playable word `i`'s record (an index the solver made).
    #[inline]
    fn record(&self, i: u32) -> Playable {
        self.words.records()[i as usize]
    }

    /// Playable word `i` as shown.
    fn shown(&self, i: u32) -> Word<'_> {
        self.words.shown(&self.words.records()[i as usize])
    }

    /// The words that may come next: those starting with `first`, or all.
    fn next_words(&self, first: Option<u8>) -> std::ops::Range<u32> {
        match first {
            Some(l) => self.first_starts[l as usize]..self.first_starts[l as usize + 1],
            None => 0..self.words.len() as u32,
        }
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
        found: &mut Gathered,
    ) -> Result<()> {
        let (mask, first) = at.map_or((0, None), |(mask, letter)| (mask, Some(letter)));
        if let (1, Some(letter)) = (left, first) {
            // The last word: those that cover what is left, found in the
            // column of letters, or, when the sets that hold what is left
            // are far fewer than the words to scan, in those sets' words.
            let need = self.full & !mask;
            let letters = self.letters;
            let range = self.next_words(Some(letter));
            let words_to_scan = range.len();
            let mut last = std::mem::take(&mut self.last_scratch);
            last.clear();
            // How many there are, when the last word's table says: the
            // search stops once it has found them all.
            let all = self.last_words[letter as usize]
                .get(without(need, letter) as usize)
                .map_or(usize::MAX, |&n| n as usize);
            // Only on a flat box (up to 12 letters): a wide box's sets
            // could pass a 32-bit usize.
            let by_sets = self.counts.is_flat() && {
                let sets = 1usize << (letters as u32 - need.count_ones());
                sets.saturating_mul(self.scan_per_set) < words_to_scan
            };
            if by_sets {
                // Every set of the letters but the first that holds
                // `need`, as `need` plus a subset of the letters it
                // leaves (the first letter is in every word).
                let (need, rest) = (without(need, letter), without(self.full & !need, letter));
                let (starts, ids) = self.by_mask(letter);
                let mut sub = 0u32;
                loop {
                    let set = (need | sub) as usize;
                    last.extend_from_slice(&ids[starts[set] as usize..starts[set + 1] as usize]);
                    if sub == rest || last.len() >= all {
                        break;
                    }
                    sub = sub.wrapping_sub(rest) & rest;
                }
                last.sort_unstable(); // a-z, as the scan finds them
            } else {
                // Sixteen words' letters at a time into a mask of those
                // that cover `need`, with no branch a word (vector code).
                let masks = &self.masks[range.start as usize..range.end as usize];
                for (chunk, at) in masks.chunks(16).zip((range.start..).step_by(16)) {
                    let mut fits =
                        chunk.iter().enumerate().fold(0u32, |fits, (i, &m)| fits | ((m & need == need) as u32) << i);
                    while fits != 0 {
                        last.push(at + fits.trailing_zeros());
                        fits &= fits - 1;
                    }
                    if last.len() >= all {
                        break;
                    }
                }
            }
            for &i in &last {
                let w = self.record(i);
                path.push(i);
                found.push((acc.0 + (!w.common) as u8, acc.1.saturating_add(u16::from(w.letters))), path);
                path.pop();
            }
            self.last_scratch = last;
            return Ok(());
        }
        // The first words of 2-word solutions, when counting noted them
        // for every first letter; else every word.
        let noted = match (at, left, &mut self.pair_firsts) {
            (None, 2, Some(firsts)) if self.pair_letters == self.letters => Some(std::mem::take(firsts)),
            _ => None,
        };
        let (mut all, mut listed) = (self.next_words(first), noted.iter().flatten().copied());
        let firsts: &mut dyn Iterator<Item = u32> = if noted.is_some() { &mut listed } else { &mut all };
        let gathered = self.gather_from(firsts, mask, left, acc, path, found);
        if let Some(firsts) = noted {
            self.pair_firsts = Some(firsts);
        }
        gathered
    }

    /// [`Solver::gather`] past the last word, over the words `firsts`
    /// that may come next.
    fn gather_from(
        &mut self,
        firsts: &mut dyn Iterator<Item = u32>,
        mask: u32,
        left: usize,
        acc: (u8, u16),
        path: &mut Vec<u32>,
        found: &mut Gathered,
    ) -> Result<()> {
        for i in firsts {
            // Copied out: `ways` below borrows the solver mutably.
            let w = self.record(i);
            let (covered, last, uncommon) = (mask | w.mask, w.last, (!w.common) as u8);
            let len = u16::from(w.letters);
            if left > 1 && (covered == self.full || self.ways(covered, last, left as u8 - 1)? == 0) {
                continue;
            }
            if left == 1 && covered != self.full {
                continue;
            }
            let acc = (acc.0 + uncommon, acc.1.saturating_add(len));
            path.push(i);
            if left == 1 {
                found.push(acc, path);
            } else {
                self.gather(Some((covered, last)), left - 1, acc, path, found)?;
            }
            path.pop();
        }
        Ok(())
    }
}

impl Solver {
    /// The words starting with `first` by their set of the other letters
    /// ([`without`]), made when first asked: where each set's words start
    /// (2^(letters - 1) + 1 offsets) and the word indices, a set's a-z.
    fn by_mask(&mut self, first: u8) -> (&[u32], &[u32]) {
        let at = first as usize;
        if self.by_mask[at].0.is_empty() {
            let sets = 1usize << (self.letters - 1);
            let range = self.next_words(Some(first));
            let masks = &self.masks[range.start as usize..range.end as usize];
            // Counted a place up, summed into where each set starts, then
            // each set's words placed at its start, which moves it on to
            // where the next set starts; a last shift puts every start back.
            let mut starts = vec![0u32; sets + 1];
            for &m in masks {
                starts[without(m, first) as usize + 1] += 1;
            }
            for set in 0..sets {
                starts[set + 1] += starts[set];
            }
            let mut ids = vec![0u32; range.len()];
            for (i, &m) in range.zip(masks) {
                let next = &mut starts[without(m, first) as usize];
                ids[*next as usize] = i;
                *next += 1;
            }
            starts.copy_within(..sets, 1);
            starts[0] = 0;
            self.by_mask[at] = (starts, ids);
        }
        (&self.by_mask[at].0, &self.by_mask[at].1)
    }

    /// [`Solver::last_words`] of words starting with `first`: a table of
    /// 2^(letters - 1) counts, each the words whose letters include its
    /// index's (a set of the other letters, [`without`]; a sum over
    /// supersets, one pass a letter).
    fn build_last_words(&mut self, first: u8) -> Result<()> {
        let letters = self.letters;
        self.steps += (letters << letters) as u64 / 2;
        if self.steps > MAX_STEPS {
            return Err(too_large(format!("over {} search steps", MAX_STEPS)));
        }
        let mut table = vec![0u32; 1 << (letters - 1)];
        let range = self.next_words(Some(first));
        for &mask in &self.masks[range.start as usize..range.end as usize] {
            table[without(mask, first) as usize] += 1;
        }
        sum_over_supersets(&mut table);
        self.last_words[first as usize] = table;
        Ok(())
    }
}

/// `set` without letter `letter`, the letters above it moved down a
/// place: a set of the other letters, in half the room. Tables of the
/// words that start with a letter are over these (every such word holds
/// its first letter): on a list of 10 million words, `boxed solve riu
/// pgh lcs yao` faulted in 52 fewer pages (427 to 375) and took 0.98x
/// and 0.93x the time, in two sets of 41 alternating runs.
#[inline]
fn without(set: u32, letter: u8) -> u32 {
    let below = (1u32 << letter) - 1;
    (set & below) | ((set >> 1) & !below)
}

/// Where the words of each first letter start among `words`, which are
/// a-z, so each letter's are one run; the last value is where the last
/// run ends. Words out of that order (an index whose ids do not follow
/// its words) are an error, not a wrong answer.
fn first_starts(words: &[Playable], letters: usize) -> Result<Vec<u32>> {
    let mut starts = vec![0u32; letters + 1];
    let mut at = 0;
    for (i, w) in words.iter().enumerate() {
        let first = w.first as usize;
        if first < at {
            return Err(SectionId::Words.corrupt("has word ids out of the words' order"));
        }
        // Every letter up to this word's first starts here at the latest.
        for start in &mut starts[at + 1..=first] {
            *start = i as u32;
        }
        at = first;
    }
    for start in &mut starts[at + 1..] {
        *start = words.len() as u32;
    }
    Ok(starts)
}

/// The words' classes by first letter, with commonness and lengths,
/// widest first (a scan stops at the first class too narrow to help):
/// from one sort of a key a word. A hash map of classes and lists grown
/// a word at a time touched 2 MB of fresh memory for the 16,520 playable
/// words of a box on a list of 10 million words, each 4 KiB page a fault
/// of some 2 us.
fn classes_of(words: &[Playable], letters: usize) -> Vec<Vec<Class>> {
    // First letter (5 bits), 32 less its width (6), letters (32), last
    // letter (5), uncommon (1), length (8): 57 bits, so that a sort
    // groups each class, widest first, its lengths ascending.
    const LEN_BITS: u32 = 8;
    let mut keys: Vec<u64> = words
        .iter()
        .map(|w| class_key(w) << (LEN_BITS + 1) | ((!w.common) as u64) << LEN_BITS | w.letters as u64)
        .collect();
    sort_keys(&mut keys);
    let same_class = |a: &u64, b: &u64| a >> LEN_BITS == b >> LEN_BITS;
    // Each list sized first: grown a class at a time, their copies were
    // 50 page faults of a box on a list of 10 million words.
    let mut classes: Vec<Vec<Class>> =
        run_sizes(&keys, same_class, LEN_BITS + 1, letters).iter().map(|&n| Vec::with_capacity(n)).collect();
    for run in keys.chunk_by(same_class) {
        let (key, len) = (run[0], |k: u64| u16::from(k as u8));
        let (first, last, mask) = class_of_key(key >> (LEN_BITS + 1));
        let uncommon = (key >> LEN_BITS & 1) as u8;
        let (count, max_len) = (run.len() as u32, len(run[run.len() - 1]));
        classes[first].push(Class { last, mask, uncommon, count, min_len: len(key), max_len });
    }
    classes
}

/// The words' classes for counting alone (commonness and lengths
/// ignored) by first letter, widest first, from one sort of a key a word.
fn count_classes_of(words: &[Playable], letters: usize) -> Vec<Vec<CountClass>> {
    let mut keys: Vec<u64> = words.iter().map(class_key).collect();
    sort_keys(&mut keys);
    let same = |a: &u64, b: &u64| a == b;
    let mut classes: Vec<Vec<CountClass>> =
        run_sizes(&keys, same, 0, letters).iter().map(|&n| Vec::with_capacity(n)).collect();
    for run in keys.chunk_by(same) {
        let (first, last, mask) = class_of_key(run[0]);
        classes[first].push((last, mask, mask.count_ones(), run.len() as u32));
    }
    classes
}

/// Sorts keys of up to 64 bits by two radix sorts of 32 (stable, so
/// the second, by the high half, keeps the first's order among equals):
/// by comparison, the 16,520 keys of a box on a list of 10 million
/// words took 0.25 ms.
fn sort_keys(keys: &mut Vec<u64>) {
    crate::ids::sort_by_id(keys, |&k| k as u32);
    crate::ids::sort_by_id(keys, |&k| (k >> 32) as u32);
}

/// A word's class to counting as a key that sorts by first letter, then
/// widest first: first letter (5 bits), 32 less its width (6), letters
/// (32), last letter (5).
fn class_key(w: &Playable) -> u64 {
    const _: () = assert!(MAX_BOX_LETTERS <= 32);
    let narrow = 32 - w.mask.count_ones() as u64;
    (w.first as u64) << 43 | narrow << 37 | (w.mask as u64) << 5 | w.last as u64
}

/// (first letter, last letter, letters) of a [`class_key`].
fn class_of_key(key: u64) -> (usize, u8, u32) {
    ((key >> 43) as usize, (key & 0x1f) as u8, (key >> 5) as u32)
}

/// How many runs of `same` keys each first letter has, in sorted `keys`
/// whose [`class_key`] is above their lowest `shift` bits.
fn run_sizes(keys: &[u64], same: impl FnMut(&u64, &u64) -> bool, shift: u32, letters: usize) -> Vec<usize> {
    let mut sizes = vec![0; letters];
    for run in keys.chunk_by(same) {
        sizes[class_of_key(run[0] >> shift).0] += 1;
    }
    sizes
}

/// [`Solver::ways`]'s memo: a map while it is small, then, for a box of
/// up to [`FLAT_LETTERS`] letters, a flat table where every state has its
/// place (no hashing; at most 8 x 12 x 4096 counts, 6 MB, a table a word
/// count, zeroed pages the search touches as it goes). A small search
/// never pays for the table. In it a count is stored plus one, so zero
/// is "not yet counted".
struct CountMemo {
    letters: usize,
    flat: Vec<Vec<u128>>,
    map: IntMap<u64, u128>,
    len: usize,
    /// Whether the box is small enough for the flat table (the tests
    /// turn it off to compare), and whether it is in use.
    use_flat: bool,
    in_flat: bool,
    /// [`FLAT_AFTER`] (the tests lower it).
    flat_after: usize,
}

/// The most letters a box may have for [`CountMemo`]'s flat table.
const FLAT_LETTERS: usize = 12;

/// The states [`CountMemo`] keeps in its map before it moves to the table.
const FLAT_AFTER: usize = 4096;

/// The states [`CountMemo`]'s map has room for from the start: a box of
/// 12 letters keeps hundreds (RIU PGH LCS YAO: 917 on enable1, 635 on the
/// 10M list), and a map grown from empty rehashed its way up to them (a
/// two-word solve on enable1 8% slower in process).
const MAP_FIRST: usize = 1024;

impl CountMemo {
    fn new(letters: usize) -> CountMemo {
        let use_flat = letters <= FLAT_LETTERS;
        let flat_after = FLAT_AFTER;
        let map = IntMap::with_capacity_and_hasher(MAP_FIRST, Default::default());
        CountMemo { letters, flat: Vec::new(), map, len: 0, use_flat, in_flat: false, flat_after }
    }

    fn len(&self) -> usize {
        self.len
    }

    /// True when the box is small enough for tables of 2^letters values.
    fn is_flat(&self) -> bool {
        self.use_flat
    }

    /// A state as one integer (letters covered, next first letter, words
    /// left): the key of both searches' maps.
    fn key(mask: u32, first: u8, j: u8) -> u64 {
        mask as u64 | (first as u64) << 32 | (j as u64) << 40
    }

    #[inline]
    fn get(&self, mask: u32, first: u8, j: u8) -> Option<u128> {
        if self.in_flat {
            let stored = *self.flat.get(j as usize)?.get((first as usize) << self.letters | mask as usize)?;
            stored.checked_sub(1)
        } else {
            self.map.get(&CountMemo::key(mask, first, j)).copied()
        }
    }

    fn insert(&mut self, mask: u32, first: u8, j: u8, count: u128) -> Result<()> {
        self.len += 1;
        if !self.in_flat {
            self.map.insert(CountMemo::key(mask, first, j), count);
            if !(self.use_flat && self.map.len() >= self.flat_after) {
                return Ok(());
            }
            self.in_flat = true;
            for (key, count) in std::mem::take(&mut self.map) {
                self.insert_flat((key & 0xffff_ffff) as u32, (key >> 32) as u8, (key >> 40) as u8, count)?;
            }
            return Ok(());
        }
        self.insert_flat(mask, first, j, count)
    }

    fn insert_flat(&mut self, mask: u32, first: u8, j: u8, count: u128) -> Result<()> {
        if self.flat.len() <= j as usize {
            self.flat.resize_with(j as usize + 1, Vec::new);
        }
        let table = &mut self.flat[j as usize];
        if table.is_empty() {
            *table = vec![0; self.letters << self.letters];
        }
        table[(first as usize) << self.letters | mask as usize] = count.checked_add(1).ok_or_else(too_many)?;
        Ok(())
    }
}

/// A level with at most this many solutions is listed by one walk and a
/// sort ([`Solver::gather`]), holding them all (at most 8 ids each).
const GATHER_MAX: u128 = 4096;

/// See [`Solver::scan_per_set`]: a set's words cost a few loads, and its
/// table is made once for a first letter.
const SCAN_PER_SET: usize = 4;

/// `a x b`, an error past 2^128; counts mostly fit 64 bits, where the
/// product needs no check.
#[inline]
fn times(a: u128, b: u128) -> Result<u128> {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => Ok(a as u128 * b as u128),
        _ => a.checked_mul(b).ok_or_else(too_many),
    }
}

pub(super) fn too_many() -> Error {
    Error::new(ErrorKind::Limit("the box has more than 2^128 solutions to count; allow fewer words".into()))
}

pub(super) fn too_large(what: String) -> Error {
    Error::new(ErrorKind::Limit(format!(
        "the box is too large to search ({what}); allow fewer words, or use fewer or larger sides"
    )))
}

#[cfg(test)]
impl Solver {
    /// Every solution in order, as its words.
    pub(super) fn all_solutions(&mut self) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let listed = self.each_solution(|words| {
            out.push(words.iter().map(|w| w.word.to_string()).collect());
            ControlFlow::Continue(())
        });
        assert!(listed.is_ok(), "{listed:?}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxed::LetterBox;
    use crate::rng::SplitMix64;

    /// Each first letter's run starts where its first word is (or where
    /// the next letter's does, with none), and words out of order are an
    /// error.
    #[test]
    fn first_letters_start_their_runs() {
        let word = |first: u8| Playable { first, ..Playable::default() };
        let words: Vec<Playable> = [0, 0, 2, 2, 2, 3].into_iter().map(word).collect();
        assert_eq!(first_starts(&words, 5).unwrap(), [0, 2, 2, 5, 6, 6]);
        assert_eq!(first_starts(&[], 3).unwrap(), [0, 0, 0, 0]);
        assert_eq!(first_starts(&[word(4)], 5).unwrap(), [0, 0, 0, 0, 0, 1]);
        let out_of_order: Vec<Playable> = [1, 0].into_iter().map(word).collect();
        assert!(first_starts(&out_of_order, 2).unwrap_err().to_string().contains("out of the words' order"));
    }

    /// Last words found in the sets that hold what is left list the
    /// solutions the scan lists, in the same order, with the last words'
    /// counts from their tables (which stop the search of the sets once
    /// all are found) or not.
    #[test]
    fn last_words_by_sets_are_those_of_the_scan() {
        let mut rng = SplitMix64::new(31);
        let sides = ["riu", "pgh", "lcs", "yao"];
        let letters: Vec<Vec<u8>> = sides.iter().map(|s| s.bytes().collect()).collect();
        let mut list = String::new();
        for _ in 0..1000 {
            let mut side = rng.below(4) as usize;
            for _ in 0..3 + rng.below(8) {
                list.push(letters[side][rng.below(3) as usize] as char);
                side = (side + 1 + rng.below(3) as usize) % 4;
            }
            list.push('\n');
        }
        let index = crate::testutil::index(&list, None);
        let letter_box = LetterBox::parse(index.alphabet(), &sides).unwrap();
        for max_words in [2, 3] {
            let opts = SolveOptions { max_words, min_len: 3, limit: 0, common_only: false };
            let listed = |scan_per_set: usize, scan_before_table: usize| {
                let mut solver = Solver::new(&index, &letter_box, &opts).unwrap();
                (solver.scan_per_set, solver.scan_before_table) = (scan_per_set, scan_before_table);
                solver.gather_max = u128::MAX;
                solver.all_solutions()
            };
            let scanned = listed(usize::MAX, usize::MAX);
            assert!(scanned.len() > 50, "{max_words} words: {}", scanned.len());
            assert_eq!(listed(0, usize::MAX), scanned, "{max_words} words");
            assert_eq!(listed(0, 0), scanned, "{max_words} words, with the tables");
            assert_eq!(listed(usize::MAX, 0), scanned, "{max_words} words, scanned, with the tables");
        }
    }

    /// Counting alone (by subsets, the flat table with the last-word
    /// tables, or the map) gives the counts the search with envelopes
    /// gives, on boxes of 12 letters and of 15 (past the flat table and
    /// the subsets), common words and all.
    #[test]
    fn the_three_ways_of_counting_agree() {
        let mut rng = SplitMix64::new(30);
        for sides in [&["riu", "pgh", "lcs", "yao"][..], &["abc", "def", "ghi", "jkl", "mno"]] {
            let letters: Vec<Vec<u8>> = sides.iter().map(|s| s.bytes().collect()).collect();
            let mut list = String::new();
            let mut common = String::new();
            for n in 0..800 {
                // A walk over the sides, never the same side twice in a row.
                let mut side = rng.below(letters.len() as u64) as usize;
                for _ in 0..3 + rng.below(7) {
                    list.push(letters[side][rng.below(3) as usize] as char);
                    side = (side + 1 + rng.below(letters.len() as u64 - 1) as usize) % letters.len();
                }
                list.push('\n');
                if n % 7 == 0 {
                    common.push_str(list.lines().last().unwrap());
                    common.push('\n');
                }
            }
            let index = crate::testutil::index(&list, Some(&common));
            let letter_box = LetterBox::parse(index.alphabet(), sides).unwrap();
            for common_only in [false, true] {
                let opts = SolveOptions { max_words: 4, min_len: 3, limit: 0, common_only };
                let solver = || Solver::new(&index, &letter_box, &opts).unwrap();
                let (mut default, mut map, mut flat) = (solver(), solver(), solver());
                // The memoised search alone, past the counts by subsets.
                (map.without_search, flat.without_search) = (false, false);
                map.counts.use_flat = false;
                // The flat table and the last words' tables from the start.
                flat.counts.flat_after = 0;
                flat.scan_before_table = 0;
                let mut enveloped = solver();
                // At most 3 words: the third counted through the middle word,
                // then the fourth by subsets.
                let mut three = Solver::new(&index, &letter_box, &SolveOptions { max_words: 3, ..opts }).unwrap();
                for k in 1..=4 {
                    let want = enveloped.start(k).unwrap().count.get();
                    assert_eq!(three.count(k).unwrap(), want, "{sides:?} {k} words, 3 at most");
                    assert_eq!(default.count(k).unwrap(), want, "{sides:?} {k} words");
                    assert_eq!(map.count(k).unwrap(), want, "{sides:?} {k} words, map");
                    assert_eq!(flat.count(k).unwrap(), want, "{sides:?} {k} words, flat");
                }
                assert!(default.count(3).unwrap() > 0, "{sides:?}: the test needs solutions");
                assert_eq!((map.counts.in_flat, flat.counts.in_flat), (false, flat.counts.use_flat));
                assert_eq!(default.by_subsets.is_some(), default.counts.is_flat(), "{sides:?}: counted by subsets");
            }
        }
    }
}
