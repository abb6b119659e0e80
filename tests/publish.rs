//! `build -o` never destroys what the user had: not its own input, not a
//! device or FIFO, not a file that is not an index (without --force), not
//! a folder that does not exist; a build killed by a signal leaves no
//! partial index, and a stale one from an earlier kill is cleaned up; a
//! query killed by one says so in one line.

mod common;

use std::path::Path;

use common::{run, stderr, Scratch};

fn build(list: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["build", list.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

fn refused(out: &std::process::Output, want: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    let err = stderr(out);
    assert!(err.starts_with("error: ") && err.contains(want), "{err}");
}

#[test]
fn refuses_to_write_over_its_input() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\ndire\n");
    refused(&build(&list, &list, &[]), "is also an input");
    refused(&build(&list, &list, &["--force"]), "is also an input");
    let common = s.write("common.txt", b"ride\n");
    refused(&build(&list, &common, &["--common", common.to_str().unwrap(), "--force"]), "is also an input");
    assert_eq!(std::fs::read(&list).unwrap(), b"ride\ndire\n");
    #[cfg(unix)]
    {
        // Through a symbolic link or a hard link, too.
        std::os::unix::fs::symlink(&list, s.path("link.hoard")).unwrap();
        refused(&build(&list, &s.path("link.hoard"), &[]), "is also an input");
        std::fs::hard_link(&list, s.path("hard.txt")).unwrap();
        refused(&build(&s.path("hard.txt"), &list, &["--force"]), "is also an input");
    }
}

#[test]
fn refuses_what_is_not_a_regular_file() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\n");
    refused(&build(&list, s.dir.path(), &["--force"]), "is a folder");
    #[cfg(unix)]
    {
        refused(&build(&list, Path::new("/dev/null"), &["--force"]), "not a regular file");
        let fifo = s.path("pipe");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        refused(&build(&list, &fifo, &["--force"]), "not a regular file");
    }
}

#[test]
fn replaces_an_index_but_not_another_file_without_force() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\ndire\n");
    let notes = s.write("notes.txt", b"my notes\n");
    refused(&build(&list, &notes, &[]), "not a wordhoard index; give --force");
    assert_eq!(std::fs::read(&notes).unwrap(), b"my notes\n");
    assert!(build(&list, &notes, &["--force"]).status.success());
    let index = s.path("x.hoard");
    assert!(build(&list, &index, &[]).status.success());
    assert!(build(&list, &index, &[]).status.success(), "an index is replaced without --force");
}

#[test]
fn a_missing_folder_is_named_not_created() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\n");
    let out = s.path("no/such/folder/x.hoard");
    refused(&build(&list, &out, &[]), "the folder");
    assert!(stderr(&build(&list, &out, &[])).contains("no/such/folder"));
    assert!(!s.path("no").exists());
}

#[test]
fn a_stale_temporary_file_is_removed_by_the_next_build() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\n");
    // Process ids past any real one: a build that was killed.
    let stale = s.write(".x.hoard.tmp.4000000000.1", b"partial");
    let other = s.write(".y.hoard.tmp.4000000000.1", b"another target's");
    assert!(build(&list, &s.path("x.hoard"), &[]).status.success());
    assert!(!stale.exists());
    assert!(other.exists(), "only temporary files of the same target");
}

#[cfg(unix)]
#[test]
fn a_signal_removes_the_partial_index() {
    use std::process::Stdio;
    let s = Scratch::new();
    let out = s.path("x.hoard");
    // A build reading stdin waits for more words: stop it with SIGTERM,
    // with a temporary file of its own beside the target as if it were
    // writing it.
    let child = common::bin()
        .args(["build", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let partial = s.write(&format!(".x.hoard.tmp.{}.7", child.id()), b"half an index");
    // Wait until it is reading stdin, with its handler set and its target
    // registered.
    common::wait_on_pipe(&child);
    common::signal(&child, "TERM");
    let result = child.wait_with_output().unwrap();
    assert_eq!(result.status.code(), Some(130), "{}", stderr(&result));
    assert!(stderr(&result).contains("interrupted; removed the partial index"), "{}", stderr(&result));
    assert!(!partial.exists() && !out.exists());
}

/// A query has nothing to undo: its handler (no thread of its own) still
/// says why it stopped and exits 130, for Ctrl-C and for SIGTERM.
#[cfg(unix)]
#[test]
fn a_signal_stops_a_query_with_one_line() {
    use std::process::Stdio;
    let s = Scratch::new();
    let index = s.golden_index();
    for signal in ["INT", "TERM"] {
        // `bee check --found -` waits on stdin for the words found so far.
        let child = common::bin()
            .args(["bee", "check", "aeginrt", "--center", "r", "--found", "-", "--index", index.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        common::wait_on_pipe(&child);
        common::signal(&child, signal);
        let result = child.wait_with_output().unwrap();
        assert_eq!(result.status.code(), Some(130), "SIG{signal}: {}", stderr(&result));
        assert_eq!(stderr(&result), "error: interrupted\n", "SIG{signal}");
        assert!(result.stdout.is_empty(), "SIG{signal}");
    }
}
