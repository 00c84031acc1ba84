//! The window, driven through egui_kittest by widget label: the same `WorkbenchApp`
//! the real window runs, with a real trainer thread behind it.

use std::time::{Duration, Instant};

use attention_workbench::app::WorkbenchApp;
use attention_workbench::workbench::run_view::RunStatus;
use attention_workbench::workbench::state::PersistedState;
use attention_workbench::config::preset;
use attention_workbench::tasks::{TaskConfig, TaskKind};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

/// A small, fast experiment: the tiny preset on copy.
pub fn small_state() -> PersistedState {
    let mut config = preset("tiny").unwrap();
    config.task = TaskConfig::for_kind(TaskKind::Copy);
    config.task.length = 6;
    config.steps = 40;
    config.attention_interval = 5;
    config.eval_interval = 10;
    // The language is set, not the machine's: every window test reads English.
    PersistedState { config, preset: "tiny".into(), language: Some(attention_workbench::i18n::Lang::En), ..PersistedState::default() }
}

pub fn harness(state: PersistedState) -> Harness<'static, WorkbenchApp> {
    harness_sized(state, [1400.0, 900.0])
}

/// A fresh window whose small run (`small_state`, 40 steps) has trained to its end.
pub fn finished_small_run() -> Harness<'static, WorkbenchApp> {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Start").click();
    step_until(&mut harness, "the run's end", |app| app.view.status == RunStatus::Finished);
    harness
}

/// The whole window on `state`, `size` points large.
pub fn harness_sized(state: PersistedState, size: [f32; 2]) -> Harness<'static, WorkbenchApp> {
    let app = WorkbenchApp::new(egui::Context::default(), state);
    Harness::builder()
        .with_size(size)
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app)
}

/// Open the shipped lesson whose id starts with `id_prefix` (as its entry in the
/// lesson list does).
fn open_lesson(harness: &mut Harness<'static, WorkbenchApp>, id_prefix: &str) {
    let index = harness.state().lessons.lessons.iter().position(|l| l.as_ref().is_ok_and(|l| l.id.starts_with(id_prefix))).unwrap_or_else(|| panic!("lesson {id_prefix}"));
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::OpenLesson(index));
}

/// Step frames (the trainer works meanwhile) until `done` or the timeout.
pub fn step_until(harness: &mut Harness<'static, WorkbenchApp>, what: &str, done: impl Fn(&WorkbenchApp) -> bool) {
    let start = Instant::now();
    while !done(harness.state()) {
        let app = harness.state();
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what} (run {:?} at step {}, banner {:?})", app.view.status, app.view.step, app.view.banner.as_ref().map(|b| &b.text));
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.step();
}

#[test]
fn start_a_run_then_the_loss_plot_gains_points_and_the_attention_grid_appears() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "the model to be ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Start").click();
    step_until(&mut harness, "loss points and maps", |app| app.view.train_loss.len() >= 10 && app.view.attention.as_ref().is_some_and(|a| a.step > 0));
    assert_eq!(harness.query_all_by_label("head 0").count(), 1, "the attention grid shows head 0 of its one layer");
    assert_eq!(harness.query_all_by_label("head 1").count(), 1, "and head 1");
    step_until(&mut harness, "the run to finish", |app| app.view.status == RunStatus::Finished);
    assert_eq!(harness.state().view.step, 40);
    assert!(harness.query_all_by_label_contains("held-out accuracy").count() >= 1);
}

#[test]
fn invalid_heads_show_an_inline_error_and_disable_start() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    // The heads field of layer 0 is the spin button showing "2"; set it to 3
    // (d_model 32 is not divisible by 3), as a screen reader or the keyboard would.
    let heads = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.value().as_deref() == Some("2"))
        .expect("the heads field showing 2");
    heads.set_value_accesskit(3.0);
    harness.run_steps(3);
    assert_eq!(harness.state().state.config.model.layers[0].heads, 3);
    assert!(harness.query_by_label_contains("not divisible by 3 heads").is_some(), "inline error next to the knob");
    let start = harness.get_by_label("Start");
    assert!(start.accesskit_node().is_disabled(), "Start is disabled while the config is invalid");
    harness.get_by_label("Start").click();
    harness.run_steps(3);
    assert_ne!(harness.state().view.status, RunStatus::Running);
}

#[test]
fn add_and_remove_a_layer_and_undo_it() {
    let mut harness = harness(small_state());
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 1);
    harness.get_by_label("+ Add layer").click();
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 2);
    assert!(harness.query_by_label("Layer 1").is_some(), "a card for the new layer");
    // The new card's buttons sit at the editor's fold in a 900-pixel window: the
    // button is pressed through its accessibility node, by its label.
    harness.get_all_by_label("✖").last().unwrap().click_accesskit();
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 2, "Ctrl+Z brings the layer back");
    harness.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 1, "Ctrl+Shift+Z removes it again");
}

#[test]
fn save_and_reload_an_experiment_through_the_code_the_dialog_uses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("experiment.json");
    let mut harness = harness(small_state());
    harness.run_steps(2);
    harness.state_mut().save_experiment(&path);
    step_until(&mut harness, "the save", |app| app.view.banner.as_ref().is_some_and(|b| b.text.starts_with("saved")));
    let saved = harness.state().state.config.clone();
    harness.get_by_label("+ Add layer").click();
    harness.run_steps(2);
    assert_ne!(harness.state().state.config, saved);
    harness.state_mut().open_experiment(&path);
    harness.run_steps(2);
    assert_eq!(harness.state().state.config, saved);

    std::fs::write(&path, "{ broken").unwrap();
    harness.state_mut().open_experiment(&path);
    harness.run_steps(2);
    assert_eq!(harness.state().state.config, saved, "a bad file changes nothing");
    assert!(harness.query_by_label_contains("could not open the experiment").is_some(), "the banner says why");
}

#[test]
fn space_starts_and_pauses_and_s_steps_once() {
    let mut state = small_state();
    state.config.steps = 100_000;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.key_press(egui::Key::S);
    step_until(&mut harness, "one step", |app| app.view.step == 1 && app.view.status == RunStatus::Paused);
    harness.key_press(egui::Key::Space);
    step_until(&mut harness, "running", |app| app.view.status == RunStatus::Running);
    harness.key_press(egui::Key::Space);
    // 100,000 steps cannot finish in the test's time: only a real pause ends the wait.
    step_until(&mut harness, "paused", |app| app.view.status == RunStatus::Paused);
    assert!(harness.state().view.step < 100_000);
}

/// A hand-made snapshot: 2 heads on a 5-token causal probe, one head reading the
/// previous token, the other spread evenly.
fn synthetic_snapshot() -> attention_workbench::training::AttentionSnapshot {
    let seq = 5;
    let mut previous = vec![0.0f32; seq * seq];
    let mut even = vec![0.0f32; seq * seq];
    let mut keep = vec![false; seq * seq];
    for q in 0..seq {
        previous[q * seq + q.saturating_sub(1)] = 1.0;
        for k in 0..=q {
            even[q * seq + k] = 1.0 / (q + 1) as f32;
            keep[q * seq + k] = true;
        }
    }
    attention_workbench::training::AttentionSnapshot {
        step: 7,
        tokens: ["a", "b", "c", "|", "a"].map(String::from).to_vec(),
        predictions: ["b", "c", "|", "a", "b"].map(String::from).to_vec(),
        layers: vec![Some(vec![previous, even]), None],
        masks: vec![Some(keep.clone()), None],
        intended_masks: vec![Some(keep), None],
        padding: vec![false; seq], names: Vec::new(), blocks: Vec::new(),
    }
}

