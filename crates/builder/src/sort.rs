//! Sorting byte strings fast: ids ordered by the bytes they stand for,
//! through packed prefix keys and a radix sort, with byte comparisons only
//! among ties. The word list and the anagram terms are sorted with it.

/// The distinct bytes among `bytes`, ascending: the letters a list uses,
/// to number them densely.
pub(crate) fn distinct_bytes<'a>(bytes: impl IntoIterator<Item = &'a u8>) -> Vec<u8> {
    let mut seen = [false; 256];
    bytes.into_iter().for_each(|&b| seen[b as usize] = true);
    (0..=255u8).filter(|&b| seen[b as usize]).collect()
}

/// Byte strings as `u64`s that keep their order: the first 12 bytes, 5
/// bits each, as 1 + their rank among the bytes that occur, 0 past the
/// end. Ranks past 30 share the value 31 (one alphabet never gets there),
/// and a key stops after one, as what follows cannot order keys.
pub(crate) struct Prefixes {
    rank: [u8; 256],
    /// Each rank's byte (rank 0 ends a key; the capped rank is never
    /// spelled).
    byte_of: [u8; 32],
}

impl Prefixes {
    const LEN: usize = 12;
    const CAPPED: u64 = 31;

    /// Keys for strings of the given bytes (distinct and ascending; every
    /// byte the strings hold must be among them).
    pub(crate) fn new(bytes_used: &[u8]) -> Prefixes {
        let (mut rank, mut byte_of) = ([Self::CAPPED as u8; 256], [0u8; 32]);
        for (r, &b) in bytes_used.iter().enumerate() {
            rank[b as usize] = (1 + r).min(Self::CAPPED as usize) as u8;
            if 1 + r < Self::CAPPED as usize {
                byte_of[1 + r] = b;
            }
        }
        Prefixes { rank, byte_of }
    }

    /// Appends the string of a key that [settles](Prefixes::settles) it:
    /// its bytes read back from the key, with no read of the string.
    #[inline]
    pub(crate) fn spell(&self, key: u64, out: &mut Vec<u8>) {
        for field in (0..Self::LEN).rev() {
            let rank = (key >> (5 * field)) as usize & 31;
            if rank == 0 {
                break;
            }
            out.push(self.byte_of[rank]);
        }
    }

    #[inline]
    pub(crate) fn key(&self, bytes: &[u8]) -> u64 {
        let (mut key, mut n) = (0u64, 0);
        for &b in bytes.iter().take(Self::LEN) {
            key = key << 5 | self.rank[b as usize] as u64;
            n += 1;
            if self.rank[b as usize] as u64 == Self::CAPPED {
                break;
            }
        }
        key << (5 * (Self::LEN - n))
    }

    /// True when strings with this key are all the same string: it ends
    /// within 11 bytes and holds no capped rank.
    #[inline]
    pub(crate) fn settles(key: u64) -> bool {
        // A bit per 5-bit field that is all ones.
        const LOW: u64 = 0x0842_1084_2108_4210 >> 4;
        let all_ones = key & key >> 1 & key >> 2 & key >> 3 & key >> 4 & LOW;
        key & 31 == 0 && all_ones == 0
    }
}

/// What [`sort_keyed`] sorts: a packed prefix key (see [`Prefixes`]) and
/// an id that orders ties of equal strings.
pub(crate) trait Keyed: Copy + Default {
    fn key(&self) -> u64;
    fn id(&self) -> u32;
}

/// A key and the id of the string it stands for.
impl Keyed for (u64, u32) {
    #[inline]
    fn key(&self) -> u64 {
        self.0
    }
    #[inline]
    fn id(&self) -> u32 {
        self.1
    }
}

/// Sorts ids by the bytes `key` gives each (ties by id); `bytes_used`
/// holds every byte they hold, ascending (extra ones do no harm). The
/// test of [`sort_keyed`] against a plain sort (the builder sorts its
/// keyed items itself, keeping the keys).
#[cfg(test)]
pub(crate) fn sort_by_bytes<'a>(ids: &mut [u32], bytes_used: &[u8], key: impl Fn(u32) -> &'a [u8]) {
    let prefixes = Prefixes::new(bytes_used);
    let mut keyed: Vec<(u64, u32)> = ids.iter().map(|&id| (prefixes.key(key(id)), id)).collect();
    sort_keyed(&mut keyed, |&(_, id)| key(id));
    for (slot, (_, id)) in ids.iter_mut().zip(keyed) {
        *slot = id;
    }
}

