//! Column tables (see the format spec): the checked views a reader uses.
//!
//! A view made from an index's section reads its bytes through the
//! section's block checksums ([`Lazy`]): each value it hands out lies in
//! blocks checked before it is read. Views over whole runs of values
//! (`slice`, `as_bytes`, `iter`) check the run once and hand out views
//! that need no more checks.

use std::ops::Range;

use super::blocks::{check, LastBlock, Lazy};
use super::{le_u32, read_u32, read_u64, SectionId, COLUMN_ENTRY_LEN, COLUMN_TABLE_HEADER_LEN};
use crate::error::{Error, Result};

/// A parsed column table over a section's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Columns<'a> {
    section: SectionId,
    bytes: &'a [u8],
    count: usize,
    lazy: Option<Lazy<'a>>,
}

impl<'a> Columns<'a> {
    /// Parses a column table over bytes already checked (or made here),
    /// checking every column's bounds and alignment.
    pub fn parse(section: SectionId, bytes: &'a [u8]) -> Result<Columns<'a>> {
        Columns::parse_lazy(section, bytes, None)
    }

    /// [`Columns::parse`] over a section read through its block checksums:
    /// the table of columns is checked now, each column as it is read.
    pub fn parse_lazy(section: SectionId, bytes: &'a [u8], lazy: Option<Lazy<'a>>) -> Result<Columns<'a>> {
        check(lazy, bytes.get(..COLUMN_TABLE_HEADER_LEN).unwrap_or(bytes))?;
        let count = read_u32(bytes, 0).ok_or_else(|| section.corrupt("is truncated"))? as usize;
        let table = Columns { section, bytes, count, lazy };
        let entries_end = count
            .checked_mul(COLUMN_ENTRY_LEN)
            .and_then(|n| n.checked_add(COLUMN_TABLE_HEADER_LEN))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| section.corrupt("has a bad column count"))?;
        check(lazy, &bytes[..entries_end])?;
        for i in 0..count {
            let (offset, len) = table.entry(i).expect("entry within table");
            let end = offset.checked_add(len);
            if offset % 8 != 0 || offset < entries_end as u64 || end.is_none_or(|e| e > bytes.len() as u64) {
                return Err(section.corrupt(format!("column {i} is out of bounds")));
            }
        }
        Ok(table)
    }

    fn entry(&self, i: usize) -> Option<(u64, u64)> {
        let at = COLUMN_TABLE_HEADER_LEN + i * COLUMN_ENTRY_LEN;
        Some((read_u64(self.bytes, at)?, read_u64(self.bytes, at + 8)?))
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when the table has no columns.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Column `i`'s bytes, not yet checked, and how to check them.
    fn column(&self, i: usize) -> Result<&'a [u8]> {
        if i >= self.count {
            return Err(self.corrupt(&format!("lacks column {i}")));
        }
        let (offset, len) = self.entry(i).expect("validated by parse");
        Ok(&self.bytes[offset as usize..(offset + len) as usize])
    }

    /// Column `i` as raw bytes, checked whole.
    #[inline]
    pub fn bytes(&self, i: usize) -> Result<&'a [u8]> {
        let bytes = self.column(i)?;
        check(self.lazy, bytes)?;
        Ok(bytes)
    }

    /// Column `i` as raw bytes, unchecked, with what checks them as they
    /// are read (an FST: a lookup reads a few of its nodes).
    pub fn lazy_bytes(&self, i: usize) -> Result<(&'a [u8], Option<Lazy<'a>>)> {
        Ok((self.column(i)?, self.lazy))
    }

    /// Column `i` as `u32`s.
    pub fn u32s(&self, i: usize) -> Result<U32s<'a>> {
        let bytes = self.column(i)?;
        if bytes.len() % 4 != 0 {
            return Err(self.corrupt(&format!("column {i} is not u32s")));
        }
        Ok(U32s { bytes, section: self.section, lazy: self.lazy })
    }

    /// Column `i` as `u64`s.
    pub fn u64s(&self, i: usize) -> Result<U64s<'a>> {
        let bytes = self.column(i)?;
        if bytes.len() % 8 != 0 {
            return Err(self.corrupt(&format!("column {i} is not u64s")));
        }
        Ok(U64s { bytes, section: self.section, lazy: self.lazy })
    }

    /// An error for this section, for callers' structural checks.
    pub fn corrupt(&self, what: &str) -> Error {
        self.section.corrupt(what)
    }
}

