//! RunView folded from hand-made events.

use super::*;
use crate::training::{EvalMetrics, StepMetrics};

fn ready(fallback: Option<&str>) -> TrainEvent {
    TrainEvent::Ready {
        task: crate::tasks::TaskKind::Copy,
        parameters: 100,
        backend: BackendInfo {
            requested: "gpu".into(),
            used: "cpu (flex)".into(),
            adapter: None,
            fallback_reason: fallback.map(String::from),
            composed_because: None,
        },
        seq_len: 5,
        vocab: vec!["a".into()],
    }
}

fn step(step: usize, loss: f32) -> TrainEvent {
    TrainEvent::Step(StepMetrics { step, loss, accuracy: 0.5, lr: 1e-3, grad_norm: 1.0, steps_per_s: 10.0, tokens_per_s: 100.0 })
}

#[test]
fn a_config_change_updates_which_step_path_the_top_bar_names() {
    let mut view = RunView::default();
    view.apply(ready(None));
    assert_eq!(view.backend.as_ref().unwrap().composed_because, None);
    let TrainEvent::Ready { backend, .. } = ready(None) else { unreachable!() };
    let composed = BackendInfo { composed_because: Some("model.dropout > 0".into()), ..backend };
    view.apply(TrainEvent::ConfigApplied { backend: composed, task: crate::tasks::TaskKind::Copy, kept_weights: true, reset_params: Vec::new(), message: String::new() });
    assert_eq!(view.backend.as_ref().unwrap().composed_because.as_deref(), Some("model.dropout > 0"));
}

#[test]
fn a_run_moves_through_its_states_and_fills_the_curves() {
    let mut view = RunView::default();
    assert_eq!(view.status, RunStatus::NoModel);
    view.apply(ready(None));
    assert_eq!(view.status, RunStatus::Ready);
    view.apply(TrainEvent::Started { step: 0 });
    assert_eq!(view.status, RunStatus::Running);
    for i in 1..=20 {
        view.apply(step(i, 1.0 / i as f32));
    }
    view.apply(TrainEvent::Eval(EvalMetrics { step: 20, loss: 0.1, accuracy: 0.9, sequence_accuracy: 0.5, generation_loss: 0.1, by_length: Vec::new() }));
    assert_eq!(view.train_loss.len(), 20);
    assert_eq!(view.last_eval_accuracy, Some(0.9));
    assert_eq!(view.eta_secs(120), Some(10.0));
    view.apply(TrainEvent::Paused { step: 20 });
    assert_eq!(view.status, RunStatus::Paused);
    assert_eq!(view.eta_secs(120), None);
}

#[test]
fn a_pinned_run_survives_a_try_and_a_fresh_model_but_the_live_curves_do_not() {
    let mut view = RunView::default();
    view.apply(ready(None));
    view.apply(TrainEvent::Started { step: 0 });
    view.train_loss.push(1.0, 2.0);
    view.train_loss.push(2.0, 1.5);
    view.pin();
    view.forget_run(); // a lesson's try replaces the run
    view.apply(ready(None)); // its fresh model arrives
    assert!(view.train_loss.is_empty(), "the live curves start over");
    assert_eq!(view.pinned.as_ref().map(|p| p.train_loss.len()), Some(2), "the pinned curve stays");
}

#[test]
fn an_unsolved_bug_case_hears_what_blew_up_but_not_the_usual_causes() {
    let event = || TrainEvent::NonFinite {
        step: 22,
        kind: crate::training::NonFiniteKind::Loss,
        group: None,
        hint: "… Lower the learning rate or the init scale, then Resume.".into(),
    };
    let shown = |hide_spoilers: bool| {
        let mut view = RunView::default();
        view.apply(ready(None));
        view.hide_spoilers = hide_spoilers;
        view.apply(event());
        view.banner.expect("the error shows").text
    };
    let hint = shown(true);
    assert!(hint.contains("step 22") && hint.contains("The loss became NaN"), "{hint}");
    assert!(!hint.contains("learning rate") && !hint.contains("init scale"), "{hint}");
    let hint = shown(false);
    assert!(hint.contains("learning rate"), "outside the bug hunt the usual causes are named: {hint}");
}

#[test]
fn non_finite_and_fallback_raise_banners_and_ready_clears_curves() {
    let mut view = RunView::default();
    view.apply(ready(Some("no usable GPU: none found")));
    assert_eq!(view.banner.as_ref().unwrap().kind, BannerKind::Warning);
    view.apply(step(1, 2.0));
    view.apply(TrainEvent::NonFinite { step: 2, kind: crate::training::NonFiniteKind::Loss, group: None, hint: "lower lr".into() });
    assert_eq!(view.banner.as_ref().unwrap().kind, BannerKind::Error);
    let generation = view.generation;
    view.apply(ready(None));
    assert!(view.train_loss.is_empty(), "a new model starts new curves");
    assert_eq!(view.generation, generation + 1);
}

