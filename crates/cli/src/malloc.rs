//! Tunes glibc's allocator for a build, and for a query: process-wide
//! state, so it belongs to the binary, never to the libraries.
//!
//! A build allocates and frees tens of megabytes of short-lived buffers on
//! two cores. glibc serves each buffer over 128 KiB with a fresh `mmap` and
//! returns it with `munmap`: every page faults in again, and each unmap
//! interrupts the other core to flush its TLB. Measured, that was a sixth
//! of a build's time. Serving large buffers from the heap and keeping what
//! is freed lets later buffers reuse pages already mapped; backing that
//! heap with 2 MiB pages (where transparent huge pages are on `madvise`,
//! as is common) cuts the page faults of a build from ~7,000 to ~700.

/// Keeps freed memory for reuse for the rest of the process, in one heap
/// backed by huge pages where the kernel allows them. Called by `build`
/// only, before its threads start; a no-op where the C library is not
/// glibc (macOS, Windows, musl).
pub fn tune_allocator_for_build() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds; it takes
    // plain integers and touches no memory of ours. Called before the
    // build's threads start, though glibc locks around it anyway. The
    // malloc/free pair is the allocator's own. madvise(MADV_HUGEPAGE) is
    // advice about how to back pages, whole pages inside the heap's
    // mapped range; it changes no byte of them.
    #[allow(unsafe_code)]
    unsafe {
        // Buffers up to 32 MiB (glibc's ceiling) come from the heap...
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        // ...which is never trimmed back to the kernel...
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        // ...grows in steps of 64 MiB rather than page by page...
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        // ...and is the only one: the build's threads share it.
        libc::mallopt(libc::M_ARENA_MAX, 1);
        // Grow the heap now and ask for 2 MiB pages over it: a build
        // faults in a tenth as many pages and its tables' lookups miss
        // the TLB far less. Without transparent huge pages, nothing
        // changes.
        // (A block larger than the heap's start forces the first step.)
        let probe = libc::malloc(1 << 20);
        let top = libc::sbrk(0) as usize;
        libc::free(probe);
        const HUGE: usize = 2 << 20;
        let start = (probe as usize).next_multiple_of(HUGE);
        let end = top / HUGE * HUGE;
        if !probe.is_null() && top != usize::MAX && start < end {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Keeps the memory a query frees for its later allocations: glibc maps
/// each block over 128 KiB on its own and unmaps it when freed, so the
/// next block faults in fresh pages again. A Letter Boxed box on a list
/// of 10 million words frees a 260 KB sort buffer and then makes its
/// tables: from the heap, they take the freed pages (651 to 595 page
/// faults, 3.79-3.84 to 3.64-3.71 ms in three runs of 40, set through
/// GLIBC_TUNABLES). A query is one short process; nothing is lost by
/// keeping what it frees. A no-op where the C library is not glibc.
pub fn tune_allocator_for_query() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds; it takes
    // plain integers and touches no memory of ours. Called before the
    // query starts any thread.
    #[allow(unsafe_code)]
    unsafe {
        // Blocks up to 32 MiB (glibc's ceiling) come from the heap...
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        // ...which is never trimmed back to the kernel.
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}
