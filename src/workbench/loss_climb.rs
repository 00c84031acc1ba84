//! Notices a run whose training loss climbs far above where it started without
//! ever becoming NaN. A learning rate too large can do that (a learning rate of
//! 10 on the lookup task ended one run at a loss of 14512, with no NaN): the NaN
//! check never fires, so the window says so, once per model and change.

/// Steps whose losses are averaged: one noisy step is not a trend.
const RECENT: usize = 10;

/// The first loss of the model and its latest `RECENT` losses.
#[derive(Clone, Debug, Default)]
pub struct LossClimb {
    first: Option<f32>,
    recent: [f32; RECENT],
    seen: usize,
    warned: bool,
}

impl LossClimb {
    /// Fold in a step's training loss. Returns (first loss, mean of the latest ten)
    /// the first time that mean is over twice the first loss and at least one nat
    /// above it (so a model loaded at a loss of 0.01 does not warn at 0.03).
    /// Non-finite losses are the NaN check's to report.
    pub fn observe(&mut self, loss: f32) -> Option<(f32, f32)> {
        if !loss.is_finite() {
            return None;
        }
        let first = *self.first.get_or_insert(loss);
        self.recent[self.seen % RECENT] = loss;
        self.seen += 1;
        if self.warned || self.seen < RECENT {
            return None;
        }
        let mean = self.recent.iter().sum::<f32>() / RECENT as f32;
        let climbed = mean > 2.0 * first && mean > first + 1.0;
        self.warned = climbed;
        climbed.then_some((first, mean))
    }
}

#[cfg(test)]
mod tests {
    use super::LossClimb;

    fn run(losses: impl IntoIterator<Item = f32>) -> Vec<(f32, f32)> {
        let mut climb = LossClimb::default();
        losses.into_iter().filter_map(|l| climb.observe(l)).collect()
    }

    #[test]
    fn a_loss_that_climbs_far_above_its_start_warns_once() {
        let losses = (0..100).map(|i| 3.0 + i as f32 * 0.5);
        let warnings = run(losses);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let (first, mean) = warnings[0];
        assert_eq!(first, 3.0);
        assert!(mean > 6.0 && mean < 7.0, "warned as soon as the mean passed twice the start: {mean}");
    }

    #[test]
    fn learning_noise_and_a_lone_spike_do_not_warn() {
        // Falls from 3 with noise, and one step at 20 among the rest.
        let losses = (0..300).map(|i| if i == 150 { 20.0 } else { 3.0 * (-(i as f32) / 50.0).exp() + 0.1 * ((i * 7 % 5) as f32) });
        assert!(run(losses).is_empty());
        // A loaded model near zero loss that wobbles by a few times its value.
        let losses = (0..100).map(|i| 0.01 + 0.03 * ((i % 3) as f32));
        assert!(run(losses).is_empty());
    }

    #[test]
    fn a_nan_is_left_to_the_nan_check_and_does_not_poison_the_watch() {
        // Climbs from 3 to 10 with NaNs among the steps: it still warns, once, from 3.
        let losses = (0..60).map(|i| if i % 7 == 3 { f32::NAN } else { 3.0 + 7.0 * (i as f32 / 59.0) });
        let warnings = run(losses);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].0, 3.0);
        // A NaN as the very first loss is not taken as the start.
        let losses = std::iter::once(f32::NAN).chain((0..30).map(|_| 3.0));
        assert!(run(losses).is_empty());
    }
}
