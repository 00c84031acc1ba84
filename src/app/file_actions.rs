//! Reading and writing files from the window: the path (a native dialog, or a
//! path field where none can open), then experiments, run folders and PNG/CSV
//! exports.

use std::path::{Path, PathBuf};

use eframe::egui;

use super::files;
use super::inbox::Message;
use crate::workbench::PathRequest;
use crate::workbench::run_view::{Banner, BannerKind};
use super::{CUSTOM, Checked, WorkbenchApp};
use crate::config::ExperimentConfig;
use crate::t;
use crate::training::TrainCommand;

impl WorkbenchApp {
    /// Load an experiment file into the editor (the dialog's path, or a test's).
    pub fn open_experiment(&mut self, path: &Path) {
        match files::load_experiment(path) {
            Ok(config) => {
                self.lessons.experiment_of = None;
                self.edit(|c| *c = config);
                self.state.preset = CUSTOM.to_string();
                self.success(t!("lesson-msg-opened", path = path.display().to_string()));
            }
            Err(err) => self.notice(BannerKind::Error, t!("lesson-msg-open-failed", error = err.to_string())),
        }
    }

    /// A few KB written at once (not in the background): the save is on disk when
    /// the window closes, and two quick saves land in order.
    pub fn save_experiment(&mut self, path: &Path) {
        match files::save_experiment(path, &self.state.config) {
            Ok(()) => self.success(t!("lesson-msg-saved", path = path.display().to_string())),
            Err(err) => self.notice(BannerKind::Error, t!("lesson-msg-save-failed", error = err.to_string())),
        }
    }

    pub fn load_run(&mut self, dir: PathBuf) {
        match crate::runs::read_json::<ExperimentConfig>(&dir.join(crate::runs::CONFIG_FILE)) {
            Ok(config) => {
                self.lessons.experiment_of = None;
                self.edit(|c| *c = config.clone());
                self.applied = config;
                self.checked = Checked::of(&self.state.config);
                self.trainer.send(TrainCommand::Load(dir));
            }
            Err(err) => self.notice(BannerKind::Error, t!("lesson-msg-load-run-failed", error = err.to_string())),
        }
    }

    /// Ask the file dialog for a path, off the window's thread (the window stays
    /// live behind it); where none can open, ask in a path field.
    pub(super) fn ask_path(&mut self, request: PathRequest) {
        let hidden = match request {
            PathRequest::ExportPlots => self.panels.plots_rect.is_none(),
            PathRequest::ExportAttention => self.panels.central_rect.is_none(),
            _ => false,
        };
        if hidden {
            return self.notice(BannerKind::Warning, t!("lesson-msg-panel-hidden"));
        }
        if self.background.dialog_open {
            return self.notice(BannerKind::Info, t!("lesson-msg-dialog-open"));
        }
        let name = self.suggested_name(request);
        if !files::dialogs_available() {
            return self.dialog_answered(request, files::DialogAnswer::Unavailable);
        }
        self.background.dialog_open = true;
        let folder = self.files_dir.clone();
        self.inbox.spawn_thread("file dialog", move |out| {
            // Whatever happens in the dialog, the window hears back (else it would
            // refuse every later dialog as "already open").
            let answer = std::panic::catch_unwind(|| files::dialog(request, &folder, &name)).unwrap_or(files::DialogAnswer::Unavailable);
            out.send(Message::Dialog(request, answer));
        });
    }

    /// The name a save suggests: one not yet taken in the files folder, except a
    /// progress file, which holds everything so far and replaces the one before
    /// (a second file would count the student twice in the class report).
    fn suggested_name(&self, request: PathRequest) -> String {
        match request {
            PathRequest::ExportProgress => files::progress_file_name(&self.state.student_name, &self.lessons.current_pack().id),
            other => files::unused_name(&self.files_dir, other.default_name()),
        }
    }

    /// What the file dialog answered.
    pub(super) fn dialog_answered(&mut self, request: PathRequest, answer: files::DialogAnswer) {
        match answer {
            files::DialogAnswer::Chosen(path) => self.use_path(request, path),
            files::DialogAnswer::Cancelled => self.notice(BannerKind::Info, request.cancelled().to_string()),
            files::DialogAnswer::Unavailable => {
                let name = self.suggested_name(request);
                self.window.path_prompt = Some((request, self.files_dir.join(name).display().to_string()));
            }
        }
    }

