//! The mask debugger's promises: the probes find every planted causal leak (and the
//! first leaking position), stay silent on sound models, and every bug-hunt case
//! shows its symptom in a headless run.

use attention_workbench::bughunt::{Bug, BugCase, cases};
use attention_workbench::config::{MaskKind, NormPlacement, PositionalEncoding};
use attention_workbench::experiments::{Claim, parse_condition};
use attention_workbench::tasks::TaskKind;
use attention_workbench::training::{Session, StepOutcome};

use super::experiment;

fn case(bug: Bug) -> BugCase {
    cases().into_iter().find(|c| c.accepts(bug)).expect("a case for every bug")
}

fn claim(statement: &str, a: attention_workbench::config::ExperimentConfig, b: Option<attention_workbench::config::ExperimentConfig>, steps: usize, conditions: &[&str]) -> Claim {
    Claim {
        statement: statement.to_string(),
        a,
        b,
        steps,
        run_a: Default::default(),
        run_b: Default::default(),
        conditions: conditions.iter().map(|c| parse_condition(c).unwrap()).collect(),
    }
}

fn assert_claim(claim: &Claim) {
    let result = claim.run(0).unwrap();
    assert!(result.passed, "{}: {:#?}", claim.statement, result);
}

#[test]
fn sound_causal_models_never_leak() {
    for (preset, task) in [("tiny", TaskKind::Copy), ("lesson", TaskKind::CharLm), ("large", TaskKind::Reverse)] {
        for positional in [PositionalEncoding::Learned, PositionalEncoding::None] {
            let mut config = experiment(preset, task);
            config.model.positional = positional;
            config.model.layers[0].norm = NormPlacement::Pre;
            let session = Session::new(config).unwrap();
            let report = session.causality_probe();
            assert!(!report.leak, "{preset}/{task:?}/{positional:?}: {report:?}");
            assert!(report.layers.iter().all(|l| l.first_leaking_position.is_none()));
        }
    }
    // a sliding window is causal too
    let mut config = experiment("lesson", TaskKind::Copy);
    config.model.layers.iter_mut().for_each(|l| l.mask = MaskKind::SlidingWindow);
    assert!(!Session::new(config).unwrap().causality_probe().leak);
}

#[test]
fn every_planted_causal_bug_leaks_and_one_ahead_leaks_from_position_0() {
    for bug in [Bug::CausalMaskMissing, Bug::InvertedMask, Bug::DiagonalSeesAhead, Bug::SoftmaxThenMask] {
        let report = Session::new(case(bug).config).unwrap().causality_probe();
        assert!(report.leak, "{bug:?} should leak: {report:?}");
    }
    let report = Session::new(case(Bug::DiagonalSeesAhead).config).unwrap().causality_probe();
    assert_eq!(report.layers[0].first_leaking_position, Some(0), "{report:?}");
    // hiding the diagonal is wrong, but it does not look into the future
    let report = Session::new(case(Bug::DiagonalHidesSelf).config).unwrap().causality_probe();
    assert!(!report.leak, "{report:?}");
}

#[test]
fn padding_bugs_leak_and_the_right_padding_mask_does_not() {
    for bug in [Bug::PaddingMaskWrongAxis, Bug::PaddingMaskMissing] {
        let report = Session::new(case(bug).config).unwrap().padding_probe();
        assert!(report.leak, "{bug:?}: {report:?}");
    }
    let mut sound = case(Bug::PaddingMaskMissing).config;
    sound.model.layers.iter_mut().for_each(|l| l.padding_mask = attention_workbench::config::PaddingMask::Keys);
    let report = Session::new(sound).unwrap().padding_probe();
    assert!(!report.leak, "{report:?}");
}

#[test]
fn peeking_trains_to_a_far_lower_loss_but_generates_worse() {
    let peeking = case(Bug::CausalMaskMissing).config;
    let mut causal = peeking.clone();
    causal.model.layers.iter_mut().for_each(|l| l.mask = MaskKind::Causal);
    assert_claim(&claim(
        "without the causal mask a character model trains to a far lower loss yet generates worse",
        peeking,
        Some(causal),
        300,
        &["a.train_loss < b.train_loss - 0.5", "a.generation_accuracy < b.generation_accuracy - 0.05", "a.causal_leak > 0.001", "b.causal_leak < 0.0001"],
    ));
}

#[test]
fn seeing_one_ahead_drives_the_loss_to_nearly_zero_and_generation_stays_poor() {
    let ahead = case(Bug::DiagonalSeesAhead).config;
    assert_claim(&claim("one token ahead", ahead, None, 200, &["a.train_loss < 0.3", "a.generation_accuracy < 0.3"]));
}

