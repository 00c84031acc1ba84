//! The lesson runner's state: which packs, lessons and bug-hunt cases are loaded, which one is open, which
//! checks have passed (remembered), the learner's own experiment kept aside while
//! a lesson's experiment is loaded, and how the claims' verifications stand (the
//! app runs them off the window's thread).

use crate::workbench::step_progress::StepProgress;
use std::collections::{BTreeMap, BTreeSet};

use crate::config::ExperimentConfig;
use crate::experiments::ClaimResult;
use crate::lessons::pack::{self, PackInfo};
use crate::lessons::{self, BugCase, Lesson, LessonError, LiveFacts, Loaded, Locks};
use crate::progress::{ClaimMark, Progress};

/// A claim's verification.
#[derive(Clone, Debug)]
pub enum ClaimState {
    /// Verifying with these seeds; its training steps so far, of all seeds'; and
    /// whether Cancel was pressed (the thread stops at its next step).
    Running { seeds: Vec<u64>, progress: StepProgress, cancelling: bool },
    /// One result per seed, in seed order.
    Done(Vec<ClaimResult>),
    Failed(String),
}

pub struct LessonRunner {
    /// The packs open, the shipped one first.
    pub packs: Vec<PackInfo>,
    pub lessons: Vec<Loaded>,
    /// For each lesson, the index of its pack in `packs`.
    pub lesson_pack: Vec<usize>,
    /// Every pack's bug-hunt cases, and each one's pack.
    pub cases: Vec<BugCase>,
    pub case_pack: Vec<usize>,
    pub current: usize,
    /// The learner's experiment from before a lesson's start was loaded.
    pub saved_experiment: Option<ExperimentConfig>,
    /// The lesson whose experiment the live run is (loaded, or changed by one of its
    /// tries). Its tries build on the live model; other lessons' tries start from
    /// their own experiment, and only this lesson's checks may tick.
    pub experiment_of: Option<String>,
    /// "what this button changed" lines of the last `try`, by (lesson id, block line).
    pub last_diff: Option<((String, usize), Vec<String>)>,
    /// Checks whose "check now" failed, so their hint shows: (lesson id, check id).
    pub hints_shown: BTreeSet<(String, String)>,
    /// Claim verifications by (lesson id, claim id).
    pub claims: BTreeMap<(String, String), ClaimState>,
    /// The verdict a running re-verification replaced: a cancel brings it back.
    replaced_verdict: Option<(ClaimKey, ClaimState)>,
}

/// A claim: (lesson id, claim id).
pub type ClaimKey = (String, String);

/// How a verification ended, for the window to say and to resume the live run.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimEnd {
    Finished,
    Cancelled,
    /// Cancelled while verifying again: the earlier verdict is shown again.
    CancelledKeepingVerdict,
}

impl Default for LessonRunner {
    fn default() -> Self {
        let mut runner = Self {
            packs: Vec::new(),
            lessons: Vec::new(),
            lesson_pack: Vec::new(),
            cases: Vec::new(),
            case_pack: Vec::new(),
            current: 0,
            saved_experiment: None,
            experiment_of: None,
            last_diff: None,
            hints_shown: BTreeSet::new(),
            claims: BTreeMap::new(),
            replaced_verdict: None,
        };
        runner.insert(pack::builtin(crate::i18n::lang()));
        runner
    }
}

impl LessonRunner {
    pub fn lesson(&self) -> Option<&Lesson> {
        self.lessons.get(self.current).and_then(|l| l.as_ref().ok())
    }

    pub fn error(&self) -> Option<&LessonError> {
        self.lessons.get(self.current).and_then(|l| l.as_ref().err())
    }

    /// The pack of the open lesson.
    pub fn current_pack(&self) -> &PackInfo {
        &self.packs[self.current_pack_index()]
    }

    /// The index in `packs` of the open lesson's pack.
    pub fn current_pack_index(&self) -> usize {
        let index = self.lesson_pack.get(self.current).copied().unwrap_or(0);
        index.min(self.packs.len() - 1)
    }

    /// The lessons of the pack at `index` that read without error.
    pub fn pack_lessons(&self, index: usize) -> Vec<&Lesson> {
        self.lessons.iter().zip(&self.lesson_pack).filter(|(_, p)| **p == index).filter_map(|(l, _)| l.as_ref().ok()).collect()
    }

