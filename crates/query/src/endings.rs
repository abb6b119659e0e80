//! The `endings` section: every word id once, in the order of the words'
//! last four letters read from the end ([`ending_key`]), ids ascending
//! among words that end alike; the ids fall in *groups* of equal keys,
//! and the table lists each group's key and where it starts. The words
//! with an ending are runs of groups, so a pattern that starts with `*`
//! (`*ing`) finds them by binary search over the keys alone and counts
//! them without reading a word, where a pass over the word text reads
//! every word.
//!
//! Columns (FORMAT.md): `u32[w]` word ids; `u32[g]` the groups' keys,
//! ascending; `u32[g + 1]` where each group starts in the ids, and `w`.
//! The section is optional: without it, such a pattern scans the word
//! text (see `find`).

use std::ops::Range;

use crate::error::Result;
use crate::format::blocks::LastBlock;
use crate::format::{ending_key, Columns, SectionId, U32s, ENDING_LETTERS};
use crate::word_text::WordText;

/// The most runs [`Endings::runs`] splits an ending into: past it, the
/// letters left are tested a word at a time (`*??ing` would be 26^2 runs
/// of a few words each).
pub(crate) const MAX_RUNS: usize = 1024;

/// A view of the `endings` section, its lengths checked against the word
/// count and each other; every read is bounds-checked, every id checked
/// to be a word's, every group's place in the ids checked, and blocks
/// are checked as they are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Endings<'a> {
    ids: U32s<'a>,
    keys: U32s<'a>,
    starts: U32s<'a>,
}

