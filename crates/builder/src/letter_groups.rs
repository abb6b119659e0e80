//! Builds the `letter_groups` section; its layout is documented in
//! `wordhoard_query::format::GroupRanks::rank` and FORMAT.md.

use wordhoard_query::alphabet::LetterSet;
use wordhoard_query::format::{
    fits_some_box, group_checksum, group_count, group_key, ColumnsWriter, GroupRanks, Payload, GROUP_CHECKSUM_LEN,
    GROUP_ENTRY_EXTRA as ENTRY_EXTRA, GROUP_KEY_MOST,
};
use wordhoard_query::Alphabet;

use crate::error::BuildError;
use crate::sorted_words::SortedWords;

/// How many of a word's lowest letters name its group, for `words`
/// words (those with no letter twice in a row) over `letters` letters:
/// the most that leave at least 7 words a group on average (a group for
/// every set of that many letters or fewer), or 4,096 groups for a short
/// list. A box reads a group for every set of its letters that small,
/// and the words of each: more letters read fewer words, from more
/// places of the file, each place a page fault that maps 16 pages. For
/// RIU PGH LCS YAO, as whole processes: on the 10-million-word list (6.3
/// million words here) keys of 5, 6 and 7 letters read 1,585 groups of
/// 1.06 MB, 2,509 of 590 KB and 3,301 of 433 KB, in 152, 173 and 202
/// stretches of 64 KiB, and the box took 4.57, 4.50 and 4.76 ms; on
/// enable1 (131,614 words here) keys of 3, 4 and 5 letters, 2.03, 1.98
/// and 2.08 ms.
pub(crate) fn key_letters_for(words: usize, letters: usize) -> usize {
    let most = (words / 7).max(4096) as u64;
    (1..=GROUP_KEY_MOST.min(letters)).take_while(|&k| k == 1 || group_count(letters, k) <= most).last().unwrap_or(1)
}

