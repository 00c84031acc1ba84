//! What the window knows about the run, built only from `TrainEvent`s (plain data).
//! Plain tests drive it with hand-made events.

use std::collections::BTreeMap;

use super::series::Series;
use crate::probe::LeakReport;
use crate::t;
use crate::training::{AttentionSnapshot, BackendInfo, GenerationReport, HeadTraceData, TrainEvent};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// No session (the config is invalid).
    NoModel,
    /// A fresh or stopped model, not training.
    Ready,
    Running,
    Paused,
    Finished,
}

pub use super::notice::{Banner, BannerKind, PinnedRun};

#[derive(Clone, Debug)]
pub struct RunView {
    /// The pinned run, drawn dashed under the live curves; survives resets.
    pub pinned: Option<PinnedRun>,
    pub status: RunStatus,
    pub step: usize,
    pub steps_per_s: f32,
    pub parameters: usize,
    pub backend: Option<BackendInfo>,
    pub vocab: Vec<String>,
    pub seq_len: usize,
    /// The task of the model the events come from (None before the first Ready).
    pub task: Option<crate::tasks::TaskKind>,
    pub train_loss: Series,
    pub train_accuracy: Series,
    pub eval_loss: Series,
    pub eval_accuracy: Series,
    pub lr: Series,
    pub grad_norm: Series,
    /// Per layer ("embedding", "layer 0", ..., "head").
    pub layer_grad_norms: BTreeMap<String, Series>,
    /// Per layer, the mean ‖Δw‖/‖w‖ of its parameter groups.
    pub layer_update_ratios: BTreeMap<String, Series>,
    pub attention: Option<AttentionSnapshot>,
    /// The latest causality and padding probe results.
    pub causality: Option<LeakReport>,
    /// The latest traced head (step-through view).
    pub trace: Option<HeadTraceData>,
    /// The latest gradient-reach measurement (step, result), By length view.
    pub reach: Option<(usize, Result<crate::training::GradientReach, String>)>,
    /// The latest text written from a prompt (Generate view), and why the last
    /// request was refused.
    pub generated: Option<GenerationReport>,
    pub generation_error: Option<String>,
    /// A generation request is on its way to the trainer.
    pub generating: bool,
    /// The latest evaluation.
    pub last_eval: Option<crate::training::EvalMetrics>,
    pub padding_probe: Option<LeakReport>,
    pub banner: Option<Banner>,
    /// When the banner appeared (egui time, seconds), set by the window.
    pub banner_since: Option<f64>,
    /// The last "change applied" note shown: it goes once the edit is invalid.
    pub apply_note: Option<String>,
    /// A note to show once the next reset has happened (a lesson's try says what it did).
    pub note_after_reset: Option<String>,
    pub probe_error: Option<String>,
    pub last_eval_accuracy: Option<f32>,
    /// Bumped whenever the weights were replaced (reset, load, config change).
    pub generation: usize,
    /// Watches for a loss that climbs far above its start without becoming NaN.
    loss_climb: super::loss_climb::LossClimb,
    /// The warning it gave (a reset's fresh model drops it).
    climb_warning: Option<String>,
    /// An error about the model itself (its loss or a gradient stopped being a
    /// number, or it could not be built): it holds until a fresh model, whatever
    /// succeeds meanwhile.
    model_error: Option<String>,
    /// A bug-hunt case is unsolved: the NaN error and the climb warning say what
    /// happened, not which knob usually causes it (set by the app before each
    /// event; the one place spoilers are held back).
    pub hide_spoilers: bool,
}

impl Default for RunView {
    fn default() -> Self {
        Self {
            pinned: None,
            status: RunStatus::NoModel,
            step: 0,
            steps_per_s: 0.0,
            parameters: 0,
            backend: None,
            vocab: Vec::new(),
            seq_len: 0,
            task: None,
            train_loss: Series::default(),
            train_accuracy: Series::default(),
            eval_loss: Series::default(),
            eval_accuracy: Series::default(),
            lr: Series::default(),
            grad_norm: Series::default(),
            layer_grad_norms: BTreeMap::new(),
            layer_update_ratios: BTreeMap::new(),
            attention: None,
            causality: None,
            trace: None,
            reach: None,
            generated: None,
            generation_error: None,
            generating: false,
            last_eval: None,
            padding_probe: None,
            banner: None,
            banner_since: None,
            apply_note: None,
            note_after_reset: None,
            probe_error: None,
            last_eval_accuracy: None,
            generation: 0,
            loss_climb: Default::default(),
            climb_warning: None,
            model_error: None,
            hide_spoilers: false,
        }
    }
}

