//! A training session: one model, its optimizer, its task and its metrics, stepped
//! by hand. The worker thread and the tests drive this directly; nothing here knows
//! about threads or windows.
//!
//! Its parts: the step (`session/step.rs`), the optimizer (`session/optimizer.rs`),
//! where the weights live (`session/weights.rs`) and the held-out evaluations and
//! views (`session/evaluation.rs`).

use burn::tensor::Device;

use super::backend::{ResolvedBackend, resolve};
use super::events::{
    GradientReport, NonFiniteKind, StepMetrics,
};
use super::plain_optim::PlainOptimizer;
use crate::runs::{MetricsHistory, RunParts};
use super::timer::StepTimer;
use crate::config::{ConfigProblem, ExperimentConfig, validate};
use crate::model::{TransferReport, Transformer, transfer_matching};
use crate::t;
use crate::tasks::{Example, Task, TaskError, parse_probe};

mod evaluation;
mod optimizer;
mod step;
mod weights;
#[cfg(test)]
mod tests;

use optimizer::Optimizer;
pub(super) use optimizer::build_optimizer;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("{}", invalid_config(.0))]
    Invalid(Vec<ConfigProblem>),
    #[error(transparent)]
    Task(#[from] TaskError),
    /// `init_from` names weights that cannot be read or do not fit.
    #[error("init_from: {0}")]
    InitFrom(String),
    /// The machine could not run the session (e.g. no threads could be started).
    #[error("{0}")]
    Runtime(String),
}

/// "invalid config:" and one "  - problem" line per problem.
fn invalid_config(problems: &[ConfigProblem]) -> String {
    let lines = problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n");
    format!("{}\n{lines}", t!("err-session-invalid-config"))
}

/// The result of one step.
pub enum StepOutcome {
    Done {
        metrics: StepMetrics,
        gradients: Option<GradientReport>,
    },
    /// Nothing was applied; the weights are those of the step before.
    NonFinite {
        step: usize,
        kind: NonFiniteKind,
        group: Option<String>,
    },
}

pub struct Session {
    pub(super) config: ExperimentConfig,
    pub(super) task: Box<dyn Task>,
    /// The held-out set's task when `task.eval_length` differs from `task.length`.
    held_out_task: Option<Box<dyn Task>>,
    pub(super) backend: ResolvedBackend,
    /// Autodiff device the model trains on.
    train_device: Device,
    /// Changed only by `step` and by `set_model`/`model_mut` (after which the fused
    /// step copies it out again). After a fused step its values lag the fused
    /// step's plain copy (`model_behind`): `model()` writes them in when read.
    model: Option<Transformer>,
    /// `model` with the plain copy's values, written when first read after a step.
    model_now: std::cell::OnceCell<Transformer>,
    model_behind: bool,
    optim: Optimizer,
    pub(super) step: usize,
    pub(super) probe: Example,
    history: MetricsHistory,
    timer: StepTimer,
    /// What the fused CPU step keeps between steps.
    fused_arena: super::fused::FusedArena,
    /// Gradient norm of each transformer layer ("layer 0", …) at the last applied step.
    last_layer_grad_norms: Vec<(String, f32)>,
    init_report: Option<super::init_from::InitReport>,
    /// `force_composed` was called (kept across config changes).
    forced_composed: bool,
}

impl Session {
    /// Validate the config and build a fresh model from its seed.
    pub fn new(config: ExperimentConfig) -> Result<Self, SessionError> {
        let problems = validate(&config);
        if !problems.is_empty() {
            return Err(SessionError::Invalid(problems));
        }
        let task = config.task.build()?;
        let held_out_task = config.task.build_held_out()?;
        let mut backend = resolve(config.backend);
        backend.info.composed_because = super::fused::support(&config, backend.kind).err();
        let train_device = backend.device.clone().autodiff();
        let vocab = config.model_vocab_size(task.vocab().len());
        let model = Transformer::new(&config.model, vocab, config.seed, &train_device).with_source_len(task.source_len());
        let (model, init_report) = match config.init_source() {
            Some(from) => {
                let (model, report) = super::init_from::start_from(from, task.vocab(), model, &train_device).map_err(SessionError::InitFrom)?;
                (model, Some(report))
            }
            None => (model, None),
        };
        let probe = task.probe();
        Ok(Self {
            optim: if backend.is_gpu() { Optimizer::Burn(build_optimizer(config.optimizer)) } else { Optimizer::Plain(PlainOptimizer::new(config.optimizer)) },
            task,
            held_out_task,
            backend,
            train_device,
            model: Some(model),
            model_now: Default::default(),
            model_behind: false,
            step: 0,
            probe,
            history: MetricsHistory::default(),
            timer: StepTimer::default(),
            fused_arena: Default::default(),
            last_layer_grad_norms: Vec::new(),
            init_report,
            forced_composed: false,
            config,
        })
    }

    /// What `init_from` kept, when the run started from trained weights.
    pub fn init_report(&self) -> Option<&super::init_from::InitReport> {
        self.init_report.as_ref()
    }

    pub fn config(&self) -> &ExperimentConfig {
        &self.config
    }

    pub fn task(&self) -> &dyn Task {
        self.task.as_ref()
    }

    /// The task the held-out set comes from: the training task, or the same task
    /// at the held-out length.
    pub fn held_out_task(&self) -> &dyn Task {
        self.held_out_task.as_deref().unwrap_or(self.task.as_ref())
    }

    pub fn backend(&self) -> &ResolvedBackend {
        &self.backend
    }

