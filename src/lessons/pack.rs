//! A lesson pack: a folder of lesson folders, an optional `bugs/` folder of
//! bug-hunt cases, and an optional `pack.toml` naming it (`id`, `title`,
//! `version`). The shipped lessons are the pack `attention-workbench`. A student's
//! progress export carries the pack's id and version, so a teacher's report
//! knows which lessons the ticks belong to.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::bug_case::{BUILTIN_CASES, BugCase, case_files, load_bug_case, parse_bug_case};
use super::{LessonError, Loaded};
use crate::i18n::Lang;
use crate::t;

/// The id of the shipped pack.
pub const BUILTIN_PACK_ID: &str = "attention-workbench";

/// What names a pack.
#[derive(Clone, Debug, PartialEq)]
pub struct PackInfo {
    pub id: String,
    pub title: String,
    pub version: String,
    /// The path it was opened from (canonical); None for the shipped pack.
    pub root: Option<PathBuf>,
}

impl PackInfo {
    pub fn builtin() -> Self {
        Self {
            id: BUILTIN_PACK_ID.to_string(),
            title: "Attention Workbench".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            root: None,
        }
    }
}

/// A pack's lessons and bug-hunt cases, each read or the error in its place.
#[derive(Clone, Debug)]
pub struct Pack {
    pub info: PackInfo,
    pub lessons: Vec<Loaded>,
    pub cases: Vec<Result<BugCase, LessonError>>,
}

