//! Attention masks as plain data: which key each query may see.
//!
//! Convention everywhere in this crate: `true` = the query MAY attend to the key
//! ("keep"). The model turns the complement into the blocked cells it fills before
//! the softmax. A row with no visible key at all is defined to get zero weight on
//! every key (its attention output is the zero vector), never NaN.

use crate::config::{LayerConfig, MaskKind, MaskReading, PaddingMask};

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
        let offset = layer.diagonal_offset as i64;
        let window = layer.window.max(1) as i64;
        let structural = |q: usize, k: usize| {
            let (q, k) = (q as i64, k as i64);
            match layer.mask {
                MaskKind::Causal => k <= q + offset,
                MaskKind::Bidirectional => true,
                MaskKind::SlidingWindow => k <= q + offset && q + offset - k < window,
            }
        };
        let batch = padding.map(|(_, b)| b).unwrap_or(1);
        let invert = layer.mask_reading == MaskReading::MaskedIsTrue;
        let mut keep = Vec::with_capacity(batch * seq * seq);
        for b in 0..batch {
            for q in 0..seq {
                for k in 0..seq {
                    let padded = |i: usize| padding.is_some_and(|(pad, _)| pad[b * seq + i]);
                    let hidden_by_padding = match layer.padding_mask {
                        PaddingMask::Keys => padded(k),
                        PaddingMask::Queries => padded(q),
                        PaddingMask::Off => false,
                    };
                    let built = structural(q, k) && !hidden_by_padding;
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
