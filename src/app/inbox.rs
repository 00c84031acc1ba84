//! One inbox for the window's background work: claim verifications, the
//! sequence-length and saturation sweeps, file dialogs, file writes and PNG
//! encodings run on their own threads and report here; the app folds the messages
//! in each frame within its time budget. (The trainer has its own queue, which
//! keeps only the latest attention snapshot.)

use std::sync::mpsc::{Receiver, Sender, channel};

use eframe::egui;

use super::files::DialogAnswer;
use crate::experiments::{ClaimResult, HeadsOutcome, LengthOutcome, SaturationPoint};
use crate::workbench::PathRequest;
use crate::workbench::lesson_runner::ClaimKey;
use crate::workbench::run_view::Banner;

/// What background work reports.
pub enum Message {
    /// Something to say in the status strip (a file written, or why it was not).
    Notice(Banner),
    /// Training steps a claim's verification has done so far.
    ClaimProgress(ClaimKey, usize),
    /// A claim's verification ended (None: cancelled).
    ClaimEnd(ClaimKey, Result<Option<Vec<ClaimResult>>, String>),
    /// One length of the sequence-length sweep, in order; then the end.
    Length(LengthOutcome),
    LengthsDone,
    /// One head count of the head sweep, in order; then the end.
    Heads(HeadsOutcome),
    /// Training steps the head sweep has done so far, all head counts together
    /// (a refused one counted whole).
    HeadsSteps(usize),
    HeadsDone,
    Saturation(Vec<SaturationPoint>),
    /// The file dialog's answer.
    Dialog(PathRequest, DialogAnswer),
    /// What the pretrained checkpoint's thread reports.
    Pretrained(crate::pretrained::worker::PretrainedEvent),
}

/// Where background threads send: each message wakes the window.
#[derive(Clone)]
pub struct Outbox {
    tx: Sender<Message>,
    ctx: egui::Context,
    /// The window runs in lockstep (tests): work runs where it is asked for, so
    /// the same actions give the same frames whatever the machine's speed.
    inline: bool,
}

impl Outbox {
    /// Send; false once the window has closed (the thread may stop).
    pub fn send(&self, message: Message) -> bool {
        let sent = self.tx.send(message).is_ok();
        self.ctx.request_repaint();
        sent
    }

    /// Sends `message` when dropped: at the end of the work, however it ends (a
    /// panicking sweep still reports its end, or the window would wait for it).
    pub fn on_drop(&self, message: Message) -> SendOnDrop {
        SendOnDrop { outbox: self.clone(), message: Some(message) }
    }

    /// Run `work` on its own named thread (at once in lockstep); it reports here.
    pub fn spawn(&self, name: &str, work: impl FnOnce(Outbox) + Send + 'static) {
        if self.inline {
            work(self.clone());
        } else {
            self.spawn_thread(name, work);
        }
    }

    /// Run `work` on its own named thread, in lockstep too (a claim's verification,
    /// which the learner can cancel while it runs; a file dialog, which waits).
    pub fn spawn_thread(&self, name: &str, work: impl FnOnce(Outbox) + Send + 'static) {
        let outbox = self.clone();
        std::thread::Builder::new().name(name.into()).spawn(move || work(outbox)).expect("spawn a background thread");
    }
}

/// See `Outbox::on_drop`.
pub struct SendOnDrop {
    outbox: Outbox,
    message: Option<Message>,
}

impl SendOnDrop {
    /// The work ended as it should (and said so itself): send nothing.
    pub fn disarm(mut self) {
        self.message = None;
    }
}

impl Drop for SendOnDrop {
    fn drop(&mut self) {
        if let Some(message) = self.message.take() {
            self.outbox.send(message);
        }
    }
}

pub struct Inbox {
    outbox: Outbox,
    rx: Receiver<Message>,
}

impl Inbox {
    pub fn new(ctx: egui::Context, inline: bool) -> Self {
        let (tx, rx) = channel();
        Self { outbox: Outbox { tx, ctx, inline }, rx }
    }

    /// See `Outbox::spawn`.
    pub fn spawn(&self, name: &str, work: impl FnOnce(Outbox) + Send + 'static) {
        self.outbox.spawn(name, work);
    }

    /// See `Outbox::spawn_thread`.
    pub fn spawn_thread(&self, name: &str, work: impl FnOnce(Outbox) + Send + 'static) {
        self.outbox.spawn_thread(name, work);
    }

    pub fn outbox(&self) -> Outbox {
        self.outbox.clone()
    }

    pub fn try_recv(&self) -> Option<Message> {
        self.rx.try_recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work that panics still reports its end; work that ends as it should and
    /// disarms the guard reports only its own.
    #[test]
    fn a_guarded_end_arrives_after_a_panic_and_not_twice_otherwise() {
        let inbox = Inbox::new(egui::Context::default(), false);
        let out = inbox.outbox();
        let worker = std::thread::spawn(move || {
            let _ended = out.on_drop(Message::HeadsDone);
            panic!("a sweep's bug");
        });
        assert!(worker.join().is_err());
        assert!(matches!(inbox.try_recv(), Some(Message::HeadsDone)), "the guard sent the end as the thread unwound");
        let ended = inbox.outbox().on_drop(Message::HeadsDone);
        inbox.outbox().send(Message::LengthsDone);
        ended.disarm();
        assert!(matches!(inbox.try_recv(), Some(Message::LengthsDone)));
        assert!(inbox.try_recv().is_none(), "a disarmed guard sends nothing");
    }
}
