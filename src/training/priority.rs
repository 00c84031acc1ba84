//! Training yields the processor to the window: the threads that train beside an
//! open window (the trainer, claim verifications, and the compute threads they
//! start, which inherit it) run at a lower priority, so the scheduler gives the
//! window most of a core when a frame needs it. Alone on the machine they run as
//! fast as before.

/// How much lower (Unix nice increment) training runs than the window.
pub const YIELD_TO_WINDOW: i32 = 5;

/// Lower the calling thread's priority by `YIELD_TO_WINDOW` (on Linux a thread's
/// nice value is its own, and threads it starts inherit it). Elsewhere nothing.
pub fn yield_to_window() {
    #[cfg(target_os = "linux")]
    {
        unsafe extern "C" {
            fn setpriority(which: i32, who: u32, priority: i32) -> i32;
        }
        let now = this_thread_nice().unwrap_or(0);
        // SAFETY: sets the calling thread's nice value (PRIO_PROCESS, who = 0) only.
        let _ = unsafe { setpriority(0, 0, (now + YIELD_TO_WINDOW).min(19)) };
    }
}

/// Build the compute threads (rayon's global pool) so that they yield to the
/// window too: called where the window opens, before anything trains. (The CLI
/// builds the pool with its thread count instead: `backend::set_cpu_threads`.
/// The first to build it wins, and the two never run in one process.)
pub fn build_compute_threads_yielding_to_window() {
    let _ = rayon::ThreadPoolBuilder::new().start_handler(|_| yield_to_window()).build_global();
}

/// The calling thread's nice value (Linux), for tests.
pub fn this_thread_nice() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        unsafe extern "C" {
            fn getpriority(which: i32, who: u32) -> i32;
        }
        // SAFETY: reads the calling thread's nice value.
        Some(unsafe { getpriority(0, 0) })
    }
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_training_thread_runs_lower_and_the_threads_it_starts_inherit_it() {
        let before = this_thread_nice().expect("Linux gives a thread's nice value");
        let (mine, child) = std::thread::spawn(|| {
            yield_to_window();
            let child = std::thread::spawn(this_thread_nice).join().unwrap();
            (this_thread_nice(), child)
        })
        .join()
        .unwrap();
        let expected = (before + YIELD_TO_WINDOW).min(19);
        assert_eq!((mine, child), (Some(expected), Some(expected)));
        assert_eq!(this_thread_nice(), Some(before), "the calling thread is untouched");
    }
}
