//! Column tables (see the format spec): the checked views a reader uses.

use super::{le_u32, read_u32, read_u64, SectionId, COLUMN_ENTRY_LEN, COLUMN_TABLE_HEADER_LEN};
use crate::error::{Error, Result};

/// A parsed column table over a section's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Columns<'a> {
    section: SectionId,
    bytes: &'a [u8],
    count: usize,
}

impl<'a> Columns<'a> {
    /// Parses a column table, checking every column's bounds and alignment.
    pub fn parse(section: SectionId, bytes: &'a [u8]) -> Result<Columns<'a>> {
        let count = read_u32(bytes, 0).ok_or_else(|| section.corrupt("is truncated"))? as usize;
        let table = Columns { section, bytes, count };
        let entries_end = count
            .checked_mul(COLUMN_ENTRY_LEN)
            .and_then(|n| n.checked_add(COLUMN_TABLE_HEADER_LEN))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| section.corrupt("has a bad column count"))?;
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

    /// Column `i` as raw bytes.
    pub fn bytes(&self, i: usize) -> Result<&'a [u8]> {
        if i >= self.count {
            return Err(self.corrupt(&format!("lacks column {i}")));
        }
        let (offset, len) = self.entry(i).expect("validated by parse");
        Ok(&self.bytes[offset as usize..(offset + len) as usize])
    }

    /// Column `i` as `u32`s.
    pub fn u32s(&self, i: usize) -> Result<U32s<'a>> {
        let bytes = self.bytes(i)?;
        if bytes.len() % 4 != 0 {
            return Err(self.corrupt(&format!("column {i} is not u32s")));
        }
        Ok(U32s(bytes, self.section))
    }

    /// Column `i` as `u64`s.
    pub fn u64s(&self, i: usize) -> Result<U64s<'a>> {
        let bytes = self.bytes(i)?;
        if bytes.len() % 8 != 0 {
            return Err(self.corrupt(&format!("column {i} is not u64s")));
        }
        Ok(U64s(bytes, self.section))
    }

    /// An error for this section, for callers' structural checks.
    pub fn corrupt(&self, what: &str) -> Error {
        self.section.corrupt(what)
    }
}

/// A little-endian `u32` array view over bytes; indexing is checked.
#[derive(Clone, Copy, Debug)]
pub struct U32s<'a>(&'a [u8], SectionId);

impl<'a> U32s<'a> {
    /// The values' bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Value `i`, if in bounds.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        read_u32(self.0, i.checked_mul(4)?)
    }

    /// Value `i` as a `usize`, or a corruption error naming `what`.
    #[inline]
    pub fn at(&self, i: usize) -> Result<usize> {
        self.get(i).map(|v| v as usize).ok_or_else(|| self.out_of_bounds())
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.0.chunks_exact(4).map(le_u32)
    }

    /// Values `range` as a view of their own: bounds checked once, for a
    /// loop over them.
    #[inline]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Result<U32s<'a>> {
        let bytes = range.start.checked_mul(4).zip(range.end.checked_mul(4)).and_then(|(a, b)| self.0.get(a..b));
        bytes.map(|b| U32s(b, self.1)).ok_or_else(|| self.out_of_bounds())
    }

    /// The section the column is in (for errors about its values).
    pub fn section(&self) -> SectionId {
        self.1
    }

    fn out_of_bounds(&self) -> Error {
        self.1.corrupt("a table index is out of bounds")
    }

    /// Binary search for a value in a column sorted ascending.
    pub fn binary_search(&self, value: u32) -> Option<usize> {
        search_sorted(self.len(), |i| self.get(i), value)
    }

    /// The largest value, if any: a whole-column bounds check in one pass
    /// the compiler can vectorise.
    pub fn max(&self) -> Option<u32> {
        (!self.is_empty()).then(|| self.iter().fold(0, u32::max))
    }

    /// True when the values ascend, strictly with `strict`: one pass with
    /// no early exit, as a check of a whole column expects them to.
    pub fn ascends(&self, strict: bool) -> bool {
        let mut values = self.iter();
        let Some(first) = values.next() else { return true };
        let (_, ok) = values.fold((first, true), |(prev, ok), v| (v, ok & (v > prev || (!strict && v == prev))));
        ok
    }

    /// Checks a whole offsets column at once: ascending, ending at `len`
    /// (the length of the table it points into). After this, every
    /// [`U32s::range`] of it is in bounds.
    pub fn check_offsets(&self, len: usize) -> Result<()> {
        if self.is_empty() || !self.ascends(false) || self.get(self.len() - 1) != Some(len as u32) {
            return Err(self.1.corrupt("an offsets column is not ascending or does not end at its table"));
        }
        Ok(())
    }

    /// Values `[start, end)` of a column of offsets into another table:
    /// the range `offsets[i]..offsets[i + 1]`, checked to be ordered.
    pub fn range(&self, i: usize) -> Result<std::ops::Range<usize>> {
        let (start, end) = (self.at(i)?, self.at(i + 1)?);
        if start > end {
            return Err(self.1.corrupt("an offsets column is not ascending"));
        }
        Ok(start..end)
    }
}

/// Binary search over `len` values that `get` reads (a damaged, unsorted
/// column gives a wrong answer or none, never a panic).
fn search_sorted<T: Ord>(len: usize, get: impl Fn(usize) -> Option<T>, value: T) -> Option<usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match get(mid)?.cmp(&value) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(mid),
        }
    }
    None
}

/// A little-endian `u64` array view over bytes; indexing is checked.
#[derive(Clone, Copy, Debug)]
pub struct U64s<'a>(&'a [u8], SectionId);

impl<'a> U64s<'a> {
    /// The number of values.
    pub fn len(&self) -> usize {
        self.0.len() / 8
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Value `i`, if in bounds.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u64> {
        read_u64(self.0, i.checked_mul(8)?)
    }

    /// The values' bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The section the column is in.
    pub fn section(&self) -> SectionId {
        self.1
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + 'a {
        self.0.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
    }

    /// Binary search for a value in a column sorted ascending.
    pub fn binary_search(&self, value: u64) -> Option<usize> {
        search_sorted(self.len(), |i| self.get(i), value)
    }

    /// Value `i`, or a corruption error.
    pub fn at(&self, i: usize) -> Result<u64> {
        self.get(i).ok_or_else(|| self.1.corrupt("a table index is out of bounds"))
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
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 5, 9]);
        assert_eq!(a.binary_search(5), Some(1));
        assert_eq!(a.binary_search(4), None);
        assert_eq!(a.get(3), None);
        assert_eq!(cols.u64s(1).unwrap().get(0), Some(u64::MAX));
        assert_eq!(cols.bytes(2).unwrap(), &[7, 7, 7]);
        assert!(cols.bytes(3).is_err());
        assert!(cols.u64s(2).is_err());
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
