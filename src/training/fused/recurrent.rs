//! The rnn family's recurrent encoder–decoder (GRU cells) on the fused step,
//! forward and backward, mirroring `model/recurrent.rs`: the encoder reads the
//! source (padding read as zeros), its last state starts the decoder, and with
//! attention each decoder state scores every encoder state (dot: hᵀe, additive:
//! vᵀ tanh(W_d h + W_e e)), reads their weighted sum and predicts from
//! tanh(W_c [h; context]). The cells themselves are in `gru.rs`.
//!
//! The chunk's rows are batch-major (`[rows·seq, d]`); the cells run time-major.

use super::gru::{self, GruCache, PlainGru};
use super::kernels::matmul;
use super::params::PlainLinear;
use super::recycled::Recycled;
use super::scratch::Buf;
use super::squash::{exp_shifted_in_place, tanh_in_place};
use super::sublayer::{linear_backward, linear_forward};
use crate::config::RnnAttention;
use crate::model::{Cell, Recurrent};

#[derive(Clone)]
pub struct PlainRecurrent {
    pub encoder: PlainGru,
    pub decoder: PlainGru,
    /// Additive scores: W_d `[d, d]`, W_e `[d, d]`, v `[d, 1]`.
    pub score_query: Option<PlainLinear>,
    pub score_key: Option<PlainLinear>,
    pub score_v: Option<PlainLinear>,
    /// W_c `[2d, d]` (with attention only).
    pub combine: Option<PlainLinear>,
    pub attention: RnnAttention,
    /// S: the source fills positions 0..S of the frame, the target S.. on.
    pub source_len: usize,
}

impl PlainRecurrent {
    /// The plain copy of a GRU model (`fused::support` sends the LSTM elsewhere).
    pub fn of(r: &Recurrent, source_len: usize, recycled: &Recycled) -> Self {
        let gru = |cell: &Cell| match cell {
            Cell::Gru(g) => PlainGru::of(g, recycled),
            Cell::Lstm(_) => unreachable!("fused::support refuses the LSTM"),
        };
        Self {
            encoder: gru(&r.encoder),
            decoder: gru(&r.decoder),
            score_query: r.score_query.as_ref().map(|l| PlainLinear::of(l, recycled)),
            score_key: r.score_key.as_ref().map(|l| PlainLinear::of(l, recycled)),
            score_v: r.score_v.as_ref().map(|l| PlainLinear::of(l, recycled)),
            combine: r.combine.as_ref().map(|l| PlainLinear::of(l, recycled)),
            attention: r.attention,
            source_len,
        }
    }

    /// Every transform, in a fixed order: the encoder's, the decoder's, then the
    /// attention's (without allocating: the gradients are zeroed through it every
    /// step).
    pub fn linears(&self) -> impl Iterator<Item = &PlainLinear> {
        let attention = [&self.score_query, &self.score_key, &self.score_v, &self.combine];
        self.encoder.linears().into_iter().chain(self.decoder.linears()).chain(attention.into_iter().flatten())
    }

    pub fn linears_mut(&mut self) -> impl Iterator<Item = &mut PlainLinear> {
        let Self { encoder, decoder, score_query, score_key, score_v, combine, .. } = self;
        let attention = [score_query, score_key, score_v, combine];
        encoder.linears_mut().into_iter().chain(decoder.linears_mut()).chain(attention.into_iter().flatten())
    }
}

/// What the forward pass keeps for the backward pass.
pub struct RecurrentCache {
    encoder: GruCache,
    decoder: GruCache,
    /// `[rows·S, d]` and `[rows·T, d]`: every encoder and decoder state, batch-major.
    states: Buf<f32>,
    decoded: Buf<f32>,
    /// `[rows·T, S]`: the alignment weights (attention only).
    alignment: Buf<f32>,
    /// `[rows·T·S, d]`: tanh(W_d h + W_e e) (additive only).
    joined: Buf<f32>,
    /// `[rows·T, 2d]`: [h; context], and `[rows·T, d]`: tanh of its transform.
    cat: Buf<f32>,
    out: Buf<f32>,
}

/// Positions `from..from + steps` of each row of `x` (`[rows·seq, d]`), time-major,
/// each scaled by `keep` (`[rows·seq]`) when given.
fn time_major(x: &[f32], keep: Option<&[f32]>, (rows, seq, d): (usize, usize, usize), from: usize, steps: usize) -> Buf<f32> {
    let mut out = Buf::with_capacity(steps * rows * d);
    for t in 0..steps {
        for b in 0..rows {
            let at = b * seq + from + t;
            let row = &x[at * d..(at + 1) * d];
            match keep {
                Some(keep) => out.extend(row.iter().map(|v| v * keep[at])),
                None => out.extend_from_slice(row),
            }
        }
    }
    out
}

/// `[steps·rows, d]` time-major to `[rows·steps, d]` batch-major.
fn batch_major(x: &[f32], rows: usize, steps: usize, d: usize) -> Buf<f32> {
    let mut out = Buf::with_capacity(rows * steps * d);
    for b in 0..rows {
        for t in 0..steps {
            out.extend_from_slice(&x[(t * rows + b) * d..][..d]);
        }
    }
    out
}

