//! One labelled knob in a grid row: the label, the widget, one tooltip on both, and
//! the widget labelled by the label for screen readers and UI tests.

use eframe::egui;

/// A choice among `options`, shown as a combo box in the second grid column.
pub fn choice_row<T: PartialEq + Copy>(
    ui: &mut egui::Ui,
    label: &str,
    help: &str,
    value: &mut T,
    options: &[(T, &str)],
) {
    let label_response = ui.label(label).on_hover_text(help);
    let selected = options.iter().find(|(v, _)| v == value).map_or("?", |(_, name)| *name);
    egui::ComboBox::from_id_salt(label_response.id)
        .selected_text(selected)
        .show_ui(ui, |ui| {
            for (option, name) in options {
                ui.selectable_value(value, *option, *name);
            }
        })
        .response
        .labelled_by(label_response.id)
        .on_hover_text(help);
    ui.end_row();
}

/// Any widget in the second grid column, labelled by the first.
pub fn widget_row(ui: &mut egui::Ui, label: &str, help: &str, widget: impl egui::Widget) -> egui::Response {
    let label_response = ui.label(label).on_hover_text(help);
    let response = ui.add(widget).labelled_by(label_response.id).on_hover_text(help);
    ui.end_row();
    response
}
