//! The bug hunt: experiments with one planted bug each (mask, labels, initialisation
//! or learning rate), a description
//! of the symptom the learner sees, and the answer, hidden until asked for.
//! Every symptom is reproduced by a headless test (`tests/integration/bughunt.rs`).

use crate::config::{
    ExperimentConfig, MaskApplication, MaskKind, MaskReading, PaddingMask, PositionalEncoding, preset,
};
use crate::t;
use crate::tasks::{PadSide, TaskConfig, TaskKind};

/// The bugs a learner can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    CausalMaskMissing,
    InvertedMask,
    DiagonalHidesSelf,
    DiagonalSeesAhead,
    PaddingMaskWrongAxis,
    PaddingMaskMissing,
    PaddingWrongSide,
    LabelsNotShifted,
    ScoresNotScaled,
    SoftmaxThenMask,
    InitTooLarge,
    LearningRateTooHigh,
}

impl Bug {
    pub const ALL: [Bug; 12] = [
        Bug::CausalMaskMissing,
        Bug::InvertedMask,
        Bug::DiagonalHidesSelf,
        Bug::DiagonalSeesAhead,
        Bug::PaddingMaskWrongAxis,
        Bug::PaddingMaskMissing,
        Bug::PaddingWrongSide,
        Bug::LabelsNotShifted,
        Bug::ScoresNotScaled,
        Bug::SoftmaxThenMask,
        Bug::InitTooLarge,
        Bug::LearningRateTooHigh,
    ];

    /// The name offered in the "what is the bug?" list, in the current language
    /// (answers are matched on the `Bug` value, never on this text).
    pub fn name(self) -> String {
        match self {
            Bug::CausalMaskMissing => t!("rep-bug-causal-mask-missing"),
            Bug::InvertedMask => t!("rep-bug-inverted-mask"),
            Bug::DiagonalHidesSelf => t!("rep-bug-diagonal-hides-self"),
            Bug::DiagonalSeesAhead => t!("rep-bug-diagonal-sees-ahead"),
            Bug::PaddingMaskWrongAxis => t!("rep-bug-padding-mask-wrong-axis"),
            Bug::PaddingMaskMissing => t!("rep-bug-padding-mask-missing"),
            Bug::PaddingWrongSide => t!("rep-bug-padding-wrong-side"),
            Bug::LabelsNotShifted => t!("rep-bug-labels-not-shifted"),
            Bug::ScoresNotScaled => t!("rep-bug-scores-not-scaled"),
            Bug::SoftmaxThenMask => t!("rep-bug-softmax-then-mask"),
            Bug::InitTooLarge => t!("rep-bug-init-too-large"),
            Bug::LearningRateTooHigh => t!("rep-bug-learning-rate-too-high"),
        }
    }
}

/// One planted-bug exercise. Its texts are in the language that was current
/// when `cases()` built it; `id` and `bug` are the same in every language.
#[derive(Clone, Debug)]
pub struct BugCase {
    pub id: &'static str,
    pub title: String,
    /// What the learner observes (no spoilers).
    pub symptom: String,
    /// Which panel shows it best.
    pub where_to_look: String,
    pub bug: Bug,
    /// The answer, shown on request or when named.
    pub explanation: String,
    pub config: ExperimentConfig,
}

/// A preset on a task with `change` applied to every layer.
fn planted(task: TaskKind, preset_name: &str, change: impl Fn(&mut crate::config::LayerConfig)) -> ExperimentConfig {
    let mut config = base(task, preset_name);
    config.model.layers.iter_mut().for_each(change);
    config
}

fn base(task: TaskKind, preset_name: &str) -> ExperimentConfig {
    let mut config = preset(preset_name).expect("preset");
    config.task = TaskConfig::for_kind(task);
    config.steps = 300;
    config
}

