//! The path field: where the desktop cannot show a file dialog (no portal, no
//! zenity), the app says so and lets the learner type the path instead.

use eframe::egui;

use crate::workbench::actions::AppAction;
use crate::workbench::PathRequest;
use crate::t;

pub fn path_prompt_ui(ctx: &egui::Context, request: PathRequest, text: &mut String, actions: &mut Vec<AppAction>) {
    egui::Window::new(request.title())
        .id(egui::Id::unique("path_prompt"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(t!("lesson-path-no-dialog"));
            let folder = matches!(request, PathRequest::SaveRun | PathRequest::LoadRun | PathRequest::OpenLessonPack | PathRequest::ExportHandout | PathRequest::OpenPretrained);
            ui.weak(if folder { t!("lesson-path-folder") } else { t!("lesson-path-file") });
            let edit = ui.add(egui::TextEdit::singleline(text).desired_width(420.0));
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            // A save over something already there says so before OK (a desktop dialog
            // would ask); a folder save onto a file cannot work, so OK waits.
            let save = !request.default_name().is_empty();
            let path = std::path::Path::new(text.trim());
            let warn = |ui: &mut egui::Ui, text: String| ui.colored_label(ui.visuals().warn_fg_color, text);
            let onto_file = save && folder && path.is_file();
            if onto_file {
                warn(ui, t!("lesson-path-is-file"));
            } else if save && !folder && path.is_file() {
                warn(ui, t!("lesson-path-exists"));
            } else if save && folder && path.read_dir().is_ok_and(|mut entries| entries.next().is_some()) {
                warn(ui, t!("lesson-path-folder-exists"));
            }
            let usable = !text.trim().is_empty() && !onto_file;
            ui.horizontal(|ui| {
                let ok = ui.add_enabled(usable, egui::Button::new(t!("lesson-path-ok")));
                if ok.clicked() || (entered && usable) {
                    actions.push(AppAction::UsePath(request, std::path::PathBuf::from(text.trim())));
                }
                if ui.button(t!("lesson-path-cancel")).clicked() {
                    actions.push(AppAction::CancelPath(request));
                }
            });
        });
}