/// The `letter_groups` section: every word with no letter twice in a
/// row in the group of its key ([`group_key`] of `key_letters` letters,
/// [`key_letters_for`] the words when `None`), a group for every key in
/// the order of [`GroupRanks::rank`], ids ascending within a group; where each
/// group starts; and the groups, each its checksum, then its entries, a
/// word each: a length byte, the codes, the id.
///
/// One pass gives each word its group's rank, computed from its letters
/// (no map of keys), and a counting sort places the entries: the ids
/// come in ascending, so they ascend within each group.
pub(crate) fn letter_groups_section(
    words: &SortedWords,
    alphabet: &Alphabet,
    key_letters: Option<usize>,
) -> Result<Payload, BuildError> {
    let letters = alphabet.len();
    let mut index = [0u8; 256];
    for (i, &code) in alphabet.letters().iter().enumerate() {
        index[code as usize] = i as u8;
    }
    let playable = words.iter().filter(|word| fits_some_box(word)).count();
    let key_letters = key_letters.unwrap_or_else(|| key_letters_for(playable, letters)).clamp(1, GROUP_KEY_MOST);
    let ranks = GroupRanks::new();
    let groups = ranks.count(letters, key_letters);
    let too_large = || BuildError::too_large("over 4 GiB of words in the letter groups");
    if groups >= u32::MAX as u64 {
        return Err(too_large());
    }
    let groups = groups as usize;
    // Each word's group (none for a word with a letter twice in a row),
    // and each group's bytes.
    let mut sizes = vec![GROUP_CHECKSUM_LEN as u64; groups];
    let ranks: Vec<u32> = words
        .iter()
        .map(|word| {
            if !fits_some_box(word) {
                return u32::MAX;
            }
            let set = word.iter().fold(0u64, |set, &code| set | 1 << index[code as usize]);
            let rank = ranks.rank(group_key(LetterSet(set), key_letters), letters) as usize;
            sizes[rank] += (word.len() + ENTRY_EXTRA) as u64;
            rank as u32
        })
        .collect();
    let offset = |len: u64| u32::try_from(len).map_err(|_| too_large());
    let mut starts = Vec::with_capacity(groups + 1);
    let mut next = Vec::with_capacity(groups);
    let mut len = 0u64;
    for &size in &sizes {
        starts.push(offset(len)?);
        next.push(offset(len + GROUP_CHECKSUM_LEN as u64)?);
        len += size;
    }
    starts.push(offset(len)?);
    drop(sizes);
    let mut bytes = vec![0u8; len as usize];
    for (id, (word, &rank)) in words.iter().zip(&ranks).enumerate() {
        if rank == u32::MAX {
            continue;
        }
        let at = &mut next[rank as usize];
        let entry = &mut bytes[*at as usize..*at as usize + word.len() + ENTRY_EXTRA];
        // A word is at most 255 codes long (FORMAT.md).
        entry[0] = word.len() as u8;
        entry[1..1 + word.len()].copy_from_slice(word);
        entry[1 + word.len()..].copy_from_slice(&(id as u32).to_le_bytes());
        *at += entry.len() as u32;
    }
    for (rank, run) in starts.windows(2).enumerate() {
        let (start, end) = (run[0] as usize, run[1] as usize);
        let sum = group_checksum(rank as u32, &bytes[start + GROUP_CHECKSUM_LEN..end]);
        bytes[start..start + GROUP_CHECKSUM_LEN].copy_from_slice(&sum.to_le_bytes());
    }
    let shape = [key_letters as u32, letters as u32];
    Ok(ColumnsWriter::new().u32s(&shape).u32s(&starts).bytes(bytes).take_payload())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;
    use wordhoard_query::format::{Columns, SectionId};

    /// Against a plain sort by (rank of key, id) of the words with no
    /// letter twice in a row, on random words of 1 to 9 letters over a
    /// few letters (many words a group, and words of fewer letters than
    /// a key), in English and in a 40-letter alphabet, with keys of
    /// several sizes.
    #[test]
    fn groups_words_as_a_plain_sort_by_rank_then_id() {
        let mut rng = SplitMix64::new(12);
        let wide = Alphabet::new("abcdefghijklmnopqrstuvwxyzßàáâäåæçèéêëìíîï").unwrap();
        for (alphabet, key_letters) in [(Alphabet::latin(), None), (Alphabet::latin(), Some(2)), (wide, Some(4))] {
            let letters = alphabet.letters();
            let words = SortedWords::from_words((0..3000).map(|_| {
                let len = 1 + rng.below(9) as usize;
                (0..len).map(|_| letters[letters.len() - 1 - rng.below(8) as usize]).collect()
            }));
            let section = letter_groups_section(&words, &alphabet, key_letters).unwrap().to_vec();
            let cols = Columns::parse(SectionId::LetterGroups, &section).unwrap();
            let shape: Vec<u32> = cols.u32s(0).unwrap().iter().unwrap().collect();
            let k = shape[0] as usize;
            assert_eq!(shape, [key_letters.unwrap_or(k) as u32, alphabet.len() as u32]);
            let starts: Vec<u32> = cols.u32s(1).unwrap().iter().unwrap().collect();
            assert_eq!(starts.len() as u64, group_count(alphabet.len(), k) + 1);
            let bytes = cols.bytes(2).unwrap();
            let mut want: Vec<(u64, u32, Vec<u8>)> = words
                .iter()
                .enumerate()
                .filter(|(_, w)| w.windows(2).all(|p| p[0] != p[1]))
                .map(|(id, w)| {
                    let key = group_key(alphabet.set_of(w).unwrap(), k);
                    (GroupRanks::new().rank(key, alphabet.len()), id as u32, w.to_vec())
                })
                .collect();
            want.sort_unstable();
            let mut got = Vec::new();
            for (rank, run) in starts.windows(2).enumerate() {
                let group = &bytes[run[0] as usize..run[1] as usize];
                let (sum, mut rest) = group.split_at(GROUP_CHECKSUM_LEN);
                let mut crc = crc32fast::Hasher::new();
                crc.update(&(rank as u32).to_le_bytes());
                crc.update(rest);
                assert_eq!(u32::from_le_bytes(sum.try_into().unwrap()), crc.finalize(), "group {rank}'s CRC-32");
                while !rest.is_empty() {
                    let len = rest[0] as usize;
                    let id = u32::from_le_bytes(rest[1 + len..1 + len + 4].try_into().unwrap());
                    got.push((rank as u64, id, rest[1..1 + len].to_vec()));
                    rest = &rest[len + ENTRY_EXTRA..];
                }
            }
            assert_eq!(starts.last(), Some(&(bytes.len() as u32)));
            assert_eq!(got, want);
            assert!(got.len() < words.len(), "some words have a letter twice in a row");
        }
    }

    /// Keys of more letters as lists grow, within the groups' bound.
    #[test]
    fn keys_grow_with_the_list() {
        assert_eq!(key_letters_for(10, 26), 3, "2,952 groups: under 4,096");
        assert_eq!(key_letters_for(131_614, 26), 4, "enable1's words with no letter twice in a row");
        assert_eq!(key_letters_for(6_341_422, 26), 6, "the 10-million-word list's");
        assert_eq!(key_letters_for(1 << 40, 26), GROUP_KEY_MOST);
        assert_eq!(key_letters_for(10, 3), 3, "no more than the alphabet's letters");
        assert_eq!(key_letters_for(10, 64), 2, "2,081 groups of 64 letters; 3 would be 43,745");
    }
}
