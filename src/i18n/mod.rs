//! Every string the interface shows goes through here: Fluent messages in
//! `assets/i18n/en/*.ftl` and `assets/i18n/zh/*.ftl`, looked up by key in the current
//! language, falling back to English (and to the key itself, which a test forbids).
//!
//! `t!("top-start")` or `t!("gen-summary", step = 12, speedup = "3.1")`.
//! The language is process-wide: the window switches it at once from the menu,
//! the CLI sets it from `--lang`.

pub mod glossary;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

/// The languages the interface and the lessons are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in files and on the command line: "en", "zh".
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language's name in itself, for the menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文（简体）",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language of a locale name such as "zh_CN.UTF-8" (English for anything
    /// that is not Chinese).
    pub fn from_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("zh") { Lang::Zh } else { Lang::En }
    }

    /// The system's language, from the usual environment variables in POSIX order.
    pub fn system() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|var| std::env::var(var).ok().filter(|v| !v.is_empty()))
            .map_or(Lang::En, |locale| Lang::from_locale(&locale))
    }

    /// The Fluent files of this language (one per area of the interface).
    pub fn sources(self) -> [&'static str; 9] {
        match self {
            Lang::En => [
                include_str!("../../assets/i18n/en/app.ftl"),
                include_str!("../../assets/i18n/en/lesson.ftl"),
                include_str!("../../assets/i18n/en/editor.ftl"),
                include_str!("../../assets/i18n/en/views.ftl"),
                include_str!("../../assets/i18n/en/messages.ftl"),
                include_str!("../../assets/i18n/en/reports.ftl"),
                include_str!("../../assets/i18n/en/cli.ftl"),
                include_str!("../../assets/i18n/en/errors.ftl"),
                include_str!("../../assets/i18n/en/pretrained.ftl"),
            ],
            Lang::Zh => [
                include_str!("../../assets/i18n/zh/app.ftl"),
                include_str!("../../assets/i18n/zh/lesson.ftl"),
                include_str!("../../assets/i18n/zh/editor.ftl"),
                include_str!("../../assets/i18n/zh/views.ftl"),
                include_str!("../../assets/i18n/zh/messages.ftl"),
                include_str!("../../assets/i18n/zh/reports.ftl"),
                include_str!("../../assets/i18n/zh/cli.ftl"),
                include_str!("../../assets/i18n/zh/errors.ftl"),
                include_str!("../../assets/i18n/zh/pretrained.ftl"),
            ],
        }
    }

    /// The whole Fluent source of this language.
    pub fn source(self) -> String {
        self.sources().join("\n")
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Switch the interface language (takes effect on the next frame).
pub fn set_lang(lang: Lang) {
    CURRENT.store(lang as u8, Ordering::Relaxed);
}

pub fn lang() -> Lang {
    if CURRENT.load(Ordering::Relaxed) == Lang::Zh as u8 { Lang::Zh } else { Lang::En }
}

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: OnceLock<[FluentBundle<FluentResource>; 2]> = OnceLock::new();
    let bundles = BUNDLES.get_or_init(|| Lang::ALL.map(build_bundle));
    &bundles[lang as usize]
}

fn build_bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = lang.code().parse().expect("a valid language code");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around arguments: egui would draw them as boxes.
    bundle.set_use_isolating(false);
    // A syntax error in a shipped file is caught by a test; here the good entries still load.
    let resource = FluentResource::try_new(lang.source()).unwrap_or_else(|(partial, _)| partial);
    bundle.add_resource_overriding(resource);
    bundle
}

/// The message `key` in the current language with `args`, else in English, else the key.
pub fn message(key: &str, args: Option<&FluentArgs>) -> String {
    let lang = lang();
    if args.is_none() {
        return cached(lang, key, || uncached(lang, key, None));
    }
    uncached(lang, key, args)
}

fn uncached(lang: Lang, key: &str, args: Option<&FluentArgs>) -> String {
    [lang, Lang::En]
        .into_iter()
        .find_map(|l| format_in(l, key, args))
        .unwrap_or_else(|| key.to_string())
}

