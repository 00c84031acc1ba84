//! Files the window reads and writes: experiments (config JSON), PNG exports and
//! the choice of paths. The dialogs only choose a path; reading and writing go
//! through plain functions that the tests call directly.

use std::path::{Path, PathBuf};

use eframe::egui;

use crate::config::ExperimentConfig;
use crate::runs::write_atomic;

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
    let buffer = image::RgbaImage::from_raw(w as u32, h as u32, bytes).ok_or("empty screenshot region")?;
    buffer
        .write_to(&mut std::io::Cursor::new(&mut encoded), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    write_atomic(path, &encoded).map_err(|e| format!("{}: {e}", path.display()))
}

/// The native dialogs. Each returns None when cancelled (or when no dialog can be
/// shown on this desktop), and the app then says nothing happened.
pub mod dialogs {
    use super::*;

    pub fn open_json(title: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().set_title(title).add_filter("experiment", &["json"]).pick_file()
    }

    pub fn save_file(title: &str, default_name: &str, extension: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title(title)
            .set_file_name(default_name)
            .add_filter(extension, &[extension])
            .save_file()
    }

    pub fn pick_folder(title: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().set_title(title).pick_folder()
    }
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
