//! Publishing an index atomically: a reader of the target path sees the old
//! file or the new one, never a part of either.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use wordhoard_query::format::blocks::BlockCrcs;
use wordhoard_query::format::{FileWriter, Payload, SectionSums};
use wordhoard_query::Index;

use crate::error::{BuildError, BuildErrorKind, OutputProblem};

/// Checks that `path` may receive an index before any work: it is not one
/// of `inputs` (the word lists being read), and if something is there it
/// is a regular file holding a wordhoard index (any regular file with
/// `force`); never a folder, device or FIFO. Its folder must exist. A
/// symbolic link is followed: the index goes where it points. Returns the
/// path to write.
pub fn check_output(path: &Path, inputs: &[PathBuf], force: bool) -> Result<PathBuf, BuildError> {
    let path = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(|_| BuildError::output(path, OutputProblem::BrokenLink))?
        }
        _ => path.to_path_buf(),
    };
    let dir = parent_of(&path);
    if !dir.is_dir() {
        return Err(BuildError::output(&path, OutputProblem::NoFolder(dir)));
    }
    for input in inputs {
        if same_file(input, &path) {
            return Err(BuildError::output(&path, OutputProblem::IsInput(input.clone())));
        }
    }
    match fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path),
        Err(e) => Err(BuildError::write(&path, "inspect", e)),
        Ok(m) if m.is_dir() => Err(BuildError::output(&path, OutputProblem::IsFolder)),
        Ok(m) if !m.is_file() => Err(BuildError::output(&path, OutputProblem::NotRegularFile)),
        Ok(_) if force || holds_an_index(&path) => Ok(path),
        Ok(_) => Err(BuildError::output(&path, OutputProblem::NotAnIndex)),
    }
}

/// True when the file starts with an index's magic bytes.
fn holds_an_index(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic)).is_ok()
        && magic == wordhoard_query::format::MAGIC
}