#[test]
fn attention_grid_image_snapshot() {
    use attention_workbench::ui::attention_panel::AttentionPanel;
    let snapshot = synthetic_snapshot();
    let mut panel = AttentionPanel::default();
    let mut probe = String::new();
    let mut harness = Harness::builder().with_size([560.0, 330.0]).with_context_setup(attention_workbench::app::install_fonts).build_ui(|ui| {
        ui.visuals_mut().dark_mode = true;
        panel.ui(ui, Some(&snapshot), &mut probe, None);
    });
    harness.run();
    assert!(harness.query_by_label("attention off").is_some(), "a layer without attention says so");
    harness.snapshot("attention_grid");
}

/// Lesson 22's grid: 16 heads in each of 2 layers. Every head's title and map
/// stays inside the panel (no title wrapped letter by letter, no map past the
/// edge), in lines of equal length.
#[test]
fn sixteen_heads_wrap_into_even_lines_inside_the_panel() {
    use attention_workbench::ui::attention_panel::AttentionPanel;
    let base = synthetic_snapshot();
    let heads: Vec<Vec<f32>> = (0..16).map(|h| if h % 2 == 0 { base.layers[0].as_ref().unwrap()[0].clone() } else { base.layers[0].as_ref().unwrap()[1].clone() }).collect();
    let keep = base.masks[0].clone();
    let snapshot = attention_workbench::training::AttentionSnapshot {
        layers: vec![Some(heads.clone()), Some(heads)],
        masks: vec![keep.clone(), keep.clone()],
        intended_masks: vec![keep.clone(), keep],
        ..base
    };
    let (width, height) = (620.0, 520.0);
    let mut panel = AttentionPanel::default();
    let mut probe = String::new();
    let mut harness = Harness::builder().with_size([width, height]).with_context_setup(attention_workbench::app::install_fonts).build_ui(|ui| {
        ui.visuals_mut().dark_mode = true;
        panel.ui(ui, Some(&snapshot), &mut probe, None);
    });
    harness.run();
    let mut titles = Vec::new();
    for layer in 0..2 {
        let name = harness.get_by_label(&format!("layer {layer}")).rect();
        let mut lines: Vec<f32> = Vec::new();
        for head in 0..16 {
            // Titled "head 3", or just "3" where the map is narrower than that.
            let title = harness.query_all_by_label(&format!("head {head}")).chain(harness.query_all_by_label(&head.to_string())).map(|n| n.rect()).filter(|r| r.min.y > name.max.y).min_by(|a, b| a.min.y.total_cmp(&b.min.y)).unwrap_or_else(|| panic!("layer {layer} head {head} has a title"));
            assert!(title.height() < 24.0, "head {head}'s title is one line, not wrapped: {title:?}");
            assert!(title.max.x <= width && title.max.y <= height, "head {head}'s title is inside the panel: {title:?}");
            if !lines.iter().any(|y| (y - title.min.y).abs() < 2.0) {
                lines.push(title.min.y);
            }
            titles.push(title);
        }
        assert_eq!(lines.len(), 2, "layer {layer}: 16 heads in two lines of 8, at {lines:?}");
    }
    // A map is as wide as its column: 8 titles across start at least a map apart.
    let first_line: Vec<f32> = titles.iter().take(8).map(|t| t.min.x).collect();
    let gap = first_line.windows(2).map(|w| w[1] - w[0]).fold(f32::MAX, f32::min);
    assert!(gap * 8.0 > 0.6 * width, "the maps use the width ({gap} points a column): {first_line:?}");
}

/// A layer of 16 heads: its ablation boxes wrap onto lines that sit beside their
/// label and above the next knob, not over it.
#[test]
fn sixteen_ablation_boxes_stay_between_their_label_and_the_next_knob() {
    use egui::accesskit::Role;
    let mut state = small_state();
    state.config.model.layers[0].heads = 16;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.run_steps(3);
    let editor_right = harness.get_by_label("Model").rect().max.x + 300.0;
    let boxes: Vec<egui::Rect> = (0..16)
        .map(|h| harness.get_all_by_role(Role::CheckBox).filter(|n| n.accesskit_node().label().as_deref() == Some(h.to_string().as_str())).map(|n| n.rect()).find(|r| r.max.x < editor_right).unwrap_or_else(|| panic!("box {h}")))
        .collect();
    let label = harness.get_all_by_label("ablate heads").next().unwrap().rect();
    let next = harness.get_all_by_label("feed-forward").next().unwrap().rect();
    let bottom = boxes.iter().map(|r| r.max.y).fold(f32::MIN, f32::max);
    assert!(bottom <= next.min.y, "the last line of boxes ({bottom}) ends above \"feed-forward\" ({next:?})");
    let top = boxes.iter().map(|r| r.min.y).fold(f32::MAX, f32::min);
    assert!(top < label.center().y && label.center().y < bottom && bottom - top < 4.0 * 24.0, "the boxes sit beside their label ({label:?}), from {top} to {bottom}, with no gap");
    let lines = boxes.iter().map(|r| r.min.y.round() as i32).collect::<std::collections::BTreeSet<_>>();
    assert!((2..=4).contains(&lines.len()), "the 16 boxes wrap onto a few lines: {lines:?}");
}

/// Chinese tokens and the space stand-in render from the font the app ships
/// (the test context has no system fonts: a missing glyph would panic).
#[test]
fn chinese_labels_render_from_the_shipped_font_image_snapshot() {
    use attention_workbench::ui::attention_panel::AttentionPanel;
    let mut snapshot = synthetic_snapshot();
    snapshot.tokens = ["猫", "追", "狗", "␣", "。"].map(String::from).to_vec();
    snapshot.predictions = ["追", "狗", "␣", "。", "猫"].map(String::from).to_vec();
    let mut panel = AttentionPanel::default();
    let mut probe = "小猫追狗".to_string();
    let mut harness = Harness::builder().with_size([560.0, 330.0]).with_context_setup(attention_workbench::app::install_fonts).build_ui(|ui| {
        ui.visuals_mut().dark_mode = true;
        ui.label("注意力：查询、键、值");
        panel.ui(ui, Some(&snapshot), &mut probe, None);
    });
    harness.run();
    assert!(harness.query_by_label("注意力：查询、键、值").is_some());
    harness.snapshot("attention_grid_chinese");
}

#[test]
fn hovering_a_cell_names_query_key_and_weight_and_masked_cells_say_so() {
    use attention_workbench::ui::attention_panel::cell_text;
    let snapshot = synthetic_snapshot();
    let text = cell_text(&snapshot, 0, 1, 2, 1);
    assert!(text.contains("query 2 \"c\"") && text.contains("key 1 \"b\"") && text.contains("0.333"), "{text}");
    let masked = cell_text(&snapshot, 0, 0, 1, 3);
    assert!(masked.contains("masked"), "{masked}");
}