impl RunView {
    /// Keep the current curves aside (replacing an earlier pin).
    pub fn pin(&mut self) {
        self.pinned = Some(PinnedRun {
            step: self.step,
            generation: self.generation,
            task: self.task,
            train_loss: self.train_loss.clone(),
            eval_loss: self.eval_loss.clone(),
            train_accuracy: self.train_accuracy.clone(),
            eval_accuracy: self.eval_accuracy.clone(),
            attention: self.attention.clone(),
            by_length: self.last_eval.as_ref().map(|e| e.by_length.clone()).unwrap_or_default(),
        });
    }

    /// Fold one event into the view.
    pub fn apply(&mut self, event: TrainEvent) {
        match event {
            TrainEvent::Ready { task, parameters, backend, seq_len, vocab } => {
                // A fresh model: notes about the old one ("kept what it learned") no
                // longer hold, nor does a warning that its loss climbed.
                let climb_warning = self.climb_warning.take();
                let keep_banner = self.banner.take().filter(|b| b.kind == BannerKind::Warning && Some(&b.text) != climb_warning.as_ref());
                let note = self.note_after_reset.take();
                *self = Self {
                    generation: self.generation + 1,
                    pinned: self.pinned.take(),
                    ..Self::default()
                };
                self.banner = match (&backend.fallback_reason, note) {
                    (Some(reason), _) => Some(Banner { kind: BannerKind::Warning, text: reason.clone() }),
                    (None, Some(note)) => Some(Banner { kind: BannerKind::Info, text: note }),
                    (None, None) => keep_banner,
                };
                self.status = RunStatus::Ready;
                self.task = Some(task);
                self.parameters = parameters;
                self.backend = Some(backend);
                self.seq_len = seq_len;
                self.vocab = vocab;
            }
            TrainEvent::Started { step } | TrainEvent::Resumed { step } => {
                self.status = RunStatus::Running;
                self.step = step;
                if self.banner.as_ref().is_some_and(|b| b.kind == BannerKind::Error) {
                    self.banner = None;
                }
            }
            TrainEvent::Step(m) => {
                self.step = m.step;
                self.steps_per_s = m.steps_per_s;
                let x = m.step as f64;
                self.train_loss.push(x, m.loss as f64);
                self.train_accuracy.push(x, m.accuracy as f64);
                self.lr.push(x, m.lr);
                self.grad_norm.push(x, m.grad_norm as f64);
                if let Some((first, now)) = self.loss_climb.observe(m.loss) {
                    let (first, loss) = (loss_text(first), loss_text(now));
                    let text = if self.hide_spoilers {
                        t!("msg-loss-climbed-bug-hunt", first = first, loss = loss)
                    } else {
                        t!("msg-loss-climbed", first = first, loss = loss)
                    };
                    self.climb_warning = Some(text.clone());
                    self.show_banner(Banner { kind: BannerKind::Warning, text });
                }
            }
            TrainEvent::Eval(e) => {
                let x = e.step as f64;
                self.eval_loss.push(x, e.loss as f64);
                self.eval_accuracy.push(x, e.accuracy as f64);
                self.last_eval_accuracy = Some(e.accuracy);
                self.last_eval = Some(e);
            }
            TrainEvent::Gradients(report) => {
                let x = report.step as f64;
                for (layer, norm) in report.layers {
                    self.layer_grad_norms.entry(layer).or_default().push(x, norm as f64);
                }
                let mut per_layer: BTreeMap<String, (f64, usize)> = BTreeMap::new();
                for group in report.groups {
                    let entry = per_layer.entry(group.layer).or_default();
                    entry.0 += group.update_ratio as f64;
                    entry.1 += 1;
                }
                for (layer, (sum, count)) in per_layer {
                    self.layer_update_ratios.entry(layer).or_default().push(x, sum / count as f64);
                }
            }
            TrainEvent::Attention(snapshot) => {
                self.probe_error = None;
                self.attention = Some(snapshot);
            }
            TrainEvent::NonFinite { step, kind, hint, .. } => {
                // In an unsolved bug-hunt case: what blew up, not the usual causes.
                let hint = if self.hide_spoilers { t!("msg-non-finite-bug-hunt", what = kind.describe(), step = step) } else { hint };
                self.model_error = Some(hint.clone());
                self.banner = Some(Banner { kind: BannerKind::Error, text: hint });
            }
            TrainEvent::Paused { step } => {
                self.status = RunStatus::Paused;
                self.step = step;
                self.steps_per_s = 0.0;
            }
            TrainEvent::Stopped { step } => {
                self.status = RunStatus::Ready;
                self.step = step;
                self.steps_per_s = 0.0;
            }
            TrainEvent::ConfigApplied { message, kept_weights, backend, task, .. } => {
                self.backend = Some(backend);
                // Held-out numbers and maps of another task say nothing about this one.
                // Watched afresh from the first loss after any change: an ablated
                // head or another task moves the loss for reasons of its own.
                self.loss_climb = Default::default();
                if self.task != Some(task) {
                    self.last_eval = None;
                    self.last_eval_accuracy = None;
                    self.attention = None;
                    self.task = Some(task);
                }
                if !kept_weights {
                    self.generation += 1;
                }
                // "Kept everything" is the least news: it does not replace a note already showing.
                if !kept_weights || self.banner.is_none() {
                    self.apply_note = Some(message.clone());
                    self.show_banner(Banner { kind: BannerKind::Info, text: message });
                }
            }
            TrainEvent::ProbeRejected { message } => self.probe_error = Some(message),
            TrainEvent::Note { message } => self.show_banner(Banner { kind: BannerKind::Info, text: message }),
            TrainEvent::Saved { dir } => self.show_success(t!("msg-saved-run", dir = dir.display().to_string())),
            TrainEvent::Trace(trace) => self.trace = Some(trace),
            TrainEvent::GradientReach { step, result } => self.reach = Some((step, result)),
            TrainEvent::Generated(report) => {
                self.generating = false;
                self.generation_error = None;
                self.generated = Some(report);
            }
            TrainEvent::GenerationRejected { message } => {
                self.generating = false;
                self.generation_error = Some(message);
            }
            TrainEvent::Probed(report) => match report.probe {
                "padding" => self.padding_probe = Some(report),
                _ => self.causality = Some(report),
            },
            TrainEvent::Exported { path } => self.show_success(t!("msg-wrote-file", path = path.display().to_string())),
            TrainEvent::Finished { step, eval_accuracy, .. } => {
                self.status = RunStatus::Finished;
                self.step = step;
                self.steps_per_s = 0.0;
                self.last_eval_accuracy = Some(eval_accuracy);
            }
            TrainEvent::Error { message } => {
                if self.backend.is_none() {
                    self.status = RunStatus::NoModel;
                    self.model_error = Some(message.clone());
                }
                self.banner = Some(Banner { kind: BannerKind::Error, text: message });
            }
        }
    }

