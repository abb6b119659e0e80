//! Letter Boxed counts without a search, for a box of up to 12 letters:
//! inclusion and exclusion over the box's sets of letters, at a cost the
//! box fixes (2^letters x letters^2 at most), where the memoised search's
//! grows with the states its words reach.
//!
//! Both count chains of words, each starting with the letter the one
//! before ended on. Chains whose letters cover a set `need` are the
//! chains within every superset, with the sign of what it leaves out:
//! those within the whole box, less those within the box without each
//! letter, plus those without each two letters, and so on. A solution of
//! `k` words is a chain that covers the box less one whose first `k - 1`
//! words already did (the game ends on the word that covers the box).

/// Per first letter, the words alike to counting: (last letter, letters,
/// how many letters, words). What [`super::Solver`] counts over.
pub(super) type Classes = [Vec<(u8, u32, u32, u128)>];

/// The number of 3-word solutions, through the middle word: for each
/// (first letter, last letter, letters) of it, the pairs of a word ending
/// on its first letter and one starting with its last that cover what it
/// leaves (by inclusion and exclusion over those letters), less the pairs
/// whose first word covers it alone. `None` when the terms would pass
/// [`MIDDLE_TERMS`] (narrow middle words on a wide box), with 2^31 words
/// or more (the products below fit an i64), or past 2^128.
pub(super) fn three_words(classes: &Classes) -> Option<u128> {
    let letters = classes.len();
    let sets = 1usize << letters;
    let full = (sets - 1) as u32;
    let terms = classes.iter().flatten().map(|&(_, mask, _, _)| 1u64 << (full & !mask).count_ones()).sum::<u64>();
    if terms > MIDDLE_TERMS {
        return None;
    }
    // Per letter, the words ending with it and those starting with it, by
    // their letters, then summed over subsets: those within a set.
    let mut ending_within = vec![0u32; letters << letters];
    let mut starting_within = vec![0u32; letters << letters];
    let mut starting = vec![0u64; letters];
    for (first, list) in classes.iter().enumerate() {
        for &(last, mask, _, count) in list {
            let count = u32::try_from(count).ok()?;
            ending_within[(last as usize) << letters | mask as usize] += count;
            starting_within[first << letters | mask as usize] += count;
            starting[first] += count as u64;
        }
    }
    // Every count below 2^31: a pair's product fits an i64.
    if starting.iter().sum::<u64>() >= 1 << 31 {
        return None;
    }
    for table in ending_within.chunks_exact_mut(sets).chain(starting_within.chunks_exact_mut(sets)) {
        sum_over_subsets(table, 1);
    }
    // With the sign of the letters a set leaves out folded in, the sums
    // below take a load, a multiply and an add a term.
    let ending: Vec<i32> = ending_within
        .into_iter()
        .enumerate()
        .map(|(at, n)| if (full & !(at as u32)).count_ones() % 2 == 1 { -(n as i32) } else { n as i32 })
        .collect();
    let mut total = 0u128;
    for (first, list) in classes.iter().enumerate() {
        let ending = &ending[first << letters..][..sets];
        for &(last, mask, _, count) in list {
            let need = full & !mask;
            if need == 0 {
                continue; // it covers the box: so do the first two words
            }
            let after = &starting_within[(last as usize) << letters..][..sets];
            // Over the sets of the letters of `need` that are missed: the
            // words before that cover `need` alone, and the pairs (a word
            // before, a word after) that cover it together. The partial
            // sums may wrap; the totals (below 2^62) are exact.
            let (mut alone, mut pairs, mut missed) = (0i64, 0i64, need);
            loop {
                let within = (full & !missed) as usize;
                alone = alone.wrapping_add(ending[within] as i64);
                pairs = pairs.wrapping_add((ending[within] as i64).wrapping_mul(after[within] as i64));
                if missed == 0 {
                    break;
                }
                missed = (missed - 1) & need;
            }
            // Less the pairs whose first word covers `need` alone: then
            // the first two words finish the box.
            let finishing = pairs.wrapping_sub(alone.wrapping_mul(starting[last as usize] as i64));
            total = total.checked_add(count.checked_mul(u128::try_from(finishing).ok()?)?)?;
        }
    }
    Some(total)
}

/// The most terms (2^letters a middle word leaves, summed over the middle
/// words) [`three_words`] takes on: a few milliseconds.
const MIDDLE_TERMS: u64 = 1 << 22;

/// Letter Boxed counts by inclusion and exclusion over the box's sets of
/// letters, for a small box (2^letters x letters^2 counts): for every set, a
/// matrix of how many words within it go from each first letter to each
/// last (a sum over subsets), and by powers of it the chains of `k` words
/// within the set, per last letter. Summed over the sets with the sign of
/// the letters they leave out, they give the chains that use every letter;
/// less those whose first `k - 1` words already did (the box finished
/// before the last word), that is the count of `k`-word solutions. Its
/// cost is fixed by the box (2^letters x letters^2 a level), where the
/// memoised search's grows with the states the words reach. The sums run
/// modulo 2^64, exact whenever the chains of `k` words over the whole box
/// are fewer than 2^64 (checked; past that, `None`).
pub(super) struct SubsetCounts {
    letters: usize,
    /// Per set of letters, per (first letter, last letter), the words
    /// whose letters are within the set.
    within: Vec<u32>,
    /// Per set, per last letter, the chains of the last level's length
    /// within the set (modulo 2^64).
    chains: Vec<u64>,
    /// Per last letter, the chains of the last level counted that use
    /// every letter (modulo 2^64).
    exact: Vec<u64>,
    /// Per last letter, the chains over the whole box (saturating): the
    /// bound that says whether a count modulo 2^64 is the count.
    all_chains: Vec<u128>,
    /// Per letter, the words that start with it.
    from: Vec<u64>,
    /// The counts so far: `[k - 1]` for `k` words.
    counts: Vec<Option<u128>>,
}

