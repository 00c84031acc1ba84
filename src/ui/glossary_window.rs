//! The glossary: every term of the lessons in both languages with a one-line
//! meaning, searchable in either language.

use eframe::egui;

use crate::i18n::glossary::TERMS;
use crate::i18n::lang;
use crate::t;

pub fn glossary_window(ctx: &egui::Context, open: &mut bool, search: &mut String) {
    // Below the menu, top bar and status strip, never over them.
    egui::Window::new(t!("glossary-title")).open(open).default_width(520.0).default_height(460.0).default_pos([360.0, 140.0]).constrain(true).show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.label(t!("glossary-search"));
            ui.add(egui::TextEdit::singleline(search).hint_text(t!("glossary-search-hint")).desired_width(220.0));
        });
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            let lang = lang();
            let shown: Vec<_> = TERMS.iter().filter(|term| term.matches(search)).collect();
            if shown.is_empty() {
                ui.weak(t!("glossary-none"));
            }
            for term in shown {
                ui.strong(term.name(lang));
                ui.label(term.meaning(lang));
                ui.add_space(4.0);
            }
        });
    });
}
