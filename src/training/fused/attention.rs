//! The attention core of the fused step for one chunk of rows: from Q, K, V
//! (`[rows·seq, d_model]`, heads side by side) to the context, and back.
//!
//! Per (row, head): S = QKᵀ (÷ √d_k when scaling), P = softmax over the visible keys
//! (or over all keys, then × keep, for `MultiplyAfterSoftmax`), context = (P ⊙ keep) V.
//! A row with no visible key gets P = 0 (as the composed model defines it).
//! The products (S = QKᵀ, the context, and backward dP, dQ, dK, dV) run per
//! sample and head on blocks of 16 queries (`block_product`), each over the keys
//! its queries see, in whole blocks of 8: a causal sample's blocks cover a
//! staircase, not the square, and a sliding window's a band. K and V are
//! transposed per sample into rows padded to a multiple of 8. The softmax, the
//! masks and the softmax's backward run row by row over the blocks that hold each
//! row's visible keys.

use super::mask_rows::{MaskRows, block_range};
use super::block_product::block_product;
use super::row_blocks::{dot_blocks, mul_add_blocks, product_blocks, softmax_blocks};
use super::simd::simd_fn;
use super::scratch::Buf;
use super::transpose::transpose_into;
use crate::config::MaskApplication;
use crate::model::mask::KeepMask;

/// Shapes of one chunk's attention.
#[derive(Clone, Copy)]
pub struct Dims {
    pub seq: usize,
    pub d_model: usize,
    pub heads: usize,
}

impl Dims {
    pub(super) fn d_k(&self) -> usize {
        self.d_model / self.heads
    }
    /// Keys per row of scores: `seq` rounded up to a block of 8.
    pub(super) fn padded(&self) -> usize {
        self.seq.div_ceil(8) * 8
    }
    /// Offset of query `s` (its index in the query list), head `h` in a
    /// `[queries, heads, padded]` buffer.
    #[inline(always)]
    pub(super) fn p_at(&self, s: usize, h: usize) -> usize {
        (s * self.heads + h) * self.padded()
    }
}

/// The queries to compute, grouped by sample: `(b, first, end)` ranges of indices
/// into the query list, whose entries are chunk positions `b·seq + i` (ascending).
fn groups(queries: &[usize], seq: usize) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let mut first = 0;
    std::iter::from_fn(move || {
        let b = queries.get(first)? / seq;
        let end = first + queries[first..].iter().take_while(|&&r| r / seq == b).count();
        let group = (b, first, end);
        first = end;
        Some(group)
    })
}

/// What the core's forward pass leaves for its backward pass.
pub struct CoreCache {
    /// `[queries, heads, padded]` softmax output (before × keep); 0 outside the
    /// blocks a row computed.
    pub p: Buf<f32>,
}

/// Copy row `b` of `x` (`[rows·seq, d_model]`) transposed into `out` (`[d_model,
/// padded]`: head h's `[d_k, padded]` at h·d_k·padded; the padding stays 0). All
/// heads at once, in blocks of 8 × 8 (`transpose`).
#[inline(always)]
fn row_transposed(x: &[f32], dims: Dims, b: usize, out: &mut [f32]) {
    let (seq, d, padded) = (dims.seq, dims.d_model, dims.padded());
    transpose_into(&x[b * seq * d..], d, (seq, d), out, padded);
}

/// What the attention core reads, forward and backward: q (`[queries, d_model]`),
/// k and v (`[rows·seq, d_model]`), the layer's mask and knobs, and `queries`, the
/// chunk positions whose output is needed (every position, or only the scored ones
/// in the last self-attention layer and the cross-attention after it).
pub struct CoreInputs<'a> {
    pub q: &'a [f32],
    pub k: &'a [f32],
    pub v: &'a [f32],
    pub mask: &'a KeepMask,
    pub dims: Dims,
    pub queries: &'a [usize],
    pub scale: bool,
    pub application: MaskApplication,
    pub ablated: &'a [usize],
    /// ALiBi's slope per head, when the layer uses it: m_h · |i - j| is taken off
    /// every score (a constant, so the backward pass is unchanged).
    pub alibi: Option<&'a [f32]>,
    /// Uniform-average attention: P is 1/count on the visible keys (q and k are
    /// empty and unused; nothing flows back to them).
    pub uniform: bool,
    /// The convolution kind: each head's weight per offset (`[heads, taps]`, the
    /// softmax of its kernel) and `taps`; query i reads key i - o with weight
    /// w[h, o] (times keep). q and k are empty and unused.
    pub conv: Option<(&'a [f32], usize)>,
}