/// Sorts keyed items by the bytes `bytes_of` gives each, ties by id. The
/// sort itself runs on the keys; only runs of equal keys that do not
/// settle the order are compared byte by byte.
pub(crate) fn sort_keyed<'a, T: Keyed>(keyed: &mut Vec<T>, bytes_of: impl Fn(&T) -> &'a [u8]) {
    radix_sort(keyed);
    let mut i = 0;
    while i < keyed.len() {
        let run = 1 + keyed[i + 1..].iter().take_while(|k| k.key() == keyed[i].key()).count();
        let tied = &mut keyed[i..i + run];
        if Prefixes::settles(tied[0].key()) {
            // One string: ids in order (they came so, and the sort is stable).
            if !tied.is_sorted_by_key(T::id) {
                tied.sort_unstable_by_key(T::id);
            }
        } else {
            let by_bytes = |a: &T, b: &T| bytes_of(a).cmp(bytes_of(b)).then(a.id().cmp(&b.id()));
            if !tied.is_sorted_by(|a, b| by_bytes(a, b).is_le()) {
                tied.sort_unstable_by(by_bytes);
            }
        }
        i += run;
    }
}

/// Splits keyed items, made in `parts` (in that order), into two runs
/// by their keys' top ten bits, each run in the items' order: every key
/// of the first is below every key of the second, and the cut between
/// them falls where it makes the two about equally long. Equal keys
/// (repeats, ties) are never cut apart, so each run sorts on its own
/// ([`sort_keyed`]) and the two sorted runs, one after the other, are the
/// sorted items. Two threads count the parts, then two gather the runs,
/// each reading every item and keeping its own.
pub(crate) fn split_by_key<T: Keyed + Send + Sync>(parts: &[Vec<T>]) -> [Vec<T>; 2] {
    let top = |item: &T| (item.key() >> (BITS * (PASSES as u32 - 1))) as usize & ((1 << BITS) - 1);
    let count = |parts: &[Vec<T>]| {
        let mut counts = vec![0usize; 1 << BITS];
        parts.iter().flatten().for_each(|item| counts[top(item)] += 1);
        counts
    };
    let (front, back) = parts.split_at(parts.len() / 2);
    let (mut counts, back) = std::thread::scope(|s| {
        let back = s.spawn(|| count(back));
        (count(front), back.join().expect("counting thread"))
    });
    counts.iter_mut().zip(back).for_each(|(c, b)| *c += b);
    // The cut: the first digit of the second run, where the items below
    // it come closest to half.
    let total: usize = counts.iter().sum();
    let (mut below, mut cut, mut best) = (0usize, 0, total);
    for (digit, &n) in counts.iter().enumerate() {
        if below.abs_diff(total / 2) < best {
            (cut, best) = (digit, below.abs_diff(total / 2));
        }
        below += n;
    }
    let low_len: usize = counts[..cut].iter().sum();
    let gather = |keep: &(dyn Fn(usize) -> bool + Sync), len: usize| {
        let mut run = Vec::with_capacity(len);
        run.extend(parts.iter().flatten().filter(|item| keep(top(item))).copied());
        run
    };
    std::thread::scope(|s| {
        let high = s.spawn(|| gather(&|digit| digit >= cut, total - low_len));
        [gather(&|digit| digit < cut, low_len), high.join().expect("gathering thread")]
    })
}

/// The radix sort's digits: six passes of ten bits cover a 60-bit key.
const BITS: u32 = 10;
const PASSES: usize = 6;

