//! Steps per second, smoothed so the progress bar and ETA do not jitter.

use std::time::Instant;

#[derive(Debug, Default)]
pub struct StepTimer {
    last: Option<Instant>,
    smoothed_secs: Option<f64>,
}

impl StepTimer {
    /// Record a finished step; returns the smoothed steps per second.
    pub fn tick(&mut self) -> f32 {
        let now = Instant::now();
        if let Some(last) = self.last {
            let secs = (now - last).as_secs_f64().max(1e-9);
            self.smoothed_secs = Some(match self.smoothed_secs {
                Some(s) => 0.9 * s + 0.1 * secs,
                None => secs,
            });
        }
        self.last = Some(now);
        self.smoothed_secs.map_or(0.0, |s| (1.0 / s) as f32)
    }

    /// Forget the last tick (after a pause, so the pause does not count as a step).
    pub fn pause(&mut self) {
        self.last = None;
    }
}
