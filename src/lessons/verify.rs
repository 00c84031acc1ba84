//! Running a lesson's claims headlessly, with several seeds: a claim must be true,
//! not lucky.

use serde::Serialize;

use super::{ClaimBlock, Lesson};
use crate::experiments::ClaimOutcome;
use crate::t;

/// The seeds a claim is verified with, by `lesson verify` and by the window's
/// "Verify it" alike: a claim must hold for each.
pub const DEFAULT_SEEDS: [u64; 3] = [0, 1, 2];

/// One claim checked with one seed.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimReport {
    pub lesson: String,
    pub claim: String,
    pub seed: u64,
    pub passed: bool,
    pub measured: std::collections::BTreeMap<String, f64>,
    /// Measurements with no value, and why.
    pub undefined: std::collections::BTreeMap<String, String>,
    /// Sides that diverged ("a" → "diverged at step 12 (layer 0 attention)").
    pub diverged: std::collections::BTreeMap<String, String>,
    pub conditions: Vec<crate::experiments::ConditionResult>,
    pub seconds: f32,
}

/// Run every claim of `lesson` with each of `seeds` (see `verify_lessons`).
pub fn verify_lesson(lesson: &Lesson, seeds: &[u64]) -> Vec<ClaimReport> {
    let mut reports = Vec::new();
    verify_lessons(&[lesson], seeds, &mut |report| reports.push(report));
    reports
}

/// Run every claim of `lessons` with each of `seeds`, handing each report to
/// `each`, in lesson and claim order. All the claims' seeds and sides share the
/// cores (`run_claims`), except a claim that reads times (of steps or of
/// writing), which runs alone.
/// A report's `seconds` is the time its seed's sides take to train and be
/// measured, each as if alone, spread over the cores (a timed claim: its wall
/// time divided by its seeds).
pub fn verify_lessons(lessons: &[&Lesson], seeds: &[u64], each: &mut (dyn FnMut(ClaimReport) + Send)) {
    let blocks: Vec<(&str, &ClaimBlock)> = lessons.iter().flat_map(|l| l.claims().map(move |b| (l.id.as_str(), b))).collect();
    let claims: Vec<&crate::experiments::Claim> = blocks.iter().map(|(_, b)| &b.claim).collect();
    crate::experiments::run_claims(&claims, seeds, &mut |index, outcome| {
        let (lesson, block) = blocks[index];
        for report in reports(lesson, block, seeds, outcome) {
            each(report);
        }
    });
}

/// A claim's outcome as one report per seed.
fn reports(lesson: &str, block: &ClaimBlock, seeds: &[u64], outcome: ClaimOutcome) -> Vec<ClaimReport> {
    let ClaimOutcome { results, seconds } = outcome;
    let seconds_of = |i: usize| seconds.get(i).copied().unwrap_or(0.0);
    match results {
        Ok(results) => results
            .into_iter()
            .enumerate()
            .map(|(i, r)| ClaimReport {
                lesson: lesson.to_string(),
                claim: r.statement,
                seed: r.seed,
                passed: r.passed,
                measured: r.measured,
                undefined: r.undefined,
                diverged: r.diverged.iter().map(|(k, d)| (k.clone(), d.to_string())).collect(),
                conditions: r.conditions,
                seconds: seconds_of(i),
            })
            .collect(),
        Err(message) => seeds
            .iter()
            .enumerate()
            .map(|(i, &seed)| ClaimReport {
                lesson: lesson.to_string(),
                claim: t!("err-verify-could-not-run", statement = block.claim.statement.as_str(), why = message.as_str()),
                seed,
                passed: false,
                measured: Default::default(),
                undefined: Default::default(),
                diverged: Default::default(),
                conditions: Vec::new(),
                seconds: seconds_of(i),
            })
            .collect(),
    }
}
