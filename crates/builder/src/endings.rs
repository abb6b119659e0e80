//! Builds the `endings` section; its layout is documented in
//! `wordhoard_query::format::ending_key` and FORMAT.md.

use wordhoard_query::format::{ColumnsWriter, Payload, ENDING_LETTERS};
use wordhoard_query::Alphabet;

use crate::sorted_words::SortedWords;

/// The `endings` section: the word ids in the order of their endings
/// (`wordhoard_query::format::ending_key`), ids ascending among words
/// that end alike, and each group of equal keys' key and start.
///
/// The sort runs on the letters' ranks in the alphabet, which order as
/// their codes do and pack into fewer bits (5 a letter for English): two
/// passes of a stable radix sort on `key << 32 | id`, each over two
/// letters. The ids come in ascending and the passes are stable, so they
/// ascend within each key. Not `sort::radix_sort`: its (key, id) pairs
/// are twice the bytes, and on 10 million words this section took
/// 240-280 ms through it against 95-160 ms here (alternating builds).
pub(crate) fn endings_section(words: &SortedWords, alphabet: &Alphabet) -> Payload {
    // Rank 0 is "no letter" (a word shorter than the ending).
    let bits = (alphabet.len() + 1).next_power_of_two().trailing_zeros();
    let mut rank = [0u64; 256];
    for (i, &code) in alphabet.letters().iter().enumerate() {
        rank[code as usize] = i as u64 + 1;
    }
    let rank_key = |word: &[u8]| {
        let mut from_end = word.iter().rev().map(|&c| rank[c as usize]);
        (0..ENDING_LETTERS).fold(0u64, |key, _| key << bits | from_end.next().unwrap_or(0))
    };
    let mut keyed: Vec<u64> = words.iter().enumerate().map(|(id, word)| rank_key(word) << 32 | id as u64).collect();
    let letters_a_pass = ENDING_LETTERS / 2;
    let digit_bits = bits * letters_a_pass as u32;
    let mut spare = vec![0u64; keyed.len()];
    for pass in 0..ENDING_LETTERS.div_ceil(letters_a_pass) {
        let shift = 32 + digit_bits * pass as u32;
        let digit = |item: u64| (item >> shift) as usize & ((1 << digit_bits) - 1);
        let mut starts = vec![0usize; 1 << digit_bits];
        keyed.iter().for_each(|&item| starts[digit(item)] += 1);
        let mut next = 0;
        for start in starts.iter_mut() {
            (*start, next) = (next, next + *start);
        }
        for &item in &keyed {
            let slot = &mut starts[digit(item)];
            spare[*slot] = item;
            *slot += 1;
        }
        std::mem::swap(&mut keyed, &mut spare);
    }
    drop(spare);
    // The stored key, in codes: each rank back to its code plus 1.
    let mut code_plus_one = [0u32; 256];
    for (i, &code) in alphabet.letters().iter().enumerate() {
        code_plus_one[i + 1] = code as u32 + 1;
    }
    let stored = |rank_key: u64| {
        (0..ENDING_LETTERS).rev().fold(0u32, |key, letter| {
            key << 8 | code_plus_one[(rank_key >> (bits as usize * letter)) as usize & ((1 << bits) - 1)]
        })
    };
    // Straight into the columns' bytes (on 10 million words, each copy of
    // the ids is 35 MB), a key and a start a group of equal keys.
    let mut ids = Vec::with_capacity(4 * keyed.len());
    let (mut keys, mut starts) = (Vec::new(), Vec::new());
    let mut last = None;
    for (place, &item) in keyed.iter().enumerate() {
        ids.extend_from_slice(&(item as u32).to_le_bytes());
        if last != Some(item >> 32) {
            last = Some(item >> 32);
            keys.extend_from_slice(&stored(item >> 32).to_le_bytes());
            starts.extend_from_slice(&(place as u32).to_le_bytes());
        }
    }
    starts.extend_from_slice(&(keyed.len() as u32).to_le_bytes());
    drop(keyed);
    ColumnsWriter::new().bytes(ids).bytes(keys).bytes(starts).take_payload()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;
    use wordhoard_query::format::{ending_key, Columns, SectionId};

    /// Against a plain sort by (key, id), on random words of 1 to 6
    /// letters over a few letters (many alike endings, and words shorter
    /// than the ending), in English and in a 40-letter alphabet.
    #[test]
    fn orders_ids_as_a_plain_sort_by_key_then_id() {
        let mut rng = SplitMix64::new(11);
        let wide = Alphabet::new("abcdefghijklmnopqrstuvwxyzßàáâäåæçèéêëìíîï").unwrap();
        for alphabet in [Alphabet::latin(), wide] {
            let letters = alphabet.letters();
            let words = SortedWords::from_words((0..3000).map(|_| {
                let len = 1 + rng.below(6) as usize;
                (0..len).map(|_| letters[letters.len() - 1 - rng.below(5) as usize]).collect()
            }));
            let section = endings_section(&words, &alphabet).to_vec();
            let cols = Columns::parse(SectionId::Endings, &section).unwrap();
            let column = |i| cols.u32s(i).unwrap().iter().unwrap().collect::<Vec<u32>>();
            let (ids, keys, starts) = (column(0), column(1), column(2));
            let mut want: Vec<(u32, u32)> =
                words.iter().enumerate().map(|(id, w)| (ending_key(w), id as u32)).collect();
            want.sort_unstable();
            // Each id with its group's key.
            let mut got = Vec::new();
            for (group, key) in keys.iter().enumerate() {
                let ids = &ids[starts[group] as usize..starts[group + 1] as usize];
                got.extend(ids.iter().map(|&id| (*key, id)));
            }
            assert_eq!(got, want);
            assert!(keys.windows(2).all(|k| k[0] < k[1]), "one group a key");
            assert_eq!(starts.last(), Some(&(ids.len() as u32)));
        }
    }
}
