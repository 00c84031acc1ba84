//! Bug-hunt cases as files: `bugs/NN-name.toml` in a lesson pack (the shipped ones
//! are `lessons/bugs/`). One planted-bug experiment each, the symptom the learner
//! sees, where to look, the accepted answers (names from `Bug`), the explanation,
//! and optional `[zh]` texts. The format is described in `lessons/bugs/README.md`.

use serde::Deserialize;

use super::LessonError;
use super::parse::{ExperimentSpec, build_experiment, claim_id, toml_line};
use crate::config::ExperimentConfig;
use crate::i18n::Lang;
use crate::t;

/// The bugs a learner can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bug {
    CausalMaskMissing,
    InvertedMask,
    DiagonalHidesSelf,
    DiagonalSeesAhead,
    PaddingMaskWrongAxis,
    PaddingMaskMissing,
    PaddingWrongSide,
    LabelsNotShifted,
    ScoresNotScaled,
    SoftmaxThenMask,
    InitTooLarge,
    LearningRateTooHigh,
}

impl Bug {
    pub const ALL: [Bug; 12] = [
        Bug::CausalMaskMissing,
        Bug::InvertedMask,
        Bug::DiagonalHidesSelf,
        Bug::DiagonalSeesAhead,
        Bug::PaddingMaskWrongAxis,
        Bug::PaddingMaskMissing,
        Bug::PaddingWrongSide,
        Bug::LabelsNotShifted,
        Bug::ScoresNotScaled,
        Bug::SoftmaxThenMask,
        Bug::InitTooLarge,
        Bug::LearningRateTooHigh,
    ];

    /// The name a case file uses in `answers`.
    pub fn code(self) -> &'static str {
        match self {
            Bug::CausalMaskMissing => "causal-mask-missing",
            Bug::InvertedMask => "inverted-mask",
            Bug::DiagonalHidesSelf => "diagonal-hides-self",
            Bug::DiagonalSeesAhead => "diagonal-sees-ahead",
            Bug::PaddingMaskWrongAxis => "padding-mask-wrong-axis",
            Bug::PaddingMaskMissing => "padding-mask-missing",
            Bug::PaddingWrongSide => "padding-wrong-side",
            Bug::LabelsNotShifted => "labels-not-shifted",
            Bug::ScoresNotScaled => "scores-not-scaled",
            Bug::SoftmaxThenMask => "softmax-then-mask",
            Bug::InitTooLarge => "init-too-large",
            Bug::LearningRateTooHigh => "learning-rate-too-high",
        }
    }

    pub fn from_code(code: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.code() == code)
    }

    /// The name offered in the "what is the bug?" list, in the current language
    /// (answers are matched on the `Bug` value, never on this text).
    pub fn name(self) -> String {
        crate::i18n::message(&format!("rep-bug-{}", self.code()), None)
    }
}

/// One planted-bug exercise, its texts in the language it was read in.
#[derive(Clone, Debug)]
pub struct BugCase {
    pub id: String,
    pub title: String,
    /// What the learner observes (no spoilers).
    pub symptom: String,
    /// Which panel shows it best.
    pub where_to_look: String,
    /// The names that count as right (the first is shown as the answer).
    pub answers: Vec<Bug>,
    /// The answer, shown on request or when named.
    pub explanation: String,
    pub config: ExperimentConfig,
    /// The file it came from.
    pub source: String,
}

