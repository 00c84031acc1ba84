//! A lesson in another language: `lesson.zh.md` beside `lesson.md`. It must be
//! the same experiment told in other words: the same id, start and blocks in the
//! same order with the same knobs, conditions and claims; only the prose and the
//! blocks' text (a try's or check's label, a check's hint, a claim's statement)
//! differ. Claims are therefore verified once, on the original.

use super::{Lesson, LessonError, Segment};
use crate::i18n::Lang;
use crate::t;

/// The file name of a lesson in `lang` ("lesson.md" for English).
pub fn file_name(lang: Lang) -> String {
    match lang {
        Lang::En => "lesson.md".to_string(),
        other => format!("lesson.{}.md", other.code()),
    }
}

/// `translated` checked against `original`, carrying the original's block line
/// numbers (so progress and buttons keyed by line hold in every language).
/// The error names the translated file and the first difference.
pub fn pair(original: &Lesson, mut translated: Lesson) -> Result<Lesson, LessonError> {
    let fail = |line: usize, message: String| LessonError { file: translated.source.clone(), line, message };
    if translated.id != original.id {
        return Err(fail(0, t!("err-pair-id-differs", id = translated.id.as_str(), original = original.source.as_str(), original_id = original.id.as_str())));
    }
    // Each difference names its own table or key, at its line in the translation
    // (the front matter's first line when the key is missing there).
    let at = |key: &str| front_matter_line(&translated.source, key);
    if translated.locks.knobs != original.locks.knobs || translated.locks.is_empty() != original.locks.is_empty() {
        let knobs = original.locks.knobs.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ");
        return Err(fail(at("[lock]"), t!("err-pair-lock-differs", original = original.source.as_str(), knobs = knobs)));
    }
    if translated.minutes != original.minutes {
        return Err(fail(at("minutes"), t!("err-pair-minutes-differ", original = original.source.as_str(), minutes = original.minutes)));
    }
    if translated.start != original.start {
        return Err(fail(at("[start]"), t!("err-pair-start-differs", original = original.source.as_str())));
    }
    let blocks = |l: &Lesson| l.body.iter().filter(|s| !matches!(s, Segment::Markdown(_))).cloned().collect::<Vec<_>>();
    let (ours, theirs) = (blocks(original), blocks(&translated));
    if ours.len() != theirs.len() {
        return Err(fail(0, t!("err-pair-block-count", theirs = theirs.len(), original = original.source.as_str(), ours = ours.len())));
    }
    for (o, t) in ours.iter().zip(&theirs) {
        if let Some(why) = differs(o, t) {
            return Err(fail(line_of(t), t!("err-pair-block-differs", why = why, original = original.source.as_str(), line = line_of(o) + 1)));
        }
    }
    let mut lines = ours.iter().map(line_of);
    for segment in &mut translated.body {
        let line = match segment {
            Segment::Markdown(_) => continue,
            Segment::Try(t) => &mut t.line,
            Segment::Check(c) => &mut c.line,
            Segment::Claim(c) => &mut c.line,
            Segment::Answer(a) => &mut a.line,
        };
        *line = lines.next().expect("same number of blocks");
    }
    Ok(translated)
}

/// The line of `key` (`[start]`, `minutes = …`) in the front matter of the file at
/// `path`; 2 (the front matter's first line) when it is not there or unreadable.
fn front_matter_line(path: &str, key: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let front = text.lines().enumerate().skip(1).take_while(|(_, l)| l.trim() != "+++");
    front.filter(|(_, l)| l.trim_start().starts_with(key)).map(|(i, _)| i + 1).next().unwrap_or(2)
}

fn line_of(segment: &Segment) -> usize {
    match segment {
        Segment::Markdown(_) => 0,
        Segment::Try(t) => t.line,
        Segment::Check(c) => c.line,
        Segment::Claim(c) => c.line,
        Segment::Answer(a) => a.line,
    }
}

/// Why two blocks are not the same block in two languages, if they are not.
fn differs(original: &Segment, translated: &Segment) -> Option<String> {
    match (original, translated) {
        (Segment::Try(o), Segment::Try(t)) => (o.preset != t.preset || o.task != t.task || o.settings != t.settings || o.steps != t.steps)
            .then(|| t!("err-pair-try-differs")),
        (Segment::Check(o), Segment::Check(t)) => (o.condition != t.condition || o.id != t.id || o.task != t.task).then(|| t!("err-pair-check-differs")),
        (Segment::Answer(o), Segment::Answer(t)) => (o.id != t.id).then(|| t!("err-pair-answer-differs", id = o.id.as_str())),
        (Segment::Claim(o), Segment::Claim(t)) => {
            let mut same = t.claim.clone();
            same.statement = o.claim.statement.clone();
            (format!("{:?}", o.claim) != format!("{same:?}") || o.id != t.id).then(|| t!("err-pair-claim-differs"))
        }
        _ => Some(t!("err-pair-order-differs")),
    }
}
