//! The UI monkey: random clicks on any widget, typing in fields, keys (shortcuts,
//! undo and redo), drags, hovers and scrolls on the real `WorkbenchApp` with a
//! training run behind it. Seeded (`AW_MONKEY_SEED`), and the trainer runs in
//! lockstep with the frames (`WorkbenchApp::new_lockstep`), so a seed replays
//! exactly: the same window at the end, whatever the machine's speed (a test runs
//! one seed twice and compares). It must never panic, and afterwards the window
//! must still answer: a known experiment is put back, and Start trains it.
//!
//! Left out, because they work on threads of their own whose timing would decide
//! what the monkey sees next: a claim's "Verify it" and the length sweep's
//! "Measure" (their own window tests cover them).
//!
//! The suite runs a few hundred actions; `AW_MONKEY_ACTIONS=10000` runs the long one
//! (`cargo test --release --test integration monkey -- --nocapture`).

use std::time::{Duration, Instant};

use attention_workbench::app::WorkbenchApp;
use attention_workbench::workbench::actions::AppAction;
use attention_workbench::workbench::run_view::RunStatus;
use attention_workbench::workbench::state::PersistedState;
use attention_workbench::tasks::{Rng, TaskKind};
use eframe::egui::{self, Key, Modifiers, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

const TEXTS: &[&str] = &["3", "0", "-1", "1e9", "abc", "", "999999999", "0.5", "a b c | a b c", "注意力", "NaN", "lessons/none"];
const KEYS: &[Key] = &[Key::Space, Key::S, Key::R, Key::Escape, Key::Enter, Key::Tab, Key::ArrowUp, Key::ArrowDown, Key::Z, Key::Y, Key::F1, Key::F5, Key::P];

/// The window tests' small experiment, long enough to keep training meanwhile.
fn state() -> PersistedState {
    let mut state = super::window::small_state();
    state.config.steps = 300;
    state.config.eval_interval = 20;
    state
}

/// Widgets a click does something to.
fn clickable(role: Role) -> bool {
    matches!(
        role,
        Role::Button | Role::CheckBox | Role::RadioButton | Role::ComboBox | Role::Tab | Role::MenuItem | Role::Link
    )
}

fn random_point(rng: &mut Rng, size: egui::Vec2) -> egui::Pos2 {
    egui::pos2(rng.below(size.x as usize) as f32, rng.below(size.y as usize) as f32)
}

/// Buttons that start work on a thread of their own (see the module's note).
fn on_its_own_thread(label: &str) -> bool {
    label.starts_with("Verify it") || label.starts_with("验证（") || label == "Measure" || label == "测量"
}

/// The Language menu's other language: the language is process-wide, so the monkey
/// leaves it alone (the language switch has its own test, run on its own).
fn switches_language(label: &str) -> bool {
    label == attention_workbench::i18n::Lang::Zh.native_name()
}

/// `actions` random actions from `seed`; returns how many of each kind ran and
/// what the window held after them (status, step, losses, config).
fn monkey(actions: usize, seed: u64) -> ([usize; 6], String) {
    let size = egui::vec2(1440.0, 900.0);
    let mut app = WorkbenchApp::new_lockstep(egui::Context::default(), state());
    // What the monkey saves through the path field lands here, not in the checkout.
    let files = tempfile::tempdir().expect("a temporary folder");
    app.files_dir = files.path().to_path_buf();
    let mut harness = Harness::builder()
        .with_size(size)
        .with_context_setup(attention_workbench::app::install_fonts)
        .build_ui_state(|ui, app: &mut WorkbenchApp| app.show(ui), app);
    harness.run_steps(3);
    // A real file dialog would wait for a person: leave the "…" openers out where
    // one could open (elsewhere they show the path field, which is fair game).
    let dialogs = attention_workbench::app::files::dialogs_available();
    let mut rng = Rng::new(seed);
    let mut counts = [0usize; 6];
    let mut trace = Vec::new();
    for _ in 0..actions {
        let kind = match rng.below(100) {
            0..=44 => 0,
            45..=59 => 1,
            60..=71 => 2,
            72..=81 => 3,
            82..=91 => 4,
            _ => 5,
        };
        // Counted only when it found something to act on (a widget, a field).
        let acted = match kind {
            0 => {
                let nodes: Vec<_> = harness
                    .query_all(By::new().predicate(|n| clickable(n.role()) && !n.is_disabled()))
                    .filter(|n| !(dialogs && n.accesskit_node().label().is_some_and(|l| l.ends_with('…'))))
                    .filter(|n| !n.accesskit_node().label().is_some_and(|l| on_its_own_thread(&l) || switches_language(&l)))
                    .collect();
                if !nodes.is_empty() {
                    let node = &nodes[rng.below(nodes.len())];
                    if rng.below(10) == 0 { node.click_secondary() } else { node.click() }
                }
                !nodes.is_empty()
            }
            1 => {
                let fields: Vec<_> = harness.query_all(By::new().predicate(|n| matches!(n.role(), Role::TextInput | Role::SpinButton | Role::MultilineTextInput) && !n.is_disabled())).collect();
                if !fields.is_empty() {
                    let field = &fields[rng.below(fields.len())];
                    field.focus();
                    field.type_text(TEXTS[rng.below(TEXTS.len())]);
                    if rng.below(2) == 0 {
                        harness.key_press(Key::Enter);
                    }
                }
                !fields.is_empty()
            }
            2 => {
                let key = KEYS[rng.below(KEYS.len())];
                let modifiers = match rng.below(4) {
                    0 => Modifiers::COMMAND,
                    1 => Modifiers::COMMAND | Modifiers::SHIFT,
                    _ => Modifiers::NONE,
                };
                // Ctrl+S opens the save dialog where one can open: it would wait for a person.
                let sent = !(dialogs && key == Key::S && modifiers.command);
                if sent {
                    harness.key_press_modifiers(modifiers, key);
                }
                sent
            }
            3 => {
                let (from, to) = (random_point(&mut rng, size), random_point(&mut rng, size));
                harness.hover_at(from);
                harness.drag_at(from);
                harness.step();
                harness.hover_at(to);
                harness.step();
                harness.drop_at(to);
                true
            }
            4 => {
                harness.hover_at(random_point(&mut rng, size));
                true
            }
            _ => {
                harness.hover_at(random_point(&mut rng, size));
                let delta = egui::vec2(0.0, if rng.below(2) == 0 { -120.0 } else { 120.0 });
                harness.event(egui::Event::MouseWheel {
                    unit: egui::MouseWheelUnit::Point,
                    delta,
                    modifiers: Modifiers::NONE,
                    phase: egui::TouchPhase::Move,
                    source: egui::MouseWheelSource::Wheel,
                });
                true
            }
        };
        counts[kind] += acted as usize;
        harness.step();
        // The state holds together after every action, and no window traps the learner.
        let held = harness.ctx.input(|i| i.pointer.any_down());
        if let Some(broken) = harness.state().broken_invariant(held) {
            panic!("after action {} (kind {kind}): {broken}", trace.len());
        }
        // A window the frame's actions opened shows after egui's sizing frame.
        if harness.state().confirm_pending() || harness.state().window.path_prompt.is_some() {
            harness.run_steps(2);
        }
        if harness.state().confirm_pending() {
            assert!(harness.query_by_label("Keep training the current model").is_some(), "the confirmation offers a way out");
        }
        if harness.state().window.path_prompt.is_some() {
            assert!(harness.query_by_label("Cancel").is_some(), "the path field offers a way out");
        }
        // Where the run stood after each action: with a free-running trainer this
        // depends on the machine's speed; in lockstep only on the actions.
        let app = harness.state();
        trace.push(format!("{:?}@{}", app.view.status, app.view.step));
    }
    let app = harness.state();
    let losses: Vec<u64> = app.view.train_loss.points().iter().map(|p| p[1].to_bits()).collect();
    let fingerprint = format!(
        "trace {trace:?} {:?} step {} losses {losses:?} lesson {:?} config {}",
        app.view.status,
        app.view.step,
        app.lessons.lesson().map(|l| l.id.clone()),
        serde_json::to_string(&app.state.config).unwrap()
    );
    // Still answering: close whatever is open, then Reset and Start train again.
    for _ in 0..3 {
        harness.key_press(Key::Escape);
        harness.step();
    }
    // A frame trains in lockstep; with the run paused, what it costs is the window's.
    harness.state_mut().perform(AppAction::Pause);
    harness.step();
    let start = Instant::now();
    harness.step();
    assert!(start.elapsed() < Duration::from_secs(2), "a frame took {:?} after the monkey", start.elapsed());
    // A claim verification the monkey started holds the live run: cancel it, as a
    // learner would, and it must end.
    harness.state_mut().perform(AppAction::CancelClaim);
    let start = Instant::now();
    while harness.state().lessons.claim_running() {
        assert!(start.elapsed() < Duration::from_secs(60), "a cancelled claim verification did not end");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    // Whatever the monkey typed, a known experiment can be put back and trained.
    let app = harness.state_mut();
    app.perform(AppAction::SetTask(TaskKind::Copy));
    app.perform(AppAction::LoadPreset("tiny".into()));
    app.perform(AppAction::ConfirmApply);
    app.perform(AppAction::Reset);
    harness.run_steps(3);
    assert!(harness.state().can_start(), "the tiny preset on copy can start after the monkey");
    harness.state_mut().perform(AppAction::StartOrResume);
    let start = Instant::now();
    while harness.state().view.step == 0 {
        let a = harness.state();
        assert!(start.elapsed() < Duration::from_secs(60), "the trainer did not answer after the monkey ({:?}) banner {:?} locks {:?} of {:?} pending {} steps {} task {:?} backend {:?} claims {:?}", a.view.status, a.view.banner, a.lessons.active_locks(), a.lessons.experiment_of, a.has_pending_edits(), a.state.config.steps, a.state.config.task.kind, a.state.config.backend, a.lessons.claims.iter().map(|(k, v)| format!("{k:?} {}", matches!(v, attention_workbench::workbench::lesson_runner::ClaimState::Running { .. }))).collect::<Vec<_>>());
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(matches!(harness.state().view.status, RunStatus::Running | RunStatus::Finished | RunStatus::Paused), "{:?}", harness.state().view.status);
    (counts, fingerprint)
}

#[test]
fn hundreds_of_random_actions_never_panic_and_the_window_still_trains() {
    let actions = std::env::var("AW_MONKEY_ACTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let seed = std::env::var("AW_MONKEY_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(7);
    let start = Instant::now();
    let (counts, _) = monkey(actions, seed);
    println!(
        "monkey seed {seed}: {actions} actions in {:.1} s (clicks {}, typing {}, keys {}, drags {}, hovers {}, scrolls {}), no panic",
        start.elapsed().as_secs_f64(),
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    );
    assert!(counts.iter().all(|c| *c > 0), "every kind of action ran: {counts:?}");
}

/// Its own process (`.ci/test` runs it apart): the language is process-wide, and a
/// test switching it meanwhile would change the layout between the two runs.
#[test]
#[ignore = "run on its own by .ci/test"]
fn a_monkey_seed_replays_to_the_same_window() {
    // The window's state is a function of what was done, not of when the trainer's
    // events arrived: two runs of one seed end in the same place.
    let seed = std::env::var("AW_MONKEY_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(20261201);
    let (_, first) = monkey(150, seed);
    let (_, second) = monkey(150, seed);
    assert_eq!(first, second, "seed {seed} ended in two different windows");
}
