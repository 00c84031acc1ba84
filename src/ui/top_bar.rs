//! The top bar: task, preset, backend, seed, the run buttons, and progress.

use eframe::egui;

use super::bounded::Bounded;

use crate::workbench::step_progress::StepProgress;
use crate::workbench::window::WindowData;

use crate::t;

use super::knob_help as help;
use crate::workbench::actions::AppAction;
use crate::workbench::run_view::{RunStatus, RunView};
use crate::config::{BackendChoice, PRESET_NAMES};
use crate::tasks::TaskKind;

/// The bar under the menus: the task, preset, backend and seed, the run buttons, and progress.
#[derive(Default)]
pub struct TopBar;

impl super::Panel for TopBar {
    fn show(&mut self, ui: &mut egui::Ui, data: &mut WindowData<'_>, actions: &mut Vec<AppAction>) {
        let (can_start, pending_edits) = (data.can_start, data.pending_edits);
        let (view, locks, claim) = (data.view, data.lessons.active_locks(), data.lessons.claim_progress());
        let cancelling = data.lessons.claim_cancel_pressed();
        let sweeping = data.background.sweeping();
        let state = &mut *data.state;
        let (config, preset) = (&mut state.config, state.preset.as_str());
        // A knob the open lesson locks is shown with a lock, disabled, and says why.
        let locked = |knob: &str| locks.filter(|l| l.covers(knob)).map(|l| t!("lesson-locked-tip", reason = l.reason.as_str()));
        ui.horizontal_wrapped(|ui| {
            let task_lock = locked("task.kind");
            ui.label(super::knob_row::lock_mark(&t!("top-task"), task_lock.as_deref())).on_hover_text(help::text(help::TASK));
            ui.add_enabled_ui(task_lock.is_none(), |ui| egui::ComboBox::from_id_salt("task")
                .selected_text(config.task.kind.label())
                .show_ui(ui, |ui| {
                    for kind in TaskKind::ALL {
                        let selected = config.task.kind == kind;
                        if ui.selectable_label(selected, kind.label()).on_hover_text(kind.describe()).clicked() && !selected {
                            actions.push(AppAction::SetTask(kind));
                        }
                    }
                })
                .response
                .on_hover_text(format!("{}\n{}", help::text(help::TASK), config.task.kind.describe()))
                .on_disabled_hover_text(task_lock.clone().unwrap_or_default()));
            ui.label(t!("top-preset")).on_hover_text(help::text(help::PRESET));
            egui::ComboBox::from_id_salt("preset")
                .selected_text(preset_label(preset))
                .show_ui(ui, |ui| {
                    for name in PRESET_NAMES {
                        if ui.selectable_label(preset == *name, preset_label(name)).clicked() {
                            actions.push(AppAction::LoadPreset(name.to_string()));
                        }
                    }
                })
                .response
                .on_hover_text(help::text(help::PRESET));
            let backend_lock = locked("backend");
            ui.label(super::knob_row::lock_mark(&t!("top-backend"), backend_lock.as_deref())).on_hover_text(help::text(help::BACKEND));
            ui.add_enabled_ui(backend_lock.is_none(), |ui| egui::ComboBox::from_id_salt("backend")
                .selected_text(match config.backend {
                    BackendChoice::Gpu => "GPU",
                    _ => "CPU",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut config.backend, BackendChoice::Cpu, "CPU");
                    ui.selectable_value(&mut config.backend, BackendChoice::Gpu, "GPU");
                })
                .response
                .on_hover_text(help::text(help::BACKEND))
                .on_disabled_hover_text(backend_lock.clone().unwrap_or_default()));
            let seed_lock = locked("seed");
            ui.label(super::knob_row::lock_mark(&t!("top-seed"), seed_lock.as_deref())).on_hover_text(help::text(help::SEED));
            ui.add_enabled(seed_lock.is_none(), Bounded::new(&mut config.seed, 0..=u32::MAX as u64))
                .on_hover_text(help::text(help::SEED))
                .on_disabled_hover_text(seed_lock.clone().unwrap_or_default());
            ui.separator();

            let running = view.status == RunStatus::Running;
            let (label, tip) = if running {
                (t!("top-pause"), t!("top-pause-tip"))
            } else if view.status == RunStatus::Paused {
                (t!("top-resume"), t!("top-resume-tip"))
            } else if view.status == RunStatus::Finished {
                (t!("top-continue"), t!("top-continue-tip"))
            } else {
                (t!("top-start"), t!("top-start-tip"))
            };
            let enabled = running || can_start;
            // One width for Start, Pause, Resume and Continue: Step and Reset stay put.
            let button = ui.add_enabled(enabled, egui::Button::new(label).min_size(egui::vec2(84.0, 0.0)));
            let button = if enabled { button.on_hover_text(tip) } else { button.on_disabled_hover_text(t!("top-fix-first")) };
            if button.clicked() {
                actions.push(if running { AppAction::Pause } else { AppAction::StartOrResume });
            }
            if ui.add_enabled(!running && can_start, egui::Button::new(t!("top-step"))).on_hover_text(t!("top-step-tip")).clicked() {
                actions.push(AppAction::StepOnce);
            }
            if ui.add_enabled(can_start, egui::Button::new(t!("top-reset"))).on_hover_text(t!("top-reset-tip")).clicked() {
                actions.push(AppAction::Reset);
            }
            if pending_edits && ui.add_enabled(can_start, egui::Button::new(t!("top-apply"))).on_hover_text(t!("top-apply-tip")).clicked() {
                actions.push(AppAction::Apply);
            }
            // Which device and step ran, after the run buttons: the report arrives a
            // moment after the model, and text before them would move Start under
            // the pointer.
            if let Some(info) = &view.backend {
                let text = match &info.adapter {
                    Some(adapter) => format!("{} · {adapter}", info.used),
                    None => info.used.clone(),
                };
                ui.weak(text);
                match &info.composed_because {
                    None => ui.weak(t!("top-step-fused")).on_hover_text(t!("top-step-fused-tip")),
                    Some(reason) => ui.weak(t!("top-step-composed")).on_hover_text(t!("top-step-composed-tip", reason = reason.as_str())),
                };
            }
        });
        // Progress on a row of its own, always there: the rows above never move when
        // training starts and the numbers grow.
        ui.horizontal(|ui| {
            match claim {
                // A claim's verification trains in place of the live run: its bar shows.
                Some(progress) => {
                    ui.colored_label(ui.visuals().warn_fg_color, t!("status-verifying"));
                    ui.add(super::progress_bar(progress.fraction()).desired_width(260.0).text(claim_steps_text(&progress)));
                    cancel_claim_button(ui, cancelling, actions);
                }
                None => progress_ui(ui, view, config.steps, sweeping),
            }
        });
    }
}