/// x (`[rows·seq, d]`, the embedded frame) through the encoder and decoder:
/// `[rows·seq, d]`, zeros on the source positions and the decoder's output on the
/// target's. `padding`: `[rows·seq]`, None when nothing is padded.
pub fn forward(rnn: &PlainRecurrent, x: &[f32], padding: Option<&[bool]>, dims: (usize, usize, usize)) -> (Buf<f32>, RecurrentCache) {
    let (rows, seq, d) = dims;
    let s = rnn.source_len;
    let t_len = seq - s;
    let keep = padding.map(|p| Buf::collect(p.iter().map(|&padded| if padded { 0.0 } else { 1.0 })));
    let encoder = gru::forward(&rnn.encoder, time_major(x, keep.as_deref().map(|k| &k[..]), dims, 0, s), None, rows, d);
    let decoder = gru::forward(&rnn.decoder, time_major(x, None, dims, s, t_len), Some(encoder.last()), rows, d);
    let states = batch_major(encoder.outputs(), rows, s, d); // [rows·S, d]
    let decoded = batch_major(decoder.outputs(), rows, t_len, d); // [rows·T, d]
    let (mut alignment, mut joined, mut cat, mut out) = (Buf::empty(), Buf::empty(), Buf::empty(), Buf::empty());
    if let Some(combine) = &rnn.combine {
        // Scores [rows·T, S].
        alignment = Buf::filled(rows * t_len * s, 0.0);
        match (&rnn.score_query, &rnn.score_key, &rnn.score_v) {
            (Some(wq), Some(wk), Some(v)) => {
                let q = linear_forward(wq, &decoded); // [rows·T, d]
                let k = linear_forward(wk, &states); // [rows·S, d]
                joined = Buf::with_capacity(rows * t_len * s * d);
                for b in 0..rows {
                    for t in 0..t_len {
                        let qt = &q[(b * t_len + t) * d..][..d];
                        for e in 0..s {
                            joined.extend(qt.iter().zip(&k[(b * s + e) * d..][..d]).map(|(a, c)| a + c));
                        }
                    }
                }
                tanh_in_place(&mut joined); // tanh(q + k), [rows·T·S, d]
                alignment.copy_from_slice(&linear_forward(v, &joined)); // [rows·T·S, 1]
            }
            _ => {
                for b in 0..rows {
                    let (db, eb) = (&decoded[b * t_len * d..][..t_len * d], &states[b * s * d..][..s * d]);
                    matmul(&mut alignment[b * t_len * s..][..t_len * s], db, eb, (t_len, d, s), false, true, false);
                }
            }
        }
        // Padded source words are never read; softmax over the source.
        for (row_index, row) in alignment.chunks_exact_mut(s).enumerate() {
            let b = row_index / t_len;
            if let Some(p) = padding {
                row.iter_mut().enumerate().filter(|(e, _)| p[b * seq + e]).for_each(|(_, v)| *v = f32::NEG_INFINITY);
            }
            let best = row.iter().fold(f32::NEG_INFINITY, |m, v| m.max(*v));
            exp_shifted_in_place(row, best);
            let sum: f32 = row.iter().sum();
            row.iter_mut().for_each(|v| *v /= sum);
        }
        // [h; context] -> tanh(W_c ·)
        cat = Buf::overwritten(rows * t_len * 2 * d); // every row written below
        let mut context = Buf::filled(t_len * d, 0.0);
        for b in 0..rows {
            matmul(&mut context, &alignment[b * t_len * s..][..t_len * s], &states[b * s * d..][..s * d], (t_len, s, d), false, false, false);
            for t in 0..t_len {
                let row = &mut cat[(b * t_len + t) * 2 * d..][..2 * d];
                row[..d].copy_from_slice(&decoded[(b * t_len + t) * d..][..d]);
                row[d..].copy_from_slice(&context[t * d..][..d]);
            }
        }
        out = linear_forward(combine, &cat); // [rows·T, d]
        tanh_in_place(&mut out);
    }
    let result = if rnn.combine.is_some() { &out } else { &decoded };
    let mut frame = Buf::filled(rows * seq * d, 0.0);
    for b in 0..rows {
        frame[(b * seq + s) * d..][..t_len * d].copy_from_slice(&result[b * t_len * d..][..t_len * d]);
    }
    (frame, RecurrentCache { encoder, decoder, states, decoded, alignment, joined, cat, out })
}

