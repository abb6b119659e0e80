//! The Spelling Bee's tables on disk: the letter sets with their words
//! (`lettersets`) and the scored honeycombs (`honeycombs`), checked once
//! an index before any row is read.

use super::HONEYCOMB_LETTERS;
use crate::alphabet::LetterSet;
use crate::error::Result;
use crate::format::blocks::{check, LastBlock, Lazy};

use crate::format::{le_u32, search_sorted_many, Columns, SectionId, U32s, U64s};
use crate::index::Index;

/// A column of letter sets: `u32`s for an alphabet of up to 32 letters,
/// `u64`s past that (the format spec says so; the column's length agrees).
#[derive(Clone, Copy)]
pub(super) enum Masks<'a> {
    Narrow(U32s<'a>),
    Wide(U64s<'a>),
}

impl<'a> Masks<'a> {
    pub(super) fn open<D: AsRef<[u8]>>(index: &Index<D>, cols: &Columns<'a>, i: usize) -> Result<Masks<'a>> {
        Ok(if index.alphabet().len() <= 32 { Masks::Narrow(cols.u32s(i)?) } else { Masks::Wide(cols.u64s(i)?) })
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Masks::Narrow(m) => m.len(),
            Masks::Wide(m) => m.len(),
        }
    }

    #[cfg(test)]
    pub(super) fn get(&self, i: usize) -> Option<u64> {
        match self {
            Masks::Narrow(m) => m.get(i).map(u64::from),
            Masks::Wide(m) => m.get(i),
        }
    }

    pub(super) fn at(&self, i: usize) -> Result<u64> {
        match self {
            Masks::Narrow(m) => m.at(i).map(|v| v as u64),
            Masks::Wide(m) => m.at(i),
        }
    }

    /// The same masks, the column checked whole once (for a pass).
    pub(super) fn checked(&self) -> Result<Masks<'a>> {
        Ok(match self {
            Masks::Narrow(m) => Masks::Narrow(m.checked()?),
            Masks::Wide(m) => Masks::Wide(m.checked()?),
        })
    }

    /// Every mask in order, the column checked whole first, then read as
    /// raw bytes of one width or the other (a read through `get` a mask
    /// was 680 K of `bee stats`' instructions).
    pub(super) fn iter(&self) -> Result<impl Iterator<Item = u64> + 'a> {
        Ok(match self {
            Masks::Narrow(m) => MasksIter::Narrow(m.as_bytes()?.chunks_exact(4)),
            Masks::Wide(m) => MasksIter::Wide(m.as_bytes()?.chunks_exact(8)),
        })
    }

    /// The rows holding each of `keys` (ascending), ascending (see
    /// [`search_sorted_many`]); the blocks under the probes are checked
    /// as read, the one checked last remembered.
    pub(super) fn find_all(&self, keys: &[u64]) -> Result<Vec<usize>> {
        let mut found = Vec::with_capacity(keys.len());
        let mut last = LastBlock::default();
        match self {
            Masks::Narrow(m) => {
                // A key past 32 bits is in no narrow column.
                let mut narrow = Vec::with_capacity(keys.len());
                narrow.extend(keys.iter().filter_map(|&k| u32::try_from(k).ok()));
                let keys = narrow;
                search_sorted_many(m.len(), &mut |i| m.at_near(i, &mut last).map(|v| v as u32), &keys, &mut found)?
            }
            Masks::Wide(m) => search_sorted_many(m.len(), &mut |i| m.at_near(i, &mut last), keys, &mut found)?,
        }
        Ok(found)
    }

    pub(super) fn ascends_strictly(&self) -> Result<bool> {
        Ok(match self {
            Masks::Narrow(m) => m.ascends(true)?,
            Masks::Wide(m) => m.iter()?.zip(m.iter()?.skip(1)).all(|(a, b)| a < b),
        })
    }

    pub(super) fn max(&self) -> Result<Option<u64>> {
        Ok(match self {
            Masks::Narrow(m) => m.max()?.map(u64::from),
            Masks::Wide(m) => m.iter()?.max(),
        })
    }

    pub(super) fn as_bytes(&self) -> Result<&'a [u8]> {
        match self {
            Masks::Narrow(m) => m.as_bytes(),
            Masks::Wide(m) => m.as_bytes(),
        }
    }

    pub(super) fn section(&self) -> SectionId {
        match self {
            Masks::Narrow(m) => m.section(),
            Masks::Wide(m) => m.section(),
        }
    }
}

/// [`Masks::iter`]: one width or the other, decided once.
enum MasksIter<'a> {
    Narrow(std::slice::ChunksExact<'a, u8>),
    Wide(std::slice::ChunksExact<'a, u8>),
}

impl Iterator for MasksIter<'_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        match self {
            MasksIter::Narrow(bytes) => bytes.next().map(|b| le_u32(b) as u64),
            MasksIter::Wide(bytes) => bytes.next().map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        }
    }
}

/// The index's letter-set table.
pub(super) struct LetterSets<'a> {
    pub(super) masks: Masks<'a>,
    pub(super) points: U32s<'a>,
    pub(super) starts: U32s<'a>,
    pub(super) ids: U32s<'a>,
    /// The rows' words as codes (columns 4 and 5), where the file has them.
    pub(super) texts: Option<RowTexts<'a>>,
}

