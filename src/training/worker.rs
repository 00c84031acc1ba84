//! The trainer thread: owns a `Session`, takes `TrainCommand`s, sends `TrainEvent`s.
//!
//! While running it checks for commands between steps without blocking; while
//! idle or paused it sleeps on the command channel. Events are throttled at the
//! source: attention snapshots at most every `SNAPSHOT_MIN_GAP`, gradient reports
//! every `GRADIENT_EVERY` steps.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use super::event_queue::EventSender;
use std::time::{Duration, Instant};

use super::events::{TrainCommand, TrainEvent};
use super::session::{Session, StepOutcome};
use crate::config::ExperimentConfig;
use crate::runs;
use crate::t;

const SNAPSHOT_MIN_GAP: Duration = Duration::from_millis(200);
const GRADIENT_EVERY: usize = 10;

/// Called after events are sent (the window uses it to request a repaint).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RunState {
    Idle,
    Running,
    Paused,
    Finished,
}

pub(super) struct Worker {
    events: EventSender,
    waker: Option<Waker>,
    session: Option<Session>,
    pub(super) state: RunState,
    last_snapshot: Option<Instant>,
    run_started: Option<Instant>,
    /// Snapshots at most every `SNAPSHOT_MIN_GAP` (off in lockstep, where the clock
    /// must not decide which events there are).
    throttle: bool,
}

impl Worker {
    pub(super) fn new(events: EventSender, waker: Option<Waker>, throttle: bool) -> Self {
        Self {
            events,
            waker,
            session: None,
            state: RunState::Idle,
            last_snapshot: None,
            run_started: None,
            throttle,
        }
    }

    fn emit(&self, event: TrainEvent) {
        self.events.send(event);
        if let Some(wake) = &self.waker {
            wake();
        }
    }

    pub(super) fn run(mut self, config: ExperimentConfig, inbox: Receiver<TrainCommand>) {
        self.build(config);
        loop {
            let command = if self.state == RunState::Running {
                match inbox.try_recv() {
                    Ok(command) => Some(command),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return,
                }
            } else {
                match inbox.recv() {
                    Ok(command) => Some(command),
                    Err(_) => return,
                }
            };
            match command {
                Some(TrainCommand::Shutdown) => return,
                Some(command) => self.handle(command),
                None => self.train_one(),
            }
        }
    }

    /// Build a fresh session (announcing it), or report why the config is unusable.
    pub(super) fn build(&mut self, config: ExperimentConfig) {
        match Session::new(config) {
            Ok(session) => self.install(session),
            Err(err) => {
                self.session = None;
                self.state = RunState::Idle;
                self.emit(TrainEvent::Error { message: err.to_string() });
            }
        }
    }

    fn install(&mut self, session: Session) {
        self.state = if session.is_done() { RunState::Finished } else { RunState::Idle };
        self.emit(TrainEvent::Ready {
            task: session.config().task.kind,
            parameters: session.parameters(),
            backend: session.backend().info.clone(),
            seq_len: session.task().seq_len(),
            vocab: session.task().vocab().labels().to_vec(),
        });
        let mut session = session;
        if let Some(report) = session.init_report() {
            self.emit(TrainEvent::Note { message: report.describe() });
            // Trained weights are worth measuring before any step: the held-out
            // numbers at step 0 show what the start brings.
            if session.step_count() == 0 {
                let eval = session.evaluate();
                self.emit(TrainEvent::Eval(eval));
            }
        }
        let snapshot = session.attention_snapshot();
        self.session = Some(session);
        self.emit(TrainEvent::Attention(snapshot));
        self.last_snapshot = None;
    }