    /// Report that something the learner did worked (saved, opened, written): it
    /// answers an earlier error (a failed save, say, retried elsewhere), so it
    /// replaces one, except an error about the model itself (it diverged, or
    /// could not be built), which a save does not mend.
    pub fn show_success(&mut self, text: String) {
        let model_error_showing = self.banner.as_ref().is_some_and(|b| b.kind == BannerKind::Error && Some(&b.text) == self.model_error.as_ref());
        if !model_error_showing {
            self.banner = Some(Banner { kind: BannerKind::Info, text });
            self.banner_since = None;
        }
    }

    /// Show a message; a note never hides an error the learner has not dismissed
    /// (a success does: `show_success`).
    pub fn show_banner(&mut self, banner: Banner) {
        let error_showing = self.banner.as_ref().is_some_and(|b| b.kind == BannerKind::Error);
        if !(error_showing && banner.kind == BannerKind::Info) {
            self.banner = Some(banner);
            self.banner_since = None;
        }
    }

    /// Drop a "change applied" note: the editor now holds a change that cannot
    /// apply (fields apply as they are typed, so the note may be about a value one
    /// keystroke earlier), and the note would contradict the disabled Start.
    pub fn drop_apply_note(&mut self) {
        // Taken out and put back (it runs every frame: no copy of the text).
        let note = self.apply_note.take();
        if let Some(note) = &note {
            self.drop_banner_saying(note);
        }
        self.apply_note = note;
    }