/// The words of each letter set of at most 7 letters, back to back:
/// where each row's start (`u32[r + 1]`), and the texts, a word each as
/// its length in codes and its codes, in the order of the row's ids.
#[derive(Clone, Copy)]
pub(super) struct RowTexts<'a> {
    starts: U32s<'a>,
    texts: &'a [u8],
    lazy: Option<Lazy<'a>>,
}

impl<'a> RowTexts<'a> {
    /// Row `row`'s texts, checked as read, and where they start in the
    /// column.
    pub(super) fn row(&self, row: usize) -> Result<(&'a [u8], usize)> {
        let range = self.starts.range(row)?;
        let start = range.start;
        let texts = self
            .texts
            .get(range)
            .ok_or_else(|| SectionId::Lettersets.corrupt("has a row's texts past their column"))?;
        check(self.lazy, texts)?;
        Ok((texts, start))
    }

    /// The whole of columns 4 and 5 (`verify`): offsets ascending to the
    /// end of the texts; a row of more than 7 letters without texts, and
    /// each other row's texts exactly its words, each of letters whose
    /// set is the row's. (That each is the word its id names is `verify
    /// --deep`'s check.)
    fn check<D: AsRef<[u8]>>(&self, index: &Index<D>, sets: &LetterSets) -> Result<()> {
        let corrupt =
            |row: usize, problem: &str| SectionId::Lettersets.corrupt(format!("has row {row}'s texts {problem}"));
        self.starts.check_offsets(self.texts.len())?;
        check(self.lazy, self.texts)?;
        index.will_scan(&[self.starts.as_bytes()?, self.texts]);
        let alphabet = index.alphabet();
        for row in 0..sets.len() {
            let (mut text, _) = self.row(row)?;
            let mask = sets.mask(row)?;
            let words = sets.starts.range(row)?.len();
            if mask.len() > HONEYCOMB_LETTERS {
                if !text.is_empty() {
                    return Err(corrupt(row, "where a row of more than 7 letters has none"));
                }
                continue;
            }
            for _ in 0..words {
                let Some((&len, rest)) = text.split_first() else {
                    return Err(corrupt(row, "shorter than its words"));
                };
                let Some(word) = rest.get(..len as usize).filter(|w| !w.is_empty()) else {
                    return Err(corrupt(row, "with a word empty or past their end"));
                };
                if alphabet.set_of(word) != Some(mask) {
                    return Err(corrupt(row, "with a word whose letters are not the row's"));
                }
                text = &rest[len as usize..];
            }
            if !text.is_empty() {
                return Err(corrupt(row, "longer than its words"));
            }
        }
        Ok(())
    }

    /// The texts column whole, for reading words back at the places
    /// [`RowTexts::row`] gave (checked there).
    pub(super) fn column(&self) -> &'a [u8] {
        self.texts
    }
}

impl<'a> LetterSets<'a> {
    pub(super) fn open<D: AsRef<[u8]>>(index: &'a Index<D>) -> Result<LetterSets<'a>> {
        let cols = index.columns(SectionId::Lettersets)?;
        let sets = LetterSets {
            masks: Masks::open(index, &cols, 0)?,
            points: cols.u32s(1)?,
            starts: cols.u32s(2)?,
            ids: cols.u32s(3)?,
            texts: None,
        };
        let n = sets.masks.len();
        if sets.points.len() != n || sets.starts.len() != n + 1 {
            return Err(cols.corrupt("has columns of different lengths"));
        }
        // Columns 4 and 5 came later: a file without them reads each word
        // from the word text.
        if cols.len() > 5 {
            let (texts, lazy) = cols.lazy_bytes(5)?;
            let starts = cols.u32s(4)?;
            if starts.len() != n + 1 {
                return Err(cols.corrupt("has columns of different lengths"));
            }
            return Ok(LetterSets { texts: Some(RowTexts { starts, texts, lazy }), ..sets });
        }
        Ok(sets)
    }

    /// The same table with the masks and offsets checked whole: for a
    /// pass over every row, which then reads them without a check per
    /// value (points and ids stay checked as they are read).
    pub(super) fn for_a_pass(&self) -> Result<LetterSets<'a>> {
        Ok(LetterSets { masks: self.masks.checked()?, starts: self.starts.checked()?, ..*self })
    }

    /// The checks a pass over every row relies on, once an index: every
    /// mask a set of the alphabet's letters, the offsets ascending. A
    /// lookup of a few rows needs neither (see [`LetterSets::word_ids_of`]).
    pub(super) fn check_whole<D: AsRef<[u8]>>(&self, index: &'a Index<D>) -> Result<()> {
        index.check_once(SectionId::Lettersets, || {
            check_masks(index, &index.columns(SectionId::Lettersets)?, self.masks)?;
            self.starts.check_offsets(self.ids.len())
        })
    }

    pub(super) fn len(&self) -> usize {
        self.masks.len()
    }