    /// Do what was asked with the chosen path.
    pub(super) fn use_path(&mut self, request: PathRequest, path: PathBuf) {
        match request {
            PathRequest::OpenExperiment => self.open_experiment(&path),
            PathRequest::SaveExperiment => self.save_experiment(&path),
            PathRequest::SaveRun => self.trainer.send(TrainCommand::Save(path)),
            PathRequest::LoadRun => self.load_run(path),
            PathRequest::ExportCsv => self.trainer.send(TrainCommand::ExportMetrics(path)),
            PathRequest::ExportPlots => self.export_png(self.panels.plots_rect, path),
            PathRequest::ExportAttention => self.export_png(self.panels.central_rect, path),
            PathRequest::OpenLessonPack => self.add_lesson_pack(&path),
            PathRequest::OpenPretrained => self.open_pretrained(&path),
            PathRequest::ExportProgress => self.export_progress(&path),
            PathRequest::ExportHandout => self.export_handout(path),
        }
    }

    /// The open pack's progress file, for the teacher's `lesson report`.
    pub fn export_progress(&mut self, path: &Path) {
        let file = self.progress_file();
        let json = serde_json::to_string_pretty(&file).expect("progress serialises");
        match crate::runs::write_atomic(path, json.as_bytes()) {
            Ok(()) => self.success(t!("lesson-msg-progress-written", path = path.display().to_string())),
            Err(e) => self.notice(BannerKind::Error, t!("lesson-msg-export-failed", error = format!("{}: {e}", path.display()))),
        }
    }

    /// What "Export my progress" writes for the open pack.
    pub fn progress_file(&self) -> crate::progress::export::ProgressFile {
        let runner = &self.lessons;
        let index = runner.current_pack_index();
        let (lessons, cases) = (runner.pack_lessons(index), runner.pack_cases(index));
        crate::progress::export::build(runner.current_pack(), &lessons, &cases, &self.state.progress, &self.state.student_name, crate::progress::now())
    }

    /// The open lesson as `lesson.md` in `folder`, its answers as `answers.md`, the
    /// attention maps on screen as `attention.png` and the lesson's own pictures.
    pub fn export_handout(&mut self, folder: PathBuf) {
        let Some(lesson) = self.lessons.lesson().cloned() else {
            return self.notice(BannerKind::Warning, t!("lesson-none-loaded"));
        };
        // The maps belong in the handout only when they are this lesson's run: drawn
        // from the snapshot, the maps alone (not a grab of the panel around them).
        let maps = self
            .view
            .attention
            .as_ref()
            .filter(|_| self.lessons.experiment_of.as_deref() == Some(lesson.id.as_str()))
            .and_then(crate::ui::attention_image::maps_image);
        let figure = maps.is_some();
        let (text, answers) = crate::lessons::handout::markdown(&lesson, figure.then_some("attention.png"));
        // Written (and the map picture encoded) off the window's thread.
        self.write_in_background("export handout", move || {
            let written = std::fs::create_dir_all(&folder)
                .and_then(|()| crate::runs::write_atomic(&folder.join("lesson.md"), text.as_bytes()))
                .and_then(|()| match &answers {
                    Some(answers) => crate::runs::write_atomic(&folder.join(crate::lessons::handout::ANSWERS_FILE), answers.as_bytes()),
                    None => Ok(()),
                })
                .and_then(|()| crate::lessons::handout::copy_pictures(&lesson, &folder))
                .and_then(|()| match &maps {
                    Some(picture) => {
                        let mut encoded = Vec::new();
                        picture.write_to(&mut std::io::Cursor::new(&mut encoded), image::ImageFormat::Png).map_err(std::io::Error::other)?;
                        crate::runs::write_atomic(&folder.join("attention.png"), &encoded)
                    }
                    None => Ok(()),
                });
            match written {
                // The folder is what the teacher hands out: name it, and what is in it.
                Ok(()) => Banner { kind: BannerKind::Info, text: t!("lesson-msg-handout-written", folder = folder.display().to_string(), figure = if figure { "yes" } else { "no" }) },
                Err(e) => Banner { kind: BannerKind::Error, text: t!("lesson-msg-export-failed", error = format!("{}: {e}", folder.display())) },
            }
        });
    }

    fn export_png(&mut self, rect: Option<egui::Rect>, path: PathBuf) {
        let Some(rect) = rect else {
            return self.notice(BannerKind::Warning, t!("lesson-msg-panel-hidden"));
        };
        // The screenshot arrives on the window's thread; its encoding and writing
        // go to another.
        let out = self.inbox.outbox();
        let ppp = self.ctx.pixels_per_point();
        self.ctx.request_screenshot(move |image| {
            out.spawn("export png", move |out| {
                let banner = match files::save_png_region(&image, rect, ppp, &path) {
                    Ok(()) => Banner { kind: BannerKind::Info, text: t!("lesson-msg-wrote", path = path.display().to_string()) },
                    Err(err) => Banner { kind: BannerKind::Error, text: t!("lesson-msg-export-failed", error = err.to_string()) },
                };
                out.send(Message::Notice(banner));
            });
        });
    }

}