#[test]
fn unshifted_labels_look_perfect_but_generate_nothing_right() {
    let unshifted = case(Bug::LabelsNotShifted).config;
    let mut shifted = unshifted.clone();
    shifted.task.shift_labels = true;
    assert_claim(&claim(
        "unshifted labels: perfect accuracy, useless generation",
        unshifted,
        Some(shifted),
        150,
        &["a.eval_accuracy > 0.99", "a.generation_accuracy < 0.2", "b.generation_accuracy > a.generation_accuracy + 0.3"],
    ));
}

#[test]
fn unscaled_scores_with_a_large_d_k_saturate_the_softmax_at_initialisation() {
    let unscaled = case(Bug::ScoresNotScaled).config;
    let mut scaled = unscaled.clone();
    scaled.model.layers.iter_mut().for_each(|l| l.scale = true);
    assert_claim(&claim("unscaled scores saturate", unscaled, Some(scaled), 1, &["a.attention_entropy < 0.5", "b.attention_entropy > 0.8"]));
}

#[test]
fn structural_symptoms_show_in_the_masks() {
    // the blind diagonal and left padding both leave rows with no visible key
    for bug in [Bug::DiagonalHidesSelf, Bug::PaddingWrongSide] {
        let session = Session::new(case(bug).config).unwrap();
        let snapshot = session.attention_snapshot();
        let seq = snapshot.tokens.len();
        let applied = snapshot.masks[0].as_ref().unwrap();
        let empty = (0..seq).filter(|q| !applied[q * seq..(q + 1) * seq].iter().any(|k| *k)).count();
        assert!(empty >= 1, "{bug:?}: expected a row with no visible key");
    }
    // the inverted mask hides the diagonal and shows the future
    let session = Session::new(case(Bug::InvertedMask).config).unwrap();
    let snapshot = session.attention_snapshot();
    let seq = snapshot.tokens.len();
    let weights = &snapshot.layers[0].as_ref().unwrap()[0];
    let future: f32 = (0..seq).flat_map(|q| (q + 1..seq).map(move |k| (q, k))).map(|(q, k)| weights[q * seq + k]).sum();
    assert!(future > (seq - 2) as f32 * 0.99, "the weight sits on future keys: {future}");
}

#[test]
fn every_case_loads_and_trains_a_step() {
    for case in cases() {
        let mut session = Session::new(case.config.clone()).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(matches!(session.step(false), StepOutcome::Done { .. }), "{}", case.id);
    }
}

#[test]
fn huge_initial_weights_saturate_attention_at_step_one_and_stall_training() {
    let planted = case(Bug::InitTooLarge).config;
    let mut sound = planted.clone();
    sound.model.init_scale = 1.0;
    assert_claim(&claim("saturated from the start", sound.clone(), Some(planted.clone()), 1, &[
        "b.attention_entropy <= 0.3",
        "a.attention_entropy >= 0.8",
    ]));
    assert_claim(&claim("stalls", sound, Some(planted), 300, &["b.eval_accuracy <= 0.5", "a.eval_accuracy >= 0.9"]));
}

#[test]
fn a_runaway_learning_rate_diverges_and_a_sane_one_does_not() {
    let planted = case(Bug::LearningRateTooHigh).config;
    let mut sound = planted.clone();
    sound.lr = 0.1;
    assert_claim(&claim("diverges", sound, Some(planted), 100, &["b.diverged >= 1", "a.diverged <= 0"]));
}

#[test]
fn a_one_symbol_vocabulary_makes_the_probes_say_they_cannot_tell_never_no_leak() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("x.txt");
    std::fs::write(&corpus, "x".repeat(2000)).unwrap();
    let mut config = experiment("tiny", TaskKind::CharLm);
    config.task.corpus = corpus.to_string_lossy().into_owned();
    config.task.length = 8;
    let session = Session::new(config).unwrap();
    assert_eq!(session.task().vocab().len(), 1);
    let report = session.causality_probe();
    assert!(report.leak, "undefined is never \"no leak\"");
    assert!(report.layers.iter().all(|l| l.score.is_nan()), "{report:?}");
    assert!(report.note.as_deref().is_some_and(|n| n.contains("one symbol")), "{report:?}");
}

#[test]
fn the_causality_probe_works_in_chunks_and_still_finds_a_one_step_peek() {
    let mut config = experiment("tiny", TaskKind::Copy);
    config.model.layers[0].diagonal_offset = 1; // each position sees one token ahead
    let session = Session::new(config.clone()).unwrap();
    let seq = session.task().seq_len();
    let rows = attention_workbench::probe::probe_chunk_rows(&config.model, seq);
    assert!(rows >= 1);
    // At length 1024 one pass over every perturbed row would need far more than the budget.
    let long = attention_workbench::probe::probe_chunk_rows(&config.model, 1024);
    assert!(long * 4 < 1024, "rows per pass at length 1024: {long}");
    let report = session.causality_probe();
    assert!(report.leak && report.layers[0].first_leaking_position == Some(0), "{report:?}");
}
