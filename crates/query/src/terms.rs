//! The `terms` section: the index's words grouped by their letters.
//!
//! A *term* is a word's letters sorted (`deir` for ride, dire, ired); the
//! section maps each term to its id in an FST and holds, per term, the ids
//! of its words, ascending. The word tools (`anagram`) and Anigrams both
//! read it; neither reaches into the other for it.

use std::ops::ControlFlow;

use crate::error::Result;
use crate::format::fst::{Automaton, FstMap};
use crate::format::{SectionId, U32s};
use crate::index::Index;

/// The terms section's columns. A group's offsets are checked as it is
/// read (in order and in bounds), and a search reads groups in ascending
/// order without overlap, so no id is read twice, whatever the file says;
/// `verify` checks the whole column.
pub struct Terms<'a> {
    fst: FstMap<'a>,
    groups: U32s<'a>,
    group_ids: U32s<'a>,
    word_count: usize,
}

impl<'a> Terms<'a> {
    /// Opens the section: its FST's header and the columns' lengths.
    pub fn open<D: AsRef<[u8]>>(index: &'a Index<D>) -> Result<Terms<'a>> {
        let cols = index.columns(SectionId::Terms)?;
        let (fst_bytes, lazy) = cols.lazy_bytes(0)?;
        let fst = FstMap::new_lazy(fst_bytes, lazy, SectionId::Terms)?;
        if fst.len() > u32::MAX as usize {
            return Err(cols.corrupt("states more terms than term ids (32 bits) address"));
        }
        let t = Terms { fst, groups: cols.u32s(1)?, group_ids: cols.u32s(2)?, word_count: index.word_count() };
        if t.groups.len() != t.fst.len() + 1 {
            return Err(cols.corrupt("has offsets that do not match its term count"));
        }
        Ok(t)
    }

    /// The check a question that reads many terms' groups relies on, once
    /// an index: the group offsets ascend within the id column.
    pub fn check_whole<D: AsRef<[u8]>>(&self, index: &Index<D>) -> Result<()> {
        index.check_once(SectionId::Terms, || self.groups.check_offsets(self.group_ids.len()))
    }

    /// The number of terms.
    pub fn len(&self) -> usize {
        self.fst.len()
    }

    /// True when the index has no terms (no words).
    pub fn is_empty(&self) -> bool {
        self.fst.len() == 0
    }

    /// The id of a term (letters sorted, as codes), if the index has it.
    pub fn id_of(&self, term: &[u8]) -> Result<Option<u64>> {
        self.fst.get(term)
    }

    /// Writes term `t`'s letters into `out`; false when no term has that id.
    pub fn term_of(&self, t: u32, out: &mut Vec<u8>) -> Result<bool> {
        Ok((t as usize) < self.fst.len() && self.fst.key_of(t as u64, out)?)
    }

    /// A term id read from the FST, checked against the term count.
    pub fn checked_id(&self, id: u64) -> Result<u32> {
        if (id as usize) < self.fst.len() {
            Ok(id as u32)
        } else {
            Err(SectionId::Terms.corrupt("the FST holds an id out of range"))
        }
    }

    /// The ids of term `t`'s words, ascending, each checked in range.
    pub fn word_ids(&self, t: u32) -> Result<Vec<u32>> {
        let mut ids = Vec::new();
        self.word_ids_of(t, &mut ids)?;
        Ok(ids)
    }

    /// [`Terms::word_ids`] into `ids` (cleared first).
    pub(crate) fn word_ids_of(&self, t: u32, ids: &mut Vec<u32>) -> Result<()> {
        ids.clear();
        let range = self.groups.range(t as usize)?;
        for id in self.group_ids.slice(range)?.iter()? {
            if id as usize >= self.word_count {
                return Err(SectionId::Terms.corrupt("has a word id out of range"));
            }
            ids.push(id);
        }
        Ok(())
    }

    /// Every term the automaton accepts, a-z, with the ids of its words
    /// (ascending); `f` may stop the search.
    pub fn search<A: Automaton>(
        &self,
        automaton: A,
        mut f: impl FnMut(&[u8], &[u32]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut ids = Vec::new();
        self.search_sizes(automaton, |term, t, _| {
            self.word_ids_of(t, &mut ids)?;
            Ok(f(term, &ids))
        })
    }

    /// Every term the automaton accepts, a-z, with its id and how many
    /// words it has, read from the group offsets alone (each group
    /// checked to follow the one before and to lie within the ids);
    /// [`Terms::word_ids_of`] reads a term's words. `f` may stop the
    /// search, or fail it.
    pub(crate) fn search_sizes<A: Automaton>(
        &self,
        automaton: A,
        mut f: impl FnMut(&[u8], u32, usize) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        let mut search = self.fst.search(automaton);
        // Terms come in ascending id order, their groups one after another.
        let mut last: Option<(u32, usize)> = None;
        while let Some((term, t)) = search.next()? {
            let t = self.checked_id(t)?;
            let range = self.groups.range(t as usize)?;
            if last.is_some_and(|(before, end)| t <= before || range.start < end) {
                return Err(SectionId::Terms.corrupt("has term ids or offsets out of order"));
            }
            if range.end > self.group_ids.len() {
                return Err(SectionId::Terms.corrupt("has a group past the end of its ids"));
            }
            last = Some((t, range.end));
            if f(term, t, range.len())?.is_break() {
                break;
            }
        }
        Ok(())
    }
}

/// Checks the structure of the terms section (for `verify`): offsets in
/// order, every word in exactly one group, and the FST a rank map of
/// words over the alphabet.
pub(crate) fn check_terms<D: AsRef<[u8]>>(index: &Index<D>) -> Result<()> {
    let terms = Terms::open(index)?;
    index.will_scan(&[terms.groups.as_bytes()?, terms.group_ids.as_bytes()?]);
    terms.groups.check_offsets(terms.group_ids.len())?;
    // Every word is in exactly one group: as many ids as words, each in
    // range (the builder writes each group's ids ascending).
    if terms.group_ids.len() != index.word_count() {
        return Err(SectionId::Terms.corrupt("does not hold every word once"));
    }
    if terms.group_ids.max()?.is_some_and(|id| id as usize >= index.word_count()) {
        return Err(SectionId::Terms.corrupt("has a word id out of range"));
    }
    terms.fst.check_rank_map(index.alphabet())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_term_holds_its_words_and_every_word_is_in_one() {
        let idx = crate::testutil::index("dire\ngame\nired\nmega\nride\nzoo\n", None);
        let terms = Terms::open(&idx).unwrap();
        assert_eq!(terms.len(), 3, "deir, aegm, ooz");
        let deir = terms.checked_id(terms.id_of(b"deir").unwrap().unwrap()).unwrap();
        assert_eq!(idx.words_of(terms.word_ids(deir).unwrap()).unwrap(), ["dire", "ired", "ride"]);
        let mut seen = Vec::new();
        for t in 0..terms.len() as u32 {
            let mut term = Vec::new();
            assert!(terms.term_of(t, &mut term).unwrap());
            for id in terms.word_ids(t).unwrap() {
                let mut word = idx.words_of([id]).unwrap().remove(0).into_bytes();
                word.sort_unstable();
                assert_eq!(word, term);
                seen.push(id);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..6).collect::<Vec<u32>>());
        assert!(!terms.term_of(3, &mut Vec::new()).unwrap());
        assert!(terms.checked_id(3).is_err());
        assert_eq!(terms.id_of(b"abc").unwrap(), None);
    }

    /// A term's size from its offsets is how many words it holds, and
    /// a group that ends past the ids is damage, not a count.
    #[test]
    fn sizes_are_the_groups_words_and_a_group_past_the_ids_is_damage() {
        use crate::format::fst::Everything;
        let idx = crate::testutil::index("dire\ngame\nired\nmega\nride\nzoo\n", None);
        let terms = Terms::open(&idx).unwrap();
        let mut sizes = Vec::new();
        terms
            .search_sizes(Everything, |term, t, size| {
                assert_eq!(terms.word_ids(t).unwrap().len(), size, "{term:?}");
                sizes.push((term.to_vec(), size));
                Ok(ControlFlow::Continue(()))
            })
            .unwrap();
        assert_eq!(sizes, [(b"aegm".to_vec(), 2), (b"deir".to_vec(), 3), (b"ooz".to_vec(), 1)]);

        let damaged = crate::testutil::with_columns(&idx, SectionId::Terms, |cols| {
            let last = cols[1].len() - 4;
            cols[1][last..].copy_from_slice(&7u32.to_le_bytes());
        });
        let terms = Terms::open(&damaged).unwrap();
        let err = terms.search_sizes(Everything, |_, _, _| Ok(ControlFlow::Continue(()))).unwrap_err();
        assert!(err.to_string().contains("past the end of its ids"), "{err}");
    }
}
