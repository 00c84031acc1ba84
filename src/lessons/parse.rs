//! The lesson file: TOML front matter between `+++` lines, then Markdown whose
//! fenced `try`, `check` and `claim` blocks (TOML inside) become widgets.
//! Every error names the file, the line and what was expected.

use serde::Deserialize;

use crate::experiments::condition::live::parse_check;
use super::patch::{Settings, apply};
use super::{AnswerBlock, CheckBlock, ClaimBlock, Lesson, Locks, Segment, TryBlock};
use crate::config::{ExperimentConfig, preset};
use crate::experiments::{Claim, Side, SideRun, parse_condition};
use crate::t;
use crate::tasks::{TaskConfig, TaskKind};

/// A parse error: `file:line: message`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct LessonError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// Where an experiment starts: a preset, a task, then knob settings.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExperimentSpec {
    preset: Option<String>,
    task: Option<String>,
    #[serde(default)]
    set: Settings,
    pub(super) steps: Option<usize>,
    /// Claim sides only: train with the verify seed plus this.
    pub(super) seed_offset: Option<u64>,
    /// Claim sides only: CPU threads for this side.
    pub(super) threads: Option<usize>,
}

impl ExperimentSpec {
    fn side_run(&self) -> SideRun {
        SideRun {
            steps: self.steps,
            seed_offset: self.seed_offset.unwrap_or(0),
            threads: self.threads,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    id: String,
    title: String,
    summary: String,
    #[serde(default = "default_minutes")]
    minutes: u32,
    #[serde(default)]
    start: ExperimentSpec,
    #[serde(default)]
    lock: Option<LockSpec>,
}

/// Knobs the lesson fixes while its experiment is loaded, and why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LockSpec {
    knobs: Vec<String>,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerSpec {
    id: String,
    text: String,
}

fn default_minutes() -> u32 {
    10
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrySpec {
    label: String,
    #[serde(default)]
    set: Settings,
    steps: Option<usize>,
    preset: Option<String>,
    task: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckSpec {
    id: String,
    label: String,
    condition: String,
    #[serde(default)]
    hint: String,
    /// The task whose run the check judges (default: the lesson's start task).
    task: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSpec {
    id: String,
    statement: String,
    steps: usize,
    expect: Vec<String>,
    #[serde(default)]
    a: ExperimentSpec,
    b: Option<ExperimentSpec>,
}

/// Parse a lesson file's text; `file` names it in errors.
pub fn parse_lesson(file: &str, text: &str) -> Result<Lesson, LessonError> {
    let err = |line: usize, message: String| LessonError { file: file.to_string(), line, message };
    let lines: Vec<&str> = text.lines().collect();
    if lines.first().map(|l| l.trim()) != Some("+++") {
        return Err(err(1, t!("err-lesson-front-matter-open")));
    }
    let close = lines
        .iter()
        .skip(1)
        .position(|l| l.trim() == "+++")
        .map(|i| i + 1)
        .ok_or_else(|| err(1, t!("err-lesson-front-matter-unclosed")))?;
    let front_text = lines[1..close].join("\n");
    let front: FrontMatter = toml::from_str(&front_text).map_err(|e| err(2 + toml_line(&front_text, &e), t!("err-lesson-front-matter", why = e.message())))?;
    if front.start.seed_offset.is_some() || front.start.threads.is_some() {
        return Err(err(2, t!("err-lesson-start-side-knobs")));
    }
    let start = build_experiment(&ExperimentSpec { ..front.start }, None).map_err(|m| err(2, t!("err-lesson-start", why = m)))?;
    let locks = match front.lock {
        None => Locks::default(),
        Some(spec) => {
            let locks = Locks { knobs: spec.knobs, reason: spec.reason };
            let lock_line = lines[1..close].iter().position(|l| l.trim() == "[lock]").map_or(2, |i| i + 2);
            locks.problem(&start).map_or(Ok(()), |m| Err(err(lock_line, m)))?;
            locks
        }
    };
    let mut ids = std::collections::BTreeMap::<String, usize>::new();

    let mut body = Vec::new();
    let mut markdown = String::new();
    let mut i = close + 1;
    while i < lines.len() {
        let line = lines[i];
        let fence = line.trim_start();
        let kind = fence.strip_prefix("```").map(str::trim).filter(|k| matches!(*k, "try" | "check" | "claim" | "answer"));
        let Some(kind) = kind else {
            markdown.push_str(line);
            markdown.push('\n');
            i += 1;
            continue;
        };
        let block_line = i + 1;
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.trim() == "```")
            .map(|p| i + 1 + p)
            .ok_or_else(|| err(block_line, t!("err-lesson-block-unclosed", kind = kind)))?;
        let block_text = lines[i + 1..end].join("\n");
        let at = |e: &toml::de::Error| block_line + 1 + toml_line(&block_text, e);
        let what = |e: &toml::de::Error| {
            let line = lines.get(at(e) - 1).map(|l| l.trim()).unwrap_or("");
            t!("err-lesson-toml-at", why = e.message().trim(), line = line)
        };
        if !markdown.trim().is_empty() {
            body.push(Segment::Markdown(super::cjk_lines::join(&std::mem::take(&mut markdown))));
        }
        markdown.clear();
        let segment = match kind {
            "try" => {
                let spec: TrySpec = toml::from_str(&block_text).map_err(|e| err(at(&e), t!("err-lesson-try-block", why = what(&e))))?;
                // Check the change applies to the lesson's start (paths and values).
                let base = ExperimentSpec { preset: spec.preset.clone(), task: spec.task.clone(), set: spec.set.clone(), steps: None, ..ExperimentSpec::default() };
                build_experiment(&base, Some(&start)).map_err(|m| err(block_line, t!("err-lesson-try-block", why = m)))?;
                Segment::Try(TryBlock { label: spec.label, preset: spec.preset, task: spec.task, settings: spec.set, steps: spec.steps, line: block_line })
            }
            "check" => {
                let spec: CheckSpec = toml::from_str(&block_text).map_err(|e| err(at(&e), t!("err-lesson-check-block", why = what(&e))))?;
                let condition = parse_check(&spec.condition).map_err(|m| err(block_line, t!("err-lesson-check-condition", why = m)))?;
                claim_id(&mut ids, &spec.id, block_line).map_err(|m| err(block_line, m))?;
                let task = match &spec.task {
                    None => start.task.kind,
                    Some(name) => TaskKind::from_name(name).ok_or_else(|| err(block_line, t!("err-lesson-unknown-task", name = name.as_str())))?,
                };
                Segment::Check(CheckBlock { id: spec.id, label: spec.label, condition, task, hint: spec.hint, line: block_line })
            }
            "answer" => {
                let spec: AnswerSpec = toml::from_str(&block_text).map_err(|e| err(at(&e), t!("err-lesson-answer-block", why = what(&e))))?;
                claim_id(&mut ids, &spec.id, block_line).map_err(|m| err(block_line, m))?;
                if spec.text.trim().is_empty() {
                    return Err(err(block_line, t!("err-lesson-answer-empty")));
                }
                Segment::Answer(AnswerBlock { id: spec.id, text: spec.text, line: block_line })
            }
            _ => {
                let spec: ClaimSpec = toml::from_str(&block_text).map_err(|e| err(at(&e), t!("err-lesson-claim-block", why = what(&e))))?;
                claim_id(&mut ids, &spec.id, block_line).map_err(|m| err(block_line, m))?;
                let conditions = spec
                    .expect
                    .iter()
                    .map(|c| parse_condition(c))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|m| err(block_line, t!("err-lesson-claim-expect", why = m)))?;
                if conditions.is_empty() {
                    return Err(err(block_line, t!("err-lesson-claim-no-condition")));
                }
                let a = build_experiment(&spec.a, Some(&start)).map_err(|m| err(block_line, t!("err-lesson-claim-side", side = "a", why = m)))?;
                let b = match &spec.b {
                    Some(b) => Some(build_experiment(b, Some(&start)).map_err(|m| err(block_line, t!("err-lesson-claim-side", side = "b", why = m)))?),
                    None => None,
                };
                let claim = Claim {
                    statement: spec.statement,
                    a,
                    b,
                    steps: spec.steps,
                    run_a: spec.a.side_run(),
                    run_b: spec.b.as_ref().map(ExperimentSpec::side_run).unwrap_or_default(),
                    conditions,
                };
                claim_problem(&claim).map_or(Ok(()), |m| Err(err(block_line, t!("err-lesson-claim-block", why = m))))?;
                Segment::Claim(ClaimBlock { id: spec.id, sides: super::patch::claim_sides(&claim), claim, line: block_line })
            }
        };
        body.push(segment);
        i = end + 1;
    }
    if !markdown.trim().is_empty() {
        body.push(Segment::Markdown(super::cjk_lines::join(&markdown)));
    }
    Ok(Lesson {
        id: front.id,
        title: front.title,
        summary: front.summary,
        minutes: front.minutes,
        start,
        locks,
        body,
        source: file.to_string(),
    })
}

/// Take `id` for a block at `line`: a short name (letters, digits, `-`, `_`) not
/// used by another check, claim or answer of the lesson. Progress is kept by it,
/// so it must stay the same when the lesson's text is edited.
pub(super) fn claim_id(ids: &mut std::collections::BTreeMap<String, usize>, id: &str, line: usize) -> Result<(), String> {
    let well_formed = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !well_formed {
        return Err(t!("err-lesson-id-malformed", id = id));
    }
    if let Some(first) = ids.get(id) {
        return Err(t!("err-lesson-id-repeated", id = id, first = *first));
    }
    ids.insert(id.to_string(), line);
    Ok(())
}

/// A claim that could not show anything: a side that trains for no steps, a
/// condition on a `b` that does not exist, or a `b` identical to `a`.
fn claim_problem(claim: &Claim) -> Option<String> {
    if claim.run_a.threads == Some(0) || claim.run_b.threads == Some(0) {
        return Some(t!("err-claim-threads-zero"));
    }
    let steps = |side: Option<usize>| side.unwrap_or(claim.steps);
    if claim.steps == 0 || steps(claim.run_a.steps) == 0 || (claim.b.is_some() && steps(claim.run_b.steps) == 0) {
        return Some(t!("err-claim-steps-zero"));
    }
    let uses_b = claim.sides().contains(&Side::B);
    match &claim.b {
        None if uses_b => Some(t!("err-claim-no-b-table")),
        Some(b)
            if same_run(b, &claim.a)
                && steps(claim.run_a.steps) == steps(claim.run_b.steps)
                && claim.run_a.seed_offset == claim.run_b.seed_offset
                && claim.run_a.threads == claim.run_b.threads =>
        {
            Some(t!("err-claim-b-same-as-a"))
        }
        Some(_) if !uses_b => Some(t!("err-claim-b-unused")),
        _ => None,
    }
}

/// Whether two sides train the same run: the claim runner sets the seed and the
/// steps itself, and intervals and limits do not change what is learned.
fn same_run(a: &ExperimentConfig, b: &ExperimentConfig) -> bool {
    let normal = |c: &ExperimentConfig| ExperimentConfig {
        seed: 0,
        steps: 0,
        eval_interval: 0,
        attention_interval: 0,
        memory_limit_mib: 0,
        ..c.clone()
    };
    normal(a) == normal(b)
}

/// The 0-based line of a TOML error inside `text`.
pub(super) fn toml_line(text: &str, error: &toml::de::Error) -> usize {
    error.span().map_or(0, |span| text[..span.start.min(text.len())].matches('\n').count())
}

/// A preset (or `base`), then a task, then knob settings; validated.
pub(super) fn build_experiment(spec: &ExperimentSpec, base: Option<&ExperimentConfig>) -> Result<ExperimentConfig, String> {
    let mut config = match (&spec.preset, base) {
        (Some(name), _) => preset(name).ok_or_else(|| t!("err-lesson-unknown-preset", name = name.as_str()))?,
        (None, Some(base)) => base.clone(),
        (None, None) => preset("lesson").expect("lesson preset"),
    };
    if let (Some(_), Some(base)) = (&spec.preset, base) {
        config.task = base.task.clone();
    }
    if let Some(task) = &spec.task {
        let kind = TaskKind::from_name(task).ok_or_else(|| t!("err-lesson-unknown-task", name = task.as_str()))?;
        config.task = TaskConfig::for_kind(kind);
    }
    let mut config = apply(&config, &spec.set)?;
    config.task.build().map_err(|e| e.to_string())?;
    if !spec.set.contains_key("model.max_len") {
        config.fit_max_len_to_task();
    }
    let problems = crate::config::validate(&config);
    if let Some(p) = problems.first() {
        return Err(t!("err-lesson-experiment-invalid", problem = p.to_string()));
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"+++
id = "99-demo"
title = "Demo"
summary = "A demo."
[start]
preset = "tiny"
task = "copy"
+++

# Hello

Some text.

```try
label = "Turn positions off"
set = { "model.positional" = "none" }
steps = 50
```

More text.

```check
id = "learn-it"
label = "Learn it"
condition = "eval_accuracy >= 0.9"
hint = "Train longer."
```

```claim
id = "it-works"
statement = "It works"
steps = 10
expect = ["a.eval_accuracy > b.eval_accuracy"]
[b]
set = { "model.positional" = "none" }
```

The end?
"#;

    #[test]
    fn a_good_lesson_parses_into_segments() {
        let lesson = parse_lesson("demo.md", GOOD).unwrap();
        assert_eq!(lesson.id, "99-demo");
        assert_eq!(lesson.start.model.d_model, 32);
        let kinds: Vec<&str> = lesson.body.iter().map(|s| match s {
            Segment::Markdown(_) => "md",
            Segment::Try(_) => "try",
            Segment::Check(_) => "check",
            Segment::Claim(_) => "claim",
            Segment::Answer(_) => "answer",
        }).collect();
        assert_eq!(kinds, vec!["md", "try", "md", "check", "claim", "md"]);
        let Segment::Claim(claim) = &lesson.body[4] else { panic!() };
        assert!(claim.claim.b.is_some());
    }

    #[test]
    fn errors_name_the_file_the_line_and_what_was_expected() {
        let e = parse_lesson("x.md", "no front matter").unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("x.md", 1));
        let broken = GOOD.replace("steps = 50", "steps = fifty");
        let e = parse_lesson("x.md", &broken).unwrap_err();
        assert_eq!(e.line, 17, "{e}");
        assert!(e.message.contains("steps = fifty"), "{e}");
        let unknown = GOOD.replace("\"model.positional\" = \"none\" }\nsteps", "\"model.positionz\" = \"none\" }\nsteps");
        let e = parse_lesson("x.md", &unknown).unwrap_err();
        assert!(e.message.contains("positionz"), "{e}");
        let bad_check = GOOD.replace("eval_accuracy >= 0.9", "accuracy is good");
        let e = parse_lesson("x.md", &bad_check).unwrap_err();
        assert!(e.to_string().starts_with("x.md:22:"), "{e}");
        let repeated = GOOD.replace("id = \"it-works\"", "id = \"learn-it\"");
        let e = parse_lesson("x.md", &repeated).unwrap_err();
        assert!(e.message.contains("learn-it") && e.message.contains("22"), "{e}");
        let missing = GOOD.replace("id = \"it-works\"\n", "");
        let e = parse_lesson("x.md", &missing).unwrap_err();
        assert!(e.message.contains("id"), "{e}");
        let unclosed = GOOD.replace("More text.\n\n```check", "More text.\n\n```check\nlabel = \"x\"");
        let unclosed = unclosed.replace("hint = \"Train longer.\"\n```", "hint = \"Train longer.\"");
        assert!(parse_lesson("x.md", &unclosed).is_err());
    }
}
