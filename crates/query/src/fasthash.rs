//! A hash map for keys the crate makes itself (node addresses, packed
//! search states, a phrase's letter counts): one multiplication a key (or
//! eight bytes of one) instead of SipHash, which was a quarter of a Letter
//! Boxed count and of a multi-word anagram search. Keys come from the index
//! or the user's box only through the crate's own packing, and the tables
//! are bounded, so flooding is not a concern.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`IntHasher`].
pub(crate) type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// Fibonacci hashing of integer keys.
#[derive(Default)]
pub(crate) struct IntHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        // The table takes its buckets from the low bits and its tags from
        // the high ones: fold the well-mixed high half down.
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a multiplication: a phrase's letter counts (32
        // bytes) hash in four steps.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(29) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(K);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}