impl CoreInputs<'_> {
    /// The weights do not depend on the queries (uniform or convolution): Q and K
    /// are not read and get no gradient.
    fn fixed(&self) -> bool {
        self.uniform || self.conv.is_some()
    }
}

/// The context (`[queries, d_model]`, arriving zeroed).
pub fn forward(inputs: &CoreInputs, context: &mut [f32]) -> CoreCache {
    let mut p = Buf::filled(inputs.queries.len() * inputs.dims.heads * inputs.dims.padded(), 0.0);
    forward_loops(inputs, context, &mut p);
    CoreCache { p }
}

simd_fn! {
    fn forward_loops(inputs: &CoreInputs, context: &mut [f32], p: &mut [f32]) {
        let CoreInputs { q, k, v, mask, dims, queries, scale, application, ablated, uniform, conv, .. } = *inputs;
        let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
        let factor = if scale { 1.0 / (dk as f32).sqrt() } else { 1.0 };
        let mut kt_all = Buf::filled(d * padded, 0.0);
        // Per (sample, head): P ⊙ keep of its queries, `[queries of b, padded]`.
        let mut pe_block = Buf::filled(seq * padded, 0.0);
        let rows = MaskRows::new(mask, dims, application);
        for (b, first, end) in groups(queries, seq) {
            if !inputs.fixed() {
                row_transposed(k, dims, b, &mut kt_all);
            }
            for h in 0..dims.heads {
                if ablated.contains(&h) {
                    continue; // its output is zeroed, so nothing downstream reads P
                }
                for (top, bottom) in query_blocks(first, end) {
                    let (from, to) = group_keys(&rows, queries, (b, top, bottom), dims, application);
                    if !inputs.fixed() {
                        // S = Q Kᵀ for the block's queries over the keys any of them computes.
                        let kt = &kt_all[h * dk * padded..][..dk * padded];
                        block_product((&mut p[dims.p_at(top, h) + from..], dims.heads * padded), &q[top * d + h * dk..], (d, 1), (&kt[from..], padded), (bottom - top, dk, to - from), false);
                    }
                    for s in top..bottom {
                        let i = queries[s] % seq;
                        let r = rows.row(b, i, seq);
                        let row = &mut p[dims.p_at(s, h)..][..padded];
                        let local = (s - first) * padded;
                        let pe = &mut pe_block[local..local + padded];
                        // Only keys from..to are read below (P is 0 before `from`).
                        pe[from..to].fill(0.0);
                        let Some((lo, hi)) = rows.span(r) else {
                            row[from..to].fill(0.0); // no key: weights stay 0
                            continue;
                        };
                        if let Some((weights, taps)) = conv {
                            for j in band(i, taps, lo, hi) {
                                row[j] = weights[h * taps + i - j];
                            }
                        } else if uniform {
                            uniform_row(&rows.keep[r * padded + lo..r * padded + hi], &mut row[lo..hi]);
                        } else {
                            softmax_row(inputs, &rows, (h, i, r), factor, (from, to), row);
                        }
                        let keep = &rows.keep[r * padded..][..padded];
                        pe[lo..hi].iter_mut().zip(&row[lo..hi]).zip(&keep[lo..hi]).for_each(|((e, p), k)| *e = p * k);
                    }
                    // context = (P ⊙ keep) V over the keys that exist (P is 0 before `from`).
                    let keys = to.min(seq);
                    let pe = &pe_block[(top - first) * padded + from..];
                    block_product((&mut context[top * d + h * dk..], d), pe, (padded, 1), (&v[(b * seq + from) * d + h * dk..], d), (bottom - top, keys - from, dk), false);
                }
            }
        }
    }
}

