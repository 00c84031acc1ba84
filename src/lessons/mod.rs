//! Lessons as plain data: parsed from `lessons/NN-slug/lesson.md` files (TOML front
//! matter + Markdown with `try`, `check` and `claim` blocks). No egui in here; the
//! window draws them and `lesson verify` runs their claims.

pub mod bug_case;
mod change_labels;
pub use change_labels::knob_names;
mod cjk_lines;
pub mod handout;
mod locks;
pub mod pack;
mod parse;
mod patch;
pub mod translation;
mod verify;

pub use bug_case::{Bug, BugCase};
pub use locks::Locks;
pub use crate::experiments::condition::live::{CheckCondition, LiveFacts, Pattern, parse_check, pattern_score};
pub use parse::{LessonError, parse_lesson};
pub use patch::{Settings, apply as apply_settings, diff as config_diff};
pub use verify::{ClaimReport, DEFAULT_SEEDS, verify_lesson, verify_lessons};

use std::path::{Path, PathBuf};

use crate::config::ExperimentConfig;
use crate::experiments::Claim;
use crate::i18n::Lang;
use crate::t;

#[derive(Clone, Debug)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub minutes: u32,
    /// The experiment the lesson starts from.
    pub start: ExperimentConfig,
    /// Knobs fixed while the lesson's experiment is loaded.
    pub locks: Locks,
    pub body: Vec<Segment>,
    /// The file it came from ("lessons/05-…/lesson.md", or a path on disk).
    pub source: String,
}

#[derive(Clone, Debug)]
pub enum Segment {
    Markdown(String),
    Try(TryBlock),
    Check(CheckBlock),
    Claim(ClaimBlock),
    Answer(AnswerBlock),
}

/// A button that changes the live experiment, optionally training it.
#[derive(Clone, Debug)]
pub struct TryBlock {
    pub label: String,
    pub preset: Option<String>,
    pub task: Option<String>,
    pub settings: Settings,
    /// Train this many steps from fresh weights after the change.
    pub steps: Option<usize>,
    pub line: usize,
}

/// A condition on the live run that ticks when met.
#[derive(Clone, Debug)]
pub struct CheckBlock {
    /// Stable name: progress is kept by it, so text edits keep a student's ticks.
    pub id: String,
    pub label: String,
    pub condition: CheckCondition,
    /// The task whose run the check judges: the lesson's start task unless the
    /// check names another (`task = "brackets"`). A run of another task (a try
    /// that switched to it) never ticks it, however good its numbers.
    pub task: crate::tasks::TaskKind,
    pub hint: String,
    pub line: usize,
}

/// The lesson's falsifiable statement.
#[derive(Clone, Debug)]
pub struct ClaimBlock {
    pub id: String,
    pub claim: Claim,
    /// What its sides a and b are, in the interface's words (None for one side),
    /// worked out once when the lesson is read.
    pub sides: Option<(String, String)>,
    pub line: usize,
}

/// The answer to a "Your turn" question: hidden until the learner asks, and the
/// asking is recorded in their progress.
#[derive(Clone, Debug)]
pub struct AnswerBlock {
    pub id: String,
    /// Markdown.
    pub text: String,
    pub line: usize,
}

impl Lesson {
    pub fn answers(&self) -> impl Iterator<Item = &AnswerBlock> {
        self.body.iter().filter_map(|s| if let Segment::Answer(a) = s { Some(a) } else { None })
    }

    pub fn checks(&self) -> impl Iterator<Item = &CheckBlock> {
        self.body.iter().filter_map(|s| if let Segment::Check(c) = s { Some(c) } else { None })
    }

    pub fn claims(&self) -> impl Iterator<Item = &ClaimBlock> {
        self.body.iter().filter_map(|s| if let Segment::Claim(c) = s { Some(c) } else { None })
    }

    pub fn tries(&self) -> impl Iterator<Item = &TryBlock> {
        self.body.iter().filter_map(|s| if let Segment::Try(t) = s { Some(t) } else { None })
    }
}

impl TryBlock {
    /// The experiment after pressing the button on `current`.
    pub fn apply_to(&self, current: &ExperimentConfig) -> Result<ExperimentConfig, String> {
        let mut config = match &self.preset {
            Some(name) => crate::config::preset_keeping(name, current).ok_or_else(|| t!("err-lesson-unknown-preset", name = name.as_str()))?,
            None => current.clone(),
        };
        if let Some(task) = &self.task {
            let kind = crate::tasks::TaskKind::from_name(task).ok_or_else(|| t!("err-lesson-unknown-task", name = task.as_str()))?;
            config.task = crate::tasks::TaskConfig::for_kind(kind);
        }
        let mut config = apply_settings(&config, &self.settings)?;
        config.fit_max_len_to_task();
        if let Some(steps) = self.steps {
            config.steps = steps;
        }
        Ok(config)
    }
}