#[test]
fn a_lesson_try_button_changes_the_model_shows_the_diff_and_its_check_ticks() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    open_lesson(&mut harness, "04");
    harness.run_steps(2);
    harness.get_by_label("▶ Try it: Remove the positions").click();
    harness.run_steps(2);
    let config = &harness.state().state.config;
    assert_eq!(config.task.kind, TaskKind::WordOrder, "the lesson's task");
    assert_eq!(config.model.positional, attention_workbench::config::PositionalEncoding::None);
    // What changed, against the lesson's own experiment (not the copy model that
    // was loaded before), in the editor's words: the one knob the try turns.
    let diff = harness.state().lessons.last_diff.as_ref().map(|(_, d)| d.clone()).unwrap_or_default();
    assert_eq!(diff, ["positions: learned → none", "steps: 1500 → 300"], "the diff names the try's own changes, nothing left over from the copy model");
    assert!(harness.query_by_label_contains("positions: learned → none").is_some(), "the diff of what changed is shown");
    step_until(&mut harness, "the no-position run to finish", |app| app.view.status == RunStatus::Finished);
    harness.get_by_label("▶ Try it: Give positions back").click();
    step_until(&mut harness, "the check to tick", |app| {
        app.state.progress.lesson("04-no-order").is_some_and(|p| !p.checks.is_empty())
    });
    assert!(harness.query_by_label_contains("✔ The model knows who chases").is_some());
    // the learner's own (copy) experiment was set aside and can come back
    harness.get_by_label("Restore my experiment").click();
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.task.kind, TaskKind::Copy);
}

#[test]
fn every_shipped_lesson_renders_with_the_fonts_the_app_installs() {
    // kittest has no system fonts and panics on a glyph the app's fonts lack.
    // Answers show only when asked for: open every one, in both languages.
    use attention_workbench::workbench::actions::AppAction;
    let mut harness = harness(small_state());
    for lang in [attention_workbench::i18n::Lang::En, attention_workbench::i18n::Lang::Zh] {
        harness.state_mut().perform(AppAction::SetLanguage(lang));
        for index in 0..harness.state().lessons.lessons.len() {
            harness.state_mut().perform(AppAction::OpenLesson(index));
            let answers: Vec<String> = harness.state().lessons.lesson().map(|l| l.answers().map(|a| a.id.clone()).collect()).unwrap_or_default();
            for answer in answers {
                harness.state_mut().perform(AppAction::RevealAnswer(answer));
            }
            harness.run_steps(2);
        }
    }
    assert!(harness.state().state.progress.lessons.values().map(|l| l.answers_revealed.len()).sum::<usize>() >= 17);
}

#[test]
fn verify_it_runs_the_same_seeds_as_the_cli_and_says_which() {
    let mut harness = harness(small_state());
    open_lesson(&mut harness, "04");
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("is not this lesson's").is_some(), "the lesson says its model is not loaded");
    harness.get_by_label("Load this lesson's experiment").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("is not this lesson's").is_none(), "and stops saying so once it is");
    let seeds = attention_workbench::lessons::DEFAULT_SEEDS.map(|s| s.to_string()).join(", ");
    assert_eq!(seeds, "0, 1, 2");
    // Below the panel's fold: scrolled to, as a learner would.
    harness.get_by_label(&format!("Verify it (seeds {seeds})")).scroll_to_me();
    harness.run_steps(30); // the scroll is animated
    harness.get_by_label(&format!("Verify it (seeds {seeds})")).click();
    harness.run_steps(3);
    assert!(harness.query_by_label_contains(&format!("verifying with seeds {seeds}")).is_some());
    let start = Instant::now();
    while harness.query_by_label_contains("holds with seed").is_none() && harness.query_by_label_contains("does not hold with seed").is_none() {
        assert!(start.elapsed() < Duration::from_secs(120), "the claim's verification did not finish");
        harness.step();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(harness.query_by_label_contains(&format!("✔ holds with seeds {seeds}")).is_some(), "lesson 04's claim holds on every default seed");
    assert!(harness.query_by_label_contains("seed 2: ✔ a's held-out accuracy is at least 0.95 — measured").is_some(), "each seed's conditions are listed in words");
    assert!(harness.query_by_label_contains("a and b are the claim's two runs").is_some(), "a claim of two sides says so");
    // A verdict can be checked again, without leaving the lesson.
    harness.get_by_label(&format!("Verify again (seeds {seeds})")).click();
    // The frame that takes the click starts it; its end is read a frame later at the earliest.
    harness.step();
    assert!(harness.state().lessons.claim_running(), "it runs again");
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::CancelClaim);
    let start = Instant::now();
    while harness.state().lessons.claim_running() {
        assert!(start.elapsed() < Duration::from_secs(60), "the cancelled verification did not end");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.run_steps(2);
    // The verdict it replaced is back, as the learner's progress still has it.
    assert!(harness.query_by_label_contains(&format!("✔ holds with seeds {seeds}")).is_some(), "the earlier verdict stands");
    assert_eq!(harness.state().view.banner.as_ref().map(|b| b.text.as_str()), Some("Verification cancelled; the earlier verdict stands."));
}