/// Every exercise, in the order the window lists them.
pub fn cases() -> Vec<BugCase> {
    let mut cases = Vec::new();

    let c = planted(TaskKind::CharLm, "lesson", |l| l.mask = MaskKind::Bidirectional);
    cases.push(BugCase {
        id: "peeking",
        title: t!("rep-case-peeking-title"),
        symptom: t!("rep-case-peeking-symptom"),
        where_to_look: t!("rep-case-peeking-where"),
        bug: Bug::CausalMaskMissing,
        explanation: t!("rep-case-peeking-explanation"),
        config: c,
    });

    let c = planted(TaskKind::Copy, "tiny", |l| l.mask_reading = MaskReading::MaskedIsTrue);
    cases.push(BugCase {
        id: "inverted",
        title: t!("rep-case-inverted-title"),
        symptom: t!("rep-case-inverted-symptom"),
        where_to_look: t!("rep-case-inverted-where"),
        bug: Bug::InvertedMask,
        explanation: t!("rep-case-inverted-explanation"),
        config: c,
    });

    let c = planted(TaskKind::Copy, "tiny", |l| l.diagonal_offset = -1);
    cases.push(BugCase {
        id: "blind-diagonal",
        title: t!("rep-case-blind-diagonal-title"),
        symptom: t!("rep-case-blind-diagonal-symptom"),
        where_to_look: t!("rep-case-blind-diagonal-where"),
        bug: Bug::DiagonalHidesSelf,
        explanation: t!("rep-case-blind-diagonal-explanation"),
        config: c,
    });

    let c = planted(TaskKind::CharLm, "lesson", |l| l.diagonal_offset = 1);
    cases.push(BugCase {
        id: "one-ahead",
        title: t!("rep-case-one-ahead-title"),
        symptom: t!("rep-case-one-ahead-symptom"),
        where_to_look: t!("rep-case-one-ahead-where"),
        bug: Bug::DiagonalSeesAhead,
        explanation: t!("rep-case-one-ahead-explanation"),
        config: c,
    });

    let c = planted(TaskKind::Brackets, "tiny", |l| {
        l.mask = MaskKind::Bidirectional;
        l.padding_mask = PaddingMask::Queries;
    });
    cases.push(BugCase {
        id: "padding-axis",
        title: t!("rep-case-padding-axis-title"),
        symptom: t!("rep-case-padding-axis-symptom"),
        where_to_look: t!("rep-case-padding-axis-where"),
        bug: Bug::PaddingMaskWrongAxis,
        explanation: t!("rep-case-padding-axis-explanation"),
        config: c,
    });

    let c = planted(TaskKind::Brackets, "tiny", |l| {
        l.mask = MaskKind::Bidirectional;
        l.padding_mask = PaddingMask::Off;
    });
    cases.push(BugCase {
        id: "padding-missing",
        title: t!("rep-case-padding-missing-title"),
        symptom: t!("rep-case-padding-missing-symptom"),
        where_to_look: t!("rep-case-padding-missing-where"),
        bug: Bug::PaddingMaskMissing,
        explanation: t!("rep-case-padding-missing-explanation"),
        config: c,
    });

    let mut c = base(TaskKind::Brackets, "tiny");
    c.task.pad_side = PadSide::Left;
    cases.push(BugCase {
        id: "padding-side",
        title: t!("rep-case-padding-side-title"),
        symptom: t!("rep-case-padding-side-symptom"),
        where_to_look: t!("rep-case-padding-side-where"),
        bug: Bug::PaddingWrongSide,
        explanation: t!("rep-case-padding-side-explanation"),
        config: c,
    });

    let mut c = base(TaskKind::Reverse, "lesson");
    c.task.shift_labels = false;
    cases.push(BugCase {
        id: "unshifted",
        title: t!("rep-case-unshifted-title"),
        symptom: t!("rep-case-unshifted-symptom"),
        where_to_look: t!("rep-case-unshifted-where"),
        bug: Bug::LabelsNotShifted,
        explanation: t!("rep-case-unshifted-explanation"),
        config: c,
    });

    let mut c = base(TaskKind::Copy, "tiny");
    c.model.d_model = 256;
    c.model.positional = PositionalEncoding::Learned;
    c.model.layers.iter_mut().for_each(|l| {
        l.heads = 1;
        l.scale = false;
    });
    cases.push(BugCase {
        id: "unscaled",
        title: t!("rep-case-unscaled-title"),
        symptom: t!("rep-case-unscaled-symptom"),
        where_to_look: t!("rep-case-unscaled-where"),
        bug: Bug::ScoresNotScaled,
        explanation: t!("rep-case-unscaled-explanation"),
        config: c,
    });

    let c = planted(TaskKind::CharLm, "lesson", |l| l.mask_application = MaskApplication::MultiplyAfterSoftmax);
    cases.push(BugCase {
        id: "mask-after-softmax",
        title: t!("rep-case-mask-after-softmax-title"),
        symptom: t!("rep-case-mask-after-softmax-symptom"),
        where_to_look: t!("rep-case-mask-after-softmax-where"),
        bug: Bug::SoftmaxThenMask,
        explanation: t!("rep-case-mask-after-softmax-explanation"),
        config: c,
    });

    // Reversing 8 of 8 symbols: learned within 300 steps by a sound tiny model.
    let small_reverse = || {
        let mut c = base(TaskKind::Reverse, "tiny");
        c.task.length = 8;
        c.task.symbols = 8;
        c
    };
    let mut c = small_reverse();
    c.model.init_scale = 10.0;
    cases.push(BugCase {
        id: "huge-init",
        title: t!("rep-case-huge-init-title"),
        symptom: t!("rep-case-huge-init-symptom"),
        where_to_look: t!("rep-case-huge-init-where"),
        bug: Bug::InitTooLarge,
        explanation: t!("rep-case-huge-init-explanation"),
        config: c,
    });

    let mut c = small_reverse();
    c.optimizer = crate::config::OptimizerKind::Sgd;
    c.lr = 10.0;
    cases.push(BugCase {
        id: "runaway-lr",
        title: t!("rep-case-runaway-lr-title"),
        symptom: t!("rep-case-runaway-lr-symptom"),
        where_to_look: t!("rep-case-runaway-lr-where"),
        bug: Bug::LearningRateTooHigh,
        explanation: t!("rep-case-runaway-lr-explanation"),
        config: c,
    });
    cases
}