impl Pack {
    /// Every error in the pack (lessons, translations and cases).
    pub fn errors(&self) -> Vec<&LessonError> {
        let lessons = self.lessons.iter().filter_map(|l| l.as_ref().err());
        lessons.chain(self.cases.iter().filter_map(|c| c.as_ref().err())).collect()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    id: String,
    title: Option<String>,
    #[serde(default)]
    version: Option<String>,
}

/// The shipped pack in `lang`.
pub fn builtin(lang: Lang) -> Pack {
    Pack {
        info: PackInfo::builtin(),
        lessons: super::builtin_in(lang),
        cases: BUILTIN_CASES.iter().map(|(file, text)| parse_bug_case(file, text, lang)).collect(),
    }
}

/// Open the pack at `path` (a pack folder, or one lesson folder or file) in `lang`.
/// Without `pack.toml` the folder's name is its id and its version is "0".
pub fn load_pack(path: &Path, lang: Lang) -> Result<Pack, String> {
    // The path as given (a pack, a lesson folder or one lesson file) is what is
    // remembered and read again; the manifest and bugs/ sit in its folder.
    let given = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let folder = if given.is_file() { given.parent().unwrap_or(Path::new(".")).to_path_buf() } else { given.clone() };
    let folder = folder.as_path();
    let manifest_file = folder.join("pack.toml");
    let name = folder.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or_else(|| "pack".into());
    let info = match std::fs::read_to_string(&manifest_file) {
        // A folder named like the shipped pack still gets an id of its own.
        Err(_) if name == BUILTIN_PACK_ID => PackInfo { id: format!("{name}-pack"), title: name, version: "0".into(), root: Some(given.clone()) },
        Err(_) => PackInfo { id: name.clone(), title: name, version: "0".into(), root: Some(given.clone()) },
        Ok(text) => {
            let manifest: Manifest = toml::from_str(&text).map_err(|e| {
                let line = 1 + super::parse::toml_line(&text, &e);
                t!("err-pack-manifest", file = manifest_file.display().to_string(), line = line, why = e.message().trim())
            })?;
            super::parse::claim_id(&mut Default::default(), &manifest.id, 1)
                .map_err(|m| t!("err-pack-manifest", file = manifest_file.display().to_string(), line = 1, why = m))?;
            if manifest.id == BUILTIN_PACK_ID {
                return Err(t!("err-pack-manifest", file = manifest_file.display().to_string(), line = 1, why = t!("err-pack-id-builtin", id = BUILTIN_PACK_ID)));
            }
            PackInfo {
                title: manifest.title.unwrap_or_else(|| manifest.id.clone()),
                id: manifest.id,
                version: manifest.version.unwrap_or_else(|| "0".into()),
                root: Some(given.clone()),
            }
        }
    };
    let cases: Vec<_> = case_files(folder).iter().map(|f| load_bug_case(f, lang)).collect();
    let lessons = match super::load_path_in(path, lang) {
        Ok(lessons) => lessons,
        // A pack of bug-hunt cases alone is a pack too.
        Err(_) if !cases.is_empty() => Vec::new(),
        Err(e) => return Err(e),
    };
    Ok(Pack { info, lessons, cases })
}

/// The lessons and bug-hunt cases of `pack` whose id a shipped one already has:
/// the window refuses each (progress is kept by id), with these messages.
pub fn ids_taken_by_shipped(pack: &Pack) -> Vec<LessonError> {
    let shipped = builtin(crate::i18n::lang());
    let mut out = Vec::new();
    for lesson in pack.lessons.iter().flatten() {
        if let Some(other) = shipped.lessons.iter().flatten().find(|o| o.id == lesson.id) {
            out.push(lesson_id_taken(lesson, other));
        }
    }
    for case in pack.cases.iter().flatten() {
        if let Some(other) = shipped.cases.iter().flatten().find(|o| o.id == case.id) {
            out.push(case_id_taken(case, other));
        }
    }
    out
}

/// A lesson refused because `other`, already open, has its id.
pub fn lesson_id_taken(lesson: &super::Lesson, other: &super::Lesson) -> LessonError {
    LessonError { file: lesson.source.clone(), line: 1, message: t!("err-lesson-id-taken", id = lesson.id.as_str(), other = other.source.as_str()) }
}

/// A bug-hunt case refused because `other`, already open, has its id.
pub fn case_id_taken(case: &BugCase, other: &BugCase) -> LessonError {
    LessonError { file: case.source.clone(), line: 1, message: t!("err-bug-case-repeated", id = case.id.as_str(), first = other.source.as_str()) }
}

/// Problems `lesson check` reports beyond each file's own: two cases with one id.
pub fn duplicate_case_ids(cases: &[Result<BugCase, LessonError>]) -> Vec<LessonError> {
    let mut seen = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    for case in cases.iter().flatten() {
        if let Some(first) = seen.insert(case.id.clone(), case.source.clone()) {
            out.push(LessonError { file: case.source.clone(), line: 1, message: t!("err-bug-case-repeated", id = case.id.as_str(), first = first) });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_folder_reads_its_manifest_lessons_and_cases() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pack.toml"), "id = \"week-3\"\ntitle = \"Week 3\"\nversion = \"2026.2\"\n").unwrap();
        std::fs::create_dir_all(dir.path().join("01-one")).unwrap();
        std::fs::write(dir.path().join("01-one/lesson.md"), super::super::BUILTIN[0].1).unwrap();
        std::fs::create_dir_all(dir.path().join("bugs")).unwrap();
        std::fs::write(dir.path().join("bugs/a.toml"), BUILTIN_CASES[0].1).unwrap();
        std::fs::write(dir.path().join("bugs/b.toml"), "id = \"b\"\n").unwrap();
        let pack = load_pack(dir.path(), Lang::En).unwrap();
        assert_eq!((pack.info.id.as_str(), pack.info.version.as_str()), ("week-3", "2026.2"));
        assert_eq!(pack.lessons.len(), 1);
        assert_eq!(pack.cases.len(), 2);
        assert!(pack.cases[0].is_ok());
        let errors = pack.errors();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].file.ends_with("b.toml"), "{}", errors[0]);
        std::fs::write(dir.path().join("pack.toml"), "id = \"week 3!\"\n").unwrap();
        let err = load_pack(dir.path(), Lang::En).unwrap_err();
        assert!(err.contains("pack.toml") && err.contains("week 3!"), "{err}");
    }
}
