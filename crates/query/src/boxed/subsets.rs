//! Letter Boxed counts without a search, for a box of up to 12 letters:
//! inclusion and exclusion over the box's sets of letters, at a cost the
//! box fixes (about 2^letters x letters^2 steps a level counted, and as
//! many again to sum the matrices), where the memoised search's grows
//! with the states its words reach.
//!
//! Chains of words, each starting with the letter the one before ended
//! on, whose letters cover the box are the chains within the whole box,
//! less those within the box without each letter, plus those without
//! each two letters, and so on. A solution of `k` words is such a chain
//! less one whose first `k - 1` words already covered the box (the game
//! ends on the word that covers it).

/// Per first letter, the words alike to counting: (last letter, letters,
/// how many letters, words). What [`super::Solver`] counts over.
pub(super) type Classes = [Vec<CountClass>];

/// One of [`Classes`]: (last letter, letters, how many letters, words).
pub(super) type CountClass = (u8, u32, u32, u32);

/// The number of 3-word solutions, through the middle word: for each
/// (first letter, last letter, letters) of it, the pairs of a word ending
/// on its first letter and one starting with its last that cover what it
/// leaves (by inclusion and exclusion over those letters), less the pairs
/// whose first word covers it alone. `None` when the terms would pass
/// [`MIDDLE_TERMS`] (narrow middle words on a wide box), with 2^31 words
/// or more (the products below fit an i64), or past 2^128.
pub(super) fn three_words(classes: &Classes) -> Option<u128> {
    let letters = classes.len();
    let full = ((1usize << letters) - 1) as u32;
    let terms = classes.iter().flatten().map(|&(_, mask, _, _)| 1u64 << (full & !mask).count_ones()).sum::<u64>();
    if terms > MIDDLE_TERMS {
        return None;
    }
    let mut starting = vec![0u64; letters];
    for (first, list) in classes.iter().enumerate() {
        for &(_, _, _, count) in list {
            starting[first] += u64::from(count);
        }
    }
    // Every count below 2^31: a pair's product fits an i64. Below 2^15,
    // every table value (at most the words of one letter, negated or not)
    // fits an i16: half the tables to fault in and sum (on enable1, 96
    // fewer pages of a 360-page process).
    match starting.iter().sum::<u64>() {
        words if words < 1 << 15 => three_words_in::<u16>(classes, &starting),
        words if words < 1 << 31 => three_words_in::<u32>(classes, &starting),
        _ => None,
    }
}

/// A value of [`three_words`]' tables, and of [`SubsetCounts`]' blocks.
trait Cell: Copy + Default + std::ops::AddAssign + std::ops::BitXor<Output = Self> {
    /// Every bit set: the mask that negates.
    const ONES: Self;
    /// `n`, known to fit.
    fn of(n: u32) -> Self;
    /// Negated where `mask` is [`Cell::ONES`], as it is where 0.
    fn negated_by(self, mask: Self) -> Self;
    /// The value read back as signed.
    fn signed(self) -> i64;
}

impl Cell for u16 {
    const ONES: u16 = u16::MAX;
    fn of(n: u32) -> u16 {
        n as u16
    }
    fn negated_by(self, mask: u16) -> u16 {
        (self ^ mask).wrapping_sub(mask)
    }
    fn signed(self) -> i64 {
        self as i16 as i64
    }
}

impl Cell for u32 {
    const ONES: u32 = u32::MAX;
    fn of(n: u32) -> u32 {
        n
    }
    fn negated_by(self, mask: u32) -> u32 {
        (self ^ mask).wrapping_sub(mask)
    }
    fn signed(self) -> i64 {
        self as i32 as i64
    }
}

