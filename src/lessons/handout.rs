//! A lesson as a handout for students without the app: a Markdown file with the
//! lesson's text, each `try` as an instruction with the knobs it changes, each
//! `check` as a box to tick, each claim as a statement to test, and its figures
//! beside it as PNG; the answers in a file of their own, for the teacher to hand
//! out when they choose.

use std::path::Path;

use super::{Lesson, Segment};
use crate::t;

/// The file the answers go in, beside the handout.
pub const ANSWERS_FILE: &str = "answers.md";

/// The task's sizes as the task section names them: a character model reads a
/// text (it has no symbol count), the others draw from an alphabet.
fn task_detail(task: &crate::tasks::TaskConfig) -> String {
    if task.kind == crate::tasks::TaskKind::CharLm {
        t!("handout-task-text", corpus = task.corpus.as_str(), length = task.length)
    } else {
        t!("handout-task-symbols", length = task.length, symbols = task.symbols)
    }
}

/// The handout's Markdown, and the answers' (None when the lesson has none);
/// `figure` names a picture of the attention maps to show.
pub fn markdown(lesson: &Lesson, figure: Option<&str>) -> (String, Option<String>) {
    let mut out = format!("# {}\n\n*{}*\n\n", lesson.title, t!("lesson-summary", summary = lesson.summary.as_str(), minutes = lesson.minutes));
    let start = &lesson.start;
    let model = &start.model;
    let rnn = model.family == crate::config::ModelFamily::Rnn;
    let experiment = if rnn {
        let cell = if model.rnn_cell == crate::config::RnnCell::Gru { "GRU" } else { "LSTM" };
        t!("handout-experiment-rnn", task = start.task.kind.label(), task_detail = task_detail(&start.task), d_model = model.d_model, cell = cell, steps = start.steps, seed = start.seed)
    } else {
        t!(
            "handout-experiment",
            task = start.task.kind.label(),
            task_detail = task_detail(&start.task),
            d_model = model.d_model,
            // An encoder–decoder counts both stacks; an RNN has no Transformer layers.
            layers = model.layers.len() + model.encoder_layers.len(),
            heads = model.layers.first().map_or(0, |l| l.heads),
            steps = start.steps,
            seed = start.seed
        )
    };
    out.push_str(&format!("> {experiment}\n\n"));
    if !lesson.locks.is_empty() {
        out.push_str(&format!("> 🔒 {}\n\n", t!("handout-locks", knobs = super::knob_names(&lesson.locks.knobs), reason = lesson.locks.reason.as_str())));
    }
    let mut answers = Vec::new();
    for segment in &lesson.body {
        match segment {
            Segment::Markdown(text) => {
                // The lesson's own title is the handout's.
                let text = text.trim_start();
                let text = if text.starts_with("# ") { text.split_once('\n').map_or("", |(_, rest)| rest) } else { text };
                out.push_str(text.trim_end());
                out.push_str("\n\n");
            }
            Segment::Try(block) => {
                let mut changes: Vec<String> = block.settings.iter().map(|(k, v)| format!("`{k} = {v}`")).collect();
                changes.extend(block.preset.iter().map(|p| format!("preset `{p}`")));
                changes.extend(block.task.iter().map(|t| format!("task `{t}`")));
                let steps = block.steps.map(|s| t!("handout-try-steps", steps = s)).unwrap_or_default();
                out.push_str(&format!("> ▶ **{}** {} {steps}\n\n", block.label, changes.join(", ")));
            }
            Segment::Check(block) => {
                out.push_str(&format!("- [ ] {} — `{}`\n", block.label, block.condition.text));
                if !block.hint.is_empty() {
                    out.push_str(&format!("  *{}*\n", t!("handout-hint", hint = block.hint.as_str())));
                }
                out.push('\n');
            }
            Segment::Claim(block) => {
                out.push_str(&format!("> **{}** {}\n\n", t!("lesson-claim"), block.claim.statement));
            }
            Segment::Answer(block) => {
                answers.push(block);
                out.push_str(&format!("*{}*\n\n", t!("handout-answer-elsewhere", number = answers.len(), file = ANSWERS_FILE)));
            }
        }
    }
    if let Some(figure) = figure {
        out.push_str(&format!("![{}]({figure})\n\n", t!("handout-figure")));
    }
    let answers = (!answers.is_empty()).then(|| {
        let mut text = format!("# {} — {}\n\n", lesson.title, t!("handout-answers"));
        for (i, answer) in answers.iter().enumerate() {
            text.push_str(&format!("**{}.** {}\n\n", i + 1, answer.text.trim()));
        }
        text
    });
    (out, answers)
}

/// Copy the pictures the lesson's Markdown shows (`![…](file.png)`, relative to the
/// lesson's folder) into `folder`. A shipped lesson has none on disk to copy.
pub fn copy_pictures(lesson: &Lesson, folder: &Path) -> std::io::Result<()> {
    let Some(source) = Path::new(&lesson.source).parent().filter(|p| p.is_dir()) else { return Ok(()) };
    for segment in &lesson.body {
        let Segment::Markdown(text) = segment else { continue };
        for picture in pictures(text) {
            let from = source.join(picture);
            if from.is_file() && !picture.contains("..") && Path::new(picture).is_relative() {
                let to = folder.join(picture);
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::copy(from, to)?;
            }
        }
    }
    Ok(())
}

/// The targets of `![alt](target)` in `text`.
fn pictures(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter(|(i, _)| text[..*i].rfind("![").is_some_and(|open| !text[open..*i].contains(']')))
        .filter_map(|(i, _)| text[i + 2..].split(')').next())
        .map(|t| t.split_whitespace().next().unwrap_or(t))
        .filter(|t| !t.contains("://"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handout_has_the_text_and_the_tasks_and_the_answers_apart() {
        let lesson = crate::lessons::builtin().into_iter().flatten().find(|l| l.answers().count() > 0 && l.tries().count() > 0);
        let Some(lesson) = lesson else { panic!("a shipped lesson with an answer and a try") };
        let (text, answers) = markdown(&lesson, Some("attention.png"));
        assert!(text.starts_with(&format!("# {}\n", lesson.title)));
        for check in lesson.checks() {
            assert!(text.contains(&format!("- [ ] {}", check.label)), "{}", check.label);
        }
        assert!(text.contains("![") && text.contains(ANSWERS_FILE));
        let answer = lesson.answers().next().unwrap().text.trim().to_string();
        assert!(!text.contains(&answer), "the answers stay out of the students' handout");
        assert!(answers.expect("an answers file").contains(&answer));
        assert_eq!(text.matches(&format!("# {}", lesson.title)).count(), 1, "one title");
    }

    #[test]
    fn pictures_are_found_and_copied_beside_the_handout() {
        assert_eq!(pictures("see ![maps](fig/a.png) and [a link](b.md) ![x](http://e/x.png)"), vec!["fig/a.png"]);
        let dir = tempfile::tempdir().unwrap();
        let lesson_dir = dir.path().join("01-x");
        std::fs::create_dir_all(lesson_dir.join("fig")).unwrap();
        std::fs::write(lesson_dir.join("fig/a.png"), b"png").unwrap();
        let mut lesson = crate::lessons::builtin().remove(0).unwrap();
        lesson.source = lesson_dir.join("lesson.md").display().to_string();
        lesson.body.push(Segment::Markdown("![maps](fig/a.png)".into()));
        let out = dir.path().join("handout");
        std::fs::create_dir_all(&out).unwrap();
        copy_pictures(&lesson, &out).unwrap();
        assert_eq!(std::fs::read(out.join("fig/a.png")).unwrap(), b"png");
    }
}