    pub fn pack_cases(&self, index: usize) -> Vec<&BugCase> {
        self.cases.iter().zip(&self.case_pack).filter(|(_, p)| **p == index).map(|(c, _)| c).collect()
    }

    /// The remembered pack paths that are not open (gone, or unreadable now).
    pub fn not_open(&self, remembered: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
        remembered.iter().filter(|path| !self.packs.iter().any(|p| p.root.as_ref() == Some(*path))).cloned().collect()
    }

    pub fn pack_index(&self, id: &str) -> Option<usize> {
        self.packs.iter().position(|p| p.id == id)
    }

    /// Show every pack in `lang` (the same lessons, blocks and progress; a lesson
    /// without a translation stays in English); the open lesson stays open.
    pub fn set_language(&mut self, lang: crate::i18n::Lang) {
        let open = self.lesson().map(|l| l.id.clone());
        let roots: Vec<std::path::PathBuf> = self.packs.iter().filter_map(|p| p.root.clone()).collect();
        let (lessons, packs) = (std::mem::take(&mut self.lessons), std::mem::take(&mut self.packs));
        self.lesson_pack.clear();
        self.cases.clear();
        self.case_pack.clear();
        self.insert(pack::builtin(lang));
        for root in roots {
            if let Ok(p) = pack::load_pack(&root, lang) {
                self.insert(p);
            }
        }
        if self.lessons.is_empty() {
            (self.lessons, self.packs) = (lessons, packs);
            self.lesson_pack = vec![0; self.lessons.len()];
        }
        // A pack that could not be read again took its lessons with it.
        self.current = 0;
        if let Some(id) = open {
            self.open_id(&id);
        }
    }

    /// Open a lesson by id (the remembered one at launch).
    pub fn open_id(&mut self, id: &str) {
        if let Some(i) = self.lessons.iter().position(|l| l.as_ref().is_ok_and(|l| l.id == id)) {
            self.current = i;
        }
    }

    /// Open a teacher's pack and show its first lesson; opening one already open
    /// reads it again. Returns how many lessons and cases loaded, and the errors
    /// (each naming its file).
    pub fn add_pack(&mut self, path: &std::path::Path) -> Result<(usize, Vec<String>), String> {
        let loaded = pack::load_pack(path, crate::i18n::lang())?;
        let mut errors: Vec<String> = loaded.errors().iter().map(|e| e.to_string()).collect();
        if let Some(old) = self.pack_index(&loaded.info.id) {
            self.remove_pack(old);
        }
        let count = loaded.lessons.len() + loaded.cases.len();
        let first_new = self.lessons.len();
        errors.extend(self.insert(loaded));
        if first_new < self.lessons.len() {
            self.current = first_new;
        }
        Ok((count, errors))
    }

    /// Open the packs remembered from before; the errors of those that cannot be
    /// opened now (they stay remembered: a drive may be unplugged).
    pub fn reopen(&mut self, paths: &[std::path::PathBuf]) -> Vec<String> {
        let errors = paths.iter().filter_map(|path| self.add_pack(path).err()).collect();
        self.current = 0;
        errors
    }

    /// Close the pack at `index` (never the shipped one).
    pub fn remove_pack(&mut self, index: usize) {
        if index == 0 || index >= self.packs.len() {
            return;
        }
        let open = self.lesson().map(|l| l.id.clone());
        let keep = |p: &usize| *p != index;
        let lessons: Vec<(Loaded, usize)> = std::mem::take(&mut self.lessons).into_iter().zip(std::mem::take(&mut self.lesson_pack)).filter(|(_, p)| keep(p)).collect();
        let cases: Vec<(BugCase, usize)> = std::mem::take(&mut self.cases).into_iter().zip(std::mem::take(&mut self.case_pack)).filter(|(_, p)| keep(p)).collect();
        let shift = |p: usize| if p > index { p - 1 } else { p };
        (self.lessons, self.lesson_pack) = lessons.into_iter().map(|(l, p)| (l, shift(p))).unzip();
        (self.cases, self.case_pack) = cases.into_iter().map(|(c, p)| (c, shift(p))).unzip();
        self.packs.remove(index);
        self.current = 0;
        if let Some(id) = open {
            self.open_id(&id);
        }
    }

