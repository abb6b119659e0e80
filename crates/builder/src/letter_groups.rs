//! Builds the `letter_groups` section; its layout is documented in
//! `wordhoard_query::format::group_key` and FORMAT.md.

use wordhoard_query::alphabet::LetterSet;
use wordhoard_query::format::{group_checksum, group_key, ColumnsWriter, GROUP_ENTRY_EXTRA as ENTRY_EXTRA};
use wordhoard_query::Alphabet;

use crate::error::BuildError;
use crate::hash::FastMap;
use crate::sorted_words::SortedWords;

/// The `letter_groups` section: every word in the group of its key
/// ([`group_key`]), groups in ascending order of key, ids ascending
/// within a group; each group's key and where it starts in the entries;
/// the entries, a word each: a length byte, the codes, the id; and each
/// group's checksum.
///
/// One pass gives each word its group (a map from key to group: at most
/// some 84,000 keys over 26 letters), the groups are put in key order,
/// and a counting sort places the entries: the ids come in
/// ascending, so they ascend within each group.
pub(crate) fn letter_groups_section(words: &SortedWords, alphabet: &Alphabet) -> Result<Vec<u8>, BuildError> {
    let mut index = [0u8; 256];
    for (i, &code) in alphabet.letters().iter().enumerate() {
        index[code as usize] = i as u8;
    }
    // Each word's group, numbered as first met, and each group's bytes.
    let mut group_of_key: FastMap<u64, u32> = FastMap::default();
    let (mut keys, mut sizes): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    let groups: Vec<u32> = words
        .iter()
        .map(|word| {
            let set = word.iter().fold(0u64, |set, &code| set | 1 << index[code as usize]);
            let key = group_key(LetterSet(set)).0;
            let group = *group_of_key.entry(key).or_insert_with(|| {
                keys.push(key);
                sizes.push(0);
                keys.len() as u32 - 1
            });
            sizes[group as usize] += (word.len() + ENTRY_EXTRA) as u64;
            group
        })
        .collect();
    drop(group_of_key);
    // The groups in key order, and where each starts in the entries.
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    order.sort_unstable_by_key(|&group| keys[group as usize]);
    let mut next = vec![0u32; keys.len()];
    let mut starts = Vec::with_capacity(keys.len() + 1);
    let offset =
        |len: u64| u32::try_from(len).map_err(|_| BuildError::too_large("over 4 GiB of words in the letter groups"));
    let mut len = 0u64;
    for &group in &order {
        let start = offset(len)?;
        (next[group as usize], len) = (start, len + sizes[group as usize]);
        starts.push(start);
    }
    starts.push(offset(len)?);
    let sorted_keys: Vec<u64> = order.iter().map(|&group| keys[group as usize]).collect();
    let mut entries = vec![0u8; len as usize];
    for (id, (word, &group)) in words.iter().zip(&groups).enumerate() {
        let at = &mut next[group as usize];
        let entry = &mut entries[*at as usize..*at as usize + word.len() + ENTRY_EXTRA];
        // A word is at most 255 codes long (FORMAT.md).
        entry[0] = word.len() as u8;
        entry[1..1 + word.len()].copy_from_slice(word);
        entry[1 + word.len()..].copy_from_slice(&(id as u32).to_le_bytes());
        *at += entry.len() as u32;
    }
    let checksums: Vec<u32> =
        starts.windows(2).map(|run| group_checksum(&entries[run[0] as usize..run[1] as usize])).collect();
    Ok(ColumnsWriter::new().u64s(&sorted_keys).u32s(&starts).bytes(entries).u32s(&checksums).finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;
    use wordhoard_query::format::{Columns, SectionId};

    /// Against a plain sort by (key, id), on random words of 1 to 9
    /// letters over a few letters (many words a group, and words of fewer
    /// letters than a key), in English and in a 40-letter alphabet.
    #[test]
    fn groups_words_as_a_plain_sort_by_key_then_id() {
        let mut rng = SplitMix64::new(12);
        let wide = Alphabet::new("abcdefghijklmnopqrstuvwxyzßàáâäåæçèéêëìíîï").unwrap();
        for alphabet in [Alphabet::latin(), wide] {
            let letters = alphabet.letters();
            let words = SortedWords::from_words((0..3000).map(|_| {
                let len = 1 + rng.below(9) as usize;
                (0..len).map(|_| letters[letters.len() - 1 - rng.below(8) as usize]).collect()
            }));
            let section = letter_groups_section(&words, &alphabet).unwrap();
            let cols = Columns::parse(SectionId::LetterGroups, &section).unwrap();
            let keys: Vec<u64> = cols.u64s(0).unwrap().iter().unwrap().collect();
            let starts: Vec<u32> = cols.u32s(1).unwrap().iter().unwrap().collect();
            let entries = cols.bytes(2).unwrap();
            let mut want: Vec<(u64, u32, Vec<u8>)> = words
                .iter()
                .enumerate()
                .map(|(id, w)| (group_key(alphabet.set_of(w).unwrap()).0, id as u32, w.to_vec()))
                .collect();
            want.sort_unstable();
            let mut got = Vec::new();
            for (group, &key) in keys.iter().enumerate() {
                let mut rest = &entries[starts[group] as usize..starts[group + 1] as usize];
                assert!(!rest.is_empty(), "no group is empty");
                while !rest.is_empty() {
                    let len = rest[0] as usize;
                    let id = u32::from_le_bytes(rest[1 + len..1 + len + 4].try_into().unwrap());
                    got.push((key, id, rest[1..1 + len].to_vec()));
                    rest = &rest[len + ENTRY_EXTRA..];
                }
            }
            assert_eq!(starts.last(), Some(&(entries.len() as u32)));
            let checksums: Vec<u32> = cols.u32s(3).unwrap().iter().unwrap().collect();
            let want_checksums: Vec<u32> =
                starts.windows(2).map(|run| crc32fast::hash(&entries[run[0] as usize..run[1] as usize])).collect();
            assert_eq!(checksums, want_checksums, "a CRC-32 a group");
            assert_eq!(got, want);
            assert!(keys.windows(2).all(|k| k[0] < k[1]), "one group a key");
            assert!(keys.iter().all(|k| k.count_ones() as usize <= wordhoard_query::format::GROUP_LETTERS));
        }
    }
}
