//! Loops over a row of keys in blocks of 8 (one AVX2 register), inlined into the
//! attention loops of each SIMD tier: products, sums and the softmax.

use super::kernels::exp;

/// `y += alpha * x` in blocks of 8 (any length; the tail runs one by one). Each
/// block is loaded whole before it is stored, so it compiles to one vector op.
#[inline(always)]
pub(super) fn axpy(y: &mut [f32], alpha: f32, x: &[f32]) {
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
pub(super) fn blocked_products(out: &mut [f32], x: &[f32], factor: f32, t: &[f32], padded: usize, start: usize) {
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
pub(super) fn weighted_rows<const DK: usize>(dk: usize, terms: impl Iterator<Item = (f32, usize)>, base: &[f32], out: &mut [f32]) {
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

/// `out += w · row`: with the common head width 16 the row is one register.
#[inline(always)]
pub(super) fn add_scaled(out: &mut [f32], w: f32, row: &[f32]) {
    if let (Ok(out), Ok(row)) = (<&mut [f32; 16]>::try_from(&mut *out), <&[f32; 16]>::try_from(row)) {
        for l in 0..16 {
            out[l] += w * row[l];
        }
    } else {
        axpy(out, w, row);
    }
}

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
