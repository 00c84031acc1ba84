//! The trainer's outbox: a queue that stays bounded when nobody reads it (a
//! minimised window, a blocked pipe), without dropping anything that matters.
//!
//! - Attention snapshots, gradient reports and traces keep only the latest: a new
//!   one replaces a queued one of the same kind, but only when nothing but data
//!   (steps, evaluations, other snapshots) waits after it. A replacement moves the
//!   new event forward in the queue, and moving a snapshot ahead of a `Ready` (which
//!   clears the maps) would leave the window with no maps at all: the window's state
//!   must be the same whatever the timing of the reads.
//! - Step metrics are thinned once `THIN_AFTER` events wait: a new step replaces a
//!   step at the tail of the queue, so the latest numbers are always there.
//! - Past `HARD_CAP` waiting events, the oldest step or evaluation is dropped.
//! - Everything else (started, paused, finished, non-finite, errors, saves, notes…)
//!   is always delivered, in order.

use std::collections::VecDeque;
use std::sync::mpsc::{RecvError, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::events::TrainEvent;

/// Waiting events beyond which steps are thinned.
pub const THIN_AFTER: usize = 256;
/// Waiting events beyond which the oldest step or evaluation is dropped.
pub const HARD_CAP: usize = 1024;

#[derive(Default)]
struct State {
    events: VecDeque<TrainEvent>,
    /// The sender is gone: once the queue is empty, receiving fails.
    closed: bool,
    /// Events replaced or dropped so far (for tests and diagnostics).
    merged: usize,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: keep using it.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The trainer's end.
pub struct EventSender {
    shared: Arc<Shared>,
}

/// The window's or the CLI's end.
pub struct EventReceiver {
    shared: Arc<Shared>,
}

/// A connected sender and receiver.
pub fn event_queue() -> (EventSender, EventReceiver) {
    let shared = Arc::new(Shared::default());
    (EventSender { shared: shared.clone() }, EventReceiver { shared })
}

/// Events of which only the latest is worth showing.
fn latest_only(event: &TrainEvent) -> bool {
    matches!(event, TrainEvent::Attention(_) | TrainEvent::Gradients(_) | TrainEvent::Trace(_))
}

/// Events a newer snapshot may overtake without changing what the window ends
/// up showing: plain numbers that neither clear nor depend on a snapshot.
fn data_only(event: &TrainEvent) -> bool {
    latest_only(event) || matches!(event, TrainEvent::Step(_) | TrainEvent::Eval(_))
}

/// The queued event of `event`'s kind that it may replace: the latest one, when
/// only data waits after it.
fn replaceable(events: &mut VecDeque<TrainEvent>, event: &TrainEvent) -> Option<usize> {
    for (i, queued) in events.iter().enumerate().rev() {
        if same_kind(queued, event) {
            return Some(i);
        }
        if !data_only(queued) {
            return None;
        }
    }
    None
}

fn same_kind(a: &TrainEvent, b: &TrainEvent) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

impl EventSender {
    /// Queue an event; never blocks, never fails (a gone receiver drops it).
    pub fn send(&self, event: TrainEvent) {
        let mut state = self.shared.lock();
        let events = &mut state.events;
        let mut merged = 0;
        if latest_only(&event)
            && let Some(slot) = replaceable(events, &event)
        {
            events[slot] = event;
            merged += 1;
        } else if matches!(event, TrainEvent::Step(_)) && events.len() >= THIN_AFTER && matches!(events.back(), Some(TrainEvent::Step(_))) {
            *events.back_mut().expect("a tail") = event;
            merged += 1;
        } else {
            events.push_back(event);
            if events.len() > HARD_CAP
                && let Some(oldest) = events.iter().position(|e| matches!(e, TrainEvent::Step(_) | TrainEvent::Eval(_)))
            {
                events.remove(oldest);
                merged += 1;
            }
        }
        state.merged += merged;
        drop(state);
        self.shared.ready.notify_one();
    }
}

impl Drop for EventSender {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

impl EventReceiver {
    pub fn try_recv(&self) -> Result<TrainEvent, TryRecvError> {
        let mut state = self.shared.lock();
        match state.events.pop_front() {
            Some(event) => Ok(event),
            None if state.closed => Err(TryRecvError::Disconnected),
            None => Err(TryRecvError::Empty),
        }
    }

    /// Wait for the next event; fails once the sender is gone and the queue is empty.
    pub fn recv(&self) -> Result<TrainEvent, RecvError> {
        let mut state = self.shared.lock();
        loop {
            if let Some(event) = state.events.pop_front() {
                return Ok(event);
            }
            if state.closed {
                return Err(RecvError);
            }
            state = self.shared.ready.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    pub fn recv_timeout(&self, timeout: Duration) -> Result<TrainEvent, RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        loop {
            if let Some(event) = state.events.pop_front() {
                return Ok(event);
            }
            if state.closed {
                return Err(RecvTimeoutError::Disconnected);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(RecvTimeoutError::Timeout);
            }
            state = self.shared.ready.wait_timeout(state, deadline - now).unwrap_or_else(|poisoned| poisoned.into_inner()).0;
        }
    }

    /// Every event until the sender is gone (blocking between them).
    pub fn iter(&self) -> impl Iterator<Item = TrainEvent> + '_ {
        std::iter::from_fn(move || self.recv().ok())
    }

    /// Whether a waiting event matches (nothing is taken off the queue).
    pub fn any_waiting(&self, matches: impl Fn(&TrainEvent) -> bool) -> bool {
        self.shared.lock().events.iter().any(matches)
    }

    /// Events waiting now.
    pub fn len(&self) -> usize {
        self.shared.lock().events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Events replaced or dropped so far to keep the queue bounded.
    pub fn merged(&self) -> usize {
        self.shared.lock().merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::{EvalMetrics, StepMetrics};

    fn step(step: usize) -> TrainEvent {
        TrainEvent::Step(StepMetrics { step, loss: 1.0, accuracy: 0.5, lr: 1e-3, grad_norm: 1.0, steps_per_s: 10.0, tokens_per_s: 100.0 })
    }

    #[test]
    fn an_unread_queue_stays_bounded_and_keeps_the_latest_step_and_every_milestone() {
        let (tx, rx) = event_queue();
        tx.send(TrainEvent::Started { step: 0 });
        for s in 1..=100_000 {
            tx.send(step(s));
            if s % 100 == 0 {
                tx.send(TrainEvent::Eval(EvalMetrics { step: s, loss: 1.0, accuracy: 0.5, sequence_accuracy: 0.1, generation_loss: f32::NAN, by_length: Vec::new() }));
            }
        }
        tx.send(TrainEvent::NonFinite { step: 100_000, kind: crate::training::NonFiniteKind::Loss, group: None, hint: String::new() });
        tx.send(TrainEvent::Finished { step: 100_000, loss: 0.1, accuracy: 1.0, eval_loss: 0.1, eval_accuracy: 1.0, eval_sequence_accuracy: 1.0, elapsed_secs: 1.0 });
        assert!(rx.len() <= HARD_CAP + 2, "{} events wait", rx.len());
        let events: Vec<TrainEvent> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        assert!(matches!(events.first(), Some(TrainEvent::Started { .. })));
        assert!(matches!(events.last(), Some(TrainEvent::Finished { .. })));
        assert!(events.iter().any(|e| matches!(e, TrainEvent::NonFinite { .. })), "a NaN is never dropped");
        let last_step = events.iter().rev().find_map(|e| if let TrainEvent::Step(m) = e { Some(m.step) } else { None });
        assert_eq!(last_step, Some(100_000), "the latest numbers are kept");
        let steps: Vec<usize> = events.iter().filter_map(|e| if let TrainEvent::Step(m) = e { Some(m.step) } else { None }).collect();
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "steps stay in order");
        drop(tx);
        assert!(matches!(rx.try_recv(), Err(TryRecvError::Disconnected)));
    }

    fn ready() -> TrainEvent {
        let backend = crate::training::BackendInfo { requested: "cpu".into(), used: "cpu".into(), adapter: None, fallback_reason: None, composed_because: None };
        TrainEvent::Ready { task: crate::tasks::TaskKind::Copy, parameters: 1, backend, seq_len: 2, vocab: Vec::new() }
    }

    fn snapshot(step: usize) -> TrainEvent {
        TrainEvent::Attention(crate::training::AttentionSnapshot {
            step,
            tokens: Vec::new(),
            predictions: Vec::new(),
            layers: Vec::new(),
            masks: Vec::new(),
            intended_masks: Vec::new(),
            padding: Vec::new(), names: Vec::new(), blocks: Vec::new(),
        })
    }

    fn kinds(rx: &EventReceiver) -> Vec<String> {
        std::iter::from_fn(|| rx.try_recv().ok())
            .map(|e| match e {
                TrainEvent::Attention(s) => format!("attention {}", s.step),
                TrainEvent::Ready { .. } => "ready".into(),
                TrainEvent::Step(m) => format!("step {}", m.step),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_snapshot_never_overtakes_the_ready_that_clears_the_maps() {
        // The window reads nothing between a config change and a reset (one frame):
        // the new model's snapshot must still arrive after its Ready.
        let (tx, rx) = event_queue();
        tx.send(snapshot(5));
        tx.send(ready());
        tx.send(snapshot(0));
        assert_eq!(kinds(&rx), ["attention 5", "ready", "attention 0"]);
        // Between data only, the older snapshot is replaced in place.
        tx.send(snapshot(1));
        tx.send(step(2));
        tx.send(snapshot(2));
        assert_eq!(kinds(&rx), ["attention 2", "step 2"]);
    }

    #[test]
    fn a_drained_queue_delivers_every_step() {
        let (tx, rx) = event_queue();
        for s in 1..=5000 {
            tx.send(step(s));
            assert!(matches!(rx.try_recv(), Ok(TrainEvent::Step(m)) if m.step == s));
        }
        assert_eq!(rx.merged(), 0);
    }
}
