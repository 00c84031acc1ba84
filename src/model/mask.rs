//! Attention masks as plain data: which key each query may see.
//!
//! Convention everywhere in this crate: `true` = the query MAY attend to the key
//! ("keep"). The model turns the complement into the blocked cells it fills before
//! the softmax. A row with no visible key at all is defined to get zero weight on
//! every key (its attention output is the zero vector), never NaN.

use crate::config::{LayerConfig, MaskKind, MaskReading, PaddingMask};

/// Which block of the sequence a sublayer's queries and keys come from. The
/// encoder–decoder family runs on the whole `source | target` frame (the source
/// on positions 0..S, the separator at S, the target after it); each of its
/// sublayers keeps to its own block, so the decoder never reads the source
/// except through cross-attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Decoder-only: every position of the sequence.
    Whole,
    /// Encoder self-attention: source queries, source keys (positions < S).
    Encoder { source_len: usize },
    /// Decoder self-attention: target queries, target keys (positions ≥ S).
    DecoderSelf { source_len: usize },
    /// Cross-attention: target queries, source keys.
    Cross { source_len: usize },
}

impl Role {
    /// Query and key positions inside the role's block, or None outside it.
    fn block(self, q: usize, k: usize) -> Option<(i64, i64)> {
        let inside = match self {
            Role::Whole => true,
            Role::Encoder { source_len } => q < source_len && k < source_len,
            Role::DecoderSelf { source_len } => q >= source_len && k >= source_len,
            Role::Cross { source_len } => q >= source_len && k < source_len,
        };
        inside.then_some((q as i64, k as i64))
    }
}

/// `[batch, seq, seq]` keep-mask; `batch` is 1 when there is no padding.
#[derive(Clone, Debug, PartialEq)]
pub struct KeepMask {
    pub batch: usize,
    pub seq: usize,
    pub keep: Vec<bool>,
}

impl KeepMask {
    /// The structural mask (causal / bidirectional / window) combined with the
    /// padding mask: padded keys are never visible.
    pub fn build(kind: MaskKind, window: usize, seq: usize, padding: Option<(&[bool], usize)>) -> Self {
        let structural = |q: usize, k: usize| match kind {
            MaskKind::Causal => k <= q,
            MaskKind::Bidirectional => true,
            MaskKind::SlidingWindow => k <= q && q - k < window.max(1),
        };
        let batch = padding.map(|(_, b)| b).unwrap_or(1);
        let mut keep = Vec::with_capacity(batch * seq * seq);
        for b in 0..batch {
            for q in 0..seq {
                for k in 0..seq {
                    let padded = padding.is_some_and(|(pad, _)| pad[b * seq + k]);
                    keep.push(structural(q, k) && !padded);
                }
            }
        }
        Self { batch, seq, keep }
    }

    /// The mask the layer's attention really uses, planted bugs included: the
    /// diagonal offset, the padding axis, and how the boolean is read.
    /// With no bug knobs set this equals `build(layer.mask, layer.window, ..)`.
    pub fn applied(layer: &LayerConfig, seq: usize, padding: Option<(&[bool], usize)>) -> Self {
        Self::applied_in(layer, Role::Whole, seq, padding)
    }

    /// `applied` for a sublayer of the given role: cells outside the role's block
    /// of the sequence are never visible, whatever the bug knobs say.
    pub fn applied_in(layer: &LayerConfig, role: Role, seq: usize, padding: Option<(&[bool], usize)>) -> Self {
        let offset = layer.diagonal_offset as i64;
        let window = layer.window.max(1) as i64;
        let structural = |q: i64, k: i64| match (role, layer.mask) {
            // Every target word may read every source word: no order between them.
            (Role::Cross { .. }, _) => true,
            (_, MaskKind::Causal) => k <= q + offset,
            (_, MaskKind::Bidirectional) => true,
            (_, MaskKind::SlidingWindow) => k <= q + offset && q + offset - k < window,
        };
        let batch = padding.map(|(_, b)| b).unwrap_or(1);
        let invert = layer.mask_reading == MaskReading::MaskedIsTrue;
        let mut keep = Vec::with_capacity(batch * seq * seq);
        for b in 0..batch {
            for q in 0..seq {
                for k in 0..seq {
                    let Some((q_local, k_local)) = role.block(q, k) else {
                        keep.push(false);
                        continue;
                    };
                    let padded = |i: usize| padding.is_some_and(|(pad, _)| pad[b * seq + i]);
                    let hidden_by_padding = match layer.padding_mask {
                        PaddingMask::Keys => padded(k),
                        PaddingMask::Queries => padded(q),
                        PaddingMask::Off => false,
                    };
                    let built = structural(q_local, k_local) && !hidden_by_padding;
                    keep.push(built != invert);
                }
            }
        }
        Self { batch, seq, keep }
    }

    /// The mask the layer is meant to use: its kind and window, padded keys hidden.
    pub fn intended(layer: &LayerConfig, seq: usize, padding: Option<(&[bool], usize)>) -> Self {
        Self::build(layer.mask, layer.window, seq, padding)
    }

    /// `intended` for a sublayer of the given role (the layer's kind and window
    /// inside the role's block, padded keys hidden, no planted bug).
    pub fn intended_in(layer: &LayerConfig, role: Role, seq: usize, padding: Option<(&[bool], usize)>) -> Self {
        let sound = LayerConfig {
            diagonal_offset: 0,
            mask_reading: MaskReading::KeepIsTrue,
            padding_mask: PaddingMask::Keys,
            ..layer.clone()
        };
        Self::applied_in(&sound, role, seq, padding)
    }