/// Queries per block of attention's products: a block computes the keys its
/// queries see (`group_keys`).
const BLOCK_ROWS: usize = 16;

/// A group's queries `first..end` in blocks of `BLOCK_ROWS`: `(top, bottom)`.
#[inline(always)]
fn query_blocks(first: usize, end: usize) -> impl Iterator<Item = (usize, usize)> {
    (first..end).step_by(BLOCK_ROWS).map(move |top| (top, (top + BLOCK_ROWS).min(end)))
}

/// The keys the queries `first..end` of sample `b` compute, in whole blocks of 8:
/// `(from, to)`, from the first block of 8 any of them sees to the end of the
/// last (`(0, 0)` when none sees a key): a sliding window's blocks cover a band
/// along the diagonal.
#[inline(always)]
fn group_keys(rows: &MaskRows, queries: &[usize], (b, first, end): (usize, usize, usize), dims: Dims, application: MaskApplication) -> (usize, usize) {
    (first..end)
        .filter_map(|s| rows.span(rows.row(b, queries[s] % dims.seq, dims.seq)))
        .map(|(lo, hi)| block_range(lo, hi, dims, application))
        .reduce(|(from, to), (start, end)| (from.min(start), to.max(end)))
        .unwrap_or((0, 0))
}

/// The keys a convolution's query `i` reads within the visible span `lo..hi`:
/// `i - taps + 1 ..= i`.
#[inline(always)]
fn band(i: usize, taps: usize, lo: usize, hi: usize) -> std::ops::Range<usize> {
    lo.max((i + 1).saturating_sub(taps))..hi.min(i + 1)
}

/// 1/count on the visible keys of a row (`keep` holds 1/0), as `KeepMask::uniform_weights`.
#[inline(always)]
fn uniform_row(keep: &[f32], row: &mut [f32]) {
    let count = keep.iter().filter(|k| **k != 0.0).count();
    let w = 1.0 / count as f32; // the span holds at least one visible key
    row.iter_mut().zip(keep).for_each(|(p, k)| *p = if *k != 0.0 { w } else { 0.0 });
}

/// Query `i` (mask row `r`) of head `h`: its scores `Q Kᵀ` in `row[from..to]`
/// (`[padded]`) become its softmax weights over the blocks it computes (scaled, less
/// ALiBi's penalty, masked), 0 elsewhere in `from..to`.
#[inline(always)]
fn softmax_row(inputs: &CoreInputs, rows: &MaskRows, (h, i, r): (usize, usize, usize), factor: f32, (from, to): (usize, usize), row: &mut [f32]) {
    let CoreInputs { dims, application, alibi, .. } = *inputs;
    let (seq, padded) = (dims.seq, dims.padded());
    let Some((lo, hi)) = rows.span(r) else { return };
    let (start, end) = block_range(lo, hi, dims, application);
    row[from..start].fill(0.0);
    row[end..to].fill(0.0);
    let scores = &mut row[start..end];
    if factor != 1.0 {
        scores.iter_mut().for_each(|s| *s *= factor);
    }
    if let Some(slopes) = alibi {
        let m = slopes[h];
        for (j, score) in (start..end.min(seq)).zip(scores.iter_mut()) {
            *score -= m * i.abs_diff(j) as f32;
        }
    }
    // Keys that take no part get -inf, so exactly 0 after the softmax.
    mul_add_blocks(scores, None, Some(&rows.bias[r * padded + start..r * padded + end]));
    softmax_blocks(scores);
}

