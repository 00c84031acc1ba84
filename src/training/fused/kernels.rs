//! The numeric building blocks of the fused CPU step, on plain row-major slices:
//! matrix products (the `gemm` crate burn-flex already uses), LayerNorm, GELU and
//! the exponential. Element-wise loops are compiled three times, for AVX-512, for
//! AVX2 + FMA and for any CPU, and the widest the CPU has is chosen at run time,
//! so they vectorise without asking the user to build for their CPU.

use super::scratch::Buf;
use super::simd::simd_fn;


/// `c = (accumulate ? c : 0) + op(a) · op(b)` with `op(a)`: `[m, k]` and `op(b)`:
/// `[k, n]`. `a` is stored `[m, k]`, or `[k, m]` when `a_t`; `b` is stored `[k, n]`,
/// or `[n, k]` when `b_t`; `c` is `[m, n]`. Single-threaded: the caller splits work
/// into fixed chunks, so results never depend on the thread count.
pub fn matmul(c: &mut [f32], a: &[f32], b: &[f32], (m, k, n): (usize, usize, usize), a_t: bool, b_t: bool, accumulate: bool) {
    assert!(c.len() >= m * n, "matmul: output too short");
    if k == 0 {
        if !accumulate {
            c[..m * n].fill(0.0);
        }
        return;
    }
    // SAFETY: `c` holds at least m·n elements (asserted above).
    unsafe { gemm_into(c.as_mut_ptr(), a, b, (m, k, n), a_t, b_t, accumulate) }
}

/// `op(a) · op(b)` as a new `[m, n]` buffer, written once (not zeroed first on
/// x86-64).
pub fn matmul_new(a: &[f32], b: &[f32], (m, k, n): (usize, usize, usize), a_t: bool, b_t: bool) -> Buf<f32> {
    let len = m.checked_mul(n).expect("matmul: output size overflows");
    if k == 0 || len == 0 || !cfg!(target_arch = "x86_64") {
        // Elsewhere gemm may have kernels (Apple AMX) that read the destination.
        let mut c = Buf::filled(len, 0.0);
        matmul(&mut c, a, b, (m, k, n), a_t, b_t, false);
        return c;
    }
    let mut c = Buf::with_capacity(len);
    // SAFETY: the capacity is m·n. On x86-64, gemm 0.19 (pinned) with `accumulate`
    // false forces alpha to 0, and its x86 kernels (and gemv/gevv) then only store
    // into the destination, every element of the [m, n] block, never loading it; so
    // all m·n values are set before `set_len`. A gemm upgrade must re-check this.
    // The crate's own products store every tile without reading it (`tiled`).
    unsafe {
        gemm_into(c.as_mut_ptr(), a, b, (m, k, n), a_t, b_t, false);
        c.set_len(len);
    }
    c
}