/// A little-endian `u32` array view over bytes; indexing is checked, and
/// so are the blocks under each value read.
#[derive(Clone, Copy, Debug)]
pub struct U32s<'a> {
    bytes: &'a [u8],
    section: SectionId,
    lazy: Option<Lazy<'a>>,
}

impl<'a> U32s<'a> {
    /// A view of values already checked (or made here).
    pub fn new(bytes: &'a [u8], section: SectionId) -> U32s<'a> {
        U32s { bytes: &bytes[..bytes.len() / 4 * 4], section, lazy: None }
    }

    /// The values' bytes, checked whole.
    #[inline]
    pub fn as_bytes(&self) -> Result<&'a [u8]> {
        check(self.lazy, self.bytes)?;
        Ok(self.bytes)
    }

    /// The same values, checked whole once: a view whose reads need no
    /// more checks (for a pass over all of them).
    #[inline]
    pub fn checked(&self) -> Result<U32s<'a>> {
        Ok(U32s { bytes: self.as_bytes()?, section: self.section, lazy: None })
    }

    /// The number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Value `i`, if in bounds and its block matches its checksum: `None`
    /// says either, so it is for reads where both are an error anyway; a
    /// read whose miss means something (a search) uses [`U32s::at`].
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        let at = i.checked_mul(4)?;
        let bytes = self.bytes.get(at..at.checked_add(4)?)?;
        match self.lazy {
            Some(lazy) if !lazy.ok(bytes) => None,
            _ => Some(le_u32(bytes)),
        }
    }

    /// Value `i` as a `usize`, or a corruption or checksum error.
    #[inline]
    pub fn at(&self, i: usize) -> Result<usize> {
        let bytes = self.value_bytes(i)?;
        check(self.lazy, bytes)?;
        Ok(le_u32(bytes) as usize)
    }

    /// [`U32s::at`] for one of many reads near each other: the block
    /// checked last is remembered in `last`.
    #[inline]
    pub fn at_near(&self, i: usize, last: &mut LastBlock) -> Result<usize> {
        let bytes = self.value_bytes(i)?;
        last.check(self.lazy, bytes)?;
        Ok(le_u32(bytes) as usize)
    }

    /// Value `i`, in bounds, its block not checked: for a reader whose
    /// own checksum covers the value (a `word_text` run's).
    #[inline]
    pub(crate) fn at_covered(&self, i: usize) -> Result<usize> {
        Ok(le_u32(self.value_bytes(i)?) as usize)
    }

    /// Value `i`'s bytes, in bounds, not yet checked.
    #[inline(always)]
    fn value_bytes(&self, i: usize) -> Result<&'a [u8]> {
        let at = i.checked_mul(4).ok_or_else(|| self.out_of_bounds())?;
        at.checked_add(4).and_then(|end| self.bytes.get(at..end)).ok_or_else(|| self.out_of_bounds())
    }

    /// All values in order, checked whole first.
    #[inline]
    pub fn iter(&self) -> Result<impl Iterator<Item = u32> + 'a> {
        Ok(self.as_bytes()?.chunks_exact(4).map(le_u32))
    }

    /// Values `range` as a view of their own: bounds and blocks checked
    /// once, for a loop over them.
    #[inline]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Result<U32s<'a>> {
        let bytes = range.start.checked_mul(4).zip(range.end.checked_mul(4)).and_then(|(a, b)| self.bytes.get(a..b));
        let bytes = bytes.ok_or_else(|| self.out_of_bounds())?;
        check(self.lazy, bytes)?;
        Ok(U32s { bytes, section: self.section, lazy: None })
    }

    /// The section the column is in (for errors about its values).
    pub fn section(&self) -> SectionId {
        self.section
    }

    fn out_of_bounds(&self) -> Error {
        self.section.corrupt("a table index is out of bounds")
    }

    /// Binary search for a value in a column sorted ascending (a probe
    /// into a damaged block is an error). The last probes fall in one
    /// block: its check is remembered.
    pub fn binary_search(&self, value: u32) -> Result<Option<usize>> {
        let mut last = LastBlock::default();
        search_sorted(self.len(), |i| self.at_near(i, &mut last).map(|v| v as u32), value)
    }

    /// The largest value, if any: a whole-column bounds check in one pass
    /// the compiler can vectorise.
    pub fn max(&self) -> Result<Option<u32>> {
        Ok((!self.is_empty()).then(|| self.bytes.chunks_exact(4).map(le_u32).fold(0, u32::max)))
            .and_then(|max| check(self.lazy, self.bytes).map(|()| max))
    }

    /// True when the values ascend, strictly with `strict`: one pass with
    /// no early exit, as a check of a whole column expects them to.
    pub fn ascends(&self, strict: bool) -> Result<bool> {
        let mut values = self.iter()?;
        let Some(first) = values.next() else { return Ok(true) };
        let (_, ok) = values.fold((first, true), |(prev, ok), v| (v, ok & (v > prev || (!strict && v == prev))));
        Ok(ok)
    }

    /// Checks a whole offsets column at once: ascending, ending at `len`
    /// (the length of the table it points into). After this, every
    /// [`U32s::range`] of it is in bounds.
    pub fn check_offsets(&self, len: usize) -> Result<()> {
        if self.is_empty() || !self.ascends(false)? || self.get(self.len() - 1) != Some(len as u32) {
            return Err(self.section.corrupt("an offsets column is not ascending or does not end at its table"));
        }
        Ok(())
    }

    /// Values `[start, end)` of a column of offsets into another table:
    /// the range `offsets[i]..offsets[i + 1]`, checked to be ordered.
    #[inline]
    pub fn range(&self, i: usize) -> Result<std::ops::Range<usize>> {
        // Both values in one read and one check (a honeycomb reads 48 rows' ranges).
        let at = i.checked_mul(4).ok_or_else(|| self.out_of_bounds())?;
        let pair = at.checked_add(8).and_then(|end| self.bytes.get(at..end)).ok_or_else(|| self.out_of_bounds())?;
        check(self.lazy, pair)?;
        let (start, end) = (le_u32(&pair[..4]) as usize, le_u32(&pair[4..]) as usize);
        if start > end {
            return Err(self.section.corrupt("an offsets column is not ascending"));
        }
        Ok(start..end)
    }
}

