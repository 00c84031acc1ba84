//! Loops over a row of keys in blocks of 8 (one AVX2 register), inlined into the
//! attention loops of each SIMD tier: masks, sums and the softmax.

use super::kernels::exp;

/// `y = y ⊙ m + a` elementwise over blocks of 8 (lengths are multiples of 8).
#[inline(always)]
pub(super) fn mul_add_blocks(y: &mut [f32], m: Option<&[f32]>, a: Option<&[f32]>) {
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

/// `out = a ⊙ b` elementwise over blocks of 8 (lengths are multiples of 8): one
/// pass, where a copy then `mul_add_blocks` would call `memmove` per short row.
#[inline(always)]
pub(super) fn product_blocks(out: &mut [f32], a: &[f32], b: &[f32]) {
    debug_assert!(out.len() == a.len() && a.len() == b.len() && out.len().is_multiple_of(8), "whole blocks of 8, one length");
    for ((ob, ab), bb) in out.chunks_exact_mut(8).zip(a.chunks_exact(8)).zip(b.chunks_exact(8)) {
        let (av, bv): ([f32; 8], [f32; 8]) = (ab.try_into().expect("a block of 8"), bb.try_into().expect("a block of 8"));
        let mut ov = [0.0f32; 8];
        for l in 0..8 {
            ov[l] = av[l] * bv[l];
        }
        ob.copy_from_slice(&ov);
    }
}

/// Σ a·b over blocks of 8 with 8 running sums (lengths are multiples of 8).
#[inline(always)]
pub(super) fn dot_blocks(a: &[f32], b: &[f32]) -> f32 {
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
pub(super) fn softmax_blocks(scores: &mut [f32]) {
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
