//! Saving a whole run folder so that a kill at any moment leaves the old folder or
//! the new one, never a mix: the new files are written into a hidden staging folder
//! beside it, the old folder is renamed aside, the staging folder is renamed into
//! place, and the old one is removed. A load that finds no folder but a complete
//! staging folder (or the renamed-aside old one) puts it back first.
//!
//! A folder that holds files of the user's besides a run's is never moved: it is
//! updated file by file (each file still atomically).

use std::path::{Path, PathBuf};

/// The files a run folder consists of; `last` is written last (its presence marks
/// a complete staging folder).
pub struct Layout<'a> {
    pub files: &'a [&'a str],
    pub last: &'a str,
}

fn sibling(dir: &Path, tag: &str) -> Option<PathBuf> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(parent.join(format!(".{name}.{tag}")))
}

/// Hidden siblings of `dir` whose names start with `.{name}.{tag}`.
fn siblings(dir: &Path, tag: &str) -> Vec<PathBuf> {
    let (Some(name), Some(parent)) = (dir.file_name(), dir.parent()) else { return Vec::new() };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    let prefix = format!(".{}.{tag}", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent) else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

/// Whether `dir` holds nothing but the layout's files (and our own temporaries).
fn only_run_files(dir: &Path, layout: &Layout) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.filter_map(Result::ok).all(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        layout.files.contains(&name.as_str()) || name.starts_with(".partial-") || name.starts_with(".tmp")
    })
}

/// Write a run folder through `write_files(folder)` so that `dir` is always the old
/// run or the new one.
pub fn save_folder<E>(dir: &Path, layout: &Layout, write_files: impl FnOnce(&Path) -> Result<(), E>, io_error: impl Fn(&Path, std::io::Error) -> E) -> Result<(), E> {
    let swappable = !dir.exists() || only_run_files(dir, layout);
    let (Some(staging), Some(aside)) = (sibling(dir, &format!("saving-{}", std::process::id())), sibling(dir, &format!("old-{}", std::process::id()))) else {
        return write_files(dir);
    };
    if !swappable {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        return write_files(dir);
    }
    // Leftovers of killed saves, once the folder itself is in place.
    if dir.is_dir() {
        for stale in siblings(dir, "old-").into_iter().chain(siblings(dir, "saving-")) {
            let _ = std::fs::remove_dir_all(stale);
        }
    }
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| io_error(&staging, e))?;
    write_files(&staging)?;
    if dir.exists() {
        std::fs::rename(dir, &aside).map_err(|e| io_error(dir, e))?;
    }
    std::fs::rename(&staging, dir).map_err(|e| io_error(dir, e))?;
    let _ = std::fs::remove_dir_all(&aside);
    Ok(())
}

/// When `dir` is missing because a save was killed between its two renames, put the
/// complete new folder (or else the old one) back in its place.
pub fn recover_folder(dir: &Path, layout: &Layout) {
    if dir.exists() {
        return;
    }
    let complete = siblings(dir, "saving-").into_iter().find(|s| s.join(layout.last).is_file());
    let fallback = || siblings(dir, "old-").into_iter().find(|s| s.is_dir());
    if let Some(found) = complete.or_else(fallback) {
        let _ = std::fs::rename(found, dir);
    }
}
