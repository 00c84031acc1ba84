//! Running a lesson's claims headlessly, with several seeds: a claim must be true,
//! not lucky.

use serde::Serialize;

use super::{ClaimBlock, Lesson};
use crate::experiments::ClaimResult;
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

/// Run every claim of `lesson` with each of `seeds`. A claim's seeds train at the
/// same time unless it reads step times, so each report's `seconds` is the
/// claim's wall time shared equally among its seeds.
pub fn verify_lesson(lesson: &Lesson, seeds: &[u64]) -> Vec<ClaimReport> {
    let mut reports = Vec::new();
    for block in lesson.claims() {
        let start = std::time::Instant::now();
        let results = run_block(block, seeds);
        let seconds = start.elapsed().as_secs_f32() / seeds.len().max(1) as f32;
        match results {
            Ok(results) => reports.extend(results.into_iter().map(|r| ClaimReport {
                lesson: lesson.id.clone(),
                claim: r.statement,
                seed: r.seed,
                passed: r.passed,
                measured: r.measured,
                undefined: r.undefined,
                diverged: r.diverged.iter().map(|(k, d)| (k.clone(), d.to_string())).collect(),
                conditions: r.conditions,
                seconds,
            })),
            Err(message) => reports.extend(seeds.iter().map(|&seed| ClaimReport {
                lesson: lesson.id.clone(),
                claim: t!("err-verify-could-not-run", statement = block.claim.statement.as_str(), why = message.as_str()),
                seed,
                passed: false,
                measured: Default::default(),
                undefined: Default::default(),
                diverged: Default::default(),
                conditions: Vec::new(),
                seconds,
            })),
        }
    }
    reports
}

fn run_block(block: &ClaimBlock, seeds: &[u64]) -> Result<Vec<ClaimResult>, String> {
    let results = block.claim.run_seeds_observed(seeds, &mut |_| true).map_err(|e| e.to_string())?;
    Ok(results.expect("never cancelled"))
}