/// [`three_words`] with tables of `T`, which holds every count of
/// `starting` (the words by first letter) negated or not.
fn three_words_in<T: Cell>(classes: &Classes, starting: &[u64]) -> Option<u128> {
    let letters = classes.len();
    let sets = 1usize << letters;
    let full = (sets - 1) as u32;
    // Per letter, per set of letters, the words ending with it and those
    // starting with it whose letters are that set, then summed over
    // subsets: those within the set. A letter's sets side by side make
    // each step of the sums a run of adds (vector code), and the sum over
    // a middle word's supersets two loads from two runs.
    let mut ending_within = vec![T::default(); letters << letters];
    let mut starting_within = vec![T::default(); letters << letters];
    for (first, list) in classes.iter().enumerate() {
        for &(last, mask, _, count) in list {
            let count = T::of(count);
            ending_within[(last as usize) << letters | mask as usize] += count;
            starting_within[first << letters | mask as usize] += count;
        }
    }
    for table in [&mut ending_within, &mut starting_within] {
        table.chunks_exact_mut(sets).for_each(|letter| sum_over_subsets(letter, 1));
    }
    // With the sign of the letters a set leaves out folded in (negated in
    // place, read back as signed: no third table to fault in), the sums
    // below take a load, a multiply and an add a term.
    // The sign of each set once (a set leaves out an odd number of
    // letters when its own parity differs from the box's), as a mask to
    // negate by: a count of bits a value cost 20 of a three-word
    // solve's 880 us where x86-64's baseline has no popcount instruction.
    let mut odd = vec![T::default(); sets];
    for set in 1..sets {
        odd[set] = odd[set >> 1] ^ if set & 1 == 1 { T::ONES } else { T::default() };
    }
    let box_odd = if full.count_ones() % 2 == 1 { T::ONES } else { T::default() };
    for letter in ending_within.chunks_exact_mut(sets) {
        for (n, &set_odd) in letter.iter_mut().zip(&odd) {
            *n = n.negated_by(set_odd ^ box_odd);
        }
    }
    let mut total = 0u128;
    for (first, list) in classes.iter().enumerate() {
        // The words that end with this one's first letter, per set.
        let ending = &ending_within[first * sets..][..sets];
        for &(last, mask, width, count) in list {
            if mask == full {
                continue; // it covers the box: so do the first two words
            }
            let starting_after = &starting_within[last as usize * sets..][..sets];
            // Over the sets within the box that hold the middle word's
            // letters (in order as numbers: each the last one plus 1, the
            // word's letters put back): the words before that cover what
            // it leaves alone, and the pairs (a word before, a word after)
            // that cover it together. The partial sums may wrap; the
            // totals (below 2^62) are exact.
            let (mut alone, mut pairs) = (0i64, 0i64);
            let mut add = |at: usize| {
                // `at` is at most `full`: each run has `sets` values.
                let e = ending[at & full as usize].signed();
                alone = alone.wrapping_add(e);
                pairs = pairs.wrapping_add(e.wrapping_mul(starting_after[at & full as usize].signed()));
            };
            let free = full & !mask;
            if (letters as u32).saturating_sub(width) < LOW_FREE {
                for_each_subset(free, |within| add(mask as usize | within));
            } else {
                // The supersets as the sets of the four lowest free letters
                // (made once) over each set of the rest: sixteen loads a
                // turn that do not wait on one another, where the next
                // superset of a plain walk waits on the last (an add and
                // an or: a third of the solve's time).
                let mut low = 0;
                for _ in 0..LOW_FREE {
                    low |= (free & !low) & (free & !low).wrapping_neg();
                }
                let mut lows = [0usize; 1 << LOW_FREE];
                let mut at = 0;
                for_each_subset(low, |sub| {
                    lows[at] = sub;
                    at += 1;
                });
                for_each_subset(free & !low, |high| {
                    let base = mask as usize | high;
                    for sub in lows {
                        add(base | sub);
                    }
                });
            }
            // Less the pairs whose first word covers what the middle one
            // leaves alone: then the first two words finish the box.
            let finishing = pairs.wrapping_sub(alone.wrapping_mul(starting[last as usize] as i64));
            total = total.checked_add(u128::from(count).checked_mul(u128::try_from(finishing).ok()?)?)?;
        }
    }
    Some(total)
}

/// How many of the letters a middle word leaves [`three_words`] walks
/// the sets of in an inner loop of their own.
const LOW_FREE: u32 = 3;

