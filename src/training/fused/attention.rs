//! The attention core of the fused step for one chunk of rows: from Q, K, V
//! (`[rows·seq, d_model]`, heads side by side) to the context, and back.
//!
//! Per (row, head): S = QKᵀ (÷ √d_k when scaling), P = softmax over the visible keys
//! (or over all keys, then × keep, for `MultiplyAfterSoftmax`), context = (P ⊙ keep) V.
//! A row with no visible key gets P = 0 (as the composed model defines it).
//! Loops run over keys in the innermost position, in blocks of 8 (one AVX2
//! register): K and V are transposed per head into rows padded to a multiple of 8,
//! and a row of scores covers only the blocks that hold its visible keys (a causal
//! row i computes keys 0..=i rounded up to the block).

use super::kernels::exp;
use super::simd::simd_fn;
use super::scratch::Buf;
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
    fn d_k(&self) -> usize {
        self.d_model / self.heads
    }
    /// Keys per row of scores: `seq` rounded up to a block of 8.
    fn padded(&self) -> usize {
        self.seq.div_ceil(8) * 8
    }
    /// Offset of query `s` (its index in the query list), head `h` in a
    /// `[queries, heads, padded]` buffer.
    #[inline(always)]
    fn p_at(&self, s: usize, h: usize) -> usize {
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

/// Copy head `h` of row `b` of `x` (`[rows·seq, d_model]`) transposed into `out`
/// (`[d_k, padded]`; the padding stays 0).
#[inline(always)]
fn head_transposed(x: &[f32], dims: Dims, b: usize, h: usize, out: &mut [f32]) {
    let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
    for j in 0..seq {
        let src = &x[(b * seq + j) * d + h * dk..][..dk];
        for (c, &v) in src.iter().enumerate() {
            out[c * padded + j] = v;
        }
    }
}

/// First visible key and one past the last, or None when the row sees none.
#[inline(always)]
fn span(keep: &[bool]) -> Option<(usize, usize)> {
    let lo = keep.iter().position(|k| *k)?;
    let hi = keep.iter().rposition(|k| *k)? + 1;
    Some((lo, hi))
}

/// A layer's mask prepared for the loops, per mask row (`[mask_batch, seq]` rows):
/// the span of visible keys, an additive bias over the padded keys (0 where the key
/// takes part in the softmax, -inf elsewhere) and the keep-mask as 1/0.
struct MaskRows {
    /// Per mask row: its span, or `NO_KEY`.
    spans: Buf<(usize, usize)>,
    /// `[mask_batch, seq, padded]`
    bias: Buf<f32>,
    /// `[mask_batch, seq, padded]`
    keep: Buf<f32>,
    batch: usize,
}

/// The span of a row that sees no key.
const NO_KEY: (usize, usize) = (usize::MAX, 0);

impl MaskRows {
    fn new(mask: &KeepMask, dims: Dims, application: MaskApplication) -> Self {
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
    fn span(&self, r: usize) -> Option<(usize, usize)> {
        Some(self.spans[r]).filter(|s| *s != NO_KEY)
    }

    /// Index of row `b`'s query `i` among the mask rows.
    #[inline(always)]
    fn row(&self, b: usize, i: usize, seq: usize) -> usize {
        (if self.batch == 1 { 0 } else { b }) * seq + i
    }
}

/// The keys a row's scores are computed for, in whole blocks of 8: the blocks
/// holding the visible keys, or every key for after-softmax masking.
#[inline(always)]
fn block_range(lo: usize, hi: usize, dims: Dims, application: MaskApplication) -> (usize, usize) {
    if application == MaskApplication::MultiplyAfterSoftmax {
        (0, dims.padded())
    } else {
        (lo / 8 * 8, hi.div_ceil(8) * 8)
    }
}

/// `y += alpha * x` in blocks of 8 (any length; the tail runs one by one). Each
/// block is loaded whole before it is stored, so it compiles to one vector op.
#[inline(always)]
fn axpy(y: &mut [f32], alpha: f32, x: &[f32]) {
    let mut ys = y.chunks_exact_mut(8);
    let mut xs = x.chunks_exact(8);
    for (yb, xb) in (&mut ys).zip(&mut xs) {
        let xv: [f32; 8] = xb.try_into().expect("a block of 8");
        let mut yv: [f32; 8] = (&*yb).try_into().expect("a block of 8");
        for l in 0..8 {
            yv[l] += alpha * xv[l];
        }
        yb.copy_from_slice(&yv);
    }
    for (y, &x) in ys.into_remainder().iter_mut().zip(xs.remainder()) {
        *y += alpha * x;
    }
}

/// `out[o] = factor · Σ_c x[c] · t[c, start + o]` for a transposed head `t`
/// (`[d_k, padded]`), one block of 8 keys at a time with the sum in a register (the
/// same order of additions as one pass per c).
#[inline(always)]
fn blocked_products(out: &mut [f32], x: &[f32], factor: f32, t: &[f32], padded: usize, start: usize) {
    for (o, block) in out.chunks_exact_mut(8).enumerate() {
        let at = start + o * 8;
        let mut acc = [0.0f32; 8];
        for (c, &xc) in x.iter().enumerate() {
            let xc = xc * factor;
            let tv: [f32; 8] = t[c * padded + at..c * padded + at + 8].try_into().expect("a block of 8");
            for l in 0..8 {
                acc[l] += xc * tv[l];
            }
        }
        block.copy_from_slice(&acc);
    }
}

/// `out += Σ w · base[at..at + dk]` over `terms` of (w, at). With `DK` = `dk` known
/// at compile time (the common 16) the sum stays in registers; `DK` = 0 is any width.
#[inline(always)]
fn weighted_rows<const DK: usize>(dk: usize, terms: impl Iterator<Item = (f32, usize)>, base: &[f32], out: &mut [f32]) {
    if DK > 0 {
        let mut acc = [0.0f32; DK];
        for (w, at) in terms {
            let row: &[f32; DK] = base[at..at + DK].try_into().expect("a row of DK");
            for l in 0..DK {
                acc[l] += w * row[l];
            }
        }
        out[..DK].iter_mut().zip(acc).for_each(|(o, a)| *o += a);
    } else {
        for (w, at) in terms {
            axpy(out, w, &base[at..at + dk]);
        }
    }
}

/// `y = y ⊙ m + a` elementwise over blocks of 8 (lengths are multiples of 8).
#[inline(always)]
fn mul_add_blocks(y: &mut [f32], m: Option<&[f32]>, a: Option<&[f32]>) {
    for (o, yb) in y.chunks_exact_mut(8).enumerate() {
        let mut yv: [f32; 8] = (&*yb).try_into().expect("a block of 8");
        if let Some(m) = m {
            let mv: [f32; 8] = m[o * 8..o * 8 + 8].try_into().expect("a block of 8");
            for l in 0..8 {
                yv[l] *= mv[l];
            }
        }
        if let Some(a) = a {
            let av: [f32; 8] = a[o * 8..o * 8 + 8].try_into().expect("a block of 8");
            for l in 0..8 {
                yv[l] += av[l];
            }
        }
        yb.copy_from_slice(&yv);
    }
}

/// Σ a·b over blocks of 8 with 8 running sums (lengths are multiples of 8).
#[inline(always)]
fn dot_blocks(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    for (ab, bb) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (av, bv): ([f32; 8], [f32; 8]) = (ab.try_into().expect("block"), bb.try_into().expect("block"));
        for l in 0..8 {
            acc[l] += av[l] * bv[l];
        }
    }
    acc.iter().sum()
}

/// Softmax of a row of scores in place (blocks of 8; -inf entries become 0).
#[inline(always)]
fn softmax_blocks(scores: &mut [f32]) {
    let mut maxes = [f32::NEG_INFINITY; 8];
    for sb in scores.chunks_exact(8) {
        for l in 0..8 {
            maxes[l] = maxes[l].max(sb[l]);
        }
    }
    let max = maxes.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sums = [0.0f32; 8];
    for sb in scores.chunks_exact_mut(8) {
        let mut sv: [f32; 8] = (&*sb).try_into().expect("a block of 8");
        for l in 0..8 {
            sv[l] = exp(sv[l] - max);
            sums[l] += sv[l];
        }
        sb.copy_from_slice(&sv);
    }
    let inv = 1.0 / sums.iter().sum::<f32>();
    scores.iter_mut().for_each(|s| *s *= inv);
}

/// What the attention core reads, forward and backward: q (`[queries, d_model]`),
/// k and v (`[rows·seq, d_model]`), the layer's mask and knobs, and `queries`, the
/// chunk positions whose output is needed (every position, or only the scored ones
/// in the last attention layer).
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
        let CoreInputs { k, v, mask, dims, queries, scale, application, ablated, uniform, conv, .. } = *inputs;
        let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
        let factor = if scale { 1.0 / (dk as f32).sqrt() } else { 1.0 };
        let mut kt = Buf::filled(dk * padded, 0.0);
        let rows = MaskRows::new(mask, dims, application);
        for (b, first, end) in groups(queries, seq) {
            for h in 0..dims.heads {
                if ablated.contains(&h) {
                    continue; // its output is zeroed, so nothing downstream reads P
                }
                if !inputs.fixed() {
                    head_transposed(k, dims, b, h, &mut kt);
                }
                for s in first..end {
                    let i = queries[s] % seq;
                    let r = rows.row(b, i, seq);
                    let Some((lo, hi)) = rows.span(r) else { continue }; // no key: weights stay 0
                    let row = &mut p[dims.p_at(s, h)..][..padded];
                    if let Some((weights, taps)) = conv {
                        for j in band(i, taps, lo, hi) {
                            row[j] = weights[h * taps + i - j];
                        }
                    } else if uniform {
                        uniform_row(&rows.keep[r * padded + lo..r * padded + hi], &mut row[lo..hi]);
                    } else {
                        softmax_row(inputs, &rows, (s, h, i, r), factor, &kt, row);
                    }
                    let keep = &rows.keep[r * padded..][..padded];
                    let row = &row[..];
                    let terms = (lo..hi).map(|j| (row[j] * keep[j], (b * seq + j) * d + h * dk));
                    let ctx = &mut context[s * d + h * dk..][..dk];
                    if dk == 16 {
                        weighted_rows::<16>(dk, terms, v, ctx);
                    } else {
                        weighted_rows::<0>(dk, terms, v, ctx);
                    }
                }
            }
        }
    }
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

