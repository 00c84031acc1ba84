//! The bug hunt: planted-bug experiments to diagnose with the panels. Load one,
//! look for the symptom, then name the bug; the answer stays hidden until then
//! (or until asked for).

use std::collections::BTreeSet;

use eframe::egui;

use crate::app::actions::AppAction;
use crate::bughunt::{Bug, BugCase};

#[derive(Default)]
pub struct BugHuntPanel {
    pub selected: usize,
    guess: Option<Bug>,
    /// Feedback on the last guess for the selected case.
    feedback: Option<bool>,
    revealed: BTreeSet<&'static str>,
}

impl BugHuntPanel {
    /// Whether the learner asked to see this case's answer.
    pub fn is_revealed(&self, id: &str) -> bool {
        self.revealed.contains(id)
    }

    /// `solved` holds the ids of the cases the learner named right (remembered).
    pub fn ui(&mut self, ui: &mut egui::Ui, cases: &[BugCase], solved: &mut BTreeSet<String>, actions: &mut Vec<AppAction>) {
        ui.heading("Bug hunt");
        ui.label("Each experiment hides one bug. Load it, train it, find the symptom with the panels, then name the bug.");
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width((ui.available_width() * 0.3).clamp(150.0, 230.0));
                for (i, case) in cases.iter().enumerate() {
                    let tick = if solved.contains(case.id) { "✔ " } else { "   " };
                    if ui.selectable_label(self.selected == i, format!("{tick}{}", case.title)).clicked() && self.selected != i {
                        self.selected = i;
                        self.guess = None;
                        self.feedback = None;
                    }
                }
                ui.label(format!("{} of {} solved", solved.len(), cases.len()));
            });
            ui.separator();
            let Some(case) = cases.get(self.selected) else { return };
            ui.vertical(|ui| {
                ui.strong(case.title);
                ui.label(format!("Symptom: {}", case.symptom));
                ui.label(format!("Where to look: {}", case.where_to_look));
                if ui.button("Load this experiment").on_hover_text("Replace the edited experiment with this one (Ctrl+Z brings yours back)").clicked() {
                    actions.push(AppAction::LoadBugCase(case.id.to_string()));
                }
                ui.add_space(8.0);
                ui.label("What is the bug?");
                ui.horizontal(|ui| {
                    // Fit the space left, so the Check button stays on screen at any width.
                    let width = (ui.available_width() - 70.0).clamp(140.0, 380.0);
                    egui::ComboBox::from_id_salt("bug_guess")
                        .width(width)
                        // Tall enough to list every bug without scrolling inside the popup.
                        .height(24.0 * (Bug::ALL.len() + 1) as f32)
                        .truncate()
                        .selected_text(self.guess.map_or("choose…", Bug::name))
                        .show_ui(ui, |ui| {
                            for bug in Bug::ALL {
                                ui.selectable_value(&mut self.guess, Some(bug), bug.name());
                            }
                        });
                    if ui.add_enabled(self.guess.is_some(), egui::Button::new("Check")).clicked() {
                        let right = self.guess == Some(case.bug);
                        self.feedback = Some(right);
                        if right {
                            solved.insert(case.id.to_string());
                        }
                    }
                });
                match self.feedback {
                    Some(true) => {
                        ui.colored_label(egui::Color32::from_rgb(90, 200, 120), "✔ Right.");
                        ui.label(case.explanation);
                    }
                    Some(false) => {
                        ui.colored_label(ui.visuals().warn_fg_color, "Not this one. Look again at the symptom with the suggested panel.");
                    }
                    None => {}
                }
                if self.feedback != Some(true) {
                    if self.revealed.contains(case.id) {
                        ui.label(format!("Answer: {}. {}", case.bug.name(), case.explanation));
                    } else if ui.button("Reveal the answer").clicked() {
                        self.revealed.insert(case.id);
                    }
                }
            });
        });
    }
}