    pub(super) fn mask(&self, row: usize) -> Result<LetterSet> {
        self.masks.at(row).map(LetterSet)
    }

    /// Rows whose set lies within `letters` and holds every letter of
    /// `required`, ascending: by subset lookup when that is fewer probes than a scan.
    pub(super) fn rows_within(&self, letters: LetterSet, required: LetterSet) -> Result<Vec<usize>> {
        let free = letters.len() - required.len();
        if free < 20 && (1usize << free) <= self.len() {
            // 2^free of them, largest first: the vector sized once, then reversed.
            let mut keys = Vec::with_capacity(1 << free);
            keys.extend(letters.subsets_containing(required).map(|s| s.0));
            keys.reverse();
            self.masks.find_all(&keys)
        } else {
            (0..self.len())
                .filter_map(|row| match self.mask(row) {
                    Ok(m) if m.is_subset_of(letters) && required.is_subset_of(m) => Some(Ok(row)),
                    Ok(_) => None,
                    Err(e) => Some(Err(e)),
                })
                .collect()
        }
    }
}

/// A honeycomb table (`honeycombs` or `common_honeycombs`).
pub(super) struct Honeycombs<'a> {
    pub(super) masks: Masks<'a>,
    pub(super) pangrams: U32s<'a>,
    pub(super) scores: U32s<'a>,
    pub(super) counts: U32s<'a>,
}

impl<'a> Honeycombs<'a> {
    pub(super) fn open<D: AsRef<[u8]>>(index: &'a Index<D>, id: SectionId) -> Result<Honeycombs<'a>> {
        let cols: Columns<'a> = index.columns(id)?;
        let combs = Honeycombs {
            masks: Masks::open(index, &cols, 0)?,
            pangrams: cols.u32s(1)?,
            scores: cols.u32s(2)?,
            counts: cols.u32s(3)?,
        };
        let h = combs.masks.len();
        if combs.pangrams.len() != h
            || combs.scores.len() != h * HONEYCOMB_LETTERS
            || combs.counts.len() != h * HONEYCOMB_LETTERS
        {
            return Err(cols.corrupt("has columns of different lengths"));
        }
        index.check_once(id, || check_masks(index, &cols, combs.masks))?;
        Ok(combs)
    }

    /// Every (honeycomb, centre) whose letters avoid `exclude`, with its
    /// totals [score, words, pangrams].
    #[cfg(test)]
    pub(super) fn each(&self, exclude: LetterSet) -> impl Iterator<Item = Result<(LetterSet, usize, [u32; 3])>> + '_ {
        (0..self.masks.len()).flat_map(move |row| {
            let mask = LetterSet(self.masks.get(row).unwrap_or(0));
            let skip = mask.intersects(exclude);
            let bad = mask.len() != HONEYCOMB_LETTERS;
            let pangrams = self.pangrams.get(row).unwrap_or(0);
            mask.indices().enumerate().filter(move |_| !skip).map(move |(j, center)| {
                if bad {
                    return Err(self.masks.section().corrupt("has a row that is not 7 letters"));
                }
                let cell = row * HONEYCOMB_LETTERS + j;
                Ok((mask, center, [self.scores.at(cell)? as u32, self.counts.at(cell)? as u32, pangrams]))
            })
        })
    }
}

/// Every mask of a table is a set of the alphabet's letters: one pass over
/// the column, once an index (see [`Index::check_once`]).
pub(super) fn check_masks<D: AsRef<[u8]>>(index: &Index<D>, cols: &Columns, masks: Masks) -> Result<()> {
    if masks.max()?.is_some_and(|m| m & !index.alphabet().full_set().0 != 0) {
        return Err(cols.corrupt("has a letter set outside the index's alphabet"));
    }
    Ok(())
}

/// Checks the structure of both bee sections (for `verify`).
pub(crate) fn check_sections<D: AsRef<[u8]>>(index: &Index<D>) -> Result<()> {
    let sets = LetterSets::open(index)?;
    sets.check_whole(index)?;
    index.will_scan(&[sets.masks.as_bytes()?, sets.starts.as_bytes()?, sets.ids.as_bytes()?]);
    if !sets.masks.ascends_strictly()? {
        return Err(SectionId::Lettersets.corrupt("masks are not ascending"));
    }
    sets.starts.check_offsets(sets.ids.len())?;
    if sets.ids.max()?.is_some_and(|id| id as usize >= index.word_count()) {
        return Err(SectionId::Lettersets.corrupt("has a word id out of range"));
    }
    if let Some(texts) = sets.texts {
        texts.check(index, &sets)?;
    }
    // Opening checks the columns' lengths; what `each` may still find
    // wrong is a row that is not 7 letters.
    for id in [SectionId::Honeycombs, SectionId::CommonHoneycombs] {
        if id == SectionId::Honeycombs || index.has_section(id) {
            let combs = Honeycombs::open(index, id)?;
            index.will_scan(&[combs.masks.as_bytes()?]);
            if combs.masks.iter()?.any(|m| LetterSet(m).len() != HONEYCOMB_LETTERS) {
                return Err(id.corrupt("has a row that is not 7 letters"));
            }
        }
    }
    Ok(())
}
