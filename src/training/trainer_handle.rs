//! The handle the window or the CLI keeps on a trainer (`worker`): on a thread of
//! its own, or in lockstep on the caller's thread for tests that replay exactly.

use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use super::event_queue::EventSender;
use super::events::TrainCommand;
use super::worker::{RunState, Waker, Worker};
use crate::config::ExperimentConfig;

/// The handle the window or the CLI keeps: commands in, events out.
pub struct TrainerHandle {
    inner: Inner,
}

enum Inner {
    /// The worker trains on its own thread, between commands.
    Thread { commands: Sender<TrainCommand>, thread: Option<JoinHandle<()>> },
    /// The worker runs on the caller's thread: a command is handled when sent, and
    /// training advances only in `pump`. The same events in the same order for the
    /// same calls, whatever the timing (tests replay a window exactly with it).
    Lockstep(std::cell::RefCell<Box<Worker>>),
}

impl TrainerHandle {
    /// Start the worker thread with a config; events go to `events`.
    pub fn spawn(config: ExperimentConfig, events: EventSender, waker: Option<Waker>) -> Self {
        Self::spawn_with(config, events, waker, false)
    }

    /// The trainer of a window: it trains at a lower priority than the window's
    /// thread (`priority::yield_to_window`), so frames stay smooth while it trains.
    pub fn spawn_beside_window(config: ExperimentConfig, events: EventSender, waker: Waker) -> Self {
        Self::spawn_with(config, events, Some(waker), true)
    }

    fn spawn_with(config: ExperimentConfig, events: EventSender, waker: Option<Waker>, yield_to_window: bool) -> Self {
        let (commands, inbox) = channel();
        let thread = std::thread::Builder::new()
            .name("trainer".to_string())
            .spawn(move || {
                if yield_to_window {
                    super::priority::yield_to_window();
                }
                Worker::new(events, waker, true).run(config, inbox)
            })
            .expect("spawn the trainer thread");
        Self { inner: Inner::Thread { commands, thread: Some(thread) } }
    }

    /// A worker on the caller's thread, advanced only by `pump`: its events depend
    /// on the calls made, never on timing (snapshots are not throttled by the clock).
    pub fn lockstep(config: ExperimentConfig, events: EventSender) -> Self {
        let mut worker = Box::new(Worker::new(events, None, false));
        worker.build(config);
        Self { inner: Inner::Lockstep(std::cell::RefCell::new(worker)) }
    }

    pub fn send(&self, command: TrainCommand) {
        match &self.inner {
            // The worker only stops on Shutdown, so a send error means it panicked;
            // the window learns that from the closed event channel.
            Inner::Thread { commands, .. } => {
                let _ = commands.send(command);
            }
            Inner::Lockstep(worker) => {
                if !matches!(command, TrainCommand::Shutdown) {
                    worker.borrow_mut().handle(command);
                }
            }
        }
    }

    /// Lockstep only: train up to `steps` steps if the run is going (a threaded
    /// worker trains by itself; nothing happens).
    pub fn pump(&self, steps: usize) {
        if let Inner::Lockstep(worker) = &self.inner {
            let mut worker = worker.borrow_mut();
            for _ in 0..steps {
                if worker.state != RunState::Running {
                    break;
                }
                worker.train_one();
            }
        }
    }

    /// Ask the worker to stop and wait for it.
    pub fn shutdown(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        if let Inner::Thread { commands, thread } = &mut self.inner {
            let _ = commands.send(TrainCommand::Shutdown);
            if let Some(thread) = thread.take() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for TrainerHandle {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