/// The live run's status and progress; `sweeping`: a sweep measures meanwhile,
/// which the status says rather than "ready", "paused" or "finished" (the live
/// run does not train beside it).
fn progress_ui(ui: &mut egui::Ui, view: &RunView, total: usize, sweeping: bool) {
    let fraction = if total == 0 { 0.0 } else { view.step as f32 / total as f32 };
    let mut text = t!("top-step-of", step = view.step, total = total);
    if view.steps_per_s > 0.0 {
        text += &format!(" · {}", t!("top-speed", speed = format!("{:.1}", view.steps_per_s)));
    }
    if let Some(eta) = view.eta_secs(total) {
        text += &format!(" · {}", t!("top-eta", eta = format_eta(eta)));
    }
    let (status, color) = match view.status {
        RunStatus::Ready | RunStatus::Paused | RunStatus::Finished if sweeping => (t!("status-sweeping"), ui.visuals().warn_fg_color),
        RunStatus::NoModel => (t!("status-invalid"), ui.visuals().error_fg_color),
        RunStatus::Ready => (t!("status-ready"), ui.visuals().text_color()),
        RunStatus::Running => (t!("status-training"), egui::Color32::from_rgb(90, 200, 120)),
        RunStatus::Paused => (t!("status-paused"), ui.visuals().warn_fg_color),
        RunStatus::Finished => (t!("status-finished"), egui::Color32::from_rgb(120, 170, 255)),
    };
    ui.colored_label(color, status);
    // Leave room for the held-out accuracy, so an extra button never wraps the bar.
    // The words sit beside the bar, not in it: at step 0 the bar's rounded fill
    // would cover their start.
    let remaining_on_row = ui.max_rect().right() - ui.cursor().min.x;
    let width = (remaining_on_row - 640.0).clamp(120.0, 320.0);
    ui.add(super::progress_bar(fraction.min(1.0)).desired_width(width));
    ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
    if let Some(acc) = view.last_eval_accuracy {
        let loss = view.last_eval.as_ref().map_or("—".to_string(), |e| format!("{:.3}", e.loss));
        ui.add(egui::Label::new(t!("top-heldout", percent = format!("{:.1}", 100.0 * acc), loss = loss)).wrap_mode(egui::TextWrapMode::Extend));
    }
}

