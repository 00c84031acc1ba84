//! The process's allocator (mimalloc) with a count of the allocations each thread
//! makes, so a test can check that the fused step allocates nothing in the steady
//! state. The count is one thread-local add per allocation.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    static MADE: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // A const thread-local without a destructor: reading it never allocates.
    let _ = MADE.try_with(|made| made.set(made.get() + 1));
}

/// Allocations (and growths by `realloc`) made on this thread so far.
pub fn on_this_thread() -> u64 {
    MADE.try_with(Cell::get).unwrap_or(0)
}

// SAFETY: every call is passed unchanged to mimalloc, a correct allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as is.
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as is.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded as is.
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
}