    /// Drop the banner if it is a note (not an error) saying `text`: something
    /// it said no longer holds. Any other banner stays.
    pub fn drop_banner_saying(&mut self, text: &str) {
        if self.banner.as_ref().is_some_and(|b| b.kind != BannerKind::Error && b.text == text) {
            self.banner = None;
            self.banner_since = None;
        }
    }

    /// Drop the numbers of the run being replaced (its curves, evaluation and maps),
    /// so nothing judges the next run by them before its first event arrives. A
    /// pinned run stays: comparing the next run against it is what it is for.
    pub fn forget_run(&mut self) {
        let keep = RunView {
            pinned: self.pinned.take(),
            banner: self.banner.take(),
            banner_since: self.banner_since,
            apply_note: self.apply_note.take(),
            note_after_reset: self.note_after_reset.take(),
            generation: self.generation,
            ..RunView::default()
        };
        *self = RunView { status: self.status, ..keep };
    }

    /// Let notes and warnings fade: call each frame with the current time; returns
    /// the seconds until the banner fades, if one is fading.
    pub fn fade_banner(&mut self, now: f64) -> Option<f64> {
        let banner = self.banner.as_ref()?;
        if banner.kind == BannerKind::Error {
            return None;
        }
        let since = *self.banner_since.get_or_insert(now);
        let left = Banner::FADE_SECS - (now - since);
        if left <= 0.0 {
            self.banner = None;
            self.banner_since = None;
            return None;
        }
        Some(left)
    }

    /// What the lesson checks read: the live run's latest numbers.
    pub fn live_facts(&self) -> crate::lessons::LiveFacts<'_> {
        let last = |s: &Series| s.smoothed_last(0.6).map(|v| v as f32);
        crate::lessons::LiveFacts {
            step: self.step,
            task: self.task,
            loss: last(&self.train_loss),
            accuracy: last(&self.train_accuracy),
            eval_loss: self.last_eval.as_ref().map(|e| e.loss),
            eval_accuracy: self.last_eval.as_ref().map(|e| e.accuracy),
            sequence_accuracy: self.last_eval.as_ref().map(|e| e.sequence_accuracy),
            longest_accuracy: self.last_eval.as_ref().and_then(|e| e.by_length.last()).filter(|b| b.sentences > 0).map(|b| b.accuracy),
            shortest_accuracy: self.last_eval.as_ref().and_then(|e| e.by_length.first()).filter(|b| b.sentences > 0).map(|b| b.accuracy),
            generation_loss: self.last_eval.as_ref().map(|e| e.generation_loss).filter(|l| l.is_finite()),
            eval_step: self.last_eval.as_ref().map(|e| e.step),
            attention: self.attention.as_ref(),
            cache_speedup: self.generated.as_ref().filter(|g| g.step == self.step && g.mismatches == Some(0)).and_then(|g| {
                let speedup = g.uncached.mean_ms / g.cached.as_ref()?.mean_ms;
                speedup.is_finite().then_some(speedup as f32)
            }),
            pinned_gap: self.pinned_gap(),
            length_growth: None,
            held_out_stretch: None,
            heads_pick_match: None,
        }
    }

    /// Largest |live − pinned| training loss at the live run's steps, when the live
    /// run is a later model than the pinned one and the pinned run reached every
    /// step the live one has (None otherwise).
    pub fn pinned_gap(&self) -> Option<f32> {
        let pinned = self.pinned.as_ref().filter(|p| p.generation != self.generation)?;
        let live = self.train_loss.points();
        if live.is_empty() {
            return None;
        }
        let theirs: BTreeMap<u64, f64> = pinned.train_loss.points().iter().map(|[x, y]| (x.to_bits(), *y)).collect();
        let mut gap = 0.0f64;
        for [x, y] in live {
            gap = gap.max((y - theirs.get(&x.to_bits())?).abs());
        }
        Some(gap as f32)
    }

    /// Seconds left at the current speed, when training.
    pub fn eta_secs(&self, total_steps: usize) -> Option<f32> {
        (self.status == RunStatus::Running && self.steps_per_s > 0.0)
            .then(|| total_steps.saturating_sub(self.step) as f32 / self.steps_per_s)
    }
}

#[cfg(test)]
#[path = "run_view_tests.rs"]
mod tests;

/// A loss for a message: three decimals, or three significant digits once huge.
fn loss_text(loss: f32) -> String {
    if loss.abs() < 1000.0 { format!("{loss:.3}") } else { format!("{loss:.2e}") }
}