/// Lesson 12's claim reads writing times, so *Verify it* runs it alone: its sides
/// train side by side, then write in turns. Its progress still counts every
/// training step once, up to the total it shows, and the claim holds on the
/// default seeds, each condition listed in words.
#[test]
fn verify_it_on_lesson_12_times_the_writers_alone_and_counts_every_step() {
    let mut harness = harness(small_state());
    open_lesson(&mut harness, "12");
    harness.run_steps(2);
    // The claim sits below the fold of the lesson panel (a click there would miss):
    // the action its button performs.
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::LessonVerifyClaim("claim-greedy-writing-kv".to_string()));
    let start = Instant::now();
    let (mut seen, mut time_left_shown): (Vec<(usize, usize)>, bool) = (Vec::new(), false);
    while harness.query_by_label_contains("holds with seed").is_none() && harness.query_by_label_contains("does not hold with seed").is_none() {
        assert!(start.elapsed() < Duration::from_secs(120), "the claim's verification did not finish: {:?}", seen.last());
        if let Some(progress) = harness.state().lessons.claim_progress() {
            seen.push((progress.done, progress.total));
        }
        time_left_shown |= harness.query_all_by_label_contains("training steps · ETA").next().is_some();
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    // Three seeds, two sides, 60 steps each.
    assert!(seen.iter().all(|&(_, total)| total == 360), "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "progress never goes back: {seen:?}");
    assert!(seen.last().is_some_and(|&(done, _)| done > 300), "progress reached the end: {:?}", seen.last());
    assert!(time_left_shown, "the progress bar says how long is left");
    assert!(harness.query_by_label_contains("✔ holds with seeds 0, 1, 2").is_some(), "lesson 12's claim holds on every default seed");
    assert!(harness.query_by_label_contains("seed 2: ✔ b's milliseconds per generated token without a cache is more than 2 times a's — measured").is_some(), "each seed's conditions are listed in words");
}

#[test]
fn bug_hunt_fits_the_default_window_and_hides_its_planted_knobs_until_revealed() {
    bug_hunt_in_a_window_of([1440.0, 900.0]);
}

/// At 1024 × 700 the Bug hunt stacks its case list over the case, so the guess
/// and Check fit beside each other (Check had been cut off the right edge).
#[test]
fn bug_hunt_keeps_check_in_view_in_a_small_window() {
    bug_hunt_in_a_window_of([1024.0, 700.0]);
}

fn bug_hunt_in_a_window_of(size: [f32; 2]) {
    let mut harness = harness_sized(small_state(), size);
    // The panels settle their widths over the first frames (as a real window does
    // before anyone can click): click where the tab ends up.
    harness.run_steps(3);
    harness.get_by_label("Bug hunt").click();
    harness.run_steps(2);
    assert!(harness.query_all_by_label_contains("hidden for the bug hunt").next().is_none(), "nothing is hidden before a case is loaded");
    harness.get_by_label("Load this experiment").scroll_to_me();
    harness.run_steps(30); // the scroll is animated
    harness.get_by_label("Load this experiment").click();
    harness.run_steps(3);
    assert!(harness.query_all_by_label_contains("hidden for the bug hunt").next().is_some(), "the planted knobs are hidden");
    // The answer row stays inside the central view: nothing to uncover.
    let central = harness.state().panels.central_rect.expect("the central view");
    // In the default window it is in view as it opens; a small one stacks the
    // case list above it, to scroll past.
    if size[1] < 900.0 {
        harness.get_by_label("Check").scroll_to_me();
        harness.run_steps(30); // the scroll is animated
    }
    let check = harness.get_by_label("Check").rect();
    assert!(check.max.x <= central.max.x, "{size:?}: Check ends at x = {} but the central view at {}", check.max.x, central.max.x);
    assert!(check.max.y < size[1]);
    // The guess box beside it keeps a readable width ("Choose the bug…").
    let guess = harness.query_all_by_role(egui::accesskit::Role::ComboBox).map(|n| n.rect()).find(|r| r.left() >= central.left() && r.right() <= central.right() && (r.center().y - check.center().y).abs() < 5.0).expect("the guess box beside Check");
    assert!(guess.width() >= 140.0, "{size:?}: the guess box is {} points wide", guess.width());
    harness.get_by_label("Reveal the answer").click();
    harness.run_steps(2);
    assert!(harness.query_all_by_label_contains("hidden for the bug hunt").next().is_none(), "revealed: the knobs show again");
}

#[test]
fn a_first_start_opens_lesson_01_with_its_experiment_and_a_short_guide() {
    // English, set rather than the machine's (a language alone is still a first start).
    let state = PersistedState { language: Some(attention_workbench::i18n::Lang::En), ..PersistedState::default() };
    assert_eq!(state.config.task.kind, TaskKind::Lookup, "the screen matches lesson 01's dictionary task");
    assert_eq!(state.lesson, "01-why-attention");
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    assert!(harness.state().lessons.runs_this_lesson(), "pressing Start trains lesson 01's own experiment, so its checks judge it");
    assert!(harness.query_by_label("Getting started").is_some(), "the guide opens on a first start");
    assert!(harness.query_by_label_contains("Press Start (Space) to train this experiment").is_some(), "the strip says what to press first");
    // Help → About (the menu item's action) shows the version and licence.
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::ShowAbout);
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("Licence: MIT OR Apache-2.0").is_some());
}

#[test]
fn restore_my_experiment_survives_a_restart() {
    let mut window = harness(small_state());
    open_lesson(&mut window, "05");
    window.state_mut().perform(attention_workbench::workbench::actions::AppAction::LoadLessonStart);
    window.run_steps(2);
    let saved = window.state_mut().state_to_save().clone();
    assert_eq!(saved.saved_experiment.as_ref().map(|c| c.task.kind), Some(TaskKind::Copy), "the learner's copy experiment is remembered");
    // A new window from the saved state still offers it back.
    let mut restarted = harness(PersistedState::from_stored(&saved.to_stored()));
    restarted.run_steps(2);
    restarted.get_by_label("Restore my experiment").click();
    restarted.run_steps(2);
    assert_eq!(restarted.state().state.config.task.kind, TaskKind::Copy);
}

#[test]
fn where_no_file_dialog_opens_a_path_field_asks_and_the_file_is_written() {
    use attention_workbench::workbench::PathRequest;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.json");
    let mut harness = harness(small_state());
    // What `ask_path` does when the dialog reports it could not open.
    harness.state_mut().window.path_prompt = Some((PathRequest::SaveExperiment, path.display().to_string()));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("No file dialog could be opened").is_some(), "it says why, not 'cancelled'");
    harness.get_by_label("OK").click();
    harness.run_steps(2);
    assert!(harness.state().window.path_prompt.is_none());
    // Written off the window's thread: the status strip says when it is done.
    step_until(&mut harness, "the save", |app| app.view.banner.as_ref().is_some_and(|b| b.text.starts_with("saved")));
    let saved = attention_workbench::app::files::load_experiment(&path).unwrap();
    assert_eq!(saved, harness.state().state.config);
    // Cancel says what was left untouched.
    harness.state_mut().window.path_prompt = Some((PathRequest::ExportCsv, String::new()));
    harness.run_steps(2);
    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("Export cancelled: nothing was written.").is_some());
}

#[test]
fn named_controls_are_neither_clipped_nor_covered_at_three_window_sizes() {
    for (width, height) in [(1280.0, 800.0), (1440.0, 900.0), (1920.0, 1080.0)] {
        let mut harness = harness_sized(small_state(), [width, height]);
        step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
        let lessons_left = harness.get_by_label("Lessons").rect().min.x - 8.0;
        let editor_right = harness.get_by_label("Model").rect().max.x;
        let inside = |name: &str, rect: egui::Rect, right_limit: f32| {
            assert!(
                rect.min.x >= 0.0 && rect.min.y >= 0.0 && rect.max.x <= right_limit && rect.max.y <= height,
                "{width}×{height}: \"{name}\" at {rect:?} is clipped or under the lesson panel (which starts at x = {lessons_left})"
            );
        };
        for name in ["Start", "Step", "Reset"] {
            inside(name, harness.get_by_label(name).rect(), width);
        }
        for name in ["Attention", "Mask inspector", "Step-through", "Positions", "Softmax saturation", "Bug hunt", "loss", "accuracy", "gradient norm per layer"] {
            let rects: Vec<egui::Rect> = harness.query_all_by_label(name).map(|node| node.rect()).collect();
            assert!(!rects.is_empty(), "{width}×{height}: no \"{name}\"");
            for rect in rects {
                inside(name, rect, lessons_left);
                assert!(rect.min.x >= editor_right, "{width}×{height}: \"{name}\" is under the model editor");
            }
        }
        harness.query_all_by_label("Bug hunt").next().unwrap().click();
        harness.run_steps(2);
        inside("Check", harness.get_by_label("Check").rect(), lessons_left);
    }
}

#[test]
fn a_long_inline_error_does_not_widen_the_model_editor_for_good() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let before = harness.get_by_label("Model").rect();
    let kind_before = harness.get_by_label("kind").rect();
    harness.state_mut().state.config.model.layers[0].heads = 5; // d_model 32 is not a multiple of 5
    harness.run_steps(3);
    let tabs_left = harness.query_all_by_label("Attention").map(|n| n.rect().min.x).fold(f32::MAX, f32::min);
    assert!(tabs_left < 520.0, "the editor stays at most 460 points wide with an error showing; the tabs start at {tabs_left}");
    harness.state_mut().state.config.model.layers[0].heads = 2;
    harness.run_steps(3);
    assert_eq!(harness.get_by_label("Model").rect(), before, "after the fix the editor is as it was");
    assert_eq!(harness.get_by_label("kind").rect(), kind_before, "and no empty rows stay where the message was");
}

