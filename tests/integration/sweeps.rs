//! The Sequence-length and Heads tabs' sweeps can be stopped: what was measured
//! stays, the tab says the sweep is partial, and no head count is picked from part
//! of the sweep.

use attention_workbench::experiments::{HEAD_COUNTS, LENGTH_SWEEP};
use attention_workbench::workbench::run_view::RunStatus;
use egui_kittest::kittest::Queryable;

use super::window::{harness, small_state, step_until};

#[test]
fn stopping_the_head_sweep_keeps_what_it_measured_and_picks_nothing() {
    let mut state = small_state();
    // Long enough that the sweep is still training when Stop is pressed.
    state.config.steps = 3000;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Heads").click();
    harness.run_steps(2);
    harness.get_by_label("Measure").click();
    step_until(&mut harness, "the first head count", |app| !app.background.heads.is_empty());
    // Progress counts the steps of every head count, with the time left.
    step_until(&mut harness, "a progress report", |app| app.background.heads_progress.is_some_and(|p| p.done > 3000));
    assert!(harness.query_by_label_contains("head counts done · ETA").is_some(), "progress with the time left");
    // Stop sits before the text whose width changes as the time left counts down.
    let (stop, text) = (harness.get_by_label("Stop").rect(), harness.get_by_label_contains("head counts done · ETA").rect());
    assert!(stop.right() <= text.left(), "Stop at {stop:?}, the progress text at {text:?}");
    harness.get_by_label("Stop").click();
    step_until(&mut harness, "the sweep's end", |app| !app.background.heads_running);
    let done = harness.state().background.heads.len();
    assert!((1..HEAD_COUNTS.len()).contains(&done), "stopped part of the way: {done}");
    harness.run_steps(2);
    assert!(harness.query_by_label_contains(&format!("Stopped after {done} of 5 head counts")).is_some());
    assert!(harness.query_by_label_contains("◀ pick").is_none(), "no pick from part of the sweep");
    assert!(harness.query_by_label_contains("Picked on validation").is_none());
    assert!(!attention_workbench::workbench::window::heads_sweep_complete(&harness.state().background));
    // Measure runs it again, whole.
    assert!(harness.query_by_label("Stop").is_none());
    assert!(harness.query_by_label("Measure").is_some());
}

#[test]
fn stopping_the_length_sweep_keeps_the_lengths_it_timed() {
    let mut state = small_state();
    // Wide and large batches: the longer lengths take seconds, so Stop lands
    // before the last one even on a fast machine.
    state.config.batch_size = 512;
    state.config.model.d_model = 128;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    harness.get_by_label("Measure").click();
    step_until(&mut harness, "the first length", |app| !app.background.lengths.is_empty());
    harness.get_by_label("Stop").click();
    step_until(&mut harness, "the sweep's end", |app| !app.background.lengths_running);
    let done = harness.state().background.lengths.len();
    assert!(done < LENGTH_SWEEP.len(), "stopped before the last length: {done}");
    harness.run_steps(2);
    assert!(harness.query_by_label_contains(&format!("Stopped after {done} of 5 lengths")).is_some());
}

#[test]
fn a_refused_length_says_why_under_the_table_wrapped_inside_the_view() {
    use attention_workbench::experiments::LengthOutcome;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let why = "the attention matrices at this length would need far more memory than the limit allows, so this length was not trained; lower the batch or d_model, or raise the limit, and press Measure again";
    harness.state_mut().background.lengths = vec![LengthOutcome::Refused { length: 4096, message: why.into() }];
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("refused (why below)").is_some(), "the table's row is short");
    let reason = harness.get_by_label_contains("Length 4096 was refused: the attention matrices");
    let view = harness.state().panels.central_rect.expect("the central view was drawn");
    let rect = reason.rect();
    assert!(rect.right() <= view.right() + 0.5, "the reason wraps inside the view: {rect:?} in {view:?}");
    assert!(rect.height() > 20.0, "on more than one line: {rect:?}");
}