/// Calls `each` with every subset of `bits`, in ascending order.
#[inline]
fn for_each_subset(bits: u32, mut each: impl FnMut(usize)) {
    let mut sub = 0u32;
    loop {
        each(sub as usize);
        if sub == bits {
            break;
        }
        sub = sub.wrapping_sub(bits) & bits;
    }
}

/// The most terms (2^letters a middle word leaves, summed over the middle
/// words) [`three_words`] takes on: a few milliseconds.
const MIDDLE_TERMS: u64 = 1 << 22;

/// Letter Boxed counts by inclusion and exclusion over the box's sets of
/// letters, for a small box: for every set, the matrix of how many words
/// within it go from each first letter to each last, and by powers of it
/// the chains of `k` words within the set, per last letter. Summed over
/// the sets with the sign of the letters they leave out, they give the
/// chains that use every letter; less those whose first `k - 1` words
/// already did, that is the count of `k`-word solutions. The sums run
/// modulo 2^64, exact whenever the chains of `k` words over the whole box
/// are fewer than 2^64 (checked; past that, `None`).
///
/// The matrices come a block of sets at a time: the sets that share their
/// high letters (up to 64 sets, 36 KB on 12 letters), each block summed
/// from the words of every subset of its high letters, then over subsets
/// of the low letters in place. A table of every set's matrix at once
/// would be 2.4 MB: 576 pages of fresh memory, each a page fault, which
/// cost more than all the sums. A block's matrices span only the letters
/// its sets can hold (the low ones and its high ones): on 12 letters, 82
/// pairs of letters a set on average where the whole box has 144.
pub(super) struct SubsetCounts {
    letters: usize,
    /// The words, by their set of letters: (letters, last letter, first
    /// letter, words).
    words: Vec<(u32, u8, u8, u32)>,
    /// Where the words of each set of high letters start in `words` (one
    /// more than there are such sets).
    high_starts: Vec<usize>,
    /// Per letter, the words that start with it.
    from: Vec<u64>,
    /// The counts so far: `[k - 1]` for `k` words.
    counts: Vec<Option<u128>>,
}

/// The most letters a block of [`SubsetCounts`] varies (the low ones).
const LOW_LETTERS: usize = 6;

impl SubsetCounts {
    pub(super) fn new(count_classes: &Classes) -> SubsetCounts {
        let letters = count_classes.len();
        let mut from = vec![0u64; letters];
        let mut words = Vec::new();
        for (first, classes) in count_classes.iter().enumerate() {
            for &(last, mask, _, count) in classes {
                // At most the playable words, which fit a u32.
                words.push((mask, last, first as u8, count));
                from[first] += u64::from(count);
            }
        }
        words.sort_unstable_by_key(|&(mask, ..)| mask);
        let low = letters.min(LOW_LETTERS);
        let high_starts =
            (0..=1usize << (letters - low)).map(|h| words.partition_point(|w| (w.0 as usize >> low) < h)).collect();
        SubsetCounts { letters, words, high_starts, from, counts: Vec::new() }
    }

    /// The number of `k`-word solutions, `None` past 2^64 chains; when it
    /// is not counted yet, every level up to `k.max(ahead)` is counted in
    /// one pass over the sets.
    pub(super) fn count(&mut self, k: usize, ahead: usize) -> Option<u128> {
        if self.counts.len() < k {
            self.count_levels(k.max(ahead));
        }
        self.counts[k - 1]
    }

    /// Counts the solutions of 1 to `levels` words: one pass over the
    /// sets, each set's matrix summed once for all the levels.
    fn count_levels(&mut self, levels: usize) {
        self.counts.clear();
        if self.letters > MAX_LETTERS {
            // Never asked (boxes this wide have no flat tables): the
            // memoised search counts.
            self.counts.resize(levels, None);
            return;
        }
        // Every value of a block is at most the words: below 2^16, a
        // block of u16 is half the memory to clear and sum (a solve of 5
        // words on enable1 in process 860-870 against 910-920 us). The
        // WebAssembly engine keeps to u32: a second copy of the counting
        // code cost it 13.4 KB.
        let words = self.from.iter().sum::<u64>();
        if words < 1 << 16 && cfg!(not(target_arch = "wasm32")) {
            self.count_levels_in::<u16>(levels);
        } else {
            self.count_levels_in::<u32>(levels);
        }
    }

