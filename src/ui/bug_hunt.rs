//! The bug hunt: planted-bug experiments to diagnose with the panels. Load one,
//! look for the symptom, then name the bug; the answer stays hidden until then
//! (or until asked for).

use eframe::egui;
use crate::workbench::window::WindowData;

use crate::workbench::actions::AppAction;
use crate::bughunt::{Bug, BugCase};
use crate::progress::Progress;
use crate::t;
use std::collections::BTreeSet;

/// Below this width the case list and the picked case stack instead of standing
/// side by side (at 1024 points the guess box left Check no room).
const NARROW: f32 = 480.0;

#[derive(Default)]
pub struct BugHuntPanel {
    pub selected: usize,
    guess: Option<Bug>,
    /// Feedback on the last guess for the selected case.
    feedback: Option<bool>,
}

impl BugHuntPanel {
    /// The cases of every open pack; solving and revealing go into `progress`.
    /// `packs`: for each case, the title of the pack it comes from (shown as a heading
    /// where the pack changes, so a class's own cases stand apart).
    /// `trained`: the cases loaded and trained this session (a guess waits for that).
    pub fn ui(&mut self, ui: &mut egui::Ui, cases: &[BugCase], packs: &[&str], progress: &Progress, trained: &BTreeSet<String>, actions: &mut Vec<AppAction>) {
        ui.heading(t!("views-bug-heading"));
        ui.label(t!("views-bug-intro"));
        // Side by side where there is room; in a narrow view the list comes first
        // and the case under it, so the guess and its Check button keep their width.
        if ui.available_width() < NARROW {
            self.case_list(ui, cases, packs, progress);
            ui.separator();
            self.case_ui(ui, cases, progress, trained, actions);
            return;
        }
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width((ui.available_width() * 0.3).clamp(150.0, 230.0));
                self.case_list(ui, cases, packs, progress);
            });
            ui.separator();
            ui.vertical(|ui| self.case_ui(ui, cases, progress, trained, actions));
        });
    }

    /// Every case, ticked when solved, and the count solved.
    fn case_list(&mut self, ui: &mut egui::Ui, cases: &[BugCase], packs: &[&str], progress: &Progress) {
        for (i, case) in cases.iter().enumerate() {
            let pack = packs.get(i).copied().unwrap_or_default();
            if i > 0 && packs.get(i - 1).copied().unwrap_or_default() != pack {
                ui.add_space(6.0);
                ui.strong(pack);
            }
            let tick = if progress.bugs_solved.contains_key(&case.id) { "✔ " } else { "   " };
            if ui.selectable_label(self.selected == i, format!("{tick}{}", case.title)).clicked() && self.selected != i {
                self.selected = i;
                self.guess = None;
                self.feedback = None;
            }
        }
        let solved = cases.iter().filter(|c| progress.bugs_solved.contains_key(&c.id)).count();
        ui.label(t!("views-bug-solved", solved = solved, total = cases.len()));
    }

    /// The picked case: its symptom, Load, the guess and Check, the feedback.
    fn case_ui(&mut self, ui: &mut egui::Ui, cases: &[BugCase], progress: &Progress, trained: &BTreeSet<String>, actions: &mut Vec<AppAction>) {
        let Some(case) = cases.get(self.selected) else { return };
        ui.strong(&case.title);
        ui.label(t!("views-bug-symptom", symptom = case.symptom.as_str()));
        ui.label(t!("views-bug-where", where_to_look = case.where_to_look.as_str()));
        if ui.button(t!("views-bug-load")).on_hover_text(t!("views-bug-load-tip")).clicked() {
            actions.push(AppAction::LoadBugCase(case.id.clone()));
        }
        ui.add_space(8.0);
        ui.label(t!("views-bug-question"));
        ui.horizontal(|ui| {
            // Fit the space left, so the Check button stays on screen at any width.
            let width = (ui.available_width() - 70.0).clamp(80.0, 380.0);
            egui::ComboBox::from_id_salt("bug_guess")
                .width(width)
                // Tall enough to list every bug without scrolling inside the popup.
                .height(24.0 * (Bug::ALL.len() + 1) as f32)
                .truncate()
                .selected_text(self.guess.map_or_else(|| t!("views-bug-choose"), |bug| bug.name().to_string()))
                .show_ui(ui, |ui| {
                    for bug in Bug::ALL {
                        ui.selectable_value(&mut self.guess, Some(bug), bug.name());
                    }
                });
            // Naming the bug is the last step: the symptom, seen in a run, is the clue.
            let seen = trained.contains(&case.id) || progress.bugs_solved.contains_key(&case.id);
            let check = ui.add_enabled(seen && self.guess.is_some(), egui::Button::new(t!("views-bug-check")));
            let check = if seen { check } else { check.on_disabled_hover_text(t!("views-bug-train-first")) };
            if check.clicked() {
                let right = self.guess.is_some_and(|bug| case.accepts(bug));
                self.feedback = Some(right);
                if right {
                    actions.push(AppAction::SolvedBug(case.id.clone()));
                }
            }
        });
        match self.feedback {
            Some(true) => {
                ui.colored_label(egui::Color32::from_rgb(90, 200, 120), t!("views-bug-right"));
                ui.label(&case.explanation);
            }
            Some(false) => {
                ui.colored_label(ui.visuals().warn_fg_color, t!("views-bug-wrong"));
            }
            None => {}
        }
        if self.feedback != Some(true) {
            if progress.bugs_revealed.contains_key(&case.id) {
                ui.label(t!("views-bug-answer", bug = case.answers[0].name(), explanation = case.explanation.as_str()));
            } else if ui.button(t!("views-bug-reveal")).on_hover_text(t!("lesson-show-answer-tip")).clicked() {
                actions.push(AppAction::RevealBugAnswer(case.id.clone()));
            }
        }
    }
}

impl super::Panel for BugHuntPanel {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let lessons = data.lessons;
        let packs: Vec<&str> = lessons.case_pack.iter().map(|&p| lessons.packs[p].title.as_str()).collect();
        let progress = &data.state.progress;
        let trained = data.bug_cases_trained;
        egui::ScrollArea::vertical().show(ui, |ui| self.ui(ui, &lessons.cases, &packs, progress, trained, actions));
    }
}