#[test]
fn a_try_in_a_new_lesson_starts_from_that_lessons_experiment_not_the_leftover_model() {
    // A tall window: lesson 09's try sits low in its text, and this test is about
    // which experiment it starts from, not about scrolling to it.
    let mut harness = harness_sized(small_state(), [1400.0, 1300.0]);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    let index = |h: &Harness<'static, WorkbenchApp>, id: &str| h.state().lessons.lessons.iter().position(|l| l.as_ref().is_ok_and(|l| l.id.starts_with(id))).unwrap();
    // Lesson 08 runs copy with one layer; lesson 09 is copy too, with six layers.
    let eight = index(&harness, "08");
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::OpenLesson(eight));
    harness.run_steps(2);
    harness.get_by_label("▶ Try it: Read it as true = keep").click();
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.model.layers.len(), 1);
    let nine = index(&harness, "09");
    harness.state_mut().perform(attention_workbench::workbench::actions::AppAction::OpenLesson(nine));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("Judged on this lesson's own runs").is_some(), "no check judges the leftover model");
    harness.get_by_label("▶ Try it: Six layers, no residuals, no LayerNorm").click();
    harness.run_steps(2);
    let config = &harness.state().state.config;
    assert_eq!(config.model.layers.len(), 6, "the try starts from lesson 09's six-layer experiment");
    assert!(config.model.layers.iter().all(|l| !l.residual));
}

#[test]
fn the_sequence_length_tab_measures_every_length_and_plots_it() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Sequence length").click();
    harness.run_steps(2);
    harness.get_by_label("Measure").click();
    step_until(&mut harness, "every length", |app| !app.background.lengths_running && !app.background.lengths.is_empty());
    let results = &harness.state().background.lengths;
    let lengths: Vec<usize> = results.iter().map(|r| r.length()).collect();
    assert_eq!(lengths, attention_workbench::experiments::LENGTH_SWEEP.to_vec());
    let times: Vec<f64> = results
        .iter()
        .map(|r| match r {
            attention_workbench::experiments::LengthOutcome::Measured(c) => c.step_ms,
            other => panic!("the tiny model fits at every length: {other:?}"),
        })
        .collect();
    assert!(times[4] > times[0], "256 characters take longer than 16: {times:?}");
    assert!(harness.query_all_by_label_contains("ms per step").count() >= 1, "the chart and table are shown");
}

#[test]
fn the_heads_tab_trains_every_head_count_and_marks_the_pick() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Heads").click();
    harness.run_steps(2);
    harness.get_by_label("Measure").click();
    step_until(&mut harness, "every head count", |app| !app.background.heads_running && !app.background.heads.is_empty());
    let results = &harness.state().background.heads;
    // The tiny model is 32 wide: 1 to 16 heads all divide it.
    let heads: Vec<usize> = attention_workbench::experiments::measured(results).iter().map(|p| p.heads).collect();
    assert_eq!(heads, attention_workbench::experiments::HEAD_COUNTS.to_vec(), "{results:?}");
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("◀ pick").is_some(), "the pick is marked in the table");
    assert!(harness.query_by_label_contains("Picked on validation").is_some());
}

#[test]
fn a_pinned_run_stays_on_the_charts_after_a_reset_until_unpinned() {
    let mut harness = finished_small_run();
    let steps = harness.state().view.train_loss.len();
    harness.get_by_role_and_label(egui::accesskit::Role::Button, "Pin this run").click();
    harness.run_steps(2);
    assert_eq!(harness.state().view.pinned.as_ref().map(|p| p.train_loss.len()), Some(steps));
    harness.get_by_label("Reset").click();
    step_until(&mut harness, "a fresh model", |app| app.view.status == RunStatus::Ready && app.view.train_loss.is_empty());
    assert!(harness.state().view.pinned.is_some(), "the pin survives the reset");
    assert!(harness.query_all_by_label_contains("pinned train").count() >= 1, "the loss chart lists the pinned curve");
    harness.get_by_label("Unpin").click();
    harness.run_steps(2);
    assert!(harness.state().view.pinned.is_none());
}

#[test]
fn the_generate_tab_writes_with_and_without_the_cache_side_by_side() {
    let mut state = small_state();
    state.config.task = TaskConfig::for_kind(TaskKind::CharLm);
    state.config.task.length = 32;
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Generate").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("Type a prompt").is_some(), "the empty panel says what to do");
    harness.get_by_label("Write").click();
    step_until(&mut harness, "the refusal", |app| app.view.generation_error.is_some());
    assert!(harness.query_by_label_contains("type a prompt").is_some(), "an empty prompt is refused in words");
    harness.state_mut().panels.generation.prompt = "The sea".into();
    harness.state_mut().panels.generation.tokens = 20;
    harness.get_by_label("Write").click();
    step_until(&mut harness, "the two texts", |app| app.view.generated.is_some());
    let report = harness.state().view.generated.clone().unwrap();
    assert_eq!(report.mismatches, Some(0));
    assert_eq!(report.uncached.tokens.len(), 20);
    assert_eq!(report.prompt_text, "The sea", "the prompt reads back as typed, its space a space");
    assert!(harness.query_by_label("Without cache").is_some() && harness.query_by_label("With KV cache").is_some());
    assert!(harness.query_by_label_contains("the same tokens").is_some(), "the summary says the texts agree");
    assert!(harness.query_by_label_contains("× faster").is_some(), "and gives the speed-up");
}

#[test]
fn the_pinned_run_and_the_current_one_are_compared_map_by_map() {
    let mut harness = finished_small_run();
    harness.get_by_role_and_label(egui::accesskit::Role::Button, "Pin this run").click();
    harness.get_by_label("Reset").click();
    step_until(&mut harness, "a fresh model's maps", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some() && app.view.train_loss.is_empty());
    assert!(harness.state().view.pinned.as_ref().and_then(|p| p.attention.as_ref()).is_some(), "the pin kept its maps");
    harness.get_by_label_contains("Compare with the pinned run").click();
    harness.run_steps(3);
    assert!(harness.state().window.compare_pinned);
    for label in ["pinned", "now", "now − pinned"] {
        assert!(harness.query_by_label(label).is_some(), "{label} is shown");
    }
    assert!(harness.query_by_label_contains("largest change").is_some(), "the difference map says how large the change is");
}