    /// Add a read pack; a case whose id another pack already uses is left out
    /// (the returned errors say so).
    fn insert(&mut self, loaded: pack::Pack) -> Vec<String> {
        let index = self.packs.len();
        self.packs.push(loaded.info);
        let mut errors = Vec::new();
        // Progress is kept by lesson id: a second lesson with an id already open
        // stands as an error in its place instead of sharing the other's ticks.
        for lesson in loaded.lessons {
            let taken = lesson.as_ref().ok().and_then(|l| self.lessons.iter().flatten().find(|o| o.id == l.id).map(|o| (l, o)));
            let lesson = match taken {
                Some((l, other)) => {
                    let error = pack::lesson_id_taken(l, other);
                    errors.push(error.to_string());
                    Err(error)
                }
                None => lesson,
            };
            self.lessons.push(lesson);
            self.lesson_pack.push(index);
        }
        for case in loaded.cases.into_iter().flatten() {
            if let Some(other) = self.cases.iter().find(|c| c.id == case.id) {
                errors.push(pack::case_id_taken(&case, other).to_string());
                continue;
            }
            self.cases.push(case);
            self.case_pack.push(index);
        }
        errors
    }

    /// Whether the live run is the open lesson's experiment.
    pub fn runs_this_lesson(&self) -> bool {
        self.lesson().is_some_and(|l| self.experiment_of.as_deref() == Some(l.id.as_str()))
    }

    /// The knobs fixed now: the locks of the lesson whose experiment is loaded,
    /// whichever lesson is open (reading another lesson does not unlock them).
    pub fn active_locks(&self) -> Option<&Locks> {
        let owner = self.experiment_of.as_deref()?;
        self.lessons.iter().flatten().find(|l| l.id == owner).map(|l| &l.locks).filter(|l| !l.is_empty())
    }

    /// Tick every check of the open lesson that the live facts satisfy, when the
    /// live run is that lesson's experiment (loaded or changed by its tries): a run
    /// left over from another lesson or experiment proves nothing.
    pub fn tick_checks(&self, facts: &LiveFacts, progress: &mut Progress) {
        let Some(lesson) = self.lesson() else { return };
        if !self.runs_this_lesson() {
            return;
        }
        for check in lesson.checks() {
            if facts.task == Some(check.task) && check.condition.evaluate(facts) == Some(true) && !progress.check_passed(&lesson.id, &check.id) {
                progress.pass_check(&lesson.id, &check.id, crate::progress::now());
            }
        }
    }

    /// Whether a claim is being verified (at most one is).
    pub fn claim_running(&self) -> bool {
        self.claims.values().any(|state| matches!(state, ClaimState::Running { .. }))
    }

    /// The verification that runs: its fraction done and what it is, for the progress bar.
    pub fn claim_progress(&self) -> Option<StepProgress> {
        self.claims.values().find_map(|state| match state {
            ClaimState::Running { progress, .. } => Some(*progress),
            _ => None,
        })
    }

    /// Whether Cancel was pressed on the running verification.
    pub fn claim_cancel_pressed(&self) -> bool {
        self.claims.values().any(|state| matches!(state, ClaimState::Running { cancelling: true, .. }))
    }

    /// A claim of the open lesson to verify with the same seeds as `lesson verify`,
    /// marked as running; None when another verification still runs or there is no
    /// such claim. The app runs it off the window's thread.
    pub fn begin_claim(&mut self, id: &str) -> Option<(ClaimKey, crate::experiments::Claim, Vec<u64>)> {
        if self.claim_running() {
            return None;
        }
        let lesson = self.lesson()?;
        let block = lesson.claims().find(|c| c.id == id)?;
        let key = (lesson.id.clone(), block.id.clone());
        let claim = block.claim.clone();
        let seeds = lessons::DEFAULT_SEEDS.to_vec();
        let total = claim.steps_in_all(&seeds);
        let earlier = self.claims.insert(key.clone(), ClaimState::Running { seeds: seeds.clone(), progress: StepProgress::new(total), cancelling: false });
        self.replaced_verdict = earlier.map(|state| (key.clone(), state));
        Some((key, claim, seeds))
    }

