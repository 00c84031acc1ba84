//! A number knob that keeps to its range, as egui's `DragValue` does, and says so
//! when a typed value was outside it: "1e9 is more than this knob takes: it is set
//! to its largest, 10", shown beside the field while it is typed and for a few
//! seconds after. egui clamps typed values without a word.

use std::ops::RangeInclusive;

use eframe::egui;
use egui::emath::Numeric;

use crate::t;

/// How long the note stays after the field loses focus, in seconds.
const NOTE_SECONDS: f64 = 5.0;

/// A typed value that the range clamped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ClampNote {
    typed: f64,
    kept: f64,
    /// When it was typed (egui's input time).
    at: f64,
}

/// A `DragValue` over `range` that notes a typed value outside it.
#[must_use = "add it with `ui.add`"]
pub struct Bounded<'a, N: Numeric> {
    value: &'a mut N,
    range: RangeInclusive<N>,
    speed: Option<f64>,
    max_decimals: Option<usize>,
    prefix: Option<String>,
    /// An id that does not depend on where the field is drawn (see `key`).
    key: Option<egui::Id>,
}

impl<'a, N: Numeric> Bounded<'a, N> {
    pub fn new(value: &'a mut N, range: RangeInclusive<N>) -> Self {
        Self { value, range, speed: None, max_decimals: None, prefix: None, key: None }
    }

    /// Name the knob (its config path, say): the field then keeps its id, its
    /// focus while typed into and its note when the grid around it is rebuilt
    /// under a new id (the editor's grids are, whenever a problem appears or
    /// goes), as a clamped value often makes one appear.
    pub fn key(self, key: impl std::hash::Hash + std::fmt::Debug) -> Self {
        Self { key: Some(egui::Id::unique(("bounded", key))), ..self }
    }

    pub fn speed(self, speed: f64) -> Self {
        Self { speed: Some(speed), ..self }
    }

    pub fn max_decimals(self, decimals: usize) -> Self {
        Self { max_decimals: Some(decimals), ..self }
    }

    pub fn prefix(self, prefix: impl ToString) -> Self {
        Self { prefix: Some(prefix.to_string()), ..self }
    }
}

impl<N: Numeric> Bounded<'_, N> {
    fn field(self, ui: &mut egui::Ui) -> egui::Response {
        let (low, high) = (self.range.start().to_f64(), self.range.end().to_f64());
        let ctx = ui.ctx().clone();
        let mut drag = egui::DragValue::new(&mut *self.value).range(self.range);
        if let Some(speed) = self.speed {
            drag = drag.speed(speed);
        }
        if let Some(decimals) = self.max_decimals {
            drag = drag.max_decimals(decimals);
        }
        if let Some(prefix) = self.prefix {
            drag = drag.prefix(prefix);
        }
        // The DragValue's own id, which it takes next (its response has it): the
        // note belongs to this field even when egui parses its text again in the
        // frame after the learner moved to another one.
        let id = ui.next_auto_id();
        // egui parses, then clamps: the number the learner typed is seen only here.
        let drag = drag.custom_parser(move |text| {
            let typed = parse_number(text)?;
            let kept = typed.clamp(low, high);
            let at = ctx.input(|i| i.time);
            ctx.data_mut(|d| {
                if kept == typed {
                    d.remove_temp::<ClampNote>(id);
                } else {
                    d.insert_temp(id, ClampNote { typed, kept, at });
                }
            });
            Some(typed)
        });
        let response = ui.add(drag);
        debug_assert_eq!(response.id, id, "the note is kept under the field's id");
        // Compared as the knob stores it: an f32 knob keeps 1e-6 as 9.99999997e-7.
        let kept_as_stored = |kept: f64| N::from_f64(kept).to_f64();
        show_note(ui, &response, self.value.to_f64(), kept_as_stored, N::INTEGRAL);
        response
    }
}