thread_local! {
    /// A transposed right-hand side for the crate's own products, reused per thread.
    static TRANSPOSED: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `x · w + bias` as a new `[m, n]` buffer (`x`: `[m, k]`, `w`: `[k, n]`, `bias`:
/// `[n]`): the crate's own products (`tiled`) add the bias as they store each tile;
/// otherwise the product accumulates onto the bias copied to every row. The same
/// bits both ways (bias + the finished sum).
pub fn affine_new(x: &[f32], w: &[f32], bias: &[f32], (m, k, n): (usize, usize, usize)) -> Buf<f32> {
    assert!(x.len() >= m * k && w.len() >= k * n && bias.len() >= n, "affine: inputs too short");
    #[cfg(target_arch = "x86_64")]
    if super::tiled::tiled() && m * n > 0 {
        let mut c = Buf::with_capacity(m * n);
        // SAFETY: `tiled()` holds; the assert bounds the inputs; the capacity is
        // m·n, and without accumulating the kernel writes every value of c (and
        // reads none) before `set_len`.
        unsafe {
            super::tiled::matmul_layer((c.as_mut_ptr(), n), x, (k, 1), (w, n), Some(bias), (m, k, n), false);
            c.set_len(m * n);
        }
        return c;
    }
    let mut c = Buf::with_capacity(m * n);
    for _ in 0..m {
        c.extend_from_slice(&bias[..n]);
    }
    matmul(&mut c, x, w, (m, k, n), false, false, true);
    c
}

/// # Safety
/// `c` must be valid for writes (and, when `accumulate`, reads) of m·n elements.
unsafe fn gemm_into(c: *mut f32, a: &[f32], b: &[f32], (m, k, n): (usize, usize, usize), a_t: bool, b_t: bool, accumulate: bool) {
    assert!(a.len() >= m * k && b.len() >= k * n, "matmul: inputs too short");
    if m == 0 || n == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if super::tiled::tiled() {
        let a_stride = if a_t { (1, m) } else { (k, 1) };
        // SAFETY: `tiled()` holds; the assert above bounds `a` and `b`; the caller
        // vouches for `c`.
        unsafe {
            if b_t {
                // B stored [n, k]: read it row-major [k, n] from a per-thread copy.
                TRANSPOSED.with_borrow_mut(|t| {
                    t.clear();
                    t.resize(k * n, 0.0);
                    super::transpose::transpose_matrix(&b[..n * k], n, k, t);
                    super::tiled::matmul_layer((c, n), a, a_stride, (t, n), None, (m, k, n), accumulate)
                });
            } else {
                super::tiled::matmul_layer((c, n), a, a_stride, (b, n), None, (m, k, n), accumulate);
            }
        }
        return;
    }
    let (a_rs, a_cs) = if a_t { (1, m as isize) } else { (k as isize, 1) };
    let (b_rs, b_cs) = if b_t { (1, k as isize) } else { (n as isize, 1) };
    // SAFETY: the assert keeps every index gemm reads inside `a` and `b` (rows and
    // columns times strides stay below m·k and k·n); the caller vouches for `c`.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c,
            1,
            n as isize,
            accumulate,
            a.as_ptr(),
            a_cs,
            a_rs,
            b.as_ptr(),
            b_cs,
            b_rs,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
}


/// e^x for f32 (Cephes' polynomial, about 1 ulp), written so loops over it
/// vectorise. Below about -87.3 it returns exactly 0, so exp(-inf) = 0.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let x = x.clamp(-88.0, 88.37);
    let fx = (x * std::f32::consts::LOG2_E + 0.5).floor();
    let r = x - fx * 0.693_359_375 + fx * 2.121_944_4e-4;
    let z = r * r;
    let p = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2) * r + 1.666_666_5e-1) * r + 5.000_000_1e-1;
    let y = p * z + r + 1.0;
    // 2^fx through the exponent bits; fx = -127 gives 0. fx + 127 is a whole number
    // in 0..=254 here, read off the mantissa of fx + 127 + 2^23 (a float-to-int
    // cast would not vectorise).
    const MAGIC: f32 = 8_388_608.0; // 2^23
    let biased = (fx + 127.0 + MAGIC).to_bits() - MAGIC.to_bits();
    y * f32::from_bits(biased << 23)
}

/// erf(x) for f32 (a rational fit, within a few ulp), vectorisable.
#[inline(always)]
pub fn erf(x: f32) -> f32 {
    let x = x.clamp(-3.832_506_8, 3.832_506_8);
    let x2 = x * x;
    let mut p = x2 * 2.290_506_5e-4 + 3.408_291e-3;
    p = x2 * p + 5.095_569_6e-2;
    p = x2 * p + 1.852_083_2e-1;
    p = x2 * p + 1.128_379_1;
    p *= x;
    let mut q = x2 * -1.179_160_3e-7 + 2.354_796_6e-5;
    q = x2 * q + 1.017_962_5e-3;
    q = x2 * q + 1.407_047_1e-2;
    q = x2 * q + 1.109_850_5e-1;
    q = x2 * q + 4.974_692_5e-1;
    q = x2 * q + 1.0;
    (p / q).clamp(-1.0, 1.0)
}

