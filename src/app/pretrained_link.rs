//! The window's link to the pretrained checkpoint's thread: open a folder, read
//! the typed sentences, trace a head; the thread's events arrive in the inbox.

use std::path::Path;

use super::WorkbenchApp;
use super::inbox::Message;
use crate::pretrained::worker::{self, PretrainedCommand, PretrainedEvent};
use crate::t;
use crate::workbench::run_view::BannerKind;
use crate::workbench::state::CentralView;

impl WorkbenchApp {
    fn pretrained_send(&mut self, command: PretrainedCommand) {
        let link = self.pretrained_link.get_or_insert_with(|| {
            let outbox = self.inbox.outbox();
            worker::spawn(move |event| outbox.send(Message::Pretrained(event)))
        });
        if link.send(command).is_err() {
            self.pretrained_link = None;
            self.notice(BannerKind::Error, t!("msg-pretrained-thread-gone"));
        }
    }

    /// Open a checkpoint folder off the window's thread; the tab shows the progress.
    pub fn open_pretrained(&mut self, dir: &Path) {
        self.pretrained.opening = Some((dir.display().to_string(), 0.0, String::new()));
        self.pretrained.error = None;
        self.state.central = CentralView::Pretrained;
        self.pretrained_send(PretrainedCommand::Open(dir.to_path_buf()));
    }

    pub(super) fn read_pretrained(&mut self) {
        if self.pretrained.info.is_none() {
            return;
        }
        self.pretrained.reading_pending = true;
        let texts = self.pretrained.texts();
        self.pretrained_send(PretrainedCommand::Read(texts));
    }

    pub(super) fn trace_pretrained(&mut self, layer: usize, head: usize) {
        let sequence = self.pretrained.sequence;
        self.pretrained_send(PretrainedCommand::Trace { sequence, layer, head });
    }

    pub(super) fn pretrained_event(&mut self, event: PretrainedEvent) {
        let opened = matches!(event, PretrainedEvent::Opened(_));
        if let PretrainedEvent::Failed(message) = &event {
            self.notice(BannerKind::Error, message.clone());
        }
        if let PretrainedEvent::Opened(info) = &event {
            self.success(t!("msg-pretrained-opened", class = info.class.as_str(), ms = format!("{:.0}", info.open_ms)));
        }
        self.pretrained.apply(event);
        // A model just opened reads the sentence at once: the views are never empty.
        if opened {
            self.read_pretrained();
        }
    }
}
