//! Number knobs in the window: a typed value outside a knob's range is kept at the
//! nearest end, and the window says so beside the field.

use attention_workbench::workbench::run_view::RunStatus;
use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};

use super::window::{finished_small_run, harness, small_state, step_until};

const LR_NOTE: &str = "1e9 is more than this knob takes: it is set to its largest, 10.";

/// Type `text` into the spin button labelled `label`, then press Enter.
fn type_into(harness: &mut egui_kittest::Harness<'static, attention_workbench::app::WorkbenchApp>, label: &str, text: &str) {
    let field = || harness.get_all_by_role(egui::accesskit::Role::SpinButton).find(|n| n.accesskit_node().label().as_deref() == Some(label)).unwrap_or_else(|| panic!("the {label} field"));
    field().focus();
    harness.run_steps(2);
    harness.get_by(|n| n.is_focused()).type_text(text);
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

#[test]
fn a_learning_rate_typed_past_its_range_is_kept_at_the_largest_and_the_window_says_so() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    type_into(&mut harness, "learning rate", "1e9");
    assert_eq!(harness.state().state.config.lr, 10.0);
    assert!(harness.query_all_by_label_contains(LR_NOTE).next().is_some(), "the note beside the field");

    // A value inside the range clears it.
    type_into(&mut harness, "learning rate", "0.002");
    assert_eq!(harness.state().state.config.lr, 0.002);
    assert!(harness.query_all_by_label_contains("more than this knob takes").next().is_none());
}

#[test]
fn a_batch_typed_below_its_range_is_kept_at_the_smallest_and_the_note_fades() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    type_into(&mut harness, "batch", "-5");
    assert_eq!(harness.state().state.config.batch_size, 1);
    assert!(harness.query_all_by_label_contains("-5 is less than this knob takes: it is set to its smallest, 1.").next().is_some());
    // The note stays a few seconds after the field is left, then goes (the
    // harness's clock moves a quarter of a second a frame).
    harness.run_steps(8);
    assert!(harness.query_all_by_label_contains("less than this knob takes").next().is_some(), "still there after 2 s");
    harness.run_steps(16);
    assert!(harness.query_all_by_label_contains("less than this knob takes").next().is_none());
}

#[test]
fn the_note_stays_with_the_field_it_was_typed_in_when_the_learner_moves_on() {
    let mut state = small_state();
    // The next field (steps) holds the same value batch is kept at: a note filed
    // under whichever field has the focus would show there too.
    state.config.steps = 1;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let batch = harness.get_all_by_role(egui::accesskit::Role::SpinButton).find(|n| n.accesskit_node().label().as_deref() == Some("batch")).expect("the batch field");
    batch.focus();
    harness.run_steps(2);
    harness.get_by(|n| n.is_focused()).type_text("-5");
    harness.run_steps(2);
    // The learner clicks the next field: egui reads batch's text once more in the
    // frame after, when steps has the focus.
    harness.get_all_by_role(egui::accesskit::Role::SpinButton).find(|n| n.accesskit_node().label().as_deref() == Some("steps")).expect("the steps field").click();
    harness.run_steps(3);
    assert_eq!(harness.state().state.config.batch_size, 1);
    assert_eq!(harness.query_all_by_label_contains("-5 is less than this knob takes").count(), 1, "one note, beside batch only");
}

#[test]
fn the_note_stays_when_the_clamped_value_brings_up_a_problem_below_the_field() {
    use attention_workbench::tasks::{TaskConfig, TaskKind};
    let mut state = small_state();
    // Lookup at length 64 needs 64 symbols: the clamped length makes a problem
    // appear, and the editor rebuilds its grid under a new id.
    state.config.task = TaskConfig::for_kind(TaskKind::Lookup);
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Task settings").click();
    harness.run_steps(2);
    type_into(&mut harness, "length", "100000");
    assert_eq!(harness.state().state.config.task.length, 64);
    assert!(harness.query_all_by_label_contains("lookup needs distinct keys").next().is_some(), "the problem is shown");
    assert!(harness.query_all_by_label_contains("100000 is more than this knob takes: it is set to its largest, 64.").next().is_some(), "and the note with it");
}

#[test]
fn a_change_applied_note_goes_when_the_next_keystroke_makes_the_edit_invalid() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let field = harness.get_all_by_role(egui::accesskit::Role::SpinButton).find(|n| n.accesskit_node().label().as_deref() == Some("d_model")).expect("the d_model field");
    field.focus();
    harness.run_steps(2);
    // "6" is a valid width for two heads: the untrained model follows it at once.
    harness.get_by(|n| n.is_focused()).type_text("6");
    step_until(&mut harness, "the change applied", |app| app.view.banner.as_ref().is_some_and(|b| b.text.starts_with("Change applied")));
    // Nothing was learned yet: the note does not speak of keeping or losing it.
    assert_eq!(harness.state().view.banner.as_ref().map(|b| b.text.as_str()), Some("Change applied to the untrained model."));
    // "61" is not divisible by two heads: Start is disabled, and a note saying a
    // change was applied would contradict it.
    harness.get_by(|n| n.is_focused()).type_text("1");
    harness.run_steps(3);
    assert_eq!(harness.state().state.config.model.d_model, 61);
    assert!(!harness.state().can_start());
    assert!(harness.query_all_by_label_contains("Change applied").next().is_none(), "the note about 6 is gone");
    assert!(harness.query_all_by_label_contains("d_model 61 is not divisible by 2 heads").next().is_some(), "the problem is shown");
}

#[test]
fn a_change_applied_note_goes_when_a_later_edit_waits_for_apply() {
    let mut harness = finished_small_run();
    // A trained model waits for Apply edits; applying says what it kept.
    type_into(&mut harness, "learning rate", "0.002");
    harness.get_by_label("Apply edits").click();
    step_until(&mut harness, "the change applied", |app| app.view.banner.as_ref().is_some_and(|b| b.text.starts_with("Change applied")));
    // The next edit waits: a note saying a change was applied would be about the one before.
    type_into(&mut harness, "learning rate", "0.003");
    assert!(harness.state().has_pending_edits(), "the edit waits for Apply edits");
    assert!(harness.query_all_by_label_contains("Change applied").next().is_none(), "the note about 0.002 is gone");
}