    /// [`SubsetCounts::count_levels`] with blocks of `T`, which holds
    /// the words of the box.
    fn count_levels_in<T: Cell + Into<u32>>(&mut self, levels: usize) {
        let n = self.letters;
        let (pairs, low) = (n * n, n.min(LOW_LETTERS));
        let full = (1usize << n) - 1;
        // Per level, over every set with its sign: the chains that use
        // every letter, and the same weighed by how many words start with
        // each chain's last letter (the chains one word longer that had
        // used every letter a word early).
        let (mut exact, mut exact_then_more) = (vec![0u64; levels], vec![0u64; levels]);
        let mut block = vec![T::default(); pairs << low];
        // A set's letters; their places among the block's letters; and
        // the words from each of them.
        let mut in_set = [0usize; MAX_LETTERS];
        let mut places = [0usize; MAX_LETTERS];
        let mut from_in_set = [0u64; MAX_LETTERS];
        // Each letter's place among the block's letters.
        let mut place = [0usize; MAX_LETTERS];
        for high in 0..self.high_starts.len() - 1 {
            // The block's letters: the low ones, and the high ones of its sets.
            let letters_of_block = ((1usize << low) - 1) | (high << low);
            let mut b = 0;
            for (letter, at) in place.iter_mut().enumerate().take(n) {
                if letters_of_block >> letter & 1 == 1 {
                    (*at, b) = (b, b + 1);
                }
            }
            let block_pairs = b * b;
            let block = &mut block[..block_pairs << low];
            block.fill(T::default());
            let mut within = high;
            loop {
                for &(mask, last, first, count) in &self.words[self.high_starts[within]..self.high_starts[within + 1]] {
                    // Its letters lie within the block's: so do its first and last.
                    let pair = place[last as usize] * b + place[first as usize];
                    block[(mask as usize & ((1 << low) - 1)) * block_pairs + pair] += T::of(count);
                }
                if within == 0 {
                    break;
                }
                within = (within - 1) & high;
            }
            sum_over_subsets(block, block_pairs);
            for (low_set, matrix) in block.chunks_exact(block_pairs).enumerate() {
                let set = high << low | low_set;
                // Only the set's letters start or end a word within it: the
                // products over them alone, a quarter of the whole
                // matrix's on average.
                let mut m = 0;
                let mut bits = set;
                while bits != 0 {
                    in_set[m] = bits.trailing_zeros() as usize;
                    m += 1;
                    bits &= bits - 1;
                }
                if m == 0 {
                    continue; // the empty set: no word lies within it
                }
                for (i, &letter) in in_set[..m].iter().enumerate() {
                    (places[i], from_in_set[i]) = (place[letter], self.from[letter]);
                }
                // Subtracted where the set leaves out an odd number of letters.
                let negate = if (full & !set).count_ones() % 2 == 1 { u64::MAX } else { 0 };
                let within_set = SetChains { matrix, b, places: &places, from: &from_in_set, negate };
                let sums = (&mut exact[..], &mut exact_then_more[..]);
                match m {
                    1 => within_set.add::<1>(sums),
                    2 => within_set.add::<2>(sums),
                    3 => within_set.add::<3>(sums),
                    4 => within_set.add::<4>(sums),
                    5 => within_set.add::<5>(sums),
                    6 => within_set.add::<6>(sums),
                    7 => within_set.add::<7>(sums),
                    8 => within_set.add::<8>(sums),
                    9 => within_set.add::<9>(sums),
                    10 => within_set.add::<10>(sums),
                    11 => within_set.add::<11>(sums),
                    _ => within_set.add::<12>(sums),
                }
            }
        }
        // The last block holds every letter (its places are the letters'),
        // so it fills the table.
        let matrix = &block[block.len() - pairs..];
        // The last set summed is the whole box: its chains, saturating,
        // bound the counts (modulo 2^64 they are exact below it).
        let mut all_chains = vec![0u128; n];
        for (level, &exact) in exact.iter().enumerate() {
            all_chains = matrix
                .chunks_exact(n)
                .map(|column| {
                    column.iter().zip(&all_chains).fold(0u128, |sum, (&words, &ways)| {
                        let words = u128::from(words.into());
                        sum.saturating_add(if level == 0 { 1 } else { ways }.saturating_mul(words))
                    })
                })
                .collect();
            let bound = all_chains.iter().fold(0u128, |a, &b| a.saturating_add(b));
            // Less the chains whose words before the last used every letter.
            let early = if level == 0 { 0 } else { exact_then_more[level - 1] };
            let count = exact.wrapping_sub(early);
            self.counts.push((bound <= u64::MAX as u128).then_some(count as u128));
        }
    }
}