/// True when both paths name one existing file (hard links included, on
/// Unix).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(a), fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
        false
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Options for [`write_atomically`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PublishOptions {
    /// After the rename, ask the OS to drop the new file's pages from its
    /// page cache (Linux; ignored elsewhere), so the next reader reads
    /// them from disk. The index is written at most 128 KiB at a time, so
    /// the pages the writes leave cached are no larger than that, and a
    /// reader's map maps little around each lookup either way: off unless
    /// asked for.
    pub drop_page_cache: bool,
}

/// Writes `file` to a temporary file beside `path`, syncs it, reopens and
/// verifies it with the real reader, then renames it over `path`. On any
/// failure the temporary file is removed and `path` is untouched. Stale
/// temporary files of `path` left by a build that was killed are removed
/// first. The folder must exist (see [`check_output`]).
pub fn write_atomically(path: &Path, file: FileWriter, opts: &PublishOptions) -> Result<(), BuildError> {
    let dir = parent_of(path);
    if path.is_dir() {
        return Err(BuildError::output(path, OutputProblem::IsFolder));
    }
    if !dir.is_dir() {
        return Err(BuildError::output(path, OutputProblem::NoFolder(dir)));
    }
    remove_temp_files(path, None);
    let tmp = temp_path(&dir, path);
    let result = write_and_check(&tmp, file)
        .and_then(|()| fs::rename(&tmp, path).map_err(|e| BuildError::write(path, "rename", e)));
    match result {
        Ok(()) => {
            // Make the rename itself durable; not every platform allows it.
            let _ = File::open(&dir).and_then(|d| d.sync_all());
            if opts.drop_page_cache {
                drop_cached_pages(path);
            }
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Removes the temporary files of an index being written to `path`: those
/// of process `pid` (a build interrupted by a signal cleans up its own), or
/// with `None` those whose process is gone (on Linux, where that can be
/// told) or that are over a day old (elsewhere). Returns how many.
pub fn remove_temp_files(path: &Path, pid: Option<u32>) -> usize {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else { return 0 };
    let prefix = format!(".{name}.tmp.");
    let Ok(entries) = fs::read_dir(parent_of(path)) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(owner) = file_name.strip_prefix(&prefix).and_then(|rest| rest.split('.').next()) else { continue };
        let Ok(owner) = owner.parse::<u32>() else { continue };
        let remove = match pid {
            Some(pid) => owner == pid,
            None => owner != std::process::id() && is_stale(owner, &entry),
        };
        if remove && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// True when the temporary file's process has ended.
fn is_stale(pid: u32, entry: &fs::DirEntry) -> bool {
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        return !Path::new(&format!("/proc/{pid}")).exists();
    }
    let age = entry.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
    age.is_some_and(|a| a.as_secs() > 24 * 3600)
}

fn temp_path(dir: &Path, path: &Path) -> PathBuf {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let name = path.file_name().map_or("index".into(), |n| n.to_string_lossy().into_owned());
    dir.join(format!(".{name}.tmp.{}.{nanos}", std::process::id()))
}

fn write_and_check(tmp: &Path, index_file: FileWriter) -> Result<(), BuildError> {
    let fail = |what, e| BuildError::write(tmp, what, e);
    let file = OpenOptions::new().write(true).create_new(true).open(tmp).map_err(|e| fail("create", e))?;
    write_in_two_parts(&file, index_file).map_err(|e| fail("write", e))?;
    // The check reads the file back while the sync writes it out: neither
    // waits for the other, and both must succeed.
    let (synced, checked) = std::thread::scope(|s| {
        let synced = s.spawn(|| file.sync_all());
        let checked = check(tmp);
        (synced.join().unwrap_or_else(|_| Err(std::io::Error::other("the sync thread failed"))), checked)
    });
    synced.map_err(|e| fail("sync", e))?;
    checked
}

/// The most bytes one write passes to the OS (see `write_in_two_parts`).
const WRITE_LEN: usize = 128 << 10;

/// The bytes after which the OS is asked to start writing them to disk
/// (see [`start_writeback`]).
const WRITEBACK_LEN: usize = 1 << 20;

/// Writes the sections at their places on two threads, each a run of
/// about half the bytes, checksumming each megabyte as it goes (while it
/// is in cache), and then the header those checksums complete. The gaps
/// between sections read as the zeros the format asks for. Each piece of
/// a section is freed once written: the file's cached pages can then take
/// the memory it held, where the allocator returns it (a piece over 32
/// MiB).
fn write_in_two_parts(file: &File, index_file: FileWriter) -> std::io::Result<()> {
    let layout = index_file.layout();
    let mut sections = index_file.into_placements();
    // At most 128 KiB a write: Linux caches a write in pages as large as
    // the write, and a reader's map then maps a whole cached page around
    // each small lookup. Measured right after a build (bee solve
    // aeginrt/r): on the 10-million-word index, 64 MB resident after
    // whole-section writes, 33.5 MB after 1 MiB writes, 22 MB after 64 KiB
    // writes. On enable1, `anigram generate` is 10.4 MB resident after
    // 1 MiB writes (over the 10 MB budget), 8.5 MB after 128 KiB and 8.4 MB
    // after 64 KiB; against 1 MiB, 128 KiB writes cost 1-2% of a query's
    // time and none of the build's, 64 KiB writes 3-5% and 2.6%.
    let write = |part: Vec<(usize, Payload)>| -> std::io::Result<Vec<SectionSums>> {
        part.into_iter()
            .map(|(mut at, payload)| {
                let mut crcs = BlockCrcs::default();
                for piece in payload.into_pieces() {
                    for run in piece.chunks(WRITEBACK_LEN) {
                        crcs.update(run);
                        for (j, chunk) in run.chunks(WRITE_LEN).enumerate() {
                            write_at(file, chunk, (at + j * WRITE_LEN) as u64)?;
                        }
                        start_writeback(file, at as u64, run.len() as u64);
                        at += run.len();
                    }
                }
                Ok(SectionSums::from(crcs.finish()))
            })
            .collect()
    };
    let half = layout.file_len() / 2;
    let split = sections.iter().position(|&(at, _)| at >= half).unwrap_or(sections.len());
    let second = sections.split_off(split);
    let (first, rest) = std::thread::scope(|s| {
        let rest = s.spawn(|| write(second));
        (write(sections), rest.join().unwrap_or_else(|_| Err(std::io::Error::other("the writing thread failed"))))
    });
    let mut checksums = first?;
    checksums.extend(rest?);
    write_at(file, &layout.header_with(&checksums), 0)
}

/// Writes all of `bytes` at offset `at`, without moving a shared cursor,
/// so two threads can write their parts of one file.
#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

/// Writes all of `bytes` at offset `at` (Windows' positional writes may
/// write part of a buffer, as `write` may).
#[cfg(windows)]
fn write_at(file: &File, mut bytes: &[u8], mut at: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        match file.seek_write(bytes, at)? {
            0 => return Err(std::io::ErrorKind::WriteZero.into()),
            n => (bytes, at) = (&bytes[n..], at + n as u64),
        }
    }
    Ok(())
}

/// Elsewhere: a seek and a write, one thread at a time.
#[cfg(not(any(unix, windows)))]
fn write_at(mut file: &File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom, Write};
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    file.seek(SeekFrom::Start(at))?;
    file.write_all(bytes)
}

/// Asks the OS to start writing `len` bytes of `file` from `at` to disk,
/// without waiting, so that the disk writes the file while the rest of
/// it is written and the final sync has only the tail left (Linux's
/// `sync_file_range`; elsewhere the sync does it all). Advice only:
/// errors are ignored, and the sync that follows reports any.
/// Measured in alternating builds, each after a `sync` (the build's
/// `publish` phase, medians): enable1 26.0 to 22.4 ms (15 runs each);
/// the 10-million-word list 1,746 to 962 ms (3 runs each), where the
/// writes no longer stall on the dirty pages the sync has yet to write.
fn start_writeback(file: &File, at: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // (`off64_t` on glibc, `off_t` on musl: both 64 bits.)
        let (Ok(at), Ok(len)) = (at.try_into(), len.try_into()) else { return };
        // SAFETY: sync_file_range reads no memory of ours: it takes an
        // open descriptor (`file` outlives the call), two offsets and a
        // flag, and only starts writeback of the file's cached pages.
        #[allow(unsafe_code)]
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), at, len, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, at, len);
}

/// Opens the file just written with the real reader and checks every
/// section's checksum. The structure was built in this process; what can
/// go wrong on the way to disk is the bytes, which the checksums cover.
fn check(tmp: &Path) -> Result<(), BuildError> {
    let index = Index::open(tmp)
        .map_err(|e| BuildError::new(BuildErrorKind::Verify(format!("the index just written does not open: {e}"))))?;
    if let Some(bad) = index.verify_checksums().into_iter().find(|c| !c.ok) {
        return Err(BuildError::new(BuildErrorKind::Verify(format!(
            "the index just written fails verification in section `{}`: {}",
            bad.name,
            bad.problem.unwrap_or_default()
        ))));
    }
    Ok(())
}

/// Drops the new file's (clean, synced) pages from the page cache (see
/// [`PublishOptions::drop_page_cache`]). Advice only: errors are ignored.
/// Linux only.
fn drop_cached_pages(path: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(file) = File::open(path) {
        let _ = rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
}
