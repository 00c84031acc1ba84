//! The lesson runner's state: which lessons are loaded, which one is open, which
//! checks have passed (remembered), the learner's own experiment kept aside while
//! a lesson's experiment is loaded, and claims verified in the background.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::config::ExperimentConfig;
use crate::experiments::ClaimResult;
use crate::lessons::{self, Lesson, LessonError, LiveFacts, Loaded};

/// A claim's background verification.
#[derive(Clone, Debug)]
pub enum ClaimState {
    /// Verifying with these seeds.
    Running(Vec<u64>),
    /// One result per seed, in seed order.
    Done(Vec<ClaimResult>),
    Failed(String),
}

pub struct LessonRunner {
    pub lessons: Vec<Loaded>,
    pub current: usize,
    /// The learner's experiment from before a lesson's start was loaded.
    pub saved_experiment: Option<ExperimentConfig>,
    /// The lesson whose experiment the live run is (loaded, or changed by one of its
    /// tries). Its tries build on the live model; other lessons' tries start from
    /// their own experiment, and only this lesson's checks may tick.
    pub experiment_of: Option<String>,
    /// "what this button changed" lines of the last `try`, by (lesson id, block line).
    pub last_diff: Option<((String, usize), Vec<String>)>,
    /// Checks whose "check now" failed, so their hint shows.
    pub hints_shown: BTreeSet<(String, usize)>,
    pub claims: BTreeMap<(String, usize), ClaimState>,
    claim_tx: Sender<((String, usize), Result<Vec<ClaimResult>, String>)>,
    claim_rx: Receiver<((String, usize), Result<Vec<ClaimResult>, String>)>,
}

impl Default for LessonRunner {
    fn default() -> Self {
        let (claim_tx, claim_rx) = channel();
        Self {
            lessons: lessons::builtin_in(crate::i18n::lang()),
            current: 0,
            saved_experiment: None,
            experiment_of: None,
            last_diff: None,
            hints_shown: BTreeSet::new(),
            claims: BTreeMap::new(),
            claim_tx,
            claim_rx,
        }
    }
}

impl LessonRunner {
    pub fn lesson(&self) -> Option<&Lesson> {
        self.lessons.get(self.current).and_then(|l| l.as_ref().ok())
    }

    pub fn error(&self) -> Option<&LessonError> {
        self.lessons.get(self.current).and_then(|l| l.as_ref().err())
    }

    /// Show the shipped lessons in `lang` (the same lessons, blocks and progress;
    /// a lesson without a translation stays in English). Packs keep theirs.
    pub fn set_language(&mut self, lang: crate::i18n::Lang) {
        for (slot, lesson) in self.lessons.iter_mut().zip(lessons::builtin_in(lang)) {
            *slot = lesson;
        }
    }

    /// Open a lesson by id (the remembered one at launch).
    pub fn open_id(&mut self, id: &str) {
        if let Some(i) = self.lessons.iter().position(|l| l.as_ref().is_ok_and(|l| l.id == id)) {
            self.current = i;
        }
    }

    /// Add a teacher's lessons; returns how many loaded and the errors.
    pub fn add_pack(&mut self, path: &std::path::Path) -> Result<(usize, Vec<String>), String> {
        let loaded = lessons::load_path_in(path, crate::i18n::lang())?;
        let errors: Vec<String> = loaded.iter().filter_map(|l| l.as_ref().err().map(|e| e.to_string())).collect();
        let first_new = self.lessons.len();
        let count = loaded.len();
        self.lessons.extend(loaded);
        self.current = first_new;
        Ok((count, errors))
    }

    /// Whether the live run is the open lesson's experiment.
    pub fn runs_this_lesson(&self) -> bool {
        self.lesson().is_some_and(|l| self.experiment_of.as_deref() == Some(l.id.as_str()))
    }

    /// Tick every check of the open lesson that the live facts satisfy, when the
    /// live run is that lesson's experiment (loaded or changed by its tries): a run
    /// left over from another lesson or experiment proves nothing.
    pub fn tick_checks(&self, facts: &LiveFacts, progress: &mut BTreeMap<String, BTreeSet<usize>>) {
        let Some(lesson) = self.lesson() else { return };
        if !self.runs_this_lesson() {
            return;
        }
        for check in lesson.checks() {
            if check.condition.evaluate(facts) == Some(true) {
                progress.entry(lesson.id.clone()).or_default().insert(check.line);
            }
        }
    }

    /// Verify a claim of the open lesson on a background thread, with the same
    /// seeds as `lesson verify`.
    pub fn verify_claim(&mut self, line: usize) {
        let Some(lesson) = self.lesson() else { return };
        let Some(block) = lesson.claims().find(|c| c.line == line) else { return };
        let key = (lesson.id.clone(), line);
        let claim = block.claim.clone();
        let tx = self.claim_tx.clone();
        let seeds = lessons::DEFAULT_SEEDS.to_vec();
        self.claims.insert(key.clone(), ClaimState::Running(seeds.clone()));
        std::thread::Builder::new()
            .name("claim".into())
            .spawn(move || {
                let result = seeds.iter().map(|&seed| claim.run(seed)).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string());
                let _ = tx.send((key, result));
            })
            .expect("spawn a claim thread");
    }

    /// Collect finished verifications.
    pub fn drain(&mut self) {
        while let Ok((key, result)) = self.claim_rx.try_recv() {
            let state = match result {
                Ok(r) => ClaimState::Done(r),
                Err(e) => ClaimState::Failed(e),
            };
            self.claims.insert(key, state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_tick_only_on_the_lessons_own_run_and_stay_ticked() {
        let mut runner = LessonRunner::default();
        let id = runner.lesson().expect("lesson 01").id.clone();
        let facts = LiveFacts { step: 600, eval_step: Some(600), eval_accuracy: Some(1.0), ..LiveFacts::default() };
        let mut progress = BTreeMap::new();
        runner.tick_checks(&facts, &mut progress);
        assert!(progress.is_empty(), "a run that is not lesson 01's experiment proves nothing about it");
        runner.experiment_of = Some("02-qkv-by-hand".into());
        runner.tick_checks(&facts, &mut progress);
        assert!(progress.is_empty(), "another lesson's run proves nothing either");
        runner.experiment_of = Some(id.clone());
        runner.tick_checks(&facts, &mut progress);
        assert_eq!(progress[&id].len(), 1);
        let worse = LiveFacts { step: 700, eval_step: Some(700), eval_accuracy: Some(0.1), ..LiveFacts::default() };
        runner.tick_checks(&worse, &mut progress);
        assert_eq!(progress[&id].len(), 1, "a passed check stays passed");
    }
}