    pub(super) fn handle(&mut self, command: TrainCommand) {
        match command {
            TrainCommand::Start => match self.state {
                RunState::Finished => {
                    let config = self.session.as_ref().map(|s| s.config().clone());
                    if let Some(config) = config {
                        self.build(config);
                        self.start();
                    }
                }
                RunState::Idle | RunState::Paused => self.start(),
                RunState::Running => {}
            },
            TrainCommand::Pause if self.state == RunState::Running => self.pause(),
            TrainCommand::Resume if self.state == RunState::Paused => self.start(),
            TrainCommand::StepOnce if matches!(self.state, RunState::Idle | RunState::Paused) => {
                if self.session.is_some() {
                    self.train_one();
                    if self.state != RunState::Finished {
                        self.publish_snapshot(true);
                        self.state = RunState::Paused;
                        let step = self.step();
                        self.emit(TrainEvent::Paused { step });
                    }
                }
            }
            TrainCommand::Stop if matches!(self.state, RunState::Running | RunState::Paused) => {
                self.state = RunState::Idle;
                self.pause_timer();
                let step = self.step();
                self.emit(TrainEvent::Stopped { step });
            }
            TrainCommand::Reset => {
                let config = self.session.as_ref().map(|s| s.config().clone());
                if let Some(config) = config {
                    self.build(config);
                }
            }
            TrainCommand::ApplyConfig(config) => self.apply(*config),
            TrainCommand::SetProbe(text) => {
                if let Some(session) = self.session.as_mut() {
                    match session.set_probe(&text) {
                        Ok(()) => self.publish_snapshot(true),
                        Err(message) => self.emit(TrainEvent::ProbeRejected { message }),
                    }
                }
            }
            TrainCommand::Save(dir) => {
                let Some(session) = &self.session else {
                    return self.emit(TrainEvent::Error {
                        message: t!("msg-worker-nothing-to-save"),
                    });
                };
                match session.save(&dir) {
                    Ok(()) => self.emit(TrainEvent::Saved { dir }),
                    Err(err) => self.emit(TrainEvent::Error { message: err.to_string() }),
                }
            }
            TrainCommand::Probe => {
                let Some(session) = &self.session else { return };
                let causality = session.causality_probe();
                let padding = session.padding_probe();
                self.emit(TrainEvent::Probed(causality));
                self.emit(TrainEvent::Probed(padding));
            }
            TrainCommand::Trace { layer, head } => {
                let Some(session) = &self.session else { return };
                match session.trace_head(layer, head) {
                    Some(trace) => self.emit(TrainEvent::Trace(trace)),
                    // The RNN's alignment has no Q, K or V projections to step through.
                    None if session.config().model.family == crate::config::ModelFamily::Rnn => {
                        self.emit(TrainEvent::Error { message: t!("msg-worker-rnn-no-trace") })
                    }
                    None => self.emit(TrainEvent::Error { message: t!("msg-worker-no-head-to-trace", layer = layer, head = head) }),
                }
            }
            TrainCommand::GradientReach => {
                let Some(session) = &self.session else { return };
                let step = session.step_count();
                self.emit(TrainEvent::GradientReach { step, result: session.gradient_reach() });
            }
            TrainCommand::Generate { prompt, tokens } => {
                let Some(session) = &self.session else { return };
                match session.compare_writing(&prompt, tokens) {
                    Ok(report) => self.emit(TrainEvent::Generated(report)),
                    Err(message) => self.emit(TrainEvent::GenerationRejected { message }),
                }
            }
            TrainCommand::ExportMetrics(path) => {
                let Some(session) = &self.session else { return };
                let csv = runs::metrics_csv(session.history());
                match runs::write_atomic(&path, csv.as_bytes()) {
                    Ok(()) => self.emit(TrainEvent::Exported { path }),
                    Err(err) => self.emit(TrainEvent::Error { message: format!("{}: {err}", path.display()) }),
                }
            }
            TrainCommand::Load(dir) => match Session::load(&dir) {
                Ok(session) => self.install(session),
                Err(err) => self.emit(TrainEvent::Error { message: err.to_string() }),
            },
            // Commands that do not apply in the current state are ignored.
            _ => {}
        }
    }

    fn start(&mut self) {
        if self.session.is_none() {
            return self.emit(TrainEvent::Error {
                message: t!("msg-worker-cannot-start"),
            });
        }
        if self.run_started.is_none() || self.state == RunState::Idle {
            self.run_started = Some(Instant::now());
        }
        let was_paused = self.state == RunState::Paused;
        self.state = RunState::Running;
        let step = self.step();
        self.emit(if was_paused { TrainEvent::Resumed { step } } else { TrainEvent::Started { step } });
    }

    fn pause(&mut self) {
        self.state = RunState::Paused;
        self.pause_timer();
        let step = self.step();
        self.emit(TrainEvent::Paused { step });
    }

    fn pause_timer(&mut self) {
        if let Some(session) = self.session.as_mut() {
            session.pause_timer();
        }
    }

    fn step(&self) -> usize {
        self.session.as_ref().map_or(0, Session::step_count)
    }