#[test]
fn notes_fade_errors_stay_and_a_reset_replaces_stale_notes() {
    let mut view = RunView::default();
    view.show_banner(Banner { kind: BannerKind::Info, text: "Change applied. The model keeps everything it has learned so far.".into() });
    assert!(view.fade_banner(100.0).is_some());
    assert!(view.fade_banner(100.0 + Banner::FADE_SECS / 2.0).is_some());
    assert_eq!(view.fade_banner(100.0 + Banner::FADE_SECS + 0.1), None);
    assert!(view.banner.is_none(), "a note fades by itself");

    view.show_banner(Banner { kind: BannerKind::Error, text: "broken".into() });
    assert_eq!(view.fade_banner(0.0), None);
    assert_eq!(view.fade_banner(1e6), None);
    assert!(view.banner.is_some(), "an error stays until dismissed");

    // A try changes the model, then resets it: "kept what it learned" no longer
    // holds, and the note set for after the reset says what happened instead.
    view.show_banner(Banner { kind: BannerKind::Info, text: "Change applied. The model keeps everything it has learned so far.".into() });
    view.note_after_reset = Some("Trying it: fresh weights".into());
    view.apply(ready(None));
    assert_eq!(view.banner.as_ref().map(|b| b.text.as_str()), Some("Trying it: fresh weights"));
    view.show_banner(Banner { kind: BannerKind::Info, text: "kept".into() });
    view.apply(ready(None));
    assert!(view.banner.is_none(), "a stale note does not outlive the reset");
}

#[test]
fn a_success_replaces_the_error_it_answers_but_not_a_divergence() {
    let mut view = RunView::default();
    view.apply(ready(None));
    view.apply(TrainEvent::Error { message: "could not save: permission denied".into() });
    view.show_banner(Banner { kind: BannerKind::Info, text: "Change applied.".into() });
    assert_eq!(view.banner.as_ref().unwrap().kind, BannerKind::Error, "a passing note does not hide an error");
    view.apply(TrainEvent::Saved { dir: "runs/b".into() });
    let banner = view.banner.clone().unwrap();
    assert_eq!(banner.kind, BannerKind::Info, "saving elsewhere answers the failed save: {banner:?}");
    assert!(banner.text.contains("runs/b"), "{banner:?}");

    view.apply(TrainEvent::NonFinite { step: 9, kind: crate::training::NonFiniteKind::Loss, group: None, hint: "The loss became NaN at step 9".into() });
    view.apply(TrainEvent::Saved { dir: "runs/c".into() });
    view.show_success("Opened lesson.json".into());
    assert_eq!(view.banner.as_ref().map(|b| b.text.as_str()), Some("The loss became NaN at step 9"), "a save does not mend a diverged model");
    view.apply(ready(None));
    // The same words after a fresh model are a new error, about something done.
    view.apply(TrainEvent::Error { message: "The loss became NaN at step 9".into() });
    view.show_success("Wrote maps.png".into());
    assert_eq!(view.banner.as_ref().map(|b| b.text.as_str()), Some("Wrote maps.png"), "a fresh model forgets the divergence");

    // A model that could not be built holds its error too.
    let mut view = RunView::default();
    view.apply(TrainEvent::Error { message: "d_model 30 is not divisible by 4 heads".into() });
    view.show_success("Opened lesson.json".into());
    assert_eq!(view.banner.as_ref().map(|b| b.text.as_str()), Some("d_model 30 is not divisible by 4 heads"), "no model: a save does not answer that");
}

#[test]
fn a_loss_that_climbs_without_nan_warns_once_and_a_new_model_watches_afresh() {
    let mut view = RunView::default();
    view.apply(ready(None));
    for i in 1..=30 {
        view.apply(step(i, 2.5 * 1.5f32.powi(i as i32)));
    }
    let banner = view.banner.clone().expect("a warning");
    assert_eq!(banner.kind, BannerKind::Warning);
    assert!(banner.text.starts_with("The training loss has climbed to "), "{}", banner.text);
    assert!(banner.text.contains("from 3.750 at the start"), "{}", banner.text);
    // Once: dismissed, it does not come back for the same model.
    view.banner = None;
    view.apply(step(31, 1e6));
    assert!(view.banner.is_none());
    // A model whose weights were replaced is watched from its own first loss.
    view.apply(TrainEvent::ConfigApplied { backend: view.backend.clone().unwrap(), task: crate::tasks::TaskKind::Copy, kept_weights: false, reset_params: Vec::new(), message: "new".into() });
    view.banner = None;
    for i in 1..=30 {
        view.apply(step(i, 3.0 - 0.05 * i as f32));
    }
    assert!(view.banner.is_none(), "a falling loss does not warn: {:?}", view.banner);
    for i in 31..=60 {
        view.apply(step(i, 50.0));
    }
    assert!(view.banner.as_ref().is_some_and(|b| b.text.contains("from 2.950 at the start")), "{:?}", view.banner);
}

#[test]
fn in_an_unsolved_bug_hunt_the_climbing_loss_does_not_name_the_learning_rate() {
    let mut view = RunView::default();
    view.apply(ready(None));
    view.hide_spoilers = true;
    for i in 1..=20 {
        view.apply(step(i, 3.0 * i as f32));
    }
    let text = view.banner.map(|b| b.text).unwrap_or_default();
    assert!(text.starts_with("The training loss has climbed to"), "{text}");
    assert!(!text.contains("learning rate"), "{text}");
}
