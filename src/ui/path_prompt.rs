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
            let warn = |ui: &mut egui::Ui, text: String| ui.colored_label(ui.visuals().warn_fg_color, text);
            let at = if save { at_path(ui, text.trim()) } else { AtPath::Nothing };
            let onto_file = folder && at == AtPath::File;
            if onto_file {
                warn(ui, t!("lesson-path-is-file"));
            } else if !folder && at == AtPath::File {
                warn(ui, t!("lesson-path-exists"));
            } else if folder && at == AtPath::FolderWithFiles {
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

/// What a save would land on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum AtPath {
    Nothing,
    File,
    FolderWithFiles,
}

/// What is at the typed path, looked up on the disk when the text changes and
/// at most once a second otherwise (not in every frame the field is drawn).
fn at_path(ui: &egui::Ui, typed: &str) -> AtPath {
    let id = egui::Id::unique("path_prompt_at");
    let now = ui.input(|i| i.time);
    let cached = ui.data(|d| d.get_temp::<(String, f64, AtPath)>(id));
    if let Some((_, when, at)) = cached.filter(|(text, when, _)| text == typed && now - when < 1.0) {
        // Looked at again when it is a second old, even with no input meanwhile.
        ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(1.0 - (now - when)));
        return at;
    }
    let path = std::path::Path::new(typed);
    let at = if typed.is_empty() {
        AtPath::Nothing
    } else if path.is_file() {
        AtPath::File
    } else if path.read_dir().is_ok_and(|mut entries| entries.next().is_some()) {
        AtPath::FolderWithFiles
    } else {
        AtPath::Nothing
    };
    ui.data_mut(|d| d.insert_temp(id, (typed.to_string(), now, at)));
    // The answer is looked at again in a second: the field redraws by then.
    ui.ctx().request_repaint_after(std::time::Duration::from_secs(1));
    at
}
