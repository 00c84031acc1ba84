//! A teacher's view of a class: many students' progress files merged into one
//! table (CSV, one row per student, one column per check, claim, answer and
//! case) and a readable summary (who did how much, and how many did each item).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::export::ProgressFile;
use super::format_time;
use crate::t;

/// The merged class.
pub struct Report {
    /// (shown name, file, its content), in the order given.
    pub students: Vec<(String, PathBuf, ProgressFile)>,
    /// Column key ("lesson/check/id") → its heading label, in pack order.
    pub columns: Vec<(String, String)>,
    /// Files that could not be read, and why.
    pub unreadable: Vec<String>,
    /// Notes for the teacher: files from another pack or pack version.
    pub warnings: Vec<String>,
    /// For each student, column key → when it was done (None: not done).
    done: Vec<BTreeMap<String, Option<u64>>>,
}

/// Every (column key, label, done at) of one file, in pack order.
fn cells(file: &ProgressFile) -> Vec<(String, String, Option<u64>)> {
    let mut out = Vec::new();
    for lesson in &file.lessons {
        for (kind, items) in [("check", &lesson.checks), ("claim", &lesson.claims), ("answer", &lesson.answers_revealed)] {
            for item in items {
                out.push((format!("{}/{kind}/{}", lesson.id, item.id), item.label.clone(), item.at.filter(|_| item.done)));
            }
        }
    }
    for case in &file.bug_cases {
        out.push((format!("bug/{}", case.id), case.label.clone(), case.at.filter(|_| case.done)));
    }
    for case in &file.bug_answers_revealed {
        out.push((format!("bug-answer/{}", case.id), case.label.clone(), case.at.filter(|_| case.done)));
    }
    out
}

impl Report {
    pub fn merge(paths: &[PathBuf]) -> Report {
        let mut students = Vec::new();
        let mut unreadable = Vec::new();
        for path in paths {
            match super::export::read(path) {
                Ok(file) => {
                    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    let name = if file.student.is_empty() { stem } else { file.student.clone() };
                    students.push((name, path.clone(), file));
                }
                Err(e) => unreadable.push(e),
            }
        }
        let mut columns: Vec<(String, String)> = Vec::new();
        for (_, _, file) in &students {
            for (key, label, _) in cells(file) {
                if !columns.iter().any(|(k, _)| *k == key) {
                    columns.push((key, label));
                }
            }
        }
        let mut warnings = Vec::new();
        if let Some((_, _, first)) = students.first() {
            for (name, path, file) in &students[1..] {
                if file.pack.id != first.pack.id || file.pack.version != first.pack.version {
                    warnings.push(t!(
                        "rep-report-other-pack",
                        student = name.as_str(),
                        file = path.display().to_string(),
                        pack = format!("{} {}", file.pack.id, file.pack.version),
                        first = format!("{} {}", first.pack.id, first.pack.version)
                    ));
                }
            }
        }
        let done = students.iter().map(|(_, _, file)| cells(file).into_iter().map(|(k, _, at)| (k, at)).collect()).collect();
        Report { students, columns, unreadable, warnings, done }
    }

    /// How many students did the item in column `key`.
    fn students_done(&self, key: &str) -> usize {
        self.done.iter().filter(|done| done.get(key).copied().flatten().is_some()).count()
    }

    /// One row per student: name, file, pack, exported, the done counts, then one
    /// column per item holding when it was done (empty: not done).
    pub fn csv(&self) -> String {
        let mut out = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["student".to_string(), "file".into(), "pack".into(), "pack_version".into(), "exported".into(), "done".into(), "of".into()];
        header.extend(self.columns.iter().map(|(k, _)| k.clone()));
        out.write_record(&header).expect("a CSV row into memory");
        for ((name, path, file), done) in self.students.iter().zip(&self.done) {
            // Opening an answer is shown, not scored.
            let scored: Vec<&Option<u64>> = done.iter().filter(|(k, _)| !is_answer(k)).map(|(_, at)| at).collect();
            let count = scored.iter().filter(|at| at.is_some()).count();
            let mut row = vec![
                name.clone(),
                path.display().to_string(),
                file.pack.id.clone(),
                file.pack.version.clone(),
                format_time(file.exported_at),
                count.to_string(),
                scored.len().to_string(),
            ];
            row.extend(self.columns.iter().map(|(k, _)| done.get(k).copied().flatten().map(format_time).unwrap_or_default()));
            out.write_record(&row).expect("a CSV row into memory");
        }
        String::from_utf8(out.into_inner().expect("CSV into memory")).expect("UTF-8 cells give UTF-8 CSV")
    }

    /// Who did how much, then how many students did each item (fewest first, so
    /// what the class is stuck on comes first).
    pub fn summary(&self) -> String {
        let mut out = String::new();
        // Answers opened are listed apart, not counted among the things to do.
        let to_do = self.columns.iter().filter(|(key, _)| !is_answer(key)).count();
        out.push_str(&t!("rep-report-heading", students = self.students.len(), items = to_do));
        out.push('\n');
        for line in self.unreadable.iter().chain(&self.warnings) {
            out.push_str(&format!("⚠ {line}\n"));
        }
        for ((name, _, file), done) in self.students.iter().zip(&self.done) {
            let scored: Vec<&Option<u64>> = done.iter().filter(|(k, _)| !is_answer(k)).map(|(_, at)| at).collect();
            let (total, done) = (scored.len(), scored.iter().filter(|at| at.is_some()).count());
            let revealed = file.lessons.iter().flat_map(|l| &l.answers_revealed).chain(&file.bug_answers_revealed).filter(|a| a.done).count();
            out.push_str(&format!("  {}\n", t!("rep-report-student", student = name.as_str(), done = done, total = total, revealed = revealed)));
        }
        let mut counts: Vec<(usize, &String, &String)> = self
            .columns
            .iter()
            .filter(|(key, _)| !is_answer(key))
            .map(|(key, label)| (self.students_done(key), key, label))
            .collect();
        counts.sort_by_key(|(n, _, _)| *n);
        out.push_str(&t!("rep-report-items"));
        out.push('\n');
        for (n, key, label) in counts {
            out.push_str(&format!("  {n}/{}  {key}  {label}\n", self.students.len()));
        }
        let opened: Vec<String> = self
            .columns
            .iter()
            .filter(|(key, _)| is_answer(key))
            .map(|(key, label)| format!("  {}/{}  {key}  {label}", self.students_done(key), self.students.len()))
            .collect();
        if !opened.is_empty() {
            out.push_str(&t!("rep-report-answers"));
            out.push('\n');
            out.push_str(&opened.join("\n"));
            out.push('\n');
        }
        out
    }
}

/// Whether a column is an answer opened (reported, but not counted as work done).
fn is_answer(key: &str) -> bool {
    key.contains("/answer/") || key.starts_with("bug-answer/")
}