/// Switches the process-wide language, so it runs on its own (.ci/test runs it after
/// the others): under `cargo test` other window tests share its process.
#[test]
#[ignore = "switches the process-wide language; .ci/test runs it on its own"]
fn switching_to_chinese_changes_the_window_and_the_lesson_at_once_and_is_remembered() {
    use attention_workbench::workbench::actions::AppAction;
    use attention_workbench::i18n::Lang;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some());
    assert!(harness.query_by_label("Start").is_some());
    // The maps and a pinned run made in English, before the switch.
    harness.state_mut().perform(AppAction::PinRun);
    harness.run_steps(2);
    assert!(harness.query_by_label("layer 0").is_some(), "the attention grid names its layers");
    assert!(harness.query_by_label_contains("(step 0)").is_some(), "the pinned run is named by its step");
    // A claim's condition verified in English (its sentence stored then).
    let condition = "a.eval_accuracy >= 0.95";
    let plain = attention_workbench::experiments::parse_condition(condition).unwrap().plain();
    let verified = attention_workbench::experiments::ConditionResult { condition: condition.into(), plain, lhs: 0.981, rhs: 0.95, passed: true, undefined: None };
    assert!(verified.describe().contains("held-out accuracy"));
    // The reader's place in the lesson: scrolled down to lesson 01's claim, which
    // puts its first try at the top of the view. The Chinese text above it is
    // shorter: at the same offset the try would sit about 75 points higher.
    assert!(harness.state().lessons.lesson().unwrap().id.starts_with("01"));
    harness.get_by_label_contains("Verify it").scroll_to_me();
    harness.run_steps(30); // the scroll is animated
    let first_try = |h: &Harness<'static, WorkbenchApp>, prefix: &str| h.query_all_by_role(egui::accesskit::Role::Button).filter(|n| n.accesskit_node().label().is_some_and(|l| l.starts_with(prefix))).map(|n| n.rect().top()).fold(f32::INFINITY, f32::min);
    let try_top = first_try(&harness, "▶ Try it");
    assert!(try_top.is_finite(), "lesson 01's tries");
    harness.get_by_label("Language").click();
    harness.run_steps(2);
    harness.get_by_label("中文（简体）").click();
    harness.run_steps(3);
    let moved = first_try(&harness, "▶ 试一试") - try_top;
    assert!(moved.abs() < 10.0, "the lesson's text stays where the reader had it (its first try moved {moved} points)");
    assert_eq!(harness.state().state.language, Some(Lang::Zh), "the choice is kept in the saved state");
    let now = verified.describe();
    assert!(!now.contains("held-out") && !now.contains("measured") && now.contains("0.981"), "a verified claim's result reads in the new language: {now}");
    assert!(harness.query_by_label("开始").is_some(), "the Start button reads 开始");
    assert!(harness.query_by_label("生成").is_some(), "the Generate tab reads 生成");
    // Names kept with the run are worded as they are drawn, in the new language.
    // (The layer card is "层 0" too; the grid's English name must be gone.)
    assert!(harness.query_all_by_label("层 0").count() >= 2 && harness.query_all_by_label("layer 0").count() == 0, "the grid's layer names follow the switch");
    assert!(harness.query_by_label_contains("（第 0 步）").is_some(), "so does the pinned run's name");
    let title = harness.state().lessons.lesson().unwrap().title.clone();
    assert!(title.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "the open lesson is its Chinese version: {title}");
    harness.state_mut().perform(AppAction::SetLanguage(Lang::En));
    harness.run_steps(2);
    assert!(harness.query_by_label("Start").is_some(), "and back");
}

#[test]
fn the_task_section_edits_length_and_picks_the_chinese_words() {
    let mut state = small_state();
    state.config.task = TaskConfig::for_kind(TaskKind::WordOrder);
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Task settings").click();
    harness.run_steps(2);
    // The combo box is labelled by its row ("words"), like every knob.
    harness.get_all_by_label("words").last().unwrap().click();
    harness.run_steps(2);
    harness.get_by_label("Chinese (猫 追 狗)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.task.corpus, "chinese");
    // Nothing was trained yet, so the edit applies at once.
    step_until(&mut harness, "the Chinese probe", |app| app.view.attention.as_ref().is_some_and(|a| a.tokens.first().map(String::as_str) == Some("猫")));
    assert_eq!(harness.state().view.attention.as_ref().unwrap().tokens, ["猫", "追", "狗", "？"]);
}

#[test]
fn a_claim_verification_pauses_the_live_run_runs_one_at_a_time_and_can_be_cancelled() {
    use attention_workbench::workbench::actions::AppAction;
    let mut harness = harness(PersistedState { config: attention_workbench::config::ExperimentConfig { steps: 100_000, ..small_state().config }, ..small_state() });
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Start").click();
    step_until(&mut harness, "training", |app| app.view.status == RunStatus::Running && app.view.step > 0);
    // Lesson 16's fine-tuning claim trains for a while (150 steps a side, three
    // seeds): long enough to cancel.
    open_lesson(&mut harness, "16");
    let mut claims: Vec<String> = harness.state().lessons.lesson().unwrap().claims().map(|c| c.id.clone()).collect();
    claims.swap(0, 1);
    assert_eq!(claims[0], "claim-fine-tuning-pretrained");
    harness.state_mut().perform(AppAction::LessonVerifyClaim(claims[0].clone()));
    step_until(&mut harness, "the live run to pause", |app| app.view.status == RunStatus::Paused);
    assert!(harness.state().lessons.claim_running());
    assert!(harness.query_by_label("verifying a claim").is_some(), "the top bar shows the verification's progress");
    // A second verification waits for the first.
    assert!(!harness.state_mut().verify_claim(&claims[1]), "one verification at a time");
    step_until(&mut harness, "some training steps of the claim", |app| app.lessons.claim_progress().is_some_and(|p| p.done > 0));
    assert_eq!(harness.query_all_by_label("Cancel").count(), 2, "Cancel beside the claim and beside its progress bar");
    harness.query_all_by_label("Cancel").next().unwrap().click();
    // Marked at once: the end arrives in a later frame than the press.
    harness.run_steps(1);
    assert!(harness.state().lessons.claim_running() && harness.state().lessons.claim_cancel_pressed(), "the press is marked before the thread has stopped");
    step_until(&mut harness, "the cancel", |app| !app.lessons.claim_running());
    assert!(harness.state().lessons.claims.is_empty(), "a cancelled claim is not verified");
    step_until(&mut harness, "the live run to resume", |app| app.view.status == RunStatus::Running);
}

#[test]
fn a_pressed_cancel_says_cancelling_at_once_in_both_places() {
    use attention_workbench::workbench::lesson_runner::ClaimState;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    open_lesson(&mut harness, "16");
    // A verification as the lesson panel and the top bar see one, with no thread
    // behind it: nothing ends it between frames.
    let lesson = harness.state().lessons.lesson().unwrap().id.clone();
    let progress = attention_workbench::workbench::step_progress::StepProgress::new(900);
    harness.state_mut().lessons.claims.insert((lesson, "claim-fine-tuning-pretrained".into()), ClaimState::Running { seeds: vec![0, 1, 2], progress, cancelling: false });
    harness.run_steps(2);
    assert_eq!(harness.query_all_by_label("Cancel").count(), 2, "Cancel beside the claim and beside its progress bar");
    harness.query_all_by_label("Cancel").next().unwrap().click();
    harness.run_steps(2);
    assert_eq!(harness.query_all_by_label("Cancelling…").count(), 2, "the press shows at once, in both places");
    assert!(harness.query_all_by_label("Cancelling…").all(|button| button.accesskit_node().is_disabled()), "a second press would do nothing");
    assert!(harness.query_by_label("Cancel").is_none());
}

#[test]
fn verify_it_is_disabled_while_a_sweep_measures() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    open_lesson(&mut harness, "16");
    harness.run_steps(2);
    let enabled = |harness: &Harness<'static, WorkbenchApp>| harness.query_all_by_label_contains("Verify it").map(|b| !b.accesskit_node().is_disabled()).collect::<Vec<_>>();
    let claims = harness.state().lessons.lesson().unwrap().claims().count();
    assert!(claims >= 2 && enabled(&harness) == vec![true; claims], "every claim can be verified: {:?}", enabled(&harness));
    // The sweep's flag as the app sets it while the head counts are measured.
    harness.state_mut().background.heads_running = true;
    harness.run_steps(2);
    assert_eq!(enabled(&harness), vec![false; claims], "no verification beside a sweep");
    harness.state_mut().background.heads_running = false;
    harness.run_steps(2);
    assert_eq!(enabled(&harness), vec![true; claims], "enabled again when the sweep ends");
}

