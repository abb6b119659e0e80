//! Stopping a command from outside it, and showing that a long one is
//! alive: `--timeout`, Ctrl-C and termination signals, and a progress line
//! on a terminal.
//!
//! The library's searches are bounded but may still take seconds; the
//! binary owns the process, so a watchdog thread can end it at any point
//! with one clear line. Before exiting it removes the partial index of a
//! build in progress (registered with [`partial_index`]), so no stop ever
//! leaves a half-written file behind; the target is only ever replaced by
//! a rename of a finished one.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The index a build is writing, whose temporary files a stop removes.
static PARTIAL: Mutex<Option<PathBuf>> = Mutex::new(None);
/// Units of work done, for the progress line (solutions listed, say).
static DONE: AtomicU64 = AtomicU64::new(0);
/// True once the command writes to a terminal's stdout: the progress line
/// would tangle with it, so it stops.
static QUIET: AtomicBool = AtomicBool::new(false);
/// True while the progress line is on screen.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Registers the index a build writes to `out`.
pub fn partial_index(out: &std::path::Path) {
    *PARTIAL.lock().unwrap_or_else(|p| p.into_inner()) = Some(out.to_path_buf());
}

/// Ends the process now: removes a registered partial index, prints
/// `error: {why}` and exits with `code`.
fn stop(code: i32, why: &str) -> ! {
    clear_progress();
    let out = PARTIAL.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let removed = out.as_deref().map_or(0, |out| wordhoard_builder::remove_temp_files(out, Some(std::process::id())));
    let tail = match (&out, removed) {
        (Some(out), 0) => format!("; {} is unchanged", out.display()),
        (Some(out), _) => format!("; removed the partial index, {} is unchanged", out.display()),
        (None, _) => String::new(),
    };
    eprintln!("error: {why}{tail}");
    std::process::exit(code)
}

/// Ctrl-C and termination signals stop the command (exit 130).
///
/// A build has a partial index to remove first, which is more than a
/// signal handler may do, so it gets `ctrlc`'s watching thread. A query
/// has nothing to undo: on Unix a plain handler clears the progress line,
/// prints the error and exits, and the query does not start a thread for
/// it (0.08-0.1 ms of a 1.5-2.4 ms `find` or `bee solve`, alternating
/// whole-process runs).
pub fn on_signals(undoes_work: bool) {
    #[cfg(unix)]
    if !undoes_work {
        quick_exit::on_signals();
        return;
    }
    let _ = undoes_work;
    // Only fails if a handler is already set, and none is.
    let _ = ctrlc::set_handler(|| stop(130, "interrupted"));
}

#[cfg(unix)]
mod quick_exit {
    use std::sync::atomic::Ordering;

    /// Runs in the signal's context, so it calls only async-signal-safe
    /// functions: an atomic load, `write` and `_exit`.
    extern "C" fn handle(_signal: libc::c_int) {
        const CLEAR: &[u8] = b"\r\x1b[K";
        const LINE: &[u8] = b"error: interrupted\n";
        // SAFETY: write and _exit are async-signal-safe; the buffers are
        // statics. A failed write has nobody left to tell.
        #[allow(unsafe_code)]
        unsafe {
            if super::SHOWN.load(Ordering::Relaxed) {
                libc::write(libc::STDERR_FILENO, CLEAR.as_ptr().cast(), CLEAR.len());
            }
            libc::write(libc::STDERR_FILENO, LINE.as_ptr().cast(), LINE.len());
            libc::_exit(130);
        }
    }

    /// SIGINT, SIGTERM and SIGHUP, as `ctrlc`'s "termination" feature.
    pub fn on_signals() {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: a zeroed sigaction with an empty mask is valid; the
            // handler only does what `handle` says.
            #[allow(unsafe_code)]
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handle as extern "C" fn(libc::c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Stops the command after `secs` seconds (exit 1).
pub fn after(secs: f64) {
    let limit = Duration::from_secs_f64(secs);
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        stop(1, &format!("stopped after {secs} s (--timeout); narrow the question or raise --timeout"));
    });
}

/// Counts one unit of work for the progress line.
pub fn tick() {
    DONE.fetch_add(1, Ordering::Relaxed);
}

/// Marks that the command now writes to the terminal: no progress line
/// from here on (one on screen is cleared first).
pub fn writing_to_terminal() {
    if !QUIET.swap(true, Ordering::Relaxed) {
        clear_progress();
    }
}

/// After a second, and while the command runs, shows on stderr (when it
/// is a terminal) how long it has run and the work counted, as `label`.
pub fn show_progress(label: &'static str, unit: &'static str) {
    if !std::io::stderr().is_terminal() {
        return;
    }
    let started = Instant::now();
    std::thread::spawn(move || loop {
        std::thread::sleep(if started.elapsed() < Duration::from_secs(1) {
            Duration::from_secs(1)
        } else {
            Duration::from_millis(250)
        });
        if QUIET.load(Ordering::Relaxed) {
            continue;
        }
        let done = DONE.load(Ordering::Relaxed);
        let work = if done > 0 { format!(", {} {unit}", crate::output::thousands(done)) } else { String::new() };
        eprint!("\r\x1b[K{label}: {:.0} s{work} (Ctrl-C stops)", started.elapsed().as_secs_f64());
        SHOWN.store(true, Ordering::Relaxed);
    });
}

/// Removes the progress line, if it is on screen.
pub fn clear_progress() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        eprint!("\r\x1b[K");
    }
}