    fn apply(&mut self, config: ExperimentConfig) {
        let Some(session) = self.session.as_mut() else {
            return self.build(config);
        };
        // Other starting weights (`init_from`) mean a new start from them, announced
        // and measured like any fresh session.
        if session.config().init_source() != config.init_source() {
            return self.build(config);
        }
        match session.apply_config(config) {
            Ok(report) => {
                let kept_weights = report.kept_everything();
                // Nothing learned yet: nothing kept or lost to speak of.
                let message = if session.step_count() == 0 && session.init_report().is_none() {
                    t!("msg-worker-applied-untrained")
                } else if kept_weights {
                    t!("msg-worker-applied-kept-all")
                } else if report.kept.is_empty() {
                    t!("msg-worker-applied-all-fresh")
                } else {
                    t!(
                        "msg-worker-applied-some-fresh",
                        kept = report.kept.len(),
                        total = report.kept.len() + report.fresh.len(),
                        fresh = report.fresh.len()
                    )
                };
                let done = session.is_done();
                // A change that keeps the trained weights (an ablated head, a mask)
                // changes what the model answers now: measure it at once.
                let eval = (kept_weights && session.step_count() > 0).then(|| session.evaluate());
                let backend = session.backend().info.clone();
                let task = session.config().task.kind;
                self.emit(TrainEvent::ConfigApplied {
                    backend,
                    task,
                    kept_weights,
                    reset_params: report.fresh,
                    message,
                });
                if let Some(eval) = eval {
                    self.emit(TrainEvent::Eval(eval));
                }
                if done {
                    self.state = RunState::Finished;
                } else if self.state == RunState::Finished {
                    self.state = RunState::Paused;
                }
                self.publish_snapshot(true);
            }
            Err(err) => self.emit(TrainEvent::Error { message: err.to_string() }),
        }
    }

    pub(super) fn train_one(&mut self) {
        let Some(session) = self.session.as_mut() else {
            self.state = RunState::Idle;
            return;
        };
        if session.is_done() {
            self.state = RunState::Finished;
            return;
        }
        let report = (session.step_count() + 1).is_multiple_of(GRADIENT_EVERY);
        match session.step(report) {
            StepOutcome::Done { metrics, gradients } => {
                let (eval_every, attention_every) = (session.config().eval_interval, session.config().attention_interval);
                let done = session.is_done();
                self.emit(TrainEvent::Step(metrics));
                if let Some(gradients) = gradients {
                    self.emit(TrainEvent::Gradients(gradients));
                }
                let step = metrics.step;
                if eval_every > 0 && step.is_multiple_of(eval_every) && !done {
                    let eval = self.session.as_mut().expect("session").evaluate();
                    self.emit(TrainEvent::Eval(eval));
                }
                if attention_every > 0 && step.is_multiple_of(attention_every) {
                    self.publish_snapshot(false);
                }
                if done {
                    self.finish(metrics.loss, metrics.accuracy);
                }
            }
            StepOutcome::NonFinite { step, kind, group } => {
                let hint = match &group {
                    Some(g) => t!("msg-worker-non-finite-in-group", what = kind.describe(), step = step, group = g.as_str()),
                    None => t!("msg-worker-non-finite", what = kind.describe(), step = step),
                };
                self.emit(TrainEvent::NonFinite { step, kind, group, hint });
                self.pause();
            }
        }
    }

    fn finish(&mut self, loss: f32, accuracy: f32) {
        let session = self.session.as_mut().expect("session");
        let eval = session.evaluate();
        let step = session.step_count();
        self.emit(TrainEvent::Eval(eval.clone()));
        self.publish_snapshot(true);
        self.state = RunState::Finished;
        self.emit(TrainEvent::Finished {
            step,
            loss,
            accuracy,
            eval_loss: eval.loss,
            eval_accuracy: eval.accuracy,
            eval_sequence_accuracy: eval.sequence_accuracy,
            elapsed_secs: self.run_started.map_or(0.0, |t| t.elapsed().as_secs_f32()),
        });
    }

    fn publish_snapshot(&mut self, force: bool) {
        let due = !self.throttle || self.last_snapshot.is_none_or(|t| t.elapsed() >= SNAPSHOT_MIN_GAP);
        if let Some(session) = &self.session
            && (force || due)
        {
            let snapshot = session.attention_snapshot();
            self.last_snapshot = Some(Instant::now());
            self.emit(TrainEvent::Attention(snapshot));
        }
    }
}
