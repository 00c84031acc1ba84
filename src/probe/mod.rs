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

/// Run the causality probe on `examples` held-out sequences of the task.
pub fn causality(model: &Transformer, task: &dyn Task, device: &Device, examples: usize, seed: u64) -> LeakReport {
    let model = model.valid();
    let mut rng = Rng::stream(seed, 21);
    let base = task.batch(&mut rng, Split::Eval, examples.max(1));
    let (n, seq) = (base.batch_size, base.seq_len);
    let vocab = task.vocab().len();
    // Row layout: n base rows, then for each t in 0..seq-1 and each example a row
    // whose tokens after t are redrawn.
    let mut tokens = base.tokens.clone();
    let mut padding = base.padding.clone();
    for t in 0..seq - 1 {
        for e in 0..n {
            let row = &base.tokens[e * seq..(e + 1) * seq];
            tokens.extend(row.iter().enumerate().map(|(i, &tok)| if i > t { redraw(&mut rng, tok, vocab) } else { tok }));
            padding.extend_from_slice(&base.padding[e * seq..(e + 1) * seq]);
        }
    }
    let rows = tokens.len() / seq;
    let hidden = layer_outputs(&model, tokens, &padding, rows, seq, device);
    // Compare each perturbed row with its base row at every position up to t.
    let pairs: Vec<(usize, usize, usize)> = (0..seq - 1)
        .flat_map(|t| (0..n).flat_map(move |e| (0..=t).map(move |p| (e, n + t * n + e, p))))
        .collect();
    report("causality", &hidden, rows, seq, &pairs)
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

/// Per layer, the largest output change over `(row, other row, position)` pairs,
/// and the earliest position that moved past the tolerance.
fn report(probe: &'static str, hidden: &[Vec<f32>], rows: usize, seq: usize, pairs: &[(usize, usize, usize)]) -> LeakReport {
    let layers: Vec<LayerLeak> = hidden
        .iter()
        .enumerate()
        .map(|(layer, values)| {
            let d = values.len() / (rows * seq);
            let (mut score, mut first) = (0.0f32, None::<usize>);
            for &(a, b, p) in pairs {
                let diff = max_diff(&values[(a * seq + p) * d..][..d], &values[(b * seq + p) * d..][..d]);
                // NaN outputs are no evidence of a sound mask: the score stays NaN.
                score = if score.is_nan() || diff.is_nan() { f32::NAN } else { score.max(diff) };
                if diff > TOLERANCE && first.is_none_or(|f| p < f) {
                    first = Some(p);
                }
            }
            LayerLeak { layer, score, first_leaking_position: first }
        })
        .collect();
    LeakReport {
        probe,
        leak: layers.iter().any(|l| l.score > TOLERANCE || l.score.is_nan()),
        tolerance: TOLERANCE,
        layers,
        note: None,
    }
}

/// A different token than `token` (vocabularies have at least two tokens).
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
