//! The crate's `unsafe` operations: mapping an index file into memory,
//! letting go of pages of the map that a pass has finished reading, and
//! tables of zeroed counts whose pages are mapped in one call.
//!
//! Only with the `mmap` feature (on by default). The advice calls are
//! speed tricks for Unix kernels; elsewhere a map is read as it comes.

use std::fs::File;
use std::path::Path;

use memmap2::{Mmap, MmapMut};

use crate::error::{Error, Result};

/// Maps a file read-only.
///
/// # Safety
///
/// A memory map is only sound while no one changes the file underneath it.
/// wordhoard never writes an index in place: `build` writes a temporary file
/// and renames it over the old path, which leaves existing maps of the old
/// file intact. Another program that rewrites the file in place while it
/// is mapped changes what the reader sees between two reads (every access
/// is still bounds-checked against the map's length, so the reader sees
/// corrupt data, never memory outside the map); one that truncates it makes
/// reads past the new end fault (SIGBUS), which kills the process. That is
/// the contract `Index::open` documents; `Index::read` avoids it.
pub(crate) fn map_file(path: &Path) -> Result<(Mmap, File)> {
    let io_err = |what, e| Error::io(path, what, e);
    Error::check_regular(path, "open")?;
    let file = File::open(path).map_err(|e| io_err("open", e))?;
    let meta = file.metadata().map_err(|e| io_err("read", e))?;
    if meta.is_dir() {
        return Err(Error::is_a_directory(path, "open"));
    }
    if !meta.is_file() {
        return Err(Error::not_a_file(path, "open"));
    }
    if meta.len() == 0 {
        return Err(Error::corrupt("the file is empty"));
    }
    #[allow(unsafe_code)]
    // SAFETY: see the function's Safety section; the map is read-only and
    // every read through it is bounds-checked.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| io_err("map", e))?;
    // No advice for the map as a whole: the kernel's normal read-ahead.
    // A query reads whole 64 KiB blocks (it checks their checksums), so
    // random-access advice, which turns read-ahead off, made a cold query
    // fault its pages in one 4 KiB page at a time.
    Ok((map, file))
}

/// Positional reads of a mapped file into buffers of the caller's (Unix
/// `pread`), for the tables a query reads in many small stretches far
/// apart (see [`crate::letter_groups::CopyOut`]); `None` elsewhere, where they are
/// read through the map. The copy is of the file, not of the map: a file
/// changed in place since it was opened gives other bytes, so what is
/// copied must be checked by its own checksums, and a file cut short
/// gives an error, not a fault.
pub(crate) fn copy_out(file: File, path: &Path, map: &Mmap) -> Option<Box<crate::letter_groups::CopyOut>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        // Where the map lies: a stretch is named by a slice of it.
        let (base, len) = (map.as_ptr() as usize, map.len());
        let path = path.to_path_buf();
        Some(Box::new(move |within: &[u8], into: &mut [u8]| {
            let at = (within.as_ptr() as usize).wrapping_sub(base);
            if at > len || within.len() > len - at || into.len() != within.len() {
                return Err(Error::corrupt("a copy was asked of bytes outside the map"));
            }
            file.read_exact_at(into, at as u64).map_err(|e| Error::io(&path, "read", e))
        }))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path, map);
        None
    }
}

/// Before a pass reads a whole range end to end (a checksum pass, a
/// table scan): sequential advice, so the kernel reads far ahead, and the
/// range mapped in one call instead of a page fault per page. Advice only;
/// Linux only (elsewhere the pass faults its pages in as it reads).
pub(crate) fn populate(map: &Mmap, range: std::ops::Range<usize>) {
    #[cfg(target_os = "linux")]
    {
        let _ = map.advise_range(memmap2::Advice::Sequential, range.start, range.len());
        let _ = map.advise_range(memmap2::Advice::PopulateRead, range.start, range.len());
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (map, range);
}

/// Drops a range's pages from this process's map once a pass over it is
/// done (`verify` reads every byte, and would otherwise hold the whole file
/// resident). Later reads fault the pages in again from the page cache.
/// Unix only; elsewhere the pages stay mapped until the index is dropped.
pub(crate) fn release(map: &Mmap, range: std::ops::Range<usize>) {
    #[cfg(unix)]
    #[allow(unsafe_code)]
    // SAFETY: the map is a read-only, shared map of a file. MADV_DONTNEED
    // on it only removes page table entries: the next read of any byte
    // maps the same page of the file again, so every slice borrowed from
    // the map keeps reading the same bytes (unless the file is changed in
    // place, the caveat `map_file` states for any map). Advice only.
    let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, range.start, range.len()) };
    #[cfg(not(unix))]
    let _ = (map, range);
}