/// The lessons shipped with the app, built into the binary.
pub const BUILTIN: &[(&str, &str)] = &[
    ("lessons/01-why-attention/lesson.md", include_str!("../../lessons/01-why-attention/lesson.md")),
    ("lessons/02-qkv-by-hand/lesson.md", include_str!("../../lessons/02-qkv-by-hand/lesson.md")),
    ("lessons/03-why-sqrt-dk/lesson.md", include_str!("../../lessons/03-why-sqrt-dk/lesson.md")),
    ("lessons/04-no-order/lesson.md", include_str!("../../lessons/04-no-order/lesson.md")),
    ("lessons/05-positional-encoding/lesson.md", include_str!("../../lessons/05-positional-encoding/lesson.md")),
    ("lessons/06-multi-head/lesson.md", include_str!("../../lessons/06-multi-head/lesson.md")),
    ("lessons/07-masks/lesson.md", include_str!("../../lessons/07-masks/lesson.md")),
    ("lessons/08-mask-conventions/lesson.md", include_str!("../../lessons/08-mask-conventions/lesson.md")),
    ("lessons/09-residual-layernorm/lesson.md", include_str!("../../lessons/09-residual-layernorm/lesson.md")),
    ("lessons/10-feed-forward/lesson.md", include_str!("../../lessons/10-feed-forward/lesson.md")),
    ("lessons/11-sequence-length/lesson.md", include_str!("../../lessons/11-sequence-length/lesson.md")),
    ("lessons/12-kv-cache/lesson.md", include_str!("../../lessons/12-kv-cache/lesson.md")),
    ("lessons/13-reproducibility/lesson.md", include_str!("../../lessons/13-reproducibility/lesson.md")),
    ("lessons/14-debugging-checklist/lesson.md", include_str!("../../lessons/14-debugging-checklist/lesson.md")),
    ("lessons/15-when-not-to-use-attention/lesson.md", include_str!("../../lessons/15-when-not-to-use-attention/lesson.md")),
    ("lessons/16-pretrained-model/lesson.md", include_str!("../../lessons/16-pretrained-model/lesson.md")),
    ("lessons/17-induction-heads/lesson.md", include_str!("../../lessons/17-induction-heads/lesson.md")),
    ("lessons/18-fixed-vector/lesson.md", include_str!("../../lessons/18-fixed-vector/lesson.md")),
    ("lessons/19-cross-attention/lesson.md", include_str!("../../lessons/19-cross-attention/lesson.md")),
    ("lessons/20-sequential-vs-parallel/lesson.md", include_str!("../../lessons/20-sequential-vs-parallel/lesson.md")),
    ("lessons/21-positions-that-travel/lesson.md", include_str!("../../lessons/21-positions-that-travel/lesson.md")),
    ("lessons/22-choosing-heads/lesson.md", include_str!("../../lessons/22-choosing-heads/lesson.md")),
    ("lessons/23-every-token/lesson.md", include_str!("../../lessons/23-every-token/lesson.md")),
    ("lessons/24-do-you-need-attention/lesson.md", include_str!("../../lessons/24-do-you-need-attention/lesson.md")),
];

/// The shipped Chinese versions (`lesson.zh.md`), paired with the English ones by folder.
pub const BUILTIN_ZH: &[(&str, &str)] = &[
    ("lessons/01-why-attention/lesson.zh.md", include_str!("../../lessons/01-why-attention/lesson.zh.md")),
    ("lessons/02-qkv-by-hand/lesson.zh.md", include_str!("../../lessons/02-qkv-by-hand/lesson.zh.md")),
    ("lessons/03-why-sqrt-dk/lesson.zh.md", include_str!("../../lessons/03-why-sqrt-dk/lesson.zh.md")),
    ("lessons/04-no-order/lesson.zh.md", include_str!("../../lessons/04-no-order/lesson.zh.md")),
    ("lessons/05-positional-encoding/lesson.zh.md", include_str!("../../lessons/05-positional-encoding/lesson.zh.md")),
    ("lessons/06-multi-head/lesson.zh.md", include_str!("../../lessons/06-multi-head/lesson.zh.md")),
    ("lessons/07-masks/lesson.zh.md", include_str!("../../lessons/07-masks/lesson.zh.md")),
    ("lessons/08-mask-conventions/lesson.zh.md", include_str!("../../lessons/08-mask-conventions/lesson.zh.md")),
    ("lessons/09-residual-layernorm/lesson.zh.md", include_str!("../../lessons/09-residual-layernorm/lesson.zh.md")),
    ("lessons/10-feed-forward/lesson.zh.md", include_str!("../../lessons/10-feed-forward/lesson.zh.md")),
    ("lessons/11-sequence-length/lesson.zh.md", include_str!("../../lessons/11-sequence-length/lesson.zh.md")),
    ("lessons/12-kv-cache/lesson.zh.md", include_str!("../../lessons/12-kv-cache/lesson.zh.md")),
    ("lessons/13-reproducibility/lesson.zh.md", include_str!("../../lessons/13-reproducibility/lesson.zh.md")),
    ("lessons/14-debugging-checklist/lesson.zh.md", include_str!("../../lessons/14-debugging-checklist/lesson.zh.md")),
    ("lessons/15-when-not-to-use-attention/lesson.zh.md", include_str!("../../lessons/15-when-not-to-use-attention/lesson.zh.md")),
    ("lessons/16-pretrained-model/lesson.zh.md", include_str!("../../lessons/16-pretrained-model/lesson.zh.md")),
    ("lessons/17-induction-heads/lesson.zh.md", include_str!("../../lessons/17-induction-heads/lesson.zh.md")),
    ("lessons/18-fixed-vector/lesson.zh.md", include_str!("../../lessons/18-fixed-vector/lesson.zh.md")),
    ("lessons/19-cross-attention/lesson.zh.md", include_str!("../../lessons/19-cross-attention/lesson.zh.md")),
    ("lessons/20-sequential-vs-parallel/lesson.zh.md", include_str!("../../lessons/20-sequential-vs-parallel/lesson.zh.md")),
    ("lessons/21-positions-that-travel/lesson.zh.md", include_str!("../../lessons/21-positions-that-travel/lesson.zh.md")),
    ("lessons/22-choosing-heads/lesson.zh.md", include_str!("../../lessons/22-choosing-heads/lesson.zh.md")),
    ("lessons/23-every-token/lesson.zh.md", include_str!("../../lessons/23-every-token/lesson.zh.md")),
    ("lessons/24-do-you-need-attention/lesson.zh.md", include_str!("../../lessons/24-do-you-need-attention/lesson.zh.md")),
];