simd_fn! {
    /// Gradients of q (`[queries, d_model]`) and k, v (`[rows·seq, d_model]`), arriving
    /// zeroed, from the context's (`[queries, d_model]`).
    fn backward(inputs: &CoreInputs, cache: &CoreCache, d_context: &[f32], dq: &mut [f32], dk_out: &mut [f32], dv: &mut [f32], dconv: &mut [f32]) {
        let CoreInputs { q, k, mask, dims, queries, scale, application, ablated, uniform, conv, .. } = *inputs;
        let fixed = inputs.fixed();
        let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
        let factor = if scale { 1.0 / (dk as f32).sqrt() } else { 1.0 };
        let mut vt_all = Buf::filled(d * padded, 0.0);
        // Per (sample, head): dS and P ⊙ keep of its queries, `[queries of b, padded]`
        // (each block of queries filling its rows up to the keys it computes).
        let (mut ds_block, mut pe_block) = (Buf::filled(seq * padded, 0.0), Buf::filled(seq * padded, 0.0));
        let rows = MaskRows::new(mask, dims, application);
        for (b, first, end) in groups(queries, seq) {
            if !uniform {
                row_transposed(inputs.v, dims, b, &mut vt_all); // dP needs it (also the convolution's)
            }
            for h in 0..dims.heads {
                if ablated.contains(&h) {
                    continue; // zeroed output: no gradient reaches Q, K or V
                }
                let at = b * seq * d + h * dk;
                for (top, bottom) in query_blocks(first, end) {
                    let (from, to) = group_keys(&rows, queries, (b, top, bottom), dims, application);
                    let (keys, count) = (to.min(seq), bottom - top);
                    let block_at = (top - first) * padded; // the block's first row in ds_block and pe_block
                    let dctx = &d_context[top * d + h * dk..];
                    if !uniform {
                        // dP = dcontext · Vᵀ for the block's queries.
                        let vt = &vt_all[h * dk * padded..][..dk * padded];
                        block_product((&mut ds_block[block_at + from..], padded), dctx, (d, 1), (&vt[from..], padded), (count, dk, to - from), false);
                    }
                    for s in top..bottom {
                        let i = queries[s] % seq;
                        let r = rows.row(b, i, seq);
                        let local = (s - first) * padded;
                        // Only keys from..to are read below.
                        let (pe, ds) = (&mut pe_block[local..local + to], &mut ds_block[local..local + to]);
                        let Some((lo, hi)) = rows.span(r) else {
                            pe[from..].fill(0.0);
                            ds[from..].fill(0.0); // zero weights, zero gradient
                            continue;
                        };
                        let (start, stop) = block_range(lo, hi, dims, application);
                        let p = &cache.p[dims.p_at(s, h)..][..padded];
                        let keep = &rows.keep[r * padded..][..padded];
                        pe[from..start].fill(0.0);
                        pe[stop..].fill(0.0);
                        product_blocks(&mut pe[start..stop], &p[start..stop], &keep[start..stop]);
                        if uniform {
                            continue; // fixed weights: only V gets a gradient
                        }
                        // Only through visible keys (the context used the weights P ⊙ keep).
                        ds[from..start].fill(0.0);
                        ds[stop..].fill(0.0);
                        let dp = &mut ds[start..stop];
                        mul_add_blocks(dp, Some(&keep[start..stop]), None);
                        if let Some((_, taps)) = conv {
                            // Each weight's gradient sums dP over the cells it filled;
                            // nothing reaches Q or K, so dS stays 0.
                            for j in band(i, taps, lo, hi) {
                                dconv[h * taps + i - j] += ds[j];
                            }
                            ds[start..stop].fill(0.0);
                            continue;
                        }
                        // Softmax backward: dS = P ⊙ (dP - Σ P dP), then the scaling.
                        let dot = dot_blocks(&p[start..stop], dp);
                        for (g, &pj) in dp.iter_mut().zip(&p[start..stop]) {
                            *g = pj * (*g - dot) * factor;
                        }
                    }
                    if !fixed {
                        // dQ = dS K; dK += dSᵀ Q (each key sums its queries in their
                        // order, block by block).
                        // (dS is 0 before `from`: those keys get nothing.)
                        block_product((&mut dq[top * d + h * dk..], d), &ds_block[block_at + from..], (padded, 1), (&k[at + from * d..], d), (count, keys - from, dk), false);
                        block_product((&mut dk_out[at + from * d..], d), &ds_block[block_at + from..], (1, padded), (&q[top * d + h * dk..], d), (keys - from, count, dk), true);
                    }
                    // dV += (P ⊙ keep)ᵀ dcontext.
                    block_product((&mut dv[at + from * d..], d), &pe_block[block_at + from..], (1, padded), (dctx, d), (keys - from, count, dk), true);
                }
            }
        }
    }
}
