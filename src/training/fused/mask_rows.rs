//! A layer's attention mask prepared for the fused attention loops: per mask row,
//! the span of visible keys, the additive bias and the keep-mask, and the whole
//! blocks of 8 keys a row's scores are computed for.

use super::attention::Dims;
use super::scratch::Buf;
use crate::config::MaskApplication;
use crate::model::mask::KeepMask;

/// First visible key and one past the last, or None when the row sees none.
#[inline(always)]
pub(super) fn span(keep: &[bool]) -> Option<(usize, usize)> {
    let lo = keep.iter().position(|k| *k)?;
    let hi = keep.iter().rposition(|k| *k)? + 1;
    Some((lo, hi))
}

/// A layer's mask prepared for the loops, per mask row (`[mask_batch, seq]` rows):
/// the span of visible keys, an additive bias over the padded keys (0 where the key
/// takes part in the softmax, -inf elsewhere) and the keep-mask as 1/0.
pub(super) struct MaskRows {
    /// Per mask row: its span, or `NO_KEY`.
    pub(super) spans: Buf<(usize, usize)>,
    /// `[mask_batch, seq, padded]`
    pub(super) bias: Buf<f32>,
    /// `[mask_batch, seq, padded]`
    pub(super) keep: Buf<f32>,
    pub(super) batch: usize,
}

/// The span of a row that sees no key.
pub(super) const NO_KEY: (usize, usize) = (usize::MAX, 0);

impl MaskRows {
    pub(super) fn new(mask: &KeepMask, dims: Dims, application: MaskApplication) -> Self {
        let (seq, padded) = (dims.seq, dims.padded());
        let rows = mask.batch * seq;
        let (mut bias, mut keep) = (Buf::filled(rows * padded, f32::NEG_INFINITY), Buf::filled(rows * padded, 0.0));
        let mut spans = Buf::with_capacity(rows);
        for r in 0..rows {
            let row = &mask.keep[r * seq..][..seq];
            spans.push(span(row).unwrap_or(NO_KEY));
            for (j, &k) in row.iter().enumerate() {
                let takes_part = k || application == MaskApplication::MultiplyAfterSoftmax;
                bias[r * padded + j] = if takes_part { 0.0 } else { f32::NEG_INFINITY };
                keep[r * padded + j] = if k { 1.0 } else { 0.0 };
            }
        }
        Self { spans, bias, keep, batch: mask.batch }
    }

    /// Mask row `r`'s visible keys `lo..hi`, or None when it sees none.
    #[inline(always)]
    pub(super) fn span(&self, r: usize) -> Option<(usize, usize)> {
        Some(self.spans[r]).filter(|s| *s != NO_KEY)
    }

    /// Index of row `b`'s query `i` among the mask rows.
    #[inline(always)]
    pub(super) fn row(&self, b: usize, i: usize, seq: usize) -> usize {
        (if self.batch == 1 { 0 } else { b }) * seq + i
    }
}

/// The keys a row's scores are computed for, in whole blocks of 8: the blocks
/// holding the visible keys, or every key for after-softmax masking.
#[inline(always)]
pub(super) fn block_range(lo: usize, hi: usize, dims: Dims, application: MaskApplication) -> (usize, usize) {
    if application == MaskApplication::MultiplyAfterSoftmax {
        (0, dims.padded())
    } else {
        (lo / 8 * 8, hi.div_ceil(8) * 8)
    }
}
