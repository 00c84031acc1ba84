//! The top bar's run buttons on a finished run: Continue trains on, with the
//! weights it has, and asks nothing.

use attention_workbench::workbench::run_view::RunStatus;
use egui_kittest::kittest::Queryable;

use super::window::{finished_small_run, step_until};

#[test]
fn continue_on_a_finished_run_trains_on_without_asking_about_fresh_weights() {
    let mut harness = finished_small_run();
    let (finished_at, generation) = (harness.state().view.step, harness.state().view.generation);
    assert_eq!(finished_at, 40);
    harness.get_by_label("Continue").click();
    harness.run_steps(2);
    // Only the step count changed: no weight changes shape, so nothing to confirm.
    assert!(!harness.state().confirm_pending(), "Continue asked to start from fresh weights");
    step_until(&mut harness, "the continued run's end", |app| app.view.status == RunStatus::Finished && app.view.step > finished_at);
    assert_eq!(harness.state().view.step, 140, "100 more steps (the steps knob, at least 100)");
    assert_eq!(harness.state().view.generation, generation, "the same weights, trained on");
}