/// Query `s` (position `i`, mask row `r`) of head `h`: its scores over the
/// computed blocks (keys from the transposed head `kt`), then their softmax, into
/// `row` (`[padded]`).
#[inline(always)]
fn softmax_row(inputs: &CoreInputs, rows: &MaskRows, (s, h, i, r): (usize, usize, usize, usize), factor: f32, kt: &[f32], row: &mut [f32]) {
    let CoreInputs { q, dims, application, alibi, .. } = *inputs;
    let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
    let Some((lo, hi)) = rows.span(r) else { return };
    let (start, end) = block_range(lo, hi, dims, application);
    let scores = &mut row[start..end];
    blocked_products(scores, &q[s * d + h * dk..][..dk], factor, kt, padded, start);
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
        let CoreInputs { q, k, v, mask, dims, queries, scale, application, ablated, uniform, conv, .. } = *inputs;
        let fixed = inputs.fixed();
        let (seq, d, dk, padded) = (dims.seq, dims.d_model, dims.d_k(), dims.padded());
        let factor = if scale { 1.0 / (dk as f32).sqrt() } else { 1.0 };
        let mut vt = Buf::filled(dk * padded, 0.0);
        // Per (sample, head): dS and P ⊙ keep of its queries, `[queries of b, padded]`.
        let (mut ds_block, mut pe_block) = (Buf::filled(seq * padded, 0.0), Buf::filled(seq * padded, 0.0));
        // Per query of the block: the keys its row computed (empty when none).
        let mut computed = Buf::filled(seq, (0usize, 0usize));
        let rows = MaskRows::new(mask, dims, application);
        for (b, first, end) in groups(queries, seq) {
            for h in 0..dims.heads {
                if ablated.contains(&h) {
                    continue; // zeroed output: no gradient reaches Q, K or V
                }
                if !uniform {
                    head_transposed(v, dims, b, h, &mut vt); // dP needs it (also the convolution's)
                }
                ds_block[..(end - first) * padded].fill(0.0);
                pe_block[..(end - first) * padded].fill(0.0);
                computed[..end - first].fill((0, 0));
                // Pass 1, query by query: dS, and dQ = dS K.
                for s in first..end {
                    let i = queries[s] % seq;
                    let r = rows.row(b, i, seq);
                    let Some((lo, hi)) = rows.span(r) else { continue }; // zero weights, zero gradient
                    let (start, stop) = block_range(lo, hi, dims, application);
                    let p = &cache.p[dims.p_at(s, h)..][..padded];
                    let keep = &rows.keep[r * padded..][..padded];
                    let dctx = &d_context[s * d + h * dk..][..dk];
                    let local = (s - first) * padded;
                    computed[s - first] = (start, stop);
                    let pe = &mut pe_block[local + start..local + stop];
                    pe.copy_from_slice(&p[start..stop]);
                    mul_add_blocks(pe, Some(&keep[start..stop]), None);
                    if uniform {
                        continue; // fixed weights: only V gets a gradient
                    }
                    // dP = dcontext · Vᵀ, only through visible keys (the context used
                    // the weights P ⊙ keep).
                    let dp = &mut ds_block[local + start..local + stop];
                    blocked_products(dp, dctx, 1.0, &vt, padded, start);
                    mul_add_blocks(dp, Some(&keep[start..stop]), None);
                    if let Some((_, taps)) = conv {
                        // Each weight's gradient sums dP over the cells it filled;
                        // nothing reaches Q or K, so dS stays 0.
                        for j in band(i, taps, lo, hi) {
                            dconv[h * taps + i - j] += ds_block[local + j];
                        }
                        ds_block[local + start..local + stop].fill(0.0);
                        continue;
                    }
                    // Softmax backward: dS = P ⊙ (dP - Σ P dP), then the scaling.
                    let dot = dot_blocks(&p[start..stop], dp);
                    for (g, &pj) in dp.iter_mut().zip(&p[start..stop]) {
                        *g = pj * (*g - dot) * factor;
                    }
                    let ds = &ds_block[local..local + padded];
                    let terms = (start..stop.min(seq)).map(|j| (ds[j], (b * seq + j) * d + h * dk));
                    let dq_s = &mut dq[s * d + h * dk..][..dk];
                    if dk == 16 {
                        weighted_rows::<16>(dk, terms, k, dq_s);
                    } else {
                        weighted_rows::<0>(dk, terms, k, dq_s);
                    }
                }
                // Pass 2, key by key: dK = dSᵀ Q and dV = (P ⊙ keep)ᵀ dcontext.
                // Only the queries whose row computed key j contribute (a causal
                // block: the queries at or after j).
                for j in 0..seq {
                    let at = (b * seq + j) * d + h * dk;
                    let reaches = |s: &usize| {
                        let (start, stop) = computed[*s - first];
                        start <= j && j < stop
                    };
                    let ds_terms = (first..end).filter(reaches).map(|s| (ds_block[(s - first) * padded + j], s * d + h * dk));
                    let pe_terms = (first..end).filter(reaches).map(|s| (pe_block[(s - first) * padded + j], s * d + h * dk));
                    if dk == 16 {
                        weighted_rows::<16>(dk, pe_terms, d_context, &mut dv[at..at + dk]);
                    } else {
                        weighted_rows::<0>(dk, pe_terms, d_context, &mut dv[at..at + dk]);
                    }
                    if fixed {
                        continue;
                    }
                    if dk == 16 {
                        weighted_rows::<16>(dk, ds_terms, q, &mut dk_out[at..at + dk]);
                    } else {
                        weighted_rows::<0>(dk, ds_terms, q, &mut dk_out[at..at + dk]);
                    }
                }
            }
        }
    }
}
