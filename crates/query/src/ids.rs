//! Putting word ids in order: a question gathers them from tables that
//! group words by letters (a-z within a group) and shows them a-z, which
//! is id order.

/// Sorts `ids` ascending: a least-significant-digit radix sort in two or
/// three passes over digits as wide as the largest id needs (at most 11
/// bits), which on the hundreds of ids of a honeycomb costs a third of a
/// comparison sort's branches; few ids go to `sort_unstable`.
pub(crate) fn sort(ids: &mut Vec<u32>) {
    if ids.len() < RADIX_FROM {
        ids.sort_unstable();
        return;
    }
    let max = ids.iter().copied().max().unwrap_or(0);
    let bits = (u32::BITS - max.leading_zeros()).max(1);
    let passes = bits.div_ceil(MAX_DIGIT_BITS);
    let width = bits.div_ceil(passes);
    let mask = (1u32 << width) - 1;
    let mut counts = vec![0u32; (passes as usize) << width];
    for &id in ids.iter() {
        for pass in 0..passes {
            counts[((pass as usize) << width) + ((id >> (pass * width)) & mask) as usize] += 1;
        }
    }
    let mut from = std::mem::take(ids);
    let mut to = vec![0u32; from.len()];
    for (pass, starts) in (0..passes).zip(counts.chunks_exact_mut(1 << width)) {
        // Each digit's count becomes where its ids start.
        let mut at = 0;
        for slot in starts.iter_mut() {
            (*slot, at) = (at, at + *slot);
        }
        for &id in &from {
            let slot = &mut starts[((id >> (pass * width)) & mask) as usize];
            to[*slot as usize] = id;
            *slot += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    *ids = from;
}

/// Below this many ids a comparison sort is as quick.
const RADIX_FROM: usize = 64;
/// The widest digit: 2^11 counts (8 KB) a pass.
const MAX_DIGIT_BITS: u32 = 11;

#[cfg(test)]
mod tests {
    use super::*;

    /// Any ids, of any width, come out as a plain sort leaves them.
    #[test]
    fn sorts_as_a_plain_sort_does() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for len in [0, 1, 5, 63, 64, 65, 537, 3000] {
            for bits in [1, 8, 9, 18, 22, 24, 31, 32] {
                let ids: Vec<u32> = (0..len).map(|_| (rng.next_u64() as u32) >> (32 - bits)).collect();
                let mut want = ids.clone();
                want.sort_unstable();
                let mut got = ids;
                sort(&mut got);
                assert_eq!(got, want, "{len} ids of {bits} bits");
            }
        }
    }
}
