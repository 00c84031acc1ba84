//! What a learner has done, kept by stable ids so editing a lesson's text keeps it:
//! checks passed, claims verified, answers revealed and bug-hunt cases solved,
//! each with when (Unix seconds). The window remembers it; `export` writes the
//! file a student hands in and `report` merges a class's files. Plain data.

pub mod export;
pub mod report;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Now, in whole seconds since 1970 (UTC).
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `secs` since 1970 as `YYYY-MM-DD HH:MM` UTC.
pub fn format_time(secs: u64) -> String {
    let at = i64::try_from(secs).ok().and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok());
    match at {
        Some(at) => format!("{:04}-{:02}-{:02} {:02}:{:02}", at.year(), u8::from(at.month()), at.day(), at.hour(), at.minute()),
        // Past the year 9999: no date a progress file could honestly hold.
        None => secs.to_string(),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// Lesson id → what was done in it.
    pub lessons: BTreeMap<String, LessonProgress>,
    /// Bug-hunt case id → when it was named right.
    pub bugs_solved: BTreeMap<String, u64>,
    /// Bug-hunt case id → when its answer was shown before it was solved.
    pub bugs_revealed: BTreeMap<String, u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// Check id → when it first passed.
    pub checks: BTreeMap<String, u64>,
    /// Claim id → the last verification in the window.
    pub claims: BTreeMap<String, ClaimMark>,
    /// Answer id → when the learner first asked to see it.
    pub answers_revealed: BTreeMap<String, u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClaimMark {
    /// It held on every seed.
    pub passed: bool,
    pub at: u64,
    pub seeds: Vec<u64>,
}

impl Progress {
    pub fn lesson(&self, lesson: &str) -> Option<&LessonProgress> {
        self.lessons.get(lesson)
    }

    pub fn check_passed(&self, lesson: &str, check: &str) -> bool {
        self.lesson(lesson).is_some_and(|l| l.checks.contains_key(check))
    }

    pub fn answer_revealed(&self, lesson: &str, answer: &str) -> bool {
        self.lesson(lesson).is_some_and(|l| l.answers_revealed.contains_key(answer))
    }

    /// Record a passed check; the first time stays.
    pub fn pass_check(&mut self, lesson: &str, check: &str, at: u64) {
        self.lessons.entry(lesson.to_string()).or_default().checks.entry(check.to_string()).or_insert(at);
    }

    /// Record that the answer was shown; the first time stays.
    pub fn reveal_answer(&mut self, lesson: &str, answer: &str, at: u64) {
        self.lessons.entry(lesson.to_string()).or_default().answers_revealed.entry(answer.to_string()).or_insert(at);
    }

    /// Record a claim's verification; a pass is not undone by a later failure on other seeds.
    pub fn verify_claim(&mut self, lesson: &str, claim: &str, mark: ClaimMark) {
        let marks = &mut self.lessons.entry(lesson.to_string()).or_default().claims;
        if marks.get(claim).is_some_and(|m| m.passed) && !mark.passed {
            return;
        }
        marks.insert(claim.to_string(), mark);
    }

    pub fn solve_bug(&mut self, case: &str, at: u64) {
        self.bugs_solved.entry(case.to_string()).or_insert(at);
    }

    pub fn reveal_bug(&mut self, case: &str, at: u64) {
        self.bugs_revealed.entry(case.to_string()).or_insert(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc_dates() {
        assert_eq!(format_time(0), "1970-01-01 00:00");
        assert_eq!(format_time(1_796_035_200), "2026-11-30 10:40");
        assert_eq!(format_time(951_782_400), "2000-02-29 00:00");
    }

    #[test]
    fn the_first_pass_is_kept_and_a_later_failure_does_not_undo_a_claim() {
        let mut p = Progress::default();
        p.pass_check("01", "learns", 10);
        p.pass_check("01", "learns", 20);
        assert_eq!(p.lessons["01"].checks["learns"], 10);
        p.verify_claim("01", "c", ClaimMark { passed: true, at: 5, seeds: vec![0, 1, 2] });
        p.verify_claim("01", "c", ClaimMark { passed: false, at: 6, seeds: vec![3] });
        assert!(p.lessons["01"].claims["c"].passed);
    }
}