    /// Cancel was pressed on the running verification: it says so until the
    /// thread has stopped.
    pub fn claim_cancelling(&mut self) {
        for state in self.claims.values_mut() {
            if let ClaimState::Running { cancelling, .. } = state {
                *cancelling = true;
            }
        }
    }

    /// Training steps done so far by the running verification.
    pub fn claim_advanced(&mut self, key: &ClaimKey, now: usize) {
        if let Some(ClaimState::Running { progress, .. }) = self.claims.get_mut(key) {
            progress.advance(now);
        }
    }

    /// A verification ended: its results (None: cancelled) go into the learner's
    /// progress. Returns how it ended.
    pub fn claim_ended(&mut self, key: ClaimKey, result: Result<Option<Vec<ClaimResult>>, String>, progress: &mut Progress) -> ClaimEnd {
        match result {
            Ok(Some(results)) => {
                let mark = ClaimMark {
                    passed: !results.is_empty() && results.iter().all(|r| r.passed),
                    at: crate::progress::now(),
                    seeds: results.iter().map(|r| r.seed).collect(),
                };
                progress.verify_claim(&key.0, &key.1, mark);
                self.claims.insert(key, ClaimState::Done(results));
                ClaimEnd::Finished
            }
            Ok(None) => match self.replaced_verdict.take().filter(|(k, _)| *k == key) {
                // Verify again, cancelled: the earlier verdict stands (and stays in the progress).
                Some((_, earlier)) => {
                    self.claims.insert(key, earlier);
                    ClaimEnd::CancelledKeepingVerdict
                }
                None => {
                    self.claims.remove(&key);
                    ClaimEnd::Cancelled
                }
            },
            Err(e) => {
                self.claims.insert(key, ClaimState::Failed(e));
                ClaimEnd::Finished
            }
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
        let facts = LiveFacts { step: 600, task: Some(crate::tasks::TaskKind::Lookup), eval_step: Some(600), eval_accuracy: Some(1.0), ..LiveFacts::default() };
        let mut progress = Progress::default();
        runner.tick_checks(&facts, &mut progress);
        assert!(progress.lessons.is_empty(), "a run that is not lesson 01's experiment proves nothing about it");
        runner.experiment_of = Some("02-qkv-by-hand".into());
        runner.tick_checks(&facts, &mut progress);
        assert!(progress.lessons.is_empty(), "another lesson's run proves nothing either");
        runner.experiment_of = Some(id.clone());
        runner.tick_checks(&facts, &mut progress);
        assert_eq!(progress.lessons[&id].checks.len(), 1);
        let worse = LiveFacts { step: 700, eval_step: Some(700), eval_accuracy: Some(0.1), ..LiveFacts::default() };
        runner.tick_checks(&worse, &mut progress);
        assert_eq!(progress.lessons[&id].checks.len(), 1, "a passed check stays passed");
    }

    #[test]
    fn a_check_ticks_only_for_a_run_of_its_own_task() {
        // Lesson 07: after only the brackets try (bidirectional), the brackets run's
        // low generation loss must not tick "a causal model that learns the text".
        let mut runner = LessonRunner::default();
        runner.open_id("07-masks");
        let id = runner.lesson().expect("lesson 07").id.clone();
        assert_eq!(id, "07-masks");
        runner.experiment_of = Some(id.clone());
        let brackets = LiveFacts {
            step: 300,
            task: Some(crate::tasks::TaskKind::Brackets),
            eval_step: Some(300),
            eval_loss: Some(0.3),
            generation_loss: Some(0.6),
            ..LiveFacts::default()
        };
        let mut progress = Progress::default();
        runner.tick_checks(&brackets, &mut progress);
        assert!(progress.lessons.get(&id).is_none_or(|l| l.checks.is_empty()), "the brackets try ticked the character model's check");
        let char_lm = LiveFacts { task: Some(crate::tasks::TaskKind::CharLm), generation_loss: Some(2.4), ..brackets };
        runner.tick_checks(&char_lm, &mut progress);
        assert_eq!(progress.lessons[&id].checks.len(), 1, "the causal character model does tick it");
    }
}
