//! The presenter view's look: for a projector at the back of a room. Larger type
//! (a zoom, so every panel grows alike) and high-contrast colours: pure
//! background, full-white (or full-black) text, thicker strokes.

use eframe::egui;

/// How much larger everything is drawn in the presenter view.
pub const ZOOM: f32 = 1.5;

/// Set the colours for this frame; the zoom only when `switched` (so a zoom the
/// learner chose with Ctrl and +/- stays).
pub fn apply_look(ctx: &egui::Context, dark: bool, presenter: bool, switched: bool) {
    let mut visuals = if dark { egui::Visuals::dark() } else { egui::Visuals::light() };
    if presenter {
        let (background, text) = if dark { (egui::Color32::BLACK, egui::Color32::WHITE) } else { (egui::Color32::WHITE, egui::Color32::BLACK) };
        visuals.override_text_color = Some(text);
        // Secondary text stays readable from the back of the room.
        visuals.weak_text_color = Some(if dark { egui::Color32::from_gray(215) } else { egui::Color32::from_gray(40) });
        visuals.panel_fill = background;
        visuals.window_fill = background;
        visuals.extreme_bg_color = background;
        visuals.window_stroke = egui::Stroke::new(2.0, text);
        for widget in [&mut visuals.widgets.noninteractive, &mut visuals.widgets.inactive, &mut visuals.widgets.hovered, &mut visuals.widgets.active] {
            widget.fg_stroke = egui::Stroke::new(2.0, text);
            widget.bg_stroke = egui::Stroke::new(1.5, text.gamma_multiply(0.8));
        }
        visuals.selection.stroke = egui::Stroke::new(2.0, text);
        // Locked knobs are disabled widgets: egui fades them to a dim grey that the
        // back of the room cannot read; keep them nearly as strong as the rest.
        visuals.disabled_alpha = 0.8;
    }
    ctx.set_visuals(visuals);
    if switched {
        ctx.set_zoom_factor(if presenter { ZOOM } else { 1.0 });
    }
}
