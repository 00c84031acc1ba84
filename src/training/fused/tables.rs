//! The position tables the fused pass reads every step (sinusoids, rotary angles,
//! ALiBi slopes), built once per model shape and sequence length and kept by the
//! training session between steps.

use super::params::PlainModel;
use crate::config::PositionalEncoding;
use crate::model::InAttention;
use crate::model::positional::{alibi_slopes, rotary_tables, sinusoidal_table};

pub struct Tables {
    seq: usize,
    d_model: usize,
    positional: PositionalEncoding,
    /// `[seq, d_model]`, sinusoidal positions only.
    pub sinusoid: Option<Vec<f32>>,
    /// Per head width d_k of a rotary layer: cos and sin `[seq, d_k / 2]`.
    rotary: Vec<(usize, Vec<f32>, Vec<f32>)>,
    /// Per head count of an ALiBi layer: each head's slope.
    alibi: Vec<(usize, Vec<f32>)>,
}

impl Tables {
    pub fn new(model: &PlainModel, positional: PositionalEncoding, seq: usize) -> Self {
        let d_model = model.d_model();
        let mut tables = Tables {
            seq,
            d_model,
            positional,
            sinusoid: (positional == PositionalEncoding::Sinusoidal).then(|| sinusoidal_table(seq, d_model)),
            rotary: Vec::new(),
            alibi: Vec::new(),
        };
        let units = model.encoder.iter().chain(&model.layers).flat_map(|l| [l.attention.as_ref(), l.cross.as_ref()]);
        for a in units.flatten() {
            let d_k = d_model / a.heads;
            match a.positions {
                InAttention::Rotary if !tables.rotary.iter().any(|(w, ..)| *w == d_k) => {
                    let (cos, sin) = rotary_tables(0..seq, d_k);
                    tables.rotary.push((d_k, cos, sin));
                }
                InAttention::Alibi if !tables.alibi.iter().any(|(h, _)| *h == a.heads) => tables.alibi.push((a.heads, alibi_slopes(a.heads))),
                _ => {}
            }
        }
        tables
    }

    /// Whether these tables serve `model` at this length (else build new ones).
    pub fn fit(&self, model: &PlainModel, positional: PositionalEncoding, seq: usize) -> bool {
        let units = model.encoder.iter().chain(&model.layers).flat_map(|l| [l.attention.as_ref(), l.cross.as_ref()]);
        let mut units = units.flatten();
        self.seq == seq
            && self.d_model == model.d_model()
            && self.positional == positional
            && units.all(|a| match a.positions {
                InAttention::Rotary => self.rotary.iter().any(|(w, ..)| *w == self.d_model / a.heads),
                InAttention::Alibi => self.alibi.iter().any(|(h, _)| *h == a.heads),
                InAttention::None => true,
            })
    }

    /// Rotary cos and sin `[seq, d_k / 2]` for head width `d_k`.
    pub fn rotary(&self, d_k: usize) -> (&[f32], &[f32]) {
        let (_, cos, sin) = self.rotary.iter().find(|(w, ..)| *w == d_k).expect("tables built for every rotary layer (Tables::fit)");
        (cos, sin)
    }

    /// ALiBi's slope per head for `heads` heads.
    pub fn alibi(&self, heads: usize) -> &[f32] {
        &self.alibi.iter().find(|(h, _)| *h == heads).expect("tables built for every ALiBi layer (Tables::fit)").1
    }
}
