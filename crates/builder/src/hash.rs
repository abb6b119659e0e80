//! A fast hasher for the builder's hash maps of letter masks and terms.
//! Keys come from the word list, not from an attacker over a network, so
//! SipHash's flood resistance buys nothing here and costs build time.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The SplitMix64 output function of the `i`-th step from `seed`: values
/// that look random and are the same on every platform and build, for
/// keys that must spread well (a sum of them per term, say).
pub(crate) fn spread(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A multiply-rotate hasher in the style of rustc's FxHash.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let mut tail = [0u8; 8];
        let rest = chunks.remainder();
        tail[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(tail) ^ rest.len() as u64);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // hashbrown indexes by the low bits and tags by the top ones; fold
        // the well-mixed high bits down so both are good.
        self.0 ^ (self.0 >> 29)
    }
}

/// A `HashMap` using [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// An open-addressing table of `u32` values filed under 64-bit hashes,
/// eight bytes a slot (the hash's low 32 bits as a tag beside the value),
/// so tens of thousands of entries stay in L2 where `HashMap` would spill.
/// It keeps no keys: `find` hands each value whose tag matches to the
/// caller to confirm, and a caller whose keys fit in 32 bits uses the key
/// as the hash and confirms nothing.
pub struct TagTable {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

impl TagTable {
    /// A table for up to `n` values; it never grows.
    pub fn with_capacity(n: usize) -> TagTable {
        let size = (2 * n).max(8).next_power_of_two();
        TagTable { slots: vec![0; size], shift: 64 - size.trailing_zeros(), len: 0 }
    }

    /// Where a hash's probe starts: its top bits after a multiply, so
    /// hashes that differ only in low bits still spread.
    #[inline]
    fn start(&self, hash: u64) -> usize {
        (hash.wrapping_mul(K) >> self.shift) as usize
    }

    /// Files `value` (below `u32::MAX`) under `hash`.
    pub fn insert(&mut self, hash: u64, value: u32) {
        assert!(self.len < self.slots.len() / 2 && value < u32::MAX, "TagTable over capacity");
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        // Value + 1, so an empty slot (0) is never a stored one.
        self.slots[i] = (hash as u32 as u64) << 32 | (value as u64 + 1);
        self.len += 1;
    }

    /// Files every `(hash, value)` of `entries`, as [`TagTable::insert`]
    /// would one by one, but a slice of the table at a time: the entries
    /// are first dealt by the top bits of their slot into 256 piles, so
    /// each pile's writes land in 1/256 of the table, in cache, where
    /// inserts in hash order would miss it (and the TLB) nearly every time
    /// on a table of millions.
    pub fn insert_all(&mut self, entries: &[(u64, u32)]) {
        const PILES: usize = 256;
        let pile_shift = self.slots.len().trailing_zeros().saturating_sub(PILES.trailing_zeros());
        let pile = |hash: u64| self.start(hash) >> pile_shift;
        let mut starts = [0usize; PILES + 1];
        for &(hash, _) in entries {
            starts[pile(hash) + 1] += 1;
        }
        for p in 0..PILES {
            starts[p + 1] += starts[p];
        }
        let mut dealt = vec![(0u64, 0u32); entries.len()];
        for &entry in entries {
            let at = &mut starts[pile(entry.0)];
            dealt[*at] = entry;
            *at += 1;
        }
        for (hash, value) in dealt {
            self.insert(hash, value);
        }
    }

    /// The first value filed under `hash`'s tag that `confirm` accepts.
    #[inline]
    pub fn find(&self, hash: u64, mut confirm: impl FnMut(u32) -> bool) -> Option<u32> {
        let tag = hash as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.start(hash);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if (slot >> 32) as u32 == tag {
                let value = slot as u32 - 1;
                if confirm(value) {
                    return Some(value);
                }
            }
            i = (i + 1) & mask;
        }
    }
}

/// Two bits of one 64-bit word set under each hash filed: in front of a
/// [`TagTable`] whose lookups mostly miss, it answers most misses from a
/// table an eighth its size, which stays in cache when the table does
/// not, in one load a lookup.
pub struct HashFilter {
    bits: Vec<u64>,
    shift: u32,
}

