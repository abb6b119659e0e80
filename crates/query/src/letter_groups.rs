//! The `letter_groups` section: every word, with its id and its letters,
//! in groups of the lowest [`GROUP_LETTERS`] letters of its letter set
//! ([`group_key`]). The words whose letters all lie in a set (a Letter
//! Boxed box's twelve) are in the groups whose keys lie in it, and those
//! are read back to back; a walk of the words FST down the same letters
//! visits nodes all over the FST (on a list of 10 million words, nearly
//! every page of it).
//!
//! Columns (FORMAT.md): `u64[g]` the groups' keys, ascending; `u32[g + 1]`
//! where each group starts in the entries, and their length; `u8[]` the
//! entries, a word each: its length, its codes, its id (`u32`); `u32[g]`
//! each group's checksum. The id sits beside the word, not in a column
//! of its own, so that a lookup reads one stretch of the file a group,
//! not two. A lookup checks the groups it reads by their own checksums,
//! not the 64 KiB blocks around them: on a list of 10 million words a
//! box's groups are 1.5 MB in blocks of some 20 MB. (Builds before the
//! checksums wrote three columns; their groups are checked by block.)
//! The section is optional: without it, Letter Boxed walks the FST.

use crate::alphabet::{Alphabet, LetterSet};
use crate::error::Result;
use crate::format::blocks::{check, Lazy};
use crate::format::{
    group_checksum, group_key, le_u32, Columns, SectionId, U32s, U64s, GROUP_ENTRY_EXTRA, GROUP_LETTERS,
};
use crate::word_text::WordText;

/// A view of the `letter_groups` section, its lengths checked against
/// each other; every read is bounds-checked, every word checked to lie
/// within its group and every id to be a word's, and blocks are checked
/// as they are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LetterGroups<'a> {
    keys: U64s<'a>,
    starts: U32s<'a>,
    entries: &'a [u8],
    lazy: Option<Lazy<'a>>,
    /// Each group's checksum (column 3), where the file has them.
    checksums: Option<U32s<'a>>,
    words: usize,
}

fn corrupt(problem: impl Into<String>) -> crate::Error {
    SectionId::LetterGroups.corrupt(problem)
}

