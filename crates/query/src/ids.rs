//! Putting word ids in order: a question gathers them from tables that
//! group words by letters (a-z within a group) and shows them a-z, which
//! is id order.

/// Sorts `ids` ascending: a least-significant-digit radix sort in two or
/// three passes over digits as wide as the largest id needs (at most 11
/// bits, 12 for 4,096 ids or more), with no comparison to mispredict (a honeycomb's 537 ids: `bee
/// solve` 17.0 to 15.8 us against `sort_unstable`); fewer than 64 ids
/// sort by insertion.
pub(crate) fn sort(ids: &mut Vec<u32>) {
    sort_by_id(ids, |&id| id);
}

/// Sorts `items` by their word ids: [`sort`]'s radix sort, moving the
/// items whole. Stable: items of equal ids keep their order (each pass
/// places items in the order it reads them), so two sorts, by a key's
/// low half and then its high half, sort by the whole key.
pub(crate) fn sort_by_id<T: Copy + Default>(items: &mut Vec<T>, id_of: impl Fn(&T) -> u32) {
    if items.len() < RADIX_FROM {
        // An insertion sort: as quick for so few, and one small loop for
        // each item type where a library sort is kilobytes of code (the
        // WebAssembly carries every copy).
        for i in 1..items.len() {
            let (item, id) = (items[i], id_of(&items[i]));
            let mut at = i;
            while at > 0 && id_of(&items[at - 1]) > id {
                items[at] = items[at - 1];
                at -= 1;
            }
            items[at] = item;
        }
        return;
    }
    // The widest id's bits: those of them all or-ed (see [`sort_by_high_half`]).
    let any = items.iter().fold(0, |any, item| any | id_of(item));
    let bits = (u32::BITS - any.leading_zeros()).max(1);
    // Many items: digits of up to 12 bits, so that the ids of a list of
    // 10 million words (23 bits) take two passes, not three (a box's
    // 16,520 records of 16 bytes: 193 to 79 us); fewer pay less to clear
    // and sum a smaller table of counts.
    let digit = if items.len() >= WIDE_DIGITS_FROM { MAX_DIGIT_BITS + 1 } else { MAX_DIGIT_BITS };
    let passes = bits.div_ceil(digit);
    let width = bits.div_ceil(passes);
    let mask = (1u32 << width) - 1;
    let mut counts = vec![0u32; (passes as usize) << width];
    for item in items.iter() {
        let id = id_of(item);
        for pass in 0..passes {
            counts[((pass as usize) << width) + ((id >> (pass * width)) & mask) as usize] += 1;
        }
    }
    let mut from = std::mem::take(items);
    let mut to = vec![T::default(); from.len()];
    for (pass, starts) in (0..passes).zip(counts.chunks_exact_mut(1 << width)) {
        // Each digit's count becomes where its items start.
        let mut at = 0;
        for slot in starts.iter_mut() {
            (*slot, at) = (at, at + *slot);
        }
        for item in &from {
            let slot = &mut starts[((id_of(item) >> (pass * width)) & mask) as usize];
            to[*slot as usize] = *item;
            *slot += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    *items = from;
}

/// Sorts `keys` whose high halves are distinct word ids (and so sorts
/// them by id): when they are at least half as many as a digit of half
/// the ids' bits has values, by two passes of a radix sort, each digit's
/// counts in one table and both passes written out; fewer by comparison.
/// Measured in `bee solve`: a honeycomb of 537 words (18-bit ids, 9-bit
/// digits) 10.5 to 10.3 us against the comparison sort, and 1,649 words
/// of words.txt 27.5 to 24.8 us; 14 and 183 words, 2.3 and 5.2 us by
/// comparison, would take 2.9 and 5.6 us by radix; the loop over passes of
/// [`sort_by_id`] took 13.4 us for the 537.
#[inline(never)]
pub(crate) fn sort_by_high_half(keys: &mut [u64]) {
    // The ids' widest: that of their bits or-ed, which takes a vector op
    // for two keys where a maximum takes a compare and a move a key (a
    // honeycomb of 537 words: 0.13 us of 10.1).
    let any = (keys.iter().fold(0, |any, &k| any | k) >> 32) as u32;
    let width = (u32::BITS - any.leading_zeros()).div_ceil(2).max(1);
    if keys.len() < 1 << (width - 1) {
        return sort_by_comparison(keys);
    }
    let mask = (1usize << width) - 1;
    let (low_digit, high_digit) = (|k: u64| (k >> 32) as usize & mask, |k: u64| (k >> 32 >> width) as usize & mask);
    let mut counts = vec![0u32; 2 << width];
    let (low, high) = counts.split_at_mut(1 << width);
    for &k in keys.iter() {
        low[low_digit(k)] += 1;
        high[high_digit(k)] += 1;
    }
    // Each digit's count becomes where its keys start.
    let (mut low_at, mut high_at) = (0, 0);
    for (low, high) in low.iter_mut().zip(high.iter_mut()) {
        (*low, *high, low_at, high_at) = (low_at, high_at, low_at + *low, high_at + *high);
    }
    // (Every slot is in bounds: the counts sum to the keys' number.)
    let mut by_low = vec![0u64; keys.len()];
    for &k in keys.iter() {
        let slot = &mut low[low_digit(k)];
        if let Some(to) = by_low.get_mut(*slot as usize) {
            *to = k;
        }
        *slot += 1;
    }
    for &k in &by_low {
        let slot = &mut high[high_digit(k)];
        if let Some(to) = keys.get_mut(*slot as usize) {
            *to = k;
        }
        *slot += 1;
    }
}

/// `sort_unstable`, kept out of [`sort_by_high_half`]: inlined there, it
/// made the radix sort's loops slower (a `bee solve` 9.6 to 10.5 us).
#[inline(never)]
fn sort_by_comparison(keys: &mut [u64]) {
    keys.sort_unstable();
}

/// Sorts word ids below `words`, distinct (a repeat, which only a
/// damaged table holds, is dropped when they are many): when they are
/// more than one word in 256, through a bit a word, whose pass costs less
/// than sorting them; fewer by [`sort`].
pub(crate) fn sort_distinct(ids: &mut Vec<u32>, words: usize) {
    if ids.len() < words / 256 {
        sort(ids);
        return;
    }
    let mut bits = vec![0u64; words.div_ceil(64)];
    for &id in ids.iter() {
        if let Some(word) = bits.get_mut(id as usize / 64) {
            *word |= 1 << (id % 64);
        }
    }
    ids.clear();
    for (at, mut word) in (0u32..).step_by(64).zip(bits) {
        while word != 0 {
            ids.push(at + word.trailing_zeros());
            word &= word - 1;
        }
    }
}

/// Below this many ids a comparison sort is as quick.
const RADIX_FROM: usize = 64;
/// The widest digit: 2^11 counts (8 KB) a pass; one bit more from
/// [`WIDE_DIGITS_FROM`] items.
const MAX_DIGIT_BITS: u32 = 11;
/// The items from which a digit may have 12 bits.
const WIDE_DIGITS_FROM: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    /// Any ids, of any width, come out as a plain sort leaves them.
    /// Few ids sort by comparison, many through a bit each: both ascend.
    #[test]
    fn distinct_ids_sort_either_way() {
        let mut rng = crate::rng::SplitMix64::new(9);
        for count in [0, 3, 300, 5000] {
            let mut ids: Vec<u32> = (0..100_000).filter(|_| rng.below(100_000) < count).collect();
            let want = ids.clone();
            ids.reverse();
            sort_distinct(&mut ids, 100_000);
            assert_eq!(ids, want, "{count}");
        }
    }

    #[test]
    fn sorts_as_a_plain_sort_does() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for len in [0, 1, 5, 63, 64, 65, 537, 3000, 5000] {
            for bits in [1, 8, 9, 18, 22, 24, 31, 32] {
                let ids: Vec<u32> = (0..len).map(|_| (rng.next_u64() as u32) >> (32 - bits)).collect();
                let mut want = ids.clone();
                want.sort_unstable();
                let mut got = ids;
                sort(&mut got);
                assert_eq!(got, want, "{len} ids of {bits} bits");
                // Items carried with their distinct ids.
                let mut want: Vec<(u32, u64)> = want.iter().map(|&id| (id, id as u64 * 3)).collect();
                want.dedup_by_key(|item| item.0);
                let mut got = want.clone();
                got.reverse();
                sort_by_id(&mut got, |item| item.0);
                assert_eq!(got, want, "{len} items of {bits} bits");
            }
        }
    }

    /// Keys of distinct ids in their high halves come out as a plain sort
    /// leaves them, by either way.
    #[test]
    fn keys_sort_by_their_high_halves() {
        let mut rng = crate::rng::SplitMix64::new(10);
        for len in [0, 1, 2, 7, 100, 600, 3000] {
            for bits in [1, 9, 18, 24, 32] {
                let mut ids: Vec<u32> = (0..len).map(|_| (rng.next_u64() as u32) >> (32 - bits)).collect();
                ids.sort_unstable();
                ids.dedup();
                let want: Vec<u64> = ids.iter().map(|&id| (id as u64) << 32 | rng.next_u64() >> 33).collect();
                let mut got = want.clone();
                for i in (1..got.len()).rev() {
                    got.swap(i, rng.below(i as u64 + 1) as usize);
                }
                sort_by_high_half(&mut got);
                assert_eq!(got, want, "{len} keys of {bits} bits");
            }
        }
    }

    /// Items of equal ids keep their order, so sorting by a 64-bit key's
    /// low half, then its high half, sorts by the whole key.
    #[test]
    fn equal_ids_keep_their_order() {
        let mut rng = crate::rng::SplitMix64::new(8);
        for len in [0, 2, 40, 63, 64, 65, 1000, 20_000] {
            for bits in [1, 5, 12, 20] {
                let items: Vec<(u32, u32)> =
                    (0..len).map(|i| ((rng.next_u64() as u32) >> (32 - bits), i as u32)).collect();
                let mut want = items.clone();
                want.sort_by_key(|item| item.0); // stable
                let mut got = items;
                sort_by_id(&mut got, |item| item.0);
                assert_eq!(got, want, "{len} items of {bits} bits");
                let keys: Vec<u64> = (0..len).map(|_| rng.next_u64() >> (64 - 2 * bits - 20)).collect();
                let mut want = keys.clone();
                want.sort_unstable();
                let mut got = keys;
                sort_by_id(&mut got, |&k| k as u32);
                sort_by_id(&mut got, |&k| (k >> 32) as u32);
                assert_eq!(got, want, "{len} keys of {} bits", 2 * bits + 20);
            }
        }
    }
}
