//! The softmax saturation sweep of lesson 03, computed from random vectors:
//! for each d_k, draw queries and keys with unit-variance entries, score n keys
//! per query with and without ÷√d_k, and average the largest softmax weight
//! (1/n = flat, 1 = one-hot) and the softmax's gradient size.

use crate::tasks::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct SaturationPoint {
    pub d_k: usize,
    pub max_weight_scaled: f64,
    pub max_weight_unscaled: f64,
    /// Mean ‖∂softmax/∂scores‖ (Frobenius) of a row: how much gradient passes.
    pub gradient_scaled: f64,
    pub gradient_unscaled: f64,
}

/// One point per d_k in `dims`, each averaged over `samples` queries against `keys` keys.
pub fn saturation_sweep(dims: &[usize], keys: usize, samples: usize, seed: u64) -> Vec<SaturationPoint> {
    let mut rng = Rng::new(seed);
    dims.iter()
        .map(|&d_k| {
            let (mut mw_s, mut mw_u, mut g_s, mut g_u) = (0.0, 0.0, 0.0, 0.0);
            for _ in 0..samples {
                let q: Vec<f64> = (0..d_k).map(|_| rng.normal()).collect();
                let scores: Vec<f64> = (0..keys)
                    .map(|_| (0..d_k).map(|i| q[i] * rng.normal()).sum::<f64>())
                    .collect();
                let scaled: Vec<f64> = scores.iter().map(|s| s / (d_k as f64).sqrt()).collect();
                let (p_s, p_u) = (softmax(&scaled), softmax(&scores));
                mw_s += p_s.iter().cloned().fold(0.0, f64::max);
                mw_u += p_u.iter().cloned().fold(0.0, f64::max);
                g_s += jacobian_norm(&p_s);
                g_u += jacobian_norm(&p_u);
            }
            let n = samples as f64;
            SaturationPoint {
                d_k,
                max_weight_scaled: mw_s / n,
                max_weight_unscaled: mw_u / n,
                gradient_scaled: g_s / n,
                gradient_unscaled: g_u / n,
            }
        })
        .collect()
}

fn softmax(x: &[f64]) -> Vec<f64> {
    let max = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = x.iter().map(|v| (v - max).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

/// Frobenius norm of the softmax Jacobian diag(p) - p pᵀ.
fn jacobian_norm(p: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..p.len() {
        for j in 0..p.len() {
            let v = if i == j { p[i] - p[i] * p[j] } else { -p[i] * p[j] };
            sum += v * v;
        }
    }
    sum.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unscaled_scores_saturate_as_d_k_grows_and_scaled_ones_do_not() {
        let points = saturation_sweep(&[4, 256], 16, 200, 1);
        let (small, large) = (&points[0], &points[1]);
        assert!(large.max_weight_unscaled > 0.9, "{large:?}");
        assert!(large.max_weight_scaled < 0.5, "{large:?}");
        assert!((small.max_weight_scaled - large.max_weight_scaled).abs() < 0.15);
        assert!(large.gradient_unscaled < 0.5 * large.gradient_scaled, "{large:?}");
    }
}
