//! One labelled knob in a grid row: the label, the widget, one tooltip on both, and
//! the widget labelled by the label for screen readers and UI tests.

use eframe::egui;

/// The narrowest a knob's combo box gets: a few letters and the arrow.
const MIN_COMBO_WIDTH: f32 = 72.0;

/// A choice among `options`, shown as a combo box in the second grid column.
/// `lock`: why the open lesson fixes this knob (it is then shown with 🔒 and disabled).
pub fn choice_row<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    label: &str,
    help: &str,
    lock: Option<String>,
    value: &mut T,
    options: &[(T, &str)],
) {
    let label_response = ui.label(lock_mark(label, lock.as_deref())).on_hover_text(help);
    let selected = options.iter().find(|(v, _)| v == value).map_or("?", |(_, name)| *name);
    ui.add_enabled_ui(lock.is_none(), |ui| {
        // In a narrow panel the box keeps inside it and shortens its text (the
        // whole name is in the list it opens).
        egui::ComboBox::from_id_salt(label_response.id)
            .width(ui.available_width().min(ui.spacing().combo_width).max(MIN_COMBO_WIDTH))
            .truncate()
            .selected_text(selected)
            .show_ui(ui, |ui| {
                for (option, name) in options {
                    ui.selectable_value(value, *option, *name);
                }
            })
            .response
            .labelled_by(label_response.id)
            .on_hover_text(help)
            .on_disabled_hover_text(lock.as_deref().unwrap_or_default());
    });
    ui.end_row();
}

/// A knob's label, with a lock in front when the open lesson fixes it.
pub fn lock_mark(label: &str, lock: Option<&str>) -> String {
    if lock.is_some() { format!("🔒 {label}") } else { label.to_string() }
}

/// Any widget in the second grid column, labelled by the first; disabled with 🔒
/// and `lock` as its reason when the open lesson fixes the knob.
pub fn widget_row(ui: &mut egui::Ui, label: &str, help: &str, lock: Option<String>, widget: impl egui::Widget) -> egui::Response {
    let label_response = ui.label(lock_mark(label, lock.as_deref())).on_hover_text(help);
    let response = ui
        .add_enabled(lock.is_none(), widget)
        .labelled_by(label_response.id)
        .on_hover_text(help)
        .on_disabled_hover_text(lock.as_deref().unwrap_or_default());
    ui.end_row();
    response
}
