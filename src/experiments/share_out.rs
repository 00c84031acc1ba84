//! Work handed out to threads of our own, one item at a time: the claim pool's
//! tracks and a timed claim's sides.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `job` on each of `items`, by `workers` threads of their own that each take the
/// next item as they finish one. Not rayon jobs: a rayon worker waiting for a
/// side's own thread pool would take up another worker's whole queue meanwhile,
/// leaving a core idle. Each training step still runs on the compute threads, or,
/// while every core has an item, on a thread of the item's own:
/// `job(item, crowded)`, where `crowded()` says whether at least as many items are
/// in hand as the process has compute threads (see `SideTrainer::train_to`).
pub(super) fn share_out<T: Send>(workers: usize, items: Vec<T>, job: &(dyn Fn(T, &dyn Fn() -> bool) + Sync)) {
    let queue = Mutex::new(items.into_iter());
    let (in_hand, cores) = (AtomicUsize::new(0), rayon::current_num_threads().max(1));
    let crowded = || in_hand.load(Ordering::Relaxed) >= cores;
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                // The lock is let go before the job runs (the block ends first).
                while let Some(item) = { let next = queue.lock().expect("no worker panicked holding the queue").next(); next } {
                    in_hand.fetch_add(1, Ordering::Relaxed);
                    job(item, &crowded);
                    in_hand.fetch_sub(1, Ordering::Relaxed);
                }
            });
        }
    });
}