/// The most letters [`SubsetCounts`] counts a box of (as many as
/// [`super::solver`]'s flat tables): its scratch lives in fixed arrays.
const MAX_LETTERS: usize = 12;

/// The chains within one set of letters, level by level, added to the
/// sums with the set's sign.
struct SetChains<'a, T> {
    /// The set's matrix over the block's `b` letters, by last letter then
    /// first (`b` x `b` counts), and where the set's `M` letters lie among
    /// them: the matrix over its letters alone is read from it into
    /// registers, each chain count a dot product.
    matrix: &'a [T],
    b: usize,
    places: &'a [usize],
    /// Per letter of the set, the words that start with it.
    from: &'a [u64],
    /// Every bit set where the set leaves out an odd number of letters.
    negate: u64,
}

impl<T: Copy + Into<u32>> SetChains<'_, T> {
    /// Adds to `exact[level]` the set's chains of `level + 1` words, and
    /// to `then_more[level]` the same weighed by the words that start
    /// with each chain's last letter. `M`, the set's letters, fixed: the
    /// loops unrolled, with the sums in registers.
    #[inline(always)]
    fn add<const M: usize>(&self, (exact, then_more): (&mut [u64], &mut [u64])) {
        let places: [usize; M] = std::array::from_fn(|i| self.places[i]);
        let by_last: [[u32; M]; M] = std::array::from_fn(|l| {
            let row = &self.matrix[places[l] * self.b..][..self.b];
            std::array::from_fn(|f| row[places[f]].into())
        });
        let from = &self.from[..M];
        let mut chains = [0u64; M];
        for (level, (exact, then_more)) in exact.iter_mut().zip(then_more).enumerate() {
            let next: [u64; M] = std::array::from_fn(|l| {
                let column = &by_last[l];
                if level == 0 {
                    column.iter().fold(0u64, |a, &w| a.wrapping_add(w as u64))
                } else {
                    column.iter().zip(&chains).fold(0u64, |a, (&w, &c)| a.wrapping_add(c.wrapping_mul(w as u64)))
                }
            });
            let (mut all, mut weighed) = (0u64, 0u64);
            for (&sum, &from) in next.iter().zip(from) {
                all = all.wrapping_add(sum);
                weighed = weighed.wrapping_add(sum.wrapping_mul(from));
            }
            *exact = exact.wrapping_add((all ^ self.negate).wrapping_sub(self.negate));
            *then_more = then_more.wrapping_add((weighed ^ self.negate).wrapping_sub(self.negate));
            chains = next;
        }
    }
}

/// Sums `table`, a run of `run` values per set of letters (2^letters
/// runs), over subsets: each set's run becomes the sum of the runs of
/// every set within it.
///
/// A letter at a time, each set's run gains that of the set without the
/// letter. The low letters go first, a cache-sized block of consecutive
/// sets at a time, so that on a table of megabytes only the high letters
/// pass over it whole.
fn sum_over_subsets<T: Copy + std::ops::AddAssign>(table: &mut [T], run: usize) {
    let block = run * (BLOCK_VALUES / run).max(1).next_power_of_two().min(table.len() / run);
    let halves =
        |from: usize, to: usize| std::iter::successors(Some(from), |h| Some(h * 2)).take_while(move |&h| h < to);
    // Runs of one value: the three lowest letters in one pass over eight
    // values at a time, where a half of one, two or four values would
    // leave the vector unit idle.
    let first_half = if run == 1 && block >= 8 {
        table.chunks_exact_mut(8).for_each(sum_eight);
        8
    } else {
        run
    };
    for values in table.chunks_exact_mut(block) {
        for half in halves(first_half, block) {
            add_halves(values, half);
        }
    }
    for half in halves(block, table.len()) {
        add_halves(table, half);
    }
}

