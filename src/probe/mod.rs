//! Leak probes: does information reach positions it must not?
//!
//! Causality: for every position t, change the tokens after t and measure how much
//! each layer's outputs at positions ≤ t move. A correct causal model does not
//! move at all (within float tolerance); any mask bug that lets a query see the
//! future shows up as a leak, with the first position that leaks.
//!
//! Padding: change the padding tokens and measure how much the real positions move.

use burn::module::Module;
use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::Serialize;

use crate::model::{Capture, Dropout, Transformer};
use crate::t;
use crate::tasks::{Rng, Split, Task};

/// Output changes below this are float noise, not a leak.
pub const TOLERANCE: f32 = 1e-4;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LayerLeak {
    pub layer: usize,
    /// Largest change of an output that must not change (0 for a sound mask).
    pub score: f32,
    /// The earliest position whose output moved, if any.
    pub first_leaking_position: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeakReport {
    pub probe: &'static str,
    pub leak: bool,
    pub tolerance: f32,
    pub layers: Vec<LayerLeak>,
    /// A note when the probe could not say much (e.g. a task without padding).
    pub note: Option<String>,
}

/// The perturbed rows of the causality probe pushed through the model at once are
/// capped so their activations and attention matrices stay within this budget,
/// whatever the sequence length (one pass over all of them grows like seq³).
pub const PROBE_BUDGET_BYTES: usize = 256 * 1024 * 1024;

/// Rows per causality-probe pass for a model and a sequence length (at least 1).
pub fn probe_chunk_rows(model: &crate::config::ModelConfig, seq: usize) -> usize {
    let heads = model.attention_maps();
    let widest = model.layers.iter().map(|l| l.d_ff).max().unwrap_or(0).max(model.d_model);
    // Per row: each head's score matrices (raw, scaled, weights, kept or not) and
    // every layer's outputs (kept for the comparison) and widest activation.
    let per_row = 4 * (3 * heads * seq * seq + 2 * model.layers.len().max(1) * seq * widest);
    (PROBE_BUDGET_BYTES / per_row.max(1)).max(1)
}

/// Run the causality probe on `examples` held-out sequences of the task. The
/// perturbed rows go through the model in chunks (`probe_chunk_rows`).
pub fn causality(model: &Transformer, task: &dyn Task, device: &Device, examples: usize, seed: u64) -> LeakReport {
    let vocab = task.vocab().len();
    if vocab < 2 {
        return cannot_tell("causality", model.layers.len());
    }
    let chunk_rows = probe_chunk_rows(&model.config, task.seq_len().max(1));
    let model = model.valid();
    let mut rng = Rng::stream(seed, 21);
    let base = task.batch(&mut rng, Split::Eval, examples.max(1));
    let (n, seq) = (base.batch_size, base.seq_len);
    let base_hidden = layer_outputs(&model, base.tokens.clone(), &base.padding, n, seq, device);
    let mut stats = vec![LeakStats::default(); base_hidden.len()];
    // For each t in 0..seq-1 and each example, a row whose tokens after t are
    // redrawn; compared with its base row at every position up to t.
    let perturbed: Vec<(usize, usize)> = (0..seq.saturating_sub(1)).flat_map(|t| (0..n).map(move |e| (t, e))).collect();
    for chunk in perturbed.chunks(chunk_rows) {
        let (mut tokens, mut padding) = (Vec::with_capacity(chunk.len() * seq), Vec::with_capacity(chunk.len() * seq));
        for &(t, e) in chunk {
            let row = &base.tokens[e * seq..(e + 1) * seq];
            tokens.extend(row.iter().enumerate().map(|(i, &tok)| if i > t { redraw(&mut rng, tok, vocab) } else { tok }));
            padding.extend_from_slice(&base.padding[e * seq..(e + 1) * seq]);
        }
        let hidden = layer_outputs(&model, tokens, &padding, chunk.len(), seq, device);
        for ((layer, values), base_values) in hidden.iter().enumerate().zip(&base_hidden) {
            let d = values.len() / (chunk.len() * seq);
            for (row, &(t, e)) in chunk.iter().enumerate() {
                for p in 0..=t {
                    let diff = max_diff(&base_values[(e * seq + p) * d..][..d], &values[(row * seq + p) * d..][..d]);
                    stats[layer].update(diff, p);
                }
            }
        }
    }
    finish("causality", stats)
}

/// Run the padding probe: redraw every padding token and measure the real positions.
pub fn padding(model: &Transformer, task: &dyn Task, device: &Device, examples: usize, seed: u64) -> LeakReport {
    let model = model.valid();
    let mut rng = Rng::stream(seed, 22);
    let base = task.batch(&mut rng, Split::Eval, examples.max(1));
    let (n, seq) = (base.batch_size, base.seq_len);
    if !base.has_padding() {
        return LeakReport {
            probe: "padding",
            leak: false,
            tolerance: TOLERANCE,
            layers: Vec::new(),
            note: Some(t!("err-probe-no-padding")),
        };
    }
    let vocab = task.vocab().len();
    if vocab < 2 {
        return cannot_tell("padding", model.layers.len());
    }
    let mut tokens = base.tokens.clone();
    tokens.extend(base.tokens.iter().zip(&base.padding).map(|(&t, &pad)| if pad { redraw(&mut rng, t, vocab) } else { t }));
    let mut padding = base.padding.clone();
    padding.extend_from_slice(&base.padding);
    let hidden = layer_outputs(&model, tokens, &padding, 2 * n, seq, device);
    // Compare each example with its re-padded twin at its real positions.
    let real = &base.padding;
    let pairs: Vec<(usize, usize, usize)> = (0..n)
        .flat_map(|e| (0..seq).filter(move |&p| !real[e * seq + p]).map(move |p| (e, n + e, p)))
        .collect();
    report("padding", &hidden, 2 * n, seq, &pairs)
}

/// With one symbol no token can be changed, so the probe learns nothing: every
/// score is undefined (NaN, which reads as a possible leak), never "no leak".
fn cannot_tell(probe: &'static str, layers: usize) -> LeakReport {
    LeakReport {
        probe,
        leak: true,
        tolerance: TOLERANCE,
        layers: (0..layers).map(|layer| LayerLeak { layer, score: f32::NAN, first_leaking_position: None }).collect(),
        note: Some(t!("err-probe-one-symbol")),
    }
}

/// One layer's running result: the largest output change, and the earliest
/// position that moved past the tolerance.
#[derive(Clone, Copy, Default)]
struct LeakStats {
    score: f32,
    first: Option<usize>,
}

impl LeakStats {
    fn update(&mut self, diff: f32, position: usize) {
        // NaN outputs are no evidence of a sound mask: the score stays NaN.
        self.score = if self.score.is_nan() || diff.is_nan() { f32::NAN } else { self.score.max(diff) };
        if diff > TOLERANCE && self.first.is_none_or(|f| position < f) {
            self.first = Some(position);
        }
    }
}

fn finish(probe: &'static str, stats: Vec<LeakStats>) -> LeakReport {
    let layers: Vec<LayerLeak> =
        stats.into_iter().enumerate().map(|(layer, s)| LayerLeak { layer, score: s.score, first_leaking_position: s.first }).collect();
    LeakReport {
        probe,
        leak: layers.iter().any(|l| l.score > TOLERANCE || l.score.is_nan()),
        tolerance: TOLERANCE,
        layers,
        note: None,
    }
}

/// Per layer, the largest output change over `(row, other row, position)` pairs.
fn report(probe: &'static str, hidden: &[Vec<f32>], rows: usize, seq: usize, pairs: &[(usize, usize, usize)]) -> LeakReport {
    let stats = hidden
        .iter()
        .map(|values| {
            let d = values.len() / (rows * seq);
            let mut stats = LeakStats::default();
            for &(a, b, p) in pairs {
                stats.update(max_diff(&values[(a * seq + p) * d..][..d], &values[(b * seq + p) * d..][..d]), p);
            }
            stats
        })
        .collect();
    finish(probe, stats)
}

/// A different token than `token` (the callers check the vocabulary has two or more).
fn redraw(rng: &mut Rng, token: i64, vocab: usize) -> i64 {
    let shift = 1 + rng.below(vocab - 1);
    ((token as usize + shift) % vocab) as i64
}

/// Largest absolute difference; NaN if any value is NaN (f32::max would drop it).
fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, |m, d| if m.is_nan() || d.is_nan() { f32::NAN } else { m.max(d) })
}