/// Another odd multiplier than [`TagTable`]'s, so the filter's bits and
/// the table's slot come from different mixes of the hash.
const K_FILTER: u64 = 0x9E37_79B9_7F4A_7C15;

/// Bits set a hash, all in one word: two let about 5% of misses past
/// where one let 11.5% (at eight bits a hash); on the chain graph of 10
/// million words, whose lookups past the filter each miss the cache, two
/// made the graph 0.92x the time of one (paired median of 8 builds),
/// three 1.02x that of two.
const FILTER_BITS: u32 = 2;

impl HashFilter {
    /// A filter for up to `n` hashes: eight bits each, rounded up to a
    /// power of two (and at least two words), so about one miss in
    /// twenty gets past it.
    pub fn with_capacity(n: usize) -> HashFilter {
        let size = n.saturating_mul(8).max(128).next_power_of_two();
        let words = size / 64;
        HashFilter { bits: vec![0; words], shift: 64 - words.trailing_zeros() }
    }

    /// The word of `hash`'s bits (by the top bits of a multiply) and its
    /// bits there (by the low ones).
    #[inline]
    fn place(&self, hash: u64) -> (usize, u64) {
        let mixed = hash.wrapping_mul(K_FILTER);
        let mut bits = 0;
        for b in 0..FILTER_BITS {
            bits |= 1 << ((mixed >> (6 * b)) & 63);
        }
        ((mixed >> self.shift) as usize, bits)
    }

    /// Files `hash`.
    #[inline]
    pub fn insert(&mut self, hash: u64) {
        let (word, bits) = self.place(hash);
        self.bits[word] |= bits;
    }

    /// False when `hash` was never filed; true when it may have been.
    #[inline]
    pub fn may_hold(&self, hash: u64) -> bool {
        let (word, bits) = self.place(hash);
        self.bits[word] & bits == bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_table_finds_what_was_filed_and_lets_the_caller_confirm() {
        let mut t = TagTable::with_capacity(1000);
        for v in 0..1000u32 {
            t.insert(v as u64 * 7, v);
        }
        for v in 0..1000u32 {
            assert_eq!(t.find(v as u64 * 7, |_| true), Some(v));
        }
        assert_eq!(t.find(3, |_| true), None);
        // Two values under one tag: the caller picks.
        let mut t = TagTable::with_capacity(2);
        t.insert(42, 1);
        t.insert(42, 2);
        assert_eq!(t.find(42, |v| v == 2), Some(2));
        assert_eq!(t.find(42, |_| false), None);
    }

    #[test]
    fn filing_all_at_once_finds_what_filing_one_by_one_finds() {
        for n in [0, 1, 7, 1000, 5000] {
            let entries: Vec<(u64, u32)> = (0..n).map(|i| (spread(3, i as u64 % 900), i)).collect();
            let (mut one, mut all) = (TagTable::with_capacity(n as usize), TagTable::with_capacity(n as usize));
            entries.iter().for_each(|&(h, v)| one.insert(h, v));
            all.insert_all(&entries);
            for &(h, v) in &entries {
                assert_eq!(all.find(h, |x| x == v), Some(v));
                let (mut a, mut b) = (Vec::new(), Vec::new());
                one.find(h, |x| {
                    a.push(x);
                    false
                });
                all.find(h, |x| {
                    b.push(x);
                    false
                });
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "the values under {h}'s tag");
            }
        }
    }

    #[test]
    fn filter_holds_every_hash_filed_and_turns_most_others_away() {
        let mut f = HashFilter::with_capacity(1000);
        let filed: Vec<u64> = (0..1000).map(|i| spread(1, i)).collect();
        filed.iter().for_each(|&h| f.insert(h));
        assert!(filed.iter().all(|&h| f.may_hold(h)));
        let passed = (0..10_000).filter(|&i| f.may_hold(spread(2, i))).count();
        // 1,000 hashes in 8,192 bits, two bits each in one word: about 5%
        // of others pass (one bit each let 11.5% through).
        assert!((250..900).contains(&passed), "{passed} of 10,000 passed");
    }
}
