//! The crate's `unsafe` operations: mapping an index file into memory, and
//! letting go of pages of the map that a pass has finished reading.
//!
//! Only with the `mmap` feature (on by default). The advice calls are
//! speed tricks for Unix kernels; elsewhere a map is read as it comes.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;

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
pub(crate) fn map_file(path: &Path) -> Result<Mmap> {
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
    Ok(map)
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
