//! Plain data the run view keeps besides the run itself: the status-strip message
//! and a run pinned to compare the next one against.

use super::series::Series;
use crate::training::AttentionSnapshot;

/// A message in the status strip under the top bar. Notes and warnings fade after
/// `Banner::FADE_SECS`; errors stay until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Banner {
    pub kind: BannerKind,
    pub text: String,
}

impl Banner {
    /// Seconds a note or warning stays before it fades.
    pub const FADE_SECS: f64 = 8.0;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BannerKind {
    Info,
    Warning,
    Error,
}

/// A run's loss and accuracy curves kept aside, to compare the next run against.
#[derive(Clone, Debug, Default)]
pub struct PinnedRun {
    /// The step it was pinned at; `label` puts it in words.
    pub step: usize,
    /// `RunView::generation` when it was pinned: a later run is one with another.
    pub generation: usize,
    /// The task it trained: a pin stays across lessons, where the task may change.
    pub task: Option<crate::tasks::TaskKind>,
    pub train_loss: Series,
    pub eval_loss: Series,
    pub train_accuracy: Series,
    pub eval_accuracy: Series,
    /// Its last attention snapshot, to compare the next run's maps with.
    pub attention: Option<AttentionSnapshot>,
    /// Its last held-out accuracy by source length (seq2seq tasks).
    pub by_length: Vec<crate::training::LengthBucket>,
}

impl PinnedRun {
    /// Which run it was ("step 300"), in the interface's language now; with its
    /// task when the live run's (`live`) is another ("step 300 of lookup").
    pub fn label(&self, live: Option<crate::tasks::TaskKind>) -> String {
        match self.task {
            Some(task) if live.is_some_and(|live| live != task) => crate::t!("msg-pinned-label-task", step = self.step, task = task.label()),
            _ => crate::t!("msg-pinned-label", step = self.step),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PinnedRun;
    use crate::tasks::TaskKind;

    #[test]
    fn a_pin_of_another_task_names_it() {
        let pin = PinnedRun { step: 300, task: Some(TaskKind::Copy), ..PinnedRun::default() };
        assert_eq!(pin.label(Some(TaskKind::Copy)), "step 300");
        assert_eq!(pin.label(None), "step 300", "no live run yet: nothing to tell apart");
        assert_eq!(pin.label(Some(TaskKind::Lookup)), "step 300 of copy");
    }
}
