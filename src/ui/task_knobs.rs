//! The task's own knobs in the editor: its length, its symbol count and, for the
//! character model and word order, which text or words it uses (a built-in
//! corpus or a text file of the learner's).

use eframe::egui;

use super::bounded::Bounded;

use super::layer_card::inline_problem;
use crate::config::{ConfigProblem, ExperimentConfig};
use crate::t;
use crate::tasks::{BUILTIN_CORPORA, TaskKind};

pub fn task_knobs_ui(ui: &mut egui::Ui, config: &mut ExperimentConfig, problems: &[ConfigProblem]) {
    let problem = |knob: &str| problems.iter().find(|p| p.knob == knob);
    let kind = config.task.kind;
    let before = config.task.clone();
    let (min_len, max_len, min_sym, max_sym) = kind.size_bounds();
    egui::Grid::new(("task_knobs", problems.len(), config.task.kind)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
        let task = &mut config.task;
        if max_len != usize::MAX {
            let label = ui.label(t!("task-length")).on_hover_text(t!("task-length-tip"));
            ui.add(Bounded::new(&mut task.length, min_len..=max_len).key("task.length")).labelled_by(label.id).on_hover_text(t!("task-length-tip"));
            ui.end_row();
            inline_problem(ui, problem("task.length"));
            let label = ui.label(t!("task-eval-length")).on_hover_text(t!("task-eval-length-tip"));
            ui.add(Bounded::new(&mut task.eval_length, 0..=max_len).key("task.eval_length")).labelled_by(label.id).on_hover_text(t!("task-eval-length-tip"));
            ui.end_row();
            inline_problem(ui, problem("task.eval_length"));
        }
        if max_sym != usize::MAX {
            let label = ui.label(t!("task-symbols")).on_hover_text(t!("task-symbols-tip"));
            ui.add(Bounded::new(&mut task.symbols, min_sym..=max_sym).key("task.symbols")).labelled_by(label.id).on_hover_text(t!("task-symbols-tip"));
            ui.end_row();
            inline_problem(ui, problem("task.symbols"));
        }
        match kind {
            TaskKind::CharLm => {
                let label = ui.label(t!("task-corpus")).on_hover_text(t!("task-corpus-tip"));
                let builtin = BUILTIN_CORPORA.iter().any(|(name, _)| *name == task.corpus);
                let shown = if builtin { task.corpus.clone() } else { t!("task-corpus-file") };
                egui::ComboBox::from_id_salt("task_corpus").selected_text(shown).show_ui(ui, |ui| {
                    for (name, text) in BUILTIN_CORPORA {
                        let size = t!("task-corpus-size", kb = format!("{:.0}", text.len() as f64 / 1024.0));
                        ui.selectable_value(&mut task.corpus, name.to_string(), format!("{name} ({size})"));
                    }
                    if ui.selectable_label(!builtin, t!("task-corpus-file")).clicked() && builtin {
                        task.corpus.clear();
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(t!("task-corpus-tip"));
                ui.end_row();
                if !builtin {
                    ui.label("");
                    ui.add(egui::TextEdit::singleline(&mut task.corpus).hint_text(t!("task-corpus-path-hint")).desired_width(200.0))
                        .on_hover_text(t!("task-corpus-path-tip"));
                    ui.end_row();
                }
                inline_problem(ui, problem("task.corpus"));
            }
            TaskKind::WordOrder => {
                let label = ui.label(t!("task-words")).on_hover_text(t!("task-words-tip"));
                let chinese = task.corpus == "chinese";
                let shown = if chinese { t!("task-words-chinese") } else { t!("task-words-english") };
                egui::ComboBox::from_id_salt("task_words")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut task.corpus, "english".to_string(), t!("task-words-english"));
                        ui.selectable_value(&mut task.corpus, "chinese".to_string(), t!("task-words-chinese"));
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text(t!("task-words-tip"));
                ui.end_row();
            }
            _ => {}
        }
    });
    // A longer task grows max length with it; only when a task knob changed, never
    // every frame (a max length the learner is typing would be bumped back at once).
    if config.task != before {
        config.fit_max_len_to_task();
    }
}
