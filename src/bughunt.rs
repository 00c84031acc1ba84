//! The bug hunt: experiments with one planted bug each (mask, labels, initialisation
//! or learning rate), a description
//! of the symptom the learner sees, and the answer, hidden until asked for.
//! Every symptom is reproduced by a headless test (`tests/integration/bughunt.rs`).

use crate::config::{
    ExperimentConfig, MaskApplication, MaskKind, MaskReading, PaddingMask, PositionalEncoding, preset,
};
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

    /// The name offered in the "what is the bug?" list.
    pub fn name(self) -> &'static str {
        match self {
            Bug::CausalMaskMissing => "the causal mask is missing",
            Bug::InvertedMask => "the mask is read inverted (true = masked)",
            Bug::DiagonalHidesSelf => "the causal diagonal is off by one: a position cannot see itself",
            Bug::DiagonalSeesAhead => "the causal diagonal is off by one: a position sees one token ahead",
            Bug::PaddingMaskWrongAxis => "the padding mask hides queries instead of keys",
            Bug::PaddingMaskMissing => "the padding mask is missing",
            Bug::PaddingWrongSide => "the padding is on the wrong side",
            Bug::LabelsNotShifted => "the labels are not shifted",
            Bug::ScoresNotScaled => "the scores are not scaled by 1/√d_k",
            Bug::SoftmaxThenMask => "the mask is applied after the softmax",
            Bug::InitTooLarge => "the initial weights are far too large",
            Bug::LearningRateTooHigh => "the learning rate is far too high",
        }
    }
}

