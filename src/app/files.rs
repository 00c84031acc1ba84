//! Files the window reads and writes: experiments (config JSON), PNG exports and
//! the choice of paths. The dialogs only choose a path; reading and writing go
//! through plain functions that the tests call directly.

use std::path::{Path, PathBuf};

use eframe::egui;

use crate::config::ExperimentConfig;
use crate::runs::write_atomic;
use crate::t;
use crate::workbench::PathRequest;

/// Read an experiment file; the error names the file and the problem.
pub fn load_experiment(path: &Path) -> Result<ExperimentConfig, String> {
    crate::runs::read_json(path).map_err(|e| e.to_string())
}

/// Write an experiment file atomically.
pub fn save_experiment(path: &Path, config: &ExperimentConfig) -> Result<(), String> {
    write_atomic(path, config.to_json().as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Save the `rect` part of a screenshot as a PNG.
pub fn save_png_region(image: &egui::ColorImage, rect: egui::Rect, pixels_per_point: f32, path: &Path) -> Result<(), String> {
    let region = image.region(&rect, Some(pixels_per_point));
    let [w, h] = region.size;
    let bytes: Vec<u8> = region.pixels.iter().flat_map(|c| c.to_array()).collect();
    let mut encoded = Vec::new();
    let buffer = image::RgbaImage::from_raw(w as u32, h as u32, bytes).ok_or_else(|| t!("msg-empty-screenshot-region"))?;
    buffer
        .write_to(&mut std::io::Cursor::new(&mut encoded), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    write_atomic(path, &encoded).map_err(|e| format!("{}: {e}", path.display()))
}

/// Ask the desktop's file dialog, starting in `folder` with `name` suggested. It
/// blocks until answered: the app calls it on a background thread, through rfd's
/// async dialog, which every platform allows off the main thread.
pub fn dialog(request: PathRequest, folder: &Path, name: &str) -> DialogAnswer {
    let start = std::time::Instant::now();
    let title = request.title();
    let dialog = rfd::AsyncFileDialog::new().set_title(title.as_str());
    let chosen = match request {
        PathRequest::OpenExperiment => pollster::block_on(dialog.add_filter(t!("msg-dialog-filter-experiment"), &["json"]).pick_file()),
        PathRequest::SaveRun | PathRequest::LoadRun | PathRequest::OpenLessonPack | PathRequest::ExportHandout | PathRequest::OpenPretrained => pollster::block_on(dialog.pick_folder()),
        _ => {
            let extension = request.default_name().rsplit('.').next().unwrap_or("");
            pollster::block_on(dialog.set_directory(folder).set_file_name(name).add_filter(extension, &[extension]).save_file())
        }
    };
    match chosen {
        Some(file) => DialogAnswer::Chosen(file.path().to_path_buf()),
        // A person needs longer than this to cancel: the dialog never showed.
        None if start.elapsed() < std::time::Duration::from_millis(150) => DialogAnswer::Unavailable,
        None => DialogAnswer::Cancelled,
    }
}

/// What the file dialog gave back.
#[derive(Clone, Debug, PartialEq)]
pub enum DialogAnswer {
    Chosen(PathBuf),
    Cancelled,
    /// No dialog could be shown on this desktop (no portal, no zenity).
    Unavailable,
}

/// Whether this desktop can show a file dialog at all: on Linux rfd needs the
/// desktop portal (a D-Bus session) or the `zenity` program.
pub fn dialogs_available() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let on_path = |program: &str| {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
    };
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() || on_path("zenity")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screenshot_region_is_written_as_a_png_of_that_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("part.png");
        let pixels = (0..40 * 30).map(|i| egui::Color32::from_gray((i % 256) as u8)).collect();
        let image = egui::ColorImage::new([40, 30], pixels);
        let rect = egui::Rect::from_min_size(egui::pos2(5.0, 5.0), egui::vec2(10.0, 8.0));
        save_png_region(&image, rect, 2.0, &path).unwrap();
        let written = image::open(&path).unwrap();
        assert_eq!((written.width(), written.height()), (20, 16));
    }

    #[test]
    fn experiments_round_trip_and_bad_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exp.json");
        let mut config = ExperimentConfig::default();
        config.model.layers.pop();
        save_experiment(&path, &config).unwrap();
        assert_eq!(load_experiment(&path).unwrap(), config);
        std::fs::write(&path, "{ nope").unwrap();
        let err = load_experiment(&path).unwrap_err();
        assert!(err.contains("exp.json"), "{err}");
    }
}

/// Where a learner's files go by default: the desktop's documents folder (as the
/// user's settings name it: `~/文档`, Windows' Documents), else `~/Documents`,
/// when it exists; else the working folder.
pub fn documents_dir() -> PathBuf {
    let named = dirs::document_dir();
    let usual = dirs::home_dir().map(|home| home.join("Documents"));
    named.into_iter().chain(usual).find(|d| d.is_dir()).or_else(|| std::env::current_dir().ok()).unwrap_or_default()
}

/// A progress file's suggested name: the student and the pack in it, so a class's
/// files differ (`progress-ada-lovelace-week-3.json`).
pub fn progress_file_name(student: &str, pack: &str) -> String {
    let slug = |text: &str| {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        words.join("-")
    };
    let parts: Vec<String> = ["progress".to_string(), slug(student), slug(pack)].into_iter().filter(|p| !p.is_empty()).collect();
    format!("{}.json", parts.join("-"))
}

/// `name` in `folder` if nothing is there by that name, else the first free
/// `stem-2.ext`, `stem-3.ext`…: a suggested save never replaces an older file.
pub fn unused_name(folder: &Path, name: &str) -> String {
    if name.is_empty() || !folder.join(name).exists() {
        return name.to_string();
    }
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, format!(".{extension}")),
        _ => (name, String::new()),
    };
    (2..10_000).map(|n| format!("{stem}-{n}{extension}")).find(|candidate| !folder.join(candidate).exists()).unwrap_or_else(|| name.to_string())
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn a_suggested_name_never_replaces_an_older_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(unused_name(dir.path(), "plots.png"), "plots.png");
        std::fs::write(dir.path().join("plots.png"), "old").unwrap();
        assert_eq!(unused_name(dir.path(), "plots.png"), "plots-2.png");
        std::fs::write(dir.path().join("plots-2.png"), "old").unwrap();
        assert_eq!(unused_name(dir.path(), "plots.png"), "plots-3.png");
        // A folder (a saved run) is a name without an extension.
        std::fs::create_dir(dir.path().join("run")).unwrap();
        assert_eq!(unused_name(dir.path(), "run"), "run-2");
        assert_eq!(unused_name(dir.path(), ""), "", "an open suggests nothing");
    }

    #[test]
    fn a_progress_file_is_named_after_the_student_and_the_pack() {
        assert_eq!(progress_file_name("Ada Lovelace", "week-3"), "progress-ada-lovelace-week-3.json");
        assert_eq!(progress_file_name("  ", "attention-workbench"), "progress-attention-workbench.json");
        assert_eq!(progress_file_name("李雷", "week 3"), "progress-李雷-week-3.json");
    }
}