#[test]
fn a_sweep_pauses_the_live_run_and_a_start_meanwhile_waits_for_its_end() {
    let mut state = small_state();
    // The live run outlasts the test; the sweep's longer lengths take seconds.
    state.config.steps = 1_000_000;
    state.config.batch_size = 512;
    state.config.model.d_model = 128;
    // A millisecond a frame: notes would fade in the frames a sweep takes at the
    // default quarter second, and this checks that they go when the wait ends.
    let app = attention_workbench::app::WorkbenchApp::new(eframe::egui::Context::default(), state);
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(0.001)
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut attention_workbench::app::WorkbenchApp| app.show(ui), app);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Start").click();
    step_until(&mut harness, "the live run", |app| app.view.status == RunStatus::Running && app.view.step > 0);
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    harness.get_by_label("Measure").click();
    // The length sweep times steps: the live run must not share the cores with it.
    step_until(&mut harness, "the live run paused", |app| app.view.status == RunStatus::Paused);
    let banner = |h: &egui_kittest::Harness<'static, attention_workbench::app::WorkbenchApp>| h.state().view.banner.as_ref().map(|b| b.text.clone()).unwrap_or_default();
    assert!(banner(&harness).starts_with("Paused the live run while the sweep measures"), "{}", banner(&harness));
    assert!(harness.query_by_label("a sweep is measuring").is_some(), "the top bar says why the run waits");
    let paused_at = harness.state().view.step;
    // Resume meanwhile is kept for the sweep's end.
    harness.get_by_label("Resume").click();
    harness.run_steps(3);
    assert!(banner(&harness).starts_with("A sweep is measuring: the live run starts when it ends"), "{}", banner(&harness));
    assert!(harness.state().background.lengths_running, "the sweep still measures");
    assert_eq!(harness.state().view.status, RunStatus::Paused);
    assert_eq!(harness.state().view.step, paused_at, "no training beside the sweep");
    // Step waits too.
    harness.get_by_label("Step").click();
    harness.run_steps(3);
    assert_eq!(harness.state().view.step, paused_at, "no step beside the sweep");
    assert!(banner(&harness).starts_with("A claim or a sweep is measuring on the CPU: Step waits"), "{}", banner(&harness));
    // One measurement at a time: the head sweep is refused while lengths are timed.
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::MeasureHeads);
    assert!(!harness.state().background.heads_running);
    assert!(banner(&harness).starts_with("The sweep in the Sequence length tab is measuring"), "{}", banner(&harness));
    // The note about waiting goes with the wait.
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::StartOrResume);
    assert!(banner(&harness).starts_with("A sweep is measuring: the live run starts"), "{}", banner(&harness));
    harness.get_by_label("Stop").click();
    step_until(&mut harness, "the sweep's end", |app| !app.background.lengths_running);
    assert!(!banner(&harness).starts_with("A sweep is measuring"), "a stale note: {}", banner(&harness));
    step_until(&mut harness, "the live run again", |app| app.view.status == RunStatus::Running && app.view.step > paused_at);
    assert!(harness.query_by_label("a sweep is measuring").is_none());
}

#[test]
fn a_charts_legend_lists_its_curves_in_the_order_they_are_drawn() {
    use attention_workbench::experiments::{LengthCost, LengthOutcome};
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let cost = |length: usize, step_ms: f64| LengthOutcome::Measured(LengthCost { length, step_ms, attention_mib: length as f64 / 10.0, total_mib: 1.0 });
    harness.state_mut().background.lengths = vec![cost(16, 1.0), cost(32, 2.5), cost(64, 8.0)];
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    // The step-time chart (left) draws measured, then ∝ n², then ∝ n. Sorted by
    // name, as egui_plot does by default, ∝ n would come before ∝ n² (and in
    // Chinese every guide before 实测, "measured").
    let leftmost = |label: &str| {
        let all = harness.get_all_by_label(label).map(|node| node.rect()).collect::<Vec<_>>();
        all.into_iter().min_by(|a, b| a.left().total_cmp(&b.left())).unwrap_or_else(|| panic!("no legend entry {label}"))
    };
    let (measured, quadratic, linear) = (leftmost("measured"), leftmost("∝ n² (from the first point)"), leftmost("∝ n (from the first point)"));
    assert!(measured.top() < quadratic.top() && quadratic.top() < linear.top(), "measured {measured:?}, ∝ n² {quadratic:?}, ∝ n {linear:?}");
}

#[test]
fn the_heads_tab_warns_before_a_sweep_of_too_short_or_very_long_trainings() {
    let warning = "the sweep may take many minutes";
    let too_few = "too few for any number of heads to learn the task";
    for steps in [1, 300, 50_000] {
        let mut state = small_state();
        state.config.steps = steps;
        let mut harness = harness(state);
        step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
        harness.get_by_label("Heads").click();
        harness.run_steps(2);
        assert_eq!(harness.query_by_label_contains(too_few).is_some(), steps == 1, "{steps} steps: the warning that the trainings are too short");
        if steps == 1 {
            assert!(harness.query_by_label_contains("would run only one step:").is_some(), "one step, not \"1 steps\"");
        }
        if steps <= 300 {
            assert!(harness.query_by_label_contains(warning).is_none(), "300 steps a training is lesson 22's own");
        } else {
            let expected = format!("Five trainings of 50000 steps each, 250000 steps in all: {warning}");
            assert!(harness.query_by_label_contains(&expected).is_some(), "a long sweep is named before Measure is pressed");
        }
    }
}

#[test]
fn length_times_of_another_model_say_so() {
    use attention_workbench::experiments::{LengthCost, LengthOutcome};
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let timed = harness.state().state.config.clone();
    let cost = |length: usize| LengthOutcome::Measured(LengthCost { length, step_ms: length as f64 / 8.0, attention_mib: 1.0, total_mib: 2.0 });
    harness.state_mut().background.lengths = vec![cost(16), cost(32)];
    harness.state_mut().background.lengths_base = Some(timed.clone());
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    let stale = "These times are from another experiment";
    assert!(harness.query_by_label_contains(stale).is_none(), "timed on the model on screen");
    // The same sweep, timed on a wider model than the one on screen.
    let mut wider = timed;
    wider.model.d_model *= 2;
    harness.state_mut().background.lengths_base = Some(wider);
    harness.run_steps(2);
    assert!(harness.query_by_label_contains(stale).is_some(), "another model's times are marked");
    // A task with longer examples grows the position table, and a new initial
    // scale changes no step's time: still this experiment's times.
    let mut same_cost = harness.state().state.config.clone();
    same_cost.model.max_len += 64;
    same_cost.model.init_scale = 0.5;
    harness.state_mut().background.lengths_base = Some(same_cost);
    harness.run_steps(2);
    assert!(harness.query_by_label_contains(stale).is_none(), "a longer position table is not another experiment");
}