/// Binary search over `len` values that `get` reads: an error when a
/// probe's block fails its checksum (damage there is not a miss); an
/// unsorted column (which passes its checksums only if built so) gives a
/// wrong row or none, never a panic.
fn search_sorted<T: Ord>(len: usize, mut get: impl FnMut(usize) -> Result<T>, value: T) -> Result<Option<usize>> {
    let (row, found) = probe(0..len, &mut get, &value)?;
    Ok(found.then_some(row))
}

/// Binary search for `key` among `rows`: the row that holds it (true),
/// or the first row above it (false), the probes within `rows`.
fn probe<T: Ord>(rows: Range<usize>, get: &mut impl FnMut(usize) -> Result<T>, key: &T) -> Result<(usize, bool)> {
    let (mut lo, mut hi) = (rows.start, rows.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match get(mid)?.cmp(key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Ok((mid, true)),
        }
    }
    Ok((lo, false))
}

/// The rows of a column sorted ascending that hold each of `keys`
/// (ascending), in order, the keys not there left out. The middle key is
/// searched for first, then each half of the keys among its half of the
/// rows, so later searches start narrower (64 keys among 75,000 rows: a
/// quarter fewer probes than 64 searches). On a column that does not
/// ascend (a damaged file) a row found always holds its key, and the
/// probes stay within `len`: each search halves its range, and the
/// recursion is as deep as the keys halve.
pub(crate) fn search_sorted_many<T: Ord + Copy>(
    len: usize,
    get: &mut impl FnMut(usize) -> Result<T>,
    keys: &[T],
    found: &mut Vec<usize>,
) -> Result<()> {
    fn within<T: Ord + Copy>(
        rows: Range<usize>,
        get: &mut impl FnMut(usize) -> Result<T>,
        keys: &[T],
        found: &mut Vec<usize>,
    ) -> Result<()> {
        if keys.is_empty() || rows.is_empty() {
            return Ok(());
        }
        let middle = keys.len() / 2;
        let (lo, at_key) = probe(rows.clone(), get, &keys[middle])?;
        within(rows.start..lo, get, &keys[..middle], found)?;
        if at_key {
            found.push(lo);
        }
        within(lo + at_key as usize..rows.end, get, &keys[middle + 1..], found)
    }
    within(0..len, get, keys, found)
}

