//! The `letter_groups` section: every word a Letter Boxed box can play
//! (no letter twice in a row), with its id and its letters, in groups by
//! the lowest letters of its letter set ([`group_key`]). The words whose
//! letters all lie in a set (a box's twelve) are in the groups whose keys
//! lie in it, and those are read back to back; a walk of the words FST
//! down the same letters visits nodes all over the FST (on a list of 10
//! million words, nearly every page of it).
//!
//! There is a group for every set of at most `k` letters, with words or
//! not, in the order of [`GroupRanks::rank`], so a box finds each of its groups
//! by arithmetic: no table of keys to search or scan (on a list of 10
//! million words, keys of 5 letters were 670 KB to scan a box).
//!
//! Columns (FORMAT.md): `u32[2]` the key's letters `k` and the
//! alphabet's; `u32[g + 1]` where each group starts in the next column;
//! `u8[]` the groups, each its checksum (a `u32`), then its entries, a
//! word each: its length, its codes, its id (`u32`). The checksum sits at
//! the group's start, not in a column of its own, and covers its rank and
//! entries, so a lookup reads one stretch of the file a group and checks
//! it by that checksum alone: a start that is damaged places the group
//! elsewhere, where its checksum fails. The section is optional: without
//! it, Letter Boxed walks the FST. (Code 8 held an earlier layout, keyed
//! by five letters and listing every word; it is no longer read.)

use crate::alphabet::{Alphabet, LetterSet};
use crate::error::Result;
use crate::format::blocks::Lazy;
use crate::format::{
    fits_some_box, group_checksum, group_count, group_key, le_u32, Columns, GroupRanks, SectionId, U32s,
    GROUP_CHECKSUM_LEN, GROUP_ENTRY_EXTRA, GROUP_KEY_MOST,
};
use crate::word_text::WordText;

/// A view of the `letter_groups` section, its lengths checked against
/// each other; every read is bounds-checked, every word checked to lie
/// within its group and every id to be a word's, and every group read is
/// checked by its checksum.
#[derive(Clone, Copy)]
pub(crate) struct LetterGroups<'a> {
    /// How many of a word's lowest letters name its group.
    key_letters: usize,
    /// The alphabet's letters.
    letters: usize,
    /// Where each group starts (and the last ends) in `groups`: read
    /// unchecked, as each group's checksum covers where it lies.
    starts: U32s<'a>,
    groups: &'a [u8],
    /// Present when reads are checked as they happen (the section was
    /// not checked whole when it was opened).
    lazy: Option<Lazy<'a>>,
    words: usize,
    /// Present when the groups a box reads are copied out of the file in
    /// runs (see [`LetterGroups::each_in_groups`]), not read through the map.
    copy_out: Option<&'a CopyOut>,
}

/// Copies the bytes of the file under `within` (a slice of the index's
/// bytes) into `into`, of the same length, by a positional read of the
/// file ([`crate::Index::open`] on Unix): for the groups a box reads, in
/// many small stretches far apart, each of which read through the map
/// faults in and maps the 64 KiB around it (on Linux), all let go of
/// again when the map is dropped. The bytes come from the file as it is
/// now, so they are checked by their own checksums whatever was checked
/// before.
pub(crate) type CopyOut = dyn Fn(&[u8], &mut [u8]) -> Result<()> + Send + Sync;

/// Groups at most this many bytes apart are copied in one read, with the
/// bytes between them. On a list of 10 million words (keys of 6 letters)
/// RIU PGH LCS YAO reads 2,509 groups of 590 KB, from 163 stretches of
/// 64 KiB of the file; copied in runs at most 4 KiB apart, they are 330
/// reads of 1.9 MB in all. Against runs 4 KiB apart, in 61 alternating
/// runs of the box: 1 KiB 1.021x, 2 KiB 1.015x, 8 KiB 0.999x (and, on a
/// patched copy, runs 512 bytes apart 1.08x, 64 KiB 1.14x).
const RUN_GAP: usize = if cfg!(test) { 16 } else { 4 << 10 };