#[test]
fn start_pressed_while_a_claim_is_verified_starts_the_live_run_when_the_verification_ends() {
    use attention_workbench::workbench::actions::AppAction;
    let mut harness = harness(PersistedState { config: attention_workbench::config::ExperimentConfig { steps: 100_000, ..small_state().config }, ..small_state() });
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    open_lesson(&mut harness, "16");
    harness.state_mut().perform(AppAction::LessonVerifyClaim("claim-fine-tuning-pretrained".to_string()));
    step_until(&mut harness, "some training steps of the claim", |app| app.lessons.claim_progress().is_some_and(|p| p.done > 0));
    // Start while the claim trains: the run waits, and the banner says until when.
    harness.get_by_label("Start").click();
    harness.run_steps(3);
    assert_eq!(harness.state().view.status, RunStatus::Ready, "the live run does not share the cores with the claim");
    assert!(harness.query_by_label_contains("starts when the verification ends").is_some(), "the banner says the press is kept");
    harness.query_all_by_label("Cancel").next().unwrap().click();
    step_until(&mut harness, "the cancel", |app| !app.lessons.claim_running());
    step_until(&mut harness, "the live run to start", |app| app.view.status == RunStatus::Running && app.view.step > 0);
}

#[test]
fn the_maps_appear_after_a_lesson_experiment_loads_even_when_no_frame_reads_between_the_trainers_events() {
    // Loading a lesson's experiment sends a config change and a reset at once; the
    // trainer answers each with a snapshot. When the window draws no frame in between
    // (a busy or hidden window), the maps must still be there once it reads them.
    let mut window = harness(small_state());
    step_until(&mut window, "ready", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some());
    open_lesson(&mut window, "03");
    window.state_mut().perform(attention_workbench::workbench::actions::AppAction::LoadLessonStart);
    // The trainer builds lesson 03's model while no frame reads its events.
    std::thread::sleep(Duration::from_millis(1500));
    step_until(&mut window, "lesson 03's model", |app| app.view.status == RunStatus::Ready && app.view.parameters > 0);
    window.run_steps(3);
    let app = window.state();
    assert_eq!(app.view.step, 0);
    assert!(app.view.attention.is_some(), "the maps of lesson 03's fresh model are shown at step 0");
}

#[test]
fn a_max_length_being_typed_is_not_bumped_back_to_the_task_length() {
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    // The task section open, as a learner has it while sizing the model.
    harness.get_by_label("Task settings").click();
    harness.run_steps(2);
    let needed = harness.state().state.config.task.build().unwrap().seq_len();
    let field = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.accesskit_node().label().as_deref() == Some("max length"))
        .expect("the max length field");
    field.set_value_accesskit(3.0);
    harness.run_steps(3);
    assert_eq!(harness.state().state.config.model.max_len, 3, "the value typed stays (the task needs {needed}) until the learner fixes it");
    assert!(!harness.state().can_start(), "and the problem is shown instead of Start");
}

#[test]
fn the_family_knob_builds_an_rnn_and_an_encoder_decoder_with_their_own_cards() {
    use attention_workbench::config::ModelFamily;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    // The RNN: no layer cards, its own two knobs, and a model that builds.
    harness.get_all_by_label("model family").last().unwrap().click();
    harness.run_steps(2);
    harness.get_by_label("RNN encoder–decoder").click();
    harness.run_steps(2);
    let config = &harness.state().state.config;
    assert_eq!(config.model.family, ModelFamily::Rnn);
    assert!(config.model.layers.is_empty(), "an RNN has no Transformer layers");
    assert!(harness.query_by_label("Layer 0").is_none(), "no layer card for an RNN");
    assert!(harness.query_by_label("GRU encoder → GRU decoder").is_some(), "the RNN's own card");
    assert!(harness.query_all_by_label("RNN attention").next().is_some());
    step_until(&mut harness, "the RNN model", |app| app.view.attention.as_ref().is_some_and(|a| a.names == [attention_workbench::model::UnitName::Alignment]));
    // The encoder–decoder: an encoder card, a decoder card with cross-attention.
    harness.get_all_by_label("model family").last().unwrap().click();
    harness.run_steps(2);
    harness.get_by_label("encoder–decoder").click();
    harness.run_steps(2);
    let config = &harness.state().state.config;
    assert_eq!(config.model.family, ModelFamily::EncoderDecoder);
    assert_eq!((config.model.encoder_layers.len(), config.model.layers.len()), (1, 1));
    assert!(harness.query_by_label("Encoder layer 0").is_some() && harness.query_by_label("Layer 0").is_some());
    harness.get_all_by_label("cross-attention").last().unwrap().click_accesskit();
    harness.run_steps(2);
    assert!(!harness.state().state.config.model.layers[0].cross_attention, "the card's cross-attention box switches it");
    // The attention grid names the units of the model it shows.
    harness.get_all_by_label("cross-attention").last().unwrap().click_accesskit();
    step_until(&mut harness, "the encoder–decoder's maps", |app| app.view.attention.as_ref().is_some_and(|a| a.names.len() == 3));
    let names = harness.state().view.attention.as_ref().unwrap().names.clone();
    let labels: Vec<String> = names.iter().map(|n| n.label()).collect();
    assert_eq!(labels, ["encoder 0", "decoder 0 · self", "decoder 0 · cross"]);
    harness.run_steps(2);
    assert!(harness.query_by_label("decoder 0 · cross").is_some(), "the grid labels the cross-attention row");
}

#[test]
fn the_by_length_tab_shows_the_held_out_accuracy_of_each_length_and_measures_the_gradient_reach() {
    let mut state = small_state();
    state.config = attention_workbench::config::preset("rnn").unwrap();
    state.config.task.length = 8;
    state.config.steps = 20;
    state.config.eval_interval = 10;
    state.config.fit_max_len_to_task();
    let mut harness = harness(state);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("By length").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("Accuracy against sentence length").is_some());
    harness.get_by_label("Start").click();
    step_until(&mut harness, "an evaluation by length", |app| app.view.last_eval.as_ref().is_some_and(|e| !e.by_length.is_empty()));
    harness.run_steps(2);
    // One row per bucket: 3–8 words in five buckets (3, 4, 5, 6, 7–8).
    assert!(harness.query_by_label("7–8").is_some(), "the longest bucket's row");
    // Below the chart and its table: pressed through its accessibility node, by label.
    harness.get_by_label("Measure gradient reach").click_accesskit();
    step_until(&mut harness, "the gradient reach", |app| app.view.reach.is_some());
    let (_, reach) = harness.state().view.reach.clone().unwrap();
    let reach = reach.expect("a seq2seq task has a gradient reach");
    assert!(reach.by_word.len() == 8 && reach.by_word.iter().all(|v| (0.0..=1.0).contains(v)), "{reach:?}");
}