/// dx (`[rows·seq, d]`) from the gradient of the output frame; adds the
/// parameters' gradients into `g`.
pub fn backward(rnn: &PlainRecurrent, g: &mut PlainRecurrent, cache: &RecurrentCache, d_frame: &[f32], padding: Option<&[bool]>, dims: (usize, usize, usize)) -> Buf<f32> {
    let (rows, seq, d) = dims;
    let s = rnn.source_len;
    let t_len = seq - s;
    let mut d_result = Buf::with_capacity(rows * t_len * d); // [rows·T, d]
    for b in 0..rows {
        d_result.extend_from_slice(&d_frame[(b * seq + s) * d..][..t_len * d]);
    }
    let mut d_states = Buf::filled(rows * s * d, 0.0); // [rows·S, d]
    let d_decoded = match &rnn.combine {
        None => d_result,
        Some(combine) => {
            d_result.iter_mut().zip(&cache.out).for_each(|(g, y)| *g *= 1.0 - y * y);
            let d_cat = linear_backward(combine, g.combine.as_mut().expect("combine"), &cache.cat, &d_result, true).expect("dx"); // [rows·T, 2d]
            let (mut d_decoded, mut d_context) = (Buf::with_capacity(rows * t_len * d), Buf::with_capacity(rows * t_len * d));
            for row in d_cat.chunks_exact(2 * d) {
                d_decoded.extend_from_slice(&row[..d]);
                d_context.extend_from_slice(&row[d..]);
            }
            // Through context = A·E and the softmax: d_scores [rows·T, S].
            let mut d_scores = Buf::filled(rows * t_len * s, 0.0);
            for b in 0..rows {
                let a = &cache.alignment[b * t_len * s..][..t_len * s];
                let (dc, e) = (&d_context[b * t_len * d..][..t_len * d], &cache.states[b * s * d..][..s * d]);
                let ds = &mut d_scores[b * t_len * s..][..t_len * s];
                matmul(ds, dc, e, (t_len, d, s), false, true, false); // dA
                matmul(&mut d_states[b * s * d..][..s * d], a, dc, (s, t_len, d), true, false, true);
                for (ds_row, a_row) in ds.chunks_exact_mut(s).zip(a.chunks_exact(s)) {
                    let dot: f32 = ds_row.iter().zip(a_row).map(|(x, y)| x * y).sum();
                    ds_row.iter_mut().zip(a_row).for_each(|(x, y)| *x = y * (*x - dot));
                }
            }
            match (&rnn.score_query, &rnn.score_key, &rnn.score_v) {
                (Some(wq), Some(wk), Some(v)) => {
                    let mut d_joined = linear_backward(v, g.score_v.as_mut().expect("v"), &cache.joined, &d_scores, true).expect("dx"); // [rows·T·S, d]
                    d_joined.iter_mut().zip(&cache.joined).for_each(|(g, y)| *g *= 1.0 - y * y);
                    let (mut dq, mut dk) = (Buf::filled(rows * t_len * d, 0.0), Buf::filled(rows * s * d, 0.0));
                    for b in 0..rows {
                        for t in 0..t_len {
                            let dq_row = &mut dq[(b * t_len + t) * d..][..d];
                            for e in 0..s {
                                let grad = &d_joined[((b * t_len + t) * s + e) * d..][..d];
                                dq_row.iter_mut().zip(grad).for_each(|(a, b)| *a += b);
                                dk[(b * s + e) * d..][..d].iter_mut().zip(grad).for_each(|(a, b)| *a += b);
                            }
                        }
                    }
                    let from_q = linear_backward(wq, g.score_query.as_mut().expect("W_d"), &cache.decoded, &dq, true).expect("dx");
                    let from_k = linear_backward(wk, g.score_key.as_mut().expect("W_e"), &cache.states, &dk, true).expect("dx");
                    d_decoded.iter_mut().zip(&from_q).for_each(|(a, b)| *a += b);
                    d_states.iter_mut().zip(&from_k).for_each(|(a, b)| *a += b);
                }
                _ => {
                    for b in 0..rows {
                        let ds = &d_scores[b * t_len * s..][..t_len * s];
                        let (db, e) = (&cache.decoded[b * t_len * d..][..t_len * d], &cache.states[b * s * d..][..s * d]);
                        matmul(&mut d_decoded[b * t_len * d..][..t_len * d], ds, e, (t_len, s, d), false, false, true);
                        matmul(&mut d_states[b * s * d..][..s * d], ds, db, (s, t_len, d), true, false, true);
                    }
                }
            }
            d_decoded
        }
    };
    let d_decoder_states = time_major(&d_decoded, None, (rows, t_len, d), 0, t_len);
    let (dx_target, d_start) = gru::backward(&rnn.decoder, &mut g.decoder, &cache.decoder, &d_decoder_states, None);
    let d_encoder_states = time_major(&d_states, None, (rows, s, d), 0, s);
    let (dx_source, _) = gru::backward(&rnn.encoder, &mut g.encoder, &cache.encoder, &d_encoder_states, Some(&d_start));
    let mut dx = Buf::filled(rows * seq * d, 0.0);
    for b in 0..rows {
        for t in 0..s {
            let padded = padding.is_some_and(|p| p[b * seq + t]);
            if !padded {
                dx[(b * seq + t) * d..][..d].copy_from_slice(&dx_source[(t * rows + b) * d..][..d]);
            }
        }
        for t in 0..t_len {
            dx[(b * seq + s + t) * d..][..d].copy_from_slice(&dx_target[(t * rows + b) * d..][..d]);
        }
    }
    dx
}
