//! Tunes glibc's allocator for a build.
//!
//! A build allocates and frees tens of megabytes of short-lived buffers on
//! two cores. glibc serves each buffer over 128 KiB with a fresh `mmap` and
//! returns it with `munmap`: every page faults in again, and each unmap
//! interrupts the other core to flush its TLB. Measured, that was a sixth
//! of a build's time. Serving large buffers from the heap and keeping what
//! is freed lets later buffers reuse pages already mapped.

/// Keeps freed memory for reuse for the rest of the process. For a process
/// whose main job is a build (the `wordhoard` CLI); a no-op where the C
/// library is not glibc.
pub fn tune_allocator_for_build() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds; it takes
    // plain integers and touches no memory of ours. Called before the
    // build's threads start, though glibc locks around it anyway.
    #[allow(unsafe_code)]
    unsafe {
        // Buffers up to 32 MiB (glibc's ceiling) come from the heap...
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        // ...which is never trimmed back to the kernel...
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        // ...and grows in steps of 64 MiB rather than page by page.
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}