impl<N: Numeric> egui::Widget for Bounded<'_, N> {
    fn ui(self, ui: &mut egui::Ui) -> egui::Response {
        match self.key {
            // A scope with an id of its own: the field's id is made from it.
            Some(key) => ui.scope_builder(egui::UiBuilder::new().scope_id(key), |ui| self.field(ui)).inner,
            None => self.field(ui),
        }
    }
}
/// egui's own reading of a typed number (spaces ignored, "−" read as "-"), except
/// that "NaN" is refused: egui would clamp it to the largest value.
fn parse_number(text: &str) -> Option<f64> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).map(|c| if c == '−' { '-' } else { c }).collect();
    text.parse::<f64>().ok().filter(|v| !v.is_nan())
}

/// The note beside the field, while it is typed into and for `NOTE_SECONDS` after
/// it lost the focus; forgotten once the value is changed another way (dragged,
/// undone, a lesson loaded).
fn show_note(ui: &egui::Ui, response: &egui::Response, value: f64, kept_as_stored: impl Fn(f64) -> f64, integral: bool) {
    let Some(note) = ui.data(|d| d.get_temp::<ClampNote>(response.id)) else { return };
    let now = ui.input(|i| i.time);
    // While the field has the focus the note stays young; its age counts from
    // the last frame the learner was in it.
    let note = if response.has_focus() { ClampNote { at: now, ..note } } else { note };
    let age = now - note.at;
    if age > NOTE_SECONDS || value != kept_as_stored(note.kept) {
        ui.data_mut(|d| d.remove_temp::<ClampNote>(response.id));
        return;
    }
    ui.data_mut(|d| d.insert_temp(response.id, note));
    // To the right of the field (egui moves it where there is room): below it, it
    // would cover the next knob, or the problem the clamped value brought up.
    egui::Popup::from_response(response)
        .id(response.id.with("clamp note"))
        .kind(egui::PopupKind::Tooltip)
        .align(egui::RectAlign::RIGHT)
        .gap(6.0)
        .width(ui.style().spacing.tooltip_width)
        .show(|ui| ui.label(note_text(note, integral)));
    ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64((NOTE_SECONDS - age).max(0.05)));
}

/// `integral`: the knob holds whole numbers, whose end is written in full (a seed's
/// largest is 4294967295, as the field shows it).
fn note_text(note: ClampNote, integral: bool) -> String {
    let kept = if integral { format!("{:.0}", note.kept) } else { short_number(note.kept) };
    let typed = short_number(note.typed);
    if note.typed > note.kept {
        t!("knob-clamped-high", typed = typed.as_str(), kept = kept.as_str())
    } else {
        t!("knob-clamped-low", typed = typed.as_str(), kept = kept.as_str())
    }
}

/// A number as a learner types it: 1e9 and 1e-7 stay short, 64 and 0.25 plain.
fn short_number(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "∞".into() } else { "-∞".into() };
    }
    let size = x.abs();
    if size != 0.0 && !(1e-4..1e6).contains(&size) { format!("{x:e}") } else { format!("{x}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_read_as_egui_reads_them_but_nan() {
        assert_eq!(parse_number(" 1 000 "), Some(1000.0));
        assert_eq!(parse_number("−3"), Some(-3.0));
        assert_eq!(parse_number("1e9"), Some(1e9));
        assert_eq!(parse_number("NaN"), None);
        assert_eq!(parse_number("abc"), None);
    }

    #[test]
    fn a_whole_number_knob_writes_its_end_in_full() {
        let note = ClampNote { typed: 1e10, kept: 4294967295.0, at: 0.0 };
        assert_eq!(note_text(note, true), "1e10 is more than this knob takes: it is set to its largest, 4294967295.");
        assert_eq!(note_text(ClampNote { typed: 1e9, kept: 10.0, at: 0.0 }, false), "1e9 is more than this knob takes: it is set to its largest, 10.");
    }

    #[test]
    fn numbers_are_written_short() {
        assert_eq!(short_number(1e9), "1e9");
        assert_eq!(short_number(1e-7), "1e-7");
        assert_eq!(short_number(64.0), "64");
        assert_eq!(short_number(0.25), "0.25");
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(f64::INFINITY), "∞");
    }
}