/// The lesson list's "(done/total)" says on hover what it counts, so a verified
/// claim that does not move it is not taken for lost progress.
#[test]
fn the_lesson_lists_count_says_on_hover_what_it_counts() {
    let mut harness = harness(small_state());
    harness.run_steps(2);
    harness.get_by_label("Lessons").hover();
    harness.run_steps(40);
    assert!(harness.query_by_label_contains("the checks you have passed out of all its checks").is_some(), "the list's tooltip");
}

/// In a small window (the smallest the app opens, and 1024 × 700), in English and
/// in Chinese, with lesson 01's experiment loaded (so the lesson panel also shows
/// "Restore my experiment"): every combo box of the editor ends inside it, the
/// probe's Show button and the map's legend end inside the central view, and the
/// lesson panel's buttons lie inside the lesson panel (a row wider than the panel
/// had pushed its edge over the central view). It sets the process-wide language,
/// so .ci/test runs it on its own.
#[test]
#[ignore = "sets the process-wide language; .ci/test runs it on its own"]
fn a_small_window_keeps_each_panels_widgets_inside_it() {
    use attention_workbench::i18n::{Lang, message};
    use attention_workbench::workbench::actions::AppAction;
    use egui::accesskit::Role;
    for lang in [Lang::En, Lang::Zh] {
        for size in [[1024.0, 700.0], [900.0, 600.0]] {
            let state = PersistedState { language: Some(lang), ..small_state() };
            let mut harness = harness_sized(state, size);
            step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
            harness.state_mut().perform(AppAction::LoadLessonStart);
            step_until(&mut harness, "the lesson's experiment", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some() && app.lessons.saved_experiment.is_some());
            harness.run_steps(3);
            let what = format!("{lang:?} at {size:?}");
            let central = harness.state().panels.central_rect.expect("the central view was drawn");
            let lessons_left = harness.get_by_label(&message("lesson-student-name", None)).rect().left();
            let editor_boxes: Vec<egui::Rect> = harness.query_all_by_role(Role::ComboBox).map(|n| n.rect()).filter(|r| r.top() >= central.top() && r.left() < central.left()).collect();
            assert!(editor_boxes.len() >= 4, "{what}: the editor's combo boxes ({})", editor_boxes.len());
            for rect in editor_boxes {
                assert!(rect.right() <= central.left(), "{what}: a combo box at {rect:?} runs past the editor (the central view starts at {})", central.left());
            }
            for key in ["views-attention-show", "views-legend-masked"] {
                let rect = harness.get_by_label(&message(key, None)).rect();
                assert!(rect.right() <= central.right() && central.right() <= lessons_left, "{what}: {key} at {rect:?}, the central view {central:?}, the lesson panel from {lessons_left}");
            }
            for key in ["lesson-export-progress", "menu-glossary", "lesson-open-pack", "lesson-restore", "lesson-load-start"] {
                let rect = harness.get_by_label(&message(key, None)).rect();
                assert!(rect.left() >= lessons_left && rect.right() <= size[0], "{what}: {key} at {rect:?}, outside the lesson panel (from {lessons_left})");
            }
        }
    }
    attention_workbench::i18n::set_lang(Lang::En);
}

/// The Generate tab's empty prompt shows the start of the probe as an example,
/// written as the prompt is read (the copy task's tokens apart), not "text to
/// continue", which the lookup task cannot read.
#[test]
fn the_generate_prompt_shows_an_example_the_model_can_read() {
    use egui::accesskit::Role;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some());
    harness.get_by_label("Generate").click();
    harness.run_steps(2);
    let tokens = harness.state().view.attention.as_ref().unwrap().tokens.clone();
    let expected = format!("e.g. {}", tokens[..tokens.len().min(6)].join(" "));
    let placeholders: Vec<String> = harness.query_all_by_role(Role::TextInput).filter_map(|n| n.accesskit_node().placeholder().map(String::from)).collect();
    assert!(placeholders.contains(&expected), "{expected:?} among {placeholders:?}");
    // And the model writes from it.
    let prompt = expected.trim_start_matches("e.g. ").to_string();
    harness.state_mut().panels.generation.prompt.clone_from(&prompt);
    harness.get_by_label("Write").click();
    step_until(&mut harness, "the writing", |app| app.view.generated.is_some() || app.view.generation_error.is_some());
    assert_eq!(harness.state().view.generation_error, None, "the example {prompt:?} is a prompt the model reads");
}

/// Each central tab keeps its own scroll position: scrolled down the Attention
/// grid, the Bug hunt still opens at its heading, where it was before.
#[test]
fn each_central_tab_scrolls_on_its_own() {
    // Two layers: a grid taller than the view.
    let mut state = small_state();
    state.config.model.layers.push(state.config.model.layers[0].clone());
    let mut harness = harness_sized(state, [1024.0, 700.0]);
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready && app.view.attention.is_some());
    // The heading is the second "Bug hunt" from the top (the tab is the first).
    let heading = |h: &Harness<'static, WorkbenchApp>| {
        let mut tops: Vec<f32> = h.get_all_by_label("Bug hunt").map(|n| n.rect().top()).collect();
        tops.sort_by(f32::total_cmp);
        tops.get(1).copied().unwrap_or(f32::NAN)
    };
    harness.get_by_label("Bug hunt").click();
    harness.run_steps(3);
    let fresh = heading(&harness);
    assert!(fresh.is_finite(), "the Bug hunt's heading");
    harness.get_by_label("Attention").click();
    harness.run_steps(3);
    let layer_0 = harness.get_by_label("layer 0").rect().top();
    harness.get_by_label("layer 1").scroll_to_me();
    harness.run_steps(30); // the scroll is animated
    let scrolled = layer_0 - harness.get_by_label("layer 0").rect().top();
    assert!(scrolled > 20.0, "the grid scrolled ({scrolled} points)");
    harness.get_by_label("Bug hunt").click();
    harness.run_steps(3);
    assert!((heading(&harness) - fresh).abs() < 2.0, "the Bug hunt opens where it was ({fresh}), not scrolled with the grid ({})", heading(&harness));
}

/// Continue on a finished run after a change of the model's shape asks first,
/// keeps the steps the learner set (it does not add more to a run that starts
/// over), and once confirmed starts the fresh model, as the press asked.
#[test]
fn continue_after_a_change_of_shape_asks_then_trains_the_fresh_model() {
    use attention_workbench::workbench::actions::AppAction;
    let mut harness = harness(small_state());
    step_until(&mut harness, "ready", |app| app.view.status == RunStatus::Ready);
    harness.get_by_label("Start").click();
    step_until(&mut harness, "the finished run", |app| app.view.status == RunStatus::Finished && app.view.step == 40);
    harness.state_mut().state.config.model.d_model = 48;
    harness.run_steps(2);
    let generation = harness.state().view.generation;
    harness.state_mut().perform(AppAction::StartOrResume);
    harness.run_steps(2);
    assert_eq!(harness.state().state.config.steps, 40, "a run that starts over keeps the steps set");
    assert!(harness.query_by_label("Apply and reset").is_some(), "the change loses trained weights: asked first");
    harness.get_by_label("Apply and reset").click();
    step_until(&mut harness, "the fresh model training", |app| app.view.generation != generation && app.view.step > 0);
}