/// A plain integer a table of [`zeroed`] holds: every bit pattern is a
/// value, all zeros is 0, and its alignment divides a page's.
pub(crate) trait Count: Copy + Default {}
impl Count for u32 {}
impl Count for u64 {}

/// `len` zeroed counts in a table of their own, its pages mapped in one
/// call where the table is large: on Linux an anonymous map with
/// `MAP_POPULATE`, where a `Vec`'s fresh pages each fault in alone when
/// first touched (on enable1, `anigram count --start-len 3 --goal-len 8`
/// touches 150 pages of 626 KB: the process 2.88 to 2.75 ms). Elsewhere,
/// or when mapping fails, a plain `Vec`. Past [`MAP_UP_TO`] too: a
/// populated table is resident whole, where a `Vec`'s pages stay unmapped
/// until touched, and a table's length comes from the index, which
/// another build may have padded with terms no count touches.
pub(crate) fn zeroed<T: Count>(len: usize) -> Zeroed<T> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if cfg!(target_os = "linux") && (MAP_FROM..=MAP_UP_TO).contains(&bytes) {
        if let Ok(map) = memmap2::MmapOptions::new().len(bytes).populate().map_anon() {
            return Zeroed::Mapped(map, len, std::marker::PhantomData);
        }
    }
    Zeroed::Owned(vec![T::default(); len])
}

/// Tables this large or larger are mapped (a map and its unmap cost a
/// few microseconds; 64 KiB of fresh heap faults in 16 pages). The unit
/// tests map all but the smallest, so that the counts they check against
/// brute force come from mapped tables too.
const MAP_FROM: usize = if cfg!(test) { 64 } else { 64 << 10 };

/// The largest table mapped populated: 64 MiB (a count a term of 16
/// million terms; the 10-million-word list has 8.7 million).
const MAP_UP_TO: usize = 64 << 20;

/// A table of [`zeroed`]: mapped, or a `Vec`.
pub(crate) enum Zeroed<T: Count> {
    /// The map, at least `len` counts long, and `len`.
    Mapped(MmapMut, usize, std::marker::PhantomData<T>),
    Owned(Vec<T>),
}

impl<T: Count> std::ops::Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            #[allow(unsafe_code)]
            // SAFETY: the map is private to this table, page-aligned (so
            // aligned for `T`, see `Count`) and `len` counts long (its
            // length was `len * size_of::<T>()` bytes); any bytes are a
            // `T`; the borrow of `self` keeps it mapped and unaliased.
            Zeroed::Mapped(map, len, _) => unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len) },
            Zeroed::Owned(counts) => counts,
        }
    }
}

impl<T: Count> std::ops::DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            #[allow(unsafe_code)]
            // SAFETY: as for `deref`, through the map's one mutable borrow.
            Zeroed::Mapped(map, len, _) => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), *len)
            },
            Zeroed::Owned(counts) => counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and large tables, of both widths, start at zero and keep
    /// what is written to every count.
    #[test]
    fn zeroed_tables_are_zero_and_hold_their_counts() {
        for len in [0, 1, 15, 16, 1000, 16 * 1024 + 3, 300_000, MAP_UP_TO / 4 + 1] {
            let mut narrow = zeroed::<u32>(len);
            let mut wide = zeroed::<u64>(len);
            assert_eq!((narrow.len(), wide.len()), (len, len));
            assert!(narrow.iter().all(|&n| n == 0) && wide.iter().all(|&n| n == 0), "{len}");
            for i in 0..len {
                narrow[i] = i as u32 ^ 0xdead_beef;
                wide[i] = (i as u64) << 33 | 7;
            }
            assert!(narrow.iter().enumerate().all(|(i, &n)| n == i as u32 ^ 0xdead_beef), "{len}");
            assert!(wide.iter().enumerate().all(|(i, &n)| n == (i as u64) << 33 | 7), "{len}");
        }
    }
}
