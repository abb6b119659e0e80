//! Publishing an index atomically: a reader of the target path sees the old
//! file or the new one, never a part of either.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use wordhoard_query::format::FileWriter;
use wordhoard_query::Index;

use crate::BuildError;

/// Writes `file` to a temporary file beside `path`, syncs it, reopens and
/// verifies it with the real reader, then renames it over `path`. On any
/// failure the temporary file is removed and `path` is untouched.
pub fn write_atomically(path: &Path, file: &FileWriter) -> Result<(), BuildError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.is_dir() {
        return Err(BuildError::new(format!("{} is a directory; give a file path with -o", path.display())));
    }
    fs::create_dir_all(&dir).map_err(|e| BuildError::new(format!("cannot create folder {}: {e}", dir.display())))?;
    let tmp = temp_path(&dir, path);
    let result = write_and_check(&tmp, file).and_then(|()| {
        fs::rename(&tmp, path)
            .map_err(|e| BuildError::new(format!("cannot move the index into place at {}: {e}", path.display())))
    });
    match result {
        Ok(()) => {
            // Make the rename itself durable; not every platform allows it.
            let _ = File::open(&dir).and_then(|d| d.sync_all());
            drop_cached_pages(path);
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn temp_path(dir: &Path, path: &Path) -> PathBuf {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let name = path.file_name().map_or("index".into(), |n| n.to_string_lossy().into_owned());
    dir.join(format!(".{name}.tmp.{}.{nanos}", std::process::id()))
}

fn write_and_check(tmp: &Path, index_file: &FileWriter) -> Result<(), BuildError> {
    let fail = |what: &str, e: std::io::Error| BuildError::new(format!("cannot {what} {}: {e}", tmp.display()));
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

/// Writes the sections at their places on two threads, each a run of
/// about half the bytes, checksumming each section as it goes (while it is
/// in cache), and then the header those checksums complete. The gaps
/// between sections read as the zeros the format asks for.
fn write_in_two_parts(file: &File, index_file: &FileWriter) -> std::io::Result<()> {
    let sections = index_file.placements();
    let write = |part: &[(usize, &[u8])]| -> std::io::Result<Vec<u32>> {
        part.iter()
            .map(|&(at, bytes)| {
                let crc = crc32fast::hash(bytes);
                write_at(file, bytes, at as u64).map(|()| crc)
            })
            .collect()
    };
    let half = index_file.file_len() / 2;
    let split = sections.iter().position(|&(at, _)| at >= half).unwrap_or(sections.len());
    let (first, second) = sections.split_at(split);
    let (first, rest) = std::thread::scope(|s| {
        let rest = s.spawn(|| write(second));
        (write(first), rest.join().unwrap_or_else(|_| Err(std::io::Error::other("the writing thread failed"))))
    });
    let mut checksums = first?;
    checksums.extend(rest?);
    write_at(file, &index_file.header_with(&checksums), 0)
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

/// Opens the file just written with the real reader and checks every
/// section's checksum. The structure was built in this process; what can
/// go wrong on the way to disk is the bytes, which the checksums cover.
fn check(tmp: &Path) -> Result<(), BuildError> {
    let index = Index::open(tmp).map_err(|e| BuildError::new(format!("the index just written does not open: {e}")))?;
    if let Some(bad) = index.verify_checksums().into_iter().find(|c| !c.ok) {
        return Err(BuildError::new(format!(
            "the index just written fails verification in section `{}`: {}",
            bad.name,
            bad.problem.unwrap_or_default()
        )));
    }
    Ok(())
}

/// Drops the new file's (clean, synced) pages from the page cache. Pages
/// cached by our own writes come in large blocks, and a reader's memory map
/// would then map whole blocks around each small lookup; read back on
/// demand instead, they come a page at a time (readers map with
/// `MADV_RANDOM`). Advice only: errors are ignored. Linux only: elsewhere
/// the pages stay cached, which costs a first reader some memory, not time.
fn drop_cached_pages(path: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(file) = File::open(path) {
        let _ = rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
}