    pub fn step_count(&self) -> usize {
        self.step
    }

    pub fn history(&self) -> &MetricsHistory {
        &self.history
    }

    /// The first transformer layer's gradient norm divided by the last one's, at
    /// the last applied step: far below 1 when gradients vanish on their way down.
    pub fn first_to_last_grad_ratio(&self) -> Option<f32> {
        let (first, last) = (self.last_layer_grad_norms.first()?, self.last_layer_grad_norms.last()?);
        (self.last_layer_grad_norms.len() >= 2 && last.1 > 0.0).then(|| first.1 / last.1)
    }

    /// The autodiff device the model trains on.
    pub(super) fn train_device(&self) -> &Device {
        &self.train_device
    }

    pub fn parameters(&self) -> usize {
        // The count needs no values: the model as it is, written up to date or not.
        burn::module::Module::num_params(self.model.as_ref().expect("the model is only taken during a step"))
    }

    /// Train with burn's composed autodiff even where the fused CPU step applies
    /// (benchmarks and the tests that compare the two).
    pub fn force_composed(&mut self) {
        self.model_mut(); // its values written in, the plain copy dropped
        self.forced_composed = true;
        self.backend.info.composed_because = Some("asked for".to_string());
    }

    /// Call when training pauses, so the pause does not count as a slow step.
    pub fn pause_timer(&mut self) {
        self.timer.pause();
    }

    /// Change the step budget (`config.steps`). Nothing else reads it while
    /// training, so a run trained on to a larger budget matches one asked for it.
    pub fn set_step_budget(&mut self, steps: usize) {
        self.config.steps = steps;
    }

    pub fn is_done(&self) -> bool {
        self.step >= self.config.steps
    }

    /// What a run folder saves of this session.
    pub fn run_parts(&self) -> RunParts<'_> {
        RunParts {
            config: &self.config,
            history: &self.history,
            model: self.model(),
            step: self.step,
            parameters: self.parameters(),
            backend: &self.backend.info.used,
        }
    }

    /// Save this session as a run folder.
    pub fn save(&self, dir: &std::path::Path) -> Result<(), crate::runs::RunError> {
        crate::runs::save_run(dir, &self.run_parts())
    }

    /// A new session from a run folder, on the backend its config names.
    pub fn load(dir: &std::path::Path) -> Result<Self, crate::runs::RunError> {
        let stored = crate::runs::read_run(dir)?;
        let mut session = Session::new(stored.config.clone()).map_err(|source| crate::runs::RunError::Config {
            path: stored.config_path.clone(),
            why: source.to_string(),
        })?;
        let history = stored.read_history()?;
        let model = crate::runs::read_weights(&stored.weights_path, session.model())?;
        session.restore(model, history);
        Ok(session)
    }

    /// Put loaded weights and metrics in place (run folders).
    pub fn restore(&mut self, model: Transformer, history: MetricsHistory) {
        self.step = history.steps.last().map(|s| s.step).unwrap_or(0);
        self.set_model(model);
        self.history = history;
    }

    /// Learning rate at a step: linear warm-up, then constant.
    pub fn lr_at(&self, step: usize) -> f64 {
        let warmup = self.config.warmup_steps;
        if warmup > 0 && step < warmup {
            self.config.lr * (step + 1) as f64 / warmup as f64
        } else {
            self.config.lr
        }
    }

    /// Use a typed sequence as the probe; the error says which token is unknown.
    pub fn set_probe(&mut self, text: &str) -> Result<(), String> {
        let probe = parse_probe(self.task.as_ref(), text)?;
        // A seq2seq model reads the whole frame: the source, the separator, the target.
        if self.config.model.family.is_seq2seq() && probe.len() != self.task.seq_len() {
            let source_len = self.task.source_len().unwrap_or(0);
            return Err(t!("err-session-probe-frame", family = self.config.model.family.name(), words = source_len));
        }
        if probe.len() > self.config.model.max_len {
            return Err(t!("err-session-probe-too-long",
                tokens = probe.len(),
                max_len = self.config.model.max_len
            ));
        }
        self.probe = probe;
        Ok(())
    }

    /// Switch to a new config. Weights whose path and shape are unchanged are kept
    /// (with their optimizer state); the others start fresh from the seed.
    pub fn apply_config(&mut self, config: ExperimentConfig) -> Result<TransferReport, SessionError> {
        let mut next = Session::new(config)?;
        // Asking for other starting weights (`init_from`) is asking for a new start:
        // nothing of the current model is carried over on top of them.
        if next.config.init_source() != self.config.init_source() {
            let fresh = crate::model::param_shapes(next.model()).into_iter().map(|p| p.path).collect();
            *self = next;
            return Ok(TransferReport { kept: Vec::new(), fresh });
        }
        let same_task = next.config.task == self.config.task;
        let fresh = next.model.take().expect("new model");
        let (model, report) = transfer_matching(self.model(), fresh);
        next.set_model(model);
        if same_task {
            next.probe = self.probe.clone();
        }
        // The optimizer's state lives on the backend's device: keep it when that is
        // unchanged (whichever step path trains).
        let same_place = next.backend.kind == self.backend.kind && next.backend.info.used == self.backend.info.used && next.backend.info.adapter == self.backend.info.adapter;
        if next.config.optimizer == self.config.optimizer && same_place {
            next.optim = self.optim.clone();
        }
        if self.forced_composed {
            next.force_composed();
        }
        next.step = self.step;
        next.history = std::mem::take(&mut self.history);
        *self = next;
        Ok(report)
    }
}
