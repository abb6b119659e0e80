//! Tunes glibc's allocator for a build, and for a query, and wraps the
//! system allocator so that a build's large blocks get 2 MiB pages:
//! process-wide state, so it belongs to the binary, never to the
//! libraries.
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
/// backed by huge pages where the kernel allows them, and has
/// [`Allocator`] advise huge pages for every large block. Called by
/// `build` only, before its threads start; the heap's tuning is a no-op
/// where the C library is not glibc (macOS, Windows, musl), the advice
/// where the system is not Linux.
pub fn tune_allocator_for_build() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads a constant of the system.
        #[allow(unsafe_code)]
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if let Ok(page @ 1..) = usize::try_from(page) {
            if page.is_power_of_two() {
                huge::PAGE.store(page, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }
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

/// The binary's global allocator: the system's, but during a build (once
/// [`tune_allocator_for_build`] has run) a block of 2 MiB or more is
/// advised to huge pages (`MADV_HUGEPAGE`) before anything touches it.
///
/// The heap's advice above covers only the heap as it first stands (64
/// MiB), and glibc maps each block over 32 MiB (its ceiling for the heap)
/// on its own: a build of 10 million words faulted in about 710,000 4 KiB
/// pages. With each large block advised, 253,000, and the build took
/// 0.89x the time (8.49 against 9.49 s, 5 alternating runs; an index
/// byte for byte the same). A block's advice covers the whole pages it
/// lies in, so a block that glibc mapped alone stays one region with one
/// advice, which `realloc` can still grow by `mremap`.
pub struct Allocator;

// SAFETY: every method hands its arguments to `System`, which upholds the
// `GlobalAlloc` contract; the advice changes how the kernel backs pages of
// a block just allocated, never a byte of them; `realloc`'s copy is of
// the old block's `layout.size()` bytes into a new block at least as
// large, which do not overlap, before the old block is freed.
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let block = unsafe { std::alloc::System.alloc(layout) };
        huge::advise(block, layout.size());
        block
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // calloc leaves fresh pages untouched (the kernel zeroed them), so
        // the advice still comes before their first touch.
        let block = unsafe { std::alloc::System.alloc_zeroed(layout) };
        huge::advise(block, layout.size());
        block
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(block, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, block: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // A block that grows past the threshold would be copied by the
        // system's realloc into pages that the copy touches before any
        // advice: it is made here instead, advised, then filled. A block
        // already that large was advised when made. (Advising the pages a
        // large block gains too, and copying every large block that moves
        // within the heap here: 253,000 to 89,000 page faults in a build
        // of 10 million words, but no faster: 8.53 against 8.49 s.)
        if !huge::crosses(layout.size(), new_size) {
            return unsafe { std::alloc::System.realloc(block, layout, new_size) };
        }
        // SAFETY: the caller guarantees that new_size, rounded up to the
        // alignment, does not overflow isize.
        let new_layout = unsafe { std::alloc::Layout::from_size_align_unchecked(new_size, layout.align()) };
        let new_block = unsafe { self.alloc(new_layout) };
        if !new_block.is_null() {
            unsafe {
                std::ptr::copy_nonoverlapping(block, new_block, layout.size());
                std::alloc::System.dealloc(block, layout);
            }
        }
        new_block
    }
}

/// When and how [`Allocator`] advises huge pages.
mod huge {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The system's page size once a build asked for huge pages; 0 before
    /// (a query, or a system without the advice).
    pub(super) static PAGE: AtomicUsize = AtomicUsize::new(0);
    /// Blocks from this size on are advised: a huge page.
    pub(super) const FROM: usize = 2 << 20;

    /// True when a block of `old` bytes that grows to `new` needs advice
    /// it did not get when made.
    #[inline]
    pub(super) fn crosses(old: usize, new: usize) -> bool {
        old < FROM && new >= FROM && PAGE.load(Ordering::Relaxed) != 0
    }

    /// Advises huge pages for the whole pages under a block of `size`
    /// bytes at `block`, if advice is on and the block is large.
    #[inline]
    pub(super) fn advise(block: *mut u8, size: usize) {
        if size < FROM || block.is_null() {
            return;
        }
        let page = PAGE.load(Ordering::Relaxed);
        if page == 0 {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            let start = block as usize & !(page - 1);
            let end = (block as usize).saturating_add(size).next_multiple_of(page);
            // SAFETY: advice about how to back whole pages of a mapping
            // this process owns (the block just allocated, and at most
            // the rest of its first and last pages); it changes no byte.
            // A failure leaves the pages as they were.
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout};

    /// With advice on, blocks below, at and past the threshold, grown
    /// across it and shrunk back, keep their bytes and their alignment.
    #[test]
    #[allow(unsafe_code)]
    fn blocks_keep_their_bytes_across_the_threshold() {
        tune_allocator_for_build();
        let sizes = [100, huge::FROM - 1, huge::FROM, huge::FROM + 12_345, 40 << 20];
        for align in [8, 64, 4096] {
            for (&from, &to) in
                sizes.iter().zip(sizes.iter().skip(1)).chain(sizes.iter().rev().zip(sizes.iter().rev().skip(1)))
            {
                let layout = Layout::from_size_align(from, align).unwrap();
                // SAFETY: a non-zero layout; each block is written within
                // its size, then freed with the layout it has.
                unsafe {
                    let block = Allocator.alloc(layout);
                    assert!(!block.is_null() && block as usize % align == 0);
                    for i in (0..from).step_by(997) {
                        *block.add(i) = (i % 251) as u8;
                    }
                    let grown = Allocator.realloc(block, layout, to);
                    assert!(!grown.is_null() && grown as usize % align == 0, "{from} -> {to}, aligned {align}");
                    for i in (0..from.min(to)).step_by(997) {
                        assert_eq!(*grown.add(i), (i % 251) as u8, "byte {i} of {from} -> {to}");
                    }
                    Allocator.dealloc(grown, Layout::from_size_align(to, align).unwrap());
                    let zeroed = Allocator.alloc_zeroed(layout);
                    assert!((0..from).step_by(4093).all(|i| *zeroed.add(i) == 0));
                    Allocator.dealloc(zeroed, layout);
                }
            }
        }
    }

    /// Only a block that grows past the threshold, once a build asked
    /// for advice, is made anew.
    #[test]
    fn only_growth_past_the_threshold_is_made_anew() {
        tune_allocator_for_build();
        assert_eq!(huge::crosses(huge::FROM - 1, huge::FROM), cfg!(target_os = "linux"));
        assert!(!huge::crosses(huge::FROM, huge::FROM * 2));
        assert!(!huge::crosses(10, huge::FROM - 1));
        assert!(!huge::crosses(huge::FROM * 2, huge::FROM - 1));
    }
}