/// A lesson, or the error that stands in its place (the other lessons still load).
pub type Loaded = Result<Lesson, LessonError>;

/// The shipped lessons, parsed once per process (parsing validates every try and
/// claim side, which builds their tasks) and cloned for each caller.
pub fn builtin() -> Vec<Loaded> {
    static PARSED: std::sync::OnceLock<Vec<Loaded>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| BUILTIN.iter().map(|(file, text)| parse_lesson(file, text)).collect()).clone()
}

/// The shipped lessons in `lang`: each lesson's translation where it has one and
/// it pairs with the original, else the original (English).
pub fn builtin_in(lang: Lang) -> Vec<Loaded> {
    if lang == Lang::En {
        return builtin();
    }
    static PARSED_ZH: std::sync::OnceLock<Vec<Loaded>> = std::sync::OnceLock::new();
    PARSED_ZH
        .get_or_init(|| {
            builtin()
                .into_iter()
                .zip(BUILTIN)
                .map(|(original, (file, _))| {
                    let zh_file = file.replace("lesson.md", &translation::file_name(Lang::Zh));
                    match (&original, BUILTIN_ZH.iter().find(|(f, _)| *f == zh_file)) {
                        (Ok(english), Some((f, text))) => parse_lesson(f, text).and_then(|zh| translation::pair(english, zh)).or(original),
                        _ => original,
                    }
                })
                .collect()
        })
        .clone()
}

/// Every shipped translation paired with its original: the errors, if any.
pub fn builtin_translation_errors() -> Vec<LessonError> {
    BUILTIN_ZH
        .iter()
        .filter_map(|(file, text)| {
            let original_file = file.replace(&translation::file_name(Lang::Zh), "lesson.md");
            let (_, original_text) = BUILTIN.iter().find(|(f, _)| *f == original_file)?;
            let original = parse_lesson(&original_file, original_text).ok()?;
            parse_lesson(file, text).and_then(|zh| translation::pair(&original, zh)).err()
        })
        .collect()
}

/// `load_path` in `lang`: a lesson's `lesson.<lang>.md` where it has one (checked
/// against its `lesson.md`; an error in the pairing stands in the lesson's place).
pub fn load_path_in(path: &Path, lang: Lang) -> Result<Vec<Loaded>, String> {
    let originals = load_path(path)?;
    if lang == Lang::En {
        return Ok(originals);
    }
    Ok(originals
        .into_iter()
        .map(|original| {
            let Ok(english) = &original else { return original };
            let translated = Path::new(&english.source).with_file_name(translation::file_name(lang));
            match std::fs::read_to_string(&translated) {
                Ok(text) => parse_lesson(&translated.display().to_string(), &text).and_then(|t| translation::pair(english, t)),
                Err(_) => original,
            }
        })
        .collect())
}

/// Every `lesson.md` under `path` (a lesson file, a lesson folder, or a pack of
/// lesson folders), in name order.
pub fn load_path(path: &Path) -> Result<Vec<Loaded>, String> {
    let files = lesson_files(path)?;
    if files.is_empty() {
        return Err(t!("err-lessons-none-found", path = path.display().to_string()));
    }
    Ok(files
        .iter()
        .map(|file| {
            let shown = file.display().to_string();
            match std::fs::read_to_string(file) {
                Ok(text) => parse_lesson(&shown, &text),
                Err(e) => Err(LessonError { file: shown, line: 0, message: t!("err-cannot-read", why = e.to_string()) }),
            }
        })
        .collect())
}

fn lesson_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    if !path.is_dir() {
        return Err(t!("err-lessons-no-such-path", path = path.display().to_string()));
    }
    let direct = path.join("lesson.md");
    if direct.is_file() {
        return Ok(vec![direct]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path().join("lesson.md")))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}
