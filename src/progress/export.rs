//! The file a student hands in: "Export my progress" writes it, `lesson report`
//! reads many. JSON with a format name and a version, so a later app can read
//! today's files; every check, claim, answer and case of the pack is listed, done
//! or not, so a report has the same columns for every student.

use serde::{Deserialize, Serialize};

use super::Progress;
use crate::lessons::pack::PackInfo;
use crate::lessons::{BugCase, Lesson};

pub const FORMAT: &str = "attention-workbench-progress";
/// Bump when a field changes meaning; readers refuse versions they do not know.
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgressFile {
    pub format: String,
    pub version: u32,
    /// The name the student typed (may be empty: the report then uses the file name).
    pub student: String,
    pub exported_at: u64,
    pub app_version: String,
    pub pack: PackRef,
    pub lessons: Vec<LessonEntry>,
    /// done: the case was named right.
    pub bug_cases: Vec<Item>,
    /// done: the case's answer was shown before it was named right.
    #[serde(default)]
    pub bug_answers_revealed: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackRef {
    pub id: String,
    pub title: String,
    pub version: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonEntry {
    pub id: String,
    pub title: String,
    /// done: the check passed on the lesson's own run.
    pub checks: Vec<Item>,
    /// done: the claim held on every seed verified in the window.
    pub claims: Vec<Item>,
    /// done: the student asked to see the answer.
    pub answers_revealed: Vec<Item>,
}

/// One thing to do; `at` is when it was done (Unix seconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub label: String,
    pub done: bool,
    pub at: Option<u64>,
}

/// The student's progress on `lessons` and `cases` of one pack.
pub fn build(pack: &PackInfo, lessons: &[&Lesson], cases: &[&BugCase], progress: &Progress, student: &str, now: u64) -> ProgressFile {
    let item = |id: &str, label: &str, at: Option<u64>| Item { id: id.to_string(), label: label.to_string(), done: at.is_some(), at };
    let lessons = lessons
        .iter()
        .map(|lesson| {
            let done = progress.lesson(&lesson.id);
            LessonEntry {
                id: lesson.id.clone(),
                title: lesson.title.clone(),
                checks: lesson.checks().map(|c| item(&c.id, &c.label, done.and_then(|d| d.checks.get(&c.id).copied()))).collect(),
                claims: lesson
                    .claims()
                    .map(|c| item(&c.id, &c.claim.statement, done.and_then(|d| d.claims.get(&c.id)).filter(|m| m.passed).map(|m| m.at)))
                    .collect(),
                answers_revealed: lesson
                    .answers()
                    .enumerate()
                    .map(|(i, a)| {
                        let label = crate::t!("rep-answer-label", lesson = lesson.title.as_str(), number = i + 1);
                        item(&a.id, &label, done.and_then(|d| d.answers_revealed.get(&a.id).copied()))
                    })
                    .collect(),
            }
        })
        .collect();
    ProgressFile {
        format: FORMAT.to_string(),
        version: VERSION,
        student: student.trim().to_string(),
        exported_at: now,
        app_version: env!("CARGO_PKG_VERSION").to_string(),
        pack: PackRef { id: pack.id.clone(), title: pack.title.clone(), version: pack.version.clone() },
        lessons,
        bug_cases: cases.iter().map(|c| item(&c.id, &c.title, progress.bugs_solved.get(&c.id).copied())).collect(),
        bug_answers_revealed: cases.iter().map(|c| item(&c.id, &c.title, progress.bugs_revealed.get(&c.id).copied())).collect(),
    }
}

/// Read a progress file; the error names the file and what is wrong with it.
pub fn read(path: &std::path::Path) -> Result<ProgressFile, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| crate::t!("err-progress-read", file = shown.to_string(), why = e.to_string()))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| crate::t!("err-progress-read", file = shown.to_string(), why = e.to_string()))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(crate::t!("err-progress-not-progress", file = shown.to_string()));
    }
    let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
    if version != u64::from(VERSION) {
        return Err(crate::t!("err-progress-version", file = shown.to_string(), version = version, known = VERSION));
    }
    serde_json::from_value(value).map_err(|e| crate::t!("err-progress-read", file = shown.to_string(), why = e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_lists_every_item_and_marks_the_done_ones() {
        let lesson = crate::lessons::builtin().remove(0).unwrap();
        let check = lesson.checks().next().unwrap().id.clone();
        let mut progress = Progress::default();
        progress.pass_check(&lesson.id, &check, 42);
        progress.solve_bug("peeking", 43);
        let cases = crate::bughunt::cases();
        let file = build(&PackInfo::builtin(), &[&lesson], &cases.iter().collect::<Vec<_>>(), &progress, " Ada ", 50);
        assert_eq!((file.format.as_str(), file.version, file.student.as_str()), (FORMAT, VERSION, "Ada"));
        let checks = &file.lessons[0].checks;
        assert_eq!(checks.len(), lesson.checks().count());
        assert!(checks.iter().any(|c| c.id == check && c.done && c.at == Some(42)));
        assert_eq!(file.bug_cases.iter().filter(|c| c.done).count(), 1);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(read(&path).unwrap(), file);
        std::fs::write(&path, serde_json::to_string(&file).unwrap().replace("\"version\":1", "\"version\":9")).unwrap();
        assert!(read(&path).unwrap_err().contains('9'));
        std::fs::write(&path, "{\"hello\": 1}").unwrap();
        assert!(read(&path).unwrap_err().contains("p.json"));
    }
}