impl<'a> Endings<'a> {
    /// Reads the table over `cols`, for an index of `words` words.
    pub(crate) fn new(cols: Columns<'a>, words: usize) -> Result<Endings<'a>> {
        let (ids, keys, starts) = (cols.u32s(0)?, cols.u32s(1)?, cols.u32s(2)?);
        if ids.len() != words || starts.len() != keys.len() + 1 {
            return Err(SectionId::Endings.corrupt("does not have one id a word and one start a group"));
        }
        Ok(Endings { ids, keys, starts })
    }

    /// The number of words.
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The runs of groups whose words end in letters `tail` allows
    /// (`tail[i][code]`, the last entry for the last letter), in table
    /// order, and how many of `tail`'s letters, from the end, they settle:
    /// every word of a run has those, and no word outside the runs does;
    /// the letters before them are the caller's to test. Each letter
    /// splits every run by binary search over the keys, for up to
    /// [`ENDING_LETTERS`] letters and while there are at most
    /// [`MAX_RUNS`] runs.
    pub(crate) fn runs(&self, tail: &[[bool; 256]]) -> Result<(Vec<Range<usize>>, usize)> {
        let mut runs: Vec<Range<usize>> = std::iter::once(0..self.keys.len()).collect();
        let mut settled = 0;
        let mut near = LastBlock::default();
        for (back, allowed) in tail.iter().rev().take(ENDING_LETTERS).enumerate() {
            let codes: Vec<u8> = (0..=u8::MAX).filter(|&c| allowed[c as usize]).collect();
            if runs.len() * codes.len() > MAX_RUNS {
                break;
            }
            // The key's byte for the code `back` letters before the last
            // (the code plus 1, 0 for a shorter word): within a run, the
            // bytes above it are the same, so it ascends.
            let shift = 8 * (ENDING_LETTERS - 1 - back);
            let mut letter_at =
                |group: usize| -> Result<u32> { Ok((self.keys.at_near(group, &mut near)? >> shift) as u32 & 0xff) };
            let mut split = Vec::new();
            for run in &runs {
                let (mut from, mut last_code) = (run.start, None);
                for &code in &codes {
                    // The run of a code starts where the code before ends.
                    let start = if last_code == Some(code.wrapping_sub(1)) {
                        from
                    } else {
                        first_at_least(from..run.end, code as u32 + 1, &mut letter_at)?
                    };
                    let end = first_at_least(start..run.end, code as u32 + 2, &mut letter_at)?;
                    if start < end {
                        split.push(start..end);
                    }
                    (from, last_code) = (end, Some(code));
                }
            }
            runs = split;
            settled = back + 1;
        }
        Ok((runs, settled))
    }

    /// The places in the ids of the words of `groups`, checked to lie in
    /// order within the ids.
    pub(crate) fn places(&self, groups: Range<usize>) -> Result<Range<usize>> {
        let (start, end) = (self.starts.at(groups.start)?, self.starts.at(groups.end)?);
        if start > end || end > self.len() {
            return Err(SectionId::Endings.corrupt("places a group of words outside its ids"));
        }
        Ok(start..end)
    }

    /// The word ids of `groups`, onto `out`.
    pub(crate) fn ids_into(&self, groups: Range<usize>, out: &mut Vec<u32>) -> Result<()> {
        self.ids_at(self.places(groups)?, out)
    }

    /// The first `shown` word ids, a-z, of each group of `groups`, onto
    /// `out`: among them, the first `shown` of all (ids ascend within a
    /// group), without reading the rest.
    pub(crate) fn first_ids_into(&self, groups: Range<usize>, shown: usize, out: &mut Vec<u32>) -> Result<()> {
        for group in groups {
            let places = self.places(group..group + 1)?;
            // A built table has no empty group: a loop over a file's
            // groups does a word's work at least, each.
            if places.is_empty() {
                return Err(SectionId::Endings.corrupt(format!("has group {group} empty")));
            }
            self.ids_at(places.start..places.end.min(places.start.saturating_add(shown)), out)?;
        }
        Ok(())
    }

    /// The ids at `places`, onto `out`, each checked to be a word's.
    fn ids_at(&self, places: Range<usize>, out: &mut Vec<u32>) -> Result<()> {
        let from = out.len();
        out.extend(self.ids.slice(places)?.iter()?);
        if out[from..].iter().any(|&id| id as usize >= self.len()) {
            return Err(self.past_the_words());
        }
        Ok(())
    }

    fn past_the_words(&self) -> crate::Error {
        SectionId::Endings.corrupt("has a word id past the last word")
    }

    /// The whole table (`verify`): every word once, in groups of its key,
    /// the groups' keys ascending, the ids ascending within a group, the
    /// groups back to back. One pass over the text for every word's key,
    /// then one over the table.
    pub(crate) fn check(&self, text: &WordText<'a>) -> Result<()> {
        let bad = |problem: String| Err(SectionId::Endings.corrupt(problem));
        let mut keys = Vec::with_capacity(self.len());
        text.each(|_, word| {
            keys.push(ending_key(word));
            std::ops::ControlFlow::Continue(())
        })?;
        if keys.len() != self.len() {
            return bad("does not have one id a word".into());
        }
        let (ids, starts) = (self.ids.iter()?.collect::<Vec<u32>>(), self.starts.iter()?.collect::<Vec<u32>>());
        if starts.first() != Some(&0) || starts.last() != Some(&(self.len() as u32)) || !starts.is_sorted() {
            return bad("has groups that do not lie back to back over the ids".into());
        }
        let mut seen = vec![false; self.len()];
        let mut last_key = None;
        for (group, key) in self.keys.iter()?.enumerate() {
            if last_key >= Some(key) {
                return bad(format!("has group {group}'s key out of order"));
            }
            last_key = Some(key);
            let group_ids = &ids[starts[group] as usize..starts[group + 1] as usize];
            if group_ids.is_empty() || !group_ids.is_sorted_by(|a, b| a < b) {
                return bad(format!("has group {group} empty, or its ids out of order"));
            }
            for &id in group_ids {
                let id = id as usize;
                let Some(seen) = seen.get_mut(id) else { return Err(self.past_the_words()) };
                if std::mem::replace(seen, true) {
                    return bad(format!("lists word {id} twice"));
                }
                if keys[id] != key {
                    return bad(format!("has word {id} in a group of another key"));
                }
            }
        }
        Ok(())
    }
}

/// The first place in `range` whose letter (`letter_at`) is `target` or
/// more, the letters ascending over the range: a binary search.
fn first_at_least(range: Range<usize>, target: u32, letter_at: &mut impl FnMut(usize) -> Result<u32>) -> Result<usize> {
    let (mut lo, mut hi) = (range.start, range.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if letter_at(mid)? < target {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use crate::find::{self, FindOptions, Pattern};
    use crate::format::{le_u32, reseal, SectionId};
    use crate::Index;

    const LIST: &str = "bat\nbeat\nboat\ncat\ncoat\ndebt\neat\nheat\nmeat\nseat\nsing\nsting\nstinging\nt\nwheat\n";

    /// The tail of a pattern as `runs` takes it: each letter one code.
    fn tail(letters: &str) -> Vec<[bool; 256]> {
        letters.bytes().map(|b| std::array::from_fn(|c| c == b as usize || b == b'?')).collect()
    }

    /// The words of the runs, a-z.
    fn words_of(index: &Index<Vec<u8>>, runs: &[std::ops::Range<usize>]) -> Vec<String> {
        let endings = index.endings().unwrap().unwrap();
        let mut ids = Vec::new();
        runs.iter().for_each(|run| endings.ids_into(run.clone(), &mut ids).unwrap());
        ids.sort_unstable();
        index.words_of(ids).unwrap()
    }

    #[test]
    fn runs_hold_the_words_with_an_ending_and_say_how_much_they_settle() {
        let index = crate::testutil::index(LIST, None);
        let endings = index.endings().unwrap().unwrap();
        let (runs, settled) = endings.runs(&tail("eat")).unwrap();
        assert_eq!(settled, 3);
        assert_eq!(words_of(&index, &runs), ["beat", "eat", "heat", "meat", "seat", "wheat"]);
        // Past four letters the caller tests the rest: `wheat` and `heat`
        // end in `heat`, which the runs cannot tell from `?heat`.
        let (runs, settled) = endings.runs(&tail("wheat")).unwrap();
        assert_eq!(settled, 4);
        assert_eq!(words_of(&index, &runs), ["heat", "wheat"]);
        // `?` splits a run into a run a letter; a word as long as the
        // ending (`eat`) has no letter before it.
        let (runs, settled) = endings.runs(&tail("?at")).unwrap();
        assert_eq!((settled, runs.len()), (3, 4), "b, c, e, o before `at`");
        assert_eq!(
            words_of(&index, &runs),
            ["bat", "beat", "boat", "cat", "coat", "eat", "heat", "meat", "seat", "wheat"]
        );
        let (runs, _) = endings.runs(&tail("x")).unwrap();
        assert!(runs.is_empty());
        // The first ids of each group of equal keys: the first a-z of
        // each (`heat` and `wheat` share theirs, `taeh`).
        let (runs, _) = endings.runs(&tail("t")).unwrap();
        let mut first = Vec::new();
        runs.iter().for_each(|run| endings.first_ids_into(run.clone(), 1, &mut first).unwrap());
        first.sort_unstable();
        let all_but_wheat = ["bat", "beat", "boat", "cat", "coat", "debt", "eat", "heat", "meat", "seat", "t"];
        assert_eq!(index.words_of(first).unwrap(), all_but_wheat);
    }

    /// The index with the `endings` section's column `column` (0: ids, 1:
    /// keys) changed by `edit`, and every checksum made right again.
    fn edited(index: &Index<Vec<u8>>, column: usize, edit: impl FnOnce(&mut Vec<u32>)) -> Index<Vec<u8>> {
        let section = index.header().entry(SectionId::Endings).unwrap().range();
        // The column table's entry: offset and length, u64s (FORMAT.md).
        let entry = section.start + 8 + 16 * column;
        let field = |at: usize| u64::from_le_bytes(index.as_bytes()[at..at + 8].try_into().unwrap()) as usize;
        let start = section.start + field(entry);
        let mut file = index.as_bytes().to_vec();
        let bytes = &mut file[start..start + field(entry + 8)];
        let mut values: Vec<u32> = bytes.chunks_exact(4).map(le_u32).collect();
        edit(&mut values);
        bytes.copy_from_slice(&values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
        reseal(&mut file);
        Index::from_bytes(file).unwrap()
    }

    fn find_all(index: &Index<Vec<u8>>, pattern: &str) -> crate::Result<Vec<String>> {
        let pattern = Pattern::parse(index.alphabet(), pattern).unwrap();
        let mut words = Vec::new();
        find::find_while(index, &pattern, &FindOptions::default(), |w, _| {
            words.push(w.to_string());
            ControlFlow::Continue(())
        })?;
        Ok(words)
    }

    fn problem(index: &Index<Vec<u8>>) -> Option<String> {
        index.verify().into_iter().find(|c| c.name == "endings").and_then(|c| c.problem)
    }

    /// A table made to lie, checksums and all: `verify` names the lie, and
    /// a query errs rather than show a word under an ending it lacks or
    /// read past the words; none panics.
    #[test]
    fn a_table_made_to_lie_is_an_error_not_an_answer() {
        let index = crate::testutil::index(LIST, None);
        assert_eq!(problem(&index), None);
        assert_eq!(find_all(&index, "*ing").unwrap(), ["sing", "sting", "stinging"]);
        let swapped = edited(&index, 0, |ids| {
            let last = ids.len() - 1;
            ids.swap(0, last)
        });
        assert!(problem(&swapped).is_some_and(|p| p.contains("another key")), "{:?}", problem(&swapped));
        // The table ends on `debt`, and now on `stinging` with debt's key.
        assert!(find_all(&swapped, "*bt").unwrap_err().to_string().contains("ending it does not have"));
        let past = edited(&index, 0, |ids| *ids.last_mut().unwrap() = ids.len() as u32);
        assert!(problem(&past).is_some_and(|p| p.contains("past the last word")));
        assert!(find_all(&past, "*bt").unwrap_err().to_string().contains("past the last word"));
        let twice = edited(&index, 0, |ids| ids[1] = ids[0]);
        assert!(problem(&twice).is_some_and(|p| p.contains("twice")), "{:?}", problem(&twice));
        let unsorted = edited(&index, 1, |keys| keys.reverse());
        assert!(problem(&unsorted).is_some());
        // Keys out of order send the searches astray, within the table;
        // groups placed past the ids are an error.
        for pattern in ["*t", "*ing", "*?at", "*[ab]t", "*bt"] {
            let _ = find_all(&unsorted, pattern);
        }
        // `boat`'s group emptied (its start moved to the next one's): the
        // first words of `*oat` are read group by group, and that one
        // has none.
        let (runs, _) = index.endings().unwrap().unwrap().runs(&tail("boat")).unwrap();
        let boat = runs[0].start;
        let empty = edited(&index, 2, |starts| starts[boat + 1] = starts[boat]);
        assert!(problem(&empty).is_some());
        let first = |index: &Index<Vec<u8>>| {
            let pattern = Pattern::parse(index.alphabet(), "*oat").unwrap();
            find::find_first(index, &pattern, &FindOptions::default(), 1, |_, _| ())
        };
        assert_eq!(first(&index).unwrap(), 2, "boat, coat");
        assert!(first(&empty).unwrap_err().to_string().contains("empty"));
        let astray = edited(&index, 2, |starts| *starts.last_mut().unwrap() += 100);
        assert!(problem(&astray).is_some());
        assert!(find_all(&astray, "*bt").unwrap_err().to_string().contains("outside its ids"));
    }
}
