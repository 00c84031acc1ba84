//! A trained session being measured: what a claim's metrics share (one held-out
//! evaluation, one attention snapshot, one writing, one head sweep), each taken at
//! most once however many metrics read it.

use crate::t;
use crate::training::{AttentionSnapshot, EvalMetrics, GenerationReport, Session};

/// A trained session and what its metrics share: one held-out evaluation (which
/// also gives the generation loss) and one attention snapshot, each taken at most
/// once however many metrics read them.
pub struct Measuring<'a> {
    pub(super) session: &'a mut Session,
    eval: Option<EvalMetrics>,
    snapshot: Option<AttentionSnapshot>,
    writing: Option<Result<GenerationReport, String>>,
    head_sweep: Option<Result<super::SweepVerdict, String>>,
    /// How long each of the session's training steps took (ms), when known.
    step_times: &'a [f64],
    /// Asked before each step that measuring trains (the head sweep's): false stops it.
    go_on: &'a (dyn Fn() -> bool + Sync),
    /// `go_on` said stop: what was measured is not to be used.
    pub(super) stopped: bool,
}

/// Measuring that nobody stops.
fn never_stop() -> bool {
    true
}

impl<'a> Measuring<'a> {
    pub fn new(session: &'a mut Session) -> Self {
        Self { session, eval: None, snapshot: None, writing: None, head_sweep: None, step_times: &[], go_on: &never_stop, stopped: false }
    }

    /// With `go_on()` called before each training step that measuring takes (a
    /// claim's progress counts them); once it returns false, they stop and
    /// `stopped` is set.
    pub fn with_go_on(mut self, go_on: &'a (dyn Fn() -> bool + Sync)) -> Self {
        self.go_on = go_on;
        self
    }

    /// With the milliseconds each training step took (the head sweep reports them
    /// for the head count the session itself trained).
    pub fn with_step_times(mut self, times: &'a [f64]) -> Self {
        self.step_times = times;
        self
    }

    pub(super) fn eval(&mut self) -> EvalMetrics {
        self.eval.get_or_insert_with(|| self.session.evaluate()).clone()
    }

    /// The head sweep on this side's config, run once however many metrics read it.
    pub(super) fn head_sweep(&mut self) -> Result<super::SweepVerdict, String> {
        self.head_sweep
            .get_or_insert_with(|| {
                let Some(outcomes) = super::head_sweep::sweep_with_own_run(self.session, self.step_times, self.go_on) else {
                    self.stopped = true;
                    return Err(t!("rep-metric-heads-stopped"));
                };
                let refused: Vec<String> = outcomes.iter().filter_map(|o| match o {
                    super::HeadsOutcome::Refused { heads, message } => Some(format!("{heads}: {message}")),
                    _ => None,
                }).collect();
                match super::verdict(&outcomes) {
                    Some(v) if refused.is_empty() => Ok(v),
                    _ => Err(t!("rep-metric-heads-refused", why = refused.join("; "))),
                }
            })
            .clone()
    }

    pub(super) fn snapshot(&mut self) -> &AttentionSnapshot {
        self.snapshot.get_or_insert_with(|| self.session.attention_snapshot())
    }

    /// With the writing the writing metrics read, already timed (see
    /// `claim_side::write_in_turns`); None: written when first read.
    pub fn with_writing(mut self, writing: Option<Result<GenerationReport, String>>) -> Self {
        self.writing = writing;
        self
    }

    /// The model writing from the first `WRITING_PROMPT` probe tokens to its max_len,
    /// both ways, once.
    pub(super) fn writing(&mut self) -> Result<&GenerationReport, String> {
        let session = &*self.session;
        let writing = self.writing.get_or_insert_with(|| {
            let (prompt, count) = writing_to_write(session);
            session.compare_writing_ids(&prompt, count)
        });
        writing.as_ref().map_err(Clone::clone)
    }
}

/// What the writing metrics have the model write: the prompt, the first
/// `WRITING_PROMPT` probe tokens, and how many tokens after it (to max_len).
pub fn writing_to_write(session: &Session) -> (Vec<u32>, usize) {
    let prompt = session.default_prompt(WRITING_PROMPT);
    let count = session.config().model.max_len.saturating_sub(prompt.len());
    (prompt, count)
}

/// Prompt length of the writing metrics.
const WRITING_PROMPT: usize = 8;