/// [`sum_over_subsets`] over the eight sets of three letters, in place.
#[inline]
fn sum_eight<T: Copy + std::ops::AddAssign>(v: &mut [T]) {
    for (with, without) in
        [(1, 0), (3, 2), (5, 4), (7, 6), (2, 0), (3, 1), (6, 4), (7, 5), (4, 0), (5, 1), (6, 2), (7, 3)]
    {
        v[with] += v[without];
    }
}

/// The values [`sum_over_subsets`] sums in cache before it passes over a
/// whole table: 128 KB.
const BLOCK_VALUES: usize = 1 << 15;

/// One letter of [`sum_over_subsets`]: in each block of `2 x half`
/// values, the upper half (sets with the letter) gains the lower.
fn add_halves<T: Copy + std::ops::AddAssign>(table: &mut [T], half: usize) {
    for block in table.chunks_exact_mut(2 * half) {
        let (without, with) = block.split_at_mut(half);
        for (sum, &n) in with.iter_mut().zip(&*without) {
            *sum += n;
        }
    }
}

/// Sums `table` (a value per set of letters) over supersets: each set's
/// value becomes the sum of those of every set that contains it (the
/// search's table of last words, by the letters they must cover).
pub(super) fn sum_over_supersets(table: &mut [u32]) {
    let len = table.len();
    for half in std::iter::successors(Some(1), |h| Some(h * 2)).take_while(|&h| h < len) {
        for block in table.chunks_exact_mut(2 * half) {
            let (without, with) = block.split_at_mut(half);
            for (sum, &n) in without.iter_mut().zip(&*with) {
                *sum += n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each set's run becomes the sum over the sets within it, for runs of
    /// one value (the eight-value pass) and of several, on 0 to 7 letters.
    #[test]
    fn sums_over_subsets_match_a_plain_sum() {
        let mut rng = crate::rng::SplitMix64::new(3);
        for letters in 0..8 {
            for run in [1, 3] {
                let table: Vec<u32> = (0..run << letters).map(|_| rng.below(100) as u32).collect();
                let mut summed = table.clone();
                sum_over_subsets(&mut summed, run);
                for set in 0..1usize << letters {
                    for i in 0..run {
                        let want: u32 =
                            (0..1usize << letters).filter(|&s| s & set == s).map(|s| table[s * run + i]).sum();
                        assert_eq!(summed[set * run + i], want, "{letters} letters, run {run}, set {set}");
                    }
                }
            }
        }
    }

    /// Up to `most` random classes on a box of `letters` letters, each of
    /// 1 to `words` words, its letters holding its first and last.
    fn random_classes(
        rng: &mut crate::rng::SplitMix64,
        letters: usize,
        most: u64,
        words: u64,
    ) -> Vec<Vec<(u8, u32, u32, u32)>> {
        let full = (1u32 << letters) - 1;
        let mut classes = vec![Vec::new(); letters];
        for _ in 0..rng.below(most) + 1 {
            let (first, last) = (rng.below(letters as u64) as usize, rng.below(letters as u64) as u8);
            let mask = (rng.below(1 << letters) as u32 | 1 << first | 1 << last) & full;
            classes[first].push((last, mask, mask.count_ones(), rng.below(words) as u32 + 1));
        }
        classes
    }

    /// Three-word counts through the middle word, with tables of u16 and
    /// of u32, are those of a plain walk over every chain of three
    /// classes, on random boxes of 3 to 12 letters.
    #[test]
    fn three_word_counts_match_a_plain_walk() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for round in 0..60 {
            let letters = 3 + round % 10;
            let full = (1u32 << letters) - 1;
            let classes = random_classes(&mut rng, letters, 40, 50);
            let mut plain = 0u128;
            for list in &classes {
                for &(a_last, a, _, a_n) in list {
                    for &(b_last, b, _, b_n) in &classes[a_last as usize] {
                        if a | b == full {
                            continue; // the game ended on the second word
                        }
                        for &(_, c, _, c_n) in &classes[b_last as usize] {
                            if a | b | c == full {
                                plain += u128::from(a_n) * u128::from(b_n) * u128::from(c_n);
                            }
                        }
                    }
                }
            }
            let starting: Vec<u64> = classes.iter().map(|l| l.iter().map(|c| c.3 as u64).sum()).collect();
            assert_eq!(three_words(&classes), Some(plain), "round {round}");
            assert_eq!(three_words_in::<u16>(&classes, &starting), Some(plain), "round {round}, u16");
            assert_eq!(three_words_in::<u32>(&classes, &starting), Some(plain), "round {round}, u32");
        }
    }

    /// Counts of 1 to 6 words by subsets are those of a plain walk over
    /// the chains of classes (the chains that have not covered the box
    /// yet, one word at a time), on random boxes of 1 to 12 letters, with
    /// few words a class (blocks of u16, and of u32 the same) and with
    /// thousands.
    #[test]
    fn counts_by_subsets_match_a_plain_walk() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for round in 0..72 {
            let letters = 1 + round % 12;
            let full = (1u32 << letters) - 1;
            // A third of the rounds with thousands of words a class (the
            // chains past 4 words would then pass 2^64).
            let many = round % 3 == 2;
            let classes = random_classes(&mut rng, letters, 30, if many { 5000 } else { 9 });
            let most_words = if many { 4 } else { 6 };
            let mut open: std::collections::BTreeMap<(u32, u8), u128> = std::collections::BTreeMap::new();
            for list in &classes {
                for &(last, mask, _, n) in list {
                    *open.entry((mask, last)).or_default() += u128::from(n);
                }
            }
            if !many {
                // Blocks of u16 (what these words take) and of u32 alike.
                let (mut narrow, mut wide) = (SubsetCounts::new(&classes), SubsetCounts::new(&classes));
                narrow.count_levels_in::<u16>(most_words);
                wide.count_levels_in::<u32>(most_words);
                assert_eq!(narrow.counts, wide.counts, "round {round}");
            }
            let mut subsets = SubsetCounts::new(&classes);
            for k in 1..=most_words {
                let done: u128 = open.iter().filter(|(&(mask, _), _)| mask == full).map(|(_, &n)| n).sum();
                assert_eq!(subsets.count(k, 1), Some(done), "round {round}, {letters} letters, {k} words");
                let mut next = std::collections::BTreeMap::new();
                for (&(mask, last), &n) in open.iter().filter(|(&(mask, _), _)| mask != full) {
                    for &(then, with, _, m) in &classes[last as usize] {
                        *next.entry((mask | with, then)).or_default() += n * u128::from(m);
                    }
                }
                open = next;
            }
        }
    }

    /// Counts by subsets are exact up to 2^64 chains over the box and
    /// `None` past them (the memoised search then counts, in u128).
    #[test]
    fn counts_by_subsets_know_when_they_wrap() {
        // Letters a, b, c: 3e9 words a..b within {a, b}, 3e9 b..a, one b..c.
        let n = 3_000_000_000u32;
        let classes = vec![vec![(1, 0b011, 2, n)], vec![(0, 0b011, 2, n), (2, 0b110, 2, 1)], vec![]];
        let mut subsets = SubsetCounts::new(&classes);
        assert_eq!(subsets.count(1, 1), Some(0));
        // ab bc; all 2-word chains: 2 x 9e18 + 3e9, under 2^64.
        assert_eq!(subsets.count(2, 1), Some(u128::from(n)));
        // ba ab bc (9e18), but 2.7e28 chains of 3.
        assert_eq!(subsets.count(3, 1), None);
    }
}