impl BugCase {
    pub fn accepts(&self, bug: Bug) -> bool {
        self.answers.contains(&bug)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseSpec {
    id: String,
    answers: Vec<String>,
    title: String,
    symptom: String,
    #[serde(rename = "where")]
    where_to_look: String,
    explanation: String,
    experiment: ExperimentSpec,
    zh: Option<CaseText>,
}

/// The texts in another language; any left out stay in English.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseText {
    title: Option<String>,
    symptom: Option<String>,
    #[serde(rename = "where")]
    where_to_look: Option<String>,
    explanation: Option<String>,
}

/// Read a case file's text in `lang`; `file` names it in errors.
pub fn parse_bug_case(file: &str, text: &str, lang: Lang) -> Result<BugCase, LessonError> {
    let err = |line: usize, message: String| LessonError { file: file.to_string(), line, message };
    let spec: CaseSpec = toml::from_str(text).map_err(|e| err(1 + toml_line(text, &e), t!("err-bug-case", why = e.message().trim())))?;
    // The line a key is on, for errors found after TOML parsing.
    let line_of = |key: &str| text.lines().position(|l| l.trim_start().starts_with(key)).map_or(1, |i| i + 1);
    claim_id(&mut Default::default(), &spec.id, 1).map_err(|m| err(line_of("id"), m))?;
    let known = || Bug::ALL.map(Bug::code).join(", ");
    let answers = spec
        .answers
        .iter()
        .map(|a| Bug::from_code(a).ok_or_else(|| err(line_of("answers"), t!("err-bug-case-answer", answer = a.as_str(), known = known()))))
        .collect::<Result<Vec<_>, _>>()?;
    if answers.is_empty() {
        return Err(err(line_of("answers"), t!("err-bug-case-no-answer", known = known())));
    }
    if spec.experiment.seed_offset.is_some() || spec.experiment.threads.is_some() {
        return Err(err(line_of("[experiment]"), t!("err-bug-case-side-knobs")));
    }
    let config = build_experiment(&spec.experiment, None).map_err(|m| err(line_of("[experiment]"), t!("err-bug-case-experiment", why = m)))?;
    let config = ExperimentConfig { steps: spec.experiment.steps.unwrap_or(config.steps), ..config };
    let zh = spec.zh.unwrap_or_default();
    let pick = |english: String, translated: Option<String>| match lang {
        Lang::Zh => translated.unwrap_or(english),
        Lang::En => english,
    };
    Ok(BugCase {
        id: spec.id,
        title: pick(spec.title, zh.title),
        symptom: pick(spec.symptom, zh.symptom),
        where_to_look: pick(spec.where_to_look, zh.where_to_look),
        answers,
        explanation: pick(spec.explanation, zh.explanation),
        config,
        source: file.to_string(),
    })
}

/// The shipped cases, in the order the window lists them.
pub const BUILTIN_CASES: &[(&str, &str)] = &[
    ("lessons/bugs/01-peeking.toml", include_str!("../../lessons/bugs/01-peeking.toml")),
    ("lessons/bugs/02-inverted.toml", include_str!("../../lessons/bugs/02-inverted.toml")),
    ("lessons/bugs/03-blind-diagonal.toml", include_str!("../../lessons/bugs/03-blind-diagonal.toml")),
    ("lessons/bugs/04-one-ahead.toml", include_str!("../../lessons/bugs/04-one-ahead.toml")),
    ("lessons/bugs/05-padding-axis.toml", include_str!("../../lessons/bugs/05-padding-axis.toml")),
    ("lessons/bugs/06-padding-missing.toml", include_str!("../../lessons/bugs/06-padding-missing.toml")),
    ("lessons/bugs/07-padding-side.toml", include_str!("../../lessons/bugs/07-padding-side.toml")),
    ("lessons/bugs/08-unshifted.toml", include_str!("../../lessons/bugs/08-unshifted.toml")),
    ("lessons/bugs/09-unscaled.toml", include_str!("../../lessons/bugs/09-unscaled.toml")),
    ("lessons/bugs/10-mask-after-softmax.toml", include_str!("../../lessons/bugs/10-mask-after-softmax.toml")),
    ("lessons/bugs/11-huge-init.toml", include_str!("../../lessons/bugs/11-huge-init.toml")),
    ("lessons/bugs/12-runaway-lr.toml", include_str!("../../lessons/bugs/12-runaway-lr.toml")),
];

/// Every `bugs/*.toml` of a pack folder, in name order (none is fine).
pub fn case_files(pack: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(pack.join("bugs")) else { return Vec::new() };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    files
}

/// Read one case file from disk.
pub fn load_bug_case(path: &std::path::Path, lang: Lang) -> Result<BugCase, LessonError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| LessonError { file: shown.clone(), line: 0, message: t!("err-cannot-read", why = e.to_string()) })?;
    parse_bug_case(&shown, &text, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = r#"
id = "my-case"
answers = ["causal-mask-missing", "diagonal-sees-ahead"]
title = "Too good"
symptom = "Loss near zero, output gibberish."
where = "Mask inspector"
explanation = "The mask lets positions read ahead."

[experiment]
preset = "tiny"
task = "copy"
steps = 120
set = { "model.layers[*].mask" = "bidirectional" }

[zh]
title = "好得过分"
"#;

    #[test]
    fn a_case_file_reads_into_a_planted_experiment() {
        let case = parse_bug_case("my.toml", CASE, Lang::En).unwrap();
        assert_eq!(case.id, "my-case");
        assert!(case.accepts(Bug::DiagonalSeesAhead) && !case.accepts(Bug::InvertedMask));
        assert_eq!(case.config.steps, 120);
        assert!(case.config.model.layers.iter().all(|l| l.mask == crate::config::MaskKind::Bidirectional));
        let zh = parse_bug_case("my.toml", CASE, Lang::Zh).unwrap();
        assert_eq!((zh.title.as_str(), zh.symptom.as_str()), ("好得过分", case.symptom.as_str()));
    }

    #[test]
    fn a_malformed_case_names_the_file_and_the_fix() {
        let e = parse_bug_case("my.toml", &CASE.replace("\"diagonal-sees-ahead\"", "\"mask-too-fancy\""), Lang::En).unwrap_err();
        assert!(e.to_string().starts_with("my.toml:") && e.message.contains("mask-too-fancy") && e.message.contains("inverted-mask"), "{e}");
        let e = parse_bug_case("my.toml", &CASE.replace("where = ", "wher = "), Lang::En).unwrap_err();
        assert!(e.message.contains("wher"), "{e}");
        let e = parse_bug_case("my.toml", &CASE.replace("model.layers[*].mask", "model.layers[*].masque"), Lang::En).unwrap_err();
        assert!(e.message.contains("masque"), "{e}");
        let e = parse_bug_case("my.toml", &CASE.replace("answers = [\"causal-mask-missing\", \"diagonal-sees-ahead\"]", "answers = []"), Lang::En).unwrap_err();
        assert!(e.message.contains("answers"), "{e}");
    }

    #[test]
    fn every_shipped_case_reads_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            for (file, text) in BUILTIN_CASES {
                let case = parse_bug_case(file, text, lang).unwrap_or_else(|e| panic!("{e}"));
                assert!(file.contains(&case.id), "{file} holds case {}", case.id);
            }
        }
    }
}