/// A little-endian `u64` array view over bytes; indexing is checked, and
/// so are the blocks under each value read.
#[derive(Clone, Copy, Debug)]
pub struct U64s<'a> {
    bytes: &'a [u8],
    section: SectionId,
    lazy: Option<Lazy<'a>>,
}

impl<'a> U64s<'a> {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.bytes.len() / 8
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Value `i`, if in bounds and its block matches its checksum (see
    /// [`U32s::get`]: a read whose miss means something uses
    /// [`U64s::at`]).
    #[inline]
    pub fn get(&self, i: usize) -> Option<u64> {
        let at = i.checked_mul(8)?;
        let bytes = self.bytes.get(at..at.checked_add(8)?)?;
        match self.lazy {
            Some(lazy) if !lazy.ok(bytes) => None,
            _ => read_u64(bytes, 0),
        }
    }

    /// The values' bytes, checked whole.
    #[inline]
    pub fn as_bytes(&self) -> Result<&'a [u8]> {
        check(self.lazy, self.bytes)?;
        Ok(self.bytes)
    }

    /// The same values, checked whole once (see [`U32s::checked`]).
    #[inline]
    pub fn checked(&self) -> Result<U64s<'a>> {
        Ok(U64s { bytes: self.as_bytes()?, section: self.section, lazy: None })
    }

    /// The section the column is in.
    pub fn section(&self) -> SectionId {
        self.section
    }

    /// All values in order, checked whole first.
    #[inline]
    pub fn iter(&self) -> Result<impl Iterator<Item = u64> + 'a> {
        Ok(self.as_bytes()?.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))))
    }

    /// Values `range` as a view of their own, its blocks checked once
    /// (see [`U32s::slice`]).
    #[inline]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Result<U64s<'a>> {
        let bytes = range.start.checked_mul(8).zip(range.end.checked_mul(8)).and_then(|(a, b)| self.bytes.get(a..b));
        let bytes = bytes.ok_or_else(|| self.section.corrupt("a table index is out of bounds"))?;
        check(self.lazy, bytes)?;
        Ok(U64s { bytes, section: self.section, lazy: None })
    }

    /// Binary search for a value in a column sorted ascending (see
    /// [`U32s::binary_search`]).
    pub fn binary_search(&self, value: u64) -> Result<Option<usize>> {
        let mut last = LastBlock::default();
        search_sorted(self.len(), |i| self.at_near(i, &mut last), value)
    }

    /// Value `i`, or a corruption or checksum error.
    #[inline]
    pub fn at(&self, i: usize) -> Result<u64> {
        let bytes = self.value_bytes(i)?;
        check(self.lazy, bytes)?;
        Ok(read_u64(bytes, 0).expect("8 bytes"))
    }

    /// [`U64s::at`] for one of many reads near each other (see
    /// [`U32s::at_near`]).
    #[inline]
    pub fn at_near(&self, i: usize, last: &mut LastBlock) -> Result<u64> {
        let bytes = self.value_bytes(i)?;
        last.check(self.lazy, bytes)?;
        Ok(read_u64(bytes, 0).expect("8 bytes"))
    }

    /// Value `i`'s bytes, in bounds, not yet checked.
    #[inline(always)]
    fn value_bytes(&self, i: usize) -> Result<&'a [u8]> {
        let out_of_bounds = || self.section.corrupt("a table index is out of bounds");
        let at = i.checked_mul(8).ok_or_else(out_of_bounds)?;
        at.checked_add(8).and_then(|end| self.bytes.get(at..end)).ok_or_else(out_of_bounds)
    }
}