/// One planted-bug exercise.
#[derive(Clone, Debug)]
pub struct BugCase {
    pub id: &'static str,
    pub title: &'static str,
    /// What the learner observes (no spoilers).
    pub symptom: &'static str,
    /// Which panel shows it best.
    pub where_to_look: &'static str,
    pub bug: Bug,
    /// The answer, shown on request or when named.
    pub explanation: &'static str,
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
        title: "The best training loss ever",
        symptom: "This character language model reaches a training loss far below its causal twin, yet what it writes on its own is gibberish.",
        where_to_look: "Mask inspector (intended vs applied), then Probe for leaks",
        bug: Bug::CausalMaskMissing,
        explanation: "Every layer is bidirectional, so while training each position simply reads the next character, which is its answer. At generation time there is no next character to read. Set the mask back to causal.",
        config: c,
    });

    let c = planted(TaskKind::Copy, "tiny", |l| l.mask_reading = MaskReading::MaskedIsTrue);
    cases.push(BugCase {
        id: "inverted",
        title: "Looking the wrong way",
        symptom: "Each query puts all its weight on positions after it; the last query has nothing to look at.",
        where_to_look: "Attention maps and the mask inspector",
        bug: Bug::InvertedMask,
        explanation: "The mask builder says true = may see, but the attention reads true = hidden. Every query sees exactly what it must not. Read the mask with the builder's convention.",
        config: c,
    });

    let c = planted(TaskKind::Copy, "tiny", |l| l.diagonal_offset = -1);
    cases.push(BugCase {
        id: "blind-diagonal",
        title: "The first token sees nothing",
        symptom: "The inspector flags the first row as having no visible key at all, and no position ever attends to itself.",
        where_to_look: "Mask inspector: rows with every position masked",
        bug: Bug::DiagonalHidesSelf,
        explanation: "The causal mask was built with k < q instead of k ≤ q, so the diagonal is hidden. Use k ≤ q.",
        config: c,
    });

    let c = planted(TaskKind::CharLm, "lesson", |l| l.diagonal_offset = 1);
    cases.push(BugCase {
        id: "one-ahead",
        title: "Almost causal",
        symptom: "The training loss drops to nearly zero within a few hundred steps, the generated text is poor, and the causality probe reports a leak starting at position 0.",
        where_to_look: "Probe for leaks, then the mask inspector's leaking cells",
        bug: Bug::DiagonalSeesAhead,
        explanation: "The mask was built with k ≤ q + 1: every position sees one token ahead, which is exactly its answer. Use k ≤ q.",
        config: c,
    });

    let c = planted(TaskKind::Brackets, "tiny", |l| {
        l.mask = MaskKind::Bidirectional;
        l.padding_mask = PaddingMask::Queries;
    });
    cases.push(BugCase {
        id: "padding-axis",
        title: "Padding that talks",
        symptom: "Changing only the padding tokens changes the model's outputs at real positions.",
        where_to_look: "Probe for leaks (padding), then the mask inspector's padded columns",
        bug: Bug::PaddingMaskWrongAxis,
        explanation: "The padding mask was broadcast along the query axis: padded rows are hidden, but every real query still reads the padded keys. Hide padded keys (columns).",
        config: c,
    });

    let c = planted(TaskKind::Brackets, "tiny", |l| {
        l.mask = MaskKind::Bidirectional;
        l.padding_mask = PaddingMask::Off;
    });
    cases.push(BugCase {
        id: "padding-missing",
        title: "Length matters too much",
        symptom: "The same bracket string gets a different answer depending on how much padding follows it.",
        where_to_look: "Probe for leaks (padding) and the padded columns of the attention maps",
        bug: Bug::PaddingMaskMissing,
        explanation: "No padding mask is applied, so real tokens attend to padding. Hide padded keys.",
        config: c,
    });

    let mut c = base(TaskKind::Brackets, "tiny");
    c.task.pad_side = PadSide::Left;
    cases.push(BugCase {
        id: "padding-side",
        title: "Silent first rows",
        symptom: "The inspector flags several rows at the start of many sequences as having no visible key, and where the answer sits moves from example to example.",
        where_to_look: "Mask inspector: rows with every position masked",
        bug: Bug::PaddingWrongSide,
        explanation: "The sequences were padded on the left. With a causal mask the padded queries at the start can see nothing, and the real tokens start at a different position in every example. Pad on the right.",
        config: c,
    });

    let mut c = base(TaskKind::Reverse, "lesson");
    c.task.shift_labels = false;
    cases.push(BugCase {
        id: "unshifted",
        title: "Perfect and useless",
        symptom: "Training and held-out accuracy reach 100% almost at once, yet generating the answer one token at a time gets almost nothing right.",
        where_to_look: "The accuracy curves against greedy generation",
        bug: Bug::LabelsNotShifted,
        explanation: "Each position was asked to predict its own input token, which it can copy. The target at position t must be the token at t + 1.",
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
        title: "Spiky from the start",
        symptom: "Even before training, nearly every attention row puts almost all its weight on a single key.",
        where_to_look: "Attention maps at step 0, and the gradient panel",
        bug: Bug::ScoresNotScaled,
        explanation: "With d_k = 256 the raw dot products are large, so the softmax saturates and its gradients vanish. Divide the scores by √d_k.",
        config: c,
    });

    let c = planted(TaskKind::CharLm, "lesson", |l| l.mask_application = MaskApplication::MultiplyAfterSoftmax);
    cases.push(BugCase {
        id: "mask-after-softmax",
        title: "Zero weight, still leaking",
        symptom: "Every future cell of the attention maps is exactly zero, rows sum to less than one, and yet the causality probe reports a leak.",
        where_to_look: "Probe for leaks, and the row sums in the mask inspector",
        bug: Bug::SoftmaxThenMask,
        explanation: "The softmax was taken over every key and the future zeroed afterwards. The normaliser still contains the future scores, so the past weights depend on future tokens. Mask before the softmax.",
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
        title: "Decided before it learned",
        symptom: "Even though the scores are scaled by 1/√d_k, every attention row is one-hot at step 1, and the held-out accuracy stays near chance.",
        where_to_look: "Attention maps at step 1, then the gradient panel",
        bug: Bug::InitTooLarge,
        explanation: "The weights and embeddings start ten times larger than PyTorch's default, so the first layer's Q and K are about a hundred times larger and its scores far larger still. The softmax is saturated from the first step and passes almost no gradient. Use an init scale near 1.",
        config: c,
    });

    let mut c = small_reverse();
    c.optimizer = crate::config::OptimizerKind::Sgd;
    c.lr = 10.0;
    cases.push(BugCase {
        id: "runaway-lr",
        title: "Gone in twenty steps",
        symptom: "The loss climbs steeply for about twenty steps, past 1e30, then the run stops with a non-finite loss, and the status line says at which step.",
        where_to_look: "The loss and gradient-norm charts, and the status line",
        bug: Bug::LearningRateTooHigh,
        explanation: "Plain SGD with a learning rate of 10 moves each weight by ten times its gradient. The updates overshoot, the weights and scores grow, and within about twenty steps a number overflows. Use a learning rate around 0.1 for SGD, or Adam at 0.001.",
        config: c,
    });
    cases
}
