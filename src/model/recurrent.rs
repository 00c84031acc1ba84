//! The `rnn` family: a recurrent encoder–decoder, the model attention was born in.
//!
//! The encoder (burn's `Gru` or `Lstm`) reads the source one word at a time; its
//! last state is handed to the decoder as the decoder's first state. Without
//! attention that state is all the decoder ever learns of the source: the fixed
//! vector. With attention, every decoder state also scores every encoder state
//! (`dot`: hᵀe, or `additive`: vᵀ tanh(W_d h + W_e e), Bahdanau et al. 2015), reads
//! their weighted sum (the context), and predicts from tanh(W_c [h; context]).
//! The context joins the decoder's output rather than its next input (Luong et
//! al. 2015), so the decoder runs over the whole target at once under teacher
//! forcing.
//!
//! Like the encoder–decoder Transformer, it works on the whole `source | target`
//! frame: the source on positions 0..S (padded on the left, so the last encoder
//! state follows the last real word), the target from the separator at S on.

use burn::module::Module;
use burn::nn::{GateController, Gru, GruConfig, Linear, Lstm, LstmConfig, LstmState};
use burn::tensor::activation::{softmax, tanh};
use burn::tensor::{Bool, Tensor, TensorData};

use super::init::Initializer;
use super::rows::linear_rows;
use crate::config::{RnnAttention, RnnCell};

/// One recurrent layer, of either cell.
#[derive(Module, Debug)]
pub enum Cell {
    Gru(Gru),
    Lstm(Lstm),
}

/// What a cell hands from the encoder to the decoder.
enum CellState {
    Gru(Tensor<2>),
    Lstm(LstmState<2>),
}

impl Cell {
    fn new(kind: RnnCell, d: usize, init: &mut Initializer) -> Self {
        // burn's cells draw their weights from burn's own generator; ours are drawn
        // again from the run's seed (U(±1/√d), as PyTorch's cells start).
        let device = init.device;
        let mut gate = || GateController { input_transform: init.linear(d, d), hidden_transform: init.linear(d, d) };
        match kind {
            RnnCell::Gru => {
                let mut gru = GruConfig::new(d, d, true).init(device);
                (gru.update_gate, gru.reset_gate, gru.new_gate) = (gate(), gate(), gate());
                Cell::Gru(gru)
            }
            RnnCell::Lstm => {
                let mut lstm = LstmConfig::new(d, d, true).init(device);
                (lstm.input_gate, lstm.forget_gate, lstm.output_gate, lstm.cell_gate) = (gate(), Some(gate()), gate(), gate());
                Cell::Lstm(lstm)
            }
        }
    }

    /// x: `[batch, steps, d]` -> every step's hidden state `[batch, steps, d]` and the last state.
    fn run(&self, x: Tensor<3>, state: Option<CellState>) -> (Tensor<3>, CellState) {
        let [batch, steps, d] = x.dims();
        match self {
            Cell::Gru(gru) => {
                let start = match state {
                    Some(CellState::Gru(h)) => Some(h),
                    _ => None,
                };
                let out = gru.forward(x, start); // [batch, steps, d]
                let last = out.clone().slice_dim(1, steps - 1..steps).reshape([batch, d]); // [batch, d]
                (out, CellState::Gru(last))
            }
            Cell::Lstm(lstm) => {
                let start = match state {
                    Some(CellState::Lstm(s)) => Some(s),
                    _ => None,
                };
                let (out, last) = lstm.forward(x, start); // [batch, steps, d]
                (out, CellState::Lstm(last))
            }
        }
    }
}

#[derive(Module, Debug)]
pub struct Recurrent {
    pub encoder: Cell,
    pub decoder: Cell,
    /// Additive scores: W_d (decoder state) `[d, d]`.
    pub score_query: Option<Linear>,
    /// Additive scores: W_e (encoder state) `[d, d]`.
    pub score_key: Option<Linear>,
    /// Additive scores: v `[d, 1]`.
    pub score_v: Option<Linear>,
    /// W_c `[2d, d]`: joins the decoder state and the context (with attention only).
    pub combine: Option<Linear>,
    #[module(skip)]
    pub attention: RnnAttention,
}

/// What the recurrent model hands back besides its output.
pub struct RecurrentOutput {
    /// `[batch, seq, d]`: zeros on the source positions, the decoder's output on
    /// the target positions.
    pub output: Tensor<3>,
    /// `[batch, 1, seq, seq]` alignment weights (rows = target positions, columns =
    /// source positions), when attention is on and they were asked for.
    pub weights: Option<Tensor<4>>,
}