impl<'a> LetterGroups<'a> {
    /// Reads the table over `cols`, for an index of `words` words.
    pub(crate) fn new(cols: Columns<'a>, words: usize) -> Result<LetterGroups<'a>> {
        let (keys, starts) = (cols.u64s(0)?, cols.u32s(1)?);
        let (entries, lazy) = cols.lazy_bytes(2)?;
        if starts.len() != keys.len() + 1 {
            return Err(corrupt("does not have one start a group"));
        }
        let checksums = if cols.len() > 3 { Some(cols.u32s(3)?) } else { None };
        if checksums.is_some_and(|sums| sums.len() != keys.len()) {
            return Err(corrupt("does not have one checksum a group"));
        }
        Ok(LetterGroups { keys, starts, entries, lazy, checksums, words })
    }

    /// [`LetterGroups::each_in_groups`] over the groups of
    /// [`LetterGroups::groups_within`] `within`.
    #[cfg(test)]
    pub(crate) fn each_within(
        &self,
        within: LetterSet,
        f: impl FnMut(u32, &'a [u8], &'a [u8]) -> Result<()>,
    ) -> Result<()> {
        self.each_in_groups(&self.groups_within(within)?, f)
    }

    /// The groups whose keys lie in `within`, in key order: the keys read
    /// whole (8 bytes a group: 670 KB on 10 million words, against 125 MB
    /// of entries).
    pub(crate) fn groups_within(&self, within: LetterSet) -> Result<Vec<usize>> {
        let outside = !within.0;
        let mut groups = Vec::new();
        // The keys 64 at a time into a mask of those that lie in the set,
        // with no branch a key (a branch a key cost a sixth of a box's
        // lookup on enable1); then each group of the mask.
        for (chunk, keys) in self.keys.as_bytes()?.chunks(8 * 64).enumerate() {
            let mut inside = 0u64;
            for (i, key) in keys.chunks_exact(8).enumerate() {
                let key = u64::from_le_bytes(key.try_into().expect("8 bytes"));
                inside |= ((key & outside == 0) as u64) << i;
            }
            while inside != 0 {
                groups.push(64 * chunk + inside.trailing_zeros() as usize);
                inside &= inside - 1;
            }
        }
        Ok(groups)
    }

    /// The most words `groups` can hold, by their lengths in bytes (not
    /// yet checked: for sizing a list, not for reading).
    pub(crate) fn most_words_in(&self, groups: &[usize]) -> Result<usize> {
        let starts = self.starts.as_bytes()?;
        let at = |i: usize| starts.get(4 * i..4 * i + 4).map_or(0, |b| le_u32(b) as usize);
        // Saturating: a damaged table's starts could sum past a 32-bit
        // usize (wasm32); the caller caps the room it makes anyway.
        let bytes = groups.iter().fold(0usize, |sum, &g| sum.saturating_add(at(g + 1).saturating_sub(at(g))));
        Ok(bytes / (GROUP_ENTRY_EXTRA + 1))
    }

    /// Calls `f` with the id and the codes (not yet checked to be
    /// letters) of every word of `groups` (from
    /// [`LetterGroups::groups_within`] a set), and the group's bytes from
    /// that word's first code on (for reads of a fixed width past the
    /// word: the group was checked whole): among them, every word whose
    /// letters lie in the set. Group by group in their order, ids
    /// ascending within a group; each group's entries read once, checked
    /// to fill it exactly.
    pub(crate) fn each_in_groups(
        &self,
        groups: &[usize],
        mut f: impl FnMut(u32, &'a [u8], &'a [u8]) -> Result<()>,
    ) -> Result<()> {
        let starts = self.starts.as_bytes()?;
        for &group in groups {
            self.each_in(group, starts, &mut f)?;
        }
        Ok(())
    }

    /// Calls `f` with the id and codes of every word of group `group`
    /// (see [`LetterGroups::each_in_groups`]); `starts` is the column of
    /// starts, checked.
    fn each_in(
        &self,
        group: usize,
        starts: &[u8],
        f: &mut impl FnMut(u32, &'a [u8], &'a [u8]) -> Result<()>,
    ) -> Result<()> {
        let at = |i: usize| starts.get(4 * i..4 * i + 4).map(|b| le_u32(b) as usize);
        let entries = match (at(group), at(group + 1)) {
            (Some(start), Some(end)) if start < end => self.entries.get(start..end),
            _ => None,
        };
        let mut rest = entries.ok_or_else(|| corrupt("has a group empty or outside its entries"))?;
        match self.checksums {
            Some(sums) if group_checksum(rest) != sums.at(group)? as u32 => {
                return Err(corrupt(format!("has group {group} damaged: its checksum does not match")));
            }
            Some(_) => {}
            None => check(self.lazy, rest)?,
        }
        while let Some((&len, after)) = rest.split_first() {
            let len = len as usize;
            let (Some(word), Some(id)) = (after.get(..len), after.get(len..len + 4)) else {
                return Err(corrupt("has a word past the end of its group"));
            };
            let id = le_u32(id);
            if len == 0 || id as usize >= self.words {
                return Err(corrupt("has an empty word, or an id past the last word"));
            }
            f(id, word, after)?;
            rest = &rest[len + GROUP_ENTRY_EXTRA..];
        }
        Ok(())
    }

    /// The whole table (`verify`): keys ascending, groups back to back
    /// and not empty, ids ascending within a group, every word once, in
    /// the group of its key, with the letters `word_text` has for it.
    pub(crate) fn check(&self, alphabet: &Alphabet, text: &WordText<'a>) -> Result<()> {
        self.starts.check_offsets(self.entries.len())?;
        if self.starts.get(0) != Some(0) {
            return Err(corrupt("has its first group start past the start of its entries"));
        }
        let keys: Vec<u64> = self.keys.iter()?.collect();
        if !keys.is_sorted_by(|a, b| a < b) {
            return Err(corrupt("has its keys out of order"));
        }
        let starts = self.starts.as_bytes()?;
        let mut seen = vec![false; self.words];
        let mut listed = 0;
        let mut near = crate::word_text::Near::default();
        for (group, &key) in keys.iter().enumerate() {
            if key.count_ones() as usize > GROUP_LETTERS || key & !alphabet.full_set().0 != 0 {
                return Err(corrupt(format!("has group {group}'s key not a set of its letters")));
            }
            let mut last = None;
            self.each_in(group, starts, &mut |id, word, _| {
                let id = id as usize;
                let problem = if last >= Some(id) {
                    format!("has group {group}'s ids out of order")
                } else if std::mem::replace(&mut seen[id], true) {
                    format!("lists word {id} twice")
                } else if text.word_near(id, &mut near)? != word {
                    format!("has word {id} spelled otherwise than `word_text`")
                } else if alphabet.set_of(word).map(group_key) != Some(LetterSet(key)) {
                    format!("has word {id} in a group of other letters")
                } else {
                    (last, listed) = (Some(id), listed + 1);
                    return Ok(());
                };
                Err(corrupt(problem))
            })?;
        }
        if listed != self.words {
            return Err(corrupt(format!("lists {listed} words of {}", self.words)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::alphabet::LetterSet;
    use crate::format::{group_key, reseal, SectionId};
    use crate::rng::SplitMix64;
    use crate::Index;

    /// The words `each_within` gives for `set`, as (id, word).
    fn within(index: &Index<Vec<u8>>, set: LetterSet) -> crate::Result<Vec<(u32, Vec<u8>)>> {
        let mut got = Vec::new();
        index.letter_groups()?.expect("built with the groups").each_within(set, |id, word, _| {
            got.push((id, word.to_vec()));
            Ok(())
        })?;
        Ok(got)
    }

    /// On random lists and random sets, against a plain filter of every
    /// word: the words of the groups whose keys lie in the set, each once
    /// with its own id, and among them every word whose letters do.
    #[test]
    fn gives_the_words_of_the_groups_within_a_set() {
        let mut rng = SplitMix64::new(30);
        for round in 0..30 {
            let letters = 3 + rng.below(10) as u8;
            let words: Vec<String> = (0..1 + rng.below(200))
                .map(|_| (0..1 + rng.below(9)).map(|_| (b'a' + rng.below(letters as u64) as u8) as char).collect())
                .collect();
            let index = crate::testutil::index(&words.join("\n"), None);
            let alphabet = index.alphabet().clone();
            let all: Vec<Vec<u8>> = (0..index.word_count() as u32)
                .map(|id| index.words_of(vec![id]).unwrap()[0].clone().into_bytes())
                .collect();
            for _ in 0..10 {
                let set = LetterSet(rng.next_u64() & ((1 << letters) - 1));
                let mut got = within(&index, set).unwrap();
                got.sort_unstable();
                let want: Vec<(u32, Vec<u8>)> = (0u32..)
                    .zip(&all)
                    .filter(|(_, w)| group_key(alphabet.set_of(w).unwrap()).is_subset_of(set))
                    .map(|(id, w)| (id, w.clone()))
                    .collect();
                assert_eq!(got, want, "round {round}, set {set:?}");
                // The bound a caller sizes its list by holds them all.
                let groups = index.letter_groups().unwrap().expect("built with the groups");
                assert!(got.len() <= groups.most_words_in(&groups.groups_within(set).unwrap()).unwrap());
                let inside = all.iter().filter(|w| alphabet.set_of(w).unwrap().is_subset_of(set)).count();
                assert_eq!(got.iter().filter(|(_, w)| alphabet.set_of(w).unwrap().is_subset_of(set)).count(), inside);
            }
        }
    }

    /// Column `column` of the index's `letter_groups`: where it lies in
    /// the file.
    fn column_range(index: &Index<Vec<u8>>, column: usize) -> std::ops::Range<usize> {
        let section = index.header().entry(SectionId::LetterGroups).unwrap().range();
        // The column table's entry: offset and length, u64s (FORMAT.md).
        let entry = section.start + 8 + 16 * column;
        let field = |at: usize| u64::from_le_bytes(index.as_bytes()[at..at + 8].try_into().unwrap()) as usize;
        let start = section.start + field(entry);
        start..start + field(entry + 8)
    }

    /// The index with the entries (column 2) changed by `edit`, and every
    /// checksum made right again: the blocks' and, with `groups`, the
    /// groups'.
    fn edited_sealed(index: &Index<Vec<u8>>, groups: bool, edit: impl FnOnce(&mut [u8])) -> Index<Vec<u8>> {
        let (starts, entries, sums) = (column_range(index, 1), column_range(index, 2), column_range(index, 3));
        let mut file = index.as_bytes().to_vec();
        edit(&mut file[entries.clone()]);
        if groups {
            let starts: Vec<usize> =
                file[starts].chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize).collect();
            for (group, run) in starts.windows(2).enumerate() {
                let sum = crate::format::group_checksum(&file[entries.start + run[0]..entries.start + run[1]]);
                file[sums.start + 4 * group..][..4].copy_from_slice(&sum.to_le_bytes());
            }
        }
        reseal(&mut file);
        Index::from_bytes(file).unwrap()
    }

    fn edited(index: &Index<Vec<u8>>, edit: impl FnOnce(&mut [u8])) -> Index<Vec<u8>> {
        edited_sealed(index, true, edit)
    }

    /// A group's byte changed, the blocks' checksums made right but not
    /// the group's: the lookup that reads the group errs.
    #[test]
    fn a_damaged_group_is_an_error() {
        let index = crate::testutil::index("bat\ncab\nabaca\ntab\nbatch\n", None);
        let everything = index.alphabet().full_set();
        let respelled = edited_sealed(&index, false, |entries| entries[1] = b'z');
        let err = within(&respelled, everything).unwrap_err().to_string();
        assert!(err.contains("checksum does not match"), "{err}");
        assert!(problem(&respelled).is_some_and(|p| p.contains("checksum does not match")));
    }

    /// A section of three columns, as builds before the groups'
    /// checksums wrote it: read, each group checked by its blocks.
    #[test]
    fn groups_without_checksums_are_read_by_blocks() {
        use crate::format::{ColumnsWriter, FileWriter};
        let index = crate::testutil::index("bat\ncab\nabaca\ntab\nbatch\n", None);
        let bytes = |column| index.as_bytes()[column_range(&index, column)].to_vec();
        let u32s = |b: Vec<u8>| b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        let u64s =
            |b: Vec<u8>| -> Vec<u64> { b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect() };
        let starts: Vec<u32> = u32s(bytes(1));
        let three = ColumnsWriter::new().u64s(&u64s(bytes(0))).u32s(&starts).bytes(bytes(2)).finish();
        let mut file = FileWriter::new();
        for entry in &index.header().sections {
            let payload = if entry.code == SectionId::LetterGroups.code() {
                three.clone()
            } else {
                index.as_bytes()[entry.range()].to_vec()
            };
            file.add_raw(entry.code, payload);
        }
        let old = Index::from_bytes(file.finish()).unwrap();
        let everything = old.alphabet().full_set();
        assert_eq!(within(&old, everything).unwrap(), within(&index, everything).unwrap());
        assert_eq!(problem(&old), None);
    }

    fn problem(index: &Index<Vec<u8>>) -> Option<String> {
        index.verify().into_iter().find(|c| c.name == "letter_groups").and_then(|c| c.problem)
    }

    /// Entries made to lie, checksums and all: `verify` names the lie;
    /// a lookup errs on what it can see (a length past the group, an id
    /// past the words) and never panics or reads outside the table.
    #[test]
    fn entries_made_to_lie_are_errors_not_answers() {
        let index = crate::testutil::index("bat\ncab\nabaca\ntab\nbatch\n", None);
        let everything = index.alphabet().full_set();
        assert_eq!(problem(&index), None);
        assert_eq!(within(&index, everything).unwrap().len(), 5);
        // The first entry's length byte, past its group.
        let long = edited(&index, |entries| entries[0] = 200);
        assert!(problem(&long).is_some_and(|p| p.contains("past the end of its group")), "{:?}", problem(&long));
        assert!(within(&long, everything).unwrap_err().to_string().contains("past the end of its group"));
        // The first entry's id, past the words.
        let past = edited(&index, |entries| {
            let len = entries[0] as usize;
            entries[1 + len..5 + len].copy_from_slice(&99u32.to_le_bytes());
        });
        assert!(problem(&past).is_some_and(|p| p.contains("past the last word")), "{:?}", problem(&past));
        assert!(within(&past, everything).unwrap_err().to_string().contains("past the last word"));
        // A letter changed: the lookup cannot tell, `verify` can.
        let respelled = edited(&index, |entries| entries[1] = b'z');
        assert!(problem(&respelled).is_some_and(|p| p.contains("spelled otherwise")), "{:?}", problem(&respelled));
        // Every byte in turn set to each of a few values: no panic.
        let len = {
            let section = index.header().entry(SectionId::LetterGroups).unwrap();
            section.len as usize
        };
        for at in 0..len.min(400) {
            for value in [0u8, 1, 5, 0xff] {
                let section = index.header().entry(SectionId::LetterGroups).unwrap().range();
                let mut file = index.as_bytes().to_vec();
                file[section.start + at] = value;
                reseal(&mut file);
                let Ok(damaged) = Index::from_bytes(file) else { continue };
                let _ = within(&damaged, everything);
                // The bound a box sizes its list by, from unchecked starts.
                if let Ok(Some(groups)) = damaged.letter_groups() {
                    if let Ok(inside) = groups.groups_within(everything) {
                        let _ = groups.most_words_in(&inside);
                    }
                }
                let _ = damaged.verify();
            }
        }
    }
}
