//! The softmax of the masked cross-entropy, row by row over the logits, 8 lanes at
//! a time with the step's own e^x (compiled for each tier like the other loops).
//! With one scalar e^x per logit it had made a tenth of a character model's step:
//! in a narrow model the softmax over the logits costs more than the product that
//! makes them. `chunk::run_chunk` reads the loss and its gradient from these.

use super::kernels::{exp, sum8, sum8_of};
use super::simd::simd_fn;

simd_fn! {
    /// Each row's log Σ_j e^(row_j), as log Σ_j e^(row_j − shift) + shift with the
    /// row's `shift` (its largest logit): rows of width `vocab`, one value per row
    /// into `log_sum`. For a held-out evaluation, which needs no gradient.
    fn log_sum_exp_rows(logits: &[f32], vocab: usize, shift: &[f32], log_sum: &mut [f32]) {
        for ((row, &b), out) in logits.chunks_exact(vocab).zip(shift).zip(log_sum.iter_mut()) {
            // In `sum8`'s order, as training adds them: the same bits.
            *out = sum8_of(row, |v| exp(v - b)).ln() + b;
        }
    }
}

simd_fn! {
    /// `log_sum_exp_rows` for training, which also needs the softmax: writes each
    /// row's log Σ_j e^(row_j) into `log_sum` and its softmax times the row's
    /// `scale`, scale · e^(row_j − shift) / Σ_k e^(row_k − shift), into `p`. One
    /// e^x per logit, 8 lanes at a time.
    fn scaled_softmax_rows(logits: &[f32], vocab: usize, shift: &[f32], scale: &[f32], log_sum: &mut [f32], p: &mut [f32]) {
        for (((row, out), (&b, &c)), ls) in logits.chunks_exact(vocab).zip(p.chunks_exact_mut(vocab)).zip(shift.iter().zip(scale)).zip(log_sum.iter_mut()) {
            for (o, &v) in out.iter_mut().zip(row) {
                *o = exp(v - b);
            }
            let sum = sum8(out);
            *ls = sum.ln() + b;
            let ratio = c / sum;
            out.iter_mut().for_each(|o| *o *= ratio);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::fused::simd::{SimdTier, use_simd_tier};

    /// The cross-entropy's row kernels on every tier against f64: log Σ_j e^(x_j)
    /// of rows as wide as 8 lanes, narrower, and with a tail (logits in ±30, shifted
    /// by each row's largest), and the scaled softmax, element by element and summed.
    /// (For logits in ±30 the softmax's 1e-5 holds about twice over: f32's rounding
    /// of x − shift, up to 60 here, alone costs up to 4e-6 of e^x. Wider logits would
    /// need a looser bound, not a fix.)
    #[test]
    fn every_tiers_softmax_rows_match_f64() {
        let mut rng = crate::tasks::Rng::new(9);
        for tier in SimdTier::ALL.into_iter().filter(|t| *t <= SimdTier::detected()) {
            assert_eq!(use_simd_tier(tier), tier);
            for vocab in [1, 7, 8, 13, 64, 100] {
                let rows = 5;
                let logits: Vec<f32> = (0..rows * vocab).map(|_| rng.uniform(-30.0, 30.0) as f32).collect();
                let shift: Vec<f32> = logits.chunks(vocab).map(|r| r.iter().copied().fold(f32::NEG_INFINITY, f32::max)).collect();
                let scale: Vec<f32> = (0..rows).map(|i| 0.25 + i as f32).collect();
                let mut log_sum = vec![0.0; rows];
                log_sum_exp_rows(&logits, vocab, &shift, &mut log_sum);
                let (mut p, mut training_log_sum) = (vec![0.0; rows * vocab], vec![0.0; rows]);
                scaled_softmax_rows(&logits, vocab, &shift, &scale, &mut training_log_sum, &mut p);
                for (i, row) in logits.chunks(vocab).enumerate() {
                    let what = format!("{tier:?}, vocab {vocab}, row {i}");
                    let exact = row.iter().map(|&v| (v as f64).exp()).sum::<f64>().ln();
                    for (which, got) in [("evaluation", log_sum[i]), ("training", training_log_sum[i])] {
                        assert!((got as f64 - exact).abs() < 1e-6 * exact.abs().max(1.0), "{what}: {which}'s log Σ e^x {got} vs {exact}");
                    }
                    let c = scale[i] as f64;
                    for (j, &v) in row.iter().enumerate() {
                        let want = c * (v as f64 - exact).exp();
                        let got = p[i * vocab + j] as f64;
                        assert!((got - want).abs() <= 1e-5 * want + 1e-30, "{what}, logit {j}: {got} vs {want}");
                    }
                    let total: f64 = p[i * vocab..(i + 1) * vocab].iter().map(|&x| x as f64).sum();
                    assert!((total - c).abs() < 1e-5 * c, "{what}: the softmax sums to {total}, not {c}");
                }
            }
        }
        use_simd_tier(SimdTier::detected());
    }
}