/// Cancel for the running verification; once pressed, "Cancelling…" and
/// disabled at once (the thread stops at its next step).
pub fn cancel_claim_button(ui: &mut egui::Ui, cancelling: bool, actions: &mut Vec<AppAction>) {
    let label = if cancelling { t!("lesson-claim-cancelling") } else { t!("lesson-claim-cancel") };
    if ui.add_enabled(!cancelling, egui::Button::new(label)).on_hover_text(t!("lesson-claim-cancel-tip")).clicked() {
        actions.push(AppAction::CancelClaim);
    }
}

/// "120 / 900 training steps · ETA 8s" for a claim's verification; once every
/// step is done, that the runs are being measured (which can take a while).
pub fn claim_steps_text(progress: &StepProgress) -> String {
    if progress.total > 0 && progress.done >= progress.total {
        return t!("lesson-claim-measuring", total = progress.total);
    }
    let mut text = t!("lesson-claim-steps", done = progress.done, total = progress.total);
    if let Some(eta) = eta_text(progress) {
        text += &format!(" · {eta}");
    }
    text
}

/// "ETA 12s" once the pace is known.
pub fn eta_text(progress: &StepProgress) -> Option<String> {
    progress.seconds_left().map(|left| t!("top-eta", eta = format_eta(left)))
}

pub fn format_eta(secs: f32) -> String {
    let secs = secs.max(0.0).round() as u64;
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m{:02}s", secs / 60, secs % 60),
        _ => format!("{}h{:02}m", secs / 3600, (secs % 3600) / 60),
    }
}

/// A preset's name in the interface's language ("tiny", "微型"; "custom" for an
/// edited experiment).
fn preset_label(name: &str) -> String {
    match name {
        "tiny" => t!("preset-tiny"),
        "lesson" => t!("preset-lesson"),
        "large" => t!("preset-large"),
        "custom" => t!("preset-custom"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_left_read_in_seconds_minutes_and_hours() {
        assert_eq!(super::format_eta(42.4), "42s");
        assert_eq!(super::format_eta(90.0), "1m30s");
        assert_eq!(super::format_eta(7260.0), "2h01m");
    }

    #[test]
    fn a_claim_with_every_step_trained_says_its_runs_are_being_measured() {
        let mut progress = crate::workbench::step_progress::StepProgress::new(900);
        progress.advance(899);
        assert!(super::claim_steps_text(&progress).starts_with("899 / 900 training steps"));
        progress.advance(900);
        assert_eq!(super::claim_steps_text(&progress), "900 training steps done · measuring the runs…");
    }
}