/// The longest run copied in one read (the box above: at most 38 KB); a
/// group longer than this alone is read through the map.
const RUN_MOST: usize = if cfg!(test) { 64 } else { 256 << 10 };

fn corrupt(problem: impl Into<String>) -> crate::Error {
    SectionId::LetterGroups.corrupt(problem)
}

impl<'a> LetterGroups<'a> {
    /// Reads the table over `cols`, for an index of `words` words over
    /// an alphabet of `letters` letters.
    pub(crate) fn new(cols: Columns<'a>, words: usize, letters: usize) -> Result<LetterGroups<'a>> {
        let shape = cols.u32s(0)?;
        let (key_letters, made_for) = match (shape.len(), shape.get(0), shape.get(1)) {
            (2, Some(k), Some(n)) => (k as usize, n as usize),
            _ => return Err(corrupt("does not say its keys' letters and its alphabet's")),
        };
        if made_for != letters {
            return Err(corrupt(format!("was made for an alphabet of {made_for} letters, not {letters}")));
        }
        if key_letters == 0 || key_letters > GROUP_KEY_MOST.min(letters) {
            return Err(corrupt(format!("has keys of {key_letters} letters")));
        }
        let starts = cols.u32s(1)?;
        let (groups, lazy) = cols.lazy_bytes(2)?;
        // Ranks are u32s below (a group's starts are).
        let count = group_count(letters, key_letters);
        if count >= u32::MAX as u64 || starts.len() as u64 != count + 1 {
            return Err(corrupt("does not have one start a group"));
        }
        Ok(LetterGroups { key_letters, letters, starts, groups, lazy, words, copy_out: None })
    }

    /// The groups copied out of the file by `copy_out`, when there is one.
    pub(crate) fn copied_by(self, copy_out: Option<&'a CopyOut>) -> LetterGroups<'a> {
        LetterGroups { copy_out, ..self }
    }

    /// How many of a word's lowest letters name its group.
    #[cfg(test)]
    pub(crate) fn key_letters(&self) -> usize {
        self.key_letters
    }

    /// The groups whose keys lie in `within`, in the order of their
    /// ranks: every set of at most `k` of its letters but the empty one
    /// (every word has a letter).
    pub(crate) fn groups_within(&self, within: LetterSet) -> Vec<u32> {
        // The set's letters below the alphabet's, lowest first: a set of
        // them as a number over their places is a key's letters. A key's
        // rank adds C(letter, i) for its i-th letter (see
        // `GroupRanks::rank`), taken here from a row a place.
        let letters: Vec<usize> = (0..self.letters).filter(|&i| within.0 >> i & 1 == 1).collect();
        let places = letters.len();
        let ranks = GroupRanks::new();
        let terms: Vec<[u64; GROUP_KEY_MOST + 1]> =
            letters.iter().map(|&l| std::array::from_fn(|i| ranks.choose(l, i))).collect();
        let mut groups = Vec::new();
        for size in 1..=self.key_letters.min(places) {
            let before = ranks.count(self.letters, size) - ranks.choose(self.letters, size);
            // Every set of `size` places in ascending order as a number
            // (Gosper's hack), which is the order of their ranks. (A
            // `u128`: the set may hold all 64 letters.)
            let mut set: u128 = (1 << size) - 1;
            while set < 1 << places {
                // The i-th lowest place of the set, for i from 1.
                let (_, rank) = (1..=size).fold((set, before), |(rest, rank), i| {
                    (rest & (rest - 1), rank + terms[rest.trailing_zeros() as usize][i])
                });
                // Below the group count, which fits a u32 (its starts do).
                groups.push(rank as u32);
                let low = set & set.wrapping_neg();
                let up = set + low;
                set = up | (((up ^ set) >> 2) / low);
            }
        }
        debug_assert!(groups.windows(2).all(|pair| pair[0] < pair[1]));
        groups
    }

    /// Where group `group` lies in the groups, checksum and entries,
    /// bounds-checked (not yet checked against the checksum).
    fn span(&self, group: u32) -> Result<std::ops::Range<usize>> {
        let at = |i: usize| self.starts.at_covered(i);
        let (start, end) = (at(group as usize)?, at(group as usize + 1)?);
        match start.checked_add(GROUP_CHECKSUM_LEN) {
            Some(first) if first <= end && end <= self.groups.len() => Ok(start..end),
            _ => Err(corrupt(format!("has group {group} shorter than its checksum or outside the groups"))),
        }
    }

    /// The most words `groups` can hold, by their lengths in bytes (not
    /// yet checked: for sizing a list, not for reading). The starts are
    /// read as [`LetterGroups::span`] reads them, without their blocks'
    /// checks, which would checksum whole every 64 KiB block of starts a
    /// box's groups touch (on a list of 10 million words, most of the
    /// 1.25 MB of starts for a box's 2,509 groups).
    pub(crate) fn most_words_in(&self, groups: &[u32]) -> usize {
        let at = |i: usize| self.starts.at_covered(i).unwrap_or(0);
        // Saturating: a damaged table's starts could sum past a 32-bit
        // usize (wasm32); the caller caps the room it makes anyway.
        let bytes = groups.iter().fold(0usize, |sum, &g| {
            let len = at(g as usize + 1).saturating_sub(at(g as usize)).saturating_sub(GROUP_CHECKSUM_LEN);
            sum.saturating_add(len)
        });
        bytes / (GROUP_ENTRY_EXTRA + 1)
    }

    /// Calls `f` with the id and the codes (not yet checked to be
    /// letters) of every word of `groups` (from
    /// [`LetterGroups::groups_within`] a set), and the group's bytes from
    /// that word's first code on (for reads of a fixed width past the
    /// word: the group was checked whole): among them, every word with
    /// no letter twice in a row whose letters lie in the set. Group by
    /// group in their order, ids ascending within a group; each group's
    /// entries read once, checked to fill it exactly.
    ///
    /// From a file opened on Unix the groups are copied out of the file
    /// in runs (groups at most [`RUN_GAP`] bytes apart, at most
    /// [`RUN_MOST`] bytes a run) into one buffer, each checked by its
    /// checksum: read through the map, each stretch of them faults in and
    /// maps the 64 KiB around it.
    pub(crate) fn each_in_groups(
        &self,
        groups: &[u32],
        mut f: impl FnMut(u32, &[u8], &[u8]) -> Result<()>,
    ) -> Result<()> {
        let Some(copy_out) = self.copy_out else {
            // A section checked whole when it was opened needs no group
            // checked (its blocks matched).
            for &group in groups {
                let span = self.span(group)?;
                self.each_entry(group, &self.groups[span], &mut f, self.lazy.is_some())?;
            }
            return Ok(());
        };
        let mut buffer = Vec::new();
        let mut rest = groups;
        while let Some((&first, _)) = rest.split_first() {
            let run = self.span(first)?;
            let (mut end, mut count) = (run.end, 1);
            for &group in &rest[1..] {
                let span = self.span(group)?;
                if span.start < end || span.start - end > RUN_GAP || span.end - run.start > RUN_MOST {
                    break;
                }
                (end, count) = (span.end, count + 1);
            }
            let (run_groups, after) = rest.split_at(count);
            rest = after;
            if end - run.start > RUN_MOST {
                // One group longer than a run: read in place.
                self.each_entry(first, &self.groups[run], &mut f, self.lazy.is_some())?;
                continue;
            }
            // Grown to the longest run, never cut back: a buffer resized
            // to each run zeroed its bytes again each time it grew (169
            // times, 1.9 MB of zeroes, for the 10M box).
            let len = end - run.start;
            if buffer.len() < len {
                buffer.resize(len, 0);
            }
            let buffer = &mut buffer[..len];
            copy_out(&self.groups[run.start..end], buffer)?;
            for &group in run_groups {
                // Spans found above, within the run.
                let span = self.span(group)?;
                self.each_entry(group, &buffer[span.start - run.start..span.end - run.start], &mut f, true)?;
            }
        }
        Ok(())
    }

    /// Calls `f` with the id and codes of every word of group `group`,
    /// whose bytes (checksum and entries) are `bytes` (see
    /// [`LetterGroups::each_in_groups`]), after checking them by the
    /// checksum when `check_sum`.
    fn each_entry(
        &self,
        group: u32,
        bytes: &[u8],
        f: &mut impl FnMut(u32, &[u8], &[u8]) -> Result<()>,
        check_sum: bool,
    ) -> Result<()> {
        // (A span is at least its checksum.)
        let Some((sum, mut rest)) = bytes.split_at_checked(GROUP_CHECKSUM_LEN) else {
            return Err(corrupt(format!("has group {group} shorter than its checksum")));
        };
        if check_sum && group_checksum(group, rest) != le_u32(sum) {
            return Err(corrupt(format!("has group {group} damaged: its checksum does not match")));
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

    /// The whole table (`verify`): groups back to back from the start of
    /// the column to its end, each checked by its checksum, ids ascending
    /// within a group, every word with no letter twice in a row there
    /// once, in the group of its key, with the letters `word_text` has
    /// for it, and no other word.
    pub(crate) fn check(&self, alphabet: &Alphabet, text: &WordText<'a>) -> Result<()> {
        self.starts.check_offsets(self.groups.len())?;
        if self.starts.get(0) != Some(0) {
            return Err(corrupt("has its first group start past the start of its groups"));
        }
        let mut seen = vec![false; self.words];
        let mut near = crate::word_text::Near::default();
        let ranks = GroupRanks::new();
        for group in 0..self.starts.len() as u32 - 1 {
            let mut last = None;
            let span = self.span(group)?;
            self.each_entry(
                group,
                &self.groups[span],
                &mut |id, word, _| {
                    let id = id as usize;
                    let problem = if last >= Some(id) {
                        format!("has group {group}'s ids out of order")
                    } else if std::mem::replace(&mut seen[id], true) {
                        format!("lists word {id} twice")
                    } else if text.word_near(id, &mut near)? != word {
                        format!("has word {id} spelled otherwise than `word_text`")
                    } else if !fits_some_box(word) {
                        format!("has word {id}, which has a letter twice in a row")
                    } else if alphabet
                        .set_of(word)
                        .map(|set| ranks.rank(group_key(set, self.key_letters), self.letters))
                        != Some(u64::from(group))
                    {
                        format!("has word {id} in a group of other letters")
                    } else {
                        last = Some(id);
                        return Ok(());
                    };
                    Err(corrupt(problem))
                },
                true,
            )?;
        }
        // Every word left out has a letter twice in a row.
        let mut near = crate::word_text::Near::default();
        for (id, _) in seen.iter().enumerate().filter(|(_, &seen)| !seen) {
            if fits_some_box(text.word_near(id, &mut near)?) {
                return Err(corrupt(format!("leaves out word {id}, which can lie on a box")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::alphabet::LetterSet;
    use crate::format::{fits_some_box, group_checksum, group_key, reseal, SectionId, GROUP_CHECKSUM_LEN};
    use crate::rng::SplitMix64;
    use crate::Index;

    /// The words of the groups within `set`, as (id, word).
    fn within<D: AsRef<[u8]>>(index: &Index<D>, set: LetterSet) -> crate::Result<Vec<(u32, Vec<u8>)>> {
        let groups = index.letter_groups()?.expect("built with the groups");
        let mut got = Vec::new();
        groups.each_in_groups(&groups.groups_within(set), |id, word, _| {
            got.push((id, word.to_vec()));
            Ok(())
        })?;
        Ok(got)
    }

    /// On random lists and random sets, against a plain filter of every
    /// word: the words with no letter twice in a row of the groups whose
    /// keys lie in the set, each once with its own id, and among them
    /// every such word whose letters do.
    #[test]
    fn gives_the_words_of_the_groups_within_a_set() {
        let mut rng = SplitMix64::new(30);
        let mut keys_seen = std::collections::BTreeSet::new();
        for round in 0..40 {
            let letters = 3 + rng.below(10) as u8;
            let words: Vec<String> = (0..1 + rng.below(300))
                .map(|_| (0..1 + rng.below(9)).map(|_| (b'a' + rng.below(letters as u64) as u8) as char).collect())
                .collect();
            // Over the letters the words use (keys of up to 8), or a-z
            // (keys of 3, so few words).
            let index = match round % 2 {
                0 => crate::testutil::index(&words.join("\n"), None),
                _ => over_letters(&words, letters),
            };
            let (_dir, opened) = opened(&index);
            let alphabet = index.alphabet().clone();
            let key_letters = index.letter_groups().unwrap().expect("built with the groups").key_letters();
            keys_seen.insert(key_letters);
            let all: Vec<Vec<u8>> = (0..index.word_count() as u32)
                .map(|id| index.words_of(vec![id]).unwrap()[0].clone().into_bytes())
                .collect();
            for _ in 0..10 {
                let set = LetterSet(rng.next_u64() & ((1 << letters) - 1));
                let mut got = within(&index, set).unwrap();
                // The same, copied out of the file in runs (in tests at
                // most 16 bytes apart and 64 long, so some groups are
                // read in place).
                assert_eq!(within(&opened, set).unwrap(), got, "round {round}, set {set:?}, from the file");
                got.sort_unstable();
                let want: Vec<(u32, Vec<u8>)> = (0u32..)
                    .zip(&all)
                    .filter(|(_, w)| fits_some_box(w))
                    .filter(|(_, w)| group_key(alphabet.set_of(w).unwrap(), key_letters).is_subset_of(set))
                    .map(|(id, w)| (id, w.clone()))
                    .collect();
                assert_eq!(got, want, "round {round}, set {set:?}, keys of {key_letters}");
                // The bound a caller sizes its list by holds them all.
                let groups = index.letter_groups().unwrap().expect("built with the groups");
                assert!(got.len() <= groups.most_words_in(&groups.groups_within(set)));
                let inside =
                    all.iter().filter(|w| fits_some_box(w) && alphabet.set_of(w).unwrap().is_subset_of(set)).count();
                assert_eq!(got.iter().filter(|(_, w)| alphabet.set_of(w).unwrap().is_subset_of(set)).count(), inside);
            }
            assert_eq!(problem(&index), None, "round {round}");
        }
        assert!(keys_seen.len() > 2, "keys of several sizes: {keys_seen:?}");
    }

    /// `index` written to a file and opened from it (mapped), with the
    /// folder that holds it.
    fn opened(index: &Index<Vec<u8>>) -> (tempfile::TempDir, Index<crate::FileBytes>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("groups.hoard");
        std::fs::write(&path, index.as_bytes()).unwrap();
        let opened = Index::open(&path).unwrap();
        let copies = opened.letter_groups().unwrap().expect("built with the groups").copy_out.is_some();
        assert_eq!(copies, cfg!(unix), "groups copied out of the file where there are positional reads");
        (dir, opened)
    }

    /// An index of `words` over the first `letters` letters alone, with
    /// the letter groups.
    fn over_letters(words: &[String], letters: u8) -> Index<Vec<u8>> {
        over_letters_of(words, &(b'a'..b'a' + letters).map(char::from).collect::<String>())
    }

    /// An index of `words` over the letters of `alphabet` alone, with
    /// the letter groups.
    fn over_letters_of(words: &[String], alphabet: &str) -> Index<Vec<u8>> {
        use wordhoard_builder::{build_index, BuildFlags, WordSource};
        let list = WordSource::from_text("test", &words.join("\n"));
        let alphabet = alphabet.to_string();
        let flags = BuildFlags { lists: vec![list.clone()], alphabet, letter_groups: Some(true), ..Default::default() };
        let built = build_index(&[list], &flags.options().unwrap()).unwrap();
        Index::from_bytes(built.into_bytes()).unwrap()
    }

    /// The groups within a set are the ranks of its subsets of 1 to `k`
    /// letters, ascending, over alphabets of 5, 26 and 40 letters.
    #[test]
    fn groups_within_a_set_are_the_ranks_of_its_small_subsets() {
        use crate::format::{group_count, GroupRanks};
        let mut rng = SplitMix64::new(31);
        let wide: String = "abcdefghijklmnopqrstuvwxyzßàáâäåæçèéêëìíî".into();
        for (alphabet, words) in [("abcht", "bat\ncab"), ("abcdefghijklmnopqrstuvwxyz", "bat"), (wide.as_str(), "bat")]
        {
            let words: Vec<String> = words.lines().map(String::from).collect();
            let index = over_letters_of(&words, alphabet);
            let groups = index.letter_groups().unwrap().unwrap();
            let n = index.alphabet().len();
            for _ in 0..50 {
                let within = LetterSet(rng.next_u64() & ((1u64 << n) - 1) & rng.next_u64());
                let mut want: Vec<u32> = (1u64..1 << within.0.count_ones().min(16))
                    .map(|places| {
                        let letters: Vec<u32> = (0..64).filter(|i| within.0 >> i & 1 == 1).collect();
                        (0..letters.len()).filter(|&p| places >> p & 1 == 1).fold(0u64, |k, p| k | 1 << letters[p])
                    })
                    .filter(|key| key.count_ones() as usize <= groups.key_letters())
                    .map(|key| GroupRanks::new().rank(LetterSet(key), n) as u32)
                    .collect();
                want.sort_unstable();
                if within.0.count_ones() <= 16 {
                    assert_eq!(groups.groups_within(within), want, "{within:?} of {n} letters");
                }
                assert!(groups
                    .groups_within(within)
                    .iter()
                    .all(|&g| (g as u64) < group_count(n, groups.key_letters())));
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

    /// The index with the groups (column 2) changed by `edit`, and every
    /// checksum made right again: the blocks' and, with `groups`, the
    /// groups'.
    fn edited_sealed(index: &Index<Vec<u8>>, groups: bool, edit: impl FnOnce(&mut [u8])) -> Index<Vec<u8>> {
        let (starts, bytes) = (column_range(index, 1), column_range(index, 2));
        let mut file = index.as_bytes().to_vec();
        edit(&mut file[bytes.clone()]);
        if groups {
            let starts: Vec<usize> =
                file[starts].chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize).collect();
            for (group, run) in starts.windows(2).enumerate() {
                let at = bytes.start + run[0];
                let sum = group_checksum(group as u32, &file[at + GROUP_CHECKSUM_LEN..bytes.start + run[1]]);
                file[at..at + GROUP_CHECKSUM_LEN].copy_from_slice(&sum.to_le_bytes());
            }
        }
        reseal(&mut file);
        Index::from_bytes(file).unwrap()
    }

    fn edited(index: &Index<Vec<u8>>, edit: impl FnOnce(&mut [u8])) -> Index<Vec<u8>> {
        edited_sealed(index, true, edit)
    }

    /// Column 1: where each group starts.
    fn starts_of(index: &Index<Vec<u8>>) -> Vec<usize> {
        let starts = &index.as_bytes()[column_range(index, 1)];
        starts.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize).collect()
    }

    /// Where the first word of the groups starts in column 2: past the
    /// empty groups before it, each its checksum alone.
    fn first_entry(index: &Index<Vec<u8>>) -> usize {
        let starts = starts_of(index);
        let group = starts.windows(2).position(|run| run[1] - run[0] > GROUP_CHECKSUM_LEN).unwrap();
        starts[group] + GROUP_CHECKSUM_LEN
    }

    /// A group's byte changed, the blocks' checksums made right but not
    /// the group's: the lookup that reads the group errs, and so does a
    /// start moved (the group read elsewhere).
    #[test]
    fn a_damaged_group_is_an_error() {
        let index = crate::testutil::index("bat\ncab\nabaca\ntab\nbatch\n", None);
        let everything = index.alphabet().full_set();
        let at = first_entry(&index);
        let respelled = edited_sealed(&index, false, |groups| groups[at + 1] = b'z');
        let err = within(&respelled, everything).unwrap_err().to_string();
        assert!(err.contains("checksum does not match"), "{err}");
        assert!(problem(&respelled).is_some_and(|p| p.contains("checksum does not match")));
        let starts = column_range(&index, 1);
        let mut file = index.as_bytes().to_vec();
        // The first word's group's start one byte later: its checksum is
        // read a byte off, and the group before it a byte longer.
        let group = starts_of(&index).iter().position(|&start| start + GROUP_CHECKSUM_LEN == at).unwrap();
        file[starts.start + 4 * group] += 1;
        reseal(&mut file);
        let moved = Index::from_bytes(file).unwrap();
        assert!(within(&moved, everything).unwrap_err().to_string().contains("checksum does not match"));
        assert!(problem(&moved).is_some());
        // Both, copied out of the file.
        for damaged in [&respelled, &moved] {
            let err = within(&opened(damaged).1, everything).unwrap_err().to_string();
            assert!(err.contains("checksum does not match"), "{err}");
        }
    }

    /// A file changed in place after it was opened: the groups copied out
    /// of it are checked by their checksums, whatever was checked before,
    /// and a file cut short is an error, not a fault.
    #[cfg(unix)]
    #[test]
    fn groups_copied_from_a_file_changed_under_the_reader_are_checked() {
        use std::os::unix::fs::FileExt;
        let index = crate::testutil::index("bat\ncab\nabaca\ntab\nbatch\n", None);
        let everything = index.alphabet().full_set();
        let at = column_range(&index, 2).start + first_entry(&index) + 1;
        let (dir, opened) = opened(&index);
        let want = within(&index, everything).unwrap();
        assert_eq!(within(&opened, everything).unwrap(), want);
        let file = std::fs::OpenOptions::new().write(true).open(dir.path().join("groups.hoard")).unwrap();
        file.write_all_at(b"z", at as u64).unwrap();
        let err = within(&opened, everything).unwrap_err().to_string();
        assert!(err.contains("checksum does not match"), "{err}");
        file.write_all_at(&index.as_bytes()[at..at + 1], at as u64).unwrap();
        assert_eq!(within(&opened, everything).unwrap(), want);
        file.set_len(at as u64).unwrap();
        let err = within(&opened, everything).unwrap_err().to_string();
        assert!(err.contains("read"), "{err}");
    }

    fn problem(index: &Index<Vec<u8>>) -> Option<String> {
        index.verify().into_iter().find(|c| c.name == "letter_groups").and_then(|c| c.problem)
    }

    /// Entries made to lie, checksums and all: `verify` names the lie;
    /// a lookup errs on what it can see (a length past the group, an id
    /// past the words) and never panics or reads outside the table.
    #[test]
    fn entries_made_to_lie_are_errors_not_answers() {
        // Over its own 5 letters: 32 groups, a section small enough to
        // sweep every byte of.
        let words: Vec<String> = ["bat", "cab", "abaca", "tab", "batch", "batt"].map(String::from).into();
        let index = over_letters_of(&words, "abcht");
        let everything = index.alphabet().full_set();
        assert_eq!(problem(&index), None);
        assert_eq!(within(&index, everything).unwrap().len(), 5, "batt has a letter twice in a row");
        let at = first_entry(&index);
        // The first entry's length byte, past its group.
        let long = edited(&index, |groups| groups[at] = 200);
        assert!(problem(&long).is_some_and(|p| p.contains("past the end of its group")), "{:?}", problem(&long));
        assert!(within(&long, everything).unwrap_err().to_string().contains("past the end of its group"));
        // The first entry's id, past the words.
        let past = edited(&index, |groups| {
            let len = groups[at] as usize;
            groups[at + 1 + len..at + 5 + len].copy_from_slice(&99u32.to_le_bytes());
        });
        assert!(problem(&past).is_some_and(|p| p.contains("past the last word")), "{:?}", problem(&past));
        assert!(within(&past, everything).unwrap_err().to_string().contains("past the last word"));
        // A letter changed: the lookup cannot tell, `verify` can.
        let respelled = edited(&index, |groups| groups[at + 1] = b'z');
        assert!(problem(&respelled).is_some_and(|p| p.contains("spelled otherwise")), "{:?}", problem(&respelled));
        // Every byte in turn set to each of a few values: no panic.
        let len = index.header().entry(SectionId::LetterGroups).unwrap().len as usize;
        for at in 0..len {
            for value in [0u8, 1, 5, 0xff] {
                let section = index.header().entry(SectionId::LetterGroups).unwrap().range();
                let mut file = index.as_bytes().to_vec();
                file[section.start + at] = value;
                reseal(&mut file);
                let Ok(damaged) = Index::from_bytes(file) else { continue };
                let _ = within(&damaged, everything);
                // The bound a box sizes its list by, from unchecked starts.
                if let Ok(Some(groups)) = damaged.letter_groups() {
                    let _ = groups.most_words_in(&groups.groups_within(everything));
                }
                let _ = damaged.verify();
            }
        }
    }

    /// The index with its `letter_groups` made again from `groups` (each
    /// group's words as (id, codes)), starts and checksums and all.
    fn rewritten(index: &Index<Vec<u8>>, edit: impl FnOnce(&mut Vec<Vec<(u32, Vec<u8>)>>)) -> Index<Vec<u8>> {
        use crate::format::{ColumnsWriter, FileWriter};
        let table = index.letter_groups().unwrap().unwrap();
        let mut groups: Vec<Vec<(u32, Vec<u8>)>> = (0..table.starts.len() as u32 - 1)
            .map(|group| {
                let mut words = Vec::new();
                table
                    .each_in_groups(&[group], |id, word, _| {
                        words.push((id, word.to_vec()));
                        Ok(())
                    })
                    .unwrap();
                words
            })
            .collect();
        edit(&mut groups);
        let (mut starts, mut bytes) = (Vec::new(), Vec::new());
        for (group, words) in groups.iter().enumerate() {
            starts.push(bytes.len() as u32);
            let mut entries = Vec::new();
            for (id, word) in words {
                entries.push(word.len() as u8);
                entries.extend_from_slice(word);
                entries.extend_from_slice(&id.to_le_bytes());
            }
            bytes.extend_from_slice(&group_checksum(group as u32, &entries).to_le_bytes());
            bytes.extend_from_slice(&entries);
        }
        starts.push(bytes.len() as u32);
        let shape = [table.key_letters as u32, table.letters as u32];
        let section = ColumnsWriter::new().u32s(&shape).u32s(&starts).bytes(bytes).finish();
        let mut file = FileWriter::new();
        for entry in &index.header().sections {
            let payload = if entry.code == SectionId::LetterGroups.code() {
                section.clone()
            } else {
                index.as_bytes()[entry.range()].to_vec()
            };
            file.add_raw(entry.code, payload);
        }
        Index::from_bytes(file.finish()).unwrap()
    }

    /// A word left out, one with a letter twice in a row put in, a word
    /// in another group: `verify` names each, and the table as built is
    /// the same when made again.
    #[test]
    fn verify_finds_words_left_out_or_out_of_place() {
        // Ids a-z: bat 0, batt 1, cab 2.
        let index = crate::testutil::index("bat\ncab\nbatt\n", None);
        assert_eq!(problem(&rewritten(&index, |_| {})), None);
        let group_of =
            |groups: &Vec<Vec<(u32, Vec<u8>)>>, id: u32| groups.iter().position(|g| g.iter().any(|w| w.0 == id));
        let dropped = rewritten(&index, |groups| {
            let at = group_of(groups, 0).unwrap();
            groups[at].retain(|w| w.0 != 0);
        });
        assert!(problem(&dropped).is_some_and(|p| p.contains("leaves out word 0")), "{:?}", problem(&dropped));
        let doubled = rewritten(&index, |groups| {
            let at = group_of(groups, 0).unwrap();
            groups[at].push((1, b"batt".to_vec()));
        });
        assert!(problem(&doubled).is_some_and(|p| p.contains("twice in a row")), "{:?}", problem(&doubled));
        let moved = rewritten(&index, |groups| {
            let at = group_of(groups, 2).unwrap();
            let word = groups[at].remove(0);
            groups[at + 1].push(word);
        });
        assert!(problem(&moved).is_some_and(|p| p.contains("a group of other letters")), "{:?}", problem(&moved));
    }
}