/// `make()` the first time `key` is asked for in `lang` on this thread, then a copy
/// of it: the window asks for the same labels and tooltips every frame.
pub fn cached(lang: Lang, key: &str, make: impl FnOnce() -> String) -> String {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static MADE: RefCell<[HashMap<String, String>; 2]> = RefCell::new([HashMap::new(), HashMap::new()]);
    }
    MADE.with(|made| {
        if let Some(text) = made.borrow()[lang as usize].get(key) {
            return text.clone();
        }
        let text = make();
        made.borrow_mut()[lang as usize].insert(key.to_string(), text.clone());
        text
    })
}

/// The message in one language, None when that language lacks it.
pub fn format_in(lang: Lang, key: &str, args: Option<&FluentArgs>) -> Option<String> {
    let bundle = bundle(lang);
    let pattern = bundle.get_message(key)?.value()?;
    let mut errors = Vec::new();
    Some(bundle.format_pattern(pattern, args, &mut errors).into_owned())
}

/// Every message key of a language's file, in file order (a message starts a
/// line with its identifier and " =").
pub fn keys(lang: Lang) -> Vec<String> {
    lang.source()
        .lines()
        .filter_map(|line| line.split_once(" =").map(|(id, _)| id))
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') && id.starts_with(|c: char| c.is_ascii_alphabetic()))
        .map(str::to_string)
        .collect()
}

/// Turn a value into a Fluent argument (numbers stay numbers for plural rules).
pub fn arg<'a>(value: impl Into<FluentValue<'a>>) -> FluentValue<'a> {
    value.into()
}

