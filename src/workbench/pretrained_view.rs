//! The window's view of an opened pretrained checkpoint: what it is, how far its
//! opening has got, the sentences typed and the last reading of them. Built from
//! the checkpoint thread's events; plain data only.

use crate::pretrained::reading::{PretrainedInfo, PretrainedReading};
use crate::pretrained::worker::PretrainedEvent;
use crate::training::HeadTraceData;

/// Which view of the reading the tab shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PretrainedTab {
    /// Every layer × head as a thumbnail, one enlarged (BertViz's model view).
    #[default]
    ModelView,
    MaskInspector,
    StepThrough,
    Predictions,
    /// [CLS] against the mean of the token vectors (BERT).
    SentenceVectors,
}

#[derive(Default)]
pub struct PretrainedView {
    pub info: Option<PretrainedInfo>,
    /// The folder being opened, with the fraction done and the stage.
    pub opening: Option<(String, f32, String)>,
    pub reading: Option<PretrainedReading>,
    /// Counts the readings, so that views can tell a new one from the last.
    pub readings: usize,
    /// Waiting for a reading of the typed sentences.
    pub reading_pending: bool,
    /// A traced head, and the sentence it was traced on.
    pub trace: Option<(usize, HeadTraceData)>,
    /// The last thing that went wrong (a bad folder, text it cannot read).
    pub error: Option<String>,
    /// The sentences typed; the second is optional (with it, a padded batch of two).
    pub text: String,
    pub text2: String,
    pub tab: PretrainedTab,
    /// Which sentence of the reading the views show.
    pub sequence: usize,
    /// The enlarged map of the model view.
    pub selected: (usize, usize),
}

impl PretrainedView {
    pub fn apply(&mut self, event: PretrainedEvent) {
        match event {
            PretrainedEvent::Progress { fraction, stage } => {
                if let Some(opening) = self.opening.as_mut() {
                    (opening.1, opening.2) = (fraction, stage);
                }
            }
            PretrainedEvent::Opened(info) => {
                self.opening = None;
                self.error = None;
                self.reading = None;
                self.trace = None;
                self.selected = (0, 0);
                if self.text.trim().is_empty() {
                    self.text = if info.bert { "The capital of France is [MASK].".into() } else { "Attention is all you".into() };
                }
                self.info = Some(*info);
            }
            PretrainedEvent::Read(reading) => {
                self.reading_pending = false;
                self.error = None;
                self.trace = None;
                self.sequence = self.sequence.min(reading.snapshots.len().saturating_sub(1));
                self.reading = Some(*reading);
                self.readings += 1;
            }
            PretrainedEvent::Traced { sequence, trace } => self.trace = Some((sequence, *trace)),
            PretrainedEvent::Failed(message) => {
                self.opening = None;
                self.reading_pending = false;
                self.error = Some(message);
            }
        }
    }

    /// The typed sentences to read: one, or two when the second is filled in.
    pub fn texts(&self) -> Vec<String> {
        let mut texts = vec![self.text.clone()];
        if !self.text2.trim().is_empty() {
            texts.push(self.text2.clone());
        }
        texts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_open_ends_the_progress_and_keeps_the_model_that_was_open() {
        let mut view = PretrainedView { opening: Some(("dir".into(), 0.3, "weights".into())), ..Default::default() };
        view.apply(PretrainedEvent::Progress { fraction: 0.5, stage: "weights".into() });
        assert_eq!(view.opening.as_ref().map(|o| o.1), Some(0.5));
        view.apply(PretrainedEvent::Failed("dir/config.json: missing".into()));
        assert!(view.opening.is_none() && view.info.is_none());
        assert_eq!(view.error.as_deref(), Some("dir/config.json: missing"));
    }

    #[test]
    fn the_second_sentence_joins_only_when_typed() {
        let mut view = PretrainedView { text: "a".into(), text2: "  ".into(), ..Default::default() };
        assert_eq!(view.texts(), vec!["a".to_string()]);
        view.text2 = "b".into();
        assert_eq!(view.texts().len(), 2);
    }
}