impl Recurrent {
    pub fn new(cell: RnnCell, attention: RnnAttention, d: usize, init: &mut Initializer) -> Self {
        let encoder = Cell::new(cell, d, init);
        let decoder = Cell::new(cell, d, init);
        let additive = attention == RnnAttention::Additive;
        Self {
            encoder,
            decoder,
            score_query: additive.then(|| init.linear(d, d)),
            score_key: additive.then(|| init.linear(d, d)),
            score_v: additive.then(|| init.linear(d, 1)),
            combine: (attention != RnnAttention::None).then(|| init.linear(2 * d, d)),
            attention,
        }
    }

    /// x: `[batch, seq, d]` embedded frame; `source_len` = S; `padding`: `[batch * seq]`.
    pub fn forward(&self, x: Tensor<3>, source_len: usize, padding: Option<&[bool]>, want_weights: bool) -> RecurrentOutput {
        let [batch, seq, d] = x.dims();
        let device = x.device();
        let s = source_len;
        assert!(s > 0 && seq > s, "the rnn family reads whole `source | target` frames ({seq} positions, source {s})");
        let source = x.clone().slice_dim(1, 0..s); // [batch, S, d]
        // A recurrent cell has no mask: it reads the padding in front of a short
        // sentence as zeros, so which token fills a padded slot never matters.
        let source = match padding {
            Some(padding) => {
                let keep: Vec<f32> = (0..batch).flat_map(|b| (0..s).map(move |t| if padding[b * seq + t] { 0.0 } else { 1.0 })).collect();
                source * Tensor::<3>::from_data(TensorData::new(keep, [batch, s, 1]), &device) // [batch, S, d]
            }
            None => source,
        };
        let target = x.slice_dim(1, s..seq); // [batch, T, d], T = seq - S
        let t = seq - s;
        let (states, last) = self.encoder.run(source, None); // [batch, S, d]
        let (decoded, _) = self.decoder.run(target, Some(last)); // [batch, T, d]
        let (decoded, weights) = match self.attention {
            RnnAttention::None => (decoded, None),
            RnnAttention::Dot | RnnAttention::Additive => {
                let scores = match self.attention {
                    RnnAttention::Additive => {
                        let (wq, wk, v) = (self.score_query.as_ref(), self.score_key.as_ref(), self.score_v.as_ref());
                        let (wq, wk, v) = (wq.expect("additive"), wk.expect("additive"), v.expect("additive"));
                        let q = linear_rows(wq, decoded.clone()).unsqueeze_dim::<4>(2); // [batch, T, 1, d]
                        let k = linear_rows(wk, states.clone()).unsqueeze_dim::<4>(1); // [batch, 1, S, d]
                        let joined = tanh(q + k).reshape([batch * t, s, d]); // [batch·T, S, d]
                        linear_rows(v, joined).reshape([batch, t, s]) // [batch, T, S]
                    }
                    _ => decoded.clone().matmul(states.clone().swap_dims(1, 2)), // [batch, T, S]
                };
                // Padded source words are never read (every sentence has a real word).
                let scores = match padding {
                    Some(padding) => {
                        let blocked: Vec<bool> = (0..batch).flat_map(|b| (0..t).flat_map(move |_| (0..s).map(move |k| padding[b * seq + k]))).collect();
                        let blocked = Tensor::<3, Bool>::from_data(TensorData::new(blocked, [batch, t, s]), &device);
                        scores.mask_fill(blocked, f32::NEG_INFINITY) // [batch, T, S]
                    }
                    None => scores,
                };
                let alignment = softmax(scores, 2); // [batch, T, S]
                let context = alignment.clone().matmul(states); // [batch, T, d]
                let combine = self.combine.as_ref().expect("attention joins the context");
                let joined = linear_rows(combine, Tensor::cat(vec![decoded, context], 2)); // [batch, T, d]
                let weights = want_weights.then(|| {
                    let frame = Tensor::<4>::zeros([batch, 1, seq, seq], &device); // [batch, 1, seq, seq]
                    frame.slice_assign([0..batch, 0..1, s..seq, 0..s], alignment.unsqueeze_dim::<4>(1))
                });
                (tanh(joined), weights)
            }
        };
        let source_rows = Tensor::<3>::zeros([batch, s, d], &device); // [batch, S, d]
        RecurrentOutput {
            output: Tensor::cat(vec![source_rows, decoded], 1), // [batch, seq, d]
            weights,
        }
    }
}