/// Exact GELU: returns `(x Φ(x), Φ(x))`; the backward pass reuses Φ(x).
pub fn gelu_forward(pre: &[f32]) -> (Buf<f32>, Buf<f32>) {
    let (mut act, mut cdf) = (Buf::with_capacity(pre.len()), Buf::with_capacity(pre.len()));
    gelu_into(pre, &mut act, &mut cdf);
    (act, cdf)
}

simd_fn! {
    /// Writes Φ(x) into `cdf` and x Φ(x) into `act` (both empty, with capacity for
    /// `pre.len()`), without zeroing them first.
    fn gelu_into(pre: &[f32], act: &mut Vec<f32>, cdf: &mut Vec<f32>) {
        assert!(act.is_empty() && cdf.is_empty() && act.capacity() >= pre.len() && cdf.capacity() >= pre.len());
        for ((a, c), &x) in act.spare_capacity_mut().iter_mut().zip(cdf.spare_capacity_mut().iter_mut()).zip(pre) {
            let phi = 0.5 * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2));
            c.write(phi);
            a.write(x * phi);
        }
        // SAFETY: the loop above wrote the first pre.len() slots of both (asserted
        // to exist).
        unsafe {
            act.set_len(pre.len());
            cdf.set_len(pre.len());
        }
    }
}

simd_fn! {
    /// `grad *= GELU'(pre)` with GELU'(x) = Φ(x) + x φ(x); `cdf` is Φ(pre).
    fn gelu_backward(pre: &[f32], cdf: &[f32], grad: &mut [f32]) {
        const INV_SQRT_2PI: f32 = 0.398_942_3;
        for ((g, &x), &cdf) in grad.iter_mut().zip(pre).zip(cdf) {
            let pdf = INV_SQRT_2PI * exp(-0.5 * x * x);
            *g *= cdf + x * pdf;
        }
    }
}

/// GELU by its tanh approximation (GPT-2's): returns `(0.5 x (1 + t), t)` with
/// t = tanh(√(2/π) (x + 0.044715 x³)); the backward pass reuses t.
pub fn gelu_tanh_forward(pre: &[f32]) -> (Buf<f32>, Buf<f32>) {
    let t = Buf::collect(pre.iter().map(|&x| (GELU_TANH_C * (x + 0.044_715 * x * x * x)).tanh()));
    let act = Buf::collect(pre.iter().zip(t.iter()).map(|(&x, &t)| 0.5 * x * (1.0 + t)));
    (act, t)
}

/// `grad *= d/dx [0.5 x (1 + t)]` = 0.5 (1 + t) + 0.5 x (1 − t²) √(2/π) (1 + 3 · 0.044715 x²).
pub fn gelu_tanh_backward(pre: &[f32], t: &[f32], grad: &mut [f32]) {
    for ((g, &x), &t) in grad.iter_mut().zip(pre).zip(t) {
        *g *= 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_TANH_C * (1.0 + 3.0 * 0.044_715 * x * x);
    }
}

/// √(2/π).
const GELU_TANH_C: f32 = 0.797_884_6;

/// Σ of a slice with 8 running sums, so it vectorises.
#[inline(always)]
pub(super) fn sum8(x: &[f32]) -> f32 {
    sum8_of(x, |v| v)
}

/// Σ f(x_i) in `sum8`'s order (8 running sums, then the tail), so it vectorises
/// without storing f(x) first.
#[inline(always)]
pub(super) fn sum8_of(x: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut acc = [0.0f32; 8];
    let mut blocks = x.chunks_exact(8);
    for b in &mut blocks {
        for l in 0..8 {
            acc[l] += f(b[l]);
        }
    }
    acc.iter().sum::<f32>() + blocks.remainder().iter().map(|&v| f(v)).sum::<f32>()
}