/// Sorts by the 60-bit key, stably: six passes of ten bits, least
/// significant first, each a counting sort; a pass where every key shares
/// the digit is skipped.
fn radix_sort<T: Keyed>(items: &mut Vec<T>) {
    let mut counts = vec![[0usize; 1 << BITS]; PASSES];
    for item in items.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[(item.key() >> (BITS * pass as u32)) as usize & ((1 << BITS) - 1)] += 1;
        }
    }
    let mut spare = vec![T::default(); items.len()];
    for (pass, count) in counts.iter_mut().enumerate() {
        if count.contains(&items.len()) {
            continue;
        }
        let mut next = 0;
        for c in count.iter_mut() {
            (*c, next) = (next, next + *c);
        }
        for &item in items.iter() {
            let digit = (item.key() >> (BITS * pass as u32)) as usize & ((1 << BITS) - 1);
            spare[count[digit]] = item;
            count[digit] += 1;
        }
        std::mem::swap(items, &mut spare);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key that settles its string spells it back; one that does not
    /// is a string too long or with a byte past the ranks kept.
    #[test]
    fn a_settled_key_spells_its_string() {
        let used: Vec<u8> = (b'a'..=b'z').chain(b'0'..=b'9').collect();
        let prefixes = Prefixes::new(&distinct_bytes(&used));
        let mut rng = crate::test_rng::SplitMix64::new(11);
        for _ in 0..5000 {
            let len = rng.below(14) as usize;
            let word: Vec<u8> = (0..len).map(|_| used[rng.below(used.len() as u64) as usize]).collect();
            let key = prefixes.key(&word);
            let capped = word.iter().any(|&b| prefixes.rank[b as usize] as u64 == Prefixes::CAPPED);
            assert_eq!(Prefixes::settles(key), len < Prefixes::LEN && !capped, "{word:?}");
            if Prefixes::settles(key) {
                let mut spelled = Vec::new();
                prefixes.spell(key, &mut spelled);
                assert_eq!(spelled, word);
            }
        }
    }

    /// The two runs are the items in order, every key of the first below
    /// every key of the second (so equal keys share a run), about half
    /// each when the keys spread; one key everywhere is one run.
    #[test]
    fn split_by_key_cuts_between_keys_and_keeps_the_order() {
        let mut rng = crate::test_rng::SplitMix64::new(5);
        for round in 0..40 {
            // Keys over a few top digits or many; some rounds one key.
            let digits = [1, 3, 1000][round % 3];
            let part = |rng: &mut crate::test_rng::SplitMix64, from: u32| -> Vec<(u64, u32)> {
                (from..from + rng.below(500) as u32)
                    .map(|id| ((rng.below(digits) << 50) | rng.below(1 << 50), id))
                    .collect()
            };
            let parts = [part(&mut rng, 0), part(&mut rng, 1000), part(&mut rng, 2000)];
            let [low, high] = split_by_key(&parts);
            let all: Vec<(u64, u32)> = parts.iter().flatten().copied().collect();
            assert_eq!(low.len() + high.len(), all.len(), "round {round}");
            let top = |k: &(u64, u32)| k.0 >> 50;
            if let (Some(l), Some(h)) = (low.iter().map(top).max(), high.iter().map(top).min()) {
                assert!(l < h, "round {round}: {l} >= {h}");
            }
            for run in [&low, &high] {
                assert!(run.is_sorted_by_key(|k| k.1), "round {round}: a run out of the items' order");
            }
            if digits == 1000 && all.len() > 100 {
                assert!(
                    low.len().abs_diff(high.len()) < all.len() / 4,
                    "round {round}: {} and {}",
                    low.len(),
                    high.len()
                );
            }
            if digits == 1 {
                assert!(low.is_empty() || high.is_empty(), "round {round}: one key cut apart");
            }
        }
    }

    #[test]
    fn sort_by_bytes_matches_a_plain_sort() {
        // Ties of the 12-byte packed prefix: long shared prefixes, keys that
        // differ only by trailing lowest bytes, and more than 31 byte values.
        let mut keys: Vec<Vec<u8>> = vec![
            b"aaaa".to_vec(),
            b"aaa".to_vec(),
            b"abcdefghijklmnop".to_vec(),
            b"abcdefghijklmnoa".to_vec(),
            b"abcdefghijkl".to_vec(),
            b"abcdefghijklm".to_vec(),
            b"zz".to_vec(),
            b"zz".to_vec(),
            // 11, 12 and 13 bytes with one prefix, some repeated.
            b"bbbbbbbbbbb".to_vec(),
            b"bbbbbbbbbbbb".to_vec(),
            b"bbbbbbbbbbbb".to_vec(),
            b"bbbbbbbbbbbba".to_vec(),
            b"bbbbbbbbbbba".to_vec(),
        ];
        keys.extend((0u8..60).map(|i| vec![b'!' + i, b'!' + (i as u32 * 7 % 60) as u8]));
        let mut rng = crate::test_rng::SplitMix64::new(3);
        keys.extend((0..2000).map(|_| (0..rng.below(20)).map(|_| b'a' + rng.below(3) as u8).collect()));
        let ids: Vec<u32> = (0..keys.len() as u32).rev().collect();
        let mut want: Vec<u32> = (0..keys.len() as u32).collect();
        want.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]).then(a.cmp(&b)));
        let used = distinct_bytes(keys.iter().flatten());
        // The bytes used, or more bytes than that: the same order.
        for used in [used, (0..=255).collect()] {
            let mut got = ids.clone();
            sort_by_bytes(&mut got, &used, |id| &keys[id as usize]);
            assert_eq!(got, want);
        }
    }
}