impl SubsetCounts {
    pub(super) fn new(count_classes: &Classes) -> SubsetCounts {
        let letters = count_classes.len();
        let pairs = letters * letters;
        let mut within = vec![0u32; pairs << letters];
        let mut from = vec![0u64; letters];
        for (first, classes) in count_classes.iter().enumerate() {
            for &(last, mask, _, count) in classes {
                // At most the playable words, which fit a u32.
                within[mask as usize * pairs + first * letters + last as usize] += count as u32;
                from[first] += count as u64;
            }
        }
        sum_over_subsets(&mut within, pairs);
        SubsetCounts {
            letters,
            within,
            chains: vec![0; letters << letters],
            exact: vec![0; letters],
            all_chains: vec![0; letters],
            from,
            counts: Vec::new(),
        }
    }

    /// The number of `k`-word solutions, `None` past 2^64 chains; when it
    /// is not counted yet, every level up to `k.max(ahead)` is counted in
    /// the one pass over the sets.
    pub(super) fn count(&mut self, k: usize, ahead: usize) -> Option<u128> {
        if self.counts.len() < k {
            self.extend(k.max(ahead));
        }
        self.counts[k - 1]
    }

    /// Extends every set's chains word by word up to `levels` words and
    /// counts each level: one pass over the sets, each set's matrix read
    /// once for all the levels.
    fn extend(&mut self, levels: usize) {
        let (n, done) = (self.letters, self.counts.len());
        let full = (1usize << n) - 1;
        // Per new level, per last letter: chains that use every letter.
        let mut exact = vec![0u64; (levels - done) * n];
        let mut next = vec![0u64; n];
        for set in 0..=full {
            let matrix = &self.within[set * n * n..][..n * n];
            let chains = &mut self.chains[set * n..][..n];
            let leaves_odd = (full & !set).count_ones() % 2 == 1;
            for (level, exact) in (done..levels).zip(exact.chunks_exact_mut(n)) {
                next.fill(0);
                for (first, row) in matrix.chunks_exact(n).enumerate() {
                    // No word within the set starts with a letter off it.
                    if set & 1 << first == 0 {
                        continue;
                    }
                    let ways = if level == 0 { 1 } else { chains[first] };
                    for (sum, &words) in next.iter_mut().zip(row) {
                        *sum = sum.wrapping_add(ways.wrapping_mul(words as u64));
                    }
                }
                chains.copy_from_slice(&next);
                for (exact, &c) in exact.iter_mut().zip(&next) {
                    *exact = if leaves_odd { exact.wrapping_sub(c) } else { exact.wrapping_add(c) };
                }
            }
        }
        let matrix = &self.within[full * n * n..][..n * n];
        for (level, exact) in (done..levels).zip(exact.chunks_exact(n)) {
            let mut all = vec![0u128; n];
            for (first, row) in matrix.chunks_exact(n).enumerate() {
                let ways = if level == 0 { 1 } else { self.all_chains[first] };
                for (sum, &words) in all.iter_mut().zip(row) {
                    *sum = sum.saturating_add(ways.saturating_mul(words as u128));
                }
            }
            self.all_chains = all;
            let bound = self.all_chains.iter().fold(0u128, |a, &b| a.saturating_add(b));
            let mut count = exact.iter().fold(0u64, |a, &b| a.wrapping_add(b));
            if level > 0 {
                // Chains whose words before the last used every letter.
                let early =
                    self.exact.iter().zip(&self.from).fold(0u64, |a, (&e, &f)| a.wrapping_add(e.wrapping_mul(f)));
                count = count.wrapping_sub(early);
            }
            self.exact.copy_from_slice(exact);
            self.counts.push((bound <= u64::MAX as u128).then_some(count as u128));
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
fn sum_over_subsets(table: &mut [u32], run: usize) {
    let block = run * (BLOCK_VALUES / run).max(1).next_power_of_two().min(table.len() / run);
    let halves =
        |from: usize, to: usize| std::iter::successors(Some(from), |h| Some(h * 2)).take_while(move |&h| h < to);
    for values in table.chunks_exact_mut(block) {
        for half in halves(run, block) {
            add_halves(values, half);
        }
    }
    for half in halves(block, table.len()) {
        add_halves(table, half);
    }
}

/// The values [`sum_over_subsets`] sums in cache before it passes over a
/// whole table: 128 KB.
const BLOCK_VALUES: usize = 1 << 15;

/// One letter of [`sum_over_subsets`]: in each block of `2 x half`
/// values, the upper half (sets with the letter) gains the lower.
fn add_halves(table: &mut [u32], half: usize) {
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

    /// Counts by subsets are exact up to 2^64 chains over the box and
    /// `None` past them (the memoised search then counts, in u128).
    #[test]
    fn counts_by_subsets_know_when_they_wrap() {
        // Letters a, b, c: 3e9 words a..b within {a, b}, 3e9 b..a, one b..c.
        let n = 3_000_000_000u128;
        let classes = vec![vec![(1, 0b011, 2, n)], vec![(0, 0b011, 2, n), (2, 0b110, 2, 1)], vec![]];
        let mut subsets = SubsetCounts::new(&classes);
        assert_eq!(subsets.count(1, 1), Some(0));
        // ab bc; all 2-word chains: 2 x 9e18 + 3e9, under 2^64.
        assert_eq!(subsets.count(2, 1), Some(n));
        // ba ab bc (9e18), but 2.7e28 chains of 3.
        assert_eq!(subsets.count(3, 1), None);
    }
}