/// Σ a·b with 8 running sums.
#[inline(always)]
fn dot8(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (mut ab, mut bb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ab).zip(&mut bb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    acc.iter().sum::<f32>() + ab.remainder().iter().zip(bb.remainder()).map(|(x, y)| x * y).sum::<f32>()
}

simd_fn! {
    /// One LayerNorm over rows of width `d`: `y = x̂ γ + β` with `x̂ = (x - mean) / √(var + ε)`
    /// (biased variance, as burn). Keeps `x̂` and `1/√(var + ε)` per row.
    fn layer_norm_forward(x: &[f32], d: usize, eps: f32, gamma: &[f32], beta: Option<&[f32]>, y: &mut [f32], xhat: &mut [f32], rstd: &mut [f32]) {
        for ((x, y), (xh, rs)) in x.chunks_exact(d).zip(y.chunks_exact_mut(d)).zip(xhat.chunks_exact_mut(d).zip(rstd.iter_mut())) {
            let mean = sum8(x) / d as f32;
            for (h, v) in xh.iter_mut().zip(x) {
                *h = v - mean;
            }
            let var = dot8(xh, xh) / d as f32;
            let r = 1.0 / (var + eps).sqrt();
            *rs = r;
            xh.iter_mut().for_each(|h| *h *= r);
            match beta {
                Some(beta) => y.iter_mut().zip(xh.iter()).zip(gamma.iter().zip(beta)).for_each(|((y, h), (g, b))| *y = h * g + b),
                None => y.iter_mut().zip(xh.iter()).zip(gamma).for_each(|((y, h), g)| *y = h * g),
            }
        }
    }
}

simd_fn! {
    /// LayerNorm's backward: `dx = r (dx̂ - mean(dx̂) - x̂ mean(dx̂ x̂))` with `dx̂ = dy γ`;
    /// adds into `dgamma` and `dbeta`. `dx` is overwritten.
    fn layer_norm_backward(
        dy: &[f32],
        xhat: &[f32],
        rstd: &[f32],
        d: usize,
        gamma: &[f32],
        dgamma: &mut [f32],
        dbeta: Option<&mut [f32]>,
        dx: &mut [f32]
    ) {
        let mut dbeta = dbeta;
        for ((dy, xh), (dx, &r)) in dy.chunks_exact(d).zip(xhat.chunks_exact(d)).zip(dx.chunks_exact_mut(d).zip(rstd)) {
            dgamma.iter_mut().zip(dy.iter().zip(xh)).for_each(|(g, (dy, h))| *g += dy * h);
            if let Some(db) = dbeta.as_deref_mut() {
                db.iter_mut().zip(dy).for_each(|(b, dy)| *b += dy);
            }
            // dx̂ = dy γ, kept in dx until the last line.
            dx.iter_mut().zip(dy.iter().zip(gamma)).for_each(|(o, (dy, g))| *o = dy * g);
            let mean_dxhat = sum8(dx) / d as f32;
            let mean_dxhat_xhat = dot8(dx, xh) / d as f32;
            dx.iter_mut().zip(xh).for_each(|(o, h)| *o = r * (*o - mean_dxhat - h * mean_dxhat_xhat));
        }
    }
}

/// Column sums of `[rows, n]` added into `out` (a bias gradient).
pub fn add_column_sums(m: &[f32], n: usize, out: &mut [f32]) {
    for row in m.chunks_exact(n) {
        for (o, v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::fused::simd::{SimdTier, use_simd_tier};

    #[test]
    fn exp_and_erf_match_references() {
        let mut worst = (0.0f32, 0.0f32);
        for i in -4000..=4000 {
            let x = i as f32 * 0.02;
            worst.0 = worst.0.max((exp(x) - x.exp()).abs() / x.exp());
        }
        for i in -3000..=3000 {
            let x = i as f32 * 0.001;
            worst.1 = worst.1.max((erf(x) as f64 - series_erf(x as f64)).abs() as f32);
        }
        assert!(worst.0 < 1e-6, "exp relative error {}", worst.0);
        assert!(worst.1 < 1e-6, "erf absolute error {}", worst.1);
        // Past 3, erf is within erfc(3) = 2.2e-5 of ±1 and must not overshoot.
        for x in [3.0f32, 3.5, 4.0, 10.0, f32::INFINITY] {
            assert!((erf(x) - 1.0).abs() < 2.3e-5 && erf(x) <= 1.0 && erf(-x) == -erf(x), "erf({x}) = {}", erf(x));
        }
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-1.0e9), 0.0);
    }

    /// erf from its Taylor/continued series in f64 (reference only).
    fn series_erf(x: f64) -> f64 {
        // Abramowitz & Stegun 7.1.5 series, converges for |x| <= 4 in f64.
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0f64;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 3.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 400.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn matmul_handles_every_transpose() {
        // a [2,3], b [3,2]
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let b = [1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let mut c = [0.0; 4];
        matmul(&mut c, &a, &b, (2, 3, 2), false, false, false);
        assert_eq!(c, [4.0, 5.0, 10.0, 11.0]);
        let a_t = [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]; // [3,2] = aᵀ
        let b_t = [1.0, 0.0, 1.0, 0.0, 1.0, 1.0]; // [2,3] = bᵀ
        let mut c2 = [1.0; 4];
        matmul(&mut c2, &a_t, &b_t, (2, 3, 2), true, true, true);
        assert_eq!(c2, [5.0, 6.0, 11.0, 12.0]);
    }

    /// Every tier's products and affine maps (the AVX-512 kernel where the CPU has
    /// it, else gemm) against a plain triple loop in f64: tails of rows and columns, every
    /// transpose, accumulating or not.
    #[test]
    fn every_tiers_matrix_products_match_a_plain_loop() {
        let mut rng = crate::tasks::Rng::new(4);
        let mut random = |len: usize| (0..len).map(|_| rng.uniform(-1.0, 1.0) as f32).collect::<Vec<f32>>();
        let shapes = [(1, 1, 1), (7, 5, 3), (8, 16, 32), (9, 33, 17), (33, 64, 64), (70, 128, 48), (13, 2112, 40), (64, 20, 100)];
        for tier in SimdTier::ALL.into_iter().filter(|t| *t <= SimdTier::detected()) {
            assert_eq!(use_simd_tier(tier), tier);
            for &(m, k, n) in &shapes {
                for (a_t, b_t, accumulate) in [(false, false, false), (true, false, true), (false, true, false), (true, true, true)] {
                    let (a, b, start) = (random(m * k), random(k * n), random(m * n));
                    let at_a = |i: usize, p: usize| if a_t { a[p * m + i] } else { a[i * k + p] } as f64;
                    let at_b = |p: usize, j: usize| if b_t { b[j * k + p] } else { b[p * n + j] } as f64;
                    let mut c = start.clone();
                    matmul(&mut c, &a, &b, (m, k, n), a_t, b_t, accumulate);
                    let fresh = matmul_new(&a, &b, (m, k, n), a_t, b_t);
                    let bias = random(n);
                    let affine = (!a_t && !b_t).then(|| affine_new(&a, &b, &bias, (m, k, n)));
                    for i in 0..m {
                        for j in 0..n {
                            let exact: f64 = (0..k).map(|p| at_a(i, p) * at_b(p, j)).sum();
                            let scale = (0..k).map(|p| (at_a(i, p) * at_b(p, j)).abs()).sum::<f64>().max(1.0);
                            let base = if accumulate { start[i * n + j] as f64 } else { 0.0 };
                            let what = format!("{tier:?} ({m},{k},{n}) a_t {a_t} b_t {b_t} at ({i},{j})");
                            assert!((c[i * n + j] as f64 - base - exact).abs() < 1e-5 * scale, "{what}: {} vs {}", c[i * n + j], base + exact);
                            assert!((fresh[i * n + j] as f64 - exact).abs() < 1e-5 * scale, "{what}, new: {} vs {exact}", fresh[i * n + j]);
                            if let Some(affine) = &affine {
                                let with_bias = exact + bias[j] as f64;
                                assert!((affine[i * n + j] as f64 - with_bias).abs() < 1e-5 * scale, "{what}, affine: {} vs {with_bias}", affine[i * n + j]);
                            }
                        }
                    }
                }
            }
        }
    }
}
