//! Where a session's step runs.

use super::*;

thread_local! {
    /// Steps that ran on this thread.
    pub(super) static STEPS_ON_THIS_THREAD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A step asked for by a thread outside the pool runs on one of the pool's
/// threads; asked for on a pool's thread, it runs there.
#[test]
fn a_step_asked_for_outside_the_pool_runs_on_its_threads() {
    let mut config = crate::config::preset("tiny").unwrap();
    config.task.length = 6;
    let mut session = Session::new(config).unwrap();
    let session = std::thread::spawn(move || {
        for _ in 0..3 {
            assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        }
        assert_eq!(STEPS_ON_THIS_THREAD.with(|steps| steps.get()), 0, "a step ran on the thread that asked for it");
        session
    })
    .join()
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let mut session = session;
    let stepped_here = pool.install(|| {
        assert!(matches!(session.step(false), StepOutcome::Done { .. }));
        STEPS_ON_THIS_THREAD.with(|steps| steps.get())
    });
    assert_eq!(stepped_here, 1, "on a pool's thread the step runs where it was asked for");
}
