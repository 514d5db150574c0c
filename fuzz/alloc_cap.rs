//! The allocation cap of the fuzz targets: a global allocator that aborts the process on any
//! single allocation (or reallocation) larger than [`CAP`], so libFuzzer reports the input as a
//! crash and keeps it. The inputs are at most a few KiB (`-max_len=4096`); no reader may turn
//! them into a 64 MiB buffer (the largest grid a few bytes of JSON can legitimately declare,
//! 1024×1024, needs a few MiB).
//!
//! libFuzzer's own `-malloc_limit_mb` needs a sanitizer's malloc hooks; the library forbids
//! unsafe code, so the throughput runs are built without a sanitizer (`cargo fuzz build -O -s
//! none`, about five times the executions per second of AddressSanitizer) and this cap takes
//! the place of the hook. It is the only unsafe code of the project, and it only forwards to
//! the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

/// The largest single allocation a fuzz input may cause, in bytes.
pub const CAP: usize = 64 << 20;

/// The system allocator with the cap.
pub struct Capped;

fn refuse(size: usize) -> ! {
    // Unbuffered stderr and a fixed text: nothing here allocates.
    let mut err = std::io::stderr();
    let _ = err.write_all(b"==alloc-cap== allocation of ");
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = size;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let _ = err.write_all(&digits[at..]);
    let _ = err.write_all(b" bytes is over the fuzzing cap\n");
    std::process::abort()
}

// SAFETY: every call forwards to `System` with the caller's arguments unchanged; the cap only
// adds a check before it.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > CAP {
            refuse(layout.size());
        }
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > CAP {
            refuse(layout.size());
        }
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > CAP {
            refuse(new_size);
        }
        // SAFETY: as `dealloc`, and the caller's contract for `realloc` is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;