/// Every layer's output for a batch, read back as `[rows, seq, d_model]` row-major.
fn layer_outputs(model: &Transformer, tokens: Vec<i64>, padding: &[bool], rows: usize, seq: usize, device: &Device) -> Vec<Vec<f32>> {
    let tokens = Tensor::<2, Int>::from_data(TensorData::new(tokens, [rows, seq]), device);
    let padding = padding.iter().any(|p| *p).then_some(padding);
    let capture = Capture { hidden: true, ..Capture::default() };
    let out = model.forward(tokens, padding, capture, &mut Dropout::off());
    out.hidden
        .into_iter()
        .map(|h| crate::model::readback::read_floats(h)) // [rows, seq, d_model] flattened
        .collect()
}

#[cfg(test)]
mod seq2seq_tests {
    use burn::tensor::Device;

    use crate::config::{MaskKind, preset};
    use crate::model::Transformer;
    use crate::tasks::Task;

    fn model(name: &str, edit: impl Fn(&mut crate::config::ExperimentConfig)) -> (Box<dyn Task>, Transformer, Device) {
        let mut config = preset(name).unwrap();
        config.task.length = 6;
        config.fit_max_len_to_task();
        edit(&mut config);
        let task = config.task.build().unwrap();
        let device = Device::flex();
        let model = Transformer::new(&config.model, task.vocab().len(), 5, &device).with_source_len(task.source_len());
        (task, model, device)
    }

    #[test]
    fn the_leak_probes_read_both_seq2seq_families() {
        for name in ["encoder_decoder", "rnn"] {
            let (task, model, device) = model(name, |_| {});
            let causality = super::causality(&model, task.as_ref(), &device, 3, 0);
            assert!(!causality.layers.is_empty() && !causality.leak, "{name}: {causality:?}");
            let padding = super::padding(&model, task.as_ref(), &device, 4, 0);
            assert!(!padding.layers.is_empty() && !padding.leak, "{name}: padding {padding:?}");
        }
        // A decoder whose self-attention sees the whole target is caught.
        let (task, model, device) = model("encoder_decoder", |c| c.model.layers[0].mask = MaskKind::Bidirectional);
        assert!(super::causality(&model, task.as_ref(), &device, 3, 0).leak, "a bidirectional decoder leaks");
    }
}