    pub fn get(&self, b: usize, q: usize, k: usize) -> bool {
        self.keep[(b * self.seq + q) * self.seq + k]
    }

    /// Whether some query sees no key at all.
    pub fn has_empty_row(&self) -> bool {
        self.keep.chunks(self.seq).any(|row| !row.iter().any(|k| *k))
    }

    /// Cells the softmax must not give weight to.
    pub fn blocked(&self) -> Vec<bool> {
        self.keep.iter().map(|k| !k).collect()
    }

    /// Uniform weights over visible keys (1/count), zero rows stay zero.
    pub fn uniform_weights(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.keep.len());
        for row in self.keep.chunks(self.seq) {
            let count = row.iter().filter(|k| **k).count();
            let w = if count == 0 { 0.0 } else { 1.0 / count as f32 };
            out.extend(row.iter().map(|&k| if k { w } else { 0.0 }));
        }
        out
    }

    pub fn as_f32(&self) -> Vec<f32> {
        self.keep.iter().map(|&k| if k { 1.0 } else { 0.0 }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causal_sees_the_past_and_itself() {
        let m = KeepMask::build(MaskKind::Causal, 0, 3, None);
        assert_eq!(m.keep, vec![true, false, false, true, true, false, true, true, true]);
        assert!(!m.has_empty_row());
    }

    #[test]
    fn window_is_causal_and_local() {
        let m = KeepMask::build(MaskKind::SlidingWindow, 2, 4, None);
        assert!(m.get(0, 3, 3) && m.get(0, 3, 2));
        assert!(!m.get(0, 3, 1) && !m.get(0, 2, 3));
    }

    #[test]
    fn planted_bugs_change_the_applied_mask_only() {
        let mut layer = LayerConfig::default();
        assert_eq!(KeepMask::applied(&layer, 4, None), KeepMask::intended(&layer, 4, None));
        layer.diagonal_offset = 1;
        let ahead = KeepMask::applied(&layer, 4, None);
        assert!(ahead.get(0, 0, 1) && !ahead.get(0, 0, 2));
        layer.diagonal_offset = -1;
        let blind = KeepMask::applied(&layer, 4, None);
        assert!(!blind.get(0, 2, 2) && blind.get(0, 2, 1) && blind.has_empty_row());
        layer.diagonal_offset = 0;
        layer.mask_reading = MaskReading::MaskedIsTrue;
        let inverted = KeepMask::applied(&layer, 3, None);
        assert_eq!(inverted.keep, vec![false, true, true, false, false, true, false, false, false]);
        layer.mask_reading = MaskReading::KeepIsTrue;
        layer.padding_mask = PaddingMask::Queries;
        let pad = [false, true];
        let wrong_axis = KeepMask::applied(&layer, 2, Some((&pad, 1)));
        assert!(wrong_axis.get(0, 0, 0) && !wrong_axis.get(0, 1, 0) && !wrong_axis.get(0, 1, 1));
    }

    #[test]
    fn encoder_decoder_roles_keep_to_their_blocks() {
        // Source on 0..2, separator at 2, target on 3..5; position 0 is padding.
        let pad = [true, false, false, false, false];
        let causal = LayerConfig::default();
        let bidirectional = LayerConfig { mask: MaskKind::Bidirectional, ..LayerConfig::default() };
        let s = 2;
        let enc = KeepMask::applied_in(&bidirectional, Role::Encoder { source_len: s }, 5, Some((&pad, 1)));
        assert!(enc.get(0, 1, 1) && !enc.get(0, 1, 0) && !enc.get(0, 1, 2) && !enc.get(0, 3, 1));
        let dec = KeepMask::applied_in(&causal, Role::DecoderSelf { source_len: s }, 5, Some((&pad, 1)));
        assert!(dec.get(0, 4, 2) && dec.get(0, 4, 4) && !dec.get(0, 3, 4) && !dec.get(0, 4, 1));
        let cross = KeepMask::applied_in(&causal, Role::Cross { source_len: s }, 5, Some((&pad, 1)));
        // Every target query reads every real source key, none of the target.
        assert!(cross.get(0, 2, 1) && cross.get(0, 4, 1) && !cross.get(0, 4, 0) && !cross.get(0, 4, 3) && !cross.get(0, 1, 1));
        // An inverted reading stays inside the block: the decoder still cannot read the source.
        let inverted = LayerConfig { mask_reading: MaskReading::MaskedIsTrue, ..causal.clone() };
        let bad = KeepMask::applied_in(&inverted, Role::DecoderSelf { source_len: s }, 5, None);
        assert!(bad.get(0, 2, 3) && !bad.get(0, 3, 1));
        assert_eq!(KeepMask::intended_in(&inverted, Role::DecoderSelf { source_len: s }, 5, None), KeepMask::applied_in(&causal, Role::DecoderSelf { source_len: s }, 5, None));
    }

    #[test]
    fn padding_hides_keys_and_can_empty_a_row() {
        let pad = [true, false, false, false];
        let m = KeepMask::build(MaskKind::Causal, 0, 2, Some((&pad, 2)));
        assert_eq!(m.batch, 2);
        assert!(!m.get(0, 0, 0) && m.has_empty_row());
        assert!(m.get(0, 1, 1) && m.get(1, 1, 0));
        let w = m.uniform_weights();
        assert_eq!(&w[..2], &[0.0, 0.0]);
    }
}