#[cfg(all(test, feature = "write"))]
mod tests {
    use super::*;
    use crate::format::ColumnsWriter;

    #[test]
    fn columns_round_trip() {
        let mut w = ColumnsWriter::new();
        w.u32s(&[1, 5, 9]).u64s(&[u64::MAX]).bytes(vec![7; 3]);
        let bytes = w.finish();
        let cols = Columns::parse(SectionId::Lettersets, &bytes).unwrap();
        assert_eq!(cols.len(), 3);
        let a = cols.u32s(0).unwrap();
        assert_eq!(a.iter().unwrap().collect::<Vec<_>>(), vec![1, 5, 9]);
        assert_eq!(a.binary_search(5).unwrap(), Some(1));
        assert_eq!(a.binary_search(4).unwrap(), None);
        assert_eq!(a.get(3), None);
        assert_eq!(cols.u64s(1).unwrap().get(0), Some(u64::MAX));
        assert_eq!(cols.bytes(2).unwrap(), &[7, 7, 7]);
        assert!(cols.bytes(3).is_err());
        assert!(cols.u64s(2).is_err());
    }

    #[test]
    fn binary_search_finds_what_a_scan_finds() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for len in 0..70 {
            let mut values: Vec<u32> = (0..len).map(|_| rng.below(200) as u32).collect();
            values.sort_unstable();
            values.dedup();
            let get = |i: usize| values.get(i).copied().ok_or_else(|| SectionId::Lettersets.corrupt("out of bounds"));
            for probe in 0..201 {
                let want = values.iter().position(|&v| v == probe);
                assert_eq!(search_sorted(values.len(), get, probe).unwrap(), want, "{probe} in {values:?}");
            }
        }
        // Unsorted values give some row or none, never a panic.
        let shuffled = [9u32, 1, 7, 3];
        for probe in 0..10 {
            let found = search_sorted(4, |i| Ok(shuffled[i]), probe).unwrap();
            assert!(found.is_none_or(|i| shuffled[i] == probe));
        }
    }

    /// Many keys at once find what a search a key finds, on sorted
    /// columns; on shuffled ones each row found holds its key.
    #[test]
    fn a_search_for_many_keys_finds_what_one_search_a_key_finds() {
        let mut rng = crate::rng::SplitMix64::new(6);
        for len in 0..90 {
            let mut values: Vec<u32> = (0..len).map(|_| rng.below(300) as u32).collect();
            values.sort_unstable();
            values.dedup();
            let mut keys: Vec<u32> = (0..rng.below(40)).map(|_| rng.below(310) as u32).collect();
            keys.sort_unstable();
            keys.dedup();
            let mut get = |i: usize| values.get(i).copied().ok_or_else(|| SectionId::Lettersets.corrupt("out"));
            let mut found = Vec::new();
            search_sorted_many(values.len(), &mut get, &keys, &mut found).unwrap();
            let want: Vec<usize> = keys.iter().filter_map(|k| values.iter().position(|v| v == k)).collect();
            assert_eq!(found, want, "{keys:?} in {values:?}");
            let mut shuffled = values.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut get = |i: usize| shuffled.get(i).copied().ok_or_else(|| SectionId::Lettersets.corrupt("out"));
            let mut found = Vec::new();
            search_sorted_many(shuffled.len(), &mut get, &keys, &mut found).unwrap();
            assert!(found.iter().all(|&row| keys.contains(&shuffled[row])), "{keys:?} in {shuffled:?}");
        }
    }

    #[test]
    fn columns_reject_bad_bounds() {
        let mut bytes = ColumnsWriter::new().u32s(&[1, 2]).finish();
        bytes[8] = 200; // column offset past the end
        assert!(Columns::parse(SectionId::Terms, &bytes).is_err());
        assert!(Columns::parse(SectionId::Terms, &[1, 0, 0]).is_err());
        assert!(Columns::parse(SectionId::Terms, &[255, 255, 255, 255, 0, 0, 0, 0]).is_err());
    }
}