/// `t!("key")` or `t!("key", name = value, ...)`: the message in the current language.
#[macro_export]
macro_rules! t {
    ($key:expr) => {
        $crate::i18n::message($key, None)
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = fluent_bundle::FluentArgs::new();
        $(args.set(stringify!($name), $crate::i18n::arg($value));)+
        $crate::i18n::message($key, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_parse_and_have_the_same_keys() {
        for lang in Lang::ALL {
            for (i, source) in lang.sources().iter().enumerate() {
                if let Err((_, errors)) = FluentResource::try_new(source.to_string()) {
                    panic!("file {i} of assets/i18n/{}/ has syntax errors: {errors:?}", lang.code());
                }
            }
        }
        let (en, zh) = (keys(Lang::En), keys(Lang::Zh));
        let missing_zh: Vec<&String> = en.iter().filter(|k| !zh.contains(k)).collect();
        let missing_en: Vec<&String> = zh.iter().filter(|k| !en.contains(k)).collect();
        assert!(missing_zh.is_empty(), "keys in en.ftl but not zh.ftl: {missing_zh:?}");
        assert!(missing_en.is_empty(), "keys in zh.ftl but not en.ftl: {missing_en:?}");
        let mut sorted = en.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), en.len(), "a key is defined twice in en.ftl");
    }

    /// Each message's `$variables`, by key, read from the .ftl text (a message is
    /// its `key =` line and the indented lines under it).
    fn variables(lang: Lang) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
        let mut out = std::collections::BTreeMap::new();
        for source in lang.sources() {
            let mut key: Option<String> = None;
            for line in source.lines() {
                if !line.starts_with([' ', '\t']) {
                    key = line.split_once(" =").map(|(k, _)| k.trim().to_string()).filter(|k| !k.starts_with('#') && !k.is_empty());
                }
                let Some(key) = &key else { continue };
                let names: &mut std::collections::BTreeSet<String> = out.entry(key.clone()).or_default();
                for (i, _) in line.match_indices('$') {
                    let name: String = line[i + 1..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-').collect();
                    names.insert(name);
                }
            }
        }
        out
    }

    #[test]
    fn both_languages_fill_in_the_same_variables() {
        let (en, zh) = (variables(Lang::En), variables(Lang::Zh));
        let differ: Vec<String> = en
            .iter()
            .filter(|(key, names)| zh.get(*key).is_some_and(|other| other != *names))
            .map(|(key, names)| format!("{key}: en {names:?}, zh {:?}", zh[key]))
            .collect();
        assert!(differ.is_empty(), "messages whose variables differ between the languages: {differ:?}");
        assert!(en["gen-tokens-capped"].contains("most"), "the reader finds variables");
    }

    #[test]
    fn every_key_the_code_uses_exists() {
        let en = keys(Lang::En);
        let mut missing = Vec::new();
        for file in crate::i18n::tests::rust_files(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path()) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, _) in text.match_indices("t!(\"") {
                // `t!(` itself, not the end of `format!(` or `print!(`.
                if text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = &text[i + 4..];
                let key = &rest[..rest.find('"').unwrap()];
                if key != "key" && !en.iter().any(|k| k == key) {
                    missing.push(format!("{}: {key}", file.display()));
                }
            }
        }
        assert!(missing.is_empty(), "keys used in the code but not in en.ftl: {missing:?}");
    }

    /// Keys the code builds or keeps in tables (`"tab-attention"`, then
    /// `format!("{key}-tip")`; `"rep-bug"` + a code): every string literal shaped
    /// like a key, whose first word starts some key, must be a key or start one.
    #[test]
    fn every_key_kept_in_a_table_or_built_at_run_time_exists() {
        let en = keys(Lang::En);
        let first_words: std::collections::BTreeSet<&str> = en.iter().filter_map(|k| k.split('-').next()).collect();
        let is_key_shaped = |s: &str| {
            s.contains('-') && !s.starts_with("attention-workbench") && s.split('-').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
        };
        let (mut missing, mut seen) = (Vec::new(), 0);
        for file in rust_files(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path()) {
            let text = std::fs::read_to_string(&file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for literal in code.split('"').skip(1).step_by(2) {
                if !is_key_shaped(literal) || !literal.split('-').next().is_some_and(|w| first_words.contains(w)) {
                    continue;
                }
                seen += 1;
                if !en.iter().any(|k| k == literal || k.starts_with(&format!("{literal}-"))) {
                    missing.push(format!("{}: {literal}", file.display()));
                }
            }
        }
        assert!(missing.is_empty(), "key-shaped strings in the code that no message has: {missing:?}");
        assert!(seen > 100, "the scan sees the tables ({seen} keys)");
        // The tabs' tooltips are built as `{key}-tip`.
        let tips: Vec<&String> = en.iter().filter(|k| k.starts_with("tab-") && !k.ends_with("-tip") && !en.contains(&format!("{k}-tip"))).collect();
        assert!(tips.is_empty(), "tabs without a tooltip: {tips:?}");
    }

    pub(super) fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
        out
    }

    #[test]
    fn arguments_fill_in_and_a_missing_translation_falls_back_to_english() {
        // Per language, without touching the process-wide setting other tests read.
        assert_eq!(format_in(Lang::Zh, "lang-name", None).as_deref(), Some("中文（简体）"));
        assert_eq!(format_in(Lang::En, "lang-name", None).as_deref(), Some("English"));
        let mut args = FluentArgs::new();
        args.set("name", "Ada");
        assert_eq!(format_in(Lang::En, "test-greeting", Some(&args)).as_deref(), Some("Hello, Ada"));
        assert_eq!(format_in(Lang::Zh, "test-greeting", Some(&args)).as_deref(), Some("你好，Ada"));
        assert_eq!(message("no-such-key", None), "no-such-key");
        assert_eq!(Lang::from_locale("zh_CN.UTF-8"), Lang::Zh);
        assert_eq!(Lang::from_locale("C.UTF-8"), Lang::En);
    }

    #[test]
    fn a_count_of_one_step_reads_as_one_step_in_english() {
        // The CLI's summaries and the handout's experiment line (not "1 steps").
        for (key, count) in [("cli-train-finished", "step"), ("cli-eval-result", "step"), ("handout-experiment", "steps"), ("handout-experiment-rnn", "steps")] {
            for (n, says) in [(1, "one step"), (300, "300 steps")] {
                let mut args = FluentArgs::new();
                args.set(count, n);
                let text = format_in(Lang::En, key, Some(&args)).unwrap_or_default();
                assert!(text.contains(says) && !text.contains("1 steps"), "{key} with {n}: {text}");
            }
        }
    }
}
