//! A hash map for integer keys the crate makes itself (node addresses,
//! packed search states): one multiplication a key instead of SipHash,
//! which was a quarter of a Letter Boxed count. Keys come from the index
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
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(K);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(K);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}
